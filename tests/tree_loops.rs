//! Closed loops on a kinematic tree: a four-bar linkage as a three-link chain (crank, coupler,
//! rocker on revolute z joints) whose rocker tip is held on the second ground pivot, swinging
//! under gravity:
//! - its joint angles follow the four-bar's closed-form kinematics (the two circle
//!   intersection of the coupler and rocker) to the projection's Newton tolerance at every step;
//! - the loop residual stays at that tolerance, the velocities satisfy `J v = 0`;
//! - with RK4 the energy is kept to the step's truncation (order 4 as the step halves);
//! - bad loops: unknown links, no axis, more rows than the capacity, a redundant row (the
//!   out-of-plane axis of a planar loop): each refused, nothing changed (the loop forces the
//!   work reports stay the last success's).

mod constrained_support;
mod four_bar_support;

use constrained_support::order;
use four_bar_support::{chain, closed_form, wrap, Tree, C, D};
use mbs_core::tree::{LoopClosure, LoopSettings, LoopWork, TreeData, TreeScheme, TreeStepSettings};
use mbs_core::{Error, Param};
use nalgebra::Vector3;

fn four_bar() -> (Tree, [LoopClosure<f64>; 1]) {
    let closure = LoopClosure {
        link_a: 2,
        point_a: Vector3::new(C, 0.0, 0.0),
        link_b: None,
        point_b: Vector3::new(D, 0.0, 0.0),
        axes: [true, true, false],
    };
    (chain(), [closure])
}

fn energy(t: &Tree, q: &[f64; 3], v: &[f64; 3]) -> f64 {
    let mut d = TreeData::new();
    t.forward_kinematics(&mut d, q, Some(v)).unwrap();
    t.kinetic_energy(&d) + t.potential_energy(&d, q)
}

/// Runs the four-bar for `t_end` from the crank at 1 rad turning at 5 rad/s (the velocities
/// projected onto the loop first); returns the worst deviation from the closed form (rad), the
/// worst loop residual (m), the worst energy change (J) and the final state.
fn run(scheme: TreeScheme, h: f64, t_end: f64) -> (f64, f64, f64, [f64; 3]) {
    let (t, loops) = four_bar();
    let mut d = TreeData::new();
    let mut w = LoopWork::<f64, 3, 2>::new();
    let mut q = closed_form(1.0);
    let mut v = [5.0, 0.0, 0.0];
    let ls = LoopSettings::default();
    t.project_loops(&mut d, &loops, &mut w, &mut q, &mut v, &ls)
        .unwrap();
    let e0 = energy(&t, &q, &v);
    let settings = TreeStepSettings::with_scheme(scheme);
    let (mut dev, mut res, mut de) = (0.0f64, 0.0f64, 0.0f64);
    for _ in 0..(t_end / h).round() as usize {
        t.step_closed(
            &mut d, &loops, &mut w, &mut q, &mut v, &[0.0; 3], h, &settings, &ls,
        )
        .unwrap();
        let cf = closed_form(q[0]);
        // The joints wind with the crank: compare angles modulo a turn.
        dev = dev
            .max(wrap(q[1] - cf[1]).abs())
            .max(wrap(q[2] - cf[2]).abs());
        res = res.max(w.residual().iter().fold(0.0f64, |m, x| m.max(x.abs())));
        de = de.max((energy(&t, &q, &v) - e0).abs());
    }
    (dev, res, de, q)
}

#[test]
fn a_four_bar_follows_its_closed_form_kinematics() {
    let (dev, res, de, q) = run(TreeScheme::RungeKutta4, 1e-3, 2.0);
    println!("RK4 1 ms, 2 s: closed form {dev:.1e} rad, residual {res:.1e} m, energy {de:.1e} J, crank {:.3} rad", q[0]);
    assert!(dev < 1e-8, "{dev}");
    assert!(res <= 1e-10, "{res}");
    // The crank went round (a crank-rocker under gravity from 5 rad/s).
    assert!(q[0].abs() > 1.0);
    let (dev, res, _, _) = run(TreeScheme::SemiImplicitEuler, 1e-3, 2.0);
    println!("semi-implicit Euler: closed form {dev:.1e} rad, residual {res:.1e} m");
    assert!(dev < 1e-8 && res <= 1e-10);
}

#[test]
fn rk4_keeps_the_energy_with_order_4() {
    let steps = [4e-3, 2e-3, 1e-3];
    let errors: Vec<f64> = steps
        .iter()
        .map(|&h| run(TreeScheme::RungeKutta4, h, 1.0).2)
        .collect();
    let p = order(&steps, &errors);
    println!("energy errors {errors:?} J, order {p:.2}");
    assert!(p > 3.5, "{p}");
}

#[test]
fn the_velocities_satisfy_the_loop_and_the_forces_hold_it() {
    let (t, loops) = four_bar();
    let mut d = TreeData::new();
    let mut w = LoopWork::<f64, 3, 2>::new();
    let mut q = closed_form(0.4);
    let mut v = [3.0, 1.0, -2.0];
    t.project_loops(
        &mut d,
        &loops,
        &mut w,
        &mut q,
        &mut v,
        &LoopSettings::default(),
    )
    .unwrap();
    // The rocker tip's velocity (the loop point) is zero after the projection.
    t.forward_kinematics(&mut d, &q, Some(&v)).unwrap();
    let mut jac = [0.0; 18];
    t.point_jacobian(&d, 2, &Vector3::new(C, 0.0, 0.0), &mut jac)
        .unwrap();
    for r in 3..5 {
        let vel: f64 = (0..3).map(|k| jac[r * 3 + k] * v[k]).sum();
        assert!(vel.abs() < 1e-12, "{vel}");
    }
    // The constrained accelerations keep the loop point at rest: J q_tt + J_t v = 0, checked
    // by a central difference of the tip's velocity along the motion.
    let mut acc = [0.0; 3];
    t.loop_accelerations(&mut d, &loops, &mut w, &q, &v, &[0.0; 3], &mut acc)
        .unwrap();
    let tip_vel = |s: f64| {
        let mut qs = q;
        let mut vs = v;
        for k in 0..3 {
            qs[k] += s * v[k] + 0.5 * s * s * acc[k];
            vs[k] += s * acc[k];
        }
        let mut dd = TreeData::new();
        t.forward_kinematics(&mut dd, &qs, Some(&vs)).unwrap();
        let mut j = [0.0; 18];
        t.point_jacobian(&dd, 2, &Vector3::new(C, 0.0, 0.0), &mut j)
            .unwrap();
        [3, 4].map(|r| (0..3).map(|k| j[r * 3 + k] * vs[k]).sum::<f64>())
    };
    let (p, m) = (tip_vel(1e-5), tip_vel(-1e-5));
    for i in 0..2 {
        assert!(
            ((p[i] - m[i]) / 2e-5).abs() < 1e-5,
            "tip acceleration {}",
            (p[i] - m[i]) / 2e-5
        );
    }
    // The loop carries load: its forces are finite and not zero.
    assert!(w.forces().iter().all(|f| f.is_finite()) && w.forces().iter().any(|f| f.abs() > 0.1));
}

#[test]
fn bad_loops_are_refused() {
    let (t, loops) = four_bar();
    let mut d = TreeData::new();
    let mut w = LoopWork::<f64, 3, 2>::new();
    let q0 = closed_form(1.0);
    let v0 = [1.0, 0.0, 0.0];
    let ls = LoopSettings::default();
    let ts = TreeStepSettings::default();
    let mut check = |l: &[LoopClosure<f64>], e: Error| {
        let (mut q, mut v) = (q0, v0);
        assert_eq!(
            t.step_closed(&mut d, l, &mut w, &mut q, &mut v, &[0.0; 3], 1e-3, &ts, &ls),
            Err(e)
        );
        assert_eq!((q, v), (q0, v0));
        let mut acc = [7.0; 3];
        assert_eq!(
            t.loop_accelerations(&mut d, l, &mut w, &q0, &v0, &[0.0; 3], &mut acc),
            Err(e)
        );
        assert_eq!(acc, [7.0; 3]);
    };
    let mut l = loops[0];
    l.link_a = 3;
    check(&[l], Error::UnknownIndex);
    l = loops[0];
    l.link_b = Some(9);
    check(&[l], Error::UnknownIndex);
    l = loops[0];
    l.axes = [false; 3];
    check(&[l], Error::OutOfRange(Param::Coordinate));
    l = loops[0];
    l.point_a.x = f64::NAN;
    check(&[l], Error::NotFinite(Param::LocalPosition));
    // Three rows for a capacity of two.
    l = loops[0];
    l.axes = [true; 3];
    check(&[l], Error::CapacityFull);
    // The out-of-plane row of a planar loop is zero: the loop rows are singular.
    let mut w3 = LoopWork::<f64, 3, 3>::new();
    let (mut q, mut v) = (q0, v0);
    assert_eq!(
        t.step_closed(
            &mut d,
            &[l],
            &mut w3,
            &mut q,
            &mut v,
            &[0.0; 3],
            1e-3,
            &ts,
            &ls
        ),
        Err(Error::SingularMatrix)
    );
    assert_eq!((q, v), (q0, v0));
    // A refusal after the loop rows were evaluated leaves what the work reports: the forces
    // (and their count) and the iterations of the last success (here, none yet).
    assert!(w3.forces().is_empty() && w3.iterations() == 0);
    let mut acc = [7.0; 3];
    assert_eq!(
        t.loop_accelerations(&mut d, &[l], &mut w3, &q0, &v0, &[0.0; 3], &mut acc),
        Err(Error::SingularMatrix)
    );
    assert!(w3.forces().is_empty() && w3.iterations() == 0);
    // ... and after a success, that success's.
    let mut w2 = LoopWork::<f64, 3, 3>::new();
    t.loop_accelerations(&mut d, &loops, &mut w2, &q0, &v0, &[0.0; 3], &mut acc)
        .unwrap();
    let forces = w2.forces().to_vec();
    assert_eq!(forces.len(), 2);
    assert_eq!(
        t.loop_accelerations(&mut d, &[l], &mut w2, &q0, &v0, &[0.0; 3], &mut acc),
        Err(Error::SingularMatrix)
    );
    assert_eq!(w2.forces(), &forces[..]);
}
