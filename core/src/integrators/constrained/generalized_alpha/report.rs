//! [`ConstrainedReport`]: what a step's Newton iteration did.

/// Number of Newton residuals a [`ConstrainedReport`] keeps.
pub const RESIDUAL_HISTORY: usize = 8;

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedReport<T> {
    /// Newton updates (linear solves) of the last (sub-)step; 0 if the predictor already
    /// satisfied the equations.
    pub newton_iterations: u32,
    /// How often the step was halved (Exudyn's automatic step reduction); 0 normally.
    pub halvings: u32,
    /// `|r_1|` of the last evaluated iterate (units of the force): at convergence, or in
    /// real-time mode before the last update.
    pub force_residual: T,
    /// `|C(q)|` of the last evaluated iterate (m or rad), as `force_residual`.
    pub constraint_residual: T,
    /// The Newton residual `|[r_1; C]|` before each update and at convergence, of the last
    /// (sub-)step (first `history_len` entries). A real-time step that took its last update
    /// without evaluating it has one entry fewer: `history_len == newton_iterations` (while
    /// the history has room).
    pub residual_history: [T; RESIDUAL_HISTORY],
    /// Number of valid entries of `residual_history`.
    pub history_len: u32,
}
