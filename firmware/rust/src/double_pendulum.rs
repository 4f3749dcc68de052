//! A 3D double pendulum, for any scalar: two rigid links with full (non-diagonal) inertia
//! tensors on revolute joints whose axes are not world axes (link 1 pinned to the ground, link
//! 2 to link 1), under gravity `(0, -9.81, 0)`, started with both joints turning. Built from a
//! system's items as Exudyn builds such a chain (rigid bodies, `MarkerBodyRigid`s whose frames
//! put z along the joint axes, `RevoluteJoint`s); stepped by the generalized-alpha scheme (the
//! links in Euler parameters). The same chain in joint coordinates ([`tree`]: a
//! `KinematicTree` of two revolute joints, Featherstone's algorithms) is the other formulation
//! of it. Compiled into the firmware and, through `#[path]`, into the host tests and benchmarks.

use mbs_core::inertia::MassProperties;
use mbs_core::math::Quaternion;
use mbs_core::system::{Constraint, Marker, NodeIndex, RigidBodySpec, System};
use mbs_core::tree::{Joint, KinematicTree, Transform};
use mbs_core::{Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Gravity (m/s^2, world).
pub const GRAVITY: [f64; 3] = [0.0, -9.81, 0.0];
/// Joint 1's point (m, world) and axis (unnormalized).
pub const O1: [f64; 3] = [0.0, 0.0, 0.0];
/// Joint 1's axis (world, unnormalized).
pub const A1: [f64; 3] = [0.3, 0.2, 1.0];
/// Joint 2's point at the start (m, world).
pub const O2: [f64; 3] = [0.5, -0.3, 0.1];
/// Joint 2's axis at the start (world, unnormalized).
pub const A2: [f64; 3] = [-0.2, 0.4, 1.0];
/// The links' centres of mass at the start (m, world).
pub const COM: [[f64; 3]; 2] = [[0.25, -0.2, 0.05], [0.8, -0.5, 0.2]];
/// The links' start orientations as rotation vectors (rad; `R = exp([phi]x)`).
pub const TURN: [[f64; 3]; 2] = [[0.14, -0.35, 0.21], [-0.44, 0.11, 0.66]];
/// Masses (kg).
pub const MASS: [f64; 2] = [1.2, 0.8];
/// Inertia tensors about the centres of mass (kg m^2, body frames, row-major).
pub const INERTIA: [[f64; 9]; 2] = [
    [
        0.020, 0.002, -0.001, 0.002, 0.030, 0.003, -0.001, 0.003, 0.025,
    ],
    [
        0.012, -0.001, 0.002, -0.001, 0.015, 0.001, 0.002, 0.001, 0.009,
    ],
];
/// The joints' rates at the start (rad/s).
pub const RATES: [f64; 2] = [1.5, -2.0];

fn v<T: Real>(a: [f64; 3]) -> Vector3<T> {
    Vector3::new(T::c(a[0]), T::c(a[1]), T::c(a[2]))
}

fn unit<T: Real>(a: [f64; 3]) -> Vector3<T> {
    let x = v::<T>(a);
    x / x.norm_squared().sqrt_l()
}

/// A frame (the columns x, y, z) whose z axis is the unit vector `z`.
pub fn frame_with_z<T: Real>(z: &Vector3<T>) -> Matrix3<T> {
    let t = if z.x.abs_l() < T::c(0.9) {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let x = t.cross(z);
    let x = x / x.norm_squared().sqrt_l();
    let y = z.cross(&x);
    Matrix3::from_columns(&[x, y, *z])
}

/// The links' start orientations `R_0b`.
pub fn orientations<T: Real>() -> [Quaternion<T>; 2] {
    [Quaternion::exp(&v(TURN[0])), Quaternion::exp(&v(TURN[1]))]
}

/// Adds the double pendulum to `sys` (a ground, two rigid bodies with gravity, four rigid
/// markers, two revolute joints); returns the links' nodes.
pub fn add_to_system<
    T: Real,
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
    const J: usize,
>(
    sys: &mut System<T, N, O, M, L, C, S, G, K, W, J>,
) -> Result<[NodeIndex; 2]> {
    let (o1, o2) = (v::<T>(O1), v::<T>(O2));
    let (a1, a2) = (unit::<T>(A1), unit::<T>(A2));
    let c = [v::<T>(COM[0]), v::<T>(COM[1])];
    let q = orientations::<T>();
    let r = [q[0].to_matrix(), q[1].to_matrix()];
    // Start motion: w1 = a1 rate1, w2 = w1 + a2 rate2 (world); COM velocities of the chain.
    let w1 = a1 * T::c(RATES[0]);
    let w2 = w1 + a2 * T::c(RATES[1]);
    let vel = [
        w1.cross(&(c[0] - o1)),
        w1.cross(&(o2 - o1)) + w2.cross(&(c[1] - o2)),
    ];
    let ground = sys.create_ground(Vector3::zeros())?;
    let mut bodies = [None, None];
    for k in 0..2 {
        let inertia = Matrix3::from_row_slice(&INERTIA[k].map(T::c));
        let mp = MassProperties::new(T::c(MASS[k]), Vector3::zeros(), inertia)?;
        let mut spec = RigidBodySpec::at(c[k]);
        spec.orientation = q[k];
        spec.velocity = vel[k];
        spec.angular_velocity = [w1, w2][k];
        spec.gravity = Some(v(GRAVITY));
        bodies[k] = Some(sys.create_rigid_body(&mp, &spec)?);
    }
    let [Some(b0), Some(b1)] = bodies else {
        return Err(mbs_core::Error::UnknownIndex);
    };
    // A marker at `o` with z along `axis` (world, at the start) on link k (None: the ground).
    let mut marker = |k: Option<usize>, o: Vector3<T>, axis: &Vector3<T>| {
        let f = frame_with_z(axis);
        let m = match k {
            None => Marker::body_rigid_frame(ground, o, &f)?,
            Some(k) => {
                let obj = [b0.object, b1.object][k];
                let rt = r[k].transpose();
                Marker::body_rigid_frame(obj, rt * (o - c[k]), &(rt * f))?
            }
        };
        sys.add_marker(m)
    };
    let j1 = [marker(None, o1, &a1)?, marker(Some(0), o1, &a1)?];
    let j2 = [marker(Some(0), o2, &a2)?, marker(Some(1), o2, &a2)?];
    sys.add_constraint(Constraint::revolute_joint(j1)?)?;
    sys.add_constraint(Constraint::revolute_joint(j2)?)?;
    Ok([b0.node, b1.node])
}

/// The chain in joint coordinates: link `k`'s frame is link `k`'s body frame at the start with
/// its origin at joint `k` (so the start is `q = 0`, `v` = [`RATES`]); joint 1 turns link 1 about
/// `R_1^T a_1` from the world pose `(R_1, o_1)`, joint 2 link 2 about `R_2^T a_2` from the pose
/// `(R_1^T R_2, R_1^T (o_2 - o_1))` in link 1's frame. Capacity `L` links, `D` coordinates
/// (at least 2 each).
pub fn tree<T: Real, const L: usize, const D: usize>() -> Result<KinematicTree<T, L, D>> {
    let o = [v::<T>(O1), v::<T>(O2)];
    let a = [unit::<T>(A1), unit::<T>(A2)];
    let q = orientations::<T>();
    let r = [q[0].to_matrix(), q[1].to_matrix()];
    let mut t = KinematicTree::new(v(GRAVITY))?;
    for k in 0..2 {
        let rt = r[k].transpose();
        let inertia = Matrix3::from_row_slice(&INERTIA[k].map(T::c));
        let mp = MassProperties::new(T::c(MASS[k]), tree_com(k), inertia)?;
        let (parent, pose) = if k == 0 {
            (None, Transform::new(r[0], o[0]))
        } else {
            let r1t = r[0].transpose();
            (Some(0), Transform::new(r1t * r[1], r1t * (o[1] - o[0])))
        };
        t.add_link(parent, Joint::revolute(rt * a[k])?, pose, &mp)?;
    }
    Ok(t)
}

/// Link `k`'s centre of mass in its frame of [`tree`] (m): `R_k^T (c_k - o_k)`.
pub fn tree_com<T: Real>(k: usize) -> Vector3<T> {
    let r = orientations::<T>()[k].to_matrix();
    r.transpose() * (v::<T>(COM[k]) - v::<T>([O1, O2][k]))
}
