//! How a system integrates, from C: `mbs_system_settings` (scheme, rigid scheme, step
//! control) and its default, set and get.

use crate::boundary::{finite, guard, non_null_out, put, read, with_mut, with_ref, FfiResult};
use crate::convert::{flag, MbsFlag};
use crate::rigid::scheme::{code_of, rigid_scheme_of, MbsRigidScheme};
use crate::status::status_of;
use crate::status::*;
use crate::system::mbs_system;
use mbs_core::integrators::constrained::Formulation;
use mbs_core::integrators::StepSettings;
use mbs_core::solver::NewtonSettings;
use mbs_core::system::{AlphaSettings, Rotations, SystemScheme, SystemSettings};

/// How the bodies of a system are coupled within a step (`MBS_SYSTEM_SCHEME_*`, fixed numbers).
pub type MbsSystemScheme = u32;
/// Kick-drift-kick (Strang splitting, velocity Verlet generalized to rigid bodies): second
/// order for position- and velocity-dependent forces, symplectic for conservative ones. The
/// default.
pub const MBS_SYSTEM_SCHEME_KICK_DRIFT_KICK: MbsSystemScheme = 0;
/// Every load and connector force evaluated at the start of the step and held; each body by
/// its own integrator (first order in the coupling of the bodies; for one free rigid body exactly the rigid
/// scheme's step).
pub const MBS_SYSTEM_SCHEME_HELD_LOADS: MbsSystemScheme = 1;
/// Implicit generalized-alpha on all coordinates with the constraints' Lagrange multipliers
/// (Exudyn's `SolveDynamic`; the `alpha_*` fields): the only scheme that keeps constraints.
/// Steps every kind of node: 2D points and rigid bodies, 3D rigid bodies (in Euler parameters
/// or on the Lie group, `alpha_rotations`), a kinematic tree's joint coordinates, the ground.
pub const MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA: MbsSystemScheme = 2;

/// How constraints enter generalized-alpha (`MBS_FORMULATION_*`, fixed numbers).
pub type MbsFormulation = u32;
/// Position constraints (index 3), Exudyn's default; needs a spectral radius below 1.
pub const MBS_FORMULATION_INDEX3: MbsFormulation = 0;
/// Gear-Gupta-Leimkuhler stabilized index 2: position and velocity constraints both hold,
/// also at spectral radius 1.
pub const MBS_FORMULATION_STABILIZED_INDEX2: MbsFormulation = 1;

/// The coordinates of the 3D rigid bodies' rotations in generalized-alpha (`MBS_ROTATIONS_*`,
/// fixed numbers).
pub type MbsRotations = u32;
/// Euler parameters with their normalization as a constraint (Exudyn's `NodeRigidBodyEP`): 7
/// coordinates and 1 equation a body, Exudyn's results on the same model. The default.
pub const MBS_ROTATIONS_EULER_PARAMETERS: MbsRotations = 0;
/// The Lie group SO(3) x R^3 (Bruls, Cardona and Arnold): 6 unknowns a body, no
/// normalization, fewer operations a step; the same order and about the same errors.
pub const MBS_ROTATIONS_LIE_GROUP: MbsRotations = 1;

/// How a system integrates (core's `SystemSettings`). Fill with
/// `mbs_system_settings_default`, change fields, set with `mbs_system_set_settings`.
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
pub struct mbs_system_settings {
    /// `MBS_SYSTEM_SCHEME_*` (default kick-drift-kick); another value is `MBS_ERR_INVALID_ARGUMENT`.
    pub scheme: MbsSystemScheme,
    /// `MBS_RIGID_SCHEME_*` (default midpoint with mean-rate orientation); another value is
    /// `MBS_ERR_INVALID_ARGUMENT`.
    pub rigid_scheme: MbsRigidScheme,
    /// Sub-step a rigid body's rotation so that each sub-step turns by at most
    /// `max_rotation_per_step` (with kick-drift-kick only the torque-free drift is
    /// sub-stepped). Default `false`: `MBS_WARN_STEP_TOO_LARGE` when a step turns further.
    pub substep: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 7],
    /// Largest rotation per (sub-)step `|w| h` (rad), finite and > 0; default 0.5.
    pub max_rotation_per_step: f64,
    /// Cap on the sub-steps of one step (>= 1), default 1024.
    pub max_substeps: u32,
    /// Kick-drift-kick with damping: fixed-point corrections of the implicit last half kick
    /// (0..=16, default 1; 0 makes the damping explicit, first order).
    pub damping_corrections: u32,
    /// Generalized-alpha: spectral radius at infinite frequency in [0, 1] (default 0.9).
    pub alpha_spectral_radius: f64,
    /// Generalized-alpha: Newton relative tolerance (default 1e-8). A step has converged when
    /// its force residual `|r|` passes either test, `|r| / n <= absolute` or `|r| <= relative
    /// max(|M q_tt|, |C_q^T lambda|, |f|)`, and its constraint residual `|C| <= absolute`
    /// (with the stabilized index 2 also `|C_q v| <= absolute (1 + |v|)`); or when an update
    /// is below round-off.
    pub alpha_newton_relative_tolerance: f64,
    /// Generalized-alpha: Newton absolute tolerance per coordinate (default 1e-10; see the
    /// relative tolerance for how the two combine).
    pub alpha_newton_absolute_tolerance: f64,
    /// Generalized-alpha: most Newton updates per step (>= 1, default 25); then the step is
    /// halved (`alpha_step_halving`) or fails with `MBS_ERR_NEWTON_NOT_CONVERGED`.
    pub alpha_newton_max_iterations: u32,
    /// Generalized-alpha: `MBS_FORMULATION_*` (default index 3).
    pub alpha_formulation: MbsFormulation,
    /// Generalized-alpha: halve a step whose Newton iteration fails up to this many times
    /// (0..=16, default 0; Exudyn's automatic step reduction).
    pub alpha_step_halving: u32,
    /// Generalized-alpha real-time mode: at most this many Newton updates per step, the
    /// iterate after the last one taken without the evaluation that would only confirm it, so
    /// that a step's cost is bounded (no `MBS_ERR_NEWTON_NOT_CONVERGED`; the Newton report's
    /// residuals are then those before the last update, and its `history_len` equals its
    /// `iterations`). At most `alpha_newton_max_iterations`; default 0: off. Index 3
    /// (`MBS_FORMULATION_INDEX3`) in real-time mode needs `alpha_spectral_radius < 1`
    /// (`MBS_ERR_INVALID_SETTING` at 1: the constraints would drift without a warning).
    pub alpha_real_time_updates: u32,
    /// Generalized-alpha start: the largest accepted `|C(q0)|` (m or rad; default 1e-8).
    pub alpha_assembly_tolerance: f64,
    /// Generalized-alpha start: the largest accepted `|C_q v0|` relative to `1 + |v0|`
    /// (default 1e-4: an index-3 run keeps the velocity constraints only to its accuracy, and a
    /// re-assembly or a state set mid-run restarts from such a state).
    pub alpha_assembly_velocity_tolerance: f64,
    /// Generalized-alpha start: 1 to project inconsistent initial positions and velocities
    /// onto the constraints (Exudyn's initial assembly), 0 (default) to refuse them with
    /// `MBS_ERR_CONSTRAINT_VIOLATED`; another value is `MBS_ERR_INVALID_ARGUMENT`.
    pub alpha_assembly_solve: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad2: [u8; 3],
    /// Generalized-alpha: `MBS_ROTATIONS_*`, the coordinates of the 3D rigid bodies' rotations
    /// (default Euler parameters); another value is `MBS_ERR_INVALID_ARGUMENT`.
    pub alpha_rotations: MbsRotations,
}

impl mbs_system_settings {
    /// The C form of core's settings.
    pub fn of(s: &SystemSettings<f64>) -> Self {
        Self {
            scheme: match s.scheme {
                SystemScheme::HeldLoads => MBS_SYSTEM_SCHEME_HELD_LOADS,
                SystemScheme::GeneralizedAlpha => MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
                _ => MBS_SYSTEM_SCHEME_KICK_DRIFT_KICK,
            },
            rigid_scheme: code_of(s.rigid),
            substep: u8::from(s.step.substep),
            max_rotation_per_step: s.step.max_rotation_per_step,
            max_substeps: s.step.max_substeps,
            damping_corrections: s.damping_corrections,
            alpha_spectral_radius: s.alpha.spectral_radius,
            alpha_newton_relative_tolerance: s.alpha.newton.relative_tolerance,
            alpha_newton_absolute_tolerance: s.alpha.newton.absolute_tolerance,
            alpha_newton_max_iterations: s.alpha.newton.max_iterations,
            alpha_formulation: match s.alpha.formulation {
                Formulation::StabilizedIndex2 => MBS_FORMULATION_STABILIZED_INDEX2,
                _ => MBS_FORMULATION_INDEX3,
            },
            alpha_step_halving: s.alpha.step_halving,
            alpha_real_time_updates: s.alpha.real_time_updates,
            alpha_assembly_tolerance: s.alpha.assembly.tolerance,
            alpha_assembly_velocity_tolerance: s.alpha.assembly.velocity_tolerance,
            alpha_assembly_solve: u8::from(s.alpha.assembly.solve),
            alpha_rotations: match s.alpha.rotations {
                Rotations::LieGroup => MBS_ROTATIONS_LIE_GROUP,
                _ => MBS_ROTATIONS_EULER_PARAMETERS,
            },
            _pad0: Default::default(),
            _pad2: Default::default(),
        }
    }

    /// The checked core settings: `MBS_ERR_INVALID_ARGUMENT` (unknown enum value),
    /// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_SETTING`.
    pub fn to_core(&self) -> FfiResult<SystemSettings<f64>> {
        let scheme = match self.scheme {
            MBS_SYSTEM_SCHEME_KICK_DRIFT_KICK => SystemScheme::KickDriftKick,
            MBS_SYSTEM_SCHEME_HELD_LOADS => SystemScheme::HeldLoads,
            MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA => SystemScheme::GeneralizedAlpha,
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        let rigid = rigid_scheme_of(self.rigid_scheme)?;
        let step = StepSettings::default()
            .with_max_rotation_per_step(finite(self.max_rotation_per_step)?)
            .with_substep(flag(self.substep)?)
            .with_max_substeps(self.max_substeps);
        let mut alpha = AlphaSettings::default();
        alpha.spectral_radius = finite(self.alpha_spectral_radius)?;
        alpha.newton = NewtonSettings {
            relative_tolerance: finite(self.alpha_newton_relative_tolerance)?,
            absolute_tolerance: finite(self.alpha_newton_absolute_tolerance)?,
            max_iterations: self.alpha_newton_max_iterations,
        };
        alpha.formulation = match self.alpha_formulation {
            MBS_FORMULATION_INDEX3 => Formulation::Index3,
            MBS_FORMULATION_STABILIZED_INDEX2 => Formulation::StabilizedIndex2,
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        alpha.step_halving = self.alpha_step_halving;
        alpha.real_time_updates = self.alpha_real_time_updates;
        alpha.assembly.tolerance = finite(self.alpha_assembly_tolerance)?;
        alpha.assembly.velocity_tolerance = finite(self.alpha_assembly_velocity_tolerance)?;
        alpha.assembly.solve = flag(self.alpha_assembly_solve)?;
        alpha.rotations = match self.alpha_rotations {
            MBS_ROTATIONS_EULER_PARAMETERS => Rotations::EulerParameters,
            MBS_ROTATIONS_LIE_GROUP => Rotations::LieGroup,
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        let s = SystemSettings::default()
            .with_scheme(scheme)
            .with_rigid(rigid)
            .with_step(step)
            .with_damping_corrections(self.damping_corrections)
            .with_alpha(alpha);
        s.validate().map_err(status_of)?;
        Ok(s)
    }
}

/// Fills `*out` with the default system settings: kick-drift-kick, midpoint with mean-rate
/// orientation, no sub-stepping, 0.5 rad per step, 1024 sub-steps at most, 1 damping
/// correction; for generalized-alpha Exudyn's defaults (spectral radius 0.9, Newton 1e-8 /
/// 1e-10 / 25 iterations, index 3, no step halving, no real-time mode, start tolerances 1e-8
/// (positions) and 1e-4 (velocities, relative), no assembly, Euler parameters).
///
/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_settings_default(out: *mut mbs_system_settings) -> MbsStatus {
    guard(|| match non_null_out(out) {
        Ok(()) => {
            put(out, mbs_system_settings::of(&SystemSettings::default()));
            MBS_OK
        }
        Err(s) => s,
    })
}

/// Sets the integration settings of the system; a change of `scheme`, `alpha_formulation` or
/// `alpha_rotations` un-assembles it (assemble again), other changes do not.
///
/// Errors (system unchanged): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_ARGUMENT` (unknown system scheme, rigid scheme,
/// formulation or rotations, `alpha_assembly_solve` not 0 or 1), `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_SETTING` (bound <= 0, 0 sub-steps, more than 16 damping corrections or
/// halvings, spectral radius outside [0, 1], a negative tolerance, 0 Newton iterations).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `settings` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_settings(
    sys: *mut mbs_system,
    settings: *const mbs_system_settings,
) -> MbsStatus {
    with_mut(sys, |s| {
        // SAFETY: the caller's guarantee.
        let c = unsafe { read(settings) }?.to_core()?;
        s.sys.set_settings(c).map_err(status_of)?;
        Ok(MBS_OK)
    })
}

/// The integration settings of the system into `*out`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_get_settings(
    sys: *const mbs_system,
    out: *mut mbs_system_settings,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        put(out, mbs_system_settings::of(s.sys.settings()));
        Ok(MBS_OK)
    })
}
