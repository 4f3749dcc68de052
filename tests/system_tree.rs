//! A kinematic tree as an item of a system (Exudyn's `ObjectKinematicTree`), against
//! independent references:
//! - under gravity alone, the system's generalized-alpha run follows the tree's own RK4 run at a
//!   tiny step (the reference), the error shrinking with order 2 as the step halves; the
//!   accelerations it reports are the tree's ABA at the new state;
//! - gravity as mass-proportional loads on the link bodies gives the run of the tree's own
//!   gravity (the loads reach the joints through the link Jacobians);
//! - a spring from a link point to the ground: the total energy (tree plus spring) is conserved
//!   with error order 2 at `rho_inf = 1`;
//! - the links' node states, outputs, markers, sensors and drawn boxes are the tree's forward
//!   kinematics; the system in f32 follows the f64 one;
//! - a four-bar linkage as a three-link tree closed by a joint of the system (a planar revolute
//!   joint: `GenericJoint` holding x and y) follows its closed-form kinematics to the Newton
//!   tolerance, and the joint's residual stays there;
//! - `reset` and `set_tree_state`; bad input refused with its status and nothing changed.

mod constrained_support;
mod four_bar_support;

use constrained_support::order;
use mbs_core::inertia::Cuboid;
use mbs_core::integrators::constrained::Formulation;
use mbs_core::system::{
    Connector, Constraint, ItemRef, Load, Marker, NoSink, Node, Object, SpringDamper, System,
    SystemScheme, SystemSettings,
};
use mbs_core::tree::{Joint, KinematicTree, Transform, TreeData, TreeScheme, TreeStepSettings};
use mbs_core::{Error, OutputValue, OutputVariableType, Param};
use nalgebra::{Matrix3, Vector3};

type Tree = KinematicTree<f64, 8, 8>;
/// 16 nodes, objects; 32 markers; 16 loads; 8 connectors, sensors; 4 constraints; a
/// generalized-alpha workspace of 40; a tree of up to 8 links.
type Sys = System<f64, 16, 16, 32, 16, 8, 8, 0, 4, 40, 8>;

const G: Vector3<f64> = Vector3::new(0.0, -9.81, 0.0);
const Q0: [f64; 3] = [0.4, -0.3, 0.6];
const V0: [f64; 3] = [0.5, 0.0, -0.8];

/// Three aluminium bars of 0.5 m on revolute joints whose axes are not world axes, each joint
/// at the end of the previous bar.
fn chain(gravity: Vector3<f64>) -> Tree {
    let mut t = KinematicTree::new(gravity).unwrap();
    let axes = [
        Vector3::new(0.0, 0.0, 1.0),
        Vector3::new(0.3, 0.1, 1.0),
        Vector3::new(1.0, 0.2, 0.4),
    ];
    for (i, axis) in axes.iter().enumerate() {
        let placement = Transform::new(
            Matrix3::identity(),
            Vector3::new(if i == 0 { 0.0 } else { 0.5 }, 0.0, 0.0),
        );
        let mp = Cuboid::new(Vector3::new(0.5, 0.05, 0.05))
            .density(2700.0)
            .center(Vector3::new(0.25, 0.0, 0.0))
            .mass_properties()
            .unwrap();
        t.add_link(
            if i == 0 { None } else { Some(i - 1) },
            Joint::revolute(*axis).unwrap(),
            placement,
            &mp,
        )
        .unwrap();
    }
    t
}

fn alpha(rho: f64) -> SystemSettings<f64> {
    let mut s = SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha);
    s.alpha.spectral_radius = rho;
    if rho == 1.0 {
        s.alpha.formulation = Formulation::StabilizedIndex2;
    }
    s
}

/// A system holding `tree` at `Q0`, `V0`.
fn system(tree: &Tree, rho: f64) -> Box<Sys> {
    let mut sys = Box::new(Sys::new());
    sys.set_settings(alpha(rho)).unwrap();
    sys.add_kinematic_tree(tree, &Q0, &V0).unwrap();
    sys
}

fn run(sys: &mut Sys, h: f64, t_end: f64) {
    sys.assemble().unwrap();
    let n = (t_end / h).round() as usize;
    for _ in 1..=n {
        sys.step(h, &mut NoSink).unwrap();
    }
}

fn tree_q(sys: &Sys) -> Vec<f64> {
    sys.tree_state().unwrap().0.to_vec()
}

/// The tree's own run with RK4 at `h`.
fn reference(tree: &Tree, h: f64, t_end: f64) -> ([f64; 3], [f64; 3]) {
    let (mut q, mut v) = (Q0, V0);
    let mut d = TreeData::new();
    let s = TreeStepSettings::with_scheme(TreeScheme::RungeKutta4);
    for _ in 0..(t_end / h).round() as usize {
        tree.step(&mut d, &mut q, &mut v, &[0.0; 3], h, &s).unwrap();
    }
    (q, v)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

#[test]
fn the_system_follows_the_trees_own_run_with_order_2() {
    let tree = chain(G);
    let (q_ref, _) = reference(&tree, 1e-4, 1.0);
    let steps = [4e-3, 2e-3, 1e-3];
    let mut errors = vec![];
    for h in steps {
        let mut sys = system(&tree, 0.9);
        run(&mut sys, h, 1.0);
        errors.push(max_diff(&tree_q(&sys), &q_ref));
    }
    let p = order(&steps, &errors);
    println!("errors {errors:?}, order {p:.3}");
    assert!((p - 2.0).abs() < 0.2, "order {p}");
    assert!(errors[2] < 1e-3);

    // The accelerations of the last step are the tree's forward dynamics at the new state (to
    // the Newton tolerance, made tight here).
    let mut sys = system(&tree, 0.9);
    let mut s = alpha(0.9);
    s.alpha.newton.relative_tolerance = 1e-13;
    sys.set_settings(s).unwrap();
    run(&mut sys, 1e-3, 0.1);
    let (q, v, a) = sys.tree_state().unwrap();
    let mut aba = [0.0; 3];
    tree.aba(&mut TreeData::new(), q, v, &[0.0; 3], &mut aba)
        .unwrap();
    assert!(max_diff(a, &aba) < 1e-9, "{a:?} vs {aba:?}");
}

#[test]
fn gravity_as_mass_loads_on_the_links_is_the_trees_gravity() {
    let own = {
        let mut sys = system(&chain(G), 0.9);
        run(&mut sys, 2e-3, 0.5);
        tree_q(&sys)
    };
    let mut sys = system(&chain(Vector3::zeros()), 0.9);
    for k in 0..3 {
        let o = sys.tree_link_object(k).unwrap();
        let m = sys.add_marker(Marker::body_mass(o)).unwrap();
        sys.add_load(Load::mass_proportional(m, G).unwrap())
            .unwrap();
    }
    run(&mut sys, 2e-3, 0.5);
    let d = max_diff(&tree_q(&sys), &own);
    println!("difference {d:e}");
    assert!(d < 1e-9, "{d}");
}

#[test]
fn a_spring_from_a_link_to_the_ground_conserves_the_total_energy_with_order_2() {
    let tree = chain(G);
    let (k, l0) = (400.0, 0.3);
    let tip = Vector3::new(0.5, 0.0, 0.0);
    let anchor = Vector3::new(1.2, 0.4, 0.3);
    let energy = |sys: &Sys| {
        let (q, v, _) = sys.tree_state().unwrap();
        let mut d = TreeData::new();
        tree.forward_kinematics(&mut d, q, Some(v)).unwrap();
        let x = d.link_pose(2).unwrap().point_to_parent(&tip);
        let stretch = (x - anchor).norm() - l0;
        tree.kinetic_energy(&d) + tree.potential_energy(&d, q) + 0.5 * k * stretch * stretch
    };
    let steps: [f64; 3] = [2e-3, 1e-3, 5e-4];
    let mut errors = vec![];
    for h in steps {
        let mut sys = system(&tree, 1.0);
        let ground = sys.create_ground(Vector3::zeros()).unwrap();
        let m0 = sys
            .add_marker(Marker::body_position(ground, anchor).unwrap())
            .unwrap();
        let link = sys.tree_link_object(2).unwrap();
        let m1 = sys
            .add_marker(Marker::body_position(link, tip).unwrap())
            .unwrap();
        sys.add_connector(Connector::SpringDamper(
            SpringDamper::new([m0, m1], k, 0.0, l0, 0.0).unwrap(),
        ))
        .unwrap();
        sys.assemble().unwrap();
        let e0 = energy(&sys);
        let mut worst = 0.0f64;
        for _ in 1..=(1.0 / h).round() as usize {
            sys.step(h, &mut NoSink).unwrap();
            worst = worst.max((energy(&sys) - e0).abs());
        }
        errors.push(worst / e0.abs());
    }
    let p = order(&steps, &errors);
    println!("relative energy errors {errors:?}, order {p:.3}");
    assert!((p - 2.0).abs() < 0.25, "order {p}");
    assert!(errors[2] < 1e-3);
}

#[test]
fn the_links_are_bodies_at_the_trees_forward_kinematics() {
    let tree = chain(G);
    let mut sys = system(&tree, 0.9);
    let link = sys.tree_link_object(1).unwrap();
    let p = Vector3::new(0.3, 0.02, -0.01);
    let marker = sys
        .add_marker(Marker::body_rigid(link, p).unwrap())
        .unwrap();
    run(&mut sys, 2e-3, 0.2);
    let (q, v, _) = sys.tree_state().unwrap();
    let mut d = TreeData::new();
    tree.forward_kinematics(&mut d, q, Some(v)).unwrap();
    let x = d.link_pose(1).unwrap();
    let mut jac = [0.0; 18];
    tree.point_jacobian(&d, 1, &p, &mut jac).unwrap();
    let rate = |r: usize| (0..3).map(|c| jac[r * 3 + c] * v[c]).sum::<f64>();
    let vec = |o: OutputValue<f64>| match o {
        OutputValue::Vector3(x) => x,
        _ => panic!("not a vector"),
    };
    let pos = vec(sys
        .marker_output(marker, OutputVariableType::Position)
        .unwrap());
    let vel = vec(sys
        .marker_output(marker, OutputVariableType::Velocity)
        .unwrap());
    let w = vec(sys
        .object_output(link, OutputVariableType::AngularVelocity, &Vector3::zeros())
        .unwrap());
    assert!((pos - x.point_to_parent(&p)).norm() < 1e-14);
    assert!((vel - Vector3::new(rate(3), rate(4), rate(5))).norm() < 1e-13);
    assert!((w - Vector3::new(rate(0), rate(1), rate(2))).norm() < 1e-13);
    match sys
        .object_output(link, OutputVariableType::RotationMatrix, &Vector3::zeros())
        .unwrap()
    {
        OutputValue::Matrix3(r) => assert!((r - x.rotation).norm() < 1e-14),
        _ => panic!("not a matrix"),
    }
}

#[test]
fn reset_and_set_tree_state_move_the_tree_and_its_links() {
    let tree = chain(G);
    let mut sys = system(&tree, 0.9);
    let start = sys.clone();
    run(&mut sys, 2e-3, 0.1);
    assert!(max_diff(&tree_q(&sys), &Q0) > 1e-3);
    sys.reset();
    assert_eq!(tree_q(&sys), Q0.to_vec());
    let node = |s: &Sys| *s.node_state(mbs_core::system::NodeIndex(2)).unwrap();
    assert_eq!(node(&sys), node(&start));
    sys.set_tree_state(&[0.0; 3], &[0.0; 3]).unwrap();
    match node(&sys) {
        mbs_core::system::NodeState::RigidBody(s) => {
            assert!((s.position - Vector3::new(1.0, 0.0, 0.0)).norm() < 1e-15)
        }
        _ => panic!("a link's state is a rigid state"),
    }
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let tree = chain(G);
    let mut sys = system(&tree, 0.9);
    let before = sys.clone();
    // A second tree: one per system.
    assert_eq!(
        sys.add_kinematic_tree(&tree, &Q0, &V0),
        Err(Error::CapacityFull)
    );
    // NaN and wrong lengths.
    let mut empty = Box::new(Sys::new());
    let fresh = empty.clone();
    assert_eq!(
        empty.add_kinematic_tree(&tree, &[f64::NAN, 0.0, 0.0], &V0),
        Err(Error::NotFinite(Param::Position))
    );
    assert_eq!(
        empty.add_kinematic_tree(&tree, &Q0, &[0.0; 2]),
        Err(Error::OutOfRange(Param::Coordinate))
    );
    // A quaternion joint cannot join the system's coordinates.
    let mut ball = tree.clone();
    ball.add_link(
        Some(2),
        Joint::Spherical,
        Transform::identity(),
        &tree.links()[0].mass_properties,
    )
    .unwrap();
    let mut q4 = vec![0.0; 7];
    q4[3] = 1.0;
    assert_eq!(
        empty.add_kinematic_tree(&ball, &q4, &[0.0; 6]),
        Err(Error::NotSupportedByScheme)
    );
    // More links than the system's tree capacity.
    let mut small = Box::new(System::<f64, 16, 16, 32, 16, 8, 8, 0, 4, 40, 2>::new());
    assert_eq!(
        small.add_kinematic_tree(&tree, &Q0, &V0),
        Err(Error::CapacityFull)
    );
    // No room for the links' nodes.
    let mut tight = Box::new(System::<f64, 2, 16, 32, 16, 8, 8, 0, 4, 40, 8>::new());
    assert_eq!(
        tight.add_kinematic_tree(&tree, &Q0, &V0),
        Err(Error::CapacityFull)
    );
    assert!(*empty == *fresh && tight.counts()[0] == 0 && small.counts()[0] == 0);
    // A link's node follows the tree; its object is the tree's.
    let link = sys.tree_link_object(0).unwrap();
    let Object::TreeLink { node, .. } = *sys.object(link).unwrap() else {
        panic!("a tree link")
    };
    assert!(matches!(sys.node(node).unwrap(), Node::TreeLink(_)));
    let state = *sys.node_state(node).unwrap();
    assert_eq!(sys.set_node_state(node, state), Err(Error::WrongNodeKind));
    let copy = *sys.object(link).unwrap();
    assert_eq!(sys.add_object(copy), Err(Error::WrongNodeKind));
    assert_eq!(
        sys.set_tree_state(&[0.0; 2], &V0),
        Err(Error::OutOfRange(Param::Coordinate))
    );
    assert_eq!(sys.tree_link_object(3), Err(Error::UnknownIndex));
    assert!(*sys == *before);
    // Only generalized-alpha steps a tree.
    sys.set_settings(SystemSettings::default()).unwrap();
    let e = sys.assemble().unwrap_err();
    assert_eq!(e.error, Error::NotSupportedByScheme);
    assert_eq!(e.item, ItemRef::Object(link));
}

#[test]
fn a_four_bar_of_a_tree_and_a_system_joint_follows_its_closed_form() {
    use four_bar_support::{chain, closed_form, closed_form_rates, wrap, C, D};
    let tree = chain();
    let mut sys = Box::new(Sys::new());
    let mut settings = alpha(0.9);
    settings.alpha.newton.relative_tolerance = 1e-12;
    sys.set_settings(settings).unwrap();
    sys.add_kinematic_tree(&tree, &closed_form(1.0), &closed_form_rates(1.0, 5.0))
        .unwrap();
    let ground = sys.create_ground(Vector3::zeros()).unwrap();
    let pivot = sys
        .add_marker(Marker::body_rigid(ground, Vector3::new(D, 0.0, 0.0)).unwrap())
        .unwrap();
    let rocker = sys.tree_link_object(2).unwrap();
    let tip = sys
        .add_marker(Marker::body_rigid(rocker, Vector3::new(C, 0.0, 0.0)).unwrap())
        .unwrap();
    let joint = sys
        .add_constraint(
            Constraint::generic_joint([pivot, tip], [true, true, false, false, false, false])
                .unwrap(),
        )
        .unwrap();
    sys.assemble().unwrap();
    let loops = [mbs_core::tree::LoopClosure {
        link_a: 2,
        point_a: Vector3::new(C, 0.0, 0.0),
        link_b: None,
        point_b: Vector3::new(D, 0.0, 0.0),
        axes: [true, true, false],
    }];
    let (mut d, mut w) = (
        TreeData::new(),
        mbs_core::tree::LoopWork::<f64, 3, 2>::new(),
    );
    // The start's accelerations (they need the joint's velocity terms through the tree's
    // velocity products) are the tree's constrained accelerations.
    {
        let (q, v, a) = sys.tree_state().unwrap();
        let mut acc = [0.0; 3];
        tree.loop_accelerations(&mut d, &loops, &mut w, q, v, &[0.0; 3], &mut acc)
            .unwrap();
        assert!(max_diff(a, &acc) < 1e-9, "{a:?} vs {acc:?}");
    }
    let h = 1e-3;
    let (mut dev, mut res, mut newton) = (0.0f64, 0.0f64, 0u32);
    for _ in 1..=2000 {
        let r = sys.step(h, &mut NoSink).unwrap();
        newton = newton.max(r.newton_iterations);
        let q = tree_q(&sys);
        let cf = closed_form(q[0]);
        dev = dev
            .max(wrap(q[1] - cf[1]).abs())
            .max(wrap(q[2] - cf[2]).abs());
        let mut d = TreeData::new();
        tree.forward_kinematics(&mut d, &q, None).unwrap();
        let x = d
            .link_pose(2)
            .unwrap()
            .point_to_parent(&Vector3::new(C, 0.0, 0.0));
        res = res.max((x - Vector3::new(D, 0.0, 0.0)).norm());
    }
    let q = tree_q(&sys);
    println!(
        "closed form {dev:.1e} rad, joint residual {res:.1e} m, Newton updates per step <= {newton}, crank {:.3} rad",
        q[0]
    );
    assert!(dev < 1e-8, "{dev}");
    assert!(res < 1e-10, "{res}");
    assert!(newton <= 6, "{newton}");
    // The same motion as the tree's own closed-loop RK4 run (a different integrator and loop
    // formulation), to this step's accuracy.
    let loops = [mbs_core::tree::LoopClosure {
        link_a: 2,
        point_a: Vector3::new(C, 0.0, 0.0),
        link_b: None,
        point_b: Vector3::new(D, 0.0, 0.0),
        axes: [true, true, false],
    }];
    let (mut qr, mut vr) = (closed_form(1.0), closed_form_rates(1.0, 5.0));
    let (mut d, mut w) = (
        TreeData::new(),
        mbs_core::tree::LoopWork::<f64, 3, 2>::new(),
    );
    let ls = mbs_core::tree::LoopSettings::default();
    let rk4 = TreeStepSettings::with_scheme(TreeScheme::RungeKutta4);
    tree.project_loops(&mut d, &loops, &mut w, &mut qr, &mut vr, &ls)
        .unwrap();
    for _ in 0..20000 {
        tree.step_closed(
            &mut d, &loops, &mut w, &mut qr, &mut vr, &[0.0; 3], 1e-4, &rk4, &ls,
        )
        .unwrap();
    }
    let diff = wrap(q[0] - qr[0]).abs();
    println!("crank {:.4} rad, the tree's own run {:.4} rad", q[0], qr[0]);
    assert!(diff < 1e-2, "{diff}");
    // The joint carries load (its reaction output is the multiplier force).
    let reaction = sys
        .constraint_output(joint, OutputVariableType::Force)
        .unwrap();
    match reaction {
        OutputValue::Vector3(f) => assert!(f.norm() > 0.1 && f.iter().all(|x| x.is_finite())),
        _ => panic!("a force"),
    }
}

#[test]
fn a_rigid_body_on_a_spherical_joint_at_a_link_keeps_the_energy_and_the_joint() {
    let steps: [f64; 3] = [1e-3, 5e-4, 2.5e-4];
    let runs: Vec<(f64, f64, u32)> = steps.iter().map(|&h| hanging_block(h)).collect();
    let errors: Vec<f64> = runs.iter().map(|r| r.0).collect();
    let p = order(&steps, &errors);
    println!("relative energy errors {errors:?}, order {p:.2}; (energy, gap, Newton) {runs:?}");
    assert!((p - 2.0).abs() < 0.25, "order {p}");
    for (_, gap, newton) in runs {
        assert!(gap < 1e-10, "{gap}");
        assert!(newton <= 8, "{newton}");
    }
}

/// A steel block on a spherical joint at the chain's tip, run for 1 s at `h` with
/// `rho_inf = 1`: the largest relative energy change, the largest joint gap (m), the most Newton
/// updates of a step.
fn hanging_block(h: f64) -> (f64, f64, u32) {
    use mbs_core::system::RigidBodySpec;
    let tree = chain(G);
    let mut sys = system(&tree, 1.0);
    // A steel block hanging from the last bar's tip, its centre 0.2 m below the joint.
    let block = Cuboid::new(Vector3::new(0.1, 0.2, 0.15))
        .density(7800.0)
        .mass_properties()
        .unwrap();
    let mut d = TreeData::new();
    tree.forward_kinematics(&mut d, &Q0, Some(&V0)).unwrap();
    let tip_local = Vector3::new(0.5, 0.0, 0.0);
    let tip = d.link_pose(2).unwrap().point_to_parent(&tip_local);
    let mut jac = [0.0; 18];
    tree.point_jacobian(&d, 2, &tip_local, &mut jac).unwrap();
    let tip_v = Vector3::from_fn(|r, _| (0..3).map(|c| jac[(r + 3) * 3 + c] * V0[c]).sum());
    let mut spec = RigidBodySpec::at(tip - Vector3::new(0.0, 0.2, 0.0));
    spec.velocity = tip_v;
    spec.gravity = Some(G);
    let body = sys.create_rigid_body(&block, &spec).unwrap();
    let m_body = sys
        .add_marker(Marker::body_rigid(body.object, Vector3::new(0.0, 0.2, 0.0)).unwrap())
        .unwrap();
    let link = sys.tree_link_object(2).unwrap();
    let m_link = sys
        .add_marker(Marker::body_rigid(link, tip_local).unwrap())
        .unwrap();
    sys.add_constraint(Constraint::spherical_joint([m_link, m_body]).unwrap())
        .unwrap();
    sys.assemble().unwrap();
    let energy = |sys: &Sys| {
        let (q, v, _) = sys.tree_state().unwrap();
        let mut d = TreeData::new();
        tree.forward_kinematics(&mut d, q, Some(v)).unwrap();
        let mbs_core::system::NodeState::RigidBody(s) = *sys.node_state(body.node).unwrap() else {
            panic!("a rigid body")
        };
        let Object::RigidBody { body: b, .. } = *sys.object(body.object).unwrap() else {
            panic!("a rigid body")
        };
        tree.kinetic_energy(&d) + tree.potential_energy(&d, q) + b.kinetic_energy(&s)
            - b.mass() * G.dot(&s.position)
    };
    let e0 = energy(&sys);
    let (mut de, mut gap, mut newton) = (0.0f64, 0.0f64, 0u32);
    for _ in 1..=(1.0 / h).round() as usize {
        let r = sys.step(h, &mut NoSink).unwrap();
        newton = newton.max(r.newton_iterations);
        de = de.max((energy(&sys) - e0).abs() / e0.abs());
        let pos = |m| match sys.marker_output(m, OutputVariableType::Position).unwrap() {
            OutputValue::Vector3(x) => x,
            _ => panic!("a vector"),
        };
        gap = gap.max((pos(m_link) - pos(m_body)).norm());
    }
    (de, gap, newton)
}

#[test]
fn the_links_are_drawn_and_sensed_where_the_tree_puts_them() {
    use mbs_core::graphics::{DrawShape, VisualizationSettings};
    use mbs_core::system::{Sensor, SliceSink};
    let tree = chain(G);
    let mut sys = system(&tree, 0.9);
    let link = sys.tree_link_object(2).unwrap();
    let tip = Vector3::new(0.5, 0.0, 0.0);
    sys.add_sensor(Sensor::body(link, tip, OutputVariableType::Position).unwrap())
        .unwrap();
    sys.assemble().unwrap();
    let mut rows = vec![0.0; 4 * 10];
    let mut sink = SliceSink::new(&mut rows, 4);
    for _ in 1..=10 {
        sys.step(1e-3, &mut sink).unwrap();
    }
    let (q, _, _) = sys.tree_state().unwrap();
    let mut d = TreeData::new();
    tree.forward_kinematics(&mut d, q, None).unwrap();
    let last = sink.row(9).unwrap();
    let x = d.link_pose(2).unwrap().point_to_parent(&tip);
    assert_eq!(last[0], 0.01);
    assert!((Vector3::new(last[1], last[2], last[3]) - x).norm() < 1e-14);
    // Each link is drawn as the box of its inertia, centred at its centre of mass (0.25 m along
    // the bar), turned with the link.
    let mut centers = vec![];
    let summary = sys
        .export_scene(&VisualizationSettings::default(), |p| {
            if let DrawShape::Cuboid { center, size, .. } = p.shape {
                centers.push((p.body, center, size));
            }
        })
        .unwrap();
    assert_eq!(summary.bodies_drawn, 3);
    for (k, (body, center, size)) in centers.iter().enumerate() {
        assert_eq!(*body, k);
        let c = d
            .link_pose(k)
            .unwrap()
            .point_to_parent(&Vector3::new(0.25, 0.0, 0.0));
        assert!((center - c).norm() < 1e-12, "{center} vs {c}");
        assert!((size.max() - 0.5).abs() < 1e-9, "{size}");
    }
}

#[test]
fn single_precision_follows_double() {
    let tree = chain(G);
    let mut sys = system(&tree, 0.9);
    run(&mut sys, 2e-3, 0.5);
    let q64 = tree_q(&sys);
    let tree32: KinematicTree<f32, 8, 8> = {
        let mut t = KinematicTree::new(G.cast::<f32>()).unwrap();
        for l in tree.links() {
            let mp = &l.mass_properties;
            let mp32 = mbs_core::inertia::MassProperties::new(
                mp.mass as f32,
                mp.com.cast::<f32>(),
                mp.inertia.cast::<f32>(),
            )
            .unwrap();
            let Joint::Revolute { axis } = l.joint else {
                panic!("revolute")
            };
            let x = Transform::new(l.placement.rotation.cast(), l.placement.translation.cast());
            t.add_link(l.parent, Joint::revolute(axis.cast()).unwrap(), x, &mp32)
                .unwrap();
        }
        t
    };
    let mut sys32 = Box::new(System::<f32, 16, 16, 32, 16, 8, 8, 0, 4, 40, 8>::new());
    let mut s = SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha);
    s.alpha.spectral_radius = 0.9;
    s.alpha.newton.relative_tolerance = 1e-5;
    s.alpha.newton.absolute_tolerance = 1e-5;
    sys32.set_settings(s).unwrap();
    sys32
        .add_kinematic_tree(&tree32, &Q0.map(|x| x as f32), &V0.map(|x| x as f32))
        .unwrap();
    sys32.assemble().unwrap();
    for _ in 1..=250 {
        sys32.step(2e-3, &mut NoSink).unwrap();
    }
    let q32 = sys32.tree_state().unwrap().0;
    let d = q64
        .iter()
        .zip(q32)
        .map(|(a, b)| (a - f64::from(*b)).abs())
        .fold(0.0, f64::max);
    println!("f32 vs f64 after 0.5 s: {d:.1e} rad");
    assert!(d < 1e-3, "{d}");
}

#[test]
fn joint_forces_and_joint_set_points_drive_the_tree_in_the_system() {
    let tree = chain(G);
    // Gravity compensation: the joint forces of RNEA at rest hold the chain where it is.
    let mut sys = Box::new(Sys::new());
    sys.set_settings(alpha(0.9)).unwrap();
    sys.add_kinematic_tree(&tree, &Q0, &[0.0; 3]).unwrap();
    let mut hold = [0.0; 3];
    tree.bias_forces(&mut TreeData::new(), &Q0, &[0.0; 3], &mut hold)
        .unwrap();
    assert_eq!(
        sys.set_tree_joint_forces(&[0.0; 2]),
        Err(Error::OutOfRange(Param::Coordinate))
    );
    assert_eq!(
        sys.set_tree_joint_forces(&[f64::NAN, 0.0, 0.0]),
        Err(Error::NotFinite(Param::Torque))
    );
    assert_eq!(sys.tree_joint_forces(), Some(&[0.0; 3][..]));
    sys.set_tree_joint_forces(&hold).unwrap();
    run(&mut sys, 1e-3, 0.2);
    let drift = max_diff(&tree_q(&sys), &Q0);
    println!("held against gravity: drift {drift:.1e} rad");
    assert!(drift < 1e-10, "{drift}");
    // Without them it falls.
    sys.set_tree_joint_forces(&[0.0; 3]).unwrap();
    run(&mut sys, 1e-3, 0.2);
    assert!(max_diff(&tree_q(&sys), &Q0) > 1e-2);

    // Joint set points (Exudyn's P/D control with offsets), changed while stepping: the
    // chain without gravity settles at them.
    let mut sys = system(&chain(Vector3::zeros()), 0.9);
    let target = [0.2, -0.1, 0.3];
    for (k, t) in target.iter().enumerate() {
        let spring = mbs_core::tree::JointSpring {
            stiffness: 20.0,
            damping: 20.0,
            position_offset: *t,
            velocity_offset: 0.0,
        };
        sys.set_tree_joint_spring(k, spring).unwrap();
    }
    assert_eq!(
        sys.set_tree_joint_spring(3, mbs_core::tree::JointSpring::none()),
        Err(Error::UnknownIndex)
    );
    run(&mut sys, 2e-3, 10.0);
    let (q, v, _) = sys.tree_state().unwrap();
    let off = max_diff(q, &target);
    println!(
        "set points reached to {off:.1e} rad, rates {:.1e} rad/s",
        max_diff(v, &[0.0; 3])
    );
    assert!(off < 1e-4, "{off}");
}

/// A body on a spherical joint to the ground, created before the tree, moves as it does in a
/// system without the tree, bit for bit, in both coordinates of its rotation: the tree's links
/// have no coordinates of their own, so their states are not written into the body's (which
/// made the start's constraint check fail).
#[test]
fn a_body_created_before_the_tree_moves_as_without_it() {
    use mbs_core::system::{NodeState, RigidBodySpec, Rotations};
    for rotations in [Rotations::EulerParameters, Rotations::LieGroup] {
        let body_after = |with_tree: bool| {
            let mut sys = Box::new(Sys::new());
            let mut settings = alpha(0.9);
            settings.alpha.rotations = rotations;
            sys.set_settings(settings).unwrap();
            let block = Cuboid::new(Vector3::new(0.1, 0.2, 0.15))
                .density(7800.0)
                .mass_properties()
                .unwrap();
            // Hanging 0.2 m below the joint, turning about it.
            let arm = Vector3::new(0.0, 0.2, 0.0);
            let mut spec = RigidBodySpec::at(Vector3::new(2.0, -0.2, 0.0));
            spec.angular_velocity = Vector3::new(0.3, 1.0, -0.5);
            spec.velocity = -spec.angular_velocity.cross(&arm);
            spec.gravity = Some(G);
            let body = sys.create_rigid_body(&block, &spec).unwrap();
            let ground = sys.create_ground(Vector3::zeros()).unwrap();
            let at = Vector3::new(2.0, 0.0, 0.0);
            let joint = [
                sys.add_marker(Marker::body_rigid(ground, at).unwrap())
                    .unwrap(),
                sys.add_marker(Marker::body_rigid(body.object, arm).unwrap())
                    .unwrap(),
            ];
            sys.add_constraint(Constraint::spherical_joint(joint).unwrap())
                .unwrap();
            if with_tree {
                sys.add_kinematic_tree(&chain(G), &Q0, &V0).unwrap();
            }
            run(&mut sys, 1e-3, 0.1);
            match *sys.node_state(body.node).unwrap() {
                NodeState::RigidBody(s) => s,
                _ => panic!("a rigid body"),
            }
        };
        assert_eq!(body_after(true), body_after(false), "{rotations:?}");
    }
}
