//! The system's model as the generalized-alpha scheme sees it: [`ConstrainedModel`] for
//! [`SystemModel`], each term from the file that computes it.

use crate::bodies::euler_parameters::{self as ep};
use crate::bodies::lie_group::{self as lg};
use crate::integrators::constrained::{Block, ConstrainedModel};

use super::entries::{add_at, vec3, vec4};
use super::model::SystemModel;
use crate::system::node::Node;
use crate::{Error, Real, Result};
use heapless::Vec;
use nalgebra::Vector3;
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
        if self.layout.lie_group {
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

    fn constraint_force_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        lambda: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        Some(self.force_hessians(q, lambda, a, out))
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
        self.layout.lie_group && self.layout.spatial > 0
    }

    /// On the Lie group: each 3D rigid node's start moved to its orientation at `q`
    /// ([`lg::step_orientation`], as a complete step's commit moves it) and its `theta` zeroed.
    fn recentre(&self, q: &mut [T]) {
        if !self.layout.lie_group {
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
        if !self.layout.lie_group {
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
        Some(self.velocity_terms(q, v, out))
    }
}
