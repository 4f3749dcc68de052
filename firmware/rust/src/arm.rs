//! A 6-DOF robot arm, for any scalar: a UR5-like serial chain of six revolute joints (UR5's
//! link lengths and masses, inertia tensors with products of inertia, joint frames turned as in
//! its URDF) under gravity `(0, 0, -9.81)`, as a [`KinematicTree`] in joint coordinates.
//! Compiled into the firmware and, through `#[path]`, into the host tests and benchmarks, which
//! give Pinocchio and MuJoCo the same numbers.

use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::tree::{Joint, KinematicTree, Transform};
use mbs_core::{Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Links.
pub const N: usize = 6;
/// Gravity (m/s^2, world).
pub const GRAVITY: [f64; 3] = [0.0, 0.0, -9.81];
/// Each joint's axis (link frame).
pub const AXIS: [[f64; 3]; N] = [
    [0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0],
];
/// Each joint frame's origin in the parent link frame (m; the base's in the world).
pub const OFFSET: [[f64; 3]; N] = [
    [0.0, 0.0, 0.089159],
    [0.0, 0.13585, 0.0],
    [0.0, -0.1197, 0.425],
    [0.0, 0.0, 0.39225],
    [0.0, 0.093, 0.0],
    [0.0, 0.0, 0.09465],
];
/// Each joint frame's rotation in the parent link frame, as a rotation vector (rad).
pub const TURN: [[f64; 3]; N] = [
    [0.0, 0.0, 0.0],
    [0.0, core::f64::consts::FRAC_PI_2, 0.0],
    [0.0, 0.0, 0.0],
    [0.0, core::f64::consts::FRAC_PI_2, 0.0],
    [0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
];
/// Masses (kg).
pub const MASS: [f64; N] = [3.7, 8.393, 2.275, 1.219, 1.219, 0.1879];
/// Centres of mass (m, link frames).
pub const COM: [[f64; 3]; N] = [
    [0.0, -0.02, 0.0],
    [0.0, 0.0, 0.28],
    [0.0, 0.0, 0.25],
    [0.0, 0.01, 0.0],
    [0.0, 0.0, 0.01],
    [0.0, 0.0, -0.01],
];
/// Inertia tensors about the centres of mass (kg m^2, link frames): `[ixx, iyy, izz, ixy, ixz,
/// iyz]`.
pub const INERTIA: [[f64; 6]; N] = [
    [0.0103, 0.0103, 0.0067, 0.0001, 0.0, 0.0002],
    [0.2269, 0.2269, 0.0151, 0.0, 0.001, 0.0],
    [0.0494, 0.0494, 0.0041, 0.0002, 0.0, 0.0],
    [0.00212, 0.00212, 0.00365, 0.0001, 0.0, 0.0],
    [0.00212, 0.00212, 0.00365, 0.0, 0.0001, 0.0],
    [0.0001, 0.0001, 0.00013, 0.0, 0.0, 0.0],
];
/// A start configuration (rad) and joint rates (rad/s).
pub const Q0: [f64; N] = [0.3, -1.2, 1.4, -0.6, 0.9, 0.2];
/// Joint rates at the start (rad/s).
pub const V0: [f64; N] = [0.5, -0.4, 0.8, 1.0, -0.7, 1.5];

fn v<T: Real>(a: [f64; 3]) -> Vector3<T> {
    Vector3::new(T::c(a[0]), T::c(a[1]), T::c(a[2]))
}

/// The arm's tree with capacity `L` links and `D` coordinates (at least 6 each).
pub fn build<T: Real, const L: usize, const D: usize>() -> Result<KinematicTree<T, L, D>> {
    let mut t = KinematicTree::new(v(GRAVITY))?;
    for i in 0..N {
        let r = Quaternion::exp(&v::<T>(TURN[i])).to_matrix();
        let [xx, yy, zz, xy, xz, yz] = INERTIA[i].map(T::c);
        let inertia = Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
        let mp = MassProperties::new(T::c(MASS[i]), v(COM[i]), inertia)?;
        let parent = if i == 0 { None } else { Some(i - 1) };
        let joint = Joint::revolute(v(AXIS[i]))?;
        t.add_link(parent, joint, Transform::new(r, v(OFFSET[i])), &mp)?;
    }
    Ok(t)
}
