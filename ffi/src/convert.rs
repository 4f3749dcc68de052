//! Checked conversions at the C boundary: pointers to arrays, finite checks, core errors to
//! status codes. Every entry point reads its inputs through these before it writes anything.

use crate::status::*;
use mbs_core::{Error, Param};
use nalgebra::{Matrix3, Vector3};

/// A boundary result: the value, or the status to return.
pub type FfiResult<T> = core::result::Result<T, MbsStatus>;

/// Maps a core error to its status code.
pub fn status_of(e: Error) -> MbsStatus {
    match e {
        Error::NotFinite(_) => MBS_ERR_NOT_FINITE,
        Error::OutOfRange(p) | Error::ZeroLength(p) => status_of_param(p),
        Error::InnerDiameterNotBelowDiameter => MBS_ERR_INVALID_INNER_DIAMETER,
        Error::NonFiniteState => MBS_ERR_NON_FINITE_STATE,
        Error::UnknownIndex => MBS_ERR_UNKNOWN_INDEX,
        Error::CapacityFull => MBS_ERR_CAPACITY_FULL,
        Error::OutputNotAvailable | Error::JacobianNotAvailable => MBS_ERR_NOT_AVAILABLE,
        Error::LocalPositionMustBeZero => MBS_ERR_INVALID_LOCAL_POSITION,
        Error::MarkerNotSupported => MBS_ERR_INVALID_MARKER,
        Error::SameMarker => MBS_ERR_SAME_MARKER,
        Error::WrongNodeKind => MBS_ERR_WRONG_NODE_KIND,
        Error::NotAssembled => MBS_ERR_NOT_ASSEMBLED,
        Error::SolverFailed => MBS_ERR_SOLVER_FAILED,
        _ => MBS_ERR_INVALID_ARGUMENT,
    }
}

/// The "invalid argument" code (2xx) that names parameter `p`.
pub fn status_of_param(p: Param) -> MbsStatus {
    match p {
        Param::Mass => MBS_ERR_INVALID_MASS,
        Param::Density => MBS_ERR_INVALID_DENSITY,
        Param::Diameter => MBS_ERR_INVALID_DIAMETER,
        Param::InnerDiameter => MBS_ERR_INVALID_INNER_DIAMETER,
        Param::Length => MBS_ERR_INVALID_LENGTH,
        Param::Dimensions => MBS_ERR_INVALID_DIMENSIONS,
        Param::R | Param::RShape | Param::Direction => MBS_ERR_INVALID_DIRECTION,
        Param::Inertia => MBS_ERR_INVALID_INERTIA,
        Param::CenterOfMass | Param::Position => MBS_ERR_INVALID_POSITION,
        Param::TimeStep => MBS_ERR_INVALID_TIME_STEP,
        Param::SimulationTime | Param::Setting | Param::Ratio => MBS_ERR_INVALID_SETTING,
        Param::Force | Param::Torque => MBS_ERR_INVALID_LOAD,
        Param::Damping | Param::Stiffness => MBS_ERR_INVALID_STIFFNESS_DAMPING,
        Param::Velocity
        | Param::AngularVelocity
        | Param::AngularAcceleration
        | Param::Acceleration => MBS_ERR_INVALID_VELOCITY,
        Param::Orientation => MBS_ERR_INVALID_ORIENTATION,
        Param::LocalPosition => MBS_ERR_INVALID_LOCAL_POSITION,
        Param::Sequence => MBS_ERR_INVALID_SEQUENCE,
        _ => MBS_ERR_INVALID_ARGUMENT,
    }
}

/// `Ok(&*p)` or `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `p` is null or points to a valid, aligned `T` for the returned lifetime.
#[inline]
pub unsafe fn non_null<'a, T>(p: *const T) -> FfiResult<&'a T> {
    // SAFETY: the caller guarantees validity when non-null.
    unsafe { p.as_ref() }.ok_or(MBS_ERR_NULL_POINTER)
}

/// `Ok(&mut *p)` or `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `p` is null or points to a valid, aligned, exclusively borrowed `T`.
#[inline]
pub unsafe fn non_null_mut<'a, T>(p: *mut T) -> FfiResult<&'a mut T> {
    // SAFETY: the caller guarantees validity and exclusivity when non-null.
    unsafe { p.as_mut() }.ok_or(MBS_ERR_NULL_POINTER)
}

/// A finite `f64`, else `MBS_ERR_NOT_FINITE`.
#[inline]
pub fn finite(x: f64) -> FfiResult<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(MBS_ERR_NOT_FINITE)
    }
}

/// A finite 3-vector from a C `double[3]`, else `MBS_ERR_NOT_FINITE`.
#[inline]
pub fn vec3(a: &[f64; 3]) -> FfiResult<Vector3<f64>> {
    Ok(Vector3::new(finite(a[0])?, finite(a[1])?, finite(a[2])?))
}

/// A finite 3x3 matrix from a row-major C `double[9]`, else `MBS_ERR_NOT_FINITE`.
#[inline]
pub fn mat3(a: &[f64; 9]) -> FfiResult<Matrix3<f64>> {
    for x in a {
        finite(*x)?;
    }
    Ok(Matrix3::from_row_slice(a))
}

/// A row-major `double[9]` from a matrix.
#[inline]
pub fn mat3_to_rows(m: &Matrix3<f64>) -> [f64; 9] {
    let mut out = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            out[3 * i + j] = m[(i, j)];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_param_maps_to_a_2xx_code_and_errors_to_their_codes() {
        assert_eq!(
            status_of(Error::OutOfRange(Param::Mass)),
            MBS_ERR_INVALID_MASS
        );
        assert_eq!(status_of(Error::NotFinite(Param::Mass)), MBS_ERR_NOT_FINITE);
        assert_eq!(status_of(Error::CapacityFull), MBS_ERR_CAPACITY_FULL);
        assert_eq!(
            status_of(Error::ZeroLength(Param::Length)),
            MBS_ERR_INVALID_LENGTH
        );
        assert!(vec3(&[0.0, f64::NAN, 1.0]).is_err());
        let m = mat3(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]).unwrap();
        assert_eq!(m[(0, 1)], 2.0);
        assert_eq!(mat3_to_rows(&m)[5], 6.0);
    }
}
