//! The generalized-alpha scheme for constrained systems (index 3), as Exudyn's `SolveDynamic`
//! runs it: Chung & Hulbert's scheme in the form of Arnold & Brüls (2007, "Convergence of the
//! generalized-alpha scheme for constrained mechanical systems", Multibody Syst. Dyn. 18), with
//! Newton's method on the accelerations and the multipliers at the end of the step.
//!
//! One step `h` from `(q_n, v_n, q_tt_n, a_n)`, with `rho_inf` giving `alpha_m`, `alpha_f`,
//! `gamma`, `beta` as in [`GeneralizedAlpha`](crate::integrators::GeneralizedAlpha):
//!
//! ```text
//! (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) q_tt_{n+1} + alpha_f q_tt_n
//! q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}
//! v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}
//! r_1 = M(q_{n+1}) q_tt_{n+1} + C_q(q_{n+1})^T lambda_{n+1} - f(t_{n+1}, q_{n+1}, v_{n+1}) = 0
//! r_2 = C(q_{n+1}) / (h^2 beta) = 0
//! ```
//!
//! Newton's unknowns are `q_tt_{n+1}` and `lambda_{n+1}` (predictor: the values of step `n`);
//! its matrix, with `c = (1 - alpha_f)/(1 - alpha_m)`, `beta' = h^2 beta c`, `gamma' = h gamma c`:
//!
//! ```text
//! [ M + beta' (d(C_q^T lambda)/dq - df/dq) - gamma' df/dq_t    C_q^T ]
//! [ c C_q                                                      0     ]
//! ```
//!
//! The constraint rows are scaled by `1/(h^2 beta)` as Exudyn scales them, which keeps the
//! matrix's condition independent of `h` (an unscaled index-3 matrix grows like `1/h^2`), and
//! solved divided by `c` (rows `C_q`, right-hand side `-r_2 / c`: the rows are `C_q^T`'s
//! columns as evaluated, with no pass to scale them);
//! the derivative of `M(q) q_tt` is the model's where it has one (else left out: it changes
//! the convergence rate, not the solution).
//! The Newton matrix is built anew every iteration (quadratic convergence).
//!
//! `rho_inf < 1` damps the spurious oscillations of the multipliers that index 3 brings;
//! Exudyn's default is 0.9. The positions satisfy the constraints to the Newton tolerance at
//! every step: no drift.
//!
//! Real-time mode ([`ConstrainedAlpha::with_real_time_updates`]): a step makes at most `k`
//! Newton updates and takes the iterate after the `k`-th without evaluating it, so that its cost
//! is bounded by `k` evaluations, tangents and factorizations: what a control loop at a fixed
//! rate needs. The evaluations before each update still test convergence (a step whose
//! predictor or earlier iterate meets the tolerances stops there); what is given up is the
//! evaluation that only confirms the last update, and with it the `NewtonNotConverged`
//! refusal. Where the iteration converges within `k` updates, the committed state is the same
//! iterate as without the mode, bit for bit. Where it would need more, the step is taken less
//! converged; the next step solves `C(q_{n+1}) = 0` again from its predictor, so the
//! constraint residual left behind does not accumulate.

// Index loops read as the equations (row i, column j of a block).
#![allow(clippy::needless_range_loop)]

mod evaluate;
mod matrix;
mod newton;
mod report;
mod settings;
mod sizes;
mod solve;
mod start;
mod step;

pub use report::{ConstrainedReport, RESIDUAL_HISTORY};
pub use settings::{Assembly, ConstrainedAlpha, Formulation, MAX_HALVINGS};
pub(crate) use sizes::Sizes;
pub(crate) use step::commit;
