//! Torque-free rigid bodies under the linearly implicit midpoint step: conserved energy and angular
//! momentum (order 2), the flip period near the middle axis (elliptic integral), the symmetric
//! top (closed form).

mod rigid_support;

use approx::assert_relative_eq;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use nalgebra::{Matrix3, Vector3};
use rigid_support::*;

const DTS: [f64; 5] = [0.02, 0.01, 0.005, 0.0025, 0.00125];

struct Errors {
    energy: Vec<f64>,
    l_norm: Vec<f64>,
    l_dir: Vec<f64>,
}

/// Relative errors at t = 10 s of the energy, |L| and the direction of the world L (rad).
fn errors_at_10s<I: RigidIntegrator<f64>>(integ: &I, w0: Vector3<f64>) -> Errors {
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let e0 = rot_energy(&i, &w0);
    let l0 = i * w0; // world = body at identity orientation
    let mut out = Errors {
        energy: vec![],
        l_norm: vec![],
        l_dir: vec![],
    };
    for &dt in &DTS {
        let mut s = spinning(w0);
        run(
            integ,
            &body,
            &RigidLoads::none(),
            &mut s,
            dt,
            steps(10.0, dt),
        );
        let l = l_world(&i, &s);
        out.energy
            .push((rot_energy(&i, &s.angular_velocity) - e0).abs() / e0);
        out.l_norm
            .push(((i * s.angular_velocity).norm() - l0.norm()).abs() / l0.norm());
        out.l_dir.push(angle(&l, &l0));
    }
    out
}

fn check_order(w0: Vector3<f64>) {
    let e = errors_at_10s(&LinearlyImplicitMidpoint::new(), w0);
    let (se, sl, sd) = (
        slope(&DTS, &e.energy),
        slope(&DTS, &e.l_norm),
        slope(&DTS, &e.l_dir),
    );
    eprintln!("w0 = {w0:?}\n  energy {:?} slope {se:.3}\n  |L| {:?} slope {sl:.3}\n  L dir {:?} slope {sd:.3}", e.energy, e.l_norm, e.l_dir);
    assert!(se >= 1.9, "energy slope {se}");
    assert!(sl >= 1.9, "|L| slope {sl}");
    // The direction of the world-frame L converges too, but only with order 1: the pose is
    // turned by the end rate (the default; the mean-rate option makes it order 2).
    assert!(sd >= 0.9, "L direction slope {sd}");
    assert!(
        e.l_dir[DTS.len() - 1] < 1e-4,
        "L direction error {:?}",
        e.l_dir
    );
}

#[test]
fn energy_and_momentum_converge_with_order_2_for_a_generic_spin() {
    check_order(Vector3::new(1.0, 0.5, 0.2));
}

#[test]
fn energy_and_momentum_converge_with_order_2_near_the_unstable_axis() {
    check_order(Vector3::new(0.1, 5.0, 0.1));
}

/// Times of the downward zero crossings of w_2 (linear interpolation between steps).
fn w2_downward_crossings(w0: Vector3<f64>, dt: f64, t_end: f64) -> Vec<f64> {
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let integ = LinearlyImplicitMidpoint::new();
    let mut s = rigid_support::spinning(w0);
    let mut out = vec![];
    for k in 0..steps(t_end, dt) {
        let before = s.angular_velocity.y;
        integ.step(&body, &RigidLoads::none(), &mut s, dt).unwrap();
        let after = s.angular_velocity.y;
        if before > 0.0 && after <= 0.0 {
            out.push((k as f64 + before / (before - after)) * dt);
        }
    }
    out
}

fn check_period(w0: Vector3<f64>, dt: f64, t_end: f64) -> f64 {
    let c = w2_downward_crossings(w0, dt, t_end);
    assert!(c.len() >= 3, "crossings {c:?}");
    let measured = (c[c.len() - 1] - c[0]) / (c.len() - 1) as f64;
    let expected = euler_period([1.0, 2.0, 3.0], [w0.x, w0.y, w0.z]);
    let rel = (measured - expected).abs() / expected;
    eprintln!("w0 {w0:?} dt {dt}: period {measured:.6} s, closed form {expected:.6} s, rel {rel:.2e}, {} periods", c.len() - 1);
    assert!(rel < 0.01, "period {measured} vs {expected}");
    rel
}

#[test]
fn flip_period_near_the_middle_axis_matches_the_elliptic_integral() {
    // M^2 > 2E I2: w_2 ~ sn, period 4 K(k) / lambda with k^2 = 0.9992 (K ~ 4.95).
    let w0 = Vector3::new(0.1, 5.0, 0.1);
    let fine = check_period(w0, 1e-3, 40.0);
    let coarse = check_period(w0, 1e-2, 40.0);
    // The period error shrinks with the step (second order: 100x for 10x).
    assert!(fine < coarse / 20.0, "fine {fine:.2e} coarse {coarse:.2e}");
    // Cross-check of the test's own closed form: K(0) = pi/2, K(1/sqrt 2) = 1.854074677301372.
    assert_relative_eq!(
        elliptic_k(0.0),
        core::f64::consts::FRAC_PI_2,
        epsilon = 1e-15
    );
    assert_relative_eq!(
        elliptic_k(0.5f64.sqrt()),
        1.854_074_677_301_372,
        epsilon = 1e-14
    );
}

#[test]
fn precession_period_of_a_generic_spin_matches_the_elliptic_integral() {
    // M^2 < 2E I2: the other branch of the closed form.
    check_period(Vector3::new(1.0, 0.5, 0.2), 1e-3, 60.0);
}

#[test]
fn symmetric_top_keeps_w3_and_rotates_w1_w2_at_the_closed_form_rate() {
    // I1 = I2 = 1, I3 = 2: w3 constant, w1 + i w2 = (w10 + i w20) exp(i Omega t),
    // Omega = (I3 - I1)/I1 w3.
    let body = RigidBody::from_principal(3.0, [1.0, 1.0, 2.0], Vector3::zeros()).unwrap();
    let w0 = Vector3::new(0.3, -0.4, 2.0);
    let omega = (2.0 - 1.0) / 1.0 * w0.z;
    let integ = LinearlyImplicitMidpoint::new();
    let t_end = 10.0;
    let mut errs = vec![];
    for &dt in &DTS {
        let mut s = spinning(w0);
        let n = steps(t_end, dt);
        for _ in 0..n {
            integ.step(&body, &RigidLoads::none(), &mut s, dt).unwrap();
            assert_relative_eq!(s.angular_velocity.z, w0.z, max_relative = 1e-14);
        }
        let w = s.angular_velocity;
        let phase = |wx: f64, wy: f64| wy.atan2(wx);
        let turned = phase(w.x, w.y) - phase(w0.x, w0.y);
        // |w_perp| is conserved (the step is the Cayley transform on (w1, w2) for constant w3).
        assert_relative_eq!(w.xy().norm(), w0.xy().norm(), max_relative = 1e-13);
        // Discrete closed form: 2 atan(Omega dt / 2) per step.
        let discrete = n as f64 * 2.0 * (omega * dt / 2.0).atan();
        let wrap = |a: f64| {
            (a + core::f64::consts::PI).rem_euclid(2.0 * core::f64::consts::PI)
                - core::f64::consts::PI
        };
        assert!(
            wrap(turned - discrete).abs() < 1e-11,
            "dt {dt}: {turned} vs {discrete}"
        );
        // Continuous closed form.
        let exact = Vector3::new(
            w0.x * (omega * t_end).cos() - w0.y * (omega * t_end).sin(),
            w0.x * (omega * t_end).sin() + w0.y * (omega * t_end).cos(),
            w0.z,
        );
        errs.push((w - exact).norm());
    }
    let p = slope(&DTS, &errs);
    eprintln!("symmetric top: |w - closed form| at 10 s {errs:?}, slope {p:.3}");
    assert!(p >= 1.9, "slope {p}");
}
