//! The joint-space mass matrix of a [`KinematicTree`]: the composite-rigid-body algorithm
//! (Featherstone, Table 6.2) in world coordinates at the world origin (composite inertias add
//! without transforms, an entry is the product of two world motion-subspace columns through one
//! composite inertia), and its tree-sparse `L^T D L` factorization and solves (Featherstone,
//! Tables 6.3 and 6.4), which keep the zeros a branched tree has.

// Index loops over matrix rows and columns read as the equations.
#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]

use super::data::TreeData;
use super::model::{KinematicTree, NONE};
use super::spatial::RigidInertia;
use crate::{Error, Param, Real, Result};

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// The mass matrix `M(q)` (kg m^2, kg m or kg by coordinate, symmetric positive definite)
    /// into `data` ([`TreeData::mass_matrix`]); [`Self::factor_mass_matrix`] factors it for
    /// [`Self::solve_mass_matrix`].
    ///
    /// World inertias `I_i`, composite inertias `I^c_p += I^c_i` from the leaves; then for each
    /// joint coordinate `F = I^c_i S_ik` and `M_ik,jl = S_jl . F` for every coordinate `jl` on the
    /// path to the base (all in world coordinates).
    /// Errors (`data` unchanged): those of a state check of `q`.
    pub fn crba(&self, data: &mut TreeData<T, L, D>, q: &[T]) -> Result<()> {
        self.check_state(q, None)?;
        self.crba_core(data, q);
        data.has_mass_matrix = true;
        data.has_factor = false;
        Ok(())
    }

    /// CRBA on a checked `q`.
    pub(crate) fn crba_core(&self, data: &mut TreeData<T, L, D>, q: &[T]) {
        self.sweep(&mut data.work, q, None);
        self.crba_from_poses(data);
    }

    /// CRBA at the world poses already in `data` (of a sweep at the wanted `q`).
    pub(crate) fn crba_from_poses(&self, data: &mut TreeData<T, L, D>) {
        let w = &mut data.work;
        self.world_columns(w);
        for (i, l) in self.links.iter().enumerate() {
            w.ic[i] = RigidInertia::from_placed_mass_properties(&l.mass_properties, &w.x_world[i]);
        }
        for (i, l) in self.links.iter().enumerate().rev() {
            if let Some(p) = l.parent {
                let child = w.ic[i];
                w.ic[p].add_assign(&child);
            }
        }
        let m = &mut data.mass_matrix;
        for r in 0..self.nv {
            for c in 0..self.nv {
                m[r][c] = T::zero();
            }
        }
        for (i, l) in self.links.iter().enumerate() {
            for k in 0..l.joint.nv() {
                let row = l.v_index + k;
                let f = w.ic[i].apply(&w.s[row]);
                // The coordinates on the path from this one to the base: `lambda`.
                m[row][row] = w.s[row].dot(&f);
                let mut c = self.lambda[row];
                while c != NONE {
                    let e = w.s[c].dot(&f);
                    m[row][c] = e;
                    m[c][row] = e;
                    c = self.lambda[c];
                }
            }
        }
    }

    /// Factorizes the mass matrix of the last [`Self::crba`] as `M = L^T D L` (Featherstone,
    /// Table 6.3), `L` unit lower triangular with the sparsity of the tree (an entry `(k, i)`
    /// only where `i` is on `k`'s path to the base), for [`Self::solve_mass_matrix`].
    /// Errors: `NotAssembled` without a mass matrix; `SingularMatrix` for a pivot that is not
    /// positive and finite (not for a tree of positive-definite links).
    pub fn factor_mass_matrix(&self, data: &mut TreeData<T, L, D>) -> Result<()> {
        if !data.has_mass_matrix {
            return Err(Error::NotAssembled);
        }
        data.has_factor = false;
        let h = &mut data.factor;
        for r in 0..self.nv {
            h[r][..self.nv].copy_from_slice(&data.mass_matrix[r][..self.nv]);
        }
        for k in (0..self.nv).rev() {
            let mut i = self.lambda[k];
            while i != NONE {
                let a = h[k][i] / h[k][k];
                let mut j = i;
                while j != NONE {
                    h[i][j] -= a * h[k][j];
                    j = self.lambda[j];
                }
                h[k][i] = a;
                i = self.lambda[i];
            }
        }
        for (k, row) in h.iter().enumerate().take(self.nv) {
            if !(row[k] > T::zero() && row[k].finite()) {
                return Err(Error::SingularMatrix);
            }
        }
        data.has_factor = true;
        Ok(())
    }

    /// Solves `M x = b` in place (`b` of length `nv` becomes `x`) with the factors of the last
    /// [`Self::factor_mass_matrix`]: `x = L^-1 D^-1 L^-T b` (Featherstone, Table 6.4).
    /// Errors (`b` unchanged): `NotAssembled` without factors of the current mass matrix,
    /// `OutOfRange(Coordinate)`, `NotFinite(Force)`.
    pub fn solve_mass_matrix(&self, data: &TreeData<T, L, D>, b: &mut [T]) -> Result<()> {
        if !data.has_factor {
            return Err(Error::NotAssembled);
        }
        if b.len() != self.nv {
            return Err(Error::OutOfRange(Param::Coordinate));
        }
        if !crate::finite::all_finite_slice(b) {
            return Err(Error::NotFinite(Param::Force));
        }
        let h = &data.factor;
        for i in (0..self.nv).rev() {
            let mut j = self.lambda[i];
            while j != NONE {
                b[j] -= h[i][j] * b[i];
                j = self.lambda[j];
            }
        }
        for (i, x) in b.iter_mut().enumerate() {
            *x /= h[i][i];
        }
        for i in 0..self.nv {
            let mut j = self.lambda[i];
            while j != NONE {
                b[i] -= h[i][j] * b[j];
                j = self.lambda[j];
            }
        }
        Ok(())
    }
}
