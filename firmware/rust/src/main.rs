//! mbs on bare metal: a pure Rust firmware (cortex-m-rt) that runs the workloads of
//! [`workload`] under QEMU, prints every result through semihosting and exits with the number
//! of failed checks as QEMU's exit status (0 = all passed).
//!
//! Modes, chosen by the semihosting command line (`-semihosting-config ...,arg=MODE`):
//! - none: run every workload, check it against its closed form, print hashes, stack and RAM;
//! - `count`: run one step of each workload between the marker functions
//!   [`probe::mbs_count_begin`]/[`probe::mbs_count_end`] and exit, for instruction counting
//!   from QEMU's exec log (`scripts/embedded-figures.sh`);
//! - `selftest-fail`: check one workload against an impossible tolerance: must exit with 1
//!   (proves that a wrong result reaches QEMU's exit status);
//! - `selftest-fault`: read an unmapped address: the HardFault handler must exit with 101
//!   (proves that a fault ends QEMU instead of hanging it).
//!
//! Lines are `key=value` words, parsed by `tests/firmware_qemu.rs`.
#![no_std]
#![no_main]

mod probe;
mod semihost;
mod workload;

use cortex_m_rt::{entry, exception, ExceptionFrame};
use cortex_m_semihosting::hprintln;
use mbs_core::math::Quaternion;
use nalgebra::Vector3;
use panic_semihosting as _;
use workload::Outcome;

/// Steps of every workload (the determinism test hashes all of them).
const STEPS: u32 = 1000;

#[cfg(target_arch = "arm")]
const TARGET: &str = if cfg!(target_abi = "eabihf") {
    "thumbv7em-none-eabihf"
} else {
    "thumbv6m-none-eabi"
};

#[entry]
fn main() -> ! {
    let mut buf = [0u8; 64];
    let mode = semihost::cmdline(&mut buf);
    match mode {
        "count" => {
            count();
            semihost::exit(0);
        }
        "selftest-fail" => {
            let failures = check("quat_spin", "f64", workload::quat_spin::<f64>(STEPS), -1.0);
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
    failures += check("quat_spin", "f64", workload::quat_spin::<f64>(STEPS), 1e-12);
    failures += check("quat_spin", "f32", workload::quat_spin::<f32>(STEPS), 2e-4);
    hprintln!(
        "stack what=since_reset bytes={}",
        probe::stack_bytes_since_reset()
    );
    stack();
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
        STEPS,
        o.value,
        o.value.to_bits(),
        o.hash,
        o.error,
        tol,
        if ok { "ok" } else { "FAIL" }
    );
    u32::from(!ok)
}

/// State of the placeholder step: an orientation and a fixed rotation increment `w dt` (rad).
struct Spin<T> {
    q: Quaternion<T>,
    w_dt: Vector3<T>,
}

impl<T: mbs_core::Real> Spin<T> {
    fn new() -> Self {
        Self {
            q: Quaternion::identity(),
            w_dt: Vector3::new(T::c(0.3e-3), T::c(-1.2e-3), T::c(2.0e-3)),
        }
    }
}

fn spin_step<T: mbs_core::Real>(s: &mut Spin<T>) {
    workload::quat_spin_step(&mut s.q, &s.w_dt);
}

/// Stack of one step of each workload.
fn stack() {
    let mut s32 = Spin::<f32>::new();
    let mut s64 = Spin::<f64>::new();
    hprintln!(
        "stack what=quat_spin_step type=f32 bytes={}",
        probe::stack_bytes(spin_step::<f32>, &mut s32)
    );
    hprintln!(
        "stack what=quat_spin_step type=f64 bytes={}",
        probe::stack_bytes(spin_step::<f64>, &mut s64)
    );
}

/// RAM of the state types (bytes, this target's layout).
fn ram() {
    hprintln!(
        "ram what=Quaternion type=f32 bytes={} what=Quaternion type=f64 bytes={}",
        core::mem::size_of::<Quaternion<f32>>(),
        core::mem::size_of::<Quaternion<f64>>()
    );
}

/// One step of each workload between the count markers; the order is printed first.
fn count() {
    hprintln!("count order=empty,quat_spin_step/f32,quat_spin_step/f64");
    let mut s32 = Spin::<f32>::new();
    let mut s64 = Spin::<f64>::new();
    // A step first, so the counted one starts from a generic state.
    spin_step(&mut s32);
    spin_step(&mut s64);
    probe::counted_empty();
    probe::counted(spin_step::<f32>, &mut s32);
    probe::counted(spin_step::<f64>, &mut s64);
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
