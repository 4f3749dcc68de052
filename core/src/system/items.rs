//! The functions of [`System`] that add, read and replace its nodes, objects, markers, loads,
//! connectors, constraints and sensors.
//!
//! Every `add_*` checks its item against the items already there (an index naming nothing is
//! `UnknownIndex`, a body on the wrong node kind `WrongNodeKind`, a marker the body cannot
//! carry `MarkerNotSupported`, ...) and the capacity (`CapacityFull`) before it changes
//! anything: on error the system is exactly as before. A successful `add_*` marks the system
//! unassembled.

use super::connector::Connector;
use super::constraint::Constraint;
use super::index::{
    item, ConnectorIndex, ConstraintIndex, LoadIndex, MarkerIndex, NodeIndex, ObjectIndex,
    SensorIndex,
};
use super::load::Load;
use super::marker::Marker;
use super::node::{Node, NodeState};
use super::object::Object;
use super::sensor::Sensor;
use super::system::System;
use crate::{Error, Real, Result};

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
    /// Adds `node` with its initial state. `CapacityFull` when `N` nodes are there.
    pub fn add_node(&mut self, node: Node<T>) -> Result<NodeIndex> {
        if self.nodes.is_full() || self.states.is_full() || self.node_object.is_full() {
            return Err(Error::CapacityFull);
        }
        let index = NodeIndex::from_usize(self.nodes.len()).ok_or(Error::CapacityFull)?;
        let state = node.initial_state();
        self.nodes.push(node).map_err(|_| Error::CapacityFull)?;
        if self.states.push(state).is_err() || self.node_object.push(None).is_err() {
            // unreachable (same capacity, checked above); undo to keep the lists in step
            self.nodes.pop();
            self.states.truncate(self.nodes.len());
            return Err(Error::CapacityFull);
        }
        self.assembled = false;
        Ok(index)
    }

    /// Adds `object` on its node. Errors: `CapacityFull`; `UnknownIndex` (no such node);
    /// `WrongNodeKind` (a mass point needs a 2D point node, a rigid body or body cylinder a
    /// rigid-body node, a 2D rigid body a 2D rigid-body node); `NodeAlreadyUsed` (the node carries a body already). A rigid body's
    /// reference configuration (for `Displacement`) becomes its node's reference pose.
    pub fn add_object(&mut self, object: Object<T>) -> Result<ObjectIndex> {
        if self.objects.is_full() {
            return Err(Error::CapacityFull);
        }
        let index = ObjectIndex::from_usize(self.objects.len()).ok_or(Error::CapacityFull)?;
        let mut object = object;
        if let Some(n) = object.node() {
            let node = item(&self.nodes, n.get())?;
            match (&mut object, node) {
                (Object::MassPoint2D { .. }, Node::Point2D(_))
                | (Object::RigidBody2D { .. }, Node::RigidBody2D(_)) => {}
                (Object::RigidBody { body, .. }, Node::RigidBody(r))
                | (Object::BodyCylinder { body, .. }, Node::RigidBody(r)) => {
                    *body =
                        body.with_reference(r.reference_position(), r.reference_orientation())?;
                }
                // Tree links: only add_kinematic_tree makes them.
                _ => return Err(Error::WrongNodeKind),
            }
            if item(&self.node_object, n.get())?.is_some() {
                return Err(Error::NodeAlreadyUsed);
            }
        }
        let node = object.node();
        self.objects.push(object).map_err(|_| Error::CapacityFull)?;
        if let Some(n) = node {
            if let Some(slot) = self.node_object.get_mut(n.get()) {
                *slot = Some(index);
            }
        }
        self.assembled = false;
        Ok(index)
    }

    /// Adds `marker`. Errors: `CapacityFull`; `UnknownIndex`; `MarkerNotSupported` (a rigid
    /// marker on a mass point, a mass marker on the ground); `NotFinite(LocalPosition)`.
    pub fn add_marker(&mut self, marker: Marker<T>) -> Result<MarkerIndex> {
        if self.markers.is_full() {
            return Err(Error::CapacityFull);
        }
        let index = MarkerIndex::from_usize(self.markers.len()).ok_or(Error::CapacityFull)?;
        marker.check(&self.nodes, &self.objects)?;
        self.markers.push(marker).map_err(|_| Error::CapacityFull)?;
        self.assembled = false;
        Ok(index)
    }

    /// Adds the two rigid markers of Modelica's `BodyCylinder` `object`: `frame_a` (its node, the
    /// body frame) and `frame_b` (at its `r`, parallel to frame_a), to join it by joints;
    /// `[frame_a, frame_b]`. Errors: `UnknownIndex`; `WrongNodeKind` if `object` is not a
    /// `BodyCylinder`; `CapacityFull` if two markers do not fit (then none is added).
    pub fn add_frame_markers(&mut self, object: ObjectIndex) -> Result<[MarkerIndex; 2]> {
        let Object::BodyCylinder { frame_b, .. } = *item(&self.objects, object.get())? else {
            return Err(Error::WrongNodeKind);
        };
        if self.markers.len() + 2 > self.markers.capacity() {
            return Err(Error::CapacityFull);
        }
        let a = self.add_marker(Marker::body_rigid(object, nalgebra::Vector3::zeros())?)?;
        let b = self.add_marker(Marker::body_rigid(object, frame_b)?)?;
        Ok([a, b])
    }

    /// Adds `load`. Errors: `CapacityFull`; `UnknownIndex` (no such marker);
    /// `MarkerNotSupported` (a force needs a position marker, a torque a rigid marker, a
    /// mass-proportional load a mass marker).
    pub fn add_load(&mut self, load: Load<T>) -> Result<LoadIndex> {
        if self.loads.is_full() {
            return Err(Error::CapacityFull);
        }
        let index = LoadIndex::from_usize(self.loads.len()).ok_or(Error::CapacityFull)?;
        load.check(&self.markers)?;
        self.loads.push(load).map_err(|_| Error::CapacityFull)?;
        self.assembled = false;
        Ok(index)
    }

    /// Replaces load `index` by `load` (e.g. a new force each control period) without
    /// un-assembling: the structure is unchanged. Errors: `UnknownIndex`, and those of
    /// [`System::add_load`]; on error the old load stays.
    pub fn replace_load(&mut self, index: LoadIndex, load: Load<T>) -> Result<()> {
        item(&self.loads, index.get())?;
        load.check(&self.markers)?;
        if let Some(slot) = self.loads.get_mut(index.get()) {
            *slot = load;
        }
        Ok(())
    }

    /// Sets the target angle `offset` (rad) and rate `rate_offset` (rad/s) of torsional
    /// spring-damper `index` (a controller driving a joint, each control period) without
    /// un-assembling. Errors: `UnknownIndex`; `MarkerNotSupported` if it is another connector;
    /// `NotFinite(Position | Velocity)`; on error nothing changes.
    pub fn set_torsional_target(
        &mut self,
        index: ConnectorIndex,
        offset: T,
        rate_offset: T,
    ) -> Result<()> {
        let Connector::TorsionalSpringDamper(c) = item(&self.connectors, index.get())? else {
            return Err(Error::MarkerNotSupported);
        };
        let c = c.with_target(offset, rate_offset)?;
        if let Some(slot) = self.connectors.get_mut(index.get()) {
            *slot = Connector::TorsionalSpringDamper(c);
        }
        Ok(())
    }

    /// Adds `connector`. Errors: `CapacityFull`; `UnknownIndex`; `SameMarker`;
    /// `MarkerNotSupported` (two position markers; rigid markers for a torsional
    /// spring-damper).
    pub fn add_connector(&mut self, connector: Connector<T>) -> Result<ConnectorIndex> {
        if self.connectors.is_full() {
            return Err(Error::CapacityFull);
        }
        let index = ConnectorIndex::from_usize(self.connectors.len()).ok_or(Error::CapacityFull)?;
        connector.check(&self.markers)?;
        self.connectors
            .push(connector)
            .map_err(|_| Error::CapacityFull)?;
        self.assembled = false;
        Ok(index)
    }

    /// Adds `constraint`. Errors: `CapacityFull`; `UnknownIndex` (no such marker);
    /// `SameMarker`; `MarkerNotSupported` (a marker of the wrong kind: position markers for a
    /// distance or revolute joint, rigid markers for a prismatic joint, coordinate markers for a
    /// coordinate constraint). Whether its markers are on bodies it can join (2D ones) is
    /// checked by [`System::assemble`].
    pub fn add_constraint(&mut self, constraint: Constraint<T>) -> Result<ConstraintIndex> {
        if self.constraints.is_full() {
            return Err(Error::CapacityFull);
        }
        let index =
            ConstraintIndex::from_usize(self.constraints.len()).ok_or(Error::CapacityFull)?;
        constraint.check(&self.markers, &self.nodes, &self.objects)?;
        self.constraints
            .push(constraint)
            .map_err(|_| Error::CapacityFull)?;
        self.assembled = false;
        Ok(index)
    }

    /// Adds `sensor`. Errors: `CapacityFull`; `UnknownIndex`; `OutputNotAvailable` /
    /// `LocalPositionMustBeZero` if its item does not give the variable (the sensor is read once
    /// here to find out).
    pub fn add_sensor(&mut self, sensor: Sensor<T>) -> Result<SensorIndex> {
        if self.sensors.is_full() {
            return Err(Error::CapacityFull);
        }
        let index = SensorIndex::from_usize(self.sensors.len()).ok_or(Error::CapacityFull)?;
        self.sensor_value(&sensor)?;
        self.sensors.push(sensor).map_err(|_| Error::CapacityFull)?;
        self.assembled = false;
        Ok(index)
    }

    /// Node `i`.
    pub fn node(&self, i: NodeIndex) -> Result<&Node<T>> {
        item(&self.nodes, i.get())
    }

    /// The state of node `i`.
    pub fn node_state(&self, i: NodeIndex) -> Result<&NodeState<T>> {
        item(&self.states, i.get())
    }

    /// Sets the state of node `i` (e.g. a measured pose). Errors: `UnknownIndex`,
    /// `WrongNodeKind` (state of another kind), `NonFiniteState`, `OutOfRange(Orientation)`.
    /// With generalized-alpha the next step first computes consistent accelerations and
    /// multipliers for the new states (checking them against the constraints, or projecting
    /// them with the assembly option).
    /// A tree link's node follows the tree: `WrongNodeKind` (set the tree's coordinates with
    /// [`System::set_tree_state`]).
    pub fn set_node_state(&mut self, i: NodeIndex, state: NodeState<T>) -> Result<()> {
        let node = item(&self.nodes, i.get())?;
        if matches!(node, Node::TreeLink(_)) {
            return Err(Error::WrongNodeKind);
        }
        state.check_for(node)?;
        if let Some(s) = self.states.get_mut(i.get()) {
            *s = state;
        }
        // generalized-alpha's accelerations and multipliers are computed anew for it
        self.alpha.invalidate();
        Ok(())
    }

    /// Object `i`.
    pub fn object(&self, i: ObjectIndex) -> Result<&Object<T>> {
        item(&self.objects, i.get())
    }

    /// Marker `i`.
    pub fn marker(&self, i: MarkerIndex) -> Result<&Marker<T>> {
        item(&self.markers, i.get())
    }

    /// Load `i`.
    pub fn load(&self, i: LoadIndex) -> Result<&Load<T>> {
        item(&self.loads, i.get())
    }

    /// Connector `i`.
    pub fn connector(&self, i: ConnectorIndex) -> Result<&Connector<T>> {
        item(&self.connectors, i.get())
    }

    /// Sensor `i`.
    pub fn sensor(&self, i: SensorIndex) -> Result<&Sensor<T>> {
        item(&self.sensors, i.get())
    }

    /// Constraint `i`.
    pub fn constraint(&self, i: ConstraintIndex) -> Result<&Constraint<T>> {
        item(&self.constraints, i.get())
    }

    /// Number of constraints.
    pub fn constraint_count(&self) -> usize {
        self.constraints.len()
    }

    /// The length of a sensor row: 1 (the time) plus every sensor's number of values.
    pub fn sensor_row_len(&self) -> usize {
        1 + self.sensors.iter().map(|s| s.len()).sum::<usize>()
    }
}
