//! [`ConstrainedAlpha`]: the scheme's parameters, Newton settings, formulation, real-time mode
//! and step halving; [`Assembly`]: how a start treats inconsistent positions and velocities.

use crate::integrators::newton::NewtonSettings;
use crate::integrators::second_order::generalized_alpha::parameters_of;
use crate::{Error, Param, Real, Result};

/// The most step-halving levels a scheme takes ([`ConstrainedAlpha::with_step_halving`]).
pub const MAX_HALVINGS: usize = 16;

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

/// The scheme: its parameters, Newton settings and step halving (no state).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedAlpha<T: Real> {
    pub(super) rho_inf: T,
    pub(super) alpha_m: T,
    pub(super) alpha_f: T,
    pub(super) gamma: T,
    pub(super) beta: T,
    pub(super) newton: NewtonSettings<T>,
    pub(super) max_halvings: u32,
    pub(super) formulation: Formulation,
    /// Real-time mode's updates per step (module docs); 0: off.
    pub(super) real_time_updates: u32,
}

/// How [`ConstrainedAlpha::initial_state`] treats positions and velocities that do not satisfy
/// the constraints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assembly<T> {
    /// Largest accepted `|C(q_0)|` (m or rad); default `1e-8` (64 round-offs in `f32`, where
    /// positions near 1 m round to a few 1e-7).
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
            // 1e-8 m, or 64 round-offs in f32: positions rounded to f32 near 1 m satisfy the
            // constraints only to a few 1e-7.
            tolerance: T::c(1e-8).max(T::EPS * T::c(64.0)),
            velocity_tolerance: T::c(1e-4),
            solve: false,
        }
    }
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
    /// `OutOfRange(Setting)` if `k` exceeds the Newton settings' `max_iterations`, or for
    /// index 3 ([`Formulation::Index3`], set the formulation first) at `rho_inf = 1`: with
    /// no damping of the multipliers' error and no iteration to convergence, the constraints
    /// drift without a warning.
    pub fn with_real_time_updates(mut self, k: u32) -> Result<Self> {
        if k > self.newton.max_iterations {
            return Err(Error::OutOfRange(Param::Setting));
        }
        if k > 0 && self.formulation == Formulation::Index3 && self.rho_inf >= T::one() {
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
    /// (`h / 2^levels`, at most [`MAX_HALVINGS`] levels; `OutOfRange(Setting)` above).
    pub fn with_step_halving(mut self, levels: u32) -> Result<Self> {
        if levels > MAX_HALVINGS as u32 {
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
}
