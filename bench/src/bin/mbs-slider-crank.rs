//! Times the slider-crank of Exudyn's `SliderCrank.py` (firmware/rust/src/slider_crank.rs:
//! two 2D rigid bodies and a mass point, three revolute joints and a coordinate constraint,
//! 10 N m on the crank) stepped by core's index-3 generalized-alpha solver in f64, and prints
//! one JSON object: the step, the spectral radius, ns per step (min and median over repeated
//! runs of the whole trajectory) and the slider's final x (m), for `bench/slider_crank.sh`
//! to set beside Exudyn's `SolveDynamic` on the same model.
//!
//! With `--system` the same mechanism is built from a system's items as Exudyn builds it
//! (`slider_crank::add_to_system`: nodes, bodies, markers, joints, a load) and stepped by the
//! system's generalized-alpha scheme (`System::step`, what `mbs_system_step` runs).
//!
//! With `--real-time K` the steps run in real-time mode: at most K Newton updates a step, the
//! iterate after the last one taken without the evaluation that would only confirm it.
//!
//! Usage: `mbs-slider-crank [--steps N] [--t-end S] [--rho R] [--repeats N] [--system]
//! [--real-time K]` (defaults 10000, 1, 0.5, 20, off: Exudyn's example uses rho_inf = 0.5).

#[path = "../../../firmware/rust/src/slider_crank.rs"]
#[allow(dead_code)]
mod slider_crank;

use mbs_core::integrators::constrained::{Assembly, ConstrainedAlpha, Workspace};
use mbs_core::system::{NoSink, NodeState, System, SystemScheme, SystemSettings};
use slider_crank::{start_coordinates, SliderCrank};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut steps = 10_000usize;
    let mut t_end = 1.0f64;
    let mut rho = 0.5f64;
    let mut repeats = 20usize;
    let mut system = false;
    let mut real_time = 0u32;
    let mut args = std::env::args().skip(1);
    while let Some(k) = args.next() {
        if k == "--system" {
            system = true;
            continue;
        }
        let v = args.next().unwrap_or_default();
        let ok = match k.as_str() {
            "--steps" => v.parse().map(|x| steps = x).is_ok(),
            "--t-end" => v.parse().map(|x| t_end = x).is_ok(),
            "--rho" => v.parse().map(|x| rho = x).is_ok(),
            "--repeats" => v.parse().map(|x| repeats = x).is_ok(),
            "--real-time" => v.parse().map(|x| real_time = x).is_ok(),
            _ => false,
        };
        if !ok {
            eprintln!(
                "usage: mbs-slider-crank [--steps N] [--t-end S] [--rho R] [--repeats N] [--system] \
                 [--real-time K]"
            );
            return ExitCode::from(2);
        }
    }
    if system {
        return run_system(steps, t_end, rho, repeats, real_time);
    }
    let model = SliderCrank { torque: 10.0 };
    let solver = ConstrainedAlpha::new(rho).and_then(|s| s.with_real_time_updates(real_time));
    let Ok(solver) = solver else {
        eprintln!("bad rho {rho} or real-time updates {real_time}");
        return ExitCode::from(2);
    };
    let h = t_end / steps as f64;
    let mut times = Vec::new();
    let mut x = f64::NAN;
    let mut newton = 0u64;
    for _ in 0..repeats {
        let mut work = Box::new(Workspace::<f64, 16>::default());
        let mut s = match solver.initial_state(
            &model,
            0.0,
            &start_coordinates::<f64>(),
            &[0.0; 8],
            Assembly::default(),
            &mut work,
        ) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("initial state: {e}");
                return ExitCode::from(1);
            }
        };
        let timed = timed_steps(steps, || {
            solver
                .step(&model, &mut s, &mut work, h)
                .map(|r| r.newton_iterations)
                .map_err(|e| format!("{e}"))
        });
        let Ok((ns, n)) = timed.map_err(|e| eprintln!("step: {e}")) else {
            return ExitCode::from(1);
        };
        times.push(ns);
        newton = n;
        x = s.q[6];
    }
    print_result(h, rho, steps, false, real_time, &mut times, newton, x);
    ExitCode::SUCCESS
}

/// Runs `step` `steps` times: ns per step and the Newton iterations it reported in all.
fn timed_steps(
    steps: usize,
    mut step: impl FnMut() -> Result<u32, String>,
) -> Result<(f64, u64), String> {
    let mut newton = 0u64;
    let start = Instant::now();
    for _ in 0..steps {
        newton += u64::from(step()?);
    }
    Ok((start.elapsed().as_secs_f64() * 1e9 / steps as f64, newton))
}

/// Prints the JSON line of a run: the step, spectral radius, real-time updates (0: off), ns per
/// step (min and median over the repeats), Newton iterations per step, the slider's final x
/// (m).
#[allow(clippy::too_many_arguments)]
fn print_result(
    h: f64,
    rho: f64,
    steps: usize,
    system: bool,
    real_time: u32,
    times: &mut [f64],
    newton: u64,
    x: f64,
) {
    times.sort_by(f64::total_cmp);
    let kind = if system { "\"system\":true," } else { "" };
    println!(
        "{{\"h\":{h},\"rho\":{rho},\"steps\":{steps},{kind}\"real_time\":{real_time},\"ns_per_step_min\":{:.1},\"ns_per_step_median\":{:.1},\"newton_per_step\":{:.3},\"x_slider\":{x:.15}}}",
        times[0],
        times[times.len() / 2],
        newton as f64 / steps as f64
    );
}

/// The system of items, stepped by `System::step` (module docs).
fn run_system(steps: usize, t_end: f64, rho: f64, repeats: usize, real_time: u32) -> ExitCode {
    type Sys = System<f64, 8, 8, 16, 4, 1, 1, 0, 4, 16>;
    let h = t_end / steps as f64;
    let mut settings = SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha);
    settings.alpha.spectral_radius = rho;
    settings.alpha.real_time_updates = real_time;
    let mut times = Vec::new();
    let (mut x, mut newton) = (f64::NAN, 0u64);
    for _ in 0..repeats {
        let mut sys = Box::new(Sys::new());
        let built = sys
            .set_settings(settings)
            .and_then(|_| slider_crank::add_to_system(&mut *sys, 10.0));
        let Ok([_, _, slider]) = built else {
            eprintln!("building the system failed: {built:?}");
            return ExitCode::from(1);
        };
        if let Err(e) = sys.assemble() {
            eprintln!("assemble: {e:?}");
            return ExitCode::from(1);
        }
        let timed = timed_steps(steps, || {
            sys.step(h, &mut NoSink)
                .map(|r| r.newton_iterations)
                .map_err(|e| format!("{e:?}"))
        });
        let Ok((ns, n)) = timed.map_err(|e| eprintln!("step: {e}")) else {
            return ExitCode::from(1);
        };
        times.push(ns);
        newton = n;
        if let Ok(NodeState::Point2D(p)) = sys.node_state(slider) {
            x = 2.0 * slider_crank::A0 + 2.0 * slider_crank::A1 + p.q.x;
        }
    }
    print_result(h, rho, steps, true, real_time, &mut times, newton, x);
    ExitCode::SUCCESS
}
