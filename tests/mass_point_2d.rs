//! Exudyn's `ObjectMassPoint2D` (Exudyn's mini example) end to end in `mbs-core`: the mini example, constant
//! force and gravity against the closed form `x(t) = x0 + v0 t + f t^2 / (2 m)`, kinetic energy
//! against `1/2 m v.v` and the work-energy theorem, the Jacobian, and refused inputs.

use approx::assert_relative_eq;
use mbs_core::bodies::MassPoint2D;
use mbs_core::body::{Body, Generalized};
use mbs_core::integrators::GeneralizedAlpha;
use mbs_core::loads::{LoadForceVector, LoadMassProportional};
use mbs_core::nodes::{NodePoint2D, Point2DState, PositionNode};
use mbs_core::solver::{solve_dynamic, MassPointLoad, MassPointOde, SimulationSettings};
use mbs_core::{Error, OutputValue, OutputVariableType, Param};
use nalgebra::{Vector2, Vector3};

fn vec3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("not a vector: {other:?}"),
    }
}

fn scalar(v: OutputValue<f64>) -> f64 {
    match v {
        OutputValue::Scalar(s) => s,
        other => panic!("not a scalar: {other:?}"),
    }
}

fn mini_example_node() -> NodePoint2D<f64> {
    NodePoint2D::new(
        Vector2::new(1.0, 1.0),
        Vector2::new(0.5, 0.0),
        Vector2::new(0.5, 0.0),
    )
    .unwrap()
}

#[test]
fn mini_example_final_x_is_2() {
    // node = NodePoint2D(referenceCoordinates=[1,1], initialCoordinates=[0.5,0],
    //                    initialVelocities=[0.5,0]); MassPoint2D(mass=1); SolveDynamic()
    let node = mini_example_node();
    let body = MassPoint2D::new(1.0).unwrap();
    let settings = SimulationSettings::default();
    let end = solve_dynamic(&node, &body, &[], &settings).unwrap();
    // GetNodeOutput(node, Position)[0]: x = 1 + 0.5 + 0.5 * 1 s = 2
    let p = vec3(node.output(&end, OutputVariableType::Position).unwrap());
    println!("mini example: x = {:.17}, x - 2 = {:e}", p.x, p.x - 2.0);
    assert!((p.x - 2.0).abs() <= 1e-12, "x = {:.17}", p.x);
    assert!((p.y - 1.0).abs() <= 1e-12, "y = {:.17}", p.y);
    assert_eq!(p.z, 0.0);
    // the body says the same at local position 0
    let pb = vec3(
        body.output(
            &node.configuration(&end),
            OutputVariableType::Position,
            &Vector3::zeros(),
        )
        .unwrap(),
    );
    assert_eq!(pb, p);
    // f32 as well (to f32 round-off over 100 steps)
    let node32 = NodePoint2D::new(
        Vector2::new(1.0f32, 1.0),
        Vector2::new(0.5, 0.0),
        Vector2::new(0.5, 0.0),
    )
    .unwrap();
    let end32 = solve_dynamic(
        &node32,
        &MassPoint2D::new(1.0f32).unwrap(),
        &[],
        &SimulationSettings::default(),
    )
    .unwrap();
    let x32 = node32.position(&end32).unwrap().x;
    assert!((x32 - 2.0).abs() <= 1e-5, "f32 x = {x32}");
}

/// x(t) = x0 + v0 t + a t^2 / 2 (m, world), v(t) = v0 + a t.
fn closed_form(
    x0: Vector2<f64>,
    v0: Vector2<f64>,
    a: Vector2<f64>,
    t: f64,
) -> (Vector2<f64>, Vector2<f64>) {
    (x0 + v0 * t + a * (0.5 * t * t), v0 + a * t)
}

#[test]
fn constant_force_matches_the_closed_form_at_several_times() {
    let m = 0.5;
    let node = NodePoint2D::new(
        Vector2::new(1.0, -2.0),
        Vector2::new(0.25, 0.5),
        Vector2::new(-1.0, 3.0),
    )
    .unwrap();
    let body = MassPoint2D::new(m).unwrap();
    // f2 = 7 N must have no effect
    let f = Vector3::new(2.0, -3.0, 7.0);
    let acc = Vector2::new(f.x / m, f.y / m);
    let x0 = node.reference_coordinates() + node.initial_coordinates();
    let v0 = node.initial_velocities();
    let loads = [MassPointLoad::NodeForce {
        node: 0,
        load: LoadForceVector::new(f).unwrap(),
    }];
    // solve_dynamic to several end times, with different step counts
    for (t_end, steps) in [(0.1, 7u32), (0.5, 50), (1.0, 100), (2.5, 33)] {
        let settings = SimulationSettings {
            end_time: t_end,
            number_of_steps: steps,
            ..SimulationSettings::default()
        };
        let s = solve_dynamic(&node, &body, &loads, &settings).unwrap();
        let (x, v) = closed_form(x0, v0, acc, t_end);
        let p = node.position(&s).unwrap();
        assert_relative_eq!(p.x, x.x, epsilon = 1e-12, max_relative = 1e-12);
        assert_relative_eq!(p.y, x.y, epsilon = 1e-12, max_relative = 1e-12);
        assert_relative_eq!(s.q_t.x, v.x, epsilon = 1e-12, max_relative = 1e-12);
        assert_relative_eq!(s.q_t.y, v.y, epsilon = 1e-12, max_relative = 1e-12);
        // the Acceleration output is f / m
        let a = vec3(node.output(&s, OutputVariableType::Acceleration).unwrap());
        assert_relative_eq!(a.x, acc.x, epsilon = 1e-12, max_relative = 1e-12);
        assert_relative_eq!(a.y, acc.y, epsilon = 1e-12, max_relative = 1e-12);
        assert_eq!(a.z, 0.0);
    }
    // the same force applied at a body marker (local position irrelevant for a point mass)
    let at_body = [MassPointLoad::BodyForce {
        body: 0,
        local_position: Vector3::new(0.3, -0.1, 2.0),
        load: LoadForceVector::new(f).unwrap(),
    }];
    let s = solve_dynamic(&node, &body, &at_body, &SimulationSettings::default()).unwrap();
    let (x, _) = closed_form(x0, v0, acc, 1.0);
    assert_relative_eq!(
        node.position(&s).unwrap().xy(),
        x,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
}

#[test]
fn gravity_matches_the_closed_form_for_any_mass() {
    let g = Vector3::new(0.5, -9.81, 0.0);
    let node = NodePoint2D::new(
        Vector2::new(0.0, 10.0),
        Vector2::zeros(),
        Vector2::new(2.0, 5.0),
    )
    .unwrap();
    let x0 = node.reference_coordinates();
    let v0 = node.initial_velocities();
    let loads = [MassPointLoad::MassProportional {
        body: 0,
        load: LoadMassProportional::new(g).unwrap(),
    }];
    for m in [0.01, 1.0, 250.0] {
        let body = MassPoint2D::new(m).unwrap();
        // step by step in a loop, checking every 10th step
        let ode = MassPointOde::new(&node, &body, &loads).unwrap();
        let ga = GeneralizedAlpha::new(0.9).unwrap();
        let mut s = ga
            .initial_state(&ode, 0.0, &node.initial_coordinates(), &v0)
            .unwrap();
        let h = 1e-3;
        for i in 0..2000u32 {
            ga.step(&ode, &mut s, f64::from(i) * h, h).unwrap();
            if (i + 1) % 10 == 0 {
                let t = f64::from(i + 1) * h;
                let (x, v) = closed_form(x0, v0, g.xy(), t);
                let p = node.position(&MassPointOde::node_state(&s)).unwrap();
                assert!(
                    (p.xy() - x).amax() <= 1e-12 * (1.0 + x.amax()),
                    "m {m} t {t}: {p} vs {x}"
                );
                assert!(
                    (s.q_t - v).amax() <= 1e-12 * (1.0 + v.amax()),
                    "m {m} t {t}"
                );
            }
        }
    }
}

#[test]
fn kinetic_energy_is_half_m_v_squared_and_grows_by_the_work_done() {
    let m = 3.0;
    let node =
        NodePoint2D::new(Vector2::zeros(), Vector2::zeros(), Vector2::new(3.0, -4.0)).unwrap();
    let body = MassPoint2D::new(m).unwrap();
    let z = Vector3::zeros();
    let e0 = scalar(
        body.output(
            &node.configuration(&node.initial_state()),
            OutputVariableType::KineticEnergy,
            &z,
        )
        .unwrap(),
    );
    // |v| = 5 m/s: T = 1/2 * 3 * 25
    assert_eq!(e0, 37.5);
    // work-energy theorem under a constant force: T(t) - T(0) = f . (x(t) - x(0))
    let f = Vector3::new(1.5, 6.0, -2.0);
    let loads = [MassPointLoad::NodeForce {
        node: 0,
        load: LoadForceVector::new(f).unwrap(),
    }];
    let s = solve_dynamic(&node, &body, &loads, &SimulationSettings::default()).unwrap();
    let e1 = scalar(
        body.output(
            &node.configuration(&s),
            OutputVariableType::KineticEnergy,
            &z,
        )
        .unwrap(),
    );
    let work = f.xy().dot(&s.q);
    assert_relative_eq!(e1 - e0, work, epsilon = 1e-12, max_relative = 1e-12);
    assert_eq!(
        body.output(
            &node.configuration(&s),
            OutputVariableType::PotentialEnergy,
            &z
        ),
        Ok(OutputValue::Scalar(0.0))
    );
}

#[test]
fn jacobian_maps_a_force_to_its_in_plane_components() {
    let node = mini_example_node();
    let body = MassPoint2D::new(2.0).unwrap();
    let c = node.configuration(&node.initial_state());
    let f = Vector3::new(-4.5, 0.25, 1e6);
    for loc in [Vector3::zeros(), Vector3::new(1.0, -2.0, 3.0)] {
        let j = body.position_jacobian(&c, &loc).unwrap();
        assert_eq!(
            j.fixed_view::<3, 2>(0, 0).into_owned(),
            nalgebra::Matrix3x2::new(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
        );
        assert_eq!(
            j.transpose() * f,
            Generalized::new(-4.5, 0.25, 0.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(
            body.generalized_force(&c, &loc, &f, &Vector3::zeros()),
            Ok(Generalized::new(-4.5, 0.25, 0.0, 0.0, 0.0, 0.0))
        );
    }
    assert_eq!(body.rotation_jacobian(&c), Err(Error::JacobianNotAvailable));
    let mi = body.mass_jacobian_integral(&c).unwrap();
    assert_eq!(
        mi.transpose() * Vector3::new(1.0, 2.0, 3.0),
        Generalized::new(2.0, 4.0, 0.0, 0.0, 0.0, 0.0)
    );
}

#[test]
fn bad_inputs_are_errors_and_change_nothing() {
    // mass <= 0 or non-finite (Exudyn's default 0 is refused: singular mass matrix)
    for m in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(
            matches!(
                MassPoint2D::new(m),
                Err(Error::OutOfRange(Param::Mass) | Error::NotFinite(Param::Mass))
            ),
            "{m}"
        );
    }
    let node = mini_example_node();
    let body = MassPoint2D::new(1.0).unwrap();
    let settings = SimulationSettings::default();
    let f = LoadForceVector::new(Vector3::new(1.0, 0.0, 0.0)).unwrap();
    // unknown node / body
    assert_eq!(
        solve_dynamic(
            &node,
            &body,
            &[MassPointLoad::NodeForce { node: 1, load: f }],
            &settings
        ),
        Err(Error::UnknownIndex)
    );
    assert_eq!(
        solve_dynamic(
            &node,
            &body,
            &[MassPointLoad::MassProportional {
                body: 3,
                load: LoadMassProportional::new(Vector3::zeros()).unwrap()
            }],
            &settings
        ),
        Err(Error::UnknownIndex)
    );
    // output not provided
    let c = node.configuration(&node.initial_state());
    assert_eq!(
        body.output(
            &c,
            OutputVariableType::AngularAcceleration,
            &Vector3::zeros()
        ),
        Err(Error::OutputNotAvailable)
    );
    assert_eq!(
        node.output(&node.initial_state(), OutputVariableType::KineticEnergy),
        Err(Error::OutputNotAvailable)
    );
    assert_eq!(
        body.output(
            &c,
            OutputVariableType::KineticEnergy,
            &Vector3::new(0.0, 1.0, 0.0)
        ),
        Err(Error::LocalPositionMustBeZero)
    );
    // dt <= 0 or non-finite: error, state untouched
    let loads = [MassPointLoad::NodeForce { node: 0, load: f }];
    let ode = MassPointOde::new(&node, &body, &loads).unwrap();
    let ga = GeneralizedAlpha::new(0.9).unwrap();
    let mut s = ga
        .initial_state(
            &ode,
            0.0,
            &node.initial_coordinates(),
            &node.initial_velocities(),
        )
        .unwrap();
    let s0 = s;
    for dt in [0.0, -0.01, f64::NAN, f64::INFINITY] {
        assert!(ga.step(&ode, &mut s, 0.0, dt).is_err(), "{dt}");
        assert_eq!(s, s0);
    }
    // bad settings
    let bad = SimulationSettings {
        number_of_steps: 0,
        ..settings
    };
    assert_eq!(
        solve_dynamic(&node, &body, &[], &bad),
        Err(Error::OutOfRange(Param::SimulationTime))
    );
    // non-finite node parameters
    assert_eq!(
        NodePoint2D::new(
            Vector2::new(1.0, f64::NAN),
            Vector2::zeros(),
            Vector2::zeros()
        ),
        Err(Error::NotFinite(Param::Position))
    );
    // a non-finite state is refused by the outputs
    let nan_state = Point2DState {
        q: Vector2::new(f64::NAN, 0.0),
        ..node.initial_state()
    };
    assert_eq!(
        node.output(&nan_state, OutputVariableType::Position),
        Err(Error::NonFiniteState)
    );
    assert_eq!(
        body.output(
            &node.configuration(&nan_state),
            OutputVariableType::Velocity,
            &Vector3::zeros()
        ),
        Err(Error::NonFiniteState)
    );
}
