//! A 2D rigid body's parts of the explicit schemes (kick-drift-kick, held loads), in its
//! centre-of-mass coordinates, where the free motion is exact: with `s = R(phi) c` (m, world)
//! the COM offset, the COM at `r + s` moves with `v_com = v + theta_t e_z x s` and the body
//! turns with `theta_t`; a generalized force `Q = [f_x, f_y, tau_ref]` (N, N, N m about the
//! reference point) is the force `f` at the COM and the torque `tau = tau_ref - s x f` about it.

use crate::bodies::rigid_body_2d::RigidBody2D;
use crate::body::Generalized;
use crate::nodes::rigid2d::{NodeRigidBody2D, Rigid2DState};
use crate::Real;
use nalgebra::Vector2;

/// `e_z x v`.
fn perp<T: Real>(v: &Vector2<T>) -> Vector2<T> {
    Vector2::new(-v.y, v.x)
}

/// `s = R(phi) c` (m, world) at the state's angle.
fn offset<T: Real>(
    node: &NodeRigidBody2D<T>,
    body: &RigidBody2D<T>,
    s: &Rigid2DState<T>,
) -> Vector2<T> {
    let c = body.center_of_mass();
    if c.x == T::zero() && c.y == T::zero() {
        return c;
    }
    let (sn, cs) = node.configuration(s).angle().sin_cos_l();
    Vector2::new(cs * c.x - sn * c.y, sn * c.x + cs * c.y)
}

/// `(a_com (m/s^2, world), alpha (rad/s^2))` of the generalized force `q`: `f / m`, `tau / I`.
fn com_accelerations<T: Real>(
    body: &RigidBody2D<T>,
    s: &Vector2<T>,
    q: &Generalized<T>,
) -> (Vector2<T>, T) {
    let f = Vector2::new(q[0], q[1]);
    let tau = q[2] - (s.x * f.y - s.y * f.x);
    (f / body.mass(), tau / body.inertia())
}

/// The half kick `v_com += hk f / m`, `theta_t += hk tau / I` (the pose is not changed).
pub(super) fn kick<T: Real>(
    node: &NodeRigidBody2D<T>,
    body: &RigidBody2D<T>,
    st: &mut Rigid2DState<T>,
    q: &Generalized<T>,
    hk: T,
) {
    let s = offset(node, body, st);
    let (a, alpha) = com_accelerations(body, &s, q);
    let w = st.q_t.z;
    let v_com = Vector2::new(st.q_t.x, st.q_t.y) + perp(&s) * w + a * hk;
    let w = w + alpha * hk;
    let v = v_com - perp(&s) * w;
    st.q_t = nalgebra::Vector3::new(v.x, v.y, w);
}

/// The motion over `h` under the constant COM acceleration and angular acceleration of the
/// generalized force `q` (exact; `q = 0` is the free drift): `r_com += h v_com + h^2/2 a`,
/// `v_com += h a`, `theta += h theta_t + h^2/2 alpha`, `theta_t += h alpha`; the accelerations
/// are stored as the state's `q_tt` at the end pose.
pub(super) fn advance<T: Real>(
    node: &NodeRigidBody2D<T>,
    body: &RigidBody2D<T>,
    st: &mut Rigid2DState<T>,
    q: &Generalized<T>,
    h: T,
) {
    let s0 = offset(node, body, st);
    let (a, alpha) = com_accelerations(body, &s0, q);
    let half_h2 = h * h * T::c(0.5);
    let w0 = st.q_t.z;
    let v_com = Vector2::new(st.q_t.x, st.q_t.y) + perp(&s0) * w0;
    let r_com = Vector2::new(st.q.x, st.q.y) + s0 + v_com * h + a * half_h2;
    let v_com = v_com + a * h;
    st.q.z += w0 * h + alpha * half_h2;
    let w = w0 + alpha * h;
    let s1 = offset(node, body, st);
    let r = r_com - s1;
    let v = v_com - perp(&s1) * w;
    st.q.x = r.x;
    st.q.y = r.y;
    st.q_t = nalgebra::Vector3::new(v.x, v.y, w);
    accelerations(node, body, st, q);
}

/// The coordinate accelerations of the generalized force `q` at the state's pose and rates:
/// `theta_tt = alpha`, `r_tt = a_com - alpha e_z x s + theta_t^2 s`.
pub(super) fn accelerations<T: Real>(
    node: &NodeRigidBody2D<T>,
    body: &RigidBody2D<T>,
    st: &mut Rigid2DState<T>,
    q: &Generalized<T>,
) {
    let s = offset(node, body, st);
    let (a, alpha) = com_accelerations(body, &s, q);
    let w = st.q_t.z;
    let r_tt = a - perp(&s) * alpha + s * (w * w);
    st.q_tt = nalgebra::Vector3::new(r_tt.x, r_tt.y, alpha);
}
