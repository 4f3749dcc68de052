//! A 3D rigid body on the Lie group `SO(3) x R^3`, for the Lie-group generalized-alpha scheme
//! of Brüls, Cardona and Arnold ("Lie group generalized-alpha time integration of constrained
//! flexible multibody systems", Mechanism and Machine Theory 48, 2012): velocities `[v; w]`
//! (`v` the reference point's, m/s, world; `w` the angular velocity, rad/s, body frame) and
//! their derivatives, the velocity coordinates of [`RigidBody`]; positions `[r; theta]` within a
//! step (`r` m, world; `theta` rad, body frame), the orientation `R = R_n exp([theta]x)` with
//! `R_n` the orientation at the step's start, so `theta = 0` there and the scheme's increment
//! `theta_{n+1} = h w_n + h^2 (1/2 - beta) a_n + h^2 beta a_{n+1}` is its update on the group.
//!
//! The equations of motion are `M6(R) [v_t; w_t] = Q + f_v` with the matrices
//!
//! ```text
//! M6  = [m E, -m R [c]x; m [c]x R^T, J],   J = I_c - m [c]x [c]x  (about the reference point)
//! f_v = [-m R (w x (w x c)); -w x J w]
//! ```
//!
//! (`c` the centre of mass, m, body frame; `I_c` the inertia about it, body frame; `Q = [f;
//! tau_ref]`, N world and N m body frame about the reference point), which Euler parameters
//! map by `T = diag(E, Gb)` ([`euler_parameters`](crate::bodies::euler_parameters)): six
//! unknowns a body instead of seven, no normalization, and a constant rotational block.
//!
//! Derivatives by `theta` are the left-trivialized ones at the iterate (`d(R x)/dtheta = -R
//! [x]x`, `d(R^T y)/dtheta = [R^T y]x`). They differ from those of the chart `theta` by its
//! tangent operator, `E + O(|theta|)` with `|theta|` of order `h |w|`: a Newton iteration
//! that uses them converges at that rate, to the same solution.

use crate::bodies::euler_parameters::{inertia_at_reference, offset};
use crate::bodies::rigid_body::RigidBody;
use crate::math::{skew, Quaternion};
use crate::Real;
use core::cell::Cell;
use nalgebra::{Matrix3, SMatrix, Vector3};

/// Number of solver coordinates of a rigid node on the Lie group (`r`, `theta`).
pub const LG_COORDINATES: usize = 6;

/// The orientation `e_n exp(theta)` (unit to round-off) at the rotation `theta` (rad, body
/// frame) from the unit quaternion `e_n` of the step's start.
pub fn orientation<T: Real>(start: &Quaternion<T>, theta: &Vector3<T>) -> Quaternion<T> {
    start.mul_exp_inline(theta)
}

/// The orientation at a step's start of the body whose coordinates start at `o` in the
/// solver's vectors, kept as `[w, x, y, z]` in `starts[o..o + 4]` (within the slots of its
/// six coordinates in a vector of the same layout); `None` outside `starts`.
pub fn start_at<T: Real>(starts: &[T], o: usize) -> Option<Quaternion<T>> {
    let s = starts.get(o..o + 4)?;
    Some(Quaternion::new(s[0], s[1], s[2], s[3]))
}

/// [`start_at`] from starts that a step may move (the parts of a halved step start where the
/// one before ended, [`ConstrainedModel::recentre`](crate::integrators::constrained::ConstrainedModel::recentre)).
pub fn start_in<T: Real>(starts: &[Cell<T>], o: usize) -> Option<Quaternion<T>> {
    let s = starts.get(o..o + 4)?;
    Some(Quaternion::new(
        s[0].get(),
        s[1].get(),
        s[2].get(),
        s[3].get(),
    ))
}

/// Stores `e` as the start of the body at `o` ([`start_at`]); nothing outside `starts`.
pub fn set_start<T: Real>(starts: &mut [T], o: usize, e: &Quaternion<T>) {
    if let Some(s) = starts.get_mut(o..o + 4) {
        s.copy_from_slice(&[e.w, e.x, e.y, e.z]);
    }
}

/// The orientation at the end of a step of rotation `theta` from `start`: [`orientation`]
/// normalized (each step's rounding does not accumulate in `|e|`), and `start` itself, bit for
/// bit, at `theta = 0`.
pub fn step_orientation<T: Real>(start: &Quaternion<T>, theta: &Vector3<T>) -> Quaternion<T> {
    if *theta == Vector3::zeros() {
        return *start;
    }
    let e = orientation(start, theta);
    e.normalized().unwrap_or(e)
}

/// The mass matrix `M6` (6 x 6, module docs) at the orientation `r` (`R_0b`).
pub fn mass_matrix<T: Real>(body: &RigidBody<T>, r: &Matrix3<T>) -> SMatrix<T, 6, 6> {
    let m = body.mass();
    let mut out = SMatrix::<T, 6, 6>::zeros();
    for i in 0..3 {
        out[(i, i)] = m;
    }
    if offset(body) {
        // -m R [c]x and its transpose m [c]x R^T.
        let coupling = r * skew(body.center_of_mass()) * (-m);
        for i in 0..3 {
            for j in 0..3 {
                out[(i, 3 + j)] = coupling[(i, j)];
                out[(3 + j, i)] = coupling[(i, j)];
            }
        }
    }
    out.fixed_view_mut::<3, 3>(3, 3)
        .copy_from(&inertia_at_reference(body));
    out
}

/// `f_v` (module docs: N world, N m body frame) at the orientation `r` and the body-frame
/// angular velocity `w` (rad/s): the centrifugal force of an offset centre of mass and the
/// gyroscopic torque.
pub fn quadratic_velocity_force<T: Real>(
    body: &RigidBody<T>,
    r: &Matrix3<T>,
    w: &Vector3<T>,
) -> [T; LG_COORDINATES] {
    let c = body.center_of_mass();
    let ft = if offset(body) {
        r * w.cross(&w.cross(c)) * (-body.mass())
    } else {
        Vector3::zeros()
    };
    let fr = -w.cross(&(inertia_at_reference(body) * w));
    [ft.x, ft.y, ft.z, fr.x, fr.y, fr.z]
}

/// `d f_v/dw` (6 x 3, the columns of `w`) at `r`, `w`: with `d(w x (w x c))/dw = -[w x c]x -
/// [w]x [c]x` and `d(w x J w)/dw = [w]x J - [J w]x`.
pub fn quadratic_velocity_jacobian<T: Real>(
    body: &RigidBody<T>,
    r: &Matrix3<T>,
    w: &Vector3<T>,
) -> SMatrix<T, 6, 3> {
    let j = inertia_at_reference(body);
    let wx = skew(w);
    let mut out = SMatrix::<T, 6, 3>::zeros();
    if offset(body) {
        let c = body.center_of_mass();
        let top = r * (skew(&w.cross(c)) + wx * skew(c)) * body.mass();
        out.fixed_view_mut::<3, 3>(0, 0).copy_from(&top);
    }
    out.fixed_view_mut::<3, 3>(3, 0)
        .copy_from(&(skew(&(j * w)) - wx * j));
    out
}

/// `d(M6 x - f_v)/dtheta` (6 x 3, the columns of `theta`, left-trivialized) at `r`, with the
/// accelerations `x = [a; w_t]` and the angular velocity `w` held. With `z = w x (w x c)`,
///
/// ```text
/// M6 x - f_v = [m a + m R (z - c x w_t); m [c]x R^T a + J w_t + w x J w]
/// ```
///
/// so the derivative is `[-m R [z - c x w_t]x; m [c]x [R^T a]x]`: zero for a body whose centre
/// of mass is its reference point (`J` is constant in the body frame).
pub fn inertia_position_jacobian<T: Real>(
    body: &RigidBody<T>,
    r: &Matrix3<T>,
    w: &Vector3<T>,
    x: &[T; LG_COORDINATES],
) -> SMatrix<T, 6, 3> {
    let mut out = SMatrix::<T, 6, 3>::zeros();
    if !offset(body) {
        return out;
    }
    let m = body.mass();
    let c = body.center_of_mass();
    let a = Vector3::new(x[0], x[1], x[2]);
    let w_t = Vector3::new(x[3], x[4], x[5]);
    let y = w.cross(&w.cross(c)) - c.cross(&w_t);
    out.fixed_view_mut::<3, 3>(0, 0)
        .copy_from(&(r * skew(&y) * (-m)));
    out.fixed_view_mut::<3, 3>(3, 0)
        .copy_from(&(skew(c) * skew(&(r.transpose() * a)) * m));
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::bodies::euler_parameters as ep;
    use crate::state::RigidState;
    use nalgebra::{SMatrix, Vector4};

    /// A body with its centre of mass off the reference point and one with it there.
    fn bodies() -> [RigidBody<f64>; 2] {
        let i = Matrix3::new(0.3, 0.02, -0.01, 0.02, 0.5, 0.03, -0.01, 0.03, 0.6);
        [Vector3::new(0.1, -0.2, 0.3), Vector3::zeros()].map(|c| RigidBody::new(2.5, i, c).unwrap())
    }

    fn unit_e() -> Vector4<f64> {
        Vector4::new(0.8, 0.2, -0.4, 0.4).normalize()
    }

    /// `T = diag(E, Gb(e))` (6 x 7): the Euler parameters' rates to `[v; w]`.
    fn map(e: &Vector4<f64>) -> SMatrix<f64, 6, 7> {
        let mut t = SMatrix::<f64, 6, 7>::zeros();
        for i in 0..3 {
            t[(i, i)] = 1.0;
        }
        t.fixed_view_mut::<3, 4>(3, 3).copy_from(&ep::g_body(e));
        t
    }

    /// `T^T M6 T` and `T^T f_v` equal the Euler parameters' mass matrix and quadratic velocity
    /// force (an independent derivation of the same body), and `[v; w] . M6 [v; w] / 2` the
    /// body's kinetic energy.
    #[test]
    fn the_euler_parameters_map_the_same_terms() {
        let e = unit_e();
        let r = ep::quaternion(&e).to_matrix();
        let w = Vector3::new(1.0, -2.0, 0.5);
        let v = Vector3::new(0.3, 0.1, -0.7);
        let e_t = ep::rates(&e, &w);
        for b in bodies() {
            let t = map(&e);
            let m6 = mass_matrix(&b, &r);
            assert!((m6 - m6.transpose()).norm() == 0.0);
            let diff = t.transpose() * m6 * t - ep::mass_matrix(&b, &e);
            assert!(diff.norm() < 1e-13, "{diff}");
            let fv = SMatrix::<f64, 6, 1>::from_column_slice(&quadratic_velocity_force(&b, &r, &w));
            let fe = t.transpose() * fv;
            let want = ep::quadratic_velocity_force(&b, &e, &e_t);
            for i in 0..7 {
                assert!(
                    (fe[i] - want[i]).abs() < 1e-13,
                    "{i}: {} {}",
                    fe[i],
                    want[i]
                );
            }
            let x = SMatrix::<f64, 6, 1>::from_column_slice(&[v.x, v.y, v.z, w.x, w.y, w.z]);
            let mut s = RigidState::at_rest(Vector3::zeros(), ep::quaternion(&e));
            s.velocity = v;
            s.angular_velocity = w;
            let k = 0.5 * x.dot(&(m6 * x));
            assert!((k - b.kinetic_energy(&s)).abs() < 1e-13 * k);
        }
    }

    /// Central differences of `f` (6 entries) over the 3 coordinates around `x0` against `jac`.
    fn check(
        x0: &Vector3<f64>,
        jac: &SMatrix<f64, 6, 3>,
        f: impl Fn(&Vector3<f64>) -> [f64; 6],
        what: &str,
    ) {
        let d = 1e-6;
        let mut largest = 0.0f64;
        for k in 0..3 {
            let (mut p, mut m) = (*x0, *x0);
            p[k] += d;
            m[k] -= d;
            let (fp, fm) = (f(&p), f(&m));
            for i in 0..6 {
                let num = (fp[i] - fm[i]) / (2.0 * d);
                largest = largest.max(num.abs());
                assert!(
                    (num - jac[(i, k)]).abs() < 1e-7 * (1.0 + num.abs()),
                    "{what} {i} {k}: {num} {}",
                    jac[(i, k)]
                );
            }
        }
        assert!(largest > 0.1, "{what}: a zero Jacobian checks nothing");
    }

    #[test]
    fn quadratic_velocity_jacobian_matches_differences() {
        let r = ep::quaternion(&unit_e()).to_matrix();
        let w = Vector3::new(1.0, -2.0, 0.5);
        for b in bodies() {
            let jac = quadratic_velocity_jacobian(&b, &r, &w);
            check(&w, &jac, |w| quadratic_velocity_force(&b, &r, w), "f_v");
        }
    }

    /// `d(M6 x - f_v)/dtheta` against central differences of the chart `R_n exp(theta)` at
    /// `theta = 0`, where the chart's derivative is the left-trivialized one; zero (and
    /// skipped) for the centred body.
    #[test]
    fn inertia_position_jacobian_matches_differences() {
        let e = ep::quaternion(&unit_e());
        let w = Vector3::new(1.0, -2.0, 0.5);
        let x = [0.4, -1.2, 0.9, 0.3, -0.8, 1.1];
        let xv = SMatrix::<f64, 6, 1>::from_column_slice(&x);
        let [offset_body, centred] = bodies();
        let r = e.to_matrix();
        let jac = inertia_position_jacobian(&offset_body, &r, &w, &x);
        check(
            &Vector3::zeros(),
            &jac,
            |theta| {
                let r = orientation(&e, theta).to_matrix();
                let mx = mass_matrix(&offset_body, &r) * xv;
                let fv = quadratic_velocity_force(&offset_body, &r, &w);
                core::array::from_fn(|i| mx[i] - fv[i])
            },
            "M6 x - f_v",
        );
        assert_eq!(
            inertia_position_jacobian(&centred, &r, &w, &x),
            SMatrix::<f64, 6, 3>::zeros()
        );
    }

    /// `e_n exp(theta)` turns `e_n` by `theta` in its body frame: its rotation is `R_n
    /// exp([theta]x)` (Rodrigues' formula with libm's trigonometry), and it stays unit.
    #[test]
    fn orientation_turns_in_the_body_frame() {
        let e = ep::quaternion(&unit_e());
        let theta = Vector3::new(0.03, -0.02, 0.05);
        let q = orientation(&e, &theta);
        assert!((q.norm() - 1.0).abs() < 4.0 * f64::EPSILON);
        let phi = theta.norm();
        let k = skew(&(theta / phi));
        let rodrigues = Matrix3::identity() + k * libm::sin(phi) + k * k * (1.0 - libm::cos(phi));
        let diff = q.to_matrix() - e.to_matrix() * rodrigues;
        assert!(diff.norm() < 1e-15, "{diff}");
    }
}
