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
pub mod schemes;
pub mod settings;
pub mod symplectic_euler;

pub use com_state::ComState;
pub use driver::RigidIntegrator;
pub use loads::RigidLoads;
pub use report::{StepInfo, StepStatus};
pub use schemes::RigidScheme;
pub use settings::StepSettings;
