//! What a step reports besides the new state: a warning status and the sub-step count.

/// Whether the step resolved the motion. A warning, not an error: the state was advanced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StepStatus {
    /// Every (sub-)step kept `|w| h` (start and end rate) within
    /// [`StepSettings::max_rotation_per_step`](super::StepSettings::max_rotation_per_step),
    /// and `dt` times the declared load frequency (if any) stayed within its bound.
    Ok,
    /// Some (sub-)step turned by more than the bound: `max(|w_n|, |w_n+1|) h > max_rotation_per_step`
    /// (the gyroscopic term is then not resolved; shorten `dt` or enable sub-stepping), or
    /// `dt` times the declared [`StepSettings::load_frequency`](super::StepSettings::load_frequency)
    /// exceeds [`StepSettings::max_load_phase_per_step`](super::StepSettings::max_load_phase_per_step)
    /// (a held stiff load; only a shorter `dt` helps).
    StepTooLarge,
}

/// The report of one call of [`RigidIntegrator::step`](super::RigidIntegrator::step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepInfo {
    /// [`StepStatus::Ok`] or the [`StepStatus::StepTooLarge`] warning.
    pub status: StepStatus,
    /// Number of sub-steps taken (1 without sub-stepping).
    pub substeps: u32,
    /// Sub-steps computed and thrown away because the rate grew within them past the bound
    /// (they were redone finer); `substeps + rejected_substeps` is the work done, at most
    /// [`StepSettings::max_substeps`](super::StepSettings::max_substeps).
    pub rejected_substeps: u32,
    /// `true` if sub-stepping wanted more sub-steps than
    /// [`StepSettings::max_substeps`](super::StepSettings::max_substeps) allows; the sub-steps
    /// it could afford then covered all of `dt`, some turning by more than the bound
    /// (`status` is `StepTooLarge`).
    pub substep_limit_reached: bool,
}

impl StepInfo {
    /// `true` if `status` is [`StepStatus::Ok`].
    #[inline]
    pub fn is_ok(&self) -> bool {
        self.status == StepStatus::Ok
    }
}
