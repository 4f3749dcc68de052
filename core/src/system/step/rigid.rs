//! One step of one rigid body with the scheme [`RigidScheme`] chooses: the midpoint step,
//! its mean-rate variant, or a baseline. All go through the rigid driver
//! ([`RigidIntegrator::step`]): checks, centre-of-mass mapping, rotation bound and
//! sub-stepping, state written only on success.

use crate::bodies::rigid_body::RigidBody;
use crate::integrators::rigid::com_state::renormalize_near_unit;
use crate::integrators::rigid::driver::step;
use crate::integrators::rigid::midpoint::{self, MidpointSettings};
use crate::integrators::rigid::ComState;
use crate::integrators::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use crate::math::Quaternion;
use crate::state::RigidState;
use crate::system::settings::RigidScheme;
use crate::{Real, Result};

/// [`RigidScheme::MidpointMeanRate`]: the midpoint step for the velocities
/// (`(M/h + R - K/2) dV = F - [0; w x I w] - R V`, see [`midpoint`]), then `r' = r + h v'`
/// and `q' = q exp(h (w + w')/2)` (the mean of the start and end body rates), with every
/// input checked up front.
pub(crate) struct MidpointMeanRate<T> {
    pub(crate) step: StepSettings<T>,
}

impl<T: Real> RigidIntegrator<T> for MidpointMeanRate<T> {
    #[inline]
    fn step_settings(&self) -> &StepSettings<T> {
        &self.step
    }

    #[inline]
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        s: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>> {
        let mut n = midpoint::substep(body, loads, &MidpointSettings::default(), s, h)?;
        let turn = (s.w + n.w) * (h * T::c(0.5));
        n.q = renormalize_near_unit(&s.q.mul(&Quaternion::exp(&turn)));
        Ok(n)
    }
}

/// Evaluates `$body` with `$s` bound to the scheme `$scheme` (a [`RigidScheme`]) names, built
/// from the step settings `$settings`: one match, then code generic over the scheme.
macro_rules! with_rigid_scheme {
    ($scheme:expr, $settings:expr, |$s:ident| $body:expr) => {{
        use $crate::integrators::rigid::explicit_euler::ExplicitEuler;
        use $crate::integrators::rigid::midpoint::DefaultMidpoint;
        use $crate::integrators::rigid::rk4::Rk4;
        use $crate::integrators::rigid::symplectic_euler::SymplecticEuler;
        use $crate::system::settings::RigidScheme;
        let settings = $settings;
        match $scheme {
            // LinearlyImplicitMidpoint::with_step_settings, bit for bit, without the options' code.
            RigidScheme::Midpoint => {
                let $s = &DefaultMidpoint::new(settings);
                $body
            }
            RigidScheme::MidpointMeanRate => {
                let $s = &$crate::system::step::rigid::MidpointMeanRate { step: settings };
                $body
            }
            RigidScheme::ExplicitEuler => {
                let $s = &ExplicitEuler { settings };
                $body
            }
            RigidScheme::SymplecticEuler => {
                let $s = &SymplecticEuler { settings };
                $body
            }
            RigidScheme::Rk4 => {
                let $s = &Rk4 { settings };
                $body
            }
        }
    }};
}
pub(crate) use with_rigid_scheme;

/// Advances `state` by `h` (s) under `loads` (held over the step) with `scheme`.
pub fn rigid_step<T: Real>(
    scheme: RigidScheme,
    settings: &StepSettings<T>,
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    state: &mut RigidState<T>,
    h: T,
) -> Result<StepInfo> {
    with_rigid_scheme!(scheme, *settings, |s| step(s, body, loads, state, h))
}
