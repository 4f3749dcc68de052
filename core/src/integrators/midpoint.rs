//! The linearly implicit midpoint step of seed 004 (`RigidInertialMidpointNode`, algorithm
//! MIME-NODE-112), exactly as the seed states it.
//!
//! With the twist `V = [v_com; w_b]`, `M = diag(m E3, I)`, the resistance `R = diag(R_lin,
//! R_ang)` and the load `F = [f; tau_b]` (see [`RigidLoads`]):
//!
//! ```text
//! V' = V + (M/dt + R - K/2)^-1 (F - [0; w x (I w)] - R V),
//! K  = d(-w x (I w))/dw = [I w]x - [w]x I        (exact Jacobian of the gyroscopic term)
//! r' = r + dt v'                                  (position from the new velocity)
//! q' = q exp(dt w')                               (turned by the new body-frame rate)
//! ```
//!
//! The 6x6 system is block diagonal: the translation `(m E3 + dt R_lin) dv = dt (f - R_lin v)`
//! (per axis when `R_lin` is diagonal) and the rotation `(I + dt R_ang - dt/2 K) dw = dt (tau -
//! w x I w - R_ang w)`, whose matrix is **not symmetric** for unequal moments; it is solved by
//! Gaussian elimination with partial pivoting ([`solve3`]), no inverse. `I` may be any
//! symmetric positive definite tensor (not only principal axes). The quaternion is renormalized
//! after the turn.
//!
//! Order and what to keep small:
//! - Torque-free, it is a Rosenbrock (W-) step with the exact Jacobian and `gamma = 1/2`:
//!   the angular velocity, the kinetic energy and `|L|` converge with order 2.
//!   The orientation converges with order 1 (it is turned by the end rate `w'`, not the mean
//!   rate), and so do the position (`r' = r + dt v'`) and the direction of the world-frame
//!   angular momentum.
//! - The resistance is backward Euler (order 1 in the velocity when `R != 0`, L-stable: any
//!   `dt` damps): pure damping gives exactly `v_{n+1} = v_n / (1 + c dt / m)`.
//! - Loads other than the resistance are held at their start-of-step value (zero-order hold);
//!   a stiff spring or a fast-changing torque applied through them is explicit and needs
//!   `dt` well below its time scale (`dt sqrt(k/m) << 1`).
//! - Keep `|w| dt < 0.5` rad (the seed's bound, MIME-ANO-129): beyond it the gyroscopic term is
//!   not resolved. The step reports [`StepStatus::StepTooLarge`](super::StepStatus) above
//!   [`StepSettings::max_rotation_per_step`] and sub-steps on request ([`StepSettings::substep`]).
//!
//! Cost: no matrix is built beyond the 3x3 `A`; `K` and the solve are written out
//! (about 150 flops, no square root, no trigonometric function for `|w| dt < 2`).

use super::rigid_driver::{advance, renormalize_near_unit, ComState};
use super::solve3::solve3;
use super::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::math::Quaternion;
use crate::nodes::rigid::RigidState;
use crate::{Error, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Settings of the midpoint step. `#[non_exhaustive]`: start from `default()` (the seed's
/// step) and set fields; later options (issue 10: orientation update, resistance treatment,
/// invariant projection) are added as one enum field each, defaulting to the seed's variant.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MidpointSettings<T> {
    /// Rotation-per-step bound and sub-stepping.
    pub step: StepSettings<T>,
}

impl<T: Real> Default for MidpointSettings<T> {
    fn default() -> Self {
        Self {
            step: StepSettings::default(),
        }
    }
}

/// The seed 004 linearly implicit midpoint step (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearlyImplicitMidpoint<T> {
    /// The step's settings.
    pub settings: MidpointSettings<T>,
}

impl<T: Real> Default for LinearlyImplicitMidpoint<T> {
    fn default() -> Self {
        Self {
            settings: MidpointSettings::default(),
        }
    }
}

impl<T: Real> LinearlyImplicitMidpoint<T> {
    /// The seed's step with default settings (`|w| dt` bound 0.5 rad, no sub-stepping).
    pub fn new() -> Self {
        Self::default()
    }

    /// The step with `settings`.
    pub fn with_settings(settings: MidpointSettings<T>) -> Self {
        Self { settings }
    }

    /// The step with the shared step settings `step` (other options at their defaults).
    pub fn with_step_settings(step: StepSettings<T>) -> Self {
        Self {
            settings: MidpointSettings { step },
        }
    }
}

impl<T: Real> RigidIntegrator<T> for LinearlyImplicitMidpoint<T> {
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo> {
        advance(body, loads, &self.settings.step, state, dt, |s, h| {
            midpoint_substep(body, loads, s, h)
        })
    }
}

/// The rotation matrix `A = I + h R_ang - h/2 K`, `K = [I w]x - [w]x I`, and right-hand side
/// `h (tau - w x I w - R_ang w)` of the rotational part (body frame), written out.
#[inline]
pub fn rotation_system<T: Real>(
    inertia: &Matrix3<T>,
    angular_resistance: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
) -> (Matrix3<T>, Vector3<T>) {
    let iw = inertia * w;
    let rhs = (torque - w.cross(&iw) - angular_resistance * w) * h;
    let hh = h * T::c(0.5);
    // -K = [w]x I - [I w]x; column j of [w]x I is w x I e_j, column j of [Iw]x is Iw x e_j.
    let mut a = Matrix3::zeros();
    for j in 0..3 {
        let ic = inertia.column(j);
        let wxi = Vector3::new(
            w.y * ic[2] - w.z * ic[1],
            w.z * ic[0] - w.x * ic[2],
            w.x * ic[1] - w.y * ic[0],
        );
        // [Iw]x e_j
        let lx = match j {
            0 => Vector3::new(T::zero(), iw.z, -iw.y),
            1 => Vector3::new(-iw.z, T::zero(), iw.x),
            _ => Vector3::new(iw.y, -iw.x, T::zero()),
        };
        let rc = angular_resistance.column(j);
        for i in 0..3 {
            a[(i, j)] = ic[i] + h * rc[i] + hh * (wxi[i] - lx[i]);
        }
    }
    (a, rhs)
}

/// One midpoint step of length `h` of the COM state (the seed's equations, module docs).
#[inline]
pub fn midpoint_substep<T: Real>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    s: &ComState<T>,
    h: T,
) -> Result<ComState<T>> {
    // Rotation (body frame).
    let (a, rhs) = rotation_system(
        body.inertia(),
        &loads.angular_resistance,
        &loads.torque,
        &s.w,
        h,
    );
    let dw = solve3(&a, &rhs).ok_or(Error::SolverFailed)?;
    let w1 = s.w + dw;
    // Translation (world frame).
    let v1 =
        s.v + translation_increment(body.mass(), &loads.linear_resistance, &loads.force, &s.v, h)?;
    let r1 = s.r + v1 * h;
    let q1 = renormalize_near_unit(&s.q.mul(&Quaternion::exp(&(w1 * h))));
    Ok(ComState {
        r: r1,
        v: v1,
        q: q1,
        w: w1,
    })
}

/// `dv` of `(m E3 + h R_lin) dv = h (f - R_lin v)` (backward Euler in the resistance), per
/// axis when `R_lin` is diagonal, else by [`solve3`].
#[inline]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn translation_increment<T: Real>(
    mass: T,
    linear_resistance: &Matrix3<T>,
    force: &Vector3<T>,
    v: &Vector3<T>,
    h: T,
) -> Result<Vector3<T>> {
    let r = linear_resistance;
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
            let d = mass + h * r[(i, i)];
            if !(d.abs_l() > z) {
                return Err(Error::SolverFailed);
            }
            dv[i] = h * (force[i] - r[(i, i)] * v[i]) / d;
        }
        Ok(dv)
    } else {
        let a = Matrix3::identity() * mass + r * h;
        solve3(&a, &((force - r * v) * h)).ok_or(Error::SolverFailed)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// K against central finite differences of the gyroscopic term g(w) = -w x I w
    /// (the matrix is A = I + h R - h/2 K, so K = (I - A) * 2/h with R = 0).
    #[test]
    fn k_is_the_exact_jacobian_of_the_gyroscopic_term() {
        let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
        let w = Vector3::new(0.7, -1.3, 2.1);
        let h = 0.01;
        let (a, _) = rotation_system(&i, &Matrix3::zeros(), &Vector3::zeros(), &w, h);
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

    #[test]
    fn translation_with_full_resistance_matches_the_diagonal_path() {
        let f = Vector3::new(1.0, -2.0, 3.0);
        let v = Vector3::new(0.5, 0.2, -0.1);
        let d = Matrix3::from_diagonal(&Vector3::new(0.3, 0.4, 0.5));
        let a = translation_increment(2.0, &d, &f, &v, 0.1).unwrap();
        // Force the general (solve3) path with a negligible off-diagonal entry.
        let mut full = d;
        full[(0, 1)] = 1e-300;
        let b = translation_increment(2.0, &full, &f, &v, 0.1).unwrap();
        assert!((a - b).norm() < 1e-15);
        for i in 0..3 {
            let expect: f64 = 0.1 * (f[i] - d[(i, i)] * v[i]) / (2.0 + 0.1 * d[(i, i)]);
            assert!((a[i] - expect).abs() < 1e-16);
        }
    }
}
