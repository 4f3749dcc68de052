//! Run recordings and their page: a recording written by `System::record_frame` while a chain
//! of links swings reads back bit for bit as the scene export of every frame; malformed
//! recordings are refused with their line; the page holds the run (times, shapes, poses that
//! map the unit shapes onto the recorded primitives, colours, time plots), is self-contained
//! (no address outside the file) and keeps `</` out of its scripts.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use mbs_core::graphics::record::write_run_header;
use mbs_core::graphics::{DrawShape, VisualizationSettings};
use mbs_core::solver::SimulationSettings;
use mbs_core::system::{Control, NoSink};
use mbs_core::OutputVariableType;
use mbs_view::chain::chain;
use mbs_view::{page_html, read_run, PageOptions, ViewError};
use nalgebra::Vector3;

fn contour() -> VisualizationSettings {
    let mut vis = VisualizationSettings::default();
    vis.bodies.show_numbers = true;
    vis.contour.output_variable = Some(OutputVariableType::Velocity);
    vis.contour.output_variable_component = -1;
    vis
}

/// A 3-link chain run for 40 steps, a frame every 10 steps from the start (the observer's
/// step 0), and the scene export of every recorded state.
fn recorded() -> (String, Vec<Vec<mbs_core::graphics::DrawPrimitive<f64>>>) {
    let (mut sys, _) = chain(3).unwrap();
    let vis = contour();
    let mut text = String::new();
    write_run_header(&mut text, Some("three links\nswinging")).unwrap();
    let mut exported = Vec::new();
    let mut export = |sys: &mbs_view::chain::ChainSystem, text: &mut String| {
        sys.record_frame(&vis, text).unwrap();
        let mut prims = Vec::new();
        sys.export_scene(&vis, |p| prims.push(*p)).unwrap();
        exported.push(prims);
    };
    let mut s = SimulationSettings::default();
    (s.end_time, s.number_of_steps) = (0.04, 40);
    sys.solve_dynamic_observed(&s, &mut NoSink, |sys, p| {
        if p.step % 10 == 0 {
            export(sys, &mut text);
        }
        Control::Continue
    })
    .unwrap();
    text.push_str("signal a (m)\nsignal b\nsample 0 1 2\nsample 0.5 3 -4e-7\n");
    (text, exported)
}

#[test]
fn a_recording_reads_back_as_the_exported_scenes_bit_for_bit() {
    let (text, exported) = recorded();
    assert!(text.starts_with("mbs-run 1\ntitle three links swinging\nframe 0.0\n"));
    let run = read_run(&text).unwrap();
    assert_eq!(run.title.as_deref(), Some("three links swinging"));
    assert_eq!(run.frames.len(), 5);
    for (k, f) in run.frames.iter().enumerate() {
        assert_eq!(f.time, [0.0, 0.01, 0.02, 0.03, 0.04][k]);
        assert_eq!(f.primitives, exported[k], "frame {k}");
        let legend = f.legend.as_ref().unwrap();
        assert_eq!(legend.title, "Velocity (norm)");
        let values: Vec<f64> = f
            .primitives
            .iter()
            .filter_map(|p| p.contour_value)
            .collect();
        assert_eq!(legend.max, values.iter().copied().fold(f64::MIN, f64::max));
    }
    assert_eq!(run.signals, ["a (m)", "b"]);
    assert_eq!(run.samples, [vec![0.0, 1.0, 2.0], vec![0.5, 3.0, -4e-7]]);
}

#[test]
fn malformed_recordings_are_refused_with_their_line() {
    let line_of = |text: &str| match read_run(text) {
        Err(ViewError::Stream { line, .. }) => line,
        other => panic!("accepted: {other:?}"),
    };
    let sphere = "sphere 0 0 0 0 0 0.1 0.5 0.5 0.5 1 0.7 - -";
    assert_eq!(line_of(""), 0);
    assert_eq!(line_of("mbs-scene 1\n"), 1);
    assert_eq!(line_of(&format!("mbs-run 1\n{sphere}\n")), 2); // before any frame
    assert_eq!(line_of("mbs-run 1\nframe 1\nframe 1\n"), 3); // time not increasing
    assert_eq!(line_of("mbs-run 1\nframe nan\n"), 2);
    assert_eq!(line_of("mbs-run 1\nframe 0 1\n"), 2);
    assert_eq!(line_of("mbs-run 1\nsignal a\nsample 0 1 2\n"), 3); // two values, one signal
    assert_eq!(line_of("mbs-run 1\nsignal a\nsample 0 1\nsignal b\n"), 4);
    assert_eq!(line_of("mbs-run 1\nsignal a\nsample 1 1\nsample 0 1\n"), 4);
    assert_eq!(line_of("mbs-run 1\nframe 0\ncontour 2 1 x\n"), 3);
    assert_eq!(
        line_of("mbs-run 1\nframe 0\nsphere 0 0 0 0 0 -1 1 1 1 1 0 - -\n"),
        3
    );
    assert_eq!(line_of("mbs-run 1\nframes 0\n"), 2);
    assert!(read_run(&format!("# c\nmbs-run 1\n\nframe 0\n{sphere}\n")).is_ok());
}

/// The JSON of a page.
fn page_data(html: &str) -> serde_json::Value {
    let start = html
        .find(r#"<script id="mbs-data" type="application/json">"#)
        .unwrap();
    let body = &html[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
    serde_json::from_str(&body.replace("<\\/", "</")).unwrap()
}

fn f32s(v: &serde_json::Value) -> Vec<f32> {
    let b = STANDARD.decode(v.as_str().unwrap()).unwrap();
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn the_page_maps_the_unit_shapes_onto_the_recorded_primitives() {
    let (text, _) = recorded();
    let run = read_run(&text).unwrap();
    let html = page_html(&run, &PageOptions::default());
    let data = page_data(&html);
    let shapes = data["shapes"].as_array().unwrap();
    assert_eq!(data["times"].as_array().unwrap().len(), 5);
    assert_eq!(shapes.len(), 3);
    let (poses, colors) = (
        f32s(&data["poses"]),
        STANDARD.decode(data["colors"].as_str().unwrap()).unwrap(),
    );
    let labels = f32s(&data["labels"]);
    assert_eq!(
        (poses.len(), colors.len(), labels.len()),
        (5 * 3 * 12, 5 * 3 * 4, 5 * 3 * 3)
    );
    for (f, frame) in run.frames.iter().enumerate() {
        for (k, p) in frame.primitives.iter().enumerate() {
            assert_eq!(shapes[k]["body"], p.body);
            let m = &poses[12 * (3 * f + k)..][..12];
            let col = |j: usize| Vector3::new(m[3 * j], m[3 * j + 1], m[3 * j + 2]).cast::<f64>();
            let DrawShape::Cylinder { p0, p1, radius, .. } = p.shape else {
                panic!("a link is a cylinder")
            };
            // The unit cylinder's ends (0, -1/2, 0), (0, 1/2, 0) go to p0, p1; its radius
            // directions to vectors of length `radius` normal to the axis.
            assert!((col(3) - col(1) / 2.0 - p0).norm() < 1e-6);
            assert!((col(3) + col(1) / 2.0 - p1).norm() < 1e-6);
            for j in [0, 2] {
                assert!((col(j).norm() - radius).abs() < 1e-6);
                assert!(col(j).dot(&(p1 - p0)).abs() < 1e-6);
            }
            assert!(col(0).cross(&col(1)).dot(&col(2)) > 0.0, "right-handed");
            let c = &colors[4 * (3 * f + k)..][..4];
            let rgba = p.color.rgba();
            for j in 0..4 {
                assert_eq!(c[j], (rgba[j] * 255.0).round() as u8);
            }
            let l = p.label.as_ref().unwrap();
            let at = &labels[3 * (3 * f + k)..][..3];
            assert!((Vector3::new(at[0], at[1], at[2]).cast::<f64>() - l.position).norm() < 1e-6);
        }
        assert_eq!(
            data["contour"][f]["max"],
            frame.legend.as_ref().unwrap().max
        );
    }
    assert_eq!(data["signals"]["names"], serde_json::json!(["a (m)", "b"]));
    assert_eq!(data["signals"]["values"][1][1], -4e-7);
}

#[test]
fn the_page_is_self_contained() {
    let (text, _) = recorded();
    let html = page_html(&read_run(&text).unwrap(), &PageOptions::default());
    // Only the closing tags of the two scripts: nothing inside them ends a script early.
    assert_eq!(html.matches("</script").count(), 2);
    for external in ["src=\"http", "href=\"http", "src=\"//", "@import", "<link"] {
        assert!(!html.contains(external), "{external}");
    }
    assert!(html.contains("Copyright © 2010-2026 three.js authors"));
    assert!(html.contains("uplot"));
    assert!(html.contains("<title>three links swinging</title>"));
}
