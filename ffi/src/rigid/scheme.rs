//! The rigid-body schemes' C codes, one table for every caller: the rigid step
//! (`mbs_step_settings.integrator`) and a system's rigid bodies
//! (`mbs_system_settings.rigid_scheme`); core's `RigidScheme` on the Rust side.

use crate::boundary::FfiResult;
use crate::status::*;
use mbs_core::integrators::rigid::RigidScheme;

/// A rigid-body scheme (`MBS_RIGID_SCHEME_*`, fixed numbers).
pub type MbsRigidScheme = u32;

/// The linearly implicit midpoint step, orientation turned by the end rate (orientation order
/// 1): energy and |L| converge with order 2 torque-free, damping is implicit (stable for any
/// `dt`). The rigid step's default.
pub const MBS_RIGID_SCHEME_MIDPOINT: MbsRigidScheme = 0;
/// Baseline: explicit Euler (order 1; energy grows torque-free). For comparison only.
pub const MBS_RIGID_SCHEME_EXPLICIT_EULER: MbsRigidScheme = 1;
/// Baseline: semi-implicit (symplectic) Euler, as game engines do. For comparison only.
pub const MBS_RIGID_SCHEME_SYMPLECTIC_EULER: MbsRigidScheme = 2;
/// Baseline: classical Runge-Kutta 4 (four evaluations per step).
pub const MBS_RIGID_SCHEME_RK4: MbsRigidScheme = 3;
/// The midpoint step's rate update with the orientation turned by the mean of the start and
/// end rates (orientation order 2, for forces that depend on the orientation). A system's
/// default.
pub const MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE: MbsRigidScheme = 4;

/// Core's scheme of a code; `MBS_ERR_INVALID_ARGUMENT` for an unknown one.
pub fn rigid_scheme_of(code: MbsRigidScheme) -> FfiResult<RigidScheme> {
    match code {
        MBS_RIGID_SCHEME_MIDPOINT => Ok(RigidScheme::Midpoint),
        MBS_RIGID_SCHEME_EXPLICIT_EULER => Ok(RigidScheme::ExplicitEuler),
        MBS_RIGID_SCHEME_SYMPLECTIC_EULER => Ok(RigidScheme::SymplecticEuler),
        MBS_RIGID_SCHEME_RK4 => Ok(RigidScheme::Rk4),
        MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE => Ok(RigidScheme::MidpointMeanRate),
        _ => Err(MBS_ERR_INVALID_ARGUMENT),
    }
}

/// The code of core's scheme.
pub fn code_of(scheme: RigidScheme) -> MbsRigidScheme {
    match scheme {
        RigidScheme::Midpoint => MBS_RIGID_SCHEME_MIDPOINT,
        RigidScheme::ExplicitEuler => MBS_RIGID_SCHEME_EXPLICIT_EULER,
        RigidScheme::SymplecticEuler => MBS_RIGID_SCHEME_SYMPLECTIC_EULER,
        RigidScheme::Rk4 => MBS_RIGID_SCHEME_RK4,
        _ => MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE,
    }
}
