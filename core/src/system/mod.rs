//! The multibody system: bodies on nodes, markers, loads, connectors and sensors in fixed
//! capacity, assembled, checked and stepped by a coupled integrator (Exudyn's body
//! interface; Exudyn's `mbs` as the model).
//!
//! # Building
//! Items are added by value and referred to by typed indices ([`NodeIndex`], [`ObjectIndex`],
//! [`MarkerIndex`], [`LoadIndex`], [`ConnectorIndex`], [`SensorIndex`]). Each `add_*` checks the
//! item against what is there and refuses it, the system unchanged, with `CapacityFull`,
//! `UnknownIndex`, `WrongNodeKind`, `NodeAlreadyUsed`, `MarkerNotSupported`, `SameMarker`, ...
//! The helpers [`System::create_ground`], [`System::create_mass_point`],
//! [`System::create_rigid_body`], [`System::create_body_cylinder`] add a body with its node and,
//! with gravity, its `MarkerBodyMass` + `LoadMassProportional`. [`System::assemble`] checks the
//! whole system and names the item of the first problem ([`SystemError`]); any later `add_*`
//! makes it unassembled again, and `step` / `solve_dynamic` refuse with `NotAssembled`.
//!
//! # Capacities
//! `System<T, N, O, M, L, C, S, G, K, W, J>` has one capacity per item kind (nodes, objects,
//! markers, loads, connectors, sensors, `G` objects with custom graphics, `K` constraints, `J`
//! links of a kinematic tree ([`System::add_kinematic_tree`]); the last four default to 0), so
//! RAM is spent where a model needs it (a chain of `n` bodies with gravity needs about `n` nodes
//! and objects, `2n` markers, `n` loads, `n` connectors), and
//! `W`, the generalized-alpha workspace: coordinates plus constraint equations (plus the
//! equations again for the stabilized index-2 formulation) it can solve, default 0 (no
//! generalized-alpha). The workspace is two `W x W` matrices and 13 vectors of `W` scalars, and
//! the generalized-alpha state (5 vectors, the time, and a vector of the 3D bodies' orientations
//! on the Lie group): `(2 W^2 + 19 W + 1) * size_of::<T>()` bytes, part of the system (no stack, no heap).
//! [`FirmwareSystem`], [`FirmwareConstrainedSystem`] and [`HostSystem`] are ready sizes. A step uses, besides the system, a
//! working copy of the node states and one or two arrays of generalized forces on the stack
//! (about `N * (size_of::<NodeState<T>>() + 2 * 6 * size_of::<T>())` bytes).
//!
//! # Generalized-alpha and constraints
//! [`SystemScheme::GeneralizedAlpha`] steps the whole system as one index-3 DAE,
//! `M q_tt + C_q^T lambda = Q`, `C(q) = 0`, in the coordinates of its nodes, a 3D rigid
//! body's in Euler parameters with their normalization as a constraint, as Exudyn's
//! `NodeRigidBodyEP` (see [`Constraint`] for the constraints, `alpha/` for how the
//! system becomes the model of
//! [`ConstrainedAlpha`](crate::integrators::constrained::ConstrainedAlpha)). It is the only
//! scheme that keeps constraints: with another one a constraint is refused at `assemble`
//! (`NotSupportedByScheme`). At `rho_inf = 1` a system with 3D rigid bodies (or any
//! constraint) needs [`Formulation::StabilizedIndex2`](crate::integrators::constrained::Formulation).
//!
//! # The coupled integrator
//! Velocity coordinates `V` per body: a mass point `q_t` (m/s, world, 2); a rigid body its
//! centre-of-mass velocity `v_com` (m/s, world) and body-frame rate `w_b` (rad/s). `Q(t, q, V)`
//! is the sum of the generalized forces of all loads and connectors (`J^T f` through each
//! marker's body Jacobians, as Exudyn's bodies), converted for a rigid body into the force `f` at the COM
//! (world) and the torque `tau` about the COM (body frame).
//!
//! **Kick-drift-kick** ([`SystemScheme::KickDriftKick`], the default), a Strang splitting of the
//! motion into "forces" and "free motion" (velocity Verlet, generalized to rigid bodies):
//!
//! ```text
//! (1) Q0 = Q(t, q, V)                              half kick:  V* = V + h/2 M^-1 Q0
//!     mass point: q_t += h/2 Q/m;  rigid: v_com += h/2 f/m,  w_b += h/2 I^-1 tau
//! (2) drift over h, force free:  mass point q += h q_t;  rigid: the torque-free step of the
//!     rigid scheme (default: the linearly implicit midpoint rate update with the
//!     orientation turned by the mean rate, q' = q exp(h (w + w')/2)), r_com += h v_com
//! (3) Q1 = Q(t + h, q', V*)                        half kick:  V' = V* + h/2 M^-1 Q1
//!     with a velocity-dependent force (a damper), the last kick is implicit,
//!     V' = V* + h/2 M^-1 Q(t + h, q', V'), solved by `damping_corrections` fixed-point
//!     corrections (each one more evaluation of Q; 1 keeps order 2).
//! ```
//!
//! Order 2 in positions, velocities and orientation for position- and velocity-dependent
//! forces (the composition explicit half kick, exact/second-order drift, implicit half kick is
//! symmetric); exact for constant forces on mass points and on the COM (gravity: the free fall
//! parabola to round-off); symplectic for conservative forces on mass points (energy of a
//! spring stays bounded, no drift), and momentum-conserving to round-off (a connector's
//! forces are equal and opposite). Two (undamped) or three (damped) force evaluations per step.
//! Stability: explicit in the stiffness, `h sqrt(k/m) < 2` per spring (keep it well below, e.g.
//! `< 0.5`, for accuracy); the rigid rotation bound `|w| h < 0.5` rad of the midpoint step holds for the
//! drift, which sub-steps on request.
//!
//! **Held loads** ([`SystemScheme::HeldLoads`]): `Q(t, q, V)` once at the start, held over the step;
//! each body by its own integrator: a mass point exactly for the held force
//! (`q' = q + h q_t + h^2/2 a`, `q_t' = q_t + h a`), a rigid body by [`RigidScheme`] with the
//! held force and torque. First order in the coupling of the bodies (a spring's force lags by a step);
//! for one free rigid body it *is* the rigid scheme's step (the midpoint step with
//! [`RigidScheme::Midpoint`]), bit for bit. Here for comparison and for users who want exactly
//! the single-body step.
//!
//! Why kick-drift-kick is the default: the same cost as held loads plus one force evaluation,
//! one order more for every coupled system (springs, dampers, gravity on off-centre bodies),
//! exact free fall, and the long-run behaviour (bounded energy, exact momentum) that makes a
//! real-time model trustworthy over hours. The measured orders are in the tests
//! (`tests/system_*.rs`).

mod alpha;
mod assemble;
mod connector;
mod constraint;
mod create;
mod cylinder_shape;
mod default_graphics;
mod error;
mod forces;
mod grid;
mod index;
mod items;
mod kinematic_tree;
mod load;
mod marker;
mod node;
mod node_force;
mod object;
mod output;
mod scene;
mod sensor;
mod settings;
mod step;
// The file named for the type it defines.
mod body_states;
#[allow(clippy::module_inception)]
mod system;
mod tree;
mod world_joints;

pub use crate::integrators::rigid::schemes::rigid_step;
pub use crate::integrators::rigid::RigidScheme;
pub use body_states::BodyStates;
pub use connector::{
    CartesianSpringDamper, Connector, ConnectorForces, SpringDamper, TorsionalSpringDamper,
};
pub use constraint::Constraint;
pub use create::{CreatedBody, MassPointSpec, RigidBodySpec};
pub use cylinder_shape::CylinderShape;
pub use default_graphics::{
    default_drawing, principal_axes, DefaultDrawing, MASS_POINT_SPHERE_DENSITY,
    MIN_BOX_EDGE_FRACTION,
};
pub use error::{SystemError, SystemResult};
pub use index::{
    ConnectorIndex, ConstraintIndex, ItemRef, LoadIndex, MarkerIndex, NodeIndex, ObjectIndex,
    SensorIndex,
};
pub use load::{Load, LoadFn, UserFunction, UserLoadKind};
pub use marker::{Marker, MarkerKind};
pub use node::{Node, NodeRigidBody, NodeState, NodeTreeLink};
pub use object::Object;
pub use sensor::{NoSink, Sensor, SensorSink, SliceSink};
pub use settings::{AlphaSettings, Rotations, SystemScheme, SystemSettings};
pub use step::solve::{Control, Progress, SolveReport, SolveRun};
pub use step::StepReport;
pub use system::System;
pub use world_joints::WorldJoint;

/// A system sized for a microcontroller: 8 nodes, 8 objects, 16 markers, 16 loads,
/// 8 connectors, 8 sensors, no custom graphics (objects are drawn by their default shapes), no
/// constraints and no generalized-alpha workspace (the explicit schemes only; see
/// [`FirmwareConstrainedSystem`]).
pub type FirmwareSystem<T> = System<T, 8, 8, 16, 16, 8, 8, 0>;

/// [`FirmwareSystem`] with 8 constraints and a generalized-alpha workspace of 24 coordinates
/// plus equations (a slider-crank needs 15, a four-bar of three 2D links 17): the workspace's
/// `(2 W^2 + 19 W + 1) * size_of::<T>()` bytes with `W = 24` and the constraints' slots more
/// (docs/embedded.md has the sizes).
pub type FirmwareConstrainedSystem<T> = System<T, 8, 8, 16, 16, 8, 8, 0, 8, 24>;

/// A system sized for a host (simulation, tests, benchmarks of up to ~250 bodies): 256 nodes,
/// 256 objects, 768 markers, 512 loads, 512 connectors, 64 sensors, custom graphics for 32
/// objects, 128 constraints and a generalized-alpha workspace of 96 coordinates plus equations
/// (e.g. 16 planar links on 24 revolute joints).
pub type HostSystem<T> = System<T, 256, 256, 768, 512, 512, 64, 32, 128, 96>;
