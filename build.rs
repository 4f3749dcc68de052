//! Compiles every C/C++ example in `c_examples/` into this package, renaming each `main` to
//! `mbs_example_<name>_main`, so `cargo test` runs the real C programs against the ffi rlib
//! (the same code as `libmbs.a`). `src/bin/mbs-example.rs` dispatches to them by name.
//! `c_tests/*.c` (C tests of the API's refusals) are compiled the same way.
//!
//! The examples also build standalone against `libmbs.a`: `make -C c_examples`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=c_examples");
    println!("cargo:rerun-if-changed=c_tests");
    println!("cargo:rerun-if-changed=include/mbs.h");
    let mut c_files = Vec::new();
    let mut cpp_files = Vec::new();
    let mut entries: Vec<_> = ["c_examples", "c_tests"]
        .iter()
        .filter_map(|d| std::fs::read_dir(root.join(d)).ok())
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        match path.extension().and_then(|e| e.to_str()) {
            Some("c") => c_files.push(path),
            Some("cpp") => cpp_files.push(path),
            _ => {}
        }
    }
    let mut table = String::from("/// (name, entry) of every C/C++ example.\npub static EXAMPLES: &[(&str, unsafe extern \"C\" fn() -> core::ffi::c_int)] = &[\n");
    let mut decls = String::from("unsafe extern \"C\" {\n");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut compile = |files: &[PathBuf], cpp: bool, lib: &str| {
        if files.is_empty() {
            return;
        }
        for f in files {
            let name = stem(f);
            let sym = format!("mbs_example_{name}_main");
            let mut b = cc::Build::new();
            if cpp {
                // A C++ `main` renamed by the macro would get C++ linkage (a mangled name);
                // declared `extern "C"` first, its definition keeps C linkage.
                let decl = out_dir.join(format!("{sym}.h"));
                std::fs::write(&decl, format!("extern \"C\" int {sym}();\n"))
                    .expect("OUT_DIR is writable");
                b.flag("-include")
                    .flag(decl.to_str().expect("OUT_DIR is UTF-8"));
            }
            b.cpp(cpp)
                .include(root.join("include"))
                .warnings(true)
                .extra_warnings(true)
                .warnings_into_errors(true)
                .flag("-pedantic")
                .flag(if cpp { "-std=c++17" } else { "-std=c11" })
                .define("main", sym.as_str())
                .file(f);
            b.compile(&format!("{lib}_{name}"));
            writeln!(decls, "    fn {sym}() -> core::ffi::c_int;").ok();
            writeln!(table, "    (\"{name}\", {sym}),").ok();
        }
    };
    compile(&c_files, false, "mbs_c_example");
    compile(&cpp_files, true, "mbs_cpp_example");
    decls.push_str("}\n");
    table.push_str("];\n");
    let out = out_dir.join("examples.rs");
    std::fs::write(out, decls + &table).expect("OUT_DIR is writable");
}

fn stem(p: &Path) -> String {
    p.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("example")
        .replace('-', "_")
}
