//! The translational part of the midpoint step (world frame): the centre of mass's velocity
//! increment under the force and the linear resistance.

use crate::math::solve3::solve3;
use crate::{Error, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// `dv` of `(m E3 + theta h R_lin) dv = h (f - R_lin v)` (`theta = 1` backward Euler in the
/// resistance, `1/2` trapezoidal; mass in kg, `R_lin` in N s/m, force in N, `v` in m/s, world): `dv = h f / m` when `R_lin = 0` (a bit test), per axis
/// when `R_lin` is diagonal, else by [`solve3`]. `SolverFailed` if `m + h R_ii`
/// (or the matrix) is singular.
// Inlined into each scheme's step on a host (a call of every step costs host time); an
// inline hint on a microcontroller (one copy per scheme would cost the full firmware flash).
#[cfg_attr(not(target_os = "none"), inline(always))]
#[cfg_attr(target_os = "none", inline)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn translation_increment<T: Real>(
    mass: T,
    linear_resistance: &Matrix3<T>,
    force: &Vector3<T>,
    v: &Vector3<T>,
    h: T,
    theta: T,
) -> Result<Vector3<T>> {
    let r = linear_resistance;
    if crate::finite::all_zero(r) {
        // The per-axis path below with R_lin = 0: same bits, same refusal of m = 0.
        if !(mass.abs_l() > T::zero()) {
            return Err(Error::SolverFailed);
        }
        return Ok((force * h) / mass);
    }
    let hr = h * theta;
    let z = T::zero();
    let diagonal = r[(0, 1)] == z
        && r[(0, 2)] == z
        && r[(1, 0)] == z
        && r[(1, 2)] == z
        && r[(2, 0)] == z
        && r[(2, 1)] == z;
    if diagonal {
        let mut dv = Vector3::zeros();
        for i in 0..3 {
            let d = mass + hr * r[(i, i)];
            if !(d.abs_l() > z) {
                return Err(Error::SolverFailed);
            }
            dv[i] = h * (force[i] - r[(i, i)] * v[i]) / d;
        }
        Ok(dv)
    } else {
        let a = Matrix3::identity() * mass + r * hr;
        solve3(&a, &((force - r * v) * h)).ok_or(Error::SolverFailed)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn translation_with_full_resistance_matches_the_diagonal_path() {
        let f = Vector3::new(1.0, -2.0, 3.0);
        let v = Vector3::new(0.5, 0.2, -0.1);
        let d = Matrix3::from_diagonal(&Vector3::new(0.3, 0.4, 0.5));
        let a = translation_increment(2.0, &d, &f, &v, 0.1, 1.0).unwrap();
        // Force the general (solve3) path with a negligible off-diagonal entry.
        let mut full = d;
        full[(0, 1)] = 1e-300;
        let b = translation_increment(2.0, &full, &f, &v, 0.1, 1.0).unwrap();
        assert!((a - b).norm() < 1e-15);
        for i in 0..3 {
            let expect: f64 = 0.1 * (f[i] - d[(i, i)] * v[i]) / (2.0 + 0.1 * d[(i, i)]);
            assert!((a[i] - expect).abs() < 1e-16);
        }
    }

    /// Without linear resistance the translation is `h f / m` exactly (the per-axis path's
    /// bits, compared with a tiny diagonal resistance and the closed form), and a zero mass
    /// is still a solver failure.
    #[test]
    fn translation_without_resistance_is_h_f_over_m() {
        let f = Vector3::new(1.0, -2.0, 3.0);
        let v = Vector3::new(0.5, 0.2, -0.1);
        for (m, h) in [(2.0, 0.1), (0.3, 1e-3), (7.5, 0.02)] {
            let a = translation_increment(m, &Matrix3::zeros(), &f, &v, h, 1.0).unwrap();
            assert_eq!(a, f * h / m);
            let tiny = Matrix3::identity() * 1e-300;
            let b = translation_increment(m, &tiny, &f, &v, h, 1.0).unwrap();
            assert_eq!(a, b);
            let c = translation_increment(m, &Matrix3::zeros(), &f, &v, h, 0.5).unwrap();
            assert_eq!(a, c);
        }
        assert_eq!(
            translation_increment(0.0, &Matrix3::zeros(), &f, &v, 0.1, 1.0),
            Err(Error::SolverFailed)
        );
    }
}
