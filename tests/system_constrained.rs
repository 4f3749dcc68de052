//! Constraints in a system: the slider-crank of Exudyn's `SliderCrank.py` and the pendulum of
//! `pendulum2Dconstraint.py` built from nodes, bodies, markers, loads and constraints and
//! stepped by the system's generalized-alpha scheme. The slider-crank is checked against the
//! same mechanism written by hand as one constrained model (`firmware/rust/src/slider_crank.rs`,
//! itself checked against a minimal-coordinate reference in `constrained_slider_crank.rs`);
//! the pendulum against its closed forms (energy, the rod's tension); the real-time mode against
//! the iterated steps and the loop closure. Then every refusal.

mod constrained_support;

use constrained_support::slider_crank::{self, SliderCrank};
use mbs_core::bodies::{MassPoint2D, ObjectGround, RigidBody2D};
use mbs_core::integrators::constrained::{Assembly, ConstrainedAlpha, Workspace};
use mbs_core::nodes::{NodePoint2D, NodeRigidBody2D};
use mbs_core::solver::{DynamicSolverType, SimulationSettings};
use mbs_core::system::{
    AlphaSettings, Constraint, ConstraintIndex, ItemRef, Load, Marker, MarkerIndex, NoSink, Node,
    NodeIndex, NodeState, Object, Sensor, SliceSink, System, SystemScheme, SystemSettings,
};
use mbs_core::{Error, OutputValue, OutputVariableType, Param};
use nalgebra::{Vector2, Vector3};

/// Nodes, objects, markers, loads, connectors, sensors, graphics, constraints, solver capacity.
type Sys = System<f64, 8, 8, 16, 8, 4, 4, 0, 8, 24>;

const TORQUE: f64 = 10.0;

fn alpha_settings() -> SystemSettings<f64> {
    SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha)
}

fn vec3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("not a vector: {other:?}"),
    }
}

/// The slider-crank as Exudyn's example builds it (`slider_crank::add_to_system`).
fn slider_crank(settings: SystemSettings<f64>) -> (Sys, [NodeIndex; 3]) {
    let mut s = Sys::new();
    s.set_settings(settings).unwrap();
    let nodes = slider_crank::add_to_system(&mut s, TORQUE).unwrap();
    (s, nodes)
}

/// The system's slider-crank follows the hand-written model of the same mechanism to
/// round-off: the same equations, the same solver.
#[test]
fn the_slider_crank_of_items_is_the_hand_written_model() {
    let (mut sys, nodes) = slider_crank(alpha_settings());
    sys.assemble().unwrap();
    let model = SliderCrank { torque: TORQUE };
    let solver = ConstrainedAlpha::new(0.9).unwrap();
    let mut work = Workspace::<f64, 24>::default();
    let q0 = slider_crank::start_coordinates::<f64>();
    let mut s = solver
        .initial_state(&model, 0.0, &q0, &[0.0; 8], Assembly::default(), &mut work)
        .unwrap();
    let h = 1e-3;
    let (mut worst, mut iterations) = (0.0f64, 0u32);
    for _ in 0..1000 {
        let r = sys.step(h, &mut NoSink).unwrap();
        assert!(r.newton_iterations <= 6, "{r:?}");
        iterations += r.newton_iterations;
        solver.step(&model, &mut s, &mut work, h).unwrap();
        let mine = slider_crank_coordinates(&sys, nodes);
        for (x, y) in mine.iter().zip(&s.q) {
            worst = worst.max((x - y).abs());
        }
        let NodeState::RigidBody2D(c) = *sys.node_state(nodes[0]).unwrap() else {
            panic!()
        };
        assert!((c.q_t.z - s.v[2]).abs() < 1e-9 * (1.0 + s.v[2].abs()));
    }
    eprintln!("1000 steps: max |q_system - q_model| = {worst:.2e}, {iterations} Newton iterations");
    assert!((500..=4000).contains(&iterations), "{iterations}");
    assert!(worst < 1e-12, "{worst}");
    assert!((sys.time() - 1.0).abs() < 1e-12);
    // The reaction of the ground joint: its multipliers are the model's.
    let f = vec3(
        sys.constraint_output(ConstraintIndex(0), OutputVariableType::Force)
            .unwrap(),
    );
    assert!(
        (f.x - s.lambda[0]).abs() < 1e-8 * (1.0 + s.lambda[0].abs()),
        "{f} {:?}",
        &s.lambda[..2]
    );
    // The residuals as the markers see them: zero to the Newton tolerance.
    for k in 0..4 {
        let c = vec3(
            sys.constraint_output(ConstraintIndex(k), OutputVariableType::ConstraintResidual)
                .unwrap(),
        );
        assert!(c.norm() < 1e-10, "{k}: {c}");
    }
}

/// New generalized-alpha settings (another spectral radius, real-time mode) set on an
/// assembled system take effect at its next step, without a new assembly: its steps are then
/// bit for bit those of a system built with them, and not those of the old settings.
#[test]
fn new_settings_take_effect_at_the_next_step() {
    let with = |rho: f64, k: u32| {
        let mut s = alpha_settings();
        s.alpha.spectral_radius = rho;
        s.alpha.real_time_updates = k;
        s
    };
    let run = |sys: &mut Sys, nodes| {
        for _ in 0..50 {
            sys.step(1e-3, &mut NoSink).unwrap();
        }
        slider_crank_coordinates(sys, nodes).map(f64::to_bits)
    };
    let (mut fresh, nodes) = slider_crank(with(0.5, 1));
    fresh.assemble().unwrap();
    let want = run(&mut fresh, nodes);
    let (mut old, nodes) = slider_crank(with(0.9, 0));
    old.assemble().unwrap();
    let (mut changed, _) = slider_crank(with(0.9, 0));
    changed.assemble().unwrap();
    changed.set_settings(with(0.5, 1)).unwrap();
    assert!(changed.is_assembled());
    assert_eq!(run(&mut changed, nodes), want);
    assert_ne!(run(&mut old, nodes), want);
}

/// The slider-crank's coordinates (absolute, as the hand-written model's) from its nodes.
fn slider_crank_coordinates(sys: &Sys, [crank, rod, slider]: [NodeIndex; 3]) -> [f64; 8] {
    let q0 = slider_crank::start_coordinates::<f64>();
    let NodeState::RigidBody2D(c) = *sys.node_state(crank).unwrap() else {
        panic!()
    };
    let NodeState::RigidBody2D(r) = *sys.node_state(rod).unwrap() else {
        panic!()
    };
    let NodeState::Point2D(p) = *sys.node_state(slider).unwrap() else {
        panic!()
    };
    let q = [c.q.x, c.q.y, c.q.z, r.q.x, r.q.y, r.q.z, p.q.x, p.q.y];
    core::array::from_fn(|i| q[i] + q0[i])
}

/// Real-time mode (at most `k` Newton updates a step, the iterate after the last one taken
/// without evaluating it) on the slider-crank:
/// - at Exudyn's step (0.1 ms), where iterating to the tolerances converges within one update
///   at every step, one update a step gives the same bits at every step over 1 s;
/// - at 25 ms, where iterating takes a second update at some steps, no step makes more than
///   `k`; the slider sits where the loop closure puts it for the crank angle to a residual that
///   falls with `k` (one update: a few micrometres), and the crank angle at 1 s is the iterated
///   one to a hundredth of the scheme's error there (against a run at 1 ms);
/// - with tolerances no iteration can meet, iterating is refused (`NewtonNotConverged`) while
///   the real-time step takes its `k` updates and says so (`history_len == k`);
/// - more real-time updates than `max_iterations` is refused, the settings unchanged, and so is
///   a run (`solve_dynamic`) whose Newton settings allow fewer, the system unchanged.
#[test]
fn real_time_mode_bounds_the_updates_and_keeps_the_iterated_bits_where_one_converges() {
    let with = |k: u32| {
        let mut s = alpha_settings();
        s.alpha.real_time_updates = k;
        s
    };
    let (mut a, nodes) = slider_crank(alpha_settings());
    let (mut b, _) = slider_crank(with(1));
    a.assemble().unwrap();
    b.assemble().unwrap();
    for step in 0..10_000 {
        let ra = a.step(1e-4, &mut NoSink).unwrap();
        let rb = b.step(1e-4, &mut NoSink).unwrap();
        assert!(ra.newton_iterations <= 1, "step {step}: {ra:?}");
        assert_eq!(ra.newton_iterations, rb.newton_iterations);
        let (qa, qb) = (
            slider_crank_coordinates(&a, nodes),
            slider_crank_coordinates(&b, nodes),
        );
        assert!(
            qa.iter().zip(&qb).all(|(x, y)| x.to_bits() == y.to_bits()),
            "step {step}: {qa:?} {qb:?}"
        );
    }
    // Steps of h over 1 s: the most updates of a step, the largest |x - x(phi)| (m) and phi.
    let run = |settings: SystemSettings<f64>, h: f64| {
        let (mut s, nodes) = slider_crank(settings);
        s.assemble().unwrap();
        let (mut most, mut closure) = (0u32, 0.0f64);
        for _ in 0..(1.0 / h).round() as usize {
            let r = s.step(h, &mut NoSink).unwrap();
            most = most.max(r.newton_iterations);
            let q = slider_crank_coordinates(&s, nodes);
            closure = closure.max((q[6] - constrained_support::loop_closure(q[2]).1).abs());
        }
        (most, closure, slider_crank_coordinates(&s, nodes)[2])
    };
    let (_, _, phi_fine) = run(alpha_settings(), 1e-3);
    let (most, closure, phi) = run(alpha_settings(), 2.5e-2);
    let scheme_error = (phi - phi_fine).abs();
    eprintln!(
        "25 ms, iterated: most updates {most}, |x - x(phi)| {closure:.1e}, phi {phi} \
         (scheme's error {scheme_error:.1e} rad)"
    );
    assert!(most >= 2, "{most}");
    let mut last = f64::INFINITY;
    for k in [1, 2] {
        let (most_k, closure_k, phi_k) = run(with(k), 2.5e-2);
        eprintln!("25 ms, real-time k = {k}: |x - x(phi)| {closure_k:.1e}, phi {phi_k}");
        assert_eq!(most_k, k);
        assert!(closure_k < last.min(1e-5), "{closure_k}");
        assert!((phi_k - phi).abs() <= 0.01 * scheme_error, "{phi_k} {phi}");
        last = closure_k;
    }
    // Tolerances that no iterate meets, on a step from a moving state (from the straight
    // start an iterate can close the loop exactly, and an update at round-off then ends the
    // iteration as stagnated).
    let impossible = |k: u32| {
        let (mut sys, _) = slider_crank(with(k));
        sys.assemble().unwrap();
        for _ in 0..10 {
            sys.step(1e-3, &mut NoSink).unwrap();
        }
        let mut s = with(k);
        s.alpha.newton.relative_tolerance = 0.0;
        s.alpha.newton.absolute_tolerance = 0.0;
        s.alpha.newton.max_iterations = 3;
        sys.set_settings(s).unwrap();
        let r = sys.step(1e-3, &mut NoSink);
        (sys, r)
    };
    assert_eq!(
        impossible(0).1.unwrap_err().error,
        Error::NewtonNotConverged
    );
    let (mut sys, r) = impossible(3);
    assert_eq!(r.unwrap().newton_iterations, 3);
    let report = sys.newton_report().unwrap();
    assert_eq!((report.newton_iterations, report.history_len), (3, 3));
    // At most max_iterations.
    let before = *sys.settings();
    let mut bad = before;
    bad.alpha.real_time_updates = 4;
    assert_eq!(
        sys.set_settings(bad).unwrap_err(),
        Error::OutOfRange(Param::Setting)
    );
    assert_eq!(*sys.settings(), before);
    // A run whose Newton settings allow fewer updates than the system's real-time mode takes:
    // refused at its start, the system as it was.
    let (mut sys, _) = slider_crank(with(2));
    sys.assemble().unwrap();
    let run = SimulationSettings {
        newton: mbs_core::solver::NewtonSettings {
            max_iterations: 1,
            ..Default::default()
        },
        ..Default::default()
    };
    let copy = sys.clone();
    let e = sys.solve_dynamic(&run, &mut NoSink).unwrap_err();
    assert_eq!(
        (e.error, e.item),
        (Error::OutOfRange(Param::Setting), ItemRef::System)
    );
    assert!(sys == copy);
}

/// The pendulum of `pendulum2Dconstraint.py`: a mass point on a distance constraint to the
/// ground under gravity (Exudyn: L = 1, m = 2? here L = 0.8, m = 1.5, started horizontal).
fn pendulum(settings: SystemSettings<f64>) -> (Sys, NodeIndex) {
    let mut s = Sys::new();
    s.set_settings(settings).unwrap();
    let ground = s
        .add_object(Object::Ground(ObjectGround::new(Vector3::zeros()).unwrap()))
        .unwrap();
    let node = s
        .add_node(Node::Point2D(
            NodePoint2D::at(Vector2::new(0.8, 0.0)).unwrap(),
        ))
        .unwrap();
    let body = s
        .add_object(Object::mass_point_2d(node, 1.5).unwrap())
        .unwrap();
    let m0 = s
        .add_marker(Marker::body_position(ground, Vector3::zeros()).unwrap())
        .unwrap();
    let m1 = s.add_marker(Marker::node_position(node)).unwrap();
    s.add_constraint(Constraint::distance([m0, m1], 0.8).unwrap())
        .unwrap();
    let mass = s.add_marker(Marker::body_mass(body)).unwrap();
    s.add_load(Load::mass_proportional(mass, Vector3::new(0.0, -9.81, 0.0)).unwrap())
        .unwrap();
    (s, node)
}

/// The rod's tension from the multiplier against the closed form `m (v^2/L + g cos)` at every
/// step, the energy bounded, the length held; the sensors record force and residual.
#[test]
fn the_pendulums_tension_is_the_multiplier() {
    let (mut sys, node) = pendulum(alpha_settings());
    sys.add_sensor(Sensor::Constraint {
        constraint: ConstraintIndex(0),
        variable: OutputVariableType::Force,
    })
    .unwrap();
    sys.add_sensor(Sensor::Constraint {
        constraint: ConstraintIndex(0),
        variable: OutputVariableType::ConstraintResidual,
    })
    .unwrap();
    sys.assemble().unwrap();
    let mut buf = vec![0.0; 7 * 2001];
    let mut sink = SliceSink::new(&mut buf, sys.sensor_row_len());
    let h = 1e-3;
    let (mut worst_t, mut worst_e) = (0.0f64, 0.0f64);
    for _ in 0..2000 {
        sys.step(h, &mut sink).unwrap();
        let NodeState::Point2D(p) = *sys.node_state(node).unwrap() else {
            panic!()
        };
        let r = Vector2::new(0.8, 0.0) + p.q;
        let (l, v2) = (r.norm(), p.q_t.norm_squared());
        // tension (N, pulling the point to the origin): m (v^2 / L - g . r / L)
        let tension = 1.5 * (v2 / l - 9.81 * r.y / l);
        let lambda = vec3(
            sys.constraint_output(ConstraintIndex(0), OutputVariableType::Force)
                .unwrap(),
        )
        .x;
        // C = |r| - L: C_q^T lambda = (r/L) lambda on the left side, so lambda = tension
        worst_t = worst_t.max((lambda - tension).abs());
        let energy = 0.5 * 1.5 * v2 + 1.5 * 9.81 * r.y;
        worst_e = worst_e.max(energy.abs());
    }
    eprintln!("2000 steps: max |lambda - tension| {worst_t:.2e} N, max |E - E0| {worst_e:.2e} J");
    assert!(worst_t < 2e-2, "{worst_t}");
    assert!(worst_e < 1e-2, "{worst_e}");
    assert_eq!(sink.rows(), 2000);
    // The recorded rows: [t, force (3), residual (3)].
    let last = &buf[1999 * 7..2000 * 7];
    assert!((last[0] - 2.0).abs() < 1e-12);
    assert!(last[4].abs() < 1e-10 && last[2] == 0.0 && last[3] == 0.0);
}

/// `solve_dynamic` with `SystemScheme` on a system whose own scheme is generalized-alpha
/// starts from the initial state with consistent start values, whatever the system did
/// before: after 300 steps it takes the bits of the same run on a fresh system, and of 500
/// steps of `System::step` after a reset.
#[test]
fn a_solve_with_the_systems_scheme_starts_from_the_initial_state() {
    let sim = SimulationSettings {
        end_time: 0.5,
        number_of_steps: 500,
        solver_type: DynamicSolverType::SystemScheme,
        ..Default::default()
    };
    let bits = |sys: &Sys, node| {
        let NodeState::Point2D(p) = *sys.node_state(node).unwrap() else {
            panic!()
        };
        [p.q.x, p.q.y, p.q_t.x, p.q_t.y].map(f64::to_bits)
    };
    let (mut fresh, node) = pendulum(alpha_settings());
    fresh.assemble().unwrap();
    fresh.solve_dynamic(&sim, &mut NoSink).unwrap();
    let (mut used, _) = pendulum(alpha_settings());
    used.assemble().unwrap();
    for _ in 0..300 {
        used.step(1e-3, &mut NoSink).unwrap();
    }
    used.solve_dynamic(&sim, &mut NoSink).unwrap();
    assert_eq!(bits(&used, node), bits(&fresh, node));
    used.reset();
    for _ in 0..500 {
        used.step(1e-3, &mut NoSink).unwrap();
    }
    assert_eq!(bits(&used, node), bits(&fresh, node));
}

/// `solve_dynamic` runs generalized-alpha with the simulation's spectral radius and Newton
/// settings; `SystemScheme` runs the system's own scheme, which refuses constraints.
#[test]
fn solve_dynamic_runs_the_scheme_its_settings_name() {
    let (mut sys, node) = pendulum(alpha_settings());
    sys.assemble().unwrap();
    let sim = SimulationSettings {
        end_time: 0.5,
        number_of_steps: 500,
        ..Default::default()
    };
    let report = sys.solve_dynamic(&sim, &mut NoSink).unwrap();
    assert_eq!(report.steps, 500);
    let after_solve = *sys.node_state(node).unwrap();
    // The same by steps.
    sys.reset();
    for _ in 0..500 {
        sys.step(1e-3, &mut NoSink).unwrap();
    }
    let NodeState::Point2D(a) = after_solve else {
        panic!()
    };
    let NodeState::Point2D(b) = *sys.node_state(node).unwrap() else {
        panic!()
    };
    assert!((a.q - b.q).norm() < 1e-12, "{} {}", a.q, b.q);
    // SystemScheme with the kick-drift-kick scheme cannot even be assembled.
    let (mut kdk, _) = pendulum(SystemSettings::default());
    assert_eq!(
        kdk.assemble().map_err(|e| (e.error, e.item)),
        Err((
            Error::NotSupportedByScheme,
            ItemRef::Constraint(ConstraintIndex(0))
        ))
    );
    let sim_kdk = SimulationSettings {
        solver_type: DynamicSolverType::SystemScheme,
        ..sim
    };
    // Without the constraint (a falling point) both schemes give the free fall parabola.
    let mut free = Sys::new();
    let n = free
        .add_node(Node::Point2D(NodePoint2D::at(Vector2::zeros()).unwrap()))
        .unwrap();
    let b = free
        .add_object(Object::mass_point_2d(n, 2.0).unwrap())
        .unwrap();
    let m = free.add_marker(Marker::body_mass(b)).unwrap();
    free.add_load(Load::mass_proportional(m, Vector3::new(0.0, -9.81, 0.0)).unwrap())
        .unwrap();
    free.assemble().unwrap();
    for s in [sim, sim_kdk] {
        free.solve_dynamic(&s, &mut NoSink).unwrap();
        let NodeState::Point2D(p) = *free.node_state(n).unwrap() else {
            panic!()
        };
        assert!(
            (p.q.y + 0.5 * 9.81 * 0.25).abs() < 1e-9,
            "{:?}: {}",
            s.solver_type,
            p.q.y
        );
    }
}

/// Each bad input is a clear status and changes nothing.
#[test]
fn bad_input_is_refused() {
    // A joint between a marker and itself.
    assert_eq!(
        Constraint::<f64>::revolute_2d([MarkerIndex(1), MarkerIndex(1)]),
        Err(Error::SameMarker)
    );
    let (mut sys, node) = pendulum(alpha_settings());
    // A marker of the wrong kind; an unknown marker.
    assert_eq!(
        sys.add_constraint(Constraint::revolute_2d([MarkerIndex(0), MarkerIndex(2)]).unwrap()),
        Err(Error::MarkerNotSupported)
    );
    assert_eq!(
        sys.add_constraint(Constraint::revolute_2d([MarkerIndex(0), MarkerIndex(9)]).unwrap()),
        Err(Error::UnknownIndex)
    );
    assert_eq!(sys.constraint_count(), 1);
    // Redundant constraints: the same distance twice is singular, named at assemble.
    let mut twice = sys.clone();
    twice
        .add_constraint(Constraint::distance([MarkerIndex(0), MarkerIndex(1)], 0.8).unwrap())
        .unwrap();
    // the second copy is the first constraint that makes the set singular: it is named
    assert_eq!(
        twice.assemble().map_err(|e| (e.error, e.item)),
        Err((
            Error::SingularMatrix,
            ItemRef::Constraint(ConstraintIndex(1))
        ))
    );
    // Initial positions that violate the constraint: refused, or projected on request.
    let (mut bad, _) = pendulum(alpha_settings());
    let moved = NodeState::Point2D(mbs_core::nodes::Point2DState {
        q: Vector2::new(0.05, 0.0),
        q_t: Vector2::zeros(),
        q_tt: Vector2::zeros(),
    });
    bad.set_node_state(node, moved).unwrap();
    let before = bad.clone();
    assert_eq!(
        bad.assemble().map_err(|e| e.error),
        Err(Error::ConstraintViolated)
    );
    assert_eq!(bad, before);
    let mut settings = alpha_settings();
    settings.alpha.assembly.solve = true;
    bad.set_settings(settings).unwrap();
    bad.assemble().unwrap();
    let NodeState::Point2D(p) = *bad.node_state(node).unwrap() else {
        panic!()
    };
    assert!(((Vector2::new(0.8, 0.0) + p.q).norm() - 0.8).abs() < 1e-10);
    // NaN in the new settings.
    let mut nan = alpha_settings();
    nan.alpha.spectral_radius = f64::NAN;
    assert_eq!(sys.set_settings(nan), Err(Error::NotFinite(Param::Setting)));
    // Capacity: constraints and the solver's.
    let mut full = System::<f64, 4, 4, 8, 4, 2, 2, 0, 1, 8>::new();
    full.set_settings(alpha_settings()).unwrap();
    let g = full
        .add_object(Object::Ground(ObjectGround::new(Vector3::zeros()).unwrap()))
        .unwrap();
    let n = full
        .add_node(Node::Point2D(NodePoint2D::at(Vector2::x()).unwrap()))
        .unwrap();
    full.add_object(Object::mass_point_2d(n, 1.0).unwrap())
        .unwrap();
    let a = full
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let b = full.add_marker(Marker::node_position(n)).unwrap();
    full.add_constraint(Constraint::distance([a, b], 1.0).unwrap())
        .unwrap();
    assert_eq!(
        full.add_constraint(Constraint::distance([a, b], 1.0).unwrap()),
        Err(Error::CapacityFull)
    );
    let mut small = System::<f64, 4, 4, 8, 4, 2, 2, 0, 1, 2>::new();
    small.set_settings(alpha_settings()).unwrap();
    let n = small
        .add_node(Node::Point2D(NodePoint2D::at(Vector2::x()).unwrap()))
        .unwrap();
    small
        .add_object(Object::mass_point_2d(n, 1.0).unwrap())
        .unwrap();
    let g = small
        .add_object(Object::Ground(ObjectGround::new(Vector3::zeros()).unwrap()))
        .unwrap();
    let a = small
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let b = small.add_marker(Marker::node_position(n)).unwrap();
    small
        .add_constraint(Constraint::distance([a, b], 1.0).unwrap())
        .unwrap();
    assert_eq!(
        small.assemble().map_err(|e| (e.error, e.item)),
        Err((Error::CapacityFull, ItemRef::System))
    );
    // A planar constraint on a 3D rigid body (stepped by generalized-alpha in Euler
    // parameters, but not joined by the planar constraints).
    let mut rigid = Sys::new();
    rigid.set_settings(alpha_settings()).unwrap();
    let mass = mbs_core::inertia::MassProperties::new(
        1.0,
        Vector3::zeros(),
        nalgebra::Matrix3::identity(),
    )
    .unwrap();
    let body = rigid
        .create_rigid_body(&mass, &mbs_core::system::RigidBodySpec::at(Vector3::x()))
        .unwrap();
    let g = rigid
        .add_object(Object::Ground(ObjectGround::new(Vector3::zeros()).unwrap()))
        .unwrap();
    let a = rigid
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let b = rigid
        .add_marker(Marker::body_position(body.object, Vector3::zeros()).unwrap())
        .unwrap();
    rigid
        .add_constraint(Constraint::revolute_2d([a, b]).unwrap())
        .unwrap();
    assert_eq!(
        rigid.assemble().map_err(|e| (e.error, e.item)),
        Err((
            Error::MarkerNotSupported,
            ItemRef::Constraint(ConstraintIndex(0))
        ))
    );
    let _ = AlphaSettings::<f64>::default();
    let _ = MassPoint2D::new(1.0).unwrap();
}

/// A free 2D rigid body with an offset centre of mass, spinning and falling, in the explicit
/// scheme: the centre of mass follows the parabola and the angle grows linearly, exactly.
#[test]
fn a_free_2d_rigid_body_in_kick_drift_kick_is_exact() {
    let mut sys = Sys::new();
    let n = sys
        .add_node(Node::RigidBody2D(
            NodeRigidBody2D::new(
                Vector3::new(1.0, 2.0, 0.3),
                Vector3::zeros(),
                Vector3::new(0.5, 1.0, 7.0),
            )
            .unwrap(),
        ))
        .unwrap();
    let c = Vector2::new(0.2, -0.1);
    let body = RigidBody2D::new(3.0, 0.2, c).unwrap();
    let o = sys
        .add_object(Object::RigidBody2D { node: n, body })
        .unwrap();
    let m = sys.add_marker(Marker::body_mass(o)).unwrap();
    sys.add_load(Load::mass_proportional(m, Vector3::new(0.0, -9.81, 0.0)).unwrap())
        .unwrap();
    sys.assemble().unwrap();
    let com = |sys: &Sys| {
        vec3(
            sys.object_output(
                o,
                OutputVariableType::Position,
                &Vector3::new(c.x, c.y, 0.0),
            )
            .unwrap(),
        )
    };
    let (p0, v0) = {
        let v = vec3(
            sys.object_output(
                o,
                OutputVariableType::Velocity,
                &Vector3::new(c.x, c.y, 0.0),
            )
            .unwrap(),
        );
        (com(&sys), v)
    };
    for _ in 0..100 {
        sys.step(0.01, &mut NoSink).unwrap();
    }
    let t = 1.0;
    let want = p0 + v0 * t + Vector3::new(0.0, -9.81, 0.0) * (0.5 * t * t);
    // The mass marker's point is the centre of mass, not the node's point.
    let marker_p = vec3(sys.marker_output(m, OutputVariableType::Position).unwrap());
    assert_eq!(marker_p, com(&sys));
    assert!((com(&sys) - want).norm() < 1e-12, "{} {}", com(&sys), want);
    let NodeState::RigidBody2D(s) = *sys.node_state(n).unwrap() else {
        panic!()
    };
    assert!((s.q.z - 7.0).abs() < 1e-12 && (s.q_t.z - 7.0).abs() < 1e-15);
    // Exudyn's node outputs Coordinates, Coordinates_t, Coordinates_tt: the state itself.
    for (var, want) in [
        (OutputVariableType::Coordinates, s.q),
        (OutputVariableType::CoordinatesT, s.q_t),
        (OutputVariableType::CoordinatesTT, s.q_tt),
    ] {
        assert_eq!(vec3(sys.node_output(n, var).unwrap()), want);
    }
}

/// A bar pinned to the ground by a revolute joint at its node, its centre of mass off the node
/// (so the centrifugal force and the weight's torque depend on the angle), pulled by a stiff
/// spring-damper from its tip to a ground point: the connector's Jacobians are forward
/// differences, the rest analytic. Against the bar's one-coordinate equation
/// `J theta'' = tau_gravity + tau_spring` (converged RK4): order 2 as the step halves; Newton
/// needs at most 4 iterations per step and converges quadratically.
#[test]
fn a_spring_on_a_pinned_bar_converges_with_order_two_and_newton_stays_quadratic() {
    use mbs_core::system::{Connector, SpringDamper};
    let (m, i_c, c) = (2.0, 0.05, Vector2::new(0.3, 0.05));
    let tip = Vector2::new(0.6, 0.0);
    let anchor = Vector2::new(0.5, -0.4);
    let (k, d, l0) = (2000.0, 5.0, 0.3);
    let g = 9.81;
    // The one-coordinate reference: the pivot at the origin, the node's angle theta.
    let rot = |th: f64, p: Vector2<f64>| {
        let (s, co) = th.sin_cos();
        Vector2::new(co * p.x - s * p.y, s * p.x + co * p.y)
    };
    let cross = |a: Vector2<f64>, b: Vector2<f64>| a.x * b.y - a.y * b.x;
    let j_pivot = i_c + m * c.norm_squared();
    let acc = |th: f64, w: f64| {
        let rp = rot(th, tip);
        let vp = Vector2::new(-rp.y, rp.x) * w;
        let delta = anchor - rp;
        let l = delta.norm();
        let n = delta / l;
        let f = k * (l - l0) + d * n.dot(&(-vp));
        let tau = cross(rp, n * f) + cross(rot(th, c), Vector2::new(0.0, -m * g));
        tau / j_pivot
    };
    let t_end = 0.4f64;
    let reference = constrained_support::rk4_second_order(acc, 0.0, 1e-6, t_end).0;
    // (omega h up to 0.11 at the largest step: a spring of 2000 N/m on a 0.6 m lever)
    let steps = [2e-3f64, 1e-3, 5e-4, 2.5e-4];
    let mut errors = Vec::new();
    let (mut worst_iterations, mut worst_ratio) = (0u32, 0.0f64);
    for h in steps {
        let mut s = Sys::new();
        s.set_settings(alpha_settings()).unwrap();
        let ground = s
            .add_object(Object::Ground(ObjectGround::new(Vector3::zeros()).unwrap()))
            .unwrap();
        let node = s
            .add_node(Node::RigidBody2D(
                NodeRigidBody2D::at(Vector3::zeros()).unwrap(),
            ))
            .unwrap();
        let body = RigidBody2D::new(m, i_c, c).unwrap();
        let bar = s.add_object(Object::RigidBody2D { node, body }).unwrap();
        let pin_g = s
            .add_marker(Marker::body_position(ground, Vector3::zeros()).unwrap())
            .unwrap();
        let pin_b = s
            .add_marker(Marker::body_position(bar, Vector3::zeros()).unwrap())
            .unwrap();
        s.add_constraint(Constraint::revolute_2d([pin_g, pin_b]).unwrap())
            .unwrap();
        let m_tip = s
            .add_marker(Marker::body_position(bar, Vector3::new(tip.x, tip.y, 0.0)).unwrap())
            .unwrap();
        let m_anchor = s
            .add_marker(
                Marker::body_position(ground, Vector3::new(anchor.x, anchor.y, 0.0)).unwrap(),
            )
            .unwrap();
        s.add_connector(Connector::SpringDamper(
            SpringDamper::new([m_tip, m_anchor], k, d, l0, 0.0).unwrap(),
        ))
        .unwrap();
        let mass = s.add_marker(Marker::body_mass(bar)).unwrap();
        s.add_load(Load::mass_proportional(mass, Vector3::new(0.0, -g, 0.0)).unwrap())
            .unwrap();
        s.assemble().unwrap();
        for _ in 0..(t_end / h).round() as usize {
            let r = s.step(h, &mut NoSink).unwrap();
            worst_iterations = worst_iterations.max(r.newton_iterations);
            let nr = s.newton_report().unwrap();
            let hist = &nr.residual_history[..nr.history_len as usize];
            for w in hist.windows(2) {
                if w[0] > 1e-8 && w[1] > 1e-13 {
                    worst_ratio = worst_ratio.max(w[1] / (w[0] * w[0]));
                }
            }
        }
        let NodeState::RigidBody2D(st) = *s.node_state(node).unwrap() else {
            panic!()
        };
        errors.push((st.q.z - reference).abs());
    }
    let slope = constrained_support::order(&steps, &errors);
    eprintln!(
        "pinned bar with a spring: errors {errors:?}, order {slope:.3}, at most {worst_iterations} Newton iterations, max r_k+1 / r_k^2 {worst_ratio:.2e}"
    );
    assert!((1.85..2.15).contains(&slope), "{slope} {errors:?}");
    assert!(worst_iterations <= 4, "{worst_iterations}");
    assert!(worst_ratio < 1e2, "{worst_ratio}");
}
