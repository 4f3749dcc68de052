//! Loads (Exudyn's `LoadForceVector`, `LoadMassProportional`): constant forces on a node or at a
//! body's local position, and uniform accelerations acting on a body's mass (gravity).
//!
//! Each load computes its generalized force `Q` (fixed size, [`Generalized`](crate::body::Generalized);
//! entries past the node's coordinates zero) through the Jacobians of the body or node
//! (as Exudyn's bodies), generic over [`Body`](crate::body::Body) and
//! [`PositionNode`](crate::nodes::PositionNode), so a system sums the loads of any bodies.
//! A constant world-frame load has `d Q / d q = 0` on a body whose `Jpos` is constant (mass point).

pub mod force_vector;
pub mod mass_proportional;

pub use force_vector::LoadForceVector;
pub use mass_proportional::LoadMassProportional;
