//! The scalar type of every computation: [`Real`], implemented for `f32` and `f64`.
//!
//! Every transcendental function (and `sqrt`) goes through the `libm` crate here, never through
//! `std` or through nalgebra's `ComplexField` methods, whose implementation changes with
//! nalgebra's `std` feature (cargo feature unification can switch it on from another crate).
//! That is what makes a trajectory bit-for-bit the same on x86_64 and on a Cortex-M: IEEE 754
//! `+ - * /` are exact-rounded everywhere, and `libm` is the same Rust code everywhere.
//!
//! The methods carry an `_l` suffix ("libm") to keep them apart from nalgebra's same-named
//! `ComplexField` methods, which a generic `T: Real` also sees.

use nalgebra::RealField;

/// A floating-point scalar that mbs computes with: `f32` or `f64`.
///
/// It is a [`nalgebra::RealField`] (for matrices and vectors) plus the libm-backed functions
/// below. Call these, never `RealField`/`ComplexField`'s `sqrt`, `sin`, ... (clippy's
/// `disallowed-methods` in `clippy.toml` refuses them in this workspace).
pub trait Real: RealField + Copy + Default + core::fmt::Debug {
    /// Machine epsilon of the type (2^-23 for f32, 2^-52 for f64).
    const EPS: Self;
    /// Converts an `f64` constant (rounding to nearest for `f32`).
    fn c(v: f64) -> Self;
    /// Converts to `f64` (exact for both types).
    fn to_f64(self) -> f64;
    /// `true` if neither NaN nor infinite.
    fn finite(self) -> bool;
    /// Square root (libm, correctly rounded).
    fn sqrt_l(self) -> Self;
    /// Sine of an angle in rad (libm).
    fn sin_l(self) -> Self;
    /// Cosine of an angle in rad (libm).
    fn cos_l(self) -> Self;
    /// Tangent of an angle in rad (libm).
    fn tan_l(self) -> Self;
    /// Arc sine in rad, in [-pi/2, pi/2] (libm).
    fn asin_l(self) -> Self;
    /// Arc cosine in rad, in [0, pi] (libm).
    fn acos_l(self) -> Self;
    /// Four-quadrant arc tangent of `self / x` in rad, in (-pi, pi] (libm).
    fn atan2_l(self, x: Self) -> Self;
    /// e^self (libm).
    fn exp_l(self) -> Self;
    /// Natural logarithm (libm).
    fn ln_l(self) -> Self;
    /// Absolute value (exact).
    fn abs_l(self) -> Self;
    /// sqrt(self^2 + y^2) without undue overflow (libm).
    fn hypot_l(self, y: Self) -> Self;
}

macro_rules! impl_real {
    ($t:ty, $eps:expr, $sqrt:ident, $sin:ident, $cos:ident, $tan:ident, $asin:ident, $acos:ident,
     $atan2:ident, $exp:ident, $ln:ident, $fabs:ident, $hypot:ident) => {
        impl Real for $t {
            const EPS: Self = $eps;
            #[inline]
            fn c(v: f64) -> Self {
                v as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline]
            fn sqrt_l(self) -> Self {
                libm::$sqrt(self)
            }
            #[inline]
            fn sin_l(self) -> Self {
                libm::$sin(self)
            }
            #[inline]
            fn cos_l(self) -> Self {
                libm::$cos(self)
            }
            #[inline]
            fn tan_l(self) -> Self {
                libm::$tan(self)
            }
            #[inline]
            fn asin_l(self) -> Self {
                libm::$asin(self)
            }
            #[inline]
            fn acos_l(self) -> Self {
                libm::$acos(self)
            }
            #[inline]
            fn atan2_l(self, x: Self) -> Self {
                libm::$atan2(self, x)
            }
            #[inline]
            fn exp_l(self) -> Self {
                libm::$exp(self)
            }
            #[inline]
            fn ln_l(self) -> Self {
                libm::$ln(self)
            }
            #[inline]
            fn abs_l(self) -> Self {
                libm::$fabs(self)
            }
            #[inline]
            fn hypot_l(self, y: Self) -> Self {
                libm::$hypot(self, y)
            }
        }
    };
}

impl_real!(
    f32,
    f32::EPSILON,
    sqrtf,
    sinf,
    cosf,
    tanf,
    asinf,
    acosf,
    atan2f,
    expf,
    logf,
    fabsf,
    hypotf
);
impl_real!(
    f64,
    f64::EPSILON,
    sqrt,
    sin,
    cos,
    tan,
    asin,
    acos,
    atan2,
    exp,
    log,
    fabs,
    hypot
);

/// Checks that every component of a fixed-size vector or matrix is finite.
#[inline]
pub fn all_finite<T: Real, R: nalgebra::Dim, C: nalgebra::Dim, S>(
    m: &nalgebra::Matrix<T, R, C, S>,
) -> bool
where
    S: nalgebra::RawStorage<T, R, C>,
{
    m.iter().all(|x| x.finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libm_functions_match_reference_values() {
        assert_eq!(2.0f64.sqrt_l(), core::f64::consts::SQRT_2);
        assert!((0.5f64.sin_l() - 0.479_425_538_604_203).abs() < 1e-15);
        assert!((1.0f32.atan2_l(1.0) - core::f32::consts::FRAC_PI_4).abs() < 1e-7);
        assert!(!f64::NAN.finite() && !f32::INFINITY.finite() && 1.0f64.finite());
    }
}
