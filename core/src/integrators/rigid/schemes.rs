//! The rigid schemes by name ([`RigidScheme`]) and the one table that builds each from its
//! step settings ([`with_rigid_scheme!`](crate::with_rigid_scheme)): the midpoint step, its
//! mean-rate variant ([`MidpointMeanRate`]), and the baselines. All go through the rigid
//! driver ([`RigidIntegrator::step`]): checks, centre-of-mass mapping, rotation bound and
//! sub-stepping, state written only on success.

use crate::bodies::rigid_body::RigidBody;
use crate::integrators::rigid::com_state::renormalize_near_unit;
use crate::integrators::rigid::driver::{step, RigidIntegrator};
use crate::integrators::rigid::midpoint::{self, MidpointSettings};
use crate::integrators::rigid::{ComState, RigidLoads, StepInfo, StepSettings};
use crate::math::Quaternion;
use crate::state::RigidState;
use crate::{Real, Result};

/// The scheme of the rigid bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum RigidScheme {
    /// The linearly implicit midpoint step with its default options
    /// ([`DefaultMidpoint`](crate::integrators::rigid::midpoint::DefaultMidpoint)):
    /// orientation turned by the end rate, `q' = q exp(h w')` (orientation order 1).
    Midpoint,
    /// The midpoint step's angular-velocity update (same `w'`, same energy and `|L|` behaviour) with the
    /// orientation turned by the mean rate, `q' = q exp(h (w + w')/2)`: orientation order 2, so
    /// that forces depending on the orientation (off-centre springs, body-fixed torques) keep
    /// the coupled scheme second order. The default.
    #[default]
    MidpointMeanRate,
    /// Baseline: explicit Euler (order 1, energy grows).
    ExplicitEuler,
    /// Baseline: semi-implicit Euler (order 1).
    SymplecticEuler,
    /// Baseline: classical Runge-Kutta 4 (order 4, not structure preserving).
    Rk4,
}

/// [`RigidScheme::MidpointMeanRate`]: the midpoint step for the velocities
/// (`(M/h + R - K/2) dV = F - [0; w x I w] - R V`, see [`midpoint`]), then `r' = r + h v'`
/// and `q' = q exp(h (w + w')/2)` (the mean of the start and end body rates), with every
/// input checked up front.
pub struct MidpointMeanRate<T> {
    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    pub step: StepSettings<T>,
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
/// from the step settings `$settings`: one match, then code generic over the scheme. The one
/// table of the rigid schemes: the system's schemes and the C API's rigid step use it.
#[macro_export]
macro_rules! with_rigid_scheme {
    ($scheme:expr, $settings:expr, |$s:ident| $body:expr) => {{
        use $crate::integrators::rigid::explicit_euler::ExplicitEuler;
        use $crate::integrators::rigid::midpoint::DefaultMidpoint;
        use $crate::integrators::rigid::rk4::Rk4;
        use $crate::integrators::rigid::schemes::{MidpointMeanRate, RigidScheme};
        use $crate::integrators::rigid::symplectic_euler::SymplecticEuler;
        let settings = $settings;
        match $scheme {
            // LinearlyImplicitMidpoint::with_step_settings, bit for bit, without the options' code.
            RigidScheme::Midpoint => {
                let $s = &DefaultMidpoint::new(settings);
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
            // The default. The wildcard matches no other variant: it makes the match exhaustive
            // outside this crate, where `RigidScheme` is `#[non_exhaustive]`.
            #[allow(unreachable_patterns)]
            RigidScheme::MidpointMeanRate | _ => {
                let $s = &MidpointMeanRate { step: settings };
                $body
            }
        }
    }};
}

/// Advances `state` by `h` (s) under `loads` (held over the step) with `scheme`.
pub fn rigid_step<T: Real>(
    scheme: RigidScheme,
    settings: &StepSettings<T>,
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    state: &mut RigidState<T>,
    h: T,
) -> Result<StepInfo> {
    crate::with_rigid_scheme!(scheme, *settings, |s| step(s, body, loads, state, h))
}
