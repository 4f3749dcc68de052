//! The Rust firmware's hashed workloads (`firmware/rust/src/workload.rs`) as a hosted program:
//! for each workload named on the command line as `name/ty`, one line `name ty hash
//! value_bits` (hex): the trajectory hash and final value that `tests/firmware_qemu.rs`
//! compares with x86_64's. Built for
//! aarch64 Linux and wasm32-wasip1, whose std the firmware's bare-metal crate cannot use.

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

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut code = ExitCode::SUCCESS;
    for arg in std::env::args().skip(1) {
        let Some((name, ty)) = arg.split_once('/') else {
            eprintln!("not name/ty: {arg}");
            code = ExitCode::FAILURE;
            continue;
        };
        match workload::run(name, ty) {
            Some(o) => println!("{name} {ty} {:#018x} {:#018x}", o.hash, o.value.to_bits()),
            None => {
                eprintln!("unknown workload {name}/{ty}");
                code = ExitCode::FAILURE;
            }
        }
    }
    code
}
