//! Reading and setting a system from C: outputs by output variable type (node, object,
//! marker, load values) and node states.

use crate::boundary::{non_null_out, put, read, with_mut, with_ref, FfiResult};
use crate::convert::{array, index};
use crate::mass_point_2d::mbs_point2d_state;
use crate::output::{variable, write_value, MbsOutputVariable};
use crate::rigid::state::mbs_rigid_state;
use crate::status::status_of;
use crate::status::*;
use crate::system::mbs_system;
use mbs_core::nodes::Point2DState;
use mbs_core::system::NodeState;
use mbs_core::system::{LoadIndex, MarkerIndex, NodeIndex, ObjectIndex};
use mbs_core::OutputValue;
use nalgebra::{Vector2, Vector3};

/// Writes an output value (checked pointers first).
pub(crate) fn output(
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
    f: impl FnOnce() -> FfiResult<OutputValue<f64>>,
) -> FfiResult<MbsStatus> {
    non_null_out(out)?;
    non_null_out(written)?;
    let v = f()?;
    // SAFETY: non-null; `out_len` writable doubles by the caller's guarantee.
    match unsafe { write_value(&v, out, out_len, written) } {
        MBS_OK => Ok(MBS_OK),
        e => Err(e),
    }
}

/// Exudyn's `GetNodeOutput`: output `var` of node `node` now into `out[0 .. n)` and `n` into
/// `*written` (`n = mbs_output_variable_len(var)`): a 2D point or ground node gives
/// `POSITION`, `DISPLACEMENT`, `VELOCITY`, `ACCELERATION` (world); a rigid-body node also
/// `ROTATION_MATRIX` (`R_0b`, row-major), `ANGULAR_VELOCITY` (world),
/// `ANGULAR_VELOCITY_LOCAL` (body), `ANGULAR_ACCELERATION` (world).
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_ARGUMENT` (unknown
/// `var`), `MBS_ERR_NOT_AVAILABLE`, `MBS_ERR_STORAGE` (`out_len < n`),
/// `MBS_ERR_NON_FINITE_STATE`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or holds `out_len` writable doubles;
/// `written` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_node_output(
    sys: *const mbs_system,
    node: u32,
    var: MbsOutputVariable,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    with_ref(sys, |s| {
        output(out, out_len, written, || {
            let (i, v) = (index(node, NodeIndex)?, variable(var)?);
            s.sys.node_output(i, v).map_err(status_of)
        })
    })
}

/// Exudyn's `GetObjectOutputBody`: output `var` of body `object` at `local_position` (m, body
/// frame, from its reference point) now, as the body's own table gives it (see
/// `mbs_rigid_output`, `mbs_mass_point_2d_output`; a ground object gives its fixed point).
/// `local_position` may be NULL for `{0, 0, 0}`.
///
/// Errors (outputs untouched): as `mbs_system_node_output`, and `MBS_ERR_NOT_FINITE`
/// (`local_position`), `MBS_ERR_INVALID_LOCAL_POSITION`.
///
/// # Safety
/// As `mbs_system_node_output`; `local_position` is null or holds 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_object_output(
    sys: *const mbs_system,
    object: u32,
    var: MbsOutputVariable,
    local_position: *const f64,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    with_ref(sys, |s| {
        output(out, out_len, written, || {
            let p = if local_position.is_null() {
                Vector3::zeros()
            } else {
                // SAFETY: the caller's guarantee.
                Vector3::from(unsafe { array::<3>(local_position) }?)
            };
            let (i, v) = (index(object, ObjectIndex)?, variable(var)?);
            s.sys.object_output(i, v, &p).map_err(status_of)
        })
    })
}

/// Exudyn's `GetMarkerOutput`: `POSITION`, `VELOCITY` (world; of the centre of mass for a
/// mass marker), and for a body rigid marker also `ROTATION_MATRIX`, `ANGULAR_VELOCITY`
/// (world), `ANGULAR_VELOCITY_LOCAL` (body) of marker `marker` now.
///
/// Errors (outputs untouched): as `mbs_system_node_output`.
///
/// # Safety
/// As `mbs_system_node_output`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_marker_output(
    sys: *const mbs_system,
    marker: u32,
    var: MbsOutputVariable,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    with_ref(sys, |s| {
        output(out, out_len, written, || {
            let (i, v) = (index(marker, MarkerIndex)?, variable(var)?);
            s.sys.marker_output(i, v).map_err(status_of)
        })
    })
}

/// The vector of load `load` at the current time into `out[0..3]`: force (N, world), torque
/// (N m, world or body frame as added) or acceleration (m/s^2, world); a user load's callback
/// is called.
///
/// Errors (`out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_NOT_FINITE` (a callback's
/// NaN).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or holds 3 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_load_value(
    sys: *const mbs_system,
    load: u32,
    out: *mut f64,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        let v = s
            .sys
            .load_value(index(load, LoadIndex)?)
            .map_err(status_of)?;
        put(out.cast::<[f64; 3]>(), v.into());
        Ok(MBS_OK)
    })
}

// ---- node states ----------------------------------------------------------------------------

/// The state of the 2D point node `node` into `*out` (`a` = `q_tt`, the acceleration of the
/// last step).
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_WRONG_NODE_KIND`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_get_point2d_state(
    sys: *const mbs_system,
    node: u32,
    out: *mut mbs_point2d_state,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        match s
            .sys
            .node_state(index(node, NodeIndex)?)
            .map_err(status_of)?
        {
            NodeState::Point2D(p) => {
                put(
                    out,
                    mbs_point2d_state {
                        q: p.q.into(),
                        q_t: p.q_t.into(),
                        q_tt: p.q_tt.into(),
                        a: p.q_tt.into(),
                    },
                );
                Ok(MBS_OK)
            }
            _ => Err(MBS_ERR_WRONG_NODE_KIND),
        }
    })
}

/// Sets the state of the 2D point node `node` (`q`, `q_t`, `q_tt`; `a` is ignored), e.g. a
/// measured position. Does not un-assemble.
///
/// Errors (state unchanged): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_WRONG_NODE_KIND`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `state` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_point2d_state(
    sys: *mut mbs_system,
    node: u32,
    state: *const mbs_point2d_state,
) -> MbsStatus {
    with_mut(sys, |s| {
        // SAFETY: the caller's guarantee.
        let c = unsafe { read(state) }?;
        c.to_core()?;
        let st = NodeState::Point2D(Point2DState {
            q: Vector2::from(c.q),
            q_t: Vector2::from(c.q_t),
            q_tt: Vector2::from(c.q_tt),
        });
        s.sys
            .set_node_state(index(node, NodeIndex)?, st)
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}

/// The state of the rigid-body node `node` into `*out` (pose, twist with the angular velocity
/// in the **body** frame, last accelerations; see `mbs_rigid_state`).
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_WRONG_NODE_KIND`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_get_rigid_state(
    sys: *const mbs_system,
    node: u32,
    out: *mut mbs_rigid_state,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        match s
            .sys
            .node_state(index(node, NodeIndex)?)
            .map_err(status_of)?
        {
            NodeState::RigidBody(r) => {
                put(out, mbs_rigid_state::of(r));
                Ok(MBS_OK)
            }
            _ => Err(MBS_ERR_WRONG_NODE_KIND),
        }
    })
}

/// Sets the state of the rigid-body node `node` (e.g. a measured pose). Does not un-assemble.
///
/// Errors (state unchanged): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_ORIENTATION`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_WRONG_NODE_KIND`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `state` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_rigid_state(
    sys: *mut mbs_system,
    node: u32,
    state: *const mbs_rigid_state,
) -> MbsStatus {
    with_mut(sys, |s| {
        // SAFETY: the caller's guarantee.
        let st = unsafe { read(state) }?.to_core()?;
        s.sys
            .set_node_state(index(node, NodeIndex)?, NodeState::RigidBody(st))
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}
