//! Reading a system: the outputs of nodes, bodies, markers and loads on demand (Exudyn's
//! `GetNodeOutput`, `GetObjectOutputBody`, `GetMarkerOutput`), sensors, and the recording of
//! all sensors into a [`SensorSink`].

use super::body_states::BodyStates;
use super::constraint::Multipliers;
use super::error::{At, SystemResult};
use super::index::{
    item, ConstraintIndex, ItemRef, LoadIndex, MarkerIndex, NodeIndex, ObjectIndex, SensorIndex,
};
use super::sensor::{Sensor, SensorSink};
use super::system::System;
use crate::{OutputValue, OutputVariableType, Real, Result};
use nalgebra::Vector3;

/// The value of `sensor` in the states of `view` at time `t` (s).
pub(super) fn sensor_value<T: Real>(
    sensor: &Sensor<T>,
    view: &BodyStates<'_, T>,
    markers: &[super::Marker<T>],
    loads: &[super::Load<T>],
    constraints: &Multipliers<'_, T>,
    t: T,
) -> Result<OutputValue<T>> {
    match sensor {
        Sensor::Node { node, variable } => view.node_output(*node, *variable),
        Sensor::Body {
            object,
            local_position,
            variable,
        } => view.body_output(*object, *variable, local_position),
        Sensor::Marker { marker, variable } => item(markers, marker.get())?.output(view, *variable),
        Sensor::Load { load } => Ok(OutputValue::Vector3(item(loads, load.get())?.value(t)?)),
        Sensor::Constraint {
            constraint,
            variable,
        } => constraints.output(constraint.get(), view, markers, *variable),
    }
}

/// Records every sensor at time `t` into `sink`: `begin_row(t)`, `record` per sensor,
/// `end_row()`. If a sensor cannot be read, the row is left without `end_row` (a sink drops
/// such a row; [`SliceSink`](super::SliceSink) overwrites it) and the error names the sensor.
pub(super) fn record_sensors<T: Real, Sink: SensorSink<T> + ?Sized>(
    sensors: &[Sensor<T>],
    view: &BodyStates<'_, T>,
    markers: &[super::Marker<T>],
    loads: &[super::Load<T>],
    constraints: &Multipliers<'_, T>,
    t: T,
    sink: &mut Sink,
) -> SystemResult<()> {
    if sensors.is_empty() {
        return Ok(());
    }
    sink.begin_row(t);
    let mut buf = [T::zero(); 9];
    for (i, s) in sensors.iter().enumerate() {
        let index = SensorIndex::from_usize(i).unwrap_or(SensorIndex(u16::MAX));
        let at = ItemRef::Sensor(index);
        let v = sensor_value(s, view, markers, loads, constraints, t).at(at)?;
        let n = v.write_to(&mut buf).at(at)?;
        sink.record(index, t, &buf[..n]);
    }
    sink.end_row();
    Ok(())
}

impl<
        T: Real,
        const N: usize,
        const O: usize,
        const M: usize,
        const L: usize,
        const C: usize,
        const S: usize,
        const G: usize,
        const K: usize,
        const W: usize,
        const J: usize,
    > System<T, N, O, M, L, C, S, G, K, W, J>
{
    /// `var` of node `i` now (Exudyn's `GetNodeOutput`): a 2D point or ground node gives
    /// `Position`, `Displacement`, `Velocity`, `Acceleration` (world); a rigid-body node also
    /// `RotationMatrix`, `AngularVelocity` (world), `AngularVelocityLocal` (body),
    /// `AngularAcceleration` (world). Else `OutputNotAvailable`; `UnknownIndex`.
    pub fn node_output(&self, i: NodeIndex, var: OutputVariableType) -> Result<OutputValue<T>> {
        self.view().node_output(i, var)
    }

    /// `var` of body `i` at `local_position` (m, body frame) now (Exudyn's
    /// `GetObjectOutputBody`; the body's own table of outputs).
    pub fn object_output(
        &self,
        i: ObjectIndex,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        self.view().body_output(i, var, local_position)
    }

    /// `var` of marker `i` now ([`Marker::output`](super::Marker::output)).
    pub fn marker_output(&self, i: MarkerIndex, var: OutputVariableType) -> Result<OutputValue<T>> {
        item(&self.markers, i.get())?.output(&self.view(), var)
    }

    /// `var` of constraint `i` now ([`Constraint::output`](super::Constraint::output): `Force`,
    /// `ConstraintResidual`).
    pub fn constraint_output(
        &self,
        i: ConstraintIndex,
        var: OutputVariableType,
    ) -> Result<OutputValue<T>> {
        self.multipliers()
            .output(i.get(), &self.view(), &self.markers, var)
    }

    /// What the Newton iteration of the last generalized-alpha step did (`None` before the
    /// first one).
    pub fn newton_report(&self) -> Option<crate::integrators::constrained::ConstrainedReport<T>> {
        self.alpha.report
    }

    /// The constraints with their current multipliers.
    pub(super) fn multipliers(&self) -> Multipliers<'_, T> {
        Multipliers {
            constraints: &self.constraints,
            rows: &self.layout.rows,
            lambda: &self.alpha.state().lambda,
        }
    }

    /// The vector of load `i` at the current time (a user load's callback is called).
    pub fn load_value(&self, i: LoadIndex) -> Result<Vector3<T>> {
        item(&self.loads, i.get())?.value(self.time)
    }

    /// `var` of any item now, by [`ItemRef`]: a node ([`System::node_output`]), an object at
    /// `local_position` (m, body frame; [`System::object_output`]), a marker
    /// ([`System::marker_output`]), a load (its vector, `var` ignored), a sensor (its value,
    /// `var` ignored). `OutputNotAvailable` for a connector or the system.
    pub fn get_output(
        &self,
        item: ItemRef,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        match item {
            ItemRef::Node(i) => self.node_output(i, var),
            ItemRef::Object(i) => self.object_output(i, var, local_position),
            ItemRef::Marker(i) => self.marker_output(i, var),
            ItemRef::Load(i) => Ok(OutputValue::Vector3(self.load_value(i)?)),
            ItemRef::Sensor(i) => self.read_sensor(i),
            ItemRef::Constraint(i) => self.constraint_output(i, var),
            ItemRef::Connector(_) | ItemRef::System => Err(crate::Error::OutputNotAvailable),
        }
    }

    /// The current value of sensor `i`.
    pub fn read_sensor(&self, i: SensorIndex) -> Result<OutputValue<T>> {
        self.sensor_value(item(&self.sensors, i.get())?)
    }

    /// The current value of `sensor` (not necessarily added).
    pub(super) fn sensor_value(&self, sensor: &Sensor<T>) -> Result<OutputValue<T>> {
        sensor_value(
            sensor,
            &self.view(),
            &self.markers,
            &self.loads,
            &self.multipliers(),
            self.time,
        )
    }

    /// Writes every sensor's current value into `sink` as one row (as a step does).
    pub fn record_sensors<Sink: SensorSink<T> + ?Sized>(
        &self,
        sink: &mut Sink,
    ) -> SystemResult<()> {
        record_sensors(
            &self.sensors,
            &self.view(),
            &self.markers,
            &self.loads,
            &self.multipliers(),
            self.time,
            sink,
        )
    }
}
