//! Baseline: classical fourth-order Runge-Kutta on `[r, v, q, w]` with the quaternion
//! kinematics `q_dot = 1/2 q [0, w_b]` (the stages use the unnormalized quaternion; it is
//! renormalized after the step).
//!
//! ```text
//! k1 = f(y), k2 = f(y + dt/2 k1), k3 = f(y + dt/2 k2), k4 = f(y + dt k3),
//! y' = y + dt/6 (k1 + 2 k2 + 2 k3 + k4),   f = [v, (f - R_lin v)/m, 1/2 q [0,w], I^-1 (tau - w x I w - R_ang w)]
//! ```
//!
//! Order 4 for smooth loads held constant over the step, four evaluations per step; it conserves
//! no invariant exactly (torque-free its energy decays slowly, `O(dt^4)` per unit time) and the
//! explicit resistance limits `dt c/m < 2.78`. Here only to be compared with.

use super::explicit_euler::{axpy, rigid_derivative};
use super::ComState;
use super::{RigidIntegrator, RigidLoads, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::{Error, Real, Result};

scheme_with_step_settings!(
    /// Classical RK4 (baseline, see the module docs).
    Rk4
);

impl<T: Real> RigidIntegrator<T> for Rk4<T> {
    #[inline]
    fn step_settings(&self) -> &StepSettings<T> {
        &self.settings
    }

    #[inline]
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        y: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>> {
        let half = h * T::c(0.5);
        let k1 = rigid_derivative(body, loads, y);
        let k2 = rigid_derivative(body, loads, &axpy(y, half, &k1));
        let k3 = rigid_derivative(body, loads, &axpy(y, half, &k2));
        let k4 = rigid_derivative(body, loads, &axpy(y, h, &k3));
        let two = T::c(2.0);
        let sum = ComState {
            r: k1.r + (k2.r + k3.r) * two + k4.r,
            v: k1.v + (k2.v + k3.v) * two + k4.v,
            q: crate::math::Quaternion::new(
                k1.q.w + two * (k2.q.w + k3.q.w) + k4.q.w,
                k1.q.x + two * (k2.q.x + k3.q.x) + k4.q.x,
                k1.q.y + two * (k2.q.y + k3.q.y) + k4.q.y,
                k1.q.z + two * (k2.q.z + k3.q.z) + k4.q.z,
            ),
            w: k1.w + (k2.w + k3.w) * two + k4.w,
        };
        let mut out = axpy(y, h / T::c(6.0), &sum);
        out.q = out.q.normalized().ok_or(Error::NonFiniteState)?;
        Ok(out)
    }
}
