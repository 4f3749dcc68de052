//! [`NewtonSettings`]: the tolerances and the update budget of an implicit step's Newton
//! iteration (the defaults of Exudyn's `SolveDynamic`).

use crate::error::finite;
use crate::{Error, Param, Real, Result};

/// Newton iteration of an implicit step.
///
/// The residual is `r = M q_tt - f` (N). Converged when `|r|_2 / n <= absolute_tolerance`
/// (n = number of coordinates, the form of Exudyn's absolute criterion), or when
/// `|r|_2 <= relative_tolerance max(|M q_tt|_2, |f|_2)`, or when an update is below round-off
/// (`|dx| <= 8 eps |x|`; this is what makes `f32` converge, whose round-off is above 1e-8).
/// The relative test is against the size of the forces, not against the first residual, so a
/// poor predictor does not loosen it.
///
/// The defaults follow the scalar: Exudyn's in double precision (1e-8 relative, 1e-10 N
/// absolute); in single precision 1e-5 and 1e-6 N, which a residual in f32 (round-off 6e-8)
/// reaches in one or two updates where f64's tolerances are out of its reach.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonSettings<T: Real> {
    /// Residual reduction factor (default 1e-8; 1e-5 in `f32`).
    pub relative_tolerance: T,
    /// Absolute residual tolerance per coordinate (default 1e-10 N; 1e-6 N in `f32`).
    pub absolute_tolerance: T,
    /// Maximum number of Newton updates per step (default 25, as Exudyn's `newton.maxIterations`);
    /// a step that has not converged after them is `Err(NewtonNotConverged)` (a system's
    /// generalized-alpha), `Err(SolverFailed)` (the second-order scheme of one body).
    pub max_iterations: u32,
}

impl<T: Real> Default for NewtonSettings<T> {
    fn default() -> Self {
        // Single precision: a scalar whose round-off is far above f64's.
        let single = T::EPS > T::c(1e-10);
        Self {
            relative_tolerance: T::c(if single { 1e-5 } else { 1e-8 }),
            absolute_tolerance: T::c(if single { 1e-6 } else { 1e-10 }),
            max_iterations: 25,
        }
    }
}

impl<T: Real> NewtonSettings<T> {
    /// `Err(NotFinite(Setting))` / `Err(OutOfRange(Setting))` unless both tolerances are
    /// finite and `>= 0` and `max_iterations >= 1`.
    pub fn validate(&self) -> Result<()> {
        for tol in [self.relative_tolerance, self.absolute_tolerance] {
            finite(tol, Param::Setting)?;
            if tol < T::zero() {
                return Err(Error::OutOfRange(Param::Setting));
            }
        }
        if self.max_iterations == 0 {
            return Err(Error::OutOfRange(Param::Setting));
        }
        Ok(())
    }
}
