//! One time step of a single rigid body without a system, for the smallest firmware
//! (`mbs_rigid_step`, `mbs_rigid_midpoint_step`, and their `_f32` twins): the caller owns
//! body, loads, settings and state, and the state is stepped in place.
//!
//! ```text
//! mbs_rigid_midpoint_step[_f32] -> midpoint_step: check pointers, dt, settings; the body
//!   -> run: the loads, core's step, the report
//!     -> driver::step (core): check, map to the COM, step or sub-step, check and write
//!       -> DefaultMidpoint::substep (core): the scheme's equations
//! ```
//!
//! `mbs_rigid_step` chooses the integrator at run time (`step` -> `run`, the same chain) and so
//! links all five; `mbs_rigid_midpoint_step` links the midpoint step only.

use crate::boundary::{guard, non_null, time_step, FfiResult};
use crate::rigid::body::{mbs_rigid_body, mbs_rigid_body_f32, mbs_rigid_body_of};
use crate::rigid::loads::{mbs_rigid_loads, mbs_rigid_loads_f32, mbs_rigid_loads_of};
use crate::rigid::scheme::MBS_RIGID_SCHEME_MIDPOINT;
use crate::rigid::state::{mbs_rigid_state, mbs_rigid_state_f32, mbs_rigid_state_of};
use crate::rigid::step_settings::*;
use crate::status::status_of;
use crate::status::*;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::driver;
use mbs_core::integrators::rigid::midpoint::DefaultMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use mbs_core::state::RigidState;
use mbs_core::Real;

/// The pointers and the time step of a step, checked: `MBS_ERR_NULL_POINTER` for a null body,
/// loads, settings or state, then the time step's errors.
///
/// # Safety
/// Each pointer is null or valid and aligned for the returned lifetime.
#[allow(clippy::type_complexity)]
unsafe fn inputs<'a, T: Real>(
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
    let (b, l, c) = unsafe { (non_null(body)?, non_null(loads)?, non_null(settings)?) };
    if state.is_null() {
        return Err(MBS_ERR_NULL_POINTER);
    }
    Ok((b, l, c, time_step(dt)?))
}

/// The generic `mbs_rigid_midpoint_step`: the checks of the pointers, `dt` and the settings,
/// then `run` with the midpoint step.
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
        let (b, l, c, dt) = match unsafe { inputs(body, loads, settings, state, dt) } {
            Ok(v) => v,
            Err(status) => return status,
        };
        if c.integrator != MBS_RIGID_SCHEME_MIDPOINT {
            return MBS_ERR_INVALID_ARGUMENT;
        }
        match c.core_step_settings() {
            // SAFETY: forwarded caller guarantees; `state` checked non-null.
            Ok(st) => unsafe { run(&DefaultMidpoint::new(st), b, l, state, dt, info_out) },
            Err(status) => status,
        }
    })
}

/// The generic `mbs_rigid_step`: the checks of the pointers, `dt` and the settings, then
/// `run` with the integrator the settings name.
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
        let (b, l, c, dt) = match unsafe { inputs(body, loads, settings, state, dt) } {
            Ok(v) => v,
            Err(status) => return status,
        };
        let (scheme, settings) = match c.to_core() {
            Ok(v) => v,
            Err(status) => return status,
        };
        // SAFETY: forwarded caller guarantees; `state` checked non-null.
        mbs_core::with_rigid_scheme!(scheme, settings, |s| unsafe {
            run(s, b, l, state, dt, info_out)
        })
    })
}

/// The step of `scheme` on the caller's state, in place, and its report.
///
/// What is checked here is only what core's step cannot check: the body (a sealed one by its
/// checksum, then the validated core body kept in it is borrowed; any other in full,
/// [`run_unsealed`]) and the damping signs. Everything else, NaN/inf in the state and the
/// loads included, core's step checks before it computes anything (a NaN/inf anywhere in the
/// C structs reaches it, see [`mbs_rigid_loads_of::to_core_unchecked`]). Core's step reads and
/// writes the C state in place ([`mbs_rigid_state_of::core_view_mut`]) and writes it only on
/// success. When anything refuses the step, [`refusal`] names the status in the order of the
/// full checks, so the codes are those of checking every C field first.
///
/// # Safety
/// `state` is non-null, valid and aligned for reads and writes and overlaps none of the other
/// arguments; `info_out` is null or writable.
// Out of line: one copy of each scheme's step serves `mbs_rigid_step` and
// `mbs_rigid_midpoint_step`, and `mbs_rigid_step`'s frame stays small.
#[inline(never)]
unsafe fn run<T: Real, S: RigidIntegrator<T>>(
    scheme: &S,
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    let b = match body.sealed_core() {
        Some(b) => b,
        // SAFETY: forwarded caller guarantees.
        None => return unsafe { run_unsealed(scheme, body, loads, state, dt, info_out) },
    };
    if loads.has_negative_damping() {
        // SAFETY: `state` is valid for reads (caller).
        return unsafe { refusal(loads, state, MBS_ERR_INVALID_STIFFNESS_DAMPING) };
    }
    // SAFETY: valid, aligned, not aliased by the other arguments (caller); the borrow ends
    // before `refusal` reads the state again.
    let s = unsafe { mbs_rigid_state_of::core_view_mut(state) };
    let l = core_loads(loads, b, s);
    match driver::step(scheme, b, &l, s, dt) {
        Ok(info) => {
            if !info_out.is_null() {
                // SAFETY: non-null, writable by the caller's guarantee.
                unsafe { info_out.write(mbs_step_info::of(&info)) };
            }
            status_of_step(&info)
        }
        // SAFETY: as above; the failed step left the state as it was.
        Err(e) => unsafe { refusal(loads, state, status_of(e)) },
    }
}

/// [`run`] of a body that is not sealed: validated in full, then sealed in this frame (so
/// the sealed path's stack does not hold a second body), and stepped.
///
/// # Safety
/// As [`run`].
#[inline(never)]
unsafe fn run_unsealed<T: Real, S: RigidIntegrator<T>>(
    scheme: &S,
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    state: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    match body.to_core() {
        // SAFETY: forwarded.
        Ok(b) => unsafe {
            run(
                scheme,
                &mbs_rigid_body_of::of(&b),
                loads,
                state,
                dt,
                info_out,
            )
        },
        Err(status) => status,
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
/// definite, triangle inequality: an eigenvalue computation, about as costly as the step
/// itself), so nothing unchecked slips through either way.
///
/// Links all four integrators (the choice is made at run time): a firmware that only uses
/// the midpoint step calls `mbs_rigid_midpoint_step` instead (the same code for
/// `MBS_RIGID_SCHEME_MIDPOINT`, bit for bit, without the other three).
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

/// `mbs_rigid_step` in single precision: the same generic code instantiated with `float`,
/// for an FPU without double (a Cortex-M4F).
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

/// Advances `*state` of `body` by `dt` (s) under `loads` with the linearly implicit midpoint
/// step and the step control of `settings` (`settings->integrator` must be
/// `MBS_RIGID_SCHEME_MIDPOINT`, as `mbs_step_settings_default` sets it). Arguments, results and
/// errors as `mbs_rigid_step`, and the same trajectory bit for bit; the difference is what a
/// firmware links: `mbs_rigid_step` chooses the integrator at run time and so links all four,
/// this function only the midpoint step.
///
/// Errors (state and `*info_out` untouched): `MBS_ERR_NULL_POINTER` (`body`, `loads`,
/// `settings`, `state`), `MBS_ERR_NOT_FINITE` (NaN/inf in `dt`, body, loads, settings or
/// state), `MBS_ERR_INVALID_TIME_STEP` (`dt <= 0`), `MBS_ERR_INVALID_ARGUMENT`
/// (`settings->integrator` is not `MBS_RIGID_SCHEME_MIDPOINT`), `MBS_ERR_INVALID_SETTING`,
/// `MBS_ERR_INVALID_MASS`, `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_INVALID_ORIENTATION`,
/// `MBS_ERR_INVALID_STIFFNESS_DAMPING` (negative damping), `MBS_ERR_SOLVER_FAILED`,
/// `MBS_ERR_NON_FINITE_STATE` (the result overflowed).
///
/// On a Cortex-M4F, use `mbs_rigid_midpoint_step_f32` (double is soft float there).
///
/// # Safety
/// Each pointer is null or valid and aligned; `state` overlaps none of the other arguments;
/// `info_out` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_midpoint_step(
    body: *const mbs_rigid_body,
    loads: *const mbs_rigid_loads,
    settings: *const mbs_step_settings,
    state: *mut mbs_rigid_state,
    dt: f64,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { midpoint_step(body, loads, settings, state, dt, info_out) }
}

/// `mbs_rigid_midpoint_step` in single precision: the firmware entry point (on a Cortex-M4F
/// double is soft float). docs/embedded.md has its cost.
///
/// # Safety
/// As `mbs_rigid_midpoint_step` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_midpoint_step_f32(
    body: *const mbs_rigid_body_f32,
    loads: *const mbs_rigid_loads_f32,
    settings: *const mbs_step_settings_f32,
    state: *mut mbs_rigid_state_f32,
    dt: f32,
    info_out: *mut mbs_step_info,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { midpoint_step(body, loads, settings, state, dt, info_out) }
}
