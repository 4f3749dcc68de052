//! The nodes a system holds (the items with coordinates) and their dynamic state.
//!
//! - [`Node::Point2D`]: Exudyn's `NodePoint2D`, 2 coordinates (displacement in x-y, m, world);
//! - [`Node::PointGround`]: Exudyn's `NodePointGround`, no coordinates;
//! - [`Node::RigidBody`]: a rigid-body node ([`NodeRigidBody`]), 6 velocity coordinates
//!   `[v (m/s, world); w_b (rad/s, body frame)]`, pose `(r, R_0b)`;
//! - [`Node::RigidBody2D`]: Exudyn's `NodeRigidBody2D`, 3 coordinates `[x, y, theta]`
//!   (displacements from its reference, m, m, rad);
//! - [`Node::TreeLink`]: a link of the system's kinematic tree, no coordinates of its own: its
//!   pose and twist are the tree's forward kinematics at the tree's joint coordinates
//!   ([`System::add_kinematic_tree`](super::System::add_kinematic_tree)).
//!
//! The parameters (reference and initial values) are static; the state ([`NodeState`]) is
//! what the integrators advance.

use crate::math::Quaternion;
use crate::nodes::rigid2d::{NodeRigidBody2D, Rigid2DState};
use crate::nodes::{NodePoint2D, NodePointGround, Point2DState};
use crate::state::RigidState;
use crate::{Error, Real, Result};
use nalgebra::Vector3;

/// A rigid-body node: the reference pose (from which `Displacement` is measured, also the
/// initial pose) and the initial twist.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeRigidBody<T: Real> {
    position: Vector3<T>,
    orientation: Quaternion<T>,
    velocity: Vector3<T>,
    /// Body frame.
    angular_velocity: Vector3<T>,
}

impl<T: Real> NodeRigidBody<T> {
    /// A node at `position` (m, world) with orientation `orientation` (`R_0b`, unit
    /// quaternion, scalar first), the reference pose and the initial pose, moving with
    /// `velocity` (m/s, world, of the node's point) and `angular_velocity` (rad/s, **world**
    /// frame, as Exudyn's `initialAngularVelocity`; stored in the body frame).
    ///
    /// Errors: `NonFiniteState` for a NaN/infinite component, `OutOfRange(Orientation)` unless
    /// `orientation` is a unit quaternion (to 1e-6 in `|q|^2`).
    pub fn new(
        position: Vector3<T>,
        orientation: Quaternion<T>,
        velocity: Vector3<T>,
        angular_velocity: Vector3<T>,
    ) -> Result<Self> {
        let probe = RigidState::new(position, orientation, velocity, angular_velocity);
        probe.validate()?;
        let w_b = orientation.conjugate().rotate(&angular_velocity);
        RigidState::new(position, orientation, velocity, w_b).validate()?;
        Ok(Self {
            position,
            orientation,
            velocity,
            angular_velocity: w_b,
        })
    }

    /// A node whose reference and initial state is `state`'s pose and twist (angular velocity
    /// in the **body** frame, as [`RigidState`] holds it; its accelerations are not kept), e.g.
    /// [`BodyCylinder::initial_state`](crate::bodies::body_cylinder::BodyCylinder::initial_state).
    /// Errors of [`RigidState::validate`].
    pub fn from_state(state: &RigidState<T>) -> Result<Self> {
        state.validate()?;
        Ok(Self {
            position: state.position,
            orientation: state.orientation,
            velocity: state.velocity,
            angular_velocity: state.angular_velocity,
        })
    }

    /// A node at rest at `position` (m, world) with `orientation` (`R_0b`).
    pub fn at_rest(position: Vector3<T>, orientation: Quaternion<T>) -> Result<Self> {
        Self::new(position, orientation, Vector3::zeros(), Vector3::zeros())
    }

    /// The initial state (accelerations zero; the angular velocity in the body frame).
    pub fn initial_state(&self) -> RigidState<T> {
        RigidState::new(
            self.position,
            self.orientation,
            self.velocity,
            self.angular_velocity,
        )
    }

    /// Reference (= initial) position (m, world).
    pub fn reference_position(&self) -> Vector3<T> {
        self.position
    }

    /// Reference (= initial) orientation (`R_0b`).
    pub fn reference_orientation(&self) -> Quaternion<T> {
        self.orientation
    }
}

/// The node of a link of a system's kinematic tree: link `link` of the tree (made by
/// [`System::add_kinematic_tree`](super::System::add_kinematic_tree), not by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeTreeLink {
    pub(crate) link: u16,
}

impl NodeTreeLink {
    /// The link's number in the tree.
    pub fn link(&self) -> usize {
        usize::from(self.link)
    }
}

/// A node of a system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Node<T: Real> {
    /// Exudyn's `NodePoint2D`.
    Point2D(NodePoint2D<T>),
    /// Exudyn's `NodePointGround`.
    PointGround(NodePointGround<T>),
    /// A rigid-body node.
    RigidBody(NodeRigidBody<T>),
    /// Exudyn's `NodeRigidBody2D`.
    RigidBody2D(NodeRigidBody2D<T>),
    /// A link of the system's kinematic tree; its state is a [`NodeState::RigidBody`] (the
    /// link frame's pose and twist), computed from the tree's coordinates.
    TreeLink(NodeTreeLink),
}

impl<T: Real> Node<T> {
    /// The state at the start of a simulation.
    pub fn initial_state(&self) -> NodeState<T> {
        match self {
            Node::Point2D(n) => NodeState::Point2D(n.initial_state()),
            Node::PointGround(_) => NodeState::Ground,
            Node::RigidBody(n) => NodeState::RigidBody(n.initial_state()),
            Node::RigidBody2D(n) => NodeState::RigidBody2D(n.initial_state()),
            // Replaced by the tree's forward kinematics wherever the system sets it.
            Node::TreeLink(_) => NodeState::RigidBody(RigidState::at_rest(
                Vector3::zeros(),
                Quaternion::identity(),
            )),
        }
    }

    /// Number of velocity coordinates (2, 0, 6 or 3; 0 for a tree link, whose coordinates are
    /// the tree's).
    pub fn coordinates(&self) -> usize {
        match self {
            Node::Point2D(_) => 2,
            Node::PointGround(_) | Node::TreeLink(_) => 0,
            Node::RigidBody(_) => 6,
            Node::RigidBody2D(_) => 3,
        }
    }
}

/// The dynamic state of one node (plain data).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeState<T: Real> {
    /// Displacement, velocity and last acceleration of a [`Node::Point2D`].
    Point2D(Point2DState<T>),
    /// A ground node has no state.
    Ground,
    /// Pose, twist and last accelerations of a [`Node::RigidBody`].
    RigidBody(RigidState<T>),
    /// Displacements, velocities and last accelerations of a [`Node::RigidBody2D`].
    RigidBody2D(Rigid2DState<T>),
}

impl<T: Real> NodeState<T> {
    /// `Ok` if the state fits `node` (same kind) and is valid: finite (`NonFiniteState`), unit
    /// quaternion (`OutOfRange(Orientation)`); `WrongNodeKind` for another kind.
    pub fn check_for(&self, node: &Node<T>) -> Result<()> {
        match (node, self) {
            (Node::Point2D(_), NodeState::Point2D(s)) => {
                if s.is_finite() {
                    Ok(())
                } else {
                    Err(Error::NonFiniteState)
                }
            }
            (Node::PointGround(_), NodeState::Ground) => Ok(()),
            (Node::RigidBody(_) | Node::TreeLink(_), NodeState::RigidBody(s)) => s.validate(),
            (Node::RigidBody2D(_), NodeState::RigidBody2D(s)) => {
                if s.is_finite() {
                    Ok(())
                } else {
                    Err(Error::NonFiniteState)
                }
            }
            _ => Err(Error::WrongNodeKind),
        }
    }
}
