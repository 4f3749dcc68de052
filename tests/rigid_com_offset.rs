//! The driver's COM mapping: a body whose COM is the reference point (`c = 0`, the mapping
//! skipped) and the same body described from a reference point off the COM (`c != 0`, the
//! mapping done) move their COMs and orientations alike under the same loads, for every
//! scheme, with and without sub-stepping.

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepSettings};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use nalgebra::Vector3;

fn compare<I: RigidIntegrator<f64>>(integ: &I, name: &str) {
    let c = Vector3::new(0.2, -0.1, 0.3);
    let at_com = RigidBody::from_principal(1.5, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let offset = RigidBody::from_principal(1.5, [1.0, 2.0, 3.0], c).unwrap();
    let q0 = Quaternion::exp(&Vector3::new(0.1, 0.2, 0.3));
    let w0 = Vector3::new(1.0, 0.5, 0.2);
    let r_com = Vector3::new(1.0, 0.0, 0.0);
    let v_com = Vector3::new(0.0, 1.0, 0.5);
    let mut a = RigidState::new(r_com, q0, v_com, w0);
    // The same motion from the reference point: r = r_com - R c, v = v_com - R (w x c).
    let mut b = RigidState::new(
        r_com - q0.rotate(&c),
        q0,
        v_com - q0.rotate(&w0.cross(&c)),
        w0,
    );
    let loads = RigidLoads::none()
        .with_force(Vector3::new(0.0, -9.81 * 1.5, 0.3))
        .with_torque(Vector3::new(0.05, -0.02, 0.01))
        .with_linear_damping(0.1)
        .with_angular_damping(0.05);
    for k in 0..2000 {
        let l = if k % 2 == 0 {
            loads
        } else {
            RigidLoads::none()
        };
        integ.step(&at_com, &l, &mut a, 1e-3).unwrap();
        integ.step(&offset, &l, &mut b, 1e-3).unwrap();
    }
    let tol = 1e-11;
    assert!(
        (offset.com_position(&b) - a.position).norm() < tol,
        "{name}: COM position"
    );
    assert!(
        (offset.com_velocity(&b) - a.velocity).norm() < tol,
        "{name}: COM velocity"
    );
    assert!(
        (b.angular_velocity - a.angular_velocity).norm() < tol,
        "{name}: rate"
    );
    let dq = b.orientation.to_array();
    let aq = a.orientation.to_array();
    assert!(
        (0..4).all(|i| (dq[i] - aq[i]).abs() < tol),
        "{name}: orientation"
    );
    assert!(
        (b.angular_acceleration - a.angular_acceleration).norm() < 1e-8,
        "{name}"
    );
    // And they moved: the COM fell and turned.
    assert!(
        a.position.y < -1.0 && (a.angular_velocity - w0).norm() > 1e-3,
        "{name}"
    );
}

#[test]
fn com_at_the_reference_point_and_off_it_move_the_com_alike() {
    let sub = StepSettings::default()
        .with_substep(true)
        .with_max_rotation_per_step(1e-4);
    compare(&LinearlyImplicitMidpoint::new(), "midpoint");
    compare(
        &LinearlyImplicitMidpoint::with_step_settings(sub),
        "midpoint sub-stepped",
    );
    compare(&SymplecticEuler::default(), "semi-implicit Euler");
    compare(&ExplicitEuler::default(), "explicit Euler");
    compare(&Rk4::default(), "RK4");
}
