//! A rigid body without a system (per-item stepping): its parameters, validation, outputs and
//! Jacobians, in double (`mbs_rigid_body`) and single precision (`mbs_rigid_body_f32`).
//!
//! One generic implementation serves both: each pair of `extern "C"` functions calls the same
//! generic function instantiated with `f64` or `f32`.

use crate::convert::{all_finite, finite, finite_result, FfiResult};
use crate::convert::{
    mat3, mat3_to_rows, non_null_out, read, rows_of, status_of, vec3, write_with,
};
use crate::guard;
use crate::output::{variable, write_value, MbsOutputVariable};
use crate::rigid_state::mbs_rigid_state_of;
use crate::status::*;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::body::Body;
use mbs_core::math::Quaternion;
use mbs_core::Real;

/// Parameters of a rigid body, generic over the scalar: use `mbs_rigid_body` (double) or
/// `mbs_rigid_body_f32` (float). Fill with `mbs_rigid_body_init` (which validates); every
/// call that takes a body validates it again, so a field changed afterwards is checked too.
///
/// The body frame `b` is attached at the body's reference point (the point the state's
/// position and velocity describe); the centre of mass (COM) sits at `center_of_mass` from it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_rigid_body_of<T> {
    /// Mass (kg), finite and > 0.
    pub mass: T,
    /// Inertia tensor about the COM (kg m^2, body frame), row-major 3x3: symmetric, positive
    /// definite, principal moments satisfying the triangle inequality `I1 <= I2 + I3`.
    pub inertia: [T; 9],
    /// COM offset from the reference point (m, body frame).
    pub center_of_mass: [T; 3],
    /// Reference position of the reference point for `MBS_OUTPUT_DISPLACEMENT` (m, world);
    /// `{0,0,0}` after init.
    pub reference_position: [T; 3],
    /// Reference orientation for `MBS_OUTPUT_DISPLACEMENT`: unit quaternion `[w, x, y, z]` of
    /// `R_0b` (body to world); `{1,0,0,0}` after init.
    pub reference_orientation: [T; 4],
}

/// A rigid body in double precision.
pub type mbs_rigid_body = mbs_rigid_body_of<f64>;
/// A rigid body in single precision.
pub type mbs_rigid_body_f32 = mbs_rigid_body_of<f32>;

impl<T: Real> mbs_rigid_body_of<T> {
    /// The validated core body: `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS` (<= 0),
    /// `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_INVALID_ORIENTATION` (reference not unit).
    pub fn to_core(&self) -> FfiResult<RigidBody<T>> {
        all_finite(&self.reference_orientation)?;
        let b = RigidBody::new(
            finite(self.mass)?,
            mat3(&self.inertia)?,
            vec3(&self.center_of_mass)?,
        )
        .map_err(status_of)?;
        b.with_reference(
            vec3(&self.reference_position)?,
            Quaternion::from_array(self.reference_orientation),
        )
        .map_err(status_of)
    }

    /// The C parameters of a core body (the inertia as stored: symmetrized).
    pub fn of(b: &RigidBody<T>) -> Self {
        Self {
            mass: b.mass(),
            inertia: mat3_to_rows(b.inertia()),
            center_of_mass: (*b.center_of_mass()).into(),
            reference_position: (*b.reference_position()).into(),
            reference_orientation: b.reference_orientation().to_array(),
        }
    }
}

/// The generic `mbs_rigid_body_init`.
///
/// # Safety
/// As `mbs_rigid_body_init`.
pub unsafe fn init<T: Real>(
    out: *mut mbs_rigid_body_of<T>,
    mass: T,
    inertia: *const [T; 9],
    center_of_mass: *const [T; 3],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let c = mbs_rigid_body_of {
                    mass,
                    inertia: read(inertia)?,
                    center_of_mass: read(center_of_mass)?,
                    reference_position: [T::zero(); 3],
                    reference_orientation: [T::one(), T::zero(), T::zero(), T::zero()],
                };
                Ok((mbs_rigid_body_of::of(&c.to_core()?), MBS_OK))
            })
        }
    })
}

/// The generic `mbs_rigid_output`.
///
/// # Safety
/// As `mbs_rigid_output`.
pub unsafe fn output<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    state: *const mbs_rigid_state_of<T>,
    var: MbsOutputVariable,
    local_position: *const [T; 3],
    out: *mut T,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    guard(|| {
        let r = (|| {
            non_null_out(out)?;
            non_null_out(written)?;
            // SAFETY: forwarded caller guarantees.
            let (b, s, p) = unsafe { (read(body)?, read(state)?, read(local_position)?) };
            let var = variable(var)?;
            let (b, s, p) = (b.to_core()?, s.to_core()?, vec3(&p)?);
            b.output(&s, var, &p).map_err(status_of)
        })();
        match r {
            // SAFETY: non-null, `out_len` elements by the caller's guarantee.
            Ok(v) => unsafe { write_value(&v, out, out_len, written) },
            Err(s) => s,
        }
    })
}

/// The generic `mbs_rigid_position_jacobian`.
///
/// # Safety
/// As `mbs_rigid_position_jacobian`.
pub unsafe fn position_jacobian<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    state: *const mbs_rigid_state_of<T>,
    local_position: *const [T; 3],
    out: *mut [T; 18],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let (b, s, p) = (read(body)?, read(state)?, read(local_position)?);
                let (b, s, p) = (b.to_core()?, s.to_core()?, vec3(&p)?);
                let j = b.position_jacobian(&s, &p).map_err(status_of)?;
                let rows = rows_of::<T, 3, 6, 18>(&j);
                finite_result(&rows)?;
                Ok((rows, MBS_OK))
            })
        }
    })
}

/// The generic `mbs_rigid_rotation_jacobian`.
///
/// # Safety
/// As `mbs_rigid_rotation_jacobian`.
pub unsafe fn rotation_jacobian<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    state: *const mbs_rigid_state_of<T>,
    out: *mut [T; 18],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let (b, s) = (read(body)?.to_core()?, read(state)?.to_core()?);
                let j = b.rotation_jacobian(&s).map_err(status_of)?;
                let rows = rows_of::<T, 3, 6, 18>(&j);
                finite_result(&rows)?;
                Ok((rows, MBS_OK))
            })
        }
    })
}

/// Validates a rigid body of `mass` (kg, > 0), `inertia` (kg m^2, about the centre of mass,
/// body frame, row-major 3x3) and `center_of_mass` (m, body frame, from the reference point),
/// and writes it to `*out` (inertia symmetrized, reference configuration at the origin with
/// identity orientation).
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS` (<= 0), `MBS_ERR_INVALID_INERTIA` (not symmetric to 1024 eps,
/// not positive definite, or violating the triangle inequality of the principal moments).
///
/// # Safety
/// `out` is null or valid for writes; `inertia` is null or points to 9 doubles,
/// `center_of_mass` to 3.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_body_init(
    out: *mut mbs_rigid_body,
    mass: f64,
    inertia: *const f64,
    center_of_mass: *const f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { init(out, mass, inertia.cast(), center_of_mass.cast()) }
}

/// `mbs_rigid_body_init` in single precision.
///
/// # Safety
/// As `mbs_rigid_body_init` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_body_init_f32(
    out: *mut mbs_rigid_body_f32,
    mass: f32,
    inertia: *const f32,
    center_of_mass: *const f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { init(out, mass, inertia.cast(), center_of_mass.cast()) }
}

/// Reads output `var` (`MBS_OUTPUT_*`) of the body in `state` at `local_position` (m, body
/// frame, from the reference point) into `out[0 .. n)`, `n` = 1, 3 or 9
/// (`mbs_output_variable_len`), and `n` into `*written`. Frames: positions, velocities and
/// accelerations in the world frame; `ROTATION_MATRIX` = `R_0b` row-major; `ROTATION` =
/// Tait-Bryan x-y-z angles (rad, `R_0b = Rx(a) Ry(b) Rz(c)`); `ANGULAR_VELOCITY` world,
/// `ANGULAR_VELOCITY_LOCAL` body frame; `ACCELERATION` and `ANGULAR_ACCELERATION` use the
/// state's last-step accelerations; `KINETIC_ENERGY` (J). The body-wide outputs ignore
/// `local_position`. `POTENTIAL_ENERGY` is not available (a rigid body stores none).
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_ARGUMENT` (unknown `var`), `MBS_ERR_NOT_AVAILABLE`, `MBS_ERR_STORAGE`
/// (`out_len < n`), the body's and the state's validation errors, `MBS_ERR_NON_FINITE_STATE`
/// (the value overflowed, e.g. the energy of a huge velocity).
///
/// # Safety
/// `body`, `state`, `local_position` (3 doubles) are null or valid; `out` is null or valid for
/// `out_len` writes; `written` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_output(
    body: *const mbs_rigid_body,
    state: *const crate::rigid_state::mbs_rigid_state,
    var: MbsOutputVariable,
    local_position: *const f64,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        output(
            body,
            state,
            var,
            local_position.cast(),
            out,
            out_len,
            written,
        )
    }
}

/// `mbs_rigid_output` in single precision.
///
/// # Safety
/// As `mbs_rigid_output` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_output_f32(
    body: *const mbs_rigid_body_f32,
    state: *const crate::rigid_state::mbs_rigid_state_f32,
    var: MbsOutputVariable,
    local_position: *const f32,
    out: *mut f32,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        output(
            body,
            state,
            var,
            local_position.cast(),
            out,
            out_len,
            written,
        )
    }
}

/// The position Jacobian `Jpos(p) = d v_0(p) / d q_dot = [E3, -R_0b [p]x]` at `local_position`
/// `p` (m, body frame) as a row-major 3x6 matrix: rows are world x, y, z; columns the velocity
/// coordinates `q_dot = [v (m/s, world, reference point); w_b (rad/s, body frame)]`. A force
/// `f` (N, world) at `p` acts on the coordinates as `Q = Jpos^T f`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`, the body's and the
/// state's validation errors, `MBS_ERR_NON_FINITE_STATE` (a huge `local_position` overflowed).
///
/// # Safety
/// Pointers are null or valid (`local_position`: 3 doubles; `out`: 18 writable doubles).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_position_jacobian(
    body: *const mbs_rigid_body,
    state: *const crate::rigid_state::mbs_rigid_state,
    local_position: *const f64,
    out: *mut f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { position_jacobian(body, state, local_position.cast(), out.cast()) }
}

/// `mbs_rigid_position_jacobian` in single precision.
///
/// # Safety
/// As `mbs_rigid_position_jacobian` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_position_jacobian_f32(
    body: *const mbs_rigid_body_f32,
    state: *const crate::rigid_state::mbs_rigid_state_f32,
    local_position: *const f32,
    out: *mut f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { position_jacobian(body, state, local_position.cast(), out.cast()) }
}

/// The rotation Jacobian `Jrot = d omega_0 / d q_dot = [0, R_0b]` as a row-major 3x6 matrix
/// (columns as in `mbs_rigid_position_jacobian`). A torque `tau` (N m, world) acts on the
/// coordinates as `Q = Jrot^T tau`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`, the body's and the
/// state's validation errors.
///
/// # Safety
/// Pointers are null or valid (`out`: 18 writable doubles).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_rotation_jacobian(
    body: *const mbs_rigid_body,
    state: *const crate::rigid_state::mbs_rigid_state,
    out: *mut f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { rotation_jacobian(body, state, out.cast()) }
}

/// `mbs_rigid_rotation_jacobian` in single precision.
///
/// # Safety
/// As `mbs_rigid_rotation_jacobian` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_rotation_jacobian_f32(
    body: *const mbs_rigid_body_f32,
    state: *const crate::rigid_state::mbs_rigid_state_f32,
    out: *mut f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { rotation_jacobian(body, state, out.cast()) }
}
