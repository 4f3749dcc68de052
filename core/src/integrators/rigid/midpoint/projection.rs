//! Projection of a body-frame angular velocity onto given levels of the kinetic energy and of
//! the magnitude of the angular momentum (the two invariants of the torque-free rotation).
//!
//! Given a predicted rate `w^` (rad/s, body frame), a symmetric positive definite inertia `I`
//! (kg m^2, body frame, about the COM) and the levels `2E = w.Iw` (J, times 2) and `L^2 = |Iw|^2`
//! (kg^2 m^4 / s^2), find `w` on both quadrics
//!
//! ```text
//! c1(w) = w.Iw - 2E = 0          (energy ellipsoid)
//! c2(w) = |Iw|^2 - L^2 = 0        (momentum ellipsoid, |L| sphere in L-space)
//! ```
//!
//! nearest `w^` along the constraint gradients at `w^` (a projection in the sense of Hairer,
//! Lubich & Wanner, *Geometric Numerical Integration*, IV.4, "standard projection" with the
//! gradients frozen at the prediction): `w = w^ + a p + b s`, `p = I w^`, `s = I p`
//! (`grad c1 = 2 I w`, `grad c2 = 2 I^2 w`). The two multipliers `(a, b)` solve `c1 = c2 = 0` by
//! Newton's method on the 2x2 system with the exact Jacobian (`u = I w = p + a s + b t`,
//! `t = I s`):
//!
//! ```text
//! [ 2 u.p  2 u.s ] [da]     [c1]
//! [ 2 u.s  2 u.t ] [db] = - [c2]
//! ```
//!
//! At `(0, 0)` the matrix is `2 Gram(p, s)`, singular exactly when `I w^` is parallel to
//! `I^2 w^` (`w^` along a principal axis, or any `w^` for a sphere inertia): there the two
//! levels are one condition and the rate is only scaled onto the energy level,
//! `w = w^ sqrt(2E / w^.Iw^)`. The prediction of a consistent second-order step is `O(dt^3)`
//! from the levels, so Newton converges quadratically: it always makes 2 corrections (one would
//! leave its quadratic remainder, about `r^2`, of the same sign every step, and that adds up over
//! many steps) and a third if the relative residual is still above `4 EPS`. No allocation, no panic: a non-finite or non-positive level, a
//! non-finite iterate or a correction larger than half of `|w^|` (no nearby solution) returns
//! `w^` unchanged.

use crate::Real;
use nalgebra::{Matrix3, Vector3};

/// Largest number of Newton iterations of [`project_onto_levels`].
pub const MAX_PROJECTION_ITERATIONS: usize = 3;

/// `w` on the levels `w.Iw = two_energy` and `|Iw|^2 = momentum_squared` nearest `w_hat` (see
/// the module docs), or `w_hat` unchanged when there is no such `w` nearby.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn project_onto_levels<T: Real>(
    inertia: &Matrix3<T>,
    w_hat: &Vector3<T>,
    two_energy: T,
    momentum_squared: T,
) -> Vector3<T> {
    let z = T::zero();
    if !(two_energy > z && momentum_squared > z && two_energy.finite() && momentum_squared.finite())
    {
        return *w_hat;
    }
    let p = inertia * w_hat;
    let s = inertia * p;
    let n = Newton {
        w_hat: *w_hat,
        p,
        s,
        t: inertia * s,
        levels: [two_energy, momentum_squared],
        inv: [T::one() / two_energy, T::one() / momentum_squared],
    };
    let mut ab = [z, z];
    for k in 0..MAX_PROJECTION_ITERATIONS {
        // Two corrections are always made: after one, the residual is Newton's quadratic
        // remainder, tiny (about r^2, 1e-18 for a step's r ~ 1e-9) but of one sign every step,
        // and 500,000 steps would add it up to 1e-12; after two it is r^4, below rounding.
        match n.correct(&mut ab, k > 1) {
            Correction::Made => {}
            Correction::Converged => break,
            Correction::Degenerate => {
                // The two levels are (nearly) one condition: scale onto the energy level.
                let e_hat = w_hat.dot(&p);
                if !(e_hat > z) {
                    return *w_hat;
                }
                let k = (two_energy / e_hat).sqrt_l();
                return accept(w_hat, w_hat * k);
            }
        }
    }
    accept(w_hat, n.rate(&ab))
}

/// The Newton iteration of [`project_onto_levels`] for the multipliers `(a, b)` of
/// `w = w^ + a p + b s` (module docs): the prediction `w_hat` (rad/s, body frame), `p = I w^`,
/// `s = I p`, `t = I s`, the levels `[2E, L^2]` and their reciprocals.
struct Newton<T> {
    w_hat: Vector3<T>,
    p: Vector3<T>,
    s: Vector3<T>,
    t: Vector3<T>,
    levels: [T; 2],
    inv: [T; 2],
}

/// What one call of [`Newton::correct`] did.
enum Correction {
    /// `(a, b)` corrected.
    Made,
    /// The relative residuals were within `4 EPS` (tested only when asked): nothing changed.
    Converged,
    /// The 2x2 Jacobian is (nearly) singular: nothing changed.
    Degenerate,
}

impl<T: Real> Newton<T> {
    /// `w^ + a p + b s` (rad/s).
    fn rate(&self, ab: &[T; 2]) -> Vector3<T> {
        self.w_hat + self.p * ab[0] + self.s * ab[1]
    }

    /// One Newton correction of `ab` on the scaled residuals `r1 = (w.Iw - 2E)/2E`,
    /// `r2 = (|Iw|^2 - L^2)/L^2` with the exact Jacobian (rows scaled the same way), unless
    /// `test_converged` and both `|r_i| <= 4 EPS`. Out of line: the iteration's loop calls it
    /// (one copy of the body instead of three unrolled ones: the firmware flash guard).
    #[inline(never)]
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
    fn correct(&self, ab: &mut [T; 2], test_converged: bool) -> Correction {
        let (p, s, t) = (&self.p, &self.s, &self.t);
        let [inv_e, inv_l] = self.inv;
        let w = self.rate(ab);
        let u = p + s * ab[0] + t * ab[1];
        let r1 = (w.dot(&u) - self.levels[0]) * inv_e;
        let r2 = (u.dot(&u) - self.levels[1]) * inv_l;
        let tol = T::EPS * T::c(4.0);
        if test_converged && r1.abs_l() <= tol && r2.abs_l() <= tol {
            return Correction::Converged;
        }
        // Scaled rows (divide row 1 by 2E, row 2 by L^2): J d = -r.
        let two = T::c(2.0);
        let j11 = two * u.dot(p) * inv_e;
        let j12 = two * u.dot(s) * inv_e;
        let j21 = two * u.dot(s) * inv_l;
        let j22 = two * u.dot(t) * inv_l;
        let det = j11 * j22 - j12 * j21;
        let scale = (j11 * j22).abs_l() + (j12 * j21).abs_l();
        if !(det.abs_l() > scale * T::c(1e-10)) {
            return Correction::Degenerate;
        }
        let inv_det = T::one() / det;
        ab[0] -= (j22 * r1 - j12 * r2) * inv_det;
        ab[1] -= (j11 * r2 - j21 * r1) * inv_det;
        Correction::Made
    }
}

/// `w` if it is finite and within `|w_hat|/2` of `w_hat`, else `w_hat`.
#[inline]
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn accept<T: Real>(w_hat: &Vector3<T>, w: Vector3<T>) -> Vector3<T> {
    let d = w - w_hat;
    if crate::finite::all_finite(&w) && !(d.dot(&d) * T::c(4.0) > w_hat.dot(w_hat)) {
        w
    } else {
        *w_hat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels(i: &Matrix3<f64>, w: &Vector3<f64>) -> (f64, f64) {
        let l = i * w;
        (w.dot(&l), l.dot(&l))
    }

    #[test]
    fn a_perturbed_rate_returns_to_both_levels() {
        // A full (non-diagonal) SPD inertia.
        let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
        let w0 = Vector3::new(0.7, -1.3, 2.1);
        let (e, l2) = levels(&i, &w0);
        // Up to 1e-3 (a step's prediction is far closer), 3 iterations reach rounding; at 3e-2
        // they leave a 2e-14 residual (quadratic convergence: 1e-3, 1e-6, 1e-12 from there).
        for (d, tol) in [(1e-9, 1e-15), (1e-6, 1e-15), (1e-3, 1e-15), (3e-2, 1e-13)] {
            let w_hat = w0 + Vector3::new(d, -2.0 * d, 0.5 * d);
            let w = project_onto_levels(&i, &w_hat, e, l2);
            let (e1, l21) = levels(&i, &w);
            assert!(((e1 - e) / e).abs() < tol, "d {d}: energy {}", e1 / e - 1.0);
            assert!(((l21 - l2) / l2).abs() < tol, "d {d}: L {}", l21 / l2 - 1.0);
            // The correction is of the size of the perturbation.
            assert!((w - w_hat).norm() < 10.0 * d, "d {d}");
        }
    }

    #[test]
    fn degenerate_directions_are_scaled_onto_the_energy() {
        // Sphere inertia: both levels say |w| = const.
        let i = Matrix3::identity() * 0.4;
        let w0 = Vector3::new(1.0, 2.0, -0.5);
        let (e, l2) = levels(&i, &w0);
        let w = project_onto_levels(&i, &(w0 * (1.0 + 1e-7)), e, l2);
        assert!((w - w0).norm() < 1e-14);
        // Spin about a principal axis of diag(1, 2, 3).
        let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
        let w0 = Vector3::new(0.0, 5.0, 0.0);
        let (e, l2) = levels(&i, &w0);
        let w = project_onto_levels(&i, &Vector3::new(0.0, 5.0 + 1e-8, 0.0), e, l2);
        assert!((w - w0).norm() < 1e-14);
    }

    #[test]
    fn no_nearby_solution_or_bad_levels_leave_the_rate_unchanged() {
        let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
        let w_hat = Vector3::new(0.3, 0.2, 0.1);
        for (e, l2) in [
            (0.0, 1.0),
            (1.0, -1.0),
            (f64::NAN, 1.0),
            (1.0, f64::INFINITY),
            // Inconsistent levels: |L|^2 > 2E * I_max has no solution.
            (1.0, 100.0),
        ] {
            assert_eq!(project_onto_levels(&i, &w_hat, e, l2), w_hat, "{e} {l2}");
        }
        let z = Vector3::zeros();
        assert_eq!(project_onto_levels(&i, &z, 1.0, 1.0), z);
    }

    #[test]
    fn f32_reaches_its_own_rounding() {
        let i = Matrix3::<f32>::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
        let w0 = Vector3::<f32>::new(0.1, 5.0, 0.1);
        let l = i * w0;
        let (e, l2) = (w0.dot(&l), l.dot(&l));
        let w = project_onto_levels(&i, &(w0 + Vector3::new(1e-4, -1e-4, 2e-4)), e, l2);
        let l1 = i * w;
        assert!(((w.dot(&l1) - e) / e).abs() < 4e-7);
        assert!(((l1.dot(&l1) - l2) / l2).abs() < 4e-7);
    }
}
