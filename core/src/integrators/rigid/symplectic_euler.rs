//! Baseline: semi-implicit (symplectic) Euler, what game engines do: velocities first with the
//! gyroscopic torque explicit and the damping implicit, then the pose from the new velocities.
//!
//! ```text
//! (m E3 + dt R_lin) dv = dt (f - R_lin v),          v' = v + dv
//! (I + dt R_ang) dw    = dt (tau - w x I w - R_ang w), w' = w + dw
//! r' = r + dt v',   q' = q exp(dt w')  (renormalized)
//! ```
//!
//! It is the midpoint step of [`midpoint`](super::midpoint) with `K = 0`: order 1, and
//! torque-free its energy and `|L|` drift (they grow: the explicit gyroscopic update leaves the
//! energy ellipsoid outward), which engines hide by rescaling `|L|`. Here only to be
//! compared with.

use super::com_state::renormalize_near_unit;
use super::midpoint::translation::translation_increment;
use super::ComState;
use super::{RigidIntegrator, RigidLoads, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::math::solve3::solve3;
use crate::math::Quaternion;
use crate::{Error, Real, Result};

scheme_with_step_settings!(
    /// Semi-implicit Euler (baseline, see the module docs).
    SymplecticEuler
);

impl<T: Real> RigidIntegrator<T> for SymplecticEuler<T> {
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
        let w = &s.w;
        let i = body.inertia();
        let ra = &loads.angular_resistance;
        // Zero resistance (a bit test) drops its terms: the same bits.
        let (rhs, a) = if crate::finite::all_zero(ra) {
            ((loads.torque - w.cross(&(i * w))) * h, *i)
        } else {
            ((loads.torque - w.cross(&(i * w)) - ra * w) * h, i + ra * h)
        };
        let dw = solve3(&a, &rhs).ok_or(Error::SolverFailed)?;
        let w1 = w + dw;
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
    use crate::state::RigidState;
    use nalgebra::{Matrix3, Vector3};

    /// The zero-resistance path of the step gives the bits of the general path (a tiny
    /// resistance of 1e-300, which changes nothing representable).
    #[test]
    fn zero_and_tiny_resistance_give_the_same_step() {
        let body = RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
        let s0 = RigidState::new(
            Vector3::new(1.0, 2.0, 3.0),
            Quaternion::exp(&Vector3::new(0.1, 0.2, -0.3)),
            Vector3::new(0.3, -0.1, 0.2),
            Vector3::new(0.7, -1.3, 2.1),
        );
        let free = RigidLoads::none()
            .with_force(Vector3::new(1.0, -2.0, 0.5))
            .with_torque(Vector3::new(0.1, 0.0, -0.2));
        let mut tiny = free;
        tiny.linear_resistance = Matrix3::identity() * 1e-300;
        tiny.angular_resistance = Matrix3::identity() * 1e-300;
        let (mut a, mut b) = (s0, s0);
        let step = SymplecticEuler::default();
        for _ in 0..100 {
            step.step(&body, &free, &mut a, 1e-3).unwrap();
            step.step(&body, &tiny, &mut b, 1e-3).unwrap();
        }
        assert_eq!(a, b);
        assert!((a.angular_velocity - s0.angular_velocity).norm() > 1e-3);
    }
}
