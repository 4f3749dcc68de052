//! A step: the checks, and the halving of a step whose Newton iteration fails; the commit of
//! its result into a state.

use super::evaluate::finite_state;
use super::report::ConstrainedReport;
use super::settings::{ConstrainedAlpha, Formulation, MAX_HALVINGS};
use super::sizes::Sizes;

use crate::error::finite;
use crate::integrators::constrained::model::ConstrainedModel;
use crate::integrators::constrained::state::{ConstrainedState, Workspace};
use crate::target::IN_ORDER;
use crate::{Error, Param, Real, Result};

impl<T: Real> ConstrainedAlpha<T> {
    /// One step of `h` (s): `state` advanced to `state.t + h`, or an error and `state`
    /// unchanged. With step halving ([`Self::with_step_halving`]) a step whose Newton
    /// iteration fails (`NewtonNotConverged`, `SingularMatrix`) is retried as two halves, and
    /// a failing half again as two, down to the halving levels.
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
        if self.max_halvings == 0 {
            // Written only on convergence.
            let report = self.newton_step(model, state, work, h, sizes, 0)?;
            commit(state, work, state.t + h, sizes);
            return Ok(report);
        }
        self.step_on_trial(model, state, work, h, sizes)
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

    /// [`Self::step`] with step halving on a copy of `state` (the halves commit into it; the
    /// last one's result is also in `work`), written back on success.
    // Out of line: the copy is on the stack only when halving is on.
    #[inline(never)]
    fn step_on_trial<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
    ) -> Result<ConstrainedReport<T>> {
        let mut trial = *state;
        let report = self.step_halving(model, &mut trial, work, h, sizes)?;
        *state = trial;
        Ok(report)
    }

    /// `state` advanced by `h`, each (part of a) step whose Newton iteration fails
    /// (`NewtonNotConverged`, `SingularMatrix`) taken as two halves, down to `h / 2^L` with
    /// `L` the halving levels; every part committed into `state` (a failed call leaves it
    /// part-way: pass a copy). The second half of a split starts from the first's end as a
    /// step's start ([`ConstrainedModel::recentre`]: on a Lie group a step's rotations are
    /// taken from its start). The report is the last part's, with `halvings` the number of
    /// splits.
    pub(crate) fn step_halving<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
    ) -> Result<ConstrainedReport<T>> {
        // The parts still to take at each level (level `l` steps `h / 2^l`): a depth-first
        // walk of the binary tree of halves, without recursion.
        let mut left = [0u8; MAX_HALVINGS + 1];
        let mut lengths = [h; MAX_HALVINGS + 1];
        let (mut level, mut halvings) = (0, 0);
        left[0] = 1;
        loop {
            let hl = lengths[level];
            match self.newton_step(model, state, work, hl, sizes, 0) {
                Ok(mut report) => {
                    commit(state, work, state.t + hl, sizes);
                    left[level] -= 1;
                    // A finished second half finishes the part it halves.
                    while left[level] == 0 && level > 0 {
                        level -= 1;
                        left[level] -= 1;
                    }
                    if left[level] == 0 {
                        report.halvings = halvings;
                        return Ok(report);
                    }
                    model.recentre(&mut state.q[..sizes.n]);
                }
                Err(Error::NewtonNotConverged | Error::SingularMatrix)
                    if (level as u32) < self.max_halvings =>
                {
                    halvings += 1;
                    level += 1;
                    left[level] = 2;
                    lengths[level] = hl * T::c(0.5);
                }
                Err(e) => return Err(e),
            }
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
