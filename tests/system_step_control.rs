//! The step as a real-time loop sees it: the rotation-per-step warning comes back as a status
//! (not an error) and sub-stepping removes it; an f32 system steps; a stiff spring below the
//! explicit stability limit keeps its energy with kick-drift-kick, where held loads blow up.

mod system_support;

use mbs_core::inertia::MassProperties;
use mbs_core::integrators::{StepSettings, StepStatus};
use mbs_core::nodes::NodePoint2D;
use mbs_core::system::{
    Connector, FirmwareSystem, HostSystem, Marker, MassPointSpec, NoSink, Node, Object,
    RigidBodySpec, SpringDamper, SystemScheme, SystemSettings,
};
use nalgebra::{Matrix3, Vector2, Vector3};
use system_support::point;

fn spinning(settings: SystemSettings<f64>) -> HostSystem<f64> {
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(settings).unwrap();
    let mp = MassProperties::new(
        1.0,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)),
    )
    .unwrap();
    let mut spec = RigidBodySpec::at(Vector3::zeros());
    spec.angular_velocity = Vector3::new(0.5, 20.0, 0.5); // |w| ~ 20 rad/s
    mbs.create_rigid_body(&mp, &spec).unwrap();
    mbs.assemble().unwrap();
    mbs
}

#[test]
fn step_too_large_is_a_warning_status_and_substepping_resolves_it() {
    // |w| dt = 20 * 0.05 = 1 rad > 0.5 rad: a warning, the step is taken
    let mut mbs = spinning(SystemSettings::default());
    let t0 = mbs.time();
    let r = mbs.step(0.05, &mut NoSink).unwrap();
    assert_eq!(r.status, StepStatus::StepTooLarge);
    assert_eq!(r.substeps, 1);
    assert!(mbs.time() > t0);
    // with sub-stepping: ceil(1 / 0.5) = 2 or more sub-steps, no warning
    let mut mbs =
        spinning(SystemSettings::default().with_step(StepSettings::default().with_substep(true)));
    let r = mbs.step(0.05, &mut NoSink).unwrap();
    assert_eq!(r.status, StepStatus::Ok);
    assert!(r.substeps >= 2, "{r:?}");
    // a small step: no warning, one sub-step
    let mut mbs = spinning(SystemSettings::default());
    let r = mbs.step(0.01, &mut NoSink).unwrap();
    assert_eq!(
        (r.status, r.substeps, r.force_evaluations),
        (StepStatus::Ok, 1, 2)
    );
}

#[test]
fn an_f32_firmware_system_runs_the_mini_example_and_a_spring() {
    let mut mbs = FirmwareSystem::<f32>::new();
    let node = mbs
        .add_node(Node::Point2D(
            NodePoint2D::new(
                Vector2::new(1.0, 1.0),
                Vector2::new(0.5, 0.0),
                Vector2::new(0.5, 0.0),
            )
            .unwrap(),
        ))
        .unwrap();
    mbs.add_object(Object::mass_point_2d(node, 1.0).unwrap())
        .unwrap();
    mbs.assemble().unwrap();
    // FirmwareSystem has no generalized-alpha capacity (W = 0): its own scheme
    let sim = mbs_core::solver::SimulationSettings {
        solver_type: mbs_core::solver::DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    assert_eq!(
        mbs.solve_dynamic(&Default::default(), &mut NoSink)
            .map_err(|e| e.error),
        Err(mbs_core::Error::CapacityFull)
    );
    mbs.solve_dynamic(&sim, &mut NoSink).unwrap();
    match mbs.node_state(node).unwrap() {
        mbs_core::system::NodeState::Point2D(s) => {
            assert!((1.0 + s.q.x - 2.0).abs() < 1e-6, "{}", 1.0 + s.q.x)
        }
        other => panic!("{other:?}"),
    }
    // a spring to the ground: period 2 pi sqrt(m/k) = 1 s, back at the start after 1 s
    let mut mbs = FirmwareSystem::<f32>::new();
    let g = mbs.create_ground(Vector3::zeros()).unwrap();
    let mut spec = MassPointSpec::new(1.0, Vector2::new(1.0, 0.0));
    spec.initial_displacement = Vector2::new(0.1, 0.0);
    let p = mbs.create_mass_point(&spec).unwrap();
    let a = mbs
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let b = mbs.add_marker(Marker::node_position(p.node)).unwrap();
    let k = 4.0 * core::f32::consts::PI * core::f32::consts::PI;
    mbs.add_connector(Connector::SpringDamper(
        SpringDamper::new([a, b], k, 0.0, 1.0, 0.0).unwrap(),
    ))
    .unwrap();
    mbs.assemble().unwrap();
    for _ in 0..1000 {
        mbs.step(1e-3, &mut NoSink).unwrap();
    }
    match mbs.node_state(p.node).unwrap() {
        mbs_core::system::NodeState::Point2D(s) => {
            assert!((s.q.x - 0.1).abs() < 1e-4, "{}", s.q.x)
        }
        other => panic!("{other:?}"),
    }
}

/// Max relative energy deviation of a mass on a stiff spring to the ground over 200 steps at
/// `h w = hw`.
fn stiff_energy(scheme: SystemScheme, hw: f64) -> f64 {
    let (m, k): (f64, f64) = (1.0, 1.0e6);
    let h = hw / (k / m).sqrt();
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(SystemSettings::default().with_scheme(scheme))
        .unwrap();
    let g = mbs.create_ground(Vector3::zeros()).unwrap();
    let mut spec = MassPointSpec::new(m, Vector2::new(1.0, 0.0));
    spec.initial_displacement = Vector2::new(0.01, 0.0);
    let p = mbs.create_mass_point(&spec).unwrap();
    let a = mbs
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let b = mbs.add_marker(Marker::node_position(p.node)).unwrap();
    mbs.add_connector(Connector::SpringDamper(
        SpringDamper::new([a, b], k, 0.0, 1.0, 0.0).unwrap(),
    ))
    .unwrap();
    mbs.assemble().unwrap();
    let e = |mbs: &HostSystem<f64>| {
        let s = point(mbs, p.node);
        0.5 * m * s.q_t.norm_squared() + 0.5 * k * s.q.x * s.q.x
    };
    let e0 = e(&mbs);
    let mut dev: f64 = 0.0;
    for _ in 0..200 {
        mbs.step(h, &mut NoSink).unwrap();
        dev = dev.max(((e(&mbs) - e0) / e0).abs());
    }
    dev
}

#[test]
fn stiff_spring_below_the_stability_limit_keeps_its_energy() {
    // Verlet on a linear spring: the discrete energy oscillates by about (h w)^2 / 4 for
    // h w < 2 and never grows; held loads (explicit in the spring) gain energy every step.
    let kdk = stiff_energy(SystemScheme::KickDriftKick, 0.5);
    let held = stiff_energy(SystemScheme::HeldLoads, 0.5);
    println!("stiff spring at h w = 0.5: kick-drift-kick {kdk:.3e}, held loads {held:.3e}");
    // independent reference: Stormer-Verlet's energy error bound (h w)^2 / 4 (reached at the
    // turning points)
    assert!((kdk / (0.5f64 * 0.5 / 4.0) - 1.0).abs() < 0.01, "{kdk}");
    assert!(held > 1e3, "{held}");
    let kdk_near_limit = stiff_energy(SystemScheme::KickDriftKick, 1.9);
    println!("kick-drift-kick at h w = 1.9: {kdk_near_limit:.3e}");
    assert!((kdk_near_limit / (1.9f64 * 1.9 / 4.0) - 1.0).abs() < 0.01);
}

/// One time, whichever way a run is stepped: 10^7 steps of 1e-4 s by `step` end at 1000 s to a
/// rounding (a compensated sum of the steps; a plain running sum drifts), and the
/// same run by `solve_dynamic` (`t_0 + i h`) ends at the same time.
#[test]
fn ten_million_steps_end_at_n_h() {
    let mut mbs = FirmwareSystem::<f64>::new();
    let node = mbs
        .add_node(Node::Point2D(
            NodePoint2D::new(Vector2::zeros(), Vector2::zeros(), Vector2::new(1e-3, 0.0)).unwrap(),
        ))
        .unwrap();
    mbs.add_object(Object::mass_point_2d(node, 1.0).unwrap())
        .unwrap();
    mbs.assemble().unwrap();
    let (h, n) = (1e-4f64, 10_000_000u32);
    let mut naive = 0.0f64;
    for _ in 0..n {
        mbs.step(h, &mut NoSink).unwrap();
        naive += h;
    }
    let exact = h * f64::from(n);
    let ulp = exact * f64::EPSILON;
    eprintln!(
        "10^7 steps: time - n h = {:.2e} s (plain sum {:.2e} s)",
        mbs.time() - exact,
        naive - exact
    );
    assert!((mbs.time() - exact).abs() <= 2.0 * ulp, "{}", mbs.time());
    assert!(
        (naive - exact).abs() > 1e3 * ulp,
        "the plain sum drifts: {naive}"
    );
}
