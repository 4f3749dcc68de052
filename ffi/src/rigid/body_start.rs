//! Modelica's initialization of a body's frame_a (`MultiBody.Parts.Body`: `r_0`, `v_0`,
//! `angles_start` about `sequence_start`, `w_0_start`, `z_0_start`), as a rigid-body start
//! state (core's `ModelicaStart`).
//!
//! Modelica's `*_fixed` flags choose between an initial value and a guess for its
//! initialization solver; mbs has none, so every start value is the initial value (as in core).

use crate::boundary::{guard, non_null_out, read, write_with, FfiResult};
use crate::convert::vec3;
use crate::rigid::state::{mbs_rigid_state, mbs_rigid_state_of};
use crate::status::status_of;
use crate::status::*;
use mbs_core::bodies::body_cylinder::ModelicaStart;

/// Start values of a Modelica body's frame_a (the body's reference point and body frame).
/// Fill with `mbs_body_start_default` (Modelica's defaults: all zero, sequence `{1, 2, 3}`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_body_start {
    /// `r_0.start`: position of frame_a's origin (m, world frame).
    pub r_0_start: [f64; 3],
    /// `v_0.start`: velocity of frame_a's origin, `der(r_0)` (m/s, world frame).
    pub v_0_start: [f64; 3],
    /// `angles_start`: angles (rad) that rotate the world frame about the `sequence_start` axes
    /// into frame_a: `T = axesRotations(sequence_start, angles_start)`, `R_0b = T^T`.
    pub angles_start: [f64; 3],
    /// `sequence_start`: axes 1 (x), 2 (y), 3 (z) of the three rotations, consecutive axes
    /// distinct (e.g. `{1,2,3}` Cardan, `{3,1,3}` Euler); else `MBS_ERR_INVALID_SEQUENCE`.
    pub sequence_start: [u32; 3],
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: u32,
    /// `w_0_start`: angular velocity of frame_a (rad/s, **world** frame); the state holds
    /// `w_b = T w_0_start` (Modelica's `w_a = resolve2(R_start, w_0_start)`).
    pub w_0_start: [f64; 3],
    /// `z_0_start`: angular acceleration `der(w_0)` (rad/s^2, **world** frame); it only sets
    /// the state's last angular acceleration `T z_0_start` (an output), not the dynamics.
    pub z_0_start: [f64; 3],
}

impl mbs_body_start {
    /// Modelica's defaults: at rest at the origin, `angles_start = 0`, `sequence_start = {1,2,3}`.
    pub fn defaults() -> Self {
        Self {
            sequence_start: [1, 2, 3],
            ..Default::default()
        }
    }

    /// Core's start values: `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_SEQUENCE`.
    pub fn to_core(&self) -> FfiResult<ModelicaStart<f64>> {
        let mut sequence = [0u8; 3];
        for (s, c) in sequence.iter_mut().zip(self.sequence_start) {
            *s = u8::try_from(c).map_err(|_| MBS_ERR_INVALID_SEQUENCE)?;
        }
        let a = vec3(&self.angles_start)?;
        Ok(ModelicaStart {
            r_0_start: vec3(&self.r_0_start)?,
            v_0_start: vec3(&self.v_0_start)?,
            angles_start: [a.x, a.y, a.z],
            sequence_start: sequence,
            w_0_start: vec3(&self.w_0_start)?,
            z_0_start: vec3(&self.z_0_start)?,
            ..ModelicaStart::default()
        })
    }
}

/// Fills `*out` with Modelica's start defaults (at rest at the origin, angles 0 about
/// `{1, 2, 3}`).
///
/// # Safety
/// `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_body_start_default(out: *mut mbs_body_start) -> MbsStatus {
    guard(|| match non_null_out(out) {
        Ok(()) => {
            // SAFETY: non-null; writable by the caller's guarantee.
            unsafe { out.write(mbs_body_start::defaults()) };
            MBS_OK
        }
        Err(s) => s,
    })
}

/// The rigid-body state of Modelica's start values: `position = r_0_start`,
/// `velocity = v_0_start`, orientation the quaternion of
/// `R_0b = T^T`, `T = axesRotations(sequence_start, angles_start)`,
/// `angular_velocity = T w_0_start` (body frame), `angular_acceleration = T z_0_start` (body
/// frame), `acceleration = 0`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_SEQUENCE`.
///
/// # Safety
/// `start` is null or valid; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_from_start(
    start: *const mbs_body_start,
    out: *mut mbs_rigid_state,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let s = read(start)?.to_core()?.state().map_err(status_of)?;
                Ok((mbs_rigid_state_of::of(&s), MBS_OK))
            })
        }
    })
}
