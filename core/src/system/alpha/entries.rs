//! Reading and adding entries of the solver's vectors at a node's offset.

use crate::bodies::euler_parameters::{self as ep, EP_COORDINATES};
use crate::body::Generalized;
use crate::integrators::constrained::Block;
use crate::{Error, Real, Result};
use nalgebra::{Vector3, Vector4};

/// Entries `o..o + 3` of `x` as a vector; `UnknownIndex` outside `x`.
pub(super) fn vec3<T: Real>(x: &[T], o: usize) -> Result<Vector3<T>> {
    match x.get(o..o + 3) {
        Some(s) => Ok(Vector3::new(s[0], s[1], s[2])),
        None => Err(Error::UnknownIndex),
    }
}

/// Entries `o..o + R` of `x` as an array; `UnknownIndex` outside `x`.
pub(super) fn entries<T: Real, const R: usize>(x: &[T], o: usize) -> Result<[T; R]> {
    x.get(o..o + R)
        .and_then(|s| s.try_into().ok())
        .ok_or(Error::UnknownIndex)
}

/// Entries `o..o + 4` of `x` as a vector; `UnknownIndex` outside `x`.
pub(super) fn vec4<T: Real>(x: &[T], o: usize) -> Result<Vector4<T>> {
    match x.get(o..o + 4) {
        Some(s) => Ok(Vector4::new(s[0], s[1], s[2], s[3])),
        None => Err(Error::UnknownIndex),
    }
}

/// Adds `m x` (`x`'s entries `o..o + R`) to `mx`'s entries `o..o + R`, if `product` is
/// `Some((x, mx))`; each row summed in column order from zero.
pub(super) fn add_product<T: Real, const R: usize>(
    m: &nalgebra::SMatrix<T, R, R>,
    o: usize,
    product: &mut Option<(&[T], &mut [T])>,
) -> Result<()> {
    if let Some((x, mx)) = product {
        let (x, mx) = (
            x.get(o..o + R).ok_or(Error::UnknownIndex)?,
            mx.get_mut(o..o + R).ok_or(Error::UnknownIndex)?,
        );
        for (i, y) in mx.iter_mut().enumerate() {
            let mut acc = T::zero();
            for (j, xj) in x.iter().enumerate() {
                acc += m[(i, j)] * *xj;
            }
            *y += acc;
        }
    }
    Ok(())
}

/// Adds `values` to `f` from index `o` on (entries outside `f` are skipped).
pub(super) fn add_at<T: Real>(f: &mut [T], o: usize, values: &[T]) {
    for (x, v) in f.iter_mut().skip(o).zip(values) {
        *x += *v;
    }
}

/// Adds `a d` to the rows of a 3D rigid node at `off` (its 7 coordinates) and the columns of
/// its Euler parameters (`off + 3..off + 7`).
pub(super) fn add_e_columns<T: Real, const S: usize>(
    out: &mut Block<'_, T, S>,
    off: usize,
    d: &nalgebra::SMatrix<T, EP_COORDINATES, 4>,
    a: T,
) {
    out.add_scaled(off, off + 3, d, a);
}

/// A 3D rigid node's generalized force `g = [f; tau_ref]` as entries of its coordinates,
/// `[f; Gb(e)^T tau_ref]`, with its Euler parameters `e` at `o + 3` in `q`.
pub(super) fn euler_parameter_force<T: Real>(
    g: &Generalized<T>,
    q: &[T],
    o: usize,
) -> Result<[T; EP_COORDINATES]> {
    let tau = Vector3::new(g[3], g[4], g[5]);
    let ge = ep::g_body(&vec4(q, o + 3)?).transpose() * tau;
    Ok([g[0], g[1], g[2], ge[0], ge[1], ge[2], ge[3]])
}
