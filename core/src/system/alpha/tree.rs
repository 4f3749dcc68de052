//! The kinematic tree's terms in the system's model: its links' states, its generalized force
//! (RNEA at zero acceleration) and its columns of the force Jacobian, its kinematics for markers on
//! its links.

use super::model::SystemModel;
use crate::body::Generalized;
use crate::constraints::spatial::{SpatialState, TreeColumns};
use crate::integrators::constrained::{Block, ConstrainedModel};
use crate::system::node::NodeState;
use crate::tree::TreeData;
use crate::{Error, Real, Result};
use heapless::Vec;
use nalgebra::Vector3;

impl<'a, T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'a, T, N, K, J> {
    /// `f` of the tree links' states at `q`, `v` for a view of the iterate ([`Self::view_at`]):
    /// every node's state ([`Self::states`]) in a system with a tree, none without.
    pub(super) fn with_links<R>(
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
    pub(super) fn with_all_states<R>(
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
    pub(super) fn tree_system_force(&self, t: T, q: &[T], v: &[T], f: &mut [T]) -> Result<()> {
        self.with_all_states(q, v, |states| {
            let mut g = Vec::new();
            self.applied_forces(&self.view_at(q, v, states), t, &mut g)?;
            self.scatter(&g, q, f)?;
            self.tree_force(q, v, &g, states, f)
        })
    }

    /// The tree's coordinates and velocities in `q`, `v` (`None` without a tree).
    pub(super) fn tree_coordinates<'x>(
        &self,
        q: &'x [T],
        v: &'x [T],
    ) -> Option<(&'x [T], &'x [T])> {
        let (_, n) = self.tree.tree()?;
        let o = self.layout.tree;
        Some((q.get(o..o + n)?, v.get(o..o + n)?))
    }

    /// Adds the tree's generalized force to `f`: the joint forces `tau` less `b(q_T, v_T)` with
    /// the link nodes' forces
    /// `g` (`[f (N, world); tau (N m, link frame, about the link origin)]`) as applied wrenches
    /// (RNEA at zero acceleration; module docs of the system's tree). `states` are the node
    /// states at `q`, `v` (the links' orientations).
    pub(super) fn tree_force(
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
    pub(super) fn tree_force_jacobian<const S: usize>(
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

    /// The tree's kinematics at `q`, `v` for the markers on its links (`None` without a tree
    /// or without constraints): poses, velocities, accelerations at zero joint accelerations,
    /// world motion columns.
    pub(super) fn tree_kinematics(
        &self,
        q: &[T],
        v: &[T],
    ) -> Option<core::cell::Ref<'a, TreeData<T, J, J>>> {
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
    pub(super) fn tree_marker<'d>(
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
}
