//! [`System::assemble`]: the check of the whole system before it can be stepped.

use super::error::{At, SystemError, SystemResult};
use super::forces::generalized_forces;
use super::index::{
    item, ConnectorIndex, ConstraintIndex, ItemRef, LoadIndex, MarkerIndex, NodeIndex, ObjectIndex,
    SensorIndex,
};
use super::node::Node;
use super::object::Object;
use super::settings::SystemScheme;
use super::system::System;
use crate::{Error, Real};

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
    /// Checks everything and marks the system assembled; the first problem found is returned
    /// with the item it concerns, and the system is left as it was (byte for byte). In order:
    ///
    /// 1. the settings (`NotFinite | OutOfRange(Setting)` at [`ItemRef::System`]);
    /// 2. every node: its state fits it and is valid (`WrongNodeKind`, `NonFiniteState`,
    ///    `OutOfRange(Orientation)`), and a node with coordinates carries a body
    ///    (`NodeWithoutBody`: it would have no mass);
    /// 3. every object: its node exists, is of its kind and carries only it (`UnknownIndex`,
    ///    `WrongNodeKind`, `NodeAlreadyUsed`); masses and inertias are valid by construction
    ///    (`MassPoint2D::new`, `RigidBody::new` refuse `m <= 0` and unphysical inertias);
    /// 4. every marker, load, connector, sensor: as their `add_*` checks;
    /// 5. every constraint: its markers, as [`System::add_constraint`] checks them; with a
    ///    scheme other than [`SystemScheme::GeneralizedAlpha`] any constraint, and a kinematic
    ///    tree (at its first link's object), is `NotSupportedByScheme` (only generalized-alpha
    ///    keeps constraints and steps trees);
    /// 6. the forces can be evaluated in the current state (a callback writing NaN, a
    ///    spring of zero length, ... are found here, naming the load or connector);
    /// 7. with [`SystemScheme::GeneralizedAlpha`]: every constraint joins bodies it can join
    ///    (`MarkerNotSupported`),
    ///    coordinates plus equations fit the capacity `W` (`CapacityFull`), and the start
    ///    values are computed ([`AlphaSettings::assembly`](super::AlphaSettings::assembly)): the positions and velocities
    ///    satisfy the constraints to the tolerance (`ConstraintViolated`) or are projected
    ///    onto them, and the consistent accelerations and multipliers are solved
    ///    (`SingularMatrix` for redundant or contradictory constraints, naming the first
    ///    constraint that makes the set singular).
    ///
    /// Assembling keeps the current state and time (re-assembling after adding a sensor does
    /// not restart the simulation; [`System::reset`] does).
    pub fn assemble(&mut self) -> SystemResult<()> {
        self.settings.validate().at(ItemRef::System)?;
        for (i, (node, state)) in self.nodes.iter().zip(self.states.iter()).enumerate() {
            let at = ItemRef::Node(NodeIndex(i as u16));
            state.check_for(node).at(at)?;
            let has_body = matches!(self.node_object.get(i), Some(Some(_)));
            if !matches!(node, Node::PointGround(_)) && !has_body {
                return Err(SystemError::new(Error::NodeWithoutBody, at));
            }
        }
        for (i, object) in self.objects.iter().enumerate() {
            let index = ObjectIndex(i as u16);
            let at = ItemRef::Object(index);
            if let Some(n) = object.node() {
                let node = item(&self.nodes, n.get()).at(at)?;
                let kind_ok = matches!(
                    (object, node),
                    (Object::MassPoint2D { .. }, Node::Point2D(_))
                        | (Object::RigidBody { .. }, Node::RigidBody(_))
                        | (Object::BodyCylinder { .. }, Node::RigidBody(_))
                        | (Object::RigidBody2D { .. }, Node::RigidBody2D(_))
                        | (Object::TreeLink { .. }, Node::TreeLink(_))
                );
                if !kind_ok {
                    return Err(SystemError::new(Error::WrongNodeKind, at));
                }
                if self.node_object.get(n.get()) != Some(&Some(index)) {
                    return Err(SystemError::new(Error::NodeAlreadyUsed, at));
                }
            }
        }
        for (i, m) in self.markers.iter().enumerate() {
            m.check(&self.nodes, &self.objects)
                .at(ItemRef::Marker(MarkerIndex(i as u16)))?;
        }
        for (i, l) in self.loads.iter().enumerate() {
            l.check(&self.markers)
                .at(ItemRef::Load(LoadIndex(i as u16)))?;
        }
        for (i, c) in self.connectors.iter().enumerate() {
            c.check(&self.markers)
                .at(ItemRef::Connector(ConnectorIndex(i as u16)))?;
        }
        for (i, c) in self.constraints.iter().enumerate() {
            let at = ItemRef::Constraint(ConstraintIndex(i as u16));
            c.check(&self.markers, &self.nodes, &self.objects).at(at)?;
            if self.settings.scheme != SystemScheme::GeneralizedAlpha {
                return Err(SystemError::new(Error::NotSupportedByScheme, at));
            }
        }
        if self.tree.model.is_some() && self.settings.scheme != SystemScheme::GeneralizedAlpha {
            return Err(SystemError::new(
                Error::NotSupportedByScheme,
                self.tree.item(),
            ));
        }
        for (i, s) in self.sensors.iter().enumerate() {
            self.sensor_value(s)
                .at(ItemRef::Sensor(SensorIndex(i as u16)))?;
        }
        let mut q = heapless::Vec::new();
        super::node_force::zeros::<T, N>(&mut q, self.nodes.len());
        generalized_forces(
            &self.view(),
            &self.markers,
            &self.loads,
            &self.connectors,
            self.time,
            &mut q,
        )?;
        if self.settings.scheme == SystemScheme::GeneralizedAlpha {
            let scheme = self.settings.alpha.scheme().at(ItemRef::System)?;
            // The layout is moved out and, on failure, back: a move keeps every byte (a clone
            // would not keep the unused slots').
            let layout = core::mem::take(&mut self.layout);
            let start = self
                .alpha_layout(
                    self.settings.alpha.formulation,
                    self.settings.alpha.rotations,
                )
                .and_then(|_| self.alpha_start(&scheme));
            self.clear_solver_scratch();
            if let Err(e) = start {
                self.layout = layout;
                return Err(e);
            }
        }
        self.velocity_dependent = self.connectors.iter().any(|c| c.is_velocity_dependent());
        self.assembled = true;
        Ok(())
    }
}
