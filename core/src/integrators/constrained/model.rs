//! [`ConstrainedModel`]: what a mechanical system with constraints gives the schemes that step it.

use super::block::Block;
use crate::{Real, Result};

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
