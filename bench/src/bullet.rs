//! Bullet's default gyroscopic treatment, re-implemented as an accuracy baseline (not in core).
//!
//! Bullet (since 2.83, flag `BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY`, the default) adds to the
//! angular velocity the impulse of `btRigidBody::computeGyroscopicImpulseImplicit_Body`: **one
//! Newton step of implicit Euler** on the gyroscopic part of Euler's equations, in the body frame,
//! started at the current rate `w` (rad/s, body frame):
//!
//! ```text
//! implicit Euler:   I (w' - w) + h w' x (I w') = 0
//! one Newton step from w' = w, with J = I + h ([w]x I - [I w]x) = I - h K,
//! K = d(-w x I w)/dw = [I w]x - [w]x I:
//!                   J dw = -h w x (I w),     w_gyro = w + dw
//! ```
//!
//! The full `K` (both `[I w]x` and `[w]x I`) makes the step dissipative for a tumbling body:
//! energy and `|L|` decay at a rate of order `h` (first order), so it is stable but drifts.
//!
//! Bullet's step around it (`btDiscreteDynamicsWorld` with the sequential-impulse solver,
//! no contacts): velocities are not integrated in `predictUnconstraintMotion`; the solver adds
//! the external torque impulse `h I^-1 tau` and the gyroscopic impulse, both from the start
//! rate, then `integrateTransforms` turns the orientation by the new world rate,
//! `q' = exp(h w'_0) q = q exp(h w'_b)`, and moves `r' = r + h v'`. Here:
//!
//! ```text
//! (I + h R_ang) dw_ext = h (tau - R_ang w)        (external torque and resistance)
//! (I - h K) dw_gyro    = -h w x (I w)             (Bullet's implicit body-frame gyro step)
//! w' = w + dw_ext + dw_gyro
//! (m E3 + h R_lin) dv  = h (f - R_lin v),  v' = v + dv
//! r' = r + h v',   q' = q exp(h w')  (renormalized)
//! ```
//!
//! Deviations from Bullet, none of which acts on the torque-free comparison: Bullet's damping is
//! a factor `(1 - c)^h` applied separately (here: backward Euler in the resistance, as the other
//! baselines); Bullet clamps `|w| h` to `pi/2` and limits the turn per step (not reached at
//! `|w| h = 0.005`). The solve is by Gaussian elimination ([`solve3`]) where Bullet calls
//! `btMatrix3x3::solve33` (Cramer's rule): the same linear system.

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::com_state::renormalize_near_unit;
use mbs_core::integrators::rigid::midpoint::translation::translation_increment;
use mbs_core::integrators::rigid::ComState;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepSettings};
use mbs_core::math::solve3::solve3;
use mbs_core::math::{skew, Quaternion};
use mbs_core::{Error, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// The Jacobian `J = I + h ([w]x I - [I w]x)` of the implicit-Euler residual
/// `I (w' - w) + h w' x (I w')` at `w' = w`, and the right-hand side `-h w x (I w)` (body frame).
pub fn gyroscopic_newton_system<T: Real>(
    inertia: &Matrix3<T>,
    w: &Vector3<T>,
    h: T,
) -> (Matrix3<T>, Vector3<T>) {
    let iw = inertia * w;
    let j = inertia + (skew(w) * inertia - skew(&iw)) * h;
    (j, -w.cross(&iw) * h)
}

/// Bullet's gyroscopic increment `dw` (rad/s, body frame) of one step `h` (s): the one Newton
/// step of implicit Euler of [`gyroscopic_newton_system`]. `None` if `J` is singular.
pub fn gyroscopic_increment<T: Real>(
    inertia: &Matrix3<T>,
    w: &Vector3<T>,
    h: T,
) -> Option<Vector3<T>> {
    let (j, rhs) = gyroscopic_newton_system(inertia, w, h);
    solve3(&j, &rhs)
}

/// Bullet-style step: semi-implicit Euler with Bullet's implicit body-frame gyroscopic impulse
/// (see the module docs). Inputs are checked, and sub-stepping is done, by core's
/// rigid driver, exactly as for core's own schemes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BulletImplicitGyro<T> {
    /// Rotation-per-step bound and sub-stepping.
    pub settings: StepSettings<T>,
}

impl<T: Real> Default for BulletImplicitGyro<T> {
    fn default() -> Self {
        Self {
            settings: StepSettings::default(),
        }
    }
}

impl<T: Real> RigidIntegrator<T> for BulletImplicitGyro<T> {
    // Inline: the driver calls it every step; across codegen units it is not inlined without it.
    #[inline]
    fn step_settings(&self) -> &StepSettings<T> {
        &self.settings
    }

    // Inline: the driver calls it every step; across codegen units it is not inlined without it.
    #[inline]
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        s: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>> {
        let i = body.inertia();
        let ra = &loads.angular_resistance;
        let dw_ext =
            solve3(&(i + ra * h), &((loads.torque - ra * s.w) * h)).ok_or(Error::SolverFailed)?;
        let dw_gyro = gyroscopic_increment(i, &s.w, h).ok_or(Error::SolverFailed)?;
        let w1 = s.w + dw_ext + dw_gyro;
        let v1 = s.v
            + translation_increment(
                body.mass(),
                &loads.linear_resistance,
                &loads.force,
                &s.v,
                h,
                T::one(),
            )?;
        Ok(ComState {
            r: s.r + v1 * h,
            v: v1,
            q: renormalize_near_unit(&s.q.mul(&Quaternion::exp(&(w1 * h)))),
            w: w1,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use mbs_core::state::RigidState;

    fn body() -> RigidBody<f64> {
        RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap()
    }

    /// The increment is one Newton step on the implicit-Euler residual, with the Jacobian
    /// taken by central finite differences and solved by nalgebra's LU (another code path).
    #[test]
    fn increment_is_one_newton_step_with_a_finite_difference_jacobian() {
        let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
        let w0 = Vector3::new(0.7, -1.3, 2.1);
        let h = 0.05;
        let res = |w1: Vector3<f64>| i * (w1 - w0) + w1.cross(&(i * w1)) * h;
        let eps = 1e-6;
        let mut jac = Matrix3::zeros();
        for c in 0..3 {
            let mut e = Vector3::zeros();
            e[c] = eps;
            jac.set_column(c, &((res(w0 + e) - res(w0 - e)) / (2.0 * eps)));
        }
        let expect = -jac.lu().solve(&res(w0)).unwrap();
        let got = gyroscopic_increment(&i, &w0, h).unwrap();
        assert_relative_eq!(got, expect, max_relative = 1e-8);
    }

    /// One Newton step leaves a residual of second order in the increment: far smaller than
    /// the residual of explicit Euler's increment.
    #[test]
    fn one_newton_step_nearly_solves_implicit_euler() {
        let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
        let w0 = Vector3::new(0.1, 5.0, 0.1);
        let h = 1e-3;
        let res = |w1: Vector3<f64>| i * (w1 - w0) + w1.cross(&(i * w1)) * h;
        let w1 = w0 + gyroscopic_increment(&i, &w0, h).unwrap();
        let explicit = w0 + i.lu().solve(&(-w0.cross(&(i * w0)) * h)).unwrap();
        assert!(res(w1).norm() < 1e-3 * res(explicit).norm());
    }

    /// A spin about a principal axis is an equilibrium of Euler's equations: the rate stays.
    #[test]
    fn principal_axis_spin_is_kept_exactly() {
        let b = body();
        let mut s = RigidState::new(
            Vector3::zeros(),
            Quaternion::identity(),
            Vector3::zeros(),
            Vector3::new(0.0, 0.0, 4.0),
        );
        let step = BulletImplicitGyro::default();
        for _ in 0..1000 {
            step.step(&b, &RigidLoads::none(), &mut s, 1e-2).unwrap();
        }
        assert_eq!(s.angular_velocity, Vector3::new(0.0, 0.0, 4.0));
    }

    fn energy_after(dt: f64, t_end: f64) -> (f64, f64) {
        let b = body();
        let i = *b.inertia();
        let w0 = Vector3::new(0.1, 5.0, 0.1);
        let mut s = RigidState::new(
            Vector3::zeros(),
            Quaternion::identity(),
            Vector3::zeros(),
            w0,
        );
        let step = BulletImplicitGyro::default();
        let n = (t_end / dt).round() as usize;
        let mut e_prev = 0.5 * w0.dot(&(i * w0));
        let e0 = e_prev;
        let mut monotone = true;
        for _ in 0..n {
            step.step(&b, &RigidLoads::none(), &mut s, dt).unwrap();
            let w = s.angular_velocity;
            let e = 0.5 * w.dot(&(i * w));
            monotone &= e <= e_prev;
            e_prev = e;
        }
        assert!(monotone, "energy must not grow (dt {dt})");
        (e0, e_prev)
    }

    /// Torque-free, the step dissipates (the energy never grows) and the loss is first order
    /// in `dt` (measured: halving `dt` halves it), as implicit Euler's.
    #[test]
    fn torque_free_energy_decays_at_first_order() {
        let (e0, e1) = energy_after(2e-3, 2.0);
        let (_, e2) = energy_after(1e-3, 2.0);
        let (d1, d2) = (e0 - e1, e0 - e2);
        assert!(d1 > 0.0 && d2 > 0.0);
        let order = (d1 / d2).log2();
        assert!((order - 1.0).abs() < 0.1, "order {order}");
    }

    #[test]
    fn bad_input_leaves_the_state_unchanged() {
        let b = body();
        let s0 = RigidState::new(
            Vector3::zeros(),
            Quaternion::identity(),
            Vector3::zeros(),
            Vector3::new(0.1, 5.0, 0.1),
        );
        let mut s = s0;
        let step = BulletImplicitGyro::default();
        assert!(step.step(&b, &RigidLoads::none(), &mut s, -1.0).is_err());
        let bad = RigidLoads::none().with_torque(Vector3::new(f64::NAN, 0.0, 0.0));
        assert!(step.step(&b, &bad, &mut s, 1e-3).is_err());
        assert_eq!(s, s0);
    }
}
