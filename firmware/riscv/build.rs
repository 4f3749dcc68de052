//! Puts `memory.x` (QEMU virt's RAM) on the linker's search path and passes it before
//! riscv-rt's `link.x`, for the binary only.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = std::fs::read("memory.x").expect("memory.x exists");
    std::fs::write(out.join("memory.x"), text).expect("OUT_DIR is writable");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tmemory.x");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
}
