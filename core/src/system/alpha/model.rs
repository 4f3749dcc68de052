//! [`SystemModel`]: the system's items as a [`ConstrainedModel`](crate::integrators::constrained::ConstrainedModel), the model the
//! generalized-alpha scheme steps.

use super::entries::{add_at, euler_parameter_force, vec3};
use super::iterate::IterateStates;
use super::layout::{coordinates_of, Layout};
use crate::bodies::lie_group::{self as lg};
use crate::body::Generalized;
use crate::nodes::rigid2d::{Rigid2DConfiguration, Rigid2DState};
use crate::system::body_states::BodyStates;
use crate::system::connector::Connector;
use crate::system::constraint::Constraint;
use crate::system::error::SystemError;
use crate::system::forces::generalized_forces;
use crate::system::index::{ItemRef, NodeIndex};
use crate::system::load::Load;
use crate::system::marker::Marker;
use crate::system::node::{Node, NodeState};
use crate::system::node_force::zeros;
use crate::system::object::Object;
use crate::system::tree::SystemTree;
use crate::{Error, Real, Result};
use core::cell::Cell;
use heapless::Vec;
use nalgebra::Vector3;

/// The system's items as a [`ConstrainedModel`](crate::integrators::constrained::ConstrainedModel). A failing item's error is kept in `failure`
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
    /// [`lg::start_in`]; moved between the parts of a halved step, [`ConstrainedModel::recentre`](crate::integrators::constrained::ConstrainedModel::recentre)).
    pub(crate) starts: &'a [Cell<T>],
    /// Number of equations of `constraints` (the layout's, or fewer for a leading part).
    pub(crate) equations: usize,
    pub(crate) failure: Cell<Option<SystemError>>,
}

impl<'a, T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'a, T, N, K, J> {
    /// The system error of a step that failed with `e`: the item the model recorded, or `e` at
    /// the system.
    pub(crate) fn error(&self, e: Error) -> SystemError {
        self.failure
            .take()
            .unwrap_or(SystemError::new(e, ItemRef::System))
    }

    /// Records `e` at `at` and returns its plain error.
    pub(super) fn fail(&self, e: Error, at: ItemRef) -> Error {
        if self.failure.get().is_none() {
            self.failure.set(Some(SystemError::new(e, at)));
        }
        e
    }

    /// The iterate at coordinates `q` and velocities `v`.
    pub(super) fn iterate<'x>(&self, q: &'x [T], v: &'x [T]) -> IterateStates<'x, T>
    where
        'a: 'x,
    {
        IterateStates {
            offsets: &self.layout.offsets,
            q,
            v,
            starts: self.layout.lie_group.then_some(self.starts),
        }
    }

    /// The view of the system at `q`, `v`: each node's state made when asked for, a tree
    /// link's read from `links` (the states [`Self::states`] makes).
    pub(super) fn view_at<'x>(
        &self,
        q: &'x [T],
        v: &'x [T],
        links: &'x [NodeState<T>],
    ) -> BodyStates<'x, T>
    where
        'a: 'x,
    {
        BodyStates {
            nodes: self.nodes,
            states: links,
            objects: self.objects,
            iterate: Some(self.iterate(q, v)),
        }
    }

    /// The loads' and connectors' generalized forces per node in `view` into `g`.
    pub(super) fn applied_forces(
        &self,
        view: &BodyStates<'_, T>,
        t: T,
        g: &mut Vec<Generalized<T>, N, u16>,
    ) -> Result<()> {
        zeros::<T, N>(g, self.nodes.len());
        generalized_forces(view, self.markers, self.loads, self.connectors, t, g)
            .map_err(|e| self.fail(e.error, e.item))
    }

    /// On the Lie group: the rotation `R = e_n exp(theta)` of `body`'s node, whose coordinates
    /// start at `o` in `q`, where its terms read it (a centre of mass off the reference point;
    /// the identity, unread, else).
    pub(super) fn group_rotation(
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

    pub(super) fn offset(&self, node: NodeIndex) -> Result<usize> {
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

    /// The 2D rigid bodies: each with its node's configuration at `q`, `v` and its offset.
    pub(super) fn rigid_bodies<'s>(
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
    pub(super) fn rigid_bodies_3d(
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
    pub(super) fn scatter(&self, g: &[Generalized<T>], q: &[T], f: &mut [T]) -> Result<()> {
        for (i, node) in self.nodes.iter().enumerate() {
            let (Some(o), Some(gi)) = (self.layout.offsets.get(i), g.get(i)) else {
                continue;
            };
            let o = usize::from(*o);
            if let (Node::RigidBody(_), false) = (node, self.layout.lie_group) {
                add_at(f, o, &euler_parameter_force(gi, q, o)?);
                continue;
            }
            for k in 0..coordinates_of(node, self.layout.lie_group) {
                if let Some(x) = f.get_mut(o + k) {
                    *x += gi[k];
                }
            }
        }
        Ok(())
    }

    /// The 3D rigid nodes: the row of each one's normalization and its offset in `q`.
    pub(super) fn normalizations(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
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
    pub(super) fn row(&self, k: usize) -> usize {
        self.layout.rows.get(k).map_or(0, |r| usize::from(*r))
    }
}

/// Constraint `k` as an item reference.
pub(super) fn constraint_ref(k: usize) -> ItemRef {
    ItemRef::Constraint(crate::system::index::ConstraintIndex(k as u16))
}
