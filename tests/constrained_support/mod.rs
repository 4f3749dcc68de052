//! Shared by the constrained-solver tests: the order fit and the independent references of
//! the pendulum and the slider-crank (each test crate uses a part of it).
#![allow(dead_code)]

#[path = "../../firmware/rust/src/slider_crank.rs"]
pub mod slider_crank;

use nalgebra::Vector2;
use slider_crank::{i0, i1, A0, A1, M0, M1, M2};

/// The least-squares slope of `log(error)` over `log(step)`: the measured order of convergence.
pub fn order(steps: &[f64], errors: &[f64]) -> f64 {
    let xs: Vec<f64> = steps.iter().map(|h| h.ln()).collect();
    let ys: Vec<f64> = errors.iter().map(|e| e.ln()).collect();
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    xs.iter()
        .zip(&ys)
        .map(|(x, y)| (x - mx) * (y - my))
        .sum::<f64>()
        / xs.iter().map(|x| (x - mx) * (x - mx)).sum::<f64>()
}

/// The complete elliptic integral of the first kind `K(k)` by the arithmetic-geometric mean.
pub fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        let (an, bn) = (0.5 * (a + b), (a * b).sqrt());
        a = an;
        b = bn;
    }
    std::f64::consts::PI / (2.0 * a)
}

/// `(x, x_t)` at `t_end` of the scalar equation `x_tt = acc(x, x_t)` from `(x0, 0)`: classical
/// RK4 with step `h` (the references' converged integrator).
pub fn rk4_second_order(acc: impl Fn(f64, f64) -> f64, x0: f64, h: f64, t_end: f64) -> (f64, f64) {
    let (mut x, mut w) = (x0, 0.0f64);
    for _ in 0..(t_end / h).round() as usize {
        let k1 = (w, acc(x, w));
        let k2 = (
            w + 0.5 * h * k1.1,
            acc(x + 0.5 * h * k1.0, w + 0.5 * h * k1.1),
        );
        let k3 = (
            w + 0.5 * h * k2.1,
            acc(x + 0.5 * h * k2.0, w + 0.5 * h * k2.1),
        );
        let k4 = (w + h * k3.1, acc(x + h * k3.0, w + h * k3.1));
        x += h / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
        w += h / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
    }
    (x, w)
}

/// `theta(t)` of the pendulum `theta'' = -(g/L) sin(theta)` from rest at `theta0` (rad from
/// the downward vertical), RK4 with `h = 1e-5`.
pub fn pendulum_angle(g: f64, l: f64, theta0: f64, t_end: f64) -> f64 {
    rk4_second_order(|th, _| -(g / l) * th.sin(), theta0, 1e-5, t_end).0
}

/// The slider-crank's kinematics from the crank angle `phi`: the rod angle `psi`
/// (`2 a0 sin phi + 2 a1 sin psi = 0`) and the slider's `x` (m, from the crank's pivot).
pub fn loop_closure(phi: f64) -> (f64, f64) {
    let psi = (-(A0 / A1) * phi.sin()).asin();
    (psi, 2.0 * A0 * phi.cos() + 2.0 * A1 * psi.cos())
}

/// The generalized inertia `J(phi)` of the crank angle: every body's kinetic energy per
/// `phi_t^2 / 2`.
fn inertia(phi: f64) -> f64 {
    let (psi, _) = loop_closure(phi);
    let dpsi = -(A0 / A1) * phi.cos() / psi.cos();
    // Velocities per unit phi_t: crank centre, crank tip A, slider B, rod centre (A + B)/2.
    let crank = Vector2::new(-A0 * phi.sin(), A0 * phi.cos());
    let tip = crank * 2.0;
    let slider = Vector2::new(-2.0 * A0 * phi.sin() - 2.0 * A1 * psi.sin() * dpsi, 0.0);
    let rod = (tip + slider) * 0.5;
    M0 * crank.norm_squared()
        + i0()
        + M1 * rod.norm_squared()
        + i1() * dpsi * dpsi
        + M2 * slider.norm_squared()
}

/// `phi(t)`, `phi_t(t)` of the slider-crank driven by `torque` (N m) from rest at `phi = 0`,
/// `J phi_tt + J'/2 phi_t^2 = tau` in the crank angle alone: RK4 with `h = 2e-6`, `J'` by
/// central differences of the closed form (step 1e-5, error ~1e-11).
pub fn slider_crank_reference(torque: f64, t_end: f64) -> (f64, f64) {
    let acc = |phi: f64, w: f64| {
        let dj = (inertia(phi + 1e-5) - inertia(phi - 1e-5)) / 2e-5;
        (torque - 0.5 * dj * w * w) / inertia(phi)
    };
    rk4_second_order(acc, 0.0, 2e-6, t_end)
}
