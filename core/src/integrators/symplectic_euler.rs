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

use super::midpoint::translation_increment;
use super::rigid_driver::{advance, renormalize_near_unit, ComState};
use super::solve3::solve3;
use super::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::math::Quaternion;
use crate::nodes::rigid::RigidState;
use crate::{Error, Real, Result};

/// Semi-implicit Euler (baseline, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SymplecticEuler<T> {
    /// Rotation-per-step bound and sub-stepping.
    pub settings: StepSettings<T>,
}

impl<T: Real> Default for SymplecticEuler<T> {
    fn default() -> Self {
        Self {
            settings: StepSettings::default(),
        }
    }
}

impl<T: Real> RigidIntegrator<T> for SymplecticEuler<T> {
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo> {
        advance(body, loads, &self.settings, state, dt, |s, h| {
            let w = &s.w;
            let i = body.inertia();
            let ra = &loads.angular_resistance;
            let rhs = (loads.torque - w.cross(&(i * w)) - ra * w) * h;
            let dw = solve3(&(i + ra * h), &rhs).ok_or(Error::SolverFailed)?;
            let w1 = w + dw;
            let v1 = s.v
                + translation_increment(
                    body.mass(),
                    &loads.linear_resistance,
                    &loads.force,
                    &s.v,
                    h,
                )?;
            Ok(ComState {
                r: s.r + v1 * h,
                v: v1,
                q: renormalize_near_unit(&s.q.mul(&Quaternion::exp(&(w1 * h)))),
                w: w1,
            })
        })
    }
}
