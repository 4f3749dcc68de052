//! Cost per step of the midpoint step's options, for the record (the criterion benchmarks
//! live in `bench/`). Ignored: run one variant for `MBS_COST_STEPS` steps (default 100,000)
//! and print the wall time per step; under callgrind, the difference of the instruction counts
//! of two step counts gives repeatable instructions per step (see `docs/midpoint.md`).
//!
//! `MBS_COST_VARIANT`: `default`, `mean`, `trap`, `project`, `project-fixed`, `second-order`
//! (MeanRate + Trapezoidal), `all` (MeanRate + Trapezoidal + Project). Torque-free body
//! diag(1, 2, 3), `w0 = [0.1, 5, 0.1]`, dt = 1e-3; `trap` and `second-order` with angular and
//! linear resistance (so the resistance path is exercised), the others without.

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::midpoint::{LinearlyImplicitMidpoint, MidpointSettings};
use mbs_core::integrators::{
    Invariants, OrientationUpdate, Resistance, RigidIntegrator, RigidLoads,
};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use nalgebra::Vector3;

#[test]
#[ignore = "a measurement, not a check: see docs/midpoint.md"]
fn cost_per_step() {
    let variant = std::env::var("MBS_COST_VARIANT").unwrap_or_else(|_| "default".into());
    let n: usize = std::env::var("MBS_COST_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let body = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let w0 = Vector3::new(0.1, 5.0, 0.1);
    let s0 = RigidState::new(
        Vector3::zeros(),
        Quaternion::identity(),
        Vector3::zeros(),
        w0,
    );
    let damped = RigidLoads::none()
        .with_angular_damping(0.5)
        .with_linear_damping(1.5);
    let d = MidpointSettings::default();
    let (st, loads) = match variant.as_str() {
        "default" => (d, RigidLoads::none()),
        "default-damped" => (d, damped),
        "mean" => (
            d.with_orientation(OrientationUpdate::MeanRate),
            RigidLoads::none(),
        ),
        "trap" => (d.with_resistance(Resistance::Trapezoidal), damped),
        "project" => (d.with_invariants(Invariants::Project), RigidLoads::none()),
        "project-fixed" => (
            d.with_invariants(Invariants::Project)
                .with_projection_levels_of(&body, &s0),
            RigidLoads::none(),
        ),
        "second-order" => (MidpointSettings::second_order(), damped),
        "all" => (
            MidpointSettings::second_order().with_invariants(Invariants::Project),
            RigidLoads::none(),
        ),
        other => panic!("unknown variant {other}"),
    };
    let integ = LinearlyImplicitMidpoint::with_settings(st);
    let mut s = s0;
    let t = std::time::Instant::now();
    for _ in 0..n {
        integ.step(&body, &loads, &mut s, 1e-3).unwrap();
    }
    let ns = t.elapsed().as_nanos() as f64 / n as f64;
    eprintln!(
        "{variant}: {ns:.1} ns/step over {n} steps (w = {:?})",
        s.angular_velocity
    );
    std::hint::black_box(s);
}
