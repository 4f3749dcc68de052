//! The midpoint step under loads, against closed forms: implicit damping (exact discrete decay),
//! constant force and torque on a sphere-inertia body (discrete and continuous closed forms),
//! a centre of mass away from the reference point, forces applied off the centre of mass.

mod rigid_support;

use approx::assert_relative_eq;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::body::Body;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::Vector3;
use rigid_support::*;

#[test]
fn linear_damping_decays_exactly_as_backward_euler() {
    let m = 2.0;
    let c = 3.0;
    let body = RigidBody::from_principal(m, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let loads = RigidLoads::none().with_linear_damping(c);
    let integ = LinearlyImplicitMidpoint::new();
    for &dt in &[1e-3, 0.1, 10.0] {
        // dt c / m = 1.5e-3 .. 15: stable for any step (L-stable).
        let v0 = Vector3::new(1.0, -2.0, 0.5);
        let mut s = RigidState::new(
            Vector3::zeros(),
            Quaternion::identity(),
            v0,
            Vector3::zeros(),
        );
        let factor: f64 = 1.0 / (1.0 + c * dt / m);
        for n in 1..=200 {
            let before = s.velocity;
            integ.step(&body, &loads, &mut s, dt).unwrap();
            for k in 0..3 {
                assert_relative_eq!(
                    s.velocity[k],
                    before[k] / (1.0 + c * dt / m),
                    max_relative = 4.0 * f64::EPSILON
                );
                assert_relative_eq!(s.velocity[k], v0[k] * factor.powi(n), max_relative = 1e-13);
            }
        }
    }
}

#[test]
fn angular_damping_decays_exactly_as_backward_euler() {
    // Sphere inertia: no gyroscopic term, so only the resistance acts.
    let i: f64 = 0.4;
    let c: f64 = 0.7;
    let body = RigidBody::from_principal(1.0, [i, i, i], Vector3::zeros()).unwrap();
    let loads = RigidLoads::none().with_angular_damping(c);
    let dt = 0.05;
    let w0 = Vector3::new(3.0, -1.0, 2.0);
    let mut s = spinning(w0);
    for n in 1..=500 {
        let before = s.angular_velocity;
        LinearlyImplicitMidpoint::new()
            .step(&body, &loads, &mut s, dt)
            .unwrap();
        for k in 0..3 {
            assert_relative_eq!(
                s.angular_velocity[k],
                before[k] / (1.0 + c * dt / i),
                max_relative = 4.0 * f64::EPSILON
            );
        }
        assert_relative_eq!(
            s.angular_velocity,
            w0 / (1.0 + c * dt / i).powi(n),
            max_relative = 1e-12
        );
    }
}

/// Constant force F and body torque tau on a sphere-inertia body with w0 parallel to tau:
/// continuous closed form w = w0 + tau/I t, v = v0 + F/m t, r = r0 + v0 t + F t^2/(2m), turn
/// angle |w0| t + |tau|/I t^2/2 about the fixed axis. The step is exact in w and v; position
/// and angle come from the new rate, so the discrete closed form carries the O(dt) term
/// `+ F t dt/(2m)` (and `+ alpha t dt / 2` in the angle).
#[test]
fn constant_force_and_torque_match_the_discrete_and_continuous_closed_forms() {
    let (m, i) = (2.0, 0.5);
    let body = RigidBody::from_principal(m, [i, i, i], Vector3::zeros()).unwrap();
    let axis = Vector3::new(1.0, 2.0, -2.0) / 3.0;
    let f = Vector3::new(0.3, -9.81 * m, 1.0);
    let tau = axis * 0.2;
    let loads = RigidLoads::none().with_force(f).with_torque(tau);
    let (r0, v0, w0) = (
        Vector3::new(1.0, 2.0, 3.0),
        Vector3::new(0.5, 4.0, -1.0),
        axis * 1.5,
    );
    let alpha = tau.norm() / i;
    let t = 2.0;
    let dts = [0.04, 0.02, 0.01, 0.005];
    let (mut pos_err, mut ang_err) = (vec![], vec![]);
    for &dt in &dts {
        let mut s = RigidState::new(r0, Quaternion::identity(), v0, w0);
        let n = steps(t, dt);
        LinearlyImplicitMidpoint::new()
            .step(&body, &loads, &mut s, dt)
            .unwrap();
        for _ in 1..n {
            LinearlyImplicitMidpoint::new()
                .step(&body, &loads, &mut s, dt)
                .unwrap();
        }
        assert_relative_eq!(s.angular_velocity, w0 + tau / i * t, max_relative = 1e-13);
        assert_relative_eq!(
            s.velocity,
            v0 + f / m * t,
            epsilon = 1e-13,
            max_relative = 1e-13
        );
        let r_cont = r0 + v0 * t + f * (t * t / (2.0 * m));
        let r_disc = r_cont + f * (t * dt / (2.0 * m));
        assert_relative_eq!(s.position, r_disc, max_relative = 1e-12);
        let th_cont = w0.norm() * t + alpha * t * t / 2.0;
        let th_disc = th_cont + alpha * t * dt / 2.0;
        let q_disc = nalgebra::UnitQuaternion::from_axis_angle(
            &nalgebra::Unit::new_normalize(axis),
            th_disc,
        );
        let q = s.orientation;
        let q = nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(
            q.w, q.x, q.y, q.z,
        ));
        assert!(
            q.angle_to(&q_disc) < 1e-12,
            "dt {dt}: {}",
            q.angle_to(&q_disc)
        );
        let q_cont = nalgebra::UnitQuaternion::from_axis_angle(
            &nalgebra::Unit::new_normalize(axis),
            th_cont,
        );
        pos_err.push((s.position - r_cont).norm());
        ang_err.push(q.angle_to(&q_cont));
        // The step-mean accelerations are the applied ones.
        assert_relative_eq!(s.acceleration, f / m, max_relative = 1e-9);
        assert_relative_eq!(s.angular_acceleration, tau / i, max_relative = 1e-9);
    }
    let (sp, sa) = (slope(&dts, &pos_err), slope(&dts, &ang_err));
    eprintln!("constant load: position error {pos_err:?} slope {sp:.4}; angle error {ang_err:?} slope {sa:.4}");
    assert!(
        (sp - 1.0).abs() < 0.01 && (sa - 1.0).abs() < 0.01,
        "{sp} {sa}"
    );
}

#[test]
fn centre_of_mass_offset_moves_the_com_uniformly_while_the_reference_point_circles() {
    let c = Vector3::new(0.2, -0.1, 0.3);
    let body = RigidBody::from_principal(1.5, [1.0, 2.0, 3.0], c).unwrap();
    let mut s = RigidState::new(
        Vector3::new(1.0, 0.0, 0.0),
        Quaternion::exp(&Vector3::new(0.1, 0.2, 0.3)),
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(1.0, 0.5, 0.2),
    );
    let pos = |s: &RigidState<f64>| match body.output(s, OutputVariableType::Position, &c).unwrap()
    {
        OutputValue::Vector3(v) => v,
        _ => unreachable!(),
    };
    let com0 = pos(&s);
    let vcom0 = s.velocity + s.orientation.to_matrix() * s.angular_velocity.cross(&c);
    let e0 = body.kinetic_energy(&s);
    let dt = 1e-3;
    let n = 5000;
    run(
        &LinearlyImplicitMidpoint::new(),
        &body,
        &RigidLoads::none(),
        &mut s,
        dt,
        n,
    );
    // Free COM: uniform motion (exact up to rounding: the position comes from the new velocity,
    // which is the old one).
    assert_relative_eq!(
        pos(&s),
        com0 + vcom0 * (n as f64 * dt),
        max_relative = 1e-12
    );
    assert_relative_eq!(body.com_velocity(&s), vcom0, max_relative = 1e-12);
    // Energy with the offset: conserved to the step's order.
    assert_relative_eq!(body.kinetic_energy(&s), e0, max_relative = 1e-5);
    // The reference point is not the COM: it moved differently.
    assert!(
        (s.position - (Vector3::new(1.0, 0.0, 0.0) + Vector3::new(0.0, 1.0, 0.0) * 5.0)).norm()
            > 1e-3
    );
}

#[test]
fn gravity_acts_at_the_com_and_gives_no_torque() {
    let c = Vector3::new(0.0, 0.0, 0.5);
    let body = RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], c).unwrap();
    let g = Vector3::new(0.0, -9.80665, 0.0);
    let mut loads = RigidLoads::none();
    loads.add_gravity(&body, &g);
    let w0 = Vector3::new(0.3, 0.2, 1.0);
    let mut s = spinning(w0);
    let mut free = spinning(w0);
    let dt = 0.01;
    let com0 = body.com_position(&s);
    let vcom0 = body.com_velocity(&s); // w0 x c: the COM moves though the reference point rests
    assert!(vcom0.norm() > 0.1);
    for _ in 0..100 {
        LinearlyImplicitMidpoint::new()
            .step(&body, &loads, &mut s, dt)
            .unwrap();
        LinearlyImplicitMidpoint::new()
            .step(&body, &RigidLoads::none(), &mut free, dt)
            .unwrap();
    }
    // Rotation identical to the free body; COM on the discrete parabola.
    assert_eq!(s.angular_velocity, free.angular_velocity);
    assert_eq!(s.orientation, free.orientation);
    let t = 1.0;
    assert_relative_eq!(
        body.com_position(&s),
        com0 + vcom0 * t + g * (t * t / 2.0 + t * dt / 2.0),
        max_relative = 1e-12
    );
}

#[test]
fn a_force_off_the_com_equals_force_plus_torque_and_the_jacobian_route() {
    let c = Vector3::new(0.1, 0.2, -0.3);
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 2.5], c).unwrap();
    let s = RigidState::new(
        Vector3::new(0.5, 0.0, 1.0),
        Quaternion::exp(&Vector3::new(-0.4, 0.9, 0.2)),
        Vector3::new(0.1, 0.0, 0.0),
        Vector3::new(0.0, 1.0, 0.0),
    );
    let p = Vector3::new(1.0, -0.5, 0.25);
    let f = Vector3::new(3.0, -1.0, 2.0);
    let mut direct = RigidLoads::none();
    direct.add_force_at(&body, &s, &f, &p);
    // Through the body's Jacobians: Q = Jpos(p)^T f, then back to COM loads.
    let q = body
        .generalized_force(&s, &p, &f, &Vector3::zeros())
        .unwrap();
    let mut via_q = RigidLoads::none();
    via_q.add_generalized(&body, &s, &q);
    assert_relative_eq!(direct.force, via_q.force, max_relative = 1e-14);
    assert_relative_eq!(direct.torque, via_q.torque, max_relative = 1e-13);
    // Independent: torque about the COM in the world frame is (x_p - x_com) x f.
    let r = s.orientation.to_matrix();
    let x_p = s.position + r * p;
    let tau_world = (x_p - body.com_position(&s)).cross(&f);
    assert_relative_eq!(r * direct.torque, tau_world, max_relative = 1e-13);
    // A world torque converts to the body frame.
    let mut t = RigidLoads::none();
    t.add_torque_world(&s, &tau_world);
    assert_relative_eq!(t.torque, direct.torque, max_relative = 1e-13);
}
