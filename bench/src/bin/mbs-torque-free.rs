//! Runs the torque-free comparison body (see `mbs_bench::torque_free`) with every mbs scheme and
//! the Bullet-style baseline, and prints one JSON object on stdout: per scheme the per-step time
//! (ns, min and median over repeated runs of the whole trajectory, the binary looping itself)
//! and the recorded trajectory (time, body rate, quaternion); without `--only` also
//! `micro_ns`: the mass point 2D generalized-alpha step and the cylinder mass properties (ns per
//! call, min of batches).
//!
//! Usage: `mbs-torque-free [--dt S] [--t-end S] [--every N] [--repeats N] [--only TEXT]`
//! (defaults 1e-3, 10, 10, 30; `--only` keeps the schemes whose "name scalar" contains TEXT,
//! e.g. `--only "midpoint f64"` for a profile).

use mbs_bench::bullet::BulletImplicitGyro;
use mbs_bench::torque_free::{self, Sample};
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::RigidIntegrator;
use mbs_core::{Real, Result};
use std::fmt::Write as _;
use std::process::ExitCode;

struct Args {
    dt: f64,
    t_end: f64,
    every: usize,
    repeats: usize,
    only: Option<String>,
}

fn parse() -> std::result::Result<Args, String> {
    let mut a = Args {
        dt: torque_free::DT,
        t_end: torque_free::T_END,
        every: 10,
        repeats: 30,
        only: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let v = it.next().ok_or(format!("{k} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{k} {v}: {e}");
        match k.as_str() {
            "--dt" => a.dt = v.parse().map_err(|e| bad(&e))?,
            "--t-end" => a.t_end = v.parse().map_err(|e| bad(&e))?,
            "--every" => a.every = v.parse().map_err(|e| bad(&e))?,
            "--repeats" => a.repeats = v.parse().map_err(|e| bad(&e))?,
            "--only" => a.only = Some(v),
            _ => return Err(format!("unknown option {k}")),
        }
    }
    if !(a.dt > 0.0 && a.t_end > 0.0) {
        return Err("--dt and --t-end must be > 0".into());
    }
    Ok(a)
}

fn scheme<T: Real, I: RigidIntegrator<T>>(
    out: &mut String,
    name: &str,
    scalar: &str,
    integrator: &I,
    a: &Args,
) -> Result<()> {
    if let Some(only) = &a.only {
        if !format!("{name} {scalar}").contains(only.as_str()) {
            return Ok(());
        }
    }
    let steps = (a.t_end / a.dt).round() as usize;
    let tr: Vec<Sample> = torque_free::trajectory::<T, I>(integrator, a.dt, steps, a.every)?;
    let (min, median) = torque_free::time_per_step::<T, I>(integrator, a.dt, steps, a.repeats)?;
    if !out.ends_with('[') {
        out.push(',');
    }
    let _ = write!(
        out,
        "\n{{\"name\":\"{name}\",\"scalar\":\"{scalar}\",\"ns_per_step_min\":{min:.3},\"ns_per_step_median\":{median:.3},\"t\":["
    );
    let list = |f: &dyn Fn(&Sample) -> String| tr.iter().map(f).collect::<Vec<_>>().join(",");
    out.push_str(&list(&|s| format!("{}", s.t)));
    out.push_str("],\"w\":[");
    out.push_str(&list(&|s| {
        format!("[{:e},{:e},{:e}]", s.w[0], s.w[1], s.w[2])
    }));
    out.push_str("],\"q\":[");
    out.push_str(&list(&|s| {
        format!("[{:e},{:e},{:e},{:e}]", s.q[0], s.q[1], s.q[2], s.q[3])
    }));
    out.push_str("]}");
    Ok(())
}

fn run(a: &Args) -> Result<String> {
    let mut out = format!(
        "{{\"dt\":{},\"t_end\":{},\"moments\":{:?},\"w0\":{:?},\"schemes\":[",
        a.dt,
        a.t_end,
        torque_free::MOMENTS,
        torque_free::W0
    );
    scheme::<f64, _>(
        &mut out,
        "mbs midpoint",
        "f64",
        &LinearlyImplicitMidpoint::new(),
        a,
    )?;
    scheme::<f32, _>(
        &mut out,
        "mbs midpoint",
        "f32",
        &LinearlyImplicitMidpoint::new(),
        a,
    )?;
    scheme::<f64, _>(
        &mut out,
        "semi-implicit Euler",
        "f64",
        &SymplecticEuler::default(),
        a,
    )?;
    scheme::<f64, _>(
        &mut out,
        "explicit Euler",
        "f64",
        &ExplicitEuler::default(),
        a,
    )?;
    scheme::<f64, _>(&mut out, "RK4", "f64", &Rk4::default(), a)?;
    scheme::<f64, _>(
        &mut out,
        "Bullet implicit gyro",
        "f64",
        &BulletImplicitGyro::default(),
        a,
    )?;
    out.push_str("\n]");
    if a.only.is_none() {
        let mp = mbs_bench::micro::mass_point_step_ns(10_000, a.repeats)?;
        let cyl = mbs_bench::micro::cylinder_ns(10_000, a.repeats);
        let _ = write!(
            out,
            ",\"micro_ns\":{{\"mass point 2D generalized-alpha step f64\":{mp:.3},\"cylinder mass properties f64\":{cyl:.3}}}"
        );
    }
    out.push_str("}\n");
    Ok(out)
}

fn main() -> ExitCode {
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("mbs-torque-free: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&a) {
        Ok(s) => {
            print!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mbs-torque-free: step failed: {e:?}");
            ExitCode::FAILURE
        }
    }
}
