//! Settings of a dynamic solve (Exudyn's `SimulationSettings.timeIntegration`) from the C side,
//! with `mbs_simulation_settings_default` = Exudyn's `SolveDynamic` defaults; in double
//! (`mbs_simulation_settings`) and single precision (`mbs_simulation_settings_f32`, for the
//! `_f32` mass point step).

use crate::boundary::{finite, guard, non_null_out, FfiResult};
use crate::status::status_of;
use crate::status::*;
use mbs_core::integrators::GeneralizedAlpha;
use mbs_core::solver::{DynamicSolverType, NewtonSettings, SimulationSettings};
use mbs_core::Real;

/// Which dynamic solver a solve uses (`MBS_DYNAMIC_SOLVER_*`, fixed numbers).
pub type MbsDynamicSolver = u32;

/// Generalized-alpha (Chung-Hulbert in Arnold-Brüls form), Exudyn's default: on a system, on
/// all its coordinates with the constraints' multipliers (every kind of node; see
/// `MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA`).
pub const MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA: MbsDynamicSolver = 0;
/// A system's own scheme (`mbs_system_settings.scheme`, kick-drift-kick by default), as
/// `mbs_system_step` steps; for `mbs_system_solve_dynamic` only (the single-body calls refuse
/// it with `MBS_ERR_INVALID_ARGUMENT`).
pub const MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME: MbsDynamicSolver = 1;

/// Settings of a dynamic simulation, generic over the scalar: use `mbs_simulation_settings`
/// (double) or `mbs_simulation_settings_f32` (float). Fill with
/// `mbs_simulation_settings_default(_f32)`, then override fields. The per-step calls
/// (`mbs_mass_point_2d_step(_f32)`) use only `solver_type`, `spectral_radius` and the Newton
/// fields.
///
/// Which settings a system's generalized-alpha step uses, when both this struct and
/// `mbs_system_settings` hold some: a solve with `MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA` takes
/// `spectral_radius` and the Newton fields from here and everything else (formulation,
/// rotations, real-time updates, step halving, assembly) from the system's settings, for the
/// run only (the system's settings are as before after it); a solve with
/// `MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME` and `mbs_system_step` take all from the system's
/// settings.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_simulation_settings_of<T> {
    /// Start time (s), default 0.
    pub start_time: T,
    /// End time (s), > `start_time`, default 1.
    pub end_time: T,
    /// Number of equal steps from start to end time (>= 1), default 100: `h = (end - start) / n`.
    pub number_of_steps: u32,
    /// The solver, an `MBS_DYNAMIC_SOLVER_*` value (default generalized-alpha); another value
    /// is `MBS_ERR_INVALID_ARGUMENT`.
    pub solver_type: MbsDynamicSolver,
    /// Spectral radius at infinite frequency `rho_inf` of generalized-alpha, in [0, 1]
    /// (default 0.9; 1 = no numerical damping).
    pub spectral_radius: T,
    /// Newton: converged when `|r| <= relative_tolerance * max(|M q_tt|, |f|)` (-), default 1e-8
    /// (1e-5 in single precision).
    pub newton_relative_tolerance: T,
    /// Newton: converged when `|r| / n <= absolute_tolerance` (N per coordinate), default 1e-10
    /// (1e-6 in single precision).
    pub newton_absolute_tolerance: T,
    /// Newton: most updates per step (>= 1), default 25; then `MBS_ERR_SOLVER_FAILED`.
    pub newton_max_iterations: u32,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: u32,
}

/// The settings of a dynamic simulation in double precision.
pub type mbs_simulation_settings = mbs_simulation_settings_of<f64>;
/// The settings of a dynamic simulation in single precision.
pub type mbs_simulation_settings_f32 = mbs_simulation_settings_of<f32>;

impl<T: Real> mbs_simulation_settings_of<T> {
    /// Exudyn's `SolveDynamic` defaults (those of core, rounded to `T`).
    pub fn defaults() -> Self {
        let d = SimulationSettings::<T>::default();
        Self {
            start_time: d.start_time,
            end_time: d.end_time,
            number_of_steps: d.number_of_steps,
            solver_type: MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA,
            spectral_radius: d.spectral_radius,
            newton_relative_tolerance: d.newton.relative_tolerance,
            newton_absolute_tolerance: d.newton.absolute_tolerance,
            newton_max_iterations: d.newton.max_iterations,
            _pad0: Default::default(),
        }
    }

    fn newton(&self) -> FfiResult<NewtonSettings<T>> {
        Ok(NewtonSettings {
            relative_tolerance: finite(self.newton_relative_tolerance)?,
            absolute_tolerance: finite(self.newton_absolute_tolerance)?,
            max_iterations: self.newton_max_iterations,
        })
    }

    fn solver(&self) -> FfiResult<DynamicSolverType> {
        match self.solver_type {
            MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA => Ok(DynamicSolverType::GeneralizedAlpha),
            MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME => Ok(DynamicSolverType::SystemScheme),
            _ => Err(MBS_ERR_INVALID_ARGUMENT),
        }
    }

    /// The checked core settings of a whole solve: `MBS_ERR_INVALID_ARGUMENT` (solver type),
    /// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_SETTING` (times, step count, spectral radius,
    /// Newton).
    pub fn to_core(&self) -> FfiResult<SimulationSettings<T>> {
        let s = SimulationSettings {
            start_time: finite(self.start_time)?,
            end_time: finite(self.end_time)?,
            number_of_steps: self.number_of_steps,
            spectral_radius: finite(self.spectral_radius)?,
            newton: self.newton()?,
            solver_type: self.solver()?,
        };
        s.validate().map_err(status_of)?;
        Ok(s)
    }

    /// [`Self::to_core`] for a single body's solve: `MBS_ERR_INVALID_ARGUMENT` for
    /// `MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME` (a single body has no system scheme).
    pub fn to_core_single_body(&self) -> FfiResult<SimulationSettings<T>> {
        match self.solver()? {
            DynamicSolverType::GeneralizedAlpha => self.to_core(),
            _ => Err(MBS_ERR_INVALID_ARGUMENT),
        }
    }

    /// The checked integrator of one step (only solver type, spectral radius and Newton).
    pub fn integrator(&self) -> FfiResult<GeneralizedAlpha<T>> {
        match self.solver()? {
            DynamicSolverType::GeneralizedAlpha => {
                let rho = finite(self.spectral_radius)?;
                let newton = self.newton()?;
                GeneralizedAlpha::new(rho)
                    .and_then(|g| g.with_newton(newton))
                    .map_err(status_of)
            }
            _ => Err(MBS_ERR_INVALID_ARGUMENT),
        }
    }
}

/// Fills `*out` with Exudyn's `SolveDynamic` defaults: start 0 s, end 1 s, 100 steps,
/// generalized-alpha with spectral radius 0.9, Newton relative tolerance 1e-8, absolute
/// tolerance 1e-10 (1e-5 and 1e-6 in `mbs_simulation_settings_default_f32`), 25 iterations.
///
/// # Safety
/// `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_simulation_settings_default(
    out: *mut mbs_simulation_settings,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { default_into(out) }
}

/// `mbs_simulation_settings_default` in single precision (the same defaults rounded to float).
///
/// # Safety
/// `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_simulation_settings_default_f32(
    out: *mut mbs_simulation_settings_f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { default_into(out) }
}

/// The generic `mbs_simulation_settings_default`.
///
/// # Safety
/// `out` is null or valid for writes.
unsafe fn default_into<T: Real>(out: *mut mbs_simulation_settings_of<T>) -> MbsStatus {
    guard(|| match non_null_out(out) {
        Ok(()) => {
            // SAFETY: non-null; writable by the caller's guarantee.
            unsafe { out.write(mbs_simulation_settings_of::defaults()) };
            MBS_OK
        }
        Err(s) => s,
    })
}
