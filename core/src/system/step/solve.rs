//! [`System::solve_dynamic`]: Exudyn's `SolveDynamic` for a system: from the initial state over
//! the span of [`SimulationSettings`] in equal steps; with an observer called after every step
//! that may stop the run ([`System::solve_dynamic_observed`]); and the run one step at a time
//! ([`System::solve_begin`], [`System::solve_next`], [`System::solve_end`]) for a caller that
//! must hold no borrow of the system between steps (the C API's callback).

use crate::integrators::constrained::ConstrainedAlpha;
use crate::integrators::StepStatus;
use crate::solver::{DynamicSolverType, SimulationSettings};
use crate::system::alpha::layout::Layout;
use crate::system::alpha::storage::SavedAlpha;
use crate::system::error::{At, SystemError, SystemResult};
use crate::system::grid::Grid;
use crate::system::index::ItemRef;
use crate::system::node::NodeState;
use crate::system::sensor::SensorSink;
use crate::system::settings::{SystemScheme, SystemSettings};
use crate::system::step::StepReport;
use crate::system::system::System;
use crate::{Error, Real};
use heapless::Vec;

/// What a solve did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveReport {
    /// Steps taken (`number_of_steps`, fewer if the observer stopped the run).
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
    /// The observer stopped the run after `steps` steps.
    pub stopped: bool,
}

impl SolveReport {
    const NONE: Self = Self {
        steps: 0,
        steps_too_large: 0,
        max_substeps: 0,
        force_evaluations: 0,
        newton_iterations: 0,
        halvings: 0,
        stopped: false,
    };

    fn add(&mut self, r: &StepReport) {
        self.steps += 1;
        if r.status != StepStatus::Ok {
            self.steps_too_large += 1;
        }
        self.max_substeps = self.max_substeps.max(r.substeps);
        self.force_evaluations += u64::from(r.force_evaluations);
        self.newton_iterations += u64::from(r.newton_iterations);
        self.halvings = self.halvings.saturating_add(r.halvings);
    }
}

/// Where a run is after a step: what the observer of [`System::solve_dynamic_observed`] sees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress<T: Real> {
    /// The step just taken, 1 ..= `steps`; 0 at the start.
    pub step: u32,
    /// The run's number of steps.
    pub steps: u32,
    /// The system's time after the step (s): `t_0 + step h`, `end_time` after the last.
    pub time: T,
    /// What the step did.
    pub report: StepReport,
}

/// An observer's answer: go on, or end the run here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Control {
    /// Take the next step.
    Continue,
    /// End the run with the state of the step just taken (a successful, shorter run).
    Stop,
}

/// A run begun by [`System::solve_begin`]: its settings, scheme and progress, and the state
/// the system goes back to if the run fails. Pass it to [`System::solve_next`] until that
/// returns `None` (or stop early), then to [`System::solve_end`].
pub struct SolveRun<T: Real, const N: usize, const K: usize, const W: usize, const J: usize> {
    settings: SimulationSettings<T>,
    h: T,
    report: SolveReport,
    saved: Saved<T, N, K, W, J>,
}

impl<T: Real, const N: usize, const K: usize, const W: usize, const J: usize>
    SolveRun<T, N, K, W, J>
{
    /// What the run did so far.
    pub fn report(&self) -> SolveReport {
        self.report
    }

    /// Where the run is after [`System::solve_begin`]: step 0, the start time, an empty
    /// step report (what the observer of [`System::solve_dynamic_observed`] sees first).
    pub fn start(&self) -> Progress<T> {
        Progress {
            step: 0,
            steps: self.settings.number_of_steps,
            time: self.settings.start_time,
            report: StepReport {
                status: StepStatus::Ok,
                substeps: 0,
                force_evaluations: 0,
                newton_iterations: 0,
                halvings: 0,
            },
        }
    }

    /// The run's step size `h` (s): what [`System::step`] takes during the run.
    pub fn step_size(&self) -> T {
        self.h
    }

    /// `true` once the run has taken its steps (or was stopped): no step is left.
    pub fn is_done(&self) -> bool {
        self.report.steps >= self.settings.number_of_steps
    }

    /// Counts a step of the run that [`System::step`] took (what [`System::solve_next`] does
    /// after it, for a caller that steps the run itself) and says where the run is: `time` is
    /// the system's time after it.
    pub fn record(&mut self, report: StepReport, time: T) -> Progress<T> {
        self.report.add(&report);
        Progress {
            step: self.report.steps,
            steps: self.settings.number_of_steps,
            time,
            report,
        }
    }

    /// Ends the run after the steps taken so far: [`System::solve_next`] takes no more, and
    /// the report says `stopped` unless every step was taken.
    pub fn stop(&mut self) {
        self.report.stopped = self.report.steps < self.settings.number_of_steps;
        self.settings.number_of_steps = self.report.steps;
    }
}

/// The state before a run: the run works on copies, and on error these are moved back (a move
/// keeps every byte, unused slots included). The settings go back after every run.
struct Saved<T: Real, const N: usize, const K: usize, const W: usize, const J: usize> {
    settings: SystemSettings<T>,
    alpha_scheme: Option<ConstrainedAlpha<T>>,
    states: Vec<NodeState<T>, N, u16>,
    layout: Layout<T, N, K>,
    time: (T, T),
    alpha: SavedAlpha<T, W>,
    tree: [[T; J]; 3],
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
    /// Exudyn's `SolveDynamic`: puts every node (and a kinematic tree's joint coordinates) in
    /// its initial state at `settings.start_time`, records the sensors there (one row), and takes
    /// `settings.number_of_steps` steps of `h = (end - start) / n` (step `i` ends at
    /// `t_0 + i h`, the last one at `end_time` exactly), recording the sensors after each. The
    /// system is left at `end_time`.
    ///
    /// The scheme is `settings.solver_type`'s:
    /// - [`DynamicSolverType::GeneralizedAlpha`] (the default, Exudyn's): generalized-alpha on
    ///   the whole system with `settings.spectral_radius` and `settings.newton`, everything
    ///   else of the system's [`AlphaSettings`](crate::system::AlphaSettings) (formulation,
    ///   rotations, real-time updates, step halving, start assembly), for the run only,
    ///   whatever the system's scheme; it first computes consistent start values.
    /// - [`DynamicSolverType::SystemScheme`]: the system's own
    ///   [`SystemSettings::scheme`](crate::system::SystemSettings::scheme) (kick-drift-kick
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
        self.solve_dynamic_observed(settings, sink, |_, _| Control::Continue)
    }

    /// [`System::solve_dynamic`] with `on_step(system, progress)` called once at the start
    /// (step 0: the initial state at `start_time`, its sensor row recorded) and after every
    /// step (its sensor row recorded): for a progress line, a scene streamed every k steps, or
    /// a stop. [`Control::Stop`] ends the run there: the system keeps the state and time of
    /// that step, the same bits as a run of that many steps, and the report says `stopped`. An
    /// observer that always continues changes nothing.
    ///
    /// Errors as [`System::solve_dynamic`]; a step that fails after the observer saw earlier
    /// steps still puts back the state before the call.
    pub fn solve_dynamic_observed<Sink, F>(
        &mut self,
        settings: &SimulationSettings<T>,
        sink: &mut Sink,
        mut on_step: F,
    ) -> SystemResult<SolveReport>
    where
        Sink: SensorSink<T> + ?Sized,
        F: FnMut(&Self, &Progress<T>) -> Control,
    {
        let mut run = self.solve_begin(settings, sink)?;
        let mut next = Ok(Some(run.start()));
        let result = loop {
            match next {
                Ok(Some(p)) => {
                    if on_step(self, &p) == Control::Stop {
                        run.stop();
                    }
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            }
            next = self.solve_next(&mut run, sink);
        };
        self.solve_end(run, result)
    }

    /// Begins [`System::solve_dynamic`]'s run: checks, keeps the state to go back to, puts the
    /// nodes in their initial state at `start_time`, computes the scheme's start values and
    /// records the first sensor row. On error nothing is changed (no [`System::solve_end`]).
    ///
    /// Until [`System::solve_end`] the system is the run's: [`System::step`] takes the run's
    /// steps (of [`SolveRun::step_size`], on its time grid), and with
    /// [`DynamicSolverType::GeneralizedAlpha`] its settings are the run's scheme (the settings
    /// from before come back at the end).
    pub fn solve_begin<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        settings: &SimulationSettings<T>,
        sink: &mut Sink,
    ) -> SystemResult<SolveRun<T, N, K, W, J>> {
        if !self.assembled {
            return Err(SystemError::new(Error::NotAssembled, ItemRef::System));
        }
        settings.validate().at(ItemRef::System)?;
        let (states, layout) = (self.states.clone(), self.layout.clone());
        let saved = Saved {
            settings: self.settings,
            alpha_scheme: self.alpha_scheme,
            states: core::mem::replace(&mut self.states, states),
            layout: core::mem::replace(&mut self.layout, layout),
            time: (self.time, self.time_carry),
            alpha: self.alpha.saved(),
            tree: self.tree.saved(),
        };
        let mut run = SolveRun {
            settings: *settings,
            h: settings.step_size(),
            report: SolveReport::NONE,
            saved,
        };
        match self.start(&mut run, sink) {
            Ok(()) => Ok(run),
            Err(e) => Err(self.solve_end(run, Err(e)).err().unwrap_or(e)),
        }
    }

    /// The initial state, the scheme's start values and the first sensor row.
    fn start<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        run: &mut SolveRun<T, N, K, W, J>,
        sink: &mut Sink,
    ) -> SystemResult<()> {
        self.initial_states();
        self.time = run.settings.start_time;
        self.time_carry = T::zero();
        self.grid = Grid {
            start: run.settings.start_time,
            h: run.h,
            end: run.settings.end_time,
            steps: run.settings.number_of_steps,
            taken: 0,
        };
        // The generalized-alpha state is the node states' no longer: a step of the system's
        // own generalized-alpha scheme computes consistent start values first.
        self.alpha.invalidate();
        if run.settings.solver_type == DynamicSolverType::GeneralizedAlpha {
            // The run's scheme is the system's until the run ends (`solve_end`).
            let mut a = self.settings.alpha;
            a.spectral_radius = run.settings.spectral_radius;
            a.newton = run.settings.newton;
            let scheme = a.scheme().at(ItemRef::System)?;
            self.alpha_layout(a.formulation, a.rotations)?;
            self.alpha_start(&scheme)?;
            self.settings.scheme = SystemScheme::GeneralizedAlpha;
            self.settings.alpha = a;
            self.alpha_scheme = Some(scheme);
        }
        self.record_sensors(sink)
    }

    /// Takes the run's next step and records the sensors: `Some(progress)`, or `None` when
    /// the run has taken its steps. After an error, call [`System::solve_end`] with it.
    pub fn solve_next<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        run: &mut SolveRun<T, N, K, W, J>,
        sink: &mut Sink,
    ) -> SystemResult<Option<Progress<T>>> {
        if run.is_done() {
            return Ok(None);
        }
        let report = self.step(run.h, sink)?;
        Ok(Some(run.record(report, self.time)))
    }

    /// Ends a run: on `Err`, the state and time before [`System::solve_begin`] are put back
    /// and the error returned; on `Ok`, the run's report.
    pub fn solve_end(
        &mut self,
        run: SolveRun<T, N, K, W, J>,
        result: SystemResult<()>,
    ) -> SystemResult<SolveReport> {
        // With the layout the run used: it says which part of the workspace the run wrote.
        self.clear_solver_scratch();
        let s = run.saved;
        (self.settings, self.alpha_scheme) = (s.settings, s.alpha_scheme);
        self.grid = Grid::off();
        match result {
            Ok(()) => Ok(run.report),
            Err(e) => {
                self.states = s.states;
                self.layout = s.layout;
                (self.time, self.time_carry) = s.time;
                self.alpha.restore(s.alpha);
                self.tree.restore(s.tree);
                Err(e)
            }
        }
    }
}
