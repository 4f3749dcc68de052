//! The firmware under QEMU: builds the C firmware (`c_examples/firmware`, linked against
//! `libmbs.a` for the target) and the pure Rust firmware (`firmware/rust`), runs each on an
//! emulated Cortex-M4F (`mps2-an386`) and Cortex-M0 (`microbit`), and checks exit status and
//! printed values; and compares the firmware's trajectory hashes with the same workloads
//! stepped here on the host, bit for bit.
//!
//! Needs `arm-none-eabi-gcc` and `qemu-system-arm` (`scripts/setup.sh` installs them). Without
//! them the tests FAIL when `CI` is set or `MBS_REQUIRE_QEMU=1`, and are skipped (loudly)
//! otherwise. The nested cargo builds use their own target dir, `target/firmware`, so they
//! never wait on the outer cargo's lock.

#[path = "../firmware/rust/src/arm.rs"]
#[allow(dead_code)]
mod arm;
#[path = "../firmware/rust/src/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../firmware/rust/src/slider_crank.rs"]
#[allow(dead_code)]
mod slider_crank;
#[path = "../firmware/rust/src/workload.rs"]
#[allow(dead_code)] // the firmware uses all of it; this test only the hashed workloads
mod workload;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const M4F: &str = "thumbv7em-none-eabihf";
const M0: &str = "thumbv6m-none-eabi";
/// The Cortex-M33 (Armv8-M mainline, single-precision FPU; QEMU's `mps2-an505`): the Rust
/// firmware only, for the trajectory hashes.
const M33: &str = "thumbv8m.main-none-eabihf";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn firmware_target_dir() -> PathBuf {
    root().join("target").join("firmware")
}

/// `true` if the cross tools are there; if not, panics when they are required (CI) and
/// otherwise prints why the test is skipped.
fn tools_or_skip(test: &str) -> bool {
    let have = |cmd: &str| {
        Command::new(cmd)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    let missing: Vec<&str> = [
        "arm-none-eabi-gcc",
        "arm-none-eabi-nm",
        "arm-none-eabi-objdump",
        "qemu-system-arm",
        "make",
    ]
    .into_iter()
    .filter(|c| !have(c))
    .collect();
    if missing.is_empty() {
        return true;
    }
    let required = std::env::var_os("CI").is_some_and(|v| !v.is_empty())
        || std::env::var("MBS_REQUIRE_QEMU").as_deref() == Ok("1");
    assert!(
        !required,
        "{test}: {missing:?} not found, and CI / MBS_REQUIRE_QEMU=1 require the firmware \
         tests: run scripts/setup.sh"
    );
    eprintln!(
        "\n*** SKIPPED {test}: {missing:?} not found (run scripts/setup.sh; set \
         MBS_REQUIRE_QEMU=1 to make this a failure) ***\n"
    );
    false
}

/// A command with the outer cargo's build settings removed (they would override the
/// firmware's own `.cargo/config.toml`, e.g. its `-Tlink.x`).
fn clean_cmd(program: &str) -> Command {
    let mut c = Command::new(program);
    for v in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        // cargo-llvm-cov instruments through a rustc wrapper: not the firmware's builds.
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_BUILD_TARGET",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
    ] {
        c.env_remove(v);
    }
    c.env("CARGO_TARGET_DIR", firmware_target_dir());
    c
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn run_checked(mut c: Command, what: &str) -> Result<Output, String> {
    let out = c
        .output()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!(
            "{what} failed ({:?})\nstdout:\n{}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Builds everything once per test process, both targets in one cargo invocation each (the
/// two targets' dependencies compile in parallel, and the Rust firmware reuses the ones
/// libmbs.a's build compiled): libmbs.a, the Rust firmware, the C firmware.
fn build_all() {
    static BUILT: OnceLock<Result<(), String>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        let mut ffi = clean_cmd(&cargo());
        ffi.current_dir(root())
            .env("MBS_SKIP_CBINDGEN", "1")
            .args(["build", "--quiet", "--release", "-p", "mbs-ffi"])
            .args(["--target", M4F, "--target", M0]);
        run_checked(ffi, "cargo build -p mbs-ffi (libmbs.a)")?;
        let mut fw = clean_cmd(&cargo());
        // cargo reads .cargo/config.toml from the working directory: run it in the crate.
        fw.current_dir(root().join("firmware").join("rust"))
            .args(["build", "--quiet", "--release", "--locked"])
            .args(["--target", M4F, "--target", M0, "--target", M33]);
        run_checked(fw, "cargo build (firmware/rust)")?;
        for target in [M4F, M0] {
            let mut c = clean_cmd("make");
            c.current_dir(root())
                .args(["-s", "-C", "c_examples/firmware"])
                .arg(format!("TARGET={target}"))
                .arg(format!("CARGO={}", cargo()));
            run_checked(c, &format!("make -C c_examples/firmware TARGET={target}"))?;
        }
        Ok(())
    });
    if let Err(e) = built {
        panic!("{e}");
    }
}

/// The Rust firmware ELF for `target`.
fn rust_firmware(target: &str) -> PathBuf {
    build_all();
    firmware_target_dir()
        .join(target)
        .join("release")
        .join("mbs-firmware")
}

/// The C firmware ELF for `target`.
fn c_firmware(target: &str) -> PathBuf {
    build_all();
    firmware_target_dir()
        .join(format!("c-{target}"))
        .join("fw.elf")
}

/// The lean C firmware ELF (c_examples/firmware/loop.c) for `target`, and its linker map.
fn c_loop_firmware(target: &str) -> (PathBuf, PathBuf) {
    build_all();
    let dir = firmware_target_dir().join(format!("c-{target}"));
    (dir.join("loop.elf"), dir.join("loop.map"))
}

/// Bytes of flash-resident input sections (`.text`, `.ARM.exidx`, `.data`'s load image) in a
/// GNU ld map that come from libmbs.a, compiler_builtins excluded: the "mbs code" of
/// docs/embedded.md (the same sum as scripts/embedded-figures.sh's `map_flash`).
fn mbs_code_bytes(map: &Path) -> u64 {
    let text = std::fs::read_to_string(map).expect("linker map");
    let body = text
        .split_once("Linker script and memory map")
        .expect("a GNU ld map")
        .1;
    let (mut out, mut pending, mut total) = (String::new(), false, 0u64);
    let mut add = |out: &str, size: &str, file: &str| {
        if [".text", ".ARM.exidx", ".data"].contains(&out)
            && file.contains("libmbs.a(")
            && !file.contains("compiler_builtins")
        {
            total += u64::from_str_radix(size.trim_start_matches("0x"), 16).expect("hex size");
        }
    };
    for line in body.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if line.starts_with('.') {
            out = f[0].to_string();
            pending = false;
        } else if line.starts_with(' ') && !line.starts_with("  ") && f.len() == 1 {
            pending = true; // a long section name; its address and size follow on the next line
        } else if line.starts_with(' ') && !line.starts_with("  ") && f.len() >= 4 {
            if f[1].starts_with("0x") && f[2].starts_with("0x") {
                add(&out, f[2], f[3]);
            }
            pending = false;
        } else if pending && f.len() == 3 && f[0].starts_with("0x") && f[1].starts_with("0x") {
            add(&out, f[1], f[2]);
            pending = false;
        }
    }
    total
}

/// What one QEMU run printed and how it ended.
struct Run {
    code: Option<i32>,
    text: String,
}

impl Run {
    /// The `key=value` words of every line whose first word is `kind`.
    fn lines(&self, kind: &str) -> Vec<HashMap<String, String>> {
        self.text
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(kind))
            .map(|l| {
                l.split_whitespace()
                    .filter_map(|w| w.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            })
            .collect()
    }

    /// The `result` line of workload `name` in scalar type `ty`.
    fn result(&self, name: &str, ty: &str) -> HashMap<String, String> {
        let found: Vec<_> = self
            .lines("result")
            .into_iter()
            .filter(|m| m.get("name").map(String::as_str) == Some(name))
            .filter(|m| m.get("type").map(String::as_str) == Some(ty))
            .collect();
        assert_eq!(found.len(), 1, "one result {name}/{ty} in:\n{}", self.text);
        found.into_iter().next().unwrap_or_default()
    }
}

/// Runs `elf` under QEMU for `target`'s machine with semihosting command line `mode`.
fn qemu(target: &str, elf: &Path, mode: Option<&str>) -> Run {
    let machine: &[&str] = match target {
        M4F => &["-M", "mps2-an386", "-cpu", "cortex-m4"],
        M33 => &["-M", "mps2-an505", "-cpu", "cortex-m33"],
        _ => &["-M", "microbit"],
    };
    let mut semi = String::from("enable=on,target=native");
    if let Some(m) = mode {
        semi.push_str(",arg=");
        semi.push_str(m);
    }
    let out = Command::new("timeout")
        .arg("60")
        .arg("qemu-system-arm")
        .args(machine)
        .arg("-nographic")
        .args(["-semihosting-config", &semi, "-kernel"])
        .arg(elf)
        .output()
        .expect("timeout/qemu-system-arm start");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(
        out.status.code(),
        Some(124),
        "QEMU timed out (a hang):\n{text}"
    );
    Run {
        code: out.status.code(),
        text,
    }
}

fn hex(v: &str) -> u64 {
    u64::from_str_radix(v.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("hex {v}"))
}

/// A passing run: exit status 0 and `done failures=0`.
fn assert_passed(run: &Run, what: &str) {
    assert_eq!(run.code, Some(0), "{what} exit status:\n{}", run.text);
    let done = run.lines("done");
    assert_eq!(done.len(), 1, "{what}: one done line:\n{}", run.text);
    assert_eq!(
        done[0].get("failures").map(String::as_str),
        Some("0"),
        "{}",
        run.text
    );
}

/// Every stack figure is printed and positive (a probed call uses stack), the whole run stayed
/// within the painted stack region (else the figures are not measurements), one step (a
/// `*_step` line; setups build bodies and may use more) uses less than 4 KiB, and on the
/// Cortex-M4F one f32 step is within the budget of
/// 1 KiB (deterministic, so a regression guard; the f64 and soft-float Cortex-M0 figures are
/// reported in docs/embedded.md, not bounded).
fn assert_stack(run: &Run, target: &str, min_lines: usize, f32_step_bound: usize) {
    let stacks = run.lines("stack");
    assert!(stacks.len() >= min_lines, "stack lines:\n{}", run.text);
    for s in stacks {
        let bytes: usize = s["bytes"].parse().expect("stack bytes");
        assert!(bytes > 0, "{s:?}");
        if s["what"] == "since_reset" {
            let region: usize = s["region"].parse().expect("stack region");
            assert!(
                bytes < region,
                "the stack overflowed its painted region: {s:?}"
            );
            continue;
        }
        if !s["what"].ends_with("_step") {
            continue;
        }
        // A system's step holds working copies of its node states and generalized forces
        // (docs/embedded.md): its own bound.
        let system = s["what"].starts_with("slider_crank_system")
            || s["what"].starts_with("double_pendulum");
        assert!(bytes < if system { 8192 } else { 4096 }, "{s:?}");
        if target == M4F && s.get("type").map(String::as_str) == Some("f32") {
            // The constrained step of a mechanism (the slider-crank) and the 6-DOF arm's calls
            // have their own goal, 2 KiB; the systems' steps (goal 2 KiB, both met in the dist
            // build docs/embedded.md reports) are held near what this release build measures,
            // a regression guard.
            let bound = if system {
                2304
            } else if s["what"].starts_with("slider_crank") || s["what"].starts_with("arm_") {
                2048
            } else {
                f32_step_bound
            };
            assert!(
                bytes <= bound,
                "one f32 step within {bound} B of stack: {s:?}"
            );
        }
    }
}

/// The workloads of firmware/rust/src/workload.rs with their steps and tolerances (the
/// firmware prints its own tolerance; this test checks it is the one stated here).
const WORKLOADS: [(&str, &str, u32, f64); 13] = [
    ("mini_masspoint", "f64", 100, 1e-12),
    ("arm", "f32", workload::ARM_STEPS, 1e-4),
    ("mini_masspoint", "f32", 100, 1e-5),
    ("spinning_cylinder", "f64", workload::CYLINDER_STEPS, 5e-5),
    ("spinning_cylinder", "f32", workload::CYLINDER_STEPS, 5e-5),
    ("slider_crank", "f64", workload::SLIDER_CRANK_STEPS, 1e-9),
    ("slider_crank", "f32", workload::SLIDER_CRANK_STEPS, 2e-6),
    (
        "slider_crank_system",
        "f32",
        workload::SLIDER_CRANK_STEPS,
        2e-6,
    ),
    (
        "double_pendulum",
        "f32",
        workload::DOUBLE_PENDULUM_STEPS,
        1e-5,
    ),
    // The two mechanisms in real-time mode, one Newton update a step.
    (
        "slider_crank_system_real_time",
        "f32",
        workload::SLIDER_CRANK_STEPS,
        2e-6,
    ),
    (
        "double_pendulum_real_time",
        "f32",
        workload::DOUBLE_PENDULUM_STEPS,
        1e-5,
    ),
    // The double pendulum with its links' rotations on the Lie group, one update a step.
    (
        "double_pendulum_lie_real_time",
        "f32",
        workload::DOUBLE_PENDULUM_STEPS,
        1e-5,
    ),
    // Its run recording (mbs-run 1 text) hashed: the same bytes as on the host.
    (
        "double_pendulum_recording",
        "f32",
        workload::DOUBLE_PENDULUM_STEPS,
        0.0,
    ),
];

/// The workloads a target runs: the mechanisms (slider-crank, 3D double pendulum, 6-DOF arm)
/// only on the Cortex-M4F and M33 (the Cortex-M0 board's 16 KiB of RAM is less than their
/// dense solver needs in f64, or than the arm's run beside the others); the systems in f32
/// (the f64 systems run in the host tests).
fn on_target(target: &str) -> impl Iterator<Item = (&'static str, &'static str, u32, f64)> + '_ {
    WORKLOADS.into_iter().filter(move |w| {
        target == M4F
            || target == M33
            || !(w.0.starts_with("slider_crank")
                || w.0.starts_with("double_pendulum")
                || w.0 == "arm")
    })
}

/// The same workloads stepped here, on the host.
fn host_outcome(name: &str, ty: &str) -> workload::Outcome {
    workload::run(name, ty).unwrap_or_else(|| unreachable!("unknown workload {name}/{ty}"))
}

fn rust_firmware_checks(target: &str) {
    let elf = rust_firmware(target);
    let run = qemu(target, &elf, None);
    assert_passed(&run, "rust firmware");
    let head = run.lines("mbs-firmware");
    assert_eq!(head.len(), 1, "{}", run.text);
    assert_eq!(head[0]["target"], target);
    for (name, ty, steps, tol) in on_target(target) {
        let r = run.result(name, ty);
        assert_eq!(r["steps"], steps.to_string(), "{r:?}");
        let error: f64 = r["error"].parse().expect("error is a number");
        let printed_tol: f64 = r["tol"].parse().expect("tol is a number");
        assert_eq!(printed_tol, tol, "{r:?}");
        assert!(error <= tol, "{name}/{ty} against its closed form: {r:?}");
    }
    // The mini example's final x = 2 (Exudyn's mini example), to the f32/f64 tolerance.
    for ty in ["f32", "f64"] {
        let x = f64::from_bits(hex(&run.result("mini_masspoint", ty)["value_bits"]));
        assert!((x - 2.0).abs() <= 1e-5, "{ty}: x = {x}");
    }
    assert_stack(&run, target, if target == M4F { 16 } else { 9 }, 1024);
}

#[test]
fn rust_firmware_passes_its_checks_on_cortex_m4f() {
    if tools_or_skip("rust_firmware_passes_its_checks_on_cortex_m4f") {
        rust_firmware_checks(M4F);
    }
}

#[test]
fn rust_firmware_passes_its_checks_on_cortex_m0() {
    if tools_or_skip("rust_firmware_passes_its_checks_on_cortex_m0") {
        rust_firmware_checks(M0);
    }
}

/// A wrong result and a fault must reach QEMU's exit status (otherwise every other check here
/// could pass vacuously).
#[test]
fn firmware_failures_reach_the_exit_status() {
    if !tools_or_skip("firmware_failures_reach_the_exit_status") {
        return;
    }
    for elf in [rust_firmware(M4F), c_firmware(M4F), c_loop_firmware(M4F).0] {
        let fail = qemu(M4F, &elf, Some("selftest-fail"));
        assert_eq!(
            fail.code,
            Some(1),
            "{}: failed check -> 1:\n{}",
            elf.display(),
            fail.text
        );
        assert!(fail.text.contains("FAIL"), "{}", fail.text);
        let fault = qemu(M4F, &elf, Some("selftest-fault"));
        assert_eq!(
            fault.code,
            Some(101),
            "{}: fault -> 101:\n{}",
            elf.display(),
            fault.text
        );
    }
}

fn c_firmware_checks(target: &str) {
    let elf = c_firmware(target);
    let run = qemu(target, &elf, None);
    assert_passed(&run, "C firmware");
    let head = run.lines("mbs-c-firmware");
    assert_eq!(head.len(), 1, "{}", run.text);
    assert_eq!(head[0]["target"], target);
    assert!(
        run.text
            .contains(&format!("mbs_version={}\n", env!("CARGO_PKG_VERSION"))),
        "{}",
        run.text
    );
    assert_eq!(run.lines("check").len(), 6, "{}", run.text);
    assert!(!run.text.contains("FAIL"), "{}", run.text);
    // The C API's step functions: the closed forms (checked by the firmware, its error and
    // tolerance printed as bits) and the trajectories bit for bit as on x86_64.
    for (name, ty, steps, tol) in C_WORKLOADS {
        let r = run.result(name, ty);
        let host = host_c_api_workload(name, ty);
        assert_eq!(r["steps"], steps.to_string(), "{r:?}");
        assert_eq!(f64::from_bits(hex(&r["tol_bits"])), tol, "{r:?}");
        let error = f64::from_bits(hex(&r["error_bits"]));
        assert!(
            error <= tol,
            "{target} {name}/{ty} against its closed form: {r:?}"
        );
        assert_eq!(
            hex(&r["hash"]),
            host.hash,
            "{target} {name}/{ty}: C API trajectory differs from x86_64 ({:#018x})",
            host.hash
        );
        assert_eq!(
            hex(&r["value_bits"]),
            host.value.to_bits(),
            "{target} {name}/{ty}"
        );
    }
    let x = f64::from_bits(hex(&run.result("mini_masspoint", "f64")["value_bits"]));
    assert!((x - 2.0).abs() <= 1e-12, "mini example x = {x}");
    // The C API's cylinder mass properties, bit for bit as on x86_64.
    let r = run.result("cylinder_mass_properties", "f64");
    let (hash, mass) = host_c_api_cylinder();
    assert_eq!(
        hex(&r["hash"]),
        hash,
        "{target}: C API results differ from x86_64"
    );
    assert_eq!(hex(&r["value_bits"]), mass.to_bits(), "{target}");
    // One C API f32 step on the M4F within the 1 KiB budget (docs/embedded.md). A regression
    // guard.
    assert_stack(&run, target, 6, 1024);
}

/// The C firmware's step workloads (c_examples/firmware/main.c): name, type, steps, tolerance.
const C_WORKLOADS: [(&str, &str, u32, f64); 3] = [
    ("mini_masspoint", "f64", 100, 1e-12),
    ("cylinder_midpoint", "f32", 1000, 5e-5),
    ("cylinder_midpoint", "f64", 1000, 5e-5),
];

/// The lean C firmware's workloads (c_examples/firmware/loop.c): the float cylinder, and the
/// mini example through the float mass point API (1e-5 m: 100 float roundings of `q + q_t dt`
/// near 1 m, loop.c's `MINI_TOL_F32`).
const LOOP_WORKLOADS: [(&str, &str, u32, f64); 2] = [
    ("cylinder_midpoint", "f32", 1000, 5e-5),
    ("mini_masspoint", "f32", 100, 1e-5),
];

/// The C firmware's step workloads made here, through the same C API calls (the ffi crate,
/// the code of libmbs.a): the hash over every state component after every step (FNV-1a of
/// the bits, floats widened) and the headline value (mass point x, cylinder w1).
fn host_c_api_workload(name: &str, ty: &str) -> workload::Outcome {
    match (name, ty) {
        ("mini_masspoint", "f64") => host_c_api_mini(),
        ("mini_masspoint", "f32") => host_c_api_mini_f32(),
        ("cylinder_midpoint", "f64") => host_c_api_cylinder_steps::<f64>(),
        ("cylinder_midpoint", "f32") => host_c_api_cylinder_steps::<f32>(),
        _ => unreachable!("unknown C workload {name}/{ty}"),
    }
}

/// The lean firmware's mini example through `mbs_mass_point_2d_*_f32`: the hash over every
/// state component (widened) after every step, and `x = r + q` in float.
fn host_c_api_mini_f32() -> workload::Outcome {
    use mbs::mass_point_2d::*;
    use mbs::simulation_settings::*;
    let (reference, q0, v0) = ([1.0f32, 1.0], [0.5f32, 0.0], [0.5f32, 0.0]);
    let mut body = mbs_mass_point_2d_f32::default();
    let loads = mbs_mass_point_2d_loads_f32::default();
    let mut settings = mbs_simulation_settings_f32::default();
    let mut state = mbs_point2d_state_f32::default();
    // SAFETY: valid pointers to live locals (info may be null).
    unsafe {
        assert_eq!(
            mbs_mass_point_2d_init_f32(&mut body, 1.0, reference.as_ptr()),
            mbs::MBS_OK
        );
        assert_eq!(
            mbs_simulation_settings_default_f32(&mut settings),
            mbs::MBS_OK
        );
        assert_eq!(
            mbs_mass_point_2d_init_state_f32(
                &body,
                &loads,
                &settings,
                q0.as_ptr(),
                v0.as_ptr(),
                &mut state
            ),
            mbs::MBS_OK
        );
    }
    let dt = (settings.end_time - settings.start_time) / settings.number_of_steps as f32;
    let mut h = workload::FNV_OFFSET;
    for _ in 0..settings.number_of_steps {
        // SAFETY: as above.
        let st = unsafe {
            mbs_mass_point_2d_step_f32(
                &body,
                &loads,
                &settings,
                &mut state,
                dt,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(st, mbs::MBS_OK);
        for a in [state.q, state.q_t, state.q_tt, state.a] {
            h = workload::hash_all(h, &a);
        }
    }
    workload::Outcome {
        steps: settings.number_of_steps,
        value: f64::from(body.reference_coordinates[0] + state.q[0]),
        hash: h,
        error: f64::from(body.reference_coordinates[0] + state.q[0] - 2.0).abs(),
    }
}

fn host_c_api_mini() -> workload::Outcome {
    use mbs::mass_point_2d::*;
    use mbs::simulation_settings::*;
    let (reference, q0, v0, origin) = ([1.0, 1.0], [0.5, 0.0], [0.5, 0.0], [0.0; 3]);
    let mut body = mbs_mass_point_2d::default();
    let loads = mbs_mass_point_2d_loads::default();
    let mut settings = mbs_simulation_settings::default();
    let mut state = mbs_point2d_state::default();
    // SAFETY: valid pointers to live locals (info may be null).
    unsafe {
        assert_eq!(
            mbs_mass_point_2d_init(&mut body, 1.0, reference.as_ptr()),
            mbs::MBS_OK
        );
        assert_eq!(mbs_simulation_settings_default(&mut settings), mbs::MBS_OK);
        assert_eq!(
            mbs_mass_point_2d_init_state(
                &body,
                &loads,
                &settings,
                q0.as_ptr(),
                v0.as_ptr(),
                &mut state
            ),
            mbs::MBS_OK
        );
    }
    let dt = (settings.end_time - settings.start_time) / f64::from(settings.number_of_steps);
    let mut h = workload::FNV_OFFSET;
    for _ in 0..settings.number_of_steps {
        // SAFETY: as above.
        let st = unsafe {
            mbs_mass_point_2d_step(
                &body,
                &loads,
                &settings,
                &mut state,
                dt,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(st, mbs::MBS_OK);
        for a in [state.q, state.q_t, state.q_tt, state.a] {
            h = workload::hash_all(h, &a);
        }
    }
    let (mut p, mut n) = ([0.0; 3], 0usize);
    // SAFETY: as above.
    let st = unsafe {
        mbs_mass_point_2d_output(
            &body,
            &state,
            mbs::output::MBS_OUTPUT_POSITION,
            origin.as_ptr(),
            p.as_mut_ptr(),
            3,
            &mut n,
        )
    };
    assert_eq!(st, mbs::MBS_OK);
    workload::Outcome {
        steps: settings.number_of_steps,
        value: p[0],
        hash: h,
        error: (p[0] - 2.0).abs().max((p[1] - 1.0).abs()),
    }
}

/// The cylinder of the C firmware: `mbs_body_cylinder_init` (steel, r = [0.1, 0, 0] m,
/// diameter 0.1 m, `w_0_start` = [50, 1, 0] rad/s), in f32 every value rounded to float and
/// the body and state made with `mbs_rigid_body_init_f32` / `mbs_rigid_state_init_f32`; 1000
/// midpoint steps of 1 ms through `mbs_rigid_step(_f32)`.
fn host_c_api_cylinder_steps<T: CApiReal>() -> workload::Outcome {
    use mbs::mass_properties::*;
    use mbs::rigid::body::mbs_rigid_body;
    use mbs::rigid::body_start::*;
    use mbs::rigid::state::mbs_rigid_state;
    let mut cyl = mbs_cylinder::default();
    let r = [0.1, 0.0, 0.0];
    let mut start = mbs_body_start::default();
    let (mut b, mut s) = (mbs_rigid_body::default(), mbs_rigid_state::default());
    // SAFETY: valid pointers to live locals.
    unsafe {
        assert_eq!(mbs_cylinder_default(&mut cyl, r.as_ptr()), mbs::MBS_OK);
        cyl.diameter = 0.1;
        cyl.has_diameter = 1;
        assert_eq!(mbs_body_start_default(&mut start), mbs::MBS_OK);
        start.w_0_start = [50.0, 1.0, 0.0];
        assert_eq!(
            mbs::rigid::body_cylinder::mbs_body_cylinder_init(&cyl, &start, &mut b, &mut s),
            mbs::MBS_OK
        );
    }
    let (body, mut state) = T::body_and_state(&b, &s);
    let loads = mbs::rigid::loads::mbs_rigid_loads_of::<T>::default();
    let settings = mbs::rigid::step_settings::mbs_step_settings_of::<T>::defaults();
    let mut h = workload::FNV_OFFSET;
    for _ in 0..1000 {
        // SAFETY: as above (info may be null).
        let st = unsafe {
            mbs::rigid::step::step(
                &body,
                &loads,
                &settings,
                &mut state,
                T::c(1e-3),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(st, mbs::MBS_OK);
        for a in [
            &state.position[..],
            &state.orientation,
            &state.velocity,
            &state.angular_velocity,
            &state.acceleration,
            &state.angular_acceleration,
        ] {
            h = workload::hash_all(h, a);
        }
    }
    workload::Outcome {
        steps: 1000,
        value: state.angular_velocity[0].to_f64(),
        hash: h,
        error: 0.0,
    }
}

/// f32 or f64 as the C firmware makes its body and state.
trait CApiReal: mbs_core::Real {
    fn body_and_state(
        b: &mbs::rigid::body::mbs_rigid_body,
        s: &mbs::rigid::state::mbs_rigid_state,
    ) -> (
        mbs::rigid::body::mbs_rigid_body_of<Self>,
        mbs::rigid::state::mbs_rigid_state_of<Self>,
    );
}

impl CApiReal for f64 {
    fn body_and_state(
        b: &mbs::rigid::body::mbs_rigid_body,
        s: &mbs::rigid::state::mbs_rigid_state,
    ) -> (
        mbs::rigid::body::mbs_rigid_body,
        mbs::rigid::state::mbs_rigid_state,
    ) {
        (*b, *s)
    }
}

impl CApiReal for f32 {
    fn body_and_state(
        b: &mbs::rigid::body::mbs_rigid_body,
        s: &mbs::rigid::state::mbs_rigid_state,
    ) -> (
        mbs::rigid::body::mbs_rigid_body_f32,
        mbs::rigid::state::mbs_rigid_state_f32,
    ) {
        use mbs::rigid::body::mbs_rigid_body_init_f32;
        use mbs::rigid::state::mbs_rigid_state_init_f32;
        let f = |x: &[f64]| x.iter().map(|&v| v as f32).collect::<Vec<f32>>();
        let (mut b32, mut s32) = Default::default();
        // SAFETY: valid pointers to live locals and to vectors of the right lengths.
        unsafe {
            assert_eq!(
                mbs_rigid_body_init_f32(
                    &mut b32,
                    b.mass as f32,
                    f(&b.inertia).as_ptr(),
                    f(&b.center_of_mass).as_ptr()
                ),
                mbs::MBS_OK
            );
            assert_eq!(
                mbs_rigid_state_init_f32(
                    &mut s32,
                    f(&s.position).as_ptr(),
                    f(&s.orientation).as_ptr(),
                    f(&s.velocity).as_ptr(),
                    f(&s.angular_velocity).as_ptr()
                ),
                mbs::MBS_OK
            );
        }
        (b32, s32)
    }
}

/// The C firmware's `cylinder_mass_properties` call made here through the ffi crate (the same
/// code as libmbs.a): FNV-1a over mass, COM and inertia, and the mass.
fn host_c_api_cylinder() -> (u64, f64) {
    use mbs::mass_properties::{
        mbs_cylinder, mbs_cylinder_default, mbs_cylinder_mass_properties, mbs_mass_properties,
    };
    let mut cyl = mbs_cylinder::default();
    let r = [0.1, 0.0, 0.0];
    // SAFETY: valid pointers to live locals.
    assert_eq!(
        unsafe { mbs_cylinder_default(&mut cyl, r.as_ptr()) },
        mbs::MBS_OK
    );
    cyl.diameter = 0.1;
    cyl.has_diameter = 1;
    let mut mp = mbs_mass_properties::default();
    // SAFETY: as above.
    assert_eq!(
        unsafe { mbs_cylinder_mass_properties(&cyl, &mut mp) },
        mbs::MBS_OK
    );
    let mut h = workload::hash_real(workload::FNV_OFFSET, mp.mass);
    h = workload::hash_all(h, &mp.com);
    h = workload::hash_all(h, &mp.inertia);
    (h, mp.mass)
}

#[test]
fn c_firmware_runs_libmbs_on_cortex_m4f() {
    if tools_or_skip("c_firmware_runs_libmbs_on_cortex_m4f") {
        c_firmware_checks(M4F);
    }
}

#[test]
fn c_firmware_runs_libmbs_on_cortex_m0() {
    if tools_or_skip("c_firmware_runs_libmbs_on_cortex_m0") {
        c_firmware_checks(M0);
    }
}

/// The lean C firmware (loop.c: the midpoint-only float step, the mass point): passes its
/// checks (the symmetric top's closed form, x = 2 m), steps bit for bit as the same C API
/// calls on x86_64 and as the full firmware's `mbs_rigid_step_f32` (its body, given as float
/// numbers, is the full firmware's body rounded to float), and one float step stays within
/// the 1 KiB budget of stack on the Cortex-M4F.
fn c_loop_firmware_checks(target: &str) {
    let (elf, _) = c_loop_firmware(target);
    let run = qemu(target, &elf, None);
    assert_passed(&run, "lean C firmware");
    let head = run.lines("mbs-c-loop-firmware");
    assert_eq!(head.len(), 1, "{}", run.text);
    assert_eq!(head[0]["target"], target);
    for (name, ty, steps, tol) in LOOP_WORKLOADS {
        let r = run.result(name, ty);
        let host = host_c_api_workload(name, ty);
        assert_eq!(r["steps"], steps.to_string(), "{r:?}");
        assert_eq!(f64::from_bits(hex(&r["tol_bits"])), tol, "{r:?}");
        let error = f64::from_bits(hex(&r["error_bits"]));
        assert!(error <= tol, "{target} {name}/{ty}: {r:?}");
        assert_eq!(
            hex(&r["hash"]),
            host.hash,
            "{target} {name}/{ty}: trajectory differs from x86_64 ({:#018x})",
            host.hash
        );
        assert_eq!(
            hex(&r["value_bits"]),
            host.value.to_bits(),
            "{target} {name}/{ty}"
        );
    }
    // x = 2 m (Exudyn's mini example) to float rounding (LOOP_WORKLOADS).
    let x = f64::from_bits(hex(&run.result("mini_masspoint", "f32")["value_bits"]));
    assert!((x - 2.0).abs() <= 1e-5, "mini example x = {x}");
    // The shipped `dist` build's figure is in docs/embedded.md.
    assert_stack(&run, target, 3, 1024);
}

#[test]
fn c_loop_firmware_runs_on_cortex_m4f() {
    if tools_or_skip("c_loop_firmware_runs_on_cortex_m4f") {
        c_loop_firmware_checks(M4F);
    }
}

#[test]
fn c_loop_firmware_runs_on_cortex_m0() {
    if tools_or_skip("c_loop_firmware_runs_on_cortex_m0") {
        c_loop_firmware_checks(M0);
    }
}

/// Flash of the lean firmware (mbs code from its linker map): a regression guard on this
/// (release, no LTO) build (22 KiB; its size is in docs/embedded.md); the 16 KiB budget is for
/// the build that ships, [`c_loop_firmware_mbs_code_fits_16_kib_as_shipped`]. The full firmware
/// links several times more, which is what the midpoint-only entry point and the float mass
/// point save.
#[test]
fn c_loop_firmware_flash_stays_within_its_guard() {
    if !tools_or_skip("c_loop_firmware_flash_stays_within_its_guard") {
        return;
    }
    let (_, map) = c_loop_firmware(M4F);
    let lean = mbs_code_bytes(&map);
    let full = mbs_code_bytes(
        &firmware_target_dir()
            .join(format!("c-{M4F}"))
            .join("fw.map"),
    );
    eprintln!("mbs code: lean firmware {lean} B, full firmware {full} B");
    assert!(lean > 10_000, "the map parse found the mbs code: {lean}");
    assert!(
        lean <= 22 * 1024,
        "lean firmware mbs code {lean} B > 22 KiB"
    );
    assert!(
        3 * lean < full,
        "the lean firmware links far less: {lean} vs {full}"
    );
}

/// The flash target, on the build that ships: libmbs.a in the `dist` profile (fat LTO,
/// one codegen unit, opt-level 3) linked into the lean firmware for the Cortex-M4F, whose mbs
/// code (linker map) must be at most 16 KiB (docs/embedded.md has its size). Its own build (about a
/// minute of CPU from clean); the firmware must also run and pass its checks, so the bytes
/// counted are those of a working step.
#[test]
fn c_loop_firmware_mbs_code_fits_16_kib_as_shipped() {
    if !tools_or_skip("c_loop_firmware_mbs_code_fits_16_kib_as_shipped") {
        return;
    }
    let mut c = clean_cmd("make");
    c.current_dir(root())
        .args(["-s", "-C", "c_examples/firmware", "PROFILE=dist"])
        .arg(format!("TARGET={M4F}"))
        .arg(format!("CARGO={}", cargo()));
    if let Err(e) = run_checked(c, "make -C c_examples/firmware PROFILE=dist") {
        panic!("{e}");
    }
    let dir = firmware_target_dir().join(format!("c-{M4F}-dist"));
    assert_passed(
        &qemu(M4F, &dir.join("loop.elf"), None),
        "dist lean firmware",
    );
    let lean = mbs_code_bytes(&dir.join("loop.map"));
    eprintln!("mbs code of the dist lean firmware: {lean} B");
    assert!(lean > 10_000, "the map parse found the mbs code: {lean}");
    assert!(
        lean <= 16 * 1024,
        "lean firmware mbs code {lean} B > 16 KiB (dist build)"
    );
}

/// Determinism: every workload's trajectory, hashed over every state bit after every step
/// (1000 steps of the f64 midpoint step among them), is the same on x86_64 (this process,
/// through mbs-core) and on the emulated Cortex-M4F (hardware f32, soft f64), Cortex-M33
/// (Armv8-M, hardware f32) and Cortex-M0 (all soft float).
#[test]
fn firmware_trajectories_are_bit_identical_to_x86_64() {
    if !tools_or_skip("firmware_trajectories_are_bit_identical_to_x86_64") {
        return;
    }
    for (name, ty, steps, tol) in WORKLOADS {
        let o = host_outcome(name, ty);
        assert_eq!(o.steps, steps, "host {name}/{ty}");
        assert!(
            o.error <= tol,
            "host {name}/{ty} against its closed form: {o:?}"
        );
    }
    for target in [M4F, M33, M0] {
        let run = qemu(target, &rust_firmware(target), None);
        assert_passed(&run, target);
        for (name, ty, _, _) in on_target(target) {
            let o = host_outcome(name, ty);
            let r = run.result(name, ty);
            assert_eq!(
                hex(&r["hash"]),
                o.hash,
                "{target} {name}/{ty}: trajectory hash differs from x86_64 ({:#018x})",
                o.hash
            );
            assert_eq!(
                hex(&r["value_bits"]),
                o.value.to_bits(),
                "{target} {name}/{ty}"
            );
        }
    }
}

/// The largest instructions of any step (after the first) of a 5000-step run of each
/// real-time workload on the Cortex-M4F, release build (the firmware's `worst` mode); stated
/// in docs/embedded.md.
const WORST_STEP: [(&str, usize); 3] = [
    ("double_pendulum_real_time", 42_000),
    ("double_pendulum_lie_real_time", 33_000),
    ("slider_crank_system_real_time", 14_500),
];

/// The real-time workloads' steps are bounded: every step of a 5000-step run, timed by
/// SysTick under QEMU's `-icount shift=0` (a tick is 40 instructions), stays within
/// [`WORST_STEP`]; the largest is within 2 % of the mean; and the ticks' scale agrees with the
/// exec log's exact count of one step of the same workload (within 3 %).
#[test]
fn real_time_steps_stay_within_their_stated_bound() {
    if !tools_or_skip("real_time_steps_stay_within_their_stated_bound") {
        return;
    }
    let elf = rust_firmware(M4F);
    let out = Command::new("timeout")
        .arg("120")
        .arg("qemu-system-arm")
        .args([
            "-M",
            "mps2-an386",
            "-cpu",
            "cortex-m4",
            "-nographic",
            "-icount",
            "shift=0",
        ])
        .args([
            "-semihosting-config",
            "enable=on,target=native,arg=worst",
            "-kernel",
        ])
        .arg(&elf)
        .output()
        .expect("qemu runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "worst mode:\n{text}");
    let counted = counted_regions(M4F, &elf);
    for (name, bound) in WORST_STEP {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("worst name={name} ")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{text}"));
        let field = |k: &str| -> usize {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{k}=")))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{k} in {line}"))
        };
        let (max, mean) = (field("max") * 40, field("mean") * 40);
        println!("{name}: largest step {max} instructions, mean {mean} (bound {bound})");
        assert!(
            max <= bound,
            "{name}: a step of {max} instructions, above {bound}"
        );
        assert!(
            max * 100 <= mean * 102,
            "{name}: largest {max}, mean {mean}"
        );
        let exact = counted
            .iter()
            .find(|(n, _)| *n == format!("{name}_step/f32"))
            .map(|(_, r)| r.instructions)
            .unwrap_or_else(|| panic!("{name} not counted"));
        assert!(
            mean.abs_diff(exact) * 100 <= exact * 3,
            "{name}: SysTick's mean {mean} vs the exec log's {exact}"
        );
    }
}

/// The hosted build of the firmware's workloads (`firmware/hosted`) for `target`: built by
/// cargo in that crate (its `.cargo/config.toml` links aarch64 with Rust's lld), into
/// `target/hosted`.
fn hosted(target: &str) -> PathBuf {
    let mut c = clean_cmd(&cargo());
    c.current_dir(root().join("firmware").join("hosted"))
        .args([
            "build",
            "--quiet",
            "--release",
            "--locked",
            "--target",
            target,
        ])
        .arg("--target-dir")
        .arg(root().join("target").join("hosted"));
    if let Err(e) = run_checked(c, &format!("cargo build (firmware/hosted, {target})")) {
        panic!("{e}");
    }
    let dir = root()
        .join("target")
        .join("hosted")
        .join(target)
        .join("release");
    dir.join(if target.starts_with("wasm32") {
        "mbs-hosted.wasm"
    } else {
        "mbs-hosted"
    })
}

/// The RISC-V build of the firmware's workloads (`firmware/riscv`), into `target/riscv`.
fn riscv_firmware() -> PathBuf {
    let mut c = clean_cmd(&cargo());
    c.current_dir(root().join("firmware").join("riscv"))
        .args(["build", "--quiet", "--release", "--locked"])
        .arg("--target-dir")
        .arg(root().join("target").join("riscv"));
    if let Err(e) = run_checked(c, "cargo build (firmware/riscv)") {
        panic!("{e}");
    }
    let target = "riscv32imafc-unknown-none-elf";
    root()
        .join("target")
        .join("riscv")
        .join(target)
        .join("release")
        .join("mbs-firmware-riscv")
}

/// Determinism beyond the Cortex-M: the same workloads on aarch64 Linux (QEMU user mode; a
/// 64-bit Arm with its own FMA instructions, which Rust never contracts into), on a 32-bit
/// RISC-V core with a single-precision FPU (`riscv32imafc`, bare metal on QEMU's `virt`) and
/// on WebAssembly (`wasm32-wasip1` under Node's WASI) give the trajectory hashes and final
/// values of x86_64, bit for bit.
#[test]
fn trajectories_are_bit_identical_on_aarch64_riscv32_and_wasm32() {
    let have = |cmd: &str| {
        Command::new(cmd)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let missing: Vec<&str> = ["qemu-aarch64", "qemu-system-riscv32", "node"]
        .into_iter()
        .filter(|c| !have(c))
        .collect();
    if !missing.is_empty() {
        let required = std::env::var_os("CI").is_some_and(|v| !v.is_empty())
            || std::env::var("MBS_REQUIRE_QEMU").as_deref() == Ok("1");
        assert!(!required, "{missing:?} not found: run scripts/setup.sh");
        eprintln!("\n*** SKIPPED: {missing:?} not found (run scripts/setup.sh) ***\n");
        return;
    }
    let names: Vec<String> = WORKLOADS
        .iter()
        .map(|w| format!("{}/{}", w.0, w.1))
        .collect();
    let listed: Vec<(&str, &str)> = WORKLOADS.iter().map(|w| (w.0, w.1)).collect();
    assert_eq!(
        listed,
        workload::HASHED,
        "the firmware's list of hashed workloads"
    );
    let runs = [
        ("aarch64", {
            let mut c = Command::new("qemu-aarch64");
            c.arg(hosted("aarch64-unknown-linux-musl"));
            c
        }),
        ("riscv32", {
            let mut c = Command::new("timeout");
            c.args([
                "120",
                "qemu-system-riscv32",
                "-M",
                "virt",
                "-cpu",
                "rv32",
                "-bios",
                "none",
            ])
            .args([
                "-nographic",
                "-semihosting-config",
                "enable=on,target=native",
            ])
            .arg("-kernel")
            .arg(riscv_firmware());
            c
        }),
        ("wasm32", {
            let mut c = Command::new("node");
            c.arg("--no-warnings")
                .arg(root().join("scripts").join("wasi-run.mjs"))
                .arg(hosted("wasm32-wasip1"));
            c
        }),
    ];
    for (arch, mut c) in runs {
        // The RISC-V firmware runs every workload of `workload::HASHED`, in `WORKLOADS`' order.
        if arch != "riscv32" {
            c.args(&names);
        }
        let out = c.output().expect("the program starts");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{arch}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), WORKLOADS.len(), "{arch}: {text}");
        for ((name, ty, _, _), line) in WORKLOADS.iter().zip(lines) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let o = host_outcome(name, ty);
            assert_eq!(f[..2], [*name, *ty], "{arch}: {line}");
            assert_eq!(
                hex(f[2]),
                o.hash,
                "{arch} {name}/{ty}: trajectory hash differs from x86_64"
            );
            assert_eq!(hex(f[3]), o.value.to_bits(), "{arch} {name}/{ty}");
        }
    }
}

/// One counted region of the firmware's `count` mode, from QEMU's exec log.
#[derive(Debug, Default)]
struct Region {
    instructions: usize,
    vfp_arithmetic: usize,
    soft_float_routines: Vec<String>,
}

/// `true` for a compiler_builtins/libgcc soft-float routine's (possibly mangled) name: the ARM
/// EABI entry points `__aeabi_f*`/`__aeabi_d*` and the generic `__addsf3`, `__muldf3`,
/// `__fixsfsi`, `__floatsisf`, `__extendsfdf2`, ... (a word after `__` with a float mode suffix;
/// a Rust symbol's hash never follows `__`).
fn is_soft_float(symbol: &str) -> bool {
    if symbol.contains("__aeabi_f") || symbol.contains("__aeabi_d") {
        return true;
    }
    let suffixes = [
        "sf2", "sf3", "df2", "df3", "sfsi", "dfsi", "sfdi", "dfdi", "sisf", "sidf", "disf", "didf",
    ];
    // Every (overlapping) "__": a v0-mangled name holds `8___adddf3`.
    (0..symbol.len()).any(|i| {
        let Some(rest) = symbol.get(i..).and_then(|t| t.strip_prefix("__")) else {
            return false;
        };
        let word: String = rest
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        suffixes.iter().any(|s| word.ends_with(s))
    })
}

/// Runs the firmware's `count` mode with one instruction per translation block and QEMU's exec
/// log, and splits the log at the marker functions (as scripts/embedded-figures.sh does).
fn counted_regions(target: &str, elf: &Path) -> Vec<(String, Region)> {
    let tool = |name: &str, args: &[&str]| {
        let out = Command::new(name)
            .args(args)
            .arg(elf)
            .output()
            .expect("binutils run");
        assert!(out.status.success(), "{name} failed");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let nm = tool("arm-none-eabi-nm", &[]);
    let addr_of = |sym: &str| {
        nm.lines()
            .find(|l| l.split_whitespace().nth(2) == Some(sym))
            .and_then(|l| l.split_whitespace().next())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("{sym} not in the ELF"))
    };
    let (begin, end) = (addr_of("mbs_count_begin"), addr_of("mbs_count_end"));
    let mut mnemonic = HashMap::new();
    for l in tool("arm-none-eabi-objdump", &["-d", "--no-show-raw-insn"]).lines() {
        let mut it = l.split('\t');
        if let (Some(a), Some(m)) = (it.next(), it.next()) {
            if let Some(a) = a.trim().strip_suffix(':') {
                if let Ok(v) = u64::from_str_radix(a, 16) {
                    mnemonic.insert(format!("{v:08x}"), m.trim().to_string());
                }
            }
        }
    }
    let version = Command::new("qemu-system-arm")
        .arg("--version")
        .output()
        .expect("qemu runs");
    let major: u32 = String::from_utf8_lossy(&version.stdout)
        .split("version ")
        .nth(1)
        .and_then(|v| v.split('.').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let one_insn: &[&str] = if major >= 8 {
        &["-accel", "tcg,one-insn-per-tb=on"]
    } else {
        &["-singlestep"]
    };
    // One log per call: tests that count run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let log = firmware_target_dir().join(format!("count-{target}-{call}.log"));
    let out = Command::new("timeout")
        .arg("60")
        .arg("qemu-system-arm")
        .args(["-M", "mps2-an386", "-cpu", "cortex-m4", "-nographic"])
        .args(["-semihosting-config", "enable=on,target=native,arg=count"])
        .args(one_insn)
        .args(["-d", "exec,nochain", "-D"])
        .arg(&log)
        .arg("-kernel")
        .arg(elf)
        .output()
        .expect("qemu runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "count mode:\n{text}");
    let order: Vec<String> = text
        .lines()
        .find_map(|l| l.strip_prefix("count order="))
        .expect("count order line")
        .split(',')
        .map(str::to_string)
        .collect();
    let log_text = std::fs::read_to_string(&log).expect("exec log");
    std::fs::remove_file(&log).ok();
    let mut regions: Vec<Region> = Vec::new();
    let mut on = false;
    for line in log_text.lines().filter(|l| l.starts_with("Trace")) {
        let mut fields = line.split_whitespace().skip(3);
        let (Some(info), symbol) = (fields.next(), fields.next().unwrap_or("")) else {
            continue;
        };
        let pc = info.split('/').nth(1).unwrap_or("");
        if pc == begin && !on {
            on = true;
            regions.push(Region::default());
        } else if pc == end && on {
            on = false;
        }
        if let (true, Some(r)) = (on, regions.last_mut()) {
            r.instructions += 1;
            let m = mnemonic.get(pc).map(String::as_str).unwrap_or("");
            let vfp_move = [
                "vpush", "vpop", "vldr", "vstr", "vmov", "vldm", "vstm", "vmrs", "vmsr",
            ];
            if m.starts_with('v') && !vfp_move.iter().any(|p| m.starts_with(p)) {
                r.vfp_arithmetic += 1;
            }
            if is_soft_float(symbol) && !r.soft_float_routines.iter().any(|s| s == symbol) {
                r.soft_float_routines.push(symbol.to_string());
            }
        }
    }
    assert_eq!(
        regions.len(),
        order.len(),
        "one region per name in {order:?}"
    );
    let empty = regions[0].instructions;
    order
        .into_iter()
        .zip(regions)
        .skip(1)
        .map(|(name, mut r)| {
            r.instructions -= empty;
            (name, r)
        })
        .collect()
}

/// On the Cortex-M4F the f32 path uses the hardware FPU. Every instruction executed
/// in one f32 step is looked up in the disassembly: the step must execute VFP arithmetic and
/// enter no soft-float routine; each f64 step must enter soft-float routines (the detector
/// works: the M4F's FPU is single precision only).
#[test]
fn f32_steps_run_on_the_fpu_of_cortex_m4f() {
    if !tools_or_skip("f32_steps_run_on_the_fpu_of_cortex_m4f") {
        return;
    }
    let mut regions = counted_regions(M4F, &rust_firmware(M4F));
    assert_eq!(regions.len(), 20, "{regions:?}");
    // The 6-DOF arm's calls within the goals on the Cortex-M4F (deterministic: a regression
    // guard): RNEA 6,000 instructions, ABA 12,000; the slider-crank's constrained step in
    // motion (one Newton update) as a hand-written model, 25,000; the systems' steps near what
    // this `release` build measures (the goals are measured on the `dist` build libmbs.a ships:
    // 25,000 for the slider-crank's system is met there, 40,000 for the 3D double pendulum's
    // is not; docs/embedded.md); the same pendulum in joint coordinates, an RK4 and a
    // semi-implicit Euler step; both systems in real-time mode (one Newton update a step,
    // unevaluated: the bounded step).
    for (name, bound) in [
        ("arm_rnea/f32", 6000),
        ("arm_aba/f32", 12000),
        ("slider_crank_step/f32", 25000),
        ("slider_crank_system_step/f32", 28000),
        ("double_pendulum_step/f32", 85_000),
        ("double_pendulum_tree_rk4/f32", 12_000),
        ("double_pendulum_tree_euler/f32", 4_000),
        ("slider_crank_system_real_time_step/f32", 21_000),
        ("double_pendulum_real_time_step/f32", 70_000),
        ("double_pendulum_lie_real_time_step/f32", 60_000),
    ] {
        let r = regions
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} counted"));
        assert!(r.1.instructions <= bound, "{name}: {:?}", r.1);
    }
    // The C firmware's C API steps (mbs_rigid_step_f32 and the f64 calls).
    let c_regions = counted_regions(M4F, &c_firmware(M4F));
    assert_eq!(c_regions.len(), 5, "{c_regions:?}");
    regions.extend(
        c_regions
            .into_iter()
            .filter(|(n, _)| n.ends_with("/f32") || n.ends_with("/f64"))
            .map(|(n, r)| (format!("C API {n}"), r)),
    );
    // The lean firmware's mbs_rigid_midpoint_step_f32 and its f32 mass point step.
    let lean = counted_regions(M4F, &c_loop_firmware(M4F).0);
    assert_eq!(lean.len(), 2, "{lean:?}");
    regions.extend(
        lean.into_iter()
            .map(|(n, r)| (format!("C API midpoint-only {n}"), r)),
    );
    // The C API float midpoint step within 1,500 instructions on the Cortex-M4F
    // (deterministic: a regression guard), through both entry points.
    for name in [
        "C API cylinder_midpoint_step/f32",
        "C API midpoint-only cylinder_midpoint_step/f32",
    ] {
        let r = regions
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} counted"));
        assert!(r.1.instructions <= 1500, "{name}: {:?}", r.1);
    }
    for (name, r) in &regions {
        eprintln!(
            "{name}: {} instructions, {} VFP arithmetic, soft float {:?}",
            r.instructions, r.vfp_arithmetic, r.soft_float_routines
        );
        assert!(r.instructions > 0, "{name}: {r:?}");
        if name.ends_with("/f32") {
            assert!(
                r.vfp_arithmetic > 0,
                "{name} executes no VFP arithmetic: {r:?}"
            );
            assert!(
                r.soft_float_routines.is_empty(),
                "{name} calls soft float: {r:?}"
            );
        } else {
            assert!(name.ends_with("/f64"), "{name}");
            assert_eq!(r.vfp_arithmetic, 0, "{name}: {r:?}");
            assert!(!r.soft_float_routines.is_empty(), "{name}: {r:?}");
        }
    }
}
