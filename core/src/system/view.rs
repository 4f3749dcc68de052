//! A borrowed view of a system's nodes, objects and node states: each object's body with its
//! state, so that markers, loads, connectors and sensors reach every body through the one
//! interface of seed 003 ([`Body`]).

use super::index::{NodeIndex, ObjectIndex};
use super::node::{Node, NodeState};
use super::object::Object;
use crate::body::{Body, Generalized};
use crate::nodes::rigid::RigidState;
use crate::nodes::{NodePoint2D, Point2DState, PositionNode};
use crate::{Error, OutputValue, OutputVariableType, Real, Result};
use nalgebra::Vector3;

/// Nodes, objects and the node states to evaluate them in (the system's own states, or a
/// step's working copy).
#[derive(Clone, Copy, Debug)]
pub struct View<'a, T: Real> {
    /// The nodes, by [`NodeIndex`].
    pub nodes: &'a [Node<T>],
    /// The states, one per node, same order.
    pub states: &'a [NodeState<T>],
    /// The objects, by [`ObjectIndex`].
    pub objects: &'a [Object<T>],
}

/// The vector of an output value; `OutputNotAvailable` for a scalar or a matrix.
#[inline]
pub fn vector3<T: Real>(v: OutputValue<T>) -> Result<Vector3<T>> {
    match v {
        OutputValue::Vector3(v) => Ok(v),
        _ => Err(Error::OutputNotAvailable),
    }
}

impl<'a, T: Real> View<'a, T> {
    /// The object at `i`, or `UnknownIndex`.
    #[inline]
    pub fn object(&self, i: ObjectIndex) -> Result<&'a Object<T>> {
        self.objects.get(i.get()).ok_or(Error::UnknownIndex)
    }

    /// The node and state at `i`, or `UnknownIndex`.
    #[inline]
    pub fn node(&self, i: NodeIndex) -> Result<(&'a Node<T>, &'a NodeState<T>)> {
        match (self.nodes.get(i.get()), self.states.get(i.get())) {
            (Some(n), Some(s)) => Ok((n, s)),
            _ => Err(Error::UnknownIndex),
        }
    }

    /// A 2D point node and its state; `WrongNodeKind` for another node.
    #[inline]
    pub fn point2d(&self, i: NodeIndex) -> Result<(&'a NodePoint2D<T>, &'a Point2DState<T>)> {
        match self.node(i)? {
            (Node::Point2D(n), NodeState::Point2D(s)) => Ok((n, s)),
            _ => Err(Error::WrongNodeKind),
        }
    }

    /// A rigid-body node's state; `WrongNodeKind` for another node.
    #[inline]
    pub fn rigid(&self, i: NodeIndex) -> Result<&'a RigidState<T>> {
        match self.node(i)? {
            (Node::RigidBody(_), NodeState::RigidBody(s)) => Ok(s),
            _ => Err(Error::WrongNodeKind),
        }
    }

    /// `Body::output` of object `i` at `local_position` (m, body frame).
    pub fn body_output(
        &self,
        i: ObjectIndex,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        match self.object(i)? {
            Object::Ground(g) => g.output(&(), var, local_position),
            Object::MassPoint2D { node, body } => {
                let (n, s) = self.point2d(*node)?;
                body.output(&n.configuration(s), var, local_position)
            }
            Object::RigidBody { node, body } | Object::BodyCylinder { node, body, .. } => {
                body.output(self.rigid(*node)?, var, local_position)
            }
        }
    }

    /// `Q = Jpos(local_position)^T f + Jrot^T tau` of object `i` (`f` N world, `tau` N m
    /// world) and the node it acts on (`None` for the ground: no coordinates).
    pub fn body_generalized_force(
        &self,
        i: ObjectIndex,
        local_position: &Vector3<T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Option<(NodeIndex, Generalized<T>)>> {
        match self.object(i)? {
            Object::Ground(g) => {
                g.generalized_force(&(), local_position, force, torque)?;
                Ok(None)
            }
            Object::MassPoint2D { node, body } => {
                let (n, s) = self.point2d(*node)?;
                let q =
                    body.generalized_force(&n.configuration(s), local_position, force, torque)?;
                Ok(Some((*node, q)))
            }
            Object::RigidBody { node, body } | Object::BodyCylinder { node, body, .. } => {
                let q =
                    body.generalized_force(self.rigid(*node)?, local_position, force, torque)?;
                Ok(Some((*node, q)))
            }
        }
    }

    /// `Q = (int rho Jpos dV)^T g` of object `i` for a uniform acceleration `g` (m/s^2,
    /// world), and the node it acts on.
    pub fn body_mass_force(
        &self,
        i: ObjectIndex,
        g: &Vector3<T>,
    ) -> Result<Option<(NodeIndex, Generalized<T>)>> {
        match self.object(i)? {
            Object::Ground(_) => Ok(None),
            Object::MassPoint2D { node, body } => {
                let (n, s) = self.point2d(*node)?;
                let j = body.mass_jacobian_integral(&n.configuration(s))?;
                Ok(Some((*node, j.transpose() * g)))
            }
            Object::RigidBody { node, body } | Object::BodyCylinder { node, body, .. } => {
                let j = body.mass_jacobian_integral(self.rigid(*node)?)?;
                Ok(Some((*node, j.transpose() * g)))
            }
        }
    }

    /// Position (m, world) and velocity (m/s, world) of node `i`'s point.
    pub fn node_motion(&self, i: NodeIndex) -> Result<(Vector3<T>, Vector3<T>)> {
        Ok(match self.node(i)? {
            (Node::Point2D(n), NodeState::Point2D(s)) => (n.position(s)?, n.velocity(s)?),
            (Node::PointGround(g), NodeState::Ground) => (g.position(&())?, g.velocity(&())?),
            (Node::RigidBody(_), NodeState::RigidBody(s)) => {
                s.validate()?;
                (s.position, s.velocity)
            }
            _ => return Err(Error::WrongNodeKind),
        })
    }

    /// `Q = Jpos_node^T f` of a force `f` (N, world) on node `i`'s point (for a rigid-body
    /// node, `Jpos = [E3, 0]` at its reference point), `None` for a ground node.
    pub fn node_generalized_force(
        &self,
        i: NodeIndex,
        force: &Vector3<T>,
    ) -> Result<Option<(NodeIndex, Generalized<T>)>> {
        Ok(match self.node(i)? {
            (Node::Point2D(n), NodeState::Point2D(s)) => {
                Some((i, n.position_jacobian(s)?.transpose() * force))
            }
            (Node::PointGround(_), NodeState::Ground) => None,
            (Node::RigidBody(_), NodeState::RigidBody(_)) => Some((
                i,
                Generalized::new(force.x, force.y, force.z, T::zero(), T::zero(), T::zero()),
            )),
            _ => return Err(Error::WrongNodeKind),
        })
    }

    /// Exudyn's `GetNodeOutput` for node `i`: for a rigid-body node the outputs of its point
    /// (`Position`, `Velocity`, `Acceleration`, world; `RotationMatrix`; `AngularVelocity`
    /// world, `AngularVelocityLocal` body).
    pub fn node_output(&self, i: NodeIndex, var: OutputVariableType) -> Result<OutputValue<T>> {
        match self.node(i)? {
            (Node::Point2D(n), NodeState::Point2D(s)) => n.output(s, var),
            (Node::PointGround(g), NodeState::Ground) => g.output(&(), var),
            (Node::RigidBody(n), NodeState::RigidBody(s)) => {
                s.validate()?;
                use OutputVariableType as O;
                Ok(match var {
                    O::Position => OutputValue::Vector3(s.position),
                    O::Displacement => OutputValue::Vector3(s.position - n.reference_position()),
                    O::Velocity => OutputValue::Vector3(s.velocity),
                    O::Acceleration => OutputValue::Vector3(s.acceleration),
                    O::RotationMatrix => OutputValue::Matrix3(s.rotation_matrix()),
                    O::AngularVelocity => OutputValue::Vector3(s.angular_velocity_world()),
                    O::AngularVelocityLocal => OutputValue::Vector3(s.angular_velocity),
                    O::AngularAcceleration => {
                        OutputValue::Vector3(s.orientation.rotate(&s.angular_acceleration))
                    }
                    _ => return Err(Error::OutputNotAvailable),
                })
            }
            _ => Err(Error::WrongNodeKind),
        }
    }
}
