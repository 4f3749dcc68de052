//! Modelica `MultiBody.Frames` (transformation-matrix form): orientation matrices and the
//! functions that resolve vectors and tensors between frames.
//!
//! An orientation is Modelica's matrix `T` from frame 1 to frame 2: `v_2 = T v_1` (its rows are
//! the axes of frame 2 resolved in frame 1). For a body frame `b` in the world frame `0`,
//! `T = R_0b^T` (see the crate conventions). Every function here is generic over [`Real`] and uses
//! only libm through [`Real`]'s `_l` methods.

use crate::math::Quaternion;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// `|v| = sqrt(v.v)` (libm sqrt).
///
/// Evaluated as `sqrt(v.v)`; if `v.v` over- or underflows, the vector is first scaled by its
/// largest component so that the length stays finite and accurate for every finite `v`.
pub fn length<T: Real>(v: &Vector3<T>) -> T {
    let d = v.dot(v);
    if d.finite() && d > T::c(1e-30) {
        return d.sqrt_l();
    }
    let s = v.x.abs_l().max(v.y.abs_l()).max(v.z.abs_l());
    if s == T::zero() || !s.finite() {
        return s;
    }
    let u = v / s;
    s * u.dot(&u).sqrt_l()
}

/// Modelica's `to_unit1`: the identity on a 3-vector (it only strips the unit).
pub fn to_unit1<T: Real>(v: &Vector3<T>) -> Vector3<T> {
    *v
}

/// Modelica's `Vectors.normalizeWithAssert`: `v / |v|`, or `Err(ZeroLength(Direction))` when
/// `|v| = 0` (Modelica asserts `length(v) > 0`), `Err(NotFinite(Direction))` for NaN/infinity.
pub fn normalize_with_assert<T: Real>(v: &Vector3<T>) -> Result<Vector3<T>> {
    if !crate::finite::all_finite(v) {
        return Err(Error::NotFinite(Param::Direction));
    }
    let l = length(v);
    if l > T::zero() {
        Ok(v / l)
    } else {
        Err(Error::ZeroLength(Param::Direction))
    }
}

/// Modelica's `TransformationMatrices.from_nxy(n_x, n_y)`: the orientation `T` (frame 1 -> 2)
/// whose x axis is along `n_x` and whose y axis lies in the plane of `n_x` and `n_y`
/// (both resolved in frame 1). It never fails:
///
/// - `e_x = n_x/|n_x|`, or `{1,0,0}` if `|n_x| < 1e-10`;
/// - `e_y = n_y/|n_y|`, or `{0,1,0}` if `|n_y| < 1e-10`;
/// - `n_y_aux = e_y` if `|e_x x e_y|^2 > 1e-6`, else (`n_x` parallel to `n_y`) `{0,1,0}` if
///   `|e_x[x]| > 1e-6`, else `{1,0,0}`;
/// - `e_z = normalize(e_x x n_y_aux)`, `T = {e_x, e_z x e_x, e_z}` (rows).
///
/// Non-finite inputs give a non-finite `T` (never a panic); callers validate first.
pub fn from_nxy<T: Real>(n_x: &Vector3<T>, n_y: &Vector3<T>) -> Matrix3<T> {
    let tiny = T::c(1e-10);
    let lx = length(n_x);
    let e_x = if lx < tiny { Vector3::x() } else { n_x / lx };
    let ly = length(n_y);
    let e_y = if ly < tiny { Vector3::y() } else { n_y / ly };
    let n_z_aux = e_x.cross(&e_y);
    let n_y_aux = if n_z_aux.dot(&n_z_aux) > T::c(1e-6) {
        e_y
    } else if e_x.x.abs_l() > T::c(1e-6) {
        Vector3::y()
    } else {
        Vector3::x()
    };
    let e_z_aux = e_x.cross(&n_y_aux);
    let lz = length(&e_z_aux);
    // lz >= 1e-3 by construction of n_y_aux (|e_x x n_y_aux| > 1e-3); the guard only keeps a
    // non-finite input from dividing by zero.
    let e_z = if lz > T::zero() {
        e_z_aux / lz
    } else {
        e_z_aux
    };
    let e_y2 = e_z.cross(&e_x);
    Matrix3::from_rows(&[e_x.transpose(), e_y2.transpose(), e_z.transpose()])
}

/// Modelica's `resolve1(T, v2)`: `v_1 = T^T v_2` (vector from frame 2 to frame 1).
#[inline]
pub fn resolve1<T: Real>(t: &Matrix3<T>, v2: &Vector3<T>) -> Vector3<T> {
    t.tr_mul(v2)
}

/// Modelica's `resolve2(T, v1)`: `v_2 = T v_1` (vector from frame 1 to frame 2).
#[inline]
pub fn resolve2<T: Real>(t: &Matrix3<T>, v1: &Vector3<T>) -> Vector3<T> {
    t * v1
}

/// Modelica's `resolveDyade1(T, D2)`: `D_1 = T^T D_2 T` (second-order tensor, frame 2 -> frame 1).
pub fn resolve_dyade1<T: Real>(t: &Matrix3<T>, d2: &Matrix3<T>) -> Matrix3<T> {
    t.tr_mul(d2) * t
}

/// Modelica's `resolveDyade2(T, D1)`: `D_2 = T D_1 T^T` (second-order tensor, frame 1 -> frame 2).
pub fn resolve_dyade2<T: Real>(t: &Matrix3<T>, d1: &Matrix3<T>) -> Matrix3<T> {
    t * d1 * t.transpose()
}

/// Modelica's `planarRotation(e, angle)`: the orientation `T` (frame 1 -> 2) of a rotation of
/// frame 1 by `angle` (rad) about the unit axis `e` (frame 1),
/// `T = e e^T + (E - e e^T) cos(angle) - [e]x sin(angle)`. `e` must have length 1 (unchecked).
pub fn planar_rotation<T: Real>(e: &Vector3<T>, angle: T) -> Matrix3<T> {
    let ee = e * e.transpose();
    let (s, c) = (angle.sin_l(), angle.cos_l());
    ee + (Matrix3::identity() - ee) * c - crate::math::skew(e) * s
}

/// Modelica's `planarRotationAngle(e, v1, v2)`: the angle (rad, in [-pi, pi]) of the planar
/// rotation about unit axis `e` that maps the representation `v1` (frame 1) of a vector to its
/// representation `v2` (frame 2): `atan2(-(e x v1).v2, v1.v2 - (e.v1)(e.v2))`. `v1` must not be
/// parallel to `e` (then the angle is undetermined and 0 is returned).
pub fn planar_rotation_angle<T: Real>(e: &Vector3<T>, v1: &Vector3<T>, v2: &Vector3<T>) -> T {
    (-e.cross(v1).dot(v2)).atan2_l(v1.dot(v2) - e.dot(v1) * e.dot(v2))
}

/// Modelica's `axisRotation(axis, angle)`: rotation of frame 1 by `angle` (rad) about its axis
/// `axis` (1 = x, 2 = y, 3 = z). `Err(OutOfRange(Sequence))` for another axis,
/// `Err(NotFinite(Orientation))` for a non-finite angle.
pub fn axis_rotation<T: Real>(axis: u8, angle: T) -> Result<Matrix3<T>> {
    if !angle.finite() {
        return Err(Error::NotFinite(Param::Orientation));
    }
    let (s, c) = (angle.sin_l(), angle.cos_l());
    let (o, z) = (T::one(), T::zero());
    match axis {
        1 => Ok(Matrix3::new(o, z, z, z, c, s, z, -s, c)),
        2 => Ok(Matrix3::new(c, z, -s, z, o, z, s, z, c)),
        3 => Ok(Matrix3::new(c, s, z, -s, c, z, z, z, o)),
        _ => Err(Error::OutOfRange(Param::Sequence)),
    }
}

/// Checks a rotation sequence: every axis in {1, 2, 3}, `sequence[0] != sequence[1]` and
/// `sequence[1] != sequence[2]` (Modelica's assert), else `Err(OutOfRange(Sequence))`.
pub fn check_sequence(sequence: [u8; 3]) -> Result<()> {
    let valid = sequence.iter().all(|a| (1..=3).contains(a))
        && sequence[0] != sequence[1]
        && sequence[1] != sequence[2];
    if valid {
        Ok(())
    } else {
        Err(Error::OutOfRange(Param::Sequence))
    }
}

/// Modelica's `axesRotations(sequence, angles)`: the orientation `T` (frame 1 -> 2) reached by
/// rotating frame 1 about its axis `sequence[0]` by `angles[0]`, then about the new axis
/// `sequence[1]` by `angles[1]`, then about `sequence[2]` by `angles[2]` (rad):
/// `T = axisRotation(s3, a3) * axisRotation(s2, a2) * axisRotation(s1, a1)`.
/// `{1,2,3}` gives Cardan angles, `{3,1,3}` Euler angles.
///
/// `Err(OutOfRange(Sequence))` unless every axis is 1, 2 or 3 and consecutive axes differ;
/// `Err(NotFinite(Orientation))` for a non-finite angle.
pub fn axes_rotations<T: Real>(sequence: [u8; 3], angles: [T; 3]) -> Result<Matrix3<T>> {
    check_sequence(sequence)?;
    let t1 = axis_rotation(sequence[0], angles[0])?;
    let t2 = axis_rotation(sequence[1], angles[1])?;
    let t3 = axis_rotation(sequence[2], angles[2])?;
    Ok(t3 * (t2 * t1))
}

/// The unit vector of axis 1, 2 or 3 (caller has checked the axis).
fn unit_axis<T: Real>(axis: u8) -> Vector3<T> {
    match axis {
        1 => Vector3::x(),
        2 => Vector3::y(),
        _ => Vector3::z(),
    }
}

/// Modelica's `axesRotationsAngles(T, sequence, guessAngle1)`: the angles (rad, each in
/// [-pi, pi]) with `axes_rotations(sequence, angles) = T`, the inverse of [`axes_rotations`].
///
/// Of the two solutions for `angles[0]`, the one nearer `guess_angle1` (rad) is returned; in the
/// singular configuration (`|A|, |B| <= 1e-12`, e.g. `angles[1] = +-pi/2` for `{1,2,3}`),
/// `angles[0] = guess_angle1`. `T` must be orthonormal (unchecked).
/// `Err(OutOfRange(Sequence))` for an invalid sequence, `Err(NotFinite(Orientation))` for a
/// non-finite `T` or guess.
pub fn axes_rotations_angles<T: Real>(
    t: &Matrix3<T>,
    sequence: [u8; 3],
    guess_angle1: T,
) -> Result<[T; 3]> {
    check_sequence(sequence)?;
    if !crate::finite::all_finite(t) || !guess_angle1.finite() {
        return Err(Error::NotFinite(Param::Orientation));
    }
    let e1_1 = unit_axis::<T>(sequence[0]);
    let e2_1a = unit_axis::<T>(sequence[1]);
    let e3_2 = unit_axis::<T>(sequence[2]);
    // Row sequence[2] of T: the third axis resolved in frame 1.
    let row = usize::from(sequence[2] - 1);
    let e3_1 = t.row(row).transpose();
    let a = e2_1a.dot(&e3_1);
    let b = e1_1.cross(&e2_1a).dot(&e3_1);
    let small = T::c(1e-12);
    let angle1 = if a.abs_l() <= small && b.abs_l() <= small {
        guess_angle1
    } else {
        let a1a = a.atan2_l(-b);
        let a1b = (-a).atan2_l(b);
        if (a1a - guess_angle1).abs_l() <= (a1b - guess_angle1).abs_l() {
            a1a
        } else {
            a1b
        }
    };
    let t_1a = planar_rotation(&e1_1, angle1);
    let angle2 = planar_rotation_angle(&e2_1a, &resolve2(&t_1a, &e3_1), &e3_2);
    let angle3 = planar_rotation_angle(&e3_2, &e2_1a, &resolve2(t, &resolve1(&t_1a, &e2_1a)));
    Ok([angle1, angle2, angle3])
}

/// The orientation `T = R_0b^T` (Modelica's convention, frame 0 -> b) of a unit body quaternion
/// `q` (scalar first, body -> world). Modelica's `from_Q` after [`Quaternion::to_modelica`].
#[inline]
pub fn from_quaternion<T: Real>(q: &Quaternion<T>) -> Matrix3<T> {
    q.to_matrix().transpose()
}

/// The unit body quaternion (scalar first, `w >= 0`) of an orientation `T = R_0b^T` (Modelica's
/// `to_Q`, converted with [`Quaternion::from_modelica`]). `T` must be orthonormal with det +1.
#[inline]
pub fn to_quaternion<T: Real>(t: &Matrix3<T>) -> Quaternion<T> {
    Quaternion::from_matrix(&t.transpose())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_nxy_of_the_axes_is_the_identity() {
        let t = from_nxy(
            &Vector3::<f64>::new(3.0, 0.0, 0.0),
            &Vector3::new(0.0, 0.5, 0.0),
        );
        assert_eq!(t, Matrix3::identity());
    }

    #[test]
    fn from_nxy_parallel_along_x_picks_y() {
        // n_y parallel to n_x, |e_x[x]| > 1e-6: n_y_aux = {0,1,0}; T = identity for n_x = x.
        let t = from_nxy(
            &Vector3::<f64>::new(2.0, 0.0, 0.0),
            &Vector3::new(-1.0, 0.0, 0.0),
        );
        assert_eq!(t, Matrix3::identity());
    }

    #[test]
    fn bad_sequences_are_refused() {
        for s in [[1, 1, 2], [1, 2, 2], [0, 1, 2], [1, 2, 4]] {
            assert_eq!(
                axes_rotations::<f64>(s, [0.1, 0.2, 0.3]),
                Err(Error::OutOfRange(Param::Sequence))
            );
        }
        assert!(axes_rotations::<f64>([3, 1, 3], [0.1, 0.2, 0.3]).is_ok());
        assert_eq!(
            axes_rotations::<f64>([1, 2, 3], [0.1, f64::NAN, 0.3]),
            Err(Error::NotFinite(Param::Orientation))
        );
    }

    #[test]
    fn normalize_with_assert_refuses_zero() {
        assert_eq!(
            normalize_with_assert(&Vector3::<f32>::zeros()),
            Err(Error::ZeroLength(Param::Direction))
        );
        let u = normalize_with_assert(&Vector3::new(0.0, 3.0, 4.0)).unwrap_or_default();
        assert_eq!(u, Vector3::new(0.0, 0.6, 0.8));
    }

    #[test]
    fn length_survives_overflow_and_underflow() {
        let big = Vector3::<f32>::new(3e30, 4e30, 0.0);
        assert!((length(&big) / 5e30 - 1.0).abs() < 1e-6);
        let tiny = Vector3::<f64>::new(3e-200, 4e-200, 0.0);
        assert!((length(&tiny) / 5e-200 - 1.0).abs() < 1e-15);
    }
}
