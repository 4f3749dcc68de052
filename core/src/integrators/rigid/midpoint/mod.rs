//! The linearly implicit midpoint step of a rigid body: a Rosenbrock step with the exact
//! Jacobian of the gyroscopic term (Hairer & Wanner, *Solving Ordinary Differential Equations
//! II*, IV.7), the resistance implicit, every other load held at its start value.
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
//! ([`translation`]) and the rotation `(I + dt R_ang - dt/2 K) dw = dt (tau - w x I w -
//! R_ang w)` ([`rotation`]), whose matrix is not symmetric for unequal moments; it is solved by
//! the adjugate when well conditioned, else by elimination with partial pivoting
//! ([`solve3_adjugate_inline`]). `I` may be any symmetric positive definite tensor. Torque-free
//! the step keeps the kinetic energy and `|L|` to second order in `dt`.
//!
//! Options ([`MidpointSettings`], defaults first): the orientation turned by the end rate or
//! the mean rate ([`OrientationUpdate`]), the resistance backward Euler or trapezoidal
//! ([`Resistance`]), no projection or a projection of `w'` onto the torque-free invariants
//! ([`Invariants`]). Two schemes run the step: [`LinearlyImplicitMidpoint`] with options
//! chosen at run time, [`DefaultMidpoint`] with the defaults fixed when it is compiled (a
//! program that never chooses them links none of their code).
//!
//! What to keep small (the limits, their closed forms and measurements are in
//! `docs/midpoint.md`):
//! - `|w| dt` below about 0.5 rad: beyond it the gyroscopic term is not resolved. The step
//!   reports [`StepStatus::StepTooLarge`](super::StepStatus) above
//!   [`StepSettings::max_rotation_per_step`] and sub-steps on request.
//! - Held state-dependent loads (springs, dampers, controllers evaluated at the start of the
//!   step): with `theta = dt sqrt(k/m)` the end-rate coupling is stable for
//!   `theta < 2 (sqrt(1 + zeta^2) - zeta)`; the mean-rate update with a held undamped
//!   torsional spring is unstable at every `dt`. Declare the load frequency in
//!   [`StepSettings::load_frequency`] to have the step report it.
//! - Piecewise-constant inputs (zero-order hold) have no stability limit.

pub mod projection;
pub mod rotation;
pub mod settings;
pub mod translation;

pub use settings::{Invariants, MidpointSettings, OrientationUpdate, Resistance};

use super::com_state::renormalize_near_unit;
use super::{ComState, RigidIntegrator, RigidLoads, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::math::solve3::solve3_adjugate_inline;
use crate::{Error, Real, Result};
use projection::project_onto_levels;
use rotation::rotation_system;
use translation::translation_increment;

/// The midpoint step with the options of its [`MidpointSettings`], chosen at run time.
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
    /// The step with default settings (`|w| dt` bound 0.5 rad, no sub-stepping).
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
            settings: MidpointSettings::default().with_step(step),
        }
    }
}

impl<T: Real> RigidIntegrator<T> for LinearlyImplicitMidpoint<T> {
    const SCREENS_INPUTS_BY_RESULT: bool = true;
    const SMALL_TURNS_KEEP_ORIENTATION_FINITE: bool = true;

    #[inline]
    fn step_settings(&self) -> &StepSettings<T> {
        &self.settings.step
    }

    #[inline]
    fn validate(&self) -> Result<()> {
        self.settings.validate()
    }

    #[inline]
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        s: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>> {
        substep(body, loads, &self.settings, s, h)
    }
}

/// The midpoint step with the default options fixed when it is compiled (end rate, backward
/// Euler resistance, no projection): the same results, bit for bit, and the same errors as
/// `LinearlyImplicitMidpoint::with_step_settings(step)`, without the other options' code.
/// The C API's steps run it (its step settings have no option fields).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DefaultMidpoint<T> {
    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    pub step: StepSettings<T>,
}

impl<T: Real> DefaultMidpoint<T> {
    /// The step with the shared step settings `step`.
    pub fn new(step: StepSettings<T>) -> Self {
        Self { step }
    }

    /// The same step as a [`LinearlyImplicitMidpoint`] (its options at their defaults).
    pub fn with_options(&self) -> LinearlyImplicitMidpoint<T> {
        LinearlyImplicitMidpoint::with_step_settings(self.step)
    }
}

impl<T: Real> RigidIntegrator<T> for DefaultMidpoint<T> {
    const SCREENS_INPUTS_BY_RESULT: bool = true;
    const SMALL_TURNS_KEEP_ORIENTATION_FINITE: bool = true;

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
        substep(body, loads, &MidpointSettings::default(), s, h)
    }
}

/// One midpoint step of length `h` (s) of the COM state `s` with the options of `o` (module
/// docs). `SolverFailed` if the rotation's or the translation's matrix is singular.
///
/// A NaN or infinity in any input it reads reaches the result or fails it (what
/// [`RigidIntegrator::SCREENS_INPUTS_BY_RESULT`] claims): `r' = (r + R c) + v' h - R' c` is a
/// sum in `r`; the force, the torque and the resistance matrices enter numerators
/// (`dv_i = h (f_i - R_ii v_i) / (m + h R_ii)`, `h f / m`) or the right-hand side of a 3x3
/// solve, and a 3x3 solve with a non-finite right-hand side never returns `Some` (Cramer's
/// `x_i = (c_i . b) / det` and the elimination's substitutions carry it into `x`, and both
/// end in a finiteness test). A non-finite entry is not exactly zero, so the bit tests for
/// zero structure send it to the general paths, and the projection (which runs only for a
/// torque and `R_ang` exactly zero) cannot hide a bad `w` (its acceleration takes `w`).
// Inlined into each scheme's `substep`: with constant options (`DefaultMidpoint`) none of the
// other options' code is linked (the firmware flash guard).
#[inline(always)]
pub fn substep<T: Real>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    o: &MidpointSettings<T>,
    s: &ComState<T>,
    h: T,
) -> Result<ComState<T>> {
    let theta = match o.resistance {
        Resistance::Implicit => T::one(),
        Resistance::Trapezoidal => T::c(0.5),
    };
    // Rotation (body frame).
    let inertia = body.inertia();
    let (a, rhs) = rotation_system(
        inertia,
        &loads.angular_resistance,
        &loads.torque,
        &s.w,
        h,
        theta,
    );
    let dw = solve3_adjugate_inline(&a, &rhs).ok_or(Error::SolverFailed)?;
    let mut w1 = s.w + dw;
    if o.invariants == Invariants::Project && torque_free(loads) {
        let [two_e, l2] = match o.projection_levels {
            Some(l) => l,
            None => {
                let l0 = inertia * s.w;
                [s.w.dot(&l0), l0.dot(&l0)]
            }
        };
        w1 = project_onto_levels(inertia, &w1, two_e, l2);
    }
    // Translation (world frame).
    let v1 = s.v
        + translation_increment(
            body.mass(),
            &loads.linear_resistance,
            &loads.force,
            &s.v,
            h,
            theta,
        )?;
    let r1 = s.r + v1 * h;
    let turn = match o.orientation {
        OrientationUpdate::EndRate => w1 * h,
        OrientationUpdate::MeanRate => (s.w + w1) * (h * T::c(0.5)),
    };
    // Renormalized before the turn, not after: the factor (3 - |q|^2)/2 depends only on the
    // start orientation, so the product is the last operation of the step (a shorter chain of
    // dependent operations). `|q'|^2 - 1` is then the rounding of the product plus
    // `|exp|^2 - 1`, a few EPS, and the next step takes it out again: it does not accumulate.
    let q1 = renormalize_near_unit(&s.q).mul_exp_inline(&turn);
    Ok(ComState {
        r: r1,
        v: v1,
        q: q1,
        w: w1,
    })
}

/// `true` if the body torque and the angular resistance are exactly zero: the rotation is then
/// torque-free and keeps `w.Iw` and `|Iw|` (a force at the COM does not turn the body).
#[inline]
pub fn torque_free<T: Real>(loads: &RigidLoads<T>) -> bool {
    let z = T::zero();
    loads.torque.iter().all(|x| *x == z) && loads.angular_resistance.iter().all(|x| *x == z)
}
