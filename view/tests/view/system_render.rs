//! A system's picture (`render_system`, through `System::export_scene`): golden test of the SVG
//! structure, and the PNG decoded back.

use super::svg_support::{count, group};
use super::system_fixture::{contour_settings, system};
use mbs_core::graphics::VisualizationSettings;
use mbs_view::{render_system, render_system_png, system_scene, RenderOptions, View};
use resvg::tiny_skia::Pixmap;

#[test]
fn system_svg_has_every_body_its_number_and_the_color_bar() {
    let sys = system();
    let opts = RenderOptions {
        width: 640,
        height: 480,
        view: View::AlongZ,
        title: Some("system".into()),
        ..RenderOptions::default()
    };
    let svg = render_system(&sys, &contour_settings(), &opts).unwrap();
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"480\"")
    );
    assert!(svg.contains(">system</text>"));
    let b = group(&svg, "bodies");
    assert_eq!(count(b, "<g class=\"primitive\""), 4);
    // Ground plate and rigid box are boxes, the mass point a sphere, the BodyCylinder a cylinder.
    assert_eq!(count(b, "data-shape=\"cuboid\""), 2);
    assert_eq!(count(b, "data-shape=\"sphere\""), 1);
    assert_eq!(count(b, "data-shape=\"cylinder\""), 1);
    // Back to front along z: plate (z 0 with depth 0.8 behind), box, point (z 0), cylinder
    // (z 0.5) in front. Every object once.
    let mut bodies: Vec<&str> = b
        .match_indices("data-body=\"")
        .map(|(i, _)| &b[i + 11..i + 12])
        .collect();
    assert_eq!(bodies.last(), Some(&"3"));
    bodies.sort();
    assert_eq!(bodies, ["0", "1", "2", "3"]);
    // Numbers of the four objects.
    let l = group(&svg, "labels");
    assert_eq!(count(l, "<text class=\"label\""), 4);
    for n in 0..4 {
        assert!(l.contains(&format!(">{n}</text>")), "label {n}");
    }
    // Color bar of |v| over the three bodies: 1 .. 5 (the ground has no value).
    let g = group(&svg, "legend");
    assert!(g.contains("Velocity (norm)"));
    assert!(g.contains(">1</text>") && g.contains(">5</text>"));
    // The rigid box (|v| = 1, bottom of the range) is drawn blue: its face fill has b >> r.
    let cub = b
        .match_indices("data-body=\"2\"")
        .map(|(i, _)| &b[i..])
        .next()
        .unwrap();
    let fill = &cub[cub.find("fill=\"#").unwrap() + 7..][..6];
    let ch = |k: usize| u8::from_str_radix(&fill[2 * k..2 * k + 2], 16).unwrap() as u32;
    assert!(
        ch(2) > 2 * ch(0) && ch(2) > 2 * ch(1),
        "box #{fill} not blue"
    );
    // Without contour and numbers: no legend, no labels.
    let svg = render_system(&sys, &VisualizationSettings::default(), &opts).unwrap();
    assert!(!svg.contains("<g id=\"legend\">"));
    assert_eq!(count(group(&svg, "labels"), "<text"), 0);
    assert_eq!(count(group(&svg, "bodies"), "<g class=\"primitive\""), 4);
}

#[test]
fn system_png_decodes_with_the_contour_colors() {
    let sys = system();
    let png = render_system_png(
        &sys,
        &contour_settings(),
        &RenderOptions {
            width: 400,
            height: 300,
            ..RenderOptions::default()
        },
    )
    .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let p = Pixmap::decode_png(&png).expect("decodes");
    assert_eq!((p.width(), p.height()), (400, 300));
    let px: Vec<_> = p.pixels().iter().map(|c| c.demultiply()).collect();
    let red = px
        .iter()
        .filter(|c| c.red() > 150 && (c.green() as u32) < c.red() as u32 / 2)
        .count();
    let blue = px
        .iter()
        .filter(|c| c.blue() > 120 && (c.red() as u32) < c.blue() as u32 / 2)
        .count();
    // The mass point (|v| = 5, top of the range) is red, the box (bottom) blue.
    assert!(red > 100, "{red} red pixels");
    assert!(blue > 100, "{blue} blue pixels");
    // The scene the picture came from: the four objects.
    let scene = system_scene(&sys, &contour_settings()).unwrap();
    assert_eq!(scene.primitives.len(), 4);
}
