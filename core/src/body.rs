//! What every body provides (as Exudyn's bodies): outputs at a local position, and the Jacobians through
//! which a marker's force and torque act back on the body's coordinates.
//!
//! Frames: a body has a body frame `b` and a reference point, the position of its node.
//! A `local_position` is given in the body frame, measured from the reference point.
//! Jacobians are with respect to the node's velocity coordinates `q_dot`:
//! `Jpos = d v_0(local_position) / d q_dot`, `Jrot = d omega_0 / d q_dot`, and the generalized
//! force of a force `f` (N, world) at the local position and a torque `tau` (N m, world) is
//! `Q = Jpos^T f + Jrot^T tau`.
//!
//! Jacobians and generalized vectors have a fixed size of [`MAX_COORDINATES`] columns/entries;
//! only the first [`Body::coordinates`] are meaningful, the rest are zero. That keeps every body
//! the same size for the fixed-capacity system without any allocation.

use crate::{Error, OutputValue, OutputVariableType, Real, Result};
use nalgebra::{Matrix3x6, Vector3, Vector6};

/// The largest number of velocity coordinates of one node (6: a rigid body).
pub const MAX_COORDINATES: usize = 6;

/// A 3 x [`MAX_COORDINATES`] Jacobian; columns past [`Body::coordinates`] are zero.
pub type Jacobian<T> = Matrix3x6<T>;

/// A generalized force or velocity; entries past [`Body::coordinates`] are zero.
pub type Generalized<T> = Vector6<T>;

/// The interface of a body (as Exudyn's bodies): outputs and marker Jacobians.
pub trait Body<T: Real> {
    /// The node state the body reads (coordinates, velocities, last accelerations).
    type State;

    /// Number of velocity coordinates of the body's node (2 for a mass point 2D, 6 for a rigid body).
    fn coordinates(&self) -> usize;

    /// The value of `var` at `local_position` (m, body frame, from the reference point);
    /// `Err(OutputNotAvailable)` if the body does not define `var`.
    fn output(
        &self,
        state: &Self::State,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>>;

    /// `Jpos(local_position) = d v_0 / d q_dot` (world frame rows).
    fn position_jacobian(
        &self,
        state: &Self::State,
        local_position: &Vector3<T>,
    ) -> Result<Jacobian<T>>;

    /// `Jrot = d omega_0 / d q_dot` (world frame rows); `Err(JacobianNotAvailable)` for bodies
    /// without rotation (a mass point).
    fn rotation_jacobian(&self, state: &Self::State) -> Result<Jacobian<T>>;

    /// `int_V rho Jpos dV` (kg): the Jacobian of a mass-proportional load (gravity): a uniform
    /// acceleration `g` (m/s^2, world) gives `Q = (int rho Jpos dV)^T g`.
    fn mass_jacobian_integral(&self, state: &Self::State) -> Result<Jacobian<T>>;

    /// `Q = Jpos^T f + Jrot^T tau` for a force `f` (N, world) at `local_position` and a torque
    /// `tau` (N m, world). A zero `tau` is allowed on bodies without a rotation Jacobian.
    fn generalized_force(
        &self,
        state: &Self::State,
        local_position: &Vector3<T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Generalized<T>> {
        // A pure torque (a zero force) needs no position Jacobian (no sine or cosine of the
        // body's angle).
        let mut q = if force.iter().all(|f| *f == T::zero()) {
            Generalized::zeros()
        } else {
            self.position_jacobian(state, local_position)?.transpose() * force
        };
        if torque.iter().any(|t| *t != T::zero()) {
            q += self.rotation_jacobian(state)?.transpose() * torque;
        }
        if q.iter().all(|x| x.finite()) {
            Ok(q)
        } else {
            Err(Error::NotFinite(crate::Param::Force))
        }
    }
}
