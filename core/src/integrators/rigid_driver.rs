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
    #[inline]
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
    #[inline]
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

/// Checks `dt` (`NotFinite(TimeStep)`, `OutOfRange(TimeStep)` if `dt <= 0`), the settings, the
/// state and the loads, in that order. The finiteness of the state and the loads is screened
/// by one test of the sum of all their entries; only if it fails do the per-field checks run
/// (which name the culprit), so the errors are those of the detailed checks.
#[inline]
pub fn check_inputs<T: Real>(
    settings: &StepSettings<T>,
    loads: &RigidLoads<T>,
    state: &RigidState<T>,
    dt: T,
) -> Result<()> {
    finite(dt, Param::TimeStep)?;
    if dt <= T::zero() {
        return Err(Error::OutOfRange(Param::TimeStep));
    }
    settings.validate()?;
    if (state.entry_sum() + loads.entry_sum()) * T::zero() == T::zero() {
        state.check_unit_orientation()
    } else {
        state.validate()?;
        loads.validate()
    }
}

/// Runs a scheme's single step `sub(com_state, h) -> new com_state` over `dt`, with the checks,
/// the COM mapping and the sub-stepping of `settings`, and writes `state` only on success.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn advance<T: Real, F>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    settings: &StepSettings<T>,
    state: &mut RigidState<T>,
    dt: T,
    mut sub: F,
) -> Result<StepInfo>
where
    F: FnMut(&ComState<T>, T) -> Result<ComState<T>>,
{
    check_inputs(settings, loads, state, dt)?;
    let theta = settings.max_rotation_per_step;
    let theta2 = theta * theta;
    let mut s = ComState::from_reference(body, state);
    let mut too_large = false;
    let mut limit_reached = false;
    let mut accepted: u32 = 0;
    let mut evaluations: u32 = 0;
    if !settings.substep {
        let w0 = s.w.dot(&s.w);
        s = sub(&s, dt)?;
        accepted = 1;
        evaluations = 1;
        let w1 = s.w.dot(&s.w);
        too_large = w0.max(w1) * dt * dt > theta2;
    } else {
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
                t_rem / T::c(n_left as f64)
            };
            let candidate = sub(&s, h)?;
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
    }
    // Loads held over all of dt: sub-stepping cannot cure a too-long hold.
    too_large |= settings.load_phase_too_large(dt);
    let (position, velocity) = s.reference_point(body);
    let inv_dt = T::one() / dt;
    let new = RigidState {
        position,
        orientation: s.q,
        velocity,
        angular_velocity: s.w,
        acceleration: (velocity - state.velocity) * inv_dt,
        angular_acceleration: (s.w - state.angular_velocity) * inv_dt,
    };
    // One test of the sum screens the result; the per-field test decides only if it fails
    // (a sum of finite entries may overflow).
    if !(new.entry_sum() * T::zero() == T::zero()
        || (crate::real::all_finite(&new.position)
            && crate::real::all_finite(&new.velocity)
            && crate::real::all_finite(&new.angular_velocity)
            && crate::real::all_finite(&new.acceleration)
            && crate::real::all_finite(&new.angular_acceleration)
            && new.orientation.norm_squared().finite()))
    {
        return Err(Error::NonFiniteState);
    }
    *state = new;
    Ok(StepInfo {
        status: if too_large || limit_reached {
            StepStatus::StepTooLarge
        } else {
            StepStatus::Ok
        },
        substeps: accepted,
        rejected_substeps: evaluations - accepted,
        substep_limit_reached: limit_reached,
    })
}

/// Sub-steps for the rest `t` (s) of a step at the squared rate `rate2` (rad^2/s^2):
/// `ceil(|w| t / theta)`, at least 1, at most `budget`; `true` if `budget` cut it.
fn plan<T: Real>(rate2: T, t: T, theta: T, budget: u32) -> (u32, bool) {
    let x = (rate2.sqrt_l() * t / theta).to_f64();
    if x.partial_cmp(&1.0) != Some(core::cmp::Ordering::Greater) {
        (1, false)
    } else if x > budget as f64 {
        (budget.max(1), true)
    } else {
        let n = x as u32; // floor, 1 <= n <= budget
        (if (n as f64) < x { n + 1 } else { n }, false)
    }
}
