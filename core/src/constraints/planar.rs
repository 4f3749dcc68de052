//! Planar constraints between markers of 2D bodies, with Exudyn's definitions: the equations
//! `C(q)`, their Jacobians `C_q` and the velocity terms `(C_q q_t)_q q_t`, each written into
//! the rows of a [`Block`] at the columns of the markers' coordinates.
//!
//! A marker ([`PlanarMarker`]) is a point of the ground, of a mass point (`NodePoint2D`: `x, y`)
//! or of a 2D rigid body (`NodeRigidBody2D`: `x, y, theta`, the reference point and the angle
//! of the body frame, rad) at a local position `p` (m, body frame), with a local angle for its
//! frame. The coordinates `q` are displacements from the node's reference (Exudyn's ODE2
//! coordinates): a rigid marker is at `r = r_ref + [x, y] + R(theta_ref + theta) p` (world, m).

// NaN must fail the `!(len > 0)` tests; index loops read as the equations.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

use crate::integrators::constrained::Block;
use crate::Real;
use nalgebra::Vector2;

/// Where a planar marker sits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlanarMarker<T> {
    /// A point fixed in the world at `position` (m), its frame turned by `angle` (rad).
    Ground {
        /// Position (m, world).
        position: Vector2<T>,
        /// Angle of the marker frame (rad).
        angle: T,
    },
    /// A mass point at `reference + [x, y]` (m, world), its displacements `x, y` at `offset`
    /// in `q`.
    Point {
        /// Index of `x` in `q`.
        offset: usize,
        /// The point at zero displacement (m, world).
        reference: Vector2<T>,
    },
    /// A point of a 2D rigid body whose displacements `x, y, theta` from `reference` start at
    /// `offset` in `q`, at `local` (m, body frame), its frame turned by `angle` (rad) from the
    /// body frame.
    Rigid {
        /// Index of `x` in `q`.
        offset: usize,
        /// The reference point and angle `[x, y, theta]` (m, m, rad) at zero displacement.
        reference: nalgebra::Vector3<T>,
        /// Local position (m, body frame).
        local: Vector2<T>,
        /// Angle of the marker frame in the body frame (rad).
        angle: T,
    },
}

/// A marker evaluated at `q`, `q_t`: its position, frame angle, their derivatives with respect
/// to the marker's coordinates (up to 3 columns), and the velocity parts of their second time
/// derivatives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MarkerState<T> {
    /// Position `r` (m, world).
    pub position: Vector2<T>,
    /// Angle of the marker frame (rad, world).
    pub angle: T,
    /// Angular velocity `theta_t` (rad/s).
    pub angular_velocity: T,
    /// Velocity `r_t` (m/s, world).
    pub velocity: Vector2<T>,
    /// `dr/dq` for the marker's coordinates (columns `cols[..ncols]`).
    pub dr: [Vector2<T>; 3],
    /// `d angle/dq` for the same columns.
    pub dangle: [T; 3],
    /// The columns of `q` the marker depends on.
    pub cols: [usize; 3],
    /// Number of columns (0 ground, 2 point, 3 rigid).
    pub ncols: usize,
    /// The velocity part of `r_tt`: `-theta_t^2 R(theta) p` (m/s^2, world; zero but on a rigid body).
    pub r_tt_velocity: Vector2<T>,
    /// `d^2 r / d theta^2 = -R(theta) p` (m, world; zero but on a rigid body, whose `theta` is
    /// column `cols[2]`: the only second derivative of `r`).
    pub d2r: Vector2<T>,
}

/// `v` turned by 90 degrees: `[-v_y, v_x]` (`dR(theta)/dtheta p = perp(R p)`).
fn perp<T: Real>(v: &Vector2<T>) -> Vector2<T> {
    Vector2::new(-v.y, v.x)
}

/// `R(angle) v`.
fn rotate<T: Real>(angle: T, v: &Vector2<T>) -> Vector2<T> {
    rotate_by(angle.sin_cos_l(), v)
}

/// `v` turned by the angle whose `(sin, cos)` is `sin_cos`.
fn rotate_by<T: Real>((s, c): (T, T), v: &Vector2<T>) -> Vector2<T> {
    Vector2::new(c * v.x - s * v.y, s * v.x + c * v.y)
}

/// The sine and cosine of the last angle a marker was turned by: the markers of one body,
/// evaluated one after another (a body's two joints), share one evaluation of them.
#[derive(Clone, Copy, Debug)]
pub struct AngleCache<T> {
    last: Option<[T; 3]>,
}

impl<T: Real> AngleCache<T> {
    /// An empty cache.
    pub const fn new() -> Self {
        Self { last: None }
    }

    /// `(sin, cos)` of `angle` (rad): the stored pair if `angle` is the last one (the same
    /// bits; a zero, whose sine has its sign, is not looked up).
    fn sin_cos(&mut self, angle: T) -> (T, T) {
        if let Some([a, s, c]) = self.last {
            if a == angle && angle != T::zero() {
                return (s, c);
            }
        }
        let (s, c) = angle.sin_cos_l();
        self.last = Some([angle, s, c]);
        (s, c)
    }
}

impl<T: Real> Default for AngleCache<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real> PlanarMarker<T> {
    /// The marker at coordinates `q` and velocities `v` (entries at the marker's offset).
    /// `None` if the offset is outside `q` or `v`.
    pub fn state(&self, q: &[T], v: &[T]) -> Option<MarkerState<T>> {
        self.state_with(q, v, |angle| angle.sin_cos_l())
    }

    /// [`Self::state`], the sine and cosine of the body's angle looked up in `angles` first.
    pub fn state_cached(
        &self,
        q: &[T],
        v: &[T],
        angles: &mut AngleCache<T>,
    ) -> Option<MarkerState<T>> {
        self.state_with(q, v, |angle| angles.sin_cos(angle))
    }

    /// [`Self::state`] with `sin_cos(angle) = (sin, cos)`.
    #[inline(always)]
    fn state_with(
        &self,
        q: &[T],
        v: &[T],
        mut sin_cos: impl FnMut(T) -> (T, T),
    ) -> Option<MarkerState<T>> {
        let z = T::zero();
        let zero2 = Vector2::zeros();
        let mut s = MarkerState {
            position: zero2,
            angle: z,
            angular_velocity: z,
            velocity: zero2,
            dr: [zero2; 3],
            dangle: [z; 3],
            cols: [0; 3],
            ncols: 0,
            r_tt_velocity: zero2,
            d2r: zero2,
        };
        match *self {
            PlanarMarker::Ground { position, angle } => {
                s.position = position;
                s.angle = angle;
            }
            PlanarMarker::Point { offset, reference } => {
                let (x, y) = (*q.get(offset)?, *q.get(offset + 1)?);
                let (vx, vy) = (*v.get(offset)?, *v.get(offset + 1)?);
                s.position = Vector2::new(reference.x + x, reference.y + y);
                s.velocity = Vector2::new(vx, vy);
                s.dr = [Vector2::x(), Vector2::y(), zero2];
                s.cols = [offset, offset + 1, 0];
                s.ncols = 2;
            }
            PlanarMarker::Rigid {
                offset,
                reference,
                local,
                angle,
            } => {
                let (x, y) = (
                    reference.x + *q.get(offset)?,
                    reference.y + *q.get(offset + 1)?,
                );
                let th = reference.z + *q.get(offset + 2)?;
                let (vx, vy, w) = (*v.get(offset)?, *v.get(offset + 1)?, *v.get(offset + 2)?);
                let rp = rotate_by(sin_cos(th), &local);
                s.position = Vector2::new(x, y) + rp;
                s.angle = th + angle;
                s.angular_velocity = w;
                s.velocity = Vector2::new(vx, vy) + perp(&rp) * w;
                s.dr = [Vector2::x(), Vector2::y(), perp(&rp)];
                s.dangle = [z, z, T::one()];
                s.cols = [offset, offset + 1, offset + 2];
                s.ncols = 3;
                s.r_tt_velocity = -rp * (w * w);
                s.d2r = -rp;
            }
        }
        Some(s)
    }
}

/// Adds `a . dr/dq` of marker `m` times `sign` to row `row` of `out`.
fn add_position_row<T: Real, const S: usize>(
    out: &mut Block<'_, T, S>,
    row: usize,
    m: &MarkerState<T>,
    a: &Vector2<T>,
    sign: T,
) {
    for k in 0..m.ncols {
        out.add(row, m.cols[k], sign * a.dot(&m.dr[k]));
    }
}

/// Exudyn's `ObjectConnectorDistance`: `C = |r_1 - r_0| - d` (m, 1 equation). `None` if the
/// markers coincide (the direction is undefined).
pub fn distance<T: Real, const S: usize>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    d: T,
    row: usize,
    c: &mut [T],
    jac: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    let dr = m1.position - m0.position;
    let len = dr.norm_squared().sqrt_l();
    if !(len > T::zero()) {
        return None;
    }
    let u = dr / len;
    *c.get_mut(row)? = len - d;
    if let Some(out) = jac {
        add_position_row(out, row, m1, &u, T::one());
        add_position_row(out, row, m0, &u, -T::one());
    }
    Some(())
}

/// The velocity term of [`distance`]: `(|dv|^2 - (u . dv)^2)/|dr| + u . (a_1 - a_0)` with
/// `dv = v_1 - v_0`, `a_i` the markers' velocity parts of `r_tt`.
pub fn distance_velocity_term<T: Real>(m0: &MarkerState<T>, m1: &MarkerState<T>) -> Option<T> {
    let dr = m1.position - m0.position;
    let len = dr.norm_squared().sqrt_l();
    if !(len > T::zero()) {
        return None;
    }
    let u = dr / len;
    let dv = m1.velocity - m0.velocity;
    let ud = u.dot(&dv);
    Some((dv.dot(&dv) - ud * ud) / len + u.dot(&(m1.r_tt_velocity - m0.r_tt_velocity)))
}

/// Exudyn's `ObjectJointRevolute2D`: `C = r_1 - r_0` (m, 2 equations, rows `row`, `row + 1`).
pub fn revolute<T: Real, const S: usize>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    row: usize,
    c: &mut [T],
    jac: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    let dr = m1.position - m0.position;
    *c.get_mut(row)? = dr.x;
    *c.get_mut(row + 1)? = dr.y;
    if let Some(out) = jac {
        for (i, e) in [Vector2::x(), Vector2::y()].iter().enumerate() {
            add_position_row(out, row + i, m1, e, T::one());
            add_position_row(out, row + i, m0, e, -T::one());
        }
    }
    Some(())
}

/// The velocity term of [`revolute`]: `a_1 - a_0` (2 entries).
pub fn revolute_velocity_term<T: Real>(m0: &MarkerState<T>, m1: &MarkerState<T>) -> Vector2<T> {
    m1.r_tt_velocity - m0.r_tt_velocity
}

/// Exudyn's `ObjectJointPrismatic2D`: with the axis `t_0 = R(angle_0) axis` of marker 0 and the
/// normal `n_1 = R(angle_1) normal` of marker 1 (both given in the marker frames),
/// `C_0 = (r_1 - r_0) . n_1` (m) and, with `constrain_rotation`, `C_1 = t_0 . n_1` (-):
/// 1 or 2 equations from `row`.
#[allow(clippy::too_many_arguments)]
pub fn prismatic<T: Real, const S: usize>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    axis: &Vector2<T>,
    normal: &Vector2<T>,
    constrain_rotation: bool,
    row: usize,
    c: &mut [T],
    jac: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    let dr = m1.position - m0.position;
    let t0 = rotate(m0.angle, axis);
    let n1 = rotate(m1.angle, normal);
    *c.get_mut(row)? = dr.dot(&n1);
    if constrain_rotation {
        *c.get_mut(row + 1)? = t0.dot(&n1);
    }
    if let Some(out) = jac {
        // d(dr . n1) = n1 . (dr_1 - dr_0) + dr . perp(n1) dangle_1.
        add_position_row(out, row, m1, &n1, T::one());
        add_position_row(out, row, m0, &n1, -T::one());
        let dn = dr.dot(&perp(&n1));
        for k in 0..m1.ncols {
            out.add(row, m1.cols[k], dn * m1.dangle[k]);
        }
        if constrain_rotation {
            // d(t0 . n1) = perp(t0) . n1 dangle_0 + t0 . perp(n1) dangle_1.
            let (a, b) = (perp(&t0).dot(&n1), t0.dot(&perp(&n1)));
            for k in 0..m0.ncols {
                out.add(row + 1, m0.cols[k], a * m0.dangle[k]);
            }
            for k in 0..m1.ncols {
                out.add(row + 1, m1.cols[k], b * m1.dangle[k]);
            }
        }
    }
    Some(())
}

/// The velocity terms of [`prismatic`] (`[C_0, C_1]`'s second derivatives without the
/// accelerations): with `w_i` the markers' angular velocities and `dv = v_1 - v_0`,
/// `2 w_1 dv . perp(n_1) - w_1^2 dr . n_1 + (a_1 - a_0) . n_1` and
/// `-(w_0 - w_1)^2 t_0 . n_1`.
pub fn prismatic_velocity_terms<T: Real>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    axis: &Vector2<T>,
    normal: &Vector2<T>,
) -> [T; 2] {
    let dr = m1.position - m0.position;
    let dv = m1.velocity - m0.velocity;
    let t0 = rotate(m0.angle, axis);
    let n1 = rotate(m1.angle, normal);
    let (w0, w1) = (m0.angular_velocity, m1.angular_velocity);
    let two = T::c(2.0);
    let c0 = two * w1 * dv.dot(&perp(&n1)) - w1 * w1 * dr.dot(&n1)
        + (m1.r_tt_velocity - m0.r_tt_velocity).dot(&n1);
    let dw = w0 - w1;
    [c0, -dw * dw * t0.dot(&n1)]
}

/// Exudyn's `ObjectConnectorCoordinate`: `C = factor q_1 - q_0 - offset` for coordinates `i1`
/// and `i0` of `q` (either may be `None`: a ground coordinate, zero). 1 equation at `row`;
/// its velocity term is zero.
#[allow(clippy::too_many_arguments)]
pub fn coordinate<T: Real, const S: usize>(
    q: &[T],
    i0: Option<usize>,
    i1: Option<usize>,
    factor: T,
    offset: T,
    row: usize,
    c: &mut [T],
    jac: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    let q0 = match i0 {
        Some(i) => *q.get(i)?,
        None => T::zero(),
    };
    let q1 = match i1 {
        Some(i) => *q.get(i)?,
        None => T::zero(),
    };
    *c.get_mut(row)? = factor * q1 - q0 - offset;
    if let Some(out) = jac {
        if let Some(i) = i1 {
            out.add(row, i, factor);
        }
        if let Some(i) = i0 {
            out.add(row, i, -T::one());
        }
    }
    Some(())
}

/// Adds `a . d^2 r / dq^2` of marker `m` times `sign` to `out` (`m`'s only second
/// derivative is `d^2 r / d theta^2`, on a rigid body).
fn add_position_hessian<T: Real, const S: usize>(
    out: &mut Block<'_, T, S>,
    m: &MarkerState<T>,
    a: &Vector2<T>,
    sign: T,
) {
    if m.ncols == 3 {
        out.add(m.cols[2], m.cols[2], sign * a.dot(&m.d2r));
    }
}

/// Adds `factor (d/dq)(C_q^T lambda)` of a [`revolute`] joint (multipliers `lambda`, 2) to
/// `out`: `lambda . d^2 (r_1 - r_0) / dq^2`.
pub fn revolute_hessian<T: Real, const S: usize>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    lambda: &Vector2<T>,
    factor: T,
    out: &mut Block<'_, T, S>,
) {
    add_position_hessian(out, m1, lambda, factor);
    add_position_hessian(out, m0, lambda, -factor);
}

/// Adds `g a a^T` to `out`, with `a = da_1/dq - da_0/dq` the derivative of a scalar of both
/// markers' coordinates, `of(m, k)` its derivative by marker `m`'s column `k`.
fn add_outer<T: Real, const S: usize>(
    out: &mut Block<'_, T, S>,
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    g: T,
    of: impl Fn(&MarkerState<T>, usize) -> T,
) {
    let signed = [(m1, T::one()), (m0, -T::one())];
    for (mi, si) in signed {
        for k in 0..mi.ncols {
            let ai = si * of(mi, k);
            for (mj, sj) in signed {
                for l in 0..mj.ncols {
                    out.add(mi.cols[k], mj.cols[l], g * ai * (sj * of(mj, l)));
                }
            }
        }
    }
}

/// Adds `factor lambda d^2 C / dq^2` of a [`distance`] constraint to `out`:
/// `(J_1 - J_0)^T (E - u u^T) (J_1 - J_0) / |dr| + u . d^2 (r_1 - r_0) / dq^2`.
pub fn distance_hessian<T: Real, const S: usize>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    lambda: T,
    factor: T,
    out: &mut Block<'_, T, S>,
) -> Option<()> {
    let dr = m1.position - m0.position;
    let len = dr.norm_squared().sqrt_l();
    if !(len > T::zero()) {
        return None;
    }
    let u = dr / len;
    let f = factor * lambda;
    // In the plane E - u u^T = w w^T with w = perp(u): the first term is an outer product.
    let w = perp(&u);
    add_outer(out, m0, m1, f / len, |m, k| w.dot(&m.dr[k]));
    add_position_hessian(out, m1, &u, f);
    add_position_hessian(out, m0, &u, -f);
    Some(())
}

/// Adds `factor (d/dq)(C_q^T lambda)` of a [`prismatic`] joint (multipliers `lambda[0]`, and
/// `lambda[1]` with `constrain_rotation`) to `out`.
#[allow(clippy::too_many_arguments)]
pub fn prismatic_hessian<T: Real, const S: usize>(
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    axis: &Vector2<T>,
    normal: &Vector2<T>,
    constrain_rotation: bool,
    lambda: &[T; 2],
    factor: T,
    out: &mut Block<'_, T, S>,
) {
    let dr = m1.position - m0.position;
    let t0 = rotate(m0.angle, axis);
    let n1 = rotate(m1.angle, normal);
    let f = factor * lambda[0];
    // C_0 = dr . n1: dr's second derivatives along n1, the mixed terms
    // (d dr/dq_i . perp(n1)) dangle_1_j (both orders), and dr . (-n1) dangle_1 dangle_1.
    add_position_hessian(out, m1, &n1, f);
    add_position_hessian(out, m0, &n1, -f);
    let pn = perp(&n1);
    for (m, sign) in [(m1, T::one()), (m0, -T::one())] {
        for k in 0..m.ncols {
            let a = sign * m.dr[k].dot(&pn);
            for l in 0..m1.ncols {
                let b = a * m1.dangle[l];
                out.add(m.cols[k], m1.cols[l], f * b);
                out.add(m1.cols[l], m.cols[k], f * b);
            }
        }
    }
    let dd = -dr.dot(&n1);
    for k in 0..m1.ncols {
        for l in 0..m1.ncols {
            out.add(m1.cols[k], m1.cols[l], f * dd * m1.dangle[k] * m1.dangle[l]);
        }
    }
    if constrain_rotation {
        // C_1 = t0 . n1, a function of angle_1 - angle_0 whose second derivative is -C_1.
        let g = -factor * lambda[1] * t0.dot(&n1);
        add_outer(out, m0, m1, g, |m, k| m.dangle[k]);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const S: usize = 8;

    fn markers() -> [PlanarMarker<f64>; 4] {
        [
            PlanarMarker::Ground {
                position: Vector2::new(0.3, -0.2),
                angle: 0.4,
            },
            PlanarMarker::Point {
                offset: 0,
                reference: Vector2::new(0.1, -0.3),
            },
            PlanarMarker::Rigid {
                offset: 2,
                reference: nalgebra::Vector3::new(-0.4, 0.2, 0.6),
                local: Vector2::new(0.5, -0.1),
                angle: 0.3,
            },
            PlanarMarker::Rigid {
                offset: 5,
                reference: nalgebra::Vector3::zeros(),
                local: Vector2::new(-0.2, 0.25),
                angle: -0.7,
            },
        ]
    }

    fn q() -> [f64; 8] {
        [0.9, 0.4, -0.3, 0.2, 0.8, 1.1, -0.6, -1.3]
    }

    fn v() -> [f64; 8] {
        [0.3, -0.7, 1.1, 0.4, -2.0, -0.5, 0.9, 1.7]
    }

    /// Every constraint between every pair of markers: `C_q` against central differences of
    /// `C`, and the velocity term against central differences of `C_q v` along `v`.
    #[test]
    fn jacobians_and_velocity_terms_match_finite_differences() {
        let ms = markers();
        let axis = Vector2::new(0.8, 0.6);
        let normal = Vector2::new(-0.6, 0.8);
        // Equations and velocity terms of one constraint kind between a pair, at q.
        let eval =
            |kind: usize, a: usize, b: usize, q: &[f64], jac: Option<&mut Block<'_, f64, S>>| {
                let (m0, m1) = (ms[a].state(q, &v()).unwrap(), ms[b].state(q, &v()).unwrap());
                let mut c = [0.0; 2];
                match kind {
                    0 => distance(&m0, &m1, 0.7, 0, &mut c, jac).unwrap(),
                    1 => revolute(&m0, &m1, 0, &mut c, jac).unwrap(),
                    _ => prismatic(&m0, &m1, &axis, &normal, true, 0, &mut c, jac).unwrap(),
                }
                let t = match kind {
                    0 => [distance_velocity_term(&m0, &m1).unwrap(), 0.0],
                    1 => {
                        let r = revolute_velocity_term(&m0, &m1);
                        [r.x, r.y]
                    }
                    _ => prismatic_velocity_terms(&m0, &m1, &axis, &normal),
                };
                (c, t)
            };
        let rows = [1, 2, 2];
        for kind in 0..3 {
            for a in 0..4 {
                for b in 0..4 {
                    if a == b || (a == 0 && b == 0) {
                        continue;
                    }
                    let mut j = [[0.0; S]; S];
                    let (_, term) =
                        eval(kind, a, b, &q(), Some(&mut Block::new(&mut j, 0, 0, 2, S)));
                    let h = 1e-6;
                    for col in 0..S {
                        let (mut qp, mut qm) = (q(), q());
                        qp[col] += h;
                        qm[col] -= h;
                        let (cp, _) = eval(kind, a, b, &qp, None);
                        let (cm, _) = eval(kind, a, b, &qm, None);
                        for r in 0..rows[kind] {
                            let fd = (cp[r] - cm[r]) / (2.0 * h);
                            assert!(
                                (j[r][col] - fd).abs() < 1e-8,
                                "kind {kind} {a}->{b} row {r} col {col}: {} vs {fd}",
                                j[r][col]
                            );
                        }
                    }
                    // (C_q v)_q v = d/ds [C_q(q + s v) v] at s = 0.
                    let cqv = |s: f64| {
                        let mut qs = q();
                        for i in 0..S {
                            qs[i] += s * v()[i];
                        }
                        let mut j = [[0.0; S]; S];
                        eval(kind, a, b, &qs, Some(&mut Block::new(&mut j, 0, 0, 2, S)));
                        let mut out = [0.0; 2];
                        for r in 0..2 {
                            out[r] = (0..S).map(|i| j[r][i] * v()[i]).sum::<f64>();
                        }
                        out
                    };
                    let (p, m) = (cqv(h), cqv(-h));
                    for r in 0..rows[kind] {
                        let fd = (p[r] - m[r]) / (2.0 * h);
                        assert!(
                            (term[r] - fd).abs() < 1e-6,
                            "kind {kind} {a}->{b} term {r}: {} vs {fd}",
                            term[r]
                        );
                    }
                }
            }
        }
    }

    /// The Hessian terms `d(C_q^T lambda)/dq` against central differences of `C_q^T lambda`.
    #[test]
    fn hessians_match_finite_differences() {
        let ms = markers();
        let axis = Vector2::new(0.8, 0.6);
        let normal = Vector2::new(-0.6, 0.8);
        let lam = [0.7, -1.3];
        let cq_t_lambda = |kind: usize, a: usize, b: usize, q: &[f64]| {
            let (m0, m1) = (ms[a].state(q, &v()).unwrap(), ms[b].state(q, &v()).unwrap());
            let mut j = [[0.0; S]; S];
            let mut c = [0.0; 2];
            let blk = &mut Block::new(&mut j, 0, 0, 2, S);
            match kind {
                0 => distance(&m0, &m1, 0.7, 0, &mut c, Some(blk)).unwrap(),
                1 => revolute(&m0, &m1, 0, &mut c, Some(blk)).unwrap(),
                _ => prismatic(&m0, &m1, &axis, &normal, true, 0, &mut c, Some(blk)).unwrap(),
            }
            let mut g = [0.0; S];
            for i in 0..S {
                g[i] = j[0][i] * lam[0] + j[1][i] * lam[1];
            }
            g
        };
        for kind in 0..3 {
            for a in 0..4 {
                for b in 0..4 {
                    if a == b {
                        continue;
                    }
                    let (m0, m1) = (
                        ms[a].state(&q(), &v()).unwrap(),
                        ms[b].state(&q(), &v()).unwrap(),
                    );
                    let mut hm = [[0.0; S]; S];
                    let blk = &mut Block::new(&mut hm, 0, 0, S, S);
                    match kind {
                        0 => distance_hessian(&m0, &m1, lam[0], 2.0, blk).unwrap(),
                        1 => revolute_hessian(&m0, &m1, &Vector2::new(lam[0], lam[1]), 2.0, blk),
                        _ => prismatic_hessian(&m0, &m1, &axis, &normal, true, &lam, 2.0, blk),
                    }
                    let h = 1e-6;
                    for col in 0..S {
                        let (mut qp, mut qm) = (q(), q());
                        qp[col] += h;
                        qm[col] -= h;
                        let (gp, gm) = (cq_t_lambda(kind, a, b, &qp), cq_t_lambda(kind, a, b, &qm));
                        for r in 0..S {
                            let fd = 2.0 * (gp[r] - gm[r]) / (2.0 * h);
                            assert!(
                                (hm[r][col] - fd).abs() < 1e-7,
                                "kind {kind} {a}->{b} ({r}, {col}): {} vs {fd}",
                                hm[r][col]
                            );
                        }
                    }
                }
            }
        }
    }

    /// The coordinate constraint: its value and rows; coinciding markers have no distance
    /// direction; a marker outside `q` is `None`.
    #[test]
    fn coordinate_and_degenerate_cases() {
        let q = q();
        let mut c = [0.0; 1];
        let mut j = [[0.0; S]; S];
        coordinate(
            &q,
            Some(1),
            Some(3),
            2.0,
            0.5,
            0,
            &mut c,
            Some(&mut Block::new(&mut j, 0, 0, 1, S)),
        )
        .unwrap();
        assert_eq!(c[0], 2.0 * q[3] - q[1] - 0.5);
        assert_eq!((j[0][3], j[0][1]), (2.0, -1.0));
        coordinate::<f64, S>(&q, None, Some(2), 1.0, 0.0, 0, &mut c, None).unwrap();
        assert_eq!(c[0], q[2]);
        let p = PlanarMarker::Point {
            offset: 0,
            reference: Vector2::zeros(),
        }
        .state(&q, &v())
        .unwrap();
        assert_eq!(distance::<f64, S>(&p, &p, 1.0, 0, &mut c, None), None);
        assert_eq!(distance_velocity_term(&p, &p), None);
        assert!(PlanarMarker::<f64>::Rigid {
            offset: 6,
            reference: nalgebra::Vector3::zeros(),
            local: Vector2::zeros(),
            angle: 0.0
        }
        .state(&q, &v())
        .is_none());
        assert!(coordinate::<f64, S>(&q, Some(9), None, 1.0, 0.0, 0, &mut c, None).is_none());
    }
}
