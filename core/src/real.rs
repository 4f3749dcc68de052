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
    /// of each entry costs less ([`all_finite_of`]).
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
}

macro_rules! impl_real {
    ($t:ty, $eps:expr, $sign:expr, $hw:expr, $sqrt:ident, $sin:ident, $cos:ident, $tan:ident, $asin:ident, $acos:ident,
     $atan2:ident, $exp:ident, $ln:ident, $fabs:ident, $hypot:ident) => {
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
    hypotf
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
    hypot
);

/// `true` where the finiteness checks screen many entries by one test of their sum
/// ([`all_finite`], [`all_finite_of`]): where additions are hardware ([`Real::HARDWARE_ADD`])
/// and the core executes in order (a microcontroller, `target_os = "none"`: one addition per
/// entry is the fewest instructions, 911 -> 823 for the Cortex-M4F's float mass point step).
/// An out-of-order host runs the per-entry tests side by side, and a chain of dependent
/// additions made the x86_64 mass point step 1.5x slower (26 -> 40 ns), so hosts test each
/// entry.
#[inline(always)]
pub fn sum_screen<T: Real>() -> bool {
    T::HARDWARE_ADD && cfg!(target_os = "none")
}

/// Checks that every component of a fixed-size vector or matrix is finite: by one test of the
/// entries' sum where [`sum_screen`] (a NaN or infinite entry makes the sum NaN or infinite,
/// and a sum of finite entries is finite unless it overflows; [`all_finite_slice`] tests each
/// entry only if the sum is not finite), elsewhere by a test of each ([`Real::finite`]). On a
/// microcontroller out of line, one copy per shape and scalar (the entries unrolled): the
/// checks of every field call it, and inlined into each they took kilobytes of a firmware's
/// flash. On a host inlined: out of line, the calls made the mass point's generalized-alpha
/// step about 1.1x slower on x86_64 (its Newton loop checks several small vectors).
#[cfg_attr(target_os = "none", inline(never))]
#[cfg_attr(not(target_os = "none"), inline)]
pub fn all_finite<T: Real, R: nalgebra::Dim, C: nalgebra::Dim, S>(
    m: &nalgebra::Matrix<T, R, C, S>,
) -> bool
where
    S: nalgebra::RawStorage<T, R, C> + nalgebra::IsContiguous,
{
    let a = m.as_slice();
    if sum_screen::<T>() {
        sum_screened(a)
    } else {
        each_finite(a)
    }
}

/// [`all_finite`]'s test by the sum of the entries, the per-entry tests only if it fails.
#[inline(always)]
fn sum_screened<T: Real>(a: &[T]) -> bool {
    let mut sum = T::zero();
    for x in a {
        sum += *x;
    }
    sum * T::zero() == T::zero() || all_finite_slice(a)
}

/// [`all_finite`] of several vectors or matrices of one shape, for the checks of a hot step,
/// inline: where [`sum_screen`], one test of the sum of all their entries screens them and the
/// per-entry tests run only if it fails (a sum of finite entries may overflow); elsewhere
/// each entry is tested ([`Real::finite`]), without a branch per matrix.
#[inline(always)]
pub fn all_finite_of<T: Real, const R: usize, const C: usize>(
    ms: &[&nalgebra::SMatrix<T, R, C>],
) -> bool {
    if !sum_screen::<T>() {
        let mut ok = true;
        for m in ms {
            ok &= each_finite(m.as_slice());
        }
        return ok;
    }
    sum_screened_of(ms)
}

/// [`all_finite_of`]'s test by the sum of all entries, the per-matrix tests only if it fails.
#[inline(always)]
fn sum_screened_of<T: Real, const R: usize, const C: usize>(
    ms: &[&nalgebra::SMatrix<T, R, C>],
) -> bool {
    let mut sum = T::zero();
    for m in ms {
        for x in m.iter() {
            sum += *x;
        }
    }
    sum * T::zero() == T::zero() || ms.iter().all(|m| all_finite(*m))
}

/// `true` if every entry of `a` is finite, by a test of each. Out of line with a rolled loop,
/// so one copy serves every check of an array of any length (the C API's fields).
#[inline(never)]
pub fn all_finite_slice<T: Real>(a: &[T]) -> bool {
    a.iter().all(|x| x.finite())
}

/// [`Real::finite`] of every entry, without a branch per entry.
#[inline(always)]
fn each_finite<T: Real>(a: &[T]) -> bool {
    let mut ok = true;
    for x in a {
        ok &= x.finite();
    }
    ok
}

/// `true` if every entry of a fixed-size vector or matrix is `+0` or `-0`: the OR of the bit
/// patterns without the sign bit is zero. Integer operations only (no float compare, so also
/// cheap on soft-float targets); a NaN or any nonzero entry makes it `false`.
#[inline]
pub fn all_zero<T: Real, R: nalgebra::Dim, C: nalgebra::Dim, S>(
    m: &nalgebra::Matrix<T, R, C, S>,
) -> bool
where
    S: nalgebra::RawStorage<T, R, C>,
{
    // Indexed loops (the sizes are constants after inlining): fully unrolled, one load and one
    // OR per entry, where the strided iterator kept some of its bookkeeping.
    let (rows, cols) = m.shape();
    let mut acc = 0u64;
    for j in 0..cols {
        for i in 0..rows {
            acc |= m[(i, j)].to_bits_u64();
        }
    }
    acc & !T::SIGN_BIT == 0
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

    /// `all_finite` refuses a NaN or an infinity in any position of a vector or a matrix
    /// (also two infinities of opposite sign, whose sum is NaN) and accepts finite entries
    /// whose sum overflows (the screen's fallback decides per entry), in both types; and
    /// `of_u32`/`to_u32_sat` convert counts as `as` does.
    #[test]
    fn all_finite_screens_by_the_sum_and_decides_per_entry() {
        use nalgebra::{Matrix3, Vector2, Vector3};
        fn check<T: Real>() {
            let v = Vector3::new(T::one(), T::c(-2.0), T::c(3.0));
            assert!(all_finite(&v) && all_finite_slice(v.as_slice()));
            let big = T::max_value().unwrap_or_else(T::one);
            assert!(all_finite(&Vector3::new(big, big, T::zero())));
            assert!(sum_screened(&[big, big, T::zero()]) && sum_screened(&[-big, -big]));
            assert!(each_finite(&[big, big, -big]));
            assert!(all_finite(&(Matrix3::<T>::identity() * big)));
            assert!(all_finite(&Vector2::new(-big, -big)));
            let inf = T::one() / T::zero();
            for bad in [T::c(f64::NAN), inf, -inf] {
                for i in 0..3 {
                    let mut w = v;
                    w[i] = bad;
                    assert!(!all_finite(&w) && !all_finite_slice(w.as_slice()));
                    // Both ways of `all_finite`, whichever this target uses: the per-entry
                    // test (hosts, soft-float targets) and the sum screen (hard-float MCUs).
                    assert!(!each_finite(w.as_slice()) && each_finite(v.as_slice()));
                    assert!(!sum_screened(w.as_slice()) && sum_screened(v.as_slice()));
                }
                for i in 0..9 {
                    let mut m = Matrix3::<T>::identity();
                    m[i] = bad;
                    assert!(!all_finite(&m));
                }
                for i in 0..2 {
                    let mut p = Vector2::new(big, T::one());
                    p[i] = bad;
                    assert!(!all_finite(&p));
                }
            }
            assert!(!all_finite(&Vector3::new(inf, -inf, T::zero())));
            assert!(!sum_screened(&[inf, -inf, T::zero()]));
            // Several vectors at once: any bad entry of any of them; overflowing sums pass.
            let (p, q) = (Vector2::new(big, big), Vector2::new(T::one(), -T::one()));
            assert!(all_finite_of(&[&p, &q, &p]) && sum_screened_of(&[&p, &q, &p]));
            for bad in [T::c(f64::NAN), inf, -inf] {
                for k in 0..3 {
                    for i in 0..2 {
                        let mut vs = [p, q, p];
                        vs[k][i] = bad;
                        assert!(!all_finite_of(&[&vs[0], &vs[1], &vs[2]]), "{k} {i}");
                        assert!(!sum_screened_of(&[&vs[0], &vs[1], &vs[2]]), "{k} {i}");
                    }
                }
            }
            assert_eq!(T::of_u32(1024).to_u32_sat(), 1024);
            assert_eq!(T::c(2.75).to_u32_sat(), 2);
            assert_eq!(T::c(-1.0).to_u32_sat(), 0);
            assert_eq!(T::c(f64::NAN).to_u32_sat(), 0);
            assert_eq!(T::c(1e30).to_u32_sat(), u32::MAX);
        }
        check::<f32>();
        check::<f64>();
    }

    /// `all_zero` accepts +0 and -0 only: the smallest subnormal, NaN and infinity in any
    /// position make it false, in both types.
    #[test]
    fn all_zero_is_true_for_signed_zeros_only() {
        use nalgebra::{Matrix3, Vector3};
        assert!(all_zero(&Matrix3::<f64>::zeros()));
        assert!(all_zero(&Vector3::new(-0.0f32, 0.0, -0.0)));
        assert!(all_zero(&(Matrix3::<f64>::zeros() * -1.0)));
        for i in 0..9 {
            for x in [
                f64::from_bits(1),
                -f64::from_bits(1),
                f64::NAN,
                f64::INFINITY,
                1.0,
            ] {
                let mut m = Matrix3::<f64>::zeros();
                m[i] = x;
                assert!(!all_zero(&m), "{i} {x}");
            }
            for x in [
                f32::from_bits(1),
                -f32::from_bits(1),
                f32::NAN,
                -f32::INFINITY,
            ] {
                let mut m = Matrix3::<f32>::zeros();
                m[i] = x;
                assert!(!all_zero(&m), "{i} {x}");
            }
        }
        assert_eq!(f32::SIGN_BIT, (-0.0f32).to_bits_u64());
        assert_eq!(f64::SIGN_BIT, (-0.0f64).to_bits_u64());
        // The host's additions are hardware in both types.
        #[cfg(not(target_arch = "arm"))]
        assert_eq!([f32::HARDWARE_ADD, f64::HARDWARE_ADD], [true, true]);
        // ... and its checks test each entry (out of order: no chain of additions).
        #[cfg(not(target_os = "none"))]
        assert!(!sum_screen::<f32>() && !sum_screen::<f64>());
    }
}
