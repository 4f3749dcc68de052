//! The checks of a rigid step's inputs, and the error of a refused step.
//!
//! A scheme that does not screen its inputs by its result ([`state_and_loads`]) has every
//! input checked before it runs. One that does ([`unread`], the midpoint step) has only the
//! orientation and the accelerations, which no step reads, checked up front; its result check
//! then stands in for the rest, and on any error [`diagnose`] runs the detailed checks so the
//! error is the one the up-front checks would have given. That is sound for a scheme in which
//! a NaN or infinity in the position, velocity, rate, force, torque or a resistance matrix
//! reaches the result or fails the step: with IEEE arithmetic a non-finite operand of `+`,
//! `-`, `*` gives a non-finite result (`inf * 0` is NaN), and so does a non-finite numerator
//! of `/`; only a non-finite divisor, `min`/`max`, comparisons and branches can lose one. A
//! bad `v` or `w` reaches the result check through the accelerations `(v' - v)/dt`,
//! `(w' - w)/dt` in any scheme; the midpoint step's own argument is on its
//! [`substep`](super::midpoint).

use super::RigidLoads;
use crate::error::finite;
use crate::state::RigidState;
use crate::{Error, Param, Real, Result};

/// `NotFinite(TimeStep)` unless `dt` is finite, `OutOfRange(TimeStep)` unless `dt > 0` (s).
/// One combined test on the normal path.
// Inlined into the driver's step: the screen is a few instructions of every step.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn time_step<T: Real>(dt: T) -> Result<()> {
    if !(dt > T::zero() && dt.finite()) {
        finite(dt, Param::TimeStep)?;
        return Err(Error::OutOfRange(Param::TimeStep));
    }
    Ok(())
}

/// Every input checked up front: the unit orientation and the finiteness of the state and
/// the loads, screened by the orientation's norm test (NaN or infinity fails it) and one test
/// of the sum of all other entries (a resistance matrix that is exactly zero is left out:
/// [`RigidLoads::entry_sum_sparse`]). Only if that fails do the per-field checks run, so the
/// errors name the culprit, and finite entries whose sum overflows pass.
// Inlined into the driver's step: the screen is a few instructions of every step.
#[inline(always)]
pub fn state_and_loads<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>) -> Result<()> {
    // The norm test fails for a NaN or infinite component of q, so q is left out of the sum.
    if state.orientation_is_unit_and_finite()
        && (state.entry_sum_but_orientation() + loads.entry_sum_sparse()) * T::zero() == T::zero()
    {
        Ok(())
    } else {
        validate_inputs(loads, state)
    }
}

/// The up-front checks of a scheme that screens its inputs by its result: the orientation's
/// norm test and one finiteness test of the sum of the input accelerations (m/s^2, rad/s^2),
/// which no step reads. Only if that fails do the detailed checks of every input run.
// Inlined into the driver's step: the screen is a few instructions of every step.
#[inline(always)]
pub fn unread<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>) -> Result<()> {
    if state.orientation_is_unit_and_finite()
        && state.entry_sum_accelerations() * T::zero() == T::zero()
    {
        Ok(())
    } else {
        validate_inputs(loads, state)
    }
}

/// The detailed checks of the step's inputs, in their order: [`RigidState::validate`], then
/// [`RigidLoads::validate`].
// Cold, one copy: the screens run it only when an input may be bad.
#[cold]
#[inline(never)]
fn validate_inputs<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>) -> Result<()> {
    state.validate()?;
    loads.validate()
}

/// The error of a failed step of a scheme that screens its inputs by its result: the detailed
/// input checks' error if an input is bad, else the step's own `e`.
// Cold, one copy: runs only after a failed step.
#[cold]
#[inline(never)]
pub fn diagnose<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>, e: Error) -> Error {
    match validate_inputs(loads, state) {
        Err(input) => input,
        Ok(()) => e,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::math::Quaternion;
    use nalgebra::Matrix3;
    use nalgebra::Vector3;

    fn state() -> RigidState<f64> {
        RigidState::new(
            Vector3::new(1.0, 2.0, 3.0),
            Quaternion::exp(&Vector3::new(0.3, -0.2, 0.1)),
            Vector3::new(0.1, 0.0, -0.2),
            Vector3::new(0.0, 1.0, 0.5),
        )
    }

    fn loads() -> RigidLoads<f64> {
        RigidLoads::none()
            .with_force(Vector3::new(1.0, 2.0, 3.0))
            .with_torque(Vector3::new(-1.0, 0.5, 0.0))
    }

    /// The screen of state and loads names the culprit for a NaN or infinity in every entry
    /// it covers, with and without (zero or nonzero) resistance matrices, as the detailed
    /// checks do; a finite input whose sum overflows passes.
    #[test]
    fn the_input_screen_names_every_culprit() {
        let damped = loads().with_linear_damping(0.3).with_angular_damping(0.2);
        for base in [loads(), damped] {
            assert_eq!(state_and_loads(&base, &state()), Ok(()));
            for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                for i in 0..19 {
                    let mut s = state();
                    match i {
                        0..=2 => s.position[i] = bad,
                        3..=5 => s.velocity[i - 3] = bad,
                        6..=8 => s.angular_velocity[i - 6] = bad,
                        9..=11 => s.acceleration[i - 9] = bad,
                        12..=14 => s.angular_acceleration[i - 12] = bad,
                        15 => s.orientation.w = bad,
                        16 => s.orientation.x = bad,
                        17 => s.orientation.y = bad,
                        _ => s.orientation.z = bad,
                    }
                    let got = state_and_loads(&base, &s);
                    assert_eq!(got, Err(Error::NonFiniteState), "state entry {i}");
                }
                for i in 0..3 {
                    let mut l = base;
                    l.force[i] = bad;
                    let want = Err(Error::NotFinite(Param::Force));
                    assert_eq!(state_and_loads(&l, &state()), want);
                    let mut l = base;
                    l.torque[i] = bad;
                    let want = Err(Error::NotFinite(Param::Torque));
                    assert_eq!(state_and_loads(&l, &state()), want);
                }
                // One bad entry in an otherwise zero or nonzero resistance matrix.
                for i in 0..9 {
                    let want = Err(Error::NotFinite(Param::Damping));
                    let mut l = base;
                    l.linear_resistance[i] = bad;
                    assert_eq!(state_and_loads(&l, &state()), want, "R_lin {i}");
                    let mut l = base;
                    l.angular_resistance[i] = bad;
                    assert_eq!(state_and_loads(&l, &state()), want, "R_ang {i}");
                }
            }
        }
        // Finite entries whose sum overflows: not reported as non-finite.
        let mut s = state();
        s.position = Vector3::new(f64::MAX, f64::MAX, 0.0);
        assert_eq!(state_and_loads(&loads(), &s), Ok(()));
        let mut l = loads();
        l.linear_resistance = Matrix3::identity() * f64::MAX;
        l.angular_resistance[(1, 2)] = f64::MAX;
        assert!(!l.entry_sum_sparse().is_finite());
        assert_eq!(state_and_loads(&l, &state()), Ok(()));
        // The orientation check stays.
        let mut s = state();
        s.orientation.w *= 1.01;
        let want = Err(Error::OutOfRange(Param::Orientation));
        assert_eq!(state_and_loads(&loads(), &s), want);
    }

    /// The up-front part of the result-screened step refuses a bad acceleration or
    /// orientation with the detailed checks' errors, and leaves the entries the step reads
    /// (position, velocity, rate, loads) to the result screen (`tests/rigid_result_screen.rs`).
    #[test]
    fn the_unread_screen_refuses_accelerations_and_orientation_only() {
        let damped = loads().with_linear_damping(0.3);
        assert_eq!(unread(&damped, &state()), Ok(()));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for i in 0..3 {
                let mut s = state();
                s.acceleration[i] = bad;
                assert_eq!(unread(&damped, &s), Err(Error::NonFiniteState));
                let mut s = state();
                s.angular_acceleration[i] = bad;
                assert_eq!(unread(&damped, &s), Err(Error::NonFiniteState));
                let mut s = state();
                s.orientation.x = bad;
                assert_eq!(unread(&damped, &s), Err(Error::NonFiniteState));
                let mut s = state();
                s.position[i] = bad;
                assert_eq!(unread(&damped, &s), Ok(()));
                let mut l = damped;
                l.torque[i] = bad;
                assert_eq!(unread(&l, &state()), Ok(()));
            }
        }
        // A bad acceleration with a bad load: the state's error first.
        let mut s = state();
        s.acceleration.x = f64::NAN;
        let l = damped.with_force(Vector3::new(f64::NAN, 0.0, 0.0));
        assert_eq!(unread(&l, &s), Err(Error::NonFiniteState));
        let mut s = state();
        s.orientation.w *= 1.01;
        let want = Err(Error::OutOfRange(Param::Orientation));
        assert_eq!(unread(&loads(), &s), want);
    }

    /// `check_time_step` refuses what `finite` and `dt > 0` refuse, with their errors.
    #[test]
    fn the_time_step_check_keeps_its_errors() {
        for dt in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(time_step(dt), Err(Error::NotFinite(Param::TimeStep)));
        }
        for dt in [0.0, -0.0, -1e-3, -f64::MAX] {
            assert_eq!(time_step(dt), Err(Error::OutOfRange(Param::TimeStep)));
        }
        for dt in [f64::MIN_POSITIVE, 1e-3, f64::MAX] {
            assert_eq!(time_step(dt), Ok(()));
        }
    }
}
