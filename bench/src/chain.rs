//! The scaling model: a hanging chain of `n` rigid bodies joined by spring-dampers, under
//! gravity, stepped by the [`System`](mbs_core::system) with its default scheme
//! (kick-drift-kick; the drift is the linearly implicit midpoint rate update with the orientation
//! turned by the mean rate).
//!
//! Each body: 1 kg, principal inertia `diag(0.01, 0.02, 0.03)` kg m^2 (COM at the node), at
//! `(0.5 i, 0, 0)` m, i = 1..n. Spring-damper `i` joins body `i - 1` (the ground for i = 1)
//! to body `i` between their reference points: `k = 1000` N/m, `d = 5` N s/m, `l0 = 0.5` m.
//! Gravity `[0, -9.81, 0]` m/s^2. With `dt = 1e-3` s, `dt sqrt(k/m) = 0.03` (well inside the
//! explicit bound of the scheme). The chain swings down and oscillates (damped); each body
//! also spins from its start rate (the springs act at the COMs, so that spin is torque-free).
//! The work per step does not depend on the state.

use mbs_core::inertia::MassProperties;
use mbs_core::system::{Connector, HostSystem, Marker, RigidBodySpec, SpringDamper};
use mbs_core::Result;
use nalgebra::{Matrix3, Vector3};

/// Spring stiffness (N/m).
pub const K: f64 = 1000.0;
/// Damping (N s/m).
pub const D: f64 = 5.0;
/// Spring length at rest and body spacing (m).
pub const L0: f64 = 0.5;

/// A boxed (large) host system holding the chain of `n` bodies, assembled.
pub fn chain(n: usize) -> Result<Box<HostSystem<f64>>> {
    let mut sys = Box::new(HostSystem::<f64>::new());
    let ground = sys.create_ground(Vector3::zeros())?;
    let mut prev = sys.add_marker(Marker::body_position(ground, Vector3::zeros())?)?;
    let mass = MassProperties::new(
        1.0,
        Vector3::zeros(),
        Matrix3::from_diagonal(&Vector3::new(0.01, 0.02, 0.03)),
    )?;
    for i in 1..=n {
        let mut spec = RigidBodySpec::at(Vector3::new(L0 * i as f64, 0.0, 0.0));
        spec.gravity = Some(Vector3::new(0.0, -9.81, 0.0));
        // a small twist so the bodies also spin
        spec.angular_velocity = Vector3::new(0.1, 0.2 * (i % 3) as f64, 0.3);
        let body = sys.create_rigid_body(&mass, &spec)?;
        let m = sys.add_marker(Marker::body_position(body.object, Vector3::zeros())?)?;
        sys.add_connector(Connector::SpringDamper(SpringDamper::new(
            [prev, m],
            K,
            D,
            L0,
            0.0,
        )?))?;
        prev = m;
    }
    sys.assemble()?;
    Ok(sys)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mbs_core::system::{NoSink, NodeIndex, NodeState};

    /// The chain has one node and one spring-damper per body, and gravity pulls it down: after
    /// 0.2 s every body is below its start, and the centre of mass of the chain fell no farther
    /// than free fall (1/2 g t^2): the only other external force is the ground spring's pull
    /// toward its anchor above the chain (it starts unstretched and only stretches).
    #[test]
    fn chain_centre_of_mass_falls_no_faster_than_free_fall() {
        let n = 5;
        let mut sys = chain(n).unwrap();
        let [nodes, objects, _, loads, connectors, _] = sys.counts();
        assert_eq!((nodes, objects, loads, connectors), (n, n + 1, n, n));
        for _ in 0..200 {
            sys.step(1e-3, &mut NoSink).unwrap();
        }
        let free_fall = 0.5 * 9.81 * 0.2f64.powi(2);
        let mut y_sum = 0.0;
        for i in 0..n {
            let NodeState::RigidBody(s) =
                sys.node_state(NodeIndex::from_usize(i).unwrap()).unwrap()
            else {
                panic!("node {i} is not a rigid body");
            };
            let y = s.position.y;
            assert!(y < 0.0, "body {i}: y = {y}");
            y_sum += y;
        }
        let y_com = y_sum / n as f64;
        assert!(
            -y_com <= free_fall && -y_com > 0.1 * free_fall,
            "y_com = {y_com}"
        );
    }
}
