//! The whole system as one constrained mechanical system ([`ConstrainedModel`]) for the
//! generalized-alpha coupling: the coordinates of all nodes in one vector, the bodies' mass
//! matrices, the loads' and connectors' generalized forces, and the constraints' equations.
//!
//! The vector `q` holds each node's coordinates (Exudyn's ODE2 coordinates), the nodes farthest
//! from the ground first ([`leaves_first`]: what the Newton matrix's LU fills least): a
//! `NodePoint2D` 2 (`x, y`, m) and a `NodeRigidBody2D` 3 (`x, y` m, `theta` rad), displacements
//! from the node's reference; a 3D rigid-body node 7, its position and Euler parameters
//! (`r` m world, `e`: [`euler_parameters`](crate::bodies::euler_parameters), Exudyn's
//! `NodeRigidBodyEP`); a ground node none; after all nodes the kinematic tree's joint
//! coordinates (its links' nodes have none: [`crate::system::System::add_kinematic_tree`]). The rows of `C` hold first each 3D rigid node's
//! normalization `e . e - 1 = 0` in node order, then each constraint's equations in
//! constraint order. With these, `M q_tt + C_q^T lambda = Q + f_v` where `Q` is the sum of the
//! loads' and connectors' `J^T f` (as the explicit couplings use it; a 3D body's mapped to `e`
//! by `Gb^T`) and `f_v` the rigid bodies' centrifugal and gyroscopic forces.
//!
//! The orientation the node states carry is `e / |e|`: a unit quaternion to round-off, while
//! `e` itself keeps `|e| = 1` to the Newton tolerance.
//!
//! On the Lie group ([`Rotations::LieGroup`], [`lie_group`](crate::bodies::lie_group)) a 3D
//! rigid node has 6 entries instead: `r` and the rotation `theta` (rad, body frame) from its
//! orientation at the step's start, `R = R_n exp([theta]x)`, its velocities `[v; w]` (`w` body
//! frame); no normalization rows; `Q` and the bodies' terms enter as they are (no `Gb`). The
//! orientations `R_n` are kept in [`AlphaStorage`] at each body's offset, and a committed step
//! makes its node states' orientations the next step's (`theta` back to zero). The constraints'
//! `C_q` is taken in the left-trivialized directions `d(R b)/dtheta = -R [b]x`, the Newton
//! matrix's constraint rows mapped to `theta` by the tangent operator of `exp`
//! ([`ConstrainedModel::constraint_rows_to_coordinates`]).
//!
//! The Newton matrix's Jacobians: constraints analytic (`C_q`, `d(C_q^T lambda)/dq`, the velocity
//! terms: [`crate::constraints::planar`]); loads analytic (a force at a point `p` of a 2D rigid
//! body gives `dQ_theta/dtheta = -(R p) . f`; torques and forces on points do not depend on `q`);
//! `f_v` analytic (a 3D body's over `e` with its mass matrix's, below); connectors by forward
//! differences over the coordinates and velocities of their two nodes (2D nodes, and 3D rigid
//! nodes' positions and Euler parameters, a 3D body's generalized force mapped by the `Gb^T` of the
//! perturbed `e` as the residual maps it; one evaluation of that connector per coordinate); 3D
//! joints' `d(C_q^T lambda)/dq` analytic ([`crate::constraints::spatial`], a tree link's through
//! its Jacobian columns); every force's dependence on the tree's coordinates and velocities by
//! forward differences; a 3D body's `d(M q_tt - f_v)/de` analytic
//! ([`ep::inertia_position_jacobian`]: terms of order `beta' omega^2` against `M`, which a
//! fast-spinning body needs), and, for the stabilized index 2, its normalization's velocity row
//! `(C_q v)_q = 2 e_t^T`. Left out (the iteration converges linearly at their rate, of order `h^2`
//! against `M`): how a 3D body's loads change with its `e`, a 2D body's `d(M q_tt)/dtheta` (an
//! offset centre of mass), and the joints' `(C_q v)_q` in the index-2 velocity rows.

use super::zeros;
use crate::bodies::euler_parameters::{self as ep, EP_COORDINATES};
use crate::bodies::lie_group::{self as lg, LG_COORDINATES};
use crate::body::Generalized;
use crate::constraints::planar::{self, AngleCache, MarkerState, PlanarMarker};
use crate::constraints::spatial::{self, SpatialMarker, SpatialState, TreeColumns};
use crate::integrators::constrained::{
    generalized_alpha, Block, ConstrainedAlpha, ConstrainedModel, ConstrainedReport,
    ConstrainedState, Formulation, Workspace,
};
use crate::nodes::rigid2d::{Rigid2DConfiguration, Rigid2DState};
use crate::nodes::Point2DState;
use crate::state::RigidState;
use crate::system::connector::Connector;
use crate::system::constraint::Constraint;
use crate::system::error::{SystemError, SystemResult};
use crate::system::forces::{generalized_forces, NodeForce};
use crate::system::index::{ConnectorIndex, ItemRef, MarkerIndex, NodeIndex};
use crate::system::items::System;
use crate::system::load::Load;
use crate::system::marker::Marker;
use crate::system::node::{Node, NodeState};
use crate::system::object::Object;
use crate::system::settings::Rotations;
use crate::system::tree::SystemTree;
use crate::system::view::View;
use crate::tree::TreeData;
use crate::{Error, Real, Result};
use core::cell::Cell;
use heapless::Vec;
use nalgebra::{Vector2, Vector3, Vector4};

/// [`Layout::offsets`] of a node without coordinates.
pub(crate) const NO_COORDINATES: u16 = u16::MAX;

/// Where each node's coordinates and each constraint's equations sit in the solver's vectors
/// (set when the system is assembled for generalized-alpha).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Layout<T, const N: usize, const K: usize> {
    /// Per node: the index of its first coordinate; [`NO_COORDINATES`] for a node without
    /// (the ground, a tree link: the tree's coordinates are at `tree`).
    pub(crate) offsets: Vec<u16, N, u16>,
    /// Per constraint: the index of its first equation.
    pub(crate) rows: Vec<u16, K, u16>,
    /// The index of the kinematic tree's first coordinate (after every node's).
    pub(crate) tree: usize,
    /// Number of coordinates `n`.
    pub(crate) n: usize,
    /// Number of equations `m`.
    pub(crate) m: usize,
    /// Number of 3D rigid nodes (in Euler parameters; their normalizations are the first rows)
    /// and of 2D rigid nodes: a system without one kind skips its loops.
    pub(crate) spatial: usize,
    pub(crate) planar: usize,
    /// The 3D rigid bodies' rotations are on the Lie group ([`Rotations::LieGroup`]): 6
    /// coordinates a body, no normalization rows.
    pub(crate) group: bool,
    /// Per constraint: its ends, resolved once from its markers
    /// ([`SystemModel::resolve_ends`]).
    pub(crate) ends: Vec<Ends<T>, K, u16>,
}

/// Number of coordinates of `node` in the solver's vector (module docs), a 3D rigid body's on
/// the Lie group with `group`.
fn coordinates_of<T: Real>(node: &Node<T>, group: bool) -> usize {
    match node {
        Node::RigidBody(_) if group => LG_COORDINATES,
        Node::RigidBody(_) => EP_COORDINATES,
        n => n.coordinates(),
    }
}

/// Adds `a d` to the rows of a 3D rigid node at `off` (its 7 coordinates) and the columns of
/// its Euler parameters (`off + 3..off + 7`).
fn add_e_columns<T: Real, const S: usize>(
    out: &mut Block<'_, T, S>,
    off: usize,
    d: &nalgebra::SMatrix<T, EP_COORDINATES, 4>,
    a: T,
) {
    out.add_scaled(off, off + 3, d, a);
}

/// A 3D rigid node's generalized force `g = [f; tau_ref]` as entries of its coordinates,
/// `[f; Gb(e)^T tau_ref]`, with its Euler parameters `e` at `o + 3` in `q`.
fn euler_parameter_force<T: Real>(
    g: &Generalized<T>,
    q: &[T],
    o: usize,
) -> Result<[T; EP_COORDINATES]> {
    let tau = Vector3::new(g[3], g[4], g[5]);
    let ge = ep::g_body(&vec4(q, o + 3)?).transpose() * tau;
    Ok([g[0], g[1], g[2], ge[0], ge[1], ge[2], ge[3]])
}

impl<T: Real, const N: usize, const K: usize> Layout<T, N, K> {
    /// The most unknowns a step of this layout solves for (`n + 2 m`, the stabilized
    /// formulation's): the part of the workspace it writes.
    pub(crate) fn unknowns(&self) -> usize {
        self.n + 2 * self.m
    }

    /// Number of normalization rows (the first rows): one per 3D rigid node in Euler
    /// parameters, none on the Lie group.
    pub(crate) fn normalizations(&self) -> usize {
        if self.group {
            0
        } else {
            self.spatial
        }
    }

    /// The layout of `nodes`, a tree of `tree` coordinates and `constraints` (module docs), the
    /// nodes' coordinates in `order` (a permutation of the nodes' indices), the 3D bodies'
    /// rotations in `rotations`, the constraints' ends not yet resolved; `CapacityFull` past
    /// `u16`.
    pub fn of(
        nodes: &[Node<T>],
        order: &[u16],
        tree: usize,
        constraints: &[Constraint<T>],
        rotations: Rotations,
    ) -> SystemResult<Self> {
        let full = || SystemError::new(Error::CapacityFull, ItemRef::System);
        let mut layout = Layout {
            group: rotations == Rotations::LieGroup,
            ..Layout::default()
        };
        for node in nodes {
            layout.offsets.push(0).map_err(|_| full())?;
            // The normalization rows come first, in node order.
            layout.spatial += usize::from(matches!(node, Node::RigidBody(_)));
            layout.planar += usize::from(matches!(node, Node::RigidBody2D(_)));
        }
        for &i in order {
            let (Some(node), Some(at)) = (
                nodes.get(usize::from(i)),
                layout.offsets.get_mut(usize::from(i)),
            ) else {
                return Err(SystemError::new(Error::UnknownIndex, ItemRef::System));
            };
            let count = coordinates_of(node, layout.group);
            *at = match count {
                0 => NO_COORDINATES,
                _ => u16::try_from(layout.n).map_err(|_| full())?,
            };
            layout.n += count;
        }
        layout.m = layout.normalizations();
        layout.tree = layout.n;
        layout.n += tree;
        for c in constraints {
            let at = u16::try_from(layout.m).map_err(|_| full())?;
            layout.rows.push(at).map_err(|_| full())?;
            layout.m += c.equations();
        }
        Ok(layout)
    }
}

/// The order of the nodes' coordinates in `q`: the nodes farthest from the ground, counted in
/// constraints between them, first; the nodes no constraint path joins to the ground before
/// all; ties in index order. A chain's Newton matrix is then eliminated from its free end, which
/// its LU with partial pivoting fills least (`BENCHMARKS.md`). A constraint whose markers do not
/// resolve adds no path (assembling reports it).
fn leaves_first<T: Real, const N: usize>(
    nodes: &[Node<T>],
    objects: &[Object<T>],
    markers: &[Marker<T>],
    constraints: &[Constraint<T>],
) -> SystemResult<Vec<u16, N, u16>> {
    let full = || SystemError::new(Error::CapacityFull, ItemRef::System);
    // Constraints away from the ground by node: 0 not reached (yet).
    let mut depth: Vec<u16, N, u16> = Vec::new();
    for _ in nodes {
        depth.push(0).map_err(|_| full())?;
    }
    let ends = |c: &Constraint<T>| c.nodes(markers, nodes, objects).unwrap_or([None, None]);
    // Breadth first, a level a pass over the constraints.
    let mut level = 1u16;
    loop {
        let mut reached = false;
        for c in constraints {
            let pairs = match ends(c) {
                [None, Some(n)] | [Some(n), None] if level == 1 => [(None, Some(n)), (None, None)],
                [Some(a), Some(b)] if level > 1 => [(Some(a), Some(b)), (Some(b), Some(a))],
                _ => continue,
            };
            for (from, to) in pairs {
                let Some(to) = to else { continue };
                let from_ok = from.is_none_or(|f| depth.get(f.get()) == Some(&(level - 1)));
                if let Some(d) = depth.get_mut(to.get()).filter(|d| **d == 0) {
                    if from_ok {
                        *d = level;
                        reached = true;
                    }
                }
            }
        }
        if !reached || level == u16::MAX {
            break;
        }
        level += 1;
    }
    let mut order: Vec<u16, N, u16> = Vec::new();
    for i in 0..nodes.len() {
        order
            .push(u16::try_from(i).map_err(|_| full())?)
            .map_err(|_| full())?;
    }
    let key = |i: u16| match depth.get(usize::from(i)) {
        Some(0) | None => u16::MAX,
        Some(d) => *d,
    };
    order.sort_unstable_by_key(|&i| (core::cmp::Reverse(key(i)), i));
    Ok(order)
}

/// The coordinates `q` and velocities `v` of a generalized-alpha iterate in a [`Layout`]'s
/// order, from which a [`View`] makes a node's state when it is asked for (no copy of every
/// node's state is held while loads and connectors are evaluated).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Iterate<'a, T: Copy> {
    pub(crate) offsets: &'a [u16],
    pub(crate) q: &'a [T],
    pub(crate) v: &'a [T],
    /// On the Lie group: each 3D rigid node's orientation at the step's start (at its offset,
    /// [`lg::start_in`]).
    pub(crate) starts: Option<&'a [Cell<T>]>,
}

impl<T: Real> Iterate<'_, T> {
    /// The state of `node` (index `i`) at the iterate, accelerations zero; `UnknownIndex`
    /// outside the vectors; a 3D rigid body's as [`Self::rigid`]. A tree link's state is its
    /// initial one (the tree's kinematics make it, [`SystemModel::states`]).
    pub(crate) fn state(&self, node: &Node<T>, i: NodeIndex) -> Result<NodeState<T>> {
        Ok(match node {
            Node::PointGround(_) => NodeState::Ground,
            Node::Point2D(_) => NodeState::Point2D(self.point2d(i)?),
            Node::RigidBody2D(_) => NodeState::RigidBody2D(self.rigid2d(i)?),
            Node::RigidBody(_) => NodeState::RigidBody(self.rigid(i)?),
            Node::TreeLink(_) => node.initial_state(),
        })
    }

    /// `f` of [`Self::state`].
    // Out of line, as the three below: the state is in this frame, not in each caller's. (One
    // function generic over a closure making the state took more stack and time on the M4F.)
    #[inline(never)]
    pub(crate) fn with_state<R>(
        &self,
        node: &Node<T>,
        i: NodeIndex,
        f: impl FnOnce(&NodeState<T>) -> Result<R>,
    ) -> Result<R> {
        f(&self.state(node, i)?)
    }

    /// `f` of [`Self::point2d`].
    #[inline(never)]
    pub(crate) fn with_point2d<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&Point2DState<T>) -> Result<R>,
    ) -> Result<R> {
        f(&self.point2d(i)?)
    }

    /// `f` of [`Self::rigid2d`].
    #[inline(never)]
    pub(crate) fn with_rigid2d<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&Rigid2DState<T>) -> Result<R>,
    ) -> Result<R> {
        f(&self.rigid2d(i)?)
    }

    /// `f` of [`Self::rigid`].
    #[inline(never)]
    pub(crate) fn with_rigid<R>(
        &self,
        i: NodeIndex,
        f: impl FnOnce(&RigidState<T>) -> Result<R>,
    ) -> Result<R> {
        f(&self.rigid(i)?)
    }

    fn offset(&self, i: NodeIndex) -> Result<usize> {
        let o = self.offsets.get(i.get()).ok_or(Error::UnknownIndex)?;
        Ok(usize::from(*o))
    }

    /// A 2D point node's state (`x, y`).
    #[inline(always)]
    pub(crate) fn point2d(&self, i: NodeIndex) -> Result<Point2DState<T>> {
        let o = self.offset(i)?;
        let (q, v) = (self.q.get(o..o + 2), self.v.get(o..o + 2));
        let (Some(q), Some(v)) = (q, v) else {
            return Err(Error::UnknownIndex);
        };
        Ok(Point2DState {
            q: Vector2::new(q[0], q[1]),
            q_t: Vector2::new(v[0], v[1]),
            q_tt: Vector2::zeros(),
        })
    }

    /// A 2D rigid-body node's state (`x, y, theta`).
    #[inline(always)]
    pub(crate) fn rigid2d(&self, i: NodeIndex) -> Result<Rigid2DState<T>> {
        let o = self.offset(i)?;
        Ok(Rigid2DState {
            q: vec3(self.q, o)?,
            q_t: vec3(self.v, o)?,
            q_tt: Vector3::zeros(),
        })
    }

    /// A 3D rigid-body node's state: orientation `e / |e|` (`|e| = 1` only at convergence),
    /// angular velocity `Gb(e) e_t`; `NonFiniteState` for an `e` that cannot be normalized. On
    /// the Lie group the orientation `e_n exp(theta)` and the angular velocity `w`.
    #[inline(always)]
    pub(crate) fn rigid(&self, i: NodeIndex) -> Result<RigidState<T>> {
        let o = self.offset(i)?;
        if let Some(starts) = self.starts {
            let start = lg::start_in(starts, o).ok_or(Error::UnknownIndex)?;
            let theta = vec3(self.q, o + 3)?;
            let mut s = RigidState::at_rest(vec3(self.q, o)?, lg::orientation(&start, &theta));
            s.velocity = vec3(self.v, o)?;
            s.angular_velocity = vec3(self.v, o + 3)?;
            return Ok(s);
        }
        let (r, e) = (vec3(self.q, o)?, vec4(self.q, o + 3)?);
        let (v, e_t) = (vec3(self.v, o)?, vec4(self.v, o + 3)?);
        let unit = ep::quaternion(&e)
            .normalized()
            .ok_or(Error::NonFiniteState)?;
        let mut s = RigidState::at_rest(r, unit);
        s.velocity = v;
        s.angular_velocity = ep::g_body(&e) * e_t;
        Ok(s)
    }
}

/// The generalized-alpha state kept between steps (accelerations, algorithmic accelerations,
/// multipliers; positions and velocities are the node states') and the Newton workspace, both
/// of capacity `W` (coordinates plus equations).
#[derive(Clone)]
pub struct AlphaStorage<T: Real, const W: usize> {
    /// The state. A step leaves its result in `work` and the system commits it here once
    /// the step is complete (checked, the sensors recorded), so a refused step leaves it as it
    /// was.
    state: ConstrainedState<T, W>,
    pub(crate) work: Workspace<T, W>,
    /// `state` holds consistent accelerations and multipliers for the node states (set by the
    /// start computation; cleared when the states are set from outside).
    pub(crate) started: bool,
    /// What the last step's Newton iteration did.
    pub(crate) report: Option<ConstrainedReport<T>>,
    /// On the Lie group: each 3D rigid node's orientation at the state, at its coordinates'
    /// offset ([`lg::start_at`]; the state's rotations `theta` are zero, each step starts from
    /// these).
    pub(crate) starts: [T; W],
}

/// [`AlphaStorage::saved`]: a solve's way back on error.
pub(crate) struct SavedAlpha<T: Real, const W: usize> {
    state: ConstrainedState<T, W>,
    started: bool,
    report: Option<ConstrainedReport<T>>,
    starts: [T; W],
}

impl<T: Real, const W: usize> Default for AlphaStorage<T, W> {
    fn default() -> Self {
        let z = [T::zero(); W];
        let state = ConstrainedState {
            t: T::zero(),
            q: z,
            v: z,
            acc: z,
            alg: z,
            lambda: z,
        };
        Self {
            state,
            work: Workspace::default(),
            started: false,
            report: None,
            starts: z,
        }
    }
}

/// The workspace is scratch memory, not part of the system's value: two systems with equal
/// items, states and multipliers are equal whatever their last Newton matrices were.
impl<T: Real, const W: usize> PartialEq for AlphaStorage<T, W> {
    fn eq(&self, other: &Self) -> bool {
        self.state() == other.state()
            && self.started == other.started
            && self.starts == other.starts
    }
}

impl<T: Real, const W: usize> core::fmt::Debug for AlphaStorage<T, W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AlphaStorage")
            .field("state", self.state())
            .finish_non_exhaustive()
    }
}

impl<T: Real, const W: usize> AlphaStorage<T, W> {
    /// The state.
    pub(crate) fn state(&self) -> &ConstrainedState<T, W> {
        &self.state
    }

    /// Sets the state (a start computed in place).
    pub(crate) fn set_state(&mut self, s: &ConstrainedState<T, W>) {
        self.state = *s;
    }

    /// The result of a complete step (in the workspace, [`ConstrainedAlpha::step_into_work`])
    /// made the state, at time `t1`, in `layout`, with `states` the node states of that result
    /// (on the Lie group each 3D rigid node then starts the next step from its orientation:
    /// [`Self::rebase`]).
    pub(crate) fn commit<const N: usize, const K: usize>(
        &mut self,
        t1: T,
        layout: &Layout<T, N, K>,
        states: &[NodeState<T>],
    ) {
        generalized_alpha::commit(&mut self.state, &self.work, t1, layout.n, layout.m);
        if layout.group {
            self.rebase(layout, states);
        }
    }

    /// On the Lie group: each 3D rigid node's orientation in `states` (the node states of the
    /// state, [`lg::step_orientation`] of its `theta`) made its start, and `theta` zero.
    // Out of line: not in the frame of a step in Euler parameters.
    #[inline(never)]
    pub(crate) fn rebase<const N: usize, const K: usize>(
        &mut self,
        layout: &Layout<T, N, K>,
        states: &[NodeState<T>],
    ) {
        for (s, o) in states.iter().zip(&layout.offsets) {
            // (A tree link's state is not at an offset.)
            if *o == NO_COORDINATES {
                continue;
            }
            let o = usize::from(*o);
            let (NodeState::RigidBody(r), Some(theta)) = (s, self.state.q.get_mut(o + 3..o + 6))
            else {
                continue;
            };
            lg::set_start(&mut self.starts, o, &r.orientation);
            theta.fill(T::zero());
        }
    }

    /// After a step or a start computation, complete or refused: the workspace zero
    /// ([`Workspace::clear`]). Between calls the storage then depends on the state alone, so a
    /// refused call changes no byte of it.
    pub(crate) fn settle(&mut self) {
        self.work.clear();
    }

    /// What [`Self::restore`] puts back: the current state and which buffer holds it, the
    /// started flag, the last report.
    pub(crate) fn saved(&self) -> SavedAlpha<T, W> {
        SavedAlpha {
            state: self.state,
            started: self.started,
            report: self.report,
            starts: self.starts,
        }
    }

    /// Puts back what [`Self::saved`] took.
    pub(crate) fn restore(&mut self, s: SavedAlpha<T, W>) {
        self.state = s.state;
        self.started = s.started;
        self.report = s.report;
        self.starts = s.starts;
    }
}

/// The system's items as a [`ConstrainedModel`]. A failing item's error is kept in `failure`
/// (the model's interface returns a plain error; the step reports the item from here).
pub struct SystemModel<'a, T: Real, const N: usize, const K: usize, const J: usize> {
    pub(crate) nodes: &'a [Node<T>],
    pub(crate) objects: &'a [Object<T>],
    pub(crate) markers: &'a [Marker<T>],
    pub(crate) loads: &'a [Load<T>],
    pub(crate) connectors: &'a [Connector<T>],
    pub(crate) constraints: &'a [Constraint<T>],
    pub(crate) layout: &'a Layout<T, N, K>,
    pub(crate) tree: &'a SystemTree<T, J>,
    /// Each 3D rigid node's orientation at the step's start (read on the Lie group,
    /// [`lg::start_in`]; moved between the parts of a halved step, [`ConstrainedModel::recentre`]).
    pub(crate) starts: &'a [Cell<T>],
    /// Number of equations of `constraints` (the layout's, or fewer for a leading part).
    pub(crate) equations: usize,
    pub(crate) failure: Cell<Option<SystemError>>,
}

/// A constraint's ends, resolved from its markers when the system is assembled (a marker's
/// body, node offset, local position and frame do not change between assemblies): two planar
/// or two 3D markers, or two coordinates (`None` on the ground).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ends<T> {
    Planar([PlanarMarker<T>; 2]),
    Spatial([SpatialMarker<T>; 2]),
    Coordinates(Option<usize>, Option<usize>),
}

/// A constraint's ends at `q`, `v`: two marker states (borrowed where `each` computed them:
/// no copy of a state per constraint on the stack), or two coordinates.
enum Evaluated<'e, 'a, T> {
    Planar(&'e MarkerState<T>, &'e MarkerState<T>),
    Spatial(&'e SpatialState<'a, T>, &'e SpatialState<'a, T>),
    Coordinates(Option<usize>, Option<usize>),
}

impl<'a, T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'a, T, N, K, J> {
    /// Records `e` at `at` and returns its plain error.
    fn fail(&self, e: Error, at: ItemRef) -> Error {
        if self.failure.get().is_none() {
            self.failure.set(Some(SystemError::new(e, at)));
        }
        e
    }

    /// The iterate at coordinates `q` and velocities `v`.
    fn iterate<'x>(&self, q: &'x [T], v: &'x [T]) -> Iterate<'x, T>
    where
        'a: 'x,
    {
        Iterate {
            offsets: &self.layout.offsets,
            q,
            v,
            starts: self.layout.group.then_some(self.starts),
        }
    }

    /// The view of the system at `q`, `v`: each node's state made when asked for, a tree
    /// link's read from `links` (the states [`Self::states`] makes).
    fn view_at<'x>(&self, q: &'x [T], v: &'x [T], links: &'x [NodeState<T>]) -> View<'x, T>
    where
        'a: 'x,
    {
        View {
            nodes: self.nodes,
            states: links,
            objects: self.objects,
            iterate: Some(self.iterate(q, v)),
        }
    }

    /// The loads' and connectors' generalized forces per node in `view` into `g`.
    fn applied_forces(
        &self,
        view: &View<'_, T>,
        t: T,
        g: &mut Vec<Generalized<T>, N, u16>,
    ) -> Result<()> {
        zeros::<T, N>(g, self.nodes.len());
        generalized_forces(view, self.markers, self.loads, self.connectors, t, g)
            .map_err(|e| self.fail(e.error, e.item))
    }

    /// `f` of the tree links' states at `q`, `v` for a view of the iterate ([`Self::view_at`]):
    /// every node's state ([`Self::states`]) in a system with a tree, none without.
    fn with_links<R>(
        &self,
        q: &[T],
        v: &[T],
        f: impl FnOnce(&[NodeState<T>]) -> Result<R>,
    ) -> Result<R> {
        if self.tree.tree().is_some() {
            self.with_all_states(q, v, f)
        } else {
            f(&[])
        }
    }

    /// `f` of every node's state at `q`, `v`.
    // Out of line: the states are on the stack only with a tree.
    #[inline(never)]
    fn with_all_states<R>(
        &self,
        q: &[T],
        v: &[T],
        f: impl FnOnce(&[NodeState<T>]) -> Result<R>,
    ) -> Result<R> {
        let mut states = Vec::new();
        self.states(q, v, &mut states)?;
        f(&states)
    }

    /// [`ConstrainedModel::force`]'s loads, connectors and tree forces in a system with a
    /// kinematic tree: the tree's kinematics make every link's state at once, so all node
    /// states are held.
    // Out of line: the node states are on the stack only with a tree.
    #[inline(never)]
    fn tree_system_force(&self, t: T, q: &[T], v: &[T], f: &mut [T]) -> Result<()> {
        self.with_all_states(q, v, |states| {
            let mut g = Vec::new();
            self.applied_forces(&self.view_at(q, v, states), t, &mut g)?;
            self.scatter(&g, q, f)?;
            self.tree_force(q, v, &g, states, f)
        })
    }

    /// On the Lie group: the rotation `R = e_n exp(theta)` of `body`'s node, whose coordinates
    /// start at `o` in `q`, where its terms read it (a centre of mass off the reference point;
    /// the identity, unread, else).
    fn group_rotation(
        &self,
        body: &crate::bodies::rigid_body::RigidBody<T>,
        q: &[T],
        o: usize,
    ) -> Result<nalgebra::Matrix3<T>> {
        if body.com_at_reference() {
            return Ok(nalgebra::Matrix3::identity());
        }
        let start = lg::start_in(self.starts, o).ok_or(Error::UnknownIndex)?;
        Ok(lg::orientation(&start, &vec3(q, o + 3)?).to_matrix())
    }

    fn offset(&self, node: NodeIndex) -> Result<usize> {
        self.layout
            .offsets
            .get(node.get())
            .map(|o| usize::from(*o))
            .ok_or(Error::UnknownIndex)
    }

    /// The node states at coordinates `q` and velocities `v` (accelerations zero) into `out`
    /// (filled in place: a returned `heapless::Vec` would be copied whole, capacity included).
    pub(crate) fn states(
        &self,
        q: &[T],
        v: &[T],
        out: &mut Vec<NodeState<T>, N, u16>,
    ) -> Result<()> {
        out.clear();
        let at = self.iterate(q, v);
        for (i, node) in self.nodes.iter().enumerate() {
            let s = match node {
                // Set from the tree's coordinates below.
                Node::TreeLink(_) => node.initial_state(),
                _ => at.state(node, NodeIndex(i as u16))?,
            };
            out.push(s).map_err(|_| Error::CapacityFull)?;
        }
        if let Some((q_t, v_t)) = self.tree_coordinates(q, v) {
            self.tree.link_states(q_t, v_t, None, out);
        }
        Ok(())
    }

    /// The tree's coordinates and velocities in `q`, `v` (`None` without a tree).
    fn tree_coordinates<'x>(&self, q: &'x [T], v: &'x [T]) -> Option<(&'x [T], &'x [T])> {
        let (_, n) = self.tree.tree()?;
        let o = self.layout.tree;
        Some((q.get(o..o + n)?, v.get(o..o + n)?))
    }

    /// Adds the tree's generalized force to `f`: the joint forces `tau` less `b(q_T, v_T)` with
    /// the link nodes' forces
    /// `g` (`[f (N, world); tau (N m, link frame, about the link origin)]`) as applied wrenches
    /// (RNEA at zero acceleration; module docs of the system's tree). `states` are the node
    /// states at `q`, `v` (the links' orientations).
    fn tree_force(
        &self,
        q: &[T],
        v: &[T],
        g: &[Generalized<T>],
        states: &[NodeState<T>],
        f: &mut [T],
    ) -> Result<()> {
        let (Some((tree, n)), Some((q_t, v_t))) = (self.tree.tree(), self.tree_coordinates(q, v))
        else {
            return Ok(());
        };
        let first = usize::from(self.tree.first_node);
        let mut data = self
            .tree
            .scratch
            .0
            .try_borrow_mut()
            .map_err(|_| Error::SolverFailed)?;
        data.clear_wrenches();
        for k in 0..tree.links().len() {
            let (Some(gk), Some(NodeState::RigidBody(s))) =
                (g.get(first + k), states.get(first + k))
            else {
                continue;
            };
            if gk.iter().all(|x| *x == T::zero()) {
                continue;
            }
            let force = s
                .orientation
                .conjugate()
                .rotate(&Vector3::new(gk[0], gk[1], gk[2]));
            let torque = Vector3::new(gk[3], gk[4], gk[5]);
            data.set_link_wrench(k, crate::tree::Force::new(torque, force));
        }
        let mut b = [T::zero(); J];
        tree.rnea_core(&mut data, q_t, v_t, None, &mut b[..n]);
        data.clear_wrenches();
        if !crate::finite::all_finite_slice(&b[..n]) {
            return Err(self.fail(Error::NotFinite(crate::Param::Force), self.tree.item()));
        }
        let tau = &self.tree.joint_forces[..n];
        for (x, (bk, tk)) in f
            .iter_mut()
            .skip(self.layout.tree)
            .zip(b[..n].iter().zip(tau))
        {
            *x += *tk - *bk;
        }
        Ok(())
    }

    /// Adds `a dQ/dq_T + b dQ/dq_t_T` (the columns of the tree's coordinates and velocities)
    /// to `out` by forward differences of all forces: each coordinate (velocity) perturbed by
    /// `sqrt(eps) (1 + |x|)`, one evaluation of all forces each.
    #[inline(never)]
    fn tree_force_jacobian<const S: usize>(
        &self,
        t: T,
        q: &[T],
        v: &[T],
        a: T,
        b: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        let Some((_, n_t)) = self.tree.tree() else {
            return Ok(());
        };
        let n = self.layout.n;
        let (mut qp, mut vp) = ([T::zero(); S], [T::zero(); S]);
        let (mut f0, mut f1) = ([T::zero(); S], [T::zero(); S]);
        let (Some(qp), Some(vp), Some(f0), Some(f1)) = (
            qp.get_mut(..n),
            vp.get_mut(..n),
            f0.get_mut(..n),
            f1.get_mut(..n),
        ) else {
            return Err(Error::CapacityFull);
        };
        qp.copy_from_slice(q);
        vp.copy_from_slice(v);
        self.force(t, q, v, f0)?;
        let sqrt_eps = T::EPS.sqrt_l();
        for j in self.layout.tree..self.layout.tree + n_t {
            for (rate, scale) in [(false, a), (true, b)] {
                if scale == T::zero() {
                    continue;
                }
                let x = if rate { &mut vp[j] } else { &mut qp[j] };
                let x0 = *x;
                *x = x0 + sqrt_eps * (T::one() + x0.abs_l());
                let dx = *x - x0;
                f1.iter_mut().for_each(|y| *y = T::zero());
                let r = self.force(t, qp, vp, f1);
                if rate {
                    vp[j] = x0;
                } else {
                    qp[j] = x0;
                }
                r?;
                for (r, (y1, y0)) in f1.iter().zip(f0.iter()).enumerate() {
                    let d = *y1 - *y0;
                    if d != T::zero() {
                        out.add(r, j, scale * d / dx);
                    }
                }
            }
        }
        Ok(())
    }

    /// The 2D rigid bodies: each with its node's configuration at `q`, `v` and its offset.
    fn rigid_bodies<'s>(
        &'s self,
        q: &'s [T],
        v: &'s [T],
    ) -> impl Iterator<
        Item = (
            &'a crate::bodies::RigidBody2D<T>,
            Rigid2DConfiguration<T>,
            usize,
        ),
    > + 's {
        let objects = if self.layout.planar > 0 {
            self.objects
        } else {
            &[]
        };
        objects.iter().filter_map(move |o| match o {
            Object::RigidBody2D { node, body } => {
                let Some(Node::RigidBody2D(n)) = self.nodes.get(node.get()) else {
                    return None;
                };
                let off = self.offset(*node).ok()?;
                let st = Rigid2DState {
                    q: Vector3::new(*q.get(off)?, *q.get(off + 1)?, *q.get(off + 2)?),
                    q_t: Vector3::new(*v.get(off)?, *v.get(off + 1)?, *v.get(off + 2)?),
                    q_tt: Vector3::zeros(),
                };
                Some((body, n.configuration(&st), off))
            }
            _ => None,
        })
    }

    /// The 3D rigid bodies ([`Object::RigidBody`], [`Object::BodyCylinder`]): each with its
    /// node's offset.
    fn rigid_bodies_3d(
        &self,
    ) -> impl Iterator<Item = (&'a crate::bodies::rigid_body::RigidBody<T>, usize)> + '_ {
        let objects = if self.layout.spatial > 0 {
            self.objects
        } else {
            &[]
        };
        objects.iter().filter_map(move |o| match o {
            Object::RigidBody { node, body } | Object::BodyCylinder { node, body, .. } => {
                Some((body, self.offset(*node).ok()?))
            }
            _ => None,
        })
    }

    /// Adds node-wise generalized forces `g` to the coordinate vector `f` (a 3D rigid node's
    /// `[f; tau_ref]` as `[f; Gb^T tau_ref]` at its Euler parameters in `q`).
    fn scatter(&self, g: &[Generalized<T>], q: &[T], f: &mut [T]) -> Result<()> {
        for (i, node) in self.nodes.iter().enumerate() {
            let (Some(o), Some(gi)) = (self.layout.offsets.get(i), g.get(i)) else {
                continue;
            };
            let o = usize::from(*o);
            if let (Node::RigidBody(_), false) = (node, self.layout.group) {
                add_at(f, o, &euler_parameter_force(gi, q, o)?);
                continue;
            }
            for k in 0..coordinates_of(node, self.layout.group) {
                if let Some(x) = f.get_mut(o + k) {
                    *x += gi[k];
                }
            }
        }
        Ok(())
    }

    /// A position or rigid marker as a planar marker; `MarkerNotSupported` on a 3D body or for
    /// a marker frame not turned about z only.
    fn planar_marker(&self, i: MarkerIndex) -> Result<PlanarMarker<T>> {
        let marker = self.markers.get(i.get()).ok_or(Error::UnknownIndex)?;
        let xy = |v: Vector3<T>| Vector2::new(v.x, v.y);
        let on_node = |node: NodeIndex, local: Vector3<T>, angle: T| -> Result<PlanarMarker<T>> {
            let offset = self.offset(node)?;
            Ok(
                match self.nodes.get(node.get()).ok_or(Error::UnknownIndex)? {
                    Node::Point2D(n) => PlanarMarker::Point {
                        offset,
                        reference: n.reference_coordinates() + xy(local),
                    },
                    Node::PointGround(g) => PlanarMarker::Ground {
                        position: xy(g.reference_coordinates() + local),
                        angle,
                    },
                    Node::RigidBody2D(n) => PlanarMarker::Rigid {
                        offset,
                        reference: n.reference_coordinates(),
                        local: xy(local),
                        angle,
                    },
                    Node::RigidBody(_) | Node::TreeLink(_) => {
                        return Err(Error::MarkerNotSupported)
                    }
                },
            )
        };
        let (object, local_position, angle) = match marker {
            Marker::NodePosition { node } => return on_node(*node, Vector3::zeros(), T::zero()),
            Marker::BodyPosition {
                object,
                local_position,
            } => (object, local_position, T::zero()),
            Marker::BodyRigid {
                object,
                local_position,
                local_rotation,
            } => (object, local_position, planar_angle(local_rotation)?),
            _ => return Err(Error::MarkerNotSupported),
        };
        match self.objects.get(object.get()).ok_or(Error::UnknownIndex)? {
            Object::Ground(g) => Ok(PlanarMarker::Ground {
                position: xy(g.reference_position() + local_position),
                angle,
            }),
            Object::MassPoint2D { node, .. } | Object::RigidBody2D { node, .. } => {
                on_node(*node, *local_position, angle)
            }
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// A position or rigid marker on a 3D rigid body or the ground as a spatial marker (a
    /// position marker's frame is the body's); `MarkerNotSupported` on a 2D body.
    fn spatial_marker(&self, i: MarkerIndex) -> Result<SpatialMarker<T>> {
        let marker = self.markers.get(i.get()).ok_or(Error::UnknownIndex)?;
        let identity = nalgebra::Matrix3::identity();
        let (object, local, frame) = match marker {
            Marker::NodePosition { node } => {
                return match self.nodes.get(node.get()).ok_or(Error::UnknownIndex)? {
                    Node::RigidBody(_) => Ok(SpatialMarker::Rigid {
                        offset: self.offset(*node)?,
                        local: Vector3::zeros(),
                        frame: identity,
                    }),
                    Node::PointGround(g) => Ok(SpatialMarker::Ground {
                        position: g.reference_coordinates(),
                        frame: identity,
                    }),
                    Node::TreeLink(l) => Ok(SpatialMarker::TreeLink {
                        link: l.link(),
                        local: Vector3::zeros(),
                        frame: identity,
                    }),
                    _ => Err(Error::MarkerNotSupported),
                }
            }
            Marker::BodyPosition {
                object,
                local_position,
            } => (object, *local_position, identity),
            Marker::BodyRigid {
                object,
                local_position,
                local_rotation,
            } => (object, *local_position, local_rotation.to_matrix()),
            _ => return Err(Error::MarkerNotSupported),
        };
        match self.objects.get(object.get()).ok_or(Error::UnknownIndex)? {
            Object::Ground(g) => Ok(SpatialMarker::Ground {
                position: g.reference_position() + local,
                frame,
            }),
            Object::RigidBody { node, .. } | Object::BodyCylinder { node, .. } => {
                Ok(SpatialMarker::Rigid {
                    offset: self.offset(*node)?,
                    local,
                    frame,
                })
            }
            Object::TreeLink { link, .. } => Ok(SpatialMarker::TreeLink {
                link: usize::from(*link),
                local,
                frame,
            }),
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// The coordinate of a coordinate marker (`None` on a ground node).
    fn coordinate(&self, i: MarkerIndex) -> Result<Option<usize>> {
        match self.markers.get(i.get()).ok_or(Error::UnknownIndex)? {
            Marker::NodeCoordinate { node, coordinate } => {
                match self.nodes.get(node.get()).ok_or(Error::UnknownIndex)? {
                    Node::PointGround(_) => Ok(None),
                    Node::RigidBody(_) | Node::TreeLink(_) => Err(Error::MarkerNotSupported),
                    _ => Ok(Some(self.offset(*node)? + usize::from(*coordinate))),
                }
            }
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// The ends of constraint `c`: `MarkerNotSupported` if a marker is not on a body it can
    /// join.
    fn resolve(&self, c: &Constraint<T>) -> Result<Ends<T>> {
        let [a, b] = c.markers();
        let planar = || {
            Ok(Ends::Planar([
                self.planar_marker(a)?,
                self.planar_marker(b)?,
            ]))
        };
        let spatial = || {
            Ok(Ends::Spatial([
                self.spatial_marker(a)?,
                self.spatial_marker(b)?,
            ]))
        };
        match c {
            Constraint::Coordinate { .. } => {
                Ok(Ends::Coordinates(self.coordinate(a)?, self.coordinate(b)?))
            }
            Constraint::Joint { .. } => spatial(),
            // Between 2D items in the plane, else in space.
            Constraint::Distance { .. } => match planar() {
                Err(Error::MarkerNotSupported) => spatial(),
                r => r,
            },
            _ => planar(),
        }
    }

    /// Every constraint's ends (for [`Layout::ends`]); the first constraint whose markers are
    /// not on bodies it can join is named.
    pub(crate) fn resolve_ends(&self) -> SystemResult<Vec<Ends<T>, K, u16>> {
        let mut ends = Vec::new();
        for (k, c) in self.constraints.iter().enumerate() {
            let e = self
                .resolve(c)
                .map_err(|e| SystemError::new(e, constraint_ref(k)))?;
            ends.push(e)
                .map_err(|_| SystemError::new(Error::CapacityFull, ItemRef::System))?;
        }
        Ok(ends)
    }

    /// The 3D rigid nodes: the row of each one's normalization and its offset in `q`.
    fn normalizations(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let nodes = if self.layout.normalizations() > 0 {
            self.nodes
        } else {
            &[]
        };
        nodes
            .iter()
            .zip(self.layout.offsets.iter())
            .filter(|(n, _)| matches!(n, Node::RigidBody(_)))
            .enumerate()
            .map(|(row, (_, o))| (row, usize::from(*o)))
    }

    /// Row of constraint `k`.
    fn row(&self, k: usize) -> usize {
        self.layout.rows.get(k).map_or(0, |r| usize::from(*r))
    }

    /// Calls `f(row, constraint, ends)` for each constraint with its ends evaluated at `q`,
    /// `v`; a `None` from `f` (a distance of zero length: no direction) is `ZeroLength` at the
    /// constraint.
    fn each<F>(&self, q: &[T], v: &[T], mut f: F) -> Result<()>
    where
        F: FnMut(usize, &Constraint<T>, &Evaluated<'_, '_, T>) -> Option<()>,
    {
        // The tree's poses, velocities, accelerations at zero joint accelerations and world
        // columns, once for all constraints (the markers on its links read them).
        let kinematics = self.tree_kinematics(q, v);
        let mut angles = AngleCache::new();
        for (k, c) in self.constraints.iter().enumerate() {
            let at = constraint_ref(k);
            let row = self.row(k);
            let mut g = |e: &Evaluated<'_, '_, T>| f(row, c, e);
            let ends = self
                .layout
                .ends
                .get(k)
                .ok_or_else(|| self.fail(Error::NotAssembled, at))?;
            let done = match ends {
                Ends::Planar(m) => Self::with_planar(m, q, v, &mut angles, &mut g),
                Ends::Spatial(m) => self.with_spatial(m, kinematics.as_deref(), q, v, &mut g),
                Ends::Coordinates(i0, i1) => g(&Evaluated::Coordinates(*i0, *i1)),
            };
            done.ok_or_else(|| self.fail(Error::ZeroLength(crate::Param::Length), at))?;
        }
        Ok(())
    }

    /// `g` of the states of the planar markers `ends` at `q`, `v` (the bodies' sines and
    /// cosines shared through `angles`); `None` if a marker has no state. Out of line, as
    /// [`Self::with_spatial`].
    #[inline(never)]
    fn with_planar<G>(
        ends: &[PlanarMarker<T>; 2],
        q: &[T],
        v: &[T],
        angles: &mut AngleCache<T>,
        g: &mut G,
    ) -> Option<()>
    where
        G: FnMut(&Evaluated<'_, '_, T>) -> Option<()>,
    {
        // The states kept in their `Option`s and borrowed (a `?` would copy each out).
        let s0 = ends[0].state_cached(q, v, angles);
        let s1 = ends[1].state_cached(q, v, angles);
        let (Some(s0), Some(s1)) = (&s0, &s1) else {
            return None;
        };
        g(&Evaluated::Planar(s0, s1))
    }

    /// `g` of the states of the 3D markers `ends` (a tree link's from the tree's `kinematics`);
    /// `None` if a marker has no state.
    // Out of line, with `with_planar`: a constraint's marker states are on the stack only while
    // it is evaluated, and a planar system's step never holds 3D states.
    #[inline(never)]
    fn with_spatial<G>(
        &self,
        ends: &[SpatialMarker<T>; 2],
        kinematics: Option<&TreeData<T, J, J>>,
        q: &[T],
        v: &[T],
        g: &mut G,
    ) -> Option<()>
    where
        G: FnMut(&Evaluated<'_, '_, T>) -> Option<()>,
    {
        // Each state built out of line into the `Option` kept here and borrowed from it (a `?`
        // would move it out: a 192-B copy per marker in f32): the markers' resolution and the
        // building's temporaries are off the stack when `g` runs.
        let s0 = self.spatial_state(&ends[0], kinematics, q, v);
        let s1 = self.spatial_state(&ends[1], kinematics, q, v);
        let (Some(s0), Some(s1)) = (&s0, &s1) else {
            return None;
        };
        g(&Evaluated::Spatial(s0, s1))
    }

    /// The state of the 3D marker `m` at `q`, `v` (a tree link's from the tree's
    /// `kinematics`); `None` if it has none.
    #[inline(never)]
    fn spatial_state<'d>(
        &self,
        m: &SpatialMarker<T>,
        kinematics: Option<&'d TreeData<T, J, J>>,
        q: &[T],
        v: &[T],
    ) -> Option<SpatialState<'d, T>>
    where
        'a: 'd,
    {
        match (m, kinematics) {
            (SpatialMarker::TreeLink { link, local, frame }, Some(d)) => {
                self.tree_marker(d, *link, *local, *frame)
            }
            _ if self.layout.group => m.state_on_group(q, v, self.starts),
            _ => m.state(q, v),
        }
    }

    /// The tree's kinematics at `q`, `v` for the markers on its links (`None` without a tree
    /// or without constraints): poses, velocities, accelerations at zero joint accelerations,
    /// world motion columns.
    fn tree_kinematics(&self, q: &[T], v: &[T]) -> Option<core::cell::Ref<'a, TreeData<T, J, J>>> {
        if self.constraints.is_empty() {
            return None;
        }
        let (tree, n) = self.tree.tree()?;
        let (q_t, v_t) = self.tree_coordinates(q, v)?;
        {
            let mut d = self.tree.scratch.0.try_borrow_mut().ok()?;
            let w = &mut d.work;
            tree.sweep(w, q_t, Some(v_t));
            tree.link_accelerations(w, v_t, &[T::zero(); J][..n]);
            tree.world_columns(w);
        }
        self.tree.scratch.0.try_borrow().ok()
    }

    /// A marker at `local` with the frame `frame` on tree link `link` from the tree's
    /// kinematics `d` ([`Self::tree_kinematics`]).
    fn tree_marker<'d>(
        &self,
        d: &'d TreeData<T, J, J>,
        link: usize,
        local: Vector3<T>,
        frame: nalgebra::Matrix3<T>,
    ) -> Option<SpatialState<'d, T>>
    where
        'a: 'd,
    {
        let (tree, n) = self.tree.tree()?;
        let w = &d.work;
        let (x, v, a) = (w.x_world.get(link)?, w.v.get(link)?, w.a.get(link)?);
        let columns = TreeColumns {
            columns: w.s.get(..n)?,
            parent: tree.lambda.get(..n)?,
            last: tree.last_coordinate(link),
            offset: self.layout.tree,
        };
        Some(SpatialState::tree_link(
            local,
            frame,
            x.translation,
            x.rotation,
            x.rotation * v.linear,
            v.angular,
            x.rotation * (a.linear + v.angular.cross(&v.linear)),
            x.rotation * a.angular,
            columns,
        ))
    }

    /// The generalized forces of connector `k` at both its ends in `view`.
    fn connector_ends(
        &self,
        c: &Connector<T>,
        k: usize,
        view: &View<'_, T>,
    ) -> Result<crate::system::ConnectorForces<T>> {
        let at = ItemRef::Connector(ConnectorIndex(k as u16));
        c.generalized_forces(view, self.markers)
            .map_err(|e| self.fail(e, at))
    }

    /// Adds `a dQ_c/dq + b dQ_c/dq_t` of connector `k` at `q`, `v` (`links`: the tree links'
    /// states there, [`Self::with_links`]) by forward differences: each coordinate (and, for a
    /// damper, velocity) of its ends' 2D and 3D rigid nodes perturbed by `sqrt(eps) (1 + |x|)`
    /// in a copy of `q` (`v`), one evaluation of the connector each.
    #[allow(clippy::too_many_arguments)]
    fn connector_jacobian<const S: usize>(
        &self,
        c: &Connector<T>,
        k: usize,
        (q, v, links): (&[T], &[T], &[NodeState<T>]),
        a: T,
        b: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        let n = q.len();
        let (mut qp, mut vp) = ([T::zero(); S], [T::zero(); S]);
        qp.get_mut(..n)
            .ok_or(Error::CapacityFull)?
            .copy_from_slice(q);
        vp.get_mut(..n)
            .ok_or(Error::CapacityFull)?
            .copy_from_slice(v);
        let base = self.connector_ends(c, k, &self.view_at(q, v, links))?;
        let nodes = [base[0].map(|e| e.node), base[1].map(|e| e.node)];
        let velocity = c.is_velocity_dependent() && b != T::zero();
        let sqrt_eps = T::EPS.sqrt_l();
        for (e, node) in nodes.iter().enumerate() {
            let Some(node) = *node else { continue };
            if e == 1 && nodes[0] == Some(node) {
                continue; // both ends on one node
            }
            let count = match self.nodes.get(node.get()) {
                Some(nd @ (Node::Point2D(_) | Node::RigidBody2D(_) | Node::RigidBody(_))) => {
                    coordinates_of(nd, self.layout.group)
                }
                _ => continue,
            };
            let col0 = self.offset(node)?;
            for i in 0..count {
                for (rate, scale) in [(false, a), (true, b)] {
                    if rate && !velocity {
                        continue;
                    }
                    let x = if rate { &mut vp } else { &mut qp };
                    let Some(x) = x.get_mut(col0 + i) else {
                        continue;
                    };
                    let x0 = *x;
                    *x = x0 + sqrt_eps * (T::one() + x0.abs_l());
                    let dx = *x - x0;
                    let pert = self.connector_ends(c, k, &self.view_at(&qp[..n], &vp[..n], links));
                    for (p, b0) in pert?.iter().zip(base.iter()) {
                        let (Some(NodeForce { q: g1, node: n1 }), Some(NodeForce { q: g0, .. })) =
                            (p, b0)
                        else {
                            continue;
                        };
                        let Some(nd) = self.nodes.get(n1.get()) else {
                            continue;
                        };
                        // Each force as the residual takes it (a 3D body's torque mapped by
                        // the Gb(e) of its own coordinates).
                        let row0 = self.offset(*n1)?;
                        if let (Node::RigidBody(_), false) = (nd, self.layout.group) {
                            let f1 = euler_parameter_force(g1, &qp[..n], row0)?;
                            let f0 = euler_parameter_force(g0, q, row0)?;
                            for r in 0..EP_COORDINATES {
                                out.add(row0 + r, col0 + i, scale * (f1[r] - f0[r]) / dx);
                            }
                            continue;
                        }
                        for r in 0..coordinates_of(nd, self.layout.group) {
                            out.add(row0 + r, col0 + i, scale * (g1[r] - g0[r]) / dx);
                        }
                    }
                    qp[col0 + i] = q[col0 + i];
                    vp[col0 + i] = v[col0 + i];
                }
            }
        }
        Ok(())
    }

    /// The point of a force-like load on a 2D rigid body (its marker's local position, or the
    /// centre of mass for a mass-proportional load), `None` for torques and other bodies.
    fn load_point(&self, l: &Load<T>) -> Option<Vector2<T>> {
        use crate::system::load::UserLoadKind;
        let marker = match l {
            Load::ForceVector { marker, .. } | Load::MassProportional { marker, .. } => *marker,
            Load::User {
                marker,
                kind: UserLoadKind::Force | UserLoadKind::MassProportional,
                ..
            } => *marker,
            _ => return None,
        };
        let (object, p) = self
            .markers
            .get(marker.get())?
            .body_point(self.objects)
            .ok()??;
        match self.objects.get(object.get())? {
            Object::RigidBody2D { .. } => Some(Vector2::new(p.x, p.y)),
            _ => None,
        }
    }
}

/// The angle (rad) of a marker frame turned about z only; `MarkerNotSupported` else.
fn planar_angle<T: Real>(r: &crate::math::Quaternion<T>) -> Result<T> {
    let z = T::zero();
    if r.x == z && r.y == z && r.z == z {
        return Ok(z); // the body's frame (no trigonometry on every evaluation)
    }
    let m = r.to_matrix();
    if (m[(2, 2)] - T::one()).abs_l() > T::c(1e-9) {
        return Err(Error::MarkerNotSupported);
    }
    Ok(m[(1, 0)].atan2_l(m[(0, 0)]))
}

/// Entries `o..o + 3` of `x` as a vector; `UnknownIndex` outside `x`.
fn vec3<T: Real>(x: &[T], o: usize) -> Result<Vector3<T>> {
    match x.get(o..o + 3) {
        Some(s) => Ok(Vector3::new(s[0], s[1], s[2])),
        None => Err(Error::UnknownIndex),
    }
}

/// Entries `o..o + R` of `x` as an array; `UnknownIndex` outside `x`.
fn entries<T: Real, const R: usize>(x: &[T], o: usize) -> Result<[T; R]> {
    x.get(o..o + R)
        .and_then(|s| s.try_into().ok())
        .ok_or(Error::UnknownIndex)
}

/// Entries `o..o + 4` of `x` as a vector; `UnknownIndex` outside `x`.
fn vec4<T: Real>(x: &[T], o: usize) -> Result<Vector4<T>> {
    match x.get(o..o + 4) {
        Some(s) => Ok(Vector4::new(s[0], s[1], s[2], s[3])),
        None => Err(Error::UnknownIndex),
    }
}

/// Adds `m x` (`x`'s entries `o..o + R`) to `mx`'s entries `o..o + R`, if `product` is
/// `Some((x, mx))`; each row summed in column order from zero.
fn add_product<T: Real, const R: usize>(
    m: &nalgebra::SMatrix<T, R, R>,
    o: usize,
    product: &mut Option<(&[T], &mut [T])>,
) -> Result<()> {
    if let Some((x, mx)) = product {
        let (x, mx) = (
            x.get(o..o + R).ok_or(Error::UnknownIndex)?,
            mx.get_mut(o..o + R).ok_or(Error::UnknownIndex)?,
        );
        for (i, y) in mx.iter_mut().enumerate() {
            let mut acc = T::zero();
            for (j, xj) in x.iter().enumerate() {
                acc += m[(i, j)] * *xj;
            }
            *y += acc;
        }
    }
    Ok(())
}

/// Adds `values` to `f` from index `o` on (entries outside `f` are skipped).
fn add_at<T: Real>(f: &mut [T], o: usize, values: &[T]) {
    for (x, v) in f.iter_mut().skip(o).zip(values) {
        *x += *v;
    }
}

impl<T: Real, const N: usize, const K: usize, const J: usize> ConstrainedModel<T>
    for SystemModel<'_, T, N, K, J>
{
    fn coordinates(&self) -> usize {
        self.layout.n
    }

    fn constraints(&self) -> usize {
        self.equations
    }

    /// Mass points `m E2`; 2D rigid bodies their 3x3 mass matrix at `q`; 3D bodies their 7x7
    /// one; the tree's.
    fn mass<const S: usize>(&self, _t: T, q: &[T], out: &mut Block<'_, T, S>) -> Result<()> {
        self.add_mass(q, out, None)
    }

    /// [`Self::mass`] and each item's block times `x`.
    fn mass_with_product<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        x: &[T],
        out: &mut Block<'_, T, S>,
        mx: &mut [T],
    ) -> Option<Result<()>> {
        Some(self.add_mass(q, out, Some((x, mx))))
    }

    /// `Q + f_v` (module docs).
    fn force(&self, t: T, q: &[T], v: &[T], f: &mut [T]) -> Result<()> {
        if self.tree.tree().is_some() {
            self.tree_system_force(t, q, v, f)?;
        } else {
            let mut g = Vec::new();
            self.applied_forces(&self.view_at(q, v, &[]), t, &mut g)?;
            self.scatter(&g, q, f)?;
        }
        for (body, config, off) in self.rigid_bodies(q, v) {
            let fv = body.quadratic_velocity_force(&config);
            for i in 0..2 {
                if let Some(x) = f.get_mut(off + i) {
                    *x += fv[i];
                }
            }
        }
        if self.layout.group {
            for (body, off) in self.rigid_bodies_3d() {
                let r = self.group_rotation(body, q, off)?;
                add_at(
                    f,
                    off,
                    &lg::quadratic_velocity_force(body, &r, &vec3(v, off + 3)?),
                );
            }
            return Ok(());
        }
        for (body, off) in self.rigid_bodies_3d() {
            let fv = ep::quadratic_velocity_force(body, &vec4(q, off + 3)?, &vec4(v, off + 3)?);
            add_at(f, off, &fv);
        }
        Ok(())
    }

    /// `a d(M q_tt - f_v)/dq` of the 3D bodies in Euler parameters, their inertial forces'
    /// with their mass matrices' (a mass point's `M` is constant; a 2D body's with an offset
    /// centre of mass is left out).
    fn mass_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        v: &[T],
        q_tt: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        Some(self.add_mass_jacobian(q, v, q_tt, a, out))
    }

    /// `a dQ/dq + b dQ/dq_t` (module docs: loads and `f_v` analytic, connectors by differences).
    fn force_jacobians<const S: usize>(
        &self,
        t: T,
        q: &[T],
        v: &[T],
        a: T,
        b: T,
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        Some(self.add_force_jacobians(t, q, v, a, b, out))
    }

    fn constraint(&self, _t: T, q: &[T], c: &mut [T]) -> Result<()> {
        self.equations::<0>(q, Some(c), None, None)
    }

    fn constraint_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        self.equations(q, None, Some(out), None)
    }

    /// One pass over the constraints' markers for both.
    fn constraint_with_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        c: &mut [T],
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        self.equations(q, Some(c), Some(out), None)
    }

    /// The normalizations' `(C_q v)_q = 2 e_t^T` (the joints' rows are left out).
    fn constraint_velocity_jacobian<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        v: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        for (row, o) in self.normalizations() {
            for k in 0..4 {
                let Some(e_t) = v.get(o + 3 + k) else {
                    return Some(Err(Error::UnknownIndex));
                };
                out.add(row, o + 3 + k, a * T::c(2.0) * *e_t);
            }
        }
        Some(Ok(()))
    }

    #[inline(never)]
    fn constraint_force_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        lambda: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        self.normalization_hessians(lambda, a, out);
        Some(self.each(q, q, |row, c, ends| {
            constraint_hessian(c, ends, lambda, row, a, out)
        }))
    }

    /// One pass over the constraints' markers for all three.
    fn constraint_with_jacobian_and_hessian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        lambda: &[T],
        a: T,
        c: &mut [T],
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        Some(self.equations(q, Some(c), Some(out), Some((lambda, a))))
    }

    fn maps_constraint_rows(&self) -> bool {
        self.layout.group && self.layout.spatial > 0
    }

    /// On the Lie group: each 3D rigid node's start moved to its orientation at `q`
    /// ([`lg::step_orientation`], as a complete step's commit moves it) and its `theta` zeroed.
    fn recentre(&self, q: &mut [T]) {
        if !self.layout.group {
            return;
        }
        for (node, o) in self.nodes.iter().zip(&self.layout.offsets) {
            let o = usize::from(*o);
            let (Node::RigidBody(_), Some(start), Some(theta), Some(cells)) = (
                node,
                lg::start_in(self.starts, o),
                q.get_mut(o + 3..o + 6),
                self.starts.get(o..o + 4),
            ) else {
                continue;
            };
            let e = lg::step_orientation(&start, &Vector3::new(theta[0], theta[1], theta[2]));
            for (c, x) in cells.iter().zip([e.w, e.x, e.y, e.z]) {
                c.set(x);
            }
            theta.fill(T::zero());
        }
    }

    /// On the Lie group: the rows' columns of each 3D body's rotation `theta` times the
    /// tangent operator of `exp` at `theta`, `T = E - [theta]x / 2 + [theta]x^2 / 6` to second
    /// order (`R(theta + d) = R(theta) exp([T d]x)`): `C_q` is taken in the left-trivialized
    /// directions, the Newton iteration moves `theta`.
    fn constraint_rows_to_coordinates<const S: usize>(
        &self,
        q: &[T],
        jac: &mut [[T; S]; S],
        rows: core::ops::Range<usize>,
        col: usize,
    ) {
        if !self.layout.group {
            return;
        }
        for (_, off) in self.rigid_bodies_3d() {
            let Ok(theta) = vec3(q, off + 3) else {
                continue;
            };
            let tx = crate::math::skew(&theta);
            let t = nalgebra::Matrix3::identity() - tx * T::c(0.5) + tx * tx * T::c(1.0 / 6.0);
            let c = col + off + 3;
            for row in jac[rows.clone()].iter_mut() {
                // (A row of another body's constraint has zeros here: it stays zero.)
                let Some(x) = row
                    .get_mut(c..c + 3)
                    .filter(|x| x.iter().any(|v| *v != T::zero()))
                else {
                    continue;
                };
                let b = nalgebra::RowVector3::new(x[0], x[1], x[2]) * t;
                x.copy_from_slice(&[b[0], b[1], b[2]]);
            }
        }
    }

    fn constraint_velocity_term(
        &self,
        _t: T,
        q: &[T],
        v: &[T],
        out: &mut [T],
    ) -> Option<Result<()>> {
        // (C_q q_t)_q q_t = 2 e_t . e_t of each normalization.
        for (row, o) in self.normalizations() {
            let e_t = match vec4(v, o + 3) {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
            if let Some(x) = out.get_mut(row) {
                *x = T::c(2.0) * e_t.dot(&e_t);
            }
        }
        Some(self.each(q, v, |row, c, ends| {
            if let Evaluated::Spatial(m0, m1) = &ends {
                return match c {
                    Constraint::Joint { axes, .. } => {
                        spatial::joint_velocity_terms(m0, m1, axes, row, out)
                    }
                    _ => {
                        *out.get_mut(row)? = spatial::distance_velocity_term(m0, m1)?;
                        Some(())
                    }
                };
            }
            let Evaluated::Planar(m0, m1) = ends else {
                *out.get_mut(row)? = T::zero(); // a coordinate constraint's is zero
                return Some(());
            };
            let (m0, m1) = (&m0, &m1);
            match c {
                Constraint::Distance { .. } => {
                    *out.get_mut(row)? = planar::distance_velocity_term(m0, m1)?;
                }
                Constraint::Revolute2D { .. } => {
                    let w = planar::revolute_velocity_term(m0, m1);
                    *out.get_mut(row)? = w.x;
                    *out.get_mut(row + 1)? = w.y;
                }
                Constraint::Prismatic2D {
                    axis_marker0,
                    normal_marker1,
                    constrain_rotation,
                    ..
                } => {
                    let w = planar::prismatic_velocity_terms(m0, m1, axis_marker0, normal_marker1);
                    *out.get_mut(row)? = w[0];
                    if *constrain_rotation {
                        *out.get_mut(row + 1)? = w[1];
                    }
                }
                Constraint::Coordinate { .. } | Constraint::Joint { .. } => {}
            }
            Some(())
        }))
    }
}

impl<T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'_, T, N, K, J> {
    /// `C(q)` into `c` (all `m` rows) if given, and `C_q` added to `jac` if given; each
    /// constraint writes from its row on. With `hessian = (lambda, a)` (and `jac`) also
    /// `a d(C_q^T lambda)/dq` added to `jac`'s columns block, each constraint's right after
    /// its rows of `C_q`, from the same marker states; the same entries in the same order as
    /// [`ConstrainedModel::constraint_force_jacobian`] adds.
    fn equations<const S: usize>(
        &self,
        q: &[T],
        mut c: Option<&mut [T]>,
        mut jac: Option<&mut Block<'_, T, S>>,
        hessian: Option<(&[T], T)>,
    ) -> Result<()> {
        // e . e - 1 = 0 of each 3D rigid node: C_q = 2 e^T.
        for (row, o) in self.normalizations() {
            let e = vec4(q, o + 3)?;
            if let Some(x) = c.as_deref_mut().and_then(|c| c.get_mut(row)) {
                *x = e.dot(&e) - T::one();
            }
            if let Some(j) = jac.as_deref_mut() {
                for k in 0..4 {
                    j.add(row, o + 3 + k, T::c(2.0) * e[k]);
                }
            }
        }
        if let (Some(j), Some((lambda, a)), true) = (
            jac.as_deref_mut(),
            hessian,
            self.layout.normalizations() > 0,
        ) {
            self.normalization_hessians(lambda, a, &mut j.columns_block());
        }
        let mut scratch = [T::zero(); 6];
        self.each(q, q, |row, con, ends| {
            let cc: &mut [T] = match c.as_deref_mut() {
                Some(c) => c.get_mut(row..)?,
                None => &mut scratch,
            };
            let mut sub = jac.as_deref_mut().map(|b| b.shifted(row));
            let done = constraint_equations(con, ends, q, cc, sub.as_mut());
            match (jac.as_deref_mut(), hessian) {
                (Some(j), Some((lambda, a))) if done.is_some() => {
                    constraint_hessian(con, ends, lambda, row, a, &mut j.columns_block())
                }
                _ => done,
            }
        })
    }

    /// Adds `a d(2 e lambda)/de = 2 a lambda E` of each 3D rigid node's normalization to `out`.
    // Out of line: off the frame of `equations`, under which the constraints' Hessians run.
    #[inline(never)]
    fn normalization_hessians<const S: usize>(
        &self,
        lambda: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) {
        for (row, o) in self.normalizations() {
            let l = lambda.get(row).copied().unwrap_or(T::zero());
            out.add_diagonal(o + 3, 4, a * T::c(2.0) * l);
        }
    }

    /// Adds `M(q)` to `out` (mass points `m E2`, 2D rigid bodies their 3x3 mass matrix at `q`,
    /// 3D bodies their 7x7 one, the tree's) and, with `product = Some((x, mx))`, each block
    /// times its coordinates' entries of `x` to `mx` (each row summed in column order, as a
    /// product over the whole row sums it).
    // Out of line: its temporaries are not in `evaluate`'s frame under the force evaluation.
    #[inline(never)]
    fn add_mass<const S: usize>(
        &self,
        q: &[T],
        out: &mut Block<'_, T, S>,
        mut product: Option<(&[T], &mut [T])>,
    ) -> Result<()> {
        for o in self.objects {
            if let Object::MassPoint2D { node, body } = o {
                let off = self.offset(*node)?;
                let m = nalgebra::Matrix2::from_diagonal_element(body.mass());
                out.add(off, off, body.mass());
                out.add(off + 1, off + 1, body.mass());
                add_product(&m, off, &mut product)?;
            }
        }
        for (body, config, off) in self.rigid_bodies(q, q) {
            let m = body.mass_matrix(&config);
            out.add_scaled(off, off, &m, T::one());
            add_product(&m, off, &mut product)?;
        }
        if self.layout.group {
            for (body, off) in self.rigid_bodies_3d() {
                let m = lg::mass_matrix(body, &self.group_rotation(body, q, off)?);
                out.add_scaled(off, off, &m, T::one());
                add_product(&m, off, &mut product)?;
            }
        } else {
            for (body, off) in self.rigid_bodies_3d() {
                let m = ep::mass_matrix(body, &vec4(q, off + 3)?);
                out.add_scaled(off, off, &m, T::one());
                add_product(&m, off, &mut product)?;
            }
        }
        if let (Some((tree, n)), Some((q_t, _))) = (self.tree.tree(), self.tree_coordinates(q, q)) {
            let mut data = self
                .tree
                .scratch
                .0
                .try_borrow_mut()
                .map_err(|_| Error::SolverFailed)?;
            tree.crba_core(&mut data, q_t);
            let o = self.layout.tree;
            for i in 0..n {
                for j in 0..n {
                    out.add(o + i, o + j, data.mass_matrix[i][j]);
                }
            }
            if let Some((x, mx)) = &mut product {
                let (x, mx) = (
                    x.get(o..o + n).ok_or(Error::UnknownIndex)?,
                    mx.get_mut(o..o + n).ok_or(Error::UnknownIndex)?,
                );
                for (i, y) in mx.iter_mut().enumerate() {
                    let row = &data.mass_matrix[i][..n];
                    *y += row
                        .iter()
                        .zip(x)
                        .fold(T::zero(), |acc, (a, b)| acc + *a * *b);
                }
            }
        }
        Ok(())
    }

    /// `a d(M q_tt - f_v)/dq` of the 3D bodies added to `out` (their columns of `e`, or of
    /// `theta` on the Lie group).
    #[inline(never)]
    fn add_mass_jacobian<const S: usize>(
        &self,
        q: &[T],
        v: &[T],
        q_tt: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        if self.layout.group {
            // Zero for a body centred at its reference point (`lg::inertia_position_jacobian`).
            for (body, off) in self
                .rigid_bodies_3d()
                .filter(|(b, _)| !b.com_at_reference())
            {
                let acc = entries::<T, LG_COORDINATES>(q_tt, off)?;
                let r = self.group_rotation(body, q, off)?;
                let d = lg::inertia_position_jacobian(body, &r, &vec3(v, off + 3)?, &acc);
                out.add_scaled(off, off + 3, &d, a);
            }
            return Ok(());
        }
        for (body, off) in self.rigid_bodies_3d() {
            let acc = entries::<T, EP_COORDINATES>(q_tt, off)?;
            let (e, e_t) = (vec4(q, off + 3)?, vec4(v, off + 3)?);
            let d = ep::inertia_position_jacobian(body, &e, &e_t, &acc);
            add_e_columns(out, off, &d, a);
        }
        Ok(())
    }

    /// `a dQ/dq + b dQ/dq_t` added to `out` (module docs).
    #[inline(never)]
    fn add_force_jacobians<const S: usize>(
        &self,
        t: T,
        q: &[T],
        v: &[T],
        a: T,
        b: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        // f_v = m theta_t^2 R c: d/dtheta = m theta_t^2 perp(R c), d/dtheta_t = 2 m theta_t R c.
        for (body, config, off) in self.rigid_bodies(q, v) {
            let c = body.center_of_mass();
            if c.x == T::zero() && c.y == T::zero() {
                continue;
            }
            let (sn, cs) = config.angle().sin_cos_l();
            let s = Vector2::new(cs * c.x - sn * c.y, sn * c.x + cs * c.y);
            let w = config.state.q_t.z;
            let m = body.mass();
            let dq = Vector2::new(-s.y, s.x) * (m * w * w);
            let dv = s * (T::c(2.0) * m * w);
            for i in 0..2 {
                out.add(off + i, off + 2, a * dq[i] + b * dv[i]);
            }
        }
        // A 3D body's f_v: its velocity Jacobian (its position Jacobian is `mass_jacobian`'s).
        if b != T::zero() && self.layout.group {
            for (body, off) in self.rigid_bodies_3d() {
                let r = self.group_rotation(body, q, off)?;
                let d = lg::quadratic_velocity_jacobian(body, &r, &vec3(v, off + 3)?);
                out.add_scaled(off, off + 3, &d, b);
            }
        } else if b != T::zero() {
            for (body, off) in self.rigid_bodies_3d() {
                let (e, e_t) = (vec4(q, off + 3)?, vec4(v, off + 3)?);
                let d = ep::quadratic_velocity_jacobian(body, &e, &e_t);
                add_e_columns(out, off, &d, b);
            }
        }
        // Every force's dependence on the tree's coordinates and velocities (its own function:
        // its scratch vectors are on the stack only with a tree).
        if self.tree.tree().is_some() {
            self.tree_force_jacobian(t, q, v, a, b, out)?;
        }
        // Loads: a force f at the point p of a 2D rigid body: dQ_theta/dtheta = -(R p) . f.
        if self.connectors.is_empty() && !self.loads.iter().any(|l| self.load_point(l).is_some()) {
            return Ok(()); // nothing else depends on q or q_t
        }
        self.add_applied_force_jacobians(t, q, v, a, b, out)
    }

    /// `a dQ/dq + b dQ/dq_t` of the loads at points of 2D rigid bodies and of the connectors,
    /// added to `out`.
    // Out of line: the coordinate copies the connectors' differences perturb are on the stack
    // only in a system with such loads or connectors.
    #[inline(never)]
    fn add_applied_force_jacobians<const S: usize>(
        &self,
        t: T,
        q: &[T],
        v: &[T],
        a: T,
        b: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        self.with_links(q, v, |links| {
            let view = self.view_at(q, v, links);
            for (k, l) in self.loads.iter().enumerate() {
                let Some(p) = self.load_point(l) else {
                    continue;
                };
                let at = ItemRef::Load(crate::system::index::LoadIndex(k as u16));
                let Some(NodeForce { node, q: g }) = l
                    .generalized_force(&view, self.markers, t)
                    .map_err(|e| self.fail(e, at))?
                else {
                    continue;
                };
                let Some(Node::RigidBody2D(_)) = self.nodes.get(node.get()) else {
                    continue;
                };
                let mut angle = T::zero();
                view.with_rigid2d(node, |n, st| {
                    angle = n.configuration(st).angle();
                    Ok(())
                })?;
                let (sn, cs) = angle.sin_cos_l();
                let rp = Vector2::new(cs * p.x - sn * p.y, sn * p.x + cs * p.y);
                let off = self.offset(node)?;
                out.add(off + 2, off + 2, -a * (rp.x * g[0] + rp.y * g[1]));
            }
            // Connectors: forward differences over their nodes' coordinates and velocities.
            for (k, c) in self.connectors.iter().enumerate() {
                self.connector_jacobian(c, k, (q, v, links), a, b, out)?;
            }
            Ok(())
        })
    }
}

/// The system's items as a constrained model, borrowing the item lists field by field (so that
/// the workspace can be borrowed mutably beside it).
macro_rules! model_of {
    ($sys:expr) => {
        SystemModel {
            nodes: &$sys.nodes,
            objects: &$sys.objects,
            markers: &$sys.markers,
            loads: &$sys.loads,
            connectors: &$sys.connectors,
            constraints: &$sys.constraints,
            layout: &$sys.layout,
            tree: &$sys.tree,
            starts: Cell::from_mut(&mut $sys.alpha.starts[..]).as_slice_of_cells(),
            equations: $sys.layout.m,
            failure: Cell::new(None),
        }
    };
}

/// Constraint `k` as an item reference.
fn constraint_ref(k: usize) -> ItemRef {
    ItemRef::Constraint(crate::system::index::ConstraintIndex(k as u16))
}

/// The node states' coordinates, velocities and accelerations into `st` (first `n` entries);
/// a 3D rigid node's only with `rigid` (at a start: while stepping, the Euler parameters in `st`
/// are the state and the node state their normalized image).
fn gather<T: Real, const N: usize, const K: usize, const W: usize>(
    layout: &Layout<T, N, K>,
    states: &[NodeState<T>],
    st: &mut ConstrainedState<T, W>,
    rigid: bool,
    starts: &mut [T; W],
) {
    for (s, o) in states.iter().zip(layout.offsets.iter()) {
        // (A tree link's state is the tree's, written after.)
        if *o == NO_COORDINATES {
            continue;
        }
        let o = usize::from(*o);
        let ep_buf;
        let group_buf;
        let (q, v, a): (&[T], &[T], &[T]) = match s {
            NodeState::Point2D(p) => (p.q.as_slice(), p.q_t.as_slice(), p.q_tt.as_slice()),
            NodeState::RigidBody2D(r) => (r.q.as_slice(), r.q_t.as_slice(), r.q_tt.as_slice()),
            NodeState::RigidBody(r) if rigid && layout.group => {
                // The step starts at the node's orientation: theta = 0.
                let e = r.orientation.normalized().unwrap_or(r.orientation);
                lg::set_start(starts, o, &e);
                group_buf = group_state(r);
                let [q, v, a] = &group_buf;
                (q.as_slice(), v.as_slice(), a.as_slice())
            }
            NodeState::RigidBody(r) if rigid => {
                ep_buf = euler_parameter_state(r);
                let [q, v, a] = &ep_buf;
                (q.as_slice(), v.as_slice(), a.as_slice())
            }
            _ => continue,
        };
        for i in 0..q.len() {
            if let (Some(x), Some(y), Some(z)) = (
                st.q.get_mut(o + i),
                st.v.get_mut(o + i),
                st.acc.get_mut(o + i),
            ) {
                *x = q[i];
                *y = v[i];
                *z = a[i];
            }
        }
    }
}

/// A rigid state's Lie-group coordinates at its own orientation, velocities and accelerations
/// (`[r; 0]`, `[v; w]`, `[a; w_t]`).
fn group_state<T: Real>(r: &RigidState<T>) -> [[T; LG_COORDINATES]; 3] {
    let join = |p: &Vector3<T>, x: &Vector3<T>| [p.x, p.y, p.z, x.x, x.y, x.z];
    [
        join(&r.position, &Vector3::zeros()),
        join(&r.velocity, &r.angular_velocity),
        join(&r.acceleration, &r.angular_acceleration),
    ]
}

/// A rigid state's Euler-parameter coordinates, velocities and accelerations (`[r; e]`,
/// `[v; e_t]`, `[a; e_tt]`; `e` its orientation, taken as unit).
fn euler_parameter_state<T: Real>(r: &RigidState<T>) -> [[T; EP_COORDINATES]; 3] {
    let o = &r.orientation;
    let e = Vector4::new(o.w, o.x, o.y, o.z);
    let e_t = ep::rates(&e, &r.angular_velocity);
    let e_tt = ep::accelerations(&e, &e_t, &r.angular_acceleration);
    let join = |p: &Vector3<T>, x: &Vector4<T>| [p.x, p.y, p.z, x[0], x[1], x[2], x[3]];
    [
        join(&r.position, &e),
        join(&r.velocity, &e_t),
        join(&r.acceleration, &e_tt),
    ]
}

/// The solver's coordinates, velocities and accelerations `[sq, sv, sa]` into the node states
/// (a 3D rigid node's orientation `e / |e|`, its body-frame rates `Gb(e) e_t` and
/// `Gb(e) e_tt`; on the Lie group its orientation [`lg::step_orientation`] from `starts`).
fn scatter_states<T: Real, const N: usize, const K: usize, const W: usize>(
    layout: &Layout<T, N, K>,
    [sq, sv, sa]: [&[T; W]; 3],
    states: &mut [NodeState<T>],
    starts: &[T; W],
) {
    for (s, o) in states.iter_mut().zip(layout.offsets.iter()) {
        // (A tree link's state is the tree's, written after.)
        if *o == NO_COORDINATES {
            continue;
        }
        let o = usize::from(*o);
        if let (NodeState::RigidBody(r), true) = (&mut *s, layout.group) {
            let (Ok(p), Ok(theta), Ok(v), Ok(w), Ok(a), Ok(w_t), Some(start)) = (
                vec3(sq, o),
                vec3(sq, o + 3),
                vec3(sv, o),
                vec3(sv, o + 3),
                vec3(sa, o),
                vec3(sa, o + 3),
                lg::start_at(starts, o),
            ) else {
                continue;
            };
            r.position = p;
            r.orientation = lg::step_orientation(&start, &theta);
            r.velocity = v;
            r.angular_velocity = w;
            r.acceleration = a;
            r.angular_acceleration = w_t;
            continue;
        }
        if let NodeState::RigidBody(r) = s {
            let (Ok(p), Ok(e), Ok(v), Ok(e_t), Ok(a), Ok(e_tt)) = (
                vec3(sq, o),
                vec4(sq, o + 3),
                vec3(sv, o),
                vec4(sv, o + 3),
                vec3(sa, o),
                vec4(sa, o + 3),
            ) else {
                continue;
            };
            let g = ep::g_body(&e);
            r.position = p;
            r.orientation = ep::quaternion(&e).normalized().unwrap_or(r.orientation);
            r.velocity = v;
            r.angular_velocity = g * e_t;
            r.acceleration = a;
            r.angular_acceleration = g * e_tt;
            continue;
        }
        let (q, v, a): (&mut [T], &mut [T], &mut [T]) = match s {
            NodeState::Point2D(p) => (
                p.q.as_mut_slice(),
                p.q_t.as_mut_slice(),
                p.q_tt.as_mut_slice(),
            ),
            NodeState::RigidBody2D(r) => (
                r.q.as_mut_slice(),
                r.q_t.as_mut_slice(),
                r.q_tt.as_mut_slice(),
            ),
            _ => continue,
        };
        for i in 0..q.len() {
            if let (Some(x), Some(y), Some(z)) = (sq.get(o + i), sv.get(o + i), sa.get(o + i)) {
                q[i] = *x;
                v[i] = *y;
                a[i] = *z;
            }
        }
    }
}

impl<
        T: Real,
        const N: usize,
        const O: usize,
        const M: usize,
        const L: usize,
        const C: usize,
        const S: usize,
        const G: usize,
        const K: usize,
        const W: usize,
        const J: usize,
    > System<T, N, O, M, L, C, S, G, K, W, J>
{
    /// The layout of the coordinates and equations for generalized-alpha, checked: every
    /// constraint between markers it can join (`MarkerNotSupported` at the constraint), `n + m` (`n + 2m` stabilized)
    /// within the capacity `W` (`CapacityFull` at the system).
    pub(crate) fn alpha_layout(
        &mut self,
        formulation: Formulation,
        rotations: Rotations,
    ) -> SystemResult<()> {
        let tree = self.tree.tree().map_or(0, |(_, n)| n);
        let order: Vec<u16, N, u16> =
            leaves_first(&self.nodes, &self.objects, &self.markers, &self.constraints)?;
        self.layout = Layout::of(&self.nodes, &order, tree, &self.constraints, rotations)?;
        let (n, m) = (self.layout.n, self.layout.m);
        let need = match formulation {
            Formulation::StabilizedIndex2 => n + 2 * m,
            _ => n + m,
        };
        if need > W {
            return Err(SystemError::new(Error::CapacityFull, ItemRef::System));
        }
        let ends = model_of!(self).resolve_ends()?;
        self.layout.ends = ends;
        Ok(())
    }

    /// Consistent start values for generalized-alpha at the current time from the current node
    /// states ([`ConstrainedAlpha::initial_state`]: positions checked or projected, velocities
    /// likewise, accelerations and multipliers solved): written into the node states and the
    /// stored state. On error nothing changes.
    pub(crate) fn alpha_start(&mut self, scheme: &ConstrainedAlpha<T>) -> SystemResult<()> {
        let assembly = self.settings.alpha.assembly;
        let mut st = *self.alpha.state();
        // The orientations the start's rotations are taken from (kept only if it succeeds).
        let mut starts = self.alpha.starts;
        gather(&self.layout, &self.states, &mut st, true, &mut starts);
        self.tree.write_state(self.layout.tree, &mut st);
        let mut model = model_of!(self);
        model.starts = Cell::from_mut(&mut starts[..]).as_slice_of_cells();
        let n = self.layout.n;
        let start = scheme.initial_state(
            &model,
            self.time,
            &st.q[..n],
            &st.v[..n],
            assembly,
            &mut self.alpha.work,
        );
        let start = match start {
            Ok(s) => s,
            Err(e) => {
                let item = model.failure.take();
                return Err(match (e, item) {
                    (_, Some(item)) => item,
                    (Error::SingularMatrix, None) => self.first_singular(scheme, &st, &mut starts),
                    (e, None) => SystemError::new(e, ItemRef::System),
                });
            }
        };
        scatter_states(
            &self.layout,
            [&start.q, &start.v, &start.acc],
            &mut self.states,
            &starts,
        );
        self.alpha.starts = starts;
        self.alpha.set_state(&start);
        if self.layout.group {
            // The start's rotations (an assembly moves them) into the orientations.
            self.alpha.rebase(&self.layout, &self.states);
        }
        self.alpha.started = true;
        // The workspace back to zeros: a step starts from a cleared Newton matrix.
        self.alpha.work.clear();
        // The start may have moved the tree's coordinates (assembly): its links follow.
        self.tree.read_state(self.layout.tree, self.alpha.state());
        self.refresh_links();
        Ok(())
    }

    /// `SingularMatrix` at the first constraint `k` whose leading set `0..=k` makes the start's
    /// matrix singular (redundant or contradictory with those before it; at the system if
    /// none does alone, e.g. a coordinate without mass). Works in the system's workspace (a
    /// refused start is followed by `settle`, which clears it).
    #[inline(never)]
    fn first_singular(
        &mut self,
        scheme: &ConstrainedAlpha<T>,
        st: &ConstrainedState<T, W>,
        starts: &mut [T; W],
    ) -> SystemError {
        let n = self.layout.n;
        let work = &mut self.alpha.work;
        let starts = Cell::from_mut(&mut starts[..]).as_slice_of_cells();
        for k in 0..self.constraints.len() {
            let mut model = model_of!(self);
            model.starts = starts;
            model.constraints = &self.constraints[..=k];
            model.equations = self.layout.rows.get(k).map_or(0, |r| usize::from(*r))
                + self.constraints.get(k).map_or(0, |c| c.equations());
            let r = scheme.initial_state(
                &model,
                self.time,
                &st.q[..n],
                &st.v[..n],
                self.settings.alpha.assembly,
                work,
            );
            if r == Err(Error::SingularMatrix) {
                return SystemError::new(Error::SingularMatrix, constraint_ref(k));
            }
        }
        SystemError::new(Error::SingularMatrix, ItemRef::System)
    }

    /// One generalized-alpha step of `h` from the state (its positions and velocities are the
    /// node states'), its result left in the workspace (committed by the caller,
    /// [`AlphaStorage::commit`], once the step is complete); what the Newton iteration did.
    // Inline: in its own frame it adds to the step's stack.
    #[inline(always)]
    pub(crate) fn alpha_step(
        &mut self,
        scheme: &ConstrainedAlpha<T>,
        h: T,
    ) -> SystemResult<ConstrainedReport<T>> {
        if !self.alpha.started {
            self.alpha_start(scheme)?;
        }
        let time = self.time;
        let model = model_of!(self);
        let (state, scratch) = (&mut self.alpha.state, &mut self.alpha.work);
        // The node states are the state's positions and velocities (scattered from it) while
        // it is started; the step reads them and the last accelerations and multipliers there.
        debug_assert!(state.t == time);
        // The workspace is cleared for the layout's unknowns: by `settle` after every step and
        // by `alpha_start`.
        let cleared = model.layout.unknowns();
        scheme
            .step_into_work(&model, state, scratch, h, cleared)
            .map_err(|e| {
                model
                    .failure
                    .take()
                    .unwrap_or(SystemError::new(e, ItemRef::System))
            })
    }

    /// The node states of the solver's current state written in place: of the coordinates,
    /// field by field, and the tree links' from the tree's own (read from that state). The
    /// node states always equal these between steps, so this puts them back byte for byte
    /// after [`Self::alpha_node_states`].
    pub(crate) fn restore_node_states(&mut self) {
        let (s, starts) = (&self.alpha.state, &self.alpha.starts);
        scatter_states(&self.layout, [&s.q, &s.v, &s.acc], &mut self.states, starts);
        self.refresh_links();
    }

    /// The node states of the step's result (what [`Self::alpha_step`] left in the
    /// workspace), written in place: of the coordinates, field by field, and the tree links'
    /// of the tree's.
    pub(crate) fn alpha_node_states(&mut self) {
        let (w, starts) = (&self.alpha.work, &self.alpha.starts);
        scatter_states(&self.layout, [&w.q, &w.v, &w.x], &mut self.states, starts);
        if let Some((_, n)) = self.tree.tree() {
            let o = self.layout.tree;
            if let (Some(q), Some(v), Some(a)) =
                (w.q.get(o..o + n), w.v.get(o..o + n), w.x.get(o..o + n))
            {
                self.tree.link_states(q, v, Some(a), &mut self.states);
            }
        }
    }
}

/// `C` of constraint `con` at its evaluated `ends` into `cc` (from its first row) and its rows
/// of `C_q` added to `j` if given; `None` for a distance of zero length or a constraint whose
/// ends are not its kind's.
// Out of line: its temporaries are off the stack when the constraint's Hessian runs.
#[inline(never)]
fn constraint_equations<T: Real, const S: usize>(
    con: &Constraint<T>,
    ends: &Evaluated<'_, '_, T>,
    q: &[T],
    cc: &mut [T],
    j: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    match (con, ends) {
        (Constraint::Distance { distance, .. }, Evaluated::Planar(m0, m1)) => {
            planar::distance(m0, m1, *distance, 0, cc, j)
        }
        (Constraint::Revolute2D { .. }, Evaluated::Planar(m0, m1)) => {
            planar::revolute(m0, m1, 0, cc, j)
        }
        (
            Constraint::Prismatic2D {
                axis_marker0,
                normal_marker1,
                constrain_rotation,
                ..
            },
            Evaluated::Planar(m0, m1),
        ) => planar::prismatic(
            m0,
            m1,
            axis_marker0,
            normal_marker1,
            *constrain_rotation,
            0,
            cc,
            j,
        ),
        (Constraint::Coordinate { factor, offset, .. }, Evaluated::Coordinates(i0, i1)) => {
            planar::coordinate(q, *i0, *i1, *factor, *offset, 0, cc, j)
        }
        (Constraint::Distance { distance, .. }, Evaluated::Spatial(m0, m1)) => {
            spatial::distance(m0, m1, *distance, 0, cc, j)
        }
        (Constraint::Joint { axes, .. }, Evaluated::Spatial(m0, m1)) => {
            spatial::joint(m0, m1, axes, 0, cc, j)
        }
        _ => None,
    }
}

/// Adds `a d(C_q^T lambda)/dq` of constraint `c` (first row `row` of `lambda`) at its
/// evaluated `ends` to `out`; `None` for a distance of zero length or multipliers missing.
fn constraint_hessian<T: Real, const S: usize>(
    c: &Constraint<T>,
    ends: &Evaluated<'_, '_, T>,
    lambda: &[T],
    row: usize,
    a: T,
    out: &mut Block<'_, T, S>,
) -> Option<()> {
    let l = |i: usize| lambda.get(i).copied().unwrap_or(T::zero());
    match ends {
        Evaluated::Spatial(m0, m1) => {
            match c {
                Constraint::Joint { axes, .. } => {
                    spatial::joint_hessian(m0, m1, axes, lambda.get(row..)?, a, out)
                }
                _ => spatial::distance_hessian(m0, m1, l(row), a, out),
            }
            Some(())
        }
        Evaluated::Planar(m0, m1) => planar_hessian(c, m0, m1, [l(row), l(row + 1)], a, out),
        Evaluated::Coordinates(..) => Some(()), // a coordinate constraint is linear
    }
}

/// Adds `a d(C_q^T lambda)/dq` of planar constraint `c` between the marker states `m0`, `m1`
/// with its multipliers `l` (the first one for a distance) to `out`; `None` for a distance of
/// zero length.
// Out of line: the planar Hessians' temporaries are on the stack only while they run, not in
// the frame of every constraint's evaluation.
#[inline(never)]
fn planar_hessian<T: Real, const S: usize>(
    c: &Constraint<T>,
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    l: [T; 2],
    a: T,
    out: &mut Block<'_, T, S>,
) -> Option<()> {
    match c {
        Constraint::Distance { .. } => planar::distance_hessian(m0, m1, l[0], a, out)?,
        Constraint::Revolute2D { .. } => {
            planar::revolute_hessian(m0, m1, &Vector2::new(l[0], l[1]), a, out)
        }
        Constraint::Prismatic2D {
            axis_marker0,
            normal_marker1,
            constrain_rotation,
            ..
        } => planar::prismatic_hessian(
            m0,
            m1,
            axis_marker0,
            normal_marker1,
            *constrain_rotation,
            &l,
            a,
            out,
        ),
        Constraint::Coordinate { .. } | Constraint::Joint { .. } => {}
    }
    Some(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::bodies::RigidBody2D;
    use crate::inertia::MassProperties;
    use crate::math::Quaternion;
    use crate::nodes::{NodePoint2D, NodeRigidBody2D};
    use crate::system::{HostSystem, RigidBodySpec};
    use nalgebra::Matrix3;

    const S: usize = 40;

    /// 3D: two bodies with full inertia tensors on a revolute joint about an oblique axis
    /// (markers off the centres) to the ground and a spherical joint, plus a distance; planar:
    /// two 2D bodies and a mass point on a revolute, a prismatic (rotation held), a distance
    /// and a coordinate constraint. Every kind of Hessian the model has.
    fn mechanism() -> HostSystem<f64> {
        let mut sys = HostSystem::<f64>::new();
        let ground = sys.create_ground(Vector3::zeros()).unwrap();
        let inertia = Matrix3::new(0.3, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.2);
        let mp = MassProperties::new(2.0, Vector3::zeros(), inertia).unwrap();
        let mut spec = RigidBodySpec::at(Vector3::new(0.5, -0.2, 0.1));
        spec.orientation = Quaternion::new(0.9, 0.1, -0.3, 0.2).normalized().unwrap();
        let b0 = sys.create_rigid_body(&mp, &spec).unwrap();
        spec.position = Vector3::new(1.2, -0.6, 0.3);
        let b1 = sys.create_rigid_body(&mp, &spec).unwrap();
        let frame = Matrix3::new(0.0, 0.6, 0.8, 0.0, 0.8, -0.6, -1.0, 0.0, 0.0);
        let mut marker = |m: Marker<f64>| sys.add_marker(m).unwrap();
        let g = marker(Marker::body_rigid_frame(ground, Vector3::zeros(), &frame).unwrap());
        let m0 = marker(
            Marker::body_rigid_frame(b0.object, Vector3::new(-0.4, 0.1, 0.0), &frame).unwrap(),
        );
        let m1 = marker(Marker::body_rigid(b0.object, Vector3::new(0.3, -0.2, 0.1)).unwrap());
        let m2 = marker(Marker::body_rigid(b1.object, Vector3::new(-0.3, 0.2, 0.0)).unwrap());
        let m3 = marker(Marker::body_rigid(b1.object, Vector3::new(0.2, 0.1, -0.1)).unwrap());
        sys.add_constraint(Constraint::revolute_joint([g, m0]).unwrap())
            .unwrap();
        sys.add_constraint(Constraint::spherical_joint([m1, m2]).unwrap())
            .unwrap();
        sys.add_constraint(Constraint::distance([g, m3], 1.5).unwrap())
            .unwrap();
        let mut rigid2d = |x: f64| {
            let node = Node::RigidBody2D(NodeRigidBody2D::at(Vector3::new(x, 0.1, 0.2)).unwrap());
            let n = sys.add_node(node).unwrap();
            let body = RigidBody2D::new(1.5, 0.2, Vector2::zeros()).unwrap();
            (
                n,
                sys.add_object(Object::RigidBody2D { node: n, body })
                    .unwrap(),
            )
        };
        let (_, r0) = rigid2d(0.5);
        let (_, r1) = rigid2d(1.5);
        let p = sys.add_node(Node::Point2D(
            NodePoint2D::at(Vector2::new(2.5, 0.3)).unwrap(),
        ));
        let p = p.unwrap();
        sys.add_object(Object::mass_point_2d(p, 0.5).unwrap())
            .unwrap();
        let mut marker = |m: Marker<f64>| sys.add_marker(m).unwrap();
        let at = |o, x: f64| Marker::body_rigid(o, Vector3::new(x, 0.05, 0.0)).unwrap();
        let (g0, a0, a1, c0) = (
            marker(at(ground, 0.0)),
            marker(at(r0, -0.5)),
            marker(at(r0, 0.5)),
            marker(at(r1, -0.5)),
        );
        let (c1, pm) = (marker(at(r1, 0.5)), marker(Marker::node_position(p)));
        let pc = marker(Marker::node_coordinate(p, 1));
        let gc = marker(Marker::node_coordinate(p, 0));
        let axis = Vector2::new(1.0, 0.2);
        let normal = Vector2::new(-0.1, 1.0);
        for c in [
            Constraint::revolute_2d([g0, a0]).unwrap(),
            Constraint::prismatic_2d([a1, c0], axis, normal, true).unwrap(),
            Constraint::distance([c1, pm], 1.0).unwrap(),
            Constraint::coordinate([pc, gc], 0.5, 0.1).unwrap(),
        ] {
            sys.add_constraint(c).unwrap();
        }
        sys.set_settings(
            crate::system::SystemSettings::default()
                .with_coupling(crate::system::Coupling::GeneralizedAlpha),
        )
        .unwrap();
        sys.alpha_layout(Formulation::Index3, Rotations::EulerParameters)
            .unwrap();
        sys
    }

    /// A chain joined to the ground at its first body (added first) is laid out from its free
    /// end; a body no constraint joins to the ground comes before it; ties in index order.
    #[test]
    fn the_coordinates_are_laid_out_from_the_free_ends() {
        let mut sys = HostSystem::<f64>::new();
        let ground = sys.create_ground(Vector3::zeros()).unwrap();
        let mut bodies = [ground; 4];
        for (k, b) in bodies.iter_mut().enumerate().skip(1) {
            let node = NodeRigidBody2D::at(Vector3::new(k as f64, 0.0, 0.0)).unwrap();
            let n = sys.add_node(Node::RigidBody2D(node)).unwrap();
            let body = RigidBody2D::new(1.0, 0.1, Vector2::zeros()).unwrap();
            *b = sys
                .add_object(Object::RigidBody2D { node: n, body })
                .unwrap();
        }
        let free = sys.add_node(Node::Point2D(
            NodePoint2D::at(Vector2::new(5.0, 0.0)).unwrap(),
        ));
        sys.add_object(Object::mass_point_2d(free.unwrap(), 1.0).unwrap())
            .unwrap();
        // Nodes 0 - 1 - 2 a chain from the ground; node 3 free.
        for (a, b) in [(0, 1), (1, 2), (2, 3)] {
            let x = a as f64 + 0.5;
            let m = |s: &mut HostSystem<f64>, o| {
                s.add_marker(Marker::body_rigid(o, Vector3::new(x, 0.0, 0.0)).unwrap())
            };
            let (ma, mb) = (
                m(&mut sys, bodies[a]).unwrap(),
                m(&mut sys, bodies[b]).unwrap(),
            );
            sys.add_constraint(Constraint::revolute_2d([ma, mb]).unwrap())
                .unwrap();
        }
        let order: Vec<u16, 8, u16> =
            leaves_first(&sys.nodes, &sys.objects, &sys.markers, &sys.constraints).unwrap();
        assert_eq!(order.as_slice(), &[3, 2, 1, 0]);
        let layout = Layout::<f64, 8, 8>::of(
            &sys.nodes,
            &order,
            0,
            &sys.constraints,
            Rotations::EulerParameters,
        )
        .unwrap();
        assert_eq!(layout.offsets.as_slice(), &[8, 5, 2, 0]);
        assert_eq!((layout.n, layout.m), (11, 6));
        // A distance between nodes 0 and 2 closes a loop: node 2 is then as near the ground as 1.
        let [m0, m2] = [bodies[1], bodies[3]].map(|o| {
            sys.add_marker(Marker::body_rigid(o, Vector3::zeros()).unwrap())
                .unwrap()
        });
        sys.add_constraint(Constraint::distance([m0, m2], 2.0).unwrap())
            .unwrap();
        let order: Vec<u16, 8, u16> =
            leaves_first(&sys.nodes, &sys.objects, &sys.markers, &sys.constraints).unwrap();
        assert_eq!(order.as_slice(), &[3, 1, 2, 0]);
    }

    /// `M` taken with its product (`mass_with_product`, each body's block times its
    /// coordinates) is, bit for bit, `mass`'s `M` and the product over `M`'s whole rows: the
    /// residual does not depend on which way it was taken.
    #[test]
    fn the_mass_taken_with_its_product_is_the_mass_and_its_rows_product_bit_for_bit() {
        let mut sys = mechanism();
        let model = model_of!(sys);
        let n = model.layout.n;
        let q: [f64; S] = core::array::from_fn(|i| (0.37 * i as f64).sin());
        let x: [f64; S] = core::array::from_fn(|i| 0.5 - (0.91 * i as f64).cos());
        let (mut one, mut two) = ([[0.0; S]; S], [[0.0; S]; S]);
        let mut mx = [0.0; S];
        model
            .mass_with_product(
                0.0,
                &q[..n],
                &x[..n],
                &mut Block::new(&mut one, 0, 0, n, n),
                &mut mx[..n],
            )
            .unwrap()
            .unwrap();
        model
            .mass(0.0, &q[..n], &mut Block::new(&mut two, 0, 0, n, n))
            .unwrap();
        let bits = |x: &[[f64; S]; S]| x.map(|r| r.map(f64::to_bits));
        assert_eq!(bits(&one), bits(&two));
        for i in 0..n {
            let row = two[i][..n]
                .iter()
                .zip(&x[..n])
                .fold(0.0, |acc, (a, b)| acc + a * b);
            assert_eq!(mx[i].to_bits(), row.to_bits(), "{i}");
            assert!(row != 0.0, "{i}");
        }
    }

    /// The constraints' Jacobian and Hessian taken in one pass over the markers
    /// (`constraint_with_jacobian_and_hessian`) are, bit for bit, what the separate calls add to
    /// a matrix that already holds `M`: so a step's Newton matrix does not depend on which
    /// evaluation took the Hessian.
    #[test]
    fn the_hessian_taken_with_the_jacobian_is_the_separate_one_bit_for_bit() {
        let mut sys = mechanism();
        let model = model_of!(sys);
        let (n, m) = (model.layout.n, model.layout.m);
        assert!(n + m <= S && m == 2 + 5 + 3 + 1 + 2 + 2 + 1 + 1, "{n} {m}");
        // Away from the constraints' manifold and from any symmetry.
        let q: [f64; S] = core::array::from_fn(|i| (0.37 * i as f64).sin());
        let lambda: [f64; S] = core::array::from_fn(|i| 1.0 + 0.3 * (1.7 * i as f64).cos());
        let a = 0.7;
        let (mut one, mut two) = ([[0.0; S]; S], [[0.0; S]; S]);
        let (mut c1, mut c2) = ([0.0; S], [0.0; S]);
        for jac in [&mut one, &mut two] {
            model
                .mass(0.0, &q[..n], &mut Block::new(jac, m, m, n, n))
                .unwrap();
        }
        let mut block = Block::new(&mut one, 0, m, m, n);
        let r = model.constraint_with_jacobian_and_hessian(
            0.0,
            &q[..n],
            &lambda[..m],
            a,
            &mut c1[..m],
            &mut block,
        );
        r.unwrap().unwrap();
        model
            .constraint_with_jacobian(
                0.0,
                &q[..n],
                &mut c2[..m],
                &mut Block::new(&mut two, 0, m, m, n),
            )
            .unwrap();
        let mut coordinates = Block::new(&mut two, m, m, n, n);
        model
            .constraint_force_jacobian(0.0, &q[..n], &lambda[..m], a, &mut coordinates)
            .unwrap()
            .unwrap();
        let bits = |x: &[[f64; S]; S]| x.map(|r| r.map(f64::to_bits));
        assert_eq!(bits(&one), bits(&two));
        assert_eq!(c1.map(f64::to_bits), c2.map(f64::to_bits));
        // The Hessian is there: the coordinates' block is not M alone.
        let mut mass = [[0.0; S]; S];
        model
            .mass(0.0, &q[..n], &mut Block::new(&mut mass, m, m, n, n))
            .unwrap();
        let differ = (m..m + n).flat_map(|i| (m..m + n).map(move |j| (i, j)));
        assert!(differ.filter(|&(i, j)| one[i][j] != mass[i][j]).count() > 3 * n);
    }
}
