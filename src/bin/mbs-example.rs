//! Runs one of the C/C++ examples of `c_examples/` (compiled in by `build.rs` against the ffi
//! rlib): `mbs-example <name>`; with no name, lists them.

use std::process::ExitCode;

// Keep the ffi crate (and so every `mbs_*` symbol the C code calls) in the link.
use mbs as _;

include!(concat!(env!("OUT_DIR"), "/examples.rs"));

fn main() -> ExitCode {
    let Some(name) = std::env::args().nth(1) else {
        for (name, _) in EXAMPLES {
            println!("{name}");
        }
        return ExitCode::SUCCESS;
    };
    match EXAMPLES.iter().find(|(n, _)| *n == name) {
        // SAFETY: each entry is a C `int main(void)` compiled by build.rs.
        Some((_, entry)) => ExitCode::from(unsafe { entry() }.clamp(0, 255) as u8),
        None => {
            eprintln!(
                "unknown example {name}; known: {:?}",
                EXAMPLES.iter().map(|e| e.0).collect::<Vec<_>>()
            );
            ExitCode::from(2)
        }
    }
}
