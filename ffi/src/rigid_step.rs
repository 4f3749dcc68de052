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
use mbs_core::integrators::explicit_euler::ExplicitEuler;
use mbs_core::integrators::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rk4::Rk4;
use mbs_core::integrators::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use mbs_core::nodes::rigid::RigidState;
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

/// The step. The C structs are only borrowed (not copied: on a Cortex-M4F copying costs as
/// much as checking), and `*state_out` is written only after the step succeeded, when the
/// borrows have ended. The core step validates the time step, the settings, the state (unit
/// quaternion) and the loads itself before it computes anything; here only what it cannot
/// check is checked: NaN/inf in the C structs (`MBS_ERR_NOT_FINITE`), the integrator number,
/// the damping signs, and the body: a sealed one by its checksum (then the step borrows the
/// validated core body kept in it), any other in full.
///
/// # Safety
/// Each pointer is null or valid and aligned; `info_out` may be null.
#[inline(always)]
unsafe fn step_in_place<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    loads: *const mbs_rigid_loads_of<T>,
    settings: *const mbs_step_settings_of<T>,
    state_out: *mut mbs_rigid_state_of<T>,
    dt: T,
    info_out: *mut mbs_step_info,
) -> FfiResult<MbsStatus> {
    // SAFETY: the caller's guarantees; the borrows end before `state_out` is written.
    let (body, loads, settings, state) = unsafe {
        (
            as_ref(body)?,
            as_ref(loads)?,
            as_ref(settings)?,
            as_ref(state_out.cast_const())?,
        )
    };
    let dt = time_step(dt)?;
    let (integrator, st) = settings.to_core()?;
    let (s, info) = match body.sealed_core() {
        Some(b) => step_body(b, loads, integrator, st, state, dt)?,
        None => step_unsealed(body, loads, integrator, st, state, dt)?,
    };
    // SAFETY: `state_out` was read above (non-null, valid); `info_out` is null or writable.
    unsafe {
        state_out.write(s);
        if !info_out.is_null() {
            info_out.write(mbs_step_info::of(&info));
        }
    }
    Ok(status_of_step(&info))
}

/// A body that is not sealed: validated in full here (its own frame holds the core body, so
/// the sealed path's stack does not pay for it).
#[inline(never)]
fn step_unsealed<T: Real>(
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    integrator: MbsIntegrator,
    st: StepSettings<T>,
    state: &mbs_rigid_state_of<T>,
    dt: T,
) -> FfiResult<(mbs_rigid_state_of<T>, StepInfo)> {
    step_body(&body.to_core()?, loads, integrator, st, state, dt)
}

/// The step of a validated core body: the new C state and the report.
#[inline(never)]
fn step_body<T: Real>(
    b: &RigidBody<T>,
    loads: &mbs_rigid_loads_of<T>,
    integrator: MbsIntegrator,
    st: StepSettings<T>,
    state: &mbs_rigid_state_of<T>,
    dt: T,
) -> FfiResult<(mbs_rigid_state_of<T>, StepInfo)> {
    let mut s = state.to_core_finite()?;
    let l = loads.to_core_unvalidated(b, &s)?;
    let info = match integrator {
        MBS_INTEGRATOR_MIDPOINT => integrate(
            LinearlyImplicitMidpoint::with_step_settings(st),
            b,
            &l,
            &mut s,
            dt,
        ),
        MBS_INTEGRATOR_EXPLICIT_EULER => {
            integrate(ExplicitEuler { settings: st }, b, &l, &mut s, dt)
        }
        MBS_INTEGRATOR_SYMPLECTIC_EULER => {
            integrate(SymplecticEuler { settings: st }, b, &l, &mut s, dt)
        }
        MBS_INTEGRATOR_RK4 => integrate(Rk4 { settings: st }, b, &l, &mut s, dt),
        _ => return Err(MBS_ERR_INVALID_ARGUMENT),
    }
    .map_err(status_of)?;
    Ok((mbs_rigid_state_of::of(&s), info))
}

/// One integrator's step, kept out of line: inlined into [`step_body`], LLVM moved two of the
/// step's 52-byte temporaries byte by byte (about 500 instructions on the Cortex-M4F).
#[inline(never)]
fn integrate<T: Real, I: RigidIntegrator<T>>(
    i: I,
    b: &RigidBody<T>,
    l: &RigidLoads<T>,
    s: &mut RigidState<T>,
    dt: T,
) -> mbs_core::Result<StepInfo> {
    i.step(b, l, s, dt)
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
        unsafe { step_in_place(body, loads, settings, state, dt, info_out) }.unwrap_or_else(|e| e)
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
/// # Safety
/// Each pointer is null or valid and aligned; `info_out` may be NULL.
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
/// On a Cortex-M4F (single-precision FPU, double in software) a torque-free midpoint step
/// took about 2,600-4,000 instructions in float against 20,000-24,000 in double.
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
