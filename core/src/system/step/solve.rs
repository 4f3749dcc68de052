//! [`System::solve_dynamic`]: Exudyn's `SolveDynamic` for a system: from the initial state over
//! the span of [`SimulationSettings`] in equal steps.

use crate::integrators::StepStatus;
use crate::solver::SimulationSettings;
use crate::system::error::{At, SystemError, SystemResult};
use crate::system::index::ItemRef;
use crate::system::items::System;
use crate::system::sensor::SensorSink;
use crate::{Error, Real};

/// What a solve did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveReport {
    /// Steps taken (`number_of_steps`).
    pub steps: u32,
    /// Steps that reported [`StepStatus::StepTooLarge`] (warnings; the solve went on).
    pub steps_too_large: u32,
    /// The largest number of sub-steps of a rigid body in one step.
    pub max_substeps: u32,
    /// Evaluations of all loads and connector forces.
    pub force_evaluations: u64,
}

impl<
        T: Real,
        const N: usize,
        const O: usize,
        const M: usize,
        const L: usize,
        const C: usize,
        const S: usize,
        const G: usize,
    > System<T, N, O, M, L, C, S, G>
{
    /// Exudyn's `SolveDynamic`: puts every node in its initial state at
    /// `settings.start_time`, records the sensors there (one row), and takes
    /// `settings.number_of_steps` steps of `h = (end - start) / n` with the system's own
    /// [`SystemSettings`](crate::system::SystemSettings) (step `i` ends at `t_0 + i h`, the last one at
    /// `end_time` exactly), recording the sensors after each. The system is left at
    /// `end_time`.
    ///
    /// Of `settings`, the time span is used; `solver_type`, `spectral_radius` and `newton`
    /// belong to generalized-alpha, which the system does not use (it integrates with its
    /// coupled scheme, module docs); they are validated all the same.
    ///
    /// Errors: `NotAssembled`; invalid `settings` (at [`ItemRef::System`]); any step's error.
    /// On error the states and time are those before the call (the rows already recorded stay
    /// in `sink`).
    pub fn solve_dynamic<K: SensorSink<T> + ?Sized>(
        &mut self,
        settings: &SimulationSettings<T>,
        sink: &mut K,
    ) -> SystemResult<SolveReport> {
        if !self.assembled {
            return Err(SystemError::new(Error::NotAssembled, ItemRef::System));
        }
        settings.validate().at(ItemRef::System)?;
        let saved_states = self.states.clone();
        let saved_time = self.time;
        let result = self.run(settings, sink);
        if result.is_err() {
            self.states = saved_states;
            self.time = saved_time;
        }
        result
    }

    fn run<K: SensorSink<T> + ?Sized>(
        &mut self,
        settings: &SimulationSettings<T>,
        sink: &mut K,
    ) -> SystemResult<SolveReport> {
        for (s, n) in self.states.iter_mut().zip(self.nodes.iter()) {
            *s = n.initial_state();
        }
        self.time = settings.start_time;
        self.record_sensors(sink)?;
        let h = settings.step_size();
        let n = settings.number_of_steps;
        let mut report = SolveReport {
            steps: 0,
            steps_too_large: 0,
            max_substeps: 0,
            force_evaluations: 0,
        };
        for i in 1..=n {
            let t1 = if i == n {
                settings.end_time
            } else {
                settings.start_time + h * T::c(f64::from(i))
            };
            let r = self.step_to(h, t1, sink)?;
            report.steps += 1;
            if r.status != StepStatus::Ok {
                report.steps_too_large += 1;
            }
            report.max_substeps = report.max_substeps.max(r.substeps);
            report.force_evaluations += u64::from(r.force_evaluations);
        }
        Ok(report)
    }
}
