//! How a system integrates, from C: `mbs_system_settings` (coupling, rigid scheme, step
//! control) and its default, set and get.

use crate::convert::{finite, non_null_out, read, status_of, FfiResult};
use crate::guard;
use crate::status::*;
use crate::system::{mbs_system, put, with_mut, with_ref};
use mbs_core::integrators::StepSettings;
use mbs_core::system::{Coupling, RigidScheme, SystemSettings};

/// How the bodies of a system are coupled within a step (`MBS_COUPLING_*`, fixed numbers).
pub type MbsCoupling = u32;
/// Kick-drift-kick (Strang splitting, velocity Verlet generalized to rigid bodies): second
/// order for position- and velocity-dependent forces, symplectic for conservative ones. The
/// default.
pub const MBS_COUPLING_KICK_DRIFT_KICK: MbsCoupling = 0;
/// Every load and connector force evaluated at the start of the step and held; each body by
/// its own integrator (first order in the coupling; for one free rigid body exactly the rigid
/// scheme's step).
pub const MBS_COUPLING_HELD_LOADS: MbsCoupling = 1;

/// The rigid-body scheme of a system (`MBS_RIGID_SCHEME_*`, fixed numbers).
pub type MbsRigidScheme = u32;
/// The linearly implicit midpoint step with its default options: orientation turned by the end
/// rate (orientation order 1).
pub const MBS_RIGID_SCHEME_MIDPOINT: MbsRigidScheme = 0;
/// The midpoint step's rate update with the orientation turned by the mean rate (orientation order 2).
/// The default.
pub const MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE: MbsRigidScheme = 1;
/// Baseline: explicit Euler (order 1, energy grows).
pub const MBS_RIGID_SCHEME_EXPLICIT_EULER: MbsRigidScheme = 2;
/// Baseline: semi-implicit Euler (order 1).
pub const MBS_RIGID_SCHEME_SYMPLECTIC_EULER: MbsRigidScheme = 3;
/// Baseline: classical Runge-Kutta 4.
pub const MBS_RIGID_SCHEME_RK4: MbsRigidScheme = 4;

/// How a system integrates (core's `SystemSettings`). Fill with
/// `mbs_system_settings_default`, change fields, set with `mbs_system_set_settings`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_system_settings {
    /// `MBS_COUPLING_*` (default kick-drift-kick); another value is `MBS_ERR_INVALID_ARGUMENT`.
    pub coupling: MbsCoupling,
    /// `MBS_RIGID_SCHEME_*` (default midpoint with mean-rate orientation); another value is
    /// `MBS_ERR_INVALID_ARGUMENT`.
    pub rigid_scheme: MbsRigidScheme,
    /// Sub-step a rigid body's rotation so that each sub-step turns by at most
    /// `max_rotation_per_step` (with kick-drift-kick only the torque-free drift is
    /// sub-stepped). Default `false`: `MBS_WARN_STEP_TOO_LARGE` when a step turns further.
    pub substep: bool,
    /// Largest rotation per (sub-)step `|w| h` (rad), finite and > 0; default 0.5.
    pub max_rotation_per_step: f64,
    /// Cap on the sub-steps of one step (>= 1), default 1024.
    pub max_substeps: u32,
    /// Kick-drift-kick with damping: fixed-point corrections of the implicit last half kick
    /// (0..=16, default 1; 0 makes the damping explicit, first order).
    pub damping_corrections: u32,
}

impl mbs_system_settings {
    /// The C form of core's settings.
    pub fn of(s: &SystemSettings<f64>) -> Self {
        Self {
            coupling: match s.coupling {
                Coupling::HeldLoads => MBS_COUPLING_HELD_LOADS,
                _ => MBS_COUPLING_KICK_DRIFT_KICK,
            },
            rigid_scheme: match s.rigid {
                RigidScheme::Midpoint => MBS_RIGID_SCHEME_MIDPOINT,
                RigidScheme::ExplicitEuler => MBS_RIGID_SCHEME_EXPLICIT_EULER,
                RigidScheme::SymplecticEuler => MBS_RIGID_SCHEME_SYMPLECTIC_EULER,
                RigidScheme::Rk4 => MBS_RIGID_SCHEME_RK4,
                _ => MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE,
            },
            substep: s.step.substep,
            max_rotation_per_step: s.step.max_rotation_per_step,
            max_substeps: s.step.max_substeps,
            damping_corrections: s.damping_corrections,
        }
    }

    /// The checked core settings: `MBS_ERR_INVALID_ARGUMENT` (unknown enum value),
    /// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_SETTING`.
    pub fn to_core(&self) -> FfiResult<SystemSettings<f64>> {
        let coupling = match self.coupling {
            MBS_COUPLING_KICK_DRIFT_KICK => Coupling::KickDriftKick,
            MBS_COUPLING_HELD_LOADS => Coupling::HeldLoads,
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        let rigid = match self.rigid_scheme {
            MBS_RIGID_SCHEME_MIDPOINT => RigidScheme::Midpoint,
            MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE => RigidScheme::MidpointMeanRate,
            MBS_RIGID_SCHEME_EXPLICIT_EULER => RigidScheme::ExplicitEuler,
            MBS_RIGID_SCHEME_SYMPLECTIC_EULER => RigidScheme::SymplecticEuler,
            MBS_RIGID_SCHEME_RK4 => RigidScheme::Rk4,
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        let step = StepSettings::default()
            .with_max_rotation_per_step(finite(self.max_rotation_per_step)?)
            .with_substep(self.substep)
            .with_max_substeps(self.max_substeps);
        let s = SystemSettings::default()
            .with_coupling(coupling)
            .with_rigid(rigid)
            .with_step(step)
            .with_damping_corrections(self.damping_corrections);
        s.validate().map_err(status_of)?;
        Ok(s)
    }
}

/// Fills `*out` with the default system settings: kick-drift-kick, midpoint with mean-rate
/// orientation, no sub-stepping, 0.5 rad per step, 1024 sub-steps at most, 1 damping
/// correction.
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

/// Sets the integration settings of the system (does not un-assemble).
///
/// Errors (system unchanged): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_ARGUMENT` (unknown coupling or scheme),
/// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_SETTING` (bound <= 0, 0 sub-steps, more than 16
/// damping corrections).
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
