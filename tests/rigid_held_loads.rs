//! Loads computed from the state at the start of each step and held over it (how firmware and
//! controllers apply springs, dampers and inputs), under the midpoint step's options.
//!
//! References (derived by hand from the linear recurrences, not from the code): with
//! `theta = dt omega`, `omega = sqrt(k/m)`, damping ratio `zeta = c / (2 m omega)`, the
//! Jury criterion on the 2x2 step matrix gives the largest stable `theta`:
//! - end-rate update (`x' = x + dt v'`, symplectic-Euler scheme), spring and damper held:
//!   `2 (sqrt(1 + zeta^2) - zeta)`; undamped `2`, the energy then stays in the band
//!   `E/E0 in [1/(1 + theta/2), 1/(1 - theta/2)]` (the conserved `v^2 + u^2 - theta u v`,
//!   `u = omega x`, from rest at `x0`);
//! - end rate, spring held, damper as the step's resistance: implicit `2 (sqrt(1 + zeta^2) +
//!   zeta)`, trapezoidal `2`;
//! - mean-rate orientation update, torsional spring and damper held: stable only for
//!   `theta < min(4 zeta, 1/zeta)` (`det = 1 - 2 zeta theta + theta^2/2`); undamped the energy
//!   grows by the factor `1 + theta^2/2` per step at every `dt`.
//!
//! Piecewise-constant (zero-order-hold) input torque: the exact solution of a constant torque
//! over a step, `w' = w + dt tau / I`, `phi' = phi + dt w + dt^2 tau / (2 I)`.

mod rigid_support;

use approx::assert_relative_eq;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::midpoint::{LinearlyImplicitMidpoint, MidpointSettings};
use mbs_core::integrators::{
    OrientationUpdate, Resistance, RigidIntegrator, RigidLoads, StepSettings, StepStatus,
};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::{Error, Param};
use nalgebra::{Matrix3, Vector3};
use rigid_support::*;

const OMEGA: f64 = 10.0;

/// How the damper is applied.
#[derive(Clone, Copy, Debug)]
enum Damper {
    /// Computed from the start-of-step velocity and held, like the spring.
    Held,
    /// Given to the step as its resistance (implicit or trapezoidal, per the settings).
    Resistance,
}

/// Translational spring-damper to ground on a mass of 2 kg: `E(n)/E0` over up to `n` steps;
/// stops early (returning `None`) once the energy passed `1e4 E0` or overflowed.
fn translational(
    st: MidpointSettings<f64>,
    theta: f64,
    zeta: f64,
    damper: Damper,
    n: usize,
    each: &mut dyn FnMut(f64),
) -> Option<f64> {
    let m = 2.0;
    let (k, c) = (m * OMEGA * OMEGA, 2.0 * zeta * m * OMEGA);
    let body = RigidBody::from_principal(m, [1.0, 1.0, 1.0], Vector3::zeros()).unwrap();
    let integ = LinearlyImplicitMidpoint::with_settings(st);
    let dt = theta / OMEGA;
    let mut s = RigidState::at_rest(Vector3::new(1.0, 0.0, 0.0), Quaternion::identity());
    let energy = |s: &RigidState<f64>| {
        0.5 * m * s.velocity.norm_squared() + 0.5 * k * s.position.norm_squared()
    };
    let e0 = energy(&s);
    let mut ratio = 1.0;
    for _ in 0..n {
        let loads = match damper {
            Damper::Held => RigidLoads::none().with_force(-s.position * k - s.velocity * c),
            Damper::Resistance => RigidLoads::none()
                .with_force(-s.position * k)
                .with_linear_damping(c),
        };
        if integ.step(&body, &loads, &mut s, dt).is_err() {
            return None;
        }
        ratio = energy(&s) / e0;
        each(ratio);
        if ratio.is_nan() || ratio >= 1e4 {
            return None;
        }
    }
    Some(ratio)
}

/// Rotation angle about z (rad) of a quaternion turned about z only.
fn angle_z(q: &Quaternion<f64>) -> f64 {
    2.0 * q.z.atan2(q.w)
}

/// Torsional spring-damper to ground about z on a sphere-inertia body (I = 0.5 kg m^2), from
/// rest at 0.01 rad: like [`translational`].
fn torsional(
    st: MidpointSettings<f64>,
    theta: f64,
    zeta: f64,
    damper: Damper,
    n: usize,
    each: &mut dyn FnMut(f64),
) -> Option<f64> {
    let i = 0.5;
    let (k, c) = (i * OMEGA * OMEGA, 2.0 * zeta * i * OMEGA);
    let body = RigidBody::from_principal(1.0, [i, i, i], Vector3::zeros()).unwrap();
    let integ = LinearlyImplicitMidpoint::with_settings(st);
    let dt = theta / OMEGA;
    let mut s = RigidState::at_rest(
        Vector3::zeros(),
        Quaternion::exp(&Vector3::new(0.0, 0.0, 0.01)),
    );
    let energy = |s: &RigidState<f64>| {
        let phi = angle_z(&s.orientation);
        0.5 * i * s.angular_velocity.norm_squared() + 0.5 * k * phi * phi
    };
    let e0 = energy(&s);
    let mut ratio = 1.0;
    for _ in 0..n {
        let phi = angle_z(&s.orientation);
        let wz = s.angular_velocity.z;
        let loads = match damper {
            Damper::Held => {
                RigidLoads::none().with_torque(Vector3::new(0.0, 0.0, -k * phi - c * wz))
            }
            Damper::Resistance => RigidLoads::none()
                .with_torque(Vector3::new(0.0, 0.0, -k * phi))
                .with_angular_damping(c),
        };
        if integ.step(&body, &loads, &mut s, dt).is_err() {
            return None;
        }
        ratio = energy(&s) / e0;
        each(ratio);
        if ratio.is_nan() || ratio >= 1e4 {
            return None;
        }
    }
    Some(ratio)
}

type Sim = fn(MidpointSettings<f64>, f64, f64, Damper, usize, &mut dyn FnMut(f64)) -> Option<f64>;

/// Largest stable `theta` in `[lo, hi]` by bisection (stable: 20,000 steps end below 1e4 E0).
fn critical_theta(
    sim: Sim,
    st: MidpointSettings<f64>,
    zeta: f64,
    damper: Damper,
    lo: f64,
    hi: f64,
) -> f64 {
    let stable = |theta: f64| sim(st, theta, zeta, damper, 20_000, &mut |_| {}).is_some();
    let (mut lo, mut hi) = (lo, hi);
    assert!(stable(lo) && !stable(hi), "bracket [{lo}, {hi}]");
    for _ in 0..18 {
        let mid = 0.5 * (lo + hi);
        if stable(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

fn end_rate() -> MidpointSettings<f64> {
    MidpointSettings::default()
}

fn mean_rate() -> MidpointSettings<f64> {
    MidpointSettings::default().with_orientation(OrientationUpdate::MeanRate)
}

fn check_limit(
    name: &str,
    sim: Sim,
    st: MidpointSettings<f64>,
    zeta: f64,
    damper: Damper,
    expected: f64,
) {
    let measured = critical_theta(sim, st, zeta, damper, 0.3 * expected, 1.7 * expected);
    eprintln!(
        "{name}, zeta {zeta}: stable up to dt omega = {measured:.4} (closed form {expected:.4})"
    );
    assert_relative_eq!(measured, expected, max_relative = 0.01);
}

#[test]
fn held_spring_damper_limits_match_the_closed_forms() {
    let held = |z: f64| 2.0 * ((1.0 + z * z).sqrt() - z);
    for zeta in [0.1, 0.5] {
        check_limit(
            "translation, spring and damper held",
            translational,
            end_rate(),
            zeta,
            Damper::Held,
            held(zeta),
        );
        check_limit(
            "torsion, EndRate, spring and damper held",
            torsional,
            end_rate(),
            zeta,
            Damper::Held,
            held(zeta),
        );
    }
    let zeta = 0.5;
    check_limit(
        "translation, damper implicit",
        translational,
        end_rate(),
        zeta,
        Damper::Resistance,
        2.0 * ((1.0 + zeta * zeta).sqrt() + zeta),
    );
    check_limit(
        "translation, damper trapezoidal",
        translational,
        end_rate().with_resistance(Resistance::Trapezoidal),
        zeta,
        Damper::Resistance,
        2.0,
    );
    check_limit(
        "torsion, EndRate, damper implicit",
        torsional,
        end_rate(),
        zeta,
        Damper::Resistance,
        2.0 * ((1.0 + zeta * zeta).sqrt() + zeta),
    );
    // The mean rate needs the held damping to outweigh its growth: theta < min(4 zeta, 1/zeta).
    for zeta in [0.1, 0.25] {
        check_limit(
            "torsion, MeanRate, spring and damper held",
            torsional,
            mean_rate(),
            zeta,
            Damper::Held,
            (4.0 * zeta).min(1.0 / zeta),
        );
    }
}

#[test]
fn held_undamped_spring_energy_stays_in_the_symplectic_euler_band() {
    for theta in [0.2, 0.9, 1.9] {
        let (upper, lower) = (1.0 / (1.0 - theta / 2.0), 1.0 / (1.0 + theta / 2.0));
        for sim in [translational as Sim, torsional] {
            let (mut hi, mut lo) = (0.0f64, f64::MAX);
            let r = sim(end_rate(), theta, 0.0, Damper::Held, 20_000, &mut |e| {
                hi = hi.max(e);
                lo = lo.min(e);
            });
            assert!(r.is_some());
            eprintln!("held spring, theta {theta}: E/E0 in [{lo:.5}, {hi:.5}], closed form [{lower:.5}, {upper:.5}]");
            assert!(hi <= upper * (1.0 + 1e-9) && lo >= lower * (1.0 - 1e-9));
            assert!(hi > upper * 0.99 && lo < lower * 1.01);
        }
    }
    // Past dt omega = 2 it diverges within a few hundred steps.
    assert!(translational(end_rate(), 2.02, 0.0, Damper::Held, 2_000, &mut |_| {}).is_none());
    assert!(torsional(end_rate(), 2.02, 0.0, Damper::Held, 2_000, &mut |_| {}).is_none());
}

#[test]
fn mean_rate_with_a_held_undamped_torsional_spring_grows_at_every_step() {
    // Energy ~ (1 + theta^2/2)^n: fit ln E against n.
    for theta in [0.05, 0.1, 0.3] {
        let n = (8.0 / (theta * theta / 2.0)) as usize; // about e^8 growth, below the 1e4 stop
        let mut ln_e = vec![];
        let r = torsional(mean_rate(), theta, 0.0, Damper::Held, n, &mut |x| {
            ln_e.push(x.ln())
        });
        assert!(r.is_some(), "theta {theta}");
        let ns: Vec<f64> = (1..=ln_e.len()).map(|k| k as f64).collect();
        let mn = ns.iter().sum::<f64>() / ns.len() as f64;
        let my = ln_e.iter().sum::<f64>() / ns.len() as f64;
        let sxy: f64 = ns.iter().zip(&ln_e).map(|(x, y)| (x - mn) * (y - my)).sum();
        let sxx: f64 = ns.iter().map(|x| (x - mn) * (x - mn)).sum();
        let rate = sxy / sxx;
        let expected = (1.0 + theta * theta / 2.0).ln();
        eprintln!("MeanRate held torsional spring, theta {theta}: ln E grows {rate:.5e} per step (closed form {expected:.5e})");
        assert_relative_eq!(rate, expected, max_relative = 0.01);
        // The end rate on the same spring stays bounded.
        let e = torsional(end_rate(), theta, 0.0, Damper::Held, n, &mut |_| {}).unwrap();
        assert!(e <= 1.0 / (1.0 - theta / 2.0) + 1e-9);
    }
}

#[test]
fn stiff_spring_damper_at_an_offset_point_of_a_spinning_body() {
    // Body diag(1, 2, 3), 1 kg, spinning near its unstable axis, hung at body point p on a
    // stiff spring-damper to the ground point it starts at; force from the start-of-step
    // state, applied at p (firmware style). omega = sqrt(k/m) = 300 rad/s, zeta = 0.2.
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let i = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let p = Vector3::new(0.2, 0.0, 0.0);
    let (omega, zeta) = (300.0f64, 0.2);
    let (k, c) = (omega * omega, 2.0 * zeta * omega);
    let run_at = |theta: f64, n: usize, check: bool| -> Option<f64> {
        let dt = theta / omega;
        let integ = LinearlyImplicitMidpoint::with_settings(
            MidpointSettings::default()
                .with_step(StepSettings::default().with_load_frequency(Some(omega))),
        );
        let mut s = spinning(Vector3::new(0.1, 5.0, 0.1));
        s.velocity = Vector3::new(0.3, -0.2, 0.1); // start off the rest point
        let anchor = s.position + s.orientation.rotate(&p);
        let energy = |s: &RigidState<f64>| {
            let xp = s.position + s.orientation.rotate(&p) - anchor;
            0.5 * s.velocity.norm_squared()
                + rot_energy(&i, &s.angular_velocity)
                + 0.5 * k * xp.norm_squared()
        };
        let e0 = energy(&s);
        let mut e_max: f64 = 1.0;
        for _ in 0..n {
            let xp = s.position + s.orientation.rotate(&p) - anchor;
            let vp = s.velocity + s.orientation.rotate(&s.angular_velocity.cross(&p));
            let mut loads = RigidLoads::none();
            loads.add_force_at(&body, &s, &(-xp * k - vp * c), &p);
            let info = integ.step(&body, &loads, &mut s, dt).ok()?;
            if check {
                // The declared load frequency drives the warning: theta > 1 is StepTooLarge.
                assert_eq!(info.status == StepStatus::StepTooLarge, theta > 1.0);
            }
            let e = energy(&s) / e0;
            e_max = e_max.max(e);
            if e.is_nan() || e >= 1e4 {
                return None;
            }
        }
        Some(e_max)
    };
    // At dt omega = 0.3 (dt = 1 ms): dissipative, energy never above its start by more than
    // the discrete band, and the warning silent.
    let e = run_at(0.3, 5_000, true).unwrap();
    eprintln!("offset spring-damper, dt omega 0.3: max E/E0 {e:.4}");
    assert!(e < 1.0 / (1.0 - 0.15));
    // The warning at 1.2 (still stable).
    assert!(run_at(1.2, 100, true).is_some());
    // The measured limit is the 1D closed form for the highest mode (effective mass at p:
    // 1/m_eff = 1/m + |p|^2/I_2, omega_max = omega sqrt(1.02)).
    let (mut lo, mut hi) = (0.5, 2.0);
    for _ in 0..16 {
        let mid = 0.5 * (lo + hi);
        if run_at(mid, 20_000, false).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let expected = 2.0 * ((1.0 + zeta * zeta).sqrt() - zeta) / 1.02f64.sqrt();
    eprintln!("offset spring-damper: stable up to dt omega = {lo:.4}; 1D closed form for omega_max {expected:.4}");
    assert_relative_eq!(lo, expected, max_relative = 0.03);
}

#[test]
fn piecewise_constant_input_torque_is_integrated_exactly_in_rate_and_by_the_mean_rate_in_angle() {
    // Sphere inertia, torque about z sampled at the control rate and held (zero-order hold).
    let i = 0.4;
    let body = RigidBody::from_principal(1.0, [i, i, i], Vector3::zeros()).unwrap();
    let dt = 1e-3;
    let tau = |k: usize| 0.8 * (3.0 * k as f64 * dt).sin() + if k % 7 < 3 { 0.2 } else { -0.1 };
    for o in [OrientationUpdate::EndRate, OrientationUpdate::MeanRate] {
        let integ = LinearlyImplicitMidpoint::with_settings(
            MidpointSettings::default().with_orientation(o),
        );
        let mut s = spinning(Vector3::new(0.0, 0.0, 2.0));
        let (mut w, mut phi, mut lag) = (2.0f64, 0.0f64, 0.0f64);
        let mut turned = 0.0;
        for k in 0..5_000 {
            let t = tau(k);
            let before = angle_z(&s.orientation);
            integ
                .step(
                    &body,
                    &RigidLoads::none().with_torque(Vector3::new(0.0, 0.0, t)),
                    &mut s,
                    dt,
                )
                .unwrap();
            let d = angle_z(&s.orientation) - before;
            turned += (d + std::f64::consts::PI).rem_euclid(2.0 * std::f64::consts::PI)
                - std::f64::consts::PI;
            // Exact ZOH solution.
            phi += dt * w + dt * dt * t / (2.0 * i);
            w += dt * t / i;
            lag += dt * dt * t / (2.0 * i);
            assert_relative_eq!(s.angular_velocity.z, w, max_relative = 1e-13);
        }
        match o {
            OrientationUpdate::MeanRate => assert!((turned - phi).abs() < 1e-11, "{turned} {phi}"),
            OrientationUpdate::EndRate => {
                // The end rate turns by dt w' per step: ahead of the exact angle by exactly the
                // sum of dt^2 tau / (2 I).
                assert!((turned - phi - lag).abs() < 1e-11, "{} {lag}", turned - phi);
                assert!(lag.abs() > 1e-5);
            }
        }
    }
}

#[test]
fn piecewise_constant_input_torque_energy_balance_converges_with_order_2() {
    // Asymmetric body: E_n - E_0 against the work of the held torque, sum dt tau_k . (w_k +
    // w_k+1)/2 (the exact work of a constant torque over a step to O(dt^3)).
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let im = Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0));
    let dts = [0.008, 0.004, 0.002, 0.001];
    let mut errs = vec![];
    for &dt in &dts {
        let integ = LinearlyImplicitMidpoint::with_settings(MidpointSettings::second_order());
        let mut s = spinning(Vector3::new(0.1, 5.0, 0.1));
        let e0 = rot_energy(&im, &s.angular_velocity);
        let mut work = 0.0;
        // The controller samples every 8 ms and holds: each sample covers 8 ms / dt steps.
        let hold = (0.008f64 / dt).round() as usize;
        let mut t_held = Vector3::zeros();
        for k in 0..steps(2.0, dt) {
            if k % hold == 0 {
                let t = k as f64 * dt;
                t_held = Vector3::new(0.5 * (2.0 * t).cos(), -0.3, 0.2 * t);
            }
            let w0 = s.angular_velocity;
            integ
                .step(&body, &RigidLoads::none().with_torque(t_held), &mut s, dt)
                .unwrap();
            work += dt * t_held.dot(&(w0 + s.angular_velocity)) * 0.5;
        }
        errs.push((rot_energy(&im, &s.angular_velocity) - e0 - work).abs());
    }
    let p = slope(&dts, &errs);
    eprintln!("ZOH torque energy balance residual {errs:?}, slope {p:.3}");
    assert!(p >= 1.9, "{p}");
}

#[test]
fn load_frequency_warning_and_its_settings() {
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let s0 = spinning(Vector3::new(0.0, 0.1, 0.0));
    let step = |st: StepSettings<f64>, dt: f64| {
        let mut s = s0;
        let r = LinearlyImplicitMidpoint::with_step_settings(st).step(
            &body,
            &RigidLoads::none(),
            &mut s,
            dt,
        );
        (r, s)
    };
    let hint = StepSettings::default().with_stiffness_per_mass(1e4); // omega = 100 rad/s
    assert_eq!(hint.load_frequency, Some(100.0));
    assert_eq!(step(hint, 0.0099).0.unwrap().status, StepStatus::Ok);
    assert_eq!(
        step(hint, 0.0101).0.unwrap().status,
        StepStatus::StepTooLarge
    );
    let custom = hint.with_max_load_phase_per_step(0.5);
    assert_eq!(step(custom, 0.0049).0.unwrap().status, StepStatus::Ok);
    assert_eq!(
        step(custom, 0.0051).0.unwrap().status,
        StepStatus::StepTooLarge
    );
    // Sub-stepping does not cure a held load: still the warning (the loads are held for dt).
    assert_eq!(
        step(hint.with_substep(true), 0.0101).0.unwrap().status,
        StepStatus::StepTooLarge
    );
    // No hint: no check.
    assert_eq!(
        step(StepSettings::default(), 0.0101).0.unwrap().status,
        StepStatus::Ok
    );
    // Bad hints are refused and the state is left unchanged.
    for bad in [
        StepSettings::default().with_stiffness_per_mass(-1.0),
        StepSettings::default().with_load_frequency(Some(f64::NAN)),
        StepSettings::default().with_load_frequency(Some(-1.0)),
        StepSettings::default().with_load_frequency(Some(f64::INFINITY)),
        StepSettings::default().with_max_load_phase_per_step(0.0),
        StepSettings::default().with_max_load_phase_per_step(f64::NAN),
    ] {
        let (r, s) = step(bad, 1e-3);
        assert!(
            matches!(
                r,
                Err(Error::OutOfRange(Param::Setting)) | Err(Error::NotFinite(Param::Setting))
            ),
            "{r:?}"
        );
        assert_eq!(s, s0);
    }
    // Bad projection levels too.
    for levels in [
        [0.0, 1.0],
        [1.0, -1.0],
        [f64::NAN, 1.0],
        [1.0, f64::INFINITY],
    ] {
        let mut st = MidpointSettings::default();
        st.projection_levels = Some(levels);
        let mut s = s0;
        let r = LinearlyImplicitMidpoint::with_settings(st).step(
            &body,
            &RigidLoads::none(),
            &mut s,
            1e-3,
        );
        assert_eq!(r, Err(Error::OutOfRange(Param::Setting)));
        assert_eq!(s, s0);
    }
}
