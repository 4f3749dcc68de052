//! One rigid body's time step: the schemes and what they share.
//!
//! ```text
//! (body, loads held over the step, state, dt)
//!   -> driver::step: check the inputs (checks), map to the centre of mass (ComState),
//!                    one step of dt or sub-steps (scheme.substep, substeps),
//!                    check and write the result
//!   -> (state at t + dt, StepInfo)
//! ```
//!
//! A scheme is one file that implements [`RigidIntegrator::substep`]: its equations for one
//! step of length `h` of the centre-of-mass state. [`midpoint`] is the one to use; the
//! others are baselines to compare with.

/// Declares a scheme whose only settings are the shared [`StepSettings`]: the struct with its
/// field `settings` and its `Default`.
macro_rules! scheme_with_step_settings {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name<T> {
            /// Rotation-per-step bound and sub-stepping.
            pub settings: $crate::integrators::rigid::StepSettings<T>,
        }

        impl<T: $crate::Real> Default for $name<T> {
            fn default() -> Self {
                Self {
                    settings: $crate::integrators::rigid::StepSettings::default(),
                }
            }
        }
    };
}

pub mod checks;
pub mod com_state;
pub mod driver;
pub mod explicit_euler;
pub mod loads;
pub mod midpoint;
pub mod report;
pub mod rk4;
pub mod settings;
pub mod substeps;
pub mod symplectic_euler;

pub use com_state::ComState;
pub use loads::RigidLoads;
pub use report::{StepInfo, StepStatus};
pub use settings::StepSettings;

use crate::bodies::rigid_body::RigidBody;
use crate::state::RigidState;
use crate::{Real, Result};

/// A time-stepping scheme of one rigid body: its equations for one (sub-)step
/// ([`substep`](Self::substep)); the checks, the centre-of-mass map, the sub-stepping and the
/// result check are the driver's ([`step`](Self::step)).
pub trait RigidIntegrator<T: Real> {
    /// `true` if a NaN or infinity in any input the scheme reads (position, velocity, rate,
    /// force, torque, resistance) reaches its result or fails its step: the driver then checks
    /// those inputs by the result instead of up front ([`checks::unread`]).
    const SCREENS_INPUTS_BY_RESULT: bool = false;

    /// `true` if the new orientation is finite whenever the start and end rates turn less
    /// than 1 rad in the step (a finite unit quaternion times the exponential of a small
    /// finite rotation vector): the driver's result check may then skip it.
    const SMALL_TURNS_KEEP_ORIENTATION_FINITE: bool = false;

    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    fn step_settings(&self) -> &StepSettings<T>;

    /// Checks the scheme's settings (`NotFinite | OutOfRange(Setting)`); by default the
    /// shared [`StepSettings::validate`].
    // Inline: the driver calls it every step; across codegen units it is not inlined without it.
    #[inline]
    fn validate(&self) -> Result<()> {
        self.step_settings().validate()
    }

    /// One step of length `h` (s) of the centre-of-mass state `s` under `loads` held at
    /// their start values: the scheme's equations. `SolverFailed` if its matrix is singular.
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        s: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>>;

    /// Advances `state` by `dt` (s, > 0) under `loads`, held constant over the step (their
    /// values at the start of the step; only the resistance acts on the new velocity in the
    /// implicit schemes).
    ///
    /// All inputs are checked first: `NotFinite(TimeStep)` / `OutOfRange(TimeStep)` for a bad
    /// `dt`, `NotFinite | OutOfRange(Setting)` for bad settings, `NonFiniteState` /
    /// `OutOfRange(Orientation)` for a bad state, `NotFinite(Force | Torque | Damping)` for
    /// bad loads; `SolverFailed` if the step's matrix is singular; `NonFiniteState` if the
    /// result overflowed. On any error `state` is unchanged. On success the state holds the
    /// new pose and twist and the step-mean accelerations `(v_{n+1} - v_n)/dt`,
    /// `(w_{n+1} - w_n)/dt`.
    // Inline: a one-line forward to the driver.
    #[inline]
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo>
    where
        Self: Sized,
    {
        driver::step(self, body, loads, state, dt)
    }
}
