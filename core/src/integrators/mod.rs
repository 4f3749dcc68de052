//! Time integrators, one scheme per file.
//!
//! Second-order ODEs `M(q) q_tt = f(t, q, q_t)` (mass points, systems of them):
//! [`second_order`] holds the state and the [`SecondOrderOde`] a model implements;
//! [`generalized_alpha`] is Exudyn's default scheme.
//!
//! Rigid bodies: every scheme has the same shape, [`RigidIntegrator::step`] advances a
//! [`RigidState`](crate::nodes::rigid::RigidState) of a
//! [`RigidBody`](crate::bodies::rigid_body::RigidBody) under [`RigidLoads`] by `dt` and
//! returns a [`StepInfo`].
//!
//! - [`midpoint::LinearlyImplicitMidpoint`]: the seed 004 step and its options (the one to
//!   use); [`seed_midpoint::SeedMidpoint`]: the same step with the default options only;
//! - baselines: [`explicit_euler::ExplicitEuler`], [`symplectic_euler::SymplecticEuler`],
//!   [`rk4::Rk4`].

pub mod generalized_alpha;
pub mod linear_solve;
pub mod second_order;

pub mod explicit_euler;
pub mod invariant_projection;
pub mod midpoint;
pub mod midpoint_options;
pub mod rigid_driver;
pub mod rigid_integrator;
pub mod rigid_loads;
pub mod rk4;
pub mod seed_midpoint;
pub mod solve3;
pub mod step_info;
pub mod step_settings;
pub mod symplectic_euler;

pub use generalized_alpha::{AlphaStepInfo, GeneralizedAlpha};
pub use second_order::{FnOde, ForceJacobians, SecondOrderOde, SecondOrderState};

pub use midpoint_options::{Invariants, OrientationUpdate, Resistance};
pub use rigid_integrator::RigidIntegrator;
pub use rigid_loads::RigidLoads;
pub use step_info::{StepInfo, StepStatus};
pub use step_settings::StepSettings;
