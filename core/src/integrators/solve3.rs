//! A 3x3 linear solve for non-symmetric matrices: Gaussian elimination with partial pivoting,
//! no inverse, no allocation, about 30 multiply-adds and 3 divisions.

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
    crate::real::all_finite(&x).then_some(x)
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
