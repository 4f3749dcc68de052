//! What every rigid-body step does around its scheme: check the inputs, move to the centre of
//! mass, take one step or sub-steps, report the rotation per step, move back, write the state.
//!
//! The schemes integrate the COM: `r_com = r + R_0b c`, `v_com = v + R_0b (w_b x c)` (m, m/s,
//! world), then the reference point is recovered from the new pose,
//! `r = r_com - R_0b c`, `v = v_com - R_0b (w_b x c)`. With `c = 0` both maps are skipped.

use super::{RigidLoads, StepInfo, StepSettings, StepStatus};
use crate::bodies::rigid_body::RigidBody;
use crate::error::finite;
use crate::math::Quaternion;
use crate::nodes::rigid::RigidState;
use crate::{Error, Param, Real, Result};
use nalgebra::Vector3;

/// The state a scheme integrates: the centre of mass and the orientation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComState<T> {
    /// COM position (m, world).
    pub r: Vector3<T>,
    /// COM velocity (m/s, world).
    pub v: Vector3<T>,
    /// Orientation `R_0b` (unit quaternion, scalar first).
    pub q: Quaternion<T>,
    /// Angular velocity (rad/s, body frame).
    pub w: Vector3<T>,
}

impl<T: Real> ComState<T> {
    /// The COM state of a node state.
    #[inline(always)]
    pub fn from_reference(body: &RigidBody<T>, s: &RigidState<T>) -> Self {
        let (r, v) = if body.com_at_reference() {
            (s.position, s.velocity)
        } else {
            (body.com_position(s), body.com_velocity(s))
        };
        Self {
            r,
            v,
            q: s.orientation,
            w: s.angular_velocity,
        }
    }

    /// Position and velocity of the reference point (m, m/s, world) of this COM state.
    #[inline(always)]
    pub fn reference_point(&self, body: &RigidBody<T>) -> (Vector3<T>, Vector3<T>) {
        if body.com_at_reference() {
            (self.r, self.v)
        } else {
            let c = body.center_of_mass();
            (
                self.r - self.q.rotate(c),
                self.v - self.q.rotate(&self.w.cross(c)),
            )
        }
    }
}

/// Renormalizes a quaternion that is unit to a few ulp (a product of unit quaternions) by one
/// Newton step of `1/sqrt(n)`: `q (3 - |q|^2)/2`. It takes `| |q|^2 - 1 | = e` to about
/// `3 e^2 / 4`, with no square root or division (cheap on an f32-only FPU).
#[inline]
pub fn renormalize_near_unit<T: Real>(q: &Quaternion<T>) -> Quaternion<T> {
    let k = T::c(1.5) - T::c(0.5) * q.norm_squared();
    Quaternion::new(q.w * k, q.x * k, q.y * k, q.z * k)
}

/// `NotFinite(TimeStep)` unless `dt` is finite, `OutOfRange(TimeStep)` unless `dt > 0` (s).
/// One combined test on the normal path.
#[inline(always)]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn check_time_step<T: Real>(dt: T) -> Result<()> {
    if !(dt > T::zero() && dt.finite()) {
        finite(dt, Param::TimeStep)?;
        return Err(Error::OutOfRange(Param::TimeStep));
    }
    Ok(())
}

/// The finiteness of the state and the loads and the unit orientation. The finiteness is
/// screened by the orientation's norm test (NaN or infinity fails it) and one test of the sum
/// of all other entries (summed as a tree of independent
/// partial sums; a resistance matrix that is exactly zero, by a bit test, is left out:
/// [`RigidLoads::entry_sum_sparse`]); only if it fails do the per-field checks run (which name the
/// culprit), so the errors are those of the detailed checks, and finite entries whose sum
/// overflows pass as they do there.
#[inline(always)]
pub fn check_state_and_loads<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>) -> Result<()> {
    // The norm test fails for a NaN or infinite component of q, so q is left out of the sum.
    if state.orientation_is_unit_and_finite()
        && (state.entry_sum_but_orientation() + loads.entry_sum_sparse()) * T::zero() == T::zero()
    {
        Ok(())
    } else {
        validate_inputs(loads, state)
    }
}

/// Checks `dt` (`NotFinite(TimeStep)`, `OutOfRange(TimeStep)` if `dt <= 0`), the settings, the
/// state and the loads, in that order ([`check_time_step`], [`StepSettings::validate`],
/// [`check_state_and_loads`]).
#[inline]
pub fn check_inputs<T: Real>(
    settings: &StepSettings<T>,
    loads: &RigidLoads<T>,
    state: &RigidState<T>,
    dt: T,
) -> Result<()> {
    check_time_step(dt)?;
    settings.validate()?;
    check_state_and_loads(loads, state)
}

/// Runs a scheme's single step `sub(com_state, h) -> new com_state` over `dt`, with the checks
/// ([`check_inputs`]), the COM mapping and the sub-stepping of `settings`, and writes `state`
/// only on success.
#[inline]
pub fn advance<T: Real, F>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    settings: &StepSettings<T>,
    state: &mut RigidState<T>,
    dt: T,
    sub: F,
) -> Result<StepInfo>
where
    F: FnMut(&ComState<T>, T) -> Result<ComState<T>>,
{
    check_inputs(settings, loads, state, dt)?;
    run_checked(body, settings, state, dt, sub, false)
}

/// [`advance`] for a caller that has already run [`StepSettings::validate`] on `settings`
/// (and got `Ok`) for this step: the same checks otherwise, in the same order.
#[inline]
pub fn advance_validated<T: Real, F>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    settings: &StepSettings<T>,
    state: &mut RigidState<T>,
    dt: T,
    sub: F,
) -> Result<StepInfo>
where
    F: FnMut(&ComState<T>, T) -> Result<ComState<T>>,
{
    check_time_step(dt)?;
    check_state_and_loads(loads, state)?;
    run_checked(body, settings, state, dt, sub, false)
}

/// [`advance_validated`] with the finiteness of every input the step reads screened by the
/// step's result instead of up front: only the orientation's norm test and the input
/// accelerations (which no step reads) are checked before the step ([`check_unread`]); on ANY
/// error of the step (a non-finite result, `SolverFailed`, ...) the detailed checks of every
/// input run first ([`RigidState::validate`], then [`RigidLoads::validate`]), so the error is
/// the one [`advance_validated`] returns for the same input, and `state` is untouched.
///
/// Sound only for a scheme `sub` in which a NaN or infinity in the position, velocity, rate,
/// force, torque or a resistance matrix reaches the result or makes the step fail. With IEEE
/// arithmetic a non-finite operand of `+`, `-`, `*` gives a non-finite result (`inf * 0` is
/// NaN), and so does a non-finite numerator of `/`; only a non-finite divisor, `min`/`max`,
/// comparisons and branches can lose one. For any scheme, a bad `v` or `w` reaches the result
/// screen through the accelerations `(v' - v)/dt`, `(w' - w)/dt`, which take the input as an
/// operand. For [`midpoint_substep_with`](super::midpoint::midpoint_substep_with) (the only
/// user): `r' = (r + R c) + v' h - R' c` is a sum in `r`; the force, the torque and the
/// resistance matrices enter numerators (`dv_i = h (f_i - R_ii v_i) / (m + h R_ii)`, `h f / m`)
/// or the right-hand side of a 3x3 solve (`h (f - R_lin v)`, `h (tau - w x I w - R_ang w)`; a
/// non-finite `R_ij` makes row `i` of `R v` non-finite even for `v_j = 0`), and a 3x3 solve
/// with a non-finite right-hand side never returns `Some`, for any matrix: Cramer's
/// `x_i = (c_i . b) / det` and the elimination's forward and back substitution carry a
/// non-finite entry of `b` as an operand or numerator into `x`, and both end in a finiteness
/// test of `x` (`SolverFailed`). A non-finite entry is not exactly zero, so the zero-structure
/// bit tests send it to the general paths, and the invariant projection (which runs only for
/// a torque and `R_ang` exactly zero) cannot hide a bad `w` (its acceleration takes `w`).
/// Sub-steps carry a non-finite `r` or `v` on by the same sums.
///
/// The new orientation needs no test of its own after one step of `dt` whose start and end
/// rates both turn less than 1 rad in it (`|w|^2 dt^2 < 1`, `|w'|^2 dt^2 < 1`, tests the
/// rotation bound computes anyway): the midpoint turns the (finite, unit) start orientation
/// by `exp` of `w' h` or `(w + w') h/2`, a finite rotation vector below 1 rad, whose
/// quaternion has entries of at most 1, so the product is finite. Sub-steps and larger turns
/// take the full result test ([`finish`]).
#[inline]
pub fn advance_result_screened<T: Real, F>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    settings: &StepSettings<T>,
    state: &mut RigidState<T>,
    dt: T,
    sub: F,
) -> Result<StepInfo>
where
    F: FnMut(&ComState<T>, T) -> Result<ComState<T>>,
{
    check_time_step(dt)?;
    check_unread(loads, state)?;
    match run_checked(body, settings, state, dt, sub, true) {
        Ok(info) => Ok(info),
        Err(e) => Err(diagnose(loads, state, e)),
    }
}

/// The up-front part of [`advance_result_screened`]'s checks: the orientation's norm test
/// (NaN or infinity fails it) and one finiteness test of the sum of the input accelerations
/// (m/s^2, rad/s^2), which no step reads; only if it fails do the detailed checks of every
/// input run (so their error comes back, and a sum that only overflowed passes).
#[inline(always)]
pub fn check_unread<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>) -> Result<()> {
    if state.orientation_is_unit_and_finite()
        && state.entry_sum_accelerations() * T::zero() == T::zero()
    {
        Ok(())
    } else {
        validate_inputs(loads, state)
    }
}

/// The detailed checks of the step's inputs, in their order: [`RigidState::validate`], then
/// [`RigidLoads::validate`]. Cold and out of line: the screens above run them only when an
/// input may be bad, and one copy serves all of them.
#[cold]
#[inline(never)]
fn validate_inputs<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>) -> Result<()> {
    state.validate()?;
    loads.validate()
}

/// The error of a failed step screened by its result: the detailed input checks' error if an
/// input is bad, else the step's own `e`.
#[cold]
#[inline(never)]
fn diagnose<T: Real>(loads: &RigidLoads<T>, state: &RigidState<T>, e: Error) -> Error {
    match validate_inputs(loads, state) {
        Err(input) => input,
        Ok(()) => e,
    }
}

/// The step of [`advance`] once every input has been checked: the COM map (once, for both
/// paths), one step of `dt` or the sub-steps of `settings` ([`substeps`]), the
/// rotation-per-step report, the map back and the result check ([`finish`]).
/// `small_turns_keep_q_finite`: the scheme's new orientation is finite whenever the start and
/// end rates turn less than 1 rad in `dt` (the midpoint's, [`advance_result_screened`]); the
/// single step then leaves the orientation out of the result test.
#[inline(always)]
#[allow(clippy::question_mark)] // `?` on the sub-step's result copies it on thumb targets
fn run_checked<T: Real, F>(
    body: &RigidBody<T>,
    settings: &StepSettings<T>,
    state: &mut RigidState<T>,
    dt: T,
    mut sub: F,
    small_turns_keep_q_finite: bool,
) -> Result<StepInfo>
where
    F: FnMut(&ComState<T>, T) -> Result<ComState<T>>,
{
    let s0 = ComState::from_reference(body, state);
    let inv_dt = T::one() / dt;
    if settings.substep {
        let (s, mut info) = match substeps(s0, settings, dt, &mut sub) {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        finish(body, state, &s, inv_dt, false)?;
        // Loads held over all of dt: sub-stepping cannot cure a too-long hold.
        if settings.load_phase_too_large(dt) {
            info.status = StepStatus::StepTooLarge;
        }
        return Ok(info);
    }
    // One step of dt: the common case (no sub-step bookkeeping).
    // A match, not `?`: on thumb targets `?` moved the 52-byte result twice through
    // `__aeabi_memcpy`, byte by byte (500 instructions of a 1,000-instruction f32 step).
    let s = match sub(&s0, dt) {
        Ok(s) => s,
        Err(e) => return Err(e),
    };
    let theta = settings.max_rotation_per_step;
    let theta2 = theta * theta;
    // |w| dt > theta at the start or the end (two tests: the same as of the larger rate).
    // (Tested after the sub-step, not before: held across it, the flag made the x86_64 step
    // 30 % slower in time at the same instruction count, BENCHMARKS.md.)
    let (turn0, turn1) = (s0.w.dot(&s0.w) * dt * dt, s.w.dot(&s.w) * dt * dt);
    let too_large = turn0 > theta2 || turn1 > theta2 || settings.load_phase_too_large(dt);
    // Computed only where `finish` tests the orientation apart ([`Q_TESTED_APART`]).
    let q_finite =
        Q_TESTED_APART && small_turns_keep_q_finite && turn0 < T::one() && turn1 < T::one();
    finish(body, state, &s, inv_dt, q_finite)?;
    Ok(StepInfo {
        status: if too_large {
            StepStatus::StepTooLarge
        } else {
            StepStatus::Ok
        },
        substeps: 1,
        rejected_substeps: 0,
        substep_limit_reached: false,
    })
}

/// The sub-steps of `settings.substep` from the COM state `s0` over `dt`: the new COM state
/// and the report (without the held-load test, which [`run_checked`] adds). Cold: the
/// common step is one step of `dt`, laid out as the fall-through path.
#[cold]
#[inline(never)]
#[allow(clippy::question_mark)] // `?` on the sub-step's result copies it on thumb targets
fn substeps<T: Real, F>(
    s0: ComState<T>,
    settings: &StepSettings<T>,
    dt: T,
    sub: &mut F,
) -> Result<(ComState<T>, StepInfo)>
where
    F: FnMut(&ComState<T>, T) -> Result<ComState<T>>,
{
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
        let candidate = match sub(&s, h) {
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

/// Whether [`finish`] tests the new orientation apart from the rest of the result (skipped
/// when the caller knows it finite, `q_finite`). On a host (out of order) the orientation is
/// the end of the step's longest chain of dependent operations, and a test that waits for it
/// makes the whole step wait (4 ns of an x86_64 step of 50 ns). A microcontroller executes in
/// order: there one test of one sum is fewer instructions and bytes than the two compares
/// that would skip it, so it neither computes `q_finite` nor tests apart.
const Q_TESTED_APART: bool = cfg!(not(target_os = "none"));

/// Maps the COM state `s` back to the reference point, sets the accelerations
/// `(v' - v)/dt`, `(w' - w)/dt` (`inv_dt = 1/dt`, 1/s), and writes `state` if every entry
/// of the result is finite (else `NonFiniteState`, `state` untouched). One test of the sum of
/// the position and accelerations screens the result (the velocities are covered by their
/// accelerations), with the orientation's entries unless the caller knows them finite
/// (`q_finite`, [`run_checked`]); the per-field test of every entry decides only if it fails
/// (a sum of finite entries may overflow).
// Inlined into both paths on a host (the hot single step keeps its values in registers);
// one shared copy on a microcontroller (0.7 KB of a Cortex-M4F firmware's flash, for a call).
#[cfg_attr(not(target_os = "none"), inline(always))]
#[cfg_attr(target_os = "none", inline(never))]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
fn finish<T: Real>(
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
    // the one sum ([`Q_TESTED_APART`]).
    let (sum, q_ok) = if Q_TESTED_APART {
        (sum, q_finite || q_sum * T::zero() == T::zero())
    } else {
        (sum + q_sum, true)
    };
    // The per-field test runs only if the sum is not finite; its entries are gathered there
    // (not `&new`: taking the state's address would make the hot path build it in memory and
    // copy it into `state` with memcpy).
    let (v, w) = (&new.velocity, &new.angular_velocity);
    if !((sum * T::zero() == T::zero() && q_ok)
        || (crate::real::all_finite_slice(&[
            p.x, p.y, p.z, v.x, v.y, v.z, w.x, w.y, w.z, a.x, a.y, a.z, b.x, b.y, b.z,
        ]) && q.norm_squared().finite()))
    {
        return Err(Error::NonFiniteState);
    }
    *state = new;
    Ok(())
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
    use nalgebra::Matrix3;

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
            assert_eq!(check_state_and_loads(&base, &state()), Ok(()));
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
                    let got = check_state_and_loads(&base, &s);
                    assert_eq!(got, Err(Error::NonFiniteState), "state entry {i}");
                }
                for i in 0..3 {
                    let mut l = base;
                    l.force[i] = bad;
                    let want = Err(Error::NotFinite(Param::Force));
                    assert_eq!(check_state_and_loads(&l, &state()), want);
                    let mut l = base;
                    l.torque[i] = bad;
                    let want = Err(Error::NotFinite(Param::Torque));
                    assert_eq!(check_state_and_loads(&l, &state()), want);
                }
                // One bad entry in an otherwise zero or nonzero resistance matrix.
                for i in 0..9 {
                    let want = Err(Error::NotFinite(Param::Damping));
                    let mut l = base;
                    l.linear_resistance[i] = bad;
                    assert_eq!(check_state_and_loads(&l, &state()), want, "R_lin {i}");
                    let mut l = base;
                    l.angular_resistance[i] = bad;
                    assert_eq!(check_state_and_loads(&l, &state()), want, "R_ang {i}");
                }
            }
        }
        // Finite entries whose sum overflows: not reported as non-finite.
        let mut s = state();
        s.position = Vector3::new(f64::MAX, f64::MAX, 0.0);
        assert_eq!(check_state_and_loads(&loads(), &s), Ok(()));
        let mut l = loads();
        l.linear_resistance = Matrix3::identity() * f64::MAX;
        l.angular_resistance[(1, 2)] = f64::MAX;
        assert!(!l.entry_sum_sparse().is_finite());
        assert_eq!(check_state_and_loads(&l, &state()), Ok(()));
        // The orientation check stays.
        let mut s = state();
        s.orientation.w *= 1.01;
        let want = Err(Error::OutOfRange(Param::Orientation));
        assert_eq!(check_state_and_loads(&loads(), &s), want);
    }

    /// The up-front part of the result-screened step refuses a bad acceleration or
    /// orientation with the detailed checks' errors, and leaves the entries the step reads
    /// (position, velocity, rate, loads) to the result screen (`tests/rigid_result_screen.rs`).
    #[test]
    fn the_unread_screen_refuses_accelerations_and_orientation_only() {
        let damped = loads().with_linear_damping(0.3);
        assert_eq!(check_unread(&damped, &state()), Ok(()));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for i in 0..3 {
                let mut s = state();
                s.acceleration[i] = bad;
                assert_eq!(check_unread(&damped, &s), Err(Error::NonFiniteState));
                let mut s = state();
                s.angular_acceleration[i] = bad;
                assert_eq!(check_unread(&damped, &s), Err(Error::NonFiniteState));
                let mut s = state();
                s.orientation.x = bad;
                assert_eq!(check_unread(&damped, &s), Err(Error::NonFiniteState));
                let mut s = state();
                s.position[i] = bad;
                assert_eq!(check_unread(&damped, &s), Ok(()));
                let mut l = damped;
                l.torque[i] = bad;
                assert_eq!(check_unread(&l, &state()), Ok(()));
            }
        }
        // A bad acceleration with a bad load: the state's error first.
        let mut s = state();
        s.acceleration.x = f64::NAN;
        let l = damped.with_force(Vector3::new(f64::NAN, 0.0, 0.0));
        assert_eq!(check_unread(&l, &s), Err(Error::NonFiniteState));
        let mut s = state();
        s.orientation.w *= 1.01;
        let want = Err(Error::OutOfRange(Param::Orientation));
        assert_eq!(check_unread(&loads(), &s), want);
    }

    /// `check_time_step` refuses what `finite` and `dt > 0` refuse, with their errors.
    #[test]
    fn the_time_step_check_keeps_its_errors() {
        for dt in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(check_time_step(dt), Err(Error::NotFinite(Param::TimeStep)));
        }
        for dt in [0.0, -0.0, -1e-3, -f64::MAX] {
            assert_eq!(check_time_step(dt), Err(Error::OutOfRange(Param::TimeStep)));
        }
        for dt in [f64::MIN_POSITIVE, 1e-3, f64::MAX] {
            assert_eq!(check_time_step(dt), Ok(()));
        }
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
