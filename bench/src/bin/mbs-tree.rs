//! Kinematic-tree algorithms of mbs on the 6-DOF arm of `firmware/rust/src/arm.rs` and on
//! chains of `n` revolute links, in f64, for `bench/tree.sh` to set beside Pinocchio and MuJoCo.
//!
//! Usage: `mbs-tree --model arm|chain:N [--dump | --check K | --repeats R]`
//! - `--dump`: the model as text, one link a line: `parent axis(3) R(9, row-major) p(3) mass
//!   com(3) inertia(9)` (parent -1 for the base; joint frame in the parent link frame, mass
//!   properties in the link frame, inertia about the centre of mass), after a first line
//!   `gravity(3)`;
//! - `--check K`: K pseudo-random states (the same every run), one JSON object a line: `q`, `v`, `tau`, `qdd` (the
//!   accelerations RNEA is given), `rnea`, `mass` (row-major), `aba`;
//! - default: one JSON object: ns per call (min over R repeats of a sweep over 64 states) of
//!   `rnea`, `crba`, `aba`, a semi-implicit Euler step and an RK4 step.

#[path = "../../../firmware/rust/src/arm.rs"]
#[allow(dead_code)]
mod arm;

use mbs_core::inertia::Cuboid;
use mbs_core::tree::{Joint, KinematicTree, Transform, TreeData, TreeScheme, TreeStepSettings};
use nalgebra::Vector3;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

/// Capacity: the longest chain timed.
const CAP: usize = 32;
type Tree = KinematicTree<f64, CAP, CAP>;
type Data = TreeData<f64, CAP, CAP>;

/// A chain of `n` aluminium bars (0.3 m x 0.05 m x 0.05 m) on revolute joints whose axes
/// alternate between z and y, each joint 0.3 m along its parent's z.
fn chain(n: usize) -> Tree {
    let mut t = Tree::new(Vector3::new(0.0, 0.0, -9.81)).expect("gravity");
    let bar = Cuboid::new(Vector3::new(0.05, 0.05, 0.3))
        .density(2700.0)
        .center(Vector3::new(0.0, 0.0, 0.15))
        .mass_properties()
        .expect("bar");
    for i in 0..n {
        let axis = if i % 2 == 0 {
            Vector3::z()
        } else {
            Vector3::y()
        };
        let at = Vector3::new(0.0, 0.0, if i == 0 { 0.0 } else { 0.3 });
        let parent = if i == 0 { None } else { Some(i - 1) };
        t.add_link(
            parent,
            Joint::revolute(axis).expect("axis"),
            Transform::translation(at),
            &bar,
        )
        .expect("link");
    }
    t
}

/// splitmix64 in [-1, 1).
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
    fn vec(&mut self, n: usize, scale: f64) -> Vec<f64> {
        (0..n).map(|_| scale * self.next()).collect()
    }
}

fn nums(x: &[f64]) -> String {
    let s: Vec<String> = x.iter().map(|v| format!("{v:.17e}")).collect();
    s.join(" ")
}

fn json(x: &[f64]) -> String {
    let s: Vec<String> = x.iter().map(|v| format!("{v:.17e}")).collect();
    format!("[{}]", s.join(","))
}

fn dump(t: &Tree) {
    println!("{}", nums(t.gravity().as_slice()));
    for l in t.links() {
        let Joint::Revolute { axis } = l.joint else {
            unreachable!("the benchmark models are revolute chains")
        };
        let m = l.inertia.mass;
        let c = l.inertia.first_moment / m;
        let ic = l.inertia.rotational
            - (nalgebra::Matrix3::identity() * c.dot(&c) - c * c.transpose()) * m;
        let r: Vec<f64> = (0..9)
            .map(|k| l.placement.rotation[(k / 3, k % 3)])
            .collect();
        let i: Vec<f64> = (0..9).map(|k| ic[(k / 3, k % 3)]).collect();
        println!(
            "{} {} {} {} {} {} {}",
            l.parent.map_or(-1, |p| p as i64),
            nums(axis.as_slice()),
            nums(&r),
            nums(l.placement.translation.as_slice()),
            nums(&[m]),
            nums(c.as_slice()),
            nums(&i)
        );
    }
}

fn check(t: &Tree, k: usize) {
    let n = t.nv();
    let mut rng = Rng(42);
    let mut d = Data::new();
    for _ in 0..k {
        let (q, v, tau, qdd) = (
            rng.vec(n, 3.0),
            rng.vec(n, 2.0),
            rng.vec(n, 20.0),
            rng.vec(n, 5.0),
        );
        let (mut rnea, mut aba) = (vec![0.0; n], vec![0.0; n]);
        t.rnea(&mut d, &q, &v, &qdd, &mut rnea).expect("rnea");
        t.aba(&mut d, &q, &v, &tau, &mut aba).expect("aba");
        t.crba(&mut d, &q).expect("crba");
        let m: Vec<f64> = (0..n * n)
            .map(|e| d.mass_matrix(e / n, e % n).unwrap_or(f64::NAN))
            .collect();
        println!(
            "{{\"q\":{},\"v\":{},\"tau\":{},\"qdd\":{},\"rnea\":{},\"mass\":{},\"aba\":{}}}",
            json(&q),
            json(&v),
            json(&tau),
            json(&qdd),
            json(&rnea),
            json(&m),
            json(&aba)
        );
    }
}

/// ns per call: the minimum over `repeats` of a sweep of `f` over the states.
fn time(repeats: usize, states: usize, mut f: impl FnMut(usize)) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..repeats {
        let start = Instant::now();
        for s in 0..states {
            f(s);
        }
        best = best.min(start.elapsed().as_nanos() as f64 / states as f64);
    }
    best
}

fn bench(t: &Tree, name: &str, repeats: usize) {
    let n = t.nv();
    let mut rng = Rng(7);
    const S: usize = 64;
    let states: Vec<(Vec<f64>, Vec<f64>, Vec<f64>)> = (0..S)
        .map(|_| (rng.vec(n, 3.0), rng.vec(n, 2.0), rng.vec(n, 20.0)))
        .collect();
    let mut d = Data::new();
    let mut out = vec![0.0; n];
    let rnea = time(repeats, S, |s| {
        let (q, v, a) = &states[s];
        t.rnea(&mut d, black_box(q), black_box(v), black_box(a), &mut out)
            .expect("rnea");
        black_box(&out);
    });
    let crba = time(repeats, S, |s| {
        t.crba(&mut d, black_box(&states[s].0)).expect("crba");
        black_box(&d);
    });
    let aba = time(repeats, S, |s| {
        let (q, v, tau) = &states[s];
        t.aba(&mut d, black_box(q), black_box(v), black_box(tau), &mut out)
            .expect("aba");
        black_box(&out);
    });
    // One step from each state (copied in: the copy is part of the figure, a few ns).
    let mut step = |scheme| {
        let settings = TreeStepSettings::with_scheme(scheme);
        let (mut q, mut v) = (vec![0.0; n], vec![0.0; n]);
        time(repeats, S, |s| {
            let (q0, v0, tau) = &states[s];
            q.copy_from_slice(q0);
            v.copy_from_slice(v0);
            t.step(&mut d, &mut q, &mut v, black_box(tau), 1e-3, &settings)
                .expect("step");
            black_box(&q);
        })
    };
    let euler = step(TreeScheme::SemiImplicitEuler);
    let rk4 = step(TreeScheme::RungeKutta4);
    println!(
        "{{\"model\":\"{name}\",\"nv\":{n},\"rnea_ns\":{rnea:.1},\"crba_ns\":{crba:.1},\"aba_ns\":{aba:.1},\"euler_step_ns\":{euler:.1},\"rk4_step_ns\":{rk4:.1}}}"
    );
}

fn main() -> ExitCode {
    let (mut model, mut mode, mut k, mut repeats) =
        (String::from("arm"), "bench", 8usize, 200usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let ok = match a.as_str() {
            "--model" => args.next().map(|v| model = v).is_some(),
            "--dump" => {
                mode = "dump";
                true
            }
            "--check" => {
                mode = "check";
                args.next()
                    .and_then(|v| v.parse().ok())
                    .map(|v| k = v)
                    .is_some()
            }
            "--repeats" => args
                .next()
                .and_then(|v| v.parse().ok())
                .map(|v| repeats = v)
                .is_some(),
            _ => false,
        };
        if !ok {
            eprintln!("usage: mbs-tree --model arm|chain:N [--dump | --check K | --repeats R]");
            return ExitCode::from(2);
        }
    }
    let tree = match model.strip_prefix("chain:").map(|n| n.parse::<usize>()) {
        None if model == "arm" => arm::build::<f64, CAP, CAP>().expect("arm"),
        Some(Ok(n)) if (1..=CAP).contains(&n) => chain(n),
        _ => {
            eprintln!("unknown model {model} (arm or chain:1..{CAP})");
            return ExitCode::from(2);
        }
    };
    match mode {
        "dump" => dump(&tree),
        "check" => check(&tree, k),
        _ => bench(&tree, &model, repeats),
    }
    ExitCode::SUCCESS
}
