//! Kinematic trees in joint coordinates (Featherstone's RNEA, CRBA, ABA) against independent
//! references:
//! - on reproducible pseudo-random states of a branched 10-link tree with every joint type (a free base,
//!   revolute, prismatic, spherical, fixed): ABA equals the solve of CRBA's mass matrix with
//!   `tau - b`, RNEA of ABA's accelerations gives `tau` back, the mass matrix is symmetric
//!   positive definite and its kinetic energy `1/2 v^T M v` equals the links' energies from
//!   forward kinematics, the tree-sparse `L^T D L` solve equals a dense LU solve, the link-point
//!   Jacobian equals a central difference of forward kinematics;
//! - Exudyn's `ObjectKinematicTree` mini example (a 1R pendulum) gives Exudyn's published angle;
//!   a single link's swing follows the exact (Jacobi elliptic) solution, order 4 with RK4;
//! - an undamped 5-link chain conserves energy with RK4 with error order 4;
//! - a free-floating tree in zero gravity: ABA's accelerations leave the total momentum constant
//!   (the base's joint force of RNEA vanishes to round-off), and RK4 keeps it to order 4;
//! - linearly implicit joint damping: one semi-implicit Euler step of a damped link equals the
//!   closed form `v+ = v / (1 + h d / I)` up to `h d / I = 30` (explicit Euler diverges above 2);
//! - the rotation guard splits a fast step; f32 follows f64;
//! - bad input: each refused with its status and nothing changed.

mod constrained_support;

use constrained_support::order;
use mbs_core::inertia::{Cuboid, MassProperties};
use mbs_core::math::Quaternion;
use mbs_core::tree::{
    Force, Joint, JointSpring, KinematicTree, Transform, TreeData, TreeScheme, TreeStepSettings,
};
use mbs_core::{Error, Param};
use nalgebra::{Matrix3, SMatrix, SVector, Vector3};

const NV: usize = 18;
const NQ: usize = 21;
type Tree = KinematicTree<f64, 16, 32>;
type Data = TreeData<f64, 16, 32>;

/// splitmix64 from a fixed start: the same pseudo-random states every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    fn vec3(&mut self) -> Vector3<f64> {
        Vector3::new(self.next(), self.next(), self.next())
    }
    fn rotation(&mut self) -> Matrix3<f64> {
        let q = Quaternion::new(self.next(), self.next(), self.next(), self.next());
        q.normalized().unwrap().to_matrix()
    }
    /// Physical mass properties: principal moments that satisfy the triangle inequality with
    /// margin, turned by a random rotation, an offset centre of mass.
    fn mass(&mut self) -> MassProperties<f64> {
        let m = 1.5 + self.next();
        let (a, b) = (0.2 + 0.1 * self.next(), 0.25 + 0.1 * self.next());
        let c = 0.5 * (a + b);
        let r = self.rotation();
        let i = r * Matrix3::from_diagonal(&Vector3::new(a, b, c)) * r.transpose();
        MassProperties::new(m, self.vec3() * 0.3, (i + i.transpose()) * 0.5).unwrap()
    }
}

/// The branched test tree: free base 0; 1 revolute on 0; 2 prismatic on 1; 3 spherical on 0;
/// 4 fixed on 3; 5 revolute on 4; 6 revolute on 1; 7 spherical on 6; 8 prismatic on 5;
/// 9 revolute on 3. `nq = 7+1+1+4+0+1+1+4+1+1 = 21`, `nv = 6+1+1+3+0+1+1+3+1+1 = 18`.
fn branched(rng: &mut Rng, gravity: Vector3<f64>) -> Tree {
    let mut t = Tree::new(gravity).unwrap();
    let shape: [(Option<usize>, u8); 10] = [
        (None, b'f'),
        (Some(0), b'r'),
        (Some(1), b'p'),
        (Some(0), b's'),
        (Some(3), b'x'),
        (Some(4), b'r'),
        (Some(1), b'r'),
        (Some(6), b's'),
        (Some(5), b'p'),
        (Some(3), b'r'),
    ];
    for (parent, kind) in shape {
        let joint = match kind {
            b'f' => Joint::Free,
            b'r' => Joint::revolute(rng.vec3()).unwrap(),
            b'p' => Joint::prismatic(rng.vec3()).unwrap(),
            b's' => Joint::Spherical,
            _ => Joint::Fixed,
        };
        let placement = Transform::new(rng.rotation(), rng.vec3() * 0.8);
        t.add_link(parent, joint, placement, &rng.mass()).unwrap();
    }
    assert_eq!((t.nq(), t.nv()), (NQ, NV));
    t
}

fn random_state(t: &Tree, rng: &mut Rng) -> ([f64; NQ], [f64; NV], [f64; NV]) {
    let mut q = [0.0; NQ];
    for x in q.iter_mut() {
        *x = rng.next();
    }
    for l in t.links() {
        // Quaternions of any length (the algorithms normalize).
        if matches!(l.joint, Joint::Free) {
            for k in 3..7 {
                q[l.q_index + k] = rng.next() * 2.0;
            }
        }
    }
    let mut v = [0.0; NV];
    let mut tau = [0.0; NV];
    for k in 0..NV {
        v[k] = 2.0 * rng.next();
        tau[k] = 5.0 * rng.next();
    }
    (q, v, tau)
}

fn mass_matrix(t: &Tree, d: &Data) -> SMatrix<f64, NV, NV> {
    assert_eq!(t.nv(), NV);
    SMatrix::from_fn(|i, j| d.mass_matrix(i, j).unwrap())
}

fn rel(a: &[f64], b: &[f64]) -> f64 {
    let n = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
        / n
}

#[test]
fn aba_crba_and_rnea_agree_on_random_states() {
    let mut rng = Rng(2026);
    let t = branched(&mut rng, Vector3::new(0.3, -9.81, 0.5));
    let mut d = Data::new();
    let mut worst = [0.0f64; 5];
    for trial in 0..50 {
        let (q, v, tau) = random_state(&t, &mut rng);
        d.set_link_force(3, rng.vec3() * 4.0, rng.vec3());
        d.set_link_wrench(8, Force::new(rng.vec3(), rng.vec3()));
        let mut qdd = [0.0; NV];
        t.aba(&mut d, &q, &v, &tau, &mut qdd).unwrap();
        // CRBA and the bias forces: M qdd = tau - b.
        let mut b = [0.0; NV];
        t.bias_forces(&mut d, &q, &v, &mut b).unwrap();
        t.crba(&mut d, &q).unwrap();
        let m = mass_matrix(&t, &d);
        let rhs = SVector::<f64, NV>::from_fn(|k, _| tau[k] - b[k]);
        let dense = m.lu().solve(&rhs).unwrap();
        worst[0] = worst[0].max(rel(&qdd, dense.as_slice()));
        // The tree-sparse L^T D L solve equals the dense one.
        let mut x: [f64; NV] = core::array::from_fn(|k| rhs[k]);
        t.factor_mass_matrix(&mut d).unwrap();
        t.solve_mass_matrix(&d, &mut x).unwrap();
        worst[1] = worst[1].max(rel(&x, dense.as_slice()));
        // RNEA of ABA's accelerations gives tau back.
        let mut tau2 = [0.0; NV];
        t.rnea(&mut d, &q, &v, &qdd, &mut tau2).unwrap();
        worst[2] = worst[2].max(rel(&tau2, &tau));
        // Symmetric positive definite.
        assert!((m - m.transpose()).abs().max() == 0.0, "trial {trial}");
        assert!(m.cholesky().is_some(), "trial {trial}");
        // 1/2 v^T M v equals the links' kinetic energies from forward kinematics.
        let vv = SVector::<f64, NV>::from_column_slice(&v);
        t.forward_kinematics(&mut d, &q, Some(&v)).unwrap();
        let e_m = 0.5 * (vv.transpose() * m * vv)[0];
        let e_fk = t.kinetic_energy(&d);
        worst[3] = worst[3].max((e_m - e_fk).abs() / e_fk);
        // M's columns from RNEA: M e_j = rnea(q, 0, e_j) - rnea(q, 0, 0).
        let zero = [0.0; NV];
        let mut g = [0.0; NV];
        d.clear_wrenches();
        t.rnea(&mut d, &q, &zero, &zero, &mut g).unwrap();
        for j in 0..NV {
            let mut e = [0.0; NV];
            e[j] = 1.0;
            let mut col = [0.0; NV];
            t.rnea(&mut d, &q, &zero, &e, &mut col).unwrap();
            for i in 0..NV {
                worst[4] = worst[4].max((col[i] - g[i] - m[(i, j)]).abs() / m.abs().max());
            }
        }
    }
    println!("ABA vs CRBA solve {:.1e}, LTDL vs LU {:.1e}, RNEA(ABA) {:.1e}, energy {:.1e}, M by RNEA {:.1e}",
        worst[0], worst[1], worst[2], worst[3], worst[4]);
    assert!(worst.iter().all(|w| *w < 1e-12), "{worst:?}");
}

#[test]
fn point_jacobian_is_the_derivative_of_forward_kinematics() {
    let mut rng = Rng(7);
    let t = branched(&mut rng, Vector3::zeros());
    let mut d = Data::new();
    let (q, v, _) = random_state(&t, &mut rng);
    let point = Vector3::new(0.2, -0.4, 0.1);
    for link in [2, 7, 8, 9] {
        t.forward_kinematics(&mut d, &q, Some(&v)).unwrap();
        let mut jac = [0.0; 6 * NV];
        t.point_jacobian(&d, link, &point, &mut jac).unwrap();
        let pose = |s: f64| {
            let mut qs = q;
            let mut dd = Data::new();
            for l in t.links() {
                l.joint.integrate(&mut qs[l.q_index..], &v[l.v_index..], s);
            }
            t.forward_kinematics(&mut dd, &qs, None).unwrap();
            dd.link_pose(link).unwrap()
        };
        let hstep = 1e-6;
        let (xp, xm, x) = (pose(hstep), pose(-hstep), pose(0.0));
        let vel = (xp.point_to_parent(&point) - xm.point_to_parent(&point)) / (2.0 * hstep);
        let r_t = (xp.rotation - xm.rotation) / (2.0 * hstep);
        let wx = r_t * x.rotation.transpose();
        let w = Vector3::new(wx[(2, 1)], wx[(0, 2)], wx[(1, 0)]);
        let jv = |r: usize| (0..NV).map(|k| jac[r * NV + k] * v[k]).sum::<f64>();
        for r in 0..3 {
            assert!((jv(r) - w[r]).abs() < 1e-7, "link {link} row {r}");
            assert!(
                (jv(r + 3) - vel[r]).abs() < 1e-7,
                "link {link} row {}",
                r + 3
            );
        }
        // The link velocity of forward kinematics is the Jacobian's angular rows too.
        let wl = x.rotation * d.link_velocity(link).unwrap().angular;
        assert!((wl - w).norm() < 1e-7);
    }
}

/// Exudyn's `ObjectKinematicTree` mini example: a 1 m, 0.1 m x 0.1 m steel-less cuboid link
/// (density 1000) on a revolute z joint at `[0.5, 0, 0]`, released horizontally under
/// `g = [0, -9.81, 0]`. Exudyn (RK67, 1000 steps) prints -3.134018551808591 rad at 1 s.
fn mini_example() -> KinematicTree<f64, 1, 1> {
    let mp = Cuboid::new(Vector3::new(1.0, 0.1, 0.1))
        .density(1000.0)
        .center(Vector3::new(0.5, 0.0, 0.0))
        .mass_properties()
        .unwrap();
    let mut t = KinematicTree::new(Vector3::new(0.0, -9.81, 0.0)).unwrap();
    let base = Transform::translation(Vector3::new(0.5, 0.0, 0.0));
    t.add_link(None, Joint::revolute(Vector3::z()).unwrap(), base, &mp)
        .unwrap();
    t
}

fn swing(
    t: &KinematicTree<f64, 1, 1>,
    q0: f64,
    h: f64,
    t_end: f64,
    scheme: TreeScheme,
) -> (f64, f64) {
    let mut d = TreeData::new();
    let (mut q, mut v) = ([q0], [0.0]);
    let s = TreeStepSettings::with_scheme(scheme);
    for _ in 0..(t_end / h).round() as usize {
        t.step(&mut d, &mut q, &mut v, &[0.0], h, &s).unwrap();
    }
    (q[0], v[0])
}

#[test]
fn exudyn_mini_example() {
    let (q, _) = swing(&mini_example(), 0.0, 1e-3, 1.0, TreeScheme::RungeKutta4);
    let exudyn = -3.134018551808591;
    println!("mbs {q:.15} Exudyn {exudyn:.15} diff {:.1e}", q - exudyn);
    assert!((q - exudyn).abs() < 1e-11);
}

/// Jacobi's `sn(u, k)` by the arithmetic-geometric mean (Abramowitz and Stegun 16.4).
fn jacobi_sn(u: f64, k: f64) -> f64 {
    let (mut a, mut b, mut c) = (vec![1.0f64], vec![(1.0 - k * k).sqrt()], vec![k]);
    while c.last().unwrap().abs() > 1e-17 && a.len() < 40 {
        let (an, bn) = (*a.last().unwrap(), *b.last().unwrap());
        a.push(0.5 * (an + bn));
        b.push((an * bn).sqrt());
        c.push(0.5 * (an - bn));
    }
    let n = a.len() - 1;
    let mut phi = 2f64.powi(n as i32) * a[n] * u;
    for i in (1..=n).rev() {
        phi = 0.5 * (phi + (c[i] / a[i] * phi.sin()).asin());
    }
    phi.sin()
}

#[test]
fn a_single_link_swings_as_the_elliptic_solution() {
    // The mini example's link, released 2.5 rad from the bottom: a physical pendulum
    // theta'' = -w0^2 sin(theta), w0^2 = m g d / I_pivot, theta from the downward vertical.
    let t = mini_example();
    let l = &t.links()[0];
    let (m, d) = (
        l.inertia.mass,
        l.inertia.first_moment.norm() / l.inertia.mass,
    );
    let i_pivot = l.inertia.rotational[(2, 2)];
    let w0 = (m * 9.81 * d / i_pivot).sqrt();
    let theta0: f64 = 2.5;
    let k = (theta0 / 2.0).sin();
    let kk = constrained_support::elliptic_k(k);
    let exact = |time: f64| 2.0 * (k * jacobi_sn(kk - w0 * time, k)).asin();
    // q = 0 is horizontal (the link along +x); the bottom is q = -pi/2.
    let q0 = -std::f64::consts::FRAC_PI_2 + theta0;
    let t_end = 1.3;
    let mut errors = vec![];
    let steps = [4e-3, 2e-3, 1e-3];
    for h in steps {
        let (q, _) = swing(&t, q0, h, t_end, TreeScheme::RungeKutta4);
        errors.push((q + std::f64::consts::FRAC_PI_2 - exact(t_end)).abs());
    }
    let p = order(&steps, &errors);
    println!("errors {errors:?}, order {p:.3}");
    assert!(errors[2] < 1e-9 && (p - 4.0).abs() < 0.3);
    // Semi-implicit Euler converges with order 1.
    let e1: Vec<f64> = [4e-4, 2e-4, 1e-4]
        .iter()
        .map(|&h| {
            (swing(&t, q0, h, t_end, TreeScheme::SemiImplicitEuler).0 + std::f64::consts::FRAC_PI_2
                - exact(t_end))
            .abs()
        })
        .collect();
    let p1 = order(&[4e-4, 2e-4, 1e-4], &e1);
    println!("semi-implicit Euler errors {e1:?}, order {p1:.3}");
    assert!((p1 - 1.0).abs() < 0.1);
}

fn chain(n: usize, gravity: Vector3<f64>) -> KinematicTree<f64, 8, 8> {
    let mut rng = Rng(11);
    let mut t = KinematicTree::new(gravity).unwrap();
    for i in 0..n {
        let axis = Vector3::new(0.2 * rng.next(), 0.3 * rng.next(), 1.0);
        let placement = Transform::new(
            Matrix3::identity(),
            Vector3::new(if i == 0 { 0.0 } else { 0.5 }, 0.0, 0.0),
        );
        let mp = Cuboid::new(Vector3::new(0.5, 0.05, 0.05))
            .density(2700.0)
            .center(Vector3::new(0.25, 0.0, 0.0))
            .mass_properties()
            .unwrap();
        t.add_link(
            if i == 0 { None } else { Some(i - 1) },
            Joint::revolute(axis).unwrap(),
            placement,
            &mp,
        )
        .unwrap();
    }
    t
}

#[test]
fn an_undamped_chain_conserves_energy_with_rk4_order_4() {
    let t = chain(5, Vector3::new(0.0, -9.81, 0.0));
    let q0 = [0.3, -0.2, 0.5, 0.1, -0.4];
    let energy = |q: &[f64], v: &[f64]| {
        let mut d = TreeData::new();
        t.forward_kinematics(&mut d, q, Some(v)).unwrap();
        t.kinetic_energy(&d) + t.potential_energy(&d, q)
    };
    let e0 = energy(&q0, &[0.0; 5]);
    let steps = [4e-3, 2e-3, 1e-3];
    let mut errors = vec![];
    for h in steps {
        let mut d = TreeData::new();
        let (mut q, mut v) = (q0, [0.0; 5]);
        let s = TreeStepSettings::with_scheme(TreeScheme::RungeKutta4);
        let mut worst = 0.0f64;
        for _ in 0..(2.0 / h) as usize {
            t.step(&mut d, &mut q, &mut v, &[0.0; 5], h, &s).unwrap();
            worst = worst.max((energy(&q, &v) - e0).abs());
        }
        errors.push(worst);
    }
    let p = order(&steps, &errors);
    println!("energy errors {errors:?} J, order {p:.3}");
    assert!((p - 4.0).abs() < 0.3, "{p}");
}

#[test]
fn a_floating_tree_in_zero_gravity_keeps_its_momentum() {
    let mut rng = Rng(99);
    let t = branched(&mut rng, Vector3::zeros());
    let mut d = Data::new();
    // The momentum rate of ABA's accelerations: RNEA's force on the free base joint is the
    // total external wrench, zero to round-off.
    for _ in 0..20 {
        let (q, v, _) = random_state(&t, &mut rng);
        let mut tau = [0.0; NV];
        for x in tau.iter_mut().skip(6) {
            *x = 3.0 * rng.next();
        }
        let mut qdd = [0.0; NV];
        t.aba(&mut d, &q, &v, &tau, &mut qdd).unwrap();
        let mut back = [0.0; NV];
        t.rnea(&mut d, &q, &v, &qdd, &mut back).unwrap();
        let scale = tau.iter().fold(0.0f64, |s, x| s.max(x.abs()));
        assert!(
            back[..6].iter().all(|x| x.abs() < 1e-12 * scale),
            "{:?}",
            &back[..6]
        );
    }
    // Over a run, RK4 keeps the world momentum to its truncation error, order 4.
    let (q0, v0, _) = random_state(&t, &mut rng);
    let momentum = |q: &[f64], v: &[f64]| {
        let mut d = Data::new();
        t.forward_kinematics(&mut d, q, Some(v)).unwrap();
        let mut h = Force::zero();
        for (i, l) in t.links().iter().enumerate() {
            let x = d.link_pose(i).unwrap();
            h += x.force_to_parent(&l.inertia.apply(&d.link_velocity(i).unwrap()));
        }
        h
    };
    let h0 = momentum(&q0, &v0);
    let steps = [4e-3, 2e-3, 1e-3];
    let mut errors = vec![];
    for h in steps {
        let (mut q, mut v) = (q0, v0);
        for _ in 0..(0.5 / h) as usize {
            t.step(
                &mut d,
                &mut q,
                &mut v,
                &[0.0; NV],
                h,
                &TreeStepSettings::with_scheme(TreeScheme::RungeKutta4),
            )
            .unwrap();
        }
        let e = momentum(&q, &v) - h0;
        errors.push(e.angular.norm() + e.linear.norm());
    }
    let p = order(&steps, &errors);
    println!("momentum errors {errors:?}, order {p:.3}");
    assert!((p - 4.0).abs() < 0.5, "{p}");
}

#[test]
fn joint_damping_is_linearly_implicit() {
    // A link spinning about its axis without gravity: I w' = -d w. Semi-implicit Euler with
    // the damping implicit gives w+ = w / (1 + h d / I) exactly, stable for any h d / I.
    let mut t = mini_example();
    t.set_gravity(Vector3::zeros()).unwrap();
    let d_coef = 500.0;
    t.set_joint_spring(
        0,
        JointSpring {
            damping: d_coef,
            ..JointSpring::none()
        },
    )
    .unwrap();
    let i_pivot = t.links()[0].inertia.rotational[(2, 2)];
    let mut d = TreeData::new();
    for h in [1e-3, 0.1, 0.2] {
        let (mut q, mut v) = ([0.0], [2.0]);
        t.step(
            &mut d,
            &mut q,
            &mut v,
            &[0.0],
            h,
            &TreeStepSettings::default(),
        )
        .unwrap();
        let expected = 2.0 / (1.0 + h * d_coef / i_pivot);
        assert!(
            (v[0] - expected).abs() < 1e-15 * 2.0,
            "h {h}: {} vs {expected}",
            v[0]
        );
    }
    // A joint spring: the relaxed position is an equilibrium (zero acceleration).
    t.set_joint_spring(
        0,
        JointSpring {
            stiffness: 40.0,
            position_offset: 0.3,
            ..JointSpring::none()
        },
    )
    .unwrap();
    let mut qdd = [1.0];
    t.aba(&mut d, &[0.3], &[0.0], &[0.0], &mut qdd).unwrap();
    assert_eq!(qdd[0], 0.0);
}

#[test]
fn the_rotation_guard_splits_fast_steps() {
    let t = mini_example();
    let mut d = TreeData::new();
    let (mut q, mut v) = ([0.0], [30.0]);
    let s = TreeStepSettings::default();
    // 30 rad/s for 0.1 s is 3 rad: ceil(3 / 0.5) = 6 sub-steps.
    let r = t.step(&mut d, &mut q, &mut v, &[0.0], 0.1, &s).unwrap();
    assert_eq!(r.substeps, 6);
    let r = t
        .step(&mut d, &mut [0.0], &mut [1.0], &[0.0], 0.1, &s)
        .unwrap();
    assert_eq!(r.substeps, 1);
    // Beyond max_substeps the step is refused, q and v unchanged.
    let (mut q, mut v) = ([0.1], [1e4]);
    assert_eq!(
        t.step(&mut d, &mut q, &mut v, &[0.0], 0.1, &s),
        Err(Error::OutOfRange(Param::AngularVelocity))
    );
    assert_eq!((q, v), ([0.1], [1e4]));
}

#[test]
fn f32_follows_f64() {
    let mut rng = Rng(5);
    let t64 = branched(&mut rng, Vector3::new(0.0, 0.0, -9.81));
    let mut t32 = KinematicTree::<f32, 16, 32>::new(Vector3::new(0.0, 0.0, -9.81)).unwrap();
    for l in t64.links() {
        let joint = match l.joint {
            Joint::Revolute { axis } => Joint::Revolute { axis: axis.cast() },
            Joint::Prismatic { axis } => Joint::Prismatic { axis: axis.cast() },
            Joint::Fixed => Joint::Fixed,
            Joint::Spherical => Joint::Spherical,
            Joint::Free => Joint::Free,
        };
        let m = l.inertia.mass;
        let c = l.inertia.first_moment / m;
        let ic = l.inertia.rotational - m * (Matrix3::identity() * c.dot(&c) - c * c.transpose());
        let mp = MassProperties::new(m as f32, c.cast(), ic.cast()).unwrap();
        let x = Transform::new(l.placement.rotation.cast(), l.placement.translation.cast());
        t32.add_link(l.parent, joint, x, &mp).unwrap();
    }
    let (q, v, tau) = random_state(&t64, &mut rng);
    let mut a64 = [0.0; NV];
    t64.aba(&mut Data::new(), &q, &v, &tau, &mut a64).unwrap();
    let (q32, v32, tau32) = (
        q.map(|x| x as f32),
        v.map(|x| x as f32),
        tau.map(|x| x as f32),
    );
    let mut a32 = [0.0f32; NV];
    t32.aba(&mut TreeData::new(), &q32, &v32, &tau32, &mut a32)
        .unwrap();
    let a32: Vec<f64> = a32.iter().map(|x| *x as f64).collect();
    println!("f32 vs f64 ABA: {:.1e}", rel(&a32, &a64));
    assert!(rel(&a32, &a64) < 1e-4);
}

#[test]
fn bad_input_is_refused_and_nothing_changes() {
    let mut rng = Rng(3);
    let mp = rng.mass();
    let x = Transform::identity();
    let rz = Joint::revolute(Vector3::z()).unwrap();
    let mut t = KinematicTree::<f64, 2, 2>::new(Vector3::new(0.0, -9.81, 0.0)).unwrap();
    t.add_link(None, rz, x, &mp).unwrap();
    let before = t.clone();
    let refuse =
        |t: &mut KinematicTree<f64, 2, 2>, parent, joint, x, mp: &MassProperties<f64>, e| {
            assert_eq!(t.add_link(parent, joint, x, mp), Err(e));
        };
    // Parents: not an earlier link.
    refuse(&mut t, Some(1), rz, x, &mp, Error::UnknownIndex);
    refuse(&mut t, Some(7), rz, x, &mp, Error::UnknownIndex);
    // Axes.
    refuse(
        &mut t,
        Some(0),
        Joint::Revolute {
            axis: Vector3::zeros(),
        },
        x,
        &mp,
        Error::ZeroLength(Param::Direction),
    );
    refuse(
        &mut t,
        Some(0),
        Joint::Prismatic {
            axis: Vector3::new(f64::INFINITY, 0.0, 0.0),
        },
        x,
        &mp,
        Error::NotFinite(Param::Direction),
    );
    // Placements that are not rotations.
    let skewed = Transform::new(
        Matrix3::new(1.0, 0.1, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        Vector3::zeros(),
    );
    refuse(
        &mut t,
        Some(0),
        rz,
        skewed,
        &mp,
        Error::OutOfRange(Param::Orientation),
    );
    let mirror = Transform::new(
        Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0)),
        Vector3::zeros(),
    );
    refuse(
        &mut t,
        Some(0),
        rz,
        mirror,
        &mp,
        Error::OutOfRange(Param::Orientation),
    );
    // Mass properties: zero or negative mass, a tensor that is not positive definite.
    let massless = MassProperties { mass: 0.0, ..mp };
    refuse(
        &mut t,
        Some(0),
        rz,
        x,
        &massless,
        Error::OutOfRange(Param::Mass),
    );
    let negative = MassProperties { mass: -1.0, ..mp };
    refuse(
        &mut t,
        Some(0),
        rz,
        x,
        &negative,
        Error::OutOfRange(Param::Mass),
    );
    let rod = MassProperties {
        inertia: Matrix3::from_diagonal(&Vector3::new(0.0, 1.0, 1.0)),
        ..mp
    };
    refuse(
        &mut t,
        Some(0),
        rz,
        x,
        &rod,
        Error::OutOfRange(Param::Inertia),
    );
    let nan = MassProperties {
        com: Vector3::new(f64::NAN, 0.0, 0.0),
        ..mp
    };
    refuse(
        &mut t,
        Some(0),
        rz,
        x,
        &nan,
        Error::NotFinite(Param::CenterOfMass),
    );
    assert_eq!(t, before);
    // Capacity: links, then coordinates.
    refuse(
        &mut t,
        Some(0),
        Joint::Spherical,
        x,
        &mp,
        Error::CapacityFull,
    );
    t.add_link(Some(0), rz, x, &mp).unwrap();
    refuse(&mut t, Some(1), rz, x, &mp, Error::CapacityFull);
    // Springs on a joint without a scalar coordinate, negative values.
    let mut s = KinematicTree::<f64, 2, 8>::new(Vector3::zeros()).unwrap();
    s.add_link(None, Joint::Spherical, x, &mp).unwrap();
    assert_eq!(
        s.set_joint_spring(
            0,
            JointSpring {
                stiffness: 1.0,
                ..JointSpring::none()
            }
        ),
        Err(Error::OutOfRange(Param::Stiffness))
    );
    assert_eq!(
        s.set_joint_spring(
            0,
            JointSpring {
                damping: -1.0,
                ..JointSpring::none()
            }
        ),
        Err(Error::OutOfRange(Param::Damping))
    );
    assert_eq!(
        s.set_joint_spring(3, JointSpring::none()),
        Err(Error::UnknownIndex)
    );
    // States: NaN/inf in q, v, tau; wrong lengths; a zero quaternion. Outputs unchanged.
    let mut d = TreeData::new();
    let mut out = [7.0, 7.0];
    let ok = [0.1, 0.2];
    for (q, v, tau, e) in [
        ([f64::NAN, 0.0], ok, ok, Error::NotFinite(Param::Position)),
        (
            ok,
            [0.0, f64::INFINITY],
            ok,
            Error::NotFinite(Param::Velocity),
        ),
        (ok, ok, [f64::NAN, 0.0], Error::NotFinite(Param::Torque)),
    ] {
        assert_eq!(t.aba(&mut d, &q, &v, &tau, &mut out), Err(e));
        assert_eq!(out, [7.0, 7.0]);
        let (mut qq, mut vv) = (q, v);
        assert_eq!(
            t.step(
                &mut d,
                &mut qq,
                &mut vv,
                &tau,
                1e-3,
                &TreeStepSettings::default()
            ),
            Err(e)
        );
        assert_eq!(
            (qq.map(f64::to_bits), vv.map(f64::to_bits)),
            (q.map(f64::to_bits), v.map(f64::to_bits))
        );
    }
    assert_eq!(
        t.rnea(&mut d, &ok, &ok, &[f64::NAN, 0.0], &mut out),
        Err(Error::NotFinite(Param::AngularAcceleration))
    );
    assert_eq!(
        t.aba(&mut d, &ok, &ok[..1], &ok, &mut out),
        Err(Error::OutOfRange(Param::Coordinate))
    );
    assert_eq!(
        t.crba(&mut d, &[0.0]),
        Err(Error::OutOfRange(Param::Coordinate))
    );
    assert_eq!(out, [7.0, 7.0]);
    let mut data_s = TreeData::<f64, 2, 8>::new();
    assert_eq!(
        s.forward_kinematics(&mut data_s, &[0.0; 4], None),
        Err(Error::ZeroLength(Param::Orientation))
    );
    for h in [0.0, -1e-3, f64::NAN] {
        let (mut q, mut v) = (ok, ok);
        assert!(t
            .step(&mut d, &mut q, &mut v, &ok, h, &TreeStepSettings::default())
            .is_err());
        assert_eq!((q, v), (ok, ok));
    }
}
