//! [`PositionNode`]: what every node with a point gives, its position, velocity and position
//! Jacobian.

use crate::body::Jacobian;
use crate::{OutputValue, OutputVariableType, Real, Result};
use nalgebra::Vector3;

/// A node whose point has a position (Exudyn: a node usable by `MarkerNodePosition`).
pub trait PositionNode<T: Real> {
    /// The dynamic state the node reads (`()` for a ground node).
    type State;

    /// Number of coordinates of the node (2 for [`NodePoint2D`](super::NodePoint2D), 0 for
    /// [`NodePointGround`](super::NodePointGround)).
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
