//! Where each node's coordinates and each constraint's equations sit in the solver's vectors
//! ([`Layout`]), the nodes' order in them, and each constraint's ends resolved once.

use crate::bodies::euler_parameters::EP_COORDINATES;
use crate::bodies::lie_group::LG_COORDINATES;
use crate::constraints::planar::PlanarMarker;
use crate::constraints::spatial::SpatialMarker;
use crate::integrators::constrained::generalized_alpha::Sizes;
use crate::system::constraint::Constraint;
use crate::system::error::{SystemError, SystemResult};
use crate::system::index::ItemRef;
use crate::system::marker::Marker;
use crate::system::node::Node;
use crate::system::object::Object;
use crate::system::settings::Rotations;
use crate::{Error, Real};
use heapless::Vec;

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
    pub(crate) lie_group: bool,
    /// Per constraint: its ends, resolved once from its markers
    /// ([`SystemModel::resolve_ends`](super::model::SystemModel::resolve_ends)).
    pub(crate) ends: Vec<ConstraintEnds<T>, K, u16>,
}

/// Number of coordinates of `node` in the solver's vector (module docs), a 3D rigid body's on
/// the Lie group with `lie_group`.
pub(super) fn coordinates_of<T: Real>(node: &Node<T>, lie_group: bool) -> usize {
    match node {
        Node::RigidBody(_) if lie_group => LG_COORDINATES,
        Node::RigidBody(_) => EP_COORDINATES,
        n => n.coordinates(),
    }
}

impl<T: Real, const N: usize, const K: usize> Layout<T, N, K> {
    /// The most unknowns a step of this layout solves for (`n + 2 m`, the stabilized
    /// formulation's): the part of the workspace it writes.
    pub(crate) fn unknowns(&self) -> usize {
        self.n + 2 * self.m
    }

    /// The numbers of coordinates and equations.
    pub(crate) fn sizes(&self) -> Sizes {
        Sizes {
            n: self.n,
            m: self.m,
        }
    }

    /// Number of normalization rows (the first rows): one per 3D rigid node in Euler
    /// parameters, none on the Lie group.
    pub(crate) fn normalizations(&self) -> usize {
        if self.lie_group {
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
            lie_group: rotations == Rotations::LieGroup,
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
            let count = coordinates_of(node, layout.lie_group);
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
pub(super) fn leaves_first<T: Real, const N: usize>(
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

/// A constraint's ends, resolved from its markers when the system is assembled (a marker's
/// body, node offset, local position and frame do not change between assemblies): two planar
/// or two 3D markers, or two coordinates (`None` on the ground).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ConstraintEnds<T> {
    Planar([PlanarMarker<T>; 2]),
    Spatial([SpatialMarker<T>; 2]),
    Coordinates(Option<usize>, Option<usize>),
}
