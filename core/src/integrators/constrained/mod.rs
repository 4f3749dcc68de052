//! Mechanical systems in redundant coordinates with position constraints, an index-3
//! differential-algebraic system as Exudyn builds it:
//!
//! ```text
//! M(q) q_tt + C_q(q)^T lambda = f(t, q, q_t),     C(q) = 0
//! ```
//!
//! `n` coordinates `q`, `m` constraint equations `C` (m or rad), multipliers `lambda` (the
//! constraint forces are `-C_q^T lambda` in the units of `f`). The sizes are known at run time
//! (when a system is assembled), the capacity `S >= n + m` when it is compiled: every matrix
//! is the leading block of a `[[T; S]; S]` array in a [`Workspace`] the caller owns.
//!
//! A model implements [`ConstrainedModel`]; [`generalized_alpha`] steps it.

mod block;
pub mod generalized_alpha;
mod model;
mod state;

pub use block::Block;
pub use generalized_alpha::{Assembly, ConstrainedAlpha, ConstrainedReport, Formulation};
pub use model::ConstrainedModel;
pub use state::{ConstrainedState, Workspace};
