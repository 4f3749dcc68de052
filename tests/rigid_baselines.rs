//! The baselines next to the midpoint step on the torque-free asymmetric body
//! (inertia diag(1, 2, 3)): order of the energy and |L| errors, and the sign and size of the
//! energy drift over a long run. The measured numbers are printed (`--nocapture`).

mod rigid_support;

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use nalgebra::{Matrix3, Vector3};
use rigid_support::*;

const DTS: [f64; 5] = [0.02, 0.01, 0.005, 0.0025, 0.00125];

fn inertia() -> Matrix3<f64> {
    Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0))
}

/// Errors of a torque-free run of `t` s at step `dt`.
struct RunErrors {
    /// Signed relative energy error at the end.
    energy_end: f64,
    /// Largest relative energy error over the run.
    energy_max: f64,
    /// Largest relative |L| error over the run.
    l_max: f64,
    /// Largest angle (rad) between the world-frame angular momentum and its start.
    dir_max: f64,
}

fn run_errors<I: RigidIntegrator<f64>>(integ: &I, w0: Vector3<f64>, dt: f64, t: f64) -> RunErrors {
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let i = inertia();
    let mut s = spinning(w0);
    let e0 = rot_energy(&i, &w0);
    let l0 = i * w0;
    let mut r = RunErrors {
        energy_end: 0.0,
        energy_max: 0.0,
        l_max: 0.0,
        dir_max: 0.0,
    };
    for _ in 0..steps(t, dt) {
        run(integ, &body, &RigidLoads::none(), &mut s, dt, 1);
        let de = (rot_energy(&i, &s.angular_velocity) - e0) / e0;
        r.energy_end = de;
        r.energy_max = r.energy_max.max(de.abs());
        r.l_max = r
            .l_max
            .max(((i * s.angular_velocity).norm() - l0.norm()).abs() / l0.norm());
        r.dir_max = r.dir_max.max(angle(&l_world(&i, &s), &l0));
    }
    r
}

/// Slopes of the largest energy, |L| and L-direction errors over 10 s against `dts`, and the
/// signed energy errors at the end.
fn orders<I: RigidIntegrator<f64>>(
    name: &str,
    integ: &I,
    w0: Vector3<f64>,
    dts: &[f64],
) -> (f64, f64, f64, Vec<f64>) {
    let runs: Vec<RunErrors> = dts
        .iter()
        .map(|&dt| run_errors(integ, w0, dt, 10.0))
        .collect();
    let col = |f: fn(&RunErrors) -> f64| runs.iter().map(f).collect::<Vec<f64>>();
    let (e, l, d, end) = (
        col(|r| r.energy_max),
        col(|r| r.l_max),
        col(|r| r.dir_max),
        col(|r| r.energy_end),
    );
    let (se, sl, sd) = (slope(dts, &e), slope(dts, &l), slope(dts, &d));
    let fmt = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:+.2e}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    eprintln!(
        "{name:>16} w0 {:?}, dt {dts:?}:\n    energy at 10 s [{}], max slope {se:.3}; |L| max slope {sl:.3}; L direction max [{}] slope {sd:.3}",
        w0.as_slice(),
        fmt(&end),
        fmt(&d)
    );
    (se, sl, sd, end)
}

#[test]
fn orders_of_the_baselines_and_the_midpoint() {
    for w0 in [Vector3::new(1.0, 0.5, 0.2), Vector3::new(0.1, 5.0, 0.1)] {
        let (se, sl, sd, _) = orders("midpoint", &LinearlyImplicitMidpoint::new(), w0, &DTS);
        assert!(se >= 1.9 && sl >= 1.9 && sd >= 0.9, "{se} {sl} {sd}");
        let (se, sl, sd, e) = orders("explicit Euler", &ExplicitEuler::default(), w0, &DTS);
        assert!(
            (0.9..1.2).contains(&se) && (0.9..1.2).contains(&sl),
            "{se} {sl}"
        );
        assert!(sd >= 0.8, "{sd}"); // pre-asymptotic near the unstable axis
        assert!(
            e.iter().all(|x| *x > 0.0),
            "explicit Euler's energy grows: {e:?}"
        );
        // Torque-free the body-frame rate does not depend on the pose, so semi-implicit Euler
        // has the same rate (and energy) as explicit Euler; only its pose differs.
        let (se, sl, sd, e) = orders("symplectic Euler", &SymplecticEuler::default(), w0, &DTS);
        assert!(
            (0.9..1.2).contains(&se) && (0.9..1.2).contains(&sl),
            "{se} {sl}"
        );
        assert!(sd >= 0.8, "{sd}");
        assert!(
            e.iter().all(|x| *x > 0.0),
            "symplectic Euler's energy grows: {e:?}"
        );
        // RK4 reaches round-off below dt = 0.01: measure it on coarser steps (|w| dt <= 0.4).
        let (se, sl, sd, _) = orders("RK4", &Rk4::default(), w0, &[0.08, 0.04, 0.02, 0.01]);
        assert!(se >= 3.8 && sl >= 3.8 && sd >= 3.8, "{se} {sl} {sd}");
    }
}

#[test]
fn long_run_energy_drift_at_a_firmware_step() {
    // 1 kHz for 100 s near the unstable axis.
    let w0 = Vector3::new(0.1, 5.0, 0.1);
    let dt = 1e-3;
    fn report<I: RigidIntegrator<f64>>(
        name: &str,
        integ: &I,
        w0: Vector3<f64>,
        dt: f64,
    ) -> (RunErrors, RunErrors) {
        let (a, b) = (
            run_errors(integ, w0, dt, 10.0),
            run_errors(integ, w0, dt, 100.0),
        );
        eprintln!(
            "{name:>16}: energy error {:+.3e} at 10 s, {:+.3e} at 100 s (max {:.3e}); L direction max {:.3e} rad",
            a.energy_end, b.energy_end, b.energy_max, b.dir_max
        );
        (a, b)
    }
    let (_, m) = report("midpoint", &LinearlyImplicitMidpoint::new(), w0, dt);
    let (x10, x) = report("explicit Euler", &ExplicitEuler::default(), w0, dt);
    let (_, y) = report("symplectic Euler", &SymplecticEuler::default(), w0, dt);
    let (_, r) = report("RK4", &Rk4::default(), w0, dt);
    // The first-order baselines drift up, far more than the midpoint's bounded second-order
    // error; the midpoint's error does not grow from 10 s to 100 s.
    assert!(x.energy_end > 1e4 * m.energy_max && y.energy_end > 1e4 * m.energy_max);
    assert!(
        x.energy_end > 5.0 * x10.energy_end,
        "explicit Euler keeps growing"
    );
    assert!(
        m.energy_max < 1e-5 && m.energy_end.abs() < 1e-8,
        "{}",
        m.energy_max
    );
    assert!(r.energy_max < 1e-12);
}
