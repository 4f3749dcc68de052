//! The model evaluated at an iterate: residual, mass matrix and its product, sizes and
//! finiteness checks, norms.

use super::matrix::Order;
use super::sizes::Sizes;

use crate::finite::all_finite_slices;
use crate::integrators::constrained::block::{zero_block, zero_leading, Block};
use crate::integrators::constrained::model::ConstrainedModel;
use crate::integrators::constrained::state::{ConstrainedState, Workspace};
use crate::{Real, Result};

/// The model at `work.q`, `work.v`: the blocks `M` and `C_q` of the leading `k x k` block of
/// `work.jac` (zeroed first with `zero`) where `order` puts them, `M x` into `work.f2` (the
/// residual's inertia term, taken before a tangent is added to `M`'s block), the force into
/// `work.f` and the constraints into `work.c`. With `hessian = Some(a)` also
/// `a d(C_q^T lambda)/dq` into the coordinates' block where the model evaluates it with `C_q`
/// ([`ConstrainedModel::constraint_with_jacobian_and_hessian`]); returns whether it did.
// Out of line: the model's temporaries are on the stack one call at a time (a firmware's
// stack holds the largest evaluation, not the sum of all).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn evaluate<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    k: usize,
    zero: bool,
    order: Order,
    hessian: Option<T>,
) -> Result<bool> {
    let Sizes { n, m } = sizes;
    let Order {
        constraints: cr,
        coordinates: co,
    } = order;
    work.jac_zero = false;
    if zero {
        zero_block(&mut work.jac, k);
    }
    mass_and_product(model, t, work, n, co)?;
    // (`f` beyond `n` is zero: no step writes it.)
    zero_leading(&mut work.f, n);
    model.force(t, &work.q[..n], &work.v[..n], &mut work.f[..n])?;
    if m == 0 {
        return Ok(false);
    }
    // C into work.c, C_q into its rows (mirrored into the coordinates' rows when a linear
    // solve follows: `residual`, `solve_newton`).
    let mut jac = Block::new(&mut work.jac, cr, co, m, n);
    let (q, c) = (&work.q[..n], &mut work.c[..m]);
    if let Some(a) = hessian {
        let lambda = &work.lambda[..m];
        if let Some(r) = model.constraint_with_jacobian_and_hessian(t, q, lambda, a, c, &mut jac) {
            return r.map(|()| true);
        }
    }
    model.constraint_with_jacobian(t, q, c, &mut jac)?;
    Ok(false)
}

/// `M` into the coordinates' block of `work.jac` (at `co`) and `M x` into `work.f2`: the
/// model's product where it takes it ([`ConstrainedModel::mass_with_product`]), else over the
/// block's rows.
// Out of line: its temporaries are off the stack when the constraints are evaluated.
#[inline(never)]
pub(super) fn mass_and_product<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    work: &mut Workspace<T, S>,
    n: usize,
    co: usize,
) -> Result<()> {
    let Workspace { jac, q, x, f2, .. } = work;
    zero_leading(f2, n);
    let mut block = Block::new(jac, co, co, n, n);
    if let Some(r) = model.mass_with_product(t, &q[..n], &x[..n], &mut block, &mut f2[..n]) {
        return r;
    }
    model.mass(t, &q[..n], &mut block)?;
    for i in 0..n {
        f2[i] = jac[co + i][co..co + n]
            .iter()
            .zip(&x[..n])
            .fold(T::zero(), |acc, (a, x)| acc + *a * *x);
    }
    Ok(())
}

/// The residual `C / scale` (rows `0..m`; `r_2 / c` for the rows of `C_q`, `r_2` for those of
/// `c C_q`) and `r_1 = M x + C_q^T lambda - f` (rows from `co`), negated (the Newton system's
/// right-hand side: `f - (M x + C_q^T lambda)` is `-r_1` exactly), into `work.rhs`, from what
/// [`evaluate`] wrote (`C_q^T` read as the columns of `C_q`); with `mirror` also each such
/// column into its row of `C_q^T` (the iteration matrix's, as [`mirror_constraint_jacobian`](super::matrix::mirror_constraint_jacobian)
/// writes it) in the same pass. Returns `(|M x|^2, |C_q^T lambda|^2)`, the scales of `r_1`.
// Out of line: its unrolled loops' spilled addresses are off the stack before the tangent's
// evaluation runs.
#[inline(never)]
pub(super) fn residual<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    co: usize,
    scale: T,
    mirror: bool,
) -> (T, T) {
    let Sizes { n, m } = sizes;
    let (mut inertia, mut reaction) = (T::zero(), T::zero());
    let (c_rows, q_rows) = work.jac.split_at_mut(co);
    for (i, q_row) in q_rows[..n].iter_mut().enumerate() {
        let mx = work.f2[i];
        let mut cl = T::zero();
        if mirror {
            for (k, (c_row, l)) in c_rows[..m].iter().zip(&work.lambda[..m]).enumerate() {
                let c = c_row[co + i];
                q_row[k] = c;
                cl += c * *l;
            }
        } else {
            for (c_row, l) in c_rows[..m].iter().zip(&work.lambda[..m]) {
                cl += c_row[co + i] * *l;
            }
        }
        inertia += mx * mx;
        reaction += cl * cl;
        work.rhs[co + i] = work.f[i] - (mx + cl);
    }
    for j in 0..m {
        work.rhs[j] = -work.c[j] / scale;
    }
    (inertia, reaction)
}

pub(super) fn norm<T: Real>(a: &[T]) -> T {
    norm_squared(a).sqrt_l()
}

/// `|a|^2`.
pub(super) fn norm_squared<T: Real>(a: &[T]) -> T {
    a.iter().fold(T::zero(), |s, x| s + *x * *x)
}

pub(super) fn finite_state<T: Real, const S: usize>(
    s: &ConstrainedState<T, S>,
    sizes: Sizes,
) -> bool {
    let Sizes { n, m } = sizes;
    let parts = [&s.q[..n], &s.v[..n], &s.acc[..n], &s.alg[..n]];
    s.t.finite() && all_finite_parts(&parts, &s.lambda[..m])
}

/// `true` if every entry of the coordinate-sized `parts` and of `lambda` is finite.
pub(super) fn all_finite_parts<T: Real>(parts: &[&[T]; 4], lambda: &[T]) -> bool {
    all_finite_slices(&[parts[0], parts[1], parts[2], parts[3], lambda])
}
