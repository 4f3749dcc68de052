//! Golden test of the scene SVG's structure for a known scene: which elements, how many, in
//! which order, with which attributes (not a byte-exact picture). The scene is built through the
//! core's export, so the settings' effects show up in the picture's structure.

use mbs_core::graphics::{Color, GraphicsData, SceneBody, Shape, VisualizationSettings};
use mbs_core::OutputVariableType;
use mbs_view::{scene_svg, RenderOptions, Scene, View};
use nalgebra::{Matrix3, Vector3};

use super::svg_support::{count, group};

struct Fixture {
    cyl: GraphicsData<f64>,
    block: GraphicsData<f64>,
    hidden: GraphicsData<f64>,
}

fn fixture() -> Fixture {
    let cyl = GraphicsData::body_cylinder(
        Vector3::zeros(),
        Vector3::x(),
        1.0,
        0.2,
        0.1,
        true,
        Color::MODELICA_BODY,
        0.7,
    )
    .unwrap();
    let mut block = GraphicsData::new();
    block
        .push_shape(
            Shape::Cuboid {
                center: Vector3::zeros(),
                size: Vector3::new(0.4, 0.4, 0.4),
            },
            Color::DEFAULT,
            0.3,
        )
        .unwrap();
    block
        .push_shape(
            Shape::Sphere {
                center: Vector3::new(0.0, 0.0, 0.5),
                radius: 0.1,
            },
            Color::new(1.0, 0.0, 0.0, 1.0).unwrap(),
            0.7,
        )
        .unwrap();
    block
        .push_shape(
            Shape::Line {
                p0: Vector3::zeros(),
                p1: Vector3::new(0.0, 1.0, 0.0),
            },
            Color::BLACK,
            0.0,
        )
        .unwrap();
    let mut hidden = GraphicsData::body_cylinder(
        Vector3::zeros(),
        Vector3::y(),
        1.0,
        0.1,
        0.0,
        true,
        Color::DEFAULT,
        0.7,
    )
    .unwrap();
    hidden.set_show(false);
    Fixture { cyl, block, hidden }
}

fn bodies(f: &Fixture) -> Vec<SceneBody<'_, f64>> {
    vec![
        SceneBody {
            number: 0,
            position: Vector3::new(-1.0, 0.0, 0.0),
            rotation: Matrix3::identity(),
            graphics: (&f.cyl).into(),
            contour: Some(1.0),
        },
        SceneBody {
            number: 1,
            position: Vector3::new(1.0, 0.0, -2.0), // behind body 0 in a view along z
            rotation: Matrix3::identity(),
            graphics: (&f.block).into(),
            contour: Some(3.0),
        },
        SceneBody {
            number: 2,
            position: Vector3::zeros(),
            rotation: Matrix3::identity(),
            graphics: (&f.hidden).into(),
            contour: Some(100.0),
        },
    ]
}

#[test]
fn scene_svg_has_the_expected_elements() {
    let f = fixture();
    let mut settings = VisualizationSettings::default();
    settings.bodies.show_numbers = true;
    let scene = Scene::capture(&settings, bodies(&f)).unwrap();
    assert_eq!(scene.primitives.len(), 4); // hidden body 2 not drawn
    assert!(scene.legend.is_none());
    let svg = scene_svg(
        &scene,
        &RenderOptions {
            width: 640,
            height: 480,
            view: View::AlongZ,
            title: Some("golden".into()),
            ..RenderOptions::default()
        },
    );
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"480\"")
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(count(&svg, "<rect id=\"background\""), 1);
    assert!(svg.contains(
        "<text id=\"title\" x=\"24\" y=\"30\" font-size=\"18\" fill=\"#222222\">golden</text>"
    ));

    let b = group(&svg, "bodies");
    assert_eq!(count(b, "<g class=\"primitive\""), 4);
    // Back to front along z: body 1 (z = -2, its sphere at z = -1.5) before body 0 (z = 0).
    let order: Vec<&str> = b
        .match_indices("data-body=\"")
        .map(|(i, _)| &b[i + 11..i + 12])
        .collect();
    assert_eq!(order, ["1", "1", "1", "0"]);
    assert_eq!(count(b, "data-shape=\"cylinder\""), 1);
    assert_eq!(count(b, "data-shape=\"cuboid\""), 1);
    assert_eq!(count(b, "data-shape=\"sphere\""), 1);
    assert_eq!(count(b, "data-shape=\"line\""), 1);
    // Cylinder seen from the side (axis x, view z): back cap, side, front cap, hole.
    let cyl = &b[b.find("data-shape=\"cylinder\"").unwrap()..];
    let cyl = &cyl[..cyl.find("</g>").unwrap()];
    assert_eq!(count(cyl, "<ellipse"), 3);
    assert_eq!(count(cyl, "<polygon"), 1);
    assert!(cyl.contains("fill=\"url(#side"));
    // A box seen face-on along z shows exactly its +z face.
    let cub = &b[b.find("data-shape=\"cuboid\"").unwrap()..];
    let cub = &cub[..cub.find("</g>").unwrap()];
    assert_eq!(count(cub, "<polygon"), 1);
    // The sphere's own red, shaded by a radial gradient; the line's black stroke.
    assert!(b.contains("fill=\"url(#ball"));
    assert!(svg.contains("<radialGradient id=\"ball"));
    assert!(b.contains("stroke=\"#000000\" stroke-width=\"2\""));

    let l = group(&svg, "labels");
    assert_eq!(count(l, "<text class=\"label\""), 2);
    assert!(l.contains(">0</text>") && l.contains(">1</text>") && !l.contains(">2</text>"));
    assert!(!svg.contains("<g id=\"legend\">"));
    assert!(svg.contains("<g id=\"axes\">"));
    assert!(svg.contains("<g id=\"scale\">"));
}

#[test]
fn settings_show_in_the_picture() {
    let f = fixture();
    // bodies.show = false: an empty bodies group, no labels.
    let mut settings = VisualizationSettings::default();
    settings.bodies.show = false;
    settings.bodies.show_numbers = true;
    let svg = scene_svg(
        &Scene::capture(&settings, bodies(&f)).unwrap(),
        &RenderOptions::default(),
    );
    assert_eq!(count(group(&svg, "bodies"), "<g class=\"primitive\""), 0);
    assert_eq!(count(group(&svg, "labels"), "<text"), 0);

    // defaultColor: the box (color -1) takes it; shading keeps the hue ordering (blue > red).
    let mut settings = VisualizationSettings::default();
    settings.bodies.default_color = Color::new(0.0, 0.0, 1.0, 1.0).unwrap();
    let svg = scene_svg(
        &Scene::capture(&settings, bodies(&f)).unwrap(),
        &RenderOptions {
            view: View::AlongZ,
            ..RenderOptions::default()
        },
    );
    let b = group(&svg, "bodies");
    let cub = &b[b.find("data-shape=\"cuboid\"").unwrap()..];
    let fill = &cub[cub.find("fill=\"#").unwrap() + 7..][..6];
    let ch = |k: usize| u8::from_str_radix(&fill[2 * k..2 * k + 2], 16).unwrap() as u32;
    // Pure blue, shaded, plus a small white highlight (specular 0.3): r = g << b.
    assert!(
        ch(0) == ch(1) && ch(2) > 8 * ch(0) && ch(2) > 150,
        "box face #{fill} not blue"
    );

    // Contour on: a legend with the automatic range [1, 3] of the drawn bodies (not 100).
    let mut settings = VisualizationSettings::default();
    settings.contour.output_variable = Some(OutputVariableType::Velocity);
    settings.contour.output_variable_component = -1;
    let scene = Scene::capture(&settings, bodies(&f)).unwrap();
    let legend = scene.legend.clone().unwrap();
    assert_eq!((legend.min, legend.max), (1.0, 3.0));
    assert_eq!(legend.title, "Velocity (norm)");
    let svg = scene_svg(&scene, &RenderOptions::default());
    let g = group(&svg, "legend");
    assert_eq!(count(g, "<rect class=\"colorbar\""), 1);
    assert_eq!(count(g, "<text class=\"tick-label\""), 5);
    assert_eq!(count(g, "<stop "), 5);
    for v in [
        ">1</text>",
        ">1.5</text>",
        ">2</text>",
        ">2.5</text>",
        ">3</text>",
    ] {
        assert!(g.contains(v), "missing tick {v}");
    }
    assert!(g.contains("Velocity (norm)"));
    // The line of body 1 (value 3 = top) is drawn in the top color, red (0.9, 0.1, 0.1).
    assert!(group(&svg, "bodies").contains("stroke=\"#e61a1a\""));

    // showColorBar = false: colors stay, legend goes.
    settings.contour.show_color_bar = false;
    let scene = Scene::capture(&settings, bodies(&f)).unwrap();
    assert!(scene.legend.is_none());
    let svg = scene_svg(&scene, &RenderOptions::default());
    assert!(!svg.contains("<g id=\"legend\">"));
    assert!(group(&svg, "bodies").contains("stroke=\"#e61a1a\""));
}

#[test]
fn every_view_draws_every_primitive() {
    let f = fixture();
    let scene = Scene::capture(&VisualizationSettings::default(), bodies(&f)).unwrap();
    for view in [View::AlongX, View::AlongY, View::AlongZ, View::Isometric] {
        let svg = scene_svg(
            &scene,
            &RenderOptions {
                view,
                ..RenderOptions::default()
            },
        );
        assert_eq!(
            count(group(&svg, "bodies"), "<g class=\"primitive\""),
            4,
            "{view:?}"
        );
        assert!(!svg.contains("NaN"), "{view:?}");
    }
}
