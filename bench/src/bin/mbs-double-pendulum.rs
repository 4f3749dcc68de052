//! Times the 3D double pendulum of `firmware/rust/src/double_pendulum.rs` (two rigid links with
//! full inertia tensors on revolute joints whose axes are not world axes, gravity) built from a
//! system's items and stepped by `System::step` with the generalized-alpha scheme (what
//! `mbs_system_step` runs), in f64, and prints one JSON object: the step, the spectral radius,
//! ns per step (min and median over repeated runs of the whole trajectory), Newton updates per
//! step and link 2's COM (m) at the end, for `bench/double_pendulum.sh` to set beside Exudyn
//! and MuJoCo on the same model. With `--tree rk4` or `--tree euler` the same chain in joint
//! coordinates instead (`double_pendulum::tree`, a `KinematicTree` stepped by
//! `KinematicTree::step` with RK4 or semi-implicit Euler: the formulation MuJoCo uses). With
//! `--real-time K` the system's steps run in real-time mode: at most K Newton updates a step,
//! the iterate after the last one taken without the evaluation that would only confirm it.
//! With `--rotations lie` the bodies' rotations are on the Lie group (`Rotations::LieGroup`)
//! instead of Euler parameters.
//!
//! Usage: `mbs-double-pendulum [--steps N] [--t-end S] [--rho R] [--repeats N]
//! [--tree rk4|euler] [--real-time K] [--rotations euler|lie]` (defaults 2000, 2, 0.9
//! (Exudyn's default), 20, the system, off, euler).

#[path = "../../../firmware/rust/src/double_pendulum.rs"]
mod double_pendulum;

use mbs_core::system::{NoSink, NodeState, Rotations, System, SystemScheme, SystemSettings};
use mbs_core::tree::{TreeData, TreeScheme, TreeStepSettings};
use std::process::ExitCode;
use std::time::Instant;

/// Nodes, objects, markers, loads, connectors, sensors, graphics, constraints, solver capacity.
type Sys = System<f64, 2, 3, 6, 2, 1, 1, 0, 2, 26>;

fn main() -> ExitCode {
    let (mut steps, mut t_end, mut rho, mut repeats) = (2000usize, 2.0f64, 0.9f64, 20usize);
    let mut tree = None;
    let mut real_time = 0u32;
    let mut rotations = Rotations::EulerParameters;
    let mut args = std::env::args().skip(1);
    while let Some(k) = args.next() {
        let v = args.next().unwrap_or_default();
        let ok = match k.as_str() {
            "--steps" => v.parse().map(|x| steps = x).is_ok(),
            "--t-end" => v.parse().map(|x| t_end = x).is_ok(),
            "--rho" => v.parse().map(|x| rho = x).is_ok(),
            "--repeats" => v.parse().map(|x| repeats = x).is_ok(),
            "--real-time" => v.parse().map(|x| real_time = x).is_ok(),
            "--rotations" => {
                rotations = match v.as_str() {
                    "lie" => Rotations::LieGroup,
                    _ => Rotations::EulerParameters,
                };
                matches!(v.as_str(), "lie" | "euler")
            }
            "--tree" => {
                tree = match v.as_str() {
                    "rk4" => Some(TreeScheme::RungeKutta4),
                    "euler" => Some(TreeScheme::SemiImplicitEuler),
                    _ => None,
                };
                tree.is_some()
            }
            _ => false,
        };
        if !ok {
            eprintln!(
                "usage: mbs-double-pendulum [--steps N] [--t-end S] [--rho R] [--repeats N] \
                 [--tree rk4|euler] [--real-time K] [--rotations euler|lie]"
            );
            return ExitCode::from(2);
        }
    }
    let h = t_end / steps as f64;
    if let Some(scheme) = tree {
        return tree_run(scheme, h, steps, repeats);
    }
    let mut settings = SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha);
    settings.alpha.spectral_radius = rho;
    settings.alpha.real_time_updates = real_time;
    settings.alpha.rotations = rotations;
    let (mut times, mut newton, mut com) = (Vec::new(), 0u64, [f64::NAN; 3]);
    for _ in 0..repeats {
        let mut sys = Box::new(Sys::new());
        let built = sys
            .set_settings(settings)
            .and_then(|_| double_pendulum::add_to_system(&mut *sys));
        let Ok([_, link2]) = built else {
            eprintln!("building the system failed: {built:?}");
            return ExitCode::from(1);
        };
        if let Err(e) = sys.assemble() {
            eprintln!("assemble: {e:?}");
            return ExitCode::from(1);
        }
        newton = 0;
        let start = Instant::now();
        for _ in 0..steps {
            match sys.step(h, &mut NoSink) {
                Ok(r) => newton += u64::from(r.newton_iterations),
                Err(e) => {
                    eprintln!("step: {e:?}");
                    return ExitCode::from(1);
                }
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1e9 / steps as f64);
        if let Ok(NodeState::RigidBody(s)) = sys.node_state(link2) {
            com = [s.position.x, s.position.y, s.position.z];
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"h\":{h},\"rho\":{rho},\"steps\":{steps},\"real_time\":{real_time},\"ns_per_step_min\":{:.1},\"ns_per_step_median\":{:.1},\"newton_per_step\":{:.3},\"com2\":[{:.17e},{:.17e},{:.17e}]}}",
        times[0],
        times[times.len() / 2],
        newton as f64 / steps as f64,
        com[0],
        com[1],
        com[2]
    );
    ExitCode::SUCCESS
}

/// The chain in joint coordinates: `steps` steps of `h` by `scheme` from the start, `repeats`
/// times; prints the JSON line of the system's run (`newton_per_step` 0) with the scheme.
fn tree_run(scheme: TreeScheme, h: f64, steps: usize, repeats: usize) -> ExitCode {
    let Ok(tree) = double_pendulum::tree::<f64, 2, 2>() else {
        eprintln!("building the tree failed");
        return ExitCode::from(1);
    };
    let settings = TreeStepSettings::with_scheme(scheme);
    let mut data = TreeData::<f64, 2, 2>::new();
    let (mut times, mut com) = (Vec::new(), [f64::NAN; 3]);
    let local = double_pendulum::tree_com::<f64>(1);
    for _ in 0..repeats {
        let (mut q, mut v) = ([0.0; 2], double_pendulum::RATES);
        let start = Instant::now();
        for _ in 0..steps {
            if let Err(e) = tree.step(&mut data, &mut q, &mut v, &[0.0; 2], h, &settings) {
                eprintln!("step: {e:?}");
                return ExitCode::from(1);
            }
        }
        times.push(start.elapsed().as_secs_f64() * 1e9 / steps as f64);
        // Link 2's COM: its link-frame position carried by the link's pose.
        let pose = tree
            .forward_kinematics(&mut data, &q, None)
            .ok()
            .and_then(|_| data.link_pose(1));
        if let Some(x) = pose {
            let c = x.translation + x.rotation * local;
            com = [c.x, c.y, c.z];
        }
    }
    times.sort_by(f64::total_cmp);
    let name = match scheme {
        TreeScheme::RungeKutta4 => "rk4",
        TreeScheme::SemiImplicitEuler => "euler",
    };
    println!(
        "{{\"h\":{h},\"tree\":\"{name}\",\"steps\":{steps},\"ns_per_step_min\":{:.1},\"ns_per_step_median\":{:.1},\"newton_per_step\":0,\"com2\":[{:.17e},{:.17e},{:.17e}]}}",
        times[0],
        times[times.len() / 2],
        com[0],
        com[1],
        com[2]
    );
    ExitCode::SUCCESS
}
