//! Sensors (Exudyn's `SensorNode`, `SensorBody`, `SensorMarker`, `SensorLoad`, and
//! `SensorObject` of a constraint) and the sinks
//! their values are written to after every step.
//!
//! Core holds no pointer to a caller's buffer: [`step`](super::System::step) and
//! [`solve_dynamic`](super::System::solve_dynamic) take a [`SensorSink`] and call, after each
//! step (and at the start time for `solve_dynamic`), `begin_row(t)`, then
//! `record(sensor, t, values)` for every sensor in index order, then `end_row()`. Values are
//! those of [`OutputValue::write_to`](crate::OutputValue::write_to): 1 (scalar), 3 (vector) or
//! 9 (matrix, row-major) numbers. [`SliceSink`] writes rows `[t, values of sensor 0, values of
//! sensor 1, ...]` into a `&mut [T]`; the C API implements the trait over C buffers.

use super::index::{ConstraintIndex, LoadIndex, MarkerIndex, NodeIndex, ObjectIndex, SensorIndex};
use crate::error::finite_all;
use crate::{OutputVariableType, Param, Real, Result};
use nalgebra::Vector3;

/// A sensor: which item, which output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sensor<T: Real> {
    /// Exudyn's `SensorNode`: `variable` of a node ([`System::node_output`](super::System::node_output)).
    Node {
        /// The node.
        node: NodeIndex,
        /// The output.
        variable: OutputVariableType,
    },
    /// Exudyn's `SensorBody`: `variable` of a body at `local_position` (m, body frame).
    Body {
        /// The body.
        object: ObjectIndex,
        /// Where on the body (m, body frame, from the reference point).
        local_position: Vector3<T>,
        /// The output.
        variable: OutputVariableType,
    },
    /// Exudyn's `SensorMarker`: `variable` of a marker
    /// ([`Marker::output`](super::Marker::output)).
    Marker {
        /// The marker.
        marker: MarkerIndex,
        /// The output.
        variable: OutputVariableType,
    },
    /// Exudyn's `SensorLoad`: the load's vector at the time (N, N m or m/s^2, as the load
    /// gives it; a user load's callback is called).
    Load {
        /// The load.
        load: LoadIndex,
    },
    /// Exudyn's `SensorObject` of a constraint: its `Force` or `ConstraintResidual`
    /// ([`Constraint::output`](super::Constraint::output), 3 values).
    Constraint {
        /// The constraint.
        constraint: ConstraintIndex,
        /// The output.
        variable: OutputVariableType,
    },
}

impl<T: Real> Sensor<T> {
    /// A body sensor; `NotFinite(LocalPosition)`.
    pub fn body(
        object: ObjectIndex,
        local_position: Vector3<T>,
        variable: OutputVariableType,
    ) -> Result<Self> {
        finite_all(&local_position, Param::LocalPosition)?;
        Ok(Sensor::Body {
            object,
            local_position,
            variable,
        })
    }

    /// Number of values the sensor writes per row: 9 for `RotationMatrix`, 1 for the energies,
    /// else 3.
    pub fn len(&self) -> usize {
        match self {
            Sensor::Node { variable, .. }
            | Sensor::Body { variable, .. }
            | Sensor::Marker { variable, .. } => match variable {
                OutputVariableType::RotationMatrix => 9,
                OutputVariableType::KineticEnergy | OutputVariableType::PotentialEnergy => 1,
                _ => 3,
            },
            Sensor::Load { .. } | Sensor::Constraint { .. } => 3,
        }
    }

    /// Always `false` (a sensor writes at least one value).
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// Where sensor values go after each step (module docs for the call order).
pub trait SensorSink<T> {
    /// A new row of values at time `t` (s) begins. Default: nothing.
    fn begin_row(&mut self, _t: T) {}
    /// The values of `sensor` at time `t` (s).
    fn record(&mut self, sensor: SensorIndex, t: T, values: &[T]);
    /// The row is complete. Default: nothing.
    fn end_row(&mut self) {}
}

/// A sink that drops everything (a system without sensors, or a step whose values are not
/// wanted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoSink;

impl<T> SensorSink<T> for NoSink {
    fn record(&mut self, _sensor: SensorIndex, _t: T, _values: &[T]) {}
}

/// Writes rows `[t, values of sensor 0, values of sensor 1, ...]` of `row_len` numbers
/// ([`System::sensor_row_len`](super::System::sensor_row_len)) one after another into a
/// buffer. A row that does not fit is dropped whole and [`SliceSink::overflowed`] is set;
/// nothing panics.
#[derive(Debug)]
pub struct SliceSink<'a, T> {
    buffer: &'a mut [T],
    row_len: usize,
    rows: usize,
    writing: bool,
    column: usize,
    overflow: bool,
}

impl<'a, T: Copy> SliceSink<'a, T> {
    /// A sink over `buffer` with rows of `row_len` numbers (time and every sensor's values).
    pub fn new(buffer: &'a mut [T], row_len: usize) -> Self {
        Self {
            buffer,
            row_len,
            rows: 0,
            writing: false,
            column: 0,
            overflow: false,
        }
    }

    /// Number of complete rows written.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// `true` if a row was dropped for lack of room (or a row had more values than
    /// `row_len`).
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    /// The written rows (`rows() * row_len` numbers).
    pub fn written(&self) -> &[T] {
        let n = self.rows * self.row_len;
        &self.buffer[..n.min(self.buffer.len())]
    }

    /// Row `i` (`None` past the written rows).
    pub fn row(&self, i: usize) -> Option<&[T]> {
        if i < self.rows {
            self.buffer.get(i * self.row_len..(i + 1) * self.row_len)
        } else {
            None
        }
    }
}

impl<T: Copy> SensorSink<T> for SliceSink<'_, T> {
    fn begin_row(&mut self, t: T) {
        let start = self.rows * self.row_len;
        self.writing = self.row_len >= 1 && start + self.row_len <= self.buffer.len();
        if self.writing {
            self.buffer[start] = t;
            self.column = 1;
        } else {
            self.overflow = true;
        }
    }

    fn record(&mut self, _sensor: SensorIndex, _t: T, values: &[T]) {
        if !self.writing {
            return;
        }
        if self.column + values.len() > self.row_len {
            self.overflow = true;
            self.writing = false;
            return;
        }
        let at = self.rows * self.row_len + self.column;
        self.buffer[at..at + values.len()].copy_from_slice(values);
        self.column += values.len();
    }

    fn end_row(&mut self) {
        if self.writing {
            self.rows += 1;
        }
        self.writing = false;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn slice_sink_writes_complete_rows_and_drops_the_rest() {
        let mut buf = [0.0f64; 7];
        let mut sink = SliceSink::new(&mut buf, 3);
        sink.begin_row(1.0);
        sink.record(SensorIndex(0), 1.0, &[2.0, 3.0]);
        sink.end_row();
        // a row left without end_row (a failed step) is not counted and is overwritten
        sink.begin_row(9.0);
        sink.record(SensorIndex(0), 9.0, &[9.0]);
        sink.begin_row(4.0);
        sink.record(SensorIndex(0), 4.0, &[5.0, 6.0]);
        sink.end_row();
        assert_eq!(sink.rows(), 2);
        assert!(!sink.overflowed());
        // no room for a third row: dropped whole
        sink.begin_row(7.0);
        sink.record(SensorIndex(0), 7.0, &[8.0, 8.0]);
        sink.end_row();
        assert_eq!(sink.rows(), 2);
        assert!(sink.overflowed());
        assert_eq!(sink.written(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(sink.row(1), Some(&[4.0, 5.0, 6.0][..]));
        assert_eq!(sink.row(2), None);
        assert_eq!(buf[6], 0.0);
        // a row longer than row_len is refused, not spilled into the next one
        let mut buf = [0.0f64; 6];
        let mut sink = SliceSink::new(&mut buf, 3);
        sink.begin_row(1.0);
        sink.record(SensorIndex(0), 1.0, &[2.0, 3.0, 4.0]);
        sink.end_row();
        assert_eq!((sink.rows(), sink.overflowed()), (0, true));
        assert_eq!(buf[3], 0.0);
    }

    #[test]
    fn sensor_lengths_follow_the_output_kind() {
        let s = |variable| Sensor::<f64>::Node {
            node: NodeIndex(0),
            variable,
        };
        assert_eq!(s(OutputVariableType::RotationMatrix).len(), 9);
        assert_eq!(s(OutputVariableType::KineticEnergy).len(), 1);
        assert_eq!(s(OutputVariableType::Position).len(), 3);
        assert_eq!(Sensor::<f64>::Load { load: LoadIndex(0) }.len(), 3);
        assert_eq!(
            Sensor::body(
                ObjectIndex(0),
                Vector3::new(f64::NAN, 0.0, 0.0),
                OutputVariableType::Position
            ),
            Err(crate::Error::NotFinite(Param::LocalPosition))
        );
    }
}
