//! Small math building blocks shared by every stage: the unit quaternion, the skew matrix and
//! the dense linear solves of the implicit steps. Linear algebra itself is nalgebra's
//! (fixed-size types only, no allocation).

pub mod dense;
pub mod linear_solve;
pub mod quaternion;
pub mod sincos;
pub mod skew;
pub mod solve3;

pub use quaternion::Quaternion;
pub use skew::{skew, skew_product};
