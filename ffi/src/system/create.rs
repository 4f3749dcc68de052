//! Exudyn's `Create*` helpers from C: a body with its node, its markers and its gravity load
//! in one call (`mbs_system_create_*`). Indices and errors as the `mbs_system_add_*` calls.

use crate::boundary::{finite, non_null_out, put, read, with_mut, FfiResult};
use crate::convert::vec2;
use crate::convert::{array, optional3};
use crate::mass_properties::mbs_mass_properties;
use crate::rigid::body_cylinder::body_cylinder;
use crate::status::status_of;
use crate::status::*;
use crate::system::items::{mbs_system_add_object_ground, node_error, rigid_body};
use crate::system::{mbs_system, MBS_NO_INDEX};
use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::system::{CreatedBody, MassPointSpec, RigidBodySpec};
use nalgebra::Vector3;

/// The items a `mbs_system_create_*` helper added.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_created_body {
    /// The body's node.
    pub node: u32,
    /// The body.
    pub object: u32,
    /// Its `MarkerBodyMass` (with a non-zero gravity), else `MBS_NO_INDEX`.
    pub mass_marker: u32,
    /// Its `LoadMassProportional` (with a non-zero gravity), else `MBS_NO_INDEX`.
    pub gravity_load: u32,
}

impl mbs_created_body {
    fn of(c: &CreatedBody) -> Self {
        Self {
            node: u32::from(c.node.0),
            object: u32::from(c.object.0),
            mass_marker: c.mass_marker.map_or(MBS_NO_INDEX, |m| u32::from(m.0)),
            gravity_load: c.gravity_load.map_or(MBS_NO_INDEX, |l| u32::from(l.0)),
        }
    }
}

fn create(
    sys: *mut mbs_system,
    out: *mut mbs_created_body,
    f: impl FnOnce(&mut crate::system::CSystem) -> FfiResult<CreatedBody>,
) -> MbsStatus {
    with_mut(sys, |s| {
        non_null_out(out)?;
        let c = f(&mut s.sys)?;
        put(out, mbs_created_body::of(&c));
        Ok(MBS_OK)
    })
}

/// Exudyn's `CreateGround`: an `ObjectGround` at `reference_position` (m, world); its index
/// into `*object`.
///
/// Errors: as `mbs_system_add_object_ground`.
///
/// # Safety
/// As `mbs_system_add_object_ground`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_create_ground(
    sys: *mut mbs_system,
    reference_position: *const f64,
    object: *mut u32,
) -> MbsStatus {
    // SAFETY: forwarded.
    unsafe { mbs_system_add_object_ground(sys, reference_position, object) }
}

/// Exudyn's `CreateMassPoint` (2D): a `NodePoint2D` at `reference_position` (m, world x, y)
/// with `initial_displacement` (m) and `initial_velocity` (m/s), a `MassPoint2D` of `mass`
/// (kg, > 0) on it, and with a non-zero `gravity` (m/s^2, world; NULL = none) a
/// `MarkerBodyMass` and a `LoadMassProportional`. All or nothing.
///
/// Errors (nothing added, `*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS`,
/// `MBS_ERR_CAPACITY_FULL` (no room for all its items).
///
/// # Safety
/// `sys` is null or an `mbs_system`; the 2D arrays are null or hold 2 doubles, `gravity` is
/// null or holds 3; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_create_mass_point(
    sys: *mut mbs_system,
    mass: f64,
    reference_position: *const f64,
    initial_displacement: *const f64,
    initial_velocity: *const f64,
    gravity: *const f64,
    out: *mut mbs_created_body,
) -> MbsStatus {
    create(sys, out, |s| {
        // SAFETY: the caller's guarantee.
        let (r, q, v, g) = unsafe {
            (
                read(reference_position.cast::<[f64; 2]>())?,
                read(initial_displacement.cast::<[f64; 2]>())?,
                read(initial_velocity.cast::<[f64; 2]>())?,
                optional3(gravity)?,
            )
        };
        let spec = MassPointSpec {
            mass: finite(mass)?,
            reference_position: vec2(&r)?,
            initial_displacement: vec2(&q)?,
            initial_velocity: vec2(&v)?,
            gravity: g,
        };
        s.create_mass_point(&spec).map_err(status_of)
    })
}

/// Exudyn's `CreateRigidBody`: a rigid-body node at `position` (m, world) with `orientation`
/// (unit quaternion `[w, x, y, z]` of `R_0b`), `velocity` (m/s, world) and
/// `angular_velocity_world` (rad/s, **world** frame; the node's state holds it in the body
/// frame, `mbs_rigid_state_angular_velocity_world` reads it back); an `ObjectRigidBody` of `*mass` (mass kg, COM m from the node's
/// point and inertia about the COM kg m^2, body frame); with a non-zero `gravity` (m/s^2,
/// world; NULL = none) a `MarkerBodyMass` and a `LoadMassProportional`. All or nothing.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS`,
/// `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_INVALID_ORIENTATION`, `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `mass` is null or valid; the arrays are null or hold 3
/// (`orientation`: 4) doubles, `gravity` may be NULL; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_create_rigid_body(
    sys: *mut mbs_system,
    mass: *const mbs_mass_properties,
    position: *const f64,
    orientation: *const f64,
    velocity: *const f64,
    angular_velocity_world: *const f64,
    gravity: *const f64,
    out: *mut mbs_created_body,
) -> MbsStatus {
    create(sys, out, |s| {
        // SAFETY: the caller's guarantee.
        let (m, p, q, v, w, g) = unsafe {
            (
                read(mass)?,
                array::<3>(position)?,
                array::<4>(orientation)?,
                array::<3>(velocity)?,
                array::<3>(angular_velocity_world)?,
                optional3(gravity)?,
            )
        };
        let body = rigid_body(&m)?;
        let mp = MassProperties {
            mass: body.mass(),
            com: *body.center_of_mass(),
            inertia: *body.inertia(),
        };
        let spec = RigidBodySpec {
            position: Vector3::from(p),
            orientation: Quaternion::from_array(q),
            velocity: Vector3::from(v),
            angular_velocity: Vector3::from(w),
            gravity: g,
        };
        s.create_rigid_body(&mp, &spec).map_err(node_error)
    })
}

/// Modelica's `BodyCylinder` with its node: the rigid body of `*cylinder`'s mass
/// properties (frame_a = the node's point and body frame; see `mbs_body_cylinder_init`) on a
/// node that starts from `*start` (`r_0_start`, `v_0_start`, `angles_start` about
/// `sequence_start`, `w_0_start` in the world frame), and with a non-zero `gravity` (m/s^2,
/// world; NULL = none) a `MarkerBodyMass` and a `LoadMassProportional`. frame_b is the local
/// position `cylinder->r` (for a `mbs_system_add_marker_body_*` at the far end). All or
/// nothing.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, those of `mbs_body_cylinder_init`, `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `cylinder` and `start` are null or valid; `gravity` is
/// null or holds 3 doubles; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_create_body_cylinder(
    sys: *mut mbs_system,
    cylinder: *const crate::mass_properties::mbs_cylinder,
    start: *const crate::rigid::body_start::mbs_body_start,
    gravity: *const f64,
    out: *mut mbs_created_body,
) -> MbsStatus {
    create(sys, out, |s| {
        // SAFETY: the caller's guarantee.
        let (c, st, g) = unsafe { (read(cylinder)?, read(start)?, optional3(gravity)?) };
        let bc = body_cylinder(&c, &st)?;
        s.create_body_cylinder(&bc, g).map_err(status_of)
    })
}
