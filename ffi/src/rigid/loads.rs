//! The loads of one rigid-body step from the C side, in double (`mbs_rigid_loads`) and single
//! precision (`mbs_rigid_loads_f32`). All zero (`= {0}`) means no load and no damping.

use crate::boundary::{all_finite, FfiResult};
use crate::status::*;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::RigidLoads;
use mbs_core::state::RigidState;
use mbs_core::Real;
use nalgebra::{Matrix3, Vector3};

/// Loads on a rigid body for one step, held constant over it (zero-order hold: their values at
/// the start of the step; only the damping acts on the new velocity in the implicit midpoint
/// step). Generic over the scalar: use `mbs_rigid_loads` (double) or `mbs_rigid_loads_f32`
/// (float). The terms add up.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_rigid_loads_of<T> {
    /// Force at the centre of mass (N, world frame).
    pub force: [T; 3],
    /// Torque about the centre of mass (N m, **body** frame, the axes of the Euler equations).
    pub torque: [T; 3],
    /// Torque about the centre of mass (N m, **world** frame), resolved in the body frame with
    /// the orientation at the start of the step, `tau_b = R_0b^T tau_0`.
    pub torque_world: [T; 3],
    /// Uniform acceleration field (m/s^2, world frame), e.g. `{0, 0, -9.81}`: adds the weight
    /// `m g` at the centre of mass.
    pub gravity: [T; 3],
    /// Linear damping (N s/m, >= 0) per world axis: the force `-diag(c) v_com` (world).
    pub linear_damping: [T; 3],
    /// Angular damping (N m s, >= 0) per body axis: the torque `-diag(d) w_b` (body frame).
    pub angular_damping: [T; 3],
}

/// Rigid-body loads in double precision.
pub type mbs_rigid_loads = mbs_rigid_loads_of<f64>;
/// Rigid-body loads in single precision.
pub type mbs_rigid_loads_f32 = mbs_rigid_loads_of<f32>;

impl<T: Real> mbs_rigid_loads_of<T> {
    /// The core loads on `body` in `state`: `MBS_ERR_NOT_FINITE` for NaN/inf,
    /// `MBS_ERR_INVALID_STIFFNESS_DAMPING` for a negative damping.
    pub fn to_core(&self, body: &RigidBody<T>, state: &RigidState<T>) -> FfiResult<RigidLoads<T>> {
        let l = self.to_core_unvalidated(body, state)?;
        // Finite inputs can still overflow (e.g. m g): refuse rather than step into infinity.
        l.validate().map_err(|_| MBS_ERR_NOT_FINITE)?;
        Ok(l)
    }

    /// `MBS_ERR_NOT_FINITE` for NaN/inf in any field, else `MBS_ERR_INVALID_STIFFNESS_DAMPING`
    /// for a negative damping (the checks of [`Self::to_core_unvalidated`], in its order).
    pub fn check(&self) -> FfiResult<()> {
        for a in [
            &self.force,
            &self.torque,
            &self.torque_world,
            &self.gravity,
            &self.linear_damping,
            &self.angular_damping,
        ] {
            all_finite(a)?;
        }
        if self.has_negative_damping() {
            return Err(MBS_ERR_INVALID_STIFFNESS_DAMPING);
        }
        Ok(())
    }

    /// `true` if a damping coefficient is below zero (NaN is not: it is a finiteness error).
    // Inlined: six compares on every C step.
    #[inline(always)]
    pub fn has_negative_damping(&self) -> bool {
        self.linear_damping
            .iter()
            .chain(self.angular_damping.iter())
            .any(|c| *c < T::zero())
    }

    /// The core loads on `body` in `state`, the same values as [`Self::to_core_unvalidated`]
    /// (the same operations), with no check at all: for a step that validates its loads
    /// itself. NaN/inf in any field reaches the core loads (sums and products keep a
    /// non-finite operand non-finite), where the step refuses it; the damping signs are the
    /// caller's to check ([`Self::has_negative_damping`]).
    // Inlined into `core_loads`, its own frame.
    #[inline(always)]
    pub fn to_core_unchecked(&self, body: &RigidBody<T>, state: &RigidState<T>) -> RigidLoads<T> {
        let mut l = RigidLoads::none()
            .with_force(Vector3::from(self.force))
            .with_torque(Vector3::from(self.torque));
        l.linear_resistance = Matrix3::from_diagonal(&Vector3::from(self.linear_damping));
        l.angular_resistance = Matrix3::from_diagonal(&Vector3::from(self.angular_damping));
        l.add_torque_world(state, &Vector3::from(self.torque_world));
        l.add_gravity(body, &Vector3::from(self.gravity));
        l
    }

    /// [`Self::to_core`] without the final overflow check (`RigidLoads::validate`), for a
    /// core call that runs it itself (a step: its `NotFinite` errors map to the same
    /// `MBS_ERR_NOT_FINITE`).
    // Inlined: one copy per caller of the loads' conversion.
    #[inline(always)]
    pub fn to_core_unvalidated(
        &self,
        body: &RigidBody<T>,
        state: &RigidState<T>,
    ) -> FfiResult<RigidLoads<T>> {
        self.check()?;
        Ok(self.to_core_unchecked(body, state))
    }
}
