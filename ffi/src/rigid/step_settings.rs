//! Settings and report of one rigid-body step: the scheme (`MBS_RIGID_SCHEME_*`), the
//! rotation-per-step bound and sub-stepping; `mbs_step_info` says what the step did.

use crate::boundary::{finite, guard, non_null_out, FfiResult};
use crate::convert::MbsFlag;
use crate::rigid::scheme::{rigid_scheme_of, MbsRigidScheme, MBS_RIGID_SCHEME_MIDPOINT};
use crate::status::*;
use mbs_core::integrators::rigid::RigidScheme;
use mbs_core::integrators::{StepInfo, StepSettings, StepStatus};
use mbs_core::Real;

/// Settings of a rigid-body step, generic over the scalar: use `mbs_step_settings` (double)
/// or `mbs_step_settings_f32` (float). Fill with `mbs_step_settings_default`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_step_settings_of<T> {
    /// The scheme, an `MBS_RIGID_SCHEME_*` value (default `MBS_RIGID_SCHEME_MIDPOINT`);
    /// another value is `MBS_ERR_INVALID_ARGUMENT`.
    pub integrator: MbsRigidScheme,
    /// Split `dt` into `n = ceil(|w| dt / max_rotation_per_step)` equal sub-steps (a sub-step
    /// whose rate grew past the bound is redone finer); loads stay those of the whole `dt`.
    /// Default `false`: one step of `dt`, and `MBS_WARN_STEP_TOO_LARGE` if it turned too far.
    pub substep: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 3],
    /// Largest rotation per (sub-)step `|w| h` (rad), finite and > 0; default 0.5 (beyond
    /// it the gyroscopic term is not resolved). Above it the step warns `MBS_WARN_STEP_TOO_LARGE`.
    pub max_rotation_per_step: T,
    /// Cap on the sub-step evaluations of one call (>= 1), default 1024: bounds the run time
    /// of a call (each evaluation costs one step).
    pub max_substeps: u32,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad1: u32,
}

/// Step settings in double precision.
pub type mbs_step_settings = mbs_step_settings_of<f64>;
/// Step settings in single precision (for `mbs_rigid_step_f32`).
pub type mbs_step_settings_f32 = mbs_step_settings_of<f32>;

/// What a rigid-body step did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_step_info {
    /// `MBS_OK`, or `MBS_WARN_STEP_TOO_LARGE` if some (sub-)step turned by more than
    /// `max_rotation_per_step` (the same value the step returns).
    pub status: MbsStatus,
    /// Sub-steps taken (1 without sub-stepping).
    pub substeps: u32,
    /// Sub-steps computed and redone finer because the rate grew within them.
    pub rejected_substeps: u32,
    /// `true` if sub-stepping needed more than `max_substeps` evaluations: the affordable
    /// sub-steps covered `dt`, some turning by more than the bound.
    pub substep_limit_reached: bool,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 3],
}

impl mbs_step_info {
    /// The C report of a core report.
    pub fn of(i: &StepInfo) -> Self {
        Self {
            status: status_of_step(i),
            substeps: i.substeps,
            rejected_substeps: i.rejected_substeps,
            substep_limit_reached: i.substep_limit_reached,
            _pad0: Default::default(),
        }
    }
}

/// `MBS_OK` or `MBS_WARN_STEP_TOO_LARGE`.
pub fn status_of_step(i: &StepInfo) -> MbsStatus {
    match i.status {
        StepStatus::Ok => MBS_OK,
        _ => MBS_WARN_STEP_TOO_LARGE,
    }
}

impl<T: Real> mbs_step_settings_of<T> {
    /// The defaults: midpoint, no sub-stepping, 0.5 rad per step, 1024 sub-steps at most.
    pub fn defaults() -> Self {
        let d = StepSettings::<T>::default();
        Self {
            integrator: MBS_RIGID_SCHEME_MIDPOINT,
            substep: u8::from(d.substep),
            max_rotation_per_step: d.max_rotation_per_step,
            max_substeps: d.max_substeps,
            _pad0: Default::default(),
            _pad1: Default::default(),
        }
    }

    /// The scheme and the checked core settings: `MBS_ERR_INVALID_ARGUMENT` for an unknown
    /// integrator, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_SETTING` (bound <= 0, no sub-step).
    pub fn to_core(&self) -> FfiResult<(RigidScheme, StepSettings<T>)> {
        let scheme = rigid_scheme_of(self.integrator)?;
        Ok((scheme, self.core_step_settings()?))
    }

    /// The checked core settings, `integrator` not looked at: `MBS_ERR_NOT_FINITE`,
    /// `MBS_ERR_INVALID_SETTING` (bound <= 0, no sub-step).
    #[inline]
    pub fn core_step_settings(&self) -> FfiResult<StepSettings<T>> {
        let s = StepSettings::default()
            .with_max_rotation_per_step(finite(self.max_rotation_per_step)?)
            .with_substep(crate::convert::flag(self.substep)?)
            .with_max_substeps(self.max_substeps);
        s.validate().map_err(crate::status::status_of)?;
        Ok(s)
    }
}

fn default_into<T: Real>(out: *mut mbs_step_settings_of<T>) -> MbsStatus {
    guard(|| match non_null_out(out) {
        Ok(()) => {
            // SAFETY: non-null; writable by the caller's guarantee.
            unsafe { out.write(mbs_step_settings_of::defaults()) };
            MBS_OK
        }
        Err(s) => s,
    })
}

/// Fills `*out` with the default step settings: `MBS_RIGID_SCHEME_MIDPOINT`, no sub-stepping,
/// `max_rotation_per_step = 0.5` rad, `max_substeps = 1024`.
///
/// # Safety
/// `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_step_settings_default(out: *mut mbs_step_settings) -> MbsStatus {
    default_into(out)
}

/// `mbs_step_settings_default` in single precision.
///
/// # Safety
/// `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_step_settings_default_f32(
    out: *mut mbs_step_settings_f32,
) -> MbsStatus {
    default_into(out)
}
