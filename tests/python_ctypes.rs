//! Runs the Python ctypes demo (`examples/python/demo.py`, standard library only) against the
//! `libmbs.so` cargo built, and checks what it prints against the physics.

use approx::assert_relative_eq;
use std::path::PathBuf;
use std::process::Command;

/// The shared library cargo built next to the example runner: `target/<profile>/deps/libmbs.so`
/// (built with this test) or `target/<profile>/libmbs.so` (uplifted by a `cargo build -p
/// mbs-ffi`, possibly of older sources): the newer of the two.
fn library() -> PathBuf {
    let name = if cfg!(target_os = "macos") {
        "libmbs.dylib"
    } else if cfg!(windows) {
        "mbs.dll"
    } else {
        "libmbs.so"
    };
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_mbs-example"));
    let dir = exe.parent().expect("the runner is in a directory");
    [dir.join("deps").join(name), dir.join(name)]
        .into_iter()
        .filter_map(|p| {
            let modified = std::fs::metadata(&p).and_then(|m| m.modified()).ok()?;
            Some((modified, p))
        })
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, p)| p)
        .unwrap_or_else(|| panic!("{name} not found next to {}", exe.display()))
}

fn value(out: &str, key: &str) -> f64 {
    let at = out
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not printed:\n{out}"));
    let rest = out[at + key.len()..].trim_start();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|e| panic!("{key:?}: {e}\n{out}"))
}

#[test]
fn python_ctypes_demo_runs_the_mini_example_and_the_spinning_cylinder() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let record = std::env::temp_dir().join(format!("mbs-python-run-{}.txt", std::process::id()));
    let out = Command::new("python3")
        .arg(root.join("examples/python/demo.py"))
        .env("MBS_LIB", library())
        .env("MBS_RECORD", &record)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs (the ctypes demo needs only the standard library)");
    let s = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "demo.py failed: {:?}\n{s}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        s.contains(&format!("mbs {} via ctypes", env!("CARGO_PKG_VERSION"))),
        "{s}"
    );
    // The run recording Python wrote through the library: the start and every 20th step up to
    // the stop at step 2000 (t = 0.5 s), the mass point drawn in each, the sensor's rows.
    let run = mbs_view::read_run(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let _ = std::fs::remove_file(&record);
    assert_eq!(run.frames.len(), 101);
    assert_eq!((run.frames[0].time, run.frames[100].time), (0.0, 0.5));
    assert!(run.frames.iter().all(|f| f.primitives.len() == 1));
    assert_eq!((run.signals.len(), run.samples.len()), (1, 2001));
    // Mini example: x(1 s) = 1 + 0.5 + 0.5 * 1 = 2, y = 1.
    assert!((value(&s, "final x =") - 2.0).abs() <= 1e-12, "{s}");
    assert!((value(&s, "y =") - 1.0).abs() <= 1e-12, "{s}");
    // Hollow cylinder R = 0.1, r = 0.08, L = 0.1 m, 7700 kg/m^3: m = rho pi L (R^2 - r^2),
    // I11 = m (R^2 + r^2)/2, I22 = m (3 (R^2 + r^2) + L^2)/12.
    let m = 7700.0 * std::f64::consts::PI * 0.1 * (0.01 - 0.0064);
    assert_relative_eq!(value(&s, "mass ="), m, max_relative = 1e-13);
    assert_relative_eq!(value(&s, "I11 ="), m * 0.0164 / 2.0, max_relative = 1e-13);
    assert_relative_eq!(
        value(&s, "I22 ="),
        m * (3.0 * 0.0164 + 0.01) / 12.0,
        max_relative = 1e-13
    );
    assert!(value(&s, "energy drift =").abs() < 1e-12, "{s}");
    assert!(value(&s, "|L| drift =").abs() < 1e-12, "{s}");
    // The refusal came back as an exception with the library's text.
    assert!(s.contains("mbs status 200: invalid mass"), "{s}");
    // The system API with a Python callback force: Exudyn's tutorialSpringDamperCreate,
    // u(1 s) = exp(-w0 D) (C1 cos w + C2 sin w) + f/k (closed form computed here), 4000 steps.
    let (m, k, d, f, l, u0, v0) = (1.6f64, 4000.0f64, 8.0f64, 80.0f64, 0.5f64, -0.08f64, 1.0f64);
    let w0 = (k / m).sqrt();
    let dr = d / (2.0 * (k * m).sqrt());
    let w = w0 * (1.0 - dr * dr).sqrt();
    let (c1, x0) = (u0 - f / k, f / k);
    let c2 = (v0 + w0 * dr * c1) / w;
    let u1 = (-w0 * dr).exp() * (c1 * w.cos() + c2 * w.sin()) + x0;
    let key = "spring-damper system: final x =";
    assert!((value(&s, key) - (l + u1)).abs() < 1e-5, "{s}");
    assert!(value(&s, "max error =") < 1e-5, "{s}");
    assert!(s.contains("4001 sensor rows"), "{s}");
    assert!(s.contains("same marker refused with status 215"), "{s}");
    // Exudyn's ObjectKinematicTree mini example through the tree API: Exudyn's printed angle
    // (RK67, 1000 steps) to 1e-11 with RK4 at the same step; the holding torque m g L/2 cos q.
    assert!(
        (value(&s, "angle at 1 s =") + 3.134018551808591).abs() < 1e-11,
        "{s}"
    );
    assert_relative_eq!(
        value(&s, "holding torque ="),
        10.0 * 9.81 * 0.5 * 0.3f64.cos(),
        max_relative = 1e-13
    );
    assert!(s.contains("demo: ok"), "{s}");
}
