//! Settings every rigid-body step shares: the rotation-per-step bound, the load-frequency
//! bound (held stiff loads) and sub-stepping.

use crate::error::finite;
use crate::{Error, Param, Real, Result};

/// Step-size control shared by all rigid-body integrators (scheme-specific options live in
/// each scheme's own settings, e.g. [`MidpointSettings`](super::midpoint::MidpointSettings)).
///
/// `#[non_exhaustive]`: build it with [`StepSettings::default`] and the `with_*` setters (or
/// assign the public fields), so new options can be added without breaking callers.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct StepSettings<T> {
    /// Largest rotation per (sub-)step, `|w| h` (rad), default `0.5`: above it the step reports
    /// [`StepStatus::StepTooLarge`](super::StepStatus::StepTooLarge), and with `substep` it
    /// is the target of the sub-step size. Finite and > 0.
    pub max_rotation_per_step: T,
    /// Split `dt` into `n` equal sub-steps, `n = ceil(|w| dt / max_rotation_per_step)`. A
    /// sub-step whose start or end rate turns by more than the bound (the rate grew within it)
    /// is thrown away and the rest of `dt` re-planned finer from the larger rate. Default
    /// `false` (one step of `dt`, warning only). Loads stay those given for the whole `dt`.
    pub substep: bool,
    /// Cap on the sub-step evaluations (taken or redone) in one call (>= 1), default 1024: it
    /// bounds the run time of a call. When it binds, the affordable sub-steps cover `dt` and the
    /// step reports the limit and the warning.
    pub max_substeps: u32,
    /// Highest natural frequency `omega_max` (rad/s) of the state-dependent loads the caller
    /// evaluates at the start of each step and holds over it (springs, PD controllers): e.g.
    /// `sqrt(k/m)` of a spring `k` (N/m) on mass `m` (kg), `sqrt(k_t / I)` of a torsional spring
    /// `k_t` (N m/rad). `None` (default): no such loads declared, no check. When set, the step
    /// reports [`StepStatus::StepTooLarge`](super::StepStatus::StepTooLarge) if
    /// `dt * omega_max > max_load_phase_per_step`. Finite and >= 0.
    ///
    /// Sub-stepping does not help here: the loads are held for the whole `dt` (the caller must
    /// evaluate them more often, i.e. call the step with a shorter `dt`).
    pub load_frequency: Option<T>,
    /// Bound on `dt * omega_max` (-), default `1.0`. The held spring coupling of the end-rate
    /// midpoint (and of symplectic Euler) is stable for `dt omega < 2` undamped and for
    /// `dt omega < 2 (sqrt(1 + zeta^2) - zeta)` with a held damper of ratio `zeta`: the default
    /// leaves a factor 2 for the undamped spring and covers held dampers up to `zeta = 3/4`
    /// (see [`midpoint`](super::midpoint) for the measured limits). Finite and > 0.
    pub max_load_phase_per_step: T,
}

impl<T: Real> Default for StepSettings<T> {
    fn default() -> Self {
        Self {
            max_rotation_per_step: T::c(0.5),
            substep: false,
            max_substeps: 1024,
            load_frequency: None,
            max_load_phase_per_step: T::c(1.0),
        }
    }
}

impl<T: Real> StepSettings<T> {
    /// Sets [`StepSettings::max_rotation_per_step`] (rad).
    pub fn with_max_rotation_per_step(mut self, theta: T) -> Self {
        self.max_rotation_per_step = theta;
        self
    }

    /// Sets [`StepSettings::substep`].
    pub fn with_substep(mut self, on: bool) -> Self {
        self.substep = on;
        self
    }

    /// Sets [`StepSettings::max_substeps`].
    pub fn with_max_substeps(mut self, n: u32) -> Self {
        self.max_substeps = n;
        self
    }

    /// Sets [`StepSettings::load_frequency`] (rad/s; `None` for no check).
    pub fn with_load_frequency(mut self, omega_max: Option<T>) -> Self {
        self.load_frequency = omega_max;
        self
    }

    /// Sets [`StepSettings::load_frequency`] from a stiffness per mass `k/m` (N/m/kg = 1/s^2,
    /// or N m/rad per kg m^2 for a torsional spring): `omega_max = sqrt(k/m)`. A negative or
    /// non-finite value is kept as a NaN frequency, which [`StepSettings::validate`] refuses.
    pub fn with_stiffness_per_mass(mut self, k_over_m: T) -> Self {
        self.load_frequency = Some(if k_over_m >= T::zero() {
            k_over_m.sqrt_l()
        } else {
            T::c(f64::NAN)
        });
        self
    }

    /// Sets [`StepSettings::max_load_phase_per_step`] (-).
    pub fn with_max_load_phase_per_step(mut self, bound: T) -> Self {
        self.max_load_phase_per_step = bound;
        self
    }

    /// `true` if a declared load frequency makes `dt` too long:
    /// `dt * load_frequency > max_load_phase_per_step`.
    #[inline]
    pub fn load_phase_too_large(&self, dt: T) -> bool {
        match self.load_frequency {
            Some(omega) => omega * dt > self.max_load_phase_per_step,
            None => false,
        }
    }

    /// `NotFinite(Setting)` / `OutOfRange(Setting)` unless `max_rotation_per_step` and
    /// `max_load_phase_per_step` are finite and > 0, `max_substeps >= 1`, and
    /// `load_frequency` (if set) is finite and >= 0.
    pub fn validate(&self) -> Result<()> {
        finite(self.max_rotation_per_step, Param::Setting)?;
        finite(self.max_load_phase_per_step, Param::Setting)?;
        if self.max_rotation_per_step <= T::zero()
            || self.max_load_phase_per_step <= T::zero()
            || self.max_substeps == 0
        {
            return Err(Error::OutOfRange(Param::Setting));
        }
        if let Some(omega) = self.load_frequency {
            finite(omega, Param::Setting)?;
            if omega < T::zero() {
                return Err(Error::OutOfRange(Param::Setting));
            }
        }
        Ok(())
    }
}
