//! [`System::solve_dynamic`]: Exudyn's `SolveDynamic` for a system: from the initial state over
//! the span of [`SimulationSettings`] in equal steps.

use crate::integrators::StepStatus;
use crate::solver::{DynamicSolverType, SimulationSettings};
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
    /// Generalized-alpha: Newton updates over all steps.
    pub newton_iterations: u64,
    /// Generalized-alpha: step halvings over all steps.
    pub halvings: u32,
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
        const K: usize,
        const W: usize,
        const J: usize,
    > System<T, N, O, M, L, C, S, G, K, W, J>
{
    /// Exudyn's `SolveDynamic`: puts every node in its initial state at
    /// `settings.start_time`, records the sensors there (one row), and takes
    /// `settings.number_of_steps` steps of `h = (end - start) / n` (step `i` ends at
    /// `t_0 + i h`, the last one at `end_time` exactly), recording the sensors after each. The
    /// system is left at `end_time`.
    ///
    /// The scheme is `settings.solver_type`'s:
    /// - [`DynamicSolverType::GeneralizedAlpha`] (the default, Exudyn's): generalized-alpha on
    ///   the whole system with `settings.spectral_radius` and `settings.newton` (the system's
    ///   [`AlphaSettings`](crate::system::AlphaSettings) give the formulation, step halving and
    ///   start assembly), whatever the system's coupling; it first computes consistent start
    ///   values (3D rigid bodies in Euler parameters).
    /// - [`DynamicSolverType::SystemCoupling`]: the system's own
    ///   [`SystemSettings::coupling`](crate::system::SystemSettings::coupling) (kick-drift-kick
    ///   by default), as [`System::step`] uses it.
    ///
    /// Errors: `NotAssembled`; invalid `settings` (at [`ItemRef::System`]); the start's and
    /// any step's error. On error the states and time are those before the call (the rows
    /// already recorded stay in `sink`).
    pub fn solve_dynamic<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        settings: &SimulationSettings<T>,
        sink: &mut Sink,
    ) -> SystemResult<SolveReport> {
        if !self.assembled {
            return Err(SystemError::new(Error::NotAssembled, ItemRef::System));
        }
        settings.validate().at(ItemRef::System)?;
        // The states and layout the run changes are copies; the originals are moved aside
        // and, on error, moved back (a move keeps every byte, unused slots included).
        let (states, layout) = (self.states.clone(), self.layout.clone());
        let states = core::mem::replace(&mut self.states, states);
        let layout = core::mem::replace(&mut self.layout, layout);
        let time = (self.time, self.time_carry);
        let (alpha, tree) = (self.alpha.saved(), self.tree.saved());
        let result = self.run(settings, sink);
        // With the layout the run used: it says which part of the workspace the run wrote.
        self.settle_solver();
        if result.is_err() {
            self.states = states;
            self.layout = layout;
            (self.time, self.time_carry) = time;
            self.alpha.restore(alpha);
            self.tree.restore(tree);
        }
        result
    }

    fn run<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        settings: &SimulationSettings<T>,
        sink: &mut Sink,
    ) -> SystemResult<SolveReport> {
        for (s, n) in self.states.iter_mut().zip(self.nodes.iter()) {
            *s = n.initial_state();
        }
        self.time = settings.start_time;
        self.time_carry = T::zero();
        let alpha = match settings.solver_type {
            DynamicSolverType::GeneralizedAlpha => {
                let mut a = self.settings.alpha;
                a.spectral_radius = settings.spectral_radius;
                a.newton = settings.newton;
                let scheme = a.scheme().at(ItemRef::System)?;
                self.alpha_layout(a.formulation)?;
                self.alpha_start(&scheme)?;
                Some(scheme)
            }
            _ => None,
        };
        self.record_sensors(sink)?;
        let h = settings.step_size();
        let n = settings.number_of_steps;
        let mut report = SolveReport {
            steps: 0,
            steps_too_large: 0,
            max_substeps: 0,
            force_evaluations: 0,
            newton_iterations: 0,
            halvings: 0,
        };
        for i in 1..=n {
            let t1 = if i == n {
                settings.end_time
            } else {
                settings.start_time + h * T::c(f64::from(i))
            };
            let r = self.step_with(h, t1, alpha.as_ref(), sink)?;
            report.steps += 1;
            if r.status != StepStatus::Ok {
                report.steps_too_large += 1;
            }
            report.max_substeps = report.max_substeps.max(r.substeps);
            report.force_evaluations += u64::from(r.force_evaluations);
            report.newton_iterations += u64::from(r.newton_iterations);
            report.halvings = report.halvings.saturating_add(r.halvings);
        }
        Ok(report)
    }
}
