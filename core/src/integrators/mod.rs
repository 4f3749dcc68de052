//! Time integrators, one scheme per file.
//!
//! [`second_order`] holds what they share for `M(q) q_tt = f(t, q, q_t)`: the state and the
//! [`SecondOrderOde`] a model implements; [`generalized_alpha`] is Exudyn's default scheme.

pub mod generalized_alpha;
pub mod linear_solve;
pub mod second_order;

pub use generalized_alpha::{GeneralizedAlpha, StepInfo};
pub use second_order::{FnOde, ForceJacobians, SecondOrderOde, SecondOrderState};
