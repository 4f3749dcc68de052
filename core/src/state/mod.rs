//! What changes per step, apart from the parameters a user describes: the state of a rigid
//! body ([`rigid::RigidState`]). A mass point's coordinates live with its node
//! ([`Point2DState`](crate::nodes::Point2DState)); a system's state is the set of its
//! nodes' states.

pub mod rigid;

pub use rigid::RigidState;
