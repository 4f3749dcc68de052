//! The Newton matrix: its layout ([`Order`]), its tangent, and the constraint blocks
//! `C_q`, `C_q^T` mirrored into it.

use super::settings::ConstrainedAlpha;
use super::sizes::Sizes;

use crate::integrators::constrained::block::{zero_block, Block};
use crate::integrators::constrained::model::ConstrainedModel;
use crate::integrators::constrained::state::Workspace;
use crate::{Real, Result};

impl<T: Real> ConstrainedAlpha<T> {
    /// Adds `beta' (d(C_q^T lambda)/dq + d(M x)/dq - df/dq) - gamma' df/dq_t` to the
    /// coordinates' block (the first term unless `hessian_done`: [`evaluate`](super::evaluate::evaluate) added it), the
    /// model's Jacobians where it has them (`d(M x)/dq` only then), forward differences where
    /// not (at `work.q`, `work.v`, with `work.f` the force there);
    /// for the stabilized index 2 also `beta' / (h gamma) (C_q v)_q` to the rows of `r_3` where
    /// the model has it.
    // Out of line, as `evaluate`: the model's temporaries are on the stack one call at a time.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_tangent<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        t: T,
        work: &mut Workspace<T, S>,
        sizes: Sizes,
        beta_p: T,
        gamma_p: T,
        stabilized: bool,
        hessian_done: bool,
    ) -> Result<()> {
        let Sizes { n, m } = sizes;
        let Workspace {
            jac,
            scratch,
            scratch_used,
            f,
            f2,
            q,
            v,
            x,
            lambda,
            ..
        } = work;
        let lambda = &*lambda;
        let co = Order::multipliers_first(m, stabilized).coordinates;
        // d(C_q^T lambda)/dq first (unless the evaluation took it with C_q), so that the block
        // sums the same terms in the same order either way.
        if m > 0 && !hessian_done {
            let analytic = model.constraint_force_jacobian(
                t,
                &q[..n],
                &lambda[..m],
                beta_p,
                &mut Block::new(jac, co, co, n, n),
            );
            match analytic {
                Some(r) => r?,
                None => {
                    // d(C_q^T lambda)/dq by forward differences of C_q.
                    *scratch_used = (*scratch_used).max(n.max(m));
                    let sqrt_eps = T::EPS.sqrt_l();
                    let base = |scratch: &mut [[T; S]; S], g: &mut [T; S]| {
                        for (i, gi) in g.iter_mut().enumerate().take(n) {
                            *gi = (0..m).fold(T::zero(), |acc, k| acc + scratch[k][i] * lambda[k]);
                        }
                    };
                    zero_block(scratch, n.max(m));
                    model.constraint_jacobian(t, &q[..n], &mut Block::new(scratch, 0, 0, m, n))?;
                    base(scratch, f2);
                    let g0 = *f2;
                    for j in 0..n {
                        let q0 = q[j];
                        q[j] = q0 + sqrt_eps * (T::one() + q0.abs_l());
                        let dq = q[j] - q0;
                        zero_block(scratch, n.max(m));
                        let r = model.constraint_jacobian(
                            t,
                            &q[..n],
                            &mut Block::new(scratch, 0, 0, m, n),
                        );
                        q[j] = q0;
                        r?;
                        base(scratch, f2);
                        for i in 0..n {
                            jac[co + i][co + j] += beta_p * (f2[i] - g0[i]) / dq;
                        }
                    }
                }
            }
        }
        if let Some(r) = model.mass_jacobian(
            t,
            &q[..n],
            &v[..n],
            &x[..n],
            beta_p,
            &mut Block::new(jac, co, co, n, n),
        ) {
            r?;
        }
        let analytic = model.force_jacobians(
            t,
            &q[..n],
            &v[..n],
            -beta_p,
            -gamma_p,
            &mut Block::new(jac, co, co, n, n),
        );
        match analytic {
            Some(r) => r?,
            None => {
                let sqrt_eps = T::EPS.sqrt_l();
                for j in 0..n {
                    // d/dq_j, then d/dq_t_j.
                    let q0 = q[j];
                    q[j] = q0 + sqrt_eps * (T::one() + q0.abs_l());
                    let dq = q[j] - q0;
                    *f2 = [T::zero(); S];
                    let r = model.force(t, &q[..n], &v[..n], &mut f2[..n]);
                    q[j] = q0;
                    r?;
                    for i in 0..n {
                        jac[co + i][co + j] -= beta_p * (f2[i] - f[i]) / dq;
                    }
                    let v0 = v[j];
                    v[j] = v0 + sqrt_eps * (T::one() + v0.abs_l());
                    let dv = v[j] - v0;
                    *f2 = [T::zero(); S];
                    let r = model.force(t, &q[..n], &v[..n], &mut f2[..n]);
                    v[j] = v0;
                    r?;
                    for i in 0..n {
                        jac[co + i][co + j] -= gamma_p * (f2[i] - f[i]) / dv;
                    }
                }
            }
        }
        if stabilized {
            // r_3 = C_q v / (h gamma) through q (dq/dx = beta'; h gamma = gamma' / c).
            let c_a = (T::one() - self.alpha_f) / (T::one() - self.alpha_m);
            if let Some(r) = model.constraint_velocity_jacobian(
                t,
                &q[..n],
                &v[..n],
                beta_p * c_a / gamma_p,
                &mut Block::new(jac, m, co, m, n),
            ) {
                r?;
            }
        }
        Ok(())
    }
}

/// Where a matrix over the unknowns `[q; lambda]` holds the constraints' rows (and the
/// multipliers' columns) and the coordinates' rows (and columns): the same index for rows and
/// columns.
#[derive(Clone, Copy, Debug)]
pub(super) struct Order {
    pub(super) constraints: usize,
    pub(super) coordinates: usize,
}

impl Order {
    /// `[A C_q^T; C_q 0]`: the start's solves.
    pub(super) fn coordinates_first(n: usize) -> Self {
        Self {
            constraints: n,
            coordinates: 0,
        }
    }

    /// `[0 c C_q; C_q^T A]`, the Newton matrix: the coordinates after the constraint rows
    /// (`m`, and `m` more of the stabilized index 2). Partial pivoting then takes each
    /// constraint's column first, on a coordinate row, and the coordinates' columns that follow
    /// are mostly eliminated by then (a minimum-degree order of such saddle-point matrices): on
    /// a chain of joints, about half the row operations of coordinates first
    /// (`docs/embedded.md`).
    pub(super) fn multipliers_first(m: usize, stabilized: bool) -> Self {
        Self {
            constraints: 0,
            coordinates: if stabilized { 2 * m } else { m },
        }
    }
}

/// The stabilized index 2's iteration matrix's constraint blocks, multipliers first
/// ([`Order::multipliers_first`]): `C_q^T` (the coordinates' rows, from the evaluated `C_q`)
/// and `c C_q` (the first rows, with `-r_2` on the right), the rows of `r_3`, `c C_q`, and the
/// columns of `mu~`, `C_q C_q^T` in the rows of `r_2`. (Without the stabilization the
/// constraint rows stay `C_q`, with `-r_2 / c` on the right, and only their mirror is taken:
/// [`residual`](super::evaluate::residual) or [`mirror_constraint_jacobian`].) The coordinates' block gets its tangent
/// from [`ConstrainedAlpha::add_tangent`].
#[inline(never)]
pub(super) fn stabilized_iteration_matrix<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    c_a: T,
) {
    let Sizes { n, m } = sizes;
    let co = Order::multipliers_first(m, true).coordinates;
    // C_q^T from C_q, then c C_q: one pass over C_q's rows.
    let (c_rows, q_rows) = work.jac.split_at_mut(co);
    for (k, c_row) in c_rows[..m].iter_mut().enumerate() {
        for (q_row, e) in q_rows.iter_mut().zip(&mut c_row[co..co + n]) {
            q_row[k] = *e;
            *e *= c_a;
        }
    }
    for j in 0..m {
        // The rows of C_q, as mirrored (unscaled): in C_q^T's columns.
        for i in 0..n {
            work.jac[m + j][co + i] = work.jac[co + i][j] * c_a;
        }
        for l in 0..m {
            let cc = (0..n).fold(T::zero(), |acc, i| {
                acc + work.jac[co + i][j] * work.jac[co + i][l]
            });
            work.jac[j][m + l] = cc;
        }
    }
}

/// `C_q` into the lower-left block (rows `n..n+m`) and `C_q^T` into the upper-right one.
pub(super) fn constraint_jacobian_both<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    q: &[T],
    jac: &mut [[T; S]; S],
    sizes: Sizes,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    if m == 0 {
        return Ok(());
    }
    let order = Order::coordinates_first(n);
    model.constraint_jacobian(t, q, &mut Block::new(jac, n, 0, m, n))?;
    mirror_constraint_jacobian(jac, sizes, order);
    Ok(())
}

/// The Newton matrix's constraint rows (`0..m`, the position equations) in the directions of
/// the model's coordinates where the model takes `C_q` in others
/// ([`ConstrainedModel::constraint_rows_to_coordinates`]), after `C_q^T` was mirrored into the
/// coordinates' rows from them (the force `C_q^T lambda` is the model's); whether it is.
// Out of line, as the other parts of `newton_step`: its temporaries are not in that frame.
#[inline(never)]
pub(super) fn map_constraint_rows<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    stabilized: bool,
    mirrored: bool,
) -> bool {
    let Sizes { n, m } = sizes;
    let order = Order::multipliers_first(m, stabilized);
    if !stabilized && !mirrored {
        mirror_constraint_jacobian(&mut work.jac, sizes, order);
    }
    model.constraint_rows_to_coordinates(&work.q[..n], &mut work.jac, 0..m, order.coordinates);
    !stabilized || mirrored
}

/// `C_q^T` (the coordinates' rows, the constraints' columns) from `C_q` (the constraints'
/// rows, the coordinates' columns), where `order` puts them.
pub(super) fn mirror_constraint_jacobian<T: Real, const S: usize>(
    jac: &mut [[T; S]; S],
    sizes: Sizes,
    order: Order,
) {
    let Sizes { n, m } = sizes;
    let Order {
        constraints: cr,
        coordinates: co,
    } = order;
    // The two row ranges apart (the constraints' before or after the coordinates'; without
    // constraint rows both start at the same row); each coordinate row's multiplier columns
    // written in one run.
    let (c_rows, q_rows) = if cr <= co {
        let (a, b) = jac.split_at_mut(co);
        (&a[cr..cr + m], &mut b[..n])
    } else {
        let (a, b) = jac.split_at_mut(cr);
        (&b[..m], &mut a[co..co + n])
    };
    for (j, q_row) in q_rows.iter_mut().enumerate() {
        for (x, c_row) in q_row[cr..cr + m].iter_mut().zip(c_rows) {
            *x = c_row[co + j];
        }
    }
}
