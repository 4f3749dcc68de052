//! Inverse and forward dynamics of a two-link planar arm in joint coordinates: the gravity
//! torques that hold it, the mass matrix, the accelerations of given torques, and a short run.
//!
//! `cargo run -p mbs-core --example arm_dynamics`

use mbs_core::inertia::Cuboid;
use mbs_core::tree::{Joint, KinematicTree, Transform, TreeData, TreeScheme, TreeStepSettings};
use nalgebra::Vector3;

fn main() -> Result<(), mbs_core::Error> {
    // Two aluminium bars (0.5 m x 0.04 m x 0.04 m) on revolute z joints, gravity along -y.
    let bar = Cuboid::new(Vector3::new(0.5, 0.04, 0.04))
        .density(2700.0)
        .center(Vector3::new(0.25, 0.0, 0.0))
        .mass_properties()?;
    let mut arm = KinematicTree::<f64, 2, 2>::new(Vector3::new(0.0, -9.81, 0.0))?;
    let z = Joint::revolute(Vector3::z())?;
    let shoulder = arm.add_link(None, z, Transform::identity(), &bar)?;
    arm.add_link(
        Some(shoulder),
        z,
        Transform::translation(Vector3::new(0.5, 0.0, 0.0)),
        &bar,
    )?;
    let mut data = TreeData::new();

    // Gravity compensation: the torques that hold the arm still at q.
    let q = [0.3, 0.6];
    let mut hold = [0.0; 2];
    arm.bias_forces(&mut data, &q, &[0.0; 2], &mut hold)?;
    println!("holding torques at q = {q:?} rad: {hold:.4?} N m");

    // The mass matrix, and the accelerations of 1 N m more on the shoulder.
    arm.crba(&mut data, &q)?;
    let m = |i, j| data.mass_matrix(i, j).unwrap_or(f64::NAN);
    println!(
        "mass matrix: [[{:.5}, {:.5}], [{:.5}, {:.5}]] kg m^2",
        m(0, 0),
        m(0, 1),
        m(1, 0),
        m(1, 1)
    );
    let tau = [hold[0] + 1.0, hold[1]];
    let mut acc = [0.0; 2];
    arm.aba(&mut data, &q, &[0.0; 2], &tau, &mut acc)?;
    println!("accelerations of 1 N m more on the shoulder: {acc:.4?} rad/s^2");

    // Let it fall for 1 s (RK4, 1 ms) and watch the energy.
    let (mut q, mut v) = (q, [0.0; 2]);
    let energy =
        |d: &mut TreeData<f64, 2, 2>, q: &[f64; 2], v: &[f64; 2]| -> Result<f64, mbs_core::Error> {
            arm.forward_kinematics(d, q, Some(v))?;
            Ok(arm.kinetic_energy(d) + arm.potential_energy(d, q))
        };
    let e0 = energy(&mut data, &q, &v)?;
    let settings = TreeStepSettings::with_scheme(TreeScheme::RungeKutta4);
    for _ in 0..1000 {
        arm.step(&mut data, &mut q, &mut v, &[0.0; 2], 1e-3, &settings)?;
    }
    let e1 = energy(&mut data, &q, &v)?;
    println!(
        "after 1 s: q = {q:.4?} rad, energy change {:.2e} J",
        e1 - e0
    );
    Ok(())
}
