//! `A x = b` for a small fixed-size square `A` (`N x N`, const generic): Gaussian elimination
//! with partial (row) pivoting, for the non-symmetric iteration matrices of implicit steps.
//!
//! nalgebra's LU needs type-level dimensions that a generic `const N` cannot name, so the
//! integrators use this instead. `O(N^3)`, no allocation, deterministic (only `+ - * /` and
//! `abs`).

use crate::Real;
use nalgebra::{SMatrix, SVector};

/// Solves `a x = b`. `None` if `a` is singular to working precision: a pivot
/// `|p| <= eps max|a_ij|` (or `a` is zero), non-finite entries in `a` or `b`, or a non-finite
/// result.
pub fn solve<T: Real, const N: usize>(
    a: &SMatrix<T, N, N>,
    b: &SVector<T, N>,
) -> Option<SVector<T, N>> {
    if !a.iter().chain(b.iter()).all(|v| v.finite()) {
        return None;
    }
    let mut m = *a;
    let mut x = *b;
    let scale = m.iter().fold(T::zero(), |s, v| {
        let v = v.abs_l();
        if v > s {
            v
        } else {
            s
        }
    });
    if scale <= T::zero() {
        return None;
    }
    let tiny = scale * T::EPS;
    for k in 0..N {
        // pivot: the largest |m[i][k]|, i >= k
        let mut p = k;
        let mut best = m[(k, k)].abs_l();
        for i in (k + 1)..N {
            let v = m[(i, k)].abs_l();
            if v > best {
                best = v;
                p = i;
            }
        }
        if best <= tiny {
            return None;
        }
        if p != k {
            m.swap_rows(k, p);
            x.swap_rows(k, p);
        }
        let pivot = m[(k, k)];
        for i in (k + 1)..N {
            let factor = m[(i, k)] / pivot;
            if factor != T::zero() {
                for j in k..N {
                    let mkj = m[(k, j)];
                    m[(i, j)] -= factor * mkj;
                }
                let xk = x[k];
                x[i] -= factor * xk;
            }
        }
    }
    for k in (0..N).rev() {
        let mut s = x[k];
        for j in (k + 1)..N {
            s -= m[(k, j)] * x[j];
        }
        x[k] = s / m[(k, k)];
    }
    if x.iter().all(|v| v.finite()) {
        Some(x)
    } else {
        None
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Vector3};

    #[test]
    fn solves_a_system_that_needs_pivoting() {
        // zero leading entry: fails without row exchange
        let a = Matrix3::new(0.0, 2.0, 1.0, 1.0, -1.0, 0.5, 4.0, 0.0, -3.0);
        let x_true = Vector3::new(1.0, -2.0, 0.25);
        let x = solve(&a, &(a * x_true)).unwrap();
        assert!((x - x_true).amax() < 1e-15, "{x}");
        assert_eq!(solve(&Matrix3::<f64>::zeros(), &x_true), None);
        let rank2 = Matrix3::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.0, 1.0, 1.0);
        assert_eq!(solve(&rank2, &x_true), None);
    }
}
