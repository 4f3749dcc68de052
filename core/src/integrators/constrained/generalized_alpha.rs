//! The generalized-alpha scheme for constrained systems (index 3), as Exudyn's `SolveDynamic`
//! runs it: Chung & Hulbert's scheme in the form of Arnold & Brüls (2007, "Convergence of the
//! generalized-alpha scheme for constrained mechanical systems", Multibody Syst. Dyn. 18), with
//! Newton's method on the accelerations and the multipliers at the end of the step.
//!
//! One step `h` from `(q_n, v_n, q_tt_n, a_n)`, with `rho_inf` giving `alpha_m`, `alpha_f`,
//! `gamma`, `beta` as in [`GeneralizedAlpha`](crate::integrators::GeneralizedAlpha):
//!
//! ```text
//! (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) q_tt_{n+1} + alpha_f q_tt_n
//! q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}
//! v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}
//! r_1 = M(q_{n+1}) q_tt_{n+1} + C_q(q_{n+1})^T lambda_{n+1} - f(t_{n+1}, q_{n+1}, v_{n+1}) = 0
//! r_2 = C(q_{n+1}) / (h^2 beta) = 0
//! ```
//!
//! Newton's unknowns are `q_tt_{n+1}` and `lambda_{n+1}` (predictor: the values of step `n`);
//! its matrix, with `c = (1 - alpha_f)/(1 - alpha_m)`, `beta' = h^2 beta c`, `gamma' = h gamma c`:
//!
//! ```text
//! [ M + beta' (d(C_q^T lambda)/dq - df/dq) - gamma' df/dq_t    C_q^T ]
//! [ c C_q                                                      0     ]
//! ```
//!
//! The constraint rows are scaled by `1/(h^2 beta)` as Exudyn scales them, which keeps the
//! matrix's condition independent of `h` (an unscaled index-3 matrix grows like `1/h^2`), and
//! solved divided by `c` (rows `C_q`, right-hand side `-r_2 / c`: the rows are `C_q^T`'s
//! columns as evaluated, with no pass to scale them);
//! the derivative of `M(q) q_tt` is the model's where it has one (else left out: it changes
//! the convergence rate, not the solution).
//! The Newton matrix is built anew every iteration (quadratic convergence).
//!
//! `rho_inf < 1` damps the spurious oscillations of the multipliers that index 3 brings;
//! Exudyn's default is 0.9. The positions satisfy the constraints to the Newton tolerance at
//! every step: no drift.
//!
//! Real-time mode ([`ConstrainedAlpha::with_real_time_updates`]): a step makes at most `k`
//! Newton updates and takes the iterate after the `k`-th without evaluating it, so that its cost
//! is bounded by `k` evaluations, tangents and factorizations: what a control loop at a fixed
//! rate needs. The evaluations before each update still test convergence (a step whose
//! predictor or earlier iterate meets the tolerances stops there); what is given up is the
//! evaluation that only confirms the last update, and with it the `NewtonNotConverged`
//! refusal. Where the iteration converges within `k` updates, the committed state is the same
//! iterate as without the mode, bit for bit. Where it would need more, the step is taken less
//! converged; the next step solves `C(q_{n+1}) = 0` again from its predictor, so the
//! constraint residual left behind does not accumulate.

// Index loops read as the equations (row i, column j of a block).
#![allow(clippy::needless_range_loop)]

use super::block::{zero_block, zero_leading, Block};
use super::model::ConstrainedModel;
use super::state::{ConstrainedState, Workspace};
use crate::error::finite;
use crate::finite::all_finite_slices;
use crate::integrators::newton::NewtonSettings;
use crate::integrators::second_order::generalized_alpha::parameters_of;
use crate::math::dense::{
    solve_in_place, solve_in_place_and_clear, solve_symmetric_in_place_and_clear,
};
use crate::target::IN_ORDER;
use crate::{Error, Param, Real, Result};

/// How the constraints enter the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Formulation {
    /// Position constraints `C(q) = 0` (index 3), as Exudyn's default: needs `rho_inf < 1`
    /// (at `rho_inf = 1` the multipliers' error grows from step to step and with it the
    /// velocities).
    #[default]
    Index3,
    /// Gear, Gupta and Leimkuhler's stabilized index 2: the velocity constraints
    /// `C_q q_t = 0` through `lambda` and the position constraints `C(q) = 0` through a second
    /// multiplier `mu` that corrects the positions, `q_{n+1} = q^GA_{n+1} + C_q^T mu`. Both hold
    /// at every step, also at `rho_inf = 1` (no numerical damping): `m` more unknowns.
    StabilizedIndex2,
}

/// Number of Newton residuals a [`ConstrainedReport`] keeps.
pub const RESIDUAL_HISTORY: usize = 8;

/// The scheme: its parameters, Newton settings and step halving (no state).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedAlpha<T: Real> {
    rho_inf: T,
    alpha_m: T,
    alpha_f: T,
    gamma: T,
    beta: T,
    newton: NewtonSettings<T>,
    max_halvings: u32,
    formulation: Formulation,
    /// Real-time mode's updates per step (module docs); 0: off.
    real_time_updates: u32,
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedReport<T> {
    /// Newton updates (linear solves) of the last (sub-)step; 0 if the predictor already
    /// satisfied the equations.
    pub newton_iterations: u32,
    /// How often the step was halved (Exudyn's automatic step reduction); 0 normally.
    pub halvings: u32,
    /// `|r_1|` of the last evaluated iterate (units of the force): at convergence, or in
    /// real-time mode before the last update.
    pub force_residual: T,
    /// `|C(q)|` of the last evaluated iterate (m or rad), as `force_residual`.
    pub constraint_residual: T,
    /// The Newton residual `|[r_1; C]|` before each update and at convergence, of the last
    /// (sub-)step (first `history_len` entries). A real-time step that took its last update
    /// without evaluating it has one entry fewer: `history_len == newton_iterations` (while
    /// the history has room).
    pub residual_history: [T; RESIDUAL_HISTORY],
    /// Number of valid entries of `residual_history`.
    pub history_len: u32,
}

/// How [`ConstrainedAlpha::initial_state`] treats positions and velocities that do not satisfy
/// the constraints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assembly<T> {
    /// Largest accepted `|C(q_0)|` (m or rad); default `1e-8`.
    pub tolerance: T,
    /// Largest accepted `|C_q v_0|` relative to `1 + |v_0|`; default `1e-4`. Looser than the
    /// positions': an index-3 step keeps `C(q) = 0` to the Newton tolerance but `C_q q_t = 0`
    /// only to the scheme's accuracy, so a restart from a state of a run (a re-assembly, a
    /// reset of the accelerations) must accept that; a velocity that breaks a constraint
    /// grossly is still refused.
    pub velocity_tolerance: T,
    /// Project inconsistent positions and velocities onto the constraints (the smallest change
    /// that satisfies them, Exudyn's initial assembly) instead of refusing them; default `false`.
    pub solve: bool,
}

impl<T: Real> Default for Assembly<T> {
    fn default() -> Self {
        Self {
            tolerance: T::c(1e-8),
            velocity_tolerance: T::c(1e-4),
            solve: false,
        }
    }
}

fn norm<T: Real>(a: &[T]) -> T {
    norm_squared(a).sqrt_l()
}

/// `|a|^2`.
fn norm_squared<T: Real>(a: &[T]) -> T {
    a.iter().fold(T::zero(), |s, x| s + *x * *x)
}

impl<T: Real> ConstrainedAlpha<T> {
    /// The scheme with spectral radius at infinite frequency `rho_inf` (Exudyn's
    /// `spectralRadius`, default 0.9), default Newton settings and no step halving.
    /// `Err(NotFinite(Setting))` / `Err(OutOfRange(Setting))` unless `0 <= rho_inf <= 1`.
    pub fn new(rho_inf: T) -> Result<Self> {
        let (alpha_m, alpha_f, gamma, beta) = parameters_of(rho_inf)?;
        Ok(Self {
            rho_inf,
            alpha_m,
            alpha_f,
            gamma,
            beta,
            newton: NewtonSettings::default(),
            max_halvings: 0,
            formulation: Formulation::Index3,
            real_time_updates: 0,
        })
    }

    /// The same scheme with the constraints entering as `formulation`.
    pub fn with_formulation(mut self, formulation: Formulation) -> Self {
        self.formulation = formulation;
        self
    }

    /// The same scheme with other Newton settings (validated; `OutOfRange(Setting)` if
    /// `max_iterations` is below the real-time mode's updates).
    pub fn with_newton(mut self, newton: NewtonSettings<T>) -> Result<Self> {
        newton.validate()?;
        if newton.max_iterations < self.real_time_updates {
            return Err(Error::OutOfRange(Param::Setting));
        }
        self.newton = newton;
        Ok(self)
    }

    /// The same scheme in real-time mode with at most `k` Newton updates a step, the iterate
    /// after the `k`-th taken without evaluating it (module docs); `k = 0` turns the mode off.
    /// `OutOfRange(Setting)` if `k` exceeds the Newton settings' `max_iterations`.
    pub fn with_real_time_updates(mut self, k: u32) -> Result<Self> {
        if k > self.newton.max_iterations {
            return Err(Error::OutOfRange(Param::Setting));
        }
        self.real_time_updates = k;
        Ok(self)
    }

    /// The real-time mode's updates per step (0: off).
    pub fn real_time_updates(&self) -> u32 {
        self.real_time_updates
    }

    /// The same scheme halving a step whose Newton iteration fails, up to `levels` times
    /// (`h / 2^levels`, at most 16 levels; `OutOfRange(Setting)` above).
    pub fn with_step_halving(mut self, levels: u32) -> Result<Self> {
        if levels > 16 {
            return Err(Error::OutOfRange(Param::Setting));
        }
        self.max_halvings = levels;
        Ok(self)
    }

    /// The most times a step is halved ([`Self::with_step_halving`]; 0: never).
    pub fn step_halving_levels(&self) -> u32 {
        self.max_halvings
    }

    /// `rho_inf`.
    pub fn spectral_radius(&self) -> T {
        self.rho_inf
    }

    /// `(alpha_m, alpha_f, gamma, beta)`.
    pub fn parameters(&self) -> (T, T, T, T) {
        (self.alpha_m, self.alpha_f, self.gamma, self.beta)
    }

    /// A start state at `t0` (s) from `q0`, `v0` (`n` entries each): positions and velocities
    /// checked against the constraints (or projected onto them, [`Assembly`]), then the
    /// consistent accelerations and multipliers of
    /// `[M C_q^T; C_q 0] [q_tt; lambda] = [f; -(C_q q_t)_q q_t]`.
    ///
    /// Errors: `CapacityFull` if `n + m` exceeds `S` or `q0`/`v0` are shorter than `n`,
    /// `NotFinite(SimulationTime)`, `NonFiniteState`, `ConstraintViolated` (beyond the
    /// tolerance without `assembly.solve`, or the projection did not converge),
    /// `SingularMatrix` (redundant constraints, or a coordinate without mass), the model's
    /// errors.
    pub fn initial_state<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        t0: T,
        q0: &[T],
        v0: &[T],
        assembly: Assembly<T>,
        work: &mut Workspace<T, S>,
    ) -> Result<ConstrainedState<T, S>> {
        let (n, m) = sizes::<T, M, S>(model)?;
        work.uses(n + m);
        finite(t0, Param::SimulationTime)?;
        finite(assembly.tolerance, Param::Setting)?;
        finite(assembly.velocity_tolerance, Param::Setting)?;
        if q0.len() < n || v0.len() < n {
            return Err(Error::CapacityFull);
        }
        if !q0[..n].iter().chain(v0[..n].iter()).all(|x| x.finite()) {
            return Err(Error::NonFiniteState);
        }
        let z = [T::zero(); S];
        let mut s = ConstrainedState {
            t: t0,
            q: z,
            v: z,
            acc: z,
            alg: z,
            lambda: z,
        };
        s.q[..n].copy_from_slice(&q0[..n]);
        s.v[..n].copy_from_slice(&v0[..n]);
        if m > 0 {
            self.assemble_positions(model, &mut s, assembly, work, n, m)?;
            assemble_velocities(model, &mut s, assembly, work, n, m)?;
        }
        // [M C_q^T; C_q 0] [q_tt; lambda] = [f; -(C_q v)_q v].
        let t = s.t;
        work.q[..n].copy_from_slice(&s.q[..n]);
        work.v[..n].copy_from_slice(&s.v[..n]);
        let order = Order::coordinates_first(n);
        evaluate(model, t, work, n, m, n + m, true, order, None)?;
        mirror_constraint_jacobian(&mut work.jac, n, m, order);
        work.rhs = work.f;
        if m > 0 {
            velocity_term(model, t, &s.q[..n], &s.v[..n], work, n, m)?;
            for i in 0..m {
                work.rhs[n + i] = -work.c[i];
            }
        }
        solve_in_place(&mut work.jac, &mut work.rhs, n + m).ok_or(Error::SingularMatrix)?;
        s.acc[..n].copy_from_slice(&work.rhs[..n]);
        s.alg[..n].copy_from_slice(&work.rhs[..n]);
        s.lambda[..m].copy_from_slice(&work.rhs[n..n + m]);
        Ok(s)
    }

    /// Positions: refused or projected (Newton on the smallest `dq` with `C(q + dq) = 0`:
    /// `[E C_q^T; C_q 0] [dq; mu] = [0; -C]`).
    fn assemble_positions<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        s: &mut ConstrainedState<T, S>,
        assembly: Assembly<T>,
        work: &mut Workspace<T, S>,
        n: usize,
        m: usize,
    ) -> Result<()> {
        let t = s.t;
        for _ in 0..=self.newton.max_iterations {
            model.constraint(t, &s.q[..n], &mut work.c[..m])?;
            let residual = norm(&work.c[..m]);
            if !residual.finite() {
                return Err(Error::NonFiniteState);
            }
            if residual <= assembly.tolerance {
                return Ok(());
            }
            if !assembly.solve {
                return Err(Error::ConstraintViolated);
            }
            projection_matrix(model, t, &s.q[..n], &mut work.jac, n, m)?;
            work.rhs = [T::zero(); S];
            for i in 0..m {
                work.rhs[n + i] = -work.c[i];
            }
            solve_in_place(&mut work.jac, &mut work.rhs, n + m).ok_or(Error::SingularMatrix)?;
            for i in 0..n {
                s.q[i] += work.rhs[i];
            }
        }
        Err(Error::ConstraintViolated)
    }

    /// One step of `h` (s): `state` advanced to `state.t + h`, or an error and `state`
    /// unchanged. With step halving ([`Self::with_step_halving`]) a step whose Newton
    /// iteration fails (`NewtonNotConverged`, `SingularMatrix`) is retried as two halves,
    /// recursively.
    ///
    /// Errors: `NotFinite | OutOfRange(TimeStep)`, `CapacityFull` (`n + m > S`),
    /// `NonFiniteState` (a non-finite state or result), `SingularMatrix`, `NewtonNotConverged`,
    /// the model's errors.
    pub fn step<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
    ) -> Result<ConstrainedReport<T>> {
        let (n, m) = self.checked_sizes::<M, S>(model, h)?;
        if !finite_state(state, n, m) {
            return Err(Error::NonFiniteState);
        }
        self.step_sized(model, state, work, h, n, m, 0)
    }

    /// [`Self::step`] for a system's storage: from a state known to be finite (checked when it
    /// was committed or computed at the start) with a workspace whose leading
    /// `cleared x cleared` block of the Newton matrix is zero (as [`Workspace::clear`] leaves
    /// it between a system's steps: the first evaluation does not zero it again; a halved step
    /// zeroes). `state` is read, not written: the step's result stays in `work` (`q`, `v`,
    /// the accelerations in `x`, `alg`, `lambda`; checked finite), for the system to commit
    /// once its own checks pass ([`commit`]).
    pub(crate) fn step_into_work<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        cleared: usize,
    ) -> Result<ConstrainedReport<T>> {
        let (n, m) = self.checked_sizes::<M, S>(model, h)?;
        // `step_sized`'s branch without its write: through it with a flag, the system's step
        // costs more on a microcontroller (measured on the Cortex-M4F counts).
        if self.max_halvings == 0 {
            return self.newton_step(model, state, work, h, n, m, cleared);
        }
        self.step_on_trial(model, state, work, h, n, m, false)
    }

    /// `(n, m)` of `model` once the step `h` and the capacity `S` are checked (the errors of
    /// [`Self::step`] before the state's).
    fn checked_sizes<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        h: T,
    ) -> Result<(usize, usize)> {
        finite(h, Param::TimeStep)?;
        if h <= T::zero() {
            return Err(Error::OutOfRange(Param::TimeStep));
        }
        let (n, m) = sizes::<T, M, S>(model)?;
        if self.formulation == Formulation::StabilizedIndex2 && n + 2 * m > S {
            return Err(Error::CapacityFull);
        }
        Ok((n, m))
    }

    /// [`Self::step`] with the checked sizes `n`, `m`, its workspace's leading
    /// `cleared x cleared` block zero.
    #[allow(clippy::too_many_arguments)]
    fn step_sized<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        n: usize,
        m: usize,
        cleared: usize,
    ) -> Result<ConstrainedReport<T>> {
        if self.max_halvings == 0 {
            // Written only on convergence.
            let report = self.newton_step(model, state, work, h, n, m, cleared)?;
            commit(state, work, state.t + h, n, m);
            return Ok(report);
        }
        self.step_on_trial(model, state, work, h, n, m, true)
    }

    /// [`Self::step`] with step halving, on a copy of `state` (the halves commit into it; the
    /// last one's result is also in `work`), written back on success if `write_back`.
    // Out of line: the copy is on the stack only when halving is on.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn step_on_trial<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        n: usize,
        m: usize,
        write_back: bool,
    ) -> Result<ConstrainedReport<T>> {
        let mut trial = *state;
        let report = self.step_halving(model, &mut trial, work, h, n, m, 0)?;
        if write_back {
            *state = trial;
        }
        Ok(report)
    }

    /// [`Self::step`] of `h` at halving level `level`.
    #[allow(clippy::too_many_arguments)]
    fn step_halving<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &mut ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        n: usize,
        m: usize,
        level: u32,
    ) -> Result<ConstrainedReport<T>> {
        let step = self.newton_step(model, state, work, h, n, m, 0);
        if step.is_ok() {
            commit(state, work, state.t + h, n, m);
        }
        match step {
            Err(Error::NewtonNotConverged | Error::SingularMatrix) if level < self.max_halvings => {
                let half = h * T::c(0.5);
                let first = self.step_halving(model, state, work, half, n, m, level + 1)?;
                // The second half from the first's end as a step's start (on a Lie group a
                // step's rotations are taken from its start).
                model.recentre(&mut state.q[..n]);
                let mut second = self.step_halving(model, state, work, half, n, m, level + 1)?;
                second.halvings += first.halvings + 1;
                Ok(second)
            }
            other => other,
        }
    }

    /// One Newton-solved step of `h` from `state`, its result in `work` (checked finite:
    /// [`commit`] writes it into a state); the leading `cleared x cleared` block of the Newton
    /// matrix is zero at the start.
    #[allow(clippy::too_many_arguments)]
    fn newton_step<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        state: &ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        n: usize,
        m: usize,
        mut cleared: usize,
    ) -> Result<ConstrainedReport<T>> {
        let one = T::one();
        let t1 = state.t + h;
        let c_a = (one - self.alpha_f) / (one - self.alpha_m);
        let h2b = h * h * self.beta;
        let beta_p = h2b * c_a;
        let gamma_p = h * self.gamma * c_a;
        self.predict(state, work, h, n, m);
        // Stabilized index 2: the position correction's multiplier, scaled `mu = h^2 beta mu~`.
        let ggl = self.formulation == Formulation::StabilizedIndex2 && m > 0;
        let k = if ggl { n + 2 * m } else { n + m };
        work.uses(k);
        if ggl {
            work.mu[..m].fill(T::zero());
        }
        let hg = h * self.gamma;
        let mut report = ConstrainedReport {
            newton_iterations: 0,
            halvings: 0,
            force_residual: T::zero(),
            constraint_residual: T::zero(),
            residual_history: [T::zero(); RESIDUAL_HISTORY],
            history_len: 0,
        };
        let eps8 = T::EPS * T::c(8.0);
        let mut stagnated = false;
        // The loop keeps only scalars and the report: each part is out of line, so that this
        // frame stays small under the model's evaluations.
        loop {
            stage(work, n, c_a, h2b, hg);
            if ggl {
                position_correction(model, t1, work, n, m, h2b)?;
            }
            // M, C_q, f and C at q_{n+1}, v_{n+1}.
            let order = Order::multipliers_first(m, ggl);
            // The first evaluation of a step is nearly always followed by an update: the
            // constraints' Hessian is taken with their Jacobian then, from the same markers.
            let first = report.newton_iterations == 0;
            let with_hessian = first.then_some(beta_p);
            let hessian = evaluate(model, t1, work, n, m, k, cleared < k, order, with_hessian)?;
            // The first evaluation's residual also mirrors C_q into C_q^T, for the update that
            // nearly always follows it; after a later one the solve mirrors it if it needs it.
            let mirrored = first && !ggl;
            let (converged, rc) =
                self.converged(work, n, m, h2b, beta_p, hg, ggl, mirrored, &mut report)?;
            if converged || stagnated {
                finite_result(work, t1, n, m)?;
                return Ok(report);
            }
            if report.newton_iterations >= self.newton.max_iterations {
                return Err(Error::NewtonNotConverged);
            }
            if ggl {
                // Before the tangent: its velocity rows add to these.
                stabilized_iteration_matrix(work, n, m, c_a);
            }
            self.add_tangent(model, t1, work, n, m, beta_p, gamma_p, ggl, hessian)?;
            let mirrored = if m > 0 && model.maps_constraint_rows() {
                map_constraint_rows(model, work, n, m, ggl, mirrored)
            } else {
                mirrored
            };
            let (dx, xx, zeroed) = newton_update(work, n, m, k, ggl, mirrored)?;
            // The LU leaves the matrix zero: the next evaluation need not zero it.
            cleared = if zeroed { k } else { 0 };
            report.newton_iterations += 1;
            if report.newton_iterations == self.real_time_updates {
                // Real-time mode: the iterate taken without its evaluation.
                stage(work, n, c_a, h2b, hg);
                if ggl {
                    position_correction(model, t1, work, n, m, h2b)?;
                }
                finite_result(work, t1, n, m)?;
                work.jac_zero = zeroed;
                return Ok(report);
            }
            stagnated =
                rc <= self.newton.absolute_tolerance.sqrt_l() && dx.sqrt_l() <= eps8 * xx.sqrt_l();
        }
    }

    /// The residual of the evaluated iterate, negated, into `work.rhs` (the Newton system's
    /// right-hand side) and its norms into `report`
    /// (`force_residual`, `constraint_residual`, the history); `(converged, |C|)`.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn converged<const S: usize>(
        &self,
        work: &mut Workspace<T, S>,
        n: usize,
        m: usize,
        h2b: T,
        beta_p: T,
        hg: T,
        ggl: bool,
        mirror: bool,
        report: &mut ConstrainedReport<T>,
    ) -> Result<(bool, T)> {
        let co = Order::multipliers_first(m, ggl).coordinates;
        // r_2 in the rows of c C_q (stabilized index 2) or of C_q (`r_2 / c`).
        let r2_scale = if ggl { h2b } else { beta_p };
        let (inertia, reaction) = residual(work, n, m, co, r2_scale, mirror);
        // Stabilized index 2: r_3 = C_q v_{n+1} / (h gamma).
        let mut rv = T::zero();
        if ggl {
            for j in 0..m {
                let row = &work.jac[j][co..co + n];
                let cv = row
                    .iter()
                    .zip(&work.v[..n])
                    .fold(T::zero(), |acc, (c, v)| acc + *c * *v);
                rv += cv * cv;
                work.rhs[m + j] = -cv / hg;
            }
        }
        let rv = if ggl { rv.sqrt_l() } else { T::zero() };
        let rf = norm(&work.rhs[co..co + n]);
        let rc = norm(&work.c[..m]);
        if !(rf.finite() && rc.finite() && rv.finite()) {
            return Err(Error::NonFiniteState);
        }
        let total = (rf * rf + rc * rc + rv * rv).sqrt_l();
        if (report.history_len as usize) < RESIDUAL_HISTORY {
            report.residual_history[report.history_len as usize] = total;
            report.history_len += 1;
        }
        report.force_residual = rf;
        report.constraint_residual = rc;
        // max(|M x|, |C_q^T lambda|, |f|) with one square root (the root is monotonic and
        // correctly rounded: the same value as the largest of three roots).
        let scale = inertia
            .max(reaction)
            .max(norm_squared(&work.f[..n]))
            .sqrt_l();
        let n_coord = T::of_u32(n.max(1) as u32);
        let forces_ok = rf / n_coord <= self.newton.absolute_tolerance
            || rf <= self.newton.relative_tolerance * scale;
        // (Without the index-2 rows `rv` is zero and the velocity test holds: a non-finite
        // velocity is refused when the step is committed.)
        let constraints_ok = rc <= self.newton.absolute_tolerance
            && (!ggl || rv <= self.newton.absolute_tolerance * (T::one() + norm(&work.v[..n])));
        Ok((forces_ok && constraints_ok, rc))
    }

    /// The parts of the step's `a`, `q`, `v` that do not depend on `q_tt_{n+1}`
    /// (`a_{n+1} = a_base + c q_tt_{n+1}`; `q` and `v` are linear in `a_{n+1}`), and the
    /// predictor `q_tt_{n+1} = q_tt_n`, `lambda_{n+1} = lambda_n`, all in the workspace (the
    /// iteration's vectors are not on the stack).
    // Out of line, as the other parts of `newton_step`: its unrolled loop's registers are not
    // in the frame under which the model is evaluated.
    #[inline(never)]
    fn predict<const S: usize>(
        &self,
        s0: &ConstrainedState<T, S>,
        work: &mut Workspace<T, S>,
        h: T,
        n: usize,
        m: usize,
    ) {
        let one = T::one();
        for i in 0..n {
            work.a_base[i] =
                (s0.acc[i] * self.alpha_f - s0.alg[i] * self.alpha_m) / (one - self.alpha_m);
            work.q_base[i] = s0.q[i] + s0.v[i] * h + s0.alg[i] * (h * h * (T::c(0.5) - self.beta));
            work.v_base[i] = s0.v[i] + s0.alg[i] * (h * (one - self.gamma));
            work.x[i] = s0.acc[i];
        }
        work.lambda[..m].copy_from_slice(&s0.lambda[..m]);
    }

    /// Adds `beta' (d(C_q^T lambda)/dq + d(M x)/dq - df/dq) - gamma' df/dq_t` to the
    /// coordinates' block (the first term unless `hessian_done`: [`evaluate`] added it), the
    /// model's Jacobians where it has them (`d(M x)/dq` only then), forward differences where
    /// not (at `work.q`, `work.v`, with `work.f` the force there);
    /// for the stabilized index 2 also `beta' / (h gamma) (C_q v)_q` to the rows of `r_3` where
    /// the model has it.
    // Out of line, as `evaluate`: the model's temporaries are on the stack one call at a time.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn add_tangent<M: ConstrainedModel<T>, const S: usize>(
        &self,
        model: &M,
        t: T,
        work: &mut Workspace<T, S>,
        n: usize,
        m: usize,
        beta_p: T,
        gamma_p: T,
        ggl: bool,
        hessian_done: bool,
    ) -> Result<()> {
        let Workspace {
            jac,
            scratch,
            scratch_used,
            f,
            f2,
            q,
            v,
            x,
            lambda,
            ..
        } = work;
        let lambda = &*lambda;
        let co = Order::multipliers_first(m, ggl).coordinates;
        // d(C_q^T lambda)/dq first (unless the evaluation took it with C_q), so that the block
        // sums the same terms in the same order either way.
        if m > 0 && !hessian_done {
            let analytic = model.constraint_force_jacobian(
                t,
                &q[..n],
                &lambda[..m],
                beta_p,
                &mut Block::new(jac, co, co, n, n),
            );
            match analytic {
                Some(r) => r?,
                None => {
                    // d(C_q^T lambda)/dq by forward differences of C_q.
                    *scratch_used = (*scratch_used).max(n.max(m));
                    let sqrt_eps = T::EPS.sqrt_l();
                    let base = |scratch: &mut [[T; S]; S], g: &mut [T; S]| {
                        for (i, gi) in g.iter_mut().enumerate().take(n) {
                            *gi = (0..m).fold(T::zero(), |acc, k| acc + scratch[k][i] * lambda[k]);
                        }
                    };
                    zero_block(scratch, n.max(m));
                    model.constraint_jacobian(t, &q[..n], &mut Block::new(scratch, 0, 0, m, n))?;
                    base(scratch, f2);
                    let g0 = *f2;
                    for j in 0..n {
                        let q0 = q[j];
                        q[j] = q0 + sqrt_eps * (T::one() + q0.abs_l());
                        let dq = q[j] - q0;
                        zero_block(scratch, n.max(m));
                        let r = model.constraint_jacobian(
                            t,
                            &q[..n],
                            &mut Block::new(scratch, 0, 0, m, n),
                        );
                        q[j] = q0;
                        r?;
                        base(scratch, f2);
                        for i in 0..n {
                            jac[co + i][co + j] += beta_p * (f2[i] - g0[i]) / dq;
                        }
                    }
                }
            }
        }
        if let Some(r) = model.mass_jacobian(
            t,
            &q[..n],
            &v[..n],
            &x[..n],
            beta_p,
            &mut Block::new(jac, co, co, n, n),
        ) {
            r?;
        }
        let analytic = model.force_jacobians(
            t,
            &q[..n],
            &v[..n],
            -beta_p,
            -gamma_p,
            &mut Block::new(jac, co, co, n, n),
        );
        match analytic {
            Some(r) => r?,
            None => {
                let sqrt_eps = T::EPS.sqrt_l();
                for j in 0..n {
                    // d/dq_j, then d/dq_t_j.
                    let q0 = q[j];
                    q[j] = q0 + sqrt_eps * (T::one() + q0.abs_l());
                    let dq = q[j] - q0;
                    *f2 = [T::zero(); S];
                    let r = model.force(t, &q[..n], &v[..n], &mut f2[..n]);
                    q[j] = q0;
                    r?;
                    for i in 0..n {
                        jac[co + i][co + j] -= beta_p * (f2[i] - f[i]) / dq;
                    }
                    let v0 = v[j];
                    v[j] = v0 + sqrt_eps * (T::one() + v0.abs_l());
                    let dv = v[j] - v0;
                    *f2 = [T::zero(); S];
                    let r = model.force(t, &q[..n], &v[..n], &mut f2[..n]);
                    v[j] = v0;
                    r?;
                    for i in 0..n {
                        jac[co + i][co + j] -= gamma_p * (f2[i] - f[i]) / dv;
                    }
                }
            }
        }
        if ggl {
            // r_3 = C_q v / (h gamma) through q (dq/dx = beta'; h gamma = gamma' / c).
            let c_a = (T::one() - self.alpha_f) / (T::one() - self.alpha_m);
            if let Some(r) = model.constraint_velocity_jacobian(
                t,
                &q[..n],
                &v[..n],
                beta_p * c_a / gamma_p,
                &mut Block::new(jac, m, co, m, n),
            ) {
                r?;
            }
        }
        Ok(())
    }
}

/// The iterate's `a = a_base + c x`, `q = q_base + h^2 beta a`, `v = v_base + h gamma a`.
#[inline(never)]
fn stage<T: Real, const S: usize>(work: &mut Workspace<T, S>, n: usize, c_a: T, h2b: T, hg: T) {
    for i in 0..n {
        work.alg[i] = work.a_base[i] + work.x[i] * c_a;
        work.q[i] = work.q_base[i] + work.alg[i] * h2b;
        work.v[i] = work.v_base[i] + work.alg[i] * hg;
    }
}

/// Stabilized index 2: `q_{n+1} = q^GA + h^2 beta C_q(q^GA)^T mu~`.
#[inline(never)]
fn position_correction<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t1: T,
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    h2b: T,
) -> Result<()> {
    work.scratch(n.max(m));
    zero_block(&mut work.scratch, n.max(m));
    model.constraint_jacobian(
        t1,
        &work.q[..n],
        &mut Block::new(&mut work.scratch, 0, 0, m, n),
    )?;
    for i in 0..n {
        let corr = (0..m).fold(T::zero(), |acc, j| acc + work.scratch[j][i] * work.mu[j]);
        work.q[i] += h2b * corr;
    }
    Ok(())
}

/// `NonFiniteState` unless every entry of the step's result in `work` and its time `t1` is
/// finite.
#[inline(never)]
fn finite_result<T: Real, const S: usize>(
    work: &Workspace<T, S>,
    t1: T,
    n: usize,
    m: usize,
) -> Result<()> {
    let parts = [&work.q[..n], &work.v[..n], &work.x[..n], &work.alg[..n]];
    if all_finite_parts(&parts, &work.lambda[..m]) && t1.finite() {
        Ok(())
    } else {
        Err(Error::NonFiniteState)
    }
}

/// The step's result in `work` (checked by [`finite_result`]) into `state`, at time `t1`.
#[inline(never)]
pub(crate) fn commit<T: Real, const S: usize>(
    state: &mut ConstrainedState<T, S>,
    work: &Workspace<T, S>,
    t1: T,
    n: usize,
    m: usize,
) {
    state.t = t1;
    if IN_ORDER {
        // One pass over the coordinates: a `memcpy` call per vector costs more in order.
        for i in 0..n {
            state.q[i] = work.q[i];
            state.v[i] = work.v[i];
            state.acc[i] = work.x[i];
            state.alg[i] = work.alg[i];
        }
    } else {
        state.q[..n].copy_from_slice(&work.q[..n]);
        state.v[..n].copy_from_slice(&work.v[..n]);
        state.acc[..n].copy_from_slice(&work.x[..n]);
        state.alg[..n].copy_from_slice(&work.alg[..n]);
    }
    state.lambda[..m].copy_from_slice(&work.lambda[..m]);
}

/// The stabilized index 2's iteration matrix's constraint blocks, multipliers first
/// ([`Order::multipliers_first`]): `C_q^T` (the coordinates' rows, from the evaluated `C_q`)
/// and `c C_q` (the first rows, with `-r_2` on the right), the rows of `r_3`, `c C_q`, and the
/// columns of `mu~`, `C_q C_q^T` in the rows of `r_2`. (Without the stabilization the
/// constraint rows stay `C_q`, with `-r_2 / c` on the right, and only their mirror is taken:
/// [`residual`] or [`mirror_constraint_jacobian`].) The coordinates' block gets its tangent
/// from [`ConstrainedAlpha::add_tangent`].
#[inline(never)]
fn stabilized_iteration_matrix<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    c_a: T,
) {
    let co = Order::multipliers_first(m, true).coordinates;
    // C_q^T from C_q, then c C_q: one pass over C_q's rows.
    let (c_rows, q_rows) = work.jac.split_at_mut(co);
    for (k, c_row) in c_rows[..m].iter_mut().enumerate() {
        for (q_row, e) in q_rows.iter_mut().zip(&mut c_row[co..co + n]) {
            q_row[k] = *e;
            *e *= c_a;
        }
    }
    for j in 0..m {
        // The rows of C_q, as mirrored (unscaled): in C_q^T's columns.
        for i in 0..n {
            work.jac[m + j][co + i] = work.jac[co + i][j] * c_a;
        }
        for l in 0..m {
            let cc = (0..n).fold(T::zero(), |acc, i| {
                acc + work.jac[co + i][j] * work.jac[co + i][l]
            });
            work.jac[j][m + l] = cc;
        }
    }
}

/// Solves the Newton system for `-residual` (in `work.rhs`) and adds the update to `x`,
/// `lambda` (and `mu`); returns `(|dx|^2, |x|^2, whether the solve left the matrix zero)`.
/// `mirrored`: the residual wrote `C_q^T` ([`residual`]).
// Out of line, as [`residual`].
#[inline(never)]
fn newton_update<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    k: usize,
    ggl: bool,
    mirrored: bool,
) -> Result<(T, T, bool)> {
    let zeroed = solve_newton(work, n, m, k, ggl, mirrored)?;
    let co = Order::multipliers_first(m, ggl).coordinates;
    let (mut dx, mut xx) = (T::zero(), T::zero());
    for i in 0..n {
        let d = work.rhs[co + i];
        work.x[i] += d;
        dx += d * d;
        xx += work.x[i] * work.x[i];
    }
    for j in 0..m {
        work.lambda[j] += work.rhs[j];
    }
    if ggl {
        for j in 0..m {
            work.mu[j] += work.rhs[m + j];
        }
    }
    Ok((dx, xx, zeroed))
}

/// The residual `C / scale` (rows `0..m`; `r_2 / c` for the rows of `C_q`, `r_2` for those of
/// `c C_q`) and `r_1 = M x + C_q^T lambda - f` (rows from `co`), negated (the Newton system's
/// right-hand side: `f - (M x + C_q^T lambda)` is `-r_1` exactly), into `work.rhs`, from what
/// [`evaluate`] wrote (`C_q^T` read as the columns of `C_q`); with `mirror` also each such
/// column into its row of `C_q^T` (the iteration matrix's, as [`mirror_constraint_jacobian`]
/// writes it) in the same pass. Returns `(|M x|^2, |C_q^T lambda|^2)`, the scales of `r_1`.
// Out of line: its unrolled loops' spilled addresses are off the stack before the tangent's
// evaluation runs.
#[inline(never)]
fn residual<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    co: usize,
    scale: T,
    mirror: bool,
) -> (T, T) {
    let (mut inertia, mut reaction) = (T::zero(), T::zero());
    let (c_rows, q_rows) = work.jac.split_at_mut(co);
    for (i, q_row) in q_rows[..n].iter_mut().enumerate() {
        let mx = work.f2[i];
        let mut cl = T::zero();
        if mirror {
            for (k, (c_row, l)) in c_rows[..m].iter().zip(&work.lambda[..m]).enumerate() {
                let c = c_row[co + i];
                q_row[k] = c;
                cl += c * *l;
            }
        } else {
            for (c_row, l) in c_rows[..m].iter().zip(&work.lambda[..m]) {
                cl += c_row[co + i] * *l;
            }
        }
        inertia += mx * mx;
        reaction += cl * cl;
        work.rhs[co + i] = work.f[i] - (mx + cl);
    }
    for j in 0..m {
        work.rhs[j] = -work.c[j] / scale;
    }
    (inertia, reaction)
}

/// Solves the Newton system `[0 C_q; C_q^T A] [dl; dx] = rhs` (the constraint rows divided by
/// `c = (1 - alpha_f) / (1 - alpha_m) > 0`, their right-hand side `-r_2 / c`; leading `k x k`
/// block of `work.jac`, multipliers first) in place into `work.rhs`. The block holds `A` (the
/// coordinates' `n x n` block, with its tangent), the evaluated `C_q` in the constraints' rows
/// and, if `mirrored`, `C_q^T` ([`residual`]); for the stabilized index 2 what
/// [`stabilized_iteration_matrix`] wrote (its rows of `c C_q` with `-r_2`). When `A` is diagonal and
/// positive, as for bodies whose mass matrix is diagonal and whose joints'
/// `d(C_q^T lambda)/dq` is (planar revolute joints between body centres), by the Schur
/// complement from `C_q`'s rows ([`solve_schur`]); else `C_q^T` is mirrored where it is not
/// yet ([`mirror_constraint_jacobian`]) and the block's LU solves it, leaving it zero
/// ([`solve_in_place_and_clear`]).
/// Returns whether the block is zero; `SingularMatrix` if the system is singular.
fn solve_newton<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    k: usize,
    ggl: bool,
    mirrored: bool,
) -> Result<bool> {
    // Positive on the diagonal and zero off it, the rows tested from the last (the
    // coordinates nearest the ground, the most coupled: a coupled block fails at once). In
    // order (a microcontroller) a row's test stops at its first nonzero off the diagonal; a
    // host counts each row's nonzeros without a branch per entry (`target::IN_ORDER`): the
    // same answer.
    let co = Order::multipliers_first(m, ggl).coordinates;
    let diagonal = !ggl
        && m > 0
        && work.jac[co..co + n]
            .iter()
            .enumerate()
            .rev()
            .all(|(i, row)| {
                let row = &row[co..co + n];
                if IN_ORDER {
                    let zero = |r: &[T]| r.iter().all(|x| *x == T::zero());
                    row[i] > T::zero() && zero(&row[..i]) && zero(&row[i + 1..])
                } else {
                    let nonzero = row.iter().fold(0, |k, x| k + usize::from(*x != T::zero()));
                    row[i] > T::zero() && nonzero == 1
                }
            });
    if diagonal {
        return solve_schur(work, n, m).map(|()| false);
    }
    if !ggl && !mirrored {
        mirror_constraint_jacobian(&mut work.jac, n, m, Order::multipliers_first(m, ggl));
    }
    solve_in_place_and_clear(&mut work.jac, &mut work.rhs, k)
        .map(|()| true)
        .ok_or(Error::SingularMatrix)
}

/// [`solve_newton`] for a diagonal `A`, with `b_1`, `b_2` the coordinates' and the
/// constraints' right-hand sides: `S dl = C_q A^-1 b_1 - b_2` with `S = C_q A^-1 C_q^T`,
/// symmetric and positive definite for independent constraints (its upper triangle and
/// [`solve_symmetric_in_place`]; dependent ones make it singular and are refused), then
/// `dx = A^-1 (b_1 - C_q^T dl)`. `C_q` is read from its rows (`0..m`, the coordinates' columns
/// from `m`).
fn solve_schur<T: Real, const S: usize>(
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
) -> Result<()> {
    // S's block starts zero: the scratch is zero outside the block its users recorded, and a
    // successful solve below leaves it zero (so this use records nothing).
    if work.scratch_used > 0 {
        zero_block(&mut work.scratch, m);
    }
    let Workspace {
        jac,
        scratch,
        scratch_used,
        rhs,
        f2,
        c: inv,
        ..
    } = work;
    // A^-1 (its diagonal's reciprocals; `work.c` is free once the residual norms are taken).
    for i in 0..n {
        inv[i] = T::one() / jac[m + i][m + i];
    }
    let cq = &jac[..m];
    // Row a of S's upper triangle and of the right-hand side C_q A^-1 b_1 - b_2: sums over the
    // coordinates i (in order) of w = C_ai / A_ii times C_q's column i below row a, and times
    // b_1i. A constraint row is sparse: a zero C_ai adds nothing and is skipped.
    for a in 0..m {
        let s_row = &mut scratch[a][..m];
        let mut fa = T::zero();
        for i in 0..n {
            let c_ai = cq[a][m + i];
            if c_ai != T::zero() {
                let w = c_ai * inv[i];
                fa += w * rhs[m + i];
                for b in a..m {
                    s_row[b] += w * cq[b][m + i];
                }
            }
        }
        f2[a] = fa - rhs[a];
    }
    if solve_symmetric_in_place_and_clear(scratch, f2, m).is_none() {
        *scratch_used = (*scratch_used).max(m);
        return Err(Error::SingularMatrix);
    }
    for i in 0..n {
        let bl = (0..m).fold(T::zero(), |acc, a| acc + cq[a][m + i] * f2[a]);
        rhs[m + i] = (rhs[m + i] - bl) * inv[i];
    }
    rhs[..m].copy_from_slice(&f2[..m]);
    if rhs[..m + n].iter().all(|x| x.finite()) {
        Ok(())
    } else {
        Err(Error::SingularMatrix)
    }
}

/// The model at `work.q`, `work.v`: the blocks `M` and `C_q` of the leading `k x k` block of
/// `work.jac` (zeroed first with `zero`) where `order` puts them, `M x` into `work.f2` (the
/// residual's inertia term, taken before a tangent is added to `M`'s block), the force into
/// `work.f` and the constraints into `work.c`. With `hessian = Some(a)` also
/// `a d(C_q^T lambda)/dq` into the coordinates' block where the model evaluates it with `C_q`
/// ([`ConstrainedModel::constraint_with_jacobian_and_hessian`]); returns whether it did.
// Out of line: the model's temporaries are on the stack one call at a time (a firmware's
// stack holds the largest evaluation, not the sum of all).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn evaluate<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    k: usize,
    zero: bool,
    order: Order,
    hessian: Option<T>,
) -> Result<bool> {
    let Order {
        constraints: cr,
        coordinates: co,
    } = order;
    work.jac_zero = false;
    if zero {
        zero_block(&mut work.jac, k);
    }
    mass_and_product(model, t, work, n, co)?;
    // (`f` beyond `n` is zero: no step writes it.)
    zero_leading(&mut work.f, n);
    model.force(t, &work.q[..n], &work.v[..n], &mut work.f[..n])?;
    if m == 0 {
        return Ok(false);
    }
    // C into work.c, C_q into its rows (mirrored into the coordinates' rows when a linear
    // solve follows: `residual`, `solve_newton`).
    let mut jac = Block::new(&mut work.jac, cr, co, m, n);
    let (q, c) = (&work.q[..n], &mut work.c[..m]);
    if let Some(a) = hessian {
        let lambda = &work.lambda[..m];
        if let Some(r) = model.constraint_with_jacobian_and_hessian(t, q, lambda, a, c, &mut jac) {
            return r.map(|()| true);
        }
    }
    model.constraint_with_jacobian(t, q, c, &mut jac)?;
    Ok(false)
}

/// `M` into the coordinates' block of `work.jac` (at `co`) and `M x` into `work.f2`: the
/// model's product where it takes it ([`ConstrainedModel::mass_with_product`]), else over the
/// block's rows.
// Out of line: its temporaries are off the stack when the constraints are evaluated.
#[inline(never)]
fn mass_and_product<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    work: &mut Workspace<T, S>,
    n: usize,
    co: usize,
) -> Result<()> {
    let Workspace { jac, q, x, f2, .. } = work;
    zero_leading(f2, n);
    let mut block = Block::new(jac, co, co, n, n);
    if let Some(r) = model.mass_with_product(t, &q[..n], &x[..n], &mut block, &mut f2[..n]) {
        return r;
    }
    model.mass(t, &q[..n], &mut block)?;
    for i in 0..n {
        f2[i] = jac[co + i][co..co + n]
            .iter()
            .zip(&x[..n])
            .fold(T::zero(), |acc, (a, x)| acc + *a * *x);
    }
    Ok(())
}

/// `(n, m)` of `model`, or `CapacityFull` if `n + m > S`.
fn sizes<T: Real, M: ConstrainedModel<T>, const S: usize>(model: &M) -> Result<(usize, usize)> {
    let (n, m) = (model.coordinates(), model.constraints());
    if n == 0 || n.checked_add(m).is_none_or(|k| k > S) {
        return Err(Error::CapacityFull);
    }
    Ok((n, m))
}

fn finite_state<T: Real, const S: usize>(s: &ConstrainedState<T, S>, n: usize, m: usize) -> bool {
    let parts = [&s.q[..n], &s.v[..n], &s.acc[..n], &s.alg[..n]];
    s.t.finite() && all_finite_parts(&parts, &s.lambda[..m])
}

/// `true` if every entry of the coordinate-sized `parts` and of `lambda` is finite.
fn all_finite_parts<T: Real>(parts: &[&[T]; 4], lambda: &[T]) -> bool {
    all_finite_slices(&[parts[0], parts[1], parts[2], parts[3], lambda])
}

/// `C_q` into the lower-left block (rows `n..n+m`) and `C_q^T` into the upper-right one.
fn constraint_jacobian_both<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    q: &[T],
    jac: &mut [[T; S]; S],
    n: usize,
    m: usize,
) -> Result<()> {
    if m == 0 {
        return Ok(());
    }
    let order = Order::coordinates_first(n);
    model.constraint_jacobian(t, q, &mut Block::new(jac, n, 0, m, n))?;
    mirror_constraint_jacobian(jac, n, m, order);
    Ok(())
}

/// The Newton matrix's constraint rows (`0..m`, the position equations) in the directions of
/// the model's coordinates where the model takes `C_q` in others
/// ([`ConstrainedModel::constraint_rows_to_coordinates`]), after `C_q^T` was mirrored into the
/// coordinates' rows from them (the force `C_q^T lambda` is the model's); whether it is.
// Out of line, as the other parts of `newton_step`: its temporaries are not in that frame.
#[inline(never)]
fn map_constraint_rows<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
    ggl: bool,
    mirrored: bool,
) -> bool {
    let order = Order::multipliers_first(m, ggl);
    if !ggl && !mirrored {
        mirror_constraint_jacobian(&mut work.jac, n, m, order);
    }
    model.constraint_rows_to_coordinates(&work.q[..n], &mut work.jac, 0..m, order.coordinates);
    !ggl || mirrored
}

/// `C_q^T` (the coordinates' rows, the constraints' columns) from `C_q` (the constraints'
/// rows, the coordinates' columns), where `order` puts them.
fn mirror_constraint_jacobian<T: Real, const S: usize>(
    jac: &mut [[T; S]; S],
    n: usize,
    m: usize,
    order: Order,
) {
    let Order {
        constraints: cr,
        coordinates: co,
    } = order;
    // The two row ranges apart (the constraints' before or after the coordinates'; without
    // constraint rows both start at the same row); each coordinate row's multiplier columns
    // written in one run.
    let (c_rows, q_rows) = if cr <= co {
        let (a, b) = jac.split_at_mut(co);
        (&a[cr..cr + m], &mut b[..n])
    } else {
        let (a, b) = jac.split_at_mut(cr);
        (&b[..m], &mut a[co..co + n])
    };
    for (j, q_row) in q_rows.iter_mut().enumerate() {
        for (x, c_row) in q_row[cr..cr + m].iter_mut().zip(c_rows) {
            *x = c_row[co + j];
        }
    }
}

/// Where a matrix over the unknowns `[q; lambda]` holds the constraints' rows (and the
/// multipliers' columns) and the coordinates' rows (and columns): the same index for rows and
/// columns.
#[derive(Clone, Copy, Debug)]
struct Order {
    constraints: usize,
    coordinates: usize,
}

impl Order {
    /// `[A C_q^T; C_q 0]`: the start's solves.
    fn coordinates_first(n: usize) -> Self {
        Self {
            constraints: n,
            coordinates: 0,
        }
    }

    /// `[0 c C_q; C_q^T A]`, the Newton matrix: the coordinates after the constraint rows
    /// (`m`, and `m` more of the stabilized index 2). Partial pivoting then takes each
    /// constraint's column first, on a coordinate row, and the coordinates' columns that follow
    /// are mostly eliminated by then (a minimum-degree order of such saddle-point matrices). On
    /// the 3D double pendulum that halves the row operations against coordinates first (89
    /// against 175).
    fn multipliers_first(m: usize, ggl: bool) -> Self {
        Self {
            constraints: 0,
            coordinates: if ggl { 2 * m } else { m },
        }
    }
}

/// `[E C_q^T; C_q 0]` at `q`: the matrix of the smallest correction onto the constraints.
fn projection_matrix<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    q: &[T],
    jac: &mut [[T; S]; S],
    n: usize,
    m: usize,
) -> Result<()> {
    zero_block(jac, n + m);
    for (i, row) in jac.iter_mut().enumerate().take(n) {
        row[i] = T::one();
    }
    constraint_jacobian_both(model, t, q, jac, n, m)
}

/// Velocities: refused or projected onto `C_q v = 0` (the smallest change).
fn assemble_velocities<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    s: &mut ConstrainedState<T, S>,
    assembly: Assembly<T>,
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
) -> Result<()> {
    projection_matrix(model, s.t, &s.q[..n], &mut work.jac, n, m)?;
    let mut w = [T::zero(); S];
    for (k, wk) in w.iter_mut().enumerate().take(m) {
        *wk = (0..n).fold(T::zero(), |acc, j| acc + work.jac[n + k][j] * s.v[j]);
    }
    let bound = assembly.velocity_tolerance * (T::one() + norm(&s.v[..n]));
    if norm(&w[..m]) <= bound {
        return Ok(());
    }
    if !assembly.solve {
        return Err(Error::ConstraintViolated);
    }
    work.rhs = [T::zero(); S];
    for k in 0..m {
        work.rhs[n + k] = -w[k];
    }
    solve_in_place(&mut work.jac, &mut work.rhs, n + m).ok_or(Error::SingularMatrix)?;
    for i in 0..n {
        s.v[i] += work.rhs[i];
    }
    Ok(())
}

/// `(C_q v)_q v` into `work.c[..m]`: the model's, or the difference quotient of `C_q v` along
/// `v`.
fn velocity_term<T: Real, M: ConstrainedModel<T>, const S: usize>(
    model: &M,
    t: T,
    q: &[T],
    v: &[T],
    work: &mut Workspace<T, S>,
    n: usize,
    m: usize,
) -> Result<()> {
    if let Some(r) = model.constraint_velocity_term(t, q, v, &mut work.c[..m]) {
        return r;
    }
    let vn = norm(v);
    if vn == T::zero() {
        work.c[..m].fill(T::zero());
        return Ok(());
    }
    let delta = T::EPS.sqrt_l() * (T::one() + norm(q)) / vn;
    let cq_v = |qq: &[T], scratch: &mut [[T; S]; S], out: &mut [T]| -> Result<()> {
        zero_block(scratch, n.max(m));
        model.constraint_jacobian(t, qq, &mut Block::new(scratch, 0, 0, m, n))?;
        for (k, o) in out.iter_mut().enumerate().take(m) {
            *o = (0..n).fold(T::zero(), |acc, j| acc + scratch[k][j] * v[j]);
        }
        Ok(())
    };
    work.scratch(n.max(m));
    cq_v(q, &mut work.scratch, &mut work.f2[..m])?;
    for i in 0..n {
        work.q[i] = q[i] + v[i] * delta;
    }
    let qp = work.q;
    cq_v(&qp[..n], &mut work.scratch, &mut work.c[..m])?;
    for k in 0..m {
        work.c[k] = (work.c[k] - work.f2[k]) / delta;
    }
    Ok(())
}
