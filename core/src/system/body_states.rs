//! A borrowed view of a system's nodes, objects and node states: each object's body with its
//! state, so that markers, loads, connectors and sensors reach every body through the one
//! interface of Exudyn's bodies ([`Body`]).

use super::alpha::iterate::IterateStates;
use super::index::{NodeIndex, ObjectIndex};
use super::node::{Node, NodeState};
use super::node_force::NodeForce;
use super::object::Object;
use crate::bodies::rigid_body::RigidBody;
use crate::body::{Body, Generalized};
use crate::nodes::{NodePoint2D, NodeRigidBody2D, Point2DState, PositionNode, Rigid2DState};
use crate::state::RigidState;
use crate::{Error, OutputValue, OutputVariableType, Real, Result};
use nalgebra::Vector3;

/// Nodes, objects and the node states to evaluate them in: the system's own states, a
/// step's working copy, or a generalized-alpha iterate's coordinates (each node's state made
/// when it is asked for, so that no copy of every node's state is held).
#[derive(Clone, Copy, Debug)]
pub struct BodyStates<'a, T: Real> {
    /// The nodes, by [`NodeIndex`].
    pub nodes: &'a [Node<T>],
    /// The states, one per node, same order (with `iterate`: the tree links' states only).
    pub states: &'a [NodeState<T>],
    /// The objects, by [`ObjectIndex`].
    pub objects: &'a [Object<T>],
    /// The coordinates the nodes' states are made from, if not read from `states`.
    pub(crate) iterate: Option<IterateStates<'a, T>>,
}

/// A rigid-body object's node, body and the node's state ([`BodyStates::rigid_object`]).
pub type RigidObject<'a, T> = (NodeIndex, &'a RigidBody<T>, RigidState<T>);

/// The vector of an output value; `OutputNotAvailable` for a scalar or a matrix.
#[inline]
pub fn vector3<T: Real>(v: OutputValue<T>) -> Result<Vector3<T>> {
    match v {
        OutputValue::Vector3(v) => Ok(v),
        _ => Err(Error::OutputNotAvailable),
    }
}

impl<'a, T: Real> BodyStates<'a, T> {
    /// The view of `nodes` in `states` (one per node, same order) with `objects`.
    pub fn new(nodes: &'a [Node<T>], states: &'a [NodeState<T>], objects: &'a [Object<T>]) -> Self {
        Self {
            nodes,
            states,
            objects,
            iterate: None,
        }
    }

    /// The object at `i`, or `UnknownIndex`.
    #[inline]
    pub fn object(&self, i: ObjectIndex) -> Result<&'a Object<T>> {
        self.objects.get(i.get()).ok_or(Error::UnknownIndex)
    }

    // The accessors below hand a node's state to a closure by reference: a stored state is
    // not copied, and an iterate's is made once, in a frame of its own below the caller's (a
    // state returned by value is copied through every frame it passes, and one made inline
    // takes a slot in the caller's frame per call site: stack a firmware pays for).

    /// `f` of node `i` and its state; `UnknownIndex` (in a step, also `NonFiniteState` for a
    /// 3D rigid body whose Euler parameters cannot be normalized).
    #[inline]
    pub fn with_node<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&'a Node<T>, &NodeState<T>) -> Result<R>,
    ) -> Result<R> {
        let n = self.nodes.get(i.get()).ok_or(Error::UnknownIndex)?;
        match self.iterate {
            Some(it) if !matches!(n, Node::TreeLink(_)) => it.with_state(n, i, |s| f(n, s)),
            _ => f(n, self.states.get(i.get()).ok_or(Error::UnknownIndex)?),
        }
    }

    /// `f` of 2D point node `i` and its state; `WrongNodeKind` for another node.
    #[inline]
    pub fn with_point2d<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&'a NodePoint2D<T>, &Point2DState<T>) -> Result<R>,
    ) -> Result<R> {
        let Node::Point2D(n) = self.nodes.get(i.get()).ok_or(Error::UnknownIndex)? else {
            return Err(Error::WrongNodeKind);
        };
        match (self.iterate, self.states.get(i.get())) {
            (Some(it), _) => it.with_point2d(i, |s| f(n, s)),
            (None, Some(NodeState::Point2D(s))) => f(n, s),
            (None, Some(_)) => Err(Error::WrongNodeKind),
            (None, None) => Err(Error::UnknownIndex),
        }
    }

    /// `f` of 2D rigid-body node `i` and its state; `WrongNodeKind` for another node.
    #[inline]
    pub fn with_rigid2d<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&'a NodeRigidBody2D<T>, &Rigid2DState<T>) -> Result<R>,
    ) -> Result<R> {
        let Node::RigidBody2D(n) = self.nodes.get(i.get()).ok_or(Error::UnknownIndex)? else {
            return Err(Error::WrongNodeKind);
        };
        match (self.iterate, self.states.get(i.get())) {
            (Some(it), _) => it.with_rigid2d(i, |s| f(n, s)),
            (None, Some(NodeState::RigidBody2D(s))) => f(n, s),
            (None, Some(_)) => Err(Error::WrongNodeKind),
            (None, None) => Err(Error::UnknownIndex),
        }
    }

    /// `f` of rigid-body node `i`'s state; `WrongNodeKind` for another node.
    #[inline]
    pub fn with_rigid<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&RigidState<T>) -> Result<R>,
    ) -> Result<R> {
        let node = self.nodes.get(i.get()).ok_or(Error::UnknownIndex)?;
        match (node, self.iterate, self.states.get(i.get())) {
            (Node::RigidBody(_), Some(it), _) => it.with_rigid(i, f),
            (Node::RigidBody(_) | Node::TreeLink(_), _, Some(NodeState::RigidBody(s))) => f(s),
            (Node::RigidBody(_) | Node::TreeLink(_), _, None) => Err(Error::UnknownIndex),
            _ => Err(Error::WrongNodeKind),
        }
    }

    /// `f` of `Some((node, body, state))` if object `i` is a rigid body (also a
    /// `BodyCylinder` or a tree link), of `None` for another object; `UnknownIndex` /
    /// `WrongNodeKind` as [`BodyStates::with_rigid`]. The state is not checked: the callers check it
    /// once.
    #[inline]
    pub fn with_rigid_object<R>(
        &self,
        i: ObjectIndex,
        f: impl FnOnce(Option<(NodeIndex, &'a RigidBody<T>, &RigidState<T>)>) -> Result<R>,
    ) -> Result<R> {
        match self.object(i)? {
            Object::RigidBody { node, body }
            | Object::BodyCylinder { node, body, .. }
            | Object::TreeLink { node, body, .. } => {
                self.with_rigid(*node, |s| f(Some((*node, body, s))))
            }
            _ => f(None),
        }
    }

    /// The node and a copy of its state at `i` ([`BodyStates::with_node`]).
    pub fn node(&self, i: NodeIndex) -> Result<(&'a Node<T>, NodeState<T>)> {
        self.with_node(i, |n, s| Ok((n, *s)))
    }

    /// A 2D point node and a copy of its state ([`BodyStates::with_point2d`]).
    pub fn point2d(&self, i: NodeIndex) -> Result<(&'a NodePoint2D<T>, Point2DState<T>)> {
        self.with_point2d(i, |n, s| Ok((n, *s)))
    }

    /// A 2D rigid-body node and a copy of its state ([`BodyStates::with_rigid2d`]).
    pub fn rigid2d(&self, i: NodeIndex) -> Result<(&'a NodeRigidBody2D<T>, Rigid2DState<T>)> {
        self.with_rigid2d(i, |n, s| Ok((n, *s)))
    }

    /// A copy of a rigid-body node's state ([`BodyStates::with_rigid`]).
    pub fn rigid(&self, i: NodeIndex) -> Result<RigidState<T>> {
        self.with_rigid(i, |s| Ok(*s))
    }

    /// The rigid body, its node and a copy of the node's state ([`BodyStates::with_rigid_object`]).
    pub fn rigid_object(&self, i: ObjectIndex) -> Result<Option<RigidObject<'a, T>>> {
        self.with_rigid_object(i, |o| Ok(o.map(|(n, b, s)| (n, b, *s))))
    }

    /// Position `r + R_0b p` (m, world) and velocity `v + R_0b (w_b x p)` (m/s, world) of the
    /// body point `p` (m, body frame, finite: markers check it when added) of a rigid body in
    /// state `s`: `Body::output`'s `Position` and `Velocity` with one screened state check
    /// ([`RigidState::validate_screened`], same errors) instead of one full check each.
    #[inline]
    pub fn rigid_point_motion(
        s: &RigidState<T>,
        p: &Vector3<T>,
    ) -> Result<(Vector3<T>, Vector3<T>)> {
        s.validate_screened()?;
        let q = &s.orientation;
        Ok((
            s.position + q.rotate(p),
            s.velocity + q.rotate(&s.angular_velocity.cross(p)),
        ))
    }

    /// `Q = Jpos(p)^T f + Jrot^T tau = [f; p x (R_0b^T f) + R_0b^T tau]` (N world; N m body
    /// frame, about the reference point) for a rigid body in state `s`, written out instead of
    /// building the 3x6 Jacobians (`Body::generalized_force`, same errors: the state check,
    /// `NotFinite(Force)` for a non-finite result).
    #[inline]
    pub fn rigid_generalized_force(
        s: &RigidState<T>,
        p: &Vector3<T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Generalized<T>> {
        s.validate_screened()?;
        let qc = s.orientation.conjugate();
        let z = T::zero();
        let mut tau = if force.iter().any(|x| *x != z) {
            p.cross(&qc.rotate(force))
        } else {
            Vector3::zeros()
        };
        if torque.iter().any(|x| *x != z) {
            tau += qc.rotate(torque);
        }
        let q = Generalized::new(force.x, force.y, force.z, tau.x, tau.y, tau.z);
        if (q.sum() * z) == z || q.iter().all(|x| x.finite()) {
            Ok(q)
        } else {
            Err(Error::NotFinite(crate::Param::Force))
        }
    }

    /// `(int rho Jpos dV)^T g = [m g; c x (R_0b^T m g)]` (N world; N m body frame, about the
    /// reference point) of a uniform acceleration `g` (m/s^2, world) on a rigid body in state
    /// `s`: the weight at the COM `c`, written out (no 3x6 build; no torque when `c = 0`).
    /// Errors: the state check.
    #[inline]
    pub fn rigid_mass_force(
        body: &RigidBody<T>,
        s: &RigidState<T>,
        g: &Vector3<T>,
    ) -> Result<Generalized<T>> {
        s.validate_screened()?;
        let mg = g * body.mass();
        let tau = if body.com_at_reference() {
            Vector3::zeros()
        } else {
            body.center_of_mass()
                .cross(&s.orientation.conjugate().rotate(&mg))
        };
        Ok(Generalized::new(mg.x, mg.y, mg.z, tau.x, tau.y, tau.z))
    }

    /// `Body::output` of object `i` at `local_position` (m, body frame).
    #[inline]
    pub fn body_output(
        &self,
        i: ObjectIndex,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        match self.object(i)? {
            Object::Ground(g) => g.output(&(), var, local_position),
            Object::MassPoint2D { node, body } => self.with_point2d(*node, |n, s| {
                body.output(&n.configuration(s), var, local_position)
            }),
            Object::RigidBody { node, body }
            | Object::BodyCylinder { node, body, .. }
            | Object::TreeLink { node, body, .. } => {
                self.with_rigid(*node, |s| body.output(s, var, local_position))
            }
            Object::RigidBody2D { node, body } => self.with_rigid2d(*node, |n, s| {
                body.output(&n.configuration(s), var, local_position)
            }),
        }
    }

    /// `Q = Jpos(local_position)^T f + Jrot^T tau` of object `i` (`f` N world, `tau` N m
    /// world) and the node it acts on (`None` for the ground: no coordinates).
    #[inline]
    pub fn body_generalized_force(
        &self,
        i: ObjectIndex,
        local_position: &Vector3<T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Option<NodeForce<T>>> {
        // The closures write the force into `q` and return `Result<()>`: a `Generalized`
        // returned through them is moved between stack slots byte by byte (Cortex-M).
        let mut q = Generalized::zeros();
        let node = match self.object(i)? {
            Object::Ground(g) => {
                g.generalized_force(&(), local_position, force, torque)?;
                return Ok(None);
            }
            Object::MassPoint2D { node, body } => {
                self.with_point2d(*node, |n, s| {
                    q =
                        body.generalized_force(&n.configuration(s), local_position, force, torque)?;
                    Ok(())
                })?;
                node
            }
            Object::RigidBody { node, body }
            | Object::BodyCylinder { node, body, .. }
            | Object::TreeLink { node, body, .. } => {
                self.with_rigid(*node, |s| {
                    q = body.generalized_force(s, local_position, force, torque)?;
                    Ok(())
                })?;
                node
            }
            Object::RigidBody2D { node, body } => {
                self.with_rigid2d(*node, |n, s| {
                    q =
                        body.generalized_force(&n.configuration(s), local_position, force, torque)?;
                    Ok(())
                })?;
                node
            }
        };
        Ok(Some(NodeForce::new(*node, q)))
    }

    /// [`BodyStates::body_generalized_force`], for a rigid body (also a `BodyCylinder` or a tree
    /// link) written out ([`BodyStates::rigid_generalized_force`]).
    #[inline]
    pub fn point_generalized_force(
        &self,
        i: ObjectIndex,
        local_position: &Vector3<T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Option<NodeForce<T>>> {
        match self.object(i)? {
            Object::RigidBody { node, .. }
            | Object::BodyCylinder { node, .. }
            | Object::TreeLink { node, .. } => {
                let mut q = Generalized::zeros();
                self.with_rigid(*node, |s| {
                    q = Self::rigid_generalized_force(s, local_position, force, torque)?;
                    Ok(())
                })?;
                Ok(Some(NodeForce::new(*node, q)))
            }
            _ => self.body_generalized_force(i, local_position, force, torque),
        }
    }

    /// `Q = (int rho Jpos dV)^T g` of object `i` for a uniform acceleration `g` (m/s^2,
    /// world), and the node it acts on.
    #[inline]
    pub fn body_mass_force(&self, i: ObjectIndex, g: &Vector3<T>) -> Result<Option<NodeForce<T>>> {
        // As in `body_generalized_force`: the closures write `q`.
        let mut q = Generalized::zeros();
        let node = match self.object(i)? {
            Object::Ground(_) => return Ok(None),
            Object::MassPoint2D { node, body } => {
                self.with_point2d(*node, |n, s| {
                    q = body
                        .mass_jacobian_integral(&n.configuration(s))?
                        .transpose()
                        * g;
                    Ok(())
                })?;
                node
            }
            Object::RigidBody { node, body }
            | Object::BodyCylinder { node, body, .. }
            | Object::TreeLink { node, body, .. } => {
                if body.com_at_reference() {
                    // `m g` at the reference point: no torque, the node's state not needed.
                    let mg = g * body.mass();
                    q = Generalized::new(mg.x, mg.y, mg.z, T::zero(), T::zero(), T::zero());
                } else {
                    self.with_rigid(*node, |s| {
                        q = Self::rigid_mass_force(body, s, g)?;
                        Ok(())
                    })?;
                }
                node
            }
            Object::RigidBody2D { node, body } => {
                self.with_rigid2d(*node, |n, s| {
                    q = body
                        .mass_jacobian_integral(&n.configuration(s))?
                        .transpose()
                        * g;
                    Ok(())
                })?;
                node
            }
        };
        Ok(Some(NodeForce::new(*node, q)))
    }

    /// Position (m, world) and velocity (m/s, world) of node `i`'s point.
    #[inline]
    pub fn node_motion(&self, i: NodeIndex) -> Result<(Vector3<T>, Vector3<T>)> {
        self.with_node(i, |node, state| {
            Ok(match (node, state) {
                (Node::Point2D(n), NodeState::Point2D(s)) => (n.position(s)?, n.velocity(s)?),
                (Node::PointGround(g), NodeState::Ground) => (g.position(&())?, g.velocity(&())?),
                (Node::RigidBody(_) | Node::TreeLink(_), NodeState::RigidBody(s)) => {
                    s.validate_screened()?;
                    (s.position, s.velocity)
                }
                (Node::RigidBody2D(n), NodeState::RigidBody2D(s)) => {
                    let c = n.configuration(s);
                    c.check()?;
                    let (p, v) = (c.point(), s.q_t);
                    (
                        Vector3::new(p.x, p.y, T::zero()),
                        Vector3::new(v.x, v.y, T::zero()),
                    )
                }
                _ => return Err(Error::WrongNodeKind),
            })
        })
    }

    /// `Q = Jpos_node^T f` of a force `f` (N, world) on node `i`'s point (for a rigid-body
    /// node, `Jpos = [E3, 0]` at its reference point), `None` for a ground node.
    #[inline]
    pub fn node_generalized_force(
        &self,
        i: NodeIndex,
        force: &Vector3<T>,
    ) -> Result<Option<NodeForce<T>>> {
        self.with_node(i, |node, state| {
            let z = T::zero();
            Ok(match (node, state) {
                (Node::Point2D(n), NodeState::Point2D(s)) => Some(NodeForce::new(
                    i,
                    n.position_jacobian(s)?.transpose() * force,
                )),
                (Node::PointGround(_), NodeState::Ground) => None,
                (Node::RigidBody(_) | Node::TreeLink(_), NodeState::RigidBody(_)) => Some(
                    NodeForce::new(i, Generalized::new(force.x, force.y, force.z, z, z, z)),
                ),
                (Node::RigidBody2D(_), NodeState::RigidBody2D(_)) => Some(NodeForce::new(
                    i,
                    Generalized::new(force.x, force.y, z, z, z, z),
                )),
                _ => return Err(Error::WrongNodeKind),
            })
        })
    }

    /// Exudyn's `GetNodeOutput` for node `i`: for a rigid-body node the outputs of its point
    /// (`Position`, `Velocity`, `Acceleration`, world; `RotationMatrix`; `AngularVelocity`
    /// world, `AngularVelocityLocal` body).
    #[inline]
    pub fn node_output(&self, i: NodeIndex, var: OutputVariableType) -> Result<OutputValue<T>> {
        self.with_node(i, |node, state| match (node, state) {
            (Node::Point2D(n), NodeState::Point2D(s)) => n.output(s, var),
            (Node::PointGround(g), NodeState::Ground) => g.output(&(), var),
            (Node::RigidBody2D(n), NodeState::RigidBody2D(s)) => n.configuration(s).output(var),
            (node @ (Node::RigidBody(_) | Node::TreeLink(_)), NodeState::RigidBody(s)) => {
                s.validate_screened()?;
                use OutputVariableType as O;
                Ok(match (var, node) {
                    (O::Displacement, Node::RigidBody(n)) => {
                        OutputValue::Vector3(s.position - n.reference_position())
                    }
                    _ => return Self::rigid_node_output(s, var),
                })
            }
            _ => Err(Error::WrongNodeKind),
        })
    }

    /// The outputs of a rigid-body or tree-link node's point in state `s` (checked).
    fn rigid_node_output(s: &RigidState<T>, var: OutputVariableType) -> Result<OutputValue<T>> {
        use OutputVariableType as O;
        Ok(match var {
            O::Position => OutputValue::Vector3(s.position),
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
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::math::Quaternion;
    use crate::Param;

    #[inline]
    fn body_and_state() -> (RigidBody<f64>, RigidState<f64>) {
        let b =
            RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::new(0.1, -0.2, 0.3)).unwrap();
        let s = RigidState::new(
            Vector3::new(1.0, -2.0, 0.5),
            Quaternion::exp(&Vector3::new(0.4, -1.1, 0.7)),
            Vector3::new(0.3, 0.2, -0.1),
            Vector3::new(-0.5, 1.5, 2.0),
        );
        (b, s)
    }

    /// The written-out marker motion and `J^T f` agree with the Jacobian path of [`Body`]
    /// (built 3x6 matrices from `R_0b`, a different computation) to rounding.
    #[inline]
    #[test]
    fn rigid_fast_paths_match_the_jacobian_path() {
        let (b, s) = body_and_state();
        let p = Vector3::new(0.7, 0.1, -0.4);
        let (x, v) = BodyStates::rigid_point_motion(&s, &p).unwrap();
        let pos = vector3(b.output(&s, OutputVariableType::Position, &p).unwrap()).unwrap();
        let vel = vector3(b.output(&s, OutputVariableType::Velocity, &p).unwrap()).unwrap();
        assert!((x - pos).amax() < 1e-15 && (v - vel).amax() < 1e-15);
        let f = Vector3::new(3.0, -1.0, 2.0);
        let tau = Vector3::new(-0.5, 0.25, 1.0);
        for t in [Vector3::zeros(), tau] {
            let q = BodyStates::rigid_generalized_force(&s, &p, &f, &t).unwrap();
            let q_ref = b.generalized_force(&s, &p, &f, &t).unwrap();
            assert!((q - q_ref).amax() < 1e-14, "{q} {q_ref}");
        }
        let g = Vector3::new(0.0, 0.0, -9.81);
        let q = BodyStates::rigid_mass_force(&b, &s, &g).unwrap();
        let q_ref = b.mass_jacobian_integral(&s).unwrap().transpose() * g;
        assert!((q - q_ref).amax() < 1e-14);
    }

    /// A mass-proportional load on a body whose COM is its reference point is `m g` with no
    /// torque, the bits of the state's path (`rigid_mass_force`) without reading the state; a
    /// COM off the reference point takes the state's path.
    #[test]
    fn the_mass_force_at_the_reference_point_is_the_state_paths_bits() {
        let s = body_and_state().1;
        let g = Vector3::new(0.3, -1.7, -9.81);
        for com in [Vector3::zeros(), Vector3::new(0.1, -0.2, 0.3)] {
            let body = RigidBody::from_principal(2.5, [1.0, 2.0, 3.0], com).unwrap();
            let nodes = [Node::RigidBody(
                crate::system::node::NodeRigidBody::from_state(&s).unwrap(),
            )];
            let states = [NodeState::RigidBody(s)];
            let objects = [Object::rigid_body(NodeIndex(0), body)];
            let view = BodyStates::new(&nodes, &states, &objects);
            let f = view.body_mass_force(ObjectIndex(0), &g).unwrap().unwrap();
            let want = BodyStates::rigid_mass_force(&body, &s, &g).unwrap();
            assert_eq!(f.q.map(f64::to_bits), want.map(f64::to_bits), "{com}");
            assert_eq!(f.node, NodeIndex(0));
        }
    }

    /// Closed form: a COM at `c = [1, 0, 0]` (body) turned a quarter turn about z points
    /// along world y; gravity `-g z` at it has the torque about the reference point
    /// `c x (R^T m g) = [1,0,0] x [0,0,-m g] = [0, m g, 0]` (body frame).
    #[inline]
    #[test]
    fn gravity_torque_of_an_offset_com_by_hand() {
        let b = RigidBody::from_principal(2.0, [1.0, 1.0, 1.0], Vector3::x()).unwrap();
        let s = RigidState::at_rest(
            Vector3::zeros(),
            Quaternion::exp(&Vector3::new(0.0, 0.0, core::f64::consts::FRAC_PI_2)),
        );
        let q = BodyStates::rigid_mass_force(&b, &s, &Vector3::new(0.0, 0.0, -10.0)).unwrap();
        let expect = Generalized::new(0.0, 0.0, -20.0, 0.0, 20.0, 0.0);
        assert!((q - expect).amax() < 1e-14, "{q}");
        // No offset: no torque, exactly.
        let b0 = RigidBody::from_principal(2.0, [1.0, 1.0, 1.0], Vector3::zeros()).unwrap();
        let q0 = BodyStates::rigid_mass_force(&b0, &s, &Vector3::new(0.0, 0.0, -10.0)).unwrap();
        assert_eq!(q0, Generalized::new(0.0, 0.0, -20.0, 0.0, 0.0, 0.0));
    }

    /// The same errors as the Jacobian path: an invalid state, a non-finite result.
    #[inline]
    #[test]
    fn rigid_fast_paths_refuse_what_the_jacobian_path_refuses() {
        let (b, s) = body_and_state();
        let p = Vector3::new(0.7, 0.1, -0.4);
        let f = Vector3::new(3.0, -1.0, 2.0);
        let z = Vector3::zeros();
        let mut bad = s;
        bad.velocity.y = f64::NAN;
        assert_eq!(
            BodyStates::rigid_point_motion(&bad, &p),
            Err(Error::NonFiniteState)
        );
        assert_eq!(
            BodyStates::rigid_generalized_force(&bad, &p, &f, &z),
            b.generalized_force(&bad, &p, &f, &z)
        );
        let mut unit = s;
        unit.orientation.w *= 1.01;
        assert_eq!(
            BodyStates::rigid_mass_force(&b, &unit, &f),
            Err(Error::OutOfRange(Param::Orientation))
        );
        let huge = Vector3::new(f64::INFINITY, 0.0, 0.0);
        assert_eq!(
            BodyStates::rigid_generalized_force(&s, &p, &huge, &z),
            Err(Error::NotFinite(Param::Force))
        );
        assert_eq!(
            b.generalized_force(&s, &p, &huge, &z),
            Err(Error::NotFinite(Param::Force))
        );
    }
}
