//! The scene export against Exudyn's drawing rules: each setting (`bodies.show`,
//! `bodies.showNumbers`, `bodies.defaultColor`, `contour.*`) changes exactly what Exudyn's documentation says,
//! poses are placed as `p_0 = r_0 + R_0b p_b` (checked against hand-computed points), and bad
//! inputs emit nothing.
#![allow(clippy::disallowed_methods)]

use approx::assert_relative_eq;
use mbs_core::graphics::colormap::{ABOVE, BELOW};
use mbs_core::graphics::{
    export_scene, Color, DrawPrimitive, DrawShape, GraphicsData, SceneBody, SceneSummary, Shape,
    VisualizationSettings,
};
use mbs_core::math::Quaternion;
use mbs_core::{Error, OutputVariableType, Param};
use nalgebra::{Matrix3, Vector3};

fn run(
    settings: &VisualizationSettings,
    bodies: &[SceneBody<'_, f64>],
) -> (mbs_core::Result<SceneSummary<f64>>, Vec<DrawPrimitive<f64>>) {
    let mut out = Vec::new();
    let r = export_scene(settings, bodies.iter().copied(), |p| out.push(*p));
    (r, out)
}

fn cylinder_x(color: Color) -> GraphicsData<f64> {
    GraphicsData::body_cylinder(
        Vector3::zeros(),
        Vector3::x(),
        1.0,
        0.1,
        0.0,
        true,
        color,
        0.7,
    )
    .unwrap()
}

fn body(number: usize, g: &GraphicsData<f64>, contour: Option<f64>) -> SceneBody<'_, f64> {
    SceneBody {
        number,
        position: Vector3::new(number as f64, 0.0, 0.0),
        rotation: Matrix3::identity(),
        graphics: g.into(),
        contour,
    }
}

fn rgb(c: Color) -> [f32; 3] {
    let [r, g, b, _] = c.rgba();
    [r, g, b]
}

#[test]
fn shapes_are_placed_in_the_world_frame() {
    // Body at r_0 = (1, 2, 3), turned +90 deg about z: body x -> world y, body y -> world -x.
    let mut g: GraphicsData<f64> = GraphicsData::new();
    g.push_shape(
        Shape::Cylinder {
            p0: Vector3::zeros(),
            p1: Vector3::new(1.0, 0.0, 0.0),
            radius: 0.1,
            inner_radius: 0.02,
        },
        Color::DEFAULT,
        0.7,
    )
    .unwrap();
    g.push_shape(
        Shape::Cuboid {
            center: Vector3::new(0.0, 0.5, 0.0),
            size: Vector3::new(0.1, 0.2, 0.3),
        },
        Color::DEFAULT,
        0.0,
    )
    .unwrap();
    g.push_shape(
        Shape::Sphere {
            center: Vector3::new(0.0, 0.0, 2.0),
            radius: 0.25,
        },
        Color::DEFAULT,
        0.3,
    )
    .unwrap();
    g.push_shape(
        Shape::Line {
            p0: Vector3::new(1.0, 1.0, 0.0),
            p1: Vector3::new(-1.0, 0.0, 0.0),
        },
        Color::DEFAULT,
        0.0,
    )
    .unwrap();
    let q = Quaternion::exp(&Vector3::new(0.0, 0.0, core::f64::consts::FRAC_PI_2));
    let b = SceneBody {
        number: 4,
        position: Vector3::new(1.0, 2.0, 3.0),
        rotation: q.to_matrix(),
        graphics: (&g).into(),
        contour: None,
    };
    let (r, out) = run(&VisualizationSettings::default(), &[b]);
    let s = r.unwrap();
    assert_eq!((s.bodies_drawn, s.primitives), (1, 4));
    assert_eq!(out.len(), 4);
    assert!(out.iter().all(|p| p.body == 4 && p.label.is_none()));
    assert_eq!(
        out.iter().map(|p| p.index).collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    match out[0].shape {
        DrawShape::Cylinder {
            p0,
            p1,
            radius,
            inner_radius,
        } => {
            assert_relative_eq!(p0, Vector3::new(1.0, 2.0, 3.0), epsilon = 1e-15);
            assert_relative_eq!(p1, Vector3::new(1.0, 3.0, 3.0), epsilon = 1e-15);
            assert_eq!((radius, inner_radius), (0.1, 0.02));
        }
        s => panic!("{s:?}"),
    }
    match out[1].shape {
        DrawShape::Cuboid { center, axes, size } => {
            // body (0, 0.5, 0) -> world (-0.5, 0, 0) + r_0
            assert_relative_eq!(center, Vector3::new(0.5, 2.0, 3.0), epsilon = 1e-15);
            assert_relative_eq!(axes.column(0).into_owned(), Vector3::y(), epsilon = 1e-15);
            assert_relative_eq!(axes.column(1).into_owned(), -Vector3::x(), epsilon = 1e-15);
            assert_relative_eq!(axes.column(2).into_owned(), Vector3::z(), epsilon = 1e-15);
            assert_eq!(size, Vector3::new(0.1, 0.2, 0.3));
        }
        s => panic!("{s:?}"),
    }
    match out[2].shape {
        DrawShape::Sphere { center, radius } => {
            assert_relative_eq!(center, Vector3::new(1.0, 2.0, 5.0), epsilon = 1e-15);
            assert_eq!(radius, 0.25);
        }
        s => panic!("{s:?}"),
    }
    match out[3].shape {
        DrawShape::Line { p0, p1 } => {
            assert_relative_eq!(p0, Vector3::new(0.0, 3.0, 3.0), epsilon = 1e-15);
            assert_relative_eq!(p1, Vector3::new(1.0, 1.0, 3.0), epsilon = 1e-15);
        }
        s => panic!("{s:?}"),
    }
}

#[test]
fn a_body_is_drawn_iff_bodies_show_and_its_own_show() {
    let shown = cylinder_x(Color::DEFAULT);
    let mut hidden = cylinder_x(Color::DEFAULT);
    hidden.set_show(false);
    let bodies = [
        body(0, &shown, None),
        body(1, &hidden, None),
        body(2, &shown, None),
    ];
    let mut s = VisualizationSettings::default();
    let (r, out) = run(&s, &bodies);
    assert_eq!(r.unwrap().bodies_drawn, 2);
    assert_eq!(out.iter().map(|p| p.body).collect::<Vec<_>>(), [0, 2]);

    s.bodies.show = false;
    let (r, out) = run(&s, &bodies);
    let r = r.unwrap();
    assert_eq!((r.bodies_drawn, r.primitives), (0, 0));
    assert!(out.is_empty());

    // BodyCylinder's animation = false is the body's own show.
    let anim_off: GraphicsData<f64> = GraphicsData::body_cylinder(
        Vector3::zeros(),
        Vector3::y(),
        1.0,
        0.05,
        0.0,
        false,
        Color::MODELICA_BODY,
        0.7,
    )
    .unwrap();
    let (r, out) = run(
        &VisualizationSettings::default(),
        &[body(7, &anim_off, None)],
    );
    assert_eq!(r.unwrap().bodies_drawn, 0);
    assert!(out.is_empty());
}

#[test]
fn show_numbers_labels_each_drawn_body_once_at_its_reference_point() {
    let mut two = cylinder_x(Color::DEFAULT);
    two.push_shape(
        Shape::Sphere {
            center: Vector3::zeros(),
            radius: 0.2,
        },
        Color::DEFAULT,
        0.7,
    )
    .unwrap();
    let mut hidden = cylinder_x(Color::DEFAULT);
    hidden.set_show(false);
    let bodies = [
        body(3, &two, None),
        body(5, &hidden, None),
        body(6, &two, None),
    ];
    let mut s = VisualizationSettings::default();
    let (_, out) = run(&s, &bodies);
    assert!(out.iter().all(|p| p.label.is_none()));

    s.bodies.show_numbers = true;
    let (_, out_n) = run(&s, &bodies);
    let labels: Vec<_> = out_n.iter().filter_map(|p| p.label).collect();
    assert_eq!(labels.len(), 2);
    assert_eq!(labels[0].number, 3);
    assert_eq!(labels[0].position, Vector3::new(3.0, 0.0, 0.0));
    assert_eq!(labels[1].number, 6);
    assert!(out_n[0].label.is_some() && out_n[1].label.is_none());
    // Only the labels differ.
    for (a, b) in out.iter().zip(&out_n) {
        assert_eq!(a.shape, b.shape);
        assert_eq!(a.color, b.color);
    }
}

#[test]
fn default_color_replaces_exactly_the_minus_one_components() {
    let red = Color::new(1.0, 0.0, 0.0, 1.0).unwrap();
    let g_default = cylinder_x(Color::DEFAULT);
    let g_partial = cylinder_x(Color::new(-1.0, 0.5, -1.0, 1.0).unwrap());
    let g_red = cylinder_x(red);
    let bodies = [
        body(0, &g_default, None),
        body(1, &g_partial, None),
        body(2, &g_red, None),
    ];
    let mut s = VisualizationSettings::default();
    let (_, out) = run(&s, &bodies);
    assert_eq!(out[0].color, Color::EXUDYN_BODY_DEFAULT);
    assert_eq!(out[1].color.rgba(), [0.3, 0.5, 1.0, 1.0]);
    assert_eq!(out[2].color, red);

    s.bodies.default_color = Color::new(0.0, 1.0, 0.0, 0.5).unwrap();
    let (_, out) = run(&s, &bodies);
    assert_eq!(out[0].color.rgba(), [0.0, 1.0, 0.0, 0.5]);
    assert_eq!(out[1].color.rgba(), [0.0, 0.5, 0.0, 1.0]);
    assert_eq!(out[2].color, red);
    assert!(out.iter().all(|p| p.contour_value.is_none()));
}

#[test]
fn contour_colors_bodies_by_their_value_only_when_asked() {
    let own = Color::new(0.5, 0.5, 0.5, 1.0).unwrap();
    let g = cylinder_x(own);
    let bodies = [
        body(0, &g, Some(0.0)),
        body(1, &g, Some(5.0)),
        body(2, &g, Some(10.0)),
        body(3, &g, None),
    ];
    // No output variable: own colors, no range.
    let mut s = VisualizationSettings::default();
    let (r, out) = run(&s, &bodies);
    assert_eq!(r.unwrap().contour_range, None);
    assert!(out.iter().all(|p| p.color == own));

    // Output variable set: automatic range [0, 10]: blue, green, red; no value keeps its color.
    s.contour.output_variable = Some(OutputVariableType::Velocity);
    s.contour.output_variable_component = -1;
    let (r, out) = run(&s, &bodies);
    let range = r.unwrap().contour_range.unwrap();
    assert_eq!((range.min(), range.max()), (0.0, 10.0));
    assert_eq!(rgb(out[0].color), [0.1, 0.1, 0.9]);
    assert_eq!(rgb(out[1].color), [0.1, 0.9, 0.1]);
    assert_eq!(rgb(out[2].color), [0.9, 0.1, 0.1]);
    assert_eq!(out[3].color, own);
    assert_eq!(out[1].contour_value, Some(5.0));
    assert_eq!(out[3].contour_value, None);

    // Fixed range [0, 20]: 10 is mid (green); alpha from alphaTransparency.
    s.contour.automatic_range = false;
    s.contour.min_value = 0.0;
    s.contour.max_value = 20.0;
    s.contour.alpha_transparency = 0.5;
    let (r, out) = run(&s, &bodies);
    let range = r.unwrap().contour_range.unwrap();
    assert_eq!((range.min(), range.max()), (0.0, 20.0));
    assert_eq!(rgb(out[1].color), [0.1, 0.9, 0.9]); // 5/20 = 0.25: cyan
    assert_eq!(rgb(out[2].color), [0.1, 0.9, 0.1]);
    assert_eq!(out[2].color.rgba()[3], 0.5);

    // Values outside a fixed range show as clipped greys.
    s.contour.min_value = 4.0;
    s.contour.max_value = 6.0;
    let (_, out) = run(&s, &bodies);
    assert_eq!(rgb(out[0].color), BELOW);
    assert_eq!(rgb(out[2].color), ABOVE);

    // rigidBodiesColored = false: the contour leaves rigid bodies alone.
    s.contour.rigid_bodies_colored = false;
    let (r, out) = run(&s, &bodies);
    assert_eq!(r.unwrap().contour_range, None);
    assert!(out
        .iter()
        .all(|p| p.color == own && p.contour_value.is_none()));
}

#[test]
fn hidden_bodies_do_not_widen_the_automatic_range() {
    let g = cylinder_x(Color::DEFAULT);
    let mut hidden = cylinder_x(Color::DEFAULT);
    hidden.set_show(false);
    let bodies = [
        body(0, &g, Some(1.0)),
        body(1, &hidden, Some(100.0)),
        body(2, &g, Some(3.0)),
    ];
    let mut s = VisualizationSettings::default();
    s.contour.output_variable = Some(OutputVariableType::Position);
    let (r, _) = run(&s, &bodies);
    let range = r.unwrap().contour_range.unwrap();
    assert_eq!((range.min(), range.max()), (1.0, 3.0));
}

#[test]
fn bad_inputs_emit_nothing() {
    let g = cylinder_x(Color::DEFAULT);
    let good = body(0, &g, Some(1.0));
    let mut bad_pos = body(1, &g, None);
    bad_pos.position.y = f64::NAN;
    let (r, out) = run(&VisualizationSettings::default(), &[good, bad_pos]);
    assert_eq!(r, Err(Error::NotFinite(Param::Position)));
    assert!(out.is_empty());

    let mut bad_rot = body(1, &g, None);
    bad_rot.rotation[(2, 1)] = f64::INFINITY;
    let (r, out) = run(&VisualizationSettings::default(), &[good, bad_rot]);
    assert_eq!(r, Err(Error::NotFinite(Param::Orientation)));
    assert!(out.is_empty());

    // A NaN contour value is an error only when contours are on.
    let nan_value = body(1, &g, Some(f64::NAN));
    let (r, _) = run(&VisualizationSettings::default(), &[good, nan_value]);
    assert!(r.is_ok());
    let mut s = VisualizationSettings::default();
    s.contour.output_variable = Some(OutputVariableType::Position);
    let (r, out) = run(&s, &[good, nan_value]);
    assert_eq!(r, Err(Error::NonFiniteState));
    assert!(out.is_empty());

    // A bad fixed range.
    s.contour.automatic_range = false;
    s.contour.min_value = 2.0;
    s.contour.max_value = 1.0;
    let (r, out) = run(&s, &[good]);
    assert_eq!(r, Err(Error::OutOfRange(Param::Setting)));
    assert!(out.is_empty());

    // A hidden body's state is not looked at.
    let mut hidden = cylinder_x(Color::DEFAULT);
    hidden.set_show(false);
    let mut hidden_bad = body(2, &hidden, None);
    hidden_bad.position.x = f64::NAN;
    let (r, out) = run(&VisualizationSettings::default(), &[good, hidden_bad]);
    assert!(r.is_ok());
    assert_eq!(out.len(), 1);
}

#[test]
fn f32_scenes_and_streaming_without_a_slice() {
    // The export takes any cloneable iterator: bodies made on the fly, as a firmware would.
    let g: GraphicsData<f32> = GraphicsData::body_cylinder(
        Vector3::zeros(),
        Vector3::z(),
        0.5,
        0.05,
        0.0,
        true,
        Color::DEFAULT,
        0.7,
    )
    .unwrap();
    let iter = (0..3usize).map(|i| SceneBody {
        number: i,
        position: Vector3::new(0.0, i as f32, 0.0),
        rotation: Matrix3::identity(),
        graphics: (&g).into(),
        contour: Some(i as f32),
    });
    let mut s = VisualizationSettings::default();
    s.contour.output_variable = Some(OutputVariableType::Position);
    s.contour.output_variable_component = 1;
    let mut n = 0;
    let mut last = None;
    let r = export_scene(&s, iter, |p| {
        n += 1;
        last = Some(*p);
    })
    .unwrap();
    assert_eq!((n, r.primitives), (3, 3));
    let last = last.unwrap();
    assert_eq!(rgb(last.color), [0.9, 0.1, 0.1]);
    match last.shape {
        DrawShape::Cylinder { p0, p1, .. } => {
            assert_eq!(p0, Vector3::new(0.0, 2.0, 0.0));
            assert_eq!(p1, Vector3::new(0.0, 2.0, 0.5));
        }
        s => panic!("{s:?}"),
    }
}
