//! Runs the C tests of `c_tests/` (compiled into `mbs-example` by build.rs): each exits 0 and
//! prints "0 failures" only if every check of the C API passed.

use std::process::Command;

fn run_c_test(name: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_mbs-example"))
        .arg(name)
        .output()
        .expect("mbs-example runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(": 0 failures"),
        "C test {name} failed:\n{stdout}"
    );
}

#[test]
fn c_mass_properties_results_and_refusals() {
    run_c_test("test_mass_properties");
}

#[test]
fn c_rigid_body_api_results_and_refusals_in_double_and_float() {
    run_c_test("test_rigid");
}

#[test]
fn c_mass_point_2d_api_results_and_refusals() {
    run_c_test("test_mass_point_2d");
}

#[test]
fn c_system_api_results_and_refusals_at_every_entry_point() {
    run_c_test("test_system");
}

#[test]
fn c_constraint_api_results_and_refusals() {
    run_c_test("test_constraints");
}

#[test]
fn c_joint_api_results_and_refusals() {
    run_c_test("test_joints");
}

#[test]
fn c_tree_api_results_and_refusals_in_double_and_float() {
    run_c_test("test_tree");
}

#[test]
fn c_outputs_define_every_byte() {
    run_c_test("test_outputs");
}

#[test]
fn c_solve_step_callback_sees_stops_and_is_refused_changes() {
    run_c_test("test_progress");
}

#[test]
fn c_exception_from_any_callback_aborts_before_unwinding_mbs() {
    run_c_test("test_callback_unwind");
}

#[test]
fn c_init_defines_every_byte_of_a_storage() {
    run_c_test("test_storage_bytes");
}
