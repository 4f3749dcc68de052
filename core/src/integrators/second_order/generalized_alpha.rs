//! The generalized-alpha method for `M(q) q_tt = f(t, q, q_t)`: Exudyn's default integrator.
//!
//! # Scheme
//! Chung & Hulbert (1993) in the form of Arnold & Brüls (2007, "Convergence of the
//! generalized-alpha scheme for constrained mechanical systems", Multibody Syst. Dyn. 18), with
//! an algorithmic acceleration `a` next to the true acceleration `q_tt`. One step `h` from
//! `(q_n, v_n, q_tt_n, a_n)`:
//!
//! ```text
//! (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) q_tt_{n+1} + alpha_f q_tt_n
//! q_{n+1} = q_n + h v_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}
//! v_{n+1} = v_n + h (1 - gamma) a_n + h gamma a_{n+1}
//! M(q_{n+1}) q_tt_{n+1} = f(t_n + h, q_{n+1}, v_{n+1})
//! ```
//!
//! with the parameters of the spectral radius at infinite frequency `rho_inf` in `[0, 1]`:
//! `alpha_m = (2 rho_inf - 1) / (rho_inf + 1)`, `alpha_f = rho_inf / (rho_inf + 1)`,
//! `gamma = 1/2 - alpha_m + alpha_f`, `beta = 1/4 (gamma + 1/2)^2`.
//! The last equation is solved for `q_tt_{n+1}` by Newton's method (predictor `q_tt_n`), with
//! the iteration matrix `S = M - beta' df/dq - gamma' df/dq_t`,
//! `beta' = h^2 beta (1 - alpha_f) / (1 - alpha_m)`, `gamma' = h gamma (1 - alpha_f) / (1 - alpha_m)`
//! (the derivative of `M(q)` with respect to `q` is left out of `S`: it changes the convergence
//! rate, not the solution). The start state has consistent accelerations
//! `q_tt_0 = a_0 = M^-1 f(t_0, q_0, v_0)` ([`GeneralizedAlpha::initial_state`]).
//!
//! # Why this scheme
//! It is what Exudyn's `SolveDynamic` uses by default (spectral radius 0.9), so mbs reproduces
//! Exudyn's results; and it is the standard for multibody systems: second order in `q` and
//! `v`, unconditionally stable for linear problems, with numerical damping of the high
//! frequencies that can be chosen (`rho_inf = 1`: trapezoidal rule, no damping; `rho_inf = 0`:
//! asymptotic annihilation) while the low frequencies are barely damped. It is exact for a
//! constant acceleration (free flight, constant force, gravity).
//!
//! All sizes are const generics; the step allocates nothing. A step that fails (bad input,
//! non-finite force, singular `S`, no convergence) returns an error and leaves the state unchanged.

use super::{ForceJacobians, SecondOrderOde, SecondOrderState};
use crate::error::finite;
use crate::finite::{all_finite, all_finite_of};
use crate::integrators::newton::NewtonSettings;
use crate::math::linear_solve::solve;
use crate::{Error, Param, Real, Result};
use nalgebra::{SMatrix, SVector};

/// The generalized-alpha integrator: its parameters and Newton settings (no state).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneralizedAlpha<T: Real> {
    rho_inf: T,
    alpha_m: T,
    alpha_f: T,
    gamma: T,
    beta: T,
    newton: NewtonSettings<T>,
}

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaStepInfo {
    /// Number of Newton updates (linear solves) of the step; 0 if the predictor already
    /// satisfied the equations of motion.
    pub newton_iterations: u32,
}

fn norm<T: Real, const N: usize>(v: &SVector<T, N>) -> T {
    v.dot(v).sqrt_l()
}

/// `(alpha_m, alpha_f, gamma, beta)` of the spectral radius at infinite frequency `rho_inf`
/// (module docs). `Err(NotFinite(Setting))` / `Err(OutOfRange(Setting))` unless
/// `0 <= rho_inf <= 1`.
pub fn parameters_of<T: Real>(rho_inf: T) -> Result<(T, T, T, T)> {
    finite(rho_inf, Param::Setting)?;
    if rho_inf < T::zero() || rho_inf > T::one() {
        return Err(Error::OutOfRange(Param::Setting));
    }
    let one = T::one();
    let half = T::c(0.5);
    let alpha_m = (T::c(2.0) * rho_inf - one) / (rho_inf + one);
    let alpha_f = rho_inf / (rho_inf + one);
    let gamma = half - alpha_m + alpha_f;
    let beta = T::c(0.25) * (gamma + half) * (gamma + half);
    Ok((alpha_m, alpha_f, gamma, beta))
}

impl<T: Real> GeneralizedAlpha<T> {
    /// The scheme with spectral radius at infinite frequency `rho_inf` (Exudyn's
    /// `spectralRadius`, default 0.9) and default Newton settings.
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
        })
    }

    /// The same scheme with other Newton settings (validated, see [`NewtonSettings::validate`]).
    pub fn with_newton(mut self, newton: NewtonSettings<T>) -> Result<Self> {
        newton.validate()?;
        self.newton = newton;
        Ok(self)
    }

    /// `rho_inf`.
    pub fn spectral_radius(&self) -> T {
        self.rho_inf
    }

    /// `(alpha_m, alpha_f, gamma, beta)`.
    pub fn parameters(&self) -> (T, T, T, T) {
        (self.alpha_m, self.alpha_f, self.gamma, self.beta)
    }

    /// The Newton settings.
    pub fn newton(&self) -> NewtonSettings<T> {
        self.newton
    }

    /// A start state at time `t0` (s) with coordinates `q0`, velocities `v0` and the
    /// consistent accelerations `q_tt = a = M^-1 f(t0, q0, v0)`.
    ///
    /// `Err(NotFinite(SimulationTime))` for a non-finite `t0`, `Err(NonFiniteState)` for
    /// non-finite `q0`/`v0`, `Err(NotFinite(Mass | Force))` for a non-finite model and
    /// `Err(SolverFailed)` for a singular mass matrix.
    pub fn initial_state<O: SecondOrderOde<T, N>, const N: usize>(
        &self,
        ode: &O,
        t0: T,
        q0: &SVector<T, N>,
        v0: &SVector<T, N>,
    ) -> Result<SecondOrderState<T, N>> {
        finite(t0, Param::SimulationTime)?;
        if !all_finite(q0) || !all_finite(v0) {
            return Err(Error::NonFiniteState);
        }
        let m = checked_mass(ode, t0, q0)?;
        let f = checked_force(ode, t0, q0, v0)?;
        let q_tt = solve(&m, &f).ok_or(Error::SolverFailed)?;
        if !all_finite(&q_tt) {
            return Err(Error::SolverFailed);
        }
        Ok(SecondOrderState {
            q: *q0,
            q_t: *v0,
            q_tt,
            a: q_tt,
        })
    }

    /// Advances `state` from time `t` (s) by `dt` (s).
    ///
    /// Errors, each leaving `state` unchanged: `NotFinite(TimeStep)` / `OutOfRange(TimeStep)`
    /// unless `dt` is finite and `> 0`; `NotFinite(SimulationTime)` for a non-finite `t`;
    /// `NonFiniteState`; the model's own errors; `NotFinite(Mass | Force)` if the model returns
    /// non-finite values; `SolverFailed` for a singular iteration matrix or no convergence within
    /// `max_iterations`.
    pub fn step<O: SecondOrderOde<T, N>, const N: usize>(
        &self,
        ode: &O,
        state: &mut SecondOrderState<T, N>,
        t: T,
        dt: T,
    ) -> Result<AlphaStepInfo> {
        finite(dt, Param::TimeStep)?;
        if dt <= T::zero() {
            return Err(Error::OutOfRange(Param::TimeStep));
        }
        finite(t, Param::SimulationTime)?;
        if !state.is_finite() {
            return Err(Error::NonFiniteState);
        }
        let one = T::one();
        let h = dt;
        let t1 = t + h;
        let s = *state;
        let c_a = (one - self.alpha_f) / (one - self.alpha_m);
        // a_{n+1} = a_base + c_a x
        let a_base = (s.q_tt * self.alpha_f - s.a * self.alpha_m) / (one - self.alpha_m);
        let q_base = s.q + s.q_t * h + s.a * (h * h * (T::c(0.5) - self.beta));
        let v_base = s.q_t + s.a * (h * (one - self.gamma));
        let dq_dx = h * h * self.beta * c_a;
        let dv_dx = h * self.gamma * c_a;
        let kin = |x: &SVector<T, N>| {
            let a1 = a_base + x * c_a;
            let q1 = q_base + a1 * (h * h * self.beta);
            let v1 = v_base + a1 * (h * self.gamma);
            (a1, q1, v1)
        };

        let n_coord = T::c(N.max(1) as f64);
        let eps8 = T::EPS * T::c(8.0);
        let mut x = s.q_tt;
        let mut stagnated = false;
        let mut iterations = 0u32;
        loop {
            let (a1, q1, v1) = kin(&x);
            let m = checked_mass(ode, t1, &q1)?;
            let f = checked_force(ode, t1, &q1, &v1)?;
            let inertia = m * x;
            let r = inertia - f;
            let rn = norm(&r);
            if !rn.finite() {
                return Err(Error::SolverFailed);
            }
            // the size of the two terms whose difference is the residual
            let scale = norm(&inertia).max(norm(&f));
            let converged = rn / n_coord <= self.newton.absolute_tolerance
                || rn <= self.newton.relative_tolerance * scale
                || stagnated;
            if converged {
                if !all_finite_of(&[&q1, &v1, &a1]) {
                    return Err(Error::SolverFailed);
                }
                *state = SecondOrderState {
                    q: q1,
                    q_t: v1,
                    q_tt: x,
                    a: a1,
                };
                return Ok(AlphaStepInfo {
                    newton_iterations: iterations,
                });
            }
            if iterations >= self.newton.max_iterations {
                return Err(Error::SolverFailed);
            }
            let jac = match ode.force_jacobians(t1, &q1, &v1) {
                Some(j) => j?,
                None => finite_difference_jacobians(ode, t1, &q1, &v1, &f)?,
            };
            let iteration_matrix = m - jac.df_dq * dq_dx - jac.df_dq_t * dv_dx;
            let dx = solve(&iteration_matrix, &(-r)).ok_or(Error::SolverFailed)?;
            if !all_finite(&dx) {
                return Err(Error::SolverFailed);
            }
            x += dx;
            iterations += 1;
            stagnated = norm(&dx) <= eps8 * norm(&x);
        }
    }
}

fn checked_mass<T: Real, O: SecondOrderOde<T, N>, const N: usize>(
    ode: &O,
    t: T,
    q: &SVector<T, N>,
) -> Result<SMatrix<T, N, N>> {
    let m = ode.mass(t, q)?;
    if all_finite(&m) {
        Ok(m)
    } else {
        Err(Error::NotFinite(Param::Mass))
    }
}

fn checked_force<T: Real, O: SecondOrderOde<T, N>, const N: usize>(
    ode: &O,
    t: T,
    q: &SVector<T, N>,
    v: &SVector<T, N>,
) -> Result<SVector<T, N>> {
    let f = ode.force(t, q, v)?;
    if all_finite(&f) {
        Ok(f)
    } else {
        Err(Error::NotFinite(Param::Force))
    }
}

/// Forward differences with the step `sqrt(eps) (1 + |x_j|)` per coordinate.
fn finite_difference_jacobians<T: Real, O: SecondOrderOde<T, N>, const N: usize>(
    ode: &O,
    t: T,
    q: &SVector<T, N>,
    v: &SVector<T, N>,
    f0: &SVector<T, N>,
) -> Result<ForceJacobians<T, N>> {
    let sqrt_eps = T::EPS.sqrt_l();
    let mut df_dq = SMatrix::<T, N, N>::zeros();
    let mut df_dq_t = SMatrix::<T, N, N>::zeros();
    for j in 0..N {
        let mut qp = *q;
        let dq = sqrt_eps * (T::one() + q[j].abs_l());
        qp[j] += dq;
        let col = (checked_force(ode, t, &qp, v)? - f0) / (qp[j] - q[j]);
        df_dq.set_column(j, &col);
        let mut vp = *v;
        let dv = sqrt_eps * (T::one() + v[j].abs_l());
        vp[j] += dv;
        let col = (checked_force(ode, t, q, &vp)? - f0) / (vp[j] - v[j]);
        df_dq_t.set_column(j, &col);
    }
    Ok(ForceJacobians { df_dq, df_dq_t })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::integrators::FnOde;
    use approx::assert_relative_eq;
    use nalgebra::{Matrix1, Vector1, Vector2};

    #[test]
    fn parameters_for_rho_0_9_and_the_trapezoidal_limit() {
        let (am, af, g, b) = GeneralizedAlpha::new(0.9f64).unwrap().parameters();
        assert_relative_eq!(am, 0.8 / 1.9, max_relative = 1e-15);
        assert_relative_eq!(af, 0.9 / 1.9, max_relative = 1e-15);
        assert_relative_eq!(g, 0.5 + 0.1 / 1.9, max_relative = 1e-15);
        assert_relative_eq!(
            b,
            0.25 * (1.0 + 0.1 / 1.9) * (1.0 + 0.1 / 1.9),
            max_relative = 1e-15
        );
        // rho_inf = 1: trapezoidal rule (Newmark gamma = 1/2, beta = 1/4)
        let (am, af, g, b) = GeneralizedAlpha::new(1.0f64).unwrap().parameters();
        assert_eq!((am, af, g, b), (0.5, 0.5, 0.5, 0.25));
        assert_eq!(
            GeneralizedAlpha::new(1.01f64),
            Err(Error::OutOfRange(Param::Setting))
        );
        assert_eq!(
            GeneralizedAlpha::new(f64::NAN),
            Err(Error::NotFinite(Param::Setting))
        );
    }

    #[test]
    fn nonlinear_pendulum_converges_with_finite_difference_jacobians() {
        // phi_tt = -(g/l) sin(phi), no Jacobian given; compare with the same model given the
        // exact Jacobian: both must converge to the same tolerance.
        let ga = GeneralizedAlpha::new(0.9f64).unwrap();
        let fd = FnOde::new(
            Matrix1::new(1.0),
            |_t, q: &Vector1<f64>, _v: &Vector1<f64>| Vector1::new(-9.81 * q[0].sin()),
        )
        .unwrap();
        let mut s = ga
            .initial_state(&fd, 0.0, &Vector1::new(1.0), &Vector1::new(0.0))
            .unwrap();
        assert_relative_eq!(s.q_tt[0], -9.81 * 1.0f64.sin(), max_relative = 1e-15);
        let mut e0 = None;
        for i in 0..200 {
            let info = ga.step(&fd, &mut s, f64::from(i) * 0.01, 0.01).unwrap();
            assert!(info.newton_iterations <= 6, "{info:?}");
            // residual of the equation of motion at the new state
            assert!((s.q_tt[0] + 9.81 * s.q[0].sin()).abs() < 1e-9);
            let e = 0.5 * s.q_t[0] * s.q_t[0] - 9.81 * s.q[0].cos();
            let e0 = *e0.get_or_insert(-9.81 * 1.0f64.cos());
            // numerical damping at 0.9 is weak at omega h ~ 0.03: energy within 0.5 %
            assert!((e - e0).abs() < 5e-3 * e0.abs(), "step {i}: {e} vs {e0}");
        }
    }

    #[test]
    fn bad_steps_leave_the_state_unchanged() {
        let ga = GeneralizedAlpha::new(0.9f64).unwrap();
        let ode = FnOde::new(
            nalgebra::Matrix2::identity(),
            |_t, q: &Vector2<f64>, _v: &Vector2<f64>| -q,
        )
        .unwrap();
        let s0 = ga
            .initial_state(&ode, 0.0, &Vector2::new(1.0, 2.0), &Vector2::new(3.0, 4.0))
            .unwrap();
        let mut s = s0;
        assert_eq!(
            ga.step(&ode, &mut s, 0.0, 0.0),
            Err(Error::OutOfRange(Param::TimeStep))
        );
        assert_eq!(
            ga.step(&ode, &mut s, 0.0, -1e-3),
            Err(Error::OutOfRange(Param::TimeStep))
        );
        assert_eq!(
            ga.step(&ode, &mut s, 0.0, f64::NAN),
            Err(Error::NotFinite(Param::TimeStep))
        );
        assert_eq!(
            ga.step(&ode, &mut s, f64::INFINITY, 1e-3),
            Err(Error::NotFinite(Param::SimulationTime))
        );
        assert_eq!(s, s0);
        let mut bad = s0;
        bad.a[1] = f64::NAN;
        let bad0 = bad;
        assert_eq!(
            ga.step(&ode, &mut bad, 0.0, 1e-3),
            Err(Error::NonFiniteState)
        );
        assert_eq!(bad.q, bad0.q);
        // a force that blows up: error, state unchanged
        let nan = FnOde::new(
            nalgebra::Matrix2::identity(),
            |t: f64, _q: &Vector2<f64>, _v: &Vector2<f64>| {
                if t > 0.0 {
                    Vector2::new(f64::NAN, 0.0)
                } else {
                    Vector2::zeros()
                }
            },
        )
        .unwrap();
        let mut s = ga
            .initial_state(&nan, 0.0, &Vector2::zeros(), &Vector2::zeros())
            .unwrap();
        let s1 = s;
        assert_eq!(
            ga.step(&nan, &mut s, 0.0, 1e-3),
            Err(Error::NotFinite(Param::Force))
        );
        assert_eq!(s, s1);
        // singular mass matrix
        let sing = FnOde::new(
            nalgebra::Matrix2::zeros(),
            |_t, _q: &Vector2<f64>, _v: &Vector2<f64>| Vector2::new(1.0, 0.0),
        )
        .unwrap();
        assert_eq!(
            ga.initial_state(&sing, 0.0, &Vector2::zeros(), &Vector2::zeros()),
            Err(Error::SolverFailed)
        );
    }

    #[test]
    fn no_convergence_is_an_error_and_leaves_the_state_unchanged() {
        // a stiff cubic spring, far from the predictor, with a single Newton update allowed
        let newton = NewtonSettings {
            max_iterations: 1,
            ..NewtonSettings::default()
        };
        let ga = GeneralizedAlpha::new(0.9f64)
            .unwrap()
            .with_newton(newton)
            .unwrap();
        let ode = FnOde::new(
            Matrix1::new(1.0),
            |_t, q: &Vector1<f64>, _v: &Vector1<f64>| Vector1::new(-1e4 * q[0] * q[0] * q[0]),
        )
        .unwrap();
        let mut s = ga
            .initial_state(&ode, 0.0, &Vector1::new(1.0), &Vector1::new(30.0))
            .unwrap();
        let s0 = s;
        assert_eq!(ga.step(&ode, &mut s, 0.0, 0.05), Err(Error::SolverFailed));
        assert_eq!(s, s0);
        // with the default 25 updates it converges
        let ga = GeneralizedAlpha::new(0.9f64).unwrap();
        let info = ga.step(&ode, &mut s, 0.0, 0.05).unwrap();
        assert!(info.newton_iterations > 1, "{info:?}");
        let r = s.q_tt[0] + 1e4 * s.q[0].powi(3);
        assert!(
            r.abs() <= 1e-6 * (1e4 * s.q[0].powi(3)).abs(),
            "{s:?} {r} {info:?}"
        );
        assert_eq!(
            GeneralizedAlpha::new(0.9f64)
                .unwrap()
                .with_newton(NewtonSettings {
                    max_iterations: 0,
                    ..NewtonSettings::default()
                }),
            Err(Error::OutOfRange(Param::Setting))
        );
    }

    #[test]
    fn f32_converges_by_the_round_off_criterion() {
        let ga = GeneralizedAlpha::new(0.9f32).unwrap();
        let ode = FnOde::new(
            Matrix1::new(1.0f32),
            |_t, q: &Vector1<f32>, _v: &Vector1<f32>| Vector1::new(-100.0 * q[0]),
        )
        .unwrap();
        let mut s = ga
            .initial_state(&ode, 0.0, &Vector1::new(1.0), &Vector1::new(0.0))
            .unwrap();
        for i in 0..100 {
            let info = ga.step(&ode, &mut s, i as f32 * 1e-3, 1e-3).unwrap();
            assert!(info.newton_iterations <= 4, "{info:?}");
        }
        // x(0.1) = cos(10 * 0.1)
        assert!((s.q[0] - 1.0f32.cos()).abs() < 2e-3, "{}", s.q[0]);
    }
}
