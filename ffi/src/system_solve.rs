//! The whole system from C, part 3: assemble, step, solve, and reading the system (outputs by
//! output variable type, node states).

use crate::convert::{non_null_out, read, status_of, FfiResult};
use crate::mass_point_2d::mbs_point2d_state;
use crate::output::{variable, write_value, MbsOutputVariable};
use crate::rigid_state::mbs_rigid_state;
use crate::rigid_step::time_step;
use crate::simulation_settings::mbs_simulation_settings;
use crate::status::*;
use crate::system::{mbs_system, put, with_mut, with_ref, Inner};
use crate::system_items::{array, load_index, marker_index, node_index, object_index};
use crate::system_sensors::CSink;
use mbs_core::integrators::StepStatus;
use mbs_core::nodes::Point2DState;
use mbs_core::system::{ItemRef, NodeState, SystemError};
use mbs_core::OutputValue;
use nalgebra::{Vector2, Vector3};

/// What kind of item an `mbs_item_ref` names (`MBS_ITEM_*`, fixed numbers).
pub type MbsItemKind = u32;
/// The system as a whole (settings, time step, not assembled).
pub const MBS_ITEM_SYSTEM: MbsItemKind = 0;
/// A node.
pub const MBS_ITEM_NODE: MbsItemKind = 1;
/// An object.
pub const MBS_ITEM_OBJECT: MbsItemKind = 2;
/// A marker.
pub const MBS_ITEM_MARKER: MbsItemKind = 3;
/// A load.
pub const MBS_ITEM_LOAD: MbsItemKind = 4;
/// A connector.
pub const MBS_ITEM_CONNECTOR: MbsItemKind = 5;
/// A sensor.
pub const MBS_ITEM_SENSOR: MbsItemKind = 6;

/// Names the item a whole-system call (assemble, step, solve) failed at.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_item_ref {
    /// `MBS_ITEM_*`.
    pub kind: MbsItemKind,
    /// The item's index (0 for `MBS_ITEM_SYSTEM`).
    pub index: u32,
}

impl mbs_item_ref {
    /// The C form of core's `ItemRef`.
    pub fn of(r: ItemRef) -> Self {
        let (kind, index) = match r {
            ItemRef::Node(i) => (MBS_ITEM_NODE, i.0),
            ItemRef::Object(i) => (MBS_ITEM_OBJECT, i.0),
            ItemRef::Marker(i) => (MBS_ITEM_MARKER, i.0),
            ItemRef::Load(i) => (MBS_ITEM_LOAD, i.0),
            ItemRef::Connector(i) => (MBS_ITEM_CONNECTOR, i.0),
            ItemRef::Sensor(i) => (MBS_ITEM_SENSOR, i.0),
            ItemRef::System => (MBS_ITEM_SYSTEM, 0),
        };
        Self {
            kind,
            index: u32::from(index),
        }
    }
}

/// The status of a core system error, writing the item to `*failed` if not NULL. On finite
/// inputs a `NotFinite` from a step is a callback's or an overflow's (`MBS_ERR_NON_FINITE_STATE`
/// at the item).
fn system_error(e: SystemError, failed: *mut mbs_item_ref) -> MbsStatus {
    if !failed.is_null() {
        put(failed, mbs_item_ref::of(e.item));
    }
    status_of(e.error)
}

/// Checks the whole system and marks it assembled (core's `assemble`): settings; every node
/// (its state valid, a node with coordinates carrying a body); every object (its node exists,
/// is of its kind, carries only it); every marker, load, connector, sensor; and that the
/// forces can be evaluated in the current state (a callback writing NaN, a spring of zero
/// length). Keeps the current state and time.
///
/// Errors (the system stays **unassembled**, nothing else changes; `*failed_item`, which may
/// be NULL, receives the item of the first problem): `MBS_ERR_NULL_POINTER`,
/// `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_SETTING`,
/// `MBS_ERR_NODE_WITHOUT_BODY`, `MBS_ERR_NODE_ALREADY_USED`, `MBS_ERR_WRONG_NODE_KIND`,
/// `MBS_ERR_NON_FINITE_STATE`, `MBS_ERR_INVALID_ORIENTATION`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_MARKER`, `MBS_ERR_SAME_MARKER`, `MBS_ERR_NOT_AVAILABLE`,
/// `MBS_ERR_INVALID_LENGTH` (zero-length spring), `MBS_ERR_NOT_FINITE` (a callback's NaN).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `failed_item` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_assemble(
    sys: *mut mbs_system,
    failed_item: *mut mbs_item_ref,
) -> MbsStatus {
    with_mut(sys, |s| {
        s.sys.assemble().map_err(|e| system_error(e, failed_item))?;
        Ok(MBS_OK)
    })
}

/// What a system step did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_system_step_report {
    /// `MBS_OK`, `MBS_WARN_STEP_TOO_LARGE` (a rigid body turned by more than
    /// `max_rotation_per_step` in a (sub-)step) or `MBS_WARN_SENSOR_BUFFER_FULL` (the first
    /// of the two, as the call returns).
    pub status: MbsStatus,
    /// The largest number of sub-steps a rigid body took (1 without sub-stepping, 0 without
    /// rigid bodies).
    pub substeps: u32,
    /// Evaluations of all loads and connector forces in this step (2, or 3 with damping).
    pub force_evaluations: u32,
    /// Sensor rows not written because their buffer was full, in this step.
    pub sensor_rows_dropped: u32,
}

fn warning(too_large: bool, dropped: u64) -> MbsStatus {
    if too_large {
        MBS_WARN_STEP_TOO_LARGE
    } else if dropped > 0 {
        MBS_WARN_SENSOR_BUFFER_FULL
    } else {
        MBS_OK
    }
}

/// Advances the system by `dt` (s) from its current time with its settings
/// (`mbs_system_set_settings`; default kick-drift-kick, second order), then appends one row
/// `[t, values...]` to every sensor's buffer. For a real-time loop: no allocation,
/// O(items) work. `*report` (may be NULL) receives what the step did.
///
/// Returns `MBS_OK` or a warning (the step **was** taken): `MBS_WARN_STEP_TOO_LARGE`,
/// `MBS_WARN_SENSOR_BUFFER_FULL`.
///
/// Errors (state, time and sensor buffers unchanged; `*failed_item`, may be NULL, names the
/// item): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`,
/// `MBS_ERR_NOT_FINITE` (`dt`, or a callback's NaN), `MBS_ERR_INVALID_TIME_STEP` (`dt <= 0`),
/// `MBS_ERR_NOT_ASSEMBLED`, `MBS_ERR_INVALID_LENGTH` (a spring of zero length),
/// `MBS_ERR_NON_FINITE_STATE` (the result overflowed), `MBS_ERR_SOLVER_FAILED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `report` and `failed_item` are null or writable; every
/// sensor buffer given to `mbs_system_add_sensor` is still valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_step(
    sys: *mut mbs_system,
    dt: f64,
    report: *mut mbs_system_step_report,
    failed_item: *mut mbs_item_ref,
) -> MbsStatus {
    with_mut(sys, |s| {
        let dt = time_step(dt)?;
        if !s.sys.is_assembled() {
            return Err(system_error(
                SystemError::new(mbs_core::Error::NotAssembled, ItemRef::System),
                failed_item,
            ));
        }
        let Inner { sys, buffers, .. } = s;
        let mut sink = CSink::new(buffers);
        let r = sys.step(dt, &mut sink);
        let r = r.map_err(|e| system_error(e, failed_item))?;
        let dropped = sink.dropped();
        let status = warning(r.status != StepStatus::Ok, dropped);
        if !report.is_null() {
            put(
                report,
                mbs_system_step_report {
                    status,
                    substeps: r.substeps,
                    force_evaluations: r.force_evaluations,
                    sensor_rows_dropped: u32::try_from(dropped).unwrap_or(u32::MAX),
                },
            );
        }
        Ok(status)
    })
}

/// What a system solve did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_system_solve_report {
    /// `MBS_OK` or the first warning, as the call returns.
    pub status: MbsStatus,
    /// Steps taken (`number_of_steps`).
    pub steps: u32,
    /// Steps that warned `MBS_WARN_STEP_TOO_LARGE` (the solve went on).
    pub steps_too_large: u32,
    /// The largest number of sub-steps of a rigid body in one step.
    pub max_substeps: u32,
    /// Evaluations of all loads and connector forces.
    pub force_evaluations: u64,
    /// Sensor rows not written because their buffer was full.
    pub sensor_rows_dropped: u64,
}

/// Exudyn's `SolveDynamic` for the system: every sensor buffer is emptied (0 rows), every
/// node put in its initial state at `settings->start_time`, one sensor row recorded there, then
/// `settings->number_of_steps` equal steps to `settings->end_time` with the system's own
/// settings (`mbs_system_set_settings`), a sensor row after each. A buffer of
/// `number_of_steps + 1` rows holds the whole run. The system is left at `end_time`. Of
/// `*settings` the time span is used; the generalized-alpha fields are validated but the
/// system integrates with its coupled scheme.
///
/// Returns `MBS_OK` or a warning (`MBS_WARN_STEP_TOO_LARGE`, `MBS_WARN_SENSOR_BUFFER_FULL`).
/// `*report` (may be NULL) receives what the solve did.
///
/// Errors (state and time as before the call, every sensor's row count as before; the data
/// past those rows may have been overwritten; `*failed_item`, may be NULL, names the item):
/// `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`,
/// `MBS_ERR_NOT_ASSEMBLED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_ARGUMENT` (solver type),
/// `MBS_ERR_INVALID_SETTING` (end <= start, 0 steps, ...), any step's error.
///
/// # Safety
/// As `mbs_system_step`; `settings` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_solve_dynamic(
    sys: *mut mbs_system,
    settings: *const mbs_simulation_settings,
    report: *mut mbs_system_solve_report,
    failed_item: *mut mbs_item_ref,
) -> MbsStatus {
    with_mut(sys, |s| {
        // SAFETY: the caller's guarantee.
        let c = unsafe { read(settings) }?.to_core()?;
        if !s.sys.is_assembled() {
            return Err(system_error(
                SystemError::new(mbs_core::Error::NotAssembled, ItemRef::System),
                failed_item,
            ));
        }
        let Inner { sys, buffers, .. } = s;
        let saved = buffers.map(|b| (b.rows, b.dropped));
        for b in buffers.iter_mut() {
            b.rows = 0;
            b.dropped = 0;
        }
        let mut sink = CSink::new(buffers);
        let r = sys.solve_dynamic(&c, &mut sink);
        let dropped = sink.dropped();
        match r {
            Ok(r) => {
                let status = warning(r.steps_too_large > 0, dropped);
                if !report.is_null() {
                    put(
                        report,
                        mbs_system_solve_report {
                            status,
                            steps: r.steps,
                            steps_too_large: r.steps_too_large,
                            max_substeps: r.max_substeps,
                            force_evaluations: r.force_evaluations,
                            sensor_rows_dropped: dropped,
                        },
                    );
                }
                Ok(status)
            }
            Err(e) => {
                for (b, (rows, d)) in buffers.iter_mut().zip(saved) {
                    b.rows = rows;
                    b.dropped = d;
                }
                Err(system_error(e, failed_item))
            }
        }
    })
}

// ---- outputs --------------------------------------------------------------------------------

/// Writes an output value (checked pointers first).
fn output(
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
            let (i, v) = (node_index(node)?, variable(var)?);
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
            let (i, v) = (object_index(object)?, variable(var)?);
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
            let (i, v) = (marker_index(marker)?, variable(var)?);
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
        let v = s.sys.load_value(load_index(load)?).map_err(status_of)?;
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
        match s.sys.node_state(node_index(node)?).map_err(status_of)? {
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
            .set_node_state(node_index(node)?, st)
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
        match s.sys.node_state(node_index(node)?).map_err(status_of)? {
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
            .set_node_state(node_index(node)?, NodeState::RigidBody(st))
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}
