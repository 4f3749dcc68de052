//! Small math building blocks shared by every stage: the unit quaternion and the skew matrix.
//! Linear algebra itself is nalgebra's (fixed-size types only, no allocation).

pub mod quaternion;
pub mod skew;

pub use quaternion::Quaternion;
pub use skew::skew;
