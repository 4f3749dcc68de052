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
    /// The sign bit of [`Real::to_bits_u64`]'s pattern (bit 31 for f32, 63 for f64).
    const SIGN_BIT: u64;
    /// `true` where an addition of this type is a hardware instruction (f32 and f64 off ARM,
    /// f32 on hard-float ARM), so that one test of a sum screens the finiteness of many
    /// entries cheapest; `false` where it is a soft-float call (f64 on ARM, where the
    /// Cortex-M4F's FPU is single precision, and every type on soft-float ARM), where a test
    /// of each entry costs less ([`all_finite_of`](crate::finite::all_finite_of)).
    const HARDWARE_ADD: bool;
    /// The IEEE 754 bit pattern, zero-extended to 64 bits (an integer move, no float operation;
    /// for f32 the upper 32 bits are zero, so the compiler keeps integer work on them out).
    fn to_bits_u64(self) -> u64;
    /// Converts an `f64` constant (rounding to nearest for `f32`).
    fn c(v: f64) -> Self;
    /// Converts to `f64` (exact for both types).
    fn to_f64(self) -> f64;
    /// Converts a count (rounding to nearest for `f32` above 2^24; no detour through `f64`,
    /// which on a single-precision FPU is a soft-float call).
    fn of_u32(n: u32) -> Self;
    /// The integer part of `self` as a `u32`, saturating (NaN gives 0), as Rust's `as`.
    fn to_u32_sat(self) -> u32;
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
    /// `(sin self, cos self)` of an angle in rad: in f32 without double arithmetic
    /// ([`math::sincos`](crate::math::sincos)), in f64 libm's.
    fn sin_cos_l(self) -> (Self, Self);
}

macro_rules! impl_real {
    ($t:ty, $eps:expr, $sign:expr, $hw:expr, $sqrt:ident, $sin:ident, $cos:ident, $tan:ident, $asin:ident, $acos:ident,
     $atan2:ident, $exp:ident, $ln:ident, $fabs:ident, $hypot:ident, $sincos:path) => {
        // `#[inline]` on each method: they are one instruction or one libm call, and a
        // non-generic function is not inlined into another crate (the C API) without it.
        impl Real for $t {
            const EPS: Self = $eps;
            const SIGN_BIT: u64 = $sign;
            const HARDWARE_ADD: bool = $hw;
            #[inline]
            fn to_bits_u64(self) -> u64 {
                <$t>::to_bits(self) as u64
            }
            #[inline]
            fn c(v: f64) -> Self {
                v as $t
            }
            #[inline]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline]
            fn of_u32(n: u32) -> Self {
                n as $t
            }
            #[inline]
            fn to_u32_sat(self) -> u32 {
                self as u32
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
            #[inline]
            fn sin_cos_l(self) -> (Self, Self) {
                $sincos(self)
            }
        }
    };
}

impl_real!(
    f32,
    f32::EPSILON,
    1 << 31,
    cfg!(not(all(target_arch = "arm", not(target_abi = "eabihf")))),
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
    hypotf,
    crate::math::sincos::sin_cos_f32
);
impl_real!(
    f64,
    f64::EPSILON,
    1 << 63,
    cfg!(not(target_arch = "arm")),
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
    hypot,
    crate::math::sincos::sin_cos_f64
);

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
