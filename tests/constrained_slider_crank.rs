//! The slider-crank of Exudyn's `SliderCrank.py` in redundant coordinates: a crank and a
//! connecting rod (2D rigid bodies, `x, y, theta`) and a slider (a 2D mass point) joined by
//! three revolute joints, the slider held on the x axis by a coordinate constraint, a constant
//! torque of 10 N m on the crank, no gravity; 8 coordinates, 7 constraint equations. Built from
//! core's planar constraints and stepped by the index-3 generalized-alpha solver. References
//! derived here independently: the slider position from the crank angle (the loop closure,
//! at every step), and the minimal-coordinate equation of motion of the crank angle
//! (`J(phi) phi'' + J'(phi) phi'^2 / 2 = tau`) integrated by RK4 with a tiny step.

mod constrained_support;
use constrained_support::slider_crank::{i0, i1, start_coordinates, SliderCrank, A0, M0, M1, M2};
use constrained_support::{loop_closure, slider_crank_reference};
use mbs_core::integrators::constrained::{
    Assembly, ConstrainedAlpha, ConstrainedState, Formulation, Workspace,
};
use mbs_core::solver::settings::NewtonSettings;

const TORQUE: f64 = 10.0; // N m on the crank, as in Exudyn's example
const S: usize = 24;
const DRIVEN: SliderCrank<f64> = SliderCrank { torque: TORQUE };

fn start(
    rho: f64,
    formulation: Formulation,
) -> (
    ConstrainedAlpha<f64>,
    ConstrainedState<f64, S>,
    Workspace<f64, S>,
) {
    let solver = ConstrainedAlpha::new(rho)
        .unwrap()
        .with_formulation(formulation);
    let mut work = Workspace::default();
    // The straight configuration of Exudyn's example, at rest.
    let q0 = start_coordinates::<f64>();
    let s = solver
        .initial_state(&DRIVEN, 0.0, &q0, &[0.0; 8], Assembly::default(), &mut work)
        .unwrap();
    (solver, s, work)
}

/// At every step the slider sits where the loop closure puts it for the crank's angle, to the
/// Newton tolerance; the constraints hold to it over 100,000 steps.
#[test]
fn the_slider_follows_the_crank_angle_at_every_step() {
    let (solver, mut s, mut work) = start(0.9, Formulation::Index3);
    let (mut worst_x, mut worst_c) = (0.0f64, 0.0f64);
    for _ in 0..100_000 {
        let r = solver.step(&DRIVEN, &mut s, &mut work, 1e-4).unwrap();
        let (_, x) = loop_closure(s.q[2]);
        worst_x = worst_x.max((s.q[6] - x).abs());
        worst_c = worst_c.max(r.constraint_residual);
    }
    eprintln!(
        "100k steps: max |x - x(phi)| {worst_x:.2e}, max |C| {worst_c:.2e}, phi {:.3}",
        s.q[2]
    );
    assert!(worst_x <= 1e-9 && worst_c <= 1e-10, "{worst_x} {worst_c}");
    // The crank turned several times.
    assert!(s.q[2] > 4.0 * std::f64::consts::PI);
}

/// The slider position and the crank angle at t = 0.5 s converge with order 2 as the step
/// halves (fit over four steps) to the minimal-coordinate reference, in both formulations.
#[test]
fn the_motion_converges_with_order_two() {
    let t_end = 0.5;
    let (phi_ref, _) = slider_crank_reference(TORQUE, t_end);
    let (_, x_ref) = loop_closure(phi_ref);
    for formulation in [Formulation::Index3, Formulation::StabilizedIndex2] {
        let steps = [4e-3f64, 2e-3, 1e-3, 5e-4];
        let mut errors = Vec::new();
        for h in steps {
            let (solver, mut s, mut work) = start(0.9, formulation);
            for _ in 0..(t_end / h).round() as usize {
                solver.step(&DRIVEN, &mut s, &mut work, h).unwrap();
            }
            errors.push((s.q[6] - x_ref).abs().max((s.q[2] - phi_ref).abs()));
        }
        let slope = constrained_support::order(&steps, &errors);
        eprintln!("{formulation:?}: errors {errors:?}, order {slope:.3}");
        assert!(
            (1.85..2.15).contains(&slope),
            "{formulation:?}: order {slope}, {errors:?}"
        );
    }
}

/// Newton converges quadratically on the slider-crank (every Jacobian analytic: the
/// constraint forces' from core's planar Hessians).
#[test]
fn newton_converges_quadratically_on_the_slider_crank() {
    let (solver, mut s, mut work) = start(0.9, Formulation::Index3);
    for _ in 0..2000 {
        solver.step(&DRIVEN, &mut s, &mut work, 1e-4).unwrap();
    }
    let strict = solver
        .with_newton(NewtonSettings {
            relative_tolerance: 1e-13,
            absolute_tolerance: 1e-13,
            max_iterations: 25,
        })
        .unwrap();
    let r = strict.step(&DRIVEN, &mut s, &mut work, 0.02).unwrap();
    let hist = &r.residual_history[..r.history_len as usize];
    let e: Vec<f64> = hist.iter().map(|x| x / hist[0]).collect();
    eprintln!(
        "iterations {}, relative residuals {e:?}",
        r.newton_iterations
    );
    assert!(r.newton_iterations <= 6, "{r:?}");
    for k in 0..e.len() - 1 {
        // Above the rounding floor, each residual is at most ten times the square of the last.
        if e[k + 1] > 1e-13 {
            assert!(e[k + 1] <= 10.0 * e[k] * e[k], "not quadratic: {e:?}");
        }
    }
}

/// Undriven, started turning: with `rho_inf = 1` and the stabilized index 2 the energy stays
/// bounded over 100,000 steps (an oscillating error of the size `(omega h)^2`, no growth; the
/// constraints hold at every step); `rho_inf = 0.6` damps it.
#[test]
fn the_energy_over_100000_steps() {
    let free = SliderCrank { torque: 0.0 };
    let kinetic = |s: &ConstrainedState<f64, S>| {
        0.5 * (M0 * (s.v[0] * s.v[0] + s.v[1] * s.v[1])
            + i0() * s.v[2] * s.v[2]
            + M1 * (s.v[3] * s.v[3] + s.v[4] * s.v[4])
            + i1() * s.v[5] * s.v[5]
            + M2 * (s.v[6] * s.v[6] + s.v[7] * s.v[7]))
    };
    let mut end = Vec::new();
    for (rho, f) in [
        (1.0, Formulation::StabilizedIndex2),
        (0.9, Formulation::Index3),
        (0.6, Formulation::Index3),
    ] {
        let solver = ConstrainedAlpha::new(rho).unwrap().with_formulation(f);
        let mut work = Workspace::<f64, S>::default();
        // The crank turning at 5 rad/s; the assembly makes the other velocities consistent.
        let q0 = start_coordinates::<f64>();
        let v0 = [0.0, 5.0 * A0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let assembly = Assembly {
            solve: true,
            ..Assembly::default()
        };
        let mut s = solver
            .initial_state(&free, 0.0, &q0, &v0, assembly, &mut work)
            .unwrap();
        let e0 = kinetic(&s);
        // The largest |dE/E| of the first and of the second half of the run.
        let mut worst = [0.0f64; 2];
        for i in 0..100_000 {
            let r = solver.step(&free, &mut s, &mut work, 5e-3).unwrap();
            assert!(r.constraint_residual <= 1e-10);
            let w = &mut worst[i / 50_000];
            *w = w.max((kinetic(&s) - e0).abs() / e0);
        }
        let de = (kinetic(&s) - e0) / e0;
        eprintln!(
            "rho {rho} {f:?}: max |dE/E| per half {:.2e} {:.2e}, at the end {de:.2e}",
            worst[0], worst[1]
        );
        if rho == 1.0 {
            // Bounded: an oscillating error of the size (omega h)^2, no growth.
            assert!(
                worst[1] < 1e-3 && worst[1] < 1.2 * worst[0],
                "energy {worst:?}"
            );
        }
        end.push(de);
    }
    // The slider-crank turns slowly against the step (omega h = 0.025): the damping of
    // rho_inf < 1 is small there (the pendulum test measures it), but rho_inf = 0.6 ends below
    // the undamped run.
    assert!(end[2] < end[0], "{end:?}");
}

/// Real-time mode's updates per step are at most the Newton settings' `max_iterations`, whichever
/// is set first; a refused setting leaves the scheme as it was.
#[test]
fn real_time_updates_are_at_most_max_iterations() {
    let few = NewtonSettings {
        max_iterations: 2,
        ..NewtonSettings::default()
    };
    let solver = ConstrainedAlpha::<f64>::new(0.9).unwrap();
    assert_eq!(solver.real_time_updates(), 0);
    let rt = solver.with_real_time_updates(25).unwrap();
    assert_eq!(rt.real_time_updates(), 25);
    assert_eq!(
        solver.with_real_time_updates(26).unwrap_err(),
        mbs_core::Error::OutOfRange(mbs_core::Param::Setting)
    );
    assert!(rt.with_newton(few).is_err());
    let rt2 = solver
        .with_newton(few)
        .unwrap()
        .with_real_time_updates(2)
        .unwrap();
    assert!(rt2.with_real_time_updates(3).is_err());
    assert_eq!(
        rt2.with_real_time_updates(0).unwrap().real_time_updates(),
        0
    );
}
