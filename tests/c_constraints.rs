//! The constraint examples of Exudyn built through the C API (`mbs_system_*` of the ffi crate,
//! the code of `libmbs.a`), stepped by the system's generalized-alpha scheme:
//!
//! - `ObjectConnectorDistance`'s mini example (a 50 kg point on a 1 m rod, rho_inf = 0.7,
//!   100 steps to 1 s): x at 1 s against the value Exudyn's test suite publishes;
//! - `pendulum2Dconstraint.py` (2.5 kg on a 0.8 m rod, rho_inf = 0.6, h = 1 ms): against
//!   Exudyn 1.13.6 run with the example's settings, the exact angle (elliptic functions,
//!   converged RK4) with order 2 as the step halves, the rod's length over 100,000 steps, the
//!   energy as the scheme says;
//! - `SliderCrank.py` (rho_inf = 0.5, 10 N m on the crank): against Exudyn 1.13.6 with the
//!   example's step (h = 1e-5) and a coarser one, the loop closure at every step, the
//!   minimal-coordinate reference with order 2, and Newton's quadratic convergence.
//!
//! The Exudyn values were printed by Exudyn 1.13.6 (pip) running the models as
//! `bench/exudyn_constraint_examples.py` builds them.

mod constrained_support;

use constrained_support::{loop_closure, order, pendulum_angle, slider_crank_reference};
use mbs::output::*;
use mbs::simulation_settings::*;
use mbs::system::constraints::*;
use mbs::system::items::*;
use mbs::system::output::*;
use mbs::system::planar::*;
use mbs::system::settings::*;
use mbs::system::solve::*;
use mbs::system::step::*;
use mbs::system::*;
use mbs::*;
use std::ptr::null_mut;

fn ok(s: MbsStatus) {
    assert!(mbs_status_is_ok(s), "status {s}");
}

/// A C system in a box (`MBS_SYSTEM_SIZE` bytes, off the test thread's stack), initialized.
fn new_system(scheme: MbsSystemScheme, rho: f64, formulation: MbsFormulation) -> Box<mbs_system> {
    let mut s = Box::new(mbs_system {
        _opaque: [0; MBS_SYSTEM_WORDS],
    });
    // SAFETY: a valid, aligned system storage and settings.
    unsafe {
        ok(mbs_system_init(&mut *s));
        let mut st = mbs_system_settings::default();
        ok(mbs_system_settings_default(&mut st));
        st.scheme = scheme;
        st.alpha_spectral_radius = rho;
        st.alpha_formulation = formulation;
        ok(mbs_system_set_settings(&mut *s, &st));
    }
    s
}

/// Adds with an out-index; returns it.
fn idx(f: impl FnOnce(*mut u32) -> MbsStatus) -> u32 {
    let mut i = u32::MAX;
    ok(f(&mut i));
    i
}

fn node_output(s: &mbs_system, node: u32, var: MbsOutputVariable) -> [f64; 3] {
    let mut out = [0.0; 3];
    let mut n = 0usize;
    // SAFETY: valid pointers, 3 doubles.
    ok(unsafe { mbs_system_node_output(s, node, var, out.as_mut_ptr(), 3, &mut n) });
    out
}

fn constraint_output(s: &mbs_system, c: u32, var: MbsOutputVariable) -> [f64; 3] {
    let mut out = [0.0; 3];
    let mut n = 0usize;
    // SAFETY: valid pointers, 3 doubles.
    ok(unsafe { mbs_system_constraint_output(s, c, var, out.as_mut_ptr(), 3, &mut n) });
    out
}

/// A point of `mass` at `[l, 0]` on a distance constraint of length `l` to the ground origin,
/// under the force `[0, -mass g]` (Exudyn's examples apply gravity as a force): the node.
fn pendulum(s: &mut mbs_system, l: f64, mass: f64, g: f64) -> u32 {
    // SAFETY: valid pointers throughout.
    unsafe {
        let ground = idx(|o| mbs_system_add_object_ground(s, [0.0; 3].as_ptr(), o));
        let node = idx(|o| {
            mbs_system_add_node_point2d(
                s,
                [l, 0.0].as_ptr(),
                [0.0; 2].as_ptr(),
                [0.0; 2].as_ptr(),
                o,
            )
        });
        idx(|o| mbs_system_add_object_mass_point_2d(s, node, mass, o));
        let m_mass = idx(|o| mbs_system_add_marker_node_position(s, node, o));
        let m_ground =
            idx(|o| mbs_system_add_marker_body_position(s, ground, [0.0; 3].as_ptr(), o));
        idx(|o| mbs_system_add_distance_constraint(s, m_ground, m_mass, l, o));
        idx(|o| mbs_system_add_load_force(s, m_mass, [0.0, -mass * g, 0.0].as_ptr(), o));
        ok(mbs_system_assemble(s, null_mut()));
        node
    }
}

fn solve(s: &mut mbs_system, steps: u32, end: f64, rho: f64) -> mbs_system_solve_report {
    let mut sim = mbs_simulation_settings::default();
    let mut report = mbs_system_solve_report::default();
    // SAFETY: valid pointers.
    unsafe {
        ok(mbs_simulation_settings_default(&mut sim));
        sim.end_time = end;
        sim.number_of_steps = steps;
        sim.spectral_radius = rho;
        ok(mbs_system_solve_dynamic(s, &sim, &mut report, null_mut()));
    }
    report
}

/// Exudyn's `ObjectConnectorDistance` mini example: Exudyn's test suite publishes x =
/// -0.9861806726069355 m at 1 s (`runTestSuiteRefSol.py`); Exudyn 1.13.6 gives
/// -0.9861806727696236. The same scheme with the same tolerances agrees to the Newton
/// tolerance's effect on the positions.
#[test]
fn exudyns_distance_mini_example() {
    let mut s = new_system(
        MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
        0.7,
        MBS_FORMULATION_INDEX3,
    );
    let node = pendulum(&mut s, 1.0, 50.0, 9.81);
    let r = solve(&mut s, 100, 1.0, 0.7);
    let x = node_output(&s, node, MBS_OUTPUT_POSITION)[0];
    let published = -0.9861806726069355;
    eprintln!(
        "distance mini example: x(1 s) = {x:.16}, published {published}, difference {:.2e}; {} Newton iterations",
        x - published,
        r.newton_iterations
    );
    assert!((x - published).abs() < 1e-8, "{x}");
    assert!((x - -0.9861806727696236f64).abs() < 1e-8);
}

/// `pendulum2Dconstraint.py` with its settings (h = 1 ms, rho_inf = 0.6) against Exudyn 1.13.6
/// at 1 s: (-0.799818595646649, -0.01703567016064163) m.
#[test]
fn exudyns_pendulum_2d_constraint_example() {
    let mut s = new_system(
        MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
        0.6,
        MBS_FORMULATION_INDEX3,
    );
    let node = pendulum(&mut s, 0.8, 2.5, 9.81);
    solve(&mut s, 1000, 1.0, 0.6);
    let p = node_output(&s, node, MBS_OUTPUT_POSITION);
    let exudyn = [-0.799818595646649, -0.01703567016064163];
    eprintln!(
        "pendulum2Dconstraint at 1 s: {:?}, Exudyn {:?}, difference {:.2e} m",
        &p[..2],
        exudyn,
        (p[0] - exudyn[0]).hypot(p[1] - exudyn[1])
    );
    assert!((p[0] - exudyn[0]).hypot(p[1] - exudyn[1]) < 1e-8);
}

/// The angle at 0.6 s against the exact pendulum (released horizontally): order 2 as the step
/// halves, fit over four steps, with Exudyn's rho_inf = 0.6.
#[test]
fn the_pendulum_converges_with_order_two() {
    let (l, g) = (0.8, 9.81);
    let t_end = 0.6;
    let exact = pendulum_angle(g, l, std::f64::consts::FRAC_PI_2, t_end);
    let steps = [4e-3f64, 2e-3, 1e-3, 5e-4];
    let mut errors = Vec::new();
    for h in steps {
        let mut s = new_system(
            MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
            0.6,
            MBS_FORMULATION_INDEX3,
        );
        let node = pendulum(&mut s, l, 2.5, g);
        solve(&mut s, (t_end / h).round() as u32, t_end, 0.6);
        let p = node_output(&s, node, MBS_OUTPUT_POSITION);
        // angle from the downward vertical
        let theta = p[0].atan2(-p[1]);
        errors.push((theta - exact).abs());
    }
    let slope = order(&steps, &errors);
    eprintln!("pendulum angle errors {errors:?}, order {slope:.3}");
    assert!((1.85..2.15).contains(&slope), "{slope} {errors:?}");
}

/// 100,000 steps of 1 ms: the rod's length holds to the Newton tolerance at every step (no
/// drift); the energy decays with rho_inf = 0.6 (numerical damping of the index-3 scheme) and
/// stays bounded without it (rho_inf = 1, stabilized index 2: the position and velocity
/// constraints both hold).
#[test]
fn the_pendulum_holds_its_length_and_its_energy_behaves_over_100k_steps() {
    let (l, m, g) = (0.8, 2.5, 9.81);
    for (rho, formulation) in [
        (0.6, MBS_FORMULATION_INDEX3),
        (1.0, MBS_FORMULATION_STABILIZED_INDEX2),
    ] {
        let mut s = new_system(MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA, rho, formulation);
        let node = pendulum(&mut s, l, m, g);
        let (mut worst_c, mut e_min, mut e_max) = (0.0f64, 0.0f64, 0.0f64);
        let energy = |s: &mbs_system| {
            let p = node_output(s, node, MBS_OUTPUT_POSITION);
            let v = node_output(s, node, MBS_OUTPUT_VELOCITY);
            0.5 * m * (v[0] * v[0] + v[1] * v[1]) + m * g * p[1]
        };
        let mut report = mbs_system_step_report::default();
        for i in 0..100_000 {
            // SAFETY: valid pointers.
            ok(unsafe { mbs_system_step(&mut *s, 1e-3, &mut report, null_mut()) });
            let c = constraint_output(&s, 0, MBS_OUTPUT_CONSTRAINT_RESIDUAL)[0];
            worst_c = worst_c.max(c.abs());
            if i % 10 == 0 {
                let e = energy(&s);
                e_min = e_min.min(e);
                e_max = e_max.max(e);
            }
        }
        let e_end = energy(&s);
        eprintln!(
            "rho {rho}: 100k steps, max |C| {worst_c:.2e} m, energy in [{e_min:.4}, {e_max:.4}] J, end {e_end:.4} J (start 0)"
        );
        assert!(worst_c < 1e-9, "{worst_c}");
        if rho < 1.0 {
            // decays: generalized-alpha's numerical damping at omega h = 0.0035 is small (its
            // amplitude error is third order in omega h), but the energy only goes down
            assert!(e_end < -1e-5 && e_max <= 1e-9, "{e_end} {e_max}");
        } else {
            // bounded: within 1e-3 of the mass's largest potential energy
            assert!(
                e_min > -1e-3 * m * g * l && e_max < 1e-3 * m * g * l,
                "{e_min} {e_max}"
            );
        }
    }
}

/// Exudyn's `SliderCrank.py`: a ground node, the crank and the rod (2D rigid bodies), the
/// slider (2D mass point), three revolute joints, the slider's y held by a coordinate
/// constraint, 10 N m on the crank. Returns the slider's and the crank's nodes.
fn slider_crank(s: &mut mbs_system) -> (u32, u32) {
    let (a0, a1, m0, m1) = (0.25, 0.5, 2.0, 4.0);
    // SAFETY: valid pointers throughout.
    unsafe {
        let ground = idx(|o| mbs_system_add_object_ground(s, [0.0; 3].as_ptr(), o));
        let n_ground = idx(|o| mbs_system_add_node_ground(s, [0.0; 3].as_ptr(), o));
        let z3 = [0.0; 3];
        let rigid = |s: &mut mbs_system, x: f64, m: f64, a: f64| {
            let n = idx(|o| {
                mbs_system_add_node_rigid_2d(s, [x, 0.0, 0.0].as_ptr(), z3.as_ptr(), z3.as_ptr(), o)
            });
            let b = idx(|o| {
                mbs_system_add_object_rigid_body_2d(
                    s,
                    n,
                    m,
                    m / 12.0 * (2.0 * a) * (2.0 * a),
                    [0.0; 2].as_ptr(),
                    o,
                )
            });
            (n, b)
        };
        let (crank_node, crank) = rigid(s, a0, m0, a0);
        let (_, rod) = rigid(s, 2.0 * a0 + a1, m1, a1);
        let slider = idx(|o| {
            mbs_system_add_node_point2d(
                s,
                [2.0 * a0 + 2.0 * a1, 0.0].as_ptr(),
                [0.0; 2].as_ptr(),
                [0.0; 2].as_ptr(),
                o,
            )
        });
        let slider_body = idx(|o| mbs_system_add_object_mass_point_2d(s, slider, 1.0, o));
        let at = |s: &mut mbs_system, b: u32, x: f64, rigid: bool| {
            let p = [x, 0.0, 0.0];
            idx(|o| {
                if rigid {
                    mbs_system_add_marker_body_rigid(s, b, p.as_ptr(), o)
                } else {
                    mbs_system_add_marker_body_position(s, b, p.as_ptr(), o)
                }
            })
        };
        let m0l = at(s, crank, -a0, true);
        let m0r = at(s, crank, a0, false);
        let m1l = at(s, rod, -a1, false);
        let m1r = at(s, rod, a1, false);
        let mm = at(s, slider_body, 0.0, false);
        let mg = at(s, ground, 0.0, false);
        for (a, b) in [(mg, m0l), (m0r, m1l), (m1r, mm)] {
            idx(|o| mbs_system_add_revolute_joint_2d(s, a, b, o));
        }
        let mgc = idx(|o| mbs_system_add_marker_node_coordinate(s, n_ground, 0, o));
        let mnc = idx(|o| mbs_system_add_marker_node_coordinate(s, slider, 1, o));
        idx(|o| mbs_system_add_coordinate_constraint(s, mgc, mnc, 1.0, 0.0, o));
        idx(|o| mbs_system_add_load_torque(s, m0l, [0.0, 0.0, 10.0].as_ptr(), 0, o));
        ok(mbs_system_assemble(s, null_mut()));
        (slider, crank_node)
    }
}

/// With Exudyn's settings (rho_inf = 0.5, 2 s) the slider's x agrees with Exudyn 1.13.6:
/// 0.5010857055628779 m at h = 1 ms, 0.5012022532177861 m at the example's h = 1e-5 s.
#[test]
fn exudyns_slider_crank_example() {
    for (steps, exudyn) in [(2000u32, 0.5010857055628779), (200_000, 0.5012022532177861)] {
        let mut s = new_system(
            MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
            0.5,
            MBS_FORMULATION_INDEX3,
        );
        let (slider, _) = slider_crank(&mut s);
        let r = solve(&mut s, steps, 2.0, 0.5);
        let x = node_output(&s, slider, MBS_OUTPUT_POSITION)[0];
        eprintln!(
            "slider-crank, {steps} steps: x(2 s) = {x:.16}, Exudyn {exudyn}, difference {:.2e} m, {:.2} Newton iterations per step",
            x - exudyn,
            r.newton_iterations as f64 / f64::from(steps)
        );
        assert!((x - exudyn).abs() < 1e-7, "{x}");
    }
}

/// At every step the slider sits where the loop closure puts it for the crank's angle; the
/// motion at 0.5 s converges with order 2 to the minimal-coordinate reference; Newton converges
/// quadratically (each residual at most a constant times the square of the one before).
#[test]
fn the_slider_crank_follows_its_references() {
    let t_end = 0.5;
    let (phi_ref, _) = slider_crank_reference(10.0, t_end);
    let steps = [4e-3f64, 2e-3, 1e-3, 5e-4];
    let mut errors = Vec::new();
    for h in steps {
        let mut s = new_system(
            MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
            0.9,
            MBS_FORMULATION_INDEX3,
        );
        let (slider, crank) = slider_crank(&mut s);
        let n = (t_end / h).round() as u32;
        let mut worst = 0.0f64;
        let mut quadratic = f64::NAN;
        for _ in 0..n {
            // SAFETY: valid pointers.
            ok(unsafe { mbs_system_step(&mut *s, h, null_mut(), null_mut()) });
            let phi = node_output(&s, crank, MBS_OUTPUT_ROTATION)[2];
            let x = node_output(&s, slider, MBS_OUTPUT_POSITION)[0];
            worst = worst.max((x - loop_closure(phi).1).abs());
            let mut nr = mbs_newton_report::default();
            // SAFETY: valid pointers.
            ok(unsafe { mbs_system_newton_report(&*s, &mut nr) });
            let hist = &nr.history[..nr.history_len as usize];
            for w in hist.windows(2) {
                if w[0] > 1e-9 && w[1] > 1e-14 {
                    quadratic = if quadratic.is_nan() {
                        w[1] / (w[0] * w[0])
                    } else {
                        quadratic.max(w[1] / (w[0] * w[0]))
                    };
                }
            }
        }
        assert!(worst < 1e-9, "h {h}: {worst}");
        let phi = node_output(&s, crank, MBS_OUTPUT_ROTATION)[2];
        errors.push((phi - phi_ref).abs());
        eprintln!("h {h}: max |x - x(phi)| {worst:.2e} m, max r_k+1 / r_k^2 {quadratic:.2e}");
        assert!(quadratic.is_nan() || quadratic < 1e3, "{quadratic}");
    }
    let slope = order(&steps, &errors);
    eprintln!("slider-crank crank angle errors {errors:?}, order {slope:.3}");
    assert!((1.85..2.15).contains(&slope), "{slope}");
}

/// A step whose Newton iteration is allowed too few updates fails with
/// `MBS_ERR_NEWTON_NOT_CONVERGED`, the state and time unchanged; with step halving the same
/// step succeeds and the report counts the halvings (Exudyn's automatic step reduction).
#[test]
fn newton_failure_leaves_the_state_and_step_halving_recovers() {
    let mut s = new_system(
        MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA,
        0.9,
        MBS_FORMULATION_INDEX3,
    );
    let node = pendulum(&mut s, 0.8, 2.5, 9.81);
    // SAFETY: valid pointers throughout.
    unsafe {
        for _ in 0..200 {
            ok(mbs_system_step(&mut *s, 1e-3, null_mut(), null_mut()));
        }
        let mut st = mbs_system_settings::default();
        ok(mbs_system_get_settings(&*s, &mut st));
        st.alpha_newton_max_iterations = 2;
        ok(mbs_system_set_settings(&mut *s, &st));
        let before = node_output(&s, node, MBS_OUTPUT_POSITION);
        let (mut t0, mut t1) = (0.0, 0.0);
        ok(mbs_system_time(&*s, &mut t0));
        let mut failed = mbs_item_ref::default();
        assert_eq!(
            mbs_system_step(&mut *s, 0.1, null_mut(), &mut failed),
            MBS_ERR_NEWTON_NOT_CONVERGED
        );
        assert_eq!(failed.kind, MBS_ITEM_SYSTEM);
        ok(mbs_system_time(&*s, &mut t1));
        assert_eq!(
            (node_output(&s, node, MBS_OUTPUT_POSITION), t1),
            (before, t0)
        );
        st.alpha_step_halving = 6;
        ok(mbs_system_set_settings(&mut *s, &st));
        let mut report = mbs_system_step_report::default();
        ok(mbs_system_step(&mut *s, 0.1, &mut report, null_mut()));
        assert!(report.halvings > 0, "{report:?}");
        ok(mbs_system_time(&*s, &mut t1));
        assert!((t1 - t0 - 0.1).abs() < 1e-12);
        let c = constraint_output(&s, 0, MBS_OUTPUT_CONSTRAINT_RESIDUAL)[0];
        assert!(c.abs() < 1e-9, "{c}");
        eprintln!(
            "h = 0.1 s with at most 2 Newton updates: {} halvings",
            report.halvings
        );
    }
}
