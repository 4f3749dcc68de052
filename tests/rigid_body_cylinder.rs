//! BodyCylinder on the rigid body: mass properties against the textbook cylinder,
//! Modelica's initialization against rotations built independently, frame_b, a tumbling
//! cylinder under the midpoint step, refused parameters.

use approx::assert_relative_eq;
use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::body::Body;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use mbs_core::{Error, OutputValue, OutputVariableType as O, Param};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};

fn vec3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("{other:?}"),
    }
}

fn rot(axis: Vector3<f64>, a: f64) -> Matrix3<f64> {
    *Rotation3::from_axis_angle(&Unit::new_normalize(axis), a).matrix()
}

#[test]
fn mass_properties_are_the_textbook_solid_and_hollow_cylinder() {
    // Along frame_a's x axis: symmetry axis x, COM at r/2.
    let (l, d, di, rho) = (0.8, 0.1, 0.06, 2700.0);
    let c = BodyCylinder::params(Vector3::new(l, 0.0, 0.0))
        .diameter(d)
        .inner_diameter(di)
        .density(rho)
        .build()
        .unwrap();
    let (ro, ri) = (d / 2.0, di / 2.0);
    let m = rho * std::f64::consts::PI * l * (ro * ro - ri * ri);
    let ixx = m * (ro * ro + ri * ri) / 2.0;
    let iyy = m * (3.0 * (ro * ro + ri * ri) + l * l) / 12.0;
    let b = c.body();
    assert_relative_eq!(b.mass(), m, max_relative = 1e-14);
    assert_relative_eq!(
        *b.center_of_mass(),
        Vector3::new(l / 2.0, 0.0, 0.0),
        epsilon = 1e-15
    );
    assert_relative_eq!(
        *b.inertia(),
        Matrix3::from_diagonal(&Vector3::new(ixx, iyy, iyy)),
        max_relative = 1e-13,
        epsilon = 1e-18
    );
    // Defaults: diameter = length/20, steel.
    let c = BodyCylinder::params(Vector3::new(0.0, 0.0, 2.0))
        .build()
        .unwrap();
    assert_relative_eq!(
        c.body().mass(),
        7700.0 * std::f64::consts::PI * 2.0 * 0.05 * 0.05,
        max_relative = 1e-14
    );
    assert_eq!(*c.r(), Vector3::new(0.0, 0.0, 2.0));
}

#[test]
fn modelica_start_values_set_the_initial_state() {
    let (a, b, g) = (0.3, -0.5, 1.1);
    let start = ModelicaStart {
        r_0_start: Vector3::new(1.0, 2.0, 3.0),
        v_0_start: Vector3::new(0.1, -0.2, 0.3),
        angles_start: [a, b, g],
        sequence_start: [1, 2, 3],
        w_0_start: Vector3::new(0.5, -1.0, 2.0),
        z_0_start: Vector3::new(0.0, 0.3, -0.1),
        angles_fixed: true,
        ..ModelicaStart::default()
    };
    let r = Vector3::new(0.5, 0.2, -0.1);
    let c = BodyCylinder::params(r).start(start).build().unwrap();
    let s = c.initial_state();
    // Sequence {1,2,3}: frame_a = world rotated about x, then the new y, then the new z:
    // R_0b = Rx(a) Ry(b) Rz(g) (built with nalgebra, independent of Modelica's T).
    let r0b = rot(Vector3::x(), a) * rot(Vector3::y(), b) * rot(Vector3::z(), g);
    assert_relative_eq!(s.orientation.to_matrix(), r0b, epsilon = 1e-15);
    let z = Vector3::zeros();
    assert_relative_eq!(
        vec3(c.output(&s, O::Position, &z).unwrap()),
        start.r_0_start
    );
    assert_relative_eq!(
        vec3(c.output(&s, O::Velocity, &z).unwrap()),
        start.v_0_start
    );
    // w_0_start and z_0_start are world-frame values; the state holds them in the body frame.
    assert_relative_eq!(
        vec3(c.output(&s, O::AngularVelocity, &z).unwrap()),
        start.w_0_start,
        epsilon = 1e-15
    );
    assert_relative_eq!(
        s.angular_velocity,
        r0b.transpose() * start.w_0_start,
        epsilon = 1e-15
    );
    assert_relative_eq!(
        vec3(c.output(&s, O::AngularAcceleration, &z).unwrap()),
        start.z_0_start,
        epsilon = 1e-15
    );
    // Rotation output: the same Tait-Bryan angles back.
    assert_relative_eq!(
        vec3(c.output(&s, O::Rotation, &z).unwrap()),
        Vector3::new(a, b, g),
        epsilon = 1e-14
    );
    // frame_b: at r from frame_a, moving with the body.
    let rw = r0b * r;
    assert_relative_eq!(
        c.frame_b_position(&s).unwrap(),
        start.r_0_start + rw,
        epsilon = 1e-15
    );
    assert_relative_eq!(
        c.frame_b_velocity(&s).unwrap(),
        start.v_0_start + start.w_0_start.cross(&rw),
        epsilon = 1e-14
    );
    // Displacement is measured from the start pose.
    assert_relative_eq!(
        vec3(c.output(&s, O::Displacement, &r).unwrap()),
        Vector3::zeros(),
        epsilon = 1e-15
    );
    // Euler angles {3,1,3}: R_0b = Rz(a) Rx(b) Rz(g).
    let c = BodyCylinder::params(r)
        .start(ModelicaStart {
            angles_start: [a, b, g],
            sequence_start: [3, 1, 3],
            ..ModelicaStart::default()
        })
        .build()
        .unwrap();
    let expected = rot(Vector3::z(), a) * rot(Vector3::x(), b) * rot(Vector3::z(), g);
    assert_relative_eq!(
        c.initial_state().orientation.to_matrix(),
        expected,
        epsilon = 1e-15
    );
}

#[test]
fn a_tumbling_cylinder_with_offset_com_and_full_inertia_conserves_energy_and_momentum() {
    // r along a diagonal: the inertia in frame_a is full, the COM is off the reference point.
    let c = BodyCylinder::<f64>::params(Vector3::new(0.3, 0.4, 0.0))
        .diameter(0.2)
        .density(1000.0)
        .start(ModelicaStart {
            w_0_start: Vector3::new(1.0, 3.0, 0.5),
            v_0_start: Vector3::new(0.0, 0.0, 1.0),
            ..ModelicaStart::default()
        })
        .build()
        .unwrap();
    let b = c.body();
    assert!(b.inertia()[(0, 1)].abs() > 1e-4, "full tensor");
    let mut s = c.initial_state();
    let e0 = b.kinetic_energy(&s);
    let l0 = b.angular_momentum_world(&s);
    let p0 = b.com_velocity(&s) * b.mass();
    let integ = LinearlyImplicitMidpoint::new();
    for _ in 0..10_000 {
        integ.step(b, &RigidLoads::none(), &mut s, 1e-3).unwrap();
    }
    assert_relative_eq!(b.kinetic_energy(&s), e0, max_relative = 1e-5);
    assert_relative_eq!(
        b.angular_momentum_world(&s).norm(),
        l0.norm(),
        max_relative = 1e-5
    );
    assert_relative_eq!(b.com_velocity(&s) * b.mass(), p0, max_relative = 1e-12);
}

#[test]
fn bad_cylinder_and_start_parameters_are_refused() {
    let r = Vector3::new(1.0, 0.0, 0.0);
    assert_eq!(
        BodyCylinder::params(r).density(0.0).build().unwrap_err(),
        Error::OutOfRange(Param::Mass)
    );
    assert_eq!(
        BodyCylinder::params(r)
            .inner_diameter(0.05)
            .build()
            .unwrap_err(),
        Error::InnerDiameterNotBelowDiameter
    );
    assert_eq!(
        BodyCylinder::<f64>::params(Vector3::zeros())
            .build()
            .unwrap_err(),
        Error::ZeroLength(Param::Direction)
    );
    let bad_seq = ModelicaStart {
        sequence_start: [1, 1, 2],
        ..ModelicaStart::default()
    };
    assert_eq!(
        BodyCylinder::params(r).start(bad_seq).build().unwrap_err(),
        Error::OutOfRange(Param::Sequence)
    );
    let bad_angle = ModelicaStart {
        angles_start: [0.0, f64::NAN, 0.0],
        ..ModelicaStart::default()
    };
    assert_eq!(
        BodyCylinder::params(r)
            .start(bad_angle)
            .build()
            .unwrap_err(),
        Error::NotFinite(Param::Orientation)
    );
    let bad_w = ModelicaStart {
        w_0_start: Vector3::new(f64::INFINITY, 0.0, 0.0),
        ..ModelicaStart::default()
    };
    assert_eq!(
        BodyCylinder::params(r).start(bad_w).build().unwrap_err(),
        Error::NotFinite(Param::AngularVelocity)
    );
}
