//! The float mass point C API (`mbs_mass_point_2d_*_f32`, `mbs_simulation_settings_default_f32`)
//! through the ffi crate: it follows the double API to float rounding and both follow the
//! closed form of a constant acceleration (`x(t) = r + q0 + v0 t + a t^2 / 2`, m, world x and
//! y; generalized-alpha reproduces it exactly in exact arithmetic), the mini example of Exudyn's `ObjectMassPoint2D`
//! reaches x = 2 m, and every refusal returns the status of the double function for the same
//! input and leaves the caller's data untouched.

use mbs::mass_point_2d::*;
use mbs::simulation_settings::*;
use mbs::*;
use std::ptr::{null, null_mut};

/// A body, loads and settings in double and their float roundings.
#[derive(Clone, Copy)]
struct Case {
    body: mbs_mass_point_2d,
    loads: mbs_mass_point_2d_loads,
    settings: mbs_simulation_settings,
}

impl Case {
    /// 2 kg at r = (1, -2) m under 3 N along x and g = (0, -9.81) m/s^2: a = (1.5, -9.81) m/s^2.
    fn loaded() -> Self {
        Self {
            body: mbs_mass_point_2d {
                mass: 2.0,
                reference_coordinates: [1.0, -2.0],
            },
            loads: mbs_mass_point_2d_loads {
                force: [3.0, 0.0, 0.0],
                gravity: [0.0, -9.81, 0.0],
            },
            settings: mbs_simulation_settings::defaults(),
        }
    }

    fn body32(&self) -> mbs_mass_point_2d_f32 {
        mbs_mass_point_2d_f32 {
            mass: self.body.mass as f32,
            reference_coordinates: self.body.reference_coordinates.map(|x| x as f32),
        }
    }

    fn loads32(&self) -> mbs_mass_point_2d_loads_f32 {
        mbs_mass_point_2d_loads_f32 {
            force: self.loads.force.map(|x| x as f32),
            gravity: self.loads.gravity.map(|x| x as f32),
        }
    }

    fn settings32(&self) -> mbs_simulation_settings_f32 {
        let s = &self.settings;
        mbs_simulation_settings_f32 {
            start_time: s.start_time as f32,
            end_time: s.end_time as f32,
            number_of_steps: s.number_of_steps,
            solver_type: s.solver_type,
            spectral_radius: s.spectral_radius as f32,
            newton_relative_tolerance: s.newton_relative_tolerance as f32,
            newton_absolute_tolerance: s.newton_absolute_tolerance as f32,
            newton_max_iterations: s.newton_max_iterations,
            _pad0: 0,
        }
    }
}

fn state32(s: &mbs_point2d_state) -> mbs_point2d_state_f32 {
    mbs_point2d_state_f32 {
        q: s.q.map(|x| x as f32),
        q_t: s.q_t.map(|x| x as f32),
        q_tt: s.q_tt.map(|x| x as f32),
        a: s.a.map(|x| x as f32),
    }
}

fn init_state64(c: &Case, q0: [f64; 2], v0: [f64; 2]) -> (MbsStatus, mbs_point2d_state) {
    let mut s = mbs_point2d_state::default();
    // SAFETY: valid pointers to live locals.
    let st = unsafe {
        mbs_mass_point_2d_init_state(
            &c.body,
            &c.loads,
            &c.settings,
            q0.as_ptr(),
            v0.as_ptr(),
            &mut s,
        )
    };
    (st, s)
}

fn init_state32(c: &Case, q0: [f64; 2], v0: [f64; 2]) -> (MbsStatus, mbs_point2d_state_f32) {
    let (b, l, st) = (c.body32(), c.loads32(), c.settings32());
    let (q0, v0) = (q0.map(|x| x as f32), v0.map(|x| x as f32));
    let mut s = mbs_point2d_state_f32::default();
    // SAFETY: valid pointers to live locals.
    let status =
        unsafe { mbs_mass_point_2d_init_state_f32(&b, &l, &st, q0.as_ptr(), v0.as_ptr(), &mut s) };
    (status, s)
}

/// `n` steps of `h` from `q0`, `v0` in double and in float: the final states.
fn run_both(
    c: &Case,
    q0: [f64; 2],
    v0: [f64; 2],
    h: f64,
    n: u32,
) -> (mbs_point2d_state, mbs_point2d_state_f32) {
    let (st, mut s64) = init_state64(c, q0, v0);
    assert_eq!(st, MBS_OK);
    let (st, mut s32) = init_state32(c, q0, v0);
    assert_eq!(st, MBS_OK);
    let (b, l, set) = (c.body32(), c.loads32(), c.settings32());
    for _ in 0..n {
        let (mut i64, mut i32) = (
            mbs_alpha_step_info::default(),
            mbs_alpha_step_info::default(),
        );
        // SAFETY: valid pointers to live locals.
        unsafe {
            assert_eq!(
                mbs_mass_point_2d_step(&c.body, &c.loads, &c.settings, &mut s64, h, &mut i64),
                MBS_OK
            );
            assert_eq!(
                mbs_mass_point_2d_step_f32(&b, &l, &set, &mut s32, h as f32, &mut i32),
                MBS_OK
            );
        }
        assert!(i32.newton_iterations <= 2, "{i32:?}");
    }
    (s64, s32)
}

#[test]
fn float_steps_follow_the_double_steps_and_the_closed_form() {
    let c = Case::loaded();
    let (q0, v0, h, n) = ([0.1, 0.2], [0.3, 0.4], 0.01, 50u32);
    let (s64, s32) = run_both(&c, q0, v0, h, n);
    let t = f64::from(n) * h;
    let a = [1.5, -9.81];
    for i in 0..2 {
        let q = q0[i] + v0[i] * t + 0.5 * a[i] * t * t;
        let v = v0[i] + a[i] * t;
        // The double step: the closed form to double rounding.
        assert!((s64.q[i] - q).abs() < 1e-12, "{s64:?}");
        assert!((s64.q_t[i] - v).abs() < 1e-12, "{s64:?}");
        // The float step: 50 steps, each rounding q, q_t (|q| <= 1.5 m, |q_t| <= 5 m/s) by a
        // few float ulps: 50 * 4 * EPS * 5 = 1.2e-4 bounds the drift from the double step.
        let tol = f64::from(n) * 4.0 * f64::from(f32::EPSILON) * 5.0;
        assert!(
            (f64::from(s32.q[i]) - s64.q[i]).abs() < tol,
            "{s32:?} {s64:?}"
        );
        assert!(
            (f64::from(s32.q_t[i]) - s64.q_t[i]).abs() < tol,
            "{s32:?} {s64:?}"
        );
        assert!(
            (f64::from(s32.q[i]) - q).abs() < tol,
            "{s32:?} vs closed form {q}"
        );
        assert!((f64::from(s32.q_tt[i]) - a[i]).abs() < 1e-5, "{s32:?}");
    }
}

#[test]
fn float_mini_example_reaches_x_2() {
    // Exudyn's mini example: 1 kg at r = (1, 1) m, q0 = (0.5, 0) m, v0 = (0.5, 0) m/s, no load, 100 steps
    // of 0.01 s: x = r + q0 + v0 t = 2 m, y = 1 m at t = 1 s (closed form, no acceleration).
    let c = Case {
        body: mbs_mass_point_2d {
            mass: 1.0,
            reference_coordinates: [1.0, 1.0],
        },
        loads: mbs_mass_point_2d_loads::default(),
        settings: mbs_simulation_settings::defaults(),
    };
    let (s64, s32) = run_both(&c, [0.5, 0.0], [0.5, 0.0], 0.01, 100);
    let x32 = f64::from(1.0f32 + s32.q[0]);
    let y32 = f64::from(1.0f32 + s32.q[1]);
    // 100 float additions of q_t h = 0.005 m to q in [0.5, 1) m: at most half an ulp (2^-25 m)
    // each in the product and the sum, 6e-6 m, plus the rounding of r + q near 2 m.
    assert!((x32 - 2.0).abs() <= 1e-5, "x = {x32}");
    assert_eq!(y32, 1.0);
    assert!((1.0 + s64.q[0] - 2.0).abs() <= 1e-12, "{s64:?}");
    assert!((x32 - (1.0 + s64.q[0])).abs() <= 1e-5);
}

/// The float defaults are the double ones rounded, but for the Newton tolerances, which follow
/// the precision (1e-5 relative, 1e-6 N absolute: f32's round-off is far above 1e-8).
#[test]
fn float_settings_default_is_the_double_default_rounded_with_its_own_newton_tolerances() {
    let mut s = mbs_simulation_settings_f32::default();
    // SAFETY: a valid pointer; null is refused.
    unsafe {
        assert_eq!(mbs_simulation_settings_default_f32(&mut s), MBS_OK);
        assert_eq!(
            mbs_simulation_settings_default_f32(null_mut()),
            MBS_ERR_NULL_POINTER
        );
    }
    let mut want = Case::loaded().settings32();
    (
        want.newton_relative_tolerance,
        want.newton_absolute_tolerance,
    ) = (1e-5, 1e-6);
    assert_eq!(s, want);
    assert_eq!(s.spectral_radius, 0.9f32);
    assert_eq!(s.number_of_steps, 100);
}

/// Settings each call that takes settings refuses, with the status.
fn bad_settings(ok: &mbs_simulation_settings) -> Vec<(mbs_simulation_settings, MbsStatus)> {
    let mut out = Vec::new();
    let mut add = |f: &dyn Fn(&mut mbs_simulation_settings), e| {
        let mut s = *ok;
        f(&mut s);
        out.push((s, e));
    };
    add(&|s| s.solver_type = 1, MBS_ERR_INVALID_ARGUMENT);
    add(&|s| s.solver_type = u32::MAX, MBS_ERR_INVALID_ARGUMENT);
    add(&|s| s.spectral_radius = 1.5, MBS_ERR_INVALID_SETTING);
    add(&|s| s.spectral_radius = -0.1, MBS_ERR_INVALID_SETTING);
    add(&|s| s.spectral_radius = f64::NAN, MBS_ERR_NOT_FINITE);
    add(&|s| s.newton_max_iterations = 0, MBS_ERR_INVALID_SETTING);
    add(
        &|s| s.newton_relative_tolerance = -1.0,
        MBS_ERR_INVALID_SETTING,
    );
    add(
        &|s| s.newton_absolute_tolerance = f64::INFINITY,
        MBS_ERR_NOT_FINITE,
    );
    out
}

#[test]
fn float_init_refusals_match_the_double_ones_and_leave_the_output_untouched() {
    let poison = mbs_mass_point_2d_f32 {
        mass: 7.0,
        reference_coordinates: [7.0, 7.0],
    };
    let cases: [(f64, [f64; 2], MbsStatus); 6] = [
        (f64::NAN, [1.0, 2.0], MBS_ERR_NOT_FINITE),
        (f64::INFINITY, [1.0, 2.0], MBS_ERR_NOT_FINITE),
        (1.0, [0.0, f64::NAN], MBS_ERR_NOT_FINITE),
        (1.0, [f64::NEG_INFINITY, 0.0], MBS_ERR_NOT_FINITE),
        (0.0, [1.0, 2.0], MBS_ERR_INVALID_MASS),
        (-1.0, [1.0, 2.0], MBS_ERR_INVALID_MASS),
    ];
    for (m, r, expected) in cases {
        let r32 = r.map(|x| x as f32);
        let (mut b64, mut b32) = (mbs_mass_point_2d::default(), poison);
        // SAFETY: valid pointers to live locals.
        let (s64, s32) = unsafe {
            (
                mbs_mass_point_2d_init(&mut b64, m, r.as_ptr()),
                mbs_mass_point_2d_init_f32(&mut b32, m as f32, r32.as_ptr()),
            )
        };
        assert_eq!((s64, s32), (expected, expected), "mass {m}, r {r:?}");
        assert_eq!(b32, poison);
    }
    let r = [1.0f32, 2.0];
    let mut b32 = poison;
    // SAFETY: null pointers are refused before any access.
    unsafe {
        assert_eq!(
            mbs_mass_point_2d_init_f32(null_mut(), 1.0, r.as_ptr()),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            mbs_mass_point_2d_init_f32(&mut b32, 1.0, null()),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            mbs_mass_point_2d_init_f32(&mut b32, 1.5, r.as_ptr()),
            MBS_OK
        );
    }
    assert_eq!(
        b32,
        mbs_mass_point_2d_f32 {
            mass: 1.5,
            reference_coordinates: r
        }
    );
}

/// The faulty inputs of `init_state` and `step`: a case and its expected status.
fn faulty_cases() -> Vec<(Case, MbsStatus)> {
    let ok = Case::loaded();
    let mut out = Vec::new();
    let mut c = ok;
    c.body.mass = 0.0;
    out.push((c, MBS_ERR_INVALID_MASS));
    let mut c = ok;
    c.body.mass = f64::NAN;
    out.push((c, MBS_ERR_NOT_FINITE));
    let mut c = ok;
    c.body.reference_coordinates[1] = f64::INFINITY;
    out.push((c, MBS_ERR_NOT_FINITE));
    let mut c = ok;
    c.loads.force[2] = f64::NAN; // even the ignored z component
    out.push((c, MBS_ERR_NOT_FINITE));
    let mut c = ok;
    c.loads.gravity[0] = f64::INFINITY;
    out.push((c, MBS_ERR_NOT_FINITE));
    for (s, e) in bad_settings(&ok.settings) {
        let mut c = ok;
        c.settings = s;
        out.push((c, e));
    }
    out
}

#[test]
fn float_init_state_refusals_match_the_double_ones_and_leave_the_output_untouched() {
    let poison = mbs_point2d_state_f32 {
        q: [7.0; 2],
        q_t: [7.0; 2],
        q_tt: [7.0; 2],
        a: [7.0; 2],
    };
    let (q0, v0) = ([0.1, 0.2], [0.3, 0.4]);
    let mut cases = faulty_cases();
    let mut c = Case::loaded();
    c.settings.start_time = f64::NAN;
    cases.push((c, MBS_ERR_NOT_FINITE));
    for (c, expected) in cases {
        let (s64, _) = init_state64(&c, q0, v0);
        let (b, l, set) = (c.body32(), c.loads32(), c.settings32());
        let (q, v) = (q0.map(|x| x as f32), v0.map(|x| x as f32));
        let mut out = poison;
        // SAFETY: valid pointers to live locals.
        let s32 = unsafe {
            mbs_mass_point_2d_init_state_f32(&b, &l, &set, q.as_ptr(), v.as_ptr(), &mut out)
        };
        assert_eq!((s64, s32), (expected, expected));
        assert_eq!(out, poison);
    }
    // NaN/inf initial values and null pointers.
    let c = Case::loaded();
    let (b, l, set) = (c.body32(), c.loads32(), c.settings32());
    let (q, v, bad) = ([0.1f32, 0.2], [0.3f32, 0.4], [f32::INFINITY, 0.0]);
    let mut out = poison;
    // SAFETY: valid pointers or null, which is refused before any access.
    unsafe {
        let call = |b, l, s, q, v, o| mbs_mass_point_2d_init_state_f32(b, l, s, q, v, o);
        let o: *mut _ = &mut out;
        assert_eq!(
            call(&b, &l, &set, bad.as_ptr(), v.as_ptr(), o),
            MBS_ERR_NOT_FINITE
        );
        assert_eq!(
            call(&b, &l, &set, q.as_ptr(), bad.as_ptr(), o),
            MBS_ERR_NOT_FINITE
        );
        assert_eq!(
            call(null(), &l, &set, q.as_ptr(), v.as_ptr(), o),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            call(&b, null(), &set, q.as_ptr(), v.as_ptr(), o),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            call(&b, &l, null(), q.as_ptr(), v.as_ptr(), o),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            call(&b, &l, &set, null(), v.as_ptr(), o),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            call(&b, &l, &set, q.as_ptr(), null(), o),
            MBS_ERR_NULL_POINTER
        );
        assert_eq!(
            call(&b, &l, &set, q.as_ptr(), v.as_ptr(), null_mut()),
            MBS_ERR_NULL_POINTER
        );
    }
    assert_eq!(out, poison);
}

#[test]
fn float_step_refusals_match_the_double_ones_and_leave_the_state_untouched() {
    let ok = Case::loaded();
    let (q0, v0) = ([0.1, 0.2], [0.3, 0.4]);
    let (_, s64_0) = init_state64(&ok, q0, v0);
    let (_, s32_0) = init_state32(&ok, q0, v0);
    let info_poison = mbs_alpha_step_info {
        newton_iterations: 777,
    };
    // (case, dt, state, expected)
    let mut cases: Vec<(Case, f64, mbs_point2d_state, MbsStatus)> = faulty_cases()
        .into_iter()
        .map(|(c, e)| (c, 0.01, s64_0, e))
        .collect();
    for dt in [0.0, -0.01, f64::NAN, f64::INFINITY] {
        let e = if dt.is_finite() {
            MBS_ERR_INVALID_TIME_STEP
        } else {
            MBS_ERR_NOT_FINITE
        };
        cases.push((ok, dt, s64_0, e));
    }
    for k in 0..8 {
        let mut s = s64_0;
        let v = if k % 2 == 0 { f64::NAN } else { f64::INFINITY };
        match k / 2 {
            0 => s.q[k % 2] = v,
            1 => s.q_t[k % 2] = v,
            2 => s.q_tt[k % 2] = v,
            _ => s.a[k % 2] = v,
        }
        cases.push((ok, 0.01, s, MBS_ERR_NOT_FINITE));
    }
    for (c, dt, s0, expected) in cases {
        let mut s64 = s0;
        let mut i64 = info_poison;
        let (b, l, set) = (c.body32(), c.loads32(), c.settings32());
        let mut s32 = if s0 == s64_0 { s32_0 } else { state32(&s0) };
        let before = s32;
        let mut i32 = info_poison;
        // SAFETY: valid pointers to live locals.
        let (st64, st32) = unsafe {
            (
                mbs_mass_point_2d_step(&c.body, &c.loads, &c.settings, &mut s64, dt, &mut i64),
                mbs_mass_point_2d_step_f32(&b, &l, &set, &mut s32, dt as f32, &mut i32),
            )
        };
        assert_eq!((st64, st32), (expected, expected), "dt {dt}");
        let bits = |s: &mbs_point2d_state| [s.q, s.q_t, s.q_tt, s.a].map(|a| a.map(f64::to_bits));
        assert_eq!(bits(&s64), bits(&s0));
        assert_eq!(s32.q.map(f32::to_bits), before.q.map(f32::to_bits));
        assert_eq!(s32.q_t.map(f32::to_bits), before.q_t.map(f32::to_bits));
        assert_eq!(s32.q_tt.map(f32::to_bits), before.q_tt.map(f32::to_bits));
        assert_eq!(s32.a.map(f32::to_bits), before.a.map(f32::to_bits));
        assert_eq!((i64, i32), (info_poison, info_poison));
    }
    // Null pointers (info may be null).
    let (b, l, set) = (ok.body32(), ok.loads32(), ok.settings32());
    let mut s32 = s32_0;
    let mut i32 = info_poison;
    // SAFETY: valid pointers or null, which is refused before any access.
    unsafe {
        let sp: *mut _ = &mut s32;
        let ip: *mut _ = &mut i32;
        let step = |b, l, s, st, i| mbs_mass_point_2d_step_f32(b, l, s, st, 0.01, i);
        assert_eq!(step(null(), &l, &set, sp, ip), MBS_ERR_NULL_POINTER);
        assert_eq!(step(&b, null(), &set, sp, ip), MBS_ERR_NULL_POINTER);
        assert_eq!(step(&b, &l, null(), sp, ip), MBS_ERR_NULL_POINTER);
        assert_eq!(step(&b, &l, &set, null_mut(), ip), MBS_ERR_NULL_POINTER);
    }
    assert_eq!(s32, s32_0);
    assert_eq!(i32, info_poison);
    // SAFETY: valid pointers; a null info is allowed.
    unsafe {
        assert_eq!(
            mbs_mass_point_2d_step_f32(&b, &l, &set, &mut s32, 0.01, null_mut()),
            MBS_OK
        );
    }
    assert_ne!(s32, s32_0);
}

#[test]
fn float_types_have_the_c_layout_of_include_mbs_h() {
    use core::mem::size_of;
    // The RAM of docs/embedded.md: mass + 2 reference coordinates; 4 pairs; 2 triples; two
    // times, two u32, three tolerances, a u32 and an explicit u32 of padding (a double's
    // alignment, kept in float so that neither has implicit padding).
    assert_eq!(size_of::<mbs_mass_point_2d_f32>(), 12);
    assert_eq!(size_of::<mbs_point2d_state_f32>(), 32);
    assert_eq!(size_of::<mbs_mass_point_2d_loads_f32>(), 24);
    assert_eq!(size_of::<mbs_simulation_settings_f32>(), 36);
    assert_eq!(size_of::<mbs_mass_point_2d>(), 24);
    assert_eq!(size_of::<mbs_point2d_state>(), 64);
    assert_eq!(size_of::<mbs_mass_point_2d_loads>(), 48);
    assert_eq!(size_of::<mbs_simulation_settings>(), 56);
}
