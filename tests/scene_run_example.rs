//! The main demo `c_examples/scene_run.c` (system C API): its printed checks against the
//! closed forms, and the files it streams, read back by mbs-view: the primitive stream (written
//! by its `mbs_system_export_scene` callback) is the rod's cylinder and the ball's sphere where
//! the simulation put them, with the contour range and labels; the sensor CSV is a 151-row
//! table; the picture renders.

use approx::assert_relative_eq;
use mbs_core::graphics::DrawShape;
use mbs_view::{read_stream, scene_svg, svg_to_png, RenderOptions, Trajectory};
use std::path::PathBuf;
use std::process::Command;

fn value(out: &str, key: &str) -> f64 {
    let at = out
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not printed:\n{out}"));
    let rest = out[at + key.len()..].trim_start();
    let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap_or(rest.len());
    rest[..end].parse().unwrap()
}

#[test]
fn scene_run_checks_its_closed_forms_and_streams_a_scene_mbs_view_draws() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scene_run");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mbs-example"))
        .arg("scene_run")
        .env("MBS_RUN_DIR", &dir)
        .output()
        .unwrap();
    let s = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{s}");
    assert!(value(&s, "ball error vs parabola") < 1e-9, "{s}");
    assert!(value(&s, "max |E - E0| / kinetic0") < 1e-3, "{s}");
    assert_relative_eq!(value(&s, "rod swing amplitude"), 0.6, epsilon = 2e-3);
    // The ball: (0.8, -0.9) + (-0.4, 6) t + (0, -9.81) t^2/2 at t = 1.5 s.
    let (bx, by) = (0.8 - 0.4 * 1.5, -0.9 + 6.0 * 1.5 - 9.81 * 1.5 * 1.5 / 2.0);

    let text = std::fs::read_to_string(dir.join("scene.txt")).unwrap();
    let st = read_stream(&text).unwrap();
    assert!(st.title.unwrap().starts_with("scene_run.c, t = 1.5 s"));
    let legend = st.scene.legend.clone().unwrap();
    assert!(legend.min < legend.max);
    let p = &st.scene.primitives;
    assert_eq!(p.len(), 2);
    let DrawShape::Cylinder { p0, p1, radius, .. } = p[0].shape else {
        panic!("{:?}", p[0]);
    };
    // frame_a stays at the origin (stiff spring); the rod is 0.6 m long, 0.06 m thick.
    assert!(p0.norm() < 1e-3, "{p0:?}");
    assert_relative_eq!((p1 - p0).norm(), 0.6, epsilon = 1e-6);
    assert_relative_eq!(radius, 0.03, epsilon = 1e-7);
    let DrawShape::Sphere { center, .. } = p[1].shape else {
        panic!("{:?}", p[1]);
    };
    assert_relative_eq!(center.x, bx, epsilon = 1e-9);
    assert_relative_eq!(center.y, by, epsilon = 1e-9);
    assert_eq!(p[0].label.map(|l| l.number), Some(0));
    assert_eq!(p[1].label.map(|l| l.number), Some(1));
    // The ball is the fastest: top of the color bar.
    assert_eq!(p[1].contour_value, Some(legend.max));

    let t =
        Trajectory::from_csv(&std::fs::read_to_string(dir.join("sensors.csv")).unwrap()).unwrap();
    assert_eq!((t.len(), t.names().len()), (151, 4));
    assert_relative_eq!(*t.column(3).unwrap().last().unwrap(), by, epsilon = 1e-9);

    let png = svg_to_png(&scene_svg(
        &st.scene,
        &RenderOptions {
            width: 200,
            height: 150,
            ..RenderOptions::default()
        },
    ))
    .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 200);
}
