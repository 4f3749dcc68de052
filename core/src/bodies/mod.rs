//! Bodies: objects with mass on a node (as Exudyn's bodies), each implementing [`Body`](crate::body::Body).

pub mod body_cylinder;
pub mod euler_parameters;
pub mod ground;
pub mod lie_group;
pub mod mass_point_2d;
pub mod rigid_body;
pub mod rigid_body_2d;

pub use ground::ObjectGround;
pub use mass_point_2d::MassPoint2D;
pub use rigid_body_2d::RigidBody2D;
