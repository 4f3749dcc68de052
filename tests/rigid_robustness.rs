//! Refused inputs leave the state unchanged (every integrator), the quaternion stays unit over
//! a million steps, the step-size warning and sub-stepping, and the f32 step.

mod rigid_support;

use approx::assert_relative_eq;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepSettings, StepStatus};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::{Error, Param};
use nalgebra::{Matrix3, Vector3};
use rigid_support::*;

fn good_state() -> RigidState<f64> {
    let mut s = RigidState::new(
        Vector3::new(1.0, 2.0, 3.0),
        Quaternion::exp(&Vector3::new(0.2, -0.3, 0.4)),
        Vector3::new(0.1, 0.2, 0.3),
        Vector3::new(1.0, 0.5, 0.2),
    );
    s.acceleration = Vector3::new(0.01, 0.0, 0.0);
    s
}

fn body() -> RigidBody<f64> {
    RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::new(0.1, 0.0, 0.0)).unwrap()
}

/// Every refused input returns its error and leaves the state bit-for-bit unchanged.
fn refuses_bad_inputs<I: RigidIntegrator<f64>>(integ: &I, name: &str) {
    let b = body();
    let ok = RigidLoads::none();
    let check = |loads: &RigidLoads<f64>, s0: RigidState<f64>, dt: f64, want: Error| {
        let mut s = s0;
        let got = integ.step(&b, loads, &mut s, dt);
        assert_eq!(got, Err(want), "{name}: dt {dt}");
        // Bitwise: compare the debug representation (NaN != NaN under PartialEq).
        assert_eq!(format!("{s:?}"), format!("{s0:?}"), "{name}: state changed");
    };
    for dt in [0.0, -1e-3, -0.0] {
        check(&ok, good_state(), dt, Error::OutOfRange(Param::TimeStep));
    }
    for dt in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        check(&ok, good_state(), dt, Error::NotFinite(Param::TimeStep));
    }
    let bad_values = [f64::NAN, f64::INFINITY, -f64::INFINITY];
    for x in bad_values {
        for field in 0..6 {
            let mut s = good_state();
            match field {
                0 => s.position.y = x,
                1 => s.velocity.z = x,
                2 => s.angular_velocity.x = x,
                3 => s.orientation.y = x,
                4 => s.acceleration.x = x,
                _ => s.angular_acceleration.z = x,
            }
            check(&ok, s, 1e-3, Error::NonFiniteState);
        }
        check(
            &ok.with_force(Vector3::new(0.0, x, 0.0)),
            good_state(),
            1e-3,
            Error::NotFinite(Param::Force),
        );
        check(
            &ok.with_torque(Vector3::new(x, 0.0, 0.0)),
            good_state(),
            1e-3,
            Error::NotFinite(Param::Torque),
        );
        check(
            &ok.with_linear_damping(x),
            good_state(),
            1e-3,
            Error::NotFinite(Param::Damping),
        );
        check(
            &ok.with_angular_damping(x),
            good_state(),
            1e-3,
            Error::NotFinite(Param::Damping),
        );
    }
    let mut s = good_state();
    s.orientation.w *= 1.01;
    check(&ok, s, 1e-3, Error::OutOfRange(Param::Orientation));
    // Overflow of the result.
    check(
        &ok.with_force(Vector3::new(1e308, 0.0, 0.0)),
        good_state(),
        1e300,
        Error::NonFiniteState,
    );
}

#[test]
fn every_integrator_refuses_bad_inputs_and_leaves_the_state_unchanged() {
    refuses_bad_inputs(&LinearlyImplicitMidpoint::new(), "midpoint");
    refuses_bad_inputs(&ExplicitEuler::default(), "explicit Euler");
    refuses_bad_inputs(&SymplecticEuler::default(), "symplectic Euler");
    refuses_bad_inputs(&Rk4::default(), "RK4");
}

#[test]
fn a_singular_step_matrix_is_a_solver_failure_and_changes_nothing() {
    // R_ang = -I/h and w = 0 make I + h R_ang - h/2 K = 0.
    let b = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let h = 0.01;
    let mut loads = RigidLoads::none();
    loads.angular_resistance = -*b.inertia() / h;
    let s0 = RigidState::at_rest(Vector3::zeros(), Quaternion::identity());
    let mut s = s0;
    assert_eq!(
        LinearlyImplicitMidpoint::new().step(&b, &loads, &mut s, h),
        Err(Error::SolverFailed)
    );
    assert_eq!(s, s0);
    // Linear: m + h R_lin = 0.
    let loads = RigidLoads::none().with_linear_damping(-1.0 / h);
    assert_eq!(
        LinearlyImplicitMidpoint::new().step(&b, &loads, &mut s, h),
        Err(Error::SolverFailed)
    );
    assert_eq!(s, s0);
}

#[test]
fn bad_settings_and_bodies_are_refused() {
    let b = body();
    let s0 = good_state();
    for st in [
        StepSettings::default().with_max_rotation_per_step(0.0),
        StepSettings::default().with_max_rotation_per_step(-0.5),
        StepSettings::default().with_max_substeps(0),
    ] {
        let mut s = s0;
        assert_eq!(
            LinearlyImplicitMidpoint::with_step_settings(st).step(
                &b,
                &RigidLoads::none(),
                &mut s,
                1e-3
            ),
            Err(Error::OutOfRange(Param::Setting))
        );
        assert_eq!(s, s0);
    }
    let mut s = s0;
    let nan = StepSettings::default().with_max_rotation_per_step(f64::NAN);
    assert_eq!(
        Rk4 { settings: nan }.step(&b, &RigidLoads::none(), &mut s, 1e-3),
        Err(Error::NotFinite(Param::Setting))
    );
    let z = Vector3::zeros();
    for m in [0.0, -1.0] {
        assert_eq!(
            RigidBody::from_principal(m, [1.0, 1.0, 1.0], z),
            Err(Error::OutOfRange(Param::Mass))
        );
    }
    assert_eq!(
        RigidBody::from_principal(f64::INFINITY, [1.0, 1.0, 1.0], z),
        Err(Error::NotFinite(Param::Mass))
    );
    for i in [
        [0.0, 1.0, 1.0],
        [1.0, -1.0, 1.0],
        [1.0, 1.0, 0.0],
        [1.0, 1.0, 3.0],
    ] {
        assert_eq!(
            RigidBody::from_principal(1.0, i, z),
            Err(Error::OutOfRange(Param::Inertia)),
            "{i:?}"
        );
    }
    assert_eq!(
        RigidBody::new(1.0, Matrix3::from_element(f64::NAN), z),
        Err(Error::NotFinite(Param::Inertia))
    );
}

#[test]
fn the_quaternion_stays_unit_to_1e_12_after_a_million_steps() {
    let b = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let mut s = spinning(Vector3::new(0.1, 5.0, 0.1));
    let integ = LinearlyImplicitMidpoint::new();
    let mut worst: f64 = 0.0;
    for _ in 0..1_000_000 {
        integ.step(&b, &RigidLoads::none(), &mut s, 1e-3).unwrap();
        worst = worst.max((s.orientation.norm_squared() - 1.0).abs());
    }
    eprintln!("max | |q|^2 - 1 | over 1e6 steps: {worst:.2e}");
    assert!(worst < 1e-12, "{worst}");
}

#[test]
fn a_step_turning_more_than_half_a_radian_warns_and_substepping_resolves_it() {
    // Steady spin about the major axis: w stays [0, 0, 10] exactly.
    let b = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let w = Vector3::new(0.0, 0.0, 10.0);
    let none = RigidLoads::none();
    let plain = LinearlyImplicitMidpoint::new();
    let mut s = spinning(w);
    let info = plain.step(&b, &none, &mut s, 0.06).unwrap(); // |w| dt = 0.6
    assert_eq!((info.status, info.substeps), (StepStatus::StepTooLarge, 1));
    let mut s = spinning(w);
    let info = plain.step(&b, &none, &mut s, 0.05).unwrap(); // |w| dt = 0.5: at the bound
    assert_eq!(info.status, StepStatus::Ok);
    // The warning also fires on the end rate (a torque spins the body up within the step).
    let mut s = spinning(Vector3::zeros());
    let spin_up = RigidLoads::none().with_torque(Vector3::new(0.0, 0.0, 3.0 * 100.0));
    assert_eq!(
        plain.step(&b, &spin_up, &mut s, 0.1).unwrap().status,
        StepStatus::StepTooLarge
    );

    let sub =
        LinearlyImplicitMidpoint::with_step_settings(StepSettings::default().with_substep(true));
    let mut s = spinning(w);
    let info = sub.step(&b, &none, &mut s, 1.0).unwrap();
    assert_eq!(
        (info.status, info.substeps, info.rejected_substeps),
        (StepStatus::Ok, 20, 0)
    );
    // Same as 20 plain steps of 0.05 (to rounding of the sub-step lengths).
    let mut manual = spinning(w);
    run(&plain, &b, &none, &mut manual, 0.05, 20);
    assert_relative_eq!(
        s.orientation.to_array()[..],
        manual.orientation.to_array()[..],
        epsilon = 1e-13
    );
    // A rate that grows within the step: the first sub-step is redone finer.
    let mut s = spinning(Vector3::zeros());
    let info = sub.step(&b, &spin_up, &mut s, 0.1).unwrap();
    assert_eq!(info.status, StepStatus::Ok);
    assert_eq!((info.substeps, info.rejected_substeps), (2, 1));
    assert_relative_eq!(
        s.angular_velocity,
        Vector3::new(0.0, 0.0, 10.0),
        max_relative = 1e-14
    );
    // The cap: 1024 sub-steps cannot resolve |w| dt = 1e4; the step warns and says why.
    let mut s = spinning(w);
    let info = sub.step(&b, &none, &mut s, 1000.0).unwrap();
    assert_eq!(info.status, StepStatus::StepTooLarge);
    assert!(info.substep_limit_reached);
    assert_eq!(info.substeps + info.rejected_substeps, 1024);
    let capped = LinearlyImplicitMidpoint::with_step_settings(
        StepSettings::default()
            .with_substep(true)
            .with_max_substeps(4),
    );
    let mut s = spinning(w);
    let info = capped.step(&b, &none, &mut s, 0.3).unwrap(); // wants 6
    assert_eq!(
        (info.status, info.substeps, info.substep_limit_reached),
        (StepStatus::StepTooLarge, 4, true)
    );
    // The sub-stepped tumble near the unstable axis follows the motion (against RK4 at a
    // 50x finer step as the reference) where the single big steps do not.
    let w0 = Vector3::new(0.1, 5.0, 0.1);
    let (mut big, mut fine, mut reference) = (spinning(w0), spinning(w0), spinning(w0));
    for _ in 0..50 {
        plain.step(&b, &none, &mut big, 0.2).unwrap(); // |w| dt = 1
        sub.step(&b, &none, &mut fine, 0.2).unwrap();
    }
    run(&Rk4::default(), &b, &none, &mut reference, 0.002, 5000);
    let eb = (big.angular_velocity - reference.angular_velocity).norm();
    let ef = (fine.angular_velocity - reference.angular_velocity).norm();
    eprintln!("|w| dt = 1, t = 10 s: |w - w_ref| {eb:.3e} single steps, {ef:.3e} sub-stepped");
    assert!(ef < eb / 3.0, "{ef} vs {eb}");
}

#[test]
fn the_f32_step_tracks_the_f64_step() {
    let b64 = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::new(0.1, 0.0, 0.0)).unwrap();
    let b32 = RigidBody::<f32>::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::new(0.1, 0.0, 0.0))
        .unwrap();
    let w0 = Vector3::new(1.0, 0.5, 0.2);
    let mut s64 = spinning(w0);
    let mut s32 = RigidState::<f32>::new(
        Vector3::zeros(),
        Quaternion::identity(),
        Vector3::zeros(),
        w0.cast(),
    );
    let l64 = LinearlyImplicitMidpoint::<f64>::new();
    let l32 = LinearlyImplicitMidpoint::<f32>::new();
    let loads32 = RigidLoads::<f32>::none().with_force(Vector3::new(0.0, -9.81, 0.0));
    let loads64 = RigidLoads::<f64>::none().with_force(Vector3::new(0.0, -9.81, 0.0));
    for _ in 0..1000 {
        l64.step(&b64, &loads64, &mut s64, 1e-3).unwrap();
        l32.step(&b32, &loads32, &mut s32, 1e-3).unwrap();
    }
    assert_relative_eq!(
        s32.angular_velocity.cast::<f64>(),
        s64.angular_velocity,
        max_relative = 1e-5
    );
    assert_relative_eq!(s32.position.cast::<f64>(), s64.position, epsilon = 1e-5);
    assert!((s32.orientation.norm_squared() - 1.0).abs() < 1e-6);
}
