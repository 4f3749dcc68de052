//! Adding items to a system from C: nodes, objects, markers, loads and connectors, and
//! replacing a load's vector (for control loops).
//!
//! Every `mbs_system_add_*` / `mbs_system_create_*` writes the new item's index to its
//! out-parameter (`uint32_t`, the position in its list in the order added, starting at 0) only
//! on success. On an error nothing was added (the counts, states and time are as before).
//! A successful add makes the system unassembled.

use crate::boundary::{finite, non_null_out, put, read, with_mut, FfiResult};
use crate::convert::{array, index, vec2, vec3};
use crate::mass_properties::mbs_mass_properties;
use crate::status::status_of;
use crate::status::*;
use crate::system::mbs_system;
use core::ffi::c_void;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::bodies::ObjectGround;
use mbs_core::math::Quaternion;
use mbs_core::nodes::{NodePoint2D, NodePointGround};
use mbs_core::system::{
    CartesianSpringDamper, Connector, ConnectorIndex, Load, LoadFn, LoadIndex, Marker, MarkerIndex,
    Node, NodeIndex, NodeRigidBody, Object, ObjectIndex, SpringDamper, TorsionalSpringDamper,
    UserLoadKind,
};
use nalgebra::Vector3;

/// Runs an add on the system of `sys` and writes the index it returns to `*out`.
pub(crate) fn add<I>(
    sys: *mut mbs_system,
    out: *mut u32,
    f: impl FnOnce(&mut crate::system::CSystem) -> FfiResult<I>,
    index: impl FnOnce(I) -> u16,
) -> MbsStatus {
    with_mut(sys, |s| {
        non_null_out(out)?;
        let i = f(&mut s.sys)?;
        put(out, u32::from(index(i)));
        Ok(MBS_OK)
    })
}

// ---- nodes ----------------------------------------------------------------------------------

/// Adds Exudyn's `NodePoint2D`: a point in the world x-y plane at `reference` (m, world x, y)
/// with the initial displacement `initial_displacement` (m) and velocity `initial_velocity`
/// (m/s); its position is `[reference + q, 0]`. Carries one `mass_point_2d` object.
///
/// Errors (nothing added, `*node` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; the arrays are null or hold 2 doubles; `node` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_node_point2d(
    sys: *mut mbs_system,
    reference: *const f64,
    initial_displacement: *const f64,
    initial_velocity: *const f64,
    node: *mut u32,
) -> MbsStatus {
    add(
        sys,
        node,
        |s| {
            // SAFETY: the caller's guarantee.
            let (r, q, v) = unsafe {
                (
                    read(reference.cast::<[f64; 2]>())?,
                    read(initial_displacement.cast::<[f64; 2]>())?,
                    read(initial_velocity.cast::<[f64; 2]>())?,
                )
            };
            let n = NodePoint2D::new(vec2(&r)?, vec2(&q)?, vec2(&v)?).map_err(status_of)?;
            s.add_node(Node::Point2D(n)).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `NodePointGround` at `reference` (m, world): a fixed point without
/// coordinates (for node markers).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `reference` is null or holds 3 doubles; `node` is null
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_node_ground(
    sys: *mut mbs_system,
    reference: *const f64,
    node: *mut u32,
) -> MbsStatus {
    add(
        sys,
        node,
        |s| {
            // SAFETY: the caller's guarantee.
            let r = unsafe { array::<3>(reference) }?;
            let n = NodePointGround::new(Vector3::from(r)).map_err(status_of)?;
            s.add_node(Node::PointGround(n)).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds a rigid-body node at `position` (m, world) with `orientation` (unit quaternion
/// `[w, x, y, z]` of `R_0b`), the reference and the initial pose, moving with `velocity`
/// (m/s, world) and `angular_velocity_world` (rad/s, **world** frame, as Exudyn's
/// `initialAngularVelocity`). Carries one rigid body or body cylinder.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_ORIENTATION`,
/// `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; the arrays are null or hold 3 (`orientation`: 4)
/// doubles; `node` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_node_rigid(
    sys: *mut mbs_system,
    position: *const f64,
    orientation: *const f64,
    velocity: *const f64,
    angular_velocity_world: *const f64,
    node: *mut u32,
) -> MbsStatus {
    add(
        sys,
        node,
        |s| {
            // SAFETY: the caller's guarantee.
            let n = unsafe { rigid_node(position, orientation, velocity, angular_velocity_world) }?;
            s.add_node(Node::RigidBody(n)).map_err(status_of)
        },
        |i| i.0,
    )
}

unsafe fn rigid_node(
    position: *const f64,
    orientation: *const f64,
    velocity: *const f64,
    angular_velocity_world: *const f64,
) -> FfiResult<NodeRigidBody<f64>> {
    // SAFETY: forwarded.
    let (p, q, v, w) = unsafe {
        (
            array::<3>(position)?,
            array::<4>(orientation)?,
            array::<3>(velocity)?,
            array::<3>(angular_velocity_world)?,
        )
    };
    NodeRigidBody::new(
        Vector3::from(p),
        Quaternion::from_array(q),
        Vector3::from(v),
        Vector3::from(w),
    )
    .map_err(node_error)
}

/// The status of a rigid node's error on finite inputs: a non-finite state is an overflow.
pub(crate) fn node_error(e: mbs_core::Error) -> MbsStatus {
    match e {
        mbs_core::Error::NonFiniteState => MBS_ERR_NON_FINITE_STATE,
        e => status_of(e),
    }
}

// ---- objects --------------------------------------------------------------------------------

/// Adds Exudyn's `ObjectGround` at `reference_position` (m, world): a body that never moves,
/// for markers (`MBS_OUTPUT_POSITION` etc. of a point of it).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `reference_position` is null or holds 3 doubles; `object`
/// is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_object_ground(
    sys: *mut mbs_system,
    reference_position: *const f64,
    object: *mut u32,
) -> MbsStatus {
    add(
        sys,
        object,
        |s| {
            // SAFETY: the caller's guarantee.
            let r = unsafe { array::<3>(reference_position) }?;
            let g = ObjectGround::new(Vector3::from(r)).map_err(status_of)?;
            s.add_object(Object::Ground(g)).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `ObjectMassPoint2D` of `mass` (kg, > 0) on the 2D point node `node`.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS`,
/// `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_WRONG_NODE_KIND` (not a 2D point
/// node), `MBS_ERR_NODE_ALREADY_USED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `object` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_object_mass_point_2d(
    sys: *mut mbs_system,
    node: u32,
    mass: f64,
    object: *mut u32,
) -> MbsStatus {
    add(
        sys,
        object,
        |s| {
            let o =
                Object::mass_point_2d(index(node, NodeIndex)?, finite(mass)?).map_err(status_of)?;
            s.add_object(o).map_err(status_of)
        },
        |i| i.0,
    )
}

pub(crate) fn rigid_body(mass: &mbs_mass_properties) -> FfiResult<RigidBody<f64>> {
    let m = crate::convert::mat3(&mass.inertia)?;
    RigidBody::new(finite(mass.mass)?, m, vec3(&mass.com)?).map_err(status_of)
}

/// Adds Exudyn's `ObjectRigidBody` on the rigid-body node `node` (its reference point and
/// body frame): `mass->mass` (kg, > 0), `mass->com` (m, body frame, from the node's point),
/// `mass->inertia` about the centre of mass (kg m^2, body frame, row-major). The node's
/// reference pose is the body's reference configuration (`MBS_OUTPUT_DISPLACEMENT`).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS`,
/// `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_WRONG_NODE_KIND`, `MBS_ERR_NODE_ALREADY_USED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `mass` is null or valid; `object` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_object_rigid_body(
    sys: *mut mbs_system,
    node: u32,
    mass: *const mbs_mass_properties,
    object: *mut u32,
) -> MbsStatus {
    add(
        sys,
        object,
        |s| {
            // SAFETY: the caller's guarantee.
            let body = rigid_body(&unsafe { read(mass) }?)?;
            s.add_object(Object::rigid_body(index(node, NodeIndex)?, body))
                .map_err(status_of)
        },
        |i| i.0,
    )
}

// ---- markers --------------------------------------------------------------------------------

/// Adds Exudyn's `MarkerNodePosition`: the point of node `node` (any node kind).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `marker` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_marker_node_position(
    sys: *mut mbs_system,
    node: u32,
    marker: *mut u32,
) -> MbsStatus {
    add(
        sys,
        marker,
        |s| {
            s.add_marker(Marker::node_position(index(node, NodeIndex)?))
                .map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `MarkerBodyPosition`: the point `local_position` (m, body frame, from the
/// body's reference point) of body `object` (for forces and connectors).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`,
/// `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `local_position` is null or holds 3 doubles; `marker` is
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_marker_body_position(
    sys: *mut mbs_system,
    object: u32,
    local_position: *const f64,
    marker: *mut u32,
) -> MbsStatus {
    // SAFETY: the caller's guarantees.
    unsafe { add_body_marker(sys, object, local_position, marker, Marker::body_position) }
}

/// Adds Exudyn's `MarkerBodyRigid`: the point `local_position` (m, body frame) of body
/// `object` with its orientation (for torques as well as forces). Not on a mass point.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (a mass point has no rotation).
///
/// # Safety
/// As `mbs_system_add_marker_body_position`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_marker_body_rigid(
    sys: *mut mbs_system,
    object: u32,
    local_position: *const f64,
    marker: *mut u32,
) -> MbsStatus {
    // SAFETY: the caller's guarantees.
    unsafe { add_body_marker(sys, object, local_position, marker, Marker::body_rigid) }
}

/// Adds Exudyn's `MarkerBodyRigid` with a frame turned in the body (Exudyn's `localHT`): the
/// point `local_position` (m, body frame) of body `object` and the marker frame
/// `local_rotation` (row-major 3x3 `R_bm`: the marker's x, y, z axes as its columns, in the
/// body frame). A 3D joint's axes are its markers' frame axes (a revolute joint turns about
/// marker 0's z axis); a planar constraint accepts only a frame turned about z.
///
/// Errors (nothing added): as `mbs_system_add_marker_body_rigid`, and
/// `MBS_ERR_INVALID_ORIENTATION` (`local_rotation` not a rotation: `|R^T R - E| > 1e-9` in an
/// entry, or `det R <= 0`), `MBS_ERR_NOT_FINITE` for a non-finite entry.
///
/// # Safety
/// As `mbs_system_add_marker_body_position`; `local_rotation` is null or holds 9 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_marker_body_rigid_frame(
    sys: *mut mbs_system,
    object: u32,
    local_position: *const f64,
    local_rotation: *const f64,
    marker: *mut u32,
) -> MbsStatus {
    add(
        sys,
        marker,
        |s| {
            // SAFETY: the caller's guarantee.
            let (p, r) = unsafe { (array::<3>(local_position)?, array::<9>(local_rotation)?) };
            let r = crate::convert::mat3(&r)?;
            let m = Marker::body_rigid_frame(index(object, ObjectIndex)?, Vector3::from(p), &r)
                .map_err(status_of)?;
            s.add_marker(m).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds the two rigid markers of the BodyCylinder `object` (`mbs_system_create_body_cylinder`)
/// to join it by joints: `markers[0]` its frame_a (the node, the body frame), `markers[1]` its
/// frame_b (at the cylinder's `r`, parallel to frame_a).
///
/// Errors (nothing added, `markers` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_WRONG_NODE_KIND` (not a
/// BodyCylinder), `MBS_ERR_CAPACITY_FULL` (room for fewer than two markers).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `markers` is null or holds 2 writable `uint32_t`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_frame_markers(
    sys: *mut mbs_system,
    object: u32,
    markers: *mut u32,
) -> MbsStatus {
    if markers.is_null() {
        return MBS_ERR_NULL_POINTER;
    }
    with_mut(sys, |s| {
        let [a, b] = s
            .sys
            .add_frame_markers(index(object, ObjectIndex)?)
            .map_err(status_of)?;
        // SAFETY: the caller's guarantee (2 writable values).
        unsafe {
            markers.write(u32::from(a.0));
            markers.add(1).write(u32::from(b.0));
        }
        Ok(MBS_OK)
    })
}

/// Adds the marker `make` builds at the point `local_position` (m, body frame) of body
/// `object`.
///
/// # Safety
/// As `mbs_system_add_marker_body_position`.
unsafe fn add_body_marker(
    sys: *mut mbs_system,
    object: u32,
    local_position: *const f64,
    marker: *mut u32,
    make: fn(ObjectIndex, Vector3<f64>) -> mbs_core::Result<Marker<f64>>,
) -> MbsStatus {
    add(
        sys,
        marker,
        |s| {
            // SAFETY: the caller's guarantee.
            let p = Vector3::from(unsafe { array::<3>(local_position) }?);
            let m = make(index(object, ObjectIndex)?, p).map_err(status_of)?;
            s.add_marker(m).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `MarkerBodyMass`: the mass distribution of body `object` (for
/// mass-proportional loads: gravity). Not on a ground object.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_MARKER` (the ground has no mass).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `marker` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_marker_body_mass(
    sys: *mut mbs_system,
    object: u32,
    marker: *mut u32,
) -> MbsStatus {
    add(
        sys,
        marker,
        |s| {
            s.add_marker(Marker::body_mass(index(object, ObjectIndex)?))
                .map_err(status_of)
        },
        |i| i.0,
    )
}

// ---- loads ----------------------------------------------------------------------------------

/// Adds Exudyn's `LoadForceVector`: the constant force `force` (N, world) at the point of the
/// position marker `marker` (node, body position or body rigid marker).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (a mass marker).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `force` is null or holds 3 doubles; `load` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_load_force(
    sys: *mut mbs_system,
    marker: u32,
    force: *const f64,
    load: *mut u32,
) -> MbsStatus {
    add(
        sys,
        load,
        |s| {
            // SAFETY: the caller's guarantee.
            let f = Vector3::from(unsafe { array::<3>(force) }?);
            let l = Load::force(index(marker, MarkerIndex)?, f).map_err(status_of)?;
            s.add_load(l).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `LoadTorqueVector`: the constant torque `torque` (N m) on the rigid marker
/// `marker`, resolved in the world frame, or in the marker's body frame if `body_fixed`
/// (it then turns with the body: `tau_world = R_0b torque`).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (not a body rigid marker).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `torque` is null or holds 3 doubles; `load` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_load_torque(
    sys: *mut mbs_system,
    marker: u32,
    torque: *const f64,
    body_fixed: u32,
    load: *mut u32,
) -> MbsStatus {
    add(
        sys,
        load,
        |s| {
            // SAFETY: the caller's guarantee.
            let t = Vector3::from(unsafe { array::<3>(torque) }?);
            let body_fixed = crate::convert::flag(body_fixed)?;
            let l = Load::torque(index(marker, MarkerIndex)?, t, body_fixed).map_err(status_of)?;
            s.add_load(l).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `LoadMassProportional`: the uniform acceleration field `acceleration`
/// (m/s^2, world; gravity, e.g. `{0, -9.81, 0}`) on the mass of the mass marker `marker`'s
/// body.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (not a body mass marker).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `acceleration` is null or holds 3 doubles; `load` is
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_load_mass_proportional(
    sys: *mut mbs_system,
    marker: u32,
    acceleration: *const f64,
    load: *mut u32,
) -> MbsStatus {
    add(
        sys,
        load,
        |s| {
            // SAFETY: the caller's guarantee.
            let g = Vector3::from(unsafe { array::<3>(acceleration) }?);
            let l = Load::mass_proportional(index(marker, MarkerIndex)?, g).map_err(status_of)?;
            s.add_load(l).map_err(status_of)
        },
        |i| i.0,
    )
}

/// What a user load's vector is (`MBS_USER_LOAD_*`, fixed numbers).
pub type MbsUserLoadKind = u32;
/// A force (N, world frame) on a position marker.
pub const MBS_USER_LOAD_FORCE: MbsUserLoadKind = 0;
/// A torque (N m, world frame) on a rigid marker.
pub const MBS_USER_LOAD_TORQUE_GLOBAL: MbsUserLoadKind = 1;
/// A torque (N m, body frame of the rigid marker, turning with it).
pub const MBS_USER_LOAD_TORQUE_LOCAL: MbsUserLoadKind = 2;
/// A uniform acceleration (m/s^2, world frame) on a mass marker.
pub const MBS_USER_LOAD_MASS_PROPORTIONAL: MbsUserLoadKind = 3;

/// A user load's callback: writes the load's vector at time `t` (s) into `out[0..3]` (which
/// holds zeros when called). It is called with the `ctx` it was registered with, possibly
/// several times per step (start and end of a step, sensors, assemble), so it must be a
/// function of `t` and of what `ctx` holds, not count calls; it must write finite values (a
/// NaN fails the step, the state unchanged) and must not call `mbs_system_*` on the same
/// system: from a step, an assembly or a solve such a call returns `MBS_ERR_BUSY` and changes
/// nothing.
///
/// It must return: a C++ exception that leaves it aborts the process before it unwinds any
/// frame of mbs (as from every callback; catch everything inside), and no `longjmp` may jump
/// out of it across mbs (mbs's state would be left half-stepped). With generalized-alpha it is
/// also called while the Newton iteration runs.
pub type mbs_load_fn = Option<unsafe extern "C-unwind" fn(ctx: *mut c_void, t: f64, out: *mut f64)>;

/// Adds a user load on `marker`: its vector (a force, torque or acceleration as `kind` says,
/// `MBS_USER_LOAD_*`) is what `function(ctx, t, out)` writes at each time (see
/// `mbs_load_fn`). `ctx` is passed back unchanged (may be NULL) and must stay valid while the
/// system is used.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER` (`sys`, `function`, `load`),
/// `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_ARGUMENT` (unknown `kind`),
/// `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (the marker does
/// not fit the kind).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `function` is null or a function of that signature;
/// `load` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_load_user(
    sys: *mut mbs_system,
    marker: u32,
    kind: MbsUserLoadKind,
    function: mbs_load_fn,
    ctx: *mut c_void,
    load: *mut u32,
) -> MbsStatus {
    add(
        sys,
        load,
        |s| {
            let f = function.ok_or(MBS_ERR_NULL_POINTER)?;
            let kind = match kind {
                MBS_USER_LOAD_FORCE => UserLoadKind::Force,
                MBS_USER_LOAD_TORQUE_GLOBAL => UserLoadKind::TorqueGlobal,
                MBS_USER_LOAD_TORQUE_LOCAL => UserLoadKind::TorqueLocal,
                MBS_USER_LOAD_MASS_PROPORTIONAL => UserLoadKind::MassProportional,
                _ => return Err(MBS_ERR_INVALID_ARGUMENT),
            };
            // SAFETY: `unsafe extern "C-unwind" fn(*mut c_void, f64, *mut f64)` and core's
            // `extern "C-unwind" fn(*mut c_void, f64, *mut [f64; 3])` (`extern "C"` on bare
            // metal, where nothing unwinds) are ABI-compatible (thin
            // pointers to sized types; `unsafe` does not change the ABI), and core calls it
            // with a pointer to 3 doubles, as `mbs_load_fn` documents.
            let f: LoadFn<f64> = unsafe {
                core::mem::transmute::<
                    unsafe extern "C-unwind" fn(*mut c_void, f64, *mut f64),
                    LoadFn<f64>,
                >(f)
            };
            s.add_load(Load::user(index(marker, MarkerIndex)?, kind, f, ctx))
                .map_err(status_of)
        },
        |i| i.0,
    )
}

/// Sets the vector of load `load` to `value` (for control loops: a new force each period),
/// keeping its kind and marker and without un-assembling: a force (N, world), a torque
/// (N m, in the frame it was added with) or an acceleration (m/s^2, world).
///
/// Errors (the old vector stays): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_ARGUMENT` (a user load: its callback gives the vector).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `value` is null or holds 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_load_vector(
    sys: *mut mbs_system,
    load: u32,
    value: *const f64,
) -> MbsStatus {
    with_mut(sys, |s| {
        // SAFETY: the caller's guarantee.
        let v = Vector3::from(unsafe { array::<3>(value) }?);
        let i = index(load, LoadIndex)?;
        let new = match *s.sys.load(i).map_err(status_of)? {
            Load::ForceVector { marker, .. } => Load::force(marker, v),
            Load::TorqueVector {
                marker, body_fixed, ..
            } => Load::torque(marker, v, body_fixed),
            Load::MassProportional { marker, .. } => Load::mass_proportional(marker, v),
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        }
        .map_err(status_of)?;
        s.sys.replace_load(i, new).map_err(status_of)?;
        Ok(MBS_OK)
    })
}

// ---- connectors -----------------------------------------------------------------------------

/// The two markers `[marker0, marker1]` of a connector or constraint.
pub(crate) fn marker_pair(marker0: u32, marker1: u32) -> FfiResult<[MarkerIndex; 2]> {
    Ok([index(marker0, MarkerIndex)?, index(marker1, MarkerIndex)?])
}

/// Adds the connector `make` builds and writes its index to `*connector`.
fn add_connector(
    sys: *mut mbs_system,
    connector: *mut u32,
    make: impl FnOnce() -> FfiResult<Connector<f64>>,
) -> MbsStatus {
    add(
        sys,
        connector,
        |s| s.add_connector(make()?).map_err(status_of),
        |i| i.0,
    )
}

/// Adds Exudyn's `ObjectConnectorSpringDamper` between the position markers `marker0` and
/// `marker1`: with `L` the distance of their points and `n` the unit vector from marker 0 to
/// marker 1, the tension `f = stiffness (L - reference_length) + damping dL/dt + force` (N)
/// acts as `+f n` on marker 0 and `-f n` on marker 1. `stiffness` (N/m), `damping` (N s/m),
/// `reference_length` (m) >= 0; `force` (N) an offset. A zero length `L` fails the step
/// (`MBS_ERR_INVALID_LENGTH`, naming the connector).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_STIFFNESS_DAMPING`,
/// `MBS_ERR_INVALID_LENGTH`, `MBS_ERR_SAME_MARKER`, `MBS_ERR_CAPACITY_FULL`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (a mass marker).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `connector` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_spring_damper(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    stiffness: f64,
    damping: f64,
    reference_length: f64,
    force: f64,
    connector: *mut u32,
) -> MbsStatus {
    add_connector(sys, connector, || {
        let m = marker_pair(marker0, marker1)?;
        for x in [stiffness, damping, reference_length, force] {
            finite(x)?;
        }
        SpringDamper::new(m, stiffness, damping, reference_length, force)
            .map(Connector::SpringDamper)
            .map_err(status_of)
    })
}

/// Adds Exudyn's `ObjectConnectorTorsionalSpringDamper` between the rigid markers `marker0`
/// and `marker1` (a revolute joint's markers): about marker 0's z axis `z_0`, with the relative
/// angle `phi` (rad, in (-pi, pi]) and rate `w` (rad/s) of marker 1, the torque
/// `tau = stiffness wrap(phi - offset) + damping (w - rate_offset) + torque` (N m; `wrap` to
/// (-pi, pi]; the rate offset starts at 0) acts as `tau z_0` on marker 0's body and
/// `-tau z_0` on marker 1's. `stiffness` (N m/rad) and `damping` (N m s/rad) >= 0. A
/// controller moves the target with `mbs_system_set_torsional_target`.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_STIFFNESS_DAMPING`,
/// `MBS_ERR_SAME_MARKER`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_MARKER` (not a rigid marker).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `connector` is null or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mbs_system_add_torsional_spring_damper(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    stiffness: f64,
    damping: f64,
    offset: f64,
    torque: f64,
    connector: *mut u32,
) -> MbsStatus {
    add_connector(sys, connector, || {
        let m = marker_pair(marker0, marker1)?;
        for x in [stiffness, damping, offset, torque] {
            finite(x)?;
        }
        TorsionalSpringDamper::new(m, stiffness, damping, offset, torque)
            .map(Connector::TorsionalSpringDamper)
            .map_err(status_of)
    })
}

/// Sets the target angle `offset` (rad) and rate `rate_offset` (rad/s) of the torsional
/// spring-damper `connector` (a controller driving a joint, each period), without
/// un-assembling.
///
/// Errors (the old target stays): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_MARKER` (another kind of connector).
///
/// # Safety
/// `sys` is null or an `mbs_system`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_torsional_target(
    sys: *mut mbs_system,
    connector: u32,
    offset: f64,
    rate_offset: f64,
) -> MbsStatus {
    with_mut(sys, |s| {
        let i = index(connector, ConnectorIndex)?;
        s.sys
            .set_torsional_target(i, finite(offset)?, finite(rate_offset)?)
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}

/// Adds Exudyn's `ObjectConnectorCartesianSpringDamper` between the position markers
/// `marker0` and `marker1`: `F = stiffness .* (p1 - p0 - offset) + damping .* (v1 - v0)`
/// (N, world) acts as `+F` on marker 0 and `-F` on marker 1; per-axis `stiffness` (N/m) and
/// `damping` (N s/m) >= 0, `offset` (m, world).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_STIFFNESS_DAMPING`,
/// `MBS_ERR_SAME_MARKER`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_MARKER`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; the arrays are null or hold 3 doubles; `connector` is
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_cartesian_spring_damper(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    stiffness: *const f64,
    damping: *const f64,
    offset: *const f64,
    connector: *mut u32,
) -> MbsStatus {
    add_connector(sys, connector, || {
        // SAFETY: the caller's guarantee.
        let (k, d, o) = unsafe {
            (
                array::<3>(stiffness)?,
                array::<3>(damping)?,
                array::<3>(offset)?,
            )
        };
        let m = marker_pair(marker0, marker1)?;
        CartesianSpringDamper::new(m, Vector3::from(k), Vector3::from(d), Vector3::from(o))
            .map(Connector::CartesianSpringDamper)
            .map_err(status_of)
    })
}
