//! # mbs-core
//!
//! A `no_std`, allocation-free multibody dynamics kernel: mass properties, bodies, nodes,
//! integrators. Fixed-size nalgebra types, `libm` for every transcendental function (see
//! [`real`]), `heapless` for fixed-capacity collections. Nothing here panics on bad input:
//! every check returns an [`Error`].
//!
//! ## Conventions
//! - SI units throughout (m, kg, s, N, rad).
//! - Frames: `0` is the world (inertial) frame; `b` a body frame. `R_0b` maps body coordinates
//!   to world coordinates, `v_0 = R_0b v_b`. Modelica's orientation object `T` is `R_0b^T`.
//! - Quaternions are scalar first `[w, x, y, z]` ([`math::Quaternion`]).
//! - Matrices flatten row-major at the C boundary; nalgebra stores column-major inside.
//! - Generic over the scalar: every type takes `T: Real` (`f32` or `f64`).
#![no_std]
// Tests may use nalgebra's own norm() etc. as an independent reference; the library may not.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod bodies;
pub mod body;
pub mod error;
pub mod finite;
pub mod frames;
pub mod graphics;
pub mod inertia;
pub mod integrators;
pub mod loads;
pub mod math;
pub mod nodes;
pub mod output;
pub mod real;
pub mod solver;
pub mod state;
pub mod system;
pub mod target;

pub use error::{Error, Param, Result};
pub use output::{OutputValue, OutputVariableType};
pub use real::Real;
