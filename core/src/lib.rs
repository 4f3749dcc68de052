//! # mbs-core
//!
//! A `no_std`, allocation-free multibody dynamics kernel: mass properties, bodies, nodes,
//! integrators, and a fixed-capacity system of them. Fixed-size nalgebra types, `libm` for every
//! transcendental function (see [`real`]), `heapless` for fixed-capacity collections. Nothing
//! here panics on bad input: every check returns an [`Error`].
//!
//! ## Where things are
//!
//! The data flow is model -> state -> step -> outputs:
//!
//! | stage | module | what it holds |
//! |---|---|---|
//! | model | [`inertia`] | mass properties: Modelica's `BodyCylinder`, cuboid, sphere, point mass |
//! | model | [`bodies`], [`nodes`], [`body`] | bodies (rigid, `BodyCylinder`, mass point, ground; a rigid body in Euler parameters for the constrained step), the nodes that own coordinates, what every body provides (outputs, Jacobians) |
//! | model | [`loads`], [`graphics`] | loads on bodies; what a body looks like and the scene export |
//! | model | [`constraints`] | joints and constraints, planar and 3D: their equations, Jacobians, Hessians and velocity terms |
//! | state | [`state`] | what changes per step: [`state::RigidState`] (a mass point's coordinates live with its node) |
//! | step | [`integrators`] | time stepping: [`integrators::rigid`] (one driver, one file per scheme; [`integrators::rigid::midpoint`] is the one to use), [`integrators::second_order`] (generalized-alpha) and [`integrators::constrained`] (generalized-alpha with Lagrange multipliers) |
//! | step | [`solver`] | Exudyn's `SolveDynamic` of a mass point |
//! | all | [`system`] | the fixed-capacity system: items, assemble, the coupled step, solve, outputs, sensors, scene |
//! | all | [`tree`] | kinematic trees in joint coordinates: model, data, RNEA, CRBA, ABA, steps (Featherstone) |
//! | outputs | [`output`] | Exudyn's output variables and their values |
//! | shared | [`math`], [`frames`], [`real`], [`finite`], [`target`], [`error`] | quaternion, skew, 3x3 and NxN solves; Modelica's frame functions; the scalar type; finiteness tests; what a microcontroller does differently; errors |
//!
//! A rigid body's step, for example: [`integrators::RigidIntegrator::step`] runs
//! [`integrators::rigid::driver::step`] (check the inputs, map to the centre of mass, step or
//! sub-step, check and write the result), which calls the scheme's
//! [`integrators::RigidIntegrator::substep`] (for the midpoint step
//! [`integrators::rigid::midpoint::substep`]).
//!
//! ## Conventions
//! - SI units throughout (m, kg, s, N, rad).
//! - Frames: `0` is the world (inertial) frame; `b` a body frame. `R_0b` maps body coordinates
//!   to world coordinates, `v_0 = R_0b v_b`. Modelica's orientation object `T` is `R_0b^T`.
//! - Quaternions are scalar first `[w, x, y, z]` ([`math::Quaternion`]).
//! - Matrices flatten row-major at the C boundary; nalgebra stores column-major inside.
//! - Generic over the scalar: every type takes `T: Real` (`f32` or `f64`).
//! - Inlining: a small function on a step's path carries `#[inline]`, because across codegen
//!   units a function is not inlined without it (it shows in the host's step times); such an
//!   attribute has a comment only where it says more. `#[inline(never)]` keeps a function's
//!   temporaries off the stack of its caller (a microcontroller's stack holds the deepest
//!   frame chain); its comment says whose.
#![no_std]
// Tests may use nalgebra's own norm() etc. as an independent reference; the library may not.
#![cfg_attr(test, allow(clippy::disallowed_methods))]

pub mod bodies;
pub mod body;
pub mod constraints;
pub mod error;
pub mod finite;
pub mod foreign;
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
pub mod tree;

pub use error::{Error, Param, Result};

// The README's code runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
/// The nalgebra the API uses (its vectors and matrices), so that a user need not match its
/// version and features.
pub use nalgebra;
pub use output::{OutputValue, OutputVariableType};
pub use real::Real;
