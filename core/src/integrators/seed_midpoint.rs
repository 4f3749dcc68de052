//! The seed 004 midpoint step with its default options only: [`SeedMidpoint`].

use super::midpoint::{midpoint_substep, LinearlyImplicitMidpoint};
use super::rigid_driver::advance_result_screened;
use super::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::nodes::rigid::RigidState;
use crate::{Real, Result};

/// The seed's linearly implicit midpoint step exactly as seed 004 states it: the default
/// options of [`LinearlyImplicitMidpoint`] (orientation turned by the end rate, backward-Euler
/// resistance, no invariant projection) and the shared step settings (rotation bound,
/// sub-stepping). The same results, bit for bit, and the same errors as
/// `LinearlyImplicitMidpoint::with_step_settings(step)`, with the options fixed when it is
/// compiled: a program that never chooses them (the C API, whose step settings have no
/// option fields) links none of their code.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedMidpoint<T> {
    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    pub step: StepSettings<T>,
}

impl<T: Real> SeedMidpoint<T> {
    /// The seed's step with the shared step settings `step`.
    pub fn new(step: StepSettings<T>) -> Self {
        Self { step }
    }

    /// The same step with the options of [`LinearlyImplicitMidpoint`] (their defaults).
    pub fn with_options(&self) -> LinearlyImplicitMidpoint<T> {
        LinearlyImplicitMidpoint::with_step_settings(self.step)
    }
}

impl<T: Real> RigidIntegrator<T> for SeedMidpoint<T> {
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo> {
        // MidpointSettings::validate with its default (absent) projection levels.
        self.step.validate()?;
        advance_result_screened(
            body,
            loads,
            &self.step,
            state,
            dt,
            #[inline(always)]
            |s, h| midpoint_substep(body, loads, s, h),
        )
    }
}
