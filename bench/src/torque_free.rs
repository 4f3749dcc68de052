//! The comparison problem: a torque-free asymmetric rigid body, the same one every peer runs.
//!
//! Mass 1 kg, principal inertia `diag(1, 2, 3)` kg m^2 about the COM (body axes = principal
//! axes), COM at the reference point, start at the origin with `R_0b = E3`, `v = 0`, body-frame
//! rate `w0 = [0.1, 5, 0.1]` rad/s (close to the unstable middle axis: it flips), no load, no
//! gravity; `dt = 1e-3` s for 10 s.
//!
//! Invariants (exact for the continuous motion): kinetic energy `E = 1/2 w . I w` (J) and
//! `|L| = |I w_b|` (kg m^2/s; `L_0 = R_0b I w_b` is constant in the world frame).

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::{Real, Result};
use nalgebra::Vector3;
use std::time::Instant;

/// Principal moments (kg m^2).
pub const MOMENTS: [f64; 3] = [1.0, 2.0, 3.0];
/// Start rate (rad/s, body frame).
pub const W0: [f64; 3] = [0.1, 5.0, 0.1];
/// Step (s).
pub const DT: f64 = 1e-3;
/// End time (s).
pub const T_END: f64 = 10.0;

/// The body in scalar type `T`.
pub fn body<T: Real>() -> Result<RigidBody<T>> {
    RigidBody::from_principal(
        T::one(),
        [T::c(MOMENTS[0]), T::c(MOMENTS[1]), T::c(MOMENTS[2])],
        Vector3::zeros(),
    )
}

/// The start state in scalar type `T`.
pub fn start<T: Real>() -> RigidState<T> {
    RigidState::new(
        Vector3::zeros(),
        Quaternion::identity(),
        Vector3::zeros(),
        Vector3::new(T::c(W0[0]), T::c(W0[1]), T::c(W0[2])),
    )
}

/// Kinetic energy `1/2 w . I w` (J) of a body-frame rate, in f64.
pub fn energy(w: &[f64; 3]) -> f64 {
    0.5 * (MOMENTS[0] * w[0] * w[0] + MOMENTS[1] * w[1] * w[1] + MOMENTS[2] * w[2] * w[2])
}

/// `|L| = |I w|` (kg m^2/s) of a body-frame rate, in f64.
pub fn momentum_norm(w: &[f64; 3]) -> f64 {
    let l = [MOMENTS[0] * w[0], MOMENTS[1] * w[1], MOMENTS[2] * w[2]];
    (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt()
}

/// One recorded sample: time (s), body rate (rad/s), orientation `[w, x, y, z]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Time (s).
    pub t: f64,
    /// Body-frame angular velocity (rad/s).
    pub w: [f64; 3],
    /// Orientation `R_0b`, scalar first.
    pub q: [f64; 4],
}

fn sample<T: Real>(t: f64, s: &RigidState<T>) -> Sample {
    let w = s.angular_velocity;
    let q = s.orientation;
    Sample {
        t,
        w: [w.x.to_f64(), w.y.to_f64(), w.z.to_f64()],
        q: [q.w.to_f64(), q.x.to_f64(), q.y.to_f64(), q.z.to_f64()],
    }
}

/// Runs `steps` steps of `dt` from [`start`] and records every `every`-th state (and the
/// first and the last). Any step error ends the run with that error.
pub fn trajectory<T: Real, I: RigidIntegrator<T>>(
    integrator: &I,
    dt: f64,
    steps: usize,
    every: usize,
) -> Result<Vec<Sample>> {
    let b = body::<T>()?;
    let loads = RigidLoads::none();
    let h = T::c(dt);
    let mut s = start::<T>();
    let mut out = vec![sample(0.0, &s)];
    let every = every.max(1);
    for k in 1..=steps {
        integrator.step(&b, &loads, &mut s, h)?;
        if k % every == 0 || k == steps {
            out.push(sample(k as f64 * dt, &s));
        }
    }
    Ok(out)
}

/// Per-step wall time (ns) of `steps` steps from [`start`]: the minimum and the median over
/// `repeats` timed runs (after one untimed warm-up run). The loop feeds each step's output
/// state into the next, so nothing can be hoisted; `black_box` keeps the inputs opaque.
pub fn time_per_step<T: Real, I: RigidIntegrator<T>>(
    integrator: &I,
    dt: f64,
    steps: usize,
    repeats: usize,
) -> Result<(f64, f64)> {
    let b = body::<T>()?;
    let loads = RigidLoads::none();
    let h = T::c(dt);
    let run = |s: &mut RigidState<T>| -> Result<()> {
        for _ in 0..steps {
            integrator.step(
                std::hint::black_box(&b),
                std::hint::black_box(&loads),
                s,
                std::hint::black_box(h),
            )?;
        }
        Ok(())
    };
    let mut s = start::<T>();
    run(&mut s)?;
    std::hint::black_box(&s);
    let mut per_step = Vec::with_capacity(repeats.max(1));
    for _ in 0..repeats.max(1) {
        let mut s = start::<T>();
        let t0 = Instant::now();
        run(&mut s)?;
        let ns = t0.elapsed().as_nanos() as f64 / steps.max(1) as f64;
        std::hint::black_box(&s);
        per_step.push(ns);
    }
    per_step.sort_by(f64::total_cmp);
    Ok((per_step[0], per_step[per_step.len() / 2]))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;

    #[test]
    fn invariants_of_the_start_state() {
        // 1/2 (1*0.01 + 2*25 + 3*0.01) and |(0.1, 10, 0.3)|
        assert!((energy(&W0) - 25.02).abs() < 1e-12);
        assert!((momentum_norm(&W0) - (0.01f64 + 100.0 + 0.09).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn trajectory_records_first_every_and_last() {
        let m = LinearlyImplicitMidpoint::<f64>::new();
        let tr = trajectory::<f64, _>(&m, 1e-3, 25, 10).unwrap();
        let t: Vec<f64> = tr.iter().map(|s| s.t).collect();
        assert_eq!(t.len(), 4);
        assert_eq!(t[0], 0.0);
        assert!((t[1] - 0.01).abs() < 1e-15 && (t[3] - 0.025).abs() < 1e-15);
    }
}
