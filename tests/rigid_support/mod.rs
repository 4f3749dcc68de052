//! Shared helpers of the rigid-body integration tests: running a step for a time, invariants
//! computed independently of the body's own outputs, log-log slope fits, elliptic integrals.
#![allow(dead_code)]

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepStatus};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use nalgebra::{Matrix3, Vector3};

/// Runs `n` steps of `dt`, asserting every step succeeds without the step-size warning.
pub fn run<I: RigidIntegrator<f64>>(
    integ: &I,
    body: &RigidBody<f64>,
    loads: &RigidLoads<f64>,
    state: &mut RigidState<f64>,
    dt: f64,
    n: usize,
) {
    for k in 0..n {
        let info = integ
            .step(body, loads, state, dt)
            .unwrap_or_else(|e| panic!("step {k}: {e}"));
        assert_eq!(info.status, StepStatus::Ok, "step {k}");
    }
}

/// `n` such that `n dt = t` (to rounding).
pub fn steps(t: f64, dt: f64) -> usize {
    (t / dt).round() as usize
}

/// Kinetic energy of rotation `1/2 w . I w` (J), from the body-frame rate.
pub fn rot_energy(i: &Matrix3<f64>, w: &Vector3<f64>) -> f64 {
    0.5 * w.dot(&(i * w))
}

/// World-frame angular momentum `R_0b I w_b` computed with nalgebra's own rotation of the
/// quaternion (an independent path from mbs's `Quaternion::rotate`).
pub fn l_world(i: &Matrix3<f64>, s: &RigidState<f64>) -> Vector3<f64> {
    let q = s.orientation;
    let uq =
        nalgebra::UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q.w, q.x, q.y, q.z));
    uq * (i * s.angular_velocity)
}

/// Angle between two vectors (rad), `atan2(|a x b|, a . b)`: accurate for tiny angles too.
pub fn angle(a: &Vector3<f64>, b: &Vector3<f64>) -> f64 {
    a.cross(b).norm().atan2(a.dot(b))
}

/// Least-squares slope of `log(err)` against `log(dt)`.
pub fn slope(dts: &[f64], errs: &[f64]) -> f64 {
    let n = dts.len() as f64;
    let xs: Vec<f64> = dts.iter().map(|d| d.ln()).collect();
    let ys: Vec<f64> = errs.iter().map(|e| e.ln()).collect();
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// Complete elliptic integral of the first kind `K(k)` (modulus k) by the arithmetic-geometric
/// mean: `K = pi / (2 AGM(1, sqrt(1 - k^2)))`.
pub fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..60 {
        let (a1, b1) = (0.5 * (a + b), (a * b).sqrt());
        a = a1;
        b = b1;
        if (a - b).abs() < 1e-16 * a {
            break;
        }
    }
    core::f64::consts::PI / (2.0 * a)
}

/// Period (s) of the body-frame angular velocity of a torque-free body with principal moments
/// `i1 < i2 < i3` (Landau & Lifshitz, Mechanics, sec. 37): with `2E = w.Iw`, `M^2 = |Iw|^2`,
/// for `M^2 > 2E i2`: `T = 4 K(k) / sqrt((i3-i2)(M^2-2E i1)/(i1 i2 i3))`,
/// `k^2 = (i2-i1)(2E i3-M^2)/((i3-i2)(M^2-2E i1))`; for `M^2 < 2E i2` swap `i1` and `i3`.
pub fn euler_period(i: [f64; 3], w: [f64; 3]) -> f64 {
    let [i1, i2, i3] = i;
    let e2: f64 = (0..3).map(|k| i[k] * w[k] * w[k]).sum();
    let m2: f64 = (0..3).map(|k| (i[k] * w[k]).powi(2)).sum();
    let (a, c) = if m2 > e2 * i2 { (i1, i3) } else { (i3, i1) };
    let k2 = (i2 - a) * (e2 * c - m2) / ((c - i2) * (m2 - e2 * a));
    let lambda = ((c - i2) * (m2 - e2 * a) / (a * i2 * c)).sqrt();
    4.0 * elliptic_k(k2.sqrt()) / lambda
}

/// A state at the origin with identity orientation and body-frame rate `w`.
pub fn spinning(w: Vector3<f64>) -> RigidState<f64> {
    RigidState::new(
        Vector3::zeros(),
        Quaternion::identity(),
        Vector3::zeros(),
        w,
    )
}
