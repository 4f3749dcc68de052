//! `System::export_scene`: a system with every object kind (ground, mass point 2D, rigid body,
//! BodyCylinder) exports the right primitives, world poses, colors and number labels for the
//! `bodies.show` / `showNumbers` / `defaultColor` and `contour.*` settings (Exudyn's visualization settings).
//!
//! References, independent of the code under test: rotations built by hand (`Rz`), the steel
//! ball radius and the uniform box inertia in closed form, Exudyn's colormap knots (blue, cyan,
//! green, red at 0, 1/4, 1/2, 1), the free-fall parabola.

use approx::assert_relative_eq;
use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::graphics::{
    Color, DrawPrimitive, DrawShape, GraphicsData, Shape, VisualizationSettings,
};
use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::system::{
    CreatedBody, MassPointSpec, NoSink, ObjectIndex, RigidBodySpec, System,
    MASS_POINT_SPHERE_DENSITY,
};
use mbs_core::{Error, OutputVariableType, Param};
use nalgebra::{Matrix3, Vector2, Vector3};
use std::f64::consts::PI;

type Sys = System<f64, 8, 8, 16, 16, 8, 8, 2>;

fn rz(a: f64) -> Matrix3<f64> {
    let (s, c) = (a.sin(), a.cos());
    Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0)
}

const TH_RIGID: f64 = 0.5;
const TH_CYL: f64 = -0.3;
/// Box edges of the rigid body (m) and its mass (kg).
const EDGES: [f64; 3] = [0.4, 0.2, 0.1];
const M_BOX: f64 = 3.0;
/// Radius of the steel ball the mass point is drawn as (m).
const R_BALL: f64 = 0.05;

struct Model {
    sys: Sys,
    ground: ObjectIndex,
    point: CreatedBody,
    rigid: CreatedBody,
    cyl: CreatedBody,
}

/// Ground at (0, -1, 0); mass point at (1.5, 2) moving (3, 4) m/s (|v| = 5); rigid uniform box
/// at (0, 0, 2) turned by Rz(0.5), COM offset (0.1, 0, 0) in the body frame, moving (1, 0, 0);
/// BodyCylinder from frame_a at (0, 0, 1) turned by Rz(-0.3) (angles_start about axis 3),
/// r = (0.5, 0, 0), diameter 0.1, moving (0, 2, 0).
fn model(cylinder_color: Color, animation: bool) -> Model {
    let mut sys = Sys::new();
    let ground = sys.create_ground(Vector3::new(0.0, -1.0, 0.0)).unwrap();
    let m_ball = MASS_POINT_SPHERE_DENSITY * 4.0 / 3.0 * PI * R_BALL.powi(3);
    let mut spec = MassPointSpec::new(m_ball, Vector2::new(1.0, 2.0));
    spec.initial_displacement = Vector2::new(0.5, 0.0);
    spec.initial_velocity = Vector2::new(3.0, 4.0);
    let point = sys.create_mass_point(&spec).unwrap();
    let [a, b, c] = EDGES;
    let inertia = M_BOX / 12.0
        * Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b));
    let mass = MassProperties {
        mass: M_BOX,
        com: Vector3::new(0.1, 0.0, 0.0),
        inertia,
    };
    let mut rs = RigidBodySpec::at(Vector3::new(0.0, 0.0, 2.0));
    rs.orientation = Quaternion::exp(&Vector3::new(0.0, 0.0, TH_RIGID));
    rs.velocity = Vector3::new(1.0, 0.0, 0.0);
    let rigid = sys.create_rigid_body(&mass, &rs).unwrap();
    let start = ModelicaStart {
        r_0_start: Vector3::new(0.0, 0.0, 1.0),
        v_0_start: Vector3::new(0.0, 2.0, 0.0),
        angles_start: [0.0, 0.0, TH_CYL],
        ..ModelicaStart::default()
    };
    let cylinder = BodyCylinder::params(Vector3::new(0.5, 0.0, 0.0))
        .diameter(0.1)
        .start(start)
        .color(cylinder_color)
        .animation(animation)
        .build()
        .unwrap();
    let cyl = sys.create_body_cylinder(&cylinder, None).unwrap();
    Model {
        sys,
        ground,
        point,
        rigid,
        cyl,
    }
}

fn export(
    sys: &Sys,
    s: &VisualizationSettings,
) -> (
    Vec<DrawPrimitive<f64>>,
    mbs_core::graphics::SceneSummary<f64>,
) {
    let mut out = Vec::new();
    let summary = sys.export_scene(s, |p| out.push(*p)).unwrap();
    (out, summary)
}

fn rgba(p: &DrawPrimitive<f64>) -> [f32; 4] {
    p.color.rgba()
}

fn assert_rgb(p: &DrawPrimitive<f64>, rgb: [f32; 3]) {
    let c = rgba(p);
    for k in 0..3 {
        assert!(
            (c[k] - rgb[k]).abs() < 1e-6,
            "body {}: {c:?} vs {rgb:?}",
            p.body
        );
    }
}

#[test]
fn each_object_kind_is_drawn_by_its_default_in_world_coordinates() {
    let m = model(Color::MODELICA_BODY, true);
    let (prims, summary) = export(&m.sys, &VisualizationSettings::default());
    // Ground draws nothing; the three bodies one primitive each, in object order.
    assert_eq!(summary.bodies_drawn, 4);
    assert_eq!(summary.primitives, 3);
    assert_eq!(summary.contour_range, None);
    let bodies: Vec<usize> = prims.iter().map(|p| p.body).collect();
    assert_eq!(
        bodies,
        vec![
            m.point.object.get(),
            m.rigid.object.get(),
            m.cyl.object.get()
        ]
    );
    assert!(prims
        .iter()
        .all(|p| p.label.is_none() && p.contour_value.is_none()));

    // Mass point: the steel ball of its mass at (x_ref + u, y_ref, 0).
    let DrawShape::Sphere { center, radius } = prims[0].shape else {
        panic!("{:?}", prims[0]);
    };
    assert_relative_eq!(center, Vector3::new(1.5, 2.0, 0.0), epsilon = 1e-15);
    assert_relative_eq!(radius, R_BALL, epsilon = 1e-14);

    // Rigid body: its uniform box, centred at r_0 + Rz COM, edges along Rz's columns.
    let DrawShape::Cuboid { center, axes, size } = prims[1].shape else {
        panic!("{:?}", prims[1]);
    };
    let r = rz(TH_RIGID);
    assert_relative_eq!(
        center,
        Vector3::new(0.0, 0.0, 2.0) + r * Vector3::new(0.1, 0.0, 0.0),
        epsilon = 1e-14
    );
    assert_relative_eq!(axes, r, epsilon = 1e-14);
    assert_relative_eq!(size, Vector3::from(EDGES), epsilon = 1e-13);

    // BodyCylinder: Modelica's shape from frame_a along r, turned by Rz(-0.3).
    let DrawShape::Cylinder {
        p0,
        p1,
        radius,
        inner_radius,
    } = prims[2].shape
    else {
        panic!("{:?}", prims[2]);
    };
    let r = rz(TH_CYL);
    let a = Vector3::new(0.0, 0.0, 1.0);
    assert_relative_eq!(p0, a, epsilon = 1e-7);
    assert_relative_eq!(p1, a + r * Vector3::new(0.5, 0.0, 0.0), epsilon = 1e-7);
    assert_relative_eq!(radius, 0.05, epsilon = 1e-8);
    assert_eq!(inner_radius, 0.0);
    assert_eq!(prims[2].specular, 0.7);

    // Colors: the defaults take bodies.defaultColor (Exudyn's), the cylinder its BodyColor.
    assert_eq!(rgba(&prims[0]), [0.3, 0.3, 1.0, 1.0]);
    assert_eq!(rgba(&prims[1]), [0.3, 0.3, 1.0, 1.0]);
    assert_eq!(prims[2].color, Color::MODELICA_BODY);
}

#[test]
fn default_color_replaces_minus_one_components_only() {
    let partial = Color::new(1.0, -1.0, 0.0, -1.0).unwrap();
    let m = model(partial, true);
    let mut s = VisualizationSettings::default();
    s.bodies.default_color = Color::new(0.1, 0.2, 0.3, 0.4).unwrap();
    let (prims, _) = export(&m.sys, &s);
    assert_eq!(rgba(&prims[0]), [0.1, 0.2, 0.3, 0.4]);
    assert_eq!(rgba(&prims[1]), [0.1, 0.2, 0.3, 0.4]);
    assert_eq!(rgba(&prims[2]), [1.0, 0.2, 0.0, 0.4]);
}

#[test]
fn bodies_show_and_animation_hide() {
    let m = model(Color::MODELICA_BODY, false);
    let (prims, summary) = export(&m.sys, &VisualizationSettings::default());
    // animation = false hides the cylinder.
    assert_eq!(summary.bodies_drawn, 3);
    assert!(prims.iter().all(|p| p.body != m.cyl.object.get()));
    assert_eq!(prims.len(), 2);
    // bodies.show = false hides everything.
    let mut s = VisualizationSettings::default();
    s.bodies.show = false;
    let (prims, summary) = export(&m.sys, &s);
    assert!(prims.is_empty());
    assert_eq!((summary.bodies_drawn, summary.primitives), (0, 0));
}

#[test]
fn show_numbers_labels_each_drawn_bodys_first_primitive_at_its_reference_point() {
    let mut m = model(Color::MODELICA_BODY, true);
    // The rigid body gets two primitives of its own: the label is on the first only.
    let mut g = GraphicsData::new();
    for x in [0.0, 0.3] {
        g.push_shape(
            Shape::Sphere {
                center: Vector3::new(x, 0.0, 0.0),
                radius: 0.05,
            },
            Color::BLACK,
            0.5,
        )
        .unwrap();
    }
    m.sys.set_graphics(m.rigid.object, g).unwrap();
    let mut s = VisualizationSettings::default();
    s.bodies.show_numbers = true;
    let (prims, _) = export(&m.sys, &s);
    assert_eq!(prims.len(), 4);
    let labels: Vec<_> = prims
        .iter()
        .filter_map(|p| p.label.map(|l| (p.body, p.index, l.number, l.position)))
        .collect();
    assert_eq!(labels.len(), 3);
    let want = [
        (m.point.object.get(), Vector3::new(1.5, 2.0, 0.0)),
        (m.rigid.object.get(), Vector3::new(0.0, 0.0, 2.0)),
        (m.cyl.object.get(), Vector3::new(0.0, 0.0, 1.0)),
    ];
    for ((body, index, number, pos), (wb, wp)) in labels.iter().zip(want) {
        assert_eq!((*body, *index, *number), (wb, 0, wb));
        assert_relative_eq!(*pos, wp, epsilon = 1e-15);
    }
    // The custom spheres are placed with the true R_0b: the second at r_0 + Rz (0.3, 0, 0).
    let DrawShape::Sphere { center, .. } = prims[2].shape else {
        panic!("{:?}", prims[2]);
    };
    assert_eq!(prims[2].index, 1);
    assert_relative_eq!(
        center,
        Vector3::new(0.0, 0.0, 2.0) + rz(TH_RIGID) * Vector3::new(0.3, 0.0, 0.0),
        epsilon = 1e-14
    );
    assert_eq!(prims[2].color, Color::BLACK);
}

#[test]
fn contour_colors_follow_the_output_and_its_range() {
    let mut m = model(Color::MODELICA_BODY, true);
    // A grey ground plate: the ground keeps its colors under any contour.
    let mut plate = GraphicsData::new();
    plate
        .push_shape(
            Shape::Cuboid {
                center: Vector3::zeros(),
                size: Vector3::new(2.0, 0.02, 2.0),
            },
            Color::MODELICA_ROD,
            0.2,
        )
        .unwrap();
    m.sys.set_graphics(m.ground, plate).unwrap();
    let mut s = VisualizationSettings::default();
    s.contour.output_variable = Some(OutputVariableType::Velocity);
    s.contour.output_variable_component = -1;
    // |v|: point 5, rigid 1, cylinder 2; automatic range [1, 5].
    let (prims, summary) = export(&m.sys, &s);
    let range = summary.contour_range.unwrap();
    assert_relative_eq!(range.min(), 1.0, epsilon = 1e-15);
    assert_relative_eq!(range.max(), 5.0, epsilon = 1e-15);
    assert_eq!(prims[0].body, m.ground.get());
    assert_eq!(prims[0].color, Color::MODELICA_ROD);
    assert_eq!(prims[0].contour_value, None);
    assert_rgb(&prims[1], [0.9, 0.1, 0.1]); // 5: top, red
    assert_rgb(&prims[2], [0.1, 0.1, 0.9]); // 1: bottom, blue
    assert_rgb(&prims[3], [0.1, 0.9, 0.9]); // 2: 1/4, cyan
    assert_relative_eq!(prims[1].contour_value.unwrap(), 5.0, epsilon = 1e-14);
    assert_relative_eq!(prims[3].contour_value.unwrap(), 2.0, epsilon = 1e-14);
    // Component 1 (v_y): 4, 0, 2 -> the cylinder in the middle: green; alpha from the settings.
    s.contour.output_variable_component = 1;
    s.contour.alpha_transparency = 0.5;
    let (prims, _) = export(&m.sys, &s);
    assert_rgb(&prims[3], [0.1, 0.9, 0.1]);
    assert_eq!(rgba(&prims[3])[3], 0.5);
    // A fixed range [0, 8]: v_y = 4 of the point is its middle.
    s.contour.automatic_range = false;
    s.contour.max_value = 8.0;
    let (prims, summary) = export(&m.sys, &s);
    assert_eq!(
        summary.contour_range.map(|r| (r.min(), r.max())),
        Some((0.0, 8.0))
    );
    assert_rgb(&prims[1], [0.1, 0.9, 0.1]);
    // rigidBodiesColored = false: own colors, no range.
    s.contour.rigid_bodies_colored = false;
    let (prims, summary) = export(&m.sys, &s);
    assert_eq!(summary.contour_range, None);
    assert_eq!(rgba(&prims[1]), [0.3, 0.3, 1.0, 1.0]);
    assert_eq!(prims[3].color, Color::MODELICA_BODY);
    // A variable no body has (a mass point's AngularVelocity is 0, a 2D point has no
    // RotationMatrix component 9): bodies without the component keep their colors.
    s.contour.rigid_bodies_colored = true;
    s.contour.automatic_range = true;
    s.contour.output_variable = Some(OutputVariableType::RotationMatrix);
    s.contour.output_variable_component = 9;
    let (prims, summary) = export(&m.sys, &s);
    assert_eq!(summary.contour_range, None);
    assert!(prims.iter().all(|p| p.contour_value.is_none()));
}

#[test]
fn a_bad_setting_is_an_error_and_nothing_is_emitted() {
    let m = model(Color::MODELICA_BODY, true);
    let mut s = VisualizationSettings::default();
    s.contour.output_variable = Some(OutputVariableType::Position);
    s.contour.automatic_range = false;
    s.contour.min_value = 2.0;
    s.contour.max_value = 1.0;
    let mut n = 0;
    assert_eq!(
        m.sys.export_scene(&s, |_| n += 1),
        Err(Error::OutOfRange(Param::Setting))
    );
    assert_eq!(n, 0);
}

#[test]
fn custom_graphics_table_has_g_entries() {
    let mut m = model(Color::MODELICA_BODY, true);
    let g = GraphicsData::<f64>::new();
    assert_eq!(
        m.sys
            .set_graphics(ObjectIndex::from_usize(7).unwrap(), g.clone()),
        Err(Error::UnknownIndex)
    );
    m.sys.assemble().unwrap();
    m.sys.set_graphics(m.ground, g.clone()).unwrap();
    m.sys.set_graphics(m.point.object, g.clone()).unwrap();
    // Replacing one held is fine, a third object is not (G = 2); drawing keeps it assembled.
    let mut hidden = g.clone();
    hidden.set_show(false);
    m.sys.set_graphics(m.point.object, hidden.clone()).unwrap();
    assert_eq!(
        m.sys.set_graphics(m.rigid.object, g.clone()),
        Err(Error::CapacityFull)
    );
    assert!(m.sys.is_assembled());
    assert_eq!(m.sys.graphics(m.point.object), Some(&hidden));
    let (prims, summary) = export(&m.sys, &VisualizationSettings::default());
    assert_eq!(summary.bodies_drawn, 3); // the point is hidden by its own show
    assert!(prims.iter().all(|p| p.body != m.point.object.get()));
    // Cleared: drawn by its default sphere again.
    assert!(m.sys.clear_graphics(m.point.object));
    assert!(!m.sys.clear_graphics(m.point.object));
    assert_eq!(m.sys.graphics(m.point.object), None);
    let (prims, _) = export(&m.sys, &VisualizationSettings::default());
    assert!(matches!(prims[0].shape, DrawShape::Sphere { .. }));
}

#[test]
fn the_scene_follows_a_simulation() {
    // A mass point in free fall: after n steps the sphere is on the parabola
    // x0 + v0 t + g t^2 / 2 (kick-drift-kick is exact for gravity).
    let mut sys = Sys::new();
    let mut spec = MassPointSpec::new(1.0, Vector2::new(0.0, 1.0));
    spec.initial_velocity = Vector2::new(2.0, 3.0);
    spec.gravity = Some(Vector3::new(0.0, -9.81, 0.0));
    sys.create_mass_point(&spec).unwrap();
    sys.assemble().unwrap();
    for _ in 0..50 {
        sys.step(0.01, &mut NoSink).unwrap();
    }
    let t = 0.5;
    let mut centers = Vec::new();
    sys.export_scene(&VisualizationSettings::default(), |p| {
        if let DrawShape::Sphere { center, .. } = p.shape {
            centers.push(center);
        }
    })
    .unwrap();
    assert_eq!(centers.len(), 1);
    assert_relative_eq!(
        centers[0],
        Vector3::new(2.0 * t, 1.0 + 3.0 * t - 9.81 * t * t / 2.0, 0.0),
        epsilon = 1e-12
    );
}

#[test]
fn f32_systems_export_the_same_scene() {
    let mut sys = System::<f32, 4, 4, 8, 8, 4, 4>::new();
    let cylinder = BodyCylinder::<f32>::params(Vector3::new(0.0, 0.4, 0.0))
        .diameter(0.05)
        .build()
        .unwrap();
    sys.create_body_cylinder(&cylinder, None).unwrap();
    let mut out = Vec::new();
    sys.export_scene(&VisualizationSettings::default(), |p| out.push(*p))
        .unwrap();
    assert_eq!(out.len(), 1);
    let DrawShape::Cylinder { p0, p1, radius, .. } = out[0].shape else {
        panic!("{:?}", out[0]);
    };
    assert_eq!(p0, Vector3::zeros());
    assert_relative_eq!(p1, Vector3::new(0.0, 0.4, 0.0), epsilon = 1e-6);
    assert_relative_eq!(radius, 0.025, epsilon = 1e-7);
}

#[test]
fn ram_of_scene_storage() {
    use mbs_core::system::{CylinderShape, FirmwareSystem, HostSystem, Object};
    use std::mem::size_of;
    let entry32 = size_of::<(ObjectIndex, GraphicsData<f32>)>();
    let entry64 = size_of::<(ObjectIndex, GraphicsData<f64>)>();
    println!(
        "Object<f32> {} B, Object<f64> {} B (CylinderShape {} B inside); custom graphics entry \
         {entry32} B (f32) / {entry64} B (f64); FirmwareSystem<f32> {} B, <f64> {} B; \
         HostSystem<f64> {} B",
        size_of::<Object<f32>>(),
        size_of::<Object<f64>>(),
        size_of::<CylinderShape>(),
        size_of::<FirmwareSystem<f32>>(),
        size_of::<FirmwareSystem<f64>>(),
        size_of::<HostSystem<f64>>(),
    );
    assert_eq!(size_of::<CylinderShape>(), 32);
    // Before the scene export: Object<f32> 132 B, Object<f64> 264 B.
    assert!(size_of::<Object<f32>>() <= 132 + 32);
    assert!(size_of::<Object<f64>>() <= 264 + 32);
    // G = 0 costs nothing.
    assert_eq!(
        size_of::<System<f32, 1, 1, 1, 1, 1, 1, 0>>() + entry32,
        size_of::<System<f32, 1, 1, 1, 1, 1, 1, 1>>()
    );
}
