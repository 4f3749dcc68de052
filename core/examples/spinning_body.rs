//! Modelica's `BodyCylinder` (a steel cylinder, 0.1 m long and 0.1 m in diameter, frame_a at
//! one end) spinning at 50 rad/s about its axis with a 1 rad/s wobble, stepped by the linearly
//! implicit midpoint rule for 1 s at 1 ms: the energy and the axial rate stay (Euler's equations
//! of a symmetric body keep both), the wobble precesses.
//!
//! `cargo run -p mbs-core --example spinning_body`

use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{RigidIntegrator, RigidLoads};
use nalgebra::Vector3;

fn main() -> Result<(), mbs_core::Error> {
    let start = ModelicaStart {
        w_0_start: Vector3::new(50.0, 1.0, 0.0),
        ..ModelicaStart::default()
    };
    let cylinder = BodyCylinder::params(Vector3::new(0.1, 0.0, 0.0))
        .diameter(0.1)
        .start(start)
        .build()?;
    let body = *cylinder.body();
    let d = cylinder.derived();
    let mut state = cylinder.initial_state();
    let step = LinearlyImplicitMidpoint::new();
    let energy = |w: &Vector3<f64>| 0.5 * (d.i11 * w.x * w.x + d.i22 * (w.y * w.y + w.z * w.z));
    let e0 = energy(&state.angular_velocity);
    for _ in 0..1000 {
        step.step(&body, &RigidLoads::none(), &mut state, 1e-3)?;
    }
    let w = state.angular_velocity;
    println!(
        "mass {:.4} kg, I11 {:.3e} kg m^2, I22 {:.3e} kg m^2",
        d.m, d.i11, d.i22
    );
    println!("after 1 s: body rates {:.6?} rad/s", w.as_slice());
    println!(
        "axial rate change {:.1e} rad/s, relative energy change {:.1e}",
        w.x - 50.0,
        (energy(&w) - e0) / e0
    );
    Ok(())
}
