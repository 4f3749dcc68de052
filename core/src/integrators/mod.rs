//! Time-stepping schemes: how a state advances by one step.
//!
//! - [`rigid`]: one rigid body, `M V_t = F - [0; w x I w]` on its centre of mass. Every
//!   scheme implements [`RigidIntegrator`]: the scheme's own equations for one (sub-)step
//!   ([`RigidIntegrator::substep`]); the driver around it ([`rigid::driver::step`]) checks the
//!   inputs, maps to the centre of mass, steps or sub-steps, and checks and writes the result.
//!   [`rigid::midpoint`] is the one to use; the others are baselines.
//! - [`constrained`]: systems in redundant coordinates with constraints (an index-3 DAE),
//!   `M(q) q_tt + C_q^T lambda = f`, `C(q) = 0`, stepped by generalized-alpha with Newton on
//!   the accelerations and multipliers, as Exudyn's `SolveDynamic`.
//! - [`second_order`]: second-order ODEs `M(q) q_tt = f(t, q, q_t)` (mass points and systems
//!   of them) and the generalized-alpha scheme of Exudyn's `SolveDynamic`.

pub mod constrained;
mod newton;
pub mod rigid;
pub mod second_order;

pub use newton::NewtonSettings;
pub use rigid::midpoint::{Invariants, OrientationUpdate, Resistance};
pub use rigid::{RigidIntegrator, RigidLoads, StepInfo, StepSettings, StepStatus};
pub use second_order::generalized_alpha::{AlphaStepInfo, GeneralizedAlpha};
pub use second_order::{FnOde, ForceJacobians, SecondOrderOde, SecondOrderState};
