//! One Newton-solved step: predictor, iterations, convergence test, the update of positions
//! and velocities.

use super::evaluate::{all_finite_parts, evaluate, norm, norm_squared, residual};
use super::matrix::{map_constraint_rows, stabilized_iteration_matrix, Order};
use super::report::{ConstrainedReport, RESIDUAL_HISTORY};
use super::settings::{ConstrainedAlpha, Formulation};
use super::sizes::Sizes;
use super::solve::newton_update;

use crate::integrators::constrained::block::{zero_block, Block};
use crate::integrators::constrained::model::ConstrainedModel;
use crate::integrators::constrained::state::{ConstrainedState, Workspace};
use crate::{Error, Real, Result};

impl<T: Real> ConstrainedAlpha<T> {
    /// One Newton-solved step of `h` from `state`, its result in `work` (checked finite:
    /// [`commit`](super::step::commit) writes it into a state); the leading `cleared x cleared` block of the Newton
    /// matrix is zero at the start.
    pub(crate) fn newton_step<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
        mut cleared: usize,
    ) -> Result<ConstrainedReport<T>> {
        let Sizes { n, m } = sizes;
        let one = T::one();
        let t1 = state.t + h;
        let c_a = (one - self.alpha_f) / (one - self.alpha_m);
        let h2b = h * h * self.beta;
        let beta_p = h2b * c_a;
        let gamma_p = h * self.gamma * c_a;
        self.predict(state, work, h, sizes);
        // Stabilized index 2: the position correction's multiplier, scaled `mu = h^2 beta mu~`.
        let stabilized = self.formulation == Formulation::StabilizedIndex2 && m > 0;
        let k = if stabilized { n + 2 * m } else { n + m };
        work.uses(k);
        if stabilized {
            work.mu[..m].fill(T::zero());
        }
        let hg = h * self.gamma;
        let mut report = ConstrainedReport {
            newton_iterations: 0,
            halvings: 0,
            force_residual: T::zero(),
            constraint_residual: T::zero(),
            residual_history: [T::zero(); RESIDUAL_HISTORY],
            history_len: 0,
        };
        let eps8 = T::EPS * T::c(8.0);
        let mut stagnated = false;
        // The loop keeps only scalars and the report: each part is out of line, so that this
        // frame stays small under the model's evaluations.
        loop {
            stage(work, n, c_a, h2b, hg);
            if stabilized {
                position_correction(model, t1, work, sizes, h2b)?;
            }
            // M, C_q, f and C at q_{n+1}, v_{n+1}.
            let order = Order::multipliers_first(m, stabilized);
            // The first evaluation of a step is nearly always followed by an update: the
            // constraints' Hessian is taken with their Jacobian then, from the same markers.
            let first = report.newton_iterations == 0;
            let with_hessian = first.then_some(beta_p);
            let hessian = evaluate(model, t1, work, sizes, k, cleared < k, order, with_hessian)?;
            // The first evaluation's residual also mirrors C_q into C_q^T, for the update that
            // nearly always follows it; after a later one the solve mirrors it if it needs it.
            let mirrored = first && !stabilized;
            let (converged, rc) = self.converged(
                work,
                sizes,
                h2b,
                beta_p,
                hg,
                stabilized,
                mirrored,
                &mut report,
            )?;
            if converged || stagnated {
                finite_result(work, t1, sizes)?;
                return Ok(report);
            }
            if report.newton_iterations >= self.newton.max_iterations {
                return Err(Error::NewtonNotConverged);
            }
            if stabilized {
                // Before the tangent: its velocity rows add to these.
                stabilized_iteration_matrix(work, sizes, c_a);
            }
            self.add_tangent(model, t1, work, sizes, beta_p, gamma_p, stabilized, hessian)?;
            let mirrored = if m > 0 && model.maps_constraint_rows() {
                map_constraint_rows(model, work, sizes, stabilized, mirrored)
            } else {
                mirrored
            };
            let (dx, xx, zeroed) = newton_update(work, sizes, k, stabilized, mirrored)?;
            // The LU leaves the matrix zero: the next evaluation need not zero it.
            cleared = if zeroed { k } else { 0 };
            report.newton_iterations += 1;
            if report.newton_iterations == self.real_time_updates {
                // Real-time mode: the iterate taken without its evaluation.
                stage(work, n, c_a, h2b, hg);
                if stabilized {
                    position_correction(model, t1, work, sizes, h2b)?;
                }
                finite_result(work, t1, sizes)?;
                work.jac_zero = zeroed;
                return Ok(report);
            }
            stagnated =
                rc <= self.newton.absolute_tolerance.sqrt_l() && dx.sqrt_l() <= eps8 * xx.sqrt_l();
        }
    }

    /// The residual of the evaluated iterate, negated, into `work.rhs` (the Newton system's
    /// right-hand side) and its norms into `report`
    /// (`force_residual`, `constraint_residual`, the history); `(converged, |C|)`.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn converged<const S: usize>(
        &self,
        work: &mut Workspace<T, S>,
        sizes: Sizes,
        h2b: T,
        beta_p: T,
        hg: T,
        stabilized: bool,
        mirror: bool,
        report: &mut ConstrainedReport<T>,
    ) -> Result<(bool, T)> {
        let Sizes { n, m } = sizes;
        let co = Order::multipliers_first(m, stabilized).coordinates;
        // r_2 in the rows of c C_q (stabilized index 2) or of C_q (`r_2 / c`).
        let r2_scale = if stabilized { h2b } else { beta_p };
        let (inertia, reaction) = residual(work, sizes, co, r2_scale, mirror);
        // Stabilized index 2: r_3 = C_q v_{n+1} / (h gamma).
        let mut rv = T::zero();
        if stabilized {
            for j in 0..m {
                let row = &work.jac[j][co..co + n];
                let cv = row
                    .iter()
                    .zip(&work.v[..n])
                    .fold(T::zero(), |acc, (c, v)| acc + *c * *v);
                rv += cv * cv;
                work.rhs[m + j] = -cv / hg;
            }
        }
        let rv = if stabilized { rv.sqrt_l() } else { T::zero() };
        let rf = norm(&work.rhs[co..co + n]);
        let rc = norm(&work.c[..m]);
        if !(rf.finite() && rc.finite() && rv.finite()) {
            return Err(Error::NonFiniteState);
        }
        let total = (rf * rf + rc * rc + rv * rv).sqrt_l();
        if (report.history_len as usize) < RESIDUAL_HISTORY {
            report.residual_history[report.history_len as usize] = total;
            report.history_len += 1;
        }
        report.force_residual = rf;
        report.constraint_residual = rc;
        // max(|M x|, |C_q^T lambda|, |f|) with one square root (the root is monotonic and
        // correctly rounded: the same value as the largest of three roots).
        let scale = inertia
            .max(reaction)
            .max(norm_squared(&work.f[..n]))
            .sqrt_l();
        let n_coord = T::of_u32(n.max(1) as u32);
        let forces_ok = rf / n_coord <= self.newton.absolute_tolerance
            || rf <= self.newton.relative_tolerance * scale;
        // (Without the index-2 rows `rv` is zero and the velocity test holds: a non-finite
        // velocity is refused when the step is committed.)
        let constraints_ok = rc <= self.newton.absolute_tolerance
            && (!stabilized
                || rv <= self.newton.absolute_tolerance * (T::one() + norm(&work.v[..n])));
        Ok((forces_ok && constraints_ok, rc))
    }

    /// The parts of the step's `a`, `q`, `v` that do not depend on `q_tt_{n+1}`
    /// (`a_{n+1} = a_base + c q_tt_{n+1}`; `q` and `v` are linear in `a_{n+1}`), and the
    /// predictor `q_tt_{n+1} = q_tt_n`, `lambda_{n+1} = lambda_n`, all in the workspace (the
    /// iteration's vectors are not on the stack).
    // Out of line, as the other parts of `newton_step`: its unrolled loop's registers are not
    // in the frame under which the model is evaluated.
    #[inline(never)]
    pub(super) fn predict<const S: usize>(
        &self,
        s0: &ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        sizes: Sizes,
    ) {
        let Sizes { n, m } = sizes;
        let one = T::one();
        for i in 0..n {
            work.a_base[i] =
                (s0.acc[i] * self.alpha_f - s0.alg[i] * self.alpha_m) / (one - self.alpha_m);
            work.q_base[i] = s0.q[i] + s0.v[i] * h + s0.alg[i] * (h * h * (T::c(0.5) - self.beta));
            work.v_base[i] = s0.v[i] + s0.alg[i] * (h * (one - self.gamma));
            work.x[i] = s0.acc[i];
        }
        work.lambda[..m].copy_from_slice(&s0.lambda[..m]);
    }
}

/// The iterate's `a = a_base + c x`, `q = q_base + h^2 beta a`, `v = v_base + h gamma a`.
#[inline(never)]
pub(super) fn stage<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    n: usize,
    c_a: T,
    h2b: T,
    hg: T,
) {
    for i in 0..n {
        work.alg[i] = work.a_base[i] + work.x[i] * c_a;
        work.q[i] = work.q_base[i] + work.alg[i] * h2b;
        work.v[i] = work.v_base[i] + work.alg[i] * hg;
    }
}

/// Stabilized index 2: `q_{n+1} = q^GA + h^2 beta C_q(q^GA)^T mu~`.
#[inline(never)]
pub(super) fn position_correction<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t1: T,
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    h2b: T,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    work.scratch(n.max(m));
    zero_block(&mut work.scratch, n.max(m));
    model.constraint_jacobian(
        t1,
        &work.q[..n],
        &mut Block::new(&mut work.scratch, 0, 0, m, n),
    )?;
    for i in 0..n {
        let corr = (0..m).fold(T::zero(), |acc, j| acc + work.scratch[j][i] * work.mu[j]);
        work.q[i] += h2b * corr;
    }
    Ok(())
}

/// `NonFiniteState` unless every entry of the step's result in `work` and its time `t1` is
/// finite.
#[inline(never)]
pub(super) fn finite_result<T: Real, const S: usize>(
    work: &Workspace<T, S>,
    t1: T,
    sizes: Sizes,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    let parts = [&work.q[..n], &work.v[..n], &work.x[..n], &work.alg[..n]];
    if all_finite_parts(&parts, &work.lambda[..m]) && t1.finite() {
        Ok(())
    } else {
        Err(Error::NonFiniteState)
    }
}
