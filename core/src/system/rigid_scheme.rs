//! One step of one rigid body with the scheme [`RigidScheme`] chooses: the seed midpoint, its
//! mean-rate variant, or a baseline. All go through the rigid driver
//! ([`advance`](crate::integrators::rigid_driver::advance)): checks, centre-of-mass mapping,
//! rotation bound and sub-stepping, state written only on success.

use super::settings::RigidScheme;
use crate::bodies::rigid_body::RigidBody;
use crate::integrators::explicit_euler::ExplicitEuler;
use crate::integrators::midpoint::midpoint_substep;
use crate::integrators::rigid_driver::{advance, renormalize_near_unit};
use crate::integrators::rk4::Rk4;
use crate::integrators::seed_midpoint::SeedMidpoint;
use crate::integrators::symplectic_euler::SymplecticEuler;
use crate::integrators::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use crate::math::Quaternion;
use crate::nodes::rigid::RigidState;
use crate::{Real, Result};

/// Advances `state` by `h` (s) under `loads` (held over the step) with `scheme`.
///
/// [`RigidScheme::MidpointMeanRate`]: the seed's step for the velocities
/// (`(M/h + R - K/2) dV = F - [0; w x I w] - R V`, see
/// [`midpoint`](crate::integrators::midpoint)), then `r' = r + h v'` and
/// `q' = q exp(h (w + w')/2)` (the mean of the start and end body rates).
pub fn rigid_step<T: Real>(
    scheme: RigidScheme,
    settings: &StepSettings<T>,
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    state: &mut RigidState<T>,
    h: T,
) -> Result<StepInfo> {
    match scheme {
        // LinearlyImplicitMidpoint::with_step_settings, bit for bit, without the options' code.
        RigidScheme::Midpoint => SeedMidpoint::new(*settings).step(body, loads, state, h),
        RigidScheme::MidpointMeanRate => advance(body, loads, settings, state, h, |s, hs| {
            let mut n = midpoint_substep(body, loads, s, hs)?;
            let turn = (s.w + n.w) * (hs * T::c(0.5));
            n.q = renormalize_near_unit(&s.q.mul(&Quaternion::exp(&turn)));
            Ok(n)
        }),
        RigidScheme::ExplicitEuler => ExplicitEuler {
            settings: *settings,
        }
        .step(body, loads, state, h),
        RigidScheme::SymplecticEuler => SymplecticEuler {
            settings: *settings,
        }
        .step(body, loads, state, h),
        RigidScheme::Rk4 => Rk4 {
            settings: *settings,
        }
        .step(body, loads, state, h),
    }
}
