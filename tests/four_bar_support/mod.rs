//! The four-bar linkage of the tree tests: a crank-rocker as a three-link chain (crank,
//! coupler, rocker on revolute z joints, each at the end of the previous bar) whose rocker tip
//! is to be held on the second ground pivot `(D, 0, 0)`, and its closed-form kinematics.
#![allow(dead_code)]

use mbs_core::inertia::{Cuboid, MassProperties};
use mbs_core::tree::{Joint, KinematicTree, Transform};
use nalgebra::Vector3;

/// Crank, coupler, rocker and ground lengths (m): a crank-rocker (Grashof: 0.1 + 0.4 < 0.3 + 0.35).
pub const A: f64 = 0.1;
pub const B: f64 = 0.4;
pub const C: f64 = 0.3;
pub const D: f64 = 0.35;

pub type Tree = KinematicTree<f64, 3, 3>;

/// A steel bar of length `len` along x from the link origin.
pub fn bar(len: f64) -> MassProperties<f64> {
    Cuboid::new(Vector3::new(len, 0.02, 0.02))
        .density(7800.0)
        .center(Vector3::new(len / 2.0, 0.0, 0.0))
        .mass_properties()
        .unwrap()
}

/// The open chain under gravity `-9.81 y`.
pub fn chain() -> Tree {
    let mut t = Tree::new(Vector3::new(0.0, -9.81, 0.0)).unwrap();
    let z = Joint::revolute(Vector3::z()).unwrap();
    t.add_link(None, z, Transform::identity(), &bar(A)).unwrap();
    t.add_link(
        Some(0),
        z,
        Transform::translation(Vector3::new(A, 0.0, 0.0)),
        &bar(B),
    )
    .unwrap();
    t.add_link(
        Some(1),
        z,
        Transform::translation(Vector3::new(B, 0.0, 0.0)),
        &bar(C),
    )
    .unwrap();
    t
}

/// The closed form: from the crank angle `t2`, the coupler joint `B` where the circles of radius
/// `B` about the crank tip and `C` about the ground pivot `(D, 0)` meet (the upper branch), and
/// the joint angles `(q0, q1, q2)` of the chain.
pub fn closed_form(t2: f64) -> [f64; 3] {
    let (ax, ay) = (A * t2.cos(), A * t2.sin());
    let (dx, dy) = (D - ax, -ay);
    let dist = (dx * dx + dy * dy).sqrt();
    let along = (B * B - C * C + dist * dist) / (2.0 * dist);
    let h = (B * B - along * along).sqrt();
    let (ux, uy) = (dx / dist, dy / dist);
    let (bx, by) = (ax + along * ux - h * uy, ay + along * uy + h * ux);
    let t3 = (by - ay).atan2(bx - ax);
    let t4 = (0.0 - by).atan2(D - bx);
    [t2, wrap(t3 - t2), wrap(t4 - t3)]
}

/// The joint rates for the crank rate `w` at the crank angle `t2` (central difference of the
/// closed form).
pub fn closed_form_rates(t2: f64, w: f64) -> [f64; 3] {
    let e = 1e-6;
    let (p, m) = (closed_form(t2 + e), closed_form(t2 - e));
    [0, 1, 2].map(|i| wrap(p[i] - m[i]) / (2.0 * e) * w)
}

/// An angle in [-pi, pi).
pub fn wrap(x: f64) -> f64 {
    (x + std::f64::consts::PI).rem_euclid(2.0 * std::f64::consts::PI) - std::f64::consts::PI
}
