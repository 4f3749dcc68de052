//! One time step of a single rigid body without a system (`mbs_rigid_step`, `mbs_rigid_step_f32`),
//! for the smallest firmware: the caller owns body, loads, settings and state.

use crate::convert::{finite, read, status_of, FfiResult};
use crate::guard;
use crate::rigid_body::{mbs_rigid_body, mbs_rigid_body_f32, mbs_rigid_body_of};
use crate::rigid_loads::{mbs_rigid_loads, mbs_rigid_loads_f32, mbs_rigid_loads_of};
use crate::rigid_state::{mbs_rigid_state, mbs_rigid_state_f32, mbs_rigid_state_of};
use crate::status::*;
use crate::step_settings::*;
use mbs_core::integrators::explicit_euler::ExplicitEuler;
use mbs_core::integrators::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rk4::Rk4;
use mbs_core::integrators::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, StepInfo};
use mbs_core::Real;

/// Checks `dt`: `MBS_ERR_NOT_FINITE` for NaN/inf, `MBS_ERR_INVALID_TIME_STEP` for `dt <= 0`.
pub fn time_step<T: Real>(dt: T) -> FfiResult<T> {
    if finite(dt)? <= T::zero() {
        return Err(MBS_ERR_INVALID_TIME_STEP);
    }
    Ok(dt)
}

/// The step on copies of the inputs: the new C state and the report.
fn step_copy<T: Real>(
    body: &mbs_rigid_body_of<T>,
    loads: &mbs_rigid_loads_of<T>,
    settings: &mbs_step_settings_of<T>,
    state: &mbs_rigid_state_of<T>,
    dt: T,
) -> FfiResult<(mbs_rigid_state_of<T>, StepInfo)> {
    let dt = time_step(dt)?;
    let (integrator, st) = settings.to_core()?;
    let b = body.to_core()?;
    let mut s = state.to_core()?;
    let l = loads.to_core(&b, &s)?;
    let info = match integrator {
        MBS_INTEGRATOR_MIDPOINT => {
            LinearlyImplicitMidpoint::with_step_settings(st).step(&b, &l, &mut s, dt)
        }
        MBS_INTEGRATOR_EXPLICIT_EULER => ExplicitEuler { settings: st }.step(&b, &l, &mut s, dt),
        MBS_INTEGRATOR_SYMPLECTIC_EULER => {
            SymplecticEuler { settings: st }.step(&b, &l, &mut s, dt)
        }
        MBS_INTEGRATOR_RK4 => Rk4 { settings: st }.step(&b, &l, &mut s, dt),
        _ => return Err(MBS_ERR_INVALID_ARGUMENT),
    }
    .map_err(status_of)?;
    Ok((mbs_rigid_state_of::of(&s), info))
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
        // Everything is read by value first: inputs may even overlap the outputs.
        // SAFETY: forwarded caller guarantees.
        let r = unsafe {
            (|| {
                let (b, l, c) = (read(body)?, read(loads)?, read(settings)?);
                let s = read(state.cast_const())?;
                step_copy(&b, &l, &c, &s, dt)
            })()
        };
        match r {
            Ok((s, info)) => {
                // SAFETY: `state` was read above (non-null); `info_out` is null or writable.
                unsafe {
                    state.write(s);
                    if !info_out.is_null() {
                        info_out.write(mbs_step_info::of(&info));
                    }
                }
                status_of_step(&info)
            }
            Err(e) => e,
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
/// Every call validates all its inputs, the body included (inertia symmetric, positive
/// definite, triangle inequality: about a third of a midpoint step's time on a host), so a
/// field changed since `mbs_rigid_body_init` cannot slip through.
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
