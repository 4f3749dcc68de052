//! Puts the memory map of the target's QEMU machine on the linker's search path as `memory.x`
//! (cortex-m-rt's `link.x` includes it): `mps2-an386` for the Cortex-M4F (thumbv7em), `microbit`
//! for the Cortex-M0 (thumbv6m), `mps2-an505` for the Cortex-M33 (thumbv8m.main). Passes `-Tlink.x` for the binary only: as a `rustflags`
//! entry in `.cargo/config.toml` it would change the flags of every dependency too, and the
//! nested builds of `tests/firmware_qemu.rs` could no longer share them with libmbs.a's.

use std::path::PathBuf;

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let src = if target.starts_with("thumbv6m") {
        "memory-microbit.x"
    } else if target.starts_with("thumbv8m") {
        "memory-an505.x"
    } else {
        "memory-an386.x"
    };
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = std::fs::read(src).expect("memory map file exists");
    std::fs::write(out.join("memory.x"), text).expect("OUT_DIR is writable");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-env=MBS_TARGET={target}");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rerun-if-changed={src}");
    println!("cargo:rerun-if-changed=build.rs");
}
