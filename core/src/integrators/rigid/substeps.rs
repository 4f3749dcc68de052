//! Sub-stepping of a rigid step: one step of `dt` split into as many sub-steps of equal length
//! as keep the rotation per sub-step `|w| h` within `StepSettings::max_rotation_per_step`,
//! redone finer when the rate grows within a sub-step, within `StepSettings::max_substeps`
//! evaluations of the scheme.

use super::{ComState, StepInfo, StepSettings, StepStatus};
use crate::{Real, Result};

/// The sub-steps of `settings.substep` from the COM state `s0` over `dt`, each one
/// `substep(s, h)` (a scheme's equations for a sub-step of `h`): the new COM state and the
/// report (without the held-load test, which the driver adds).
// Cold, out of line: the common step is one step of `dt`, laid out as the fall-through path.
#[cold]
#[inline(never)]
#[allow(clippy::question_mark)] // `?` on the sub-step's result copies it byte by byte on thumb
pub fn substeps<T: Real>(
    settings: &StepSettings<T>,
    s0: ComState<T>,
    dt: T,
    mut substep: impl FnMut(&ComState<T>, T) -> Result<ComState<T>>,
) -> Result<(ComState<T>, StepInfo)> {
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
        let candidate = match substep(&s, h) {
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
