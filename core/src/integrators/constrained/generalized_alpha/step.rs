//! A step: the checks, and the halving of a step whose Newton iteration fails; the commit of
//! its result into a state.

use super::evaluate::finite_state;
use super::report::ConstrainedReport;
use super::settings::{ConstrainedAlpha, Formulation};
use super::sizes::Sizes;

use crate::error::finite;
use crate::integrators::constrained::model::ConstrainedModel;
use crate::integrators::constrained::state::{ConstrainedState, Workspace};
use crate::target::IN_ORDER;
use crate::{Error, Param, Real, Result};

impl<T: Real> ConstrainedAlpha<T> {
    /// One step of `h` (s): `state` advanced to `state.t + h`, or an error and `state`
    /// unchanged. With step halving ([`Self::with_step_halving`]) a step whose Newton
    /// iteration fails (`NewtonNotConverged`, `SingularMatrix`) is retried as two halves,
    /// recursively.
    ///
    /// Errors: `NotFinite | OutOfRange(TimeStep)`, `CapacityFull` (`n + m > S`),
    /// `NonFiniteState` (a non-finite state or result), `SingularMatrix`, `NewtonNotConverged`,
    /// the model's errors.
    pub fn step<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
    ) -> Result<ConstrainedReport<T>> {
        let sizes = self.checked_sizes::<M, S>(model, h)?;
        if !finite_state(state, sizes) {
            return Err(Error::NonFiniteState);
        }
        self.step_sized(model, state, work, h, sizes, 0)
    }

    /// [`Self::step`] for a system's storage: from a state known to be finite (checked when it
    /// was committed or computed at the start) with a workspace whose leading
    /// `cleared x cleared` block of the Newton matrix is zero (as [`Workspace::clear`] leaves
    /// it between a system's steps: the first evaluation does not zero it again; a halved step
    /// zeroes). `state` is read, not written: the step's result stays in `work` (`q`, `v`,
    /// the accelerations in `x`, `alg`, `lambda`; checked finite), for the system to commit
    /// once its own checks pass ([`commit`]).
    pub(crate) fn step_into_work<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        cleared: usize,
    ) -> Result<ConstrainedReport<T>> {
        let sizes = self.checked_sizes::<M, S>(model, h)?;
        // `step_sized`'s branch without its write: through it with a flag, the system's step
        // costs more on a microcontroller (measured on the Cortex-M4F counts).
        if self.max_halvings == 0 {
            return self.newton_step(model, state, work, h, sizes, cleared);
        }
        self.step_on_trial(model, state, work, h, sizes, false)
    }

    /// The sizes of `model` once the step `h` and the capacity `S` are checked (the errors of
    /// [`Self::step`] before the state's).
    pub(super) fn checked_sizes<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        h: T,
    ) -> Result<Sizes> {
        finite(h, Param::TimeStep)?;
        if h <= T::zero() {
            return Err(Error::OutOfRange(Param::TimeStep));
        }
        let sizes = Sizes::of::<T, M, S>(model)?;
        if self.formulation == Formulation::StabilizedIndex2 && sizes.n + 2 * sizes.m > S {
            return Err(Error::CapacityFull);
        }
        Ok(sizes)
    }

    /// [`Self::step`] with the checked sizes `n`, `m`, its workspace's leading
    /// `cleared x cleared` block zero.
    pub(super) fn step_sized<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
        cleared: usize,
    ) -> Result<ConstrainedReport<T>> {
        if self.max_halvings == 0 {
            // Written only on convergence.
            let report = self.newton_step(model, state, work, h, sizes, cleared)?;
            commit(state, work, state.t + h, sizes);
            return Ok(report);
        }
        self.step_on_trial(model, state, work, h, sizes, true)
    }

    /// [`Self::step`] with step halving, on a copy of `state` (the halves commit into it; the
    /// last one's result is also in `work`), written back on success if `write_back`.
    // Out of line: the copy is on the stack only when halving is on.
    #[inline(never)]
    pub(super) fn step_on_trial<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
        write_back: bool,
    ) -> Result<ConstrainedReport<T>> {
        let mut trial = *state;
        let report = self.step_halving(model, &mut trial, work, h, sizes, 0)?;
        if write_back {
            *state = trial;
        }
        Ok(report)
    }

    /// [`Self::step`] of `h` at halving level `level`.
    pub(super) fn step_halving<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
        level: u32,
    ) -> Result<ConstrainedReport<T>> {
        let step = self.newton_step(model, state, work, h, sizes, 0);
        if step.is_ok() {
            commit(state, work, state.t + h, sizes);
        }
        match step {
            Err(Error::NewtonNotConverged | Error::SingularMatrix) if level < self.max_halvings => {
                let half = h * T::c(0.5);
                let first = self.step_halving(model, state, work, half, sizes, level + 1)?;
                // The second half from the first's end as a step's start (on a Lie group a
                // step's rotations are taken from its start).
                model.recentre(&mut state.q[..sizes.n]);
                let mut second = self.step_halving(model, state, work, half, sizes, level + 1)?;
                second.halvings += first.halvings + 1;
                Ok(second)
            }
            other => other,
        }
    }
}

/// The step's result in `work` (checked by [`finite_result`](super::newton::finite_result)) into `state`, at time `t1`.
#[inline(never)]
pub(crate) fn commit<T: Real, const S: usize>(
    state: &mut ConstrainedState<T, S>,
    work: &Workspace<T, S>,
    t1: T,
    sizes: Sizes,
) {
    let Sizes { n, m } = sizes;
    state.t = t1;
    if IN_ORDER {
        // One pass over the coordinates: a `memcpy` call per vector costs more in order.
        for i in 0..n {
            state.q[i] = work.q[i];
            state.v[i] = work.v[i];
            state.acc[i] = work.x[i];
            state.alg[i] = work.alg[i];
        }
    } else {
        state.q[..n].copy_from_slice(&work.q[..n]);
        state.v[..n].copy_from_slice(&work.v[..n]);
        state.acc[..n].copy_from_slice(&work.x[..n]);
        state.alg[..n].copy_from_slice(&work.alg[..n]);
    }
    state.lambda[..m].copy_from_slice(&work.lambda[..m]);
}
