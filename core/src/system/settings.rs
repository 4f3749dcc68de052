//! How a system integrates: the system scheme, the rigid-body scheme, sub-stepping.
//! (What time span a solve covers is [`SimulationSettings`](crate::solver::SimulationSettings).)

use crate::integrators::constrained::{Assembly, ConstrainedAlpha, Formulation};
use crate::integrators::rigid::schemes::RigidScheme;
use crate::integrators::NewtonSettings;
use crate::integrators::StepSettings;
use crate::{Error, Param, Real, Result};

/// The scheme that advances a system in time: how its bodies are coupled within a step (see
/// the [module docs](super) for the equations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SystemScheme {
    /// Strang splitting "kick-drift-kick" (velocity Verlet generalized to rigid bodies):
    /// second order for position- and velocity-dependent forces, symplectic for conservative
    /// ones. The default.
    #[default]
    KickDriftKick,
    /// Every load and connector force evaluated at the start of the step and held, each body
    /// advanced by its own integrator. First order in the coupling of the bodies; for one free rigid body it
    /// is exactly the rigid scheme's step.
    HeldLoads,
    /// Implicit generalized-alpha on all coordinates with the constraints' Lagrange
    /// multipliers, Newton on the accelerations and multipliers ([`AlphaSettings`]; Exudyn's
    /// `SolveDynamic`). The only scheme that steps constraints; it steps 2D nodes (points, 2D
    /// rigid bodies) and the ground.
    GeneralizedAlpha,
}

/// The coordinates of a 3D rigid body's rotation in the generalized-alpha scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Rotations {
    /// Euler parameters with their normalization as a constraint (Exudyn's `NodeRigidBodyEP`,
    /// [`euler_parameters`](crate::bodies::euler_parameters)): 7 coordinates and one equation a
    /// body; the results of Exudyn's `SolveDynamic` on the same model to its tolerances. The
    /// default.
    #[default]
    EulerParameters,
    /// The Lie group `SO(3) x R^3` (Brüls, Cardona and Arnold's Lie-group generalized-alpha,
    /// [`lie_group`](crate::bodies::lie_group)): 6 unknowns a body, no normalization, the
    /// orientation a unit quaternion updated by the exponential of each step's rotation.
    LieGroup,
}

/// The generalized-alpha scheme's settings (Exudyn's `timeIntegration` defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct AlphaSettings<T: Real> {
    /// Spectral radius at infinite frequency `rho_inf` in `[0, 1]` (default 0.9; index 3 needs
    /// it below 1 with constraints, and the real-time mode refuses index 3 at 1;
    /// [`Formulation::StabilizedIndex2`] works at 1).
    pub spectral_radius: T,
    /// Newton tolerances and iterations of each step.
    pub newton: NewtonSettings<T>,
    /// How the constraints enter (default index 3, Exudyn's).
    pub formulation: Formulation,
    /// Halve a step whose Newton iteration fails, up to this many times (Exudyn's automatic
    /// step reduction; default 0, at most 16).
    pub step_halving: u32,
    /// The start: the tolerances of the initial positions and velocities against the
    /// constraints, and whether to project them onto the constraints (Exudyn's initial
    /// assembly) instead of refusing them.
    pub assembly: Assembly<T>,
    /// Real-time mode: at most this many Newton updates a step, the iterate after the last
    /// one taken without the evaluation that would only confirm it, so that a step's cost is
    /// bounded ([`ConstrainedAlpha::with_real_time_updates`]); at most `newton.max_iterations`.
    /// Default 0: off (iterate until the tolerances are met, as Exudyn does).
    pub real_time_updates: u32,
    /// The coordinates of the 3D rigid bodies' rotations (default Euler parameters, Exudyn's).
    pub rotations: Rotations,
}

impl<T: Real> Default for AlphaSettings<T> {
    fn default() -> Self {
        Self {
            spectral_radius: T::c(0.9),
            newton: NewtonSettings::default(),
            formulation: Formulation::Index3,
            step_halving: 0,
            assembly: Assembly::default(),
            real_time_updates: 0,
            rotations: Rotations::EulerParameters,
        }
    }
}

impl<T: Real> AlphaSettings<T> {
    /// The scheme of these settings; `NotFinite | OutOfRange(Setting)`.
    pub fn scheme(&self) -> Result<ConstrainedAlpha<T>> {
        for tol in [self.assembly.tolerance, self.assembly.velocity_tolerance] {
            crate::error::finite(tol, Param::Setting)?;
            if tol < T::zero() {
                return Err(Error::OutOfRange(Param::Setting));
            }
        }
        ConstrainedAlpha::new(self.spectral_radius)?
            .with_formulation(self.formulation)
            .with_newton(self.newton)?
            .with_step_halving(self.step_halving)?
            .with_real_time_updates(self.real_time_updates)
    }
}

/// How a system integrates (stored in the system, used by `step` and `solve_dynamic`).
///
/// `#[non_exhaustive]`: start from `default()` and set fields.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SystemSettings<T: Real> {
    /// The system's scheme (default [`SystemScheme::KickDriftKick`]).
    pub scheme: SystemScheme,
    /// Rigid-body scheme (default [`RigidScheme::MidpointMeanRate`]). Mass points need no
    /// choice: their drift (kick-drift-kick) is exact, and with held loads their step is the
    /// exact solution for the held force, `q' = q + h v + h^2/2 a`, `v' = v + h a`
    /// (what generalized-alpha gives for a constant force).
    pub rigid: RigidScheme,
    /// Rotation bound per step and sub-stepping of the rigid bodies' rotation
    /// ([`StepSettings`]; with kick-drift-kick only the torque-free drift is sub-stepped).
    pub step: StepSettings<T>,
    /// Kick-drift-kick only: force evaluations after the first one at the end of a step when a
    /// force depends on the velocities (a connector with damping): each re-evaluates the
    /// forces at the corrected velocity (a fixed-point iteration on the implicit last
    /// half-kick). `1` (default) keeps the scheme second order; `0` makes the damping explicit
    /// (first order). Without damping the end forces are evaluated once, whatever this is.
    pub damping_corrections: u32,
    /// Settings of [`SystemScheme::GeneralizedAlpha`].
    pub alpha: AlphaSettings<T>,
}

impl<T: Real> Default for SystemSettings<T> {
    fn default() -> Self {
        Self {
            scheme: SystemScheme::default(),
            rigid: RigidScheme::default(),
            step: StepSettings::default(),
            damping_corrections: 1,
            alpha: AlphaSettings::default(),
        }
    }
}

impl<T: Real> SystemSettings<T> {
    /// Sets [`SystemSettings::scheme`].
    pub fn with_scheme(mut self, scheme: SystemScheme) -> Self {
        self.scheme = scheme;
        self
    }

    /// Sets [`SystemSettings::rigid`].
    pub fn with_rigid(mut self, rigid: RigidScheme) -> Self {
        self.rigid = rigid;
        self
    }

    /// Sets [`SystemSettings::step`].
    pub fn with_step(mut self, step: StepSettings<T>) -> Self {
        self.step = step;
        self
    }

    /// Sets [`SystemSettings::alpha`].
    pub fn with_alpha(mut self, alpha: AlphaSettings<T>) -> Self {
        self.alpha = alpha;
        self
    }

    /// Sets [`SystemSettings::damping_corrections`].
    pub fn with_damping_corrections(mut self, n: u32) -> Self {
        self.damping_corrections = n;
        self
    }

    /// `NotFinite | OutOfRange(Setting)` for bad step or generalized-alpha settings or more
    /// than 16 damping corrections (which cost a force evaluation each and gain nothing).
    pub fn validate(&self) -> Result<()> {
        self.step.validate()?;
        self.alpha.scheme()?;
        if self.damping_corrections > 16 {
            return Err(Error::OutOfRange(Param::Setting));
        }
        Ok(())
    }
}
