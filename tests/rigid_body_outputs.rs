//! RigidBody outputs and Jacobians against independent references: finite differences along
//! the motion, a cloud of point masses with the same mass properties, the virtual power of the
//! generalized force, nalgebra's rotations.

use approx::assert_relative_eq;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::body::{Body, Generalized};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::{Error, OutputValue, OutputVariableType as O, Param};
use nalgebra::{Matrix3, Rotation3, Unit, UnitQuaternion, Vector3};

/// Point masses (kg, position m in the body frame from the reference point).
fn cloud() -> Vec<(f64, Vector3<f64>)> {
    vec![
        (1.0, Vector3::new(0.5, 0.1, -0.2)),
        (2.0, Vector3::new(-0.3, 0.4, 0.1)),
        (0.5, Vector3::new(0.2, -0.6, 0.3)),
        (1.5, Vector3::new(0.0, 0.2, 0.7)),
        (0.7, Vector3::new(0.9, 0.3, 0.0)),
        (1.1, Vector3::new(-0.4, -0.5, -0.6)),
    ]
}

/// Mass, COM and inertia about the COM of the cloud, by their definitions.
fn cloud_body() -> RigidBody<f64> {
    let pts = cloud();
    let m: f64 = pts.iter().map(|p| p.0).sum();
    let c = pts.iter().map(|p| p.1 * p.0).sum::<Vector3<f64>>() / m;
    let mut i = Matrix3::zeros();
    for (mk, x) in &pts {
        let y = x - c;
        i += (Matrix3::identity() * y.dot(&y) - y * y.transpose()) * *mk;
    }
    RigidBody::new(m, i, c).unwrap()
}

fn state() -> RigidState<f64> {
    let mut s = RigidState::new(
        Vector3::new(1.0, -2.0, 0.5),
        Quaternion::exp(&Vector3::new(0.4, -0.7, 1.1)),
        Vector3::new(0.3, 0.1, -0.2),
        Vector3::new(0.8, -0.5, 1.3),
    );
    s.acceleration = Vector3::new(0.2, -0.4, 0.1);
    s.angular_acceleration = Vector3::new(-0.3, 0.6, 0.2);
    s
}

fn vec3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("not a vector: {other:?}"),
    }
}

fn out(b: &RigidBody<f64>, s: &RigidState<f64>, var: O, p: &Vector3<f64>) -> Vector3<f64> {
    vec3(b.output(s, var, p).unwrap())
}

/// The state moved by `t` along its velocities (and accelerations when `second`).
fn moved(s: &RigidState<f64>, t: f64, second: bool) -> RigidState<f64> {
    let mut m = *s;
    m.position += s.velocity * t;
    m.orientation = s
        .orientation
        .mul(&Quaternion::exp(&(s.angular_velocity * t)));
    if second {
        m.velocity += s.acceleration * t;
        m.angular_velocity += s.angular_acceleration * t;
    }
    m
}

#[test]
fn velocity_and_acceleration_are_the_time_derivatives_of_position_and_velocity() {
    let b = cloud_body();
    let s = state();
    let p = Vector3::new(0.3, -0.8, 0.5);
    let eps = 1e-5;
    let fd_v = (out(&b, &moved(&s, eps, false), O::Position, &p)
        - out(&b, &moved(&s, -eps, false), O::Position, &p))
        / (2.0 * eps);
    assert_relative_eq!(out(&b, &s, O::Velocity, &p), fd_v, epsilon = 1e-9);
    let fd_a = (out(&b, &moved(&s, eps, true), O::Velocity, &p)
        - out(&b, &moved(&s, -eps, true), O::Velocity, &p))
        / (2.0 * eps);
    assert_relative_eq!(out(&b, &s, O::Acceleration, &p), fd_a, epsilon = 1e-9);
    // World angular velocity is the derivative of the rotation: dR/dt R^T = [omega_0]x.
    let r = |s: &RigidState<f64>| match b.output(s, O::RotationMatrix, &p).unwrap() {
        OutputValue::Matrix3(m) => m,
        _ => unreachable!(),
    };
    let dr = (r(&moved(&s, eps, false)) - r(&moved(&s, -eps, false))) / (2.0 * eps);
    let om = dr * r(&s).transpose();
    let omega0 = Vector3::new(om[(2, 1)], om[(0, 2)], om[(1, 0)]);
    assert_relative_eq!(out(&b, &s, O::AngularVelocity, &p), omega0, epsilon = 1e-9);
    let fd_alpha = (out(&b, &moved(&s, eps, true), O::AngularVelocity, &p)
        - out(&b, &moved(&s, -eps, true), O::AngularVelocity, &p))
        / (2.0 * eps);
    assert_relative_eq!(
        out(&b, &s, O::AngularAcceleration, &p),
        fd_alpha,
        epsilon = 1e-9
    );
    assert_eq!(out(&b, &s, O::AngularVelocityLocal, &p), s.angular_velocity);
}

#[test]
fn kinetic_energy_equals_the_sum_over_the_point_masses() {
    let b = cloud_body();
    let s = state();
    let r = s.orientation.to_matrix();
    let ke: f64 = cloud()
        .iter()
        .map(|(m, x)| {
            let v = s.velocity + r * s.angular_velocity.cross(x);
            0.5 * m * v.dot(&v)
        })
        .sum();
    let got = match b.output(&s, O::KineticEnergy, &Vector3::zeros()).unwrap() {
        OutputValue::Scalar(e) => e,
        _ => unreachable!(),
    };
    assert_relative_eq!(got, ke, max_relative = 1e-14);
    // The mass-proportional load Jacobian is the sum of m_k Jpos(x_k).
    let mut sum = mbs_core::body::Jacobian::zeros();
    for (m, x) in cloud() {
        sum += b.position_jacobian(&s, &x).unwrap() * m;
    }
    assert_relative_eq!(b.mass_jacobian_integral(&s).unwrap(), sum, epsilon = 1e-14);
}

#[test]
fn jacobians_map_the_coordinates_and_give_the_virtual_power() {
    let b = cloud_body();
    let s = state();
    let p = Vector3::new(-0.2, 0.9, 0.4);
    let qd = Generalized::from_column_slice(&[
        s.velocity.x,
        s.velocity.y,
        s.velocity.z,
        s.angular_velocity.x,
        s.angular_velocity.y,
        s.angular_velocity.z,
    ]);
    let jp = b.position_jacobian(&s, &p).unwrap();
    let jr = b.rotation_jacobian(&s).unwrap();
    assert_relative_eq!(jp * qd, out(&b, &s, O::Velocity, &p), epsilon = 1e-14);
    assert_relative_eq!(
        jr * qd,
        out(&b, &s, O::AngularVelocity, &p),
        epsilon = 1e-14
    );
    // Jpos column k = d v(p) / d qdot_k (the velocity is linear in qdot).
    for k in 0..6 {
        let mut s2 = s;
        if k < 3 {
            s2.velocity[k] += 1.0;
        } else {
            s2.angular_velocity[k - 3] += 1.0;
        }
        let col = out(&b, &s2, O::Velocity, &p) - out(&b, &s, O::Velocity, &p);
        assert_relative_eq!(jp.column(k).into_owned(), col, epsilon = 1e-14);
    }
    // Virtual power: Q . qdot = f . v(p) + tau . omega_0 for any qdot.
    let f = Vector3::new(2.0, -1.0, 0.5);
    let tau = Vector3::new(0.3, 0.7, -1.2);
    let q = b.generalized_force(&s, &p, &f, &tau).unwrap();
    for qd in [
        qd,
        Generalized::from_column_slice(&[1.0, -2.0, 0.5, 0.3, 0.2, -0.9]),
    ] {
        let mut s2 = s;
        s2.velocity = Vector3::new(qd[0], qd[1], qd[2]);
        s2.angular_velocity = Vector3::new(qd[3], qd[4], qd[5]);
        let power =
            f.dot(&out(&b, &s2, O::Velocity, &p)) + tau.dot(&out(&b, &s2, O::AngularVelocity, &p));
        assert_relative_eq!(q.dot(&qd), power, max_relative = 1e-14);
    }
}

#[test]
fn rotation_outputs_follow_the_stated_conventions() {
    let b = cloud_body();
    let s = state();
    let z = Vector3::zeros();
    let q = s.orientation;
    let uq = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q.w, q.x, q.y, q.z));
    let rm = match b.output(&s, O::RotationMatrix, &z).unwrap() {
        OutputValue::Matrix3(m) => m,
        _ => unreachable!(),
    };
    assert_relative_eq!(rm, *uq.to_rotation_matrix().matrix(), epsilon = 1e-15);
    // Rotation: Tait-Bryan x-y-z, R_0b = Rx(a) Ry(b) Rz(c).
    let ang = out(&b, &s, O::Rotation, &z);
    let rot = |axis: Vector3<f64>, a: f64| {
        *Rotation3::from_axis_angle(&Unit::new_normalize(axis), a).matrix()
    };
    let rebuilt = rot(Vector3::x(), ang.x) * rot(Vector3::y(), ang.y) * rot(Vector3::z(), ang.z);
    assert_relative_eq!(rebuilt, rm, epsilon = 1e-14);
    assert!(ang.y.abs() <= core::f64::consts::FRAC_PI_2);
}

#[test]
fn displacement_is_measured_from_the_reference_configuration() {
    let q_ref = Quaternion::exp(&Vector3::new(0.0, 0.0, 0.5));
    let r_ref = Vector3::new(1.0, 1.0, 0.0);
    let b = cloud_body().with_reference(r_ref, q_ref).unwrap();
    let s = state();
    let p = Vector3::new(0.1, 0.2, 0.3);
    let expected = (s.position + s.orientation.to_matrix() * p) - (r_ref + q_ref.to_matrix() * p);
    assert_relative_eq!(out(&b, &s, O::Displacement, &p), expected, epsilon = 1e-15);
    // In the reference configuration every point has zero displacement.
    let at_ref = RigidState::at_rest(r_ref, q_ref);
    assert_relative_eq!(
        out(&b, &at_ref, O::Displacement, &p),
        Vector3::zeros(),
        epsilon = 1e-15
    );
    assert!(cloud_body()
        .with_reference(r_ref, Quaternion::new(2.0, 0.0, 0.0, 0.0))
        .is_err());
}

#[test]
fn unavailable_outputs_and_bad_arguments_are_errors() {
    let b = cloud_body();
    let s = state();
    assert_eq!(
        b.output(&s, O::PotentialEnergy, &Vector3::zeros()),
        Err(Error::OutputNotAvailable)
    );
    let nan = Vector3::new(f64::NAN, 0.0, 0.0);
    assert_eq!(
        b.output(&s, O::Position, &nan),
        Err(Error::NotFinite(Param::LocalPosition))
    );
    assert_eq!(
        b.position_jacobian(&s, &nan),
        Err(Error::NotFinite(Param::LocalPosition))
    );
    let mut bad = s;
    bad.velocity.x = f64::INFINITY;
    assert_eq!(
        b.output(&bad, O::Velocity, &Vector3::zeros()),
        Err(Error::NonFiniteState)
    );
    assert_eq!(b.coordinates(), 6);
}
