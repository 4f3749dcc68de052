//! The joints of a kinematic tree: what a joint's coordinates `q` and velocities `v` mean, the
//! placement they give the link, and the motion subspace `S` (Featherstone, ch. 4) with
//! `v_link = S v` relative to the parent, resolved in link coordinates.
//!
//! Every `S` here is constant in link coordinates, so the velocity-product acceleration of a
//! joint is `c = v_link x (S v)` (Featherstone's `c_J = 0`).

// `!(x > 0)` is meant: NaN must fail these checks.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::spatial::{Force, Motion, Transform};
use crate::math::Quaternion;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A joint between a link and its parent (or the base).
///
/// Coordinates and velocities, `q` and `v`, as they appear in the tree's vectors:
///
/// | joint | `q` | `v` |
/// |---|---|---|
/// | `Revolute` | angle (rad) about `axis` | angular rate (rad/s) |
/// | `Prismatic` | displacement (m) along `axis` | rate (m/s) |
/// | `Fixed` | none | none |
/// | `Spherical` | unit quaternion `[w, x, y, z]`: link frame in the joint frame | angular velocity relative to the parent (rad/s, link coordinates) |
/// | `Free` | position (m, joint-frame coordinates) of the link origin, then a unit quaternion | `[w; v]`: relative angular velocity (rad/s) and velocity of the link origin (m/s), link coordinates |
///
/// Quaternions are normalized where they are used (`e/|e|`), so a stage of an integrator may
/// leave the unit sphere; the steps renormalize them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Joint<T> {
    /// Rotation about a unit axis, the same in the joint and the link frame.
    Revolute {
        /// Unit axis (joint-frame = link-frame coordinates).
        axis: Vector3<T>,
    },
    /// Translation along a unit axis, the same in the joint and the link frame.
    Prismatic {
        /// Unit axis (joint-frame = link-frame coordinates).
        axis: Vector3<T>,
    },
    /// The link is welded to its parent.
    Fixed,
    /// A ball joint: any rotation about the joint frame's origin.
    Spherical,
    /// Six degrees of freedom (a floating base).
    Free,
}

/// A unit quaternion from four coordinates (normalized; the caller has checked `|e| > 0`).
#[inline]
pub(crate) fn unit_quaternion<T: Real>(q: &[T]) -> Quaternion<T> {
    let e = Quaternion::new(q[0], q[1], q[2], q[3]);
    let n = e.norm();
    Quaternion::new(e.w / n, e.x / n, e.y / n, e.z / n)
}

/// `R = cos(q) E + sin(q) [a]x + (1 - cos(q)) a a^T`: rotation by `q` (rad) about the unit
/// axis `a` (Rodrigues), written out.
#[inline]
fn axis_rotation<T: Real>(a: &Vector3<T>, q: T) -> Matrix3<T> {
    let (s, c) = q.sin_cos_l();
    let t = T::one() - c;
    let (tx, ty, tz) = (t * a.x, t * a.y, t * a.z);
    let (txy, txz, tyz) = (tx * a.y, tx * a.z, ty * a.z);
    let (sx, sy, sz) = (s * a.x, s * a.y, s * a.z);
    Matrix3::new(
        c + tx * a.x,
        txy - sz,
        txz + sy,
        txy + sz,
        c + ty * a.y,
        tyz - sx,
        txz - sy,
        tyz + sx,
        c + tz * a.z,
    )
}

impl<T: Real> Joint<T> {
    /// A revolute joint about `axis` (normalized). Errors: `NotFinite(Direction)`,
    /// `ZeroLength(Direction)`.
    pub fn revolute(axis: Vector3<T>) -> Result<Self> {
        Ok(Joint::Revolute {
            axis: unit_axis(axis)?,
        })
    }

    /// A prismatic joint along `axis` (normalized). Errors as [`Joint::revolute`].
    pub fn prismatic(axis: Vector3<T>) -> Result<Self> {
        Ok(Joint::Prismatic {
            axis: unit_axis(axis)?,
        })
    }

    /// The number of position coordinates (0, 1, 4 or 7).
    pub fn nq(&self) -> usize {
        match self {
            Joint::Revolute { .. } | Joint::Prismatic { .. } => 1,
            Joint::Fixed => 0,
            Joint::Spherical => 4,
            Joint::Free => 7,
        }
    }

    /// The number of velocity coordinates, the joint's degrees of freedom (0, 1, 3 or 6).
    pub fn nv(&self) -> usize {
        match self {
            Joint::Revolute { .. } | Joint::Prismatic { .. } => 1,
            Joint::Fixed => 0,
            Joint::Spherical => 3,
            Joint::Free => 6,
        }
    }

    /// Writes the joint's reference coordinates (zero angle or displacement, identity rotation)
    /// into `q[..nq]`.
    pub fn neutral(&self, q: &mut [T]) {
        for x in q.iter_mut().take(self.nq()) {
            *x = T::zero();
        }
        match self {
            Joint::Spherical => q[0] = T::one(),
            Joint::Free => q[3] = T::one(),
            _ => {}
        }
    }

    /// The index of the quaternion's first coordinate within the joint's `q`, if it has one.
    pub(crate) fn quaternion_at(&self) -> Option<usize> {
        match self {
            Joint::Spherical => Some(0),
            Joint::Free => Some(3),
            _ => None,
        }
    }

    /// The link frame in the joint frame at coordinates `q[..nq]`.
    #[inline]
    pub fn transform(&self, q: &[T]) -> Transform<T> {
        match self {
            Joint::Revolute { axis } => Transform::new(axis_rotation(axis, q[0]), Vector3::zeros()),
            Joint::Prismatic { axis } => Transform::translation(axis * q[0]),
            Joint::Fixed => Transform::identity(),
            Joint::Spherical => Transform::new(unit_quaternion(q).to_matrix(), Vector3::zeros()),
            Joint::Free => Transform::new(
                unit_quaternion(&q[3..7]).to_matrix(),
                Vector3::new(q[0], q[1], q[2]),
            ),
        }
    }

    /// Column `k < nv` of the motion subspace `S` (link coordinates).
    #[inline]
    pub fn column(&self, k: usize) -> Motion<T> {
        let z = Vector3::zeros();
        match self {
            Joint::Revolute { axis } => Motion::new(*axis, z),
            Joint::Prismatic { axis } => Motion::new(z, *axis),
            Joint::Fixed => Motion::zero(),
            Joint::Spherical | Joint::Free => {
                let mut e = Vector3::zeros();
                e[k % 3] = T::one();
                if k < 3 {
                    Motion::new(e, z)
                } else {
                    Motion::new(z, e)
                }
            }
        }
    }

    /// The link's velocity relative to its parent, `S v` (link coordinates), of `v[..nv]`.
    #[inline(always)]
    pub fn motion(&self, v: &[T]) -> Motion<T> {
        match self {
            Joint::Revolute { axis } => Motion::new(axis * v[0], Vector3::zeros()),
            Joint::Prismatic { axis } => Motion::new(Vector3::zeros(), axis * v[0]),
            Joint::Fixed => Motion::zero(),
            Joint::Spherical => Motion::new(Vector3::new(v[0], v[1], v[2]), Vector3::zeros()),
            Joint::Free => Motion::new(
                Vector3::new(v[0], v[1], v[2]),
                Vector3::new(v[3], v[4], v[5]),
            ),
        }
    }

    /// Component `k < nv` of `S^T f`: the generalized force of a spatial force `f` (link
    /// coordinates) on the joint's velocity `k` (N m or N).
    #[inline]
    pub fn project(&self, f: &Force<T>, k: usize) -> T {
        match self {
            Joint::Revolute { axis } => axis.dot(&f.angular),
            Joint::Prismatic { axis } => axis.dot(&f.linear),
            Joint::Fixed => T::zero(),
            Joint::Spherical | Joint::Free => f.get(k),
        }
    }

    /// The rate of the position coordinates, `q_t = G(q) v` (into `q_t[..nq]`): `v` itself for a
    /// revolute or prismatic joint; `e_t = e * [0, w/2]` for a quaternion `e` (not normalized:
    /// the rate of the stored coordinates); `p_t = R(e) v_lin` for the free joint's position.
    pub fn position_rate(&self, q: &[T], v: &[T], q_t: &mut [T]) {
        match self {
            Joint::Revolute { .. } | Joint::Prismatic { .. } => q_t[0] = v[0],
            Joint::Fixed => {}
            Joint::Spherical => quaternion_rate(&q[0..4], &v[0..3], &mut q_t[0..4]),
            Joint::Free => {
                let r = unit_quaternion(&q[3..7]).to_matrix();
                let p_t = r * Vector3::new(v[3], v[4], v[5]);
                q_t[0] = p_t.x;
                q_t[1] = p_t.y;
                q_t[2] = p_t.z;
                quaternion_rate(&q[3..7], &v[0..3], &mut q_t[3..7]);
            }
        }
    }

    /// Advances `q[..nq]` by the constant velocity `v[..nv]` over `h` (s): `q + h v` for a
    /// revolute or prismatic joint; the quaternion turned exactly, `e exp(h w)` (unit result);
    /// the free joint's position by `h R(e_n) v_lin` (first order, as the step that calls it).
    pub fn integrate(&self, q: &mut [T], v: &[T], h: T) {
        match self {
            Joint::Revolute { .. } | Joint::Prismatic { .. } => q[0] += h * v[0],
            Joint::Fixed => {}
            Joint::Spherical => turn(&mut q[0..4], &v[0..3], h),
            Joint::Free => {
                let r = unit_quaternion(&q[3..7]).to_matrix();
                let dp = r * Vector3::new(v[3], v[4], v[5]) * h;
                q[0] += dp.x;
                q[1] += dp.y;
                q[2] += dp.z;
                turn(&mut q[3..7], &v[0..3], h);
            }
        }
    }

    /// Scales the joint's quaternion (if any) to unit length.
    pub fn normalize(&self, q: &mut [T]) {
        if let Some(k) = self.quaternion_at() {
            let e = unit_quaternion(&q[k..k + 4]).to_array();
            q[k..k + 4].copy_from_slice(&e);
        }
    }

    /// `Some(|w|)`, the largest rotation rate (rad/s) the joint's velocities `v[..nv]` give its
    /// link relative to the parent, for the step-size guard; `None` for a joint that does not
    /// rotate.
    pub(crate) fn rotation_rate(&self, v: &[T]) -> Option<T> {
        match self {
            Joint::Revolute { .. } => Some(v[0].abs_l()),
            Joint::Spherical | Joint::Free => {
                Some((v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt_l())
            }
            _ => None,
        }
    }
}

/// `e_t = e * [0, w/2]` (scalar first), `w` in the rotated (link) frame.
fn quaternion_rate<T: Real>(e: &[T], w: &[T], e_t: &mut [T]) {
    let q = Quaternion::new(e[0], e[1], e[2], e[3]);
    let half = T::c(0.5);
    let r = q.mul(&Quaternion::new(
        T::zero(),
        w[0] * half,
        w[1] * half,
        w[2] * half,
    ));
    e_t.copy_from_slice(&r.to_array());
}

/// `e <- (e/|e|) exp(h w)`, `w` (rad/s) in the rotated (link) frame.
fn turn<T: Real>(e: &mut [T], w: &[T], h: T) {
    let q = unit_quaternion(e).mul_exp_inline(&(Vector3::new(w[0], w[1], w[2]) * h));
    e.copy_from_slice(&q.to_array());
}

/// `axis / |axis|`; errors `NotFinite(Direction)`, `ZeroLength(Direction)`.
fn unit_axis<T: Real>(axis: Vector3<T>) -> Result<Vector3<T>> {
    crate::error::finite_all(&axis, Param::Direction)?;
    let n = axis.dot(&axis).sqrt_l();
    if !(n > T::zero()) || !n.finite() {
        return Err(Error::ZeroLength(Param::Direction));
    }
    Ok(axis / n)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::needless_range_loop)]
mod tests {
    use super::*;

    fn joints() -> [Joint<f64>; 5] {
        [
            Joint::revolute(Vector3::new(1.0, 2.0, -0.5)).unwrap(),
            Joint::prismatic(Vector3::new(0.0, -3.0, 0.4)).unwrap(),
            Joint::Fixed,
            Joint::Spherical,
            Joint::Free,
        ]
    }

    /// The motion subspace is the derivative of the joint transform: the link's relative
    /// velocity from a central difference of `transform(q + t q_t)` equals `S v`.
    #[test]
    fn subspace_is_the_derivative_of_the_transform() {
        let q_all = [0.7, 0.3, 0.0, 0.0, 0.0, 0.0, 0.0];
        let qs: [&[f64]; 5] = [
            &q_all[..1],
            &[0.25],
            &[],
            &[0.9, 0.1, -0.3, 0.2],
            &[0.4, -0.2, 1.0, 0.8, -0.1, 0.3, 0.45],
        ];
        let v: [f64; 6] = [0.3, -1.1, 0.6, 0.2, 0.5, -0.8];
        for (j, q) in joints().iter().zip(qs.iter()) {
            let nq = j.nq();
            let mut q_t = [0.0; 7];
            j.position_rate(q, &v, &mut q_t);
            let d = 1e-6;
            let mut qp = [0.0; 7];
            let mut qm = [0.0; 7];
            for k in 0..nq {
                qp[k] = q[k] + d * q_t[k];
                qm[k] = q[k] - d * q_t[k];
            }
            let (xp, xm, x) = (
                j.transform(&qp[..nq]),
                j.transform(&qm[..nq]),
                j.transform(q),
            );
            let r_t = (xp.rotation - xm.rotation) / (2.0 * d);
            let p_t = (xp.translation - xm.translation) / (2.0 * d);
            // In link coordinates: [w]x = R^T R_t, velocity of the origin R^T p_t.
            let w = x.rotation.transpose() * r_t;
            let w = Vector3::new(w[(2, 1)], w[(0, 2)], w[(1, 0)]);
            let lin = x.rotation.transpose() * p_t;
            let s = j.motion(&v);
            assert!((w - s.angular).norm() < 1e-8, "{j:?}");
            assert!((lin - s.linear).norm() < 1e-8, "{j:?}");
            // Columns and projections agree with motion().
            let mut sum = Motion::zero();
            for k in 0..j.nv() {
                sum += j.column(k) * v[k];
                let f = Force::new(Vector3::new(0.1, 0.2, 0.3), Vector3::new(0.4, 0.5, 0.6));
                assert_eq!(j.project(&f, k), j.column(k).dot(&f));
            }
            assert!((sum.angular - s.angular).norm() + (sum.linear - s.linear).norm() < 1e-15);
        }
    }

    #[test]
    fn integrate_turns_the_quaternion_exactly() {
        let j = Joint::<f64>::Spherical;
        let mut q = [1.0, 0.0, 0.0, 0.0];
        j.integrate(&mut q, &[0.0, 0.0, 2.0], 0.5);
        // A turn of 1 rad about z.
        assert!((q[0] - 0.5f64.cos()).abs() < 1e-15 && (q[3] - 0.5f64.sin()).abs() < 1e-15);
    }

    #[test]
    fn bad_axes_are_refused() {
        assert_eq!(
            Joint::revolute(Vector3::new(0.0, 0.0, 0.0)),
            Err(Error::ZeroLength(Param::Direction))
        );
        assert_eq!(
            Joint::prismatic(Vector3::new(f64::NAN, 0.0, 1.0)),
            Err(Error::NotFinite(Param::Direction))
        );
    }
}
