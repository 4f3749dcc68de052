//! The 3D rigid body (Exudyn's `ObjectRigidBody`): mass, inertia about the centre of
//! mass, centre of mass at an offset from the reference point, on a [`RigidState`] node.
//!
//! Frames and coordinates:
//! - the node (reference point) is at `r` (m, world) with orientation `R_0b` (body to world);
//! - the centre of mass (COM) is at `c` (m, **body** frame) from the reference point, so
//!   `r_com = r + R_0b c`, `v_com = v + R_0b (w_b x c)`;
//! - the inertia tensor `I` (kg m^2) is about the COM, resolved in the body frame (full
//!   symmetric 3x3, not necessarily diagonal);
//! - the velocity coordinates of the node are `q_dot = [v (world, of the reference point); w_b
//!   (body frame)]`, 6 of them; the Jacobians of [`Body`] are with respect to these.
//!
//! A local position `p` (m, body frame, from the reference point) moves with
//! `v_0(p) = v + R_0b (w_b x p) = v - R_0b [p]x w_b`, hence
//! `Jpos(p) = [E3, -R_0b [p]x]` and `Jrot = [0, R_0b]` (`omega_0 = R_0b w_b`), and a force `f`
//! (N, world) at `p` and a torque `tau` (N m, world) give `Q = Jpos^T f + Jrot^T tau =
//! [f; p x (R_0b^T f) + R_0b^T tau]`: a world force and a body-frame torque about the reference
//! point.

use crate::body::{Body, Jacobian, MAX_COORDINATES};
use crate::error::{finite, finite_all};
use crate::inertia::mass_properties::symmetrize;
use crate::inertia::{
    inertia_tolerance, is_positive_semidefinite, satisfies_triangle_inequality, MassProperties,
};
use crate::math::{skew, Quaternion};
use crate::state::RigidState;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A validated rigid body: mass, inertia about the COM (body frame), COM offset (body frame),
/// and the reference configuration that [`OutputVariableType::Displacement`] is measured from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody<T> {
    mass: T,
    inertia: Matrix3<T>,
    inertia_inverse: Matrix3<T>,
    center_of_mass: Vector3<T>,
    reference_position: Vector3<T>,
    reference_orientation: Quaternion<T>,
}

impl<T: Real> RigidBody<T> {
    /// A rigid body of `mass` (kg, > 0), `inertia` (kg m^2, about the COM, body frame) and the
    /// COM at `center_of_mass` (m, body frame, from the reference point). The reference
    /// configuration is the origin with identity orientation (see [`RigidBody::with_reference`]).
    ///
    /// Errors: `NotFinite(Mass | Inertia | CenterOfMass)`; `OutOfRange(Mass)` if `mass <= 0`;
    /// `OutOfRange(Inertia)` unless `inertia` is symmetric and its principal moments
    /// `I_1 <= I_2 <= I_3` satisfy the triangle inequality `I_1 + I_2 >= I_3` (both to
    /// [`inertia_tolerance`], the tolerance of [`MassProperties`], relative to `tr(I)`, so CAD
    /// values rounded to six digits pass; equality, a flat body such as diag(1, 2, 3), is
    /// allowed) and `inertia` is positive definite beyond rounding (leading minors > 0 and
    /// `I_1 >= 8 EPS tr(I)`): a rod or a point has no rotational dynamics to integrate.
    /// Decided without eigenvalues ([`crate::inertia::physical`]). The stored tensor is the
    /// symmetric part.
    pub fn new(mass: T, inertia: Matrix3<T>, center_of_mass: Vector3<T>) -> Result<Self> {
        finite(mass, Param::Mass)?;
        if mass <= T::zero() {
            return Err(Error::OutOfRange(Param::Mass));
        }
        finite_all(&inertia, Param::Inertia)?;
        finite_all(&center_of_mass, Param::CenterOfMass)?;
        let inertia = checked_inertia(&inertia)?;
        let inertia_inverse = spd_inverse(&inertia).ok_or(Error::OutOfRange(Param::Inertia))?;
        Ok(Self {
            mass,
            inertia,
            inertia_inverse,
            center_of_mass,
            reference_position: Vector3::zeros(),
            reference_orientation: Quaternion::identity(),
        })
    }

    /// [`RigidBody::new`] from [`MassProperties`] resolved in the body frame: `mp.com` is the COM offset (m, body frame), `mp.inertia` the inertia about
    /// the COM (kg m^2, body frame), as [`Cylinder::mass_properties`](crate::inertia::Cylinder)
    /// returns them in frame_a.
    pub fn from_mass_properties(mp: &MassProperties<T>) -> Result<Self> {
        Self::new(mp.mass, mp.inertia, mp.com)
    }

    /// [`RigidBody::new`] from principal moments `[I1, I2, I3]` about the body axes (kg m^2).
    pub fn from_principal(mass: T, moments: [T; 3], center_of_mass: Vector3<T>) -> Result<Self> {
        Self::new(
            mass,
            Matrix3::from_diagonal(&Vector3::new(moments[0], moments[1], moments[2])),
            center_of_mass,
        )
    }

    /// [`RigidBody::new`] from Exudyn's inertia 6-vector `[Jxx, Jyy, Jzz, Jyz, Jxz, Jxy]`
    /// (kg m^2, about the COM, body frame).
    pub fn from_exudyn_inertia(mass: T, j: [T; 6], center_of_mass: Vector3<T>) -> Result<Self> {
        let inertia = Matrix3::new(j[0], j[5], j[4], j[5], j[1], j[3], j[4], j[3], j[2]);
        Self::new(mass, inertia, center_of_mass)
    }

    /// Sets the reference configuration (position of the reference point, m, world; orientation
    /// `R_0b`) that `Displacement` is measured from: `Displacement(p) = r + R_0b p - (r_ref +
    /// R_ref p)`. Exudyn keeps this as the node's reference coordinates; mbs keeps it with the
    /// body so the state stays plain data. Errors: `NotFinite(Position)`,
    /// `NonFiniteState` (non-finite quaternion), `OutOfRange(Orientation)` (not a unit
    /// quaternion).
    pub fn with_reference(
        mut self,
        position: Vector3<T>,
        orientation: Quaternion<T>,
    ) -> Result<Self> {
        finite_all(&position, Param::Position)?;
        RigidState::at_rest(position, orientation).validate()?;
        self.reference_position = position;
        self.reference_orientation = orientation;
        Ok(self)
    }

    /// Mass (kg).
    #[inline]
    pub fn mass(&self) -> T {
        self.mass
    }

    /// Inertia tensor about the COM, body frame (kg m^2), symmetric.
    #[inline]
    pub fn inertia(&self) -> &Matrix3<T> {
        &self.inertia
    }

    /// Inverse of the inertia tensor (1/(kg m^2), body frame), computed once at construction.
    #[inline]
    pub fn inertia_inverse(&self) -> &Matrix3<T> {
        &self.inertia_inverse
    }

    /// COM offset from the reference point (m, body frame).
    #[inline]
    pub fn center_of_mass(&self) -> &Vector3<T> {
        &self.center_of_mass
    }

    /// `true` if the COM is the reference point (`c = 0`): the steps then skip the COM mapping.
    /// (A bit test of the three entries, `+0` and `-0` both count as zero.)
    // Inlined: tested twice in every step.
    #[inline(always)]
    pub fn com_at_reference(&self) -> bool {
        crate::finite::all_zero(&self.center_of_mass)
    }

    /// Reference position for `Displacement` (m, world).
    #[inline]
    pub fn reference_position(&self) -> &Vector3<T> {
        &self.reference_position
    }

    /// Reference orientation for `Displacement` (`R_0b` quaternion).
    #[inline]
    pub fn reference_orientation(&self) -> &Quaternion<T> {
        &self.reference_orientation
    }

    /// COM position `r + R_0b c` (m, world).
    #[inline]
    pub fn com_position(&self, state: &RigidState<T>) -> Vector3<T> {
        state.position + state.orientation.rotate(&self.center_of_mass)
    }

    /// COM velocity `v + R_0b (w_b x c)` (m/s, world).
    #[inline]
    pub fn com_velocity(&self, state: &RigidState<T>) -> Vector3<T> {
        state.velocity
            + state
                .orientation
                .rotate(&state.angular_velocity.cross(&self.center_of_mass))
    }

    /// Kinetic energy `1/2 m |v_com|^2 + 1/2 w_b . I w_b` (J): the COM's translation plus the
    /// rotation about the COM (König's theorem, so the offset `c` enters only through `v_com`).
    pub fn kinetic_energy(&self, state: &RigidState<T>) -> T {
        let vc = self.com_velocity(state);
        let w = &state.angular_velocity;
        let half = T::c(0.5);
        half * self.mass * vc.dot(&vc) + half * w.dot(&(self.inertia * w))
    }

    /// Angular momentum about the COM, resolved in the world frame, `R_0b I w_b` (kg m^2/s).
    /// Torque-free it is constant in magnitude and direction.
    pub fn angular_momentum_world(&self, state: &RigidState<T>) -> Vector3<T> {
        state
            .orientation
            .rotate(&(self.inertia * state.angular_velocity))
    }
}

/// Symmetrizes and checks an inertia tensor (finite already checked).
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
fn checked_inertia<T: Real>(i: &Matrix3<T>) -> Result<Matrix3<T>> {
    let bad = Err(Error::OutOfRange(Param::Inertia));
    let tol = inertia_tolerance::<T>();
    let scale = i.iter().fold(T::zero(), |m, x| m.max(x.abs_l()));
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        if (i[(a, b)] - i[(b, a)]).abs_l() > tol * scale {
            return bad;
        }
    }
    let s = symmetrize(i);
    // Positive definite (Sylvester: leading principal minors > 0), and beyond rounding:
    // I_1 >= 8 EPS tr(I), i.e. I - 8 EPS tr(I) E positive semi-definite (a rod or a point,
    // rotated and rounded, is refused rather than judged by the sign of a rounding error).
    let m1 = s[(0, 0)];
    let m2 = s[(0, 0)] * s[(1, 1)] - s[(0, 1)] * s[(1, 0)];
    let m3 = det3(&s);
    if !(m1 > T::zero() && m2 > T::zero() && m3 > T::zero()) {
        return bad;
    }
    let floor = (s[(0, 0)] + s[(1, 1)] + s[(2, 2)]) * T::EPS * T::c(8.0);
    if !is_positive_semidefinite(&(s - Matrix3::from_diagonal_element(floor))) {
        return bad;
    }
    // I_1 + I_2 >= I_3 - tol tr(I) (tr(I) = I_1 + I_2 + I_3 here), by principal minors: no
    // eigenvalues, so no acos/cos in a firmware that builds a body.
    if !satisfies_triangle_inequality(&s, tol) {
        return bad;
    }
    Ok(s)
}

/// Determinant of a 3x3 matrix (cofactor expansion along the first row).
#[inline]
fn det3<T: Real>(a: &Matrix3<T>) -> T {
    a[(0, 0)] * (a[(1, 1)] * a[(2, 2)] - a[(1, 2)] * a[(2, 1)])
        - a[(0, 1)] * (a[(1, 0)] * a[(2, 2)] - a[(1, 2)] * a[(2, 0)])
        + a[(0, 2)] * (a[(1, 0)] * a[(2, 1)] - a[(1, 1)] * a[(2, 0)])
}

/// Inverse of a symmetric positive definite 3x3 matrix by its adjugate (once per body).
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
fn spd_inverse<T: Real>(a: &Matrix3<T>) -> Option<Matrix3<T>> {
    let d = det3(a);
    if !(d > T::zero()) {
        return None;
    }
    let c = |r0: usize, c0: usize, r1: usize, c1: usize| {
        a[(r0, c0)] * a[(r1, c1)] - a[(r0, c1)] * a[(r1, c0)]
    };
    let adj = Matrix3::new(
        c(1, 1, 2, 2),
        -c(0, 1, 2, 2),
        c(0, 1, 1, 2),
        -c(1, 0, 2, 2),
        c(0, 0, 2, 2),
        -c(0, 0, 1, 2),
        c(1, 0, 2, 1),
        -c(0, 0, 2, 1),
        c(0, 0, 1, 1),
    );
    let inv = adj / d;
    crate::finite::all_finite(&inv).then_some(inv)
}

/// Tait-Bryan angles `[a, b, c]` (rad) of the x-y-z sequence, `R_0b = Rx(a) Ry(b) Rz(c)`
/// (rotations about the current, moved axes): Exudyn's `RotXYZ` rotation parameters and
/// Modelica's `axesRotations({1,2,3}, angles)` (whose `T` is `R_0b^T`). Ranges: `a, c` in
/// (-pi, pi], `b` in [-pi/2, pi/2]; at gimbal lock (`|b| = pi/2`) `c = 0`.
pub fn tait_bryan_xyz<T: Real>(r: &Matrix3<T>) -> Vector3<T> {
    // R = [[cb cc, -cb sc, sb], [.., .., -sa cb], [.., .., ca cb]]
    let cb = r[(0, 0)].hypot_l(r[(0, 1)]);
    let b = r[(0, 2)].atan2_l(cb);
    if cb > T::c(16.0) * T::EPS {
        let a = (-r[(1, 2)]).atan2_l(r[(2, 2)]);
        let c = (-r[(0, 1)]).atan2_l(r[(0, 0)]);
        Vector3::new(a, b, c)
    } else {
        // cb = 0: with c = 0 the second column is [0, ca, sa].
        Vector3::new(r[(2, 1)].atan2_l(r[(1, 1)]), b, T::zero())
    }
}

impl<T: Real> Body<T> for RigidBody<T> {
    type State = RigidState<T>;

    fn coordinates(&self) -> usize {
        MAX_COORDINATES
    }

    /// Outputs (`p` = `local_position`, m, body frame, from the reference point; `R = R_0b`;
    /// `a`, `alpha_b` the state's last accelerations):
    /// - `Position`: `r + R p` (m, world); `Velocity`: `v + R (w_b x p)` (m/s, world);
    /// - `Acceleration`: `a + R (alpha_b x p + w_b x (w_b x p))` (m/s^2, world);
    /// - `Displacement`: `r + R p - (r_ref + R_ref p)` (m, world; see [`RigidBody::with_reference`]);
    /// - `RotationMatrix`: `R_0b`; `Rotation`: Tait-Bryan x-y-z angles ([`tait_bryan_xyz`], rad);
    /// - `AngularVelocity`: `R w_b` (rad/s, world); `AngularVelocityLocal`: `w_b` (rad/s, body);
    /// - `AngularAcceleration`: `R alpha_b` (rad/s^2, world);
    /// - `KineticEnergy`: [`RigidBody::kinetic_energy`] (J).
    ///
    /// The body-wide outputs (rotation, angular rates, energy) ignore `p`. `PotentialEnergy` is
    /// `OutputNotAvailable` (a rigid body stores none). Errors: `NotFinite(LocalPosition)`,
    /// `NonFiniteState` / `OutOfRange(Orientation)` for an invalid state.
    fn output(
        &self,
        state: &RigidState<T>,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        finite_all(local_position, Param::LocalPosition)?;
        state.validate_screened()?;
        let p = local_position;
        let q = &state.orientation;
        let w = &state.angular_velocity;
        use OutputVariableType as O;
        Ok(match var {
            O::Position => OutputValue::Vector3(state.position + q.rotate(p)),
            O::Velocity => OutputValue::Vector3(state.velocity + q.rotate(&w.cross(p))),
            O::Acceleration => OutputValue::Vector3(
                state.acceleration
                    + q.rotate(&(state.angular_acceleration.cross(p) + w.cross(&w.cross(p)))),
            ),
            O::Displacement => OutputValue::Vector3(
                state.position + q.rotate(p)
                    - (self.reference_position + self.reference_orientation.rotate(p)),
            ),
            O::RotationMatrix => OutputValue::Matrix3(q.to_matrix()),
            O::Rotation => OutputValue::Vector3(tait_bryan_xyz(&q.to_matrix())),
            O::AngularVelocity => OutputValue::Vector3(q.rotate(w)),
            O::AngularVelocityLocal => OutputValue::Vector3(*w),
            O::AngularAcceleration => OutputValue::Vector3(q.rotate(&state.angular_acceleration)),
            O::KineticEnergy => OutputValue::Scalar(self.kinetic_energy(state)),
            _ => return Err(Error::OutputNotAvailable),
        })
    }

    /// `Jpos(p) = [E3, -R_0b [p]x]` (3x6; columns: `v` world, `w_b` body).
    fn position_jacobian(
        &self,
        state: &RigidState<T>,
        local_position: &Vector3<T>,
    ) -> Result<Jacobian<T>> {
        finite_all(local_position, Param::LocalPosition)?;
        state.validate_screened()?;
        let mut j = Jacobian::zeros();
        j.fixed_view_mut::<3, 3>(0, 0).fill_with_identity();
        j.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&(-(state.rotation_matrix() * skew(local_position))));
        Ok(j)
    }

    /// `Jrot = [0, R_0b]` (3x6).
    fn rotation_jacobian(&self, state: &RigidState<T>) -> Result<Jacobian<T>> {
        state.validate_screened()?;
        let mut j = Jacobian::zeros();
        j.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&state.rotation_matrix());
        Ok(j)
    }

    /// `int_V rho Jpos dV = [m E3, -m R_0b [c]x]` (kg, kg m): gravity `g` (m/s^2, world) gives
    /// `Q = [m g; c x (R_0b^T m g)]`, the weight at the COM.
    fn mass_jacobian_integral(&self, state: &RigidState<T>) -> Result<Jacobian<T>> {
        Ok(self.position_jacobian(state, &self.center_of_mass)? * self.mass)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn inertia_validation_accepts_physical_and_refuses_unphysical_tensors() {
        let c = Vector3::zeros();
        assert!(RigidBody::from_principal(1.0, [2.0, 3.0, 4.0], c).is_ok());
        // A flat plate: I3 = I1 + I2 exactly, allowed.
        assert!(RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], c).is_ok());
        assert!(RigidBody::from_principal(1.0, [0.25, 0.5, 0.75], c).is_ok());
        // Triangle inequality violated, zero and negative moments.
        for m in [
            [1.0, 1.0, 2.1],
            [0.0, 1.0, 1.0],
            [-1.0, 2.0, 2.0],
            [1.0, 1.0, 0.0],
        ] {
            assert_eq!(
                RigidBody::from_principal(1.0, m, c),
                Err(Error::OutOfRange(Param::Inertia)),
                "{m:?}"
            );
        }
        // Not symmetric.
        let mut i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 2.5));
        i[(0, 1)] = 0.1;
        assert_eq!(
            RigidBody::new(1.0, i, c),
            Err(Error::OutOfRange(Param::Inertia))
        );
        // Symmetric, positive diagonal, but indefinite.
        let i = Matrix3::new(1.0, 1.5, 0.0, 1.5, 1.0, 0.0, 0.0, 0.0, 1.5);
        assert_eq!(
            RigidBody::new(1.0, i, c),
            Err(Error::OutOfRange(Param::Inertia))
        );
        assert_eq!(
            RigidBody::from_principal(0.0, [1.0, 1.0, 1.0], c),
            Err(Error::OutOfRange(Param::Mass))
        );
        assert_eq!(
            RigidBody::from_principal(f64::NAN, [1.0, 1.0, 1.0], c),
            Err(Error::NotFinite(Param::Mass))
        );
        assert_eq!(
            RigidBody::from_principal(1.0, [1.0, 1.0, 1.0], Vector3::new(0.0, f64::INFINITY, 0.0)),
            Err(Error::NotFinite(Param::CenterOfMass))
        );
    }

    #[test]
    fn rotated_tensor_is_judged_by_its_principal_moments() {
        // R diag(m) R^T with a generic rotation: the check must see the principal moments.
        let r = Quaternion::<f64>::exp(&Vector3::new(0.7, -0.4, 1.1)).to_matrix();
        let ok = r * Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 2.999)) * r.transpose();
        let ok = (ok + ok.transpose()) * 0.5;
        assert!(RigidBody::new(2.0, ok, Vector3::zeros()).is_ok());
        let bad = r * Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.01)) * r.transpose();
        let bad = (bad + bad.transpose()) * 0.5;
        assert_eq!(
            RigidBody::new(2.0, bad, Vector3::zeros()),
            Err(Error::OutOfRange(Param::Inertia))
        );
        // Rounded to six digits (CAD output) still passes.
        let rounded = ok.map(|x| (x * 1e6).round() / 1e6);
        assert!(RigidBody::new(2.0, rounded, Vector3::zeros()).is_ok());
        // A rotated rod (one zero moment) has no rotational dynamics: refused, whatever the
        // rounding of the rotation (many rotations, f64 and f32); a slender body whose smallest
        // moment is well above rounding passes.
        for k in 0..500 {
            let phi = Vector3::new(
                0.7 + 0.01 * k as f64,
                -0.4 * k as f64,
                1.1 - 0.003 * k as f64,
            );
            let r = Quaternion::<f64>::exp(&phi).to_matrix();
            for (small, ok) in [(0.0, false), (1e-9, true)] {
                let m = Matrix3::from_diagonal(&Vector3::new(small, 1.0, 1.0));
                let rod = r * m * r.transpose();
                let rod = (rod + rod.transpose()) * 0.5;
                let z = Vector3::zeros();
                assert_eq!(RigidBody::new(2.0, rod, z).is_ok(), ok, "{k} {small}");
                if !ok {
                    let rod32 = rod.map(|x| x as f32);
                    assert!(
                        RigidBody::new(2.0f32, rod32, Vector3::zeros()).is_err(),
                        "{k}"
                    );
                }
            }
        }
    }

    #[test]
    fn inverse_and_exudyn_order() {
        let b =
            RigidBody::from_exudyn_inertia(1.0, [2.0, 3.0, 4.0, 0.1, 0.2, 0.3], Vector3::zeros())
                .unwrap();
        let i = b.inertia();
        assert_eq!(i[(1, 2)], 0.1);
        assert_eq!(i[(0, 2)], 0.2);
        assert_eq!(i[(0, 1)], 0.3);
        assert!((i * b.inertia_inverse() - Matrix3::identity()).norm() < 1e-15);
    }

    #[test]
    fn tait_bryan_angles_round_trip_through_axis_rotations() {
        use nalgebra::{Rotation3, Unit};
        let rot = |axis: Vector3<f64>, a: f64| {
            *Rotation3::from_axis_angle(&Unit::new_normalize(axis), a).matrix()
        };
        for ang in [
            [0.3, -0.2, 0.1],
            [2.5, 1.2, -3.0],
            [-1.0, -1.5, 0.4],
            [0.0, 0.0, 0.0],
        ] {
            let r =
                rot(Vector3::x(), ang[0]) * rot(Vector3::y(), ang[1]) * rot(Vector3::z(), ang[2]);
            let got = tait_bryan_xyz(&r);
            assert!(
                (got - Vector3::from(ang)).norm() < 1e-14,
                "{ang:?} -> {got:?}"
            );
        }
        // Gimbal lock: b = pi/2, only a + c is defined; c = 0 by convention.
        let r = rot(Vector3::x(), 0.4)
            * rot(Vector3::y(), core::f64::consts::FRAC_PI_2)
            * rot(Vector3::z(), 0.3);
        let got = tait_bryan_xyz(&r);
        assert!((got - Vector3::new(0.7, core::f64::consts::FRAC_PI_2, 0.0)).norm() < 1e-7);
    }
}
