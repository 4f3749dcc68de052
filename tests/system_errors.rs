//! Refused inputs of the system: full capacity, unknown indices, markers a body cannot carry,
//! a connector between a marker and itself, wrong node kinds, an unassembled system, a callback
//! writing NaN. Each is a precise error, and the system is unchanged (compared with a snapshot
//! taken before: `System` is `Clone + PartialEq` over every item, state and the time).

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::nodes::NodePoint2D;
use mbs_core::solver::{DynamicSolverType, SimulationSettings};
use mbs_core::system::{
    CartesianSpringDamper, Connector, ConnectorIndex, ItemRef, Load, LoadIndex, Marker,
    MarkerIndex, MassPointSpec, NoSink, Node, NodeIndex, NodeRigidBody, Object, ObjectIndex,
    RigidBodySpec, Sensor, SensorIndex, SpringDamper, System, SystemError, UserLoadKind,
};
use mbs_core::{Error, OutputVariableType, Param};
use nalgebra::{Vector2, Vector3};
use std::ffi::c_void;

type Small = System<f64, 3, 4, 5, 2, 2, 1>;

/// A ground, a mass point and a rigid body with a marker each and a connector between the
/// mass point and the ground.
fn small() -> (Small, [ObjectIndex; 3], [MarkerIndex; 3]) {
    let mut s = Small::new();
    let g = s.create_ground(Vector3::zeros()).unwrap();
    let p = s
        .create_mass_point(&MassPointSpec::new(1.0, Vector2::new(1.0, 0.0)))
        .unwrap();
    let mp = MassProperties::new(
        2.0,
        Vector3::zeros(),
        nalgebra::Matrix3::from_diagonal(&Vector3::new(0.1, 0.1, 0.1)),
    )
    .unwrap();
    let r = s
        .create_rigid_body(&mp, &RigidBodySpec::at(Vector3::new(0.0, 2.0, 0.0)))
        .unwrap();
    let mg = s
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let mpt = s
        .add_marker(Marker::body_position(p.object, Vector3::zeros()).unwrap())
        .unwrap();
    let mr = s
        .add_marker(Marker::body_rigid(r.object, Vector3::new(0.1, 0.0, 0.0)).unwrap())
        .unwrap();
    s.add_connector(Connector::SpringDamper(
        SpringDamper::new([mg, mpt], 10.0, 0.1, 1.0, 0.0).unwrap(),
    ))
    .unwrap();
    s.assemble().unwrap();
    (s, [g, p.object, r.object], [mg, mpt, mr])
}

/// `f` fails with `want` and leaves the system as it was.
fn refused<R: std::fmt::Debug>(
    s: &mut Small,
    want: Error,
    f: impl FnOnce(&mut Small) -> mbs_core::Result<R>,
) {
    let before = s.clone();
    let got = f(s);
    assert_eq!(got.map(|_| ()), Err(want));
    assert_eq!(*s, before, "the system changed");
    assert!(s.is_assembled());
}

#[test]
fn full_capacity_is_refused_with_nothing_changed() {
    let (mut s, [_, p, r], [mg, mpt, mr]) = small();
    assert_eq!(s.counts(), [2, 3, 3, 0, 1, 0]);
    // a helper that needs a node, an object, a marker and a load, with room for all but the
    // load: all or nothing
    s.add_load(Load::force(mpt, Vector3::new(1.0, 0.0, 0.0)).unwrap())
        .unwrap();
    s.add_load(Load::torque(mr, Vector3::new(0.0, 0.0, 1.0), true).unwrap())
        .unwrap();
    s.assemble().unwrap();
    refused(&mut s, Error::CapacityFull, |s| {
        let mut spec = MassPointSpec::new(1.0, Vector2::zeros());
        spec.gravity = Some(Vector3::new(0.0, -9.81, 0.0));
        s.create_mass_point(&spec)
    });
    refused(&mut s, Error::CapacityFull, |s| {
        s.add_load(Load::force(mpt, Vector3::new(1.0, 0.0, 0.0)).unwrap())
    });
    // nodes (3) and objects (4): the third node with its body fills both lists
    s.create_mass_point(&MassPointSpec::new(1.0, Vector2::new(3.0, 0.0)))
        .unwrap();
    s.assemble().unwrap();
    refused(&mut s, Error::CapacityFull, |s| {
        s.add_node(Node::Point2D(NodePoint2D::at(Vector2::zeros()).unwrap()))
    });
    refused(&mut s, Error::CapacityFull, |s| {
        s.add_object(Object::Ground(Default::default()))
    });
    refused(&mut s, Error::CapacityFull, |s| {
        s.create_ground(Vector3::zeros())
    });
    // markers (5)
    s.add_marker(Marker::body_mass(p)).unwrap();
    s.add_marker(Marker::body_mass(r)).unwrap();
    s.assemble().unwrap();
    refused(&mut s, Error::CapacityFull, |s| {
        s.add_marker(Marker::body_mass(r))
    });
    // connectors (2)
    s.add_connector(Connector::SpringDamper(
        SpringDamper::new([mg, mr], 1.0, 0.0, 1.0, 0.0).unwrap(),
    ))
    .unwrap();
    s.assemble().unwrap();
    refused(&mut s, Error::CapacityFull, |s| {
        s.add_connector(Connector::SpringDamper(
            SpringDamper::new([mpt, mr], 1.0, 0.0, 1.0, 0.0).unwrap(),
        ))
    });
    // sensors (1)
    s.add_sensor(Sensor::Node {
        node: NodeIndex(0),
        variable: OutputVariableType::Position,
    })
    .unwrap();
    s.assemble().unwrap();
    refused(&mut s, Error::CapacityFull, |s| {
        s.add_sensor(Sensor::Load { load: LoadIndex(0) })
    });
    assert_eq!(s.counts(), [3, 4, 5, 2, 2, 1]);
    // a full system still steps
    s.step(0.01, &mut NoSink).unwrap();
}

#[test]
fn unknown_indices_are_refused_with_nothing_changed() {
    let (mut s, [g, ..], [mg, ..]) = small();
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_object(Object::mass_point_2d(NodeIndex(7), 1.0).unwrap())
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_marker(Marker::body_position(ObjectIndex(9), Vector3::zeros()).unwrap())
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_marker(Marker::node_position(NodeIndex(2)))
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_load(Load::force(MarkerIndex(3), Vector3::zeros()).unwrap())
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_connector(Connector::SpringDamper(
            SpringDamper::new([mg, MarkerIndex(40)], 1.0, 0.0, 1.0, 0.0).unwrap(),
        ))
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_sensor(Sensor::Node {
            node: NodeIndex(5),
            variable: OutputVariableType::Position,
        })
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.add_sensor(Sensor::Load { load: LoadIndex(0) })
    });
    refused(&mut s, Error::UnknownIndex, |s| {
        s.replace_load(LoadIndex(0), Load::force(mg, Vector3::zeros()).unwrap())
    });
    assert_eq!(s.node_state(NodeIndex(9)).err(), Some(Error::UnknownIndex));
    assert_eq!(s.object(ObjectIndex(3)).err(), Some(Error::UnknownIndex));
    assert_eq!(
        s.read_sensor(SensorIndex(0)).err(),
        Some(Error::UnknownIndex)
    );
    assert_eq!(
        s.connector(ConnectorIndex(1)).err(),
        Some(Error::UnknownIndex)
    );
    assert_eq!(
        s.object_output(
            ObjectIndex(4),
            OutputVariableType::Position,
            &Vector3::zeros()
        )
        .err(),
        Some(Error::UnknownIndex)
    );
    let _ = g;
}

#[test]
fn markers_the_body_cannot_carry_are_refused_with_nothing_changed() {
    let (mut s, [g, p, _], [mg, mpt, mr]) = small();
    // a rigid marker on a mass point (no rotation Jacobian)
    refused(&mut s, Error::MarkerNotSupported, |s| {
        s.add_marker(Marker::body_rigid(p, Vector3::zeros()).unwrap())
    });
    // a mass marker on the ground (no mass)
    refused(&mut s, Error::MarkerNotSupported, |s| {
        s.add_marker(Marker::body_mass(g))
    });
    // a torque needs a rigid marker; gravity a mass marker
    refused(&mut s, Error::MarkerNotSupported, |s| {
        s.add_load(Load::torque(mpt, Vector3::new(0.0, 0.0, 1.0), false).unwrap())
    });
    refused(&mut s, Error::MarkerNotSupported, |s| {
        s.add_load(Load::mass_proportional(mr, Vector3::new(0.0, -9.81, 0.0)).unwrap())
    });
    extern "C-unwind" fn zero(_: *mut c_void, _: f64, _: *mut [f64; 3]) {}
    refused(&mut s, Error::MarkerNotSupported, |s| {
        s.add_load(Load::user(
            mg,
            UserLoadKind::TorqueLocal,
            zero,
            std::ptr::null_mut(),
        ))
    });
    // a connector needs position markers
    s.add_marker(Marker::body_mass(p)).unwrap();
    s.assemble().unwrap();
    refused(&mut s, Error::MarkerNotSupported, |s| {
        s.add_connector(Connector::SpringDamper(
            SpringDamper::new([mg, MarkerIndex(3)], 1.0, 0.0, 1.0, 0.0).unwrap(),
        ))
    });
    // an output a marker does not give
    assert_eq!(
        s.marker_output(mpt, OutputVariableType::RotationMatrix)
            .err(),
        Some(Error::OutputNotAvailable)
    );
    refused(&mut s, Error::OutputNotAvailable, |s| {
        s.add_sensor(Sensor::Marker {
            marker: mpt,
            variable: OutputVariableType::AngularVelocity,
        })
    });
}

#[test]
fn a_connector_between_a_marker_and_itself_is_refused() {
    let (s, _, [mg, mpt, _]) = small();
    assert_eq!(
        SpringDamper::new([mpt, mpt], 1.0, 0.0, 1.0, 0.0),
        Err(Error::SameMarker)
    );
    assert_eq!(
        CartesianSpringDamper::<f64>::new(
            [mg, mg],
            Vector3::zeros(),
            Vector3::zeros(),
            Vector3::zeros()
        ),
        Err(Error::SameMarker)
    );
    // and bad parameters name themselves
    assert_eq!(
        SpringDamper::new([mg, mpt], -1.0, 0.0, 1.0, 0.0),
        Err(Error::OutOfRange(Param::Stiffness))
    );
    assert_eq!(
        SpringDamper::new([mg, mpt], 1.0, f64::NAN, 1.0, 0.0),
        Err(Error::NotFinite(Param::Damping))
    );
    assert_eq!(
        CartesianSpringDamper::new(
            [mg, mpt],
            Vector3::new(1.0, -1.0, 0.0),
            Vector3::zeros(),
            Vector3::zeros()
        ),
        Err(Error::OutOfRange(Param::Stiffness))
    );
    // the Connector type can only be built through these checks; the system has one
    // connector, the one of small()
    assert_eq!(s.counts()[4], 1);
    assert_eq!(s.connector(ConnectorIndex(0)).unwrap().markers(), [mg, mpt]);
}

#[test]
fn wrong_node_kinds_and_shared_nodes_are_refused() {
    let rb = RigidBody::from_principal(1.0, [1.0, 1.0, 1.0], Vector3::zeros()).unwrap();
    let mut big = System::<f64, 8, 8, 8, 8, 8, 8>::new();
    let n2 = big
        .add_node(Node::Point2D(NodePoint2D::at(Vector2::zeros()).unwrap()))
        .unwrap();
    let nr = big
        .add_node(Node::RigidBody(
            NodeRigidBody::at_rest(Vector3::zeros(), Quaternion::identity()).unwrap(),
        ))
        .unwrap();
    let before = big.clone();
    assert_eq!(
        big.add_object(Object::rigid_body(n2, rb)),
        Err(Error::WrongNodeKind)
    );
    assert_eq!(
        big.add_object(Object::mass_point_2d(nr, 1.0).unwrap()),
        Err(Error::WrongNodeKind)
    );
    assert_eq!(big, before);
    big.add_object(Object::mass_point_2d(n2, 1.0).unwrap())
        .unwrap();
    let before = big.clone();
    assert_eq!(
        big.add_object(Object::mass_point_2d(n2, 2.0).unwrap()),
        Err(Error::NodeAlreadyUsed)
    );
    assert_eq!(big, before);
    // the rigid node has no body: assemble names it
    assert_eq!(
        big.assemble(),
        Err(SystemError::new(Error::NodeWithoutBody, ItemRef::Node(nr)))
    );
    assert!(!big.is_assembled());
}

#[test]
fn stepping_an_unassembled_system_is_refused() {
    let (mut s, [_, p, _], _) = small();
    let na = SystemError::new(Error::NotAssembled, ItemRef::System);
    let mut fresh = Small::new();
    assert_eq!(fresh.step(0.01, &mut NoSink), Err(na));
    s.step(0.01, &mut NoSink).unwrap();
    s.add_marker(Marker::body_mass(p)).unwrap(); // any add un-assembles
    let before = s.clone();
    assert_eq!(s.step(0.01, &mut NoSink), Err(na));
    assert_eq!(
        s.solve_dynamic(
            &SimulationSettings {
                solver_type: DynamicSolverType::SystemScheme,
                ..SimulationSettings::default()
            },
            &mut NoSink
        ),
        Err(na)
    );
    assert_eq!(s, before);
    s.assemble().unwrap();
    for (dt, e) in [
        (0.0, Error::OutOfRange(Param::TimeStep)),
        (-1.0, Error::OutOfRange(Param::TimeStep)),
        (f64::NAN, Error::NotFinite(Param::TimeStep)),
    ] {
        let before = s.clone();
        assert_eq!(
            s.step(dt, &mut NoSink),
            Err(SystemError::new(e, ItemRef::System))
        );
        assert_eq!(s, before);
    }
    assert!(s.step(0.01, &mut NoSink).is_ok());
}

/// A force `[1, 0, 0]` N until t = 0.5 s, then NaN (a broken callback).
extern "C-unwind" fn breaks_at_half_second(_ctx: *mut c_void, t: f64, out: *mut [f64; 3]) {
    let v = if t <= 0.5 {
        [1.0, 0.0, 0.0]
    } else {
        [f64::NAN; 3]
    };
    unsafe { *out = v };
}

#[test]
fn a_callback_writing_nan_fails_the_step_naming_the_load_and_the_state_stays() {
    let mut s = System::<f64, 4, 4, 4, 4, 4, 4>::new();
    let p = s
        .create_mass_point(&MassPointSpec::new(1.0, Vector2::zeros()))
        .unwrap();
    let m = s.add_marker(Marker::node_position(p.node)).unwrap();
    let l = s
        .add_load(Load::user(
            m,
            UserLoadKind::Force,
            breaks_at_half_second,
            std::ptr::null_mut(),
        ))
        .unwrap();
    s.assemble().unwrap();
    let err = SystemError::new(Error::NotFinite(Param::Force), ItemRef::Load(l));
    let mut steps = 0;
    loop {
        let before = s.clone();
        match s.step(0.1, &mut NoSink) {
            Ok(_) => steps += 1,
            Err(e) => {
                assert_eq!(e, err);
                assert_eq!(s, before, "a failed step changed the system");
                break;
            }
        }
    }
    // the end-of-step evaluation at t = 0.6 fails: 5 steps done (t = 0.5)
    assert_eq!(steps, 5);
    assert!((s.time() - 0.5).abs() < 1e-15);
    // a solve that meets the NaN is undone entirely
    let before = s.clone();
    assert_eq!(
        s.solve_dynamic(
            &SimulationSettings {
                solver_type: DynamicSolverType::SystemScheme,
                ..SimulationSettings::default()
            },
            &mut NoSink
        ),
        Err(err)
    );
    assert_eq!(s, before);
    // the system stayed at t = 0.5, where the load (read as a sensor would) is still finite
    assert_eq!(s.load_value(l), Ok(Vector3::new(1.0, 0.0, 0.0)));
}

#[test]
fn a_spring_of_zero_length_is_found_at_assemble() {
    let mut s = System::<f64, 4, 4, 4, 4, 4, 4>::new();
    let g = s.create_ground(Vector3::new(1.0, 0.0, 0.0)).unwrap();
    let p = s
        .create_mass_point(&MassPointSpec::new(1.0, Vector2::new(1.0, 0.0)))
        .unwrap();
    let a = s
        .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
        .unwrap();
    let b = s.add_marker(Marker::node_position(p.node)).unwrap();
    let c = s
        .add_connector(Connector::SpringDamper(
            SpringDamper::new([a, b], 1.0, 0.0, 0.5, 0.0).unwrap(),
        ))
        .unwrap();
    assert_eq!(
        s.assemble(),
        Err(SystemError::new(
            Error::ZeroLength(Param::Length),
            ItemRef::Connector(c)
        ))
    );
}

/// `mbs_core::Error` is a `core::error::Error`: it boxes into `Box<dyn std::error::Error>` (what
/// `?` in a host program's `main` needs) and keeps its text.
#[test]
fn core_errors_are_std_errors() {
    fn fails() -> Result<(), Box<dyn std::error::Error>> {
        Err(mbs_core::Error::CapacityFull)?;
        Ok(())
    }
    let e = fails().unwrap_err();
    assert_eq!(e.to_string(), "capacity full");
    assert!(e.downcast_ref::<mbs_core::Error>().is_some());
}

/// A `SystemError` is a `std::error::Error`: `?` turns it into a `Box<dyn Error>` that keeps
/// the item in its text, and its source is the core error.
#[test]
fn a_system_error_is_an_error_that_keeps_its_item() {
    fn joined_with_itself() -> Result<(), Box<dyn std::error::Error>> {
        Err(mbs_core::system::SystemError::new(
            mbs_core::Error::SameMarker,
            mbs_core::system::ItemRef::Constraint(mbs_core::system::ConstraintIndex(3)),
        ))?;
        Ok(())
    }
    let e = joined_with_itself().unwrap_err();
    assert_eq!(
        e.to_string(),
        "a connector or joint joins a marker with itself at Constraint(ConstraintIndex(3))"
    );
    let source = e.source().expect("the core error");
    assert_eq!(
        source.to_string(),
        "a connector or joint joins a marker with itself"
    );
}
