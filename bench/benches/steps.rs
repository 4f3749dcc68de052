//! Criterion benches of one step of each mbs scheme on the host.
//!
//! Each rigid-body iteration takes one step from the same start state (a copy: the
//! torque-free comparison body of `mbs_bench::torque_free`, `dt = 1e-3`), so the explicit
//! schemes' growth cannot change the work over millions of iterations. The mass point is
//! Exudyn's mini example (m = 2 kg, a constant force [10, 0] N) under generalized-alpha
//! (`rho_inf = 0.9`, Exudyn's default), again one step from the same state.
//!
//! Run: `cargo bench -p mbs-bench --bench steps` (add `-- --quick` for a short run).

use criterion::{criterion_group, criterion_main, Criterion};
use mbs_bench::bullet::BulletImplicitGyro;
use mbs_bench::torque_free;
use mbs_core::bodies::MassPoint2D;
use mbs_core::inertia::Cylinder;
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{GeneralizedAlpha, RigidIntegrator, RigidLoads};
use mbs_core::loads::LoadForceVector;
use mbs_core::nodes::NodePoint2D;
use mbs_core::solver::{MassPointLoad, MassPointOde};
use mbs_core::Real;
use nalgebra::{Vector2, Vector3};
use std::hint::black_box;

fn rigid<T: Real, I: RigidIntegrator<T>>(c: &mut Criterion, name: &str, integrator: I) {
    let Ok(body) = torque_free::body::<T>() else {
        return;
    };
    let s0 = torque_free::start::<T>();
    let loads = RigidLoads::none();
    let dt = T::c(torque_free::DT);
    c.bench_function(name, |b| {
        b.iter(|| {
            let mut s = black_box(s0);
            let r = integrator.step(black_box(&body), black_box(&loads), &mut s, black_box(dt));
            (r, s)
        })
    });
}

fn rigid_steps(c: &mut Criterion) {
    rigid::<f64, _>(c, "rigid midpoint f64", LinearlyImplicitMidpoint::new());
    rigid::<f32, _>(c, "rigid midpoint f32", LinearlyImplicitMidpoint::new());
    rigid::<f64, _>(c, "rigid explicit Euler f64", ExplicitEuler::default());
    rigid::<f64, _>(
        c,
        "rigid semi-implicit Euler f64",
        SymplecticEuler::default(),
    );
    rigid::<f64, _>(c, "rigid RK4 f64", Rk4::default());
    rigid::<f64, _>(
        c,
        "rigid Bullet implicit gyro f64 (bench crate)",
        BulletImplicitGyro::default(),
    );
}

fn mass_point_step(c: &mut Criterion) {
    let (Ok(node), Ok(body), Ok(force), Ok(alpha)) = (
        NodePoint2D::<f64>::at(Vector2::new(1.0, 1.0)),
        MassPoint2D::new(2.0),
        LoadForceVector::new(Vector3::new(10.0, 0.0, 0.0)),
        GeneralizedAlpha::new(0.9),
    ) else {
        return;
    };
    let loads = [MassPointLoad::NodeForce {
        node: 0,
        load: force,
    }];
    let Ok(ode) = MassPointOde::new(&node, &body, &loads) else {
        return;
    };
    let Ok(s0) = alpha.initial_state(
        &ode,
        0.0,
        &node.initial_coordinates(),
        &node.initial_velocities(),
    ) else {
        return;
    };
    c.bench_function("mass point 2D generalized-alpha f64", |b| {
        b.iter(|| {
            let mut s = black_box(s0);
            let r = alpha.step(black_box(&ode), &mut s, black_box(0.0), black_box(1e-3));
            (r, s)
        })
    });
}

fn cylinder(c: &mut Criterion) {
    // Modelica's BodyCylinder defaults with r = [1, 0.2, 0.1] (a rotated, tilted cylinder).
    let cyl = Cylinder::<f64>::new(Vector3::new(1.0, 0.2, 0.1));
    c.bench_function("cylinder mass properties f64", |b| {
        b.iter(|| black_box(&cyl).mass_properties())
    });
}

criterion_group!(benches, rigid_steps, mass_point_step, cylinder);
criterion_main!(benches);
