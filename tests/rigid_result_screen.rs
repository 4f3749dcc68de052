//! The midpoint step screens the finiteness of the position, velocity, rate, force, torque and
//! resistance matrices by its result, not up front (`integrators::rigid::checks`, `driver::step`):
//! for a NaN, `+inf` or `-inf` in any of them the step must still return the error of the detailed input checks
//! (`RigidState::validate`, then `RigidLoads::validate`, the reference here) and leave the
//! state bit-for-bit untouched. The cases are the ones where a bad value could be lost: a zero
//! velocity or rate (`0 * inf` in `R v` and `w x c`), zero, diagonal, full and negative
//! (singular) resistance, a COM on and off the reference point, a general inertia, sub-steps,
//! the invariant projection (levels from the state and given), both orientation updates and resistance weights, two bad entries
//! of opposite sign (`inf - inf`), and a time step whose result overflows anyway.

#![allow(clippy::unwrap_used)]

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::midpoint::{LinearlyImplicitMidpoint, MidpointSettings};
use mbs_core::integrators::{
    Invariants, OrientationUpdate, Resistance, RigidIntegrator, RigidLoads, StepSettings,
};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::Error;
use nalgebra::{Matrix3, Vector3};

fn bodies() -> Vec<RigidBody<f64>> {
    let general = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
    vec![
        RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap(),
        RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::new(0.1, -0.2, 0.3)).unwrap(),
        RigidBody::new(1.5, general, Vector3::new(0.0, 0.05, 0.0)).unwrap(),
    ]
}

fn states() -> Vec<RigidState<f64>> {
    let q = Quaternion::exp(&Vector3::new(0.2, -0.3, 0.4));
    vec![
        RigidState::new(
            Vector3::new(1.0, 2.0, 3.0),
            q,
            Vector3::new(0.1, 0.2, 0.3),
            Vector3::new(1.0, 0.5, 0.2),
        ),
        // At rest: every product with v or w is a product with an exact zero.
        RigidState::at_rest(Vector3::zeros(), q),
    ]
}

fn loads() -> Vec<RigidLoads<f64>> {
    let mut full = RigidLoads::none().with_force(Vector3::new(1.0, -2.0, 0.5));
    full.linear_resistance = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.7, 0.2, 0.0, 0.2, 0.9);
    full.angular_resistance = Matrix3::new(0.3, 0.0, 0.1, 0.0, 0.2, 0.0, 0.1, 0.0, 0.4);
    let mut singular_rotation = RigidLoads::none();
    singular_rotation.angular_resistance = -Matrix3::identity() * 1e3;
    vec![
        RigidLoads::none(),
        RigidLoads::none()
            .with_force(Vector3::new(0.0, 0.0, -9.81))
            .with_torque(Vector3::new(0.1, 0.0, -0.2)),
        RigidLoads::none()
            .with_linear_damping(0.4)
            .with_angular_damping(0.3),
        full,
        // m + h R_lin = 0 at h = 1e-3: the step's own SolverFailed.
        RigidLoads::none().with_linear_damping(-2e3),
        singular_rotation,
    ]
}

fn integrators() -> Vec<LinearlyImplicitMidpoint<f64>> {
    let sub = StepSettings::default()
        .with_substep(true)
        .with_max_rotation_per_step(1e-4);
    let base = MidpointSettings::default();
    vec![
        LinearlyImplicitMidpoint::new(),
        LinearlyImplicitMidpoint::with_settings(MidpointSettings::second_order()),
        LinearlyImplicitMidpoint::with_settings(base.with_orientation(OrientationUpdate::MeanRate)),
        LinearlyImplicitMidpoint::with_settings(base.with_resistance(Resistance::Trapezoidal)),
        LinearlyImplicitMidpoint::with_settings(base.with_invariants(Invariants::Project)),
        // Levels given: the projection itself would run on a bad rate.
        LinearlyImplicitMidpoint::with_settings(
            base.with_invariants(Invariants::Project)
                .with_projection_levels_of(&bodies()[0], &states()[0]),
        ),
        LinearlyImplicitMidpoint::with_settings(base.with_step(sub)),
        LinearlyImplicitMidpoint::with_settings(
            base.with_step(sub).with_invariants(Invariants::Project),
        ),
    ]
}

/// The error the detailed checks give for these inputs, if any.
fn detailed(loads: &RigidLoads<f64>, s: &RigidState<f64>) -> Option<Error> {
    s.validate().and_then(|()| loads.validate()).err()
}

/// Steps and checks: a bad input gives the detailed checks' error and leaves `s0` untouched.
fn check(
    integ: &LinearlyImplicitMidpoint<f64>,
    body: &RigidBody<f64>,
    loads: &RigidLoads<f64>,
    s0: &RigidState<f64>,
    dt: f64,
    what: &str,
) -> usize {
    let want = detailed(loads, s0).unwrap();
    let mut s = *s0;
    let got = integ.step(body, loads, &mut s, dt);
    assert_eq!(got, Err(want), "{what}, dt {dt}");
    // Bitwise (NaN != NaN under PartialEq).
    assert_eq!(format!("{s:?}"), format!("{s0:?}"), "{what}: state changed");
    1
}

#[test]
fn a_bad_input_read_by_the_step_gets_the_detailed_error_and_changes_nothing() {
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
    let mut cases = 0;
    for integ in integrators() {
        for body in bodies() {
            for s0 in states() {
                for l0 in loads() {
                    for dt in [1e-3, 1e300] {
                        for x in bad {
                            for i in 0..3 {
                                let mut s = s0;
                                s.position[i] = x;
                                cases += check(&integ, &body, &l0, &s, dt, "position");
                                let mut s = s0;
                                s.velocity[i] = x;
                                cases += check(&integ, &body, &l0, &s, dt, "velocity");
                                let mut l = l0;
                                l.force[i] = x;
                                cases += check(&integ, &body, &l, &s0, dt, "force");
                                let mut l = l0;
                                l.torque[i] = x;
                                cases += check(&integ, &body, &l, &s0, dt, "torque");
                                let mut s = s0;
                                s.angular_velocity[i] = x;
                                cases += check(&integ, &body, &l0, &s, dt, "rate");
                                for k in 0..3 {
                                    let mut l = l0;
                                    l.linear_resistance[(i, k)] = x;
                                    cases += check(&integ, &body, &l, &s0, dt, "R_lin");
                                    let mut l = l0;
                                    l.angular_resistance[(i, k)] = x;
                                    cases += check(&integ, &body, &l, &s0, dt, "R_ang");
                                }
                                // Two bad entries of opposite sign: inf - inf in sums.
                                let j = (i + 1) % 3;
                                let mut s = s0;
                                s.velocity[i] = f64::INFINITY;
                                s.velocity[j] = f64::NEG_INFINITY;
                                cases += check(&integ, &body, &l0, &s, dt, "velocity +-inf");
                                let mut l = l0;
                                l.torque[i] = f64::INFINITY;
                                l.torque[j] = f64::NEG_INFINITY;
                                cases += check(&integ, &body, &l, &s0, dt, "torque +-inf");
                                // A bad state and a bad load: the state's error comes first.
                                let mut s = s0;
                                s.position[i] = x;
                                let mut l = l0;
                                l.force[j] = x;
                                cases += check(&integ, &body, &l, &s, dt, "position and force");
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(cases, 8 * 3 * 2 * 6 * 2 * 3 * 3 * 14);
}

/// The same inputs, finite: the step's own outcome (Ok, or the `SolverFailed` of the singular
/// resistance cases, or `NonFiniteState` of an overflowing `dt`), so the test above does not
/// pass only because every case fails anyway; with the singular cases the detailed checks'
/// error wins over the step's own failure above.
#[test]
fn the_same_inputs_finite_step_or_fail_on_their_own() {
    let mut ok = 0;
    let mut failed = 0;
    for integ in integrators() {
        for body in bodies() {
            for s0 in states() {
                for l in loads() {
                    for dt in [1e-3, 1e300] {
                        let mut s = s0;
                        match integ.step(&body, &l, &mut s, dt) {
                            Ok(_) => ok += 1,
                            Err(e) => {
                                assert!(
                                    matches!(e, Error::SolverFailed | Error::NonFiniteState),
                                    "{e:?}"
                                );
                                assert_eq!(s, s0);
                                failed += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(ok > 100 && failed > 50, "ok {ok}, failed {failed}");
}

/// The single step leaves the new orientation out of its result test when the start and end
/// rates turn less than 1 rad in `dt` (`integrators::rigid::checks`, `driver::step`). Swept over
/// turns from 1e-3 rad to 1e200 rad at rates up to 1e200 rad/s (and, in f32, into its
/// overflow), along a principal axis (no gyroscopic torque: the rate stays finite however
/// large the turn) and off it, for every orientation update and a general inertia: an accepted
/// step always has a finite, unit orientation, and the huge turns along an axis (a finite rate
/// whose turn overflows `exp`) are refused with `NonFiniteState`, so the test sees the case
/// the bound is for. Always skipping the orientation's test makes it fail.
#[test]
fn a_small_turn_keeps_the_orientation_finite_and_a_huge_one_is_tested() {
    fn sweep<T: mbs_core::Real>(bodies: &[RigidBody<T>]) -> (usize, usize) {
        let settings = [
            MidpointSettings::default(),
            MidpointSettings::default().with_orientation(OrientationUpdate::MeanRate),
            MidpointSettings::second_order().with_invariants(Invariants::Project),
        ];
        let q = Quaternion::exp(&Vector3::new(T::c(0.2), T::c(-0.3), T::c(0.4)));
        let (mut accepted, mut refused) = (0, 0);
        for o in settings {
            // A bound that never reports (the test is of finiteness, not of the report).
            let o = o.with_step(StepSettings::default().with_max_rotation_per_step(T::c(1e30)));
            let integ = LinearlyImplicitMidpoint::with_settings(o);
            for body in bodies {
                for dir in [
                    [0.0, 1.0, 0.0],
                    [0.0, 0.0, -1.0],
                    [0.6, 0.0, 0.8],
                    [0.3, 0.5, 0.1],
                ] {
                    for rate_exp in (-3..=200).step_by(7) {
                        for turn_exp in [-3.0, -0.5, -0.01, 0.0, 0.3, 2.0, 40.0, 200.0] {
                            let rate = 10f64.powi(rate_exp);
                            let dt = T::c(10f64.powf(turn_exp) / rate);
                            let w = Vector3::new(dir[0], dir[1], dir[2]) * rate;
                            let w = Vector3::new(T::c(w.x), T::c(w.y), T::c(w.z));
                            if !(dt > T::zero() && dt.finite() && w.iter().all(|x| x.finite())) {
                                continue;
                            }
                            let s0 = RigidState::new(Vector3::zeros(), q, Vector3::zeros(), w);
                            let mut s = s0;
                            match integ.step(body, &RigidLoads::none(), &mut s, dt) {
                                Ok(_) => {
                                    let o = s.orientation;
                                    let unit = (o.norm_squared() - T::one()).abs_l();
                                    assert!(
                                        unit < T::c(1e-4),
                                        "|q|^2 - 1 = {unit:?}, w {w:?}, dt {dt:?}"
                                    );
                                    s.validate().unwrap();
                                    accepted += 1;
                                }
                                Err(e) => {
                                    assert!(
                                        matches!(e, Error::NonFiniteState | Error::SolverFailed),
                                        "{e:?}"
                                    );
                                    assert_eq!(format!("{s:?}"), format!("{s0:?}"));
                                    refused += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        (accepted, refused)
    }
    let general = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
    let f64_bodies = [
        RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap(),
        RigidBody::new(1.5, general, Vector3::zeros()).unwrap(),
    ];
    let (ok, refused) = sweep(&f64_bodies);
    assert!(
        ok > 500 && refused > 50,
        "f64: accepted {ok}, refused {refused}"
    );
    let f32_bodies =
        [RigidBody::<f32>::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap()];
    let (ok, refused) = sweep(&f32_bodies);
    assert!(
        ok > 100 && refused > 20,
        "f32: accepted {ok}, refused {refused}"
    );
}
