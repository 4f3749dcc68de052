//! Measured convergence orders of the midpoint step's options against an independent
//! reference: a classical RK4 written here (nalgebra quaternions, not mbs's step code) on the
//! Euler equations `I w_t = tau - w x I w - R w` and `q_t = q (0, w)/2` with a step 40x finer
//! than the finest tested step, and the closed form `v0 exp(-c t / m)` for linear damping.
//!
//! Torque-free body diag(1, 2, 3), `w0 = [0.1, 5, 0.1]` (near the unstable middle axis), and the
//! same body with angular resistance `0.5 E3` N m s plus linear resistance. Errors at t = 4 s
//! over five steps, slope of a log-log least-squares fit.

mod rigid_support;

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::integrators::rigid::midpoint::{LinearlyImplicitMidpoint, MidpointSettings};
use mbs_core::integrators::{Invariants, OrientationUpdate, Resistance, RigidLoads};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use rigid_support::*;

const DTS: [f64; 5] = [0.02, 0.01, 0.005, 0.0025, 0.00125];
const T_END: f64 = 4.0;
const MASS: f64 = 2.0;
const C_LIN: f64 = 1.5;
const C_ANG: f64 = 0.5;

fn inertia() -> Matrix3<f64> {
    Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0))
}

/// Reference rate and orientation at `t` (RK4 on the Euler equations and quaternion kinematics,
/// renormalized each step) under the isotropic angular resistance `c`.
fn reference(w0: Vector3<f64>, c: f64, t: f64) -> (Vector3<f64>, UnitQuaternion<f64>) {
    let i = inertia();
    let i_inv = i.try_inverse().unwrap();
    let f = |w: &Vector3<f64>| i_inv * (-w.cross(&(i * w)) - w * c);
    let qdot = |q: &nalgebra::Quaternion<f64>, w: &Vector3<f64>| {
        q * nalgebra::Quaternion::from_parts(0.0, *w) * 0.5
    };
    let h = DTS[DTS.len() - 1] / 40.0;
    let n = steps(t, h);
    let (mut w, mut q) = (w0, nalgebra::Quaternion::identity());
    for _ in 0..n {
        let (k1w, k1q) = (f(&w), qdot(&q, &w));
        let (w2, q2) = (w + k1w * (h / 2.0), q + k1q * (h / 2.0));
        let (k2w, k2q) = (f(&w2), qdot(&q2, &w2));
        let (w3, q3) = (w + k2w * (h / 2.0), q + k2q * (h / 2.0));
        let (k3w, k3q) = (f(&w3), qdot(&q3, &w3));
        let (w4, q4) = (w + k3w * h, q + k3q * h);
        let (k4w, k4q) = (f(&w4), qdot(&q4, &w4));
        w += (k1w + k2w * 2.0 + k3w * 2.0 + k4w) * (h / 6.0);
        q += (k1q + k2q * 2.0 + k3q * 2.0 + k4q) * (h / 6.0);
        q = q.normalize();
    }
    (w, UnitQuaternion::from_quaternion(q))
}

struct Slopes {
    /// Body-frame angular velocity.
    w: f64,
    /// Orientation (angle of q_ref^-1 q).
    q: f64,
    /// COM velocity against the closed form (damped runs only).
    v: f64,
    /// Errors at the finest step (w, q).
    finest: (f64, f64),
}

fn measure(settings: MidpointSettings<f64>, damped: bool) -> Slopes {
    let w0 = Vector3::new(0.1, 5.0, 0.1);
    let v0 = Vector3::new(1.0, -0.5, 0.25);
    let c_ang = if damped { C_ANG } else { 0.0 };
    let (w_ref, q_ref) = reference(w0, c_ang, T_END);
    let v_ref = if damped {
        v0 * (-C_LIN * T_END / MASS).exp()
    } else {
        v0
    };
    let body = RigidBody::from_principal(MASS, [1.0, 2.0, 3.0], Vector3::zeros()).unwrap();
    let loads = if damped {
        RigidLoads::none()
            .with_angular_damping(C_ANG)
            .with_linear_damping(C_LIN)
    } else {
        RigidLoads::none()
    };
    let integ = LinearlyImplicitMidpoint::with_settings(settings);
    let (mut ew, mut eq, mut ev) = (vec![], vec![], vec![]);
    for &dt in &DTS {
        let mut s = RigidState::new(Vector3::zeros(), Quaternion::identity(), v0, w0);
        run(&integ, &body, &loads, &mut s, dt, steps(T_END, dt));
        let q = s.orientation;
        let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q.w, q.x, q.y, q.z));
        ew.push((s.angular_velocity - w_ref).norm());
        eq.push(q_ref.angle_to(&q));
        ev.push((s.velocity - v_ref).norm());
    }
    let out = Slopes {
        w: slope(&DTS, &ew),
        q: slope(&DTS, &eq),
        v: if damped { slope(&DTS, &ev) } else { f64::NAN },
        finest: (ew[DTS.len() - 1], eq[DTS.len() - 1]),
    };
    eprintln!(
        "{:?} {:?} {:?} damped {damped}:\n  |w| err {} slope {:.3}\n  q angle {} slope {:.3}\n  |v| err {} slope {:.3}",
        settings.orientation,
        settings.resistance,
        settings.invariants,
        fmt(&ew),
        out.w,
        fmt(&eq),
        out.q,
        fmt(&ev),
        out.v
    );
    out
}

fn fmt(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x:.2e}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn settings(o: OrientationUpdate, r: Resistance, i: Invariants) -> MidpointSettings<f64> {
    MidpointSettings::default()
        .with_orientation(o)
        .with_resistance(r)
        .with_invariants(i)
}

#[test]
fn reference_is_converged() {
    // The reference's own error: halving its step changes it by far less than the finest
    // tested step's error (about 1e-6 in w, see the other tests' output).
    let w0 = Vector3::new(0.1, 5.0, 0.1);
    let (w, q) = reference(w0, C_ANG, T_END);
    let i = inertia();
    // Damped: energy decays; undamped reference keeps energy and |L| to 1e-12.
    let (wu, _) = reference(w0, 0.0, T_END);
    let e0 = rot_energy(&i, &w0);
    assert!(((rot_energy(&i, &wu) - e0) / e0).abs() < 1e-12);
    assert!((((i * wu).norm() - (i * w0).norm()) / (i * w0).norm()).abs() < 1e-12);
    assert!(rot_energy(&i, &w) < e0);
    assert!(q.angle() > 0.1);
}

#[test]
fn torque_free_orders_of_the_orientation_update() {
    use Invariants as P;
    use OrientationUpdate::*;
    use Resistance::*;
    // Default: rate order 2, orientation order 1.
    let s = measure(settings(EndRate, Implicit, P::None), false);
    assert!(s.w >= 1.9, "w slope {}", s.w);
    assert!((0.9..=1.3).contains(&s.q), "EndRate q slope {}", s.q);
    // Mean rate: orientation order 2, same rate.
    let m = measure(settings(MeanRate, Implicit, P::None), false);
    assert!(m.w >= 1.9, "w slope {}", m.w);
    assert!(m.q >= 1.9, "MeanRate q slope {}", m.q);
    assert!(m.finest.1 < s.finest.1 / 20.0);
    // The projection keeps the orders.
    let p = measure(settings(EndRate, Implicit, P::Project), false);
    assert!(p.w >= 1.9 && (0.9..=1.3).contains(&p.q), "{} {}", p.w, p.q);
    let pm = measure(settings(MeanRate, Implicit, P::Project), false);
    assert!(pm.w >= 1.9 && pm.q >= 1.9, "{} {}", pm.w, pm.q);
    // Without resistance, Trapezoidal is the same step as Implicit.
    let t = measure(settings(MeanRate, Trapezoidal, P::None), false);
    assert_eq!(t.finest, m.finest);
}

#[test]
fn damped_orders_of_the_resistance_treatment() {
    use Invariants as P;
    use OrientationUpdate::*;
    use Resistance::*;
    // Default: backward Euler damping, velocity (linear and angular) order 1.
    let s = measure(settings(EndRate, Implicit, P::None), true);
    assert!((0.9..=1.3).contains(&s.w), "Implicit w slope {}", s.w);
    assert!((0.9..=1.3).contains(&s.v), "Implicit v slope {}", s.v);
    assert!((0.9..=1.3).contains(&s.q), "EndRate q slope {}", s.q);
    // Trapezoidal: velocity order 2.
    let t = measure(settings(EndRate, Trapezoidal, P::None), true);
    assert!(t.w >= 1.9, "Trapezoidal w slope {}", t.w);
    assert!(t.v >= 1.9, "Trapezoidal v slope {}", t.v);
    // Both second-order options: rate, velocity and orientation order 2.
    let b = measure(MidpointSettings::second_order(), true);
    assert!(
        b.w >= 1.9 && b.v >= 1.9 && b.q >= 1.9,
        "{} {} {}",
        b.w,
        b.v,
        b.q
    );
    // The mean rate alone does not lift the orientation past the order-1 rate error.
    let m = measure(settings(MeanRate, Implicit, P::None), true);
    assert!((0.9..=1.3).contains(&m.w), "{}", m.w);
    // With resistance the projection does not apply: bit-identical to no projection.
    let p = measure(settings(EndRate, Trapezoidal, P::Project), true);
    assert_eq!(p.finest, t.finest);
}
