//! The state of a rigid body stepped without a system (pose, twist, last accelerations), in
//! double (`mbs_rigid_state`) and single precision (`mbs_rigid_state_f32`).

use crate::convert::{all_finite, read, status_of, write_with, FfiResult};
use crate::guard;
use crate::status::*;
use mbs_core::math::Quaternion;
use mbs_core::nodes::rigid::RigidState;
use mbs_core::Real;
use nalgebra::Vector3;

/// Pose, twist and last-step accelerations of a rigid body's reference point, generic over the
/// scalar: use `mbs_rigid_state` (double) or `mbs_rigid_state_f32` (float). Plain data: the
/// caller owns it; a step reads it and writes it back only on success.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_rigid_state_of<T> {
    /// Position of the reference point (m, world frame).
    pub position: [T; 3],
    /// Orientation: unit quaternion `[w, x, y, z]` (scalar first) of `R_0b`, body to world
    /// (`v_world = R_0b v_body`); `| |q|^2 - 1 | <= 1e-6`, else `MBS_ERR_INVALID_ORIENTATION`.
    pub orientation: [T; 4],
    /// Velocity of the reference point (m/s, world frame).
    pub velocity: [T; 3],
    /// Angular velocity `w_b` (rad/s, **body** frame); the world-frame rate is `R_0b w_b`.
    pub angular_velocity: [T; 3],
    /// Acceleration of the reference point over the last step, `(v_{n+1} - v_n)/dt`
    /// (m/s^2, world frame); zero after init.
    pub acceleration: [T; 3],
    /// Angular acceleration over the last step, `(w_{n+1} - w_n)/dt` (rad/s^2, **body**
    /// frame); zero after init.
    pub angular_acceleration: [T; 3],
}

/// A rigid-body state in double precision.
pub type mbs_rigid_state = mbs_rigid_state_of<f64>;
/// A rigid-body state in single precision.
pub type mbs_rigid_state_f32 = mbs_rigid_state_of<f32>;

impl<T: Real> mbs_rigid_state_of<T> {
    /// The checked core state: `MBS_ERR_NOT_FINITE` for NaN/inf anywhere,
    /// `MBS_ERR_INVALID_ORIENTATION` for a quaternion that is not unit to 1e-6.
    pub fn to_core(&self) -> FfiResult<RigidState<T>> {
        for a in [
            &self.position[..],
            &self.orientation[..],
            &self.velocity[..],
            &self.angular_velocity[..],
            &self.acceleration[..],
            &self.angular_acceleration[..],
        ] {
            all_finite(a)?;
        }
        let s = RigidState {
            position: Vector3::from(self.position),
            orientation: Quaternion::from_array(self.orientation),
            velocity: Vector3::from(self.velocity),
            angular_velocity: Vector3::from(self.angular_velocity),
            acceleration: Vector3::from(self.acceleration),
            angular_acceleration: Vector3::from(self.angular_acceleration),
        };
        s.validate().map_err(status_of)?;
        Ok(s)
    }

    /// The C state of a core state.
    pub fn of(s: &RigidState<T>) -> Self {
        Self {
            position: s.position.into(),
            orientation: s.orientation.to_array(),
            velocity: s.velocity.into(),
            angular_velocity: s.angular_velocity.into(),
            acceleration: s.acceleration.into(),
            angular_acceleration: s.angular_acceleration.into(),
        }
    }
}

/// The generic `mbs_rigid_state_init`.
///
/// # Safety
/// As `mbs_rigid_state_init`.
pub unsafe fn init<T: Real>(
    out: *mut mbs_rigid_state_of<T>,
    position: *const [T; 3],
    orientation: *const [T; 4],
    velocity: *const [T; 3],
    angular_velocity: *const [T; 3],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let c = mbs_rigid_state_of {
                    position: read(position)?,
                    orientation: read(orientation)?,
                    velocity: read(velocity)?,
                    angular_velocity: read(angular_velocity)?,
                    acceleration: [T::zero(); 3],
                    angular_acceleration: [T::zero(); 3],
                };
                c.to_core()?;
                Ok((c, MBS_OK))
            })
        }
    })
}

/// Checks and writes a state: `position` (m, world), `orientation` (unit quaternion
/// `[w, x, y, z]` of `R_0b`), `velocity` (m/s, world), `angular_velocity` (rad/s, **body**
/// frame); accelerations zero.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_ORIENTATION` (`| |q|^2 - 1 | > 1e-6`).
///
/// # Safety
/// `out` is null or writable; the inputs are null or point to 3 (`orientation`: 4) doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_init(
    out: *mut mbs_rigid_state,
    position: *const f64,
    orientation: *const f64,
    velocity: *const f64,
    angular_velocity: *const f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init(
            out,
            position.cast(),
            orientation.cast(),
            velocity.cast(),
            angular_velocity.cast(),
        )
    }
}

/// `mbs_rigid_state_init` in single precision.
///
/// # Safety
/// As `mbs_rigid_state_init` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_init_f32(
    out: *mut mbs_rigid_state_f32,
    position: *const f32,
    orientation: *const f32,
    velocity: *const f32,
    angular_velocity: *const f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init(
            out,
            position.cast(),
            orientation.cast(),
            velocity.cast(),
            angular_velocity.cast(),
        )
    }
}
