//! Finiteness and zero tests of many entries at once, for the input and result checks of
//! every step. How a test of many entries is done depends on the target
//! ([`sum_screen`](crate::target::sum_screen)): one test of the entries' sum, or a test of each.

use crate::Real;

/// `true` if every component of a fixed-size vector or matrix is finite: by one test of the
/// entries' sum where [`sum_screen`](crate::target::sum_screen) (a NaN or infinite entry makes
/// the sum non-finite; a sum of finite entries that overflows falls back to [`all_finite_slice`]),
/// else by a test of each entry.
// One out-of-line copy per shape on a microcontroller (the firmware flash guard), inlined on a
// host (the mass point's Newton loop calls it often).
#[cfg_attr(target_os = "none", inline(never))]
#[cfg_attr(not(target_os = "none"), inline)]
pub fn all_finite<T: Real, R: nalgebra::Dim, C: nalgebra::Dim, S>(
    m: &nalgebra::Matrix<T, R, C, S>,
) -> bool
where
    S: nalgebra::RawStorage<T, R, C> + nalgebra::IsContiguous,
{
    let a = m.as_slice();
    if crate::target::sum_screen::<T>() {
        sum_screened(a)
    } else {
        each_finite(a)
    }
}

/// [`all_finite`]'s test by the sum of the entries, the per-entry tests only if it fails.
// Inlined into `all_finite`'s one copy per shape.
#[inline(always)]
fn sum_screened<T: Real>(a: &[T]) -> bool {
    sum_screened_slices(&[a])
}

/// [`all_finite`] of several vectors or matrices of one shape, for the checks of a hot step,
/// inline: where [`sum_screen`](crate::target::sum_screen), one test of the sum of all their entries screens them and the
/// per-entry tests run only if it fails (a sum of finite entries may overflow); elsewhere
/// each entry is tested ([`Real::finite`]), without a branch per matrix.
// Inlined: the screen of a hot step's inputs, one test.
#[inline(always)]
pub fn all_finite_of<T: Real, const R: usize, const C: usize>(
    ms: &[&nalgebra::SMatrix<T, R, C>],
) -> bool {
    if !crate::target::sum_screen::<T>() {
        let mut ok = true;
        for m in ms {
            ok &= each_finite(m.as_slice());
        }
        return ok;
    }
    sum_screened_of(ms)
}

/// [`all_finite_of`]'s test by the sum of all entries, the per-matrix tests only if it fails.
// Inlined into `all_finite_of`.
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

/// `true` if every entry of every slice in `parts` is finite: where
/// [`sum_screen`](crate::target::sum_screen), by one test of the sum of all entries (the
/// per-entry tests only if it fails), else by a test of each without a branch per entry.
// Out of line: one copy for the constrained step's checks of its vectors.
#[inline(never)]
pub fn all_finite_slices<T: Real>(parts: &[&[T]]) -> bool {
    if crate::target::sum_screen::<T>() {
        sum_screened_slices(parts)
    } else {
        parts.iter().fold(true, |ok, p| ok & each_finite(p))
    }
}

/// [`all_finite_slices`]'s test by the sum of all entries.
// Inlined into `all_finite_slices`.
#[inline(always)]
fn sum_screened_slices<T: Real>(parts: &[&[T]]) -> bool {
    let mut sum = T::zero();
    for p in parts {
        for x in *p {
            sum += *x;
        }
    }
    sum * T::zero() == T::zero() || parts.iter().all(|p| all_finite_slice(p))
}

/// [`Real::finite`] of every entry, without a branch per entry.
// Inlined: a branch-free loop in its caller.
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
    use crate::Real;

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
            // Slices of any lengths at once, both ways.
            let (a, b) = ([big, big, T::one()], [-big, T::zero()]);
            assert!(all_finite_slices(&[&a, &b, &a]) && sum_screened_slices(&[&a, &b, &[]]));
            for bad in [T::c(f64::NAN), inf, -inf] {
                for (k, i) in [(0, 0), (0, 2), (1, 1), (2, 0)] {
                    let mut parts = [a.to_vec(), b.to_vec(), a.to_vec()];
                    parts[k][i] = bad;
                    let parts = [&parts[0][..], &parts[1][..], &parts[2][..]];
                    assert!(!all_finite_slices(&parts), "{k} {i}");
                    assert!(!sum_screened_slices(&parts), "{k} {i}");
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
        assert!(!crate::target::sum_screen::<f32>() && !crate::target::sum_screen::<f64>());
    }
}
