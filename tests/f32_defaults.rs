//! Single precision with the default settings: every constrained mechanism of the repository
//! (the 3D double pendulum in Euler parameters and on the Lie group, at rho_inf 0.9 and 0.5;
//! Exudyn's slider-crank as a system) steps 2 s at 1 ms in `f32` with
//! `SystemSettings::default()` and only the scheme chosen, and stays on its constraints and
//! near its `f64` run. The defaults follow the scalar (`NewtonSettings`, `Assembly`): with
//! f64's tolerances in f32 the double pendulum stopped with `NewtonNotConverged` at step 10.

#[path = "../firmware/rust/src/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../firmware/rust/src/slider_crank.rs"]
#[allow(dead_code)]
mod slider_crank;

use mbs_core::system::{
    ConstraintIndex, HostSystem, NoSink, NodeIndex, NodeState, Rotations, SystemScheme,
    SystemSettings,
};
use mbs_core::{OutputValue, OutputVariableType, Real};

/// The defaults with generalized-alpha, `rho` and `rotations`.
fn defaults<T: Real>(rho: f64, rotations: Rotations) -> SystemSettings<T> {
    let mut s = SystemSettings::<T>::default().with_scheme(SystemScheme::GeneralizedAlpha);
    s.alpha.spectral_radius = T::c(rho);
    s.alpha.rotations = rotations;
    s
}

/// The largest constraint residual of `sys` now (m, -).
fn residual<T: Real>(sys: &HostSystem<T>, constraints: u16) -> f64 {
    (0..constraints)
        .map(|k| {
            match sys.constraint_output(ConstraintIndex(k), OutputVariableType::ConstraintResidual)
            {
                Ok(OutputValue::Vector3(r)) => {
                    r.iter().map(|x| x.to_f64().abs()).fold(0.0, f64::max)
                }
                other => panic!("{other:?}"),
            }
        })
        .fold(0.0, f64::max)
}

/// A node's position (m, f64).
fn position<T: Real>(sys: &HostSystem<T>, n: NodeIndex) -> [f64; 3] {
    match sys.node_state(n).unwrap() {
        NodeState::RigidBody(s) => s.position.map(|x| x.to_f64()).into(),
        NodeState::RigidBody2D(s) => [s.q.x.to_f64(), s.q.y.to_f64(), s.q.z.to_f64()],
        NodeState::Point2D(s) => [s.q.x.to_f64(), s.q.y.to_f64(), 0.0],
        other => panic!("{other:?}"),
    }
}

/// 2000 steps of 1 ms; the largest constraint residual and the final positions.
fn run<T: Real>(
    sys: &mut HostSystem<T>,
    nodes: &[NodeIndex],
    constraints: u16,
) -> (f64, Vec<[f64; 3]>) {
    let mut worst: f64 = 0.0;
    for k in 0..2000 {
        if let Err(e) = sys.step(T::c(1e-3), &mut NoSink) {
            panic!("step {k}: {e:?}");
        }
        worst = worst.max(residual(sys, constraints));
    }
    (worst, nodes.iter().map(|n| position(sys, *n)).collect())
}

fn distance(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(p, q)| {
            p.iter()
                .zip(q)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

#[test]
fn the_double_pendulum_steps_in_f32_with_the_default_settings() {
    for rotations in [Rotations::EulerParameters, Rotations::LieGroup] {
        for rho in [0.9, 0.5] {
            let mut single = HostSystem::<f32>::new();
            single.set_settings(defaults(rho, rotations)).unwrap();
            let nodes = double_pendulum::add_to_system(&mut single).unwrap();
            single.assemble().unwrap();
            let mut double = HostSystem::<f64>::new();
            double.set_settings(defaults(rho, rotations)).unwrap();
            let nodes64 = double_pendulum::add_to_system(&mut double).unwrap();
            double.assemble().unwrap();
            let (worst, p32) = run(&mut single, &nodes, 2);
            let (_, p64) = run(&mut double, &nodes64, 2);
            let off = distance(&p32, &p64);
            println!(
                "  {rotations:?}, rho {rho}: joint residual {worst:.1e}, off f64 by {off:.1e} m"
            );
            assert!(worst < 1e-4, "{worst}");
            assert!(off < 1e-3, "{off}");
        }
    }
}

#[test]
fn the_slider_crank_steps_in_f32_with_the_default_settings() {
    let mut single = HostSystem::<f32>::new();
    single
        .set_settings(defaults(0.9, Rotations::EulerParameters))
        .unwrap();
    let nodes = slider_crank::add_to_system(&mut single, 10.0).unwrap();
    single.assemble().unwrap();
    let mut double = HostSystem::<f64>::new();
    double
        .set_settings(defaults(0.9, Rotations::EulerParameters))
        .unwrap();
    let nodes64 = slider_crank::add_to_system(&mut double, 10.0).unwrap();
    double.assemble().unwrap();
    let k = single.constraint_count() as u16;
    let (worst, p32) = run(&mut single, &nodes, k);
    let (_, p64) = run(&mut double, &nodes64, k);
    let off = distance(&p32, &p64);
    println!("  slider-crank: constraint residual {worst:.1e}, off f64 by {off:.1e}");
    assert!(worst < 1e-4, "{worst}");
    assert!(off < 1e-3, "{off}");
}
