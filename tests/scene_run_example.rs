//! The main demo `c_examples/scene_run.c` (system C API): its printed checks against the
//! references it computes (a double pendulum of two BodyCylinder rods on revolute joints against
//! its minimal-coordinate equations, the energy, the joint residuals), and the files it
//! streams, read back by mbs-view: the primitive stream (written by its
//! `mbs_system_export_scene` callback) is the two rods' cylinders, joined end to end, with the
//! contour range and labels; the sensor CSV is a 201-row table; the picture renders.

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
    for rod in ["rod 1", "rod 2"] {
        let line = s
            .lines()
            .find(|l| l.starts_with(&format!("{rod} angle")))
            .unwrap();
        assert!(value(line, "error") < 1e-4, "{line}");
    }
    assert!(value(&s, "max |E - E0| / (m1 + m2) g L1") < 1e-4, "{s}");
    assert!(value(&s, "joint residual at the end") < 1e-12, "{s}");

    let text = std::fs::read_to_string(dir.join("scene.txt")).unwrap();
    let st = read_stream(&text).unwrap();
    assert!(st.title.unwrap().starts_with("scene_run.c, t = 2 s"));
    let legend = st.scene.legend.clone().unwrap();
    assert!(legend.min < legend.max);
    let p = &st.scene.primitives;
    assert_eq!(p.len(), 2);
    let cylinder = |k: usize| match p[k].shape {
        DrawShape::Cylinder { p0, p1, radius, .. } => (p0, p1, radius),
        _ => panic!("{:?}", p[k]),
    };
    let ((a0, b0, r0), (a1, b1, r1)) = (cylinder(0), cylinder(1));
    // Rod 1 pinned at the origin, rod 2 at rod 1's end (the joints hold to the Newton
    // tolerance); 0.6 m and 0.4 m long, 0.06 m thick.
    assert!(a0.norm() < 1e-7, "{a0:?}");
    assert!((a1 - b0).norm() < 1e-7, "{a1:?} {b0:?}");
    assert_relative_eq!((b0 - a0).norm(), 0.6, epsilon = 1e-6);
    assert_relative_eq!((b1 - a1).norm(), 0.4, epsilon = 1e-6);
    assert_relative_eq!(r0, 0.03, epsilon = 1e-7);
    assert_relative_eq!(r1, 0.03, epsilon = 1e-7);
    assert_eq!(p[0].label.map(|l| l.number), Some(0));
    assert_eq!(p[1].label.map(|l| l.number), Some(1));
    // Rod 2 is the faster: the top of the color bar.
    assert_eq!(p[1].contour_value, Some(legend.max));

    let t =
        Trajectory::from_csv(&std::fs::read_to_string(dir.join("sensors.csv")).unwrap()).unwrap();
    assert_eq!((t.len(), t.names().len()), (201, 4));
    // The last row is rod 2's COM of the scene: half way along its cylinder.
    let mid = (a1 + b1) * 0.5;
    assert_relative_eq!(*t.column(2).unwrap().last().unwrap(), mid.x, epsilon = 1e-6);
    assert_relative_eq!(*t.column(3).unwrap().last().unwrap(), mid.y, epsilon = 1e-6);

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
