//! Dense linear solves of a run-time size `n` in fixed capacity: the leading `n x n` block of
//! a row-major `[[T; S]; S]` array, for the Newton matrices of the constrained step (mass
//! matrix, constraint Jacobian and force Jacobians of a whole system; their size is known when
//! the system is assembled, their capacity when it is compiled).
//!
//! Gaussian elimination with partial (row) pivoting, `O(n^3)`, in place, no allocation,
//! deterministic (only `+ - * /` and `abs`).

// Index loops: plain counted loops compile to fewer instructions on the Cortex-M4F than
// iterator chains over the row slices here (same arithmetic, same order).
#![allow(clippy::needless_range_loop)]

use crate::Real;
use core::borrow::BorrowMut;

/// Solves `A x = b` for the leading `n x n` block of `a` and the first `n` entries of `b`,
/// in place: on success `b` holds `x`; `a` is overwritten with the factors and scratch (the
/// rows are exchanged through references to them, not moved, so `U`'s rows are `a`'s rows in
/// the order of the exchanges). `None` if `n` exceeds the capacity, an entry of `b` is not
/// finite, a pivot is zero or not finite, the smallest pivot is not above `n EPS` times the
/// largest entry the elimination met (numerically singular), or the result is not finite; `a`
/// and `b` are then overwritten with partial results.
///
/// The entries the elimination meets are every pivot column below its pivot and every pivot
/// row right of its pivot, as they are when the pivot is taken: all of `A`'s first column and
/// of the row chosen as the first pivot's, and the rest after the updates of the earlier pivots
/// (`U` and the multipliers' numerators). Their largest magnitude stands for `A`'s scale, so
/// no pass over all `n^2` entries is made for it; a non-finite entry makes it infinite or, as
/// a NaN, reaches a pivot or `x`.
pub fn solve_in_place<T: Real, const S: usize>(
    a: &mut [[T; S]; S],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    lu_solve::<T, S, false>(a, b, n)
}

/// [`solve_in_place`], and on success the leading `n x n` block of `a` left zero: each entry
/// is set to zero where the elimination or the back substitution reads it for the last time
/// (a store beside each read, where zeroing the block afterwards is a pass over all of it).
/// On failure `a` holds partial results, as [`solve_in_place`] leaves it.
pub fn solve_in_place_and_clear<T: Real, const S: usize>(
    a: &mut [[T; S]; S],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    lu_solve::<T, S, true>(a, b, n)
}

/// [`solve_in_place`]; with `CLEAR` [`solve_in_place_and_clear`].
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
fn lu_solve<T: Real, const S: usize, const CLEAR: bool>(
    a: &mut [[T; S]; S],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    if n > S || n > usize::from(u16::MAX) {
        return None;
    }
    if !b[..n].iter().all(|x| x.finite()) {
        return None;
    }
    // The largest magnitude met and the smallest pivot's (compare-selects, not `max`/`min`,
    // which also order NaNs).
    let mut scale = T::zero();
    let mut smallest = T::zero();
    // Row i of the system after the exchanges (an exchange swaps two references).
    let mut r = a.each_mut();
    // The pivot row's nonzero columns past the pivot and their values, and the rows below the
    // pivot with a nonzero in its column: a Newton matrix of a mechanism is mostly zeros, which
    // subtract nothing.
    // Indices as `u16` (a capacity past 65,535 rows is refused above): less to zero at entry.
    let mut cols = [0u16; S];
    let mut vals = [T::zero(); S];
    let mut rows = [0u16; S];
    for k in 0..n {
        // Pivot: the largest |a_ik|, i >= k (the first of equals), found in the pass that lists
        // the rows below k with a nonzero a_ik.
        let mut p = k;
        let mut best = r[k][k].abs_l();
        let mut nr = 0;
        for i in k + 1..n {
            let x = r[i][k];
            if x != T::zero() {
                rows[nr] = i as u16;
                nr += 1;
                let v = x.abs_l();
                if v > best {
                    best = v;
                    p = i;
                }
            }
        }
        // A zero or NaN pivot: nothing to divide by. A tiny one is refused at the end, against
        // the scale of everything the elimination met.
        if !(best > T::zero()) {
            return None;
        }
        scale = if best > scale { best } else { scale };
        smallest = if k == 0 || best < smallest {
            best
        } else {
            smallest
        };
        if p != k {
            // Row p is now the old row k: it stays listed and is skipped below if its a_ik is
            // zero.
            r.swap(k, p);
            b.swap(k, p);
        }
        let pivot = r[k][k];
        let bk = b[k];
        let mut nc = 0;
        for j in k + 1..n {
            let x = r[k][j];
            if x != T::zero() {
                cols[nc] = j as u16;
                vals[nc] = x;
                nc += 1;
                let v = x.abs_l();
                scale = if v > scale { v } else { scale };
            }
        }
        let (cols, vals) = (&cols[..nc], &vals[..nc]);
        for &i in &rows[..nr] {
            let i = usize::from(i);
            let row = &mut *r[i];
            let aik = row[k];
            if aik == T::zero() {
                continue;
            }
            if CLEAR {
                // The multiplier's numerator, not kept (L is not stored).
                row[k] = T::zero();
            }
            let factor = aik / pivot;
            if factor != T::zero() {
                // Row i -= factor * row k over those columns.
                for (&j, &v) in cols.iter().zip(vals) {
                    row[usize::from(j)] -= factor * v;
                }
                b[i] -= factor * bk;
            }
        }
    }
    // An infinite entry made the scale infinite: refused here as well.
    if !(scale.finite() && smallest > scale * T::EPS * T::of_u32(n as u32)) {
        return None;
    }
    back_substitute::<T, _, S, CLEAR>(&mut r, b, n)
}

/// Solves `S x = b` for a symmetric positive definite `S`, the leading `n x n` block of `s`,
/// of which only the upper triangle (the diagonal and right of it) is read, by the
/// `S = U^T D U` factorization (`U` unit upper triangular, `D` diagonal): symmetric Gaussian
/// elimination without pivoting, which positive definiteness makes stable, on the upper
/// triangle only (half the products of [`solve_in_place`]). In place: on success `b` holds
/// `x`; the upper triangle holds `D U`. By symmetry the rows to eliminate under pivot `k` are
/// the nonzero columns of row `k`, so one pass over the pivot row finds both.
///
/// `None` if `n` exceeds the capacity, an entry of `b` is not finite, a pivot `d_k` is not
/// above `n EPS` times the largest diagonal entry (a positive definite matrix's largest entry;
/// so a singular, indefinite or non-finite `S` is refused), or the result is not finite; `s`
/// and `b` are then overwritten with partial results.
pub fn solve_symmetric_in_place<T: Real, const S: usize>(
    s: &mut [[T; S]; S],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    symmetric_solve::<T, S, false>(s, b, n)
}

/// [`solve_symmetric_in_place`], and on success the leading `n x n` block of `s` left zero if
/// its lower triangle was (the back substitution sets each entry of the upper triangle to zero
/// once read). On failure `s` holds partial results.
pub fn solve_symmetric_in_place_and_clear<T: Real, const S: usize>(
    s: &mut [[T; S]; S],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    symmetric_solve::<T, S, true>(s, b, n)
}

/// [`solve_symmetric_in_place`]; with `CLEAR` [`solve_symmetric_in_place_and_clear`].
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
fn symmetric_solve<T: Real, const S: usize, const CLEAR: bool>(
    s: &mut [[T; S]; S],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    if n > S || !b[..n].iter().all(|x| x.finite()) {
        return None;
    }
    let mut largest = T::zero();
    for (k, row) in s.iter().enumerate().take(n) {
        let d = row[k];
        largest = if d > largest { d } else { largest };
    }
    if !largest.finite() {
        return None;
    }
    let tiny = largest * T::EPS * T::of_u32(n as u32);
    // The pivot row's nonzero columns past the pivot (= the rows below it to eliminate).
    let mut cols = [0usize; S];
    for k in 0..n {
        let pivot = s[k][k];
        if !(pivot > tiny) {
            return None;
        }
        let mut nc = 0;
        for j in k + 1..n {
            if s[k][j] != T::zero() {
                cols[nc] = j;
                nc += 1;
            }
        }
        let cols = &cols[..nc];
        let bk = b[k];
        for (c, &i) in cols.iter().enumerate() {
            // Row i -= (s_ki / d_k) row k, right of and on the diagonal only.
            let factor = s[k][i] / pivot;
            for &j in &cols[c..] {
                let v = s[k][j];
                s[i][j] -= factor * v;
            }
            b[i] -= factor * bk;
        }
    }
    back_substitute::<T, _, S, CLEAR>(&mut s[..], b, n)
}

/// The back substitution of both eliminations: `x_k = (y_k - sum_j>k u_kj x_j) / u_kk`, the sum
/// as two partial sums (the terms at even and at odd offsets from the diagonal, each in
/// column order) added at the end, the same order on every target, over
/// the upper triangle of the rows `u` (the LU's `U`, its rows in the order of the exchanges,
/// or the symmetric one's `D U`), `y` in `b` and replaced by `x`; with `CLEAR` each entry of
/// the triangle set to zero once read. `None` if `x` is not finite.
fn back_substitute<T: Real, R: BorrowMut<[T; S]>, const S: usize, const CLEAR: bool>(
    u: &mut [R],
    b: &mut [T; S],
    n: usize,
) -> Option<()> {
    for k in (0..n).rev() {
        let row = u[k].borrow_mut();
        // Two sums, of the even and the odd offsets from the diagonal, added at the end: two
        // chains of dependent subtractions of half the length.
        let (mut x, mut y) = (b[k], T::zero());
        let (us, xs) = (&mut row[k + 1..n], &b[k + 1..n]);
        let mut u2 = us.chunks_exact_mut(2);
        let mut x2 = xs.chunks_exact(2);
        for (u, v) in (&mut u2).zip(&mut x2) {
            x -= u[0] * v[0];
            y -= u[1] * v[1];
            if CLEAR {
                u[0] = T::zero();
                u[1] = T::zero();
            }
        }
        for (u, v) in u2.into_remainder().iter_mut().zip(x2.remainder()) {
            x -= *u * *v;
            if CLEAR {
                *u = T::zero();
            }
        }
        let x = x + y;
        let d = row[k];
        if CLEAR {
            row[k] = T::zero();
        }
        b[k] = x / d;
    }
    b.iter().take(n).all(|x| x.finite()).then_some(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use nalgebra::{SMatrix, SVector};

    /// Reproducible numbers uniform in [-1, 1) from the state `start` (a 64-bit LCG's upper
    /// bits).
    fn uniform(start: u64) -> impl FnMut() -> f64 {
        let mut lcg = start;
        move || {
            lcg = lcg
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((lcg >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        }
    }

    /// Against nalgebra's LU on non-symmetric matrices of every size up to the capacity, in
    /// the leading block of a larger array (the rest is garbage that must not matter).
    #[test]
    fn matches_nalgebra_lu_in_the_leading_block() {
        const S: usize = 7;
        let mut rnd = uniform(12345);
        for n in 1..=S {
            for _ in 0..20 {
                let mut a = [[f64::NAN; S]; S];
                let mut b = [f64::NAN; S];
                let mut m = SMatrix::<f64, S, S>::identity();
                let mut v = SVector::<f64, S>::zeros();
                for i in 0..n {
                    for j in 0..n {
                        let x = rnd() + if i == j { 2.0 } else { 0.0 };
                        a[i][j] = x;
                        m[(i, j)] = x;
                    }
                    b[i] = rnd();
                    v[i] = b[i];
                }
                let want = m.lu().solve(&v).unwrap();
                solve_in_place(&mut a, &mut b, n).unwrap();
                for i in 0..n {
                    assert!((b[i] - want[i]).abs() < 1e-12, "n {n} i {i}");
                }
            }
        }
    }

    /// The clearing solve gives the plain solve's bits and leaves the leading block zero (and
    /// the rest of the array as it was), on dense matrices and on sparse ones with row
    /// exchanges (a zero diagonal, zeros the elimination skips).
    #[test]
    fn the_clearing_solve_is_the_solve_and_leaves_the_block_zero() {
        const S: usize = 7;
        let mut rnd = uniform(4242);
        for n in 1..S {
            for sparse in [false, true] {
                for _ in 0..20 {
                    let mut a = [[7.0; S]; S];
                    let mut b = [7.0; S];
                    for i in 0..n {
                        for j in 0..n {
                            let zero = sparse && (i == j || rnd() > 0.3);
                            a[i][j] = if zero { 0.0 } else { rnd() };
                        }
                        a[i][(i + 1) % n] += 2.0;
                        b[i] = rnd();
                    }
                    let (mut a2, mut b2) = (a, b);
                    let plain = solve_in_place(&mut a, &mut b, n);
                    let clearing = solve_in_place_and_clear(&mut a2, &mut b2, n);
                    assert_eq!(plain.is_some(), clearing.is_some(), "n {n}");
                    if plain.is_none() {
                        continue;
                    }
                    assert_eq!(b.map(f64::to_bits), b2.map(f64::to_bits), "n {n}");
                    for (i, row) in a2.iter().enumerate() {
                        for (j, x) in row.iter().enumerate() {
                            let want = if i < n && j < n { 0.0 } else { 7.0 };
                            assert_eq!(x.to_bits(), f64::to_bits(want), "n {n} ({i}, {j})");
                        }
                    }
                }
            }
        }
    }

    /// A NaN or an infinity at any entry of a sparse matrix (zeros that the elimination skips,
    /// row exchanges) is refused: no compare selects a NaN, so it must reach a pivot or `x`.
    #[test]
    fn refuses_a_non_finite_entry_anywhere() {
        const S: usize = 5;
        let base = [
            [0.0, 2.0, 0.0, 1.0, 0.0],
            [3.0, 0.0, 0.0, 0.0, 1.0],
            [0.0, 0.0, 4.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0, 2.0],
        ];
        let mut ok = base;
        let mut b = [1.0; S];
        assert!(solve_in_place(&mut ok, &mut b, S).is_some());
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for i in 0..S {
                for j in 0..S {
                    let mut a = base;
                    a[i][j] = bad;
                    assert_eq!(
                        solve_in_place(&mut a, &mut [1.0; S], S),
                        None,
                        "{bad} at {i},{j}"
                    );
                }
            }
        }
    }

    /// A pivot below `n EPS` times the largest entry is refused wherever that entry is: in the
    /// pivot's row, in a later pivot, in the last pivot's place; a matrix small all over is not.
    #[test]
    fn refuses_a_pivot_tiny_against_the_largest_entry() {
        for a in [
            [[1e-20, 0.0], [0.0, 1.0]],
            [[1e-12, 1e6], [0.0, 1.0]],
            [[1.0, 0.0], [0.0, 1e-20]],
            [[1.0, 1.0], [1.0, 1.0 + 1e-16]],
        ] {
            let mut m = a;
            assert_eq!(solve_in_place(&mut m, &mut [1.0, 1.0], 2), None, "{a:?}");
        }
        let mut a = [[1e-20, 0.0], [0.0, 2e-20]];
        let mut b = [1.0, 1.0];
        solve_in_place(&mut a, &mut b, 2).unwrap();
        assert_eq!(b, [1e20, 5e19]);
    }

    /// A singular matrix (a repeated row), a zero matrix, NaN and infinity, and a size past
    /// the capacity are refused.
    #[test]
    fn refuses_singular_non_finite_and_oversized() {
        let mut a = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]];
        let mut b = [1.0, 2.0, 3.0];
        assert_eq!(solve_in_place(&mut a, &mut b, 3), None);
        let mut a = [[0.0; 3]; 3];
        assert_eq!(solve_in_place(&mut a, &mut [1.0; 3], 3), None);
        for bad in [f64::NAN, f64::INFINITY] {
            let mut a = [[1.0, 0.0], [0.0, 1.0]];
            a[1][0] = bad;
            assert_eq!(solve_in_place(&mut a, &mut [1.0, 1.0], 2), None);
            let mut a = [[1.0, 0.0], [0.0, 1.0]];
            assert_eq!(solve_in_place(&mut a, &mut [1.0, bad], 2), None);
        }
        let mut a = [[1.0, 0.0], [0.0, 1.0]];
        assert_eq!(solve_in_place(&mut a, &mut [1.0, 1.0], 3), None);
        // A zero pivot that row exchanges fix: solved.
        let mut a = [[0.0, 1.0], [1.0, 0.0]];
        let mut b = [2.0, 3.0];
        solve_in_place(&mut a, &mut b, 2).unwrap();
        assert_eq!(b, [3.0, 2.0]);
    }

    /// The symmetric solve against nalgebra's LU on random symmetric positive definite
    /// matrices `G D G^T + diag` of every size up to the capacity, sparse ones included (zero
    /// rows of `G`), in the leading block of a larger array whose lower triangle and rest are
    /// garbage that must not matter.
    #[test]
    fn symmetric_solve_matches_nalgebra_on_positive_definite_matrices() {
        const S: usize = 7;
        let mut rnd = uniform(987);
        for n in 1..=S {
            for trial in 0..20 {
                let mut g = SMatrix::<f64, S, S>::zeros();
                for i in 0..n {
                    for j in 0..n {
                        // Every third trial: a sparse G (whole zero rows and entries).
                        let keep = trial % 3 != 0 || (i + 2 * j) % 3 != 0;
                        g[(i, j)] = if keep { rnd() } else { 0.0 };
                    }
                }
                let mut m = g * g.transpose();
                for i in 0..n {
                    m[(i, i)] += 0.1;
                }
                for i in n..S {
                    m[(i, i)] = 1.0;
                }
                let mut a = [[f64::NAN; S]; S];
                let mut b = [f64::NAN; S];
                let mut v = SVector::<f64, S>::zeros();
                for i in 0..n {
                    for j in i..n {
                        a[i][j] = m[(i, j)];
                    }
                    b[i] = rnd();
                    v[i] = b[i];
                }
                let want = m.lu().solve(&v).unwrap();
                solve_symmetric_in_place(&mut a, &mut b, n).unwrap();
                for i in 0..n {
                    assert!(
                        (b[i] - want[i]).abs() < 1e-9 * (1.0 + want[i].abs()),
                        "n {n} i {i}"
                    );
                }
            }
        }
    }

    /// The clearing symmetric solve gives the plain one's bits and leaves the leading block zero
    /// (its lower triangle zero on entry, as the Schur complement's is written) and the rest of
    /// the array as it was, on dense and sparse positive definite matrices.
    #[test]
    fn the_clearing_symmetric_solve_is_the_solve_and_leaves_the_block_zero() {
        const S: usize = 7;
        let mut rnd = uniform(2718);
        for n in 1..S {
            for trial in 0..20 {
                let mut g = SMatrix::<f64, S, S>::zeros();
                for i in 0..n {
                    for j in 0..n {
                        let keep = trial % 2 == 0 || (i + j) % 3 != 0;
                        g[(i, j)] = if keep { rnd() } else { 0.0 };
                    }
                }
                let m = g * g.transpose() + SMatrix::<f64, S, S>::identity() * 0.1;
                let mut a = [[7.0; S]; S];
                let mut b = [7.0; S];
                for i in 0..n {
                    for j in 0..n {
                        a[i][j] = if j >= i { m[(i, j)] } else { 0.0 };
                    }
                    b[i] = rnd();
                }
                let (mut a2, mut b2) = (a, b);
                solve_symmetric_in_place(&mut a, &mut b, n).unwrap();
                solve_symmetric_in_place_and_clear(&mut a2, &mut b2, n).unwrap();
                assert_eq!(b.map(f64::to_bits), b2.map(f64::to_bits), "n {n}");
                for (i, row) in a2.iter().enumerate() {
                    for (j, x) in row.iter().enumerate() {
                        let want = if i < n && j < n { 0.0 } else { 7.0 };
                        assert_eq!(x.to_bits(), f64::to_bits(want), "n {n} ({i}, {j})");
                    }
                }
            }
        }
    }

    /// Singular (a repeated row of `G`), indefinite and negative definite matrices, a NaN or an
    /// infinity on or right of the diagonal or in `b`, and a size past the capacity are refused.
    #[test]
    fn symmetric_solve_refuses_singular_indefinite_and_non_finite() {
        // G = [[1, 2], [2, 4]] G^T: rank one.
        let singular = [[5.0, 10.0], [0.0, 20.0]];
        let indefinite = [[1.0, 2.0], [0.0, 1.0]];
        let negative = [[-1.0, 0.0], [0.0, -2.0]];
        for a in [singular, indefinite, negative] {
            let mut s = a;
            assert_eq!(
                solve_symmetric_in_place(&mut s, &mut [1.0, 1.0], 2),
                None,
                "{a:?}"
            );
        }
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for (i, j) in [(0, 0), (0, 1), (1, 1)] {
                let mut s = [[2.0, 1.0], [0.0, 2.0]];
                s[i][j] = bad;
                assert_eq!(solve_symmetric_in_place(&mut s, &mut [1.0, 1.0], 2), None);
            }
            let mut s = [[2.0, 1.0], [0.0, 2.0]];
            assert_eq!(solve_symmetric_in_place(&mut s, &mut [1.0, bad], 2), None);
        }
        let mut s = [[1.0, 0.0], [0.0, 1.0]];
        assert_eq!(solve_symmetric_in_place(&mut s, &mut [1.0, 1.0], 3), None);
        // The lower triangle is not read: [[4, 2], [2, 3]] x = [2, 1] gives x = [0.5, 0].
        let mut s = [[4.0, 2.0], [f64::NAN, 3.0]];
        let mut b = [2.0, 1.0];
        solve_symmetric_in_place(&mut s, &mut b, 2).unwrap();
        assert_eq!(b, [0.5, 0.0]);
    }
}
