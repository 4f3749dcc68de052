//! The loads of one rigid-body step: a force at the centre of mass, a torque, and linear and
//! angular resistance.
//!
//! Frames: the force is resolved in the **world** frame and acts at the centre of mass (COM);
//! the torque is about the COM and resolved in the **body** frame (the axes of the Euler
//! equations the steps integrate; [`RigidLoads::add_torque_world`] converts a world torque). A
//! force `f` at another point `p` (body frame, from the reference point) is the same force at
//! the COM plus the torque `(p - c) x (R_0b^T f)` ([`RigidLoads::add_force_at`]).
//!
//! Resistance (damping): the force `-R_lin v_com` (N; `R_lin` in N s/m, world frame, `v_com`
//! the COM velocity) and the torque `-R_ang w_b` (N m; `R_ang` in N m s, body frame). The
//! implicit steps evaluate them at the new velocity.

use crate::bodies::rigid_body::RigidBody;
use crate::body::Generalized;
use crate::error::finite_all;
use crate::state::RigidState;
use crate::{Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Loads on a rigid body for one step (see the module docs for frames and signs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidLoads<T> {
    /// Applied force at the COM (N, world frame).
    pub force: Vector3<T>,
    /// Applied torque about the COM (N m, **body** frame).
    pub torque: Vector3<T>,
    /// Linear resistance `R_lin` (N s/m, world frame): force `-R_lin v_com`.
    pub linear_resistance: Matrix3<T>,
    /// Angular resistance `R_ang` (N m s, body frame): torque `-R_ang w_b`.
    pub angular_resistance: Matrix3<T>,
}

impl<T: Real> Default for RigidLoads<T> {
    /// No load, no resistance.
    fn default() -> Self {
        Self {
            force: Vector3::zeros(),
            torque: Vector3::zeros(),
            linear_resistance: Matrix3::zeros(),
            angular_resistance: Matrix3::zeros(),
        }
    }
}

impl<T: Real> RigidLoads<T> {
    /// No load (same as `default()`).
    pub fn none() -> Self {
        Self::default()
    }

    /// Sets the force at the COM (N, world).
    pub fn with_force(mut self, force: Vector3<T>) -> Self {
        self.force = force;
        self
    }

    /// Sets the torque about the COM (N m, body frame).
    pub fn with_torque(mut self, torque: Vector3<T>) -> Self {
        self.torque = torque;
        self
    }

    /// Sets an isotropic linear resistance `c E3` (N s/m).
    pub fn with_linear_damping(mut self, c: T) -> Self {
        self.linear_resistance = Matrix3::identity() * c;
        self
    }

    /// Sets an isotropic angular resistance `c E3` (N m s).
    pub fn with_angular_damping(mut self, c: T) -> Self {
        self.angular_resistance = Matrix3::identity() * c;
        self
    }

    /// Adds the weight `m g` at the COM (`g` in m/s^2, world frame, e.g. `[0, -9.80665, 0]`).
    pub fn add_gravity(&mut self, body: &RigidBody<T>, g: &Vector3<T>) {
        self.force += g * body.mass();
    }

    /// Adds a torque given in the world frame (N m): `tau_b = R_0b^T tau_0` at the state's
    /// current orientation (held in the body frame over the step).
    pub fn add_torque_world(&mut self, state: &RigidState<T>, torque: &Vector3<T>) {
        self.torque += state.orientation.conjugate().rotate(torque);
    }

    /// Adds a force `f` (N, world) acting at `local_position` `p` (m, body frame, from the
    /// reference point): the force at the COM plus the torque `(p - c) x (R_0b^T f)` (body).
    pub fn add_force_at(
        &mut self,
        body: &RigidBody<T>,
        state: &RigidState<T>,
        force: &Vector3<T>,
        local_position: &Vector3<T>,
    ) {
        let f_b = state.orientation.conjugate().rotate(force);
        self.force += force;
        self.torque += (local_position - body.center_of_mass()).cross(&f_b);
    }

    /// Adds a generalized force `Q = [Q_v; Q_w]` of the body's coordinates `[v (world); w_b]`
    /// (as [`Body::generalized_force`](crate::body::Body::generalized_force) returns: a world
    /// force and a body-frame torque about the reference point): the force `Q_v` at the COM and
    /// the torque about the COM `Q_w - c x (R_0b^T Q_v)`.
    pub fn add_generalized(
        &mut self,
        body: &RigidBody<T>,
        state: &RigidState<T>,
        q: &Generalized<T>,
    ) {
        let f = Vector3::new(q[0], q[1], q[2]);
        let tau = Vector3::new(q[3], q[4], q[5]);
        let f_b = state.orientation.conjugate().rotate(&f);
        self.force += f;
        self.torque += tau - body.center_of_mass().cross(&f_b);
    }

    /// The sum of every entry (force, torque, both resistances), summed in a short tree:
    /// finite if and only if every entry is, unless finite entries overflow it.
    #[inline]
    pub fn entry_sum(&self) -> T {
        let s3 = |v: &Vector3<T>| v.x + v.y + v.z;
        let m3 = |m: &Matrix3<T>| {
            (m[(0, 0)] + m[(1, 0)] + m[(2, 0)])
                + (m[(0, 1)] + m[(1, 1)] + m[(2, 1)])
                + (m[(0, 2)] + m[(1, 2)] + m[(2, 2)])
        };
        (s3(&self.force) + s3(&self.torque))
            + (m3(&self.linear_resistance) + m3(&self.angular_resistance))
    }

    /// [`RigidLoads::entry_sum`] with each resistance matrix that is exactly zero (a bit test,
    /// [`all_zero`](crate::finite::all_zero)) left out of the sum: finite under the same
    /// condition (a zero matrix adds nothing), and the typical call, without resistance,
    /// reads no resistance entry as a float.
    // Inlined: part of the step's one input screen.
    #[inline(always)]
    pub fn entry_sum_sparse(&self) -> T {
        let s3 = |v: &Vector3<T>| v.x + v.y + v.z;
        let m3 = |m: &Matrix3<T>| {
            if crate::finite::all_zero(m) {
                T::zero()
            } else {
                (m[(0, 0)] + m[(1, 0)] + m[(2, 0)])
                    + (m[(0, 1)] + m[(1, 1)] + m[(2, 1)])
                    + (m[(0, 2)] + m[(1, 2)] + m[(2, 2)])
            }
        };
        (s3(&self.force) + s3(&self.torque))
            + (m3(&self.linear_resistance) + m3(&self.angular_resistance))
    }

    /// [`RigidLoads::validate`] screened by one finiteness test of [`RigidLoads::entry_sum`]:
    /// the detailed checks (which name the culprit) run only if the sum is not finite.
    #[inline]
    pub fn validate_screened(&self) -> Result<()> {
        if self.entry_sum() * T::zero() == T::zero() {
            Ok(())
        } else {
            self.validate()
        }
    }

    /// `NotFinite(Force | Torque | Damping)` unless every entry is finite.
    pub fn validate(&self) -> Result<()> {
        finite_all(&self.force, Param::Force)?;
        finite_all(&self.torque, Param::Torque)?;
        finite_all(&self.linear_resistance, Param::Damping)?;
        finite_all(&self.angular_resistance, Param::Damping)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    /// A non-finite entry anywhere is still refused with the field's name (the screen only
    /// decides whether the detailed checks run); overflowing finite entries pass.
    #[test]
    fn screened_validation_names_the_culprit() {
        let ok = RigidLoads::<f64>::none()
            .with_force(Vector3::new(1.0, 2.0, 3.0))
            .with_torque(Vector3::new(-1.0, 0.5, 0.0))
            .with_linear_damping(0.3)
            .with_angular_damping(0.2);
        assert_eq!(ok.validate_screened(), Ok(()));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for i in 0..3 {
                let mut l = ok;
                l.force[i] = bad;
                assert_eq!(l.validate_screened(), Err(Error::NotFinite(Param::Force)));
                let mut l = ok;
                l.torque[i] = bad;
                assert_eq!(l.validate_screened(), Err(Error::NotFinite(Param::Torque)));
            }
            for i in 0..9 {
                let mut l = ok;
                l.linear_resistance[i] = bad;
                assert_eq!(l.validate_screened(), Err(Error::NotFinite(Param::Damping)));
                let mut l = ok;
                l.angular_resistance[i] = bad;
                assert_eq!(l.validate_screened(), Err(Error::NotFinite(Param::Damping)));
            }
        }
        // The first culprit in validate's order wins, as before.
        let mut l = ok;
        l.torque.x = f64::NAN;
        l.force.y = f64::INFINITY;
        assert_eq!(l.validate_screened(), Err(Error::NotFinite(Param::Force)));
        let mut l = ok;
        l.force = Vector3::new(f64::MAX, f64::MAX, 0.0);
        assert_eq!(l.validate_screened(), Ok(()));
    }
}
