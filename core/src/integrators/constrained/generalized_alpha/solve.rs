//! The Newton update's linear solve: the whole matrix by LU, or the Schur complement of a
//! symmetric mass block.

use super::matrix::{mirror_constraint_jacobian, Order};
use super::sizes::Sizes;

use crate::integrators::constrained::block::zero_block;
use crate::integrators::constrained::state::Workspace;
use crate::math::dense::{solve_in_place_and_clear, solve_symmetric_in_place_and_clear};
use crate::target::IN_ORDER;
use crate::{Error, Real, Result};

/// Solves the Newton system for `-residual` (in `work.rhs`) and adds the update to `x`,
/// `lambda` (and `mu`); returns `(|dx|^2, |x|^2, whether the solve left the matrix zero)`.
/// `mirrored`: the residual wrote `C_q^T` ([`residual`](super::evaluate::residual)).
// Out of line, as [`residual`](super::evaluate::residual).
#[inline(never)]
pub(super) fn newton_update<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    k: usize,
    stabilized: bool,
    mirrored: bool,
) -> Result<(T, T, bool)> {
    let Sizes { n, m } = sizes;
    let zeroed = solve_newton(work, sizes, k, stabilized, mirrored)?;
    let co = Order::multipliers_first(m, stabilized).coordinates;
    let (mut dx, mut xx) = (T::zero(), T::zero());
    for i in 0..n {
        let d = work.rhs[co + i];
        work.x[i] += d;
        dx += d * d;
        xx += work.x[i] * work.x[i];
    }
    for j in 0..m {
        work.lambda[j] += work.rhs[j];
    }
    if stabilized {
        for j in 0..m {
            work.mu[j] += work.rhs[m + j];
        }
    }
    Ok((dx, xx, zeroed))
}

/// Solves the Newton system `[0 C_q; C_q^T A] [dl; dx] = rhs` (the constraint rows divided by
/// `c = (1 - alpha_f) / (1 - alpha_m) > 0`, their right-hand side `-r_2 / c`; leading `k x k`
/// block of `work.jac`, multipliers first) in place into `work.rhs`. The block holds `A` (the
/// coordinates' `n x n` block, with its tangent), the evaluated `C_q` in the constraints' rows
/// and, if `mirrored`, `C_q^T` ([`residual`](super::evaluate::residual)); for the stabilized index 2 what
/// [`stabilized_iteration_matrix`](super::matrix::stabilized_iteration_matrix) wrote (its rows of `c C_q` with `-r_2`). When `A` is diagonal and
/// positive, as for bodies whose mass matrix is diagonal and whose joints'
/// `d(C_q^T lambda)/dq` is (planar revolute joints between body centres), by the Schur
/// complement from `C_q`'s rows ([`solve_schur`]); else `C_q^T` is mirrored where it is not
/// yet ([`mirror_constraint_jacobian`]) and the block's LU solves it, leaving it zero
/// ([`solve_in_place_and_clear`]).
/// Returns whether the block is zero; `SingularMatrix` if the system is singular.
pub(super) fn solve_newton<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    sizes: Sizes,
    k: usize,
    stabilized: bool,
    mirrored: bool,
) -> Result<bool> {
    let Sizes { n, m } = sizes;
    // Positive on the diagonal and zero off it, the rows tested from the last (the
    // coordinates nearest the ground, the most coupled: a coupled block fails at once). In
    // order (a microcontroller) a row's test stops at its first nonzero off the diagonal; a
    // host counts each row's nonzeros without a branch per entry (`target::IN_ORDER`): the
    // same answer.
    let co = Order::multipliers_first(m, stabilized).coordinates;
    let diagonal = !stabilized
        && m > 0
        && work.jac[co..co + n]
            .iter()
            .enumerate()
            .rev()
            .all(|(i, row)| {
                let row = &row[co..co + n];
                if IN_ORDER {
                    let zero = |r: &[T]| r.iter().all(|x| *x == T::zero());
                    row[i] > T::zero() && zero(&row[..i]) && zero(&row[i + 1..])
                } else {
                    let nonzero = row.iter().fold(0, |k, x| k + usize::from(*x != T::zero()));
                    row[i] > T::zero() && nonzero == 1
                }
            });
    if diagonal {
        return solve_schur(work, sizes).map(|()| false);
    }
    if !stabilized && !mirrored {
        mirror_constraint_jacobian(
            &mut work.jac,
            sizes,
            Order::multipliers_first(m, stabilized),
        );
    }
    solve_in_place_and_clear(&mut work.jac, &mut work.rhs, k)
        .map(|()| true)
        .ok_or(Error::SingularMatrix)
}

/// [`solve_newton`] for a diagonal `A`, with `b_1`, `b_2` the coordinates' and the
/// constraints' right-hand sides: `S dl = C_q A^-1 b_1 - b_2` with `S = C_q A^-1 C_q^T`,
/// symmetric and positive definite for independent constraints (its upper triangle and
/// [`solve_symmetric_in_place`](crate::math::dense::solve_symmetric_in_place); dependent ones make it singular and are refused), then
/// `dx = A^-1 (b_1 - C_q^T dl)`. `C_q` is read from its rows (`0..m`, the coordinates' columns
/// from `m`).
pub(super) fn solve_schur<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    sizes: Sizes,
) -> Result<()> {
    let Sizes { n, m } = sizes;
    // S's block starts zero: the scratch is zero outside the block its users recorded, and a
    // successful solve below leaves it zero (so this use records nothing).
    if work.scratch_used > 0 {
        zero_block(&mut work.scratch, m);
    }
    let Workspace {
        jac,
        scratch,
        scratch_used,
        rhs,
        f2,
        c: inv,
        ..
    } = work;
    // A^-1 (its diagonal's reciprocals; `work.c` is free once the residual norms are taken).
    for i in 0..n {
        inv[i] = T::one() / jac[m + i][m + i];
    }
    let cq = &jac[..m];
    // Row a of S's upper triangle and of the right-hand side C_q A^-1 b_1 - b_2: sums over the
    // coordinates i (in order) of w = C_ai / A_ii times C_q's column i below row a, and times
    // b_1i. A constraint row is sparse: a zero C_ai adds nothing and is skipped.
    for a in 0..m {
        let s_row = &mut scratch[a][..m];
        let mut fa = T::zero();
        for i in 0..n {
            let c_ai = cq[a][m + i];
            if c_ai != T::zero() {
                let w = c_ai * inv[i];
                fa += w * rhs[m + i];
                for b in a..m {
                    s_row[b] += w * cq[b][m + i];
                }
            }
        }
        f2[a] = fa - rhs[a];
    }
    if solve_symmetric_in_place_and_clear(scratch, f2, m).is_none() {
        *scratch_used = (*scratch_used).max(m);
        return Err(Error::SingularMatrix);
    }
    for i in 0..n {
        let bl = (0..m).fold(T::zero(), |acc, a| acc + cq[a][m + i] * f2[a]);
        rhs[m + i] = (rhs[m + i] - bl) * inv[i];
    }
    rhs[..m].copy_from_slice(&f2[..m]);
    if rhs[..m + n].iter().all(|x| x.finite()) {
        Ok(())
    } else {
        Err(Error::SingularMatrix)
    }
}
