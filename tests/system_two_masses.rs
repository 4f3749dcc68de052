//! Two mass points joined by a spring (no damping), free in the plane: the total momentum is
//! kept to round-off (the connector's forces are equal and opposite) and the energy stays
//! bounded over a long run (kick-drift-kick is symplectic), while held loads let it drift.

mod system_support;

use mbs_core::system::{
    Connector, HostSystem, Marker, MassPointSpec, NoSink, NodeIndex, SpringDamper, SystemScheme,
    SystemSettings,
};
use nalgebra::{Vector2, Vector3};
use system_support::point;

const M1: f64 = 1.0;
const M2: f64 = 3.0;
const K: f64 = 100.0;
const L0: f64 = 1.0;

fn build(settings: SystemSettings<f64>) -> (HostSystem<f64>, NodeIndex, NodeIndex) {
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(settings).unwrap();
    let mut a = MassPointSpec::new(M1, Vector2::new(0.0, 0.0));
    a.initial_velocity = Vector2::new(0.0, 0.5);
    let mut b = MassPointSpec::new(M2, Vector2::new(1.0, 0.2));
    b.initial_displacement = Vector2::new(0.2, 0.1);
    b.initial_velocity = Vector2::new(0.2, -0.4);
    let a = mbs.create_mass_point(&a).unwrap();
    let b = mbs.create_mass_point(&b).unwrap();
    let ma = mbs
        .add_marker(Marker::body_position(a.object, Vector3::zeros()).unwrap())
        .unwrap();
    let mb = mbs
        .add_marker(Marker::body_position(b.object, Vector3::zeros()).unwrap())
        .unwrap();
    mbs.add_connector(Connector::SpringDamper(
        SpringDamper::new([ma, mb], K, 0.0, L0, 0.0).unwrap(),
    ))
    .unwrap();
    mbs.assemble().unwrap();
    (mbs, a.node, b.node)
}

/// Momentum (kg m/s, world) and energy (J) computed from the node states and the parameters
/// here (not from the system's outputs).
fn invariants(mbs: &HostSystem<f64>, a: NodeIndex, b: NodeIndex) -> (Vector2<f64>, f64) {
    let (sa, sb) = (point(mbs, a), point(mbs, b));
    let pa = Vector2::new(0.0, 0.0) + sa.q;
    let pb = Vector2::new(1.0, 0.2) + sb.q;
    let p = sa.q_t * M1 + sb.q_t * M2;
    let l = (pb - pa).norm();
    let e = 0.5 * M1 * sa.q_t.norm_squared()
        + 0.5 * M2 * sb.q_t.norm_squared()
        + 0.5 * K * (l - L0).powi(2);
    (p, e)
}

#[test]
fn momentum_is_kept_to_round_off_and_energy_stays_bounded() {
    let (mut mbs, a, b) = build(SystemSettings::default());
    let (p0, e0) = invariants(&mbs, a, b);
    let h = 1e-3;
    let n = 200_000; // 200 s, about 370 periods of the spring
    let mut max_dp: f64 = 0.0;
    let mut dev_first: f64 = 0.0;
    let mut dev_last: f64 = 0.0;
    for k in 0..n {
        mbs.step(h, &mut NoSink).unwrap();
        let (p, e) = invariants(&mbs, a, b);
        max_dp = max_dp.max((p - p0).amax());
        let dev = ((e - e0) / e0).abs();
        if k < n / 4 {
            dev_first = dev_first.max(dev);
        } else if k >= 3 * n / 4 {
            dev_last = dev_last.max(dev);
        }
    }
    println!(
        "two masses, 2e5 steps: max |dP| = {max_dp:.2e}, energy deviation first quarter \
         {dev_first:.2e}, last quarter {dev_last:.2e}"
    );
    // round-off: ~1e-16 per step at |P| ~ 1, accumulated as a random walk over 2e5 steps
    assert!(max_dp < 1e-12, "momentum drift {max_dp}");
    // symplectic: the energy error oscillates at O((h w)^2) and does not grow
    assert!(dev_last < 1e-4, "energy deviation {dev_last}");
    assert!(dev_last < 1.5 * dev_first, "{dev_first} -> {dev_last}");
}

#[test]
fn held_loads_drift_in_energy_where_kick_drift_kick_does_not() {
    // The same run with held loads: the energy error grows secularly (what the test above
    // rules out for the default scheme).
    let (mut mbs, a, b) = build(SystemSettings::default().with_scheme(SystemScheme::HeldLoads));
    let (p0, e0) = invariants(&mbs, a, b);
    for _ in 0..20_000 {
        mbs.step(1e-3, &mut NoSink).unwrap();
    }
    let (p, e) = invariants(&mbs, a, b);
    println!(
        "held loads after 20 s: energy {:.3e} relative",
        (e - e0) / e0
    );
    assert!(((e - e0) / e0).abs() > 1e-2);
    // momentum is still kept: equal and opposite held forces
    assert!((p - p0).amax() < 1e-12);
}
