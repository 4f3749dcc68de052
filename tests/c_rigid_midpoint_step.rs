//! The C API's rigid-body steps against a reference that checks every C field first (the
//! order the C API documents, and how `mbs_rigid_step` checked before it stepped the caller's
//! state in place and let the core step screen NaN/inf): for every single bad field (NaN, inf
//! in each of the state's 19 and the loads' 18 entries, each negative damping, a quaternion
//! that is not unit, a finite overflow) and for pairs of faults, `mbs_rigid_step` and
//! `mbs_rigid_midpoint_step` return the reference's status and leave state and report
//! untouched; every accepted step gives the reference's bits. In float and double.

use mbs::boundary::time_step;
use mbs::rigid::body::mbs_rigid_body_of;
use mbs::rigid::loads::mbs_rigid_loads_of;
use mbs::rigid::scheme::MBS_RIGID_SCHEME_MIDPOINT;
use mbs::rigid::state::mbs_rigid_state_of;
use mbs::rigid::step::{midpoint_step, step};
use mbs::rigid::step_settings::{mbs_step_info, mbs_step_settings_of};
use mbs::status::status_of;
use mbs::*;
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::rigid::RigidScheme;
use mbs_core::integrators::RigidIntegrator;
use mbs_core::Real;

type Outcome<T> = (MbsStatus, mbs_rigid_state_of<T>, mbs_step_info);

/// The reference: every C field checked in the documented order, then core's midpoint step on
/// a copy of the state.
fn reference<T: Real>(
    b: &mbs_rigid_body_of<T>,
    l: &mbs_rigid_loads_of<T>,
    c: &mbs_step_settings_of<T>,
    s: &mbs_rigid_state_of<T>,
    dt: T,
) -> Result<(mbs_rigid_state_of<T>, MbsStatus), MbsStatus> {
    let dt = time_step(dt)?;
    let (scheme, st) = c.to_core()?;
    assert_eq!(scheme, RigidScheme::Midpoint);
    let body = b.to_core_or_sealed()?;
    let mut cs = s.to_core_finite()?;
    let cl = l.to_core_unvalidated(&body, &cs)?;
    let info = LinearlyImplicitMidpoint::with_step_settings(st)
        .step(&body, &cl, &mut cs, dt)
        .map_err(status_of)?;
    let status = mbs_step_info::of(&info).status;
    Ok((mbs_rigid_state_of::of(&cs), status))
}

/// Both C API steps on copies of `s0`: status, state and report.
fn both<T: Real>(
    b: &mbs_rigid_body_of<T>,
    l: &mbs_rigid_loads_of<T>,
    c: &mbs_step_settings_of<T>,
    s0: &mbs_rigid_state_of<T>,
    dt: T,
) -> [Outcome<T>; 2] {
    let poison = mbs_step_info {
        status: 0xdead,
        substeps: 77,
        rejected_substeps: 78,
        substep_limit_reached: true,
        _pad0: [0x5a; 3],
    };
    let (mut sa, mut sm, mut ia, mut im) = (*s0, *s0, poison, poison);
    // SAFETY: pointers to live locals, the state distinct from the other arguments.
    let (ra, rm) = unsafe {
        (
            step(b, l, c, &mut sa, dt, &mut ia),
            midpoint_step(b, l, c, &mut sm, dt, &mut im),
        )
    };
    [(ra, sa, ia), (rm, sm, im)]
}

fn bits<T: Real>(s: &mbs_rigid_state_of<T>) -> Vec<u64> {
    s.position
        .iter()
        .chain(&s.orientation)
        .chain(&s.velocity)
        .chain(&s.angular_velocity)
        .chain(&s.acceleration)
        .chain(&s.angular_acceleration)
        .map(|x| x.to_f64().to_bits())
        .collect()
}

/// Checks both C API steps against the reference for one input; `true` if it was refused.
fn agree<T: Real>(
    b: &mbs_rigid_body_of<T>,
    l: &mbs_rigid_loads_of<T>,
    c: &mbs_step_settings_of<T>,
    s0: &mbs_rigid_state_of<T>,
    dt: T,
    what: &str,
) -> bool {
    let want = reference(b, l, c, s0, dt);
    for (k, (status, s, info)) in both(b, l, c, s0, dt).into_iter().enumerate() {
        let name = ["mbs_rigid_step", "mbs_rigid_midpoint_step"][k];
        match &want {
            Ok((ws, wstatus)) => {
                assert_eq!(status, *wstatus, "{name}: {what}");
                assert_eq!(bits(&s), bits(ws), "{name}: {what}");
                assert_eq!(info.status, status, "{name}: {what}");
            }
            Err(e) => {
                assert_eq!(status, *e, "{name}: {what}");
                assert_eq!(bits(&s), bits(s0), "{name}: {what}: state touched");
                assert_eq!(info.substeps, 77, "{name}: {what}: report touched");
            }
        }
    }
    want.is_err()
}

/// A tumbling body with its COM off the reference point, gravity, torques, a force and both
/// dampings: every load term and the COM mapping are in play.
fn setup<T: Real>() -> (
    mbs_rigid_body_of<T>,
    mbs_rigid_loads_of<T>,
    mbs_step_settings_of<T>,
    mbs_rigid_state_of<T>,
) {
    let mut b = mbs_rigid_body_of::<T>::default();
    let inertia = [2.0, 0.1, 0.0, 0.1, 3.0, -0.2, 0.0, -0.2, 4.0].map(T::c);
    let com = [0.1, -0.05, 0.2].map(T::c);
    // SAFETY: pointers to live locals.
    let st = unsafe { mbs::rigid::body::init(&mut b, T::c(2.5), &inertia, &com) };
    assert_eq!(st, MBS_OK);
    let l = mbs_rigid_loads_of {
        force: [1.5, 0.0, -0.5].map(T::c),
        torque: [0.0, 0.3, 0.1].map(T::c),
        torque_world: [-0.2, 0.0, 0.4].map(T::c),
        gravity: [0.0, 0.0, -9.81].map(T::c),
        linear_damping: [0.0, 0.4, 0.1].map(T::c),
        angular_damping: [0.02, 0.0, 0.05].map(T::c),
    };
    let s = mbs_rigid_state_of {
        position: [1.0, 2.0, 3.0].map(T::c),
        orientation: [0.5, 0.5, 0.5, 0.5].map(T::c),
        velocity: [0.5, 0.0, -1.0].map(T::c),
        angular_velocity: [3.0, -4.0, 6.0].map(T::c),
        acceleration: [0.1, 0.2, 0.3].map(T::c),
        angular_acceleration: [-0.1, 0.0, 0.2].map(T::c),
    };
    (b, l, mbs_step_settings_of::defaults(), s)
}

/// The state's and the loads' entries as mutable slots, by index (19 and 18 of them).
fn state_entry<T>(s: &mut mbs_rigid_state_of<T>, i: usize) -> &mut T {
    match i {
        0..=2 => &mut s.position[i],
        3..=6 => &mut s.orientation[i - 3],
        7..=9 => &mut s.velocity[i - 7],
        10..=12 => &mut s.angular_velocity[i - 10],
        13..=15 => &mut s.acceleration[i - 13],
        _ => &mut s.angular_acceleration[i - 16],
    }
}

fn load_entry<T>(l: &mut mbs_rigid_loads_of<T>, i: usize) -> &mut T {
    match i {
        0..=2 => &mut l.force[i],
        3..=5 => &mut l.torque[i - 3],
        6..=8 => &mut l.torque_world[i - 6],
        9..=11 => &mut l.gravity[i - 9],
        12..=14 => &mut l.linear_damping[i - 12],
        _ => &mut l.angular_damping[i - 15],
    }
}

/// A quarter of the largest finite value of `T`: finite, but its square overflows.
fn huge<T: Real>() -> T {
    if core::mem::size_of::<T>() == 4 {
        T::c(f64::from(f32::MAX) / 4.0)
    } else {
        T::c(f64::MAX / 4.0)
    }
}

fn every_refusal_and_result_as_the_reference<T: Real>() {
    let (b, l, c, s) = setup::<T>();
    let dt = T::c(0.01);
    assert!(!agree(&b, &l, &c, &s, dt, "valid"), "the valid input steps");
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY].map(T::c);
    let mut refused = 0;
    // Each single non-finite entry, alone and with a second fault of each other kind.
    for x in bad {
        for i in 0..19 {
            let mut s1 = s;
            *state_entry(&mut s1, i) = x;
            refused += agree(&b, &l, &c, &s1, dt, &format!("state[{i}] = {x:?}")) as usize;
            let mut l1 = l;
            l1.angular_damping[1] = T::c(-1.0);
            refused += agree(&b, &l1, &c, &s1, dt, &format!("state[{i}], damping")) as usize;
            for j in 0..18 {
                let mut l2 = l;
                *load_entry(&mut l2, j) = x;
                refused += agree(&b, &l2, &c, &s1, dt, &format!("state[{i}], load[{j}]")) as usize;
            }
        }
        for j in 0..18 {
            let mut l1 = l;
            *load_entry(&mut l1, j) = x;
            refused += agree(&b, &l1, &c, &s, dt, &format!("load[{j}] = {x:?}")) as usize;
            let mut s1 = s;
            s1.orientation[0] = T::c(0.9); // not unit
            refused += agree(&b, &l1, &c, &s1, dt, &format!("load[{j}], quaternion")) as usize;
            let mut l2 = l1;
            l2.linear_damping[0] = T::c(-2.0);
            refused += agree(&b, &l2, &c, &s, dt, &format!("load[{j}], damping")) as usize;
        }
    }
    // Each negative damping (and -0, which is not negative).
    for j in 12..18 {
        let mut l1 = l;
        *load_entry(&mut l1, j) = T::c(-1e-3);
        refused += agree(&b, &l1, &c, &s, dt, &format!("damping[{j}] < 0")) as usize;
        let mut s1 = s;
        s1.orientation[0] = T::c(0.9);
        refused += agree(&b, &l1, &c, &s1, dt, &format!("damping[{j}], quaternion")) as usize;
        *load_entry(&mut l1, j) = T::c(-0.0);
        assert!(!agree(&b, &l1, &c, &s, dt, "damping -0"));
    }
    // Not a unit quaternion; finite loads whose m g overflows; a result that overflows; a
    // body changed after init (not sealed: validated in full) that is invalid, and one that
    // is valid; dt and settings.
    let mut s1 = s;
    s1.orientation = [0.0; 4].map(T::c);
    refused += agree(&b, &l, &c, &s1, dt, "zero quaternion") as usize;
    let huge = huge::<T>();
    let mut l1 = l;
    l1.gravity[1] = huge;
    let mut heavy = b;
    heavy.mass = huge;
    refused += agree(&heavy, &l1, &c, &s, dt, "m g overflows") as usize;
    let mut l1 = l;
    l1.force[0] = huge;
    refused += agree(&b, &l1, &c, &s, huge, "the result overflows") as usize;
    let mut b1 = b;
    b1.inertia[8] = T::c(0.5); // 0.5 + 2 < 3: no physical body
    refused += agree(&b1, &l, &c, &s, dt, "unsealed invalid body") as usize;
    b1.inertia[8] = T::c(4.5);
    assert!(!agree(&b1, &l, &c, &s, dt, "unsealed valid body"));
    for d in [0.0, -1.0, f64::NAN].map(T::c) {
        refused += agree(&b, &l, &c, &s, d, "dt") as usize;
    }
    let mut c1 = c;
    c1.max_rotation_per_step = T::zero();
    refused += agree(&b, &l, &c1, &s, dt, "bound 0") as usize;
    // 3 x (19 x 20 + 18 x 3) + 6 x 2 + 8 refusals: every faulty input was refused.
    assert_eq!(refused, 3 * (19 * 20 + 18 * 3) + 6 * 2 + 8);
}

#[test]
fn c_api_steps_refuse_and_step_as_the_full_checks_do() {
    every_refusal_and_result_as_the_reference::<f32>();
    every_refusal_and_result_as_the_reference::<f64>();
}

/// The midpoint-only entry point refuses the other integrators (state and report untouched)
/// and null pointers, like `mbs_rigid_step` for null pointers.
#[test]
fn midpoint_entry_refuses_other_integrators_and_null_pointers() {
    let (b, l, c, s0) = setup::<f32>();
    for k in 1..=4u32 {
        let mut c1 = c;
        c1.integrator = k;
        let [_, (status, s, info)] = both(&b, &l, &c1, &s0, 0.01);
        assert_eq!(status, MBS_ERR_INVALID_ARGUMENT, "integrator {k}");
        assert_eq!(bits(&s), bits(&s0));
        assert_eq!(info.substeps, 77);
    }
    let mut s = s0;
    let null = core::ptr::null_mut();
    // SAFETY: null pointers are refused before anything is read.
    unsafe {
        assert_eq!(
            midpoint_step(core::ptr::null(), &l, &c, &mut s, 0.01, null),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            midpoint_step(&b, core::ptr::null(), &c, &mut s, 0.01, null),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            midpoint_step(&b, &l, core::ptr::null(), &mut s, 0.01, null),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            midpoint_step(&b, &l, &c, core::ptr::null_mut(), 0.01, null),
            MBS_ERR_NULL_POINTER
        );
    }
    assert_eq!(bits(&s), bits(&s0));
}

/// `mbs_rigid_step` steps with core's scheme of each `MBS_RIGID_SCHEME_*` code, bit for bit
/// (`mbs_core::system::rigid_step` with that `RigidScheme`, on the same body, loads and state),
/// and refuses the first code past them with the state and report untouched.
#[test]
fn each_integrator_code_steps_with_cores_scheme_of_that_name() {
    use mbs::rigid::scheme::{
        MBS_RIGID_SCHEME_EXPLICIT_EULER, MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE, MBS_RIGID_SCHEME_RK4,
        MBS_RIGID_SCHEME_SYMPLECTIC_EULER,
    };
    let (b, l, c, s0) = setup::<f64>();
    let dt = 0.01;
    let codes = [
        (MBS_RIGID_SCHEME_MIDPOINT, RigidScheme::Midpoint),
        (MBS_RIGID_SCHEME_EXPLICIT_EULER, RigidScheme::ExplicitEuler),
        (
            MBS_RIGID_SCHEME_SYMPLECTIC_EULER,
            RigidScheme::SymplecticEuler,
        ),
        (MBS_RIGID_SCHEME_RK4, RigidScheme::Rk4),
        (
            MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE,
            RigidScheme::MidpointMeanRate,
        ),
    ];
    let mut states = Vec::new();
    for (code, scheme) in codes {
        let mut c1 = c;
        c1.integrator = code;
        let [(status, s, _), _] = both(&b, &l, &c1, &s0, dt);
        assert_eq!(status, MBS_OK, "integrator {code}");
        let body = b.to_core_or_sealed().unwrap();
        let mut cs = s0.to_core_finite().unwrap();
        let cl = l.to_core_unvalidated(&body, &cs).unwrap();
        let (_, settings) = c1.to_core().unwrap();
        mbs_core::system::rigid_step(scheme, &settings, &body, &cl, &mut cs, dt).unwrap();
        assert_eq!(
            bits(&s),
            bits(&mbs_rigid_state_of::of(&cs)),
            "integrator {code}"
        );
        states.push(bits(&s));
    }
    // Five schemes, five different results (the mean-rate turn is not the midpoint's).
    for i in 0..states.len() {
        for j in 0..i {
            assert_ne!(states[i], states[j], "integrators {i} and {j}");
        }
    }
    let mut c1 = c;
    c1.integrator = MBS_RIGID_SCHEME_MIDPOINT_MEAN_RATE + 1;
    let [(status, s, info), _] = both(&b, &l, &c1, &s0, dt);
    assert_eq!(status, MBS_ERR_INVALID_ARGUMENT);
    assert_eq!(bits(&s), bits(&s0));
    assert_eq!(info.substeps, 77);
}
