//! A rigid scheme ([`RigidIntegrator`]: its equations for one (sub-)step) and the driver of
//! every rigid step around it, [`step`]: check the inputs, map to the centre of mass, one step
//! of `dt` or sub-steps ([`substeps`]), check and write the result.

use super::{checks, ComState, RigidLoads, StepInfo, StepSettings, StepStatus};
use crate::bodies::rigid_body::RigidBody;
use crate::state::RigidState;
use crate::target::TEST_ORIENTATION_APART;
use crate::{Error, Real, Result};

/// A time-stepping scheme of one rigid body: its equations for one (sub-)step
/// ([`substep`](Self::substep)); the checks, the centre-of-mass map, the sub-stepping and the
/// result check are the driver's ([`step`](Self::step)).
pub trait RigidIntegrator<T: Real> {
    /// `true` if a NaN or infinity in any input the scheme reads (position, velocity, rate,
    /// force, torque, resistance) reaches its result or fails its step: the driver then checks
    /// those inputs by the result instead of up front ([`checks::unread`]).
    const SCREENS_INPUTS_BY_RESULT: bool = false;

    /// `true` if the new orientation is finite whenever the start and end rates turn less
    /// than 1 rad in the step (a finite unit quaternion times the exponential of a small
    /// finite rotation vector): the driver's result check may then skip it.
    const SMALL_TURNS_KEEP_ORIENTATION_FINITE: bool = false;

    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    fn step_settings(&self) -> &StepSettings<T>;

    /// Checks the scheme's settings (`NotFinite | OutOfRange(Setting)`); by default the
    /// shared [`StepSettings::validate`].
    #[inline]
    fn validate(&self) -> Result<()> {
        self.step_settings().validate()
    }

    /// One step of length `h` (s) of the centre-of-mass state `s` under `loads` held at
    /// their start values: the scheme's equations. `SolverFailed` if its matrix is singular.
    fn substep(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        s: &ComState<T>,
        h: T,
    ) -> Result<ComState<T>>;

    /// Advances `state` by `dt` (s, > 0) under `loads`, held constant over the step (their
    /// values at the start of the step; only the resistance acts on the new velocity in the
    /// implicit schemes).
    ///
    /// All inputs are checked first: `NotFinite(TimeStep)` / `OutOfRange(TimeStep)` for a bad
    /// `dt`, `NotFinite | OutOfRange(Setting)` for bad settings, `NonFiniteState` /
    /// `OutOfRange(Orientation)` for a bad state, `NotFinite(Force | Torque | Damping)` for
    /// bad loads; `SolverFailed` if the step's matrix is singular; `NonFiniteState` if the
    /// result overflowed. On any error `state` is unchanged. On success the state holds the
    /// new pose and twist and the step-mean accelerations `(v_{n+1} - v_n)/dt`,
    /// `(w_{n+1} - w_n)/dt`.
    // Inline: a one-line forward to the driver.
    #[inline]
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo>
    where
        Self: Sized,
    {
        step(self, body, loads, state, dt)
    }
}

/// Advances `state` by `dt` (s) with `scheme` under `loads` (held over the step): the errors
/// and results of [`RigidIntegrator::step`]. `state` is written only on success.
///
/// 1. Check the inputs ([`checks`]).
/// 2. Map the state to the centre of mass ([`ComState::from_reference`]).
/// 3. One step of `dt` ([`RigidIntegrator::substep`]) or, with `StepSettings::substep`, the
///    sub-steps ([`substeps`]); report a rotation per step `|w| dt` (start or end rate) above
///    `StepSettings::max_rotation_per_step`, or a held load too fast for `dt`, as
///    [`StepStatus::StepTooLarge`].
/// 4. Map back, check the result and write it ([`finish`]).
#[inline]
#[allow(clippy::question_mark)] // `?` on the sub-step's result copies it byte by byte on thumb
pub fn step<T: Real, S: RigidIntegrator<T> + ?Sized>(
    scheme: &S,
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    state: &mut RigidState<T>,
    dt: T,
) -> Result<StepInfo> {
    // 1. Inputs.
    checks::time_step(dt)?;
    scheme.validate()?;
    if S::SCREENS_INPUTS_BY_RESULT {
        checks::unread(loads, state)?;
    } else {
        checks::state_and_loads(loads, state)?;
    }
    let settings = scheme.step_settings();
    // 2. To the centre of mass.
    let s0 = ComState::from_reference(body, state);
    let inv_dt = T::one() / dt;
    // 3 and 4.
    let done = if settings.substep {
        match substeps(scheme, body, loads, s0, dt) {
            Ok((s, mut info)) => {
                // Loads held over all of dt: sub-stepping cannot cure a too-long hold.
                if settings.load_phase_too_large(dt) {
                    info.status = StepStatus::StepTooLarge;
                }
                match finish(body, state, &s, inv_dt, false) {
                    Ok(()) => Ok(info),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    } else {
        match scheme.substep(body, loads, &s0, dt) {
            Ok(s) => {
                let theta = settings.max_rotation_per_step;
                let theta2 = theta * theta;
                // |w| dt > theta at the start or the end. Tested after the sub-step, not
                // before: a flag held across it slows the host step (BENCHMARKS.md).
                let (turn0, turn1) = (s0.w.dot(&s0.w) * dt * dt, s.w.dot(&s.w) * dt * dt);
                let too_large =
                    turn0 > theta2 || turn1 > theta2 || settings.load_phase_too_large(dt);
                let q_finite = TEST_ORIENTATION_APART
                    && S::SMALL_TURNS_KEEP_ORIENTATION_FINITE
                    && turn0 < T::one()
                    && turn1 < T::one();
                match finish(body, state, &s, inv_dt, q_finite) {
                    Ok(()) => Ok(StepInfo {
                        status: if too_large {
                            StepStatus::StepTooLarge
                        } else {
                            StepStatus::Ok
                        },
                        substeps: 1,
                        rejected_substeps: 0,
                        substep_limit_reached: false,
                    }),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    };
    match done {
        Ok(info) => Ok(info),
        Err(e) if S::SCREENS_INPUTS_BY_RESULT => Err(checks::diagnose(loads, state, e)),
        Err(e) => Err(e),
    }
}

/// Maps the COM state `s` back to the reference point, sets the accelerations
/// `(v' - v)/dt`, `(w' - w)/dt` (`inv_dt = 1/dt`, 1/s), and writes `state` if every entry
/// of the result is finite (else `NonFiniteState`, `state` untouched). One test of the sum of
/// the position and accelerations screens the result (the velocities are covered by their
/// accelerations), with the orientation's entries unless the caller knows them finite
/// (`q_finite`); the per-field test of every entry decides only if it fails (a sum of finite
/// entries may overflow).
// Inlined into both paths on a host (the single step keeps its values in registers); one
// shared copy on a microcontroller (the firmware flash guard).
#[cfg_attr(not(target_os = "none"), inline(always))]
#[cfg_attr(target_os = "none", inline(never))]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn finish<T: Real>(
    body: &RigidBody<T>,
    state: &mut RigidState<T>,
    s: &ComState<T>,
    inv_dt: T,
    q_finite: bool,
) -> Result<()> {
    let (position, velocity) = s.reference_point(body);
    let new = RigidState {
        position,
        orientation: s.q,
        velocity,
        angular_velocity: s.w,
        acceleration: (velocity - state.velocity) * inv_dt,
        angular_acceleration: (s.w - state.angular_velocity) * inv_dt,
    };
    // The new velocities need no test of their own: `state` is finite and `inv_dt > 0`, so a
    // non-finite v' or w' makes its acceleration non-finite.
    let p = &new.position;
    let q = &new.orientation;
    let (a, b) = (&new.acceleration, &new.angular_acceleration);
    let sum = ((p.x + p.y) + (p.z + a.x)) + ((a.y + a.z) + (b.x + (b.y + b.z)));
    let q_sum = (q.w + q.x) + (q.y + q.z);
    // Apart behind `q_finite` (a branch, not a select, which would wait for it again), or in
    // the one sum ([`TEST_ORIENTATION_APART`]).
    let (sum, q_ok) = if TEST_ORIENTATION_APART {
        (sum, q_finite || q_sum * T::zero() == T::zero())
    } else {
        (sum + q_sum, true)
    };
    // The per-field test runs only if the sum is not finite; its entries are gathered there
    // (not `&new`: taking the state's address would make the hot path build it in memory and
    // copy it into `state` with memcpy).
    let (v, w) = (&new.velocity, &new.angular_velocity);
    if !((sum * T::zero() == T::zero() && q_ok)
        || (crate::finite::all_finite_slice(&[
            p.x, p.y, p.z, v.x, v.y, v.z, w.x, w.y, w.z, a.x, a.y, a.z, b.x, b.y, b.z,
        ]) && q.norm_squared().finite()))
    {
        return Err(Error::NonFiniteState);
    }
    *state = new;
    Ok(())
}

/// The sub-steps of `settings.substep` of `scheme` from the COM state `s0` over `dt`: as many
/// sub-steps of equal length as keep the rotation per sub-step `|w| h` within
/// `StepSettings::max_rotation_per_step`, redone finer when the rate grows within a sub-step,
/// within `StepSettings::max_substeps` evaluations of the scheme. The new COM state and the
/// report (without the held-load test, which the driver adds).
// Cold, out of line: the common step is one step of `dt`, laid out as the fall-through path.
#[cold]
#[inline(never)]
#[allow(clippy::question_mark)] // `?` on the sub-step's result copies it byte by byte on thumb
pub fn substeps<T: Real, S: RigidIntegrator<T> + ?Sized>(
    scheme: &S,
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    s0: ComState<T>,
    dt: T,
) -> Result<(ComState<T>, StepInfo)> {
    let settings = scheme.step_settings();
    let theta = settings.max_rotation_per_step;
    let theta2 = theta * theta;
    let mut s = s0;
    let mut too_large = false;
    let mut limit_reached = false;
    let mut accepted: u32 = 0;
    let mut evaluations: u32 = 0;
    // n_left sub-steps share the rest t_rem of dt; n_left never exceeds the budget of
    // evaluations left, so the loop ends within max_substeps evaluations.
    let max = settings.max_substeps;
    let mut t_rem = dt;
    let (mut n_left, lim) = plan(s.w.dot(&s.w), t_rem, theta, max);
    limit_reached |= lim;
    loop {
        let h = if n_left == 1 {
            t_rem
        } else {
            t_rem / T::of_u32(n_left)
        };
        let candidate = match scheme.substep(body, loads, &s, h) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        evaluations += 1;
        let rate2 = s.w.dot(&s.w).max(candidate.w.dot(&candidate.w));
        let exceeded = rate2 * h * h > theta2;
        if exceeded {
            // The rate grew within the sub-step: redo it finer if the budget allows.
            let budget = max - evaluations;
            let (need, _) = plan(rate2, t_rem, theta, budget);
            let finer = need.max(n_left + 1).min(budget);
            if finer > n_left {
                n_left = finer;
                continue;
            }
            limit_reached = true; // only the budget stops a finer redo
        }
        s = candidate;
        accepted += 1;
        too_large |= exceeded;
        n_left -= 1;
        if n_left == 0 {
            break;
        }
        t_rem -= h;
    }
    let info = StepInfo {
        status: if too_large || limit_reached {
            StepStatus::StepTooLarge
        } else {
            StepStatus::Ok
        },
        substeps: accepted,
        rejected_substeps: evaluations - accepted,
        substep_limit_reached: limit_reached,
    };
    Ok((s, info))
}

/// Sub-steps for the rest `t` (s) of a step at the squared rate `rate2` (rad^2/s^2):
/// `ceil(|w| t / theta)`, at least 1, at most `budget`; `true` if `budget` cut it.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must take the first branch
fn plan<T: Real>(rate2: T, t: T, theta: T, budget: u32) -> (u32, bool) {
    let x = rate2.sqrt_l() * t / theta;
    if !(x > T::one()) {
        (1, false)
    } else if x > T::of_u32(budget) {
        (budget.max(1), true)
    } else {
        let n = x.to_u32_sat(); // floor, 1 <= n <= budget
        (if T::of_u32(n) < x { n + 1 } else { n }, false)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::math::Quaternion;
    use crate::state::RigidState;
    use nalgebra::Vector3;

    fn state() -> RigidState<f64> {
        RigidState::new(
            Vector3::new(1.0, 2.0, 3.0),
            Quaternion::exp(&Vector3::new(0.3, -0.2, 0.1)),
            Vector3::new(0.1, 0.0, -0.2),
            Vector3::new(0.0, 1.0, 0.5),
        )
    }

    /// The result check refuses a non-finite entry in every field of the new COM state
    /// (position, velocity, orientation, rate; the velocities through their accelerations),
    /// for a COM at and off the reference point, leaves the state untouched, and accepts
    /// finite results whose screen sum overflows.
    #[test]
    fn the_result_check_refuses_every_non_finite_field() {
        let at = RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
        let off =
            RigidBody::from_principal(2.0, [1.0, 2.0, 3.0], Vector3::new(0.1, 0.0, 0.2)).unwrap();
        for body in [at, off] {
            let s0 = state();
            let good = ComState::from_reference(&body, &s0);
            let mut st = s0;
            assert_eq!(finish(&body, &mut st, &good, 1e3, false), Ok(()));
            for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                for i in 0..13 {
                    let mut c = good;
                    match i {
                        0..=2 => c.r[i] = bad,
                        3..=5 => c.v[i - 3] = bad,
                        6..=8 => c.w[i - 6] = bad,
                        9 => c.q.w = bad,
                        10 => c.q.x = bad,
                        11 => c.q.y = bad,
                        _ => c.q.z = bad,
                    }
                    let mut st = s0;
                    assert_eq!(
                        finish(&body, &mut st, &c, 1e3, false),
                        Err(Error::NonFiniteState)
                    );
                    assert_eq!(st, s0, "entry {i}");
                }
            }
            // An infinite 1/dt (a subnormal dt) with an unchanged velocity: 0 * inf.
            let mut st = s0;
            assert_eq!(
                finish(&body, &mut st, &good, f64::INFINITY, false),
                Err(Error::NonFiniteState)
            );
        }
        // Finite entries whose screen sum overflows: accepted.
        let mut s0 = state();
        s0.position = Vector3::new(f64::MAX, f64::MAX, 0.0);
        let c = ComState::from_reference(&at, &s0);
        let mut st = s0;
        assert_eq!(finish(&at, &mut st, &c, 1.0, false), Ok(()));
        assert_eq!(st.position, s0.position);
    }
}
