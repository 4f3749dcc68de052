//! Whether a symmetric tensor is the inertia tensor of a mass distribution, decided without
//! eigenvalues (no `acos`/`cos`: on a microcontroller the trigonometric closed form pulls
//! several KB of libm and soft double into the firmware).
//!
//! A symmetric `I` (kg m^2, about the COM) with principal moments `I1 <= I2 <= I3` is physical
//! iff `I1 >= 0` and `I1 + I2 >= I3`. Both are eigenvalue bounds, and a symmetric matrix `M`
//! is positive semi-definite iff every principal minor of `M` is `>= 0` (tested stably on a
//! Schur complement: [`is_positive_semidefinite`]), so:
//!
//! - `I1 >= -t` iff `I + t E` is positive semi-definite;
//! - `I1 + I2 - I3 = tr(I) - 2 I3 >= -t` iff `I3 <= (tr(I) + t)/2` iff
//!   `J_t = (tr(I) + t)/2 E - I` is positive semi-definite. `J_0 = tr(I)/2 E - I` is the
//!   second moment of the mass, `int rho s s^T dV` (its eigenvalues `(I_j + I_k - I_i)/2`):
//!   the triangle inequality says that no mass distribution has a negative second moment.
//!
//! With the tolerance `t = tol tr(I)` (`tol` = [`inertia_tolerance`](super::inertia_tolerance))
//! the boundary cases (a thin rod `(0, I, I)`, a thin disk `(I, I, 2I)`, a point `0`) lie a
//! margin `t` inside, far above the rounding of the minors, so rotated ones pass as well.

use crate::Real;
use nalgebra::Matrix3;

/// `true` if the symmetric `m` (only its upper triangle is read) is positive semi-definite
/// (NaN fails).
///
/// Decided by one step of a pivoted `L D L^T`: with the largest diagonal entry `p` as pivot and
/// `v` the rest of its row, `m` is PSD iff `p >= 0` and the Schur complement
/// `S = B - v v^T / p` (2x2) is, i.e. `S_00 >= 0`, `S_11 >= 0`, `S_00 S_11 >= S_01^2` (for
/// `p = 0` iff `m = 0`). These are the principal-minor conditions (`p S = ` the 2x2 minors
/// through the pivot, `p det S = det m`), but evaluated on `S`, whose entries carry rounding
/// errors of `EPS |m|` only: the minors of `m` themselves lose everything when two eigenvalues
/// are small (a thin rod's second moment has rank 1: `J_t` has two eigenvalues `t`, its minors
/// `t^2` are below f32's rounding, `S`'s are not).
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn is_positive_semidefinite<T: Real>(m: &Matrix3<T>) -> bool {
    let z = T::zero();
    // The pivot k (largest diagonal entry) and the other two indices.
    let (d0, d1, d2) = (m[(0, 0)], m[(1, 1)], m[(2, 2)]);
    let (k, a, b) = if d0 >= d1 && d0 >= d2 {
        (0, 1, 2)
    } else if d1 >= d2 {
        (1, 0, 2)
    } else {
        (2, 0, 1)
    };
    let at = |i: usize, j: usize| if i <= j { m[(i, j)] } else { m[(j, i)] };
    let p = at(k, k);
    let (va, vb) = (at(k, a), at(k, b));
    if !(p > z) {
        // p = max diagonal <= 0 (or NaN): PSD only if m is zero.
        return p == z && va == z && vb == z && at(a, a) == z && at(b, b) == z && at(a, b) == z;
    }
    let s00 = at(a, a) - va * va / p;
    let s11 = at(b, b) - vb * vb / p;
    let s01 = at(a, b) - va * vb / p;
    s00 >= z && s11 >= z && s00 * s11 - s01 * s01 >= z
}

/// `true` if the symmetric inertia tensor `i` satisfies the triangle inequality of its
/// principal moments to `tol` times its trace: `I1 + I2 >= I3 - tol tr(I)`, decided as
/// `(1 + tol) tr(I)/2 E - I` positive semi-definite (module docs).
pub fn satisfies_triangle_inequality<T: Real>(i: &Matrix3<T>, tol: T) -> bool {
    let h = (i[(0, 0)] + i[(1, 1)] + i[(2, 2)]) * (T::one() + tol) * T::c(0.5);
    is_positive_semidefinite(&(Matrix3::from_diagonal_element(h) - i))
}

/// `true` if the symmetric `i` is a physical inertia tensor to `tol`: `I1 >= -tol tr(I)` and
/// `I1 + I2 >= I3 - tol tr(I)` (principal moments `I1 <= I2 <= I3`; for a tensor that passes,
/// `tr(I)` is `|I1| + |I2| + |I3|` to within `2 tol tr(I)`).
pub fn is_physical_inertia<T: Real>(i: &Matrix3<T>, tol: T) -> bool {
    let t = (i[(0, 0)] + i[(1, 1)] + i[(2, 2)]) * tol;
    is_positive_semidefinite(&(i + Matrix3::from_diagonal_element(t)))
        && satisfies_triangle_inequality(i, tol)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::inertia::{inertia_tolerance, symmetric_eigenvalues};
    use crate::math::Quaternion;
    use nalgebra::Vector3;

    /// A small deterministic generator (xorshift64*), uniform in [0, 1).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// `R diag(m) R^T`, symmetrized, for a random rotation `R`.
    fn rotated<T: Real>(rng: &mut Rng, m: [f64; 3]) -> Matrix3<T> {
        let phi = Vector3::new(rng.next(), rng.next(), rng.next()).map(|x| 6.0 * x - 3.0);
        let r = Quaternion::<f64>::exp(&phi).to_matrix();
        let a = r * Matrix3::from_diagonal(&Vector3::from(m)) * r.transpose();
        ((a + a.transpose()) * 0.5).map(T::c)
    }

    /// The eigenvalue decision (the definition) on the tensor `i` of `T`, evaluated in f64 (its
    /// entries exactly; the f32 closed form itself is far less accurate for close moments),
    /// with its margin to the nearer bound relative to `s = |I1| + |I2| + |I3|`.
    fn by_eigenvalues<T: Real>(i: &Matrix3<T>, tol: T) -> (bool, f64) {
        let [i1, i2, i3] = symmetric_eigenvalues(&i.map(|x| x.to_f64()));
        let (tol, s) = (tol.to_f64(), i1.abs() + i2.abs() + i3.abs());
        let ok = i1 >= -tol * s && i1 + i2 >= i3 - tol * s;
        let scale = s.max(f64::MIN_POSITIVE);
        let m1 = (i1 + tol * s) / scale;
        let m2 = (i1 + i2 - i3 + tol * s) / scale;
        (ok, m1.abs().min(m2.abs()))
    }

    /// The minors decide as the eigenvalues do on random tensors (rotated random moments, half
    /// of them violating a bound) whenever the eigenvalue margin exceeds the rounding of either
    /// method (64 EPS of the trace); and the boundary bodies pass, rotated or not.
    fn agrees_with_eigenvalues<T: Real>() {
        let tol = inertia_tolerance::<T>();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut agreed, mut refused, mut near) = (0, 0, 0);
        for k in 0..20_000 {
            let m = match k % 4 {
                0 => [rng.next(), rng.next(), rng.next()],
                1 => [rng.next() - 0.1, rng.next(), rng.next()],
                // Near the triangle bound: I3 = (I1 + I2)(1 + d), |d| <= 1e-4.
                2 => {
                    let (a, b) = (rng.next(), rng.next());
                    [a, b, (a + b) * (1.0 + 2e-4 * (rng.next() - 0.5))]
                }
                _ => [rng.next() * 1e-3, rng.next(), rng.next()],
            };
            let i = rotated::<T>(&mut rng, m);
            let (want, margin) = by_eigenvalues(&i, tol);
            if margin < 64.0 * T::EPS.to_f64() {
                near += 1;
                continue;
            }
            assert_eq!(is_physical_inertia(&i, tol), want, "{m:?}: {i:?}");
            agreed += 1;
            refused += usize::from(!want);
        }
        assert!(
            agreed > 19_000 && refused > 4_000 && near < 1_000,
            "{agreed} {refused} {near}"
        );
        // Boundary bodies: thin rod, thin disk, point, and a flat plate (I3 = I1 + I2).
        for m in [
            [0.0, 1.0, 1.0],
            [1.0, 1.0, 2.0],
            [0.0; 3],
            [1.0, 2.0, 3.0],
            [0.3, 0.3, 0.6],
        ] {
            let d = Matrix3::from_diagonal(&Vector3::from(m)).map(T::c);
            assert!(is_physical_inertia(&d, tol), "{m:?}");
            for _ in 0..200 {
                let i = rotated::<T>(&mut rng, m);
                assert!(is_physical_inertia(&i, tol), "{m:?} rotated: {i:?}");
            }
        }
        // Outside a bound by a few tolerances (I1 = -5 tol s, I3 - I1 - I2 = 10 tol s, with
        // s = 2 and 4): refused, rotated or not.
        let t = tol.to_f64();
        for m in [[-10.0 * t, 1.0, 1.0], [1.0, 1.0, 2.0 + 40.0 * t]] {
            let d = Matrix3::from_diagonal(&Vector3::from(m)).map(T::c);
            assert!(!is_physical_inertia(&d, tol), "{m:?}");
            for _ in 0..200 {
                let i = rotated::<T>(&mut rng, m);
                assert!(!is_physical_inertia(&i, tol), "{m:?} rotated: {i:?}");
            }
        }
        // NaN is no inertia.
        let mut i = Matrix3::<T>::identity();
        i[(1, 2)] = T::c(f64::NAN);
        assert!(!is_physical_inertia(&i, tol));
    }

    #[test]
    fn minors_decide_as_the_eigenvalues_do() {
        agrees_with_eigenvalues::<f64>();
        agrees_with_eigenvalues::<f32>();
    }
}
