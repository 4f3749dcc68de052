//! Regenerates `include/mbs.h` from this crate's sources with cbindgen.
//!
//! The header is checked in; CI runs this and fails on a diff. Set `MBS_SKIP_CBINDGEN=1` to
//! skip (e.g. when cross-building from a read-only tree).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-env-changed=MBS_SKIP_CBINDGEN");
    // libmbs.so's SONAME: major.minor while the major is 0 (a 0.x minor release may change the
    // ABI, README "Versions and ABI"), the major alone from 1.0 on (the ELF targets only).
    let target = std::env::var("TARGET").unwrap_or_default();
    if target.contains("linux") || target.contains("bsd") {
        let (major, minor) = (
            std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default(),
            std::env::var("CARGO_PKG_VERSION_MINOR").unwrap_or_default(),
        );
        let soname = if major == "0" {
            format!("libmbs.so.0.{minor}")
        } else {
            format!("libmbs.so.{major}")
        };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
    if std::env::var_os("MBS_SKIP_CBINDGEN").is_some() {
        return;
    }
    let crate_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = crate_dir.join("..").join("include").join("mbs.h");
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml is valid");
    // The header's version macros, from the crate version (mbs_version() returns the
    // library's: a program compares the two to catch a header of another release).
    let v = |k: &str| std::env::var(k).expect("cargo sets CARGO_PKG_VERSION_*");
    config.after_includes = Some(format!(
        "\n/* The version of this header; mbs_version() returns the linked library's. */\n\
         #define MBS_VERSION_MAJOR {}\n#define MBS_VERSION_MINOR {}\n#define MBS_VERSION_PATCH {}\n\
         #define MBS_VERSION_STRING \"{}\"\n",
        v("CARGO_PKG_VERSION_MAJOR"),
        v("CARGO_PKG_VERSION_MINOR"),
        v("CARGO_PKG_VERSION_PATCH"),
        v("CARGO_PKG_VERSION"),
    ));
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not parse ffi/src");
    // Write only when the text changed, so an unchanged header keeps its mtime.
    let mut text = Vec::new();
    bindings.write(&mut text);
    if std::fs::read(&out).ok().as_deref() != Some(text.as_slice()) {
        std::fs::write(&out, &text).expect("include/mbs.h is writable");
    }
}
