//! One time step of a single rigid body without a system (`mbs_rigid_step`, `mbs_rigid_step_f32`),
//! for the smallest firmware: the caller owns body, loads, settings and state.

use crate::convert::{finite, status_of, FfiResult};
use crate::guard;
use crate::rigid_body::{mbs_rigid_body, mbs_rigid_body_f32, mbs_rigid_body_of};
use crate::rigid_loads::{mbs_rigid_loads, mbs_rigid_loads_f32, mbs_rigid_loads_of};
use crate::rigid_state::{mbs_rigid_state, mbs_rigid_state_f32, mbs_rigid_state_of};
use crate::status::*;
use crate::step_settings::*;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::DefaultMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use mbs_core::state::RigidState;
use mbs_core::Real;

/// `&*p`, or `MBS_ERR_NULL_POINTER` for null.
///
/// # Safety
/// `p` is null or valid and aligned for reads for the returned lifetime.
#[inline(always)]
unsafe fn as_ref<'a, T>(p: *const T) -> FfiResult<&'a T> {
    // SAFETY: the caller's guarantee.
    unsafe { p.as_ref() }.ok_or(crate::status::MBS_ERR_NULL_POINTER)
}

/// Checks `dt`: `MBS_ERR_NOT_FINITE` for NaN/inf, `MBS_ERR_INVALID_TIME_STEP` for `dt <= 0`.
pub fn time_step<T: Real>(dt: T) -> FfiResult<T> {
    if finite(dt)? <= T::zero() {
        return Err(MBS_ERR_INVALID_TIME_STEP);
    }
    Ok(dt)
}

/// The checked pointers and time step of a step: `MBS_ERR_NULL_POINTER` for a null body,
/// loads, settings or state (in that order), then the time step's errors.
///
/// # Safety
/// Each pointer is null or valid and aligned for the returned lifetime.
#[allow(clippy::type_complexity)]
#[inline(always)]
unsafe fn borrow_inputs<'a, T: Real>(
    body: *const mbs_rigid_body_of<T>,
    loads: *const mbs_rigid_loads_of<T>,
    settings: *const mbs_step_settings_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
) -> FfiResult<(
    &'a mbs_rigid_body_of<T>,
    &'a mbs_rigid_loads_of<T>,
    &'a mbs_step_settings_of<T>,
    T,
)> {
    // SAFETY: the caller's guarantees.
    let (b, l, c) = unsafe { (as_ref(body)?, as_ref(loads)?, as_ref(settings)?) };
    if state.is_null() {
        return Err(MBS_ERR_NULL_POINTER);
    }
    Ok((b, l, c, time_step(dt)?))
}

/// The step of `integrator` (built from checked settings) on the caller's state, in place.
///
/// What is checked here is only what the core step cannot check: the body (a sealed one by
/// its checksum, then the validated core body kept in it is borrowed; any other in full) and
/// the damping signs. Everything else, NaN/inf in the state and the loads included, the core
/// step checks itself before it computes anything (one finiteness screen of the sum of the
/// state's and the loads' entries: a NaN/inf anywhere in the C structs reaches them, see
/// [`mbs_rigid_loads_of::to_core_unchecked`]). The core step reads and writes the C state in
/// place ([`mbs_rigid_state_of::core_view_mut`], no copies) and writes it only on success.
/// When anything refuses the step, [`refusal`] names the status in the order of the full
/// checks, so the codes are those of checking every C field first.
///
/// # Safety
/// `state` is non-null, valid and aligned for reads and writes and overlaps none of the other
/// arguments; `info_out` is null or writable.
#[inline(always)]
unsafe fn step_with<T: Real, I: RigidIntegrator<T>>(
    integrator: &I,
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: the caller's guarantees.
    let r = unsafe {
        match body.sealed_core() {
            Some(b) => step_validated(integrator, b, loads, state, dt),
            None => step_unsealed(integrator, body, loads, state, dt),
        }
    };
    match r {
        Ok(info) => {
            if !info_out.is_null() {
                // SAFETY: non-null, writable by the caller's guarantee.
                unsafe { info_out.write(mbs_step_info::of(&info)) };
            }
            status_of_step(&info)
        }
        Err(status) => status,
    }
}

/// A body that is not sealed: validated in full here (its own frame holds the core body, so
/// the sealed path's stack does not pay for it).
///
/// # Safety
/// As [`step_with`].
#[inline(never)]
unsafe fn step_unsealed<T: Real, I: RigidIntegrator<T>>(
    integrator: &I,
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
) -> FfiResult<StepInfo> {
    let b = body.to_core()?;
    // SAFETY: forwarded.
    unsafe { step_validated(integrator, &b, loads, state, dt) }
}

/// The step of a validated core body, in place (see [`step_with`]).
///
/// # Safety
/// As [`step_with`].
#[inline(always)]
unsafe fn step_validated<T: Real, I: RigidIntegrator<T>>(
    integrator: &I,
    b: &RigidBody<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
) -> FfiResult<StepInfo> {
    if loads.has_negative_damping() {
        // SAFETY: `state` is valid for reads (caller).
        return Err(unsafe { refusal(loads, state, MBS_ERR_INVALID_STIFFNESS_DAMPING) });
    }
    // SAFETY: valid, aligned, not aliased by the other arguments (caller); the borrow ends
    // before `refusal` reads the state again.
    let s = unsafe { mbs_rigid_state_of::core_view_mut(state) };
    let l = core_loads(loads, b, s);
    match integrator.step(b, &l, s, dt) {
        Ok(info) => Ok(info),
        // SAFETY: as above; the failed step left the state as it was.
        Err(e) => Err(unsafe { refusal(loads, state, status_of(e)) }),
    }
}

/// [`mbs_rigid_loads_of::to_core_unchecked`] in its own frame: its float temporaries (callee-saved
/// FPU registers) are then not on the stack while the step runs.
#[inline(never)]
fn core_loads<T: Real>(
    loads: &mbs_rigid_loads_of<T>,
    b: &RigidBody<T>,
    s: &RigidState<T>,
) -> RigidLoads<T> {
    loads.to_core_unchecked(b, s)
}

/// The status of a refused step as the full checks, in their order, give it: NaN/inf in the
/// state, NaN/inf in the loads, a negative damping (`MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_STIFFNESS_DAMPING`), else `refused` (the core step's own error, e.g. a
/// quaternion that is not unit or a result that overflowed). Only runs when a step failed.
///
/// # Safety
/// `state` is non-null, valid and aligned for reads.
#[cold]
#[inline(never)]
unsafe fn refusal<T: Real>(
    loads: &mbs_rigid_loads_of<T>,
    state: *const mbs_rigid_state_of<T>,
    refused: MbsStatus,
) -> MbsStatus {
    // SAFETY: the caller's guarantee.
    let s = unsafe { &*state };
    match s.check_finite().and_then(|()| loads.check()) {
        Ok(()) => refused,
        Err(status) => status,
    }
}

/// The midpoint step after the checks of the pointers, `dt` and the settings: shared by
/// `mbs_rigid_step` (integrator `MBS_INTEGRATOR_MIDPOINT`) and `mbs_rigid_midpoint_step`, so
/// both run the same code.
///
/// # Safety
/// As [`step_with`].
#[inline(never)]
pub unsafe fn midpoint_checked<T: Real>(
    integrator: &DefaultMidpoint<T>,
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: forwarded.
    unsafe { step_with(integrator, body, loads, state, dt, info_out) }
}

/// The midpoint step of the checked step settings `st`: the seed's step (the C step settings
/// have no midpoint options), with its options fixed at compile time.
#[inline(always)]
fn midpoint_of<T: Real>(st: StepSettings<T>) -> DefaultMidpoint<T> {
    DefaultMidpoint::new(st)
}

/// A baseline integrator's step after the checks of the pointers, `dt` and the settings (out
/// of line: `mbs_rigid_step`'s own frame stays that of the midpoint's call).
///
/// # Safety
/// As [`step_with`].
#[inline(never)]
unsafe fn baseline_checked<T: Real, I: RigidIntegrator<T>>(
    integrator: I,
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: forwarded.
    unsafe { step_with(&integrator, body, loads, state, dt, info_out) }
}

/// The generic `mbs_rigid_midpoint_step`.
///
/// # Safety
/// As `mbs_rigid_midpoint_step`.
pub unsafe fn midpoint_step<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    loads: *const mbs_rigid_loads_of<T>,
    settings: *const mbs_step_settings_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let r = unsafe { borrow_inputs(body, loads, settings, state, dt) };
        let (b, l, c, dt) = match r {
            Ok(v) => v,
            Err(status) => return status,
        };
        if c.integrator != MBS_INTEGRATOR_MIDPOINT {
            return MBS_ERR_INVALID_ARGUMENT;
        }
        match c.core_step_settings() {
            // SAFETY: forwarded caller guarantees; `state` checked non-null.
            Ok(st) => unsafe { midpoint_checked(&midpoint_of(st), b, l, state, dt, info_out) },
            Err(status) => status,
        }
    })
}

/// The generic `mbs_rigid_step`.
///
/// # Safety
/// As `mbs_rigid_step`.
pub unsafe fn step<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    loads: *const mbs_rigid_loads_of<T>,
    settings: *const mbs_step_settings_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let r = unsafe { borrow_inputs(body, loads, settings, state, dt) };
        let (b, l, c, dt) = match r {
            Ok(v) => v,
            Err(status) => return status,
        };
        let (integrator, st) = match c.to_core() {
            Ok(v) => v,
            Err(status) => return status,
        };
        // SAFETY (every arm): forwarded caller guarantees; `state` checked non-null.
        unsafe {
            match integrator {
                MBS_INTEGRATOR_MIDPOINT => {
                    midpoint_checked(&midpoint_of(st), b, l, state, dt, info_out)
                }
                MBS_INTEGRATOR_EXPLICIT_EULER => {
                    baseline_checked(ExplicitEuler { settings: st }, b, l, state, dt, info_out)
                }
                MBS_INTEGRATOR_SYMPLECTIC_EULER => {
                    baseline_checked(SymplecticEuler { settings: st }, b, l, state, dt, info_out)
                }
                MBS_INTEGRATOR_RK4 => {
                    baseline_checked(Rk4 { settings: st }, b, l, state, dt, info_out)
                }
                _ => MBS_ERR_INVALID_ARGUMENT,
            }
        }
    })
}

/// Advances `*state` of `body` by `dt` (s) under `loads` with the integrator and step control
/// of `settings`. The loads are held over the step (see `mbs_rigid_loads`); the new state has
/// the step-mean accelerations `(v_{n+1} - v_n)/dt`, `(w_{n+1} - w_n)/dt`.
///
/// Returns `MBS_OK`, or the warning `MBS_WARN_STEP_TOO_LARGE` (the state **was** advanced)
/// when some (sub-)step turned by more than `settings->max_rotation_per_step` (`|w| h`): shorten
/// `dt` or set `settings->substep`. `*info_out` (may be NULL) receives the report.
///
/// Errors (state and `*info_out` untouched): `MBS_ERR_NULL_POINTER` (`body`, `loads`,
/// `settings`, `state`), `MBS_ERR_NOT_FINITE` (NaN/inf in `dt`, body, loads, settings or
/// state), `MBS_ERR_INVALID_TIME_STEP` (`dt <= 0`), `MBS_ERR_INVALID_ARGUMENT` (unknown
/// `settings->integrator`), `MBS_ERR_INVALID_SETTING`, `MBS_ERR_INVALID_MASS`,
/// `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_INVALID_ORIENTATION` (quaternion not unit),
/// `MBS_ERR_INVALID_STIFFNESS_DAMPING` (negative damping), `MBS_ERR_SOLVER_FAILED`,
/// `MBS_ERR_NON_FINITE_STATE` (the result overflowed).
///
/// Every call validates all its inputs. A body sealed by `mbs_rigid_body_init`,
/// `mbs_body_cylinder_init` or `mbs_rigid_body_validate` is checked by its checksum (any field
/// changed since is caught); any other body is validated in full (inertia symmetric, positive
/// definite, triangle inequality: an eigenvalue computation, on the Cortex-M4F about as much
/// as the step itself), so nothing unchecked slips through either way.
///
/// Links all four integrators (the choice is made at run time): a firmware that only uses
/// the midpoint step calls `mbs_rigid_midpoint_step` instead (the same code for
/// `MBS_INTEGRATOR_MIDPOINT`, bit for bit, without the other three).
///
/// # Safety
/// Each pointer is null or valid and aligned; `state` overlaps none of the other arguments;
/// `info_out` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_step(
    body: *const mbs_rigid_body,
    loads: *const mbs_rigid_loads,
    settings: *const mbs_step_settings,
    state: *mut mbs_rigid_state,
    dt: f64,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { step(body, loads, settings, state, dt, info_out) }
}

/// `mbs_rigid_step` in single precision: the same generic code instantiated with `float`.
/// On a Cortex-M4F (single-precision FPU, double in software) the midpoint step is 12 to 40
/// times cheaper in float than in double (docs/embedded.md).
///
/// # Safety
/// As `mbs_rigid_step` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_step_f32(
    body: *const mbs_rigid_body_f32,
    loads: *const mbs_rigid_loads_f32,
    settings: *const mbs_step_settings_f32,
    state: *mut mbs_rigid_state_f32,
    dt: f32,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { step(body, loads, settings, state, dt, info_out) }
}
