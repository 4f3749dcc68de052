//! Times `System::step` (dt = 1 ms, default scheme) of the chain model (`mbs_bench::chain`)
//! for several body counts and fits `t(n) = a + b n` by least squares: `b` is the cost per
//! body (with its spring-damper), `a` the fixed cost of a step.
//!
//! Usage: `mbs-system-scaling [--steps N] [--repeats N] [--bodies 1,3,10,30,100]` (defaults
//! 2000, 15 and those counts). Prints a
//! Markdown table (min and median over the repeats of `steps` steps).

use mbs_bench::chain;
use mbs_core::system::NoSink;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

fn arg(name: &str, default: usize) -> usize {
    let a: Vec<String> = std::env::args().collect();
    a.iter()
        .position(|x| x == name)
        .and_then(|i| a.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> ExitCode {
    let steps = arg("--steps", 2000).max(1);
    let repeats = arg("--repeats", 15).max(1);
    let counts: Vec<usize> = std::env::args()
        .skip_while(|x| x != "--bodies")
        .nth(1)
        .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 3, 10, 30, 100]);
    if counts.len() < 2 {
        eprintln!("mbs-system-scaling: --bodies needs at least two counts, e.g. 1,10,100");
        return ExitCode::from(2);
    }
    let mut rows = Vec::new();
    for &n in &counts {
        let mut per = Vec::new();
        for r in 0..=repeats {
            let Ok(mut sys) = chain::chain(n) else {
                eprintln!("mbs-system-scaling: building the chain of {n} failed");
                return ExitCode::FAILURE;
            };
            let t0 = Instant::now();
            for _ in 0..steps {
                if let Err(e) = sys.step(black_box(1e-3), &mut NoSink) {
                    eprintln!("mbs-system-scaling: step failed: {e:?}");
                    return ExitCode::FAILURE;
                }
            }
            let ns = t0.elapsed().as_nanos() as f64 / steps as f64;
            black_box(&sys);
            if r > 0 {
                per.push(ns); // the first run is a warm-up
            }
        }
        per.sort_by(f64::total_cmp);
        rows.push((n as f64, per[0], per[per.len() / 2]));
    }
    // least squares t = a + b n on the minima
    let m = rows.len() as f64;
    let (sx, sy) = rows.iter().fold((0.0, 0.0), |(a, b), r| (a + r.0, b + r.1));
    let (mx, my) = (sx / m, sy / m);
    let sxx: f64 = rows.iter().map(|r| (r.0 - mx) * (r.0 - mx)).sum();
    let sxy: f64 = rows.iter().map(|r| (r.0 - mx) * (r.1 - my)).sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    println!("| bodies | ns/step (min) | ns/step (median) | ns/body (min) | fit a + b n |");
    println!("|---:|---:|---:|---:|---:|");
    for (n, min, med) in &rows {
        println!(
            "| {n} | {min:.0} | {med:.0} | {:.1} | {:.0} |",
            min / n,
            a + b * n
        );
    }
    println!("\nfit over n = {counts:?} (minima): t(n) = {a:.0} ns + {b:.1} ns * n");
    ExitCode::SUCCESS
}
