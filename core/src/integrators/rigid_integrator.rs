//! The one shape of every rigid-body step.

use super::{RigidLoads, StepInfo};
use crate::bodies::rigid_body::RigidBody;
use crate::nodes::rigid::RigidState;
use crate::{Real, Result};

/// A time integrator of one rigid body.
pub trait RigidIntegrator<T: Real> {
    /// Advances `state` by `dt` (s, > 0) under `loads`, held constant over the step (their
    /// values at the start of the step; only the resistance acts on the new velocity in the
    /// implicit schemes).
    ///
    /// All inputs are checked first: `NotFinite(TimeStep)` / `OutOfRange(TimeStep)` for a bad
    /// `dt`, `NonFiniteState` / `OutOfRange(Orientation)` for a bad state, `NotFinite(Force |
    /// Torque | Damping)` for bad loads, `NotFinite | OutOfRange(Setting)` for bad settings;
    /// `SolverFailed` if the step's matrix is singular; `NonFiniteState` if the result
    /// overflowed. On any error `state` is unchanged. On success the state holds the new pose
    /// and twist and the step-mean accelerations `(v_{n+1} - v_n)/dt`, `(w_{n+1} - w_n)/dt`.
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo>;
}
