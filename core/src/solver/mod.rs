//! Solving in time: settings (Exudyn's `SimulationSettings` for `SolveDynamic`) and the dynamic
//! solve of a single mass point.
//!
//! The single mass point's solve ([`mass_point`]) is the one-item fast path, not a `System`:
//! it runs the second-order generalized-alpha ([`GeneralizedAlpha`](crate::integrators::GeneralizedAlpha))
//! directly on `diag(m, m) q_tt = Q` with no item lists, markers or sensors, for the C API's
//! `mbs_mass_point_2d_*` functions and a firmware that models one point (its cost per step is
//! in `BENCHMARKS.md` and `docs/embedded.md`). A `System` holding the same mass point steps it
//! by the system's scheme instead ([`crate::system`]).

pub mod mass_point;
pub mod settings;

pub use mass_point::{solve_dynamic, MassPointLoad, MassPointOde};
pub use settings::{DynamicSolverType, NewtonSettings, SimulationSettings};
