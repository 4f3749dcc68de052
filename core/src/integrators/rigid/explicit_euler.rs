//! Baseline: explicit (forward) Euler on `[r, v, q, w]` with the quaternion kinematics
//! `q_dot = 1/2 q [0, w_b]`, quaternion renormalized after the step.
//!
//! ```text
//! r' = r + dt v,   v' = v + dt (f - R_lin v)/m,
//! q' = normalize(q + dt/2 q [0, w]),   w' = w + dt I^-1 (tau - w x I w - R_ang w)
//! ```
//!
//! Order 1. Torque-free its kinetic energy and `|L|` **grow** every step (the explicit
//! gyroscopic update moves `w` along the tangent of the energy ellipsoid, leaving it outward);
//! the resistance is explicit and unstable for `dt c/m > 2`. Here only to be compared with.

use super::ComState;
use super::{RigidIntegrator, RigidLoads, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::math::Quaternion;
use crate::{Error, Real, Result};

scheme_with_step_settings!(
    /// Explicit Euler (baseline, see the module docs).
    ExplicitEuler
);

impl<T: Real> RigidIntegrator<T> for ExplicitEuler<T> {
    #[inline]
    fn step_settings(&self) -> &StepSettings<T> {
        &self.settings
    }

    #[inline]
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        s: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>> {
        let d = rigid_derivative(body, loads, s);
        let q = Quaternion::new(
            s.q.w + h * d.q.w,
            s.q.x + h * d.q.x,
            s.q.y + h * d.q.y,
            s.q.z + h * d.q.z,
        );
        Ok(ComState {
            r: s.r + d.r * h,
            v: s.v + d.v * h,
            q: q.normalized().ok_or(Error::NonFiniteState)?,
            w: s.w + d.w * h,
        })
    }
}

/// The time derivative of the COM state under constant `loads`: `[v, (f - R_lin v)/m,
/// 1/2 q [0, w], I^-1 (tau - w x I w - R_ang w)]` (the fields of the returned [`ComState`]
/// hold the rates: m/s, m/s^2, 1/s, rad/s^2).
// Inline hint only: RK4 evaluates it four times, and forced inline copies would quadruple
// its code in a firmware that links the baselines.
#[inline]
pub fn rigid_derivative<T: Real>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    s: &ComState<T>,
) -> ComState<T> {
    let w = &s.w;
    let iw = body.inertia() * w;
    // Zero resistance (a bit test) drops its terms: `x - 0 = x`, the same bits.
    let mut tau = loads.torque - w.cross(&iw);
    if !crate::finite::all_zero(&loads.angular_resistance) {
        tau -= loads.angular_resistance * w;
    }
    let wdot = body.inertia_inverse() * tau;
    let vdot = if crate::finite::all_zero(&loads.linear_resistance) {
        loads.force / body.mass()
    } else {
        (loads.force - loads.linear_resistance * s.v) / body.mass()
    };
    let half = T::c(0.5);
    let qdot = s.q.mul(&Quaternion::new(
        T::zero(),
        w.x * half,
        w.y * half,
        w.z * half,
    ));
    ComState {
        r: s.v,
        v: vdot,
        q: qdot,
        w: wdot,
    }
}

/// `y + h k` for COM states holding values (`y`) and rates (`k`), the quaternion unnormalized.
#[inline]
pub fn axpy<T: Real>(y: &ComState<T>, h: T, k: &ComState<T>) -> ComState<T> {
    ComState {
        r: y.r + k.r * h,
        v: y.v + k.v * h,
        q: Quaternion::new(
            y.q.w + h * k.q.w,
            y.q.x + h * k.q.x,
            y.q.y + h * k.q.y,
            y.q.z + h * k.q.z,
        ),
        w: y.w + k.w * h,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Vector3};

    /// Zero resistance takes the short path of `rigid_derivative`; a tiny one (1e-300, the
    /// general path) gives the same bits, so both paths compute the same rates.
    #[test]
    fn zero_and_tiny_resistance_give_the_same_rates() {
        let body = RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
        let s = ComState {
            r: Vector3::new(1.0, 2.0, 3.0),
            v: Vector3::new(0.3, -0.1, 0.2),
            q: Quaternion::exp(&Vector3::new(0.1, 0.2, -0.3)),
            w: Vector3::new(0.7, -1.3, 2.1),
        };
        let free = RigidLoads::none()
            .with_force(Vector3::new(1.0, -2.0, 0.5))
            .with_torque(Vector3::new(0.1, 0.0, -0.2));
        let mut tiny = free;
        tiny.linear_resistance = Matrix3::identity() * 1e-300;
        tiny.angular_resistance = Matrix3::identity() * 1e-300;
        assert_eq!(
            rigid_derivative(&body, &free, &s),
            rigid_derivative(&body, &tiny, &s)
        );
        // And the resistance does act on the general path.
        let damped = free.with_linear_damping(0.5).with_angular_damping(0.5);
        let d = rigid_derivative(&body, &damped, &s);
        let f = rigid_derivative(&body, &free, &s);
        assert!((d.v - (f.v - s.v * 0.25)).norm() < 1e-15);
        assert!((d.w - f.w).norm() > 0.1);
    }
}
