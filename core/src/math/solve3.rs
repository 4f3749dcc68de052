//! 3x3 linear solves for non-symmetric matrices, no allocation:
//!
//! - [`solve3_adjugate`]: the adjugate (Cramer's rule) with one division and no branch on the
//!   data, used when the matrix is well conditioned by a Hadamard-ratio test, else
//!   [`solve3`] (the fallback);
//! - [`solve3`]: Gaussian elimination with partial pivoting, about 30 multiply-adds and 3
//!   divisions.

use crate::Real;
use nalgebra::{Matrix3, Vector3};

/// Solves `a x = b` by Gaussian elimination with partial (row) pivoting.
///
/// Returns `None` if a pivot is not above `16 EPS` times the largest entry of `a` (numerically
/// singular) or not finite; the caller turns that into `Error::SolverFailed`.
#[inline]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn solve3<T: Real>(a: &Matrix3<T>, b: &Vector3<T>) -> Option<Vector3<T>> {
    let mut m = [
        [a[(0, 0)], a[(0, 1)], a[(0, 2)], b[0]],
        [a[(1, 0)], a[(1, 1)], a[(1, 2)], b[1]],
        [a[(2, 0)], a[(2, 1)], a[(2, 2)], b[2]],
    ];
    let mut scale = T::zero();
    for row in &m {
        for x in &row[..3] {
            scale = scale.max(x.abs_l());
        }
    }
    if !(scale.finite() && scale > T::zero()) {
        return None;
    }
    let tiny = T::c(16.0) * T::EPS * scale;
    // Column 0: pivot row.
    let p = pivot(&m, 0);
    m.swap(0, p);
    if !(m[0][0].abs_l() > tiny) {
        return None;
    }
    let inv0 = T::one() / m[0][0];
    for r in 1..3 {
        let f = m[r][0] * inv0;
        let top = m[0];
        for (x, t) in m[r][1..].iter_mut().zip(&top[1..]) {
            *x -= f * *t;
        }
    }
    // Column 1.
    let p = if m[2][1].abs_l() > m[1][1].abs_l() {
        2
    } else {
        1
    };
    m.swap(1, p);
    if !(m[1][1].abs_l() > tiny) {
        return None;
    }
    let inv1 = T::one() / m[1][1];
    let f = m[2][1] * inv1;
    m[2][2] -= f * m[1][2];
    m[2][3] -= f * m[1][3];
    if !(m[2][2].abs_l() > tiny) {
        return None;
    }
    // Back substitution.
    let x2 = m[2][3] / m[2][2];
    let x1 = (m[1][3] - m[1][2] * x2) * inv1;
    let x0 = (m[0][3] - m[0][1] * x1 - m[0][2] * x2) * inv0;
    let x = Vector3::new(x0, x1, x2);
    crate::finite::all_finite(&x).then_some(x)
}

/// Smallest Hadamard ratio `|det A| / (|a_0| |a_1| |a_2|)` (`a_j` the columns) for which
/// [`solve3_adjugate`] uses Cramer's rule (-). The ratio is 1 for orthogonal columns and 0 for
/// a singular matrix. The rounding error of the computed `det` is a few `EPS |a_0| |a_1|
/// |a_2|`, so above the bound its relative error is a few `8 EPS`; and with the columns scaled
/// to unit length (which Cramer's rule does not feel: it scales `x_j` exactly) the singular
/// values satisfy `s_1, s_2 <= sqrt(3)` and `s_1 s_2 s_3 = ratio`, so the condition number is
/// at most `3 sqrt(3) / ratio`, 42 at the bound: Cramer's rule is then as accurate as
/// elimination. Below it, [`solve3`] (partial pivoting) takes over.
pub const ADJUGATE_MIN_HADAMARD_RATIO: f64 = 0.125;

/// Solves `a x = b` by the adjugate: with the columns `a_j` and `c_i = a_j x a_k` (`(i, j, k)`
/// cyclic), `det = a_0 . c_0` and `x_i = c_i . b / det` (one division, ~45 flops). Used only
/// if `det^2 > ADJUGATE_MIN_HADAMARD_RATIO^2 |a_0|^2 |a_1|^2 |a_2|^2` (see
/// [`ADJUGATE_MIN_HADAMARD_RATIO`]) and the result is finite; otherwise (ill-conditioned,
/// singular, non-finite or overflowing entries) it returns [`solve3`]'s answer.
///
/// The midpoint's `A = I + h R - h/2 K` is a perturbation of the SPD inertia of relative size
/// about `|w| h` (diagonally dominant for `|w| h < 0.5`): its Hadamard ratio is near 1 for a
/// principal-axes inertia, so the fallback is rare.
#[inline]
pub fn solve3_adjugate<T: Real>(a: &Matrix3<T>, b: &Vector3<T>) -> Option<Vector3<T>> {
    solve3_adjugate_inline(a, b)
}

/// [`solve3_adjugate`], forced inline (Cramer's rule in the caller, the fallback out of line):
/// for the one solve of a hot step (the midpoint's rotation); elsewhere call
/// [`solve3_adjugate`].
#[inline(always)]
pub fn solve3_adjugate_inline<T: Real>(a: &Matrix3<T>, b: &Vector3<T>) -> Option<Vector3<T>> {
    match cramer_inline(a, b) {
        Some(x) => Some(x),
        None => solve3_fallback(a, b),
    }
}

/// [`solve3`] out of line: the rare fallback keeps the hot path small.
#[cold]
#[inline(never)]
fn solve3_fallback<T: Real>(a: &Matrix3<T>, b: &Vector3<T>) -> Option<Vector3<T>> {
    solve3(a, b)
}

/// Cramer's rule behind the Hadamard-ratio test; `None` if the test or the finiteness of the
/// result fails (the caller then falls back to [`solve3`]).
#[inline]
pub fn cramer<T: Real>(a: &Matrix3<T>, b: &Vector3<T>) -> Option<Vector3<T>> {
    cramer_inline(a, b)
}

/// [`cramer`], forced inline (for [`solve3_adjugate_inline`]).
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
fn cramer_inline<T: Real>(a: &Matrix3<T>, b: &Vector3<T>) -> Option<Vector3<T>> {
    let a0 = a.column(0).into_owned();
    let a1 = a.column(1).into_owned();
    let a2 = a.column(2).into_owned();
    let c0 = a1.cross(&a2);
    let c1 = a2.cross(&a0);
    let c2 = a0.cross(&a1);
    let det = a0.dot(&c0);
    let r = T::c(ADJUGATE_MIN_HADAMARD_RATIO);
    // NaN or an overflow to infinity fails this comparison.
    if !(det * det > r * r * (a0.dot(&a0) * a1.dot(&a1) * a2.dot(&a2))) {
        return None;
    }
    let inv = T::one() / det;
    let x = Vector3::new(c0.dot(b) * inv, c1.dot(b) * inv, c2.dot(b) * inv);
    // One finiteness test of the sum (NaN and infinities propagate through it).
    ((x[0] + x[1] + x[2]) * T::zero() == T::zero()).then_some(x)
}

#[inline]
fn pivot<T: Real>(m: &[[T; 4]; 3], col: usize) -> usize {
    let mut best = col;
    for r in col + 1..3 {
        if m[r][col].abs_l() > m[best][col].abs_l() {
            best = r;
        }
    }
    best
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn matches_nalgebra_lu_on_non_symmetric_and_pivoting_cases() {
        let cases = [
            Matrix3::new(1.0, 2.0, 3.0, -4.0, 0.5, 6.0, 7.0, -8.0, 0.25),
            // Zero leading entry: needs pivoting.
            Matrix3::new(0.0, 2.0, 1.0, 3.0, 0.0, 1.0, 1.0, 1.0, 0.0),
            // Second pivot zero without the swap.
            Matrix3::new(1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 2.0, 1.0),
            Matrix3::new(1e-12, 1.0, 0.0, 1.0, 1e-12, 0.0, 0.0, 0.0, 1.0),
        ];
        let b = Vector3::new(1.0, -2.0, 0.5);
        for a in cases {
            let x = solve3(&a, &b).unwrap();
            let x_ref = a.lu().solve(&b).unwrap();
            assert!((x - x_ref).norm() <= 1e-13 * x_ref.norm(), "{a}");
            assert!((a * x - b).norm() < 1e-14);
        }
    }

    /// Cramer's branch on well-conditioned matrices (the midpoint's `A`, a general
    /// non-symmetric one): against nalgebra's LU, and the residual.
    #[test]
    fn adjugate_branch_matches_lu_on_well_conditioned_matrices() {
        let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
        let w = Vector3::new(0.7, -1.3, 2.1);
        let (midpoint_a, _) = crate::integrators::rigid::midpoint::rotation::rotation_system(
            &i,
            &Matrix3::zeros(),
            &Vector3::zeros(),
            &w,
            0.01,
            1.0,
        );
        let cases = [
            midpoint_a,
            Matrix3::new(1.0, 2.0, 3.0, -4.0, 0.5, 6.0, 7.0, -8.0, 0.25),
            // Columns of very different scale: the ratio does not see column scaling.
            Matrix3::new(1e-8, 2.0, 3e6, -4e-8, 0.5, 6e6, 7e-8, -8.0, 0.25e6),
        ];
        let b = Vector3::new(1.0, -2.0, 0.5);
        for a in cases {
            let x = cramer(&a, &b).unwrap();
            let x_ref = a.lu().solve(&b).unwrap();
            assert!((x - x_ref).norm() <= 1e-14 * x_ref.norm(), "{a}");
            assert_eq!(solve3_adjugate(&a, &b), Some(x));
        }
    }

    /// Ill-conditioned (nearly dependent columns, Hadamard ratio 7e-10) and badly scaled rows:
    /// Cramer's branch declines and the pivoting fallback answers; its residual is at rounding.
    #[test]
    fn ill_conditioned_matrices_fall_back_to_pivoting() {
        let b = Vector3::new(1.0, -2.0, 0.5);
        let near = Matrix3::new(1.0, 1.0, 0.0, 1.0, 1.0 + 1e-9, 0.0, 0.0, 0.0, 1.0);
        // Just below the bound: columns at a small angle.
        let t: f64 = 0.12;
        let edge = Matrix3::new(
            1.0,
            libm::cos(t),
            0.0,
            0.0,
            libm::sin(t),
            0.0,
            0.0,
            0.0,
            1.0,
        );
        let ratio: f64 = libm::sin(t);
        assert!(ratio < ADJUGATE_MIN_HADAMARD_RATIO);
        for a in [near, edge] {
            assert_eq!(cramer(&a, &b), None, "{a}");
            let x = solve3_adjugate(&a, &b).unwrap();
            assert_eq!(Some(x), solve3(&a, &b));
            let x_ref = a.lu().solve(&b).unwrap();
            assert!((x - x_ref).norm() <= 1e-6 * x_ref.norm());
            assert!((a * x - b).norm() < 1e-14);
        }
        // Just above the bound: Cramer's branch.
        let t: f64 = 0.13;
        let edge = Matrix3::new(
            1.0,
            libm::cos(t),
            0.0,
            0.0,
            libm::sin(t),
            0.0,
            0.0,
            0.0,
            1.0,
        );
        assert!(cramer(&edge, &b).is_some());
        // Singular and non-finite: refused by both.
        let singular = Matrix3::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.0, 1.0, 1.0);
        assert_eq!(solve3_adjugate(&singular, &b), None);
        let mut nan = Matrix3::identity();
        nan[(1, 2)] = f64::NAN;
        assert_eq!(solve3_adjugate(&nan, &b), None);
        let inf_b = Vector3::new(f64::INFINITY, 0.0, 0.0);
        assert_eq!(solve3_adjugate(&Matrix3::identity(), &inf_b), None);
    }

    #[test]
    fn singular_and_non_finite_matrices_are_refused() {
        let b = Vector3::new(1.0, 2.0, 3.0);
        let singular = Matrix3::new(1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.0, 1.0, 1.0);
        assert_eq!(solve3(&singular, &b), None);
        assert_eq!(solve3(&Matrix3::zeros(), &b), None);
        let mut nan = Matrix3::identity();
        nan[(1, 2)] = f64::NAN;
        assert_eq!(solve3(&nan, &b), None);
        assert_eq!(
            solve3(
                &Matrix3::<f64>::identity(),
                &Vector3::new(f64::INFINITY, 0.0, 0.0)
            ),
            None
        );
    }
}
