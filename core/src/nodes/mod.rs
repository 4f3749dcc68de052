//! Nodes: the items that own coordinates (Exudyn's `NodePoint2D`, `NodePointGround`; the
//! rigid-body node's state is [`RigidState`](crate::state::RigidState)).
//!
//! A node has static parameters (reference and initial values, validated once) and a dynamic
//! state kept apart from it (coordinates `q`, velocities `q_t`, last accelerations `q_tt`).
//! Every node can give the position and velocity of its point and the position Jacobian
//! `d v_0 / d q_t` through [`PositionNode`]; a force load on a node acts back through it.

pub mod ground;
pub mod point2d;
pub mod rigid2d;

pub use ground::NodePointGround;
pub use point2d::{NodePoint2D, Point2DConfiguration, Point2DState};
pub use rigid2d::{NodeRigidBody2D, Rigid2DConfiguration, Rigid2DState};

use crate::body::Jacobian;
use crate::{OutputValue, OutputVariableType, Real, Result};
use nalgebra::Vector3;

/// A node whose point has a position (Exudyn: a node usable by `MarkerNodePosition`).
pub trait PositionNode<T: Real> {
    /// The dynamic state the node reads (`()` for a ground node).
    type State;

    /// Number of coordinates of the node (2 for [`NodePoint2D`], 0 for [`NodePointGround`]).
    fn coordinates(&self) -> usize;

    /// Position of the node's point (m, world): reference plus displacement.
    fn position(&self, state: &Self::State) -> Result<Vector3<T>>;

    /// Velocity of the node's point (m/s, world).
    fn velocity(&self, state: &Self::State) -> Result<Vector3<T>>;

    /// `Jpos = d v_0 / d q_t` (world rows); columns past [`coordinates`](Self::coordinates) zero.
    fn position_jacobian(&self, state: &Self::State) -> Result<Jacobian<T>>;

    /// Exudyn's `GetNodeOutput`: the value of `var`, or `Err(OutputNotAvailable)`.
    fn output(&self, state: &Self::State, var: OutputVariableType) -> Result<OutputValue<T>>;
}
