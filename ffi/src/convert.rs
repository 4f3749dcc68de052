//! Checked conversions of C inputs: flags, vectors and matrices from C arrays (finite),
//! indices, optional arrays. Every entry point reads its inputs through these (and the
//! pointer checks of [`crate::boundary`]) before it writes anything.

use crate::boundary::{all_finite, finite, read, FfiResult};
use crate::status::*;
use mbs_core::Real;
use nalgebra::{Matrix3, Vector3};

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
    fn vectors_and_matrices_are_read_finite_and_row_major() {
        assert!(vec3(&[0.0, f64::NAN, 1.0]).is_err());
        let m = mat3(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]).unwrap();
        assert_eq!(m[(0, 1)], 2.0);
        assert_eq!(mat3_to_rows(&m)[5], 6.0);
    }
}
