//! [`IterateStates`]: a generalized-alpha iterate's coordinates read as node states.

use super::entries::{vec3, vec4};
use crate::bodies::euler_parameters::{self as ep};
use crate::bodies::lie_group::{self as lg};
use crate::nodes::rigid2d::Rigid2DState;
use crate::nodes::Point2DState;
use crate::state::RigidState;
use crate::system::index::NodeIndex;
use crate::system::node::{Node, NodeState};
use crate::{Error, Real, Result};
use core::cell::Cell;
use nalgebra::{Vector2, Vector3};

/// The coordinates `q` and velocities `v` of a generalized-alpha iterate in a [`Layout`](super::layout::Layout)'s
/// order, from which a [`BodyStates`](crate::system::BodyStates) makes a node's state when it is asked for (no copy of every
/// node's state is held while loads and connectors are evaluated).
#[derive(Clone, Copy, Debug)]
pub(crate) struct IterateStates<'a, T: Copy> {
    pub(crate) offsets: &'a [u16],
    pub(crate) q: &'a [T],
    pub(crate) v: &'a [T],
    /// On the Lie group: each 3D rigid node's orientation at the step's start (at its offset,
    /// [`lg::start_in`]).
    pub(crate) starts: Option<&'a [Cell<T>]>,
}

impl<T: Real> IterateStates<'_, T> {
    /// The state of `node` (index `i`) at the iterate, accelerations zero; `UnknownIndex`
    /// outside the vectors; a 3D rigid body's as [`Self::rigid`]. A tree link's state is its
    /// initial one (the tree's kinematics make it, [`SystemModel::states`](super::model::SystemModel::states)).
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
