//! How a system integrates: the coupling scheme, the rigid-body scheme, sub-stepping.
//! (What time span a solve covers is [`SimulationSettings`](crate::solver::SimulationSettings).)

use crate::integrators::StepSettings;
use crate::{Error, Param, Real, Result};

/// How the bodies are coupled within a step (see the [module docs](super) for the equations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Coupling {
    /// Strang splitting "kick-drift-kick" (velocity Verlet generalized to rigid bodies):
    /// second order for position- and velocity-dependent forces, symplectic for conservative
    /// ones. The default.
    #[default]
    KickDriftKick,
    /// Every load and connector force evaluated at the start of the step and held, each body
    /// advanced by its own integrator. First order in the coupling; for one free rigid body it
    /// is exactly the rigid scheme's step.
    HeldLoads,
}

/// The scheme of the rigid bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum RigidScheme {
    /// The linearly implicit midpoint step with its default options
    /// ([`DefaultMidpoint`](crate::integrators::rigid::midpoint::DefaultMidpoint)):
    /// orientation turned by the end rate, `q' = q exp(h w')` (orientation order 1).
    Midpoint,
    /// The midpoint step's angular-velocity update (same `w'`, same energy and `|L|` behaviour) with the
    /// orientation turned by the mean rate, `q' = q exp(h (w + w')/2)`: orientation order 2, so
    /// that forces depending on the orientation (off-centre springs, body-fixed torques) keep
    /// the coupled scheme second order. The default.
    #[default]
    MidpointMeanRate,
    /// Baseline: explicit Euler (order 1, energy grows).
    ExplicitEuler,
    /// Baseline: semi-implicit Euler (order 1).
    SymplecticEuler,
    /// Baseline: classical Runge-Kutta 4 (order 4, not structure preserving).
    Rk4,
}

/// How a system integrates (stored in the system, used by `step` and `solve_dynamic`).
///
/// `#[non_exhaustive]`: start from `default()` and set fields.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct SystemSettings<T> {
    /// Coupling of the bodies (default [`Coupling::KickDriftKick`]).
    pub coupling: Coupling,
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
}

impl<T: Real> Default for SystemSettings<T> {
    fn default() -> Self {
        Self {
            coupling: Coupling::default(),
            rigid: RigidScheme::default(),
            step: StepSettings::default(),
            damping_corrections: 1,
        }
    }
}

impl<T: Real> SystemSettings<T> {
    /// Sets [`SystemSettings::coupling`].
    pub fn with_coupling(mut self, coupling: Coupling) -> Self {
        self.coupling = coupling;
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

    /// Sets [`SystemSettings::damping_corrections`].
    pub fn with_damping_corrections(mut self, n: u32) -> Self {
        self.damping_corrections = n;
        self
    }

    /// `NotFinite | OutOfRange(Setting)` for bad step settings or more than 16 damping
    /// corrections (which cost a force evaluation each and gain nothing).
    pub fn validate(&self) -> Result<()> {
        self.step.validate()?;
        if self.damping_corrections > 16 {
            return Err(Error::OutOfRange(Param::Setting));
        }
        Ok(())
    }
}
