//! The rotational part of the midpoint step (body frame): the matrix
//! `A = I + theta h R_ang - h/2 K`, `K = d(-w x I w)/dw = [I w]x - [w]x I` (the exact Jacobian
//! of the gyroscopic term, not symmetric for unequal moments), and the right-hand side
//! `h (tau - w x I w - R_ang w)`, for `A dw = rhs`. `theta = 1` is backward Euler in the
//! resistance, `1/2` trapezoidal. Inertia in kg m^2, `R_ang` in N m s, `w` in rad/s, `tau` in
//! N m, all in the body frame.

use crate::Real;
use nalgebra::{Matrix3, Vector3};

/// `(A, rhs)` of the rotation (module docs). Without angular resistance and with a
/// principal-axes inertia (off-diagonal entries and `R_ang` exactly zero, bit tests) Euler's
/// form [`rotation_system_principal`] (the same up to rounding in half the operations), else
/// the matrix form [`rotation_system_general`].
// Inlined into the step (its one caller in a scheme).
#[inline(always)]
pub fn rotation_system<T: Real>(
    inertia: &Matrix3<T>,
    angular_resistance: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
    theta: T,
) -> (Matrix3<T>, Vector3<T>) {
    let i = inertia;
    let off = Vector3::new(i[(1, 0)], i[(2, 0)], i[(2, 1)]);
    let off_t = Vector3::new(i[(0, 1)], i[(0, 2)], i[(1, 2)]);
    if crate::finite::all_zero(angular_resistance)
        && crate::finite::all_zero(&off)
        && crate::finite::all_zero(&off_t)
    {
        rotation_system_principal(&Vector3::new(i[(0, 0)], i[(1, 1)], i[(2, 2)]), torque, w, h)
    } else {
        rotation_system_general(inertia, angular_resistance, torque, w, h, theta)
    }
}

/// [`rotation_system`] for a principal-axes inertia without angular resistance: the inertia `I = diag(d)` (kg m^2, body frame),
/// written with Euler's differences `e = (d_z - d_y, d_x - d_z, d_y - d_x)` (kg m^2): the
/// gyroscopic torque is `w x I w = e * (w_y w_z, w_z w_x, w_x w_y)` (per component), and
/// `-K = [w]x I - [I w]x` has the entries `-K_ij = e_i w_k` (`i != j`, `k` the third index)
/// and a zero diagonal, so `A_ii = d_i`, `A_ij = (h/2) e_i w_k`. The same matrix and
/// right-hand side as the general formula up to rounding, in about half the operations.
// Inlined into `rotation_system`.
#[inline(always)]
pub fn rotation_system_principal<T: Real>(
    d: &Vector3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
) -> (Matrix3<T>, Vector3<T>) {
    let e = Vector3::new(d.z - d.y, d.x - d.z, d.y - d.x);
    let gyro = Vector3::new(e.x * (w.y * w.z), e.y * (w.z * w.x), e.z * (w.x * w.y));
    let rhs = (torque - gyro) * h;
    let g = e * (h * T::c(0.5));
    let a = Matrix3::new(
        d.x,
        g.x * w.z,
        g.x * w.y,
        g.y * w.z,
        d.y,
        g.y * w.x,
        g.z * w.y,
        g.z * w.x,
        d.z,
    );
    (a, rhs)
}

/// `[I w]x e_j`, the column `j` of `[I w]x`.
// Inlined into the unrolled loop of `rotation_system_general`.
#[inline(always)]
fn iw_cross_e<T: Real>(iw: &Vector3<T>, j: usize) -> Vector3<T> {
    match j {
        0 => Vector3::new(T::zero(), iw.z, -iw.y),
        1 => Vector3::new(-iw.z, T::zero(), iw.x),
        _ => Vector3::new(iw.y, -iw.x, T::zero()),
    }
}

/// [`rotation_system`] for any inertia and angular resistance: the matrix form.
// Inlined into `rotation_system`.
#[inline(always)]
pub fn rotation_system_general<T: Real>(
    inertia: &Matrix3<T>,
    angular_resistance: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
    theta: T,
) -> (Matrix3<T>, Vector3<T>) {
    let iw = inertia * w;
    let rhs = (torque - w.cross(&iw) - angular_resistance * w) * h;
    let hh = h * T::c(0.5);
    let hr = h * theta;
    // -K = [w]x I - [I w]x; column j of [w]x I is w x I e_j, column j of [Iw]x is Iw x e_j.
    let mut a = Matrix3::zeros();
    for j in 0..3 {
        let ic = inertia.column(j);
        let wxi = Vector3::new(
            w.y * ic[2] - w.z * ic[1],
            w.z * ic[0] - w.x * ic[2],
            w.x * ic[1] - w.y * ic[0],
        );
        let lx = iw_cross_e(&iw, j);
        let rc = angular_resistance.column(j);
        for i in 0..3 {
            a[(i, j)] = ic[i] + hr * rc[i] + hh * (wxi[i] - lx[i]);
        }
    }
    (a, rhs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// K against central finite differences of the gyroscopic term g(w) = -w x I w
    /// (the matrix is A = I + h R - h/2 K, so K = (I - A) * 2/h with R = 0).
    #[test]
    fn k_is_the_exact_jacobian_of_the_gyroscopic_term() {
        let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
        let w = Vector3::new(0.7, -1.3, 2.1);
        let h = 0.01;
        let (a, _) = rotation_system(&i, &Matrix3::zeros(), &Vector3::zeros(), &w, h, 1.0);
        let k = (i - a) * (2.0 / h);
        let g = |w: Vector3<f64>| -w.cross(&(i * w));
        let eps = 1e-6;
        for j in 0..3 {
            let mut e = Vector3::zeros();
            e[j] = eps;
            let fd = (g(w + e) - g(w - e)) / (2.0 * eps);
            assert!((k.column(j) - fd).norm() < 1e-8, "column {j}");
        }
        // Not symmetric for a general body.
        assert!((k - k.transpose()).norm() > 1.0);
    }

    /// The principal-axes path of the rotation system (Euler's form) agrees with the general
    /// formula to rounding for a diagonal inertia, the general formula with a zero `R_ang`
    /// (the general path of a non-principal inertia) agrees with the general formula to
    /// rounding, at several rates, steps and torques; an inertia with one tiny off-diagonal
    /// entry takes the general path. The general formula here is the matrix form
    /// `A = I - h/2 ([I w]x - [w]x I)`, `h (tau - w x I w)` ([`general_reference`]).
    #[test]
    fn rotation_fast_paths_agree_with_the_general_paths() {
        let d = Vector3::new(1.0, 2.5, 3.25);
        let inertia = Matrix3::from_diagonal(&d);
        let cases = [
            (Vector3::new(0.1, 5.0, 0.1), 1e-3, Vector3::zeros()),
            (
                Vector3::new(-0.7, 1.3, 2.1),
                0.02,
                Vector3::new(0.3, -0.2, 0.1),
            ),
            (
                Vector3::new(3.0, -0.01, 0.5),
                0.1,
                Vector3::new(-1.0, 0.0, 2.0),
            ),
        ];
        let close = |a: (Matrix3<f64>, Vector3<f64>), b: (Matrix3<f64>, Vector3<f64>)| {
            (a.0 - b.0).norm() <= 4.0 * f64::EPSILON * b.0.norm()
                && (a.1 - b.1).norm() <= 8.0 * f64::EPSILON * (b.1.norm() + 1e-300)
        };
        for (w, h, tau) in cases {
            let p = rotation_system_principal(&d, &tau, &w, h);
            let g = general_reference(&inertia, &tau, &w, h);
            assert!(close(p, g), "principal vs general at {w}: {p:?} {g:?}");
            let f = rotation_system(&inertia, &Matrix3::zeros(), &tau, &w, h, 1.0);
            assert_eq!(f, p);
            for theta in [1.0, 0.5] {
                let zero = Matrix3::zeros();
                let r = rotation_system_general(&inertia, &zero, &tau, &w, h, theta);
                assert!(
                    close(r, g),
                    "resisted with zero R vs general, theta {theta}"
                );
                // A tiny resistance takes the resisted path and changes nothing visible.
                let tiny = Matrix3::identity() * 1e-300;
                let t = rotation_system(&inertia, &tiny, &tau, &w, h, theta);
                assert_eq!(t, r);
            }
            // A tiny off-diagonal inertia entry: the general path, equal to rounding.
            let mut off = inertia;
            off[(0, 1)] = 1e-300;
            off[(1, 0)] = 1e-300;
            let zero = Matrix3::zeros();
            assert_eq!(
                rotation_system(&off, &Matrix3::zeros(), &tau, &w, h, 1.0),
                rotation_system_general(&off, &zero, &tau, &w, h, 1.0)
            );
            assert!(close(
                rotation_system(&off, &Matrix3::zeros(), &tau, &w, h, 1.0),
                g
            ));
        }
        // -0 off-diagonal entries count as zero (the bit test drops the sign).
        let mut neg = inertia;
        neg[(2, 1)] = -0.0;
        let w = Vector3::new(0.2, -0.4, 0.9);
        assert_eq!(
            rotation_system(&neg, &Matrix3::zeros(), &Vector3::zeros(), &w, 0.01, 1.0),
            rotation_system_principal(&d, &Vector3::zeros(), &w, 0.01)
        );
    }

    /// The rotation system without resistance in matrix form, an independent
    /// reference: `A = I - h/2 K`, `K = [I w]x - [w]x I`, right-hand side `h (tau - w x I w)`.
    fn general_reference(
        inertia: &Matrix3<f64>,
        tau: &Vector3<f64>,
        w: &Vector3<f64>,
        h: f64,
    ) -> (Matrix3<f64>, Vector3<f64>) {
        use crate::math::skew;
        let iw = inertia * w;
        let k = skew(&iw) - skew(w) * inertia;
        (inertia - k * (h / 2.0), (tau - w.cross(&iw)) * h)
    }
}
