//! Joints and constraints: their equations `C(q) = 0`, Jacobians `C_q` and velocity terms
//! `(C_q q_t)_q q_t`, per kind, for the constrained solver
//! ([`integrators::constrained`](crate::integrators::constrained)).
//!
//! - [`planar`]: between markers of 2D bodies (Exudyn's `ObjectConnectorDistance`,
//!   `ObjectConnectorCoordinate`, `ObjectJointRevolute2D`, `ObjectJointPrismatic2D`).
//! - [`spatial`]: between markers of 3D rigid bodies (Exudyn's `ObjectJointGeneric` and its
//!   spherical, revolute, prismatic and fixed special cases, `ObjectConnectorDistance`).

pub mod planar;
pub mod spatial;
