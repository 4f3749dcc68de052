//! Checked conversions at the C boundary: pointers to arrays, finite checks, core errors to
//! status codes. Every entry point reads its inputs through these before it writes anything.

use crate::status::*;
use mbs_core::{Error, Param, Real};
use nalgebra::{Matrix3, Vector3};

/// A boundary result: the value, or the status to return.
pub type FfiResult<T> = core::result::Result<T, MbsStatus>;

/// A yes/no field of a C input struct: 0 or 1 in a byte. An integer, not a C `bool` read as a
/// Rust `bool`: whatever byte the caller's memory holds (2, an uninitialized 0xAB) is defined
/// here and refused with `MBS_ERR_INVALID_ARGUMENT`.
pub type MbsFlag = u8;

/// The value of a C flag (0 or 1; another value `MBS_ERR_INVALID_ARGUMENT`).
#[inline]
pub fn flag(v: impl Into<u32>) -> FfiResult<bool> {
    match v.into() {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(MBS_ERR_INVALID_ARGUMENT),
    }
}

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
        Error::SameBody => MBS_ERR_SAME_BODY,
        Error::WrongNodeKind => MBS_ERR_WRONG_NODE_KIND,
        Error::NotAssembled => MBS_ERR_NOT_ASSEMBLED,
        Error::SolverFailed => MBS_ERR_SOLVER_FAILED,
        Error::NodeAlreadyUsed => MBS_ERR_NODE_ALREADY_USED,
        Error::NodeWithoutBody => MBS_ERR_NODE_WITHOUT_BODY,
        Error::SingularMatrix => MBS_ERR_SINGULAR_MATRIX,
        Error::NewtonNotConverged => MBS_ERR_NEWTON_NOT_CONVERGED,
        Error::ConstraintViolated => MBS_ERR_CONSTRAINT_VIOLATED,
        Error::NotSupportedByScheme => MBS_ERR_NOT_SUPPORTED_BY_SCHEME,
        _ => MBS_ERR_INVALID_ARGUMENT,
    }
}

/// The status of a core error on inputs the caller has already checked finite: a `NotFinite`
/// from core then means that a result overflowed (`MBS_ERR_NON_FINITE_STATE`), e.g. the mass
/// of a huge density.
pub fn status_of_checked(e: Error) -> MbsStatus {
    match e {
        Error::NotFinite(_) => MBS_ERR_NON_FINITE_STATE,
        e => status_of(e),
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
        Param::Coordinate => MBS_ERR_INVALID_COORDINATE,
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

/// A finite `f64` or `f32`, else `MBS_ERR_NOT_FINITE`.
#[inline]
pub fn finite<T: Real>(x: T) -> FfiResult<T> {
    if x.finite() {
        Ok(x)
    } else {
        Err(MBS_ERR_NOT_FINITE)
    }
}

/// `MBS_ERR_NOT_FINITE` unless every entry of `a` is finite.
#[inline]
pub fn all_finite<T: Real>(a: &[T]) -> FfiResult<()> {
    if mbs_core::finite::all_finite_slice(a) {
        Ok(())
    } else {
        Err(MBS_ERR_NOT_FINITE)
    }
}

/// `MBS_ERR_NON_FINITE_STATE` unless every entry of a computed result is finite (finite inputs
/// can still overflow, e.g. the kinetic energy of a velocity of 1e200 m/s).
pub fn finite_result<T: Real>(a: &[T]) -> FfiResult<()> {
    if mbs_core::finite::all_finite_slice(a) {
        Ok(())
    } else {
        Err(MBS_ERR_NON_FINITE_STATE)
    }
}

/// A finite 2-vector from a C `double[2]` / `float[2]`, else `MBS_ERR_NOT_FINITE`.
pub fn vec2<T: Real>(a: &[T; 2]) -> FfiResult<nalgebra::Vector2<T>> {
    Ok(nalgebra::Vector2::new(finite(a[0])?, finite(a[1])?))
}

/// A finite 3-vector from a C `double[3]` / `float[3]`, else `MBS_ERR_NOT_FINITE`.
pub fn vec3<T: Real>(a: &[T; 3]) -> FfiResult<Vector3<T>> {
    Ok(Vector3::new(finite(a[0])?, finite(a[1])?, finite(a[2])?))
}

/// A finite 3x3 matrix from a row-major C `double[9]` / `float[9]`, else `MBS_ERR_NOT_FINITE`.
pub fn mat3<T: Real>(a: &[T; 9]) -> FfiResult<Matrix3<T>> {
    all_finite(a)?;
    Ok(Matrix3::from_row_slice(a))
}

/// A row-major `double[9]` / `float[9]` from a matrix.
pub fn mat3_to_rows<T: Real>(m: &Matrix3<T>) -> [T; 9] {
    let mut out = [T::zero(); 9];
    for i in 0..3 {
        for j in 0..3 {
            out[3 * i + j] = m[(i, j)];
        }
    }
    out
}

/// A row-major `R x C` array (`out[C * i + j] = m[(i, j)]`) of the first `C` columns of `m`.
pub fn rows_of<T: Real, const R: usize, const C: usize, const N: usize>(
    m: &nalgebra::SMatrix<T, R, 6>,
) -> [T; N] {
    let mut out = [T::zero(); N];
    for i in 0..R {
        for j in 0..C {
            out[C * i + j] = m[(i, j)];
        }
    }
    out
}

/// Reads `*p` by value (a copy: the caller's object is never borrowed, so inputs and outputs
/// may overlap), or `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `p` is null or points to a valid, aligned `T`.
#[inline]
pub unsafe fn read<T: Copy>(p: *const T) -> FfiResult<T> {
    if p.is_null() {
        Err(MBS_ERR_NULL_POINTER)
    } else {
        // SAFETY: non-null; validity and alignment by the caller's guarantee.
        Ok(unsafe { p.read() })
    }
}

/// `MBS_ERR_NULL_POINTER` if `p` is null (an output checked before any work).
#[inline]
pub fn non_null_out<T>(p: *mut T) -> FfiResult<()> {
    if p.is_null() {
        Err(MBS_ERR_NULL_POINTER)
    } else {
        Ok(())
    }
}

/// Runs `f` and, on success, writes its value to `*out` (checked non-null before `f` runs, so
/// a null output is `MBS_ERR_NULL_POINTER` whatever the inputs). On error `*out` is untouched.
///
/// # Safety
/// `out` is null or valid for writes of a `T`.
#[inline]
pub unsafe fn write_with<T, F: FnOnce() -> FfiResult<(T, MbsStatus)>>(
    out: *mut T,
    f: F,
) -> MbsStatus {
    if out.is_null() {
        return MBS_ERR_NULL_POINTER;
    }
    match f() {
        Ok((v, status)) => {
            // SAFETY: non-null and writable by the caller's guarantee.
            unsafe { out.write(v) };
            status
        }
        Err(s) => s,
    }
}

/// An index of a system's item from C (`NodeIndex`, `ObjectIndex`, ...: `make`), or
/// `MBS_ERR_UNKNOWN_INDEX` past `u16`.
pub fn index<I>(i: u32, make: fn(u16) -> I) -> FfiResult<I> {
    u16::try_from(i)
        .map(make)
        .map_err(|_| MBS_ERR_UNKNOWN_INDEX)
}

/// Reads a C `double[N]` and checks it finite.
///
/// # Safety
/// `p` is null or points to `N` doubles.
pub unsafe fn array<const N: usize>(p: *const f64) -> FfiResult<[f64; N]> {
    // SAFETY: forwarded.
    let a = unsafe { read(p.cast::<[f64; N]>()) }?;
    all_finite(&a)?;
    Ok(a)
}

/// An optional C `double[3]` (NULL = none), checked finite.
///
/// # Safety
/// `p` is null or points to 3 doubles.
pub unsafe fn optional3(p: *const f64) -> FfiResult<Option<Vector3<f64>>> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: forwarded.
        Ok(Some(Vector3::from(unsafe { array::<3>(p) }?)))
    }
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
        assert_eq!(status_of(Error::SingularMatrix), MBS_ERR_SINGULAR_MATRIX);
        assert_eq!(
            status_of(Error::NewtonNotConverged),
            MBS_ERR_NEWTON_NOT_CONVERGED
        );
        assert_eq!(
            status_of(Error::ConstraintViolated),
            MBS_ERR_CONSTRAINT_VIOLATED
        );
        assert_eq!(
            status_of(Error::NotSupportedByScheme),
            MBS_ERR_NOT_SUPPORTED_BY_SCHEME
        );
        assert_eq!(
            status_of(Error::OutOfRange(Param::Coordinate)),
            MBS_ERR_INVALID_COORDINATE
        );
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
