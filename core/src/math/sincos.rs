//! Sine and cosine of one angle together, for the planar bodies and joints: in `f32` computed
//! in `f32` alone (libm's `sinf` and `cosf` compute in double, which on a single-precision FPU
//! such as the Cortex-M4F's is a software routine of hundreds of instructions).
//!
//! `f32`: the angle is reduced to `r = x - n pi/2`, `|r| <= pi/4`, with `pi/2` split in three
//! parts (Cody and Waite) whose products with `n` are exact for `|n| < 2^12`, then the minimax
//! polynomials of the Cephes library's `sinf`/`cosf` on `[-pi/4, pi/4]`, and the quadrant
//! `n mod 4` picks and signs them. Within 2 `f32` ulp for `|x| <= 6434` (tested: the error
//! in ulp of the larger of the value and 1/2); beyond, and for NaN or infinity, libm's
//! `sinf`/`cosf`.

/// The three parts of `pi/2`: 8, 12 and 24 significant bits.
const PIO2_1: f32 = 1.570_312_5;
const PIO2_2: f32 = 4.837_513e-4;
const PIO2_3: f32 = 7.549_79e-8;
/// Largest `|x|` of the fast path: `n = round(x 2/pi) < 2^12`.
const FAST_LIMIT: f32 = 6434.0;

/// `(sin x, cos x)` in `f32` (module docs).
#[allow(clippy::excessive_precision, clippy::neg_cmp_op_on_partial_ord)] // NaN takes libm's path
pub fn sin_cos_f32(x: f32) -> (f32, f32) {
    let ax = libm::fabsf(x);
    if !(ax <= FAST_LIMIT) {
        return (libm::sinf(x), libm::cosf(x));
    }
    let n = libm::rintf(x * core::f32::consts::FRAC_2_PI);
    let r = ((x - n * PIO2_1) - n * PIO2_2) - n * PIO2_3;
    let z = r * r;
    let s = r + r * z * (-1.666_665_461_1e-1 + z * (8.332_160_873_6e-3 + z * -1.951_529_589_1e-4));
    let c = 1.0 - 0.5 * z
        + z * z
            * (4.166_664_568_298_827e-2
                + z * (-1.388_731_625_493_765e-3 + z * 2.443_315_711_809_948e-5));
    match (n as i32) & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// `(sin x, cos x)` in `f64`: libm's `sincos`, one argument reduction for both (bit for bit
/// libm's `sin` and `cos`: the same reduction and kernels).
pub fn sin_cos_f64(x: f64) -> (f64, f64) {
    libm::sincos(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sincos` is bit for bit `sin` and `cos` (a sweep over many quadrants, tiny and huge
    /// arguments, and the non-finite ones).
    #[test]
    fn f64_sincos_is_sin_and_cos() {
        let mut x = -1e4f64;
        let check = |x: f64| {
            let (s, c) = sin_cos_f64(x);
            assert_eq!(s.to_bits(), libm::sin(x).to_bits(), "{x}");
            assert_eq!(c.to_bits(), libm::cos(x).to_bits(), "{x}");
        };
        while x < 1e4 {
            check(x);
            x += 0.0123456789;
        }
        for x in [
            0.0,
            -0.0,
            1e-300,
            1e-9,
            core::f64::consts::FRAC_PI_4,
            1e22,
            1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            check(x);
            check(-x);
        }
    }

    /// Within 2 ulp of the double-precision values over the fast range (a dense sweep and the
    /// quadrant boundaries), and libm's values beyond it and for NaN and infinity.
    #[test]
    fn within_two_ulp_of_double_precision() {
        let ulp = f32::EPSILON as f64;
        let mut worst = 0.0f64;
        // The error in ulp of the larger of |exact| and 1/2 (at most 2 ulp near 1, relative
        // below 1/2).
        let mut check = |x: f32| {
            let (s, c) = sin_cos_f32(x);
            let (es, ec) = (libm::sin(x as f64), libm::cos(x as f64));
            for (got, exact) in [(s, es), (c, ec)] {
                let e = (got as f64 - exact).abs() / (ulp * exact.abs().max(0.5));
                worst = worst.max(e);
            }
        };
        let mut x = -FAST_LIMIT;
        while x <= FAST_LIMIT {
            check(x);
            x += 0.0137;
        }
        for k in -4000..4000 {
            let b = k as f32 * core::f32::consts::FRAC_PI_4;
            for d in [-1e-3f32, 0.0, 1e-3] {
                check(b + d);
            }
        }
        for x in [0.0f32, -0.0, 1e-30, -1e-20, 1e-5, 0.5, 1.0, 3.0, 100.0] {
            check(x);
        }
        assert!(worst <= 2.0, "worst {worst} ulp");
        for x in [1e4f32, -3e7, f32::MAX] {
            assert_eq!(sin_cos_f32(x), (libm::sinf(x), libm::cosf(x)));
        }
        let (s, c) = sin_cos_f32(f32::NAN);
        assert!(s.is_nan() && c.is_nan());
        let (s, c) = sin_cos_f32(f32::INFINITY);
        assert!(s.is_nan() && c.is_nan());
    }
}
