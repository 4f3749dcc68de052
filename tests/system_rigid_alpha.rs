//! 3D rigid bodies stepped by the generalized-alpha scheme in Euler parameters (Exudyn's
//! `NodeRigidBodyEP`): a free asymmetric body with an offset centre of mass over 100,000 steps
//! at rho_inf = 1 with the stabilized index-2 constraints (kinetic energy, the world angular momentum about the COM and the COM
//! velocity are invariants of the motion; the orientation a unit quaternion to round-off), and
//! free fall under gravity against the closed form with order 2. (The order against an
//! independent RK4 reference on an off-centre spring-damper is in `system_rigid.rs`.)

mod system_support;

use mbs_core::inertia::MassProperties;
use mbs_core::integrators::constrained::Formulation;
use mbs_core::math::Quaternion;
use mbs_core::system::{HostSystem, NoSink, RigidBodySpec, SystemScheme, SystemSettings};
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use system_support::{rigid, slope};

fn uq(q: &Quaternion<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q.w, q.x, q.y, q.z))
}

fn v3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("{other:?}"),
    }
}

/// Generalized-alpha at `rho`; at 1 (no numerical damping) with the stabilized index-2
/// constraints (index 3 needs `rho < 1`).
fn alpha(rho: f64) -> SystemSettings<f64> {
    let mut s = SystemSettings::default().with_scheme(SystemScheme::GeneralizedAlpha);
    s.alpha.spectral_radius = rho;
    if rho == 1.0 {
        s.alpha.formulation = Formulation::StabilizedIndex2;
    }
    s
}

fn body() -> MassProperties<f64> {
    let c = Vector3::new(0.1, -0.05, 0.2);
    MassProperties::new(
        2.0,
        c,
        Matrix3::new(0.1, 0.01, 0.0, 0.01, 0.2, -0.02, 0.0, -0.02, 0.25),
    )
    .unwrap()
}

fn spec() -> RigidBodySpec<f64> {
    let mut spec = RigidBodySpec::at(Vector3::new(1.0, 2.0, 3.0));
    spec.orientation = Quaternion::exp(&Vector3::new(0.3, -0.2, 0.5));
    spec.velocity = Vector3::new(1.0, 2.0, -0.5);
    spec.angular_velocity = Vector3::new(0.5, -3.0, 2.0); // world, near the middle axis
    spec
}

/// (kinetic energy J, world angular momentum about the COM N m s, COM velocity m/s).
fn invariants(
    mbs: &HostSystem<f64>,
    b: &mbs_core::system::CreatedBody,
) -> (f64, Vector3<f64>, Vector3<f64>) {
    let mp = body();
    let s = rigid(mbs, b.node);
    let r = uq(&s.orientation);
    let v_com = v3(mbs
        .object_output(b.object, OutputVariableType::Velocity, &mp.com)
        .unwrap());
    let w = s.angular_velocity; // body frame
    let l = r * (mp.inertia * w);
    let e = 0.5 * mp.mass * v_com.norm_squared() + 0.5 * w.dot(&(mp.inertia * w));
    (e, l, v_com)
}

#[test]
fn free_asymmetric_body_keeps_its_invariants_over_100k_steps() {
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(alpha(1.0)).unwrap();
    let b = mbs.create_rigid_body(&body(), &spec()).unwrap();
    mbs.assemble().unwrap();
    let (e0, l0, v0) = invariants(&mbs, &b);
    let (mut de, mut dl, mut dv, mut dq) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let mut newton = 0u64;
    let steps = 100_000;
    for k in 0..steps {
        let r = mbs.step(1e-3, &mut NoSink).unwrap();
        newton += u64::from(r.newton_iterations);
        if k % 100 == 99 {
            let (e, l, v) = invariants(&mbs, &b);
            de = de.max(((e - e0) / e0).abs());
            dl = dl.max((l - l0).norm() / l0.norm());
            dv = dv.max((v - v0).norm());
            let q = rigid(&mbs, b.node).orientation;
            dq = dq.max((q.norm() - 1.0).abs());
        }
    }
    println!(
        "free body, 100k steps of 1 ms, rho 1: energy {de:.2e}, L {dl:.2e}, v_com {dv:.2e} m/s, \
         |q| - 1 {dq:.2e}, Newton {:.2} per step",
        newton as f64 / steps as f64
    );
    // Bounded, not drifting: the error of a second-order scheme at this step, not growing
    // with the number of steps (a drift of 1e-7 per step would be 1e-2 here).
    assert!(de < 1e-4 && dl < 1e-3, "{de} {dl}");
    // The COM velocity, coupled to the rotation through the offset COM in these coordinates,
    // to the same accuracy.
    assert!(dv < 1e-5 * v0.norm(), "{dv}");
    assert!(dq < 4.0 * f64::EPSILON, "{dq}");
}

#[test]
fn free_fall_is_second_order_against_the_closed_form() {
    let g = Vector3::new(0.0, -9.81, 0.0);
    let mp = body();
    let s0 = spec();
    let rc = uq(&s0.orientation) * mp.com;
    let want = s0.position + rc + s0.velocity + s0.angular_velocity.cross(&rc) + g * 0.5;
    let dts: [f64; 4] = [0.02, 0.01, 0.005, 0.0025];
    let errs: Vec<f64> = dts
        .iter()
        .map(|h| {
            let mut mbs = HostSystem::<f64>::new();
            mbs.set_settings(alpha(0.9)).unwrap();
            let mut s = spec();
            s.gravity = Some(g);
            let b = mbs.create_rigid_body(&mp, &s).unwrap();
            mbs.assemble().unwrap();
            for _ in 0..(1.0f64 / h).round() as usize {
                mbs.step(*h, &mut NoSink).unwrap();
            }
            let got = v3(mbs
                .object_output(b.object, OutputVariableType::Position, &mp.com)
                .unwrap());
            (got - want).norm()
        })
        .collect();
    let order = slope(&dts, &errs);
    println!("free fall, COM error at 1 s: {errs:?}, order {order:.3}");
    assert!((1.9..2.2).contains(&order), "{order}");
}

/// A free asymmetric body spinning fast (100 rad/s, `omega h = 0.1` at 1 ms, about an axis
/// near the middle one), index 3 (rho 0.9) and stabilized index 2 (rho 1): its Euler-parameter
/// mass matrix times the accelerations, its gyroscopic force and (index 2) its normalization's
/// velocity row `2 e . e_t` depend on `e` by terms that grow with `omega`, which the Newton
/// matrix holds. Newton then converges quadratically in 2 updates a step; without those terms
/// it took 3 a step, linearly (`r_k+1 / r_k^2` up to 9), and at 300 rad/s did not converge.
#[test]
fn a_fast_spinning_body_keeps_newton_quadratic() {
    for rho in [0.9, 1.0] {
        let mut mbs = HostSystem::<f64>::new();
        mbs.set_settings(alpha(rho)).unwrap();
        let mut s = spec();
        s.angular_velocity = Vector3::new(0.5, -3.0, 2.0).normalize() * 100.0;
        let b = mbs.create_rigid_body(&body(), &s).unwrap();
        mbs.assemble().unwrap();
        let (e0, l0, _) = invariants(&mbs, &b);
        let (mut worst, mut total, mut worst_ratio) = (0u32, 0u32, 0.0f64);
        let (mut de, mut dl) = (0.0f64, 0.0f64);
        for _ in 0..1000 {
            let r = mbs.step(1e-3, &mut NoSink).unwrap();
            worst = worst.max(r.newton_iterations);
            total += r.newton_iterations;
            let nr = mbs.newton_report().unwrap();
            for w in nr.residual_history[..nr.history_len as usize].windows(2) {
                if w[0] > 1e-4 && w[1] > 1e-11 {
                    worst_ratio = worst_ratio.max(w[1] / (w[0] * w[0]));
                }
            }
            let (e, l, _) = invariants(&mbs, &b);
            de = de.max(((e - e0) / e0).abs());
            dl = dl.max((l - l0).norm() / l0.norm());
        }
        println!(
            "fast spin (100 rad/s, 1 ms), rho {rho}: Newton updates {:.2} a step, at most {worst}, \
             max r_k+1 / r_k^2 {worst_ratio:.2e}, energy {de:.2e}, L {dl:.2e}",
            f64::from(total) / 1000.0
        );
        assert!(worst <= 2, "rho {rho}: {worst}");
        assert!(worst_ratio < 1.0, "rho {rho}: {worst_ratio}");
        if rho == 1.0 {
            // No numerical damping: the invariants to the scheme's error at omega h = 0.1.
            assert!(de < 1e-2 && dl < 1e-2, "{de} {dl}");
        }
    }
}
