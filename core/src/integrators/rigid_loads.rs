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
use crate::nodes::rigid::RigidState;
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

    /// `NotFinite(Force | Torque | Damping)` unless every entry is finite.
    pub fn validate(&self) -> Result<()> {
        finite_all(&self.force, Param::Force)?;
        finite_all(&self.torque, Param::Torque)?;
        finite_all(&self.linear_resistance, Param::Damping)?;
        finite_all(&self.angular_resistance, Param::Damping)
    }
}
