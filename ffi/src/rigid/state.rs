//! The state of a rigid body stepped without a system (pose, twist, last accelerations), in
//! double (`mbs_rigid_state`) and single precision (`mbs_rigid_state_f32`).

use crate::boundary::{all_finite, guard, read, write_with, FfiResult};
use crate::status::status_of;
use crate::status::*;
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
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
        let s = self.to_core_finite()?;
        s.validate().map_err(status_of)?;
        Ok(s)
    }

    /// The core state, checked finite only (`MBS_ERR_NOT_FINITE`): for a core call that
    /// validates the state itself (a step: `RigidState::validate`, whose unit-quaternion error
    /// maps to the same `MBS_ERR_INVALID_ORIENTATION`).
    #[inline]
    pub fn to_core_finite(&self) -> FfiResult<RigidState<T>> {
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
        Ok(s)
    }

    /// The C state and core's `RigidState<T>` have the same layout: 19 `T` in the same order
    /// (`nalgebra::Vector3` is `repr(C)` over `[T; 3]`; the offsets of `RigidState` and of
    /// core's `Quaternion` fields, which Rust does not promise, are checked at compile time).
    const SAME_LAYOUT: () = {
        use core::mem::{align_of, offset_of, size_of};
        let t = size_of::<T>();
        assert!(
            size_of::<RigidState<T>>() == 19 * t
                && align_of::<RigidState<T>>() == align_of::<T>()
                && size_of::<Vector3<T>>() == 3 * t
                && size_of::<Self>() == 19 * t
                && offset_of!(RigidState<T>, position) == offset_of!(Self, position)
                && offset_of!(RigidState<T>, orientation) == offset_of!(Self, orientation)
                && offset_of!(RigidState<T>, velocity) == offset_of!(Self, velocity)
                && offset_of!(RigidState<T>, angular_velocity)
                    == offset_of!(Self, angular_velocity)
                && offset_of!(RigidState<T>, acceleration) == offset_of!(Self, acceleration)
                && offset_of!(RigidState<T>, angular_acceleration)
                    == offset_of!(Self, angular_acceleration)
                && offset_of!(Quaternion<T>, w) == 0
                && offset_of!(Quaternion<T>, x) == t
                && offset_of!(Quaternion<T>, y) == 2 * t
                && offset_of!(Quaternion<T>, z) == 3 * t,
            "mbs_rigid_state_of<T> no longer has the layout of core's RigidState<T>"
        );
    };

    /// The C state viewed in place as core's state (no copy: a step reads and writes the
    /// caller's struct directly). Not checked: a core step validates its state itself.
    ///
    /// # Safety
    /// `p` is non-null, aligned and valid for reads and writes, and nothing else accesses
    /// `*p` while the returned borrow lives.
    // Inlined: a pointer cast.
    #[inline(always)]
    pub unsafe fn core_view_mut<'a>(p: *mut Self) -> &'a mut RigidState<T> {
        let () = Self::SAME_LAYOUT;
        // SAFETY: same size, alignment and field offsets (checked at compile time), all
        // fields `T` (every bit pattern valid); validity and exclusivity by the caller.
        unsafe { &mut *p.cast::<RigidState<T>>() }
    }

    /// `MBS_ERR_NOT_FINITE` if any entry is NaN or inf (the first check of a step's state).
    pub fn check_finite(&self) -> FfiResult<()> {
        self.to_core_finite().map(|_| ())
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

/// The frame an angular velocity is given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame {
    /// The body frame (`w_b`, as the state holds it).
    Body,
    /// The world frame (`w_0 = R_0b w_b`).
    World,
}

/// The generic `mbs_rigid_state_init` (`Frame::Body`) and `mbs_rigid_state_init_world`.
///
/// # Safety
/// As `mbs_rigid_state_init`.
pub unsafe fn init<T: Real>(
    out: *mut mbs_rigid_state_of<T>,
    position: *const [T; 3],
    orientation: *const [T; 4],
    velocity: *const [T; 3],
    angular_velocity: *const [T; 3],
    frame: Frame,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let mut c = mbs_rigid_state_of {
                    position: read(position)?,
                    orientation: read(orientation)?,
                    velocity: read(velocity)?,
                    angular_velocity: read(angular_velocity)?,
                    acceleration: [T::zero(); 3],
                    angular_acceleration: [T::zero(); 3],
                };
                let s = c.to_core()?;
                if frame == Frame::World {
                    // w_b = R_0b^T w_0: the conjugate quaternion's rotation.
                    let w = s.orientation.conjugate().rotate(&s.angular_velocity);
                    c.angular_velocity = w.into();
                    c.check_finite()?;
                }
                Ok((c, MBS_OK))
            })
        }
    })
}

/// Checks and writes a state: `position` (m, world), `orientation` (unit quaternion
/// `[w, x, y, z]` of `R_0b`), `velocity` (m/s, world), `angular_velocity_body` (rad/s,
/// **body** frame; `mbs_rigid_state_init_world` takes it in the world frame); accelerations
/// zero.
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
    angular_velocity_body: *const f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init(
            out,
            position.cast(),
            orientation.cast(),
            velocity.cast(),
            angular_velocity_body.cast(),
            Frame::Body,
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
    angular_velocity_body: *const f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init(
            out,
            position.cast(),
            orientation.cast(),
            velocity.cast(),
            angular_velocity_body.cast(),
            Frame::Body,
        )
    }
}

/// `mbs_rigid_state_init` with the angular velocity `angular_velocity_world` (rad/s) in the
/// **world** frame, as `mbs_system_create_rigid_body` takes it (Exudyn's
/// `initialAngularVelocity`): the state holds `w_b = R_0b^T w_0`.
///
/// Errors (`*out` untouched): as `mbs_rigid_state_init`.
///
/// # Safety
/// As `mbs_rigid_state_init`.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_init_world(
    out: *mut mbs_rigid_state,
    position: *const f64,
    orientation: *const f64,
    velocity: *const f64,
    angular_velocity_world: *const f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init(
            out,
            position.cast(),
            orientation.cast(),
            velocity.cast(),
            angular_velocity_world.cast(),
            Frame::World,
        )
    }
}

/// `mbs_rigid_state_init_world` in single precision.
///
/// # Safety
/// As `mbs_rigid_state_init` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_init_world_f32(
    out: *mut mbs_rigid_state_f32,
    position: *const f32,
    orientation: *const f32,
    velocity: *const f32,
    angular_velocity_world: *const f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init(
            out,
            position.cast(),
            orientation.cast(),
            velocity.cast(),
            angular_velocity_world.cast(),
            Frame::World,
        )
    }
}

fn angular_velocity_world<T: Real>(
    state: *const mbs_rigid_state_of<T>,
    out: *mut [T; 3],
) -> MbsStatus {
    guard(|| {
        // SAFETY: the caller's guarantee.
        unsafe {
            write_with(out, || {
                let s = read(state)?.to_core()?;
                Ok((s.orientation.rotate(&s.angular_velocity).into(), MBS_OK))
            })
        }
    })
}

/// The angular velocity of `*state` in the **world** frame, `w_0 = R_0b w_b` (rad/s), into
/// `out[0..3]` (the state holds it in the body frame).
///
/// Errors (`out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_ORIENTATION`.
///
/// # Safety
/// `state` is null or valid; `out` is null or holds 3 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_angular_velocity_world(
    state: *const mbs_rigid_state,
    out: *mut f64,
) -> MbsStatus {
    angular_velocity_world(state, out.cast())
}

/// `mbs_rigid_state_angular_velocity_world` in single precision.
///
/// # Safety
/// As `mbs_rigid_state_angular_velocity_world` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_state_angular_velocity_world_f32(
    state: *const mbs_rigid_state_f32,
    out: *mut f32,
) -> MbsStatus {
    angular_velocity_world(state, out.cast())
}
