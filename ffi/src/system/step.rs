//! Advancing a system from C: assemble, step, solve, with their reports and the item that
//! failed.

use crate::boundary::{put, time_step, with_mut};
use crate::status::status_of;
use crate::status::*;
use crate::system::sensors::CSink;
use crate::system::{mbs_system, Inner};
use mbs_core::integrators::StepStatus;
use mbs_core::system::{ItemRef, StepReport, SystemError};

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
/// A constraint.
pub const MBS_ITEM_CONSTRAINT: MbsItemKind = 7;

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
            ItemRef::Constraint(i) => (MBS_ITEM_CONSTRAINT, i.0),
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
pub(crate) fn system_error(e: SystemError, failed: *mut mbs_item_ref) -> MbsStatus {
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
/// `MBS_ERR_INVALID_LENGTH` (zero-length spring), `MBS_ERR_NOT_FINITE` (a callback's NaN),
/// `MBS_ERR_NOT_SUPPORTED_BY_SCHEME` (a constraint with an explicit scheme). With
/// `MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA` (3D rigid bodies in Euler parameters) also: every
/// constraint joins bodies it can join (`MBS_ERR_INVALID_MARKER`), the coordinates plus equations fit
/// `MBS_SYSTEM_SOLVER_CAPACITY` (`MBS_ERR_CAPACITY_FULL`), and the start values are computed:
/// the current positions and velocities satisfy the constraints to `alpha_assembly_tolerance`
/// (`MBS_ERR_CONSTRAINT_VIOLATED`, naming the constraint with the largest position residual, or
/// the system when the velocities are at fault) or are projected onto them
/// (`alpha_assembly_solve`), and the
/// consistent accelerations and multipliers are solved (`MBS_ERR_SINGULAR_MATRIX`: redundant or
/// contradictory constraints).
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
    /// The sub-steps taken: with kick-drift-kick or held loads the largest number of a rigid body (1
    /// without sub-stepping, 0 without rigid bodies); with generalized-alpha the parts of a
    /// halved step (`halvings + 1`).
    pub substeps: u32,
    /// Evaluations of all loads and connector forces in this step (kick-drift-kick 2, or 3
    /// with damping; generalized-alpha one per Newton iteration and one more).
    pub force_evaluations: u32,
    /// Sensor rows not written because their buffer was full, in this step.
    pub sensor_rows_dropped: u32,
    /// Generalized-alpha: Newton updates of this step (of its last half when halved); 0
    /// otherwise. `mbs_system_newton_report` has the residuals.
    pub newton_iterations: u32,
    /// Generalized-alpha: how often a (part of the) step was halved (`alpha_step_halving`); 0
    /// otherwise.
    pub halvings: u32,
}

impl mbs_system_step_report {
    /// The C form of core's step report, with the rows the step dropped.
    pub(crate) fn of(r: &StepReport, dropped: u64) -> Self {
        Self {
            status: warning(r.status != StepStatus::Ok, dropped),
            substeps: r.substeps,
            force_evaluations: r.force_evaluations,
            sensor_rows_dropped: u32::try_from(dropped).unwrap_or(u32::MAX),
            newton_iterations: r.newton_iterations,
            halvings: r.halvings,
        }
    }
}

pub(crate) fn warning(too_large: bool, dropped: u64) -> MbsStatus {
    if too_large {
        MBS_WARN_STEP_TOO_LARGE
    } else if dropped > 0 {
        MBS_WARN_SENSOR_BUFFER_FULL
    } else {
        MBS_OK
    }
}

/// Advances the system by `dt` (s) from its current time (a compensated sum of the steps: `n`
/// steps of `h` end at `n h` to a rounding, the time `mbs_system_solve_dynamic` computes as
/// `t0 + i h`) with its settings
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
/// `MBS_ERR_NON_FINITE_STATE` (the result overflowed), `MBS_ERR_SOLVER_FAILED`; with
/// generalized-alpha `MBS_ERR_NEWTON_NOT_CONVERGED`, `MBS_ERR_SINGULAR_MATRIX` (after the
/// halvings `alpha_step_halving` allows), and the start's errors (see `mbs_system_assemble`)
/// when the states were set or reset since.
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
        // The call's own argument (no item named); core checks it again for Rust callers.
        let dt = time_step(dt)?;
        let Inner { sys, buffers, .. } = s;
        let mut sink = CSink::new(buffers);
        let r = sys.step(dt, &mut sink);
        let r = r.map_err(|e| system_error(e, failed_item))?;
        let r = mbs_system_step_report::of(&r, sink.dropped());
        if !report.is_null() {
            put(report, r);
        }
        Ok(r.status)
    })
}
