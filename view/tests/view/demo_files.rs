//! The demo writes its seven files, the PNGs decode, and the trajectory follows the closed form
//! of a constant-rate rotation (crank tip: r_0 + 0.9 (cos wt, sin wt, 0)).

use mbs_view::demo::{render_demo, DemoSystem};
use resvg::tiny_skia::Pixmap;

#[test]
fn demo_renders_and_its_trajectory_is_the_closed_form() {
    let dir = std::env::temp_dir().join(format!("mbs-view-demo-{}", std::process::id()));
    let f = render_demo(&dir).unwrap();
    for p in f.scene.iter().chain(&f.contour).chain(&f.plot) {
        assert!(p.exists(), "{}", p.display());
    }
    for p in [&f.scene[1], &f.contour[1], &f.plot[1]] {
        let img = Pixmap::decode_png(&std::fs::read(p).unwrap()).unwrap();
        assert!(img.width() >= 400 && img.height() >= 300);
    }
    let csv = std::fs::read_to_string(&f.csv).unwrap();
    assert_eq!(csv.lines().count(), 202); // header + 201 rows
    std::fs::remove_dir_all(&dir).unwrap();

    let sys = DemoSystem::new().unwrap();
    let t = sys.trajectory(4.0, 40).unwrap();
    let w = 1.5;
    for (k, time) in t.time().iter().enumerate() {
        let x = t.column(0).unwrap()[k];
        let y = t.column(1).unwrap()[k];
        assert!((x - (-1.2 + 0.9 * (w * time).cos())).abs() < 1e-14);
        assert!((y - 0.9 * (w * time).sin()).abs() < 1e-14);
    }
}
