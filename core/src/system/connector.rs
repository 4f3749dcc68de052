//! Connectors between two markers: Exudyn's `ObjectConnectorSpringDamper` and
//! `ObjectConnectorCartesianSpringDamper` (position markers), `ObjectConnectorTorsionalSpringDamper`
//! (rigid markers). The force (torque) acts on both markers' bodies through their Jacobians (as
//! Exudyn's bodies): `+F` at marker 0 and `-F` at marker 1, so the pair is in equilibrium and
//! the total momentum is kept.
//!
//! With the marker positions `p0, p1` (m, world) and velocities `v0, v1` (m/s, world):
//!
//! - spring-damper: `Δ = p1 - p0`, `L = |Δ|`, `n = Δ / L`, `dL/dt = n · (v1 - v0)`,
//!   `f = k (L - l0) + d dL/dt + f0` (N, positive = tension), `F = f n` (N, world).
//!   `L = 0` has no direction: the step fails with `ZeroLength(Length)` at the connector.
//! - Cartesian spring-damper: `F = k .* (Δ - offset) + d .* (v1 - v0)` (N, world;
//!   per-axis stiffness `k` N/m, damping `d` N s/m, `offset` m).
//! - torsional spring-damper, about the z axis `z_0` of marker 0's frame (a revolute joint's
//!   axis): the relative angle `phi` (rad, the z angle of Exudyn's `RotXYZ` of
//!   `A_m0^T A_m1`, in (-pi, pi]) and rate `w = z_0 . (w_1 - w_0)` (rad/s), the torque
//!   `tau = k wrap(phi - offset) + d (w - rate_offset) + tau_0` (N m; `wrap` to (-pi, pi], so a
//!   target angle may grow without bound), `tau z_0` on marker 0's body and `-tau z_0` on marker
//!   1's: a controller drives a joint through `offset` and `rate_offset`
//!   ([`System::set_torsional_target`](super::System::set_torsional_target)).

use super::body_states::BodyStates;
use super::index::{item, MarkerIndex};
use super::marker::{Marker, MarkerKind};
use super::node_force::NodeForce;
use crate::bodies::rigid_body::tait_bryan_xyz;
use crate::error::{finite, finite_all};
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Exudyn's `ObjectConnectorSpringDamper` (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringDamper<T: Real> {
    markers: [MarkerIndex; 2],
    stiffness: T,
    damping: T,
    reference_length: T,
    force: T,
}

impl<T: Real> SpringDamper<T> {
    /// A spring-damper from `markers[0]` to `markers[1]`: stiffness `k` (N/m, >= 0), damping
    /// `d` (N s/m, >= 0), reference length `l0` (m, >= 0), force offset `f0` (N; Exudyn's
    /// `force`, added to the spring force).
    ///
    /// Errors: `SameMarker` if both markers are one; `NotFinite(Stiffness | Damping | Length |
    /// Force)`; `OutOfRange(Stiffness | Damping | Length)` for a negative value.
    pub fn new(markers: [MarkerIndex; 2], k: T, d: T, l0: T, f0: T) -> Result<Self> {
        if markers[0] == markers[1] {
            return Err(Error::SameMarker);
        }
        for (v, p) in [
            (k, Param::Stiffness),
            (d, Param::Damping),
            (l0, Param::Length),
        ] {
            finite(v, p)?;
            if v < T::zero() {
                return Err(Error::OutOfRange(p));
            }
        }
        finite(f0, Param::Force)?;
        Ok(Self {
            markers,
            stiffness: k,
            damping: d,
            reference_length: l0,
            force: f0,
        })
    }

    /// Stiffness `k` (N/m).
    pub fn stiffness(&self) -> T {
        self.stiffness
    }
    /// Damping `d` (N s/m).
    pub fn damping(&self) -> T {
        self.damping
    }
    /// Reference length `l0` (m).
    pub fn reference_length(&self) -> T {
        self.reference_length
    }
    /// Force offset `f0` (N).
    pub fn force_offset(&self) -> T {
        self.force
    }

    /// The force `F = f n` (N, world) on marker 0 (marker 1 gets `-F`) for marker 0 at `p0`
    /// moving with `v0` and marker 1 at `p1` with `v1`; `ZeroLength(Length)` if `p0 = p1`.
    pub fn force_on_marker0(
        &self,
        p0: &Vector3<T>,
        v0: &Vector3<T>,
        p1: &Vector3<T>,
        v1: &Vector3<T>,
    ) -> Result<Vector3<T>> {
        let delta = p1 - p0;
        let l = delta.dot(&delta).sqrt_l();
        if l <= T::zero() {
            return Err(Error::ZeroLength(Param::Length));
        }
        let n = delta / l;
        let l_t = n.dot(&(v1 - v0));
        let f = self.stiffness * (l - self.reference_length) + self.damping * l_t + self.force;
        Ok(n * f)
    }
}

/// Exudyn's `ObjectConnectorCartesianSpringDamper` (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CartesianSpringDamper<T: Real> {
    markers: [MarkerIndex; 2],
    stiffness: Vector3<T>,
    damping: Vector3<T>,
    offset: Vector3<T>,
}

impl<T: Real> CartesianSpringDamper<T> {
    /// A Cartesian spring-damper from `markers[0]` to `markers[1]`: per-axis stiffness `k`
    /// (N/m, >= 0), damping `d` (N s/m, >= 0), `offset` (m, world).
    ///
    /// Errors: `SameMarker`; `NotFinite(Stiffness | Damping | Position)`;
    /// `OutOfRange(Stiffness | Damping)` for a negative component.
    pub fn new(
        markers: [MarkerIndex; 2],
        k: Vector3<T>,
        d: Vector3<T>,
        offset: Vector3<T>,
    ) -> Result<Self> {
        if markers[0] == markers[1] {
            return Err(Error::SameMarker);
        }
        for (v, p) in [(k, Param::Stiffness), (d, Param::Damping)] {
            finite_all(&v, p)?;
            if v.iter().any(|x| *x < T::zero()) {
                return Err(Error::OutOfRange(p));
            }
        }
        finite_all(&offset, Param::Position)?;
        Ok(Self {
            markers,
            stiffness: k,
            damping: d,
            offset,
        })
    }

    /// Per-axis stiffness (N/m).
    pub fn stiffness(&self) -> Vector3<T> {
        self.stiffness
    }
    /// Per-axis damping (N s/m).
    pub fn damping(&self) -> Vector3<T> {
        self.damping
    }
    /// Offset (m, world).
    pub fn offset(&self) -> Vector3<T> {
        self.offset
    }

    /// `F = k .* (p1 - p0 - offset) + d .* (v1 - v0)` (N, world) on marker 0 (marker 1 gets
    /// `-F`).
    pub fn force_on_marker0(
        &self,
        p0: &Vector3<T>,
        v0: &Vector3<T>,
        p1: &Vector3<T>,
        v1: &Vector3<T>,
    ) -> Vector3<T> {
        self.stiffness.component_mul(&(p1 - p0 - self.offset))
            + self.damping.component_mul(&(v1 - v0))
    }
}

/// Exudyn's `ObjectConnectorTorsionalSpringDamper` between two rigid markers (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TorsionalSpringDamper<T: Real> {
    markers: [MarkerIndex; 2],
    stiffness: T,
    damping: T,
    offset: T,
    rate_offset: T,
    torque: T,
}

impl<T: Real> TorsionalSpringDamper<T> {
    /// A torsional spring-damper about marker 0's z axis: stiffness `k` (N m/rad, >= 0),
    /// damping `d` (N m s/rad, >= 0), `offset` (rad) and a constant torque `tau_0` (N m;
    /// Exudyn's `torque`); the rate offset is 0.
    ///
    /// Errors: `SameMarker`; `NotFinite(Stiffness | Damping | Position | Torque)`;
    /// `OutOfRange(Stiffness | Damping)` for a negative value.
    pub fn new(markers: [MarkerIndex; 2], k: T, d: T, offset: T, tau_0: T) -> Result<Self> {
        if markers[0] == markers[1] {
            return Err(Error::SameMarker);
        }
        for (v, p) in [(k, Param::Stiffness), (d, Param::Damping)] {
            finite(v, p)?;
            if v < T::zero() {
                return Err(Error::OutOfRange(p));
            }
        }
        finite(offset, Param::Position)?;
        finite(tau_0, Param::Torque)?;
        Ok(Self {
            markers,
            stiffness: k,
            damping: d,
            offset,
            rate_offset: T::zero(),
            torque: tau_0,
        })
    }

    /// The same spring-damper with the target `offset` (rad) and `rate_offset` (rad/s).
    /// `NotFinite(Position | Velocity)`.
    pub fn with_target(mut self, offset: T, rate_offset: T) -> Result<Self> {
        self.offset = finite(offset, Param::Position)?;
        self.rate_offset = finite(rate_offset, Param::Velocity)?;
        Ok(self)
    }

    /// The relative angle `phi` (rad, in (-pi, pi]) and rate (rad/s) of marker 1 about marker
    /// 0's z axis, from the marker frames `a0`, `a1` (marker to world) and the markers' angular
    /// velocities `w0`, `w1` (rad/s, world).
    pub fn angle_and_rate(
        a0: &Matrix3<T>,
        a1: &Matrix3<T>,
        w0: &Vector3<T>,
        w1: &Vector3<T>,
    ) -> (T, T) {
        let phi = tait_bryan_xyz(&(a0.transpose() * a1)).z;
        (phi, a0.column(2).dot(&(w1 - w0)))
    }

    /// The torque `tau` (N m) at the angle `phi` (rad) and rate `w` (rad/s) (module docs).
    pub fn torque(&self, phi: T, w: T) -> T {
        let pi = T::c(core::f64::consts::PI);
        let two_pi = pi + pi;
        let mut e = phi - self.offset;
        // wrap to (-pi, pi]: floor((e + pi) / 2 pi) turns.
        let turns = ((e + pi) / two_pi).floor();
        e -= turns * two_pi;
        if e <= -pi {
            e += two_pi;
        }
        self.stiffness * e + self.damping * (w - self.rate_offset) + self.torque
    }
}

/// A connector of a system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Connector<T: Real> {
    /// Exudyn's `ObjectConnectorSpringDamper`.
    SpringDamper(SpringDamper<T>),
    /// Exudyn's `ObjectConnectorCartesianSpringDamper`.
    CartesianSpringDamper(CartesianSpringDamper<T>),
    /// Exudyn's `ObjectConnectorTorsionalSpringDamper`.
    TorsionalSpringDamper(TorsionalSpringDamper<T>),
}

/// The generalized forces of a connector on the nodes of its two markers.
pub type ConnectorForces<T> = [Option<NodeForce<T>>; 2];

impl<T: Real> Connector<T> {
    /// The two markers `[marker 0, marker 1]`.
    pub fn markers(&self) -> [MarkerIndex; 2] {
        match self {
            Connector::SpringDamper(c) => c.markers,
            Connector::CartesianSpringDamper(c) => c.markers,
            Connector::TorsionalSpringDamper(c) => c.markers,
        }
    }

    /// `true` if the force depends on the velocities (any damping non-zero).
    pub fn is_velocity_dependent(&self) -> bool {
        match self {
            Connector::SpringDamper(c) => c.damping != T::zero(),
            Connector::CartesianSpringDamper(c) => c.damping.iter().any(|d| *d != T::zero()),
            Connector::TorsionalSpringDamper(c) => c.damping != T::zero(),
        }
    }

    /// Checks the markers: they exist (`UnknownIndex`), differ (`SameMarker`) and are position
    /// markers (rigid markers for the torsional spring-damper; `MarkerNotSupported`).
    pub fn check(&self, markers: &[Marker<T>]) -> Result<()> {
        let [a, b] = self.markers();
        if a == b {
            return Err(Error::SameMarker);
        }
        let kind = match self {
            Connector::TorsionalSpringDamper(_) => MarkerKind::Rigid,
            _ => MarkerKind::Position,
        };
        for i in [a, b] {
            if !item(markers, i.get())?.is(kind) {
                return Err(Error::MarkerNotSupported);
            }
        }
        Ok(())
    }

    /// The force and the torque on marker 0 (N, N m, world) in the states of `view`.
    pub fn force(
        &self,
        view: &BodyStates<'_, T>,
        markers: &[Marker<T>],
    ) -> Result<(Vector3<T>, Vector3<T>)> {
        let [a, b] = self.markers();
        let (m0, m1) = (item(markers, a.get())?, item(markers, b.get())?);
        let zero = Vector3::zeros();
        if let Connector::TorsionalSpringDamper(c) = self {
            let ((a0, w0), (a1, w1)) = (m0.rotation(view)?, m1.rotation(view)?);
            let (phi, w) = TorsionalSpringDamper::angle_and_rate(&a0, &a1, &w0, &w1);
            return Ok((zero, a0.column(2) * c.torque(phi, w)));
        }
        let (p0, v0) = m0.motion(view)?;
        let (p1, v1) = m1.motion(view)?;
        match self {
            Connector::SpringDamper(c) => Ok((c.force_on_marker0(&p0, &v0, &p1, &v1)?, zero)),
            Connector::CartesianSpringDamper(c) => {
                Ok((c.force_on_marker0(&p0, &v0, &p1, &v1), zero))
            }
            Connector::TorsionalSpringDamper(_) => Err(Error::MarkerNotSupported),
        }
    }

    /// The generalized forces on both markers' nodes: `+F` (and `+tau`) through marker 0's
    /// Jacobians, `-F` (`-tau`) through marker 1's.
    pub fn generalized_forces(
        &self,
        view: &BodyStates<'_, T>,
        markers: &[Marker<T>],
    ) -> Result<ConnectorForces<T>> {
        let (f, tau) = self.force(view, markers)?;
        let [a, b] = self.markers();
        let q0 = item(markers, a.get())?.generalized_force(view, &f, &tau)?;
        let q1 = item(markers, b.get())?.generalized_force(view, &(-f), &(-tau))?;
        Ok([q0, q1])
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const M: [MarkerIndex; 2] = [MarkerIndex(0), MarkerIndex(1)];

    #[test]
    fn spring_damper_force_by_hand() {
        // p1 - p0 = [3, 4, 0], L = 5, n = [0.6, 0.8, 0]; v1 - v0 = [1, 0, 0], dL/dt = 0.6;
        // f = 10 (5 - 2) + 2 * 0.6 + 0.5 = 31.7 N (tension): marker 0 is pulled towards 1.
        let c = SpringDamper::new(M, 10.0, 2.0, 2.0, 0.5).unwrap();
        let f = c
            .force_on_marker0(
                &Vector3::new(1.0, 1.0, 0.0),
                &Vector3::new(0.0, 0.0, 0.0),
                &Vector3::new(4.0, 5.0, 0.0),
                &Vector3::new(1.0, 0.0, 0.0),
            )
            .unwrap();
        let want = Vector3::new(0.6, 0.8, 0.0) * 31.7;
        assert!((f - want).norm() < 1e-13, "{f}");
        let p = Vector3::new(1.0, 2.0, 3.0);
        assert_eq!(
            c.force_on_marker0(&p, &p, &p, &p),
            Err(Error::ZeroLength(Param::Length))
        );
        assert!(Connector::SpringDamper(c).is_velocity_dependent());
        let undamped = SpringDamper::new(M, 10.0, 0.0, 2.0, 0.0).unwrap();
        assert!(!Connector::SpringDamper(undamped).is_velocity_dependent());
    }

    #[test]
    fn cartesian_force_by_hand() {
        let c = CartesianSpringDamper::new(
            M,
            Vector3::new(1.0, 2.0, 3.0),
            Vector3::new(0.5, 0.0, 0.0),
            Vector3::new(0.1, 0.0, 0.0),
        )
        .unwrap();
        let f = c.force_on_marker0(
            &Vector3::zeros(),
            &Vector3::zeros(),
            &Vector3::new(1.1, 1.0, -1.0),
            &Vector3::new(2.0, 7.0, 7.0),
        );
        // k .* (p1 - p0 - offset) + d .* (v1 - v0) = [1 + 1, 2, -3]
        assert!((f - Vector3::new(2.0, 2.0, -3.0)).norm() < 1e-15, "{f}");
        assert!(Connector::CartesianSpringDamper(c).is_velocity_dependent());
        assert_eq!(
            CartesianSpringDamper::new(
                M,
                Vector3::zeros(),
                Vector3::new(0.0, -1.0, 0.0),
                Vector3::zeros()
            ),
            Err(Error::OutOfRange(Param::Damping))
        );
        assert_eq!(
            CartesianSpringDamper::new(
                M,
                Vector3::zeros(),
                Vector3::zeros(),
                Vector3::new(f64::INFINITY, 0.0, 0.0)
            ),
            Err(Error::NotFinite(Param::Position))
        );
    }
}
