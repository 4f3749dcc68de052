//! Generalized-alpha (`mbs_core::integrators::GeneralizedAlpha`) against closed forms:
//! second order on a harmonic oscillator, and the spectral radius of its amplification matrix,
//! which tends to the chosen `rho_inf` at high frequency (Chung & Hulbert 1993).

use mbs_core::integrators::{FnOde, GeneralizedAlpha, SecondOrderState};
use mbs_core::solver::NewtonSettings;
use nalgebra::{Matrix1, Matrix3, Vector1};

/// Error at t = 1 s of q_tt = -omega^2 q - c q_t from q = 1, v = 0, with `n` steps.
fn oscillator_error(rho: f64, omega: f64, c: f64, n: u32, exact_jacobian: bool) -> f64 {
    let ga = GeneralizedAlpha::new(rho).unwrap();
    let k = omega * omega;
    let f = move |_t, q: &Vector1<f64>, v: &Vector1<f64>| Vector1::new(-k * q[0] - c * v[0]);
    let ode = FnOde::new(Matrix1::new(1.0), f).unwrap();
    let ode = if exact_jacobian {
        ode.with_constant_jacobians(Matrix1::new(-k), Matrix1::new(-c))
            .unwrap()
    } else {
        ode
    };
    let mut s = ga
        .initial_state(&ode, 0.0, &Vector1::new(1.0), &Vector1::new(0.0))
        .unwrap();
    let h = 1.0 / f64::from(n);
    for i in 0..n {
        ga.step(&ode, &mut s, f64::from(i) * h, h).unwrap();
    }
    // closed form of the damped oscillator: q = e^{-zeta w t} (cos wd t + zeta w / wd sin wd t)
    let zw = c / 2.0;
    let wd = (omega * omega - zw * zw).sqrt();
    let t = 1.0;
    let q = (-zw * t).exp() * ((wd * t).cos() + zw / wd * (wd * t).sin());
    let v = -(-zw * t).exp() * (omega * omega / wd) * (wd * t).sin();
    ((s.q[0] - q).powi(2) + ((s.q_t[0] - v) / omega).powi(2)).sqrt()
}

/// Least-squares slope of log(err) over log(h).
fn slope(hs: &[f64], errs: &[f64]) -> f64 {
    let n = hs.len() as f64;
    let x: Vec<f64> = hs.iter().map(|h| h.ln()).collect();
    let y: Vec<f64> = errs.iter().map(|e| e.ln()).collect();
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxy: f64 = x.iter().zip(&y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

#[test]
fn second_order_on_a_harmonic_oscillator() {
    let steps = [50u32, 100, 200, 400, 800];
    let hs: Vec<f64> = steps.iter().map(|n| 1.0 / f64::from(*n)).collect();
    let omega = 2.0 * std::f64::consts::PI;
    for rho in [0.0, 0.5, 0.9, 1.0] {
        for (c, exact) in [(0.0, true), (0.8, true), (0.8, false)] {
            let errs: Vec<f64> = steps
                .iter()
                .map(|n| oscillator_error(rho, omega, c, *n, exact))
                .collect();
            let p = slope(&hs, &errs);
            println!("rho_inf {rho}, c {c}, exact Jacobian {exact}: errors {errs:?}, slope {p:.4}");
            assert!(
                (1.9..2.2).contains(&p),
                "rho {rho} c {c}: slope {p}, errors {errs:?}"
            );
        }
    }
}

/// The amplification matrix of one step on the scaled state (q, h v, h^2 a) for
/// q_tt = -omega^2 q with omega = 1 and step h = omega h, built column by column by stepping
/// unit states (the step is linear for a linear model). Scaling keeps the entries O(1), so
/// the eigenvalues are accurate to round-off at any omega h.
fn amplification(rho: f64, omega_h: f64) -> Matrix3<f64> {
    let h = omega_h;
    // Newton to round-off (the default relative 1e-8 would blur the matrix at 1e-8)
    let newton = NewtonSettings {
        relative_tolerance: 0.0,
        absolute_tolerance: 0.0,
        max_iterations: 25,
    };
    let ga = GeneralizedAlpha::new(rho)
        .unwrap()
        .with_newton(newton)
        .unwrap();
    let ode = FnOde::new(
        Matrix1::new(1.0),
        |_t, q: &Vector1<f64>, _v: &Vector1<f64>| -q,
    )
    .unwrap()
    .with_constant_jacobians(Matrix1::new(-1.0), Matrix1::new(0.0))
    .unwrap();
    let mut a = Matrix3::zeros();
    for j in 0..3 {
        let q = if j == 0 { 1.0 } else { 0.0 };
        let mut s = SecondOrderState {
            q: Vector1::new(q),
            q_t: Vector1::new(if j == 1 { 1.0 / h } else { 0.0 }),
            q_tt: Vector1::new(-q),
            a: Vector1::new(if j == 2 { 1.0 / (h * h) } else { 0.0 }),
        };
        ga.step(&ode, &mut s, 0.0, h).unwrap();
        a[(0, j)] = s.q[0];
        a[(1, j)] = h * s.q_t[0];
        a[(2, j)] = h * h * s.a[0];
    }
    a
}

/// Spectral radius by Gelfand's formula `rho = lim |A^n|^(1/n)`, with `n = 2^40` reached by
/// repeated squaring (rescaled each time so nothing under- or overflows). Unlike an
/// eigensolver it stays accurate when eigenvalues coalesce (at rho_inf = 1 all three tend to
/// -1, a defective eigenvalue that eigensolvers resolve only to ~eps^(1/3)).
fn spectral_radius(m: &Matrix3<f64>) -> f64 {
    let mut b = *m / m.norm();
    let mut ln_c = m.norm().ln();
    for _ in 0..40 {
        b = b * b;
        let n = b.norm();
        if n == 0.0 {
            return 0.0;
        }
        b /= n;
        ln_c = 2.0 * ln_c + n.ln();
    }
    (ln_c / 2f64.powi(40)).exp()
}

fn spectral_radius_by_eigenvalues(m: &Matrix3<f64>) -> f64 {
    m.complex_eigenvalues()
        .iter()
        .map(|l| (l.re * l.re + l.im * l.im).sqrt())
        .fold(0.0, f64::max)
}

#[test]
fn gelfand_spectral_radius_agrees_with_eigenvalues_where_they_are_distinct() {
    for omega_h in [0.5, 3.0, 30.0] {
        let a = amplification(0.9, omega_h);
        let (g, e) = (spectral_radius(&a), spectral_radius_by_eigenvalues(&a));
        assert!((g - e).abs() < 1e-9, "omega h {omega_h}: {g} vs {e}");
    }
}

#[test]
fn high_frequency_damping_tends_to_rho_inf() {
    for rho in [0.0, 0.5, 0.9, 1.0] {
        let mut last = f64::INFINITY;
        let mut curve = Vec::new();
        for omega_h in [1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5] {
            let r = spectral_radius(&amplification(rho, omega_h));
            curve.push((omega_h, r));
            // unconditionally stable and monotonically decreasing in omega h, to the accuracy
            // the round-off of the matrix entries allows: ~1e-11 at omega h = 1e-3, and at
            // rho_inf = 1 and large omega h ~1e-9, since the three eigenvalues coalesce at -1
            // and a defective eigenvalue moves like (perturbation)^(1/3)
            assert!(r <= 1.0 + 1e-8, "rho {rho}, omega h {omega_h}: {r}");
            assert!(
                r <= last + 1e-8,
                "rho {rho}: not monotone at omega h {omega_h}: {r} > {last}"
            );
            last = r;
        }
        println!("rho_inf {rho}: spectral radius over omega h: {curve:.6?}");
        // low frequencies are (nearly) undamped
        assert!((curve[0].1 - 1.0).abs() < 1e-6, "{curve:?}");
        // the limit: rho_inf
        let r_inf = curve.last().unwrap().1;
        assert!((r_inf - rho).abs() < 1e-3, "rho {rho}: measured {r_inf}");
    }
}
