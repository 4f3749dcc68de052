//! Closed loops on a [`KinematicTree`]: a point of one link held on a point of another link (or
//! of the world) along chosen world axes, as RBDL's constraint sets close loops in joint
//! coordinates. A four-bar is a three-link chain whose last link's tip is held on a ground
//! pivot.
//!
//! With the loop rows `C(q) = 0` (`r` of them) and their Jacobian `J = C_q` (world point
//! Jacobians, `r x nv`), the accelerations solve
//!
//! ```text
//! [M  J^T] [q_tt  ]   [tau - b      ]
//! [J   0 ] [-lambda] = [-(J_t v)     ]
//! ```
//!
//! by the range-space method: `q_tt0 = M^-1 (tau - b)` (ABA), `Y = M^-1 J^T` (the tree-sparse
//! `L^T D L` of CRBA), `(J Y) lambda = -(J q_tt0 + J_t v)`, `q_tt = q_tt0 + Y lambda`. `lambda`
//! is the force (N) the loop transmits, on link `a`, in world coordinates. The index-1 form
//! drifts, so the steps end by projecting `q` onto `C = 0` (Newton, mass-weighted least
//! change) and `v` onto `J v = 0` (Featherstone, section 8.3).

// `!(x <= tol)` is meant: NaN must fail these checks.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

use super::data::TreeData;
use super::model::KinematicTree;
use super::spatial::Motion;
use super::step::{StepModel, TreeStepReport, TreeStepSettings};
use crate::math::dense::solve_symmetric_in_place;
use crate::{Error, Param, Real, Result};
use nalgebra::Vector3;

/// A point of link `a` held on a point of link `b` (or a world point) along the world axes
/// whose flags are set: `p_a(q) - p_b(q) = 0` in those components (world coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopClosure<T> {
    /// The first link.
    pub link_a: usize,
    /// The point on it (m, link coordinates).
    pub point_a: Vector3<T>,
    /// The second link, or `None` for the world.
    pub link_b: Option<usize>,
    /// The point on it (m, link coordinates; world coordinates for `None`).
    pub point_b: Vector3<T>,
    /// The world axes `x`, `y`, `z` along which the points coincide (a planar loop in the
    /// x-y plane holds `x` and `y`: the third row would be redundant).
    pub axes: [bool; 3],
}

/// The work of the loop algorithms for at most `R` loop rows on a tree of `D` coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopWork<T, const D: usize, const R: usize> {
    /// `J`, one row per loop row.
    j: [[T; D]; R],
    /// `Y = M^-1 J^T`, stored by rows (`y[k]` = column `k`).
    y: [[T; D]; R],
    /// `C(q)`.
    c: [T; R],
    /// The loop forces of the last constrained accelerations (N, world, on link `a`).
    lambda: [T; R],
    /// Rows in use.
    rows: usize,
    /// The last position projection's Newton iterations.
    iterations: u32,
    /// Zero: fills the struct's tail, so that a copy of the work (the C API's tree storage)
    /// has every byte defined.
    _fill: u32,
}

impl<T: Real, const D: usize, const R: usize> LoopWork<T, D, R> {
    /// Zeroed work.
    pub fn new() -> Self {
        Self {
            j: [[T::zero(); D]; R],
            y: [[T::zero(); D]; R],
            c: [T::zero(); R],
            lambda: [T::zero(); R],
            rows: 0,
            iterations: 0,
            _fill: 0,
        }
    }

    /// The loop forces (N, world coordinates, the force on link `a`) of the last
    /// [`KinematicTree::loop_accelerations`] or step that succeeded, one per loop row, in the
    /// order of the loops and their axes.
    pub fn forces(&self) -> &[T] {
        &self.lambda[..self.rows]
    }

    /// The residual `C(q)` (m) of the last evaluation, one per loop row.
    pub fn residual(&self) -> &[T] {
        &self.c[..self.rows]
    }

    /// The Newton iterations of the last position projection.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// Runs `f` on this work; if it fails, what the work reports (forces, their rows, the
    /// iterations) is put back as it was: a refused call leaves the last success's.
    fn keep_on_error<X>(&mut self, f: impl FnOnce(&mut Self) -> Result<X>) -> Result<X> {
        let kept = (self.lambda, self.rows, self.iterations);
        let r = f(self);
        if r.is_err() {
            (self.lambda, self.rows, self.iterations) = kept;
        }
        r
    }
}

impl<T: Real, const D: usize, const R: usize> Default for LoopWork<T, D, R> {
    fn default() -> Self {
        Self::new()
    }
}

/// How the steps of a closed tree hold the loops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopSettings<T> {
    /// The largest loop residual (m) a projection leaves. Default `1e-10` (f64), `1e-5` (f32).
    pub tolerance: T,
    /// Newton iterations of a position projection before `NewtonNotConverged`. Default 8.
    pub max_iterations: u32,
}

impl<T: Real> Default for LoopSettings<T> {
    fn default() -> Self {
        Self {
            tolerance: T::c(1e-10).max(T::EPS * T::c(100.0)),
            max_iterations: 8,
        }
    }
}

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// Checks loops for this tree and returns their rows: known links (`UnknownIndex`), finite
    /// points (`NotFinite(LocalPosition)`), at least one axis each (`OutOfRange(Coordinate)`) and
    /// at most `R` rows in all (`CapacityFull`).
    pub fn check_loops<const R: usize>(&self, loops: &[LoopClosure<T>]) -> Result<usize> {
        let mut rows = 0;
        for l in loops {
            let known = |i: usize| i < self.links.len();
            if !known(l.link_a) || l.link_b.is_some_and(|b| !known(b)) {
                return Err(Error::UnknownIndex);
            }
            crate::error::finite_all(&l.point_a, Param::LocalPosition)?;
            crate::error::finite_all(&l.point_b, Param::LocalPosition)?;
            let n = l.axes.iter().filter(|a| **a).count();
            if n == 0 {
                return Err(Error::OutOfRange(Param::Coordinate));
            }
            rows += n;
        }
        if rows > R {
            return Err(Error::CapacityFull);
        }
        Ok(rows)
    }

    /// `C(q)` and `J` at the poses of the last forward kinematics, into `w`.
    fn loop_rows<const R: usize>(
        &self,
        data: &TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        w: &mut LoopWork<T, D, R>,
    ) {
        let n = self.nv;
        let mut row = 0;
        // 6 x nv point Jacobians, row-major in the first 6 nv entries.
        let mut ja_rows = [[T::zero(); D]; 6];
        let mut jb_rows = [[T::zero(); D]; 6];
        let ja = ja_rows.as_flattened_mut();
        let jb = jb_rows.as_flattened_mut();
        for l in loops {
            let pa = data.work.x_world[l.link_a].point_to_parent(&l.point_a);
            let pb = match l.link_b {
                Some(b) => data.work.x_world[b].point_to_parent(&l.point_b),
                None => l.point_b,
            };
            // Known links and 6 nv entries: cannot fail.
            let _ = self.point_jacobian(data, l.link_a, &l.point_a, &mut ja[..6 * n]);
            match l.link_b {
                Some(b) => {
                    let _ = self.point_jacobian(data, b, &l.point_b, &mut jb[..6 * n]);
                }
                None => jb[..6 * n].iter_mut().for_each(|x| *x = T::zero()),
            }
            for (axis, on) in l.axes.iter().enumerate() {
                if !on {
                    continue;
                }
                w.c[row] = pa[axis] - pb[axis];
                for k in 0..n {
                    w.j[row][k] = ja[(3 + axis) * n + k] - jb[(3 + axis) * n + k];
                }
                row += 1;
            }
        }
        w.rows = row;
    }

    /// `J_t v`: the loop points' relative acceleration at `q_tt = 0` without gravity (the
    /// velocity-product part), from the velocities of the last forward kinematics.
    fn loop_bias<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        v: &[T],
        out: &mut [T; R],
    ) {
        // Link accelerations at q_tt = 0, no gravity: a_i = X a_p + v_i x (S v_i).
        let wk = &mut data.work;
        for (i, l) in self.links.iter().enumerate() {
            let ap = match l.parent {
                Some(p) => wk.a[p],
                None => Motion::zero(),
            };
            let vj = l.joint.motion(&v[l.v_index..]);
            wk.a[i] = wk.x_up[i].motion_to_child(&ap) + wk.v[i].cross(&vj);
        }
        // The classical acceleration of a point p: a_o + alpha x p + w x (v_o + w x p).
        let point_acc = |link: usize, p: &Vector3<T>| {
            let (a, vl) = (wk.a[link], wk.v[link]);
            let acc = a.linear
                + a.angular.cross(p)
                + vl.angular.cross(&(vl.linear + vl.angular.cross(p)));
            wk.x_world[link].rotation * acc
        };
        let mut row = 0;
        for l in loops {
            let aa = point_acc(l.link_a, &l.point_a);
            let ab = match l.link_b {
                Some(b) => point_acc(b, &l.point_b),
                None => Vector3::zeros(),
            };
            for (axis, on) in l.axes.iter().enumerate() {
                if *on {
                    out[row] = aa[axis] - ab[axis];
                    row += 1;
                }
            }
        }
    }

    /// The mass matrix at the poses in `data` (of the sweep that gave the rows in `w`; plus
    /// `h_damping` times the joint damping on its diagonal, the matrix of the implicit damping)
    /// factored, `Y = M^-1 J^T` and the upper triangle of `S = J Y` for those rows;
    /// `SingularMatrix` if `M` is (the loop matrix's singularity shows in the solve).
    fn loop_schur<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        w: &mut LoopWork<T, D, R>,
        h_damping: T,
    ) -> Result<[[T; R]; R]> {
        self.crba_from_poses(data);
        for l in self.links.iter() {
            for k in 0..l.joint.nv() {
                data.mass_matrix[l.v_index + k][l.v_index + k] += h_damping * l.spring.damping;
            }
        }
        data.has_mass_matrix = true;
        self.factor_mass_matrix(data)?;
        let n = self.nv;
        for k in 0..w.rows {
            let mut col = w.j[k];
            self.solve_mass_matrix(data, &mut col[..n])?;
            w.y[k] = col;
        }
        // S = J M^-1 J^T is symmetric (positive definite for independent rows): its upper
        // triangle, for `solve_symmetric_in_place`.
        let mut s = [[T::zero(); R]; R];
        for a in 0..w.rows {
            for b in a..w.rows {
                let mut e = T::zero();
                for k in 0..n {
                    e += w.j[a][k] * w.y[b][k];
                }
                s[a][b] = e;
            }
        }
        Ok(s)
    }

    /// The accelerations `q_tt` of the tree with its loops closed (the module's range-space
    /// solve) at `q`, `v` under `tau`, and the loop forces in `w` ([`LoopWork::forces`]).
    /// `h_damping` as in [`Self::aba`]'s implicit form (zero: plain dynamics).
    ///
    /// Errors (`q_tt` unchanged): those of [`Self::aba`], of the loops' check, and
    /// `SingularMatrix` for redundant or contradictory loop rows.
    #[allow(clippy::too_many_arguments)]
    pub fn loop_accelerations<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        w: &mut LoopWork<T, D, R>,
        q: &[T],
        v: &[T],
        tau: &[T],
        q_tt: &mut [T],
    ) -> Result<()> {
        self.check_forward(q, v, tau, q_tt)?;
        self.check_loops::<R>(loops)?;
        let mut out = [T::zero(); D];
        let n = self.nv;
        w.keep_on_error(|w| {
            self.loop_accelerations_core(data, loops, w, q, v, tau, T::zero(), &mut out[..n])
        })?;
        q_tt.copy_from_slice(&out[..self.nv]);
        Ok(())
    }

    /// [`Self::loop_accelerations`] on checked inputs.
    #[allow(clippy::too_many_arguments)]
    fn loop_accelerations_core<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        w: &mut LoopWork<T, D, R>,
        q: &[T],
        v: &[T],
        tau: &[T],
        h_damping: T,
        q_tt: &mut [T],
    ) -> Result<()> {
        let n = self.nv;
        self.aba_core(&mut data.work, q, v, tau, h_damping, q_tt);
        self.sweep(&mut data.work, q, Some(v));
        self.loop_rows(data, loops, w);
        let mut s = self.loop_schur(data, w, h_damping)?;
        let mut rhs = [T::zero(); R];
        self.loop_bias(data, loops, v, &mut rhs);
        for a in 0..w.rows {
            let mut jq = T::zero();
            for k in 0..n {
                jq += w.j[a][k] * q_tt[k];
            }
            rhs[a] = -(rhs[a] + jq);
        }
        solve_symmetric_in_place(&mut s, &mut rhs, w.rows).ok_or(Error::SingularMatrix)?;
        for k in 0..n {
            for a in 0..w.rows {
                q_tt[k] += w.y[a][k] * rhs[a];
            }
        }
        w.lambda = rhs;
        Ok(())
    }

    /// Projects `q` onto `C(q) = 0` (Newton: `dq = -Y (J Y)^-1 C`, the least change in the
    /// metric of `M`, until `|C| <= tolerance`) and then `v` onto `J v = 0`
    /// (`dv = -Y (J Y)^-1 J v`). Returns the Newton iterations.
    ///
    /// Errors (`q`, `v` unchanged): those of a state check and of the loops' check;
    /// `SingularMatrix`; `NewtonNotConverged` after `max_iterations`; `NonFiniteState` if a
    /// residual, `J v` or the result overflows.
    pub fn project_loops<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        w: &mut LoopWork<T, D, R>,
        q: &mut [T],
        v: &mut [T],
        settings: &LoopSettings<T>,
    ) -> Result<u32> {
        self.check_state(q, Some(v))?;
        self.check_loops::<R>(loops)?;
        let (mut qs, mut vs) = ([T::zero(); D], [T::zero(); D]);
        qs[..self.nq].copy_from_slice(q);
        vs[..self.nv].copy_from_slice(v);
        let (nq, nv) = (self.nq, self.nv);
        let it = w.keep_on_error(|w| {
            self.project_core(data, loops, w, &mut qs[..nq], &mut vs[..nv], settings)
        })?;
        q.copy_from_slice(&qs[..self.nq]);
        v.copy_from_slice(&vs[..self.nv]);
        Ok(it)
    }

    fn project_core<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        w: &mut LoopWork<T, D, R>,
        q: &mut [T],
        v: &mut [T],
        settings: &LoopSettings<T>,
    ) -> Result<u32> {
        let n = self.nv;
        let mut it = 0;
        loop {
            self.sweep(&mut data.work, q, None);
            self.loop_rows(data, loops, w);
            let worst = w.c[..w.rows]
                .iter()
                .fold(T::zero(), |m, x| m.max(x.abs_l()));
            if !worst.finite() {
                return Err(Error::NonFiniteState);
            }
            if worst <= settings.tolerance {
                break;
            }
            if it >= settings.max_iterations {
                return Err(Error::NewtonNotConverged);
            }
            it += 1;
            let mut s = self.loop_schur(data, w, T::zero())?;
            let mut x = w.c;
            solve_symmetric_in_place(&mut s, &mut x, w.rows).ok_or(Error::SingularMatrix)?;
            let mut dq = [T::zero(); D];
            for k in 0..n {
                for a in 0..w.rows {
                    dq[k] -= w.y[a][k] * x[a];
                }
            }
            for l in self.links.iter() {
                l.joint
                    .integrate(&mut q[l.q_index..], &dq[l.v_index..], T::one());
            }
        }
        // Velocities: J and Y at the projected q (the last evaluation's rows are current).
        let mut s = self.loop_schur(data, w, T::zero())?;
        let mut jv = [T::zero(); R];
        for a in 0..w.rows {
            for k in 0..n {
                jv[a] += w.j[a][k] * v[k];
            }
        }
        // A velocity too large for the arithmetic is not a singular set of loops.
        if !jv[..w.rows].iter().all(|x| x.finite()) {
            return Err(Error::NonFiniteState);
        }
        solve_symmetric_in_place(&mut s, &mut jv, w.rows).ok_or(Error::SingularMatrix)?;
        for k in 0..n {
            for a in 0..w.rows {
                v[k] -= w.y[a][k] * jv[a];
            }
        }
        if !v.iter().all(|x| x.finite()) {
            return Err(Error::NonFiniteState);
        }
        w.iterations = it;
        Ok(it)
    }

    /// One step of the tree with its loops closed: the scheme of `settings` on the
    /// constrained accelerations ([`Self::loop_accelerations`]; semi-implicit Euler with the
    /// damping linearly implicit, or RK4), each (sub-)step followed by [`Self::project_loops`].
    /// The rotation guard and its sub-steps as in [`Self::step`].
    ///
    /// Errors (`q`, `v` unchanged): those of [`Self::step`], of the loops, `OutOfRange(Setting)`
    /// for a tolerance that is not positive, `SingularMatrix`, `NewtonNotConverged`.
    #[allow(clippy::too_many_arguments)]
    pub fn step_closed<const R: usize>(
        &self,
        data: &mut TreeData<T, L, D>,
        loops: &[LoopClosure<T>],
        work: &mut LoopWork<T, D, R>,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
        settings: &TreeStepSettings<T>,
        loop_settings: &LoopSettings<T>,
    ) -> Result<TreeStepReport> {
        self.check_loops::<R>(loops)?;
        if !(loop_settings.tolerance > T::zero()) {
            return Err(Error::OutOfRange(Param::Setting));
        }
        // A step that fails part way (after a stage's accelerations, say) leaves the loop
        // forces of the last complete one.
        work.keep_on_error(|work| {
            let mut model = Closed {
                loops,
                work,
                settings: loop_settings,
            };
            self.step_with(data, q, v, tau, h, settings, &mut model)
        })
    }
}

/// A tree with closed loops for the step driver: the constrained accelerations, and the
/// projection after each (sub-)step.
struct Closed<'a, T, const D: usize, const R: usize> {
    loops: &'a [LoopClosure<T>],
    work: &'a mut LoopWork<T, D, R>,
    settings: &'a LoopSettings<T>,
}

impl<T: Real, const L: usize, const D: usize, const R: usize> StepModel<T, L, D>
    for Closed<'_, T, D, R>
{
    fn accelerations(
        &mut self,
        tree: &KinematicTree<T, L, D>,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        tau: &[T],
        h_damping: T,
        q_tt: &mut [T],
    ) -> Result<()> {
        tree.loop_accelerations_core(data, self.loops, self.work, q, v, tau, h_damping, q_tt)
    }

    fn after_step(
        &mut self,
        tree: &KinematicTree<T, L, D>,
        data: &mut TreeData<T, L, D>,
        q: &mut [T],
        v: &mut [T],
    ) -> Result<()> {
        tree.project_core(data, self.loops, self.work, q, v, self.settings)
            .map(|_| ())
    }
}
