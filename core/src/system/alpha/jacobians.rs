//! The applied forces' Jacobians `dQ/dq`, `dQ/dq_t`: loads and velocity forces analytic,
//! connectors by forward differences.

use super::entries::{add_e_columns, euler_parameter_force, vec3, vec4};
use super::layout::coordinates_of;
use super::model::SystemModel;
use crate::bodies::euler_parameters::{self as ep, EP_COORDINATES};
use crate::bodies::lie_group::{self as lg};
use crate::integrators::constrained::Block;
use crate::system::body_states::BodyStates;
use crate::system::connector::Connector;
use crate::system::index::{ConnectorIndex, ItemRef};
use crate::system::load::Load;
use crate::system::node::{Node, NodeState};
use crate::system::node_force::NodeForce;
use crate::system::object::Object;
use crate::{Error, Real, Result};
use nalgebra::Vector2;

impl<T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'_, T, N, K, J> {
    /// `a dQ/dq + b dQ/dq_t` added to `out` (module docs).
    #[inline(never)]
    pub(super) fn add_force_jacobians<const S: usize>(
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
        if b != T::zero() && self.layout.lie_group {
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
    pub(super) fn add_applied_force_jacobians<const S: usize>(
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

    /// The generalized forces of connector `k` at both its ends in `view`.
    pub(super) fn connector_ends(
        &self,
        c: &Connector<T>,
        k: usize,
        view: &BodyStates<'_, T>,
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
    pub(super) fn connector_jacobian<const S: usize>(
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
                    coordinates_of(nd, self.layout.lie_group)
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
                        if let (Node::RigidBody(_), false) = (nd, self.layout.lie_group) {
                            let f1 = euler_parameter_force(g1, &qp[..n], row0)?;
                            let f0 = euler_parameter_force(g0, q, row0)?;
                            for r in 0..EP_COORDINATES {
                                out.add(row0 + r, col0 + i, scale * (f1[r] - f0[r]) / dx);
                            }
                            continue;
                        }
                        for r in 0..coordinates_of(nd, self.layout.lie_group) {
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
    pub(super) fn load_point(&self, l: &Load<T>) -> Option<Vector2<T>> {
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
