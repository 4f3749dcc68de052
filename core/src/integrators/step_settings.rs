//! Settings every rigid-body step shares: the rotation-per-step bound and sub-stepping.

use crate::error::finite;
use crate::{Error, Param, Real, Result};

/// Step-size control shared by all rigid-body integrators (scheme-specific options live in
/// each scheme's own settings, e.g. [`MidpointSettings`](super::midpoint::MidpointSettings)).
///
/// `#[non_exhaustive]`: build it with [`StepSettings::default`] and the `with_*` setters (or
/// assign the public fields), so new options can be added without breaking callers.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct StepSettings<T> {
    /// Largest rotation per (sub-)step, `|w| h` (rad), default `0.5`: above it the step reports
    /// [`StepStatus::StepTooLarge`](super::StepStatus::StepTooLarge), and with `substep` it
    /// is the target of the sub-step size. Finite and > 0.
    pub max_rotation_per_step: T,
    /// Split `dt` into `n` equal sub-steps, `n = ceil(|w| dt / max_rotation_per_step)`. A
    /// sub-step whose start or end rate turns by more than the bound (the rate grew within it)
    /// is thrown away and the rest of `dt` re-planned finer from the larger rate. Default
    /// `false` (one step of `dt`, warning only). Loads stay those given for the whole `dt`.
    pub substep: bool,
    /// Cap on the sub-step evaluations (taken or redone) in one call (>= 1), default 1024: it
    /// bounds the run time of a call. When it binds, the affordable sub-steps cover `dt` and the
    /// step reports the limit and the warning.
    pub max_substeps: u32,
}

impl<T: Real> Default for StepSettings<T> {
    fn default() -> Self {
        Self {
            max_rotation_per_step: T::c(0.5),
            substep: false,
            max_substeps: 1024,
        }
    }
}

impl<T: Real> StepSettings<T> {
    /// Sets [`StepSettings::max_rotation_per_step`] (rad).
    pub fn with_max_rotation_per_step(mut self, theta: T) -> Self {
        self.max_rotation_per_step = theta;
        self
    }

    /// Sets [`StepSettings::substep`].
    pub fn with_substep(mut self, on: bool) -> Self {
        self.substep = on;
        self
    }

    /// Sets [`StepSettings::max_substeps`].
    pub fn with_max_substeps(mut self, n: u32) -> Self {
        self.max_substeps = n;
        self
    }

    /// `NotFinite(Setting)` / `OutOfRange(Setting)` unless `max_rotation_per_step` is finite and
    /// > 0 and `max_substeps >= 1`.
    pub fn validate(&self) -> Result<()> {
        finite(self.max_rotation_per_step, Param::Setting)?;
        if self.max_rotation_per_step <= T::zero() || self.max_substeps == 0 {
            return Err(Error::OutOfRange(Param::Setting));
        }
        Ok(())
    }
}
