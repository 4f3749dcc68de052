//! Runs every C/C++ example (compiled into `mbs-example` by build.rs) and checks what it prints.

use std::process::Command;

fn run(name: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mbs-example"))
        .arg(name)
        .output()
        .expect("mbs-example runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "example {name} failed: {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn version_example_prints_the_crate_version() {
    let s = run("version");
    assert!(
        s.contains(&format!("mbs version {}", env!("CARGO_PKG_VERSION"))),
        "{s}"
    );
    assert!(s.contains("status 100: null pointer argument"), "{s}");
}
