//! Consistent start values: positions and velocities checked or projected onto the
//! constraints, accelerations and multipliers solved.

use super::evaluate::{evaluate, norm};
use super::matrix::{constraint_jacobian_both, mirror_constraint_jacobian, Order};
use super::settings::{Assembly, ConstrainedAlpha};
use super::sizes::Sizes;

use crate::error::finite;
use crate::integrators::constrained::block::{zero_block, Block};
use crate::integrators::constrained::model::ConstrainedModel;
use crate::integrators::constrained::state::{ConstrainedState, Workspace};
use crate::math::dense::solve_in_place;
use crate::{Error, Param, Real, Result};

impl<T: Real> ConstrainedAlpha<T> {
    /// A start state at `t0` (s) from `q0`, `v0` (`n` entries each): positions and velocities
    /// checked against the constraints (or projected onto them, [`Assembly`]), then the
    /// consistent accelerations and multipliers of
    /// `[M C_q^T; C_q 0] [q_tt; lambda] = [f; -(C_q q_t)_q q_t]`.
    ///
    /// Errors: `CapacityFull` if `n + m` exceeds `S` or `q0`/`v0` are shorter than `n`,
    /// `NotFinite(SimulationTime)`, `NonFiniteState`, `ConstraintViolated` (beyond the
    /// tolerance without `assembly.solve`, or the projection did not converge),
    /// `SingularMatrix` (redundant constraints, or a coordinate without mass), the model's
    /// errors.
    pub fn initial_state<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        t0: T,
        q0: &[T],
        v0: &[T],
        assembly: Assembly<T>,
        work: &mut Workspace<T, S>,
    ) -> Result<ConstrainedState<T, S>> {
        let sizes = Sizes::of::<T, M, S>(model)?;
        let Sizes { n, m } = sizes;
        work.uses(n + m);
        finite(t0, Param::SimulationTime)?;
        finite(assembly.tolerance, Param::Setting)?;
        finite(assembly.velocity_tolerance, Param::Setting)?;
        if q0.len() < n || v0.len() < n {
            return Err(Error::CapacityFull);
        }
        if !q0[..n].iter().chain(v0[..n].iter()).all(|x| x.finite()) {
            return Err(Error::NonFiniteState);
        }
        let mut s = ConstrainedState {
            t: t0,
            ..ConstrainedState::default()
        };
        s.q[..n].copy_from_slice(&q0[..n]);
        s.v[..n].copy_from_slice(&v0[..n]);
        if m > 0 {
            self.assemble_positions(model, &mut s, assembly, work, sizes)?;
            assemble_velocities(model, &mut s, assembly, work, sizes)?;
        }
        // [M C_q^T; C_q 0] [q_tt; lambda] = [f; -(C_q v)_q v].
        let t = s.t;
        work.q[..n].copy_from_slice(&s.q[..n]);
        work.v[..n].copy_from_slice(&s.v[..n]);
        let order = Order::coordinates_first(n);
        evaluate(model, t, work, sizes, n + m, true, order, None)?;
        mirror_constraint_jacobian(&mut work.jac, sizes, order);
        work.rhs = work.f;
        if m > 0 {
            velocity_term(model, t, &s.q[..n], &s.v[..n], work, sizes)?;
            for i in 0..m {
                work.rhs[n + i] = -work.c[i];
            }
        }
        solve_in_place(&mut work.jac, &mut work.rhs, n + m).ok_or(Error::SingularMatrix)?;
        s.acc[..n].copy_from_slice(&work.rhs[..n]);
        s.alg[..n].copy_from_slice(&work.rhs[..n]);
        s.lambda[..m].copy_from_slice(&work.rhs[n..n + m]);
        Ok(s)
    }

    /// Positions: refused or projected (Newton on the smallest `dq` with `C(q + dq) = 0`:
    /// `[E C_q^T; C_q 0] [dq; mu] = [0; -C]`).
    pub(super) fn assemble_positions<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        s: &mut ConstrainedState<T, S>,
        assembly: Assembly<T>,
        work: &mut Workspace<T, S>,
        sizes: Sizes,
    ) -> Result<()> {
        let Sizes { n, m } = sizes;
        let t = s.t;
        for _ in 0..=self.newton.max_iterations {
            model.constraint(t, &s.q[..n], &mut work.c[..m])?;
            let residual = norm(&work.c[..m]);
            if !residual.finite() {
                return Err(Error::NonFiniteState);
            }
            if residual <= assembly.tolerance {
                return Ok(());
            }
            if !assembly.solve {
                return Err(Error::ConstraintViolated);
            }
            projection_matrix(model, t, &s.q[..n], &mut work.jac, sizes)?;
            work.rhs = [T::zero(); S];
            for i in 0..m {
                work.rhs[n + i] = -work.c[i];
            }
            solve_in_place(&mut work.jac, &mut work.rhs, n + m).ok_or(Error::SingularMatrix)?;
            for i in 0..n {
                s.q[i] += work.rhs[i];
            }
        }
        Err(Error::ConstraintViolated)
    }
}

/// `[E C_q^T; C_q 0]` at `q`: the matrix of the smallest correction onto the constraints.
pub(super) fn projection_matrix<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    q: &[T],
    jac: &mut [[T; S]; S],
    sizes: Sizes,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    zero_block(jac, n + m);
    for (i, row) in jac.iter_mut().enumerate().take(n) {
        row[i] = T::one();
    }
    constraint_jacobian_both(model, t, q, jac, sizes)
}

/// Velocities: refused or projected onto `C_q v = 0` (the smallest change).
pub(super) fn assemble_velocities<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    s: &mut ConstrainedState<T, S>,
    assembly: Assembly<T>,
    work: &mut Workspace<T, S>,
    sizes: Sizes,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    projection_matrix(model, s.t, &s.q[..n], &mut work.jac, sizes)?;
    let mut w = [T::zero(); S];
    for (k, wk) in w.iter_mut().enumerate().take(m) {
        *wk = (0..n).fold(T::zero(), |acc, j| acc + work.jac[n + k][j] * s.v[j]);
    }
    let bound = assembly.velocity_tolerance * (T::one() + norm(&s.v[..n]));
    if norm(&w[..m]) <= bound {
        return Ok(());
    }
    if !assembly.solve {
        return Err(Error::ConstraintViolated);
    }
    work.rhs = [T::zero(); S];
    for k in 0..m {
        work.rhs[n + k] = -w[k];
    }
    solve_in_place(&mut work.jac, &mut work.rhs, n + m).ok_or(Error::SingularMatrix)?;
    for i in 0..n {
        s.v[i] += work.rhs[i];
    }
    Ok(())
}

/// `(C_q v)_q v` into `work.c[..m]`: the model's, or the difference quotient of `C_q v` along
/// `v`.
pub(super) fn velocity_term<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    q: &[T],
    v: &[T],
    work: &mut Workspace<T, S>,
    sizes: Sizes,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    if let Some(r) = model.constraint_velocity_term(t, q, v, &mut work.c[..m]) {
        return r;
    }
    let vn = norm(v);
    if vn == T::zero() {
        work.c[..m].fill(T::zero());
        return Ok(());
    }
    let delta = T::EPS.sqrt_l() * (T::one() + norm(q)) / vn;
    let cq_v = |qq: &[T], scratch: &mut [[T; S]; S], out: &mut [T]| -> Result<()> {
        zero_block(scratch, n.max(m));
        model.constraint_jacobian(t, qq, &mut Block::new(scratch, 0, 0, m, n))?;
        for (k, o) in out.iter_mut().enumerate().take(m) {
            *o = (0..n).fold(T::zero(), |acc, j| acc + scratch[k][j] * v[j]);
        }
        Ok(())
    };
    work.scratch(n.max(m));
    cq_v(q, &mut work.scratch, &mut work.f2[..m])?;
    for i in 0..n {
        work.q[i] = q[i] + v[i] * delta;
    }
    let qp = work.q;
    cq_v(&qp[..n], &mut work.scratch, &mut work.c[..m])?;
    for k in 0..m {
        work.c[k] = (work.c[k] - work.f2[k]) / delta;
    }
    Ok(())
}
