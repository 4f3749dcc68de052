//! Settings of a dynamic simulation, with the defaults of Exudyn's `SolveDynamic`:
//! generalized-alpha, end time 1 s, 100 steps, spectral radius 0.9, Newton relative tolerance
//! 1e-8, absolute tolerance 1e-10.

use crate::error::finite;
pub use crate::integrators::NewtonSettings;
use crate::{Error, Param, Real, Result};

/// Which time integrator a dynamic solve uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum DynamicSolverType {
    /// Generalized-alpha (Chung-Hulbert, in Arnold-Brüls form), Exudyn's default
    /// ([`GeneralizedAlpha`](crate::integrators::GeneralizedAlpha)).
    #[default]
    GeneralizedAlpha,
    /// A system's own scheme ([`SystemSettings::scheme`](crate::system::SystemSettings),
    /// kick-drift-kick by default): `System::solve_dynamic` steps as `System::step` does.
    /// Not for the single-body solvers (they are generalized-alpha only).
    SystemScheme,
}

/// Settings of a dynamic solve (Exudyn's `SimulationSettings.timeIntegration`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimulationSettings<T: Real> {
    /// Start time (s; default 0).
    pub start_time: T,
    /// End time (s; default 1).
    pub end_time: T,
    /// Number of equal steps from start to end time (default 100); step `h = (end - start) / n`.
    pub number_of_steps: u32,
    /// Spectral radius at infinite frequency `rho_inf` of generalized-alpha, in `[0, 1]`
    /// (default 0.9; 1 = no numerical damping).
    pub spectral_radius: T,
    /// Newton iteration of each step.
    pub newton: NewtonSettings<T>,
    /// The integrator (default generalized-alpha).
    pub solver_type: DynamicSolverType,
}

impl<T: Real> Default for SimulationSettings<T> {
    /// Exudyn's `SolveDynamic` defaults.
    fn default() -> Self {
        Self {
            start_time: T::zero(),
            end_time: T::one(),
            number_of_steps: 100,
            spectral_radius: T::c(0.9),
            newton: NewtonSettings::default(),
            solver_type: DynamicSolverType::GeneralizedAlpha,
        }
    }
}

impl<T: Real> SimulationSettings<T> {
    /// Checks every setting: finite times with `end_time > start_time`
    /// (`NotFinite`/`OutOfRange(SimulationTime)`), `number_of_steps >= 1`
    /// (`OutOfRange(SimulationTime)`), `spectral_radius` in `[0, 1]` and valid Newton settings
    /// (`NotFinite`/`OutOfRange(Setting)`).
    pub fn validate(&self) -> Result<()> {
        finite(self.start_time, Param::SimulationTime)?;
        finite(self.end_time, Param::SimulationTime)?;
        if self.end_time <= self.start_time || self.number_of_steps == 0 {
            return Err(Error::OutOfRange(Param::SimulationTime));
        }
        finite(self.spectral_radius, Param::Setting)?;
        if self.spectral_radius < T::zero() || self.spectral_radius > T::one() {
            return Err(Error::OutOfRange(Param::Setting));
        }
        self.newton.validate()?;
        let h = self.step_size();
        if h <= T::zero() || !h.finite() {
            return Err(Error::OutOfRange(Param::TimeStep));
        }
        Ok(())
    }

    /// The step size `h = (end_time - start_time) / number_of_steps` (s).
    pub fn step_size(&self) -> T {
        (self.end_time - self.start_time) / T::c(f64::from(self.number_of_steps))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_exudyns_solve_dynamic() {
        let s = SimulationSettings::<f64>::default();
        assert_eq!(s.end_time, 1.0);
        assert_eq!(s.number_of_steps, 100);
        assert_eq!(s.spectral_radius, 0.9);
        assert_eq!(s.newton.relative_tolerance, 1e-8);
        assert_eq!(s.newton.absolute_tolerance, 1e-10);
        assert_eq!(s.solver_type, DynamicSolverType::GeneralizedAlpha);
        assert_eq!(s.step_size(), 0.01);
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn bad_settings_are_refused() {
        let ok = SimulationSettings::<f64>::default();
        let bad = [
            (
                SimulationSettings {
                    end_time: 0.0,
                    ..ok
                },
                Error::OutOfRange(Param::SimulationTime),
            ),
            (
                SimulationSettings {
                    end_time: f64::NAN,
                    ..ok
                },
                Error::NotFinite(Param::SimulationTime),
            ),
            (
                SimulationSettings {
                    number_of_steps: 0,
                    ..ok
                },
                Error::OutOfRange(Param::SimulationTime),
            ),
            (
                SimulationSettings {
                    spectral_radius: 1.5,
                    ..ok
                },
                Error::OutOfRange(Param::Setting),
            ),
            (
                SimulationSettings {
                    spectral_radius: -0.1,
                    ..ok
                },
                Error::OutOfRange(Param::Setting),
            ),
            (
                SimulationSettings {
                    newton: NewtonSettings {
                        max_iterations: 0,
                        ..ok.newton
                    },
                    ..ok
                },
                Error::OutOfRange(Param::Setting),
            ),
            (
                SimulationSettings {
                    newton: NewtonSettings {
                        relative_tolerance: f64::NAN,
                        ..ok.newton
                    },
                    ..ok
                },
                Error::NotFinite(Param::Setting),
            ),
        ];
        for (s, e) in bad {
            assert_eq!(s.validate(), Err(e), "{s:?}");
        }
    }
}
