//! Node states into the solver's vectors and back.

use super::entries::{vec3, vec4};
use super::layout::{Layout, NO_COORDINATES};
use crate::bodies::euler_parameters::{self as ep, EP_COORDINATES};
use crate::bodies::lie_group::{self as lg, LG_COORDINATES};
use crate::integrators::constrained::ConstrainedState;
use crate::state::RigidState;
use crate::system::node::NodeState;
use crate::Real;
use nalgebra::{Vector3, Vector4};

/// The node states' coordinates, velocities and accelerations into `st` (first `n` entries);
/// a 3D rigid node's only with `rigid` (at a start: while stepping, the Euler parameters in `st`
/// are the state and the node state their normalized image).
pub(super) fn gather<T: Real, const N: usize, const K: usize, const W: usize>(
    layout: &Layout<T, N, K>,
    states: &[NodeState<T>],
    st: &mut ConstrainedState<T, W>,
    rigid: bool,
    starts: &mut [T; W],
) {
    for (s, o) in states.iter().zip(layout.offsets.iter()) {
        // (A tree link's state is the tree's, written after.)
        if *o == NO_COORDINATES {
            continue;
        }
        let o = usize::from(*o);
        let ep_buf;
        let group_buf;
        let (q, v, a): (&[T], &[T], &[T]) = match s {
            NodeState::Point2D(p) => (p.q.as_slice(), p.q_t.as_slice(), p.q_tt.as_slice()),
            NodeState::RigidBody2D(r) => (r.q.as_slice(), r.q_t.as_slice(), r.q_tt.as_slice()),
            NodeState::RigidBody(r) if rigid && layout.lie_group => {
                // The step starts at the node's orientation: theta = 0.
                let e = r.orientation.normalized().unwrap_or(r.orientation);
                lg::set_start(starts, o, &e);
                group_buf = group_state(r);
                let [q, v, a] = &group_buf;
                (q.as_slice(), v.as_slice(), a.as_slice())
            }
            NodeState::RigidBody(r) if rigid => {
                ep_buf = euler_parameter_state(r);
                let [q, v, a] = &ep_buf;
                (q.as_slice(), v.as_slice(), a.as_slice())
            }
            _ => continue,
        };
        for i in 0..q.len() {
            if let (Some(x), Some(y), Some(z)) = (
                st.q.get_mut(o + i),
                st.v.get_mut(o + i),
                st.acc.get_mut(o + i),
            ) {
                *x = q[i];
                *y = v[i];
                *z = a[i];
            }
        }
    }
}

/// A rigid state's Lie-group coordinates at its own orientation, velocities and accelerations
/// (`[r; 0]`, `[v; w]`, `[a; w_t]`).
pub(super) fn group_state<T: Real>(r: &RigidState<T>) -> [[T; LG_COORDINATES]; 3] {
    let join = |p: &Vector3<T>, x: &Vector3<T>| [p.x, p.y, p.z, x.x, x.y, x.z];
    [
        join(&r.position, &Vector3::zeros()),
        join(&r.velocity, &r.angular_velocity),
        join(&r.acceleration, &r.angular_acceleration),
    ]
}

/// A rigid state's Euler-parameter coordinates, velocities and accelerations (`[r; e]`,
/// `[v; e_t]`, `[a; e_tt]`; `e` its orientation, taken as unit).
pub(super) fn euler_parameter_state<T: Real>(r: &RigidState<T>) -> [[T; EP_COORDINATES]; 3] {
    let o = &r.orientation;
    let e = Vector4::new(o.w, o.x, o.y, o.z);
    let e_t = ep::rates(&e, &r.angular_velocity);
    let e_tt = ep::accelerations(&e, &e_t, &r.angular_acceleration);
    let join = |p: &Vector3<T>, x: &Vector4<T>| [p.x, p.y, p.z, x[0], x[1], x[2], x[3]];
    [
        join(&r.position, &e),
        join(&r.velocity, &e_t),
        join(&r.acceleration, &e_tt),
    ]
}

/// The solver's coordinates, velocities and accelerations `[sq, sv, sa]` into the node states
/// (a 3D rigid node's orientation `e / |e|`, its body-frame rates `Gb(e) e_t` and
/// `Gb(e) e_tt`; on the Lie group its orientation [`lg::step_orientation`] from `starts`).
pub(super) fn scatter_states<T: Real, const N: usize, const K: usize, const W: usize>(
    layout: &Layout<T, N, K>,
    [sq, sv, sa]: [&[T; W]; 3],
    states: &mut [NodeState<T>],
    starts: &[T; W],
) {
    for (s, o) in states.iter_mut().zip(layout.offsets.iter()) {
        // (A tree link's state is the tree's, written after.)
        if *o == NO_COORDINATES {
            continue;
        }
        let o = usize::from(*o);
        if let (NodeState::RigidBody(r), true) = (&mut *s, layout.lie_group) {
            let (Ok(p), Ok(theta), Ok(v), Ok(w), Ok(a), Ok(w_t), Some(start)) = (
                vec3(sq, o),
                vec3(sq, o + 3),
                vec3(sv, o),
                vec3(sv, o + 3),
                vec3(sa, o),
                vec3(sa, o + 3),
                lg::start_at(starts, o),
            ) else {
                continue;
            };
            r.position = p;
            r.orientation = lg::step_orientation(&start, &theta);
            r.velocity = v;
            r.angular_velocity = w;
            r.acceleration = a;
            r.angular_acceleration = w_t;
            continue;
        }
        if let NodeState::RigidBody(r) = s {
            let (Ok(p), Ok(e), Ok(v), Ok(e_t), Ok(a), Ok(e_tt)) = (
                vec3(sq, o),
                vec4(sq, o + 3),
                vec3(sv, o),
                vec4(sv, o + 3),
                vec3(sa, o),
                vec4(sa, o + 3),
            ) else {
                continue;
            };
            let g = ep::g_body(&e);
            r.position = p;
            r.orientation = ep::quaternion(&e).normalized().unwrap_or(r.orientation);
            r.velocity = v;
            r.angular_velocity = g * e_t;
            r.acceleration = a;
            r.angular_acceleration = g * e_tt;
            continue;
        }
        let (q, v, a): (&mut [T], &mut [T], &mut [T]) = match s {
            NodeState::Point2D(p) => (
                p.q.as_mut_slice(),
                p.q_t.as_mut_slice(),
                p.q_tt.as_mut_slice(),
            ),
            NodeState::RigidBody2D(r) => (
                r.q.as_mut_slice(),
                r.q_t.as_mut_slice(),
                r.q_tt.as_mut_slice(),
            ),
            _ => continue,
        };
        for i in 0..q.len() {
            if let (Some(x), Some(y), Some(z)) = (sq.get(o + i), sv.get(o + i), sa.get(o + i)) {
                q[i] = *x;
                v[i] = *y;
                a[i] = *z;
            }
        }
    }
}
