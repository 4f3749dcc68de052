//! Nodes: the items that own coordinates (Exudyn's `NodePoint2D`, `NodePointGround`; the
//! rigid-body node's state is [`RigidState`](crate::state::RigidState)).
//!
//! A node has static parameters (reference and initial values, validated once) and a dynamic
//! state kept apart from it (coordinates `q`, velocities `q_t`, last accelerations `q_tt`).
//! Every node can give the position and velocity of its point and the position Jacobian
//! `d v_0 / d q_t` through [`PositionNode`]; a force load on a node acts back through it.

pub mod ground;
pub mod point2d;
mod position;
pub mod rigid2d;

pub use ground::NodePointGround;
pub use point2d::{NodePoint2D, Point2DConfiguration, Point2DState};
pub use position::PositionNode;
pub use rigid2d::{NodeRigidBody2D, Rigid2DConfiguration, Rigid2DState};
