//! Unit quaternions, **scalar first**: `q = [w, x, y, z]`, Hamilton product, `w >= 0` not enforced.
//!
//! Convention: the quaternion of a body frame `b` maps body coordinates to world coordinates,
//! `v_0 = q v_b q*`, i.e. [`Quaternion::to_matrix`] returns `R_0b` with `v_0 = R_0b v_b`.
//! Exudyn's Euler parameters and MuJoCo use the same order. Modelica's `Quaternions.Orientation`
//! `{n sin(phi/2), cos(phi/2)}` is scalar last; it turns frame 1 into frame 2 by +phi about n,
//! the same rotation as mbs's `[cos(phi/2), n sin(phi/2)]` (its `from_Q` gives `T = R_0b^T`
//! from the same components). Convert with [`Quaternion::from_modelica`] /
//! [`Quaternion::to_modelica`]: a reordering, no conjugation.

use crate::real::Real;
use nalgebra::{Matrix3, Vector3};

/// A quaternion `w + x i + y j + z k` (scalar first). Unit length when it is an orientation.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Quaternion<T> {
    /// Scalar part, `cos(angle/2)` for a rotation (-).
    pub w: T,
    /// Vector part, x component, `sin(angle/2) * axis.x` (-).
    pub x: T,
    /// Vector part, y component (-).
    pub y: T,
    /// Vector part, z component (-).
    pub z: T,
}

impl<T: Real> Quaternion<T> {
    /// Builds `w + x i + y j + z k`.
    #[inline]
    pub fn new(w: T, x: T, y: T, z: T) -> Self {
        Self { w, x, y, z }
    }

    /// The identity rotation `[1, 0, 0, 0]`.
    #[inline]
    pub fn identity() -> Self {
        Self::new(T::one(), T::zero(), T::zero(), T::zero())
    }

    /// From a scalar-first array `[w, x, y, z]`.
    #[inline]
    pub fn from_array(a: [T; 4]) -> Self {
        Self::new(a[0], a[1], a[2], a[3])
    }

    /// To a scalar-first array `[w, x, y, z]`.
    #[inline]
    pub fn to_array(self) -> [T; 4] {
        [self.w, self.x, self.y, self.z]
    }

    /// From Modelica's `Quaternions.Orientation` `{q1, q2, q3, q4}` (scalar last).
    #[inline]
    pub fn from_modelica(q: [T; 4]) -> Self {
        Self::new(q[3], q[0], q[1], q[2])
    }

    /// To Modelica's `Quaternions.Orientation` `{q1, q2, q3, q4}` (scalar last).
    #[inline]
    pub fn to_modelica(self) -> [T; 4] {
        [self.x, self.y, self.z, self.w]
    }

    /// The vector part `[x, y, z]`.
    #[inline]
    pub fn vector(&self) -> Vector3<T> {
        Vector3::new(self.x, self.y, self.z)
    }

    /// The conjugate `[w, -x, -y, -z]` (the inverse rotation for a unit quaternion).
    #[inline]
    pub fn conjugate(&self) -> Self {
        Self::new(self.w, -self.x, -self.y, -self.z)
    }

    /// Squared norm `w^2 + x^2 + y^2 + z^2`.
    #[inline]
    pub fn norm_squared(&self) -> T {
        self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z
    }

    /// Norm (libm sqrt).
    #[inline]
    pub fn norm(&self) -> T {
        self.norm_squared().sqrt_l()
    }

    /// `self / |self|`; `None` for a zero or non-finite quaternion.
    #[inline]
    pub fn normalized(&self) -> Option<Self> {
        let n = self.norm();
        if !(n.finite() && n > T::zero()) {
            return None;
        }
        let inv = T::one() / n;
        Some(Self::new(
            self.w * inv,
            self.x * inv,
            self.y * inv,
            self.z * inv,
        ))
    }

    /// Hamilton product `self * r` (apply `r` first, then `self`, when both rotate vectors).
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn mul(&self, r: &Self) -> Self {
        let (a, b) = (self, r);
        Self::new(
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        )
    }

    /// `R_0b`: the rotation matrix of a unit quaternion, `v_0 = R_0b v_b`.
    pub fn to_matrix(&self) -> Matrix3<T> {
        self.matrix_with(T::c(2.0))
    }

    /// `R_0b` of the unit quaternion `q / |q|`, for any nonzero `q`, without a square root:
    /// [`Self::to_matrix`]'s products `q_i q_j` divided by `|q|^2`. Not finite for a zero `q`.
    pub fn to_matrix_normalized(&self) -> Matrix3<T> {
        let n2 = self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z;
        self.matrix_with(T::c(2.0) / n2)
    }

    /// `E + two ([v]x^2 + w [v]x)` of `q = [w, v]` (`two = 2` for a unit `q`).
    fn matrix_with(&self, two: T) -> Matrix3<T> {
        let (w, x, y, z) = (self.w, self.x, self.y, self.z);
        let one = T::one();
        Matrix3::new(
            one - two * (y * y + z * z),
            two * (x * y - w * z),
            two * (x * z + w * y),
            two * (x * y + w * z),
            one - two * (x * x + z * z),
            two * (y * z - w * x),
            two * (x * z - w * y),
            two * (y * z + w * x),
            one - two * (x * x + y * y),
        )
    }

    /// The unit quaternion of a rotation matrix `R_0b` (Shepperd's method: largest pivot),
    /// with `w >= 0`. `R` must be orthonormal with det +1.
    pub fn from_matrix(r: &Matrix3<T>) -> Self {
        let one = T::one();
        let quarter = T::c(0.25);
        let tr = r[(0, 0)] + r[(1, 1)] + r[(2, 2)];
        let q = if tr >= r[(0, 0)] && tr >= r[(1, 1)] && tr >= r[(2, 2)] {
            let s = (one + tr).sqrt_l() * T::c(2.0); // s = 4 w
            Self::new(
                quarter * s,
                (r[(2, 1)] - r[(1, 2)]) / s,
                (r[(0, 2)] - r[(2, 0)]) / s,
                (r[(1, 0)] - r[(0, 1)]) / s,
            )
        } else if r[(0, 0)] >= r[(1, 1)] && r[(0, 0)] >= r[(2, 2)] {
            let s = (one + r[(0, 0)] - r[(1, 1)] - r[(2, 2)]).sqrt_l() * T::c(2.0); // 4 x
            Self::new(
                (r[(2, 1)] - r[(1, 2)]) / s,
                quarter * s,
                (r[(0, 1)] + r[(1, 0)]) / s,
                (r[(0, 2)] + r[(2, 0)]) / s,
            )
        } else if r[(1, 1)] >= r[(2, 2)] {
            let s = (one + r[(1, 1)] - r[(0, 0)] - r[(2, 2)]).sqrt_l() * T::c(2.0); // 4 y
            Self::new(
                (r[(0, 2)] - r[(2, 0)]) / s,
                (r[(0, 1)] + r[(1, 0)]) / s,
                quarter * s,
                (r[(1, 2)] + r[(2, 1)]) / s,
            )
        } else {
            let s = (one + r[(2, 2)] - r[(0, 0)] - r[(1, 1)]).sqrt_l() * T::c(2.0); // 4 z
            Self::new(
                (r[(1, 0)] - r[(0, 1)]) / s,
                (r[(0, 2)] + r[(2, 0)]) / s,
                (r[(1, 2)] + r[(2, 1)]) / s,
                quarter * s,
            )
        };
        if q.w < T::zero() {
            Self::new(-q.w, -q.x, -q.y, -q.z)
        } else {
            q
        }
    }

    /// Rotates a vector: `q v q*` (`R_0b v` for a body quaternion).
    #[inline]
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        // v + 2 u x (u x v + w v), u the vector part.
        let u = self.vector();
        let t = u.cross(v) + v * self.w;
        v + u.cross(&t) * T::c(2.0)
    }

    /// The exponential map: the unit quaternion of the rotation vector `phi` (rad, axis times
    /// angle), `[cos(|phi|/2), sin(|phi|/2) phi/|phi|]`.
    ///
    /// For `|phi| < 1` it evaluates the Taylor series of `cos(h)` and `sin(h)/h`, `h = |phi|/2`,
    /// in `h^2 = phi.phi/4` to full precision of `T`: no `sqrt`, no `sin`/`cos`, exact at
    /// `phi = 0`, and cheap on an FPU without double precision. The number of terms `n` is the
    /// smallest whose truncation error, below the first omitted term `h^(2n)/(2n)!` of `cos h`
    /// (that of `sin(h)/h` is smaller), stays below `EPS/4` for the given `h^2`
    /// ([`series_terms`]): 3 terms at `|w| dt = 0.005` in f64, 2 in f32, at most 8 (f64) and 5
    /// (f32). A pure function of `phi`. Larger angles halve the angle into the series' range and
    /// double back (no libm trigonometry; error a few `EPS` up to `|phi| = 2 pi`).
    pub fn exp(phi: &Vector3<T>) -> Self {
        let (c, s_over_h) = half_angle(phi.dot(phi) * T::c(0.25));
        // sin(h)/|phi| * phi = (sin(h)/h) * phi/2
        let k = s_over_h * T::c(0.5);
        Self::new(c, phi.x * k, phi.y * k, phi.z * k)
    }

    /// `self * exp(phi)`: the orientation `self` turned by the rotation vector `phi` (rad, in
    /// the frame `self` maps from), written as `cos(h) self + (sin(h)/h) (self * [0, phi/2])`,
    /// `h = |phi|/2` ([`Quaternion::exp`]'s series or doubling for `cos h`, `sin(h)/h`). The
    /// product with `phi/2` does not wait for the series, so one multiply-add follows it: for a
    /// hot step whose last operation is the turn (the midpoint's, inline). The same rotation as
    /// `self.mul(&Quaternion::exp(phi))` up to rounding (a few EPS; the factors are rounded in
    /// another order).
    #[inline(always)]
    pub fn mul_exp_inline(&self, phi: &Vector3<T>) -> Self {
        let h = phi * T::c(0.5);
        // h.h = phi.phi/4 (scaling by a power of 2 is exact)
        let (c, s_over_h) = half_angle(h.dot(&h));
        let a = self;
        // self * [0, h], written out (no products with the zero scalar part).
        let p = Self::new(
            -(a.x * h.x + a.y * h.y + a.z * h.z),
            a.w * h.x + a.y * h.z - a.z * h.y,
            a.w * h.y - a.x * h.z + a.z * h.x,
            a.w * h.z + a.x * h.y - a.y * h.x,
        );
        Self::new(
            a.w * c + p.w * s_over_h,
            a.x * c + p.x * s_over_h,
            a.y * c + p.y * s_over_h,
            a.z * c + p.z * s_over_h,
        )
    }

    /// The rotation vector (rad) of a unit quaternion, the inverse of [`Quaternion::exp`], with
    /// the angle in [0, pi].
    pub fn log(&self) -> Vector3<T> {
        let q = if self.w < T::zero() {
            Self::new(-self.w, -self.x, -self.y, -self.z)
        } else {
            *self
        };
        let v = q.vector();
        let s = v.dot(&v).sqrt_l();
        if s <= T::EPS {
            return v * T::c(2.0);
        }
        let angle = T::c(2.0) * s.atan2_l(q.w);
        v * (angle / s)
    }
}

/// `(cos h, sin(h)/h)` from `x = h^2` (finite or not): the series below [`SERIES_LIMIT`], the
/// doubling branch (out of line) above; [`Quaternion::exp`] and
/// [`Quaternion::mul_exp_inline`] share it.
// Inlined: the series branch is part of the step's hot path.
#[inline(always)]
fn half_angle<T: Real>(x: T) -> (T, T) {
    if x < T::c(SERIES_LIMIT) {
        half_angle_series_by_size(x)
    } else {
        half_angle_doubling(x)
    }
}

/// Upper end (exclusive) of the series branch of [`Quaternion::exp`] in `h^2 = |phi|^2/4`.
const SERIES_LIMIT: f64 = 0.25;

/// `(h^2 bound, terms)`, f64: `n` terms are used below the bound, which lies below
/// `(EPS/4 (2n)!)^(1/n)`, where the first omitted term of `cos h` equals `EPS/4`
/// (3.65e-8, 3.42e-5, 1.22e-3, 1.15e-2, 5.46e-2, 0.174, 0.430 for n = 2..8).
const TERMS_F64: [(f64, usize); 7] = [
    (3e-8, 2),
    (3e-5, 3),
    (1e-3, 4),
    (1e-2, 5),
    (5e-2, 6),
    (0.15, 7),
    (SERIES_LIMIT, 8),
];
/// The same for f32 (`(EPS/4 (2n)!)^(1/n)` = 8.46e-4, 2.78e-2, 0.186, 0.641 for n = 2..5).
const TERMS_F32: [(f64, usize); 4] = [(8e-4, 2), (2.5e-2, 3), (0.18, 4), (SERIES_LIMIT, 5)];

/// Series terms [`Quaternion::exp`] takes for `x = h^2 < 0.25` (tables above; 8 or 5 beyond).
#[inline]
pub fn series_terms<T: Real>(x: T) -> usize {
    let table: &[(f64, usize)] = if T::EPS > T::c(1e-10) {
        &TERMS_F32
    } else {
        &TERMS_F64
    };
    for &(bound, n) in table {
        if x < T::c(bound) {
            return n;
        }
    }
    table.last().map_or(9, |e| e.1)
}

/// `1/((2k-1)(2k))`, k = 1..8: the ratios of successive Taylor terms of `cos h` in `h^2`.
const COS_RATIO: [f64; 8] = [
    1.0 / 2.0,
    1.0 / 12.0,
    1.0 / 30.0,
    1.0 / 56.0,
    1.0 / 90.0,
    1.0 / 132.0,
    1.0 / 182.0,
    1.0 / 240.0,
];
/// `1/((2k)(2k+1))`, k = 1..8: the same for `sin(h)/h`.
const SINC_RATIO: [f64; 8] = [
    1.0 / 6.0,
    1.0 / 20.0,
    1.0 / 42.0,
    1.0 / 72.0,
    1.0 / 110.0,
    1.0 / 156.0,
    1.0 / 210.0,
    1.0 / 272.0,
];

/// `(cos h, sin(h)/h)` from `x = h^2` by Horner's rule on the first `terms` (<= 9) Taylor
/// terms: `cos h = 1 - x/2 (1 - x/12 (1 - x/30 (...)))`, `sin(h)/h = 1 - x/6 (1 - x/20 (...))`.
/// Multiplications by rounded reciprocals, no division (slow on a
/// microcontroller's FPU); the rounding of the constants is far below the truncation error.
#[inline]
#[cfg_attr(not(test), allow(dead_code))]
fn half_angle_series<T: Real>(x: T, terms: usize) -> (T, T) {
    let one = T::one();
    let mut c = one;
    let mut s = one;
    let mut k = terms.min(9);
    while k > 1 {
        k -= 1;
        c = one - x * c * T::c(COS_RATIO[k - 1]);
        s = one - x * s * T::c(SINC_RATIO[k - 1]);
    }
    (c, s)
}

/// [`half_angle_series`] with a constant number of terms `N` (unrolled, no index checks).
// Inlined: unrolled in its caller's branch.
#[inline(always)]
fn series_n<T: Real, const N: usize>(x: T) -> (T, T) {
    let one = T::one();
    let mut c = one;
    let mut s = one;
    let mut k = N;
    while k > 1 {
        k -= 1;
        c = one - x * c * T::c(COS_RATIO[k - 1]);
        s = one - x * s * T::c(SINC_RATIO[k - 1]);
    }
    (c, s)
}

/// `(cos h, sin(h)/h)` from `x = h^2 >= SERIES_LIMIT` (the large-angle branch of
/// [`Quaternion::exp`], out of line) without libm: the series at `y = h/2^k`, the smallest
/// `k` with `y^2 = x/4^k < SERIES_LIMIT` (exact: powers of 2), then `k` double-angle steps
///
/// ```text
/// cos 2y = cos^2 y - y^2 (sin(y)/y)^2,     sin(2y)/(2y) = (sin(y)/y) cos y.
/// ```
///
/// No `sqrt`, `sin`, `cos` or division: a firmware that steps a body links no libm
/// trigonometry (libm's `sinf` brings its large argument reduction and computes in double). Each step about doubles the absolute error, then one Newton step restores the unit
/// norm; the error is a few `k EPS`: 4 EPS
/// up to `|phi| = 2 pi` (`k <= 3`), in general about `EPS (1 + |phi|)`, the uncertainty the
/// angle itself carries. Non-finite `x` gives NaN.
// Out of line: turns of 1 rad or more per step are rare.
#[inline(never)]
fn half_angle_doubling<T: Real>(x: T) -> (T, T) {
    if !x.finite() {
        let nan = T::c(f64::NAN);
        return (nan, nan);
    }
    let limit = T::c(SERIES_LIMIT);
    let mut y2 = x;
    let mut k = 0u32;
    // Ends: x is finite, so at most 513 (f64) / 65 (f32) exact divisions by 4.
    while y2 >= limit {
        y2 *= T::c(0.25);
        k += 1;
    }
    // y2 < SERIES_LIMIT (in [SERIES_LIMIT/4, SERIES_LIMIT) for the x >= SERIES_LIMIT of exp):
    // the most terms of the tables, accurate on all of it (one copy of the series in this
    // cold branch, not the branch tree of the hot one).
    let (mut c, mut s) = if T::EPS > T::c(1e-10) {
        series_n::<T, 5>(y2)
    } else {
        series_n::<T, 8>(y2)
    };
    // Each doubling squares the norm (|(c', h' s')| = |(c, h s)|^2), so an error of the norm
    // doubles with each: after the 30 of a 1e9 rad turn in f32 (or the 60 of 1e18 rad in
    // f64) nothing of the unit norm would be left (the result went to zero or overflowed).
    // So the doublings run in blocks of at most 8 (error up to 2^8 EPS), each followed by one
    // Newton step of 1/sqrt, `f = (3 - c^2 - y^2 s^2)/2`, which takes the norm back to 1 to
    // rounding. Up to 8 doublings (turns under 256 rad) that is the one final Newton step.
    let mut left = k;
    loop {
        let n = left.min(8);
        for _ in 0..n {
            let c2 = c * c - y2 * s * s;
            s *= c;
            c = c2;
            y2 *= T::c(4.0);
        }
        left -= n;
        let f = T::c(1.5) - T::c(0.5) * (c * c + y2 * s * s);
        c *= f;
        s *= f;
        if left == 0 {
            return (c, s);
        }
    }
}

/// `half_angle_series(x, series_terms(x))`, the branches written out (smallest `x` first).
#[inline]
fn half_angle_series_by_size<T: Real>(x: T) -> (T, T) {
    let b = |t: &[(f64, usize)], i: usize| T::c(t[i].0);
    if T::EPS > T::c(1e-10) {
        let t = &TERMS_F32[..];
        if x < b(t, 0) {
            series_n::<T, 2>(x)
        } else if x < b(t, 1) {
            series_n::<T, 3>(x)
        } else if x < b(t, 2) {
            series_n::<T, 4>(x)
        } else {
            series_n::<T, 5>(x)
        }
    } else {
        let t = &TERMS_F64[..];
        if x < b(t, 0) {
            series_n::<T, 2>(x)
        } else if x < b(t, 1) {
            series_n::<T, 3>(x)
        } else if x < b(t, 2) {
            series_n::<T, 4>(x)
        } else if x < b(t, 3) {
            series_n::<T, 5>(x)
        } else if x < b(t, 4) {
            series_n::<T, 6>(x)
        } else if x < b(t, 5) {
            series_n::<T, 7>(x)
        } else {
            series_n::<T, 8>(x)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// The rotation of `q / |q|` without a square root: against the normalized quaternion's
    /// matrix, against nalgebra's rotation of the same quaternion, and orthonormal, for
    /// scales far from 1; not finite for a zero `q`.
    #[test]
    fn to_matrix_normalized_is_the_rotation_of_the_direction() {
        let l = libm::sqrt(0.8 * 0.8 + 0.2 * 0.2 + 0.4 * 0.4 + 0.4 * 0.4);
        let u = Quaternion::new(0.8 / l, 0.2 / l, -0.4 / l, 0.4 / l);
        let want = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
            u.w, u.x, u.y, u.z,
        ))
        .to_rotation_matrix()
        .into_inner();
        for s in [1.0, 1e-3, 0.97, 1.03, 250.0] {
            let q = Quaternion::new(u.w * s, u.x * s, u.y * s, u.z * s);
            let r = q.to_matrix_normalized();
            assert!((r - u.to_matrix()).norm() < 1e-15, "scale {s}");
            assert!((r - want).norm() < 1e-15, "scale {s}");
            assert!((r.transpose() * r - Matrix3::identity()).norm() < 1e-15);
        }
        let zero = Quaternion::<f64>::new(0.0, 0.0, 0.0, 0.0).to_matrix_normalized();
        assert!(!zero.iter().all(|x| x.is_finite()));
    }

    #[test]
    fn exp_matches_closed_form_on_both_branches() {
        for &ang in &[0.0, 1e-8, 0.3, 0.99, 1.01, 2.5, 3.1] {
            let axis = Vector3::new(1.0, -2.0, 0.5).normalize();
            let q = Quaternion::<f64>::exp(&(axis * ang));
            // The series branch to 1e-16; the halving-doubling branch (|phi| >= 1) to 4 EPS.
            let (tw, tv) = if ang < 1.0 {
                (1e-16, 2e-16)
            } else {
                (4.0 * f64::EPSILON, 4.0 * f64::EPSILON)
            };
            assert!(close(q.w, libm::cos(ang / 2.0), tw), "w at {ang}");
            let s = libm::sin(ang / 2.0);
            assert!((q.vector() - axis * s).norm() < tv, "v at {ang}");
            let qf = Quaternion::<f32>::exp(&(axis.cast::<f32>() * ang as f32));
            assert!(close(qf.w as f64, libm::cos(ang / 2.0), 2e-7));
        }
    }

    /// The large-angle branch (halving and doubling, no libm) against libm's `cos`/`sin` of
    /// the half angle, f64 and f32, from the branch's edge to many turns: within `4 EPS` up to
    /// `|phi| = 2 pi`, within `EPS (4 + |phi|)` beyond; unit norm to the same; NaN for inf/NaN.
    #[test]
    fn large_angle_branch_matches_libm_without_calling_it() {
        let axis = Vector3::new(0.6, 0.0, -0.8);
        let mut ang = 1.0f64;
        while ang < 2.0e4 {
            for a in [ang, ang * 1.0001] {
                let h = a / 2.0;
                let q = Quaternion::<f64>::exp(&(axis * a));
                let tol = f64::EPSILON
                    * if a <= 2.0 * core::f64::consts::PI {
                        4.0
                    } else {
                        4.0 + a
                    };
                assert!((q.w - libm::cos(h)).abs() <= tol, "w at {a}");
                assert!((q.vector() - axis * libm::sin(h)).amax() <= tol, "v at {a}");
                assert!((q.norm_squared() - 1.0).abs() <= 2.0 * tol, "norm at {a}");
                // f32: the angle as rounded to float is the input; reference in f64.
                let phi = (axis * a).cast::<f32>();
                let p = phi.cast::<f64>();
                let hf = libm::sqrt(p.dot(&p)) / 2.0;
                let qf = Quaternion::<f32>::exp(&phi);
                let tolf = f32::EPSILON as f64 * if a <= 6.3 { 4.0 } else { 4.0 + a };
                assert!((qf.w as f64 - libm::cos(hf)).abs() <= tolf, "f32 w at {a}");
                let v = qf.vector().cast::<f64>() - p * (libm::sin(hf) / (2.0 * hf));
                assert!(v.amax() <= tolf, "f32 v at {a}");
            }
            ang *= 1.37;
        }
        // The edge of the branch: |phi| = 1 exactly is the doubling branch (h^2 = 0.25).
        let q = Quaternion::<f64>::exp(&Vector3::new(1.0, 0.0, 0.0));
        assert!((q.w - libm::cos(0.5)).abs() <= 2.0 * f64::EPSILON);
        assert!((q.x - libm::sin(0.5)).abs() <= 2.0 * f64::EPSILON);
        // Huge finite angles end (at most 513 halvings) and stay unit.
        let q = Quaternion::<f64>::exp(&Vector3::new(1e150, 0.0, 0.0));
        assert!(q.norm_squared().is_finite() && q.w.abs() <= 1.0 + 1e-9);
        let qf = Quaternion::<f32>::exp(&Vector3::new(1e19f32, 0.0, 0.0));
        assert!(qf.norm_squared().is_finite());
        for bad in [f64::INFINITY, f64::NAN] {
            assert!(Quaternion::<f64>::exp(&Vector3::new(bad, 0.0, 0.0))
                .w
                .is_nan());
        }
        assert!(
            Quaternion::<f32>::exp(&Vector3::new(f32::INFINITY, 0.0, 0.0))
                .w
                .is_nan()
        );
    }

    /// The first omitted term of `cos h` at each table bound is below `EPS/4` (the criterion),
    /// and one term fewer would not be (the tables are not wastefully long).
    #[test]
    fn series_term_tables_meet_the_truncation_criterion() {
        let fact = |k: usize| (1..=k).fold(1.0f64, |a, i| a * i as f64);
        for (table, eps) in [
            (&TERMS_F64[..], f64::EPSILON),
            (&TERMS_F32[..], f32::EPSILON as f64),
        ] {
            let mut lower = 0.0;
            for &(bound, n) in table {
                assert!(
                    libm::pow(bound, n as f64) / fact(2 * n) < eps / 4.0,
                    "{bound} {n}"
                );
                // n - 1 terms at the lower end of this range would miss EPS/4.
                if lower > 0.0 {
                    let m = n - 1;
                    assert!(libm::pow(lower, m as f64) / fact(2 * m) > eps / 4.0 * 0.2);
                }
                lower = bound;
            }
        }
    }

    /// `exp` against libm's `cos`/`sin` on both sides of every term-count threshold (f64 to
    /// 1.5 EPS, f32 against the f64 reference to 1.5 EPS_f32): a table one term short at any
    /// edge would err by far more (e.g. 2 terms at h^2 = 3e-5: 4e-11).
    #[test]
    fn exp_is_accurate_on_both_sides_of_each_term_threshold() {
        let axis = Vector3::new(0.3, -0.8, 0.52).normalize();
        let check64 = |h2: f64| {
            let ang = 2.0 * libm::sqrt(h2);
            let q = Quaternion::<f64>::exp(&(axis * ang));
            let h = ang / 2.0;
            let tol = 1.5 * f64::EPSILON;
            assert!((q.w - libm::cos(h)).abs() <= tol, "w at h2 {h2}");
            let v = q.vector() - axis * libm::sin(h);
            assert!(
                v.amax() <= tol * libm::sin(h).max(1e-300) + 1e-300,
                "v at h2 {h2}"
            );
        };
        let check32 = |h2: f64| {
            let phi = (axis * (2.0 * libm::sqrt(h2))).cast::<f32>();
            let q = Quaternion::<f32>::exp(&phi);
            let p = phi.cast::<f64>();
            let h = libm::sqrt(p.dot(&p)) / 2.0;
            let tol = 1.5 * f32::EPSILON as f64;
            assert!((q.w as f64 - libm::cos(h)).abs() <= tol, "f32 w at h2 {h2}");
            let v = q.vector().cast::<f64>() - p * (libm::sin(h) / (2.0 * h));
            assert!(v.amax() <= tol * libm::sin(h), "f32 v at h2 {h2}");
        };
        for &(b, _) in &TERMS_F64 {
            for x in [b * (1.0 - 1e-9), b * (1.0 + 1e-9), b * 0.5] {
                check64(x);
            }
        }
        for &(b, _) in &TERMS_F32 {
            for x in [b * (1.0 - 1e-5), b * (1.0 + 1e-5), b * 0.5] {
                check32(x);
            }
        }
        // The written-out branches are the table's: same bits over a sweep across every edge.
        let mut x = 1e-12f64;
        while x < SERIES_LIMIT {
            assert_eq!(
                half_angle_series_by_size(x),
                half_angle_series(x, series_terms(x))
            );
            let xf = x as f32;
            assert_eq!(
                half_angle_series_by_size(xf),
                half_angle_series(xf, series_terms(xf))
            );
            x *= 1.01;
        }
        assert_eq!(series_terms(0.0f64), 2);
        assert_eq!(series_terms(6.25e-6f64), 3); // |w| dt = 0.005
        assert_eq!(series_terms(6.25e-6f32), 2);
        assert_eq!(series_terms(0.2499f64), 8);
        assert_eq!(
            Quaternion::<f64>::exp(&Vector3::zeros()),
            Quaternion::identity()
        );
    }

    /// `q.mul_exp_inline(phi)` is `q.mul(&exp(phi))` to a few EPS (another rounding order of
    /// the same products), over every series length and the doubling branch, in f64 and f32;
    /// and exactly `q` for `phi = 0`.
    #[test]
    fn mul_exp_is_the_product_with_exp() {
        fn check<T: Real>(tol: f64) {
            let q = Quaternion::<T>::exp(&Vector3::new(T::c(0.7), T::c(-0.2), T::c(1.1)));
            assert_eq!(q.mul_exp_inline(&Vector3::zeros()), q);
            for scale in [
                1e-9, 1e-4, 3e-3, 0.02, 0.1, 0.3, 0.6, 0.9, 1.5, 3.0, 7.0, 40.0,
            ] {
                let phi = Vector3::new(T::c(0.3 * scale), T::c(-0.8 * scale), T::c(0.52 * scale));
                let a = q.mul_exp_inline(&phi);
                let b = q.mul(&Quaternion::exp(&phi));
                let d = [a.w - b.w, a.x - b.x, a.y - b.y, a.z - b.z];
                let err = d.iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max);
                assert!(err <= tol * (1.0 + scale), "|phi| ~ {scale}: {err:e}");
            }
        }
        check::<f64>(4.0 * f64::EPSILON);
        check::<f32>(4.0 * f32::EPSILON as f64);
    }

    /// A turn of any finite size gives a unit quaternion: the doubling branch renormalizes
    /// every 8th doubling (without it, 1e9 rad in f32 and 1e18 rad in f64 gave a zero or
    /// non-finite quaternion). Below 256 rad it is the plain recurrence (bits unchanged).
    #[test]
    fn a_huge_turn_is_still_a_unit_quaternion() {
        for angle in [300.0, 1e5, 1e9, 1e18, 1e60, 1e150] {
            let q = Quaternion::<f64>::exp(&Vector3::new(0.6 * angle, 0.0, -0.8 * angle));
            assert!(close(q.norm_squared(), 1.0, 1e-15), "f64 {angle}: {q:?}");
        }
        for angle in [300.0f32, 1e5, 1e9, 1e18] {
            let q = Quaternion::<f32>::exp(&Vector3::new(0.6 * angle, 0.0, -0.8 * angle));
            assert!((q.norm_squared() - 1.0).abs() < 1e-6, "f32 {angle}: {q:?}");
        }
    }

    #[test]
    fn matrix_round_trip_and_rotation_agree() {
        let q = Quaternion::<f64>::exp(&Vector3::new(0.4, -1.3, 2.2));
        let r = q.to_matrix();
        assert!((r.transpose() * r - Matrix3::identity()).norm() < 1e-15);
        assert!(close(r.determinant(), 1.0, 1e-15));
        let v = Vector3::new(0.1, 2.0, -3.0);
        assert!((r * v - q.rotate(&v)).norm() < 1e-14);
        let q2 = Quaternion::from_matrix(&r);
        let q = if q.w < 0.0 {
            Quaternion::new(-q.w, -q.x, -q.y, -q.z)
        } else {
            q
        };
        assert!(close(q2.w, q.w, 1e-15) && (q2.vector() - q.vector()).norm() < 1e-15);
        assert!((q.log() - Vector3::new(0.4, -1.3, 2.2)).norm() < 1e-14);
    }

    #[test]
    fn rotation_about_z_by_90_degrees_maps_x_to_y() {
        let q = Quaternion::<f64>::exp(&Vector3::new(0.0, 0.0, core::f64::consts::FRAC_PI_2));
        let y = q.rotate(&Vector3::x());
        assert!((y - Vector3::y()).norm() < 1e-15);
        let qm = q.to_modelica();
        assert_eq!(Quaternion::from_modelica(qm), q);
        // Modelica's from_Q (Frames.Quaternions.to_T), written out: T = R_0b^T.
        let [q1, q2, q3, q4] = Quaternion::<f64>::exp(&Vector3::new(0.3, -0.7, 1.1)).to_modelica();
        let t = Matrix3::new(
            2.0 * (q1 * q1 + q4 * q4) - 1.0,
            2.0 * (q1 * q2 + q3 * q4),
            2.0 * (q1 * q3 - q2 * q4),
            2.0 * (q2 * q1 - q3 * q4),
            2.0 * (q2 * q2 + q4 * q4) - 1.0,
            2.0 * (q2 * q3 + q1 * q4),
            2.0 * (q3 * q1 + q2 * q4),
            2.0 * (q3 * q2 - q1 * q4),
            2.0 * (q3 * q3 + q4 * q4) - 1.0,
        );
        let r = Quaternion::<f64>::exp(&Vector3::new(0.3, -0.7, 1.1)).to_matrix();
        assert!((t - r.transpose()).norm() < 1e-15);
    }
}
