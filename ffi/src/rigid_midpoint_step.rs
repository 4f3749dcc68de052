//! The firmware's step: the seed 004 linearly implicit midpoint step of a single rigid body
//! (`mbs_rigid_midpoint_step`, `mbs_rigid_midpoint_step_f32`), the same code as
//! `mbs_rigid_step` with `MBS_INTEGRATOR_MIDPOINT` but without the run-time choice of the
//! integrator, so a firmware links the midpoint step only.

use crate::rigid_body::{mbs_rigid_body, mbs_rigid_body_f32};
use crate::rigid_loads::{mbs_rigid_loads, mbs_rigid_loads_f32};
use crate::rigid_state::{mbs_rigid_state, mbs_rigid_state_f32};
use crate::rigid_step::midpoint_step;
use crate::status::MbsStatus;
use crate::step_settings::{mbs_step_info, mbs_step_settings, mbs_step_settings_f32};

/// Advances `*state` of `body` by `dt` (s) under `loads` with the seed 004 linearly implicit
/// midpoint step and the step control of `settings` (`settings->integrator` must be
/// `MBS_INTEGRATOR_MIDPOINT`, as `mbs_step_settings_default` sets it). Arguments, results and
/// errors as `mbs_rigid_step`, and the same trajectory bit for bit; the difference is what a
/// firmware links: `mbs_rigid_step` chooses the integrator at run time and so links all four,
/// this function only the midpoint step.
///
/// Errors (state and `*info_out` untouched): `MBS_ERR_NULL_POINTER` (`body`, `loads`,
/// `settings`, `state`), `MBS_ERR_NOT_FINITE` (NaN/inf in `dt`, body, loads, settings or
/// state), `MBS_ERR_INVALID_TIME_STEP` (`dt <= 0`), `MBS_ERR_INVALID_ARGUMENT`
/// (`settings->integrator` is not `MBS_INTEGRATOR_MIDPOINT`), `MBS_ERR_INVALID_SETTING`,
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

/// `mbs_rigid_midpoint_step` in single precision: the firmware entry point. Measured on a
/// Cortex-M4F (FPv4-SP, QEMU mps2-an386, libmbs.a built with the `dist` profile), one step of a
/// spinning body with its centre of mass off the reference point: 1,493 instructions, all
/// float arithmetic on the FPU, 936 B of stack. A firmware that builds a body with
/// `mbs_rigid_body_init_f32` and steps it with this function links 23.5 KB of mbs code
/// (8 KB of it libm's `sinf`/`cosf` for rotations of 1 rad or more per step), against 112 KB
/// for one that calls the whole C API. docs/embedded.md has the figures and the commands that
/// reproduce them.
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
