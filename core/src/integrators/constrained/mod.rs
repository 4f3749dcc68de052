//! Mechanical systems in redundant coordinates with position constraints, an index-3
//! differential-algebraic system as Exudyn builds it:
//!
//! ```text
//! M(q) q_tt + C_q(q)^T lambda = f(t, q, q_t),     C(q) = 0
//! ```
//!
//! `n` coordinates `q`, `m` constraint equations `C` (m or rad), multipliers `lambda` (the
//! constraint forces are `-C_q^T lambda` in the units of `f`). The sizes are known at run time
//! (when a system is assembled), the capacity `S >= n + m` when it is compiled: every matrix
//! is the leading block of a `[[T; S]; S]` array in a [`Workspace`] the caller owns.
//!
//! A model implements [`ConstrainedModel`]; [`generalized_alpha`] steps it.

pub mod generalized_alpha;

pub use generalized_alpha::{Assembly, ConstrainedAlpha, ConstrainedReport, Formulation};

use crate::target::IN_ORDER;
use crate::{Real, Result};

/// A block of a fixed-capacity matrix that a model adds its entries to: rows `row..row + rows`
/// and columns `col..col + cols` of the array; writes outside the block are ignored.
pub struct Block<'a, T, const S: usize> {
    a: &'a mut [[T; S]; S],
    row: usize,
    col: usize,
    rows: usize,
    cols: usize,
}

impl<'a, T: Real, const S: usize> Block<'a, T, S> {
    /// The block of `a` at (`row`, `col`) of size `rows x cols`.
    pub fn new(a: &'a mut [[T; S]; S], row: usize, col: usize, rows: usize, cols: usize) -> Self {
        Self {
            a,
            row,
            col,
            rows,
            cols,
        }
    }

    /// Adds `v` to entry (`i`, `j`) of the block.
    #[inline]
    pub fn add(&mut self, i: usize, j: usize, v: T) {
        if i < self.rows && j < self.cols {
            if let Some(x) = self
                .a
                .get_mut(self.row + i)
                .and_then(|r| r.get_mut(self.col + j))
            {
                *x += v;
            }
        }
    }

    /// Adds `v` to the `count` diagonal entries from `(i, i)` on (bounds-checked once; entries
    /// outside the block are ignored, as [`Self::add`] ignores them).
    pub fn add_diagonal(&mut self, i: usize, count: usize, v: T) {
        let (r0, c0) = (self.row + i, self.col + i);
        let inside = i + count <= self.rows && i + count <= self.cols && c0 + count <= S;
        match self.a.get_mut(r0..r0 + count) {
            Some(rows) if inside => {
                for (k, row) in rows.iter_mut().enumerate() {
                    row[c0 + k] += v;
                }
            }
            _ => {
                for k in 0..count {
                    self.add(i + k, i + k, v);
                }
            }
        }
    }

    /// Adds `a d` to the entries at rows `i..i + R`, columns `j..j + C` of the block (a dense
    /// sub-block, bounds-checked once a row instead of once an entry; entries outside the block
    /// are ignored, as [`Self::add`] ignores them).
    pub fn add_scaled<const R: usize, const C: usize>(
        &mut self,
        i: usize,
        j: usize,
        d: &nalgebra::SMatrix<T, R, C>,
        a: T,
    ) {
        let inside = i + R <= self.rows && j + C <= self.cols;
        let (r0, c0) = (self.row + i, self.col + j);
        match self.a.get_mut(r0..r0 + R) {
            Some(rows) if inside && c0 + C <= S => {
                for (r, row) in rows.iter_mut().enumerate() {
                    for (c, x) in row[c0..c0 + C].iter_mut().enumerate() {
                        *x += a * d[(r, c)];
                    }
                }
            }
            _ => {
                for r in 0..R {
                    for c in 0..C {
                        self.add(i + r, j + c, a * d[(r, c)]);
                    }
                }
            }
        }
    }

    /// The same block without its first `k` rows (row `i` of the result is row `k + i`).
    pub fn shifted(&mut self, k: usize) -> Block<'_, T, S> {
        Block {
            a: self.a,
            row: self.row + k,
            col: self.col,
            rows: self.rows.saturating_sub(k),
            cols: self.cols,
        }
    }

    /// The square block on this block's columns (rows and columns `col..col + cols`): for a
    /// block of constraint rows over the coordinates, the coordinates' own block, where
    /// `d(C_q^T lambda)/dq` goes.
    pub fn columns_block(&mut self) -> Block<'_, T, S> {
        Block {
            a: self.a,
            row: self.col,
            col: self.col,
            rows: self.cols,
            cols: self.cols,
        }
    }

    /// Number of rows of the block.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns of the block.
    pub fn cols(&self) -> usize {
        self.cols
    }
}

/// A mechanical system `M(q) q_tt + C_q^T lambda = f(t, q, q_t)`, `C(q) = 0` in `n`
/// coordinates with `m` constraint equations (module docs). Slices passed in hold `n`
/// coordinates (or `m` constraint values); blocks are `n x n` or `m x n`.
///
/// The Jacobians the Newton iteration needs are the model's where it has them; where a method
/// returns `None` (the default) the solver differentiates numerically (forward differences,
/// one extra evaluation per coordinate).
pub trait ConstrainedModel<T: Real> {
    /// Number of coordinates `n`.
    fn coordinates(&self) -> usize;

    /// Number of constraint equations `m`.
    fn constraints(&self) -> usize;

    /// Adds the mass matrix `M(q)` (`n x n`, symmetric positive semi-definite; positive
    /// definite on the constraints' null space) to `out`.
    fn mass<const S: usize>(&self, t: T, q: &[T], out: &mut Block<'_, T, S>) -> Result<()>;

    /// Adds `M(q)` to `out` and `M(q) x` (`n`) to `mx`, if the model takes the product with
    /// `M` (each body's block times its coordinates' entries of `x`, where the generic product
    /// is over whole rows). The default is `None`: [`Self::mass`], and the product by rows.
    fn mass_with_product<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _x: &[T],
        _out: &mut Block<'_, T, S>,
        _mx: &mut [T],
    ) -> Option<Result<()>> {
        None
    }

    /// Adds the applied force `f(t, q, q_t)` (`n`) to `f`.
    fn force(&self, t: T, q: &[T], v: &[T], f: &mut [T]) -> Result<()>;

    /// Adds `a df/dq + b df/dq_t` (`n x n`) to `out`, if the model has them.
    fn force_jacobians<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _v: &[T],
        _a: T,
        _b: T,
        _out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        None
    }

    /// Adds `a d(M(q) q_tt)/dq` (`n x n`, the accelerations `q_tt` held) to `out`, if the model
    /// has it (without it the Newton iteration converges linearly where `M` depends on `q`). A
    /// model whose force holds inertial terms `f_v(q, q_t)` (centrifugal, gyroscopic) may add
    /// their `-a df_v/dq` here, with `M`'s, instead of in [`Self::force_jacobians`].
    fn mass_jacobian<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _v: &[T],
        _q_tt: &[T],
        _a: T,
        _out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        None
    }

    /// Writes the constraint residual `C(q)` (`m`) to `c`.
    fn constraint(&self, t: T, q: &[T], c: &mut [T]) -> Result<()>;

    /// Adds the constraint Jacobian `C_q(q)` (`m x n`) to `out`.
    fn constraint_jacobian<const S: usize>(
        &self,
        t: T,
        q: &[T],
        out: &mut Block<'_, T, S>,
    ) -> Result<()>;

    /// Writes `C(q)` (`m`) to `c` and adds `C_q(q)` (`m x n`) to `out`: what every Newton
    /// evaluation needs of the constraints; a model that evaluates both in one pass (its markers
    /// once) overrides it. Default: [`Self::constraint_jacobian`], then [`Self::constraint`].
    fn constraint_with_jacobian<const S: usize>(
        &self,
        t: T,
        q: &[T],
        c: &mut [T],
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        self.constraint_jacobian(t, q, out)?;
        self.constraint(t, q, c)
    }

    /// Writes `C(q)` (`m`) to `c`, adds `C_q(q)` (`m x n`) to `out` and
    /// `a d(C_q(q)^T lambda)/dq` (`n x n`) to [`Block::columns_block`] of `out`, in one pass
    /// (each constraint's markers evaluated once for all three), if the model evaluates them
    /// so; it must add what [`Self::constraint_force_jacobian`] adds, in the same order. The
    /// solver asks for it on a step's first evaluation, which an update nearly always follows.
    /// `None` (the default): the solver calls [`Self::constraint_with_jacobian`] and, before
    /// an update, [`Self::constraint_force_jacobian`].
    #[allow(clippy::too_many_arguments)]
    fn constraint_with_jacobian_and_hessian<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _lambda: &[T],
        _a: T,
        _c: &mut [T],
        _out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        None
    }

    /// Adds `a d(C_q(q)^T lambda)/dq` (`n x n`) to `out`, if the model has it.
    fn constraint_force_jacobian<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _lambda: &[T],
        _a: T,
        _out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        None
    }

    /// Adds `a (C_q(q) q_t)_q` (`m x n`, `q_t` held), the position Jacobian of the velocity
    /// constraints `C_q q_t` of the stabilized index 2, to `out`, if the model has it (rows it
    /// leaves out make the iteration converge linearly at the rate of the term).
    fn constraint_velocity_jacobian<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _v: &[T],
        _a: T,
        _out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        None
    }

    /// Writes `(C_q(q) q_t)_q q_t` (`m`), the velocity-dependent part of the constraints'
    /// second time derivative `C_tt = C_q q_tt + (C_q q_t)_q q_t`, to `out`, if the model has it.
    fn constraint_velocity_term(
        &self,
        _t: T,
        _q: &[T],
        _v: &[T],
        _out: &mut [T],
    ) -> Option<Result<()>> {
        None
    }

    /// Whether the model's `C_q` is taken in other directions than its coordinates' (a
    /// Lie group's left-trivialized ones), so that the Newton matrix's constraint rows need
    /// [`Self::constraint_rows_to_coordinates`]; `false` (the default): `C_q = dC/dq`.
    fn maps_constraint_rows(&self) -> bool {
        false
    }

    /// Maps the constraint rows `rows` of the Newton matrix `jac` (their coordinates' columns
    /// from `col`) from the directions the model's `C_q` is taken in to those of its
    /// coordinates `q` (where [`Self::maps_constraint_rows`]; the default changes nothing).
    fn constraint_rows_to_coordinates<const S: usize>(
        &self,
        _q: &[T],
        _jac: &mut [[T; S]; S],
        _rows: core::ops::Range<usize>,
        _col: usize,
    ) {
    }

    /// For coordinates taken in a chart centred at a step's start (a Lie group's rotations):
    /// moves the chart's centre to `q` and writes `q` in the moved chart, so that the next
    /// part of a halved step starts, as a whole step does, at the centre. The default (a
    /// vector space, one chart) changes nothing.
    fn recentre(&self, _q: &mut [T]) {}
}

/// The state of a constrained system at one instant: coordinates, velocities, accelerations,
/// the scheme's algorithmic accelerations and the multipliers. The first `n` (or `m`) entries
/// of each array are used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedState<T, const S: usize> {
    /// Time (s).
    pub t: T,
    /// Coordinates `q`.
    pub q: [T; S],
    /// Velocities `q_t`.
    pub v: [T; S],
    /// Accelerations `q_tt`.
    pub acc: [T; S],
    /// Algorithmic accelerations `a` of the generalized-alpha scheme.
    pub alg: [T; S],
    /// Lagrange multipliers `lambda` (`m`).
    pub lambda: [T; S],
}

/// The working memory of a constrained step: the Newton matrix, its right-hand side and
/// scratch space, all of capacity `S` (owned by the caller: a system keeps it in its storage,
/// not on the stack).
#[derive(Clone, Copy, Debug)]
pub struct Workspace<T, const S: usize> {
    pub(crate) jac: [[T; S]; S],
    pub(crate) scratch: [[T; S]; S],
    pub(crate) rhs: [T; S],
    pub(crate) f: [T; S],
    pub(crate) f2: [T; S],
    pub(crate) c: [T; S],
    pub(crate) q: [T; S],
    pub(crate) v: [T; S],
    pub(crate) a_base: [T; S],
    pub(crate) q_base: [T; S],
    pub(crate) v_base: [T; S],
    pub(crate) x: [T; S],
    pub(crate) alg: [T; S],
    pub(crate) lambda: [T; S],
    pub(crate) mu: [T; S],
    /// The size of the leading block of `scratch` written since the last [`Self::clear`]
    /// (most steps use none of it).
    pub(crate) scratch_used: usize,
    /// The number of leading unknowns (of `jac`'s rows and columns and of each vector)
    /// written since the last [`Self::clear`]: the most a step or a start solved for.
    pub(crate) used: usize,
    /// `jac`'s leading block is zero again: the last thing written to it was a solve that
    /// zeroes what it reads (set by a step that ends on such a solve, taken by [`Self::clear`]).
    pub(crate) jac_zero: bool,
}

impl<T: Real, const S: usize> Workspace<T, S> {
    /// `scratch`, for a use of its leading `k x k` block (recorded for [`Self::clear`]).
    pub(crate) fn scratch(&mut self, k: usize) -> &mut [[T; S]; S] {
        self.scratch_used = self.scratch_used.max(k);
        &mut self.scratch
    }

    /// Records that a step or start of `k` unknowns writes this workspace.
    pub(crate) fn uses(&mut self, k: usize) {
        self.used = self.used.max(k);
    }

    /// Zeroes what the steps and starts since the last clear wrote: the Newton matrix's
    /// leading block, the scratch matrix's block and the vectors' leading entries, of the
    /// sizes they recorded. Between steps the workspace then holds zeros, whatever the last
    /// step did, so that a refused step leaves its owner's memory byte for byte as it was.
    pub fn clear(&mut self) {
        let size = core::mem::take(&mut self.used).min(S);
        if !core::mem::take(&mut self.jac_zero) {
            zero_block(&mut self.jac, size);
        }
        zero_block(&mut self.scratch, core::mem::take(&mut self.scratch_used));
        let mut vectors = [
            &mut self.rhs,
            &mut self.f,
            &mut self.f2,
            &mut self.c,
            &mut self.q,
            &mut self.v,
            &mut self.a_base,
            &mut self.q_base,
            &mut self.v_base,
            &mut self.x,
            &mut self.alg,
            &mut self.lambda,
            &mut self.mu,
        ];
        if IN_ORDER {
            // One pass over the entries: a call of `memset` per vector costs more in order.
            for i in 0..size {
                for v in vectors.iter_mut() {
                    v[i] = T::zero();
                }
            }
        } else {
            for v in vectors {
                zero_leading(v, size);
            }
        }
    }
}

impl<T: Real, const S: usize> Default for Workspace<T, S> {
    fn default() -> Self {
        let z = [T::zero(); S];
        Self {
            jac: [z; S],
            scratch: [z; S],
            rhs: z,
            f: z,
            f2: z,
            c: z,
            q: z,
            v: z,
            a_base: z,
            q_base: z,
            v_base: z,
            x: z,
            alg: z,
            lambda: z,
            mu: z,
            scratch_used: 0,
            used: 0,
            jac_zero: false,
        }
    }
}

/// Zeroes the first `n` entries of `v`, whose others are zero. On a host the whole vector
/// when `n` is at least half of it: of a size known at compile time, it is written in a few
/// wide stores in line, where a fill of `n` entries is a `memset` call.
#[inline(always)]
pub(crate) fn zero_leading<T: Real, const S: usize>(v: &mut [T; S], n: usize) {
    if !IN_ORDER && 2 * n >= S {
        *v = [T::zero(); S];
    } else {
        v[..n.min(S)].fill(T::zero());
    }
}

/// Zeroes the leading `k x k` block: where it spans most of each row, the whole first `k`
/// rows in one fill (a fill per short row costs more in calls than in stores).
pub(crate) fn zero_block<T: Real, const S: usize>(a: &mut [[T; S]; S], k: usize) {
    let k = k.min(S);
    if 2 * k >= S {
        a[..k].as_flattened_mut().fill(T::zero());
    } else {
        for row in a[..k].iter_mut() {
            row[..k].fill(T::zero());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::SMatrix;

    /// `add_scaled` adds what `add` adds entry by entry: inside the block, and where the
    /// sub-block reaches past the block's rows, its columns or the array (those entries
    /// ignored, the rest added).
    #[test]
    fn a_scaled_sub_block_adds_what_entry_by_entry_adds() {
        let d = SMatrix::<f64, 3, 2>::from_fn(|r, c| (1 + 2 * r + c) as f64);
        // (block row, col, rows, cols; sub-block at i, j)
        let cases = [
            (1, 1, 4, 4, 0, 1), // inside
            (1, 1, 4, 4, 2, 3), // past the block's rows and columns
            (3, 4, 3, 3, 1, 1), // past the array's rows and columns
        ];
        for (row, col, rows, cols, i, j) in cases {
            let mut a = [[0.5f64; 6]; 6];
            let mut b = a;
            Block::new(&mut a, row, col, rows, cols).add_scaled(i, j, &d, -2.0);
            let mut block = Block::new(&mut b, row, col, rows, cols);
            for r in 0..3 {
                for c in 0..2 {
                    block.add(i + r, j + c, -2.0 * d[(r, c)]);
                }
            }
            assert_eq!(a, b);
            assert_ne!(a, [[0.5f64; 6]; 6]);
        }
    }
}
