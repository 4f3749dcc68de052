//! Kinematic trees in joint coordinates: a chain or tree of rigid links on revolute,
//! prismatic, fixed, spherical and free joints, and the algorithms of Featherstone's *Rigid
//! Body Dynamics Algorithms* (2008) on it, in fixed capacity without allocation.
//!
//! Model -> data -> algorithm, as MuJoCo's model and data:
//!
//! | file | what it holds |
//! |---|---|
//! | [`spatial`] | spatial motion and force vectors, transforms, rigid and articulated inertias (ch. 2) |
//! | [`joint`] | the joints: coordinates, placement, motion subspace (ch. 4) |
//! | [`model`] | [`KinematicTree`]: links, parents, placements, mass properties, gravity, joint springs (Exudyn's `ObjectKinematicTree`) |
//! | [`data`] | [`TreeData`]: the per-link results and work of one call |
//! | `kinematics` | forward kinematics, centre of mass, link-point Jacobians, energies |
//! | `rnea` | inverse dynamics and the bias forces: recursive Newton-Euler (ch. 5) |
//! | `crba` | the mass matrix: composite rigid bodies, and its tree-sparse `L^T D L` (ch. 6) |
//! | `aba` | forward dynamics: articulated bodies, `O(links)` (ch. 7) |
//! | [`step`] | time steps: semi-implicit Euler (damping implicit) and Runge-Kutta 4 |
//! | [`loops`] | closed loops: a link point held on another link's (or the world's) point; constrained accelerations, projection, steps |
//!
//! A user builds a [`KinematicTree`] once, keeps a [`TreeData`] beside it, and calls
//! `rnea`/`crba`/`aba`/`step` with the joint vectors `q`, `v`, `tau` as slices.

pub mod data;
pub mod joint;
pub mod loops;
pub mod model;
pub mod spatial;
pub mod step;

mod aba;
mod crba;
mod kinematics;
mod rnea;

pub use data::TreeData;
pub use joint::Joint;
pub use loops::{LoopClosure, LoopSettings, LoopWork};
pub use model::{JointSpring, KinematicTree, Link};
pub use spatial::{ArticulatedInertia, Force, Motion, RigidInertia, Transform};
pub use step::{TreeScheme, TreeStepReport, TreeStepSettings};
