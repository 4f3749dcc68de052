//! The primitive stream: written and read back bit for bit; a C program's `%.17g` lines read;
//! every malformed record refused with its line; `mbs-view render` draws a stream and a CSV.

use super::system_fixture::{contour_settings, system};
use mbs_core::graphics::{DrawShape, VisualizationSettings};
use mbs_view::{read_stream, system_scene, write_stream, ViewError};
use resvg::tiny_skia::Pixmap;
use std::path::PathBuf;

#[test]
fn a_system_scene_round_trips_exactly() {
    let sys = system();
    for s in [VisualizationSettings::default(), contour_settings()] {
        let scene = system_scene(&sys, &s).unwrap();
        let text = write_stream(&scene, Some("t = 0 s"));
        assert!(text.starts_with("mbs-scene 1\ntitle t = 0 s\n"));
        assert_eq!(text.lines().filter(|l| l.starts_with("box ")).count(), 2);
        let back = read_stream(&text).unwrap();
        assert_eq!(back.title.as_deref(), Some("t = 0 s"));
        assert_eq!(back.scene, scene);
    }
}

#[test]
fn c_style_lines_are_read() {
    // As a C program writes them with "%.17g" (and comments, blank lines, tabs).
    let text = "# from C\nmbs-scene 1\n\ncontour 1 5 Velocity (norm)\n\
        sphere 1 0 1.2 0.29999999999999999 0 0.080000000000000002 0.90000000000000002 0.1 0.1 1 0.69999999999999996 5 1 1.2 0.3 0\n\
        cylinder\t3 0 0 0.3 0.5 0.8 0.3 0.5 0.059999999999999998 0 0 0.5 1 1 0.7 - -\n\
        box 0 0 0 -0.6 0 1 0 0 0 1 0 0 0 1 3 0.04 1.6 0.6 0.6 0.6 1 0.2 - 0 0 -0.6 0\n\
        line 2 1 0 0 0 1 1e-3 -2.5E+00 0 0 0 1 0 - -\n";
    let s = read_stream(text).unwrap();
    let legend = s.scene.legend.unwrap();
    assert_eq!(
        (legend.min, legend.max, legend.title.as_str()),
        (1.0, 5.0, "Velocity (norm)")
    );
    let p = &s.scene.primitives;
    assert_eq!(p.len(), 4);
    let DrawShape::Sphere { center, radius } = p[0].shape else {
        panic!("{:?}", p[0]);
    };
    assert_eq!((center.y, radius), (0.3, 0.08));
    assert_eq!(p[0].color.rgba(), [0.9, 0.1, 0.1, 1.0]);
    assert_eq!(p[0].contour_value, Some(5.0));
    assert_eq!(p[0].label.map(|l| l.number), Some(1));
    assert_eq!(p[1].body, 3);
    assert!(p[1].label.is_none() && p[1].contour_value.is_none());
    let DrawShape::Line { p1, .. } = p[3].shape else {
        panic!("{:?}", p[3]);
    };
    assert_eq!((p1.y, p1.z), (1e-3, -2.5));
}

fn line_of(text: &str) -> usize {
    match read_stream(text) {
        Err(ViewError::Stream { line, .. }) => line,
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn malformed_records_are_refused_with_their_line() {
    let ok = "sphere 1 0 0 0 0 0.1 0.5 0.5 0.5 1 0.7 - -";
    assert_eq!(
        read_stream(&format!("mbs-scene 1\n{ok}\n"))
            .unwrap()
            .scene
            .primitives
            .len(),
        1
    );
    assert_eq!(line_of(""), 0);
    assert_eq!(line_of("mbs-scene 2\n"), 1);
    assert_eq!(line_of(&format!("{ok}\n")), 1); // no magic
    let bad = [
        "sphere 1 0 0 0 0 0.1 0.5 0.5 0.5 1 0.7 -", // label missing
        "sphere 1 0 0 0 0 0.1 0.5 0.5 0.5 1 0.7 - - 9", // extra field
        "sphere 1 0 0 0 0 0 0.5 0.5 0.5 1 0.7 - -", // radius 0
        "sphere 1 0 0 0 0 0.1 1.5 0.5 0.5 1 0.7 - -", // color > 1
        "sphere 1 0 0 0 0 0.1 -1 0.5 0.5 1 0.7 - -", // default color not resolved
        "sphere 1 0 0 nan 0 0.1 0.5 0.5 0.5 1 0.7 - -", // not finite
        "sphere -1 0 0 0 0 0.1 0.5 0.5 0.5 1 0.7 - -", // negative body
        "sphere 1 0 0 0 0 0.1 0.5 0.5 0.5 1 -0.7 - -", // negative specular
        "cylinder 1 0 0 0 0 0 0 0 0.1 0 0.5 0.5 0.5 1 0.7 - -", // zero length
        "cylinder 1 0 0 0 0 1 0 0 0.1 0.1 0.5 0.5 0.5 1 0.7 - -", // inner = outer
        "box 1 0 0 0 0 1 0 0 0 1 0 0 0 1 1 0 1 0.5 0.5 0.5 1 0.7 - -", // zero edge
        "cone 1 0 0 0 0",
        "contour 2 1 x",
    ];
    for b in bad {
        assert_eq!(line_of(&format!("mbs-scene 1\n{ok}\n{b}\n")), 3, "{b}");
    }
}

#[test]
fn render_command_draws_a_stream_and_a_csv() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mbs-view-render");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let scene = system_scene(&system(), &contour_settings()).unwrap();
    std::fs::write(
        dir.join("scene.txt"),
        write_stream(&scene, Some("render test")),
    )
    .unwrap();
    std::fs::write(
        dir.join("sensors.csv"),
        "time,x (m),y (m)\n0,0,1\n0.5,1,0.25\n1,2,-1\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mbs-view"))
        .arg("render")
        .arg(dir.join("scene.txt"))
        .arg("--csv")
        .arg(dir.join("sensors.csv"))
        .arg("--out")
        .arg(dir.join("out"))
        .args(["--size", "320x240"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("scene.png (4 primitives)"), "{stdout}");
    let png = std::fs::read(dir.join("out/scene.png")).unwrap();
    let p = Pixmap::decode_png(&png).unwrap();
    assert_eq!((p.width(), p.height()), (320, 240));
    let plot = Pixmap::decode_png(&std::fs::read(dir.join("out/sensors.png")).unwrap()).unwrap();
    assert!(plot.width() > 0);
    let svg = std::fs::read_to_string(dir.join("out/sensors.svg")).unwrap();
    assert!(svg.contains("x (m)") && svg.contains("y (m)"));
    // A bad stream: exit code 1 and the line in the message.
    std::fs::write(dir.join("bad.txt"), "mbs-scene 1\nsphere 1\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mbs-view"))
        .arg("render")
        .arg(dir.join("bad.txt"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}

#[test]
fn body_state_files_rebuild_the_bodies_or_name_the_bad_line() {
    use mbs_view::read_bodies;
    let text = "mbs-bodies 1\ntitle two bodies\nground 0 -1 0\n\
        mass_point_2d 2 1 0 0.5 0 0 0\n\
        rigid_body 3 0 0 0 0.1 0 0 0 0.2 0 0 0 0.3 0 1 0 1 0 0 0 0 0 0 0 0 0\n\
        body_cylinder 0.5 0 0 0 0 0 1 0 0 0.5 0.1 0 7700 0 0 1 1 0 0 0 0 0 0 0 0 0\n";
    let b = read_bodies(text).unwrap();
    assert_eq!(b.system.counts()[1], 4);
    let scene = system_scene(&*b.system, &VisualizationSettings::default()).unwrap();
    // Ground nothing; sphere at (1.5, 0, 0); box at (0, 1, 0); cylinder from (0, 0, 1).
    assert_eq!(scene.primitives.len(), 3);
    let DrawShape::Sphere { center, .. } = scene.primitives[0].shape else {
        panic!("{:?}", scene.primitives[0]);
    };
    assert_eq!(center.x, 1.5);
    let DrawShape::Cuboid { center, .. } = scene.primitives[1].shape else {
        panic!("{:?}", scene.primitives[1]);
    };
    assert_eq!(center.y, 1.0);
    let DrawShape::Cylinder { p0, .. } = scene.primitives[2].shape else {
        panic!("{:?}", scene.primitives[2]);
    };
    assert_eq!(p0.z, 1.0);
    let bad = |t: &str| match read_bodies(t) {
        Err(ViewError::Stream { line, .. }) => line,
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted {t}"),
    };
    assert_eq!(bad("mbs-scene 1\n"), 1);
    assert_eq!(bad("mbs-bodies 1\nmass_point_2d 0 0 0 0 0 0 0\n"), 2); // mass 0
    assert_eq!(bad("mbs-bodies 1\nground 0 0\n"), 2);
    assert_eq!(bad("mbs-bodies 1\nground 0 0 0 0\n"), 2);
    // A quaternion that is not a unit one.
    assert_eq!(
        bad("mbs-bodies 1\nrigid_body 3 0 0 0 0.1 0 0 0 0.2 0 0 0 0.3 0 0 0 2 0 0 0 0 0 0 0 0 0\n"),
        2
    );
}
