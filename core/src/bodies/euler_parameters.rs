//! A 3D rigid body in Euler parameters, for the generalized-alpha scheme of a system, as Exudyn's
//! `NodeRigidBodyEP` carries an `ObjectRigidBody`: coordinates `q = [r; e]` (`r` the reference
//! point, m, world; `e = [e0, e1, e2, e3]` the quaternion of `R_0b`, scalar first), velocities
//! `q_t = [v; e_t]`, and the normalization `e . e - 1 = 0` as a constraint of the system.
//!
//! The body-frame angular velocity is `w = Gb e_t` with `Gb = 2 [-e_v, e0 E - [e_v]x]` (3 x 4;
//! `Gb e = 0`, `Gb Gb^T = 4 E` for a unit `e`, and `Gb(e_t) e_t = 0`, so `w_t = Gb e_tt`). With
//! `T = diag(E, Gb)` mapping `q_t` to the velocity coordinates `[v; w]` of
//! [`RigidBody`], whose generalized forces `Q = [f; tau_ref]` (N world, N m body frame about the
//! reference point) are with respect to those, the equations of motion are
//! `T^T M6 T q_tt = T^T (Q + f_v)`:
//!
//! ```text
//! M6  = [m E, -m R [c]x; m [c]x R^T, J],   J = I_c - m [c]x [c]x  (about the reference point)
//! f_v = [-m R (w x (w x c)); -w x J w]
//! ```
//!
//! (`c` the centre of mass, m, body frame; `I_c` the inertia about it, body frame.) `T^T M6 T`
//! is singular along `e`; the normalization's multiplier (its force `2 e lambda`) fills that
//! direction.

use crate::bodies::rigid_body::RigidBody;
use crate::math::{skew, Quaternion};
use crate::Real;
use nalgebra::{Matrix3, Matrix3x4, SMatrix, Vector3, Vector4};

/// Number of Euler-parameter coordinates of a rigid node (`r`, `e`).
pub const EP_COORDINATES: usize = 7;

/// `Gb(e) = 2 [-e_v, e0 E - [e_v]x]`: body-frame angular velocity `w = Gb e_t`.
pub fn g_body<T: Real>(e: &Vector4<T>) -> Matrix3x4<T> {
    let two = T::c(2.0);
    let (e0, e1, e2, e3) = (e[0], e[1], e[2], e[3]);
    Matrix3x4::new(
        -e1 * two,
        e0 * two,
        e3 * two,
        -e2 * two,
        -e2 * two,
        -e3 * two,
        e0 * two,
        e1 * two,
        -e3 * two,
        e2 * two,
        -e1 * two,
        e0 * two,
    )
}

/// The quaternion of the Euler parameters `e` (not normalized).
pub fn quaternion<T: Real>(e: &Vector4<T>) -> Quaternion<T> {
    Quaternion::new(e[0], e[1], e[2], e[3])
}

/// `e_t = Gb^T w / 4` of a unit `e` and a body-frame angular velocity `w` (rad/s): the rates
/// with `e . e_t = 0`.
pub fn rates<T: Real>(e: &Vector4<T>, w: &Vector3<T>) -> Vector4<T> {
    g_body(e).transpose() * w * T::c(0.25)
}

/// `e_tt = Gb^T w_t / 4 - |e_t|^2 e` of a unit `e`: the second derivative that keeps
/// `e . e = 1` for the body-frame angular acceleration `w_t` (rad/s^2).
pub fn accelerations<T: Real>(e: &Vector4<T>, e_t: &Vector4<T>, w_t: &Vector3<T>) -> Vector4<T> {
    g_body(e).transpose() * w_t * T::c(0.25) - e * e_t.dot(e_t)
}

/// Whether the body's centre of mass is off its reference point: else the terms with `c` are
/// zero and not computed (the reference at the centre of mass, as Exudyn's rigid bodies have it).
pub(crate) fn offset<T: Real>(body: &RigidBody<T>) -> bool {
    *body.center_of_mass() != Vector3::zeros()
}

/// `J = I_c - m [c]x [c]x`, the inertia about the reference point (kg m^2, body frame).
#[inline]
pub(crate) fn inertia_at_reference<T: Real>(body: &RigidBody<T>) -> Matrix3<T> {
    if !offset(body) {
        return *body.inertia(); // the same bits: `[0]x [0]x m` is zero
    }
    let cx = skew(body.center_of_mass());
    body.inertia() - cx * cx * body.mass()
}

/// The mass matrix `T^T M6 T` (7 x 7) at the Euler parameters `e` (module docs).
pub fn mass_matrix<T: Real>(body: &RigidBody<T>, e: &Vector4<T>) -> SMatrix<T, 7, 7> {
    let g = g_body(e);
    let m = body.mass();
    // Translation-rotation coupling -m R [c]x Gb (3 x 4) and the rotation block Gb^T J Gb.
    let coupling = if offset(body) {
        quaternion(e).to_matrix() * skew(body.center_of_mass()) * g * (-m)
    } else {
        Matrix3x4::zeros()
    };
    let rot = g.transpose() * inertia_at_reference(body) * g;
    let mut out = SMatrix::<T, 7, 7>::zeros();
    for i in 0..3 {
        out[(i, i)] = m;
        for j in 0..4 {
            out[(i, 3 + j)] = coupling[(i, j)];
            out[(3 + j, i)] = coupling[(i, j)];
        }
    }
    for i in 0..4 {
        for j in 0..4 {
            out[(3 + i, 3 + j)] = rot[(i, j)];
        }
    }
    out
}

/// `T^T f_v` (7; N and N m per unit of `e`) at `e`, `e_t`: the centrifugal force of an offset
/// centre of mass and the gyroscopic torque (module docs).
pub fn quadratic_velocity_force<T: Real>(
    body: &RigidBody<T>,
    e: &Vector4<T>,
    e_t: &Vector4<T>,
) -> [T; EP_COORDINATES] {
    let g = g_body(e);
    let w = g * e_t;
    let c = body.center_of_mass();
    let ft = if offset(body) {
        quaternion(e).to_matrix() * w.cross(&w.cross(c)) * (-body.mass())
    } else {
        Vector3::zeros()
    };
    let fr = g.transpose() * (-w.cross(&(inertia_at_reference(body) * w)));
    [ft.x, ft.y, ft.z, fr[0], fr[1], fr[2], fr[3]]
}

/// `d(T^T f_v)/de_t` (7 x 4, the columns of `e_t`) at `e`, `e_t`, with `Gb` held: the
/// velocity Jacobian of [`quadratic_velocity_force`] (its dependence on `e` is left to the
/// Newton iteration).
pub fn quadratic_velocity_jacobian<T: Real>(
    body: &RigidBody<T>,
    e: &Vector4<T>,
    e_t: &Vector4<T>,
) -> SMatrix<T, 7, 4> {
    let g = g_body(e);
    let w = g * e_t;
    let c = body.center_of_mass();
    let j = inertia_at_reference(body);
    // d(w x (w x c))/dw = -[w x c]x - [w]x [c]x;  d(w x J w)/dw = [w]x J - [J w]x.
    let wx = skew(&w);
    let dt = if offset(body) {
        quaternion(e).to_matrix() * (skew(&w.cross(c)) + wx * skew(c)) * body.mass() * g
    } else {
        Matrix3x4::zeros()
    };
    let dr = g.transpose() * (skew(&(j * w)) - wx * j) * g;
    let mut out = SMatrix::<T, 7, 4>::zeros();
    for k in 0..4 {
        for i in 0..3 {
            out[(i, k)] = dt[(i, k)];
        }
        for i in 0..4 {
            out[(3 + i, k)] = dr[(i, k)];
        }
    }
    out
}

/// `d(Gb(e) x)/de` (3 x 4; `Gb(e) x` is linear in `e`): `2 [x_v, [x_v]x - x0 E]`.
fn g_body_derivative<T: Real>(x: &Vector4<T>) -> Matrix3x4<T> {
    let xv = Vector3::new(x[1], x[2], x[3]);
    let b = (skew(&xv) - Matrix3::identity() * x[0]) * T::c(2.0);
    let mut out = Matrix3x4::zeros();
    out.set_column(0, &(xv * T::c(2.0)));
    out.fixed_view_mut::<3, 3>(0, 1).copy_from(&b);
    out
}

/// `d(Gb(e)^T y)/de` (4 x 4; linear in `e`): `2 [[0, -y^T], [y, -[y]x]]`.
fn g_body_transpose_derivative<T: Real>(y: &Vector3<T>) -> SMatrix<T, 4, 4> {
    let two = T::c(2.0);
    let mut out = SMatrix::<T, 4, 4>::zeros();
    let ny = skew(y) * (-two);
    for i in 0..3 {
        out[(0, 1 + i)] = -y[i] * two;
        out[(1 + i, 0)] = y[i] * two;
        for j in 0..3 {
            out[(1 + i, 1 + j)] = ny[(i, j)];
        }
    }
    out
}

/// `d(R(e) x)/de` (3 x 4) of `R(e) = E + 2 ([e_v]x^2 + s e0 [e_v]x)` ([`Quaternion::to_matrix`]
/// of `e`, not normalized; `s = 1`, and `s = -1` for `R^T`):
/// `[2 s e_v x x, 2 ((e_v . x) E + e_v x^T - 2 x e_v^T) - 2 s e0 [x]x]`.
fn rotation_derivative<T: Real>(e: &Vector4<T>, x: &Vector3<T>, s: T) -> Matrix3x4<T> {
    let two = T::c(2.0);
    let ev = Vector3::new(e[1], e[2], e[3]);
    let dv = (Matrix3::identity() * ev.dot(x) + ev * x.transpose() - x * ev.transpose() * two)
        * two
        - skew(x) * (two * s * e[0]);
    let mut out = Matrix3x4::zeros();
    out.set_column(0, &(ev.cross(x) * (two * s)));
    out.fixed_view_mut::<3, 3>(0, 1).copy_from(&dv);
    out
}

/// `d(M(e) q_tt - T^T f_v)/de` (7 x 4, the columns of `e`) at `e`, with the accelerations
/// `q_tt = [a; e_tt]` and the rates `e_t` held: the position Jacobian of the inertial terms
/// ([`mass_matrix`] times `q_tt`, less [`quadratic_velocity_force`]). With `w = Gb e_t`,
/// `w_t = Gb e_tt` and `z = w x (w x c)`:
///
/// ```text
/// M q_tt - T^T f_v = [ m a + m R (z - [c]x w_t) ; Gb^T (m [c]x R^T a + J w_t + w x J w) ]
/// ```
///
/// differentiated through `R(e)`, `Gb(e)` and `w`, `w_t` (`d(w x (w x c))/dw = -[w x c]x -
/// [w]x [c]x`, `d(w x J w)/dw = [w]x J - [J w]x`).
pub fn inertia_position_jacobian<T: Real>(
    body: &RigidBody<T>,
    e: &Vector4<T>,
    e_t: &Vector4<T>,
    q_tt: &[T; EP_COORDINATES],
) -> SMatrix<T, 7, 4> {
    let m = body.mass();
    let c = body.center_of_mass();
    let cx = skew(c);
    let j = inertia_at_reference(body);
    let g = g_body(e);
    let a = Vector3::new(q_tt[0], q_tt[1], q_tt[2]);
    let e_tt = Vector4::new(q_tt[3], q_tt[4], q_tt[5], q_tt[6]);
    let (w, w_t) = (g * e_t, g * e_tt);
    let (dw, dw_t) = (g_body_derivative(e_t), g_body_derivative(&e_tt));
    let wx = skew(&w);
    let jw = j * w;
    if !offset(body) {
        // c = 0: M q_tt - T^T f_v = [m a; Gb^T (J w_t + w x J w)].
        let y = j * w_t + w.cross(&jw);
        let bottom = g_body_transpose_derivative(&y)
            + g.transpose() * (j * dw_t + (wx * j - skew(&jw)) * dw);
        return stack(&Matrix3x4::zeros(), &bottom);
    }
    let r = quaternion(e).to_matrix();
    let one = T::one();
    let z = w.cross(&w.cross(c));
    let dz = skew(&w.cross(c)) + wx * cx;
    let top = (rotation_derivative(e, &(z - cx * w_t), one) - r * (dz * dw + cx * dw_t)) * m;
    let y = cx * (r.transpose() * a) * m + j * w_t + w.cross(&jw);
    let bottom = g_body_transpose_derivative(&y)
        + g.transpose()
            * (cx * rotation_derivative(e, &a, -one) * m + j * dw_t + (wx * j - skew(&jw)) * dw);
    stack(&top, &bottom)
}

/// `[top; bottom]` (7 x 4).
fn stack<T: Real>(top: &Matrix3x4<T>, bottom: &SMatrix<T, 4, 4>) -> SMatrix<T, 7, 4> {
    let mut out = SMatrix::<T, 7, 4>::zeros();
    out.fixed_view_mut::<3, 4>(0, 0).copy_from(top);
    out.fixed_view_mut::<4, 4>(3, 0).copy_from(bottom);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::state::RigidState;

    /// A body with its centre of mass off the reference point and one with it there (whose
    /// terms in `c` are not computed).
    fn bodies() -> [RigidBody<f64>; 2] {
        let i = Matrix3::new(0.3, 0.02, -0.01, 0.02, 0.5, 0.03, -0.01, 0.03, 0.6);
        [Vector3::new(0.1, -0.2, 0.3), Vector3::zeros()].map(|c| RigidBody::new(2.5, i, c).unwrap())
    }

    fn unit_e() -> Vector4<f64> {
        Vector4::new(0.8, 0.2, -0.4, 0.4).normalize()
    }

    /// `Gb` against the quaternion product: `w = 2 vec(e* (x) e_t)`, and `Gb Gb^T = 4 E`.
    #[test]
    fn g_body_is_the_body_rate_map() {
        let e = unit_e();
        let e_t = Vector4::new(0.3, -0.1, 0.7, 0.2);
        let p = quaternion(&e).conjugate().mul(&quaternion(&e_t));
        let w = g_body(&e) * e_t;
        assert!((w - p.vector() * 2.0).norm() < 1e-15);
        let gg = g_body(&e) * g_body(&e).transpose();
        assert!((gg - Matrix3::identity() * 4.0).norm() < 1e-14);
        let w0 = Vector3::new(1.0, -2.0, 0.5);
        assert!((g_body(&e) * rates(&e, &w0) - w0).norm() < 1e-14);
        assert!(e.dot(&rates(&e, &w0)).abs() < 1e-15);
    }

    /// The kinetic energy `q_t^T M q_t / 2` equals the body's at the same state.
    #[test]
    fn mass_matrix_gives_the_kinetic_energy() {
        for b in bodies() {
            kinetic_energy_of(&b);
        }
    }

    fn kinetic_energy_of(b: &RigidBody<f64>) {
        let e = unit_e();
        let w = Vector3::new(1.0, -2.0, 0.5);
        let v = Vector3::new(0.3, 0.1, -0.7);
        let e_t = rates(&e, &w);
        let qt = nalgebra::SVector::<f64, 7>::from_column_slice(&[
            v.x, v.y, v.z, e_t[0], e_t[1], e_t[2], e_t[3],
        ]);
        let t = 0.5 * qt.dot(&(mass_matrix(b, &e) * qt));
        let mut s = RigidState::at_rest(Vector3::zeros(), quaternion(&e));
        s.velocity = v;
        s.angular_velocity = w;
        assert!((t - b.kinetic_energy(&s)).abs() < 1e-13 * t);
    }

    /// The velocity Jacobian of the quadratic velocity force against central differences.
    #[test]
    fn quadratic_velocity_jacobian_matches_differences() {
        for b in bodies() {
            velocity_jacobian_of(&b);
        }
    }

    fn velocity_jacobian_of(b: &RigidBody<f64>) {
        let e = unit_e();
        let e_t = rates(&e, &Vector3::new(1.0, -2.0, 0.5));
        let jac = quadratic_velocity_jacobian(b, &e, &e_t);
        let d = 1e-6;
        for k in 0..4 {
            let (mut p, mut m) = (e_t, e_t);
            p[k] += d;
            m[k] -= d;
            let (fp, fm) = (
                quadratic_velocity_force(b, &e, &p),
                quadratic_velocity_force(b, &e, &m),
            );
            for i in 0..7 {
                let num = (fp[i] - fm[i]) / (2.0 * d);
                assert!(
                    (num - jac[(i, k)]).abs() < 1e-7,
                    "{i} {k}: {num} {}",
                    jac[(i, k)]
                );
            }
        }
    }

    /// Central differences over `e` (not normalized) of `f` (7 entries) against `jac`.
    fn check_e_jacobian(
        e: &Vector4<f64>,
        jac: &SMatrix<f64, 7, 4>,
        f: impl Fn(&Vector4<f64>) -> [f64; 7],
        what: &str,
    ) {
        let d = 1e-6;
        for k in 0..4 {
            let (mut p, mut m) = (*e, *e);
            p[k] += d;
            m[k] -= d;
            let (fp, fm) = (f(&p), f(&m));
            for i in 0..7 {
                let num = (fp[i] - fm[i]) / (2.0 * d);
                let tol = 1e-7 * (1.0 + num.abs());
                assert!(
                    (num - jac[(i, k)]).abs() < tol,
                    "{what} {i} {k}: {num} {}",
                    jac[(i, k)]
                );
            }
        }
    }

    /// `d(M(e) q_tt - T^T f_v)/de` against central differences of [`mass_matrix`] times `q_tt`
    /// less [`quadratic_velocity_force`], at a unit and at a non-unit `e` (Newton's iterates
    /// are not unit).
    #[test]
    fn inertia_position_jacobian_matches_differences() {
        for b in bodies() {
            position_jacobian_of(&b);
        }
    }

    fn position_jacobian_of(b: &RigidBody<f64>) {
        let q_tt = [0.4, -1.2, 0.9, 0.3, -0.8, 0.5, 1.1];
        let x = nalgebra::SVector::<f64, 7>::from_column_slice(&q_tt);
        for e in [unit_e(), unit_e() * 1.1, unit_e() * 0.9] {
            let e_t = rates(&e, &Vector3::new(1.0, -2.0, 0.5)) + e * 0.3;
            let jac = inertia_position_jacobian(b, &e, &e_t, &q_tt);
            check_e_jacobian(
                &e,
                &jac,
                |e| {
                    let mx = mass_matrix(b, e) * x;
                    let fv = quadratic_velocity_force(b, e, &e_t);
                    core::array::from_fn(|i| mx[i] - fv[i])
                },
                "M q_tt - f_v",
            );
        }
    }
}
