//! mbs on bare metal: a pure Rust firmware (cortex-m-rt) that runs the workloads of
//! [`workload`] under QEMU, prints every result through semihosting and exits with the number
//! of failed checks as QEMU's exit status (0 = all passed).
//!
//! Modes, chosen by the semihosting command line (`-semihosting-config ...,arg=MODE`):
//! - none: run every workload, check it against its closed form, print hashes, stack and RAM;
//! - `count`: run one step of each workload between the marker functions
//!   [`probe::mbs_count_begin`]/[`probe::mbs_count_end`] and exit, for instruction counting
//!   from QEMU's exec log (`scripts/embedded-figures.sh`);
//! - `worst`: time every step of a long run of each real-time workload by SysTick (run under
//!   `-icount shift=0`: ticks count instructions), for the largest step ([`worst`]);
//! - `selftest-fail`: check one workload against an impossible tolerance: must exit with 1
//!   (proves that a wrong result reaches QEMU's exit status);
//! - `selftest-fault`: read an unmapped address: the HardFault handler must exit with 101
//!   (proves that a fault ends QEMU instead of hanging it).
//!
//! Lines are `key=value` words, parsed by `tests/firmware_qemu.rs`.
#![no_std]
#![no_main]

// The arm runs on the Cortex-M4F only (`arm_probes`).
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))]
mod arm;
mod arm_probes;
// Its tree form is probed on the Cortex-M4F only (`pendulum_tree_probes`).
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))]
mod double_pendulum;
mod pendulum_tree_probes;
mod probe;
mod semihost;
mod slider_crank;
mod workload;
// The mechanisms run on the cores with an FPU only (see `SLIDER_CRANK`).
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))]
mod worst;

use core::mem::size_of;
use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::hprintln;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::bodies::MassPoint2D;
use mbs_core::integrators::{RigidLoads, SecondOrderState};
use mbs_core::nodes::NodePoint2D;
use mbs_core::state::RigidState;
use mbs_core::system::{
    Connector, FirmwareSystem, Load, Marker, Node, NodeState, Object, ObjectIndex, Rotations,
    Sensor, System,
};
use mbs_core::Real;
use panic_semihosting as _;
use workload::{
    DoublePendulumSystem, MiniMassPoint, Outcome, SliderCrankRun, SliderCrankSystem,
    SpinningCylinder, CYLINDER_STEPS, SLIDER_CRANK_STEPS,
};

#[cfg(target_arch = "arm")]
const TARGET: &str = env!("MBS_TARGET");

/// Tolerances of the checks against the closed forms (see [`workload`]): the mini example's
/// position (m) and the cylinder's angular velocity (rad/s, order-2 discretization error of
/// 2.3e-5 at t = 1 s) and relative energy change.
const MINI_TOL_F64: f64 = 1e-12;
const MINI_TOL_F32: f64 = 1e-5;
const CYLINDER_TOL: f64 = 5e-5;
/// The slider-crank's deviation from its loop closure (m): the Newton tolerance's in f64, the
/// rounding of f32 coordinates near 1 m (a few 1e-7) in f32.
const SLIDER_CRANK_TOL_F64: f64 = 1e-9;
const SLIDER_CRANK_TOL_F32: f64 = 2e-6;
/// The 3D double pendulum's joint residual (m, -) in f32: its Newton tolerance's.
const DOUBLE_PENDULUM_TOL_F32: f64 = 1e-5;
/// The mechanisms (the slider-crank, the 3D double pendulum, the 6-DOF arm) run on the
/// Cortex-M4F: the Cortex-M0 board has 16 KiB of RAM, less than the slider-crank's f64 dense
/// solver needs, and the arm's run (its model and data, 4.5 KiB in f32, with the step's stack)
/// does not fit beside the other workloads there.
const SLIDER_CRANK: bool = cfg!(target_abi = "eabihf");

#[entry]
fn main() -> ! {
    let mut buf = [0u8; 64];
    let mode = semihost::cmdline(&mut buf);
    match mode {
        "count" => {
            count();
            semihost::exit(0);
        }
        "worst" if SLIDER_CRANK => {
            semihost::exit(u32::from(!worst::worst()));
        }
        "selftest-fail" => {
            let failures = check(
                "mini_masspoint",
                "f64",
                workload::mini_masspoint::<f64>(),
                -1.0,
            );
            semihost::exit(failures);
        }
        "selftest-fault" => {
            // SAFETY: deliberately faults; the HardFault handler ends the program.
            let v = unsafe { core::ptr::read_volatile(0xF000_0000usize as *const u32) };
            hprintln!("no fault: read {:#x}", v);
            semihost::exit(0);
        }
        _ => {}
    }
    hprintln!("mbs-firmware target={} mode=check", TARGET);
    let mut failures = 0u32;
    failures += check(
        "mini_masspoint",
        "f64",
        workload::mini_masspoint::<f64>(),
        MINI_TOL_F64,
    );
    failures += check(
        "mini_masspoint",
        "f32",
        workload::mini_masspoint::<f32>(),
        MINI_TOL_F32,
    );
    failures += check(
        "spinning_cylinder",
        "f64",
        workload::spinning_cylinder::<f64>(CYLINDER_STEPS),
        CYLINDER_TOL,
    );
    failures += check(
        "spinning_cylinder",
        "f32",
        workload::spinning_cylinder::<f32>(CYLINDER_STEPS),
        CYLINDER_TOL,
    );
    failures += arm_probes::check_run();
    if SLIDER_CRANK {
        failures += check(
            "slider_crank",
            "f64",
            workload::slider_crank::<f64>(SLIDER_CRANK_STEPS),
            SLIDER_CRANK_TOL_F64,
        );
        failures += check(
            "slider_crank",
            "f32",
            workload::slider_crank::<f32>(SLIDER_CRANK_STEPS),
            SLIDER_CRANK_TOL_F32,
        );
        failures += check(
            "slider_crank_system",
            "f32",
            workload::slider_crank_system::<f32>(SLIDER_CRANK_STEPS),
            SLIDER_CRANK_TOL_F32,
        );
        failures += check(
            "double_pendulum",
            "f32",
            workload::double_pendulum::<f32>(workload::DOUBLE_PENDULUM_STEPS),
            DOUBLE_PENDULUM_TOL_F32,
        );
        failures += check(
            "slider_crank_system_real_time",
            "f32",
            workload::slider_crank_system_real_time::<f32>(SLIDER_CRANK_STEPS, 1),
            SLIDER_CRANK_TOL_F32,
        );
        failures += check(
            "double_pendulum_real_time",
            "f32",
            workload::double_pendulum_real_time::<f32>(workload::DOUBLE_PENDULUM_STEPS, 1),
            DOUBLE_PENDULUM_TOL_F32,
        );
        failures += check(
            "double_pendulum_lie_real_time",
            "f32",
            workload::double_pendulum_lie_real_time::<f32>(workload::DOUBLE_PENDULUM_STEPS),
            DOUBLE_PENDULUM_TOL_F32,
        );
        failures += check(
            "double_pendulum_recording",
            "f32",
            workload::double_pendulum_recording::<f32>(workload::DOUBLE_PENDULUM_STEPS),
            0.0,
        );
    }
    hprintln!(
        "stack what=since_reset bytes={} region={}",
        probe::stack_bytes_since_reset(),
        probe::stack_region_bytes()
    );
    failures += stack();
    ram();
    hprintln!("done failures={}", failures);
    semihost::exit(failures);
}

/// Prints one workload's outcome and returns 1 if its error exceeds `tol`.
fn check(name: &str, ty: &str, o: Outcome, tol: f64) -> u32 {
    let ok = o.error <= tol; // false for NaN
    hprintln!(
        "result name={} type={} steps={} value={:e} value_bits={:#018x} hash={:#018x} error={:e} tol={:e} {}",
        name,
        ty,
        o.steps,
        o.value,
        o.value.to_bits(),
        o.hash,
        o.error,
        tol,
        if ok { "ok" } else { "FAIL" }
    );
    u32::from(!ok)
}

/// A prepared workload for the probes: built, and stepped once so the probed step starts
/// from a generic state (a failed step records itself in `ok`).
struct Prepared<S> {
    sim: S,
    ok: bool,
}

fn mini_step<T: Real>(p: &mut Prepared<MiniMassPoint<T>>) {
    p.ok &= p.sim.step().is_ok();
}

fn cylinder_step<T: Real>(p: &mut Prepared<SpinningCylinder<T>>) {
    p.ok &= p.sim.step().is_ok();
}

fn slider_crank_step<T: Real>(p: &mut Prepared<SliderCrankRun<T>>) {
    p.ok &= p.sim.step().is_ok();
}

/// The slider-crank with the crank at 1 rad turning at 5 rad/s, stepped once: the probed step
/// evaluates sines and cosines of general angles (not the tiny ones of the start from the
/// straight position) and makes a Newton update (from rest the predictor already meets the
/// f32 tolerance: no update, not a step of a running mechanism).
fn prepared_slider_crank<T: Real>() -> Option<Prepared<SliderCrankRun<T>>> {
    let mut p = Prepared {
        sim: SliderCrankRun::<T>::in_motion(1.0, 5.0).ok()?,
        ok: true,
    };
    slider_crank_step(&mut p);
    p.ok.then_some(p)
}

fn slider_crank_system_step<T: Real>(p: &mut Prepared<SliderCrankSystem<T>>) {
    p.ok &= p.sim.step().is_ok();
}

fn double_pendulum_step<T: Real>(p: &mut Prepared<DoublePendulumSystem<T>>) {
    p.ok &= p.sim.step().is_ok();
}

/// The 3D double pendulum at its start, stepped `n` times (the first computes the start); in
/// real-time mode with `k` Newton updates a step (0: off).
fn prepared_double_pendulum<T: Real>(k: u32, n: u32) -> Option<Prepared<DoublePendulumSystem<T>>> {
    let mut p = Prepared {
        sim: DoublePendulumSystem::<T>::new(k).ok()?,
        ok: true,
    };
    for _ in 0..n {
        double_pendulum_step(&mut p);
    }
    p.ok.then_some(p)
}

/// [`prepared_double_pendulum`] in real-time mode with one update a step, the links'
/// rotations on the Lie group.
fn prepared_double_pendulum_lie<T: Real>(n: u32) -> Option<Prepared<DoublePendulumSystem<T>>> {
    let mut p = Prepared {
        sim: DoublePendulumSystem::<T>::on(1, Rotations::LieGroup).ok()?,
        ok: true,
    };
    for _ in 0..n {
        double_pendulum_step(&mut p);
    }
    p.ok.then_some(p)
}

/// Steps before the probed step of each mechanism that iterating in f32 ends after two Newton
/// updates (step 108 of the slider-crank from rest, step 31 of the double pendulum).
const SLIDER_CRANK_TWO_UPDATES_AFTER: u32 = 107;
const DOUBLE_PENDULUM_TWO_UPDATES_AFTER: u32 = 30;

/// The system's slider-crank from rest, stepped `n` times; in real-time mode with `k` Newton
/// updates a step (0: off).
fn prepared_slider_crank_system_at<T: Real>(
    k: u32,
    n: u32,
) -> Option<Prepared<SliderCrankSystem<T>>> {
    let mut p = Prepared {
        sim: SliderCrankSystem::<T>::new(k).ok()?,
        ok: true,
    };
    for _ in 0..n {
        slider_crank_system_step(&mut p);
    }
    p.ok.then_some(p)
}

/// The system's slider-crank with the crank at 1 rad turning at 5 rad/s, stepped once (the
/// start computed), as [`prepared_slider_crank`]; in real-time mode with `k` Newton updates a
/// step (0: off).
fn prepared_slider_crank_system<T: Real>(k: u32) -> Option<Prepared<SliderCrankSystem<T>>> {
    let mut p = Prepared {
        sim: SliderCrankSystem::<T>::in_motion(1.0, 5.0, k).ok()?,
        ok: true,
    };
    slider_crank_system_step(&mut p);
    p.ok.then_some(p)
}

fn prepared_mini<T: Real>() -> Option<Prepared<MiniMassPoint<T>>> {
    let mut p = Prepared {
        sim: MiniMassPoint::<T>::new().ok()?,
        ok: true,
    };
    mini_step(&mut p);
    p.ok.then_some(p)
}

fn prepared_cylinder<T: Real>() -> Option<Prepared<SpinningCylinder<T>>> {
    let mut p = Prepared {
        sim: SpinningCylinder::<T>::new().ok()?,
        ok: true,
    };
    cylinder_step(&mut p);
    p.ok.then_some(p)
}

/// Prints the stack of one step of `S`; returns 1 if it could not be measured.
fn stack_line<S>(what: &str, ty: &str, p: Option<Prepared<S>>, step: fn(&mut Prepared<S>)) -> u32 {
    match p {
        Some(mut p) => {
            let bytes = probe::stack_bytes(step, &mut p);
            hprintln!(
                "stack what={} type={} bytes={} {}",
                what,
                ty,
                bytes,
                if p.ok { "ok" } else { "FAIL" }
            );
            u32::from(!p.ok)
        }
        None => {
            hprintln!("stack what={} type={} FAIL (setup)", what, ty);
            1
        }
    }
}

fn cylinder_setup<T: Real>(out: &mut Option<SpinningCylinder<T>>) {
    *out = SpinningCylinder::<T>::new().ok();
}

fn mini_setup<T: Real>(out: &mut Option<MiniMassPoint<T>>) {
    *out = MiniMassPoint::<T>::new().ok();
}

/// Prints the stack of building a workload (its body, integrator and initial state).
fn setup_line<S>(what: &str, ty: &str, f: fn(&mut Option<S>)) -> u32 {
    let mut out = None;
    let bytes = probe::stack_bytes(f, &mut out);
    let ok = out.is_some();
    hprintln!(
        "stack what={} type={} bytes={} {}",
        what,
        ty,
        bytes,
        if ok { "ok" } else { "FAIL" }
    );
    u32::from(!ok)
}

/// Stack of one step of each workload, and of building each.
fn stack() -> u32 {
    setup_line("mini_masspoint_setup", "f32", mini_setup::<f32>)
        + setup_line("mini_masspoint_setup", "f64", mini_setup::<f64>)
        + setup_line("cylinder_setup", "f32", cylinder_setup::<f32>)
        + setup_line("cylinder_setup", "f64", cylinder_setup::<f64>)
        + stack_steps()
}

/// Stack of one step of each workload.
fn stack_steps() -> u32 {
    stack_line(
        "mini_masspoint_step",
        "f32",
        prepared_mini::<f32>(),
        mini_step::<f32>,
    ) + stack_line(
        "mini_masspoint_step",
        "f64",
        prepared_mini::<f64>(),
        mini_step::<f64>,
    ) + stack_line(
        "cylinder_midpoint_step",
        "f32",
        prepared_cylinder::<f32>(),
        cylinder_step::<f32>,
    ) + stack_line(
        "cylinder_midpoint_step",
        "f64",
        prepared_cylinder::<f64>(),
        cylinder_step::<f64>,
    ) + arm_probes::stack_lines()
        + pendulum_tree_probes::stack_lines()
        + if SLIDER_CRANK {
            stack_line(
                "slider_crank_step",
                "f32",
                prepared_slider_crank::<f32>(),
                slider_crank_step::<f32>,
            ) + stack_line(
                "slider_crank_step",
                "f64",
                prepared_slider_crank::<f64>(),
                slider_crank_step::<f64>,
            ) + stack_line(
                "slider_crank_system_step",
                "f32",
                prepared_slider_crank_system::<f32>(0),
                slider_crank_system_step::<f32>,
            ) + stack_line(
                "double_pendulum_step",
                "f32",
                prepared_double_pendulum::<f32>(0, 1),
                double_pendulum_step::<f32>,
            ) + stack_line(
                "slider_crank_system_real_time_step",
                "f32",
                prepared_slider_crank_system_at::<f32>(1, SLIDER_CRANK_TWO_UPDATES_AFTER),
                slider_crank_system_step::<f32>,
            ) + stack_line(
                "double_pendulum_real_time_step",
                "f32",
                prepared_double_pendulum::<f32>(1, DOUBLE_PENDULUM_TWO_UPDATES_AFTER),
                double_pendulum_step::<f32>,
            ) + stack_line(
                "double_pendulum_lie_real_time_step",
                "f32",
                prepared_double_pendulum_lie::<f32>(DOUBLE_PENDULUM_TWO_UPDATES_AFTER),
                double_pendulum_step::<f32>,
            )
        } else {
            0
        }
}

/// RAM of the state and model types (bytes, this target's layout).
fn ram() {
    fn line<X>(what: &str, ty: &str) {
        hprintln!("ram what={} type={} bytes={}", what, ty, size_of::<X>());
    }
    line::<RigidState<f32>>("RigidState", "f32");
    line::<RigidState<f64>>("RigidState", "f64");
    line::<RigidBody<f32>>("RigidBody", "f32");
    line::<RigidBody<f64>>("RigidBody", "f64");
    line::<RigidLoads<f32>>("RigidLoads", "f32");
    line::<RigidLoads<f64>>("RigidLoads", "f64");
    line::<SpinningCylinder<f32>>("rigid_body_system(body+loads+step+state)", "f32");
    line::<SpinningCylinder<f64>>("rigid_body_system(body+loads+step+state)", "f64");
    line::<SecondOrderState<f32, 2>>("MassPoint2D_state(q,q_t,q_tt,a)", "f32");
    line::<SecondOrderState<f64, 2>>("MassPoint2D_state(q,q_t,q_tt,a)", "f64");
    line::<NodePoint2D<f32>>("NodePoint2D", "f32");
    line::<NodePoint2D<f64>>("NodePoint2D", "f64");
    line::<MassPoint2D<f32>>("MassPoint2D", "f32");
    line::<MassPoint2D<f64>>("MassPoint2D", "f64");
    line::<MiniMassPoint<f32>>("mass_point_system(node+body+integrator+state)", "f32");
    line::<MiniMassPoint<f64>>("mass_point_system(node+body+integrator+state)", "f64");
    system_ram::<f32>("f32");
    system_ram::<f64>("f64");
    arm_probes::ram();
}

/// RAM of a core `System` on the target: what one slot of each capacity costs (a node slot
/// holds the node, its state and its body link), the system without any slot, and the
/// firmware-sized `FirmwareSystem` (8 nodes and objects, 16 markers and loads, 8 connectors
/// and sensors).
fn system_ram<T: Real>(ty: &str) {
    fn line(what: &str, ty: &str, bytes: usize) {
        hprintln!("ram what={} type={} bytes={}", what, ty, bytes);
    }
    let node = size_of::<Node<T>>() + size_of::<NodeState<T>>() + size_of::<Option<ObjectIndex>>();
    line("system_slot_node(node+state+body_link)", ty, node);
    line("system_slot_object", ty, size_of::<Object<T>>());
    line("system_slot_marker", ty, size_of::<Marker<T>>());
    line("system_slot_load", ty, size_of::<Load<T>>());
    line("system_slot_connector", ty, size_of::<Connector<T>>());
    line("system_slot_sensor", ty, size_of::<Sensor<T>>());
    line(
        "system_without_slots",
        ty,
        size_of::<System<T, 0, 0, 0, 0, 0, 0>>(),
    );
    line(
        "FirmwareSystem(8,8,16,16,8,8)",
        ty,
        size_of::<FirmwareSystem<T>>(),
    );
    line(
        "system_tree_capacity_8_links",
        ty,
        size_of::<System<T, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8>>()
            - size_of::<System<T, 0, 0, 0, 0, 0, 0>>(),
    );
    line(
        "FirmwareConstrainedSystem(8,8,16,16,8,8,K=8,W=24)",
        ty,
        size_of::<mbs_core::system::FirmwareConstrainedSystem<T>>(),
    );
    line(
        "DoublePendulumSys(2,3,6,2,1,1,K=2,W=26)",
        ty,
        size_of::<workload::DoublePendulumSys<T>>(),
    );
}

/// Counts one `step` of a prepared workload (exits on a failed setup); `true` if the step
/// succeeded and `made` accepts the Newton updates it made.
fn counted_with_updates<S>(
    prepared: Option<Prepared<S>>,
    step: fn(&mut Prepared<S>),
    made: impl Fn(&S) -> bool,
) -> bool {
    let Some(mut p) = prepared else {
        hprintln!("count FAIL (setup)");
        semihost::exit(1);
    };
    probe::counted(step, &mut p);
    p.ok && made(&p.sim)
}

/// One step of each workload between the count markers; the order is printed first.
fn count() {
    hprintln!(
        "count order=empty,mini_masspoint_step/f32,mini_masspoint_step/f64,cylinder_midpoint_step/f32,cylinder_midpoint_step/f64{}",
        if SLIDER_CRANK {
            ",slider_crank_step/f32,slider_crank_step/f64,slider_crank_system_step/f32,double_pendulum_step/f32,arm_aba/f32,arm_rnea/f32,arm_euler_step/f32,double_pendulum_tree_rk4/f32,double_pendulum_tree_euler/f32,slider_crank_system_two_updates_step/f32,slider_crank_system_real_time_2_step/f32,slider_crank_system_real_time_step/f32,double_pendulum_two_updates_step/f32,double_pendulum_real_time_2_step/f32,double_pendulum_real_time_step/f32,double_pendulum_lie_real_time_step/f32"
        } else {
            ""
        }
    );
    let m32 = prepared_mini::<f32>();
    let m64 = prepared_mini::<f64>();
    let c32 = prepared_cylinder::<f32>();
    let c64 = prepared_cylinder::<f64>();
    let (Some(mut m32), Some(mut m64), Some(mut c32), Some(mut c64)) = (m32, m64, c32, c64) else {
        hprintln!("count FAIL (setup)");
        semihost::exit(1);
    };
    probe::counted_empty();
    probe::counted(mini_step::<f32>, &mut m32);
    probe::counted(mini_step::<f64>, &mut m64);
    probe::counted(cylinder_step::<f32>, &mut c32);
    probe::counted(cylinder_step::<f64>, &mut c64);
    let mut ok = m32.ok && m64.ok && c32.ok && c64.ok;
    if SLIDER_CRANK {
        let (Some(mut s32), Some(mut s64)) = (
            prepared_slider_crank::<f32>(),
            prepared_slider_crank::<f64>(),
        ) else {
            hprintln!("count FAIL (setup)");
            semihost::exit(1);
        };
        probe::counted(slider_crank_step::<f32>, &mut s32);
        probe::counted(slider_crank_step::<f64>, &mut s64);
        ok &= s32.ok && s64.ok;
        let Some(mut y32) = prepared_slider_crank_system::<f32>(0) else {
            hprintln!("count FAIL (setup)");
            semihost::exit(1);
        };
        probe::counted(slider_crank_system_step::<f32>, &mut y32);
        ok &= y32.ok;
        let Some(mut d32) = prepared_double_pendulum::<f32>(0, 1) else {
            hprintln!("count FAIL (setup)");
            semihost::exit(1);
        };
        probe::counted(double_pendulum_step::<f32>, &mut d32);
        ok &= d32.ok;
        ok &= arm_probes::counted();
        ok &= pendulum_tree_probes::counted();
        // A step that iterating ends after two updates (three evaluations), and the same step
        // in real-time mode with two and with one update (the iterate after the last one not
        // evaluated): the bounded steps. Each checks the updates it made.
        for (k, updates) in [(0, 2), (2, 2), (1, 1)] {
            ok &= counted_with_updates(
                prepared_slider_crank_system_at::<f32>(k, SLIDER_CRANK_TWO_UPDATES_AFTER),
                slider_crank_system_step::<f32>,
                |s| s.updates() == updates,
            );
        }
        for (k, updates) in [(0, 2), (2, 2), (1, 1)] {
            ok &= counted_with_updates(
                prepared_double_pendulum::<f32>(k, DOUBLE_PENDULUM_TWO_UPDATES_AFTER),
                double_pendulum_step::<f32>,
                |s| s.updates() == updates,
            );
        }
        // The same step with the rotations on the Lie group, in real-time mode.
        ok &= counted_with_updates(
            prepared_double_pendulum_lie::<f32>(DOUBLE_PENDULUM_TWO_UPDATES_AFTER),
            double_pendulum_step::<f32>,
            |s| s.updates() == 1,
        );
    }
    if !ok {
        hprintln!("count FAIL (a step failed)");
        semihost::exit(1);
    }
}

#[exception]
unsafe fn HardFault(ef: &ExceptionFrame) -> ! {
    hprintln!("HARDFAULT pc={:#010x}", ef.pc());
    semihost::exit(101);
}

#[exception]
unsafe fn DefaultHandler(irqn: i16) {
    hprintln!("UNEXPECTED exception irqn={}", irqn);
    semihost::exit(102);
}
