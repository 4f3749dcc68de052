//! Sensors written into a caller's buffer each step ([`SliceSink`]), on-demand reads, a
//! time-dependent user load through a C-compatible callback with a context pointer, the
//! Cartesian spring-damper (Exudyn's `cartesianSpringDamper` model) and replaced loads, all
//! against closed forms.

mod system_support;

use mbs_core::inertia::MassProperties;
use mbs_core::solver::{DynamicSolverType, SimulationSettings};
use mbs_core::system::{
    CartesianSpringDamper, Connector, HostSystem, Load, Marker, MassPointSpec, NoSink, NodeIndex,
    RigidBodySpec, Sensor, SensorIndex, SliceSink, SystemSettings, UserLoadKind,
};
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::{Matrix3, Vector2, Vector3};
use std::ffi::c_void;
use system_support::{point, slope};

#[test]
fn sensors_write_rows_into_a_slice_each_step() {
    let m = 0.5;
    let f = Vector3::new(2.0, -1.0, 0.0);
    let mut mbs = HostSystem::<f64>::new();
    let mut spec = MassPointSpec::new(m, Vector2::new(1.0, 2.0));
    spec.initial_velocity = Vector2::new(0.3, 0.0);
    let p = mbs.create_mass_point(&spec).unwrap();
    let mk = mbs.add_marker(Marker::node_position(p.node)).unwrap();
    let load = mbs.add_load(Load::force(mk, f).unwrap()).unwrap();
    let w = 1.7; // rad/s about z
    let mut rspec = RigidBodySpec::at(Vector3::zeros());
    rspec.angular_velocity = Vector3::new(0.0, 0.0, w);
    let inertia = MassProperties::new(
        1.0,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(0.1, 0.2, 0.3)),
    )
    .unwrap();
    let r = mbs.create_rigid_body(&inertia, &rspec).unwrap();
    let s_pos = mbs
        .add_sensor(Sensor::Node {
            node: p.node,
            variable: OutputVariableType::Position,
        })
        .unwrap();
    mbs.add_sensor(Sensor::body(p.object, Vector3::zeros(), OutputVariableType::Velocity).unwrap())
        .unwrap();
    mbs.add_sensor(Sensor::Load { load }).unwrap();
    let s_rot = mbs
        .add_sensor(
            Sensor::body(
                r.object,
                Vector3::zeros(),
                OutputVariableType::RotationMatrix,
            )
            .unwrap(),
        )
        .unwrap();
    mbs.add_sensor(Sensor::Marker {
        marker: mk,
        variable: OutputVariableType::Velocity,
    })
    .unwrap();
    mbs.assemble().unwrap();
    let row_len = mbs.sensor_row_len();
    assert_eq!(row_len, 1 + 3 + 3 + 3 + 9 + 3);
    let n = 10;
    let mut buf = vec![0.0; row_len * (n + 1)];
    let mut sink = SliceSink::new(&mut buf, row_len);
    let sim = SimulationSettings {
        end_time: 0.5,
        number_of_steps: n as u32,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    mbs.solve_dynamic(&sim, &mut sink).unwrap();
    assert_eq!(sink.rows(), n + 1);
    assert!(!sink.overflowed());
    for i in 0..=n {
        let row = sink.row(i).unwrap();
        let t = 0.05 * i as f64;
        assert!((row[0] - t).abs() < 1e-15);
        // x = x_ref + v0 t + F/(2m) t^2 (exact for a constant force)
        let x =
            Vector3::new(1.0, 2.0, 0.0) + Vector3::new(0.3, 0.0, 0.0) * t + f * (t * t / (2.0 * m));
        let v = Vector3::new(0.3, 0.0, 0.0) + f * (t / m);
        for k in 0..3 {
            assert!((row[1 + k] - x[k]).abs() < 1e-14, "row {i}");
            assert!((row[4 + k] - v[k]).abs() < 1e-14, "row {i}");
            assert_eq!(row[7 + k], f[k]);
            assert!((row[19 + k] - v[k]).abs() < 1e-14, "row {i}");
        }
        // R_0b of a turn w t about z, row-major
        let (s, c) = (w * t).sin_cos();
        let want = [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0];
        for k in 0..9 {
            assert!((row[10 + k] - want[k]).abs() < 1e-14, "row {i} entry {k}");
        }
    }
    // on-demand reads agree with the last row
    let last = sink.row(n).unwrap().to_vec();
    match mbs.read_sensor(s_pos).unwrap() {
        OutputValue::Vector3(p) => assert_eq!(p.as_slice(), &last[1..4]),
        other => panic!("{other:?}"),
    }
    match mbs.read_sensor(s_rot).unwrap() {
        OutputValue::Matrix3(r) => {
            for i in 0..3 {
                for j in 0..3 {
                    assert_eq!(r[(i, j)], last[10 + 3 * i + j]);
                }
            }
        }
        other => panic!("{other:?}"),
    }
    // the generic read agrees
    assert_eq!(
        mbs.get_output(
            mbs_core::system::ItemRef::Node(p.node),
            OutputVariableType::Position,
            &Vector3::zeros()
        ),
        mbs.read_sensor(s_pos)
    );
    // a buffer too short for every row: the rows that fit, and the overflow flag
    let mut short = vec![0.0; row_len * 4 + 3];
    let mut sink = SliceSink::new(&mut short, row_len);
    mbs.solve_dynamic(&sim, &mut sink).unwrap();
    assert_eq!(sink.rows(), 4);
    assert!(sink.overflowed());
    assert_eq!(sink.written().len(), 4 * row_len);
    let _ = SensorIndex(0);
}

/// Parameters read by the callback through its context pointer.
#[repr(C)]
struct Sine {
    amplitude: f64,
    omega: f64,
}

/// `F = [A sin(w t), 0, 0]` N with `A`, `w` from `ctx` (a `*mut Sine`).
extern "C-unwind" fn sine_force(ctx: *mut c_void, t: f64, out: *mut [f64; 3]) {
    let p = unsafe { &*(ctx as *const Sine) };
    unsafe { *out = [p.amplitude * (p.omega * t).sin(), 0.0, 0.0] };
}

fn sine_error(n: u32) -> f64 {
    let m = 2.0;
    let mut params = Sine {
        amplitude: 3.0,
        omega: 4.0,
    };
    let mut mbs = HostSystem::<f64>::new();
    let p = mbs
        .create_mass_point(&MassPointSpec::new(m, Vector2::zeros()))
        .unwrap();
    let mk = mbs
        .add_marker(Marker::body_position(p.object, Vector3::zeros()).unwrap())
        .unwrap();
    mbs.add_load(Load::user(
        mk,
        UserLoadKind::Force,
        sine_force,
        &mut params as *mut Sine as *mut c_void,
    ))
    .unwrap();
    mbs.assemble().unwrap();
    let sim = SimulationSettings {
        end_time: 2.0,
        number_of_steps: n,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    mbs.solve_dynamic(&sim, &mut NoSink).unwrap();
    let (a, w, t) = (params.amplitude, params.omega, 2.0f64);
    // from rest: x = A/(m w^2) (w t - sin w t), v = A/(m w) (1 - cos w t)
    let x = a / (m * w * w) * (w * t - (w * t).sin());
    let v = a / (m * w) * (1.0 - (w * t).cos());
    let s = point(&mbs, p.node);
    (s.q.x - x).abs().max((s.q_t.x - v).abs())
}

#[test]
fn a_time_dependent_user_load_follows_the_closed_form_at_second_order() {
    let steps = [50u32, 100, 200, 400];
    let dts: Vec<f64> = steps.iter().map(|n| 2.0 / *n as f64).collect();
    let errs: Vec<f64> = steps.iter().map(|n| sine_error(*n)).collect();
    let o = slope(&dts, &errs);
    println!("user sine load: order {o:.3}, errors {errs:?}");
    assert!((1.9..2.1).contains(&o), "order {o}");
}

/// Exudyn's `cartesianSpringDamper` example in 2D: a mass on a Cartesian spring-damper to the
/// ground; each axis is its own damped oscillator about the offset.
fn cartesian_error(n: u32) -> f64 {
    let m = 1.5;
    let k = Vector3::new(40.0, 90.0, 0.0);
    let d = Vector3::new(0.6, 1.2, 0.0);
    let offset = Vector3::new(0.5, -0.2, 0.0);
    let mut mbs = HostSystem::<f64>::new();
    let g = mbs.create_ground(Vector3::zeros()).unwrap();
    let mut spec = MassPointSpec::new(m, Vector2::zeros());
    spec.initial_displacement = Vector2::new(0.7, 0.1);
    spec.initial_velocity = Vector2::new(-0.2, 0.4);
    let p = mbs.create_mass_point(&spec).unwrap();
    let mg = mbs
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let mp = mbs
        .add_marker(Marker::body_position(p.object, Vector3::zeros()).unwrap())
        .unwrap();
    mbs.add_connector(Connector::CartesianSpringDamper(
        CartesianSpringDamper::new([mg, mp], k, d, offset).unwrap(),
    ))
    .unwrap();
    mbs.assemble().unwrap();
    let t = 2.0;
    let sim = SimulationSettings {
        end_time: t,
        number_of_steps: n,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    mbs.solve_dynamic(&sim, &mut NoSink).unwrap();
    let s = point(&mbs, p.node);
    let mut err: f64 = 0.0;
    for (axis, (x0, v0)) in [(0usize, (0.7, -0.2)), (1, (0.1, 0.4))] {
        // m u'' + d u' + k u = 0, u = x - offset
        let sig = d[axis] / (2.0 * m);
        let wd = (k[axis] / m - sig * sig).sqrt();
        let u0: f64 = x0 - offset[axis];
        let b = (v0 + sig * u0) / wd;
        let u = (-sig * t).exp() * (u0 * (wd * t).cos() + b * (wd * t).sin());
        err = err.max((s.q[axis] - offset[axis] - u).abs());
    }
    err
}

#[test]
fn cartesian_spring_damper_matches_the_per_axis_closed_form_at_second_order() {
    let steps = [100u32, 200, 400, 800];
    let dts: Vec<f64> = steps.iter().map(|n| 2.0 / *n as f64).collect();
    let errs: Vec<f64> = steps.iter().map(|n| cartesian_error(*n)).collect();
    let o = slope(&dts, &errs);
    println!("Cartesian spring-damper: order {o:.3}, errors {errs:?}");
    assert!((1.9..2.1).contains(&o), "order {o}");
    assert!(errs[3] < 1e-4);
}

#[test]
fn gravity_of_create_mass_point_and_a_replaced_load_follow_the_closed_forms() {
    let mut mbs = HostSystem::<f64>::new();
    let g = Vector3::new(0.0, -9.81, 0.0);
    let mut spec = MassPointSpec::new(0.8, Vector2::new(0.0, 10.0));
    spec.gravity = Some(g);
    let p = mbs.create_mass_point(&spec).unwrap();
    let load = p.gravity_load.unwrap();
    mbs.assemble().unwrap();
    let h = 0.01;
    for _ in 0..50 {
        mbs.step(h, &mut NoSink).unwrap();
    }
    // y = 10 - g t^2 / 2 at t = 0.5
    let s = point(&mbs, p.node);
    assert!((s.q.y - (-0.5 * 9.81 * 0.25)).abs() < 1e-13, "{}", s.q.y);
    // a new acceleration field from now on (a control input), without re-assembling
    let g2 = Vector3::new(2.0, 0.0, 0.0);
    mbs.replace_load(
        load,
        Load::mass_proportional(p.mass_marker.unwrap(), g2).unwrap(),
    )
    .unwrap();
    assert!(mbs.is_assembled());
    for _ in 0..50 {
        mbs.step(h, &mut NoSink).unwrap();
    }
    let s2 = point(&mbs, p.node);
    // x = g2 t^2/2 over the second 0.5 s; y continues with the velocity reached
    let vy = -9.81 * 0.5;
    assert!((s2.q.x - 0.5 * 2.0 * 0.25).abs() < 1e-13);
    assert!((s2.q.y - (s.q.y + vy * 0.5)).abs() < 1e-13);
    assert!((mbs.time() - 1.0).abs() < 1e-14);
    let _ = (NodeIndex(0), SystemSettings::<f64>::default());
}
