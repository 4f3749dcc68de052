//! Minimum-of-batches timing of small calls, for a shared machine: the fastest of `batches`
//! batches of `calls` calls is the run least disturbed by other processes (criterion's
//! estimates average over the disturbed ones too).

use mbs_core::bodies::MassPoint2D;
use mbs_core::inertia::Cylinder;
use mbs_core::integrators::GeneralizedAlpha;
use mbs_core::loads::LoadForceVector;
use mbs_core::nodes::NodePoint2D;
use mbs_core::solver::{MassPointLoad, MassPointOde};
use mbs_core::Result;
use nalgebra::{Vector2, Vector3};
use std::hint::black_box;
use std::time::Instant;

/// The least time per call (ns) of `f` over `batches` batches of `calls` calls.
pub fn min_ns_per_call<R>(mut f: impl FnMut() -> R, calls: usize, batches: usize) -> f64 {
    let calls = calls.max(1);
    let mut best = f64::INFINITY;
    for _ in 0..batches.max(1) {
        let t0 = Instant::now();
        for _ in 0..calls {
            black_box(f());
        }
        best = best.min(t0.elapsed().as_nanos() as f64 / calls as f64);
    }
    best
}

/// One generalized-alpha step (ns, min of batches) of Exudyn's mini example mass point
/// (m = 2 kg, force [10, 0] N, `rho_inf = 0.9`, `dt = 1e-3`), each from the same state.
pub fn mass_point_step_ns(calls: usize, batches: usize) -> Result<f64> {
    let node = NodePoint2D::<f64>::at(Vector2::new(1.0, 1.0))?;
    let body = MassPoint2D::new(2.0)?;
    let loads = [MassPointLoad::NodeForce {
        node: 0,
        load: LoadForceVector::new(Vector3::new(10.0, 0.0, 0.0))?,
    }];
    let ode = MassPointOde::new(&node, &body, &loads)?;
    let alpha = GeneralizedAlpha::new(0.9)?;
    let s0 = alpha.initial_state(
        &ode,
        0.0,
        &node.initial_coordinates(),
        &node.initial_velocities(),
    )?;
    Ok(min_ns_per_call(
        || {
            let mut s = black_box(s0);
            let r = alpha.step(black_box(&ode), &mut s, black_box(0.0), black_box(1e-3));
            (r, s)
        },
        calls,
        batches,
    ))
}

/// Modelica `BodyCylinder` mass properties (defaults, `r = [1, 0.2, 0.1]`), ns per call.
pub fn cylinder_ns(calls: usize, batches: usize) -> f64 {
    let cyl = Cylinder::<f64>::new(Vector3::new(1.0, 0.2, 0.1));
    min_ns_per_call(|| black_box(&cyl).mass_properties(), calls, batches)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_are_positive_and_finite() {
        let t = min_ns_per_call(|| black_box(1.0f64).sqrt(), 10, 2);
        assert!(t.is_finite() && t >= 0.0);
        assert!(mass_point_step_ns(10, 2).is_ok_and(|t| t.is_finite()));
        assert!(cylinder_ns(10, 2).is_finite());
    }
}
