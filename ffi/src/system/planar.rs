//! The planar items from C: Exudyn's `NodeRigidBody2D` and `ObjectRigidBody2D`, the
//! `MarkerNodeCoordinate` that coordinate constraints act on, and a 2D rigid node's state.

use crate::boundary::{finite, non_null_out, put, read, with_mut, with_ref, FfiResult};
use crate::convert::{array, index, vec2};
use crate::status::status_of;
use crate::status::*;
use crate::system::items::add;
use crate::system::mbs_system;
use mbs_core::bodies::RigidBody2D;
use mbs_core::nodes::{NodeRigidBody2D, Rigid2DState};
use mbs_core::system::{Marker, Node, NodeIndex, NodeState, Object};
use nalgebra::Vector3;

/// The state of a 2D rigid-body node: displacements `q = [x, y, theta]` from its reference
/// (m, m, rad), velocities `q_t` (m/s, m/s, rad/s), accelerations of the last step `q_tt`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_rigid2d_state {
    /// Displacements `[x, y, theta]` (m, m, rad).
    pub q: [f64; 3],
    /// Velocities (m/s, m/s, rad/s).
    pub q_t: [f64; 3],
    /// Accelerations (m/s^2, m/s^2, rad/s^2).
    pub q_tt: [f64; 3],
}

/// Adds Exudyn's `NodeRigidBody2D`: a body's reference point and angle in the x-y plane at
/// `reference` `[x, y, theta]` (m, m, rad), with the initial displacements
/// `initial_coordinates` and velocities `initial_velocities` (m/s, m/s, rad/s). Carries one
/// `rigid_body_2d` object.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; the arrays are null or hold 3 doubles; `node` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_node_rigid_2d(
    sys: *mut mbs_system,
    reference: *const f64,
    initial_coordinates: *const f64,
    initial_velocities: *const f64,
    node: *mut u32,
) -> MbsStatus {
    add(
        sys,
        node,
        |s| {
            // SAFETY: the caller's guarantee.
            let (r, q, v) = unsafe {
                (
                    array::<3>(reference)?,
                    array::<3>(initial_coordinates)?,
                    array::<3>(initial_velocities)?,
                )
            };
            crate::boundary::all_finite(&r)?;
            crate::boundary::all_finite(&q)?;
            crate::boundary::all_finite(&v)?;
            let n = NodeRigidBody2D::new(Vector3::from(r), Vector3::from(q), Vector3::from(v))
                .map_err(status_of)?;
            s.add_node(Node::RigidBody2D(n)).map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `ObjectRigidBody2D` on the 2D rigid-body node `node`: `mass` (kg, > 0),
/// `inertia` about the centre of mass and the z axis (kg m^2, > 0), the centre of mass at
/// `center_of_mass` (m, body frame, from the node's point; Exudyn's body has it at the node:
/// `[0, 0]`).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS`,
/// `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_WRONG_NODE_KIND` (not a 2D rigid-body node), `MBS_ERR_NODE_ALREADY_USED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `center_of_mass` is null or holds 2 doubles; `object` is
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_object_rigid_body_2d(
    sys: *mut mbs_system,
    node: u32,
    mass: f64,
    inertia: f64,
    center_of_mass: *const f64,
    object: *mut u32,
) -> MbsStatus {
    add(
        sys,
        object,
        |s| {
            // SAFETY: the caller's guarantee.
            let c = vec2(&unsafe { array::<2>(center_of_mass) }?)?;
            let body = RigidBody2D::new(finite(mass)?, finite(inertia)?, c).map_err(status_of)?;
            let node = index(node, NodeIndex)?;
            s.add_object(Object::RigidBody2D { node, body })
                .map_err(status_of)
        },
        |i| i.0,
    )
}

/// Adds Exudyn's `MarkerNodeCoordinate`: coordinate `coordinate` (0-based) of node `node`, its
/// displacement (m or rad; always 0 on a ground node, whose one coordinate is 0), for
/// `mbs_system_add_coordinate_constraint`.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_COORDINATE` (beyond the node's coordinates).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `marker` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_marker_node_coordinate(
    sys: *mut mbs_system,
    node: u32,
    coordinate: u32,
    marker: *mut u32,
) -> MbsStatus {
    add(
        sys,
        marker,
        |s| {
            let c = u16::try_from(coordinate).map_err(|_| MBS_ERR_INVALID_COORDINATE)?;
            s.add_marker(Marker::node_coordinate(index(node, NodeIndex)?, c))
                .map_err(status_of)
        },
        |i| i.0,
    )
}

/// The state of the 2D rigid-body node `node` into `*out`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_WRONG_NODE_KIND`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_get_rigid2d_state(
    sys: *const mbs_system,
    node: u32,
    out: *mut mbs_rigid2d_state,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        match s
            .sys
            .node_state(index(node, NodeIndex)?)
            .map_err(status_of)?
        {
            NodeState::RigidBody2D(r) => {
                put(
                    out,
                    mbs_rigid2d_state {
                        q: r.q.into(),
                        q_t: r.q_t.into(),
                        q_tt: r.q_tt.into(),
                    },
                );
                Ok(MBS_OK)
            }
            _ => Err(MBS_ERR_WRONG_NODE_KIND),
        }
    })
}

fn state_of(c: &mbs_rigid2d_state) -> FfiResult<NodeState<f64>> {
    for v in [&c.q, &c.q_t, &c.q_tt] {
        crate::boundary::all_finite(v)?;
    }
    Ok(NodeState::RigidBody2D(Rigid2DState {
        q: Vector3::from(c.q),
        q_t: Vector3::from(c.q_t),
        q_tt: Vector3::from(c.q_tt),
    }))
}

/// Sets the state of the 2D rigid-body node `node` (e.g. a measured pose). Does not
/// un-assemble; with generalized-alpha the next step computes consistent accelerations and
/// multipliers for it first (and checks it against the constraints, or projects it).
///
/// Errors (state unchanged): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_WRONG_NODE_KIND`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `state` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_rigid2d_state(
    sys: *mut mbs_system,
    node: u32,
    state: *const mbs_rigid2d_state,
) -> MbsStatus {
    with_mut(sys, |s| {
        // SAFETY: the caller's guarantee.
        let st = state_of(&unsafe { read(state) }?)?;
        s.sys
            .set_node_state(index(node, NodeIndex)?, st)
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}
