//! `DefaultMidpoint` (the midpoint step with the default options fixed at compile time, what the C
//! API runs) against `LinearlyImplicitMidpoint::with_step_settings` (the options read at run
//! time): the same result and the same state bits for every input, in f32 and f64. The
//! inputs cover each path of the step: principal and general inertia, a COM on and off the
//! reference point, no, diagonal, full and singular resistance, torques and forces, one step
//! and sub-steps (with redone sub-steps and the budget cut), the large-angle branch of the
//! rotation exponential (`|w| dt > 2` rad), a held-load frequency bound, invalid step settings
//! and time steps, NaN/inf in every field of the state and the loads, and results that
//! overflow.

#![allow(clippy::unwrap_used)]

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::midpoint::DefaultMidpoint;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepSettings};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::Real;
use nalgebra::{Matrix3, Vector3};

fn v<T: Real>(x: f64, y: f64, z: f64) -> Vector3<T> {
    Vector3::new(T::c(x), T::c(y), T::c(z))
}

fn bodies<T: Real>() -> Vec<RigidBody<T>> {
    let general = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0).map(T::c);
    vec![
        RigidBody::from_principal(T::c(2.0), [1.0, 2.0, 3.0].map(T::c), Vector3::zeros()).unwrap(),
        RigidBody::from_principal(T::c(2.0), [1.0, 2.0, 3.0].map(T::c), v(0.1, -0.2, 0.3)).unwrap(),
        RigidBody::new(T::c(1.5), general, v(0.0, 0.05, 0.0)).unwrap(),
    ]
}

fn states<T: Real>() -> Vec<RigidState<T>> {
    let q = Quaternion::exp(&v(0.2, -0.3, 0.4));
    vec![
        RigidState::new(v(1.0, 2.0, 3.0), q, v(0.1, 0.2, 0.3), v(1.0, 0.5, 0.2)),
        RigidState::at_rest(Vector3::zeros(), q),
        // Near the unstable middle axis, fast: sub-steps are redone finer as the rate moves.
        RigidState::new(Vector3::zeros(), q, Vector3::zeros(), v(0.1, 50.0, 0.1)),
    ]
}

fn loads<T: Real>() -> Vec<RigidLoads<T>> {
    let mut full = RigidLoads::none().with_force(v(1.0, -2.0, 0.5));
    full.linear_resistance = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.7, 0.2, 0.0, 0.2, 0.9).map(T::c);
    full.angular_resistance = Matrix3::new(0.3, 0.0, 0.1, 0.0, 0.2, 0.0, 0.1, 0.0, 0.4).map(T::c);
    let mut singular_rotation = RigidLoads::none();
    singular_rotation.angular_resistance = -Matrix3::identity() * T::c(1e3);
    vec![
        RigidLoads::none(),
        RigidLoads::none()
            .with_force(v(0.0, 0.0, -9.81))
            .with_torque(v(0.1, 0.0, -0.2)),
        RigidLoads::none()
            .with_linear_damping(T::c(0.4))
            .with_angular_damping(T::c(0.3)),
        full,
        // m + h R_lin = 0 at h = 1e-3: the step's own SolverFailed.
        RigidLoads::none().with_linear_damping(T::c(-2e3)),
        singular_rotation,
    ]
}

fn step_settings<T: Real>() -> Vec<StepSettings<T>> {
    let d = StepSettings::default();
    vec![
        d,
        d.with_substep(true).with_max_rotation_per_step(T::c(1e-2)),
        // A budget too small for the rate: the cut is reported.
        d.with_substep(true)
            .with_max_rotation_per_step(T::c(1e-3))
            .with_max_substeps(3),
        d.with_load_frequency(Some(T::c(2e3))),
        // Invalid: OutOfRange(Setting) from both.
        d.with_max_rotation_per_step(T::zero()),
        d.with_max_rotation_per_step(T::c(f64::NAN)),
    ]
}

/// Steps a copy of `s0` with both and asserts the same result and the same state bits.
fn same<T: Real>(
    st: &StepSettings<T>,
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    s0: &RigidState<T>,
    dt: T,
) -> bool {
    let (mut a, mut b) = (*s0, *s0);
    let ra = DefaultMidpoint::new(*st).step(body, loads, &mut a, dt);
    let rb = LinearlyImplicitMidpoint::with_step_settings(*st).step(body, loads, &mut b, dt);
    assert_eq!(ra, rb, "{st:?} {loads:?} {s0:?} dt {dt:?}");
    // Bitwise (NaN != NaN under PartialEq).
    assert_eq!(
        format!("{a:?}"),
        format!("{b:?}"),
        "{st:?} {loads:?} {s0:?} dt {dt:?}"
    );
    ra.is_ok()
}

/// Writes a bad value `x` into entry `i` of one state field each.
fn state_faults<T: Real>() -> [fn(&mut RigidState<T>, usize, T); 4] {
    [
        |s, i, x| s.position[i] = x,
        |s, i, x| s.velocity[i] = x,
        |s, i, x| s.angular_velocity[i] = x,
        |s, i, x| s.acceleration[i] = x,
    ]
}

/// Writes a bad value `x` into entry `i` of one load field each (an off-diagonal entry of
/// the angular resistance).
fn load_faults<T: Real>() -> [fn(&mut RigidLoads<T>, usize, T); 3] {
    [
        |l, i, x| l.force[i] = x,
        |l, i, x| l.torque[i] = x,
        |l, i, x| l.angular_resistance[(i, (i + 1) % 3)] = x,
    ]
}

fn agree<T: Real>() {
    let (mut ok, mut refused) = (0, 0);
    let dts = [1e-3, 0.05, 1e300, 0.0, -1e-3, f64::NAN, f64::INFINITY].map(T::c);
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY].map(T::c);
    for st in step_settings::<T>() {
        for body in bodies::<T>() {
            for s0 in states::<T>() {
                for l0 in loads::<T>() {
                    for dt in dts {
                        if same(&st, &body, &l0, &s0, dt) {
                            ok += 1;
                        } else {
                            refused += 1;
                        }
                    }
                    let dt = T::c(1e-3);
                    for x in bad {
                        for i in 0..3 {
                            for fault in state_faults::<T>() {
                                let mut s = s0;
                                fault(&mut s, i, x);
                                refused += usize::from(!same(&st, &body, &l0, &s, dt));
                            }
                            for fault in load_faults::<T>() {
                                let mut l = l0;
                                fault(&mut l, i, x);
                                refused += usize::from(!same(&st, &body, &l, &s0, dt));
                            }
                        }
                    }
                }
            }
        }
    }
    // Both outcomes occur, so the comparison is not only of refusals.
    assert!(
        ok > 400 && refused > 2000,
        "{ok} stepped, {refused} refused"
    );
}

#[test]
fn default_midpoint_is_the_configurable_step_with_defaults_bit_for_bit_f64() {
    agree::<f64>();
}

#[test]
fn default_midpoint_is_the_configurable_step_with_defaults_bit_for_bit_f32() {
    agree::<f32>();
}

/// A trajectory: 2,000 steps of a tumbling body with a COM offset, torque and damping, one
/// step and sub-steps, end in the same bits; `with_options` gives the same step.
#[test]
fn trajectories_agree() {
    let body = &bodies::<f64>()[1];
    let l = RigidLoads::none()
        .with_torque(v(0.01, -0.02, 0.0))
        .with_angular_damping(0.05);
    for st in [
        StepSettings::default(),
        StepSettings::default()
            .with_substep(true)
            .with_max_rotation_per_step(1e-3),
    ] {
        let fixed = DefaultMidpoint::new(st);
        let opts = fixed.with_options();
        let (mut a, mut b) = (states::<f64>()[2], states::<f64>()[2]);
        for _ in 0..2000 {
            fixed.step(body, &l, &mut a, 1e-3).unwrap();
            opts.step(body, &l, &mut b, 1e-3).unwrap();
        }
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert!(a.angular_velocity.norm() > 1.0);
    }
}
