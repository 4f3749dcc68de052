//! The main demo `c_examples/scene_run.c` (per-item C API): its printed checks against the
//! closed forms, and its files read back by mbs-view: the body-state file rebuilt as a system
//! whose scene export draws the ball where the C program says it is (a steel ball of 4 kg) and
//! the cylinder along its frame_a x axis; the sensor CSV as a 101-row table; the PNG decodes.

use approx::assert_relative_eq;
use mbs_core::graphics::{DrawShape, VisualizationSettings};
use mbs_view::{read_bodies, render_system_png, system_scene, RenderOptions, Trajectory};
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
fn scene_run_checks_its_closed_forms_and_writes_a_scene_mbs_view_draws() {
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
    assert!(
        value(&s, "cylinder COM error vs the step's closed form") < 1e-12,
        "{s}"
    );
    assert!(value(&s, "ball error vs parabola") < 1e-12, "{s}");
    assert!(value(&s, "spin energy drift").abs() < 1e-12, "{s}");
    assert!(value(&s, "|L| drift").abs() < 1e-12, "{s}");
    // The ball: (-1, 0) + (2, 4.5) t + (0, -9.81) t^2/2 at t = 1 s.
    let ball_x = value(&s, "ball position");
    assert_relative_eq!(ball_x, 1.0, epsilon = 1e-12);

    let b = read_bodies(&std::fs::read_to_string(dir.join("bodies.txt")).unwrap()).unwrap();
    assert_eq!(b.system.counts()[1], 2);
    assert!(b.title.unwrap().starts_with("scene_run.c"));
    let scene = system_scene(&*b.system, &VisualizationSettings::default()).unwrap();
    assert_eq!(scene.primitives.len(), 2);
    let DrawShape::Sphere { center, radius } = scene.primitives[1].shape else {
        panic!("{:?}", scene.primitives[1]);
    };
    assert_relative_eq!(center.x, 1.0, epsilon = 1e-12);
    assert_relative_eq!(center.y, -0.405, epsilon = 1e-12);
    let r = (3.0 * 4.0 / (4.0 * std::f64::consts::PI * 7700.0)).cbrt();
    assert_relative_eq!(radius, r, epsilon = 1e-12);
    let DrawShape::Cylinder {
        p0,
        p1,
        radius,
        inner_radius,
    } = scene.primitives[0].shape
    else {
        panic!("{:?}", scene.primitives[0]);
    };
    // Length 0.3 m, diameter 0.3, inner 0.2 (f32-packed shape).
    assert_relative_eq!((p1 - p0).norm(), 0.3, epsilon = 1e-7);
    assert_relative_eq!(radius, 0.15, epsilon = 1e-7);
    assert_relative_eq!(inner_radius, 0.1, epsilon = 1e-7);

    let t =
        Trajectory::from_csv(&std::fs::read_to_string(dir.join("sensors.csv")).unwrap()).unwrap();
    assert_eq!((t.len(), t.names().len()), (101, 7));
    assert_relative_eq!(
        *t.column(0).unwrap().last().unwrap(),
        ball_x,
        epsilon = 1e-15
    );

    let png = render_system_png(
        &*b.system,
        &VisualizationSettings::default(),
        &RenderOptions {
            width: 200,
            height: 150,
            ..RenderOptions::default()
        },
    )
    .unwrap();
    let p = resvg_png_size(&png);
    assert_eq!(p, (200, 150));
}

/// Width and height from the PNG's IHDR chunk (bytes 16..24).
fn resvg_png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    (w, h)
}
