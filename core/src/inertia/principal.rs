//! Eigenvalues of a symmetric 3x3 matrix in closed form (principal moments of inertia).

use crate::Real;
use nalgebra::Matrix3;

/// The eigenvalues of the symmetric matrix `a`, ascending, by the trigonometric closed form
/// (Smith 1961): with `q = tr(a)/3`, `p = sqrt(|a - qE|_F^2 / 6)`, `B = (a - qE)/p`,
/// `phi = acos(det(B)/2)/3`: `lambda_max = q + 2p cos(phi)`, `lambda_min = q + 2p cos(phi + 2pi/3)`,
/// `lambda_mid = 3q - lambda_max - lambda_min`.
///
/// Only the upper triangle of `a` is read. The absolute error is a few `EPS * |a|`; no
/// iteration, no allocation, libm only. For an inertia tensor (kg m^2) these are the principal
/// moments.
pub fn symmetric_eigenvalues<T: Real>(a: &Matrix3<T>) -> [T; 3] {
    let (a00, a11, a22) = (a[(0, 0)], a[(1, 1)], a[(2, 2)]);
    let (a01, a02, a12) = (a[(0, 1)], a[(0, 2)], a[(1, 2)]);
    let p1 = a01 * a01 + a02 * a02 + a12 * a12;
    let mut e = if p1 == T::zero() {
        [a00, a11, a22]
    } else {
        let three = T::c(3.0);
        let q = (a00 + a11 + a22) / three;
        let (b00, b11, b22) = (a00 - q, a11 - q, a22 - q);
        let p2 = b00 * b00 + b11 * b11 + b22 * b22 + T::c(2.0) * p1;
        let p = (p2 / T::c(6.0)).sqrt_l();
        if p == T::zero() || !p.finite() {
            [q, q, q]
        } else {
            let inv = T::one() / p;
            let (c00, c11, c22) = (b00 * inv, b11 * inv, b22 * inv);
            let (c01, c02, c12) = (a01 * inv, a02 * inv, a12 * inv);
            let det = c00 * (c11 * c22 - c12 * c12) - c01 * (c01 * c22 - c12 * c02)
                + c02 * (c01 * c12 - c11 * c02);
            let r = (det / T::c(2.0)).max(-T::one()).min(T::one());
            let phi = r.acos_l() / three;
            let two_pi_3 = T::c(2.0 * core::f64::consts::PI / 3.0);
            let hi = q + T::c(2.0) * p * phi.cos_l();
            let lo = q + T::c(2.0) * p * (phi + two_pi_3).cos_l();
            [lo, three * q - hi - lo, hi]
        }
    };
    // Ascending order (three compare-swaps; NaN stays where it is).
    if e[0] > e[1] {
        e.swap(0, 1);
    }
    if e[1] > e[2] {
        e.swap(1, 2);
    }
    if e[0] > e[1] {
        e.swap(0, 1);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigenvalues_of_a_rotated_diagonal() {
        // R diag(1, 2, 5) R^T with R a rotation by 0.3 about z: eigenvalues 1, 2, 5.
        let (s, c) = (libm::sin(0.3), libm::cos(0.3));
        let r = Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
        let a = r * Matrix3::from_diagonal(&nalgebra::Vector3::new(5.0, 1.0, 2.0)) * r.transpose();
        let e = symmetric_eigenvalues(&a);
        for (x, y) in e.iter().zip([1.0, 2.0, 5.0]) {
            assert!((x - y).abs() < 1e-14, "{e:?}");
        }
        assert_eq!(
            symmetric_eigenvalues(&Matrix3::from_diagonal(&nalgebra::Vector3::new(
                3.0, -1.0, 2.0
            ))),
            [-1.0, 2.0, 3.0]
        );
    }
}
