//! A system step never allocates: a counting global allocator sees no allocation on the
//! stepping thread while a system with every kind of item steps and records its sensors.

use mbs_core::bodies::body_cylinder::BodyCylinder;
use mbs_core::inertia::MassProperties;
use mbs_core::system::{
    CartesianSpringDamper, Connector, HostSystem, Load, Marker, MassPointSpec, RigidBodySpec,
    Sensor, SliceSink, SpringDamper, SystemScheme, SystemSettings, UserLoadKind,
};
use mbs_core::OutputVariableType;
use nalgebra::{Matrix3, Vector2, Vector3};
use std::ffi::c_void;

mod alloc_counter;
use alloc_counter::allocations_during;

extern "C-unwind" fn torque(_: *mut c_void, t: f64, out: *mut [f64; 3]) {
    unsafe { *out = [0.0, 0.0, 0.1 * t] };
}

#[test]
fn stepping_a_full_featured_system_does_not_allocate() {
    for scheme in [SystemScheme::KickDriftKick, SystemScheme::HeldLoads] {
        let mut mbs = Box::new(HostSystem::<f64>::new());
        mbs.set_settings(SystemSettings::default().with_scheme(scheme))
            .unwrap();
        let g = mbs.create_ground(Vector3::zeros()).unwrap();
        let mut ps = MassPointSpec::new(1.0, Vector2::new(1.0, 0.0));
        ps.gravity = Some(Vector3::new(0.0, -9.81, 0.0));
        let p = mbs.create_mass_point(&ps).unwrap();
        let mut rs = RigidBodySpec::at(Vector3::new(0.0, 1.0, 0.0));
        rs.angular_velocity = Vector3::new(1.0, 2.0, 3.0);
        rs.gravity = Some(Vector3::new(0.0, -9.81, 0.0));
        let mp = MassProperties::new(
            1.0,
            Vector3::new(0.1, 0.0, 0.0),
            Matrix3::from_diagonal(&Vector3::new(0.1, 0.2, 0.25)),
        )
        .unwrap();
        let r = mbs.create_rigid_body(&mp, &rs).unwrap();
        let c = mbs
            .create_body_cylinder(
                &BodyCylinder::params(Vector3::new(0.3, 0.0, 0.0))
                    .inner_diameter(0.005)
                    .build()
                    .unwrap(),
                Some(Vector3::new(0.0, -9.81, 0.0)),
            )
            .unwrap();
        let mg = mbs
            .add_marker(Marker::body_position(g, Vector3::zeros()).unwrap())
            .unwrap();
        let mpp = mbs.add_marker(Marker::node_position(p.node)).unwrap();
        let mr = mbs
            .add_marker(Marker::body_rigid(r.object, Vector3::new(0.2, 0.0, 0.0)).unwrap())
            .unwrap();
        let mc = mbs
            .add_marker(Marker::body_rigid(c.object, Vector3::new(0.3, 0.0, 0.0)).unwrap())
            .unwrap();
        mbs.add_connector(Connector::SpringDamper(
            SpringDamper::new([mg, mpp], 50.0, 0.5, 0.5, 0.0).unwrap(),
        ))
        .unwrap();
        mbs.add_connector(Connector::CartesianSpringDamper(
            CartesianSpringDamper::new(
                [mpp, mr],
                Vector3::new(10.0, 10.0, 10.0),
                Vector3::new(0.1, 0.1, 0.1),
                Vector3::zeros(),
            )
            .unwrap(),
        ))
        .unwrap();
        mbs.add_connector(Connector::SpringDamper(
            SpringDamper::new([mg, mc], 80.0, 0.0, 0.8, 1.0).unwrap(),
        ))
        .unwrap();
        mbs.add_load(Load::user(
            mr,
            UserLoadKind::TorqueLocal,
            torque,
            std::ptr::null_mut(),
        ))
        .unwrap();
        mbs.add_load(Load::torque(mc, Vector3::new(0.0, 0.1, 0.0), false).unwrap())
            .unwrap();
        mbs.add_sensor(Sensor::Node {
            node: r.node,
            variable: OutputVariableType::RotationMatrix,
        })
        .unwrap();
        mbs.add_sensor(Sensor::Marker {
            marker: mc,
            variable: OutputVariableType::AngularVelocity,
        })
        .unwrap();
        mbs.assemble().unwrap();
        let row = mbs.sensor_row_len();
        let mut buf = vec![0.0; row * 1000];
        let mut sink = SliceSink::new(&mut buf, row);
        let n = allocations_during(|| {
            for _ in 0..1000 {
                mbs.step(1e-3, &mut sink).unwrap();
            }
        });
        assert_eq!(sink.rows(), 1000);
        assert_eq!(n, 0, "{scheme:?}: {n} allocations while stepping");
    }
}
