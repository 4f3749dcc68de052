//! Rigid bodies in the system: free fall under the gravity of `create_rigid_body` (closed form),
//! a hollow `BodyCylinder` spinning about an oblique axis (energy and |L|, order 2), the held-
//! loads step being the midpoint step bit for bit, torques (body-fixed and world) against
//! closed forms, and a rigid body on an off-centre spring against an independent RK4 reference
//! (the coupled scheme's order).

mod system_support;

use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::inertia::MassProperties;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use mbs_core::math::Quaternion;
use mbs_core::solver::{DynamicSolverType, SimulationSettings};
use mbs_core::system::{
    Connector, CreatedBody, HostSystem, Load, Marker, NoSink, RigidBodySpec, RigidScheme,
    SpringDamper, SystemScheme, SystemSettings,
};
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use system_support::{rigid, slope};

fn v3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("{other:?}"),
    }
}

fn uq(q: &Quaternion<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q.w, q.x, q.y, q.z))
}

const G: Vector3<f64> = Vector3::new(0.0, -9.81, 0.0);

fn falling_body(settings: SystemSettings<f64>, n: u32) -> (Vector3<f64>, Vector3<f64>) {
    let c = Vector3::new(0.1, -0.05, 0.2);
    let mp = MassProperties::new(
        2.0,
        c,
        Matrix3::new(0.1, 0.01, 0.0, 0.01, 0.2, -0.02, 0.0, -0.02, 0.25),
    )
    .unwrap();
    let q0 = Quaternion::exp(&Vector3::new(0.3, -0.2, 0.5));
    let w0 = Vector3::new(0.5, -1.0, 2.0); // world
    let v0 = Vector3::new(1.0, 2.0, -0.5); // of the reference point
    let r0 = Vector3::new(1.0, 2.0, 3.0);
    let mut spec = RigidBodySpec::at(r0);
    spec.orientation = q0;
    spec.velocity = v0;
    spec.angular_velocity = w0;
    spec.gravity = Some(G);
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(settings).unwrap();
    let body = mbs.create_rigid_body(&mp, &spec).unwrap();
    assert!(body.mass_marker.is_some() && body.gravity_load.is_some());
    mbs.assemble().unwrap();
    let sim = SimulationSettings {
        end_time: 1.0,
        number_of_steps: n,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    mbs.solve_dynamic(&sim, &mut NoSink).unwrap();
    // independent closed form of the COM: r_com0 + v_com0 t + g t^2 / 2
    let rc = uq(&q0) * c;
    let r_com0 = r0 + rc;
    let v_com0 = v0 + w0.cross(&rc);
    let t: f64 = 1.0;
    let want = r_com0 + v_com0 * t + G * (0.5 * t * t);
    let got = v3(mbs
        .object_output(body.object, OutputVariableType::Position, &c)
        .unwrap());
    (got, want)
}

#[test]
fn rigid_body_created_with_gravity_falls_as_the_closed_form_says() {
    let (got, want) = falling_body(SystemSettings::default(), 100);
    println!("free fall: COM error {:.2e} m", (got - want).norm());
    assert!((got - want).norm() < 1e-12 * want.norm(), "{got} vs {want}");
}

#[test]
fn held_loads_fall_with_the_known_first_order_lag() {
    // r' = r + h v', v' = v + h g (the midpoint step, loads held): r_n = closed form + g h t / 2.
    let n = 100;
    let h = 1.0 / n as f64;
    let (got, want) = falling_body(
        SystemSettings::default()
            .with_scheme(SystemScheme::HeldLoads)
            .with_rigid(RigidScheme::Midpoint),
        n,
    );
    let lag = G * (0.5 * h * 1.0);
    assert!(
        (got - (want + lag)).norm() < 1e-12 * want.norm(),
        "{got} vs {}",
        want + lag
    );
}

/// Hollow cylinder, frame_a at the reference point, COM at r/2, axis along r (oblique),
/// started with Modelica's start values: tilted by angles about {1,2,3}, spinning about an
/// oblique world axis.
fn hollow_cylinder() -> BodyCylinder<f64> {
    let start = ModelicaStart {
        r_0_start: Vector3::new(0.0, 0.0, 1.0),
        angles_start: [0.2, 0.4, -0.1],
        w_0_start: Vector3::new(2.0, 3.0, -1.0),
        ..Default::default()
    };
    BodyCylinder::params(Vector3::new(0.4, 0.1, -0.2))
        .diameter(0.1)
        .inner_diameter(0.08)
        .start(start)
        .build()
        .unwrap()
}

/// After 2 s with step h: relative errors of the rotational energy and |L|, and the
/// orientation error (rad) against the closed-form precession of a symmetric body:
/// `R(t) = exp(t [L/I_t]x) R_0 exp(t L_a (1/I_a - 1/I_t) [e_a]x)` with `L` the world angular
/// momentum, `e_a` the symmetry axis (body frame), `I_a`, `I_t` the axial and transverse
/// moments and `L_a = e_a . (I w_b)`.
fn cylinder_spin_errors(h: f64) -> (f64, f64, f64) {
    let cyl = hollow_cylinder();
    let d = *cyl.derived();
    let mut mbs = HostSystem::<f64>::new();
    let body = mbs.create_body_cylinder(&cyl, None).unwrap();
    mbs.assemble().unwrap();
    let i = *cyl.body().inertia();
    let s0 = rigid(&mbs, body.node);
    // the node starts from the Modelica start values
    assert_eq!(s0.position, Vector3::new(0.0, 0.0, 1.0));
    assert!(
        (uq(&s0.orientation) * s0.angular_velocity - Vector3::new(2.0, 3.0, -1.0)).norm() < 1e-14
    );
    let e = |w: &Vector3<f64>| 0.5 * w.dot(&(i * w));
    let l = |w: &Vector3<f64>| (i * w).norm();
    let (e0, l0) = (e(&s0.angular_velocity), l(&s0.angular_velocity));
    let n = (2.0 / h).round() as usize;
    for _ in 0..n {
        mbs.step(h, &mut NoSink).unwrap();
    }
    let s = rigid(&mbs, body.node);
    // closed form
    let t = n as f64 * h;
    let axis = Vector3::new(0.4, 0.1, -0.2).normalize(); // BodyCylinder: the axis is along r
    let (ia, it) = (d.i11, d.i22);
    let r0 = uq(&s0.orientation);
    let l_b = i * s0.angular_velocity;
    let l_w = r0 * l_b;
    let la = axis.dot(&l_b);
    let want = UnitQuaternion::from_scaled_axis(l_w * (t / it))
        * r0
        * UnitQuaternion::from_scaled_axis(axis * (t * la * (1.0 / ia - 1.0 / it)));
    (
        ((e(&s.angular_velocity) - e0) / e0).abs(),
        ((l(&s.angular_velocity) - l0) / l0).abs(),
        uq(&s.orientation).angle_to(&want),
    )
}

#[test]
fn hollow_cylinder_spinning_about_an_oblique_axis_keeps_energy_and_l() {
    // A symmetric body: the midpoint's rate update is then a Cayley rotation of the transverse
    // rate, so energy and |L| are kept to round-off (better than order 2); the orientation
    // follows the closed-form precession with order 2.
    let dts = [0.004, 0.002, 0.001, 0.0005];
    let errs: Vec<(f64, f64, f64)> = dts.iter().map(|h| cylinder_spin_errors(*h)).collect();
    println!("hollow cylinder (energy, |L|, orientation rad): {errs:?}");
    for (de, dl, _) in &errs {
        assert!(*de < 1e-13 && *dl < 1e-13, "{de} {dl}");
    }
    let so = slope(&dts, &errs.iter().map(|e| e.2).collect::<Vec<_>>());
    println!("hollow cylinder: orientation order {so:.3}");
    assert!((1.9..2.1).contains(&so), "orientation order {so}");
}

#[test]
fn asymmetric_body_keeps_energy_and_l_to_second_order() {
    // An asymmetric body (moments 1, 2, 3) spinning near its unstable middle axis: energy and
    // |L| are not invariants of the discrete step, their errors fall at order 2.
    let mp = MassProperties::new(
        1.0,
        Vector3::new(0.1, 0.0, -0.1),
        Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)),
    )
    .unwrap();
    let mut spec = RigidBodySpec::at(Vector3::zeros());
    spec.angular_velocity = Vector3::new(0.1, 2.0, 0.1);
    let i = mp.inertia;
    let dts = [0.02, 0.01, 0.005, 0.0025];
    let mut errs = vec![];
    for h in dts {
        let mut mbs = HostSystem::<f64>::new();
        let b = mbs.create_rigid_body(&mp, &spec).unwrap();
        mbs.assemble().unwrap();
        let w0 = rigid(&mbs, b.node).angular_velocity;
        for _ in 0..(5.0 / h) as usize {
            mbs.step(h, &mut NoSink).unwrap();
        }
        let w = rigid(&mbs, b.node).angular_velocity;
        let e = |w: &Vector3<f64>| 0.5 * w.dot(&(i * w));
        errs.push((
            ((e(&w) - e(&w0)) / e(&w0)).abs(),
            (((i * w).norm() - (i * w0).norm()) / (i * w0).norm()).abs(),
        ));
    }
    let se = slope(&dts, &errs.iter().map(|e| e.0).collect::<Vec<_>>());
    let sl = slope(&dts, &errs.iter().map(|e| e.1).collect::<Vec<_>>());
    println!("asymmetric body: energy order {se:.3}, |L| order {sl:.3}, {errs:?}");
    assert!(
        (1.8..2.2).contains(&se) && (1.8..2.2).contains(&sl),
        "{se} {sl}"
    );
}

/// A free body (asymmetric inertia, COM offset) through the system with held loads and the
/// midpoint scheme, against the midpoint step called directly: the same numbers, bit for bit.
#[test]
fn held_loads_with_the_midpoint_scheme_is_the_midpoint_step_bit_for_bit() {
    let c = Vector3::new(0.05, -0.1, 0.02);
    let rb = RigidBody::from_principal(1.5, [0.1, 0.2, 0.27], c).unwrap();
    let mp = MassProperties::new(1.5, c, *rb.inertia()).unwrap();
    let mut spec = RigidBodySpec::at(Vector3::new(0.5, -1.0, 2.0));
    spec.orientation = Quaternion::exp(&Vector3::new(-0.4, 0.1, 0.8));
    spec.velocity = Vector3::new(0.3, 0.0, -0.2);
    spec.angular_velocity = Vector3::new(1.0, 6.0, 0.5);
    // a second body with gravity, COM at the reference point
    let rb2 = RigidBody::from_principal(0.7, [0.01, 0.02, 0.025], Vector3::zeros()).unwrap();
    let mp2 = MassProperties::new(0.7, Vector3::zeros(), *rb2.inertia()).unwrap();
    let mut spec2 = RigidBodySpec::at(Vector3::new(0.0, 3.0, 0.0));
    spec2.angular_velocity = Vector3::new(-2.0, 0.5, 9.0);
    spec2.gravity = Some(G);
    for settings in [
        SystemSettings::default()
            .with_scheme(SystemScheme::HeldLoads)
            .with_rigid(RigidScheme::Midpoint),
        SystemSettings::default().with_rigid(RigidScheme::Midpoint),
    ] {
        let held = settings.scheme == SystemScheme::HeldLoads;
        let mut mbs = HostSystem::<f64>::new();
        mbs.set_settings(settings).unwrap();
        let a = mbs.create_rigid_body(&mp, &spec).unwrap();
        let b = mbs.create_rigid_body(&mp2, &spec2).unwrap();
        mbs.assemble().unwrap();
        let mut sa = rigid(&mbs, a.node);
        let mut sb = rigid(&mbs, b.node);
        let plain = LinearlyImplicitMidpoint::default();
        let body_a = rb;
        let loads_b = RigidLoads::none().with_force(G * 0.7);
        for k in 0..2000 {
            mbs.step(1e-3, &mut NoSink).unwrap();
            plain
                .step(&body_a, &RigidLoads::none(), &mut sa, 1e-3)
                .unwrap();
            let ga = rigid(&mbs, a.node);
            if held {
                assert_eq!(ga, sa, "step {k}");
                plain.step(&rb2, &loads_b, &mut sb, 1e-3).unwrap();
                assert_eq!(rigid(&mbs, b.node), sb, "step {k}");
            } else {
                // kick-drift-kick of a free body is the scheme's torque-free step (the
                // accelerations differ: instantaneous at the end, not step means)
                assert_eq!(
                    (
                        ga.position,
                        ga.orientation,
                        ga.velocity,
                        ga.angular_velocity
                    ),
                    (
                        sa.position,
                        sa.orientation,
                        sa.velocity,
                        sa.angular_velocity
                    ),
                    "step {k}"
                );
            }
        }
    }
}

#[test]
fn body_fixed_and_world_torques_spin_up_as_the_closed_forms_say() {
    // Body-fixed torque about a principal axis, w along it: w = tau t / I3, angle tau t^2/(2 I3)
    // (kick-drift-kick is exact here: no gyroscopic torque, constant acceleration).
    let mp = MassProperties::new(
        1.0,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(0.2, 0.3, 0.4)),
    )
    .unwrap();
    let q0 = Quaternion::exp(&Vector3::new(0.7, 0.0, 0.0));
    let mut spec = RigidBodySpec::at(Vector3::zeros());
    spec.orientation = q0;
    let mut mbs = HostSystem::<f64>::new();
    let a = mbs.create_rigid_body(&mp, &spec).unwrap();
    let ma = mbs
        .add_marker(Marker::body_rigid(a.object, Vector3::new(0.3, 0.0, 0.0)).unwrap())
        .unwrap();
    mbs.add_load(Load::torque(ma, Vector3::new(0.0, 0.0, 0.8), true).unwrap())
        .unwrap();
    // World torque on a body with isotropic inertia: w_0 = tau t / I.
    let iso = MassProperties::new(
        2.0,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(0.5, 0.5, 0.5)),
    )
    .unwrap();
    let mut spec_b = RigidBodySpec::at(Vector3::new(1.0, 0.0, 0.0));
    spec_b.orientation = Quaternion::exp(&Vector3::new(0.3, -1.1, 0.4));
    let b = mbs.create_rigid_body(&iso, &spec_b).unwrap();
    let mb = mbs
        .add_marker(Marker::body_rigid(b.object, Vector3::zeros()).unwrap())
        .unwrap();
    let tau_w = Vector3::new(0.1, -0.2, 0.3);
    mbs.add_load(Load::torque(mb, tau_w, false).unwrap())
        .unwrap();
    mbs.assemble().unwrap();
    let sim = SimulationSettings {
        end_time: 2.0,
        number_of_steps: 400,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    mbs.solve_dynamic(&sim, &mut NoSink).unwrap();
    let t = 2.0;
    let sa = rigid(&mbs, a.node);
    assert!((sa.angular_velocity - Vector3::new(0.0, 0.0, 0.8 * t / 0.4)).norm() < 1e-12);
    let turned = uq(&q0).inverse() * uq(&sa.orientation);
    let want = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.8 * t * t / (2.0 * 0.4));
    assert!(turned.angle_to(&want) < 1e-12, "{}", turned.angle_to(&want));
    let wb = v3(mbs
        .object_output(
            b.object,
            OutputVariableType::AngularVelocity,
            &Vector3::zeros(),
        )
        .unwrap());
    assert!((wb - tau_w * (t / 0.5)).norm() < 1e-12, "{wb}");
}

// ---- a rigid body on an off-centre spring: the coupled scheme's order against RK4 ----

const MASS: f64 = 1.5;
const K_SPRING: f64 = 200.0;
const D_SPRING: f64 = 1.0;
const L_SPRING: f64 = 0.5;

fn inertia() -> Matrix3<f64> {
    Matrix3::from_diagonal(&Vector3::new(0.05, 0.08, 0.1))
}
fn com() -> Vector3<f64> {
    Vector3::new(0.05, 0.0, 0.0)
}
fn attach() -> Vector3<f64> {
    Vector3::new(0.2, 0.1, 0.0)
}
fn anchor() -> Vector3<f64> {
    Vector3::new(0.0, 0.8, 0.0)
}

/// A spring's stiffness (N/m) and rest length (m).
type Spring = (f64, f64);

/// State (r_com, v_com, q (R_0b), w_b) of the independent reference.
type Y = (
    Vector3<f64>,
    Vector3<f64>,
    UnitQuaternion<f64>,
    Vector3<f64>,
);

fn rhs(y: &Y, (k, l0): Spring) -> (Vector3<f64>, Vector3<f64>, Vector3<f64>, Vector3<f64>) {
    let (r, v, q, w) = y;
    let arm = attach() - com(); // body frame, from the COM
    let x = r + q * arm;
    let xv = v + q * w.cross(&arm);
    let d = x - anchor();
    let l = d.norm();
    let n = d / l;
    let f = -n * (k * (l - l0) + D_SPRING * n.dot(&xv)) + G * MASS;
    let f_spring_b = q.inverse() * (f - G * MASS);
    let i = inertia();
    let tau = arm.cross(&f_spring_b);
    let wd = i.try_inverse().unwrap() * (tau - w.cross(&(i * w)));
    (*v, f / MASS, *w, wd) // q' = q (0, w/2), integrated by the rate
}

fn rk4(y: &Y, h: f64, k: Spring) -> Y {
    let add = |y: &Y, k: &(Vector3<f64>, Vector3<f64>, Vector3<f64>, Vector3<f64>), s: f64| -> Y {
        let q = y.2 * UnitQuaternion::from_scaled_axis(k.2 * s);
        (y.0 + k.0 * s, y.1 + k.1 * s, q, y.3 + k.3 * s)
    };
    // RK4 on the quaternion via its derivative q' = 1/2 q (0, w): treat the quaternion as a
    // 4-vector, renormalize at the end (a reference at a tiny step).
    let qd = |q: &UnitQuaternion<f64>, w: &Vector3<f64>| {
        q.quaternion() * nalgebra::Quaternion::from_parts(0.0, *w) * 0.5
    };
    let k1 = rhs(y, k);
    let k1q = qd(&y.2, &y.3);
    let y2 = add(y, &k1, h / 2.0);
    let k2 = rhs(&y2, k);
    let k2q = qd(&y2.2, &y2.3);
    let y3 = add(y, &k2, h / 2.0);
    let k3 = rhs(&y3, k);
    let k3q = qd(&y3.2, &y3.3);
    let y4 = add(y, &k3, h);
    let k4 = rhs(&y4, k);
    let k4q = qd(&y4.2, &y4.3);
    let c = |a: Vector3<f64>, b: Vector3<f64>, c: Vector3<f64>, d: Vector3<f64>| {
        (a + b * 2.0 + c * 2.0 + d) * (h / 6.0)
    };
    let q = y.2.quaternion() + (k1q + k2q * 2.0 + k3q * 2.0 + k4q) * (h / 6.0);
    (
        y.0 + c(k1.0, k2.0, k3.0, k4.0),
        y.1 + c(k1.1, k2.1, k3.1, k4.1),
        UnitQuaternion::from_quaternion(q),
        y.3 + c(k1.3, k2.3, k3.3, k4.3),
    )
}

fn initial() -> (Vector3<f64>, Quaternion<f64>, Vector3<f64>, Vector3<f64>) {
    // reference point, orientation, reference-point velocity, world rate
    (
        Vector3::new(0.1, 0.0, 0.05),
        Quaternion::exp(&Vector3::new(0.1, 0.3, -0.2)),
        Vector3::new(0.2, 0.1, 0.4),
        Vector3::new(0.5, -1.0, 2.0),
    )
}

/// The reference at `t` for `spring`, RK4 at 1e-5 s.
fn reference(t: f64, spring: Spring) -> Y {
    let (r, q, v, w0) = initial();
    let q = uq(&q);
    let rc = q * com();
    let mut y: Y = (r + rc, v + w0.cross(&rc), q, q.inverse() * w0);
    let h = 1e-5;
    for _ in 0..(t / h).round() as usize {
        y = rk4(&y, h, spring);
    }
    y
}

/// The body on `spring` to the ground anchor, with gravity, assembled with `settings`; its
/// node and object.
fn spring_system(settings: SystemSettings<f64>, (k, l0): Spring) -> (HostSystem<f64>, CreatedBody) {
    let (r, q, v, w0) = initial();
    let mp = MassProperties::new(MASS, com(), inertia()).unwrap();
    let mut spec = RigidBodySpec::at(r);
    spec.orientation = q;
    spec.velocity = v;
    spec.angular_velocity = w0;
    spec.gravity = Some(G);
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(settings).unwrap();
    let ground = mbs.create_ground(anchor()).unwrap();
    let body = mbs.create_rigid_body(&mp, &spec).unwrap();
    let m0 = mbs
        .add_marker(Marker::body_position(ground, Vector3::zeros()).unwrap())
        .unwrap();
    let m1 = mbs
        .add_marker(Marker::body_rigid(body.object, attach()).unwrap())
        .unwrap();
    mbs.add_connector(Connector::SpringDamper(
        SpringDamper::new([m0, m1], k, D_SPRING, l0, 0.0).unwrap(),
    ))
    .unwrap();
    mbs.assemble().unwrap();
    (mbs, body)
}

/// (COM position error m, orientation error rad, rate error rad/s) of `mbs`'s `body` against
/// `reference`.
fn errors_of(mbs: &HostSystem<f64>, body: &CreatedBody, reference: &Y) -> [f64; 3] {
    let s = rigid(mbs, body.node);
    let r_com = v3(mbs
        .object_output(body.object, OutputVariableType::Position, &com())
        .unwrap());
    [
        (r_com - reference.0).norm(),
        uq(&s.orientation).angle_to(&reference.2),
        (s.angular_velocity - reference.3).norm(),
    ]
}

/// (COM position error m, orientation error rad, rate error rad/s) at t with step h.
fn system_errors(settings: SystemSettings<f64>, h: f64, t: f64, reference: &Y) -> [f64; 3] {
    let (mut mbs, body) = spring_system(settings, (K_SPRING, L_SPRING));
    let sim = SimulationSettings {
        end_time: t,
        number_of_steps: (t / h).round() as u32,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    mbs.solve_dynamic(&sim, &mut NoSink).unwrap();
    errors_of(&mbs, &body, reference)
}

/// A stiff spring-damper (2e5 N/m: `k beta' / m` about 0.04 at 1 ms, the factor by which a
/// Newton matrix without the spring's Jacobian reduces the residual per update) on an
/// off-centre point of a 3D rigid body in the generalized-alpha scheme, started at its rest
/// length: the connector's Jacobian with respect to the Euler parameters and their rates is in
/// the Newton matrix, so Newton converges quadratically in at most 2 updates a step, and the
/// motion converges to the RK4 reference with order 2.
#[test]
fn a_stiff_spring_on_a_rigid_body_keeps_newton_quadratic_and_order_two() {
    let (r, q, _, _) = initial();
    let l0 = (r + uq(&q) * attach() - anchor()).norm();
    let (spring, t) = ((2e5, l0), 0.1);
    let reference = reference(t, spring);
    // Newton at every step size; the order over the last four (omega h 0.18 .. 0.023).
    let dts = [1e-3, 5e-4, 2.5e-4, 1.25e-4, 6.25e-5];
    let (mut worst_iterations, mut worst_ratio) = (0u32, 0.0f64);
    let mut errs = Vec::new();
    for h in dts {
        let settings = SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha);
        let (mut mbs, body) = spring_system(settings, spring);
        for _ in 0..(t / h).round() as usize {
            let r = mbs.step(h, &mut NoSink).unwrap();
            worst_iterations = worst_iterations.max(r.newton_iterations);
            let nr = mbs.newton_report().unwrap();
            for w in nr.residual_history[..nr.history_len as usize].windows(2) {
                if w[0] > 1e-6 && w[1] > 1e-11 {
                    worst_ratio = worst_ratio.max(w[1] / (w[0] * w[0]));
                }
            }
        }
        errs.push(errors_of(&mbs, &body, &reference));
    }
    let orders: Vec<f64> = (0..3)
        .map(|i| {
            slope(
                &dts[1..],
                &errs[1..].iter().map(|e| e[i]).collect::<Vec<_>>(),
            )
        })
        .collect();
    println!(
        "stiff spring on a rigid body: orders {orders:.3?}, errors {errs:?}, at most {worst_iterations} Newton updates a step, max r_k+1 / r_k^2 {worst_ratio:.2e}"
    );
    for o in &orders {
        assert!((1.85..2.2).contains(o), "orders {orders:?} {errs:?}");
    }
    assert!(worst_iterations <= 2, "{worst_iterations}");
    assert!(worst_ratio < 1e2, "{worst_ratio}");
}

#[test]
fn rigid_body_on_an_off_centre_spring_damper_is_second_order() {
    let t = 1.0;
    let reference = reference(t, (K_SPRING, L_SPRING));
    let dts = [0.01, 0.005, 0.0025, 0.00125];
    for (settings, lo, hi, name) in [
        (
            SystemSettings::default(),
            1.85,
            2.2,
            "kick-drift-kick, mean-rate midpoint",
        ),
        (
            SystemSettings::default().with_rigid(RigidScheme::Midpoint),
            0.7,
            1.4,
            "kick-drift-kick, default midpoint (orientation by the end rate)",
        ),
        (
            SystemSettings::default().with_scheme(SystemScheme::HeldLoads),
            0.7,
            1.4,
            "held loads",
        ),
        (
            SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha),
            1.85,
            2.2,
            "generalized-alpha, Euler parameters",
        ),
    ] {
        let errs: Vec<[f64; 3]> = dts
            .iter()
            .map(|h| system_errors(settings, *h, t, &reference))
            .collect();
        let orders: Vec<f64> = (0..3)
            .map(|k| slope(&dts, &errs.iter().map(|e| e[k]).collect::<Vec<_>>()))
            .collect();
        println!("{name}: orders (COM, orientation, rate) {orders:.3?}, errors {errs:?}");
        for o in &orders {
            assert!((lo..hi).contains(o), "{name}: orders {orders:?}");
        }
    }
}
