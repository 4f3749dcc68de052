//! Solving in time: settings (Exudyn's `SimulationSettings` for `SolveDynamic`) and the dynamic
//! solve of a single mass point.

pub mod mass_point;
pub mod settings;

pub use mass_point::{solve_dynamic, MassPointLoad, MassPointOde};
pub use settings::{DynamicSolverType, NewtonSettings, SimulationSettings};
