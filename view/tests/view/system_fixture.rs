//! A system with every object kind, for the system picture and stream tests: a grey ground plate
//! (custom graphics) at (0, -0.6, 0); a mass point at (1.2, 0.3) moving (3, 4) m/s (|v| = 5); a
//! uniform 0.4 x 0.2 x 0.1 m rigid box at (-0.8, 0, 0) turned 0.5 rad about z, moving
//! (1, 0, 0) (|v| = 1); a BodyCylinder from (0, 0.3, 0.5) along x, 0.8 m long, diameter 0.12,
//! moving (0, 2, 0) (|v| = 2).

use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::graphics::{Color, GraphicsData, Shape, VisualizationSettings};
use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::system::{MassPointSpec, RigidBodySpec, System, MASS_POINT_SPHERE_DENSITY};
use mbs_core::OutputVariableType;
use nalgebra::{Matrix3, Vector2, Vector3};

pub type Sys = System<f64, 8, 8, 16, 16, 8, 8, 2>;

pub fn system() -> Sys {
    let mut sys = Sys::new();
    let ground = sys.create_ground(Vector3::new(0.0, -0.6, 0.0)).unwrap();
    let mut plate = GraphicsData::new();
    plate
        .push_shape(
            Shape::Cuboid {
                center: Vector3::zeros(),
                size: Vector3::new(3.0, 0.04, 1.6),
            },
            Color::MODELICA_ROD,
            0.2,
        )
        .unwrap();
    sys.set_graphics(ground, plate).unwrap();
    let m = MASS_POINT_SPHERE_DENSITY * 4.0 / 3.0 * std::f64::consts::PI * 0.08f64.powi(3);
    let mut spec = MassPointSpec::new(m, Vector2::new(1.2, 0.3));
    spec.initial_velocity = Vector2::new(3.0, 4.0);
    sys.create_mass_point(&spec).unwrap();
    let (a, b, c, mass) = (0.4, 0.2, 0.1, 3.0);
    let inertia = mass / 12.0
        * Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b));
    let mut rs = RigidBodySpec::at(Vector3::new(-0.8, 0.0, 0.0));
    rs.orientation = Quaternion::exp(&Vector3::new(0.0, 0.0, 0.5));
    rs.velocity = Vector3::new(1.0, 0.0, 0.0);
    sys.create_rigid_body(
        &MassProperties {
            mass,
            com: Vector3::zeros(),
            inertia,
        },
        &rs,
    )
    .unwrap();
    let cylinder = BodyCylinder::params(Vector3::new(0.8, 0.0, 0.0))
        .diameter(0.12)
        .start(ModelicaStart {
            r_0_start: Vector3::new(0.0, 0.3, 0.5),
            v_0_start: Vector3::new(0.0, 2.0, 0.0),
            ..ModelicaStart::default()
        })
        .build()
        .unwrap();
    sys.create_body_cylinder(&cylinder, None).unwrap();
    sys
}

/// Numbers on, contour colors by |v|.
pub fn contour_settings() -> VisualizationSettings {
    let mut s = VisualizationSettings::default();
    s.bodies.show_numbers = true;
    s.contour.output_variable = Some(OutputVariableType::Velocity);
    s.contour.output_variable_component = -1;
    s
}
