//! The PNGs open: each picture is decoded back (tiny-skia's PNG decoder, the one resvg ships)
//! and checked for its size and for content (not blank: colors of the scene are present).

use mbs_core::graphics::VisualizationSettings;
use mbs_view::demo::DemoSystem;
use mbs_view::trajectory::Trajectory;
use mbs_view::{plot_svg, scene_svg, svg_to_png, PlotOptions, RenderOptions, Scene, View};
use resvg::tiny_skia::Pixmap;

fn decode(png: &[u8]) -> Pixmap {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    Pixmap::decode_png(png).expect("decodes")
}

/// Count of pixels that differ from white by more than a small amount.
fn non_white(p: &Pixmap) -> usize {
    p.pixels()
        .iter()
        .filter(|c| {
            let c = c.demultiply();
            (255 - c.red() as i32) + (255 - c.green() as i32) + (255 - c.blue() as i32) > 30
        })
        .count()
}

#[test]
fn scene_png_has_its_size_and_is_not_blank() {
    let sys = DemoSystem::new().unwrap();
    let bodies = sys.scene_bodies(0.5);
    let scene = Scene::capture(&VisualizationSettings::default(), bodies.iter().copied()).unwrap();
    let svg = scene_svg(
        &scene,
        &RenderOptions {
            width: 320,
            height: 240,
            view: View::Isometric,
            ..RenderOptions::default()
        },
    );
    let p = decode(&svg_to_png(&svg).unwrap());
    assert_eq!((p.width(), p.height()), (320, 240));
    let n = non_white(&p);
    assert!(n > 320 * 240 / 20, "only {n} drawn pixels");
    // Modelica's BodyColor (0, 128, 255) shaded: some clearly blue pixels exist.
    let blue = p
        .pixels()
        .iter()
        .filter(|c| {
            let c = c.demultiply();
            c.blue() as i32 > c.red() as i32 + 80 && c.blue() > 120
        })
        .count();
    assert!(blue > 50, "only {blue} blue pixels");
}

#[test]
fn plot_png_has_its_size_and_is_not_blank() {
    let mut t = Trajectory::new(["sin", "cos"]);
    for k in 0..=50 {
        let x = k as f64 * 0.1;
        t.push(x, &[x.sin(), x.cos()]).unwrap();
    }
    let svg = plot_svg(
        &t,
        &PlotOptions {
            width: 400,
            height: 300,
            ..PlotOptions::default()
        },
    );
    let p = decode(&svg_to_png(&svg).unwrap());
    assert_eq!((p.width(), p.height()), (400, 300));
    assert!(non_white(&p) > 2000);
}

#[test]
fn bad_svg_is_an_error_not_a_panic() {
    assert!(svg_to_png("<svg").is_err());
    assert!(
        svg_to_png("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\"/>").is_err()
    );
}
