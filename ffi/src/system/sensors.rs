//! The whole system from C, part 4: sensors that write into caller buffers.
//!
//! Each sensor has its own buffer of `rows` rows of `row_len = 1 + n` doubles:
//! `[t, v_0 .. v_(n-1)]` with the time (s) and the sensor's `n` values
//! (`n = mbs_output_variable_len(variable)`, 3 for a load sensor). Every successful step
//! appends one row per sensor; `mbs_system_solve_dynamic` starts the buffers over and writes
//! `number_of_steps + 1` rows (the start included). A full buffer is not written any more: the
//! row is counted in `dropped_rows` and the step returns `MBS_WARN_SENSOR_BUFFER_FULL` (the
//! step itself was taken). `mbs_system_sensor_clear` starts a buffer over (for a logger that
//! drains it), `mbs_system_reset` starts all over.
//!
//! The ffi keeps the buffer pointers next to the core system in the `mbs_system` storage and
//! implements core's `SensorSink` over them (`CSink`): values are staged while a row is
//! recorded and copied into the C buffers only when the row is complete, so a step that fails
//! leaves every buffer as it was.

use crate::boundary::{non_null_out, put, with_mut, with_ref, FfiResult};
use crate::convert::index;
use crate::output::{variable, write_value, MbsOutputVariable};
use crate::status::status_of;
use crate::status::*;
use crate::system::{mbs_system, SensorBuffer, MBS_SYSTEM_MAX_SENSORS};
use mbs_core::system::{ConstraintIndex, LoadIndex, MarkerIndex, NodeIndex, ObjectIndex};
use mbs_core::system::{Sensor, SensorIndex, SensorSink};
use nalgebra::Vector3;

const S: usize = MBS_SYSTEM_MAX_SENSORS as usize;

/// Core's `SensorSink` over the C buffers of a system's sensors (module docs).
pub(crate) struct CSink<'a> {
    buffers: &'a mut [SensorBuffer; S],
    staged: [[f64; 9]; S],
    staged_len: [usize; S],
    t: f64,
    open: bool,
    dropped: u64,
}

impl<'a> CSink<'a> {
    /// A sink over `buffers`.
    pub(crate) fn new(buffers: &'a mut [SensorBuffer; S]) -> Self {
        Self {
            buffers,
            staged: [[0.0; 9]; S],
            staged_len: [0; S],
            t: 0.0,
            open: false,
            dropped: 0,
        }
    }

    /// Rows dropped for a full buffer since the sink was made.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped
    }
}

impl SensorSink<f64> for CSink<'_> {
    fn begin_row(&mut self, t: f64) {
        self.t = t;
        self.open = true;
        self.staged_len = [0; S];
    }

    fn record(&mut self, sensor: SensorIndex, _t: f64, values: &[f64]) {
        let i = sensor.get();
        if let (true, Some(dst), Some(len)) = (
            self.open,
            self.staged.get_mut(i),
            self.staged_len.get_mut(i),
        ) {
            let n = values.len().min(9);
            dst[..n].copy_from_slice(&values[..n]);
            *len = n;
        }
    }

    fn end_row(&mut self) {
        if !self.open {
            return;
        }
        self.open = false;
        for (i, b) in self.buffers.iter_mut().enumerate() {
            let n = self.staged_len[i];
            if n == 0 || b.capacity == 0 {
                continue;
            }
            if b.rows >= b.capacity || n + 1 != b.row_len {
                b.dropped += 1;
                self.dropped += 1;
                continue;
            }
            // SAFETY: `ptr` holds `capacity * row_len` doubles (checked when the sensor was
            // added, the caller keeps it valid) and `rows < capacity`.
            unsafe {
                let row = b.ptr.add(b.rows * b.row_len);
                row.write(self.t);
                core::ptr::copy_nonoverlapping(self.staged[i].as_ptr(), row.add(1), n);
            }
            b.rows += 1;
        }
    }
}

/// What a sensor reads (`MBS_SENSOR_*`, fixed numbers).
pub type MbsSensorKind = u32;
/// Exudyn's `SensorNode`: `variable` of node `index` (see `mbs_system_node_output`).
pub const MBS_SENSOR_NODE: MbsSensorKind = 0;
/// Exudyn's `SensorBody`: `variable` of body `index` at `local_position` (see
/// `mbs_system_object_output`).
pub const MBS_SENSOR_BODY: MbsSensorKind = 1;
/// Exudyn's `SensorMarker`: `variable` of marker `index` (see `mbs_system_marker_output`).
pub const MBS_SENSOR_MARKER: MbsSensorKind = 2;
/// Exudyn's `SensorLoad`: the vector of load `index` (3 values; `variable` ignored).
pub const MBS_SENSOR_LOAD: MbsSensorKind = 3;
/// Exudyn's `SensorObject` of a constraint: `MBS_OUTPUT_FORCE` or
/// `MBS_OUTPUT_CONSTRAINT_RESIDUAL` of constraint `index` (see `mbs_system_constraint_output`).
pub const MBS_SENSOR_CONSTRAINT: MbsSensorKind = 4;

/// What a sensor reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_sensor_spec {
    /// `MBS_SENSOR_*`.
    pub kind: MbsSensorKind,
    /// Index of the node, body, marker, load or constraint.
    pub index: u32,
    /// The output (`MBS_OUTPUT_*`; ignored for a load sensor).
    pub variable: MbsOutputVariable,
    /// Body sensors: the point (m, body frame, from the reference point); else ignored.
    pub local_position: [f64; 3],
}

impl mbs_sensor_spec {
    /// The checked core sensor: `MBS_ERR_INVALID_ARGUMENT`, `MBS_ERR_NOT_FINITE`,
    /// `MBS_ERR_UNKNOWN_INDEX` (index past 65535).
    pub fn to_core(&self) -> FfiResult<Sensor<f64>> {
        Ok(match self.kind {
            MBS_SENSOR_NODE => Sensor::Node {
                node: index(self.index, NodeIndex)?,
                variable: variable(self.variable)?,
            },
            MBS_SENSOR_BODY => {
                crate::boundary::all_finite(&self.local_position)?;
                Sensor::body(
                    index(self.index, ObjectIndex)?,
                    Vector3::from(self.local_position),
                    variable(self.variable)?,
                )
                .map_err(status_of)?
            }
            MBS_SENSOR_MARKER => Sensor::Marker {
                marker: index(self.index, MarkerIndex)?,
                variable: variable(self.variable)?,
            },
            MBS_SENSOR_LOAD => Sensor::Load {
                load: index(self.index, LoadIndex)?,
            },
            MBS_SENSOR_CONSTRAINT => Sensor::Constraint {
                constraint: index(self.index, ConstraintIndex)?,
                variable: variable(self.variable)?,
            },
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        })
    }
}

/// Adds a sensor (`*spec`) that appends a row `[t, values...]` of
/// `1 + mbs_output_variable_len(spec->variable)` doubles (1 + 3 for a load sensor) to
/// `buffer` after every step, `rows` rows at most (module docs: a full buffer drops rows and
/// warns). `buffer` may be NULL with `rows == 0`: the sensor is then only read on demand
/// (`mbs_system_sensor_value`). The buffer must stay valid (and not be written by the caller
/// during a step) while the system is stepped. The sensor is read once here to check it.
///
/// Errors (nothing added, `*sensor` untouched): `MBS_ERR_NULL_POINTER` (`sys`, `spec`,
/// `sensor`, or `buffer` with `rows > 0`), `MBS_ERR_STORAGE` (misaligned `sys`, or
/// `rows * row_len` overflows), `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_ARGUMENT`
/// (unknown kind or variable), `MBS_ERR_NOT_FINITE` (`local_position`),
/// `MBS_ERR_CAPACITY_FULL`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_NOT_AVAILABLE` (the item does
/// not give the variable), `MBS_ERR_INVALID_LOCAL_POSITION`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `spec` is null or valid; `buffer` is null or holds
/// `rows * row_len` writable doubles and outlives the system's use; `sensor` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_sensor(
    sys: *mut mbs_system,
    spec: *const mbs_sensor_spec,
    buffer: *mut f64,
    rows: usize,
    sensor: *mut u32,
) -> MbsStatus {
    with_mut(sys, |s| {
        non_null_out(sensor)?;
        // SAFETY: the caller's guarantee.
        let c = unsafe { crate::boundary::read(spec) }?.to_core()?;
        if buffer.is_null() && rows > 0 {
            return Err(MBS_ERR_NULL_POINTER);
        }
        let row_len = 1 + c.len();
        rows.checked_mul(row_len)
            .and_then(|n| n.checked_mul(core::mem::size_of::<f64>()))
            .filter(|n| *n <= isize::MAX as usize)
            .ok_or(MBS_ERR_STORAGE)?;
        let i = s.sys.add_sensor(c).map_err(status_of)?;
        if let Some(b) = s.buffers.get_mut(i.get()) {
            *b = SensorBuffer {
                ptr: if rows == 0 {
                    core::ptr::null_mut()
                } else {
                    buffer
                },
                capacity: rows,
                row_len,
                rows: 0,
                dropped: 0,
            };
        }
        put(sensor, u32::from(i.0));
        Ok(MBS_OK)
    })
}

/// A sensor's buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_sensor_info {
    /// Doubles per row: 1 (time) + the sensor's values.
    pub row_len: usize,
    /// Rows the buffer holds (0: no buffer).
    pub capacity: usize,
    /// Rows written so far.
    pub rows: usize,
    /// Rows not written because the buffer was full.
    pub dropped_rows: u64,
}

fn buffer(s: &crate::system::Inner, sensor: u32) -> FfiResult<SensorBuffer> {
    let i = usize::try_from(sensor).map_err(|_| MBS_ERR_UNKNOWN_INDEX)?;
    if i >= s.sys.counts()[5] {
        return Err(MBS_ERR_UNKNOWN_INDEX);
    }
    s.buffers.get(i).copied().ok_or(MBS_ERR_UNKNOWN_INDEX)
}

/// The number of rows sensor `sensor` has written into its buffer, into `*rows`.
///
/// Errors (`*rows` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `rows` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_sensor_rows(
    sys: *const mbs_system,
    sensor: u32,
    rows: *mut usize,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(rows)?;
        put(rows, buffer(s, sensor)?.rows);
        Ok(MBS_OK)
    })
}

/// Row length, capacity, rows written and rows dropped of sensor `sensor`, into `*out`.
///
/// Errors (`*out` untouched): as `mbs_system_sensor_rows`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_sensor_info(
    sys: *const mbs_system,
    sensor: u32,
    out: *mut mbs_sensor_info,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        let b = buffer(s, sensor)?;
        put(
            out,
            mbs_sensor_info {
                row_len: b.row_len,
                capacity: b.capacity,
                rows: b.rows,
                dropped_rows: b.dropped,
            },
        );
        Ok(MBS_OK)
    })
}

/// Starts sensor `sensor`'s buffer over: 0 rows, 0 dropped (the next step writes row 0).
///
/// Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`,
/// `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `sys` is null or an `mbs_system`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_sensor_clear(sys: *mut mbs_system, sensor: u32) -> MbsStatus {
    with_mut(sys, |s| {
        buffer(s, sensor)?;
        if let Some(b) = usize::try_from(sensor)
            .ok()
            .and_then(|i| s.buffers.get_mut(i))
        {
            b.rows = 0;
            b.dropped = 0;
        }
        Ok(MBS_OK)
    })
}

/// The current value of sensor `sensor` (without the time) into `out[0 .. n)` and `n` into
/// `*written`.
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE` (also `out_len <
/// n`), `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_NOT_FINITE` (a
/// callback's NaN), `MBS_ERR_NON_FINITE_STATE`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or holds `out_len` writable doubles;
/// `written` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_sensor_value(
    sys: *const mbs_system,
    sensor: u32,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        non_null_out(written)?;
        let i = u16::try_from(sensor)
            .map(SensorIndex)
            .map_err(|_| MBS_ERR_UNKNOWN_INDEX)?;
        let v = s.sys.read_sensor(i).map_err(status_of)?;
        // SAFETY: non-null; `out_len` writable doubles by the caller's guarantee.
        match unsafe { write_value(&v, out, out_len, written) } {
            MBS_OK => Ok(MBS_OK),
            e => Err(e),
        }
    })
}
