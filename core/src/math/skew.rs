//! The cross-product matrix.

use crate::real::Real;
use nalgebra::{Matrix3, Vector3};

/// The skew-symmetric matrix `[a]x` with `[a]x b = a x b` (any frame: the result is in `a`'s frame).
#[inline]
pub fn skew<T: Real>(a: &Vector3<T>) -> Matrix3<T> {
    let z = T::zero();
    Matrix3::new(z, -a.z, a.y, a.z, z, -a.x, -a.y, a.x, z)
}

/// `[a]x [b]x = b a^T - (a . b) I`, the product of two cross-product matrices without one.
#[inline]
pub fn skew_product<T: Real>(a: &Vector3<T>, b: &Vector3<T>) -> Matrix3<T> {
    b * a.transpose() - Matrix3::identity() * a.dot(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skew_is_the_cross_product() {
        let a = Vector3::new(1.0, -2.0, 3.5);
        let b = Vector3::new(0.3, 0.7, -1.1);
        assert!((skew(&a) * b - a.cross(&b)).norm() < 1e-15);
        assert_eq!(skew(&a).transpose(), -skew(&a));
    }

    #[test]
    fn skew_product_is_the_product_of_the_skews() {
        let a = Vector3::new(1.0, -2.0, 3.5);
        let b = Vector3::new(0.3, 0.7, -1.1);
        assert!((skew_product(&a, &b) - skew(&a) * skew(&b)).norm() < 1e-14);
        let c = Vector3::new(-0.4, 2.0, 0.9);
        assert!((skew_product(&a, &b) * c - a.cross(&b.cross(&c))).norm() < 1e-14);
    }
}
