//! The rigid-body steps never allocate: a counting global allocator sees no allocation on the
//! stepping thread while steps run (core is `no_std` without `alloc`, so this guards against a
//! dependency or a feature change pulling one in).

use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::body::Body;
use mbs_core::integrators::rigid::explicit_euler::ExplicitEuler;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::rk4::Rk4;
use mbs_core::integrators::rigid::symplectic_euler::SymplecticEuler;
use mbs_core::integrators::{RigidIntegrator, RigidLoads, StepSettings};
use mbs_core::math::Quaternion;
use mbs_core::state::RigidState;
use mbs_core::OutputVariableType;
use nalgebra::Vector3;

mod alloc_counter;
use alloc_counter::allocations_during;

fn steps_without_allocating<I: RigidIntegrator<f64>>(integ: &I) -> usize {
    let loads = RigidLoads::none()
        .with_force(Vector3::new(0.0, -9.81, 0.0))
        .with_linear_damping(0.1)
        .with_angular_damping(0.01);
    steps_without_allocating_under(integ, loads)
}

fn steps_without_allocating_under<I: RigidIntegrator<f64>>(
    integ: &I,
    loads: RigidLoads<f64>,
) -> usize {
    let b = RigidBody::from_principal(1.0, [1.0, 2.0, 3.0], Vector3::new(0.1, 0.0, 0.0)).unwrap();
    let mut s = RigidState::new(
        Vector3::zeros(),
        Quaternion::identity(),
        Vector3::zeros(),
        Vector3::new(0.1, 5.0, 0.1),
    );
    allocations_during(|| {
        for _ in 0..1000 {
            integ.step(&b, &loads, &mut s, 1e-2).unwrap();
            b.output(&s, OutputVariableType::KineticEnergy, &Vector3::zeros())
                .unwrap();
            b.position_jacobian(&s, &Vector3::new(1.0, 0.0, 0.0))
                .unwrap();
        }
        // Refused input: the error path does not allocate either.
        assert!(integ.step(&b, &loads, &mut s, -1.0).is_err());
    })
}

#[test]
fn no_step_allocates() {
    // The counter works: a Vec on the armed thread is seen.
    assert_eq!(
        allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))),
        1
    );
    assert_eq!(
        steps_without_allocating(&LinearlyImplicitMidpoint::new()),
        0
    );
    let sub = StepSettings::default()
        .with_substep(true)
        .with_max_rotation_per_step(0.01);
    assert_eq!(
        steps_without_allocating(&LinearlyImplicitMidpoint::with_step_settings(sub)),
        0
    );
    // Every option of the midpoint step, the projection included.
    let all = mbs_core::integrators::rigid::midpoint::MidpointSettings::second_order()
        .with_invariants(mbs_core::integrators::Invariants::Project)
        .with_step(sub.with_load_frequency(Some(10.0)));
    let integ = LinearlyImplicitMidpoint::with_settings(all);
    assert_eq!(steps_without_allocating(&integ), 0);
    // Torque-free (the projection runs).
    let free = RigidLoads::none().with_force(Vector3::new(0.0, -9.81, 0.0));
    assert_eq!(steps_without_allocating_under(&integ, free), 0);
    assert_eq!(steps_without_allocating(&ExplicitEuler::default()), 0);
    assert_eq!(steps_without_allocating(&SymplecticEuler::default()), 0);
    assert_eq!(steps_without_allocating(&Rk4::default()), 0);
}
