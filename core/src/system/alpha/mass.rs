//! The system's mass matrix `M(q)` and the 3D bodies' `d(M q_tt - f_v)/dq`.

use super::entries::{add_e_columns, add_product, entries, vec3, vec4};
use super::model::SystemModel;
use crate::bodies::euler_parameters::{self as ep, EP_COORDINATES};
use crate::bodies::lie_group::{self as lg, LG_COORDINATES};
use crate::integrators::constrained::Block;
use crate::system::object::Object;
use crate::{Error, Real, Result};

impl<T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'_, T, N, K, J> {
    /// Adds `M(q)` to `out` (mass points `m E2`, 2D rigid bodies their 3x3 mass matrix at `q`,
    /// 3D bodies their 7x7 one, the tree's) and, with `product = Some((x, mx))`, each block
    /// times its coordinates' entries of `x` to `mx` (each row summed in column order, as a
    /// product over the whole row sums it).
    // Out of line: its temporaries are not in `evaluate`'s frame under the force evaluation.
    #[inline(never)]
    pub(super) fn add_mass<const S: usize>(
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
        if self.layout.lie_group {
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
    pub(super) fn add_mass_jacobian<const S: usize>(
        &self,
        q: &[T],
        v: &[T],
        q_tt: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        if self.layout.lie_group {
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
}
