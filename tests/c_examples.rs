//! Runs every C/C++ example (compiled into `mbs-example` by build.rs) and checks what it prints.

use approx::assert_relative_eq;
use std::process::Command;

fn run(name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mbs-example"))
        .arg(name)
        .output()
        .expect("mbs-example runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "example {name} failed: {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn version_example_prints_the_crate_version() {
    let s = run("version");
    assert!(
        s.contains(&format!("mbs version {}", env!("CARGO_PKG_VERSION"))),
        "{s}"
    );
    assert!(s.contains("status 100: null pointer argument"), "{s}");
    // The header's MBS_VERSION_* macros are the crate version too.
    assert!(
        s.contains(&format!(
            "header version {} matches the library",
            env!("CARGO_PKG_VERSION")
        )),
        "{s}"
    );
}

/// The number after `key` (and an optional `=`) in the example's output.
fn value(out: &str, key: &str) -> f64 {
    let at = out
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not printed:\n{out}"));
    let rest = out[at + key.len()..].trim_start();
    let rest = rest.strip_prefix('=').unwrap_or(rest).trim_start();
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|e| panic!("{key:?}: {:?}: {e}\n{out}", &rest[..end]))
}

/// The three numbers after `key`.
fn vector(out: &str, key: &str) -> [f64; 3] {
    let at = out
        .find(key)
        .unwrap_or_else(|| panic!("{key:?} not printed"));
    let rest = out[at + key.len()..].trim_start();
    let rest = rest.strip_prefix('=').unwrap_or(rest);
    let mut it = rest.split_whitespace().map(|t| t.parse::<f64>().unwrap());
    [it.next().unwrap(), it.next().unwrap(), it.next().unwrap()]
}

#[test]
fn mini_example_prints_final_x_2() {
    let s = run("mini_example");
    // x(t) = r + q0 + v0 t with r = 1, q0 = 0.5, v0 = 0.5 m/s, t = 1 s; y = r = 1 (no force).
    let x = 1.0 + 0.5 + 0.5 * 1.0;
    assert!((value(&s, "final x =") - x).abs() <= 1e-12, "{s}");
    assert!((value(&s, "final y =") - 1.0).abs() <= 1e-12, "{s}");
    assert!((value(&s, "stepped x =") - x).abs() <= 1e-12, "{s}");
    assert!(s.contains("final x = 2"), "{s}");
}

#[test]
fn spinning_cylinder_conserves_energy_and_momentum_and_precesses_at_the_closed_form_rate() {
    let s = run("spinning_cylinder");
    // Hollow cylinder, outer radius 0.1 m, inner 0.08 m, length 0.1 m, steel 7700 kg/m^3:
    // m = rho pi L (R^2 - r^2), I11 = m (R^2 + r^2)/2, I22 = m (3 (R^2 + r^2) + L^2)/12.
    let (ro, ri, len, rho) = (0.1f64, 0.08f64, 0.1f64, 7700.0f64);
    let m = rho * std::f64::consts::PI * len * (ro * ro - ri * ri);
    let i11 = m * (ro * ro + ri * ri) / 2.0;
    let i22 = m * (3.0 * (ro * ro + ri * ri) + len * len) / 12.0;
    assert_relative_eq!(value(&s, "mass"), m, max_relative = 1e-13);
    assert_relative_eq!(value(&s, "I11"), i11, max_relative = 1e-13);
    assert_relative_eq!(value(&s, "I22"), i22, max_relative = 1e-13);
    // The body rate is the world rate (20, 6, -4) rad/s turned into the body frame: same length.
    let w = vector(&s, "w_b(0) =");
    let wn = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt();
    assert_relative_eq!(wn, (400.0f64 + 36.0 + 16.0).sqrt(), max_relative = 1e-14);
    // E0 = 1/2 sum I_i w_i^2 + 1/2 m |w x c|^2: frame_a is at the end face, the COM at
    // c = (L/2, 0, 0) in the body frame, and v_0 = 0 at frame_a.
    let c = len / 2.0;
    let v_com2 = (w[1] * c).powi(2) + (w[2] * c).powi(2);
    let e0 = 0.5 * (i11 * w[0] * w[0] + i22 * (w[1] * w[1] + w[2] * w[2])) + 0.5 * m * v_com2;
    assert_relative_eq!(value(&s, "E0 ="), e0, max_relative = 1e-12);
    let l0 = ((i11 * w[0]).powi(2) + (i22 * w[1]).powi(2) + (i22 * w[2]).powi(2)).sqrt();
    assert_relative_eq!(value(&s, "L0 ="), l0, max_relative = 1e-12);
    // Torque-free: E and |L| conserved (for this symmetric body the step keeps them to
    // round-off over 10^4 steps; order 2 in general).
    assert!(value(&s, "energy drift =").abs() < 1e-12, "{s}");
    assert!(value(&s, "|L| drift =").abs() < 1e-12, "{s}");
    // Euler's equations of a symmetric top: Omega = (I1 - I2)/I2 w1.
    assert_relative_eq!(
        value(&s, "Omega ="),
        (i11 - i22) / i22 * w[0],
        max_relative = 1e-12
    );
    // The body rate follows the closed form to the step's O(dt^2) phase error: with
    // Omega dt = 0.012, about Omega t (Omega dt)^2 / 12 = 1.5e-3 rad after 10 s.
    let err = value(&s, "body-rate error vs closed form =");
    assert!(err < 3e-3, "{s}");
}

#[test]
fn control_loop_settles_as_the_critically_damped_design() {
    let s = run("control_loop");
    let wn = 5.0f64;
    let err0 = value(&s, "initial error =");
    assert_relative_eq!(err0, 60f64.to_radians(), max_relative = 1e-6);
    // Linear design: e(t) = e0 (1 + wn t) exp(-wn t); 1 % at the root of (1 + x) e^-x = 0.01.
    let (mut lo, mut hi) = (1.0f64, 20.0f64);
    for _ in 0..100 {
        let x = 0.5 * (lo + hi);
        if (1.0 + x) * (-x).exp() > 0.01 {
            lo = x
        } else {
            hi = x
        }
    }
    let t1 = lo / wn;
    let ts = value(&s, "settling time (1%) =");
    // The start is at 60 deg, where the quaternion feedback (sin(theta/2)) is 4.5 % softer
    // than the linear theta/2: a few percent later than the linear design.
    assert!(
        ts >= t1 && ts < 1.05 * t1,
        "settling {ts} s vs design {t1} s\n{s}"
    );
    let t = 3.0;
    let e_lin = err0 * (1.0 + wn * t) * (-wn * t).exp();
    let e = value(&s, "settled error =");
    assert!(
        e > 0.5 * e_lin && e < 2.0 * e_lin,
        "{e} vs linear {e_lin}\n{s}"
    );
    // The first torque: Kp_3 q_3 = 2 I3 wn^2 sin(30 deg) 2/3 (the largest, at rest).
    assert_relative_eq!(
        value(&s, "peak torque ="),
        2.0 * 0.04 * wn * wn * 0.5 * 2.0 / 3.0,
        max_relative = 1e-5
    );
}

#[test]
fn cpp_example_combines_mass_properties_and_spins_up_exactly() {
    let s = run("cpp_example");
    let pi = std::f64::consts::PI;
    let m_cyl = 7700.0 * pi * 0.4 * 0.05 * 0.05;
    let m_box = 2700.0 * 0.1f64.powi(3);
    assert_relative_eq!(value(&s, "cylinder mass ="), m_cyl, max_relative = 1e-14);
    assert_relative_eq!(
        value(&s, "total mass ="),
        m_cyl + m_box,
        max_relative = 1e-14
    );
    // COM: (m_cyl 0.2 + m_box 0.45) / m.
    assert_relative_eq!(
        value(&s, "com x ="),
        (m_cyl * 0.2 + m_box * 0.45) / (m_cyl + m_box),
        max_relative = 1e-14
    );
    let i11 = m_cyl * 0.05 * 0.05 / 2.0 + m_box * 0.02 / 12.0;
    assert_relative_eq!(value(&s, "total I11 ="), i11, max_relative = 1e-13);
    // Constant torque about a principal axis, rate along it: w = tau t / I11 exactly.
    assert_relative_eq!(
        value(&s, "w_x after 1 s ="),
        0.05 * 1.0 / i11,
        max_relative = 1e-12
    );
}

/// Exudyn's tutorialSpringDamperCreate closed form, computed here independently of the C
/// example: `u(t) = exp(-w0 D t) (C1 cos(w t) + C2 sin(w t)) + f/k` and its derivative.
fn damped(t: f64, u0: f64, v0: f64, f: f64) -> (f64, f64) {
    let (m, k, d) = (1.6f64, 4000.0f64, 8.0f64);
    let w0 = (k / m).sqrt();
    let dr = d / (2.0 * (k * m).sqrt());
    let w = w0 * (1.0 - dr * dr).sqrt();
    let x0 = f / k;
    let (c1, c2) = (u0 - x0, (v0 + w0 * dr * (u0 - x0)) / w);
    let e = (-w0 * dr * t).exp();
    let (s, c) = (w * t).sin_cos();
    let u = e * (c1 * c + c2 * s) + x0;
    let v = -w0 * dr * (u - x0) + e * w * (-c1 * s + c2 * c);
    (u, v)
}

#[test]
fn spring_damper_system_follows_the_closed_form_damped_oscillation() {
    let s = run("spring_damper");
    let l = 0.5;
    // SolveDynamic over 1 s (10^4 steps, h w0 = 0.005): the sensor rows match the closed form
    // to the kick-drift-kick scheme's O(h^2) (measured 8.1e-7 m on a 0.1 m amplitude).
    let (u1, _) = damped(1.0, -0.08, 1.0, 80.0);
    assert!((value(&s, "final x =") - (l + u1)).abs() < 1e-6, "{s}");
    assert!(value(&s, "max |u - u_exact| =") < 2e-6, "{s}");
    assert!(s.contains("10001 sensor rows"), "{s}");
    assert!(s.contains("30000 force evaluations"), "{s}"); // damped: 3 per step
                                                           // Stepped with the force 80 -> 40 N at 0.5 s: the closed form restarted from the exact
                                                           // state at 0.5 s with the new static offset.
    let (u_half, v_half) = damped(0.5, -0.08, 1.0, 80.0);
    let (u2, _) = damped(0.5, u_half, v_half, 40.0);
    assert!((value(&s, "s, x =") - (l + u2)).abs() < 1e-6, "{s}");
    assert!(
        s.contains("buffer full: warning: a sensor buffer is full"),
        "{s}"
    );
}

#[test]
fn cylinder_pendulum_bounces_and_swings_as_the_closed_forms() {
    let s = run("cylinder_pendulum");
    // Solid steel cylinder, L = 0.5 m, d = 0.05 m: m = rho pi r^2 L, I22 = m (L^2/12 + r^2/4).
    let (rho, r, len) = (7700.0f64, 0.025f64, 0.5f64);
    let m = rho * std::f64::consts::PI * r * r * len;
    let i22 = m * (len * len / 12.0 + r * r / 4.0);
    assert_relative_eq!(value(&s, "mass ="), m, max_relative = 1e-12);
    assert_relative_eq!(value(&s, "I22 ="), i22, max_relative = 1e-10);
    // (A) vertical bounce z = -(m g/k)(1 - cos(sqrt(k/m) t)): amplitude 3.7e-3 m.
    assert_relative_eq!(value(&s, "omega ="), (2e4 / m).sqrt(), max_relative = 1e-8);
    assert!(value(&s, "max |z - z_exact| =") < 1e-6, "{s}");
    assert!(value(&s, "max |x| + |y| =") < 1e-14, "{s}");
    // (B) physical pendulum, T = 2 pi sqrt(I_a/(m g c)) (1 + theta0^2/16), with I_a = I22 +
    // m c^2, c = L/2, theta0 from the energy of the start rate 0.5 rad/s.
    let (g, c, w) = (9.81f64, 0.25f64, 0.5f64);
    let ia = i22 + m * c * c;
    let theta0 = (1.0 - ia * w * w / (2.0 * m * g * c)).acos();
    let t = 2.0 * std::f64::consts::PI * (ia / (m * g * c)).sqrt() * (1.0 + theta0 * theta0 / 16.0);
    // the stiff (2e6 N/m) pivot spring lengthens the period by ~m w^2/k ~ 1e-4
    assert_relative_eq!(value(&s, "period ="), t, max_relative = 3e-4);
    assert!(value(&s, "max |E - E0| / kinetic0 =") < 1e-4, "{s}");
}

/// The slider-crank through the system C API: the slider where the loop closure puts it, the
/// constraints held, and x at 2 s as Exudyn 1.13.6 computes it with the same model and settings
/// (h = 1 ms, rho_inf = 0.5: 0.5010857055628779 m; `bench/exudyn_constraint_examples.py`).
#[test]
fn slider_crank_example_follows_the_loop_closure_and_exudyn() {
    let s = run("slider_crank");
    let x = value(&s, "slider x");
    assert!(value(&s, "|x - x(phi)|") < 1e-9, "{s}");
    assert!(value(&s, "max constraint residual") < 1e-9, "{s}");
    assert!((x - 0.5010857055628779).abs() < 1e-7, "{s}");
    let it = value(&s, "Newton iterations per step");
    assert!((0.5..=3.0).contains(&it), "{s}");
    // Real-time mode, one update a step (iterating takes 1.25 a step here): on the loop closure
    // to 1e-9 m, within 1e-7 m of the iterated run.
    assert_eq!(value(&s, "most updates in a step"), 1.0, "{s}");
    assert!(value(&s, "loop closure error") < 1e-9, "{s}");
    assert!(value(&s, "minus iterated").abs() < 1e-7, "{s}");
}

#[path = "../firmware/rust/src/arm.rs"]
#[allow(dead_code)]
mod arm;

/// The computed-torque control of the 6-DOF arm through the C API: it tracks the path, and its
/// figures equal the same loop run here with core's tree built from
/// `firmware/rust/src/arm.rs` (so the C example's arm is that arm, and the C entry points add
/// nothing to the numbers).
#[test]
fn arm_control_tracks_as_the_same_loop_in_rust() {
    use mbs_core::tree::{KinematicTree, TreeData, TreeScheme, TreeStepSettings};
    let s = run("arm_control");
    let tree: KinematicTree<f64, 6, 6> = arm::build().unwrap();
    let mut data = TreeData::new();
    let path = |t: f64| {
        let w = std::f64::consts::PI;
        let q0 = [0.3, -1.2, 1.4, -0.6, 0.9, 0.2];
        let mut out = [[0.0; 6]; 3];
        for i in 0..6 {
            let ph = 0.7 * i as f64;
            out[0][i] = q0[i] + 0.4 * (w * t + ph).sin();
            out[1][i] = 0.4 * w * (w * t + ph).cos();
            out[2][i] = -0.4 * w * w * (w * t + ph).sin();
        }
        out
    };
    let err = |q: &[f64; 6], qd: &[f64; 6]| (0..6).fold(0.0f64, |m, i| m.max((q[i] - qd[i]).abs()));
    let [qd, vd, _] = path(0.0);
    let (mut q, mut v) = (qd.map(|x| x + 0.05), vd);
    let (h, kp, kd) = (1e-3, 400.0, 40.0);
    let (mut err1, mut late, mut tau_max) = (0.0, 0.0f64, 0.0f64);
    let settings = TreeStepSettings::with_scheme(TreeScheme::RungeKutta4);
    for k in 0..4000 {
        let t = k as f64 * h;
        let [qd, vd, ad] = path(t);
        let cmd: [f64; 6] =
            std::array::from_fn(|i| ad[i] + kp * (qd[i] - q[i]) + kd * (vd[i] - v[i]));
        let mut tau = [0.0; 6];
        tree.rnea(&mut data, &q, &v, &cmd, &mut tau).unwrap();
        tau_max = tau.iter().fold(tau_max, |m, x| m.max(x.abs()));
        tree.step(&mut data, &mut q, &mut v, &tau, h, &settings)
            .unwrap();
        let [qd, ..] = path(t + h);
        if k + 1 == 1000 {
            err1 = err(&q, &qd);
        }
        if k + 1 >= 2000 {
            late = late.max(err(&q, &qd));
        }
    }
    assert_relative_eq!(value(&s, "after 1 s ="), err1, max_relative = 2e-3);
    assert_relative_eq!(value(&s, "over the last 2 s ="), late, max_relative = 2e-3);
    assert_relative_eq!(
        value(&s, "largest joint torque ="),
        tau_max,
        max_relative = 1e-3
    );
    assert!(late < 1e-3 && err1 < 1e-3, "{s}");
    assert!(value(&s, "RNEA(ABA(tau)) - tau =") < 1e-9, "{s}");
}
