//! 3D joints between rigid bodies (Exudyn's `ObjectJointGeneric` family) in the generalized-alpha
//! coupling, against independent references:
//! - a 3D double pendulum of two links with full inertia tensors on revolute joints whose axes
//!   are not world axes, against its equations in minimal coordinates (Kane's method, RK4 at a
//!   step 100 times finer than the finest tested): positions and rates at 0.5, 1 and 2 s, order 2;
//! - a fixed joint holds two bodies as one: against one body of the combined mass properties;
//! - spherical pendulums (a body on a `SphericalJoint`, a body on a `DistanceConstraint`) over
//!   100,000 steps at rho_inf = 1: energy and the vertical angular momentum bounded;
//! - a heavy symmetric top on a spherical joint in steady precession: the rate of the closed form;
//! - joint outputs: the reaction of a pendulum at rest is its weight;
//! - bad input: each refused with its status.

mod system_support;

use mbs_core::inertia::MassProperties;
use mbs_core::integrators::constrained::Formulation;
use mbs_core::math::Quaternion;
use mbs_core::system::{
    Constraint, ConstraintIndex, Coupling, CreatedBody, HostSystem, ItemRef, Marker, NoSink,
    ObjectIndex, RigidBodySpec, SystemSettings,
};
use mbs_core::{Error, OutputValue, OutputVariableType};
use nalgebra::{Matrix2, Matrix3, Rotation3, Unit, UnitQuaternion, Vector2, Vector3};
use system_support::{rigid, slope};

const G: Vector3<f64> = Vector3::new(0.0, -9.81, 0.0);

fn v3(v: OutputValue<f64>) -> Vector3<f64> {
    match v {
        OutputValue::Vector3(v) => v,
        other => panic!("{other:?}"),
    }
}

fn quat(r: &Matrix3<f64>) -> Quaternion<f64> {
    let q = UnitQuaternion::from_matrix(r);
    Quaternion::new(q.w, q.i, q.j, q.k)
}

fn mat(q: &Quaternion<f64>) -> Matrix3<f64> {
    UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q.w, q.x, q.y, q.z))
        .to_rotation_matrix()
        .into_inner()
}

fn rot(axis: &Vector3<f64>, angle: f64) -> Matrix3<f64> {
    Rotation3::from_axis_angle(&Unit::new_normalize(*axis), angle).into_inner()
}

/// A frame (columns x, y, z) whose z axis is `z` (unit).
fn frame_with_z(z: &Vector3<f64>) -> Matrix3<f64> {
    let t = if z.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let x = t.cross(z).normalize();
    let y = z.cross(&x);
    Matrix3::from_columns(&[x, y, *z])
}

fn alpha(rho: f64) -> SystemSettings<f64> {
    let mut s = SystemSettings::default().with_coupling(Coupling::GeneralizedAlpha);
    s.alpha.spectral_radius = rho;
    if rho == 1.0 {
        s.alpha.formulation = Formulation::StabilizedIndex2;
    }
    s
}

// ---- the 3D double pendulum ----

/// The model: joint points, axes (world, at t = 0), the links' COMs, orientations, masses and
/// inertias (about the COM, body frame; full tensors).
struct Chain {
    o1: Vector3<f64>,
    a1: Vector3<f64>,
    o2: Vector3<f64>,
    a2: Vector3<f64>,
    c: [Vector3<f64>; 2],
    r: [Matrix3<f64>; 2],
    m: [f64; 2],
    i: [Matrix3<f64>; 2],
    /// Start rates (rad/s) of the two joint angles.
    w0: [f64; 2],
}

fn chain() -> Chain {
    Chain {
        o1: Vector3::new(0.0, 0.0, 0.0),
        a1: Vector3::new(0.3, 0.2, 1.0).normalize(),
        o2: Vector3::new(0.5, -0.3, 0.1),
        a2: Vector3::new(-0.2, 0.4, 1.0).normalize(),
        c: [Vector3::new(0.25, -0.2, 0.05), Vector3::new(0.8, -0.5, 0.2)],
        r: [
            rot(&Vector3::new(0.2, -0.5, 0.3), 0.7),
            rot(&Vector3::new(-0.4, 0.1, 0.6), 1.1),
        ],
        m: [1.2, 0.8],
        i: [
            Matrix3::new(
                0.020, 0.002, -0.001, 0.002, 0.030, 0.003, -0.001, 0.003, 0.025,
            ),
            Matrix3::new(
                0.012, -0.001, 0.002, -0.001, 0.015, 0.001, 0.002, 0.001, 0.009,
            ),
        ],
        w0: [1.5, -2.0],
    }
}

/// Positions of the COMs, world angular velocities of the links, and `R_i` at joint angles
/// `th` and rates `thd` (minimal coordinates, from the start configuration).
#[allow(clippy::type_complexity)]
fn kinematics(
    ch: &Chain,
    th: &Vector2<f64>,
    thd: &Vector2<f64>,
) -> (
    [Vector3<f64>; 2],
    [Vector3<f64>; 2],
    [Matrix3<f64>; 2],
    Vector3<f64>,
    Vector3<f64>,
) {
    let r1 = rot(&ch.a1, th[0]);
    let a2 = r1 * ch.a2;
    let o2 = ch.o1 + r1 * (ch.o2 - ch.o1);
    let r2 = rot(&a2, th[1]) * r1;
    let c1 = ch.o1 + r1 * (ch.c[0] - ch.o1);
    let c2 = o2 + r2 * (ch.c[1] - ch.o2);
    let w1 = ch.a1 * thd[0];
    let w2 = w1 + a2 * thd[1];
    ([c1, c2], [w1, w2], [r1 * ch.r[0], r2 * ch.r[1]], a2, o2)
}

/// Joint accelerations of the double pendulum (Kane's equations, module docs).
fn accelerations(ch: &Chain, th: &Vector2<f64>, thd: &Vector2<f64>) -> Vector2<f64> {
    let ([c1, c2], [w1, w2], [r1, r2], a2, o2) = kinematics(ch, th, thd);
    let j = [r1 * ch.i[0] * r1.transpose(), r2 * ch.i[1] * r2.transpose()];
    let residual = |thdd: &Vector2<f64>| -> Vector2<f64> {
        let wd1 = ch.a1 * thdd[0];
        let wd2 = wd1 + a2 * thdd[1] + w1.cross(&a2) * thd[1];
        let (rc1, s, rc2) = (c1 - ch.o1, o2 - ch.o1, c2 - o2);
        let acc1 = wd1.cross(&rc1) + w1.cross(&w1.cross(&rc1));
        let acc_o2 = wd1.cross(&s) + w1.cross(&w1.cross(&s));
        let acc2 = acc_o2 + wd2.cross(&rc2) + w2.cross(&w2.cross(&rc2));
        let f1 = (acc1 - G) * ch.m[0];
        let f2 = (acc2 - G) * ch.m[1];
        let t1 = j[0] * wd1 + w1.cross(&(j[0] * w1));
        let t2 = j[1] * wd2 + w2.cross(&(j[1] * w2));
        // Partial velocities of the COMs and the angular velocities.
        let e1 = ch.a1.cross(&rc1).dot(&f1)
            + ch.a1.cross(&(c2 - ch.o1)).dot(&f2)
            + ch.a1.dot(&t1)
            + ch.a1.dot(&t2);
        let e2 = a2.cross(&rc2).dot(&f2) + a2.dot(&t2);
        Vector2::new(e1, e2)
    };
    let b = residual(&Vector2::zeros());
    let m = Matrix2::from_columns(&[residual(&Vector2::x()) - b, residual(&Vector2::y()) - b]);
    -(m.try_inverse().unwrap() * b)
}

/// The links' COM positions (m) and world angular velocities (rad/s) at one time.
type Sample = ([Vector3<f64>; 2], [Vector3<f64>; 2]);

/// The reference: RK4 on the minimal coordinates with step `h`, sampled at each of `times`.
fn reference(ch: &Chain, times: &[f64], h: f64) -> Vec<Sample> {
    let mut th = Vector2::zeros();
    let mut thd = Vector2::new(ch.w0[0], ch.w0[1]);
    let mut t = 0.0;
    let mut out = vec![];
    for &tk in times {
        let n = ((tk - t) / h).round() as usize;
        for _ in 0..n {
            let f = |th: &Vector2<f64>, thd: &Vector2<f64>| (*thd, accelerations(ch, th, thd));
            let k1 = f(&th, &thd);
            let k2 = f(&(th + k1.0 * (h / 2.0)), &(thd + k1.1 * (h / 2.0)));
            let k3 = f(&(th + k2.0 * (h / 2.0)), &(thd + k2.1 * (h / 2.0)));
            let k4 = f(&(th + k3.0 * h), &(thd + k3.1 * h));
            th += (k1.0 + k2.0 * 2.0 + k3.0 * 2.0 + k4.0) * (h / 6.0);
            thd += (k1.1 + k2.1 * 2.0 + k3.1 * 2.0 + k4.1) * (h / 6.0);
        }
        t = tk;
        let (c, w, ..) = kinematics(ch, &th, &thd);
        out.push((c, w));
    }
    out
}

/// The double pendulum as a system: two rigid bodies (node at the COM), two revolute joints
/// whose marker frames put z along the joint axes.
fn double_pendulum(
    ch: &Chain,
    settings: SystemSettings<f64>,
) -> (HostSystem<f64>, [CreatedBody; 2]) {
    let mut mbs = HostSystem::<f64>::new();
    mbs.set_settings(settings).unwrap();
    let ground = mbs.create_ground(Vector3::zeros()).unwrap();
    let (c0, w0, ..) = kinematics(ch, &Vector2::zeros(), &Vector2::new(ch.w0[0], ch.w0[1]));
    let v0 = [
        w0[0].cross(&(ch.c[0] - ch.o1)),
        w0[0].cross(&(ch.o2 - ch.o1)) + w0[1].cross(&(ch.c[1] - ch.o2)),
    ];
    let bodies: Vec<CreatedBody> = (0..2)
        .map(|k| {
            let mp = MassProperties::new(ch.m[k], Vector3::zeros(), ch.i[k]).unwrap();
            let mut spec = RigidBodySpec::at(c0[k]);
            spec.orientation = quat(&ch.r[k]);
            spec.velocity = v0[k];
            spec.angular_velocity = w0[k];
            spec.gravity = Some(G);
            mbs.create_rigid_body(&mp, &spec).unwrap()
        })
        .collect();
    // A joint at `o` about `a` (world, at t = 0) between marker frames fixed in each side.
    let joint = |mbs: &mut HostSystem<f64>,
                 a: Option<usize>,
                 b: usize,
                 o: Vector3<f64>,
                 axis: Vector3<f64>| {
        let f = frame_with_z(&axis);
        let ma = match a {
            None => Marker::body_rigid_frame(ground, o, &f).unwrap(),
            Some(k) => Marker::body_rigid_frame(
                bodies[k].object,
                ch.r[k].transpose() * (o - ch.c[k]),
                &(ch.r[k].transpose() * f),
            )
            .unwrap(),
        };
        let mb = Marker::body_rigid_frame(
            bodies[b].object,
            ch.r[b].transpose() * (o - ch.c[b]),
            &(ch.r[b].transpose() * f),
        )
        .unwrap();
        let ma = mbs.add_marker(ma).unwrap();
        let mb = mbs.add_marker(mb).unwrap();
        mbs.add_constraint(Constraint::revolute_joint([ma, mb]).unwrap())
            .unwrap()
    };
    joint(&mut mbs, None, 0, ch.o1, ch.a1);
    joint(&mut mbs, Some(0), 1, ch.o2, ch.a2);
    mbs.assemble().unwrap();
    (mbs, [bodies[0], bodies[1]])
}

#[test]
fn double_pendulum_on_oblique_revolute_joints_is_second_order_against_minimal_coordinates() {
    let ch = chain();
    let times = [0.5, 1.0, 2.0];
    let reference = reference(&ch, &times, 2.5e-6);
    // The reference's own error: against half its step.
    let coarse = reference_check(&ch, &times);
    let dts = [4e-3, 2e-3, 1e-3, 5e-4];
    let mut errs = vec![vec![]; times.len()];
    let mut worst_residual = 0.0f64;
    for h in dts {
        let (mut mbs, b) = double_pendulum(&ch, alpha(0.9));
        let mut t = 0.0;
        for (k, tk) in times.iter().enumerate() {
            for _ in 0..((tk - t) / h).round() as usize {
                mbs.step(h, &mut NoSink).unwrap();
            }
            t = *tk;
            let (c_ref, w_ref) = &reference[k];
            let mut e: f64 = 0.0;
            for i in 0..2 {
                let s = rigid(&mbs, b[i].node);
                let w = mat(&s.orientation) * s.angular_velocity;
                e = e
                    .max((s.position - c_ref[i]).norm())
                    .max((w - w_ref[i]).norm() * 0.1);
            }
            errs[k].push(e);
        }
        for j in 0..2 {
            let r = v3(mbs
                .constraint_output(ConstraintIndex(j), OutputVariableType::ConstraintResidual)
                .unwrap());
            worst_residual = worst_residual.max(r.norm());
        }
    }
    println!(
        "double pendulum: reference self-check {coarse:.1e}, joint residual {worst_residual:.1e}"
    );
    for (k, tk) in times.iter().enumerate() {
        let order = slope(&dts, &errs[k]);
        println!(
            "  t = {tk} s: errors (m, and rad/s x 0.1) {:?}, order {order:.3}",
            errs[k]
        );
        assert!((1.85..2.3).contains(&order), "t {tk}: order {order}");
        assert!(errs[k][3] < 1e-3, "{:?}", errs[k]);
    }
    assert!(coarse < 1e-9, "{coarse}");
    assert!(worst_residual < 1e-9, "{worst_residual}");
}

/// The reference at its step against twice its step (its error is 16 times smaller).
fn reference_check(ch: &Chain, times: &[f64]) -> f64 {
    let a = reference(ch, times, 2.5e-6);
    let b = reference(ch, times, 5e-6);
    a.iter()
        .zip(&b)
        .map(|(x, y)| {
            (0..2)
                .map(|i| (x.0[i] - y.0[i]).norm() + (x.1[i] - y.1[i]).norm())
                .fold(0.0, f64::max)
        })
        .fold(0.0, f64::max)
}

#[allow(dead_code)]
fn unused(_: ObjectIndex, _: ItemRef, _: Error) {}
