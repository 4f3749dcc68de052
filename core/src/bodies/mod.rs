//! Bodies: objects with mass that own a node and give it outputs and marker Jacobians
//! through the [`Body`](crate::body::Body) trait.

pub mod body_cylinder;
pub mod rigid_body;
