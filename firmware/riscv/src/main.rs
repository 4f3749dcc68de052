//! The Rust firmware's hashed workloads (`firmware/rust/src/workload.rs`) on a 32-bit RISC-V
//! core with a single-precision FPU (`riscv32imafc`: f32 in the FPU, f64 in software), under
//! QEMU's `virt` machine: one line `name ty hash value_bits` (hex) per workload of
//! [`workload::HASHED`], then the exit status (0: every workload ran). `tests/firmware_qemu.rs`
//! compares the lines with x86_64's.
#![no_std]
#![no_main]

#[path = "../../rust/src/arm.rs"]
#[allow(dead_code)]
mod arm;
#[path = "../../rust/src/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../../rust/src/slider_crank.rs"]
#[allow(dead_code)]
mod slider_crank;
#[path = "../../rust/src/workload.rs"]
#[allow(dead_code)]
mod workload;

use core::panic::PanicInfo;
use riscv_semihosting::{debug, hprintln};

#[riscv_rt::entry]
fn main() -> ! {
    let mut ok = true;
    for (name, ty) in workload::HASHED {
        match workload::run(name, ty) {
            Some(o) => hprintln!(
                "{} {} {:#018x} {:#018x}",
                name,
                ty,
                o.hash,
                o.value.to_bits()
            ),
            None => {
                hprintln!("{} {} unknown", name, ty);
                ok = false;
            }
        }
    }
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {}
}

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    hprintln!("panic: {}", info);
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
