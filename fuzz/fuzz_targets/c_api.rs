//! Fuzzes every C entry point of libmbs with arbitrary bytes turned into structs, doubles,
//! floats, enum values, vector lengths, time steps and NULL pointers (the per-item API here,
//! the rest in `c_api/`: more rigid-body calls, the system's other calls, the trees).
//!
//! Asserted for every call: no crash or panic (a caught panic would be `MBS_ERR_PANIC`, also
//! refused here); an error status (>= 100) leaves every output byte untouched (outputs are
//! filled with a sentinel pattern first; an in/out state must be bit-identical); a success or
//! warning writes only finite numbers.
//!
//! The harness bounds the work a call may do (`number_of_steps < 256`, `max_substeps < 4096`,
//! `count <= 4`) so each input runs in microseconds; validity of those values is still fuzzed
//! (0 is reachable).
#![no_main]

use core::mem::{size_of, MaybeUninit};
use libfuzzer_sys::fuzz_target;
use mbs::mass_point_2d::*;
use mbs::mass_properties::*;
use mbs::output::mbs_output_variable_len;
use mbs::rigid::body::*;
use mbs::rigid::body_cylinder::*;
use mbs::rigid::body_start::*;
use mbs::rigid::loads::*;
use mbs::rigid::state::*;
use mbs::rigid::step::*;
use mbs::rigid::step_settings::*;
use mbs::simulation_settings::*;
use mbs::system::create::*;
use mbs::system::items::*;
use mbs::system::output::*;
use mbs::system::sensors::*;
use mbs::system::solve::*;
use mbs::system::step::*;
use mbs::system::*;
use mbs::*;

#[path = "c_api/rigid_more.rs"]
mod rigid_more;
#[path = "c_api/system_ops.rs"]
mod system_ops;
#[path = "c_api/tree.rs"]
mod tree;

const SENTINEL: u8 = 0xAB;

/// Reads values from the fuzzer's bytes (zeros once they run out).
struct Input<'a> {
    data: &'a [u8],
}

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        for b in &mut a {
            *b = self.byte();
        }
        a
    }

    fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// A C flag field: mostly 0 or 1, sometimes any byte (refused by the library).
    fn c_flag(&mut self) -> u8 {
        let b = self.byte();
        if b & 0x80 != 0 {
            b
        } else {
            b & 1
        }
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.bytes())
    }

    /// Raw bits, small values, or the edge cases (NaN, inf, 0, -0, huge, tiny, subnormal).
    fn f64(&mut self) -> f64 {
        match self.byte() % 4 {
            0 => f64::from_le_bytes(self.bytes()),
            1 => f64::from(self.byte() as i8) / 16.0,
            2 => [
                0.0,
                -0.0,
                1.0,
                -1.0,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                1e300,
                -1e300,
                1e-300,
                5e-324,
                f64::MAX,
                0.5,
                1e-3,
                3.0,
                f64::MIN_POSITIVE,
            ][usize::from(self.byte() % 16)],
            _ => f64::from(i16::from_le_bytes(self.bytes())) / 1000.0,
        }
    }

    fn f32(&mut self) -> f32 {
        match self.byte() % 4 {
            0 => f32::from_le_bytes(self.bytes()),
            _ => self.f64() as f32,
        }
    }

    /// `default`, or (if the next flag is set) fuzzed values.
    fn maybe<T, const N: usize>(&mut self, default: [T; N], f: impl Fn(&mut Self) -> T) -> [T; N] {
        if self.flag() {
            core::array::from_fn(|_| f(self))
        } else {
            default
        }
    }
}

/// A pointer to `x`, or NULL if `null`.
fn ptr<T>(x: &T, null: bool) -> *const T {
    if null {
        core::ptr::null()
    } else {
        x
    }
}

fn ptr_mut<T>(x: &mut T, null: bool) -> *mut T {
    if null {
        core::ptr::null_mut()
    } else {
        x
    }
}

/// Storage for an output, filled with the sentinel (kept as raw bytes: the sentinel is not a
/// valid `bool`, so it is never read as a `T` unless the call succeeded and wrote one).
struct Out<T> {
    m: MaybeUninit<T>,
}

impl<T: Copy> Out<T> {
    fn new() -> Self {
        let mut m = MaybeUninit::<T>::uninit();
        // SAFETY: writing bytes into our own storage.
        unsafe { core::ptr::write_bytes(m.as_mut_ptr().cast::<u8>(), SENTINEL, size_of::<T>()) };
        Self { m }
    }

    /// A pointer to the storage, or NULL.
    fn ptr(&mut self, null: bool) -> *mut T {
        if null {
            core::ptr::null_mut()
        } else {
            self.m.as_mut_ptr()
        }
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: the storage is initialized bytes (sentinel or a written value).
        unsafe { core::slice::from_raw_parts(self.m.as_ptr().cast::<u8>(), size_of::<T>()) }
    }

    fn untouched(&self) -> bool {
        self.bytes().iter().all(|b| *b == SENTINEL)
    }

    /// The value a successful call wrote.
    fn get(&self) -> T {
        // SAFETY: only called after the library reported success and wrote a whole `T`.
        unsafe { self.m.assume_init_read() }
    }
}

fn bytes_of<T: ?Sized>(x: &T) -> &[u8] {
    // SAFETY: reading the bytes of a plain struct of numbers.
    unsafe { core::slice::from_raw_parts((x as *const T).cast::<u8>(), core::mem::size_of_val(x)) }
}

fn untouched<T: ?Sized>(x: &T) -> bool {
    bytes_of(x).iter().all(|b| *b == SENTINEL)
}

/// A value of numbers only (no `bool`) filled with the sentinel.
fn poisoned<T: Copy>() -> T {
    Out::<T>::new().get()
}

/// The property of every call: known status, no panic; on error the outputs are untouched.
fn judge(status: MbsStatus, outputs_untouched: bool) {
    assert_ne!(status, MBS_ERR_PANIC, "a panic was caught");
    let text = mbs_status_str(status);
    // SAFETY: a static NUL-terminated string.
    let text = unsafe { core::ffi::CStr::from_ptr(text) };
    assert_ne!(
        text.to_bytes(),
        b"unknown status",
        "status {status} has no description"
    );
    if !mbs_status_is_ok(status) {
        assert!(outputs_untouched, "status {status} changed an output");
    }
}

/// Every number of a struct made only of `f64` fields is finite.
fn all_f64_finite<T>(x: &T) -> bool {
    assert_eq!(size_of::<T>() % 8, 0);
    // SAFETY: `T` is a `#[repr(C)]` struct of `f64` (or an array of them): same layout as
    // `size_of::<T>() / 8` doubles.
    let a =
        unsafe { core::slice::from_raw_parts((x as *const T).cast::<f64>(), size_of::<T>() / 8) };
    finite64(a)
}

/// After a success, the output holds finite numbers only.
#[track_caller]
fn finite_if_ok<T>(status: MbsStatus, x: &T) {
    if status == MBS_OK {
        assert!(
            all_f64_finite(x),
            "a successful call wrote a non-finite number"
        );
    }
}

/// After a success, a rigid body's public numbers are finite (its sealed tail is the core
/// body's numbers, a 32-bit checksum and padding: not a run of doubles).
#[track_caller]
fn body_finite_if_ok(status: MbsStatus, b: &mbs_rigid_body) {
    if status == MBS_OK {
        let numbers = [
            &[b.mass][..],
            &b.inertia,
            &b.center_of_mass,
            &b.reference_position,
            &b.reference_orientation,
        ];
        assert!(
            numbers.iter().all(|a| finite64(a)),
            "a successful call wrote a non-finite number"
        );
    }
}

fn finite64(a: &[f64]) -> bool {
    a.iter().all(|x| x.is_finite())
}

fn finite32(a: &[f32]) -> bool {
    a.iter().all(|x| x.is_finite())
}

fn state64_finite(s: &mbs_rigid_state) -> bool {
    [
        &s.position[..],
        &s.orientation[..],
        &s.velocity[..],
        &s.angular_velocity[..],
        &s.acceleration[..],
        &s.angular_acceleration[..],
    ]
    .iter()
    .all(|a| finite64(a))
}

fn state32_finite(s: &mbs_rigid_state_f32) -> bool {
    [
        &s.position[..],
        &s.orientation[..],
        &s.velocity[..],
        &s.angular_velocity[..],
        &s.acceleration[..],
        &s.angular_acceleration[..],
    ]
    .iter()
    .all(|a| finite32(a))
}

const INERTIA: [f64; 9] = [1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.5];
const IDENTITY: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

fn rigid_body64(i: &mut Input) -> mbs_rigid_body {
    mbs_rigid_body {
        mass: if i.flag() { i.f64() } else { 2.0 },
        inertia: i.maybe(INERTIA, Input::f64),
        center_of_mass: i.maybe([0.1, 0.0, -0.2], Input::f64),
        reference_position: i.maybe([0.0; 3], Input::f64),
        reference_orientation: i.maybe(IDENTITY, Input::f64),
        // Not sealed: every call validates the fuzzed fields in full.
        validated: Default::default(),
    }
}

fn rigid_state64(i: &mut Input) -> mbs_rigid_state {
    mbs_rigid_state {
        position: i.maybe([1.0, 2.0, 3.0], Input::f64),
        orientation: i.maybe([0.5, 0.5, 0.5, 0.5], Input::f64),
        velocity: i.maybe([0.5, 0.0, 0.0], Input::f64),
        angular_velocity: i.maybe([0.3, -0.2, 1.0], Input::f64),
        acceleration: i.maybe([0.0; 3], Input::f64),
        angular_acceleration: i.maybe([0.0; 3], Input::f64),
    }
}

fn rigid_loads64(i: &mut Input) -> mbs_rigid_loads {
    mbs_rigid_loads {
        force: i.maybe([0.0; 3], Input::f64),
        torque: i.maybe([0.0; 3], Input::f64),
        torque_world: i.maybe([0.0; 3], Input::f64),
        gravity: i.maybe([0.0; 3], Input::f64),
        linear_damping: i.maybe([0.0; 3], Input::f64),
        angular_damping: i.maybe([0.0; 3], Input::f64),
    }
}

fn step_settings<'a, T: Copy>(
    i: &mut Input<'a>,
    theta: impl Fn(&mut Input<'a>) -> T,
    d: T,
) -> mbs_step_settings_of<T> {
    mbs_step_settings_of {
        integrator: if i.flag() {
            i.u32()
        } else {
            u32::from(i.byte() % 5)
        },
        substep: i.c_flag(),
        max_rotation_per_step: if i.flag() { theta(i) } else { d },
        max_substeps: i.u32() % 4096,
        _pad0: Default::default(),
        _pad1: Default::default(),
    }
}

fn to32<const N: usize>(a: [f64; N], i: &mut Input) -> [f32; N] {
    if i.flag() {
        core::array::from_fn(|_| i.f32())
    } else {
        a.map(|x| x as f32)
    }
}

/// A double rigid body, its loads, step settings, a start state and a time step.
fn rigid_inputs64(
    i: &mut Input,
) -> (
    mbs_rigid_body,
    mbs_rigid_loads,
    mbs_step_settings,
    mbs_rigid_state,
    f64,
) {
    let b = rigid_body64(i);
    let l = rigid_loads64(i);
    let st = step_settings(i, Input::f64, 0.5);
    let s0 = rigid_state64(i);
    let dt = if i.flag() { i.f64() } else { 1e-3 };
    (b, l, st, s0, dt)
}

fn rigid_f64(i: &mut Input) {
    let (b, l, st, s0, dt) = rigid_inputs64(i);
    let nulls = i.byte();
    let n = |k: u8| nulls & (1 << k) != 0 && nulls & 0x80 != 0;
    match i.byte() % 6 {
        0 => {
            let mut s = s0;
            let mut info = Out::<mbs_step_info>::new();
            // The step of the settings' integrator, or the midpoint step itself.
            let step = if i.flag() {
                mbs_rigid_step
            } else {
                mbs_rigid_midpoint_step
            };
            // SAFETY: valid or null pointers to locals.
            let r = unsafe {
                step(
                    ptr(&b, n(0)),
                    ptr(&l, n(1)),
                    ptr(&st, n(2)),
                    ptr_mut(&mut s, n(3)),
                    dt,
                    info.ptr(n(4)),
                )
            };
            judge(r, bytes_of(&s) == bytes_of(&s0) && info.untouched());
            if mbs_status_is_ok(r) {
                assert!(
                    state64_finite(&s),
                    "non-finite state after a successful step"
                );
                if !n(4) {
                    assert_eq!(info.get().status, r);
                }
            }
        }
        1 => {
            let var = if i.flag() {
                i.u32()
            } else {
                u32::from(i.byte() % 11)
            };
            let p: [f64; 3] = i.maybe([0.0, 1.0, 0.0], Input::f64);
            let len = usize::from(i.byte() % 10);
            let mut out: [f64; 9] = poisoned();
            let mut written: usize = poisoned();
            // SAFETY: `out` holds 9 >= len values.
            let r = unsafe {
                mbs_rigid_output(
                    ptr(&b, n(0)),
                    ptr(&s0, n(1)),
                    var,
                    ptr(&p, n(2)).cast(),
                    ptr_mut(&mut out, n(3)).cast(),
                    len,
                    ptr_mut(&mut written, n(4)),
                )
            };
            judge(r, untouched(&out) && untouched(&written));
            if r == MBS_OK {
                assert_eq!(written, mbs_output_variable_len(var));
                assert!(finite64(&out[..written]) && untouched(&out[written..]));
            }
        }
        2 => {
            let p: [f64; 3] = i.maybe([1.0, 2.0, 3.0], Input::f64);
            let mut j: [f64; 18] = poisoned();
            // SAFETY: valid or null pointers to locals.
            let r = unsafe {
                mbs_rigid_position_jacobian(
                    ptr(&b, n(0)),
                    ptr(&s0, n(1)),
                    ptr(&p, n(2)).cast(),
                    ptr_mut(&mut j, n(3)).cast(),
                )
            };
            judge(r, untouched(&j));
            finite_if_ok(r, &j);
            let mut k: [f64; 18] = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_rigid_rotation_jacobian(
                    ptr(&b, n(4)),
                    ptr(&s0, n(5)),
                    ptr_mut(&mut k, n(6)).cast(),
                )
            };
            judge(r, untouched(&k));
            finite_if_ok(r, &k);
        }
        3 => {
            let mut out: mbs_rigid_body = poisoned();
            // SAFETY: valid or null pointers to locals.
            let r = unsafe {
                mbs_rigid_body_init(
                    ptr_mut(&mut out, n(0)),
                    b.mass,
                    ptr(&b.inertia, n(1)).cast(),
                    ptr(&b.center_of_mass, n(2)).cast(),
                )
            };
            judge(r, untouched(&out));
            body_finite_if_ok(r, &out);
            let mut so: mbs_rigid_state = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_rigid_state_init(
                    ptr_mut(&mut so, n(3)),
                    ptr(&s0.position, n(4)).cast(),
                    ptr(&s0.orientation, n(5)).cast(),
                    ptr(&s0.velocity, n(6)).cast(),
                    s0.angular_velocity.as_ptr(),
                )
            };
            judge(r, untouched(&so));
            finite_if_ok(r, &so);
            // The same with the angular velocity in the world frame, and read back in it.
            let mut sw: mbs_rigid_state = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_rigid_state_init_world(
                    ptr_mut(&mut sw, n(3)),
                    ptr(&s0.position, n(4)).cast(),
                    ptr(&s0.orientation, n(5)).cast(),
                    ptr(&s0.velocity, n(6)).cast(),
                    s0.angular_velocity.as_ptr(),
                )
            };
            judge(r, untouched(&sw));
            finite_if_ok(r, &sw);
            let mut w: [f64; 3] = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_rigid_state_angular_velocity_world(ptr(&s0, n(7)), ptr_mut(&mut w, n(6)).cast())
            };
            judge(r, untouched(&w));
            assert!(r != MBS_OK || w.iter().all(|x| x.is_finite()));
        }
        4 => {
            let start = mbs_body_start {
                r_0_start: i.maybe([0.0; 3], Input::f64),
                v_0_start: i.maybe([0.0; 3], Input::f64),
                angles_start: i.maybe([0.3, -0.2, 0.5], Input::f64),
                sequence_start: if i.flag() {
                    [i.u32(), i.u32(), i.u32()]
                } else {
                    [1, 2, 3].map(|a: u32| a + u32::from(i.byte() % 2))
                },
                w_0_start: i.maybe([20.0, 6.0, -4.0], Input::f64),
                z_0_start: i.maybe([0.0; 3], Input::f64),
                _pad0: Default::default(),
            };
            let cyl = cylinder(i);
            let mut bo: mbs_rigid_body = poisoned();
            let mut so: mbs_rigid_state = poisoned();
            // SAFETY: valid or null pointers to locals.
            let r = unsafe {
                mbs_body_cylinder_init(
                    ptr(&cyl, n(0)),
                    ptr(&start, n(1)),
                    ptr_mut(&mut bo, n(2)),
                    ptr_mut(&mut so, n(3)),
                )
            };
            judge(r, untouched(&bo) && untouched(&so));
            body_finite_if_ok(r, &bo);
            finite_if_ok(r, &so);
            if r == MBS_OK {
                assert!(state64_finite(&so) && bo.mass > 0.0);
            }
            let mut s2: mbs_rigid_state = poisoned();
            // SAFETY: as above.
            let r =
                unsafe { mbs_rigid_state_from_start(ptr(&start, n(4)), ptr_mut(&mut s2, n(5))) };
            judge(r, untouched(&s2));
            finite_if_ok(r, &s2);
        }
        _ => mass_properties(i, nulls),
    }
}

fn rigid_f32(i: &mut Input) {
    let b64 = rigid_body64(i);
    let b = mbs_rigid_body_f32 {
        mass: b64.mass as f32,
        inertia: to32(b64.inertia, i),
        center_of_mass: to32(b64.center_of_mass, i),
        reference_position: to32(b64.reference_position, i),
        reference_orientation: to32(b64.reference_orientation, i),
        validated: Default::default(),
    };
    let l64 = rigid_loads64(i);
    let l = mbs_rigid_loads_f32 {
        force: to32(l64.force, i),
        torque: to32(l64.torque, i),
        torque_world: to32(l64.torque_world, i),
        gravity: to32(l64.gravity, i),
        linear_damping: to32(l64.linear_damping, i),
        angular_damping: to32(l64.angular_damping, i),
    };
    let st = step_settings(i, Input::f32, 0.5f32);
    let s64 = rigid_state64(i);
    let s0 = mbs_rigid_state_f32 {
        position: to32(s64.position, i),
        orientation: to32(s64.orientation, i),
        velocity: to32(s64.velocity, i),
        angular_velocity: to32(s64.angular_velocity, i),
        acceleration: to32(s64.acceleration, i),
        angular_acceleration: to32(s64.angular_acceleration, i),
    };
    let dt = if i.flag() { i.f32() } else { 1e-3 };
    let nulls = i.byte();
    let n = |k: u8| nulls & (1 << k) != 0 && nulls & 0x80 != 0;
    if i.flag() {
        let mut s = s0;
        let mut info = Out::<mbs_step_info>::new();
        // SAFETY: valid or null pointers to locals.
        let r = unsafe {
            mbs_rigid_step_f32(
                ptr(&b, n(0)),
                ptr(&l, n(1)),
                ptr(&st, n(2)),
                ptr_mut(&mut s, n(3)),
                dt,
                info.ptr(n(4)),
            )
        };
        judge(r, bytes_of(&s) == bytes_of(&s0) && info.untouched());
        if mbs_status_is_ok(r) {
            assert!(
                state32_finite(&s),
                "non-finite f32 state after a successful step"
            );
        }
    } else {
        let var = u32::from(i.byte() % 12);
        let p: [f32; 3] = to32([0.0, 1.0, 0.0], i);
        let len = usize::from(i.byte() % 10);
        let mut out: [f32; 9] = poisoned();
        let mut written: usize = poisoned();
        // SAFETY: `out` holds 9 >= len values.
        let r = unsafe {
            mbs_rigid_output_f32(
                ptr(&b, n(0)),
                ptr(&s0, n(1)),
                var,
                ptr(&p, n(2)).cast(),
                ptr_mut(&mut out, n(3)).cast(),
                len,
                ptr_mut(&mut written, n(4)),
            )
        };
        judge(r, untouched(&out) && untouched(&written));
        let mut j: [f32; 18] = poisoned();
        // SAFETY: valid or null pointers to locals.
        let r = unsafe {
            mbs_rigid_position_jacobian_f32(
                ptr(&b, n(5)),
                ptr(&s0, n(6)),
                p.as_ptr(),
                ptr_mut(&mut j, false).cast(),
            )
        };
        judge(r, untouched(&j));
        let mut out: mbs_rigid_body_f32 = poisoned();
        // SAFETY: as above.
        let r = unsafe {
            mbs_rigid_body_init_f32(
                &mut out,
                b.mass,
                b.inertia.as_ptr(),
                b.center_of_mass.as_ptr(),
            )
        };
        judge(r, untouched(&out));
    }
}

fn cylinder(i: &mut Input) -> mbs_cylinder {
    mbs_cylinder {
        r: i.maybe([0.1, 0.0, 0.0], Input::f64),
        r_shape: i.maybe([0.0; 3], Input::f64),
        length_direction: i.maybe([1.0, 0.0, 0.0], Input::f64),
        has_length_direction: i.c_flag(),
        length: i.f64(),
        has_length: i.c_flag(),
        diameter: if i.flag() { i.f64() } else { 0.2 },
        has_diameter: i.c_flag(),
        inner_diameter: if i.flag() { i.f64() } else { 0.0 },
        density: if i.flag() { i.f64() } else { 7700.0 },
        width_fraction: if i.flag() { i.f64() } else { 20.0 },
        _pad0: Default::default(),
        _pad1: Default::default(),
        _pad2: Default::default(),
    }
}

fn mass_properties(i: &mut Input, nulls: u8) {
    let n = |k: u8| nulls & (1 << k) != 0 && nulls & 0x80 != 0;
    let c = cylinder(i);
    let mut mp: mbs_mass_properties = poisoned();
    // SAFETY: valid or null pointers to locals.
    let r = unsafe { mbs_cylinder_mass_properties(ptr(&c, n(0)), ptr_mut(&mut mp, n(1))) };
    judge(r, untouched(&mp));
    finite_if_ok(r, &mp);
    let mut d: mbs_cylinder_derived = poisoned();
    // SAFETY: as above.
    let r = unsafe { mbs_cylinder_derived_values(ptr(&c, n(2)), ptr_mut(&mut d, n(3))) };
    judge(r, untouched(&d));
    finite_if_ok(r, &d);
    let v: [f64; 3] = i.maybe([1.0, 2.0, 3.0], Input::f64);
    let w: [f64; 3] = i.maybe([0.0; 3], Input::f64);
    let (x, y) = (i.f64(), i.f64());
    let mut parts: [mbs_mass_properties; 4] = poisoned();
    for (k, p) in parts.iter_mut().enumerate() {
        let out = ptr_mut(p, n(4) && k == 0);
        // SAFETY: as above.
        let r = unsafe {
            match i.byte() % 3 {
                0 => mbs_box_mass_properties(v.as_ptr(), x, w.as_ptr(), out),
                1 => mbs_sphere_mass_properties(x, y, 1000.0, w.as_ptr(), out),
                _ => mbs_point_mass_properties(x, w.as_ptr(), out),
            }
        };
        judge(r, untouched(&*p));
        finite_if_ok(r, &*p);
        if r != MBS_OK {
            *p = mbs_mass_properties {
                mass: i.f64(),
                com: i.maybe([0.0; 3], Input::f64),
                inertia: i.maybe(INERTIA, Input::f64),
            };
        }
    }
    let count = usize::from(i.byte() % 5);
    let mut total: mbs_mass_properties = poisoned();
    // SAFETY: `parts` holds 4 >= count elements.
    let r = unsafe {
        mbs_mass_properties_combine(ptr(&parts, n(5)).cast(), count, ptr_mut(&mut total, n(6)))
    };
    judge(r, untouched(&total));
    finite_if_ok(r, &total);
    let mut about: [f64; 9] = poisoned();
    // SAFETY: as above.
    let r = unsafe {
        mbs_mass_properties_inertia_about(
            ptr(&parts[0], n(0)),
            ptr(&v, n(1)).cast(),
            ptr_mut(&mut about, n(2)).cast(),
        )
    };
    judge(r, untouched(&about));
    finite_if_ok(r, &about);
}

fn mass_point(i: &mut Input) {
    let b = mbs_mass_point_2d {
        mass: if i.flag() { i.f64() } else { 2.0 },
        reference_coordinates: i.maybe([1.0, -2.0], Input::f64),
    };
    let l = mbs_mass_point_2d_loads {
        force: i.maybe([3.0, 0.0, 0.0], Input::f64),
        gravity: i.maybe([0.0, -9.81, 0.0], Input::f64),
    };
    let mut set = mbs_simulation_settings::defaults();
    if i.flag() {
        set.start_time = i.f64();
        set.end_time = i.f64();
    }
    set.number_of_steps = if i.flag() { i.u32() % 256 } else { 10 };
    if i.flag() {
        set.solver_type = i.u32();
    }
    if i.flag() {
        set.spectral_radius = i.f64();
    }
    if i.flag() {
        set.newton_relative_tolerance = i.f64();
        set.newton_absolute_tolerance = i.f64();
        set.newton_max_iterations = i.u32() % 64;
    }
    let q0: [f64; 2] = i.maybe([0.1, 0.2], Input::f64);
    let v0: [f64; 2] = i.maybe([0.3, 0.4], Input::f64);
    let s0 = mbs_point2d_state {
        q: i.maybe([0.1, 0.2], Input::f64),
        q_t: i.maybe([0.3, 0.4], Input::f64),
        q_tt: i.maybe([1.5, -9.81], Input::f64),
        a: i.maybe([1.5, -9.81], Input::f64),
    };
    let dt = if i.flag() { i.f64() } else { 0.01 };
    let nulls = i.byte();
    let n = |k: u8| nulls & (1 << k) != 0 && nulls & 0x80 != 0;
    let finite_state = |s: &mbs_point2d_state| {
        finite64(&s.q) && finite64(&s.q_t) && finite64(&s.q_tt) && finite64(&s.a)
    };
    match i.byte() % 5 {
        0 => {
            let mut s = s0;
            let mut info: mbs_alpha_step_info = poisoned();
            // SAFETY: valid or null pointers to locals.
            let r = unsafe {
                mbs_mass_point_2d_step(
                    ptr(&b, n(0)),
                    ptr(&l, n(1)),
                    ptr(&set, n(2)),
                    ptr_mut(&mut s, n(3)),
                    dt,
                    ptr_mut(&mut info, n(4)),
                )
            };
            judge(r, bytes_of(&s) == bytes_of(&s0) && untouched(&info));
            if r == MBS_OK {
                assert!(finite_state(&s));
            }
        }
        1 => {
            let mut s: mbs_point2d_state = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_mass_point_2d_init_state(
                    ptr(&b, n(0)),
                    ptr(&l, n(1)),
                    ptr(&set, n(2)),
                    ptr(&q0, n(3)).cast(),
                    ptr(&v0, n(4)).cast(),
                    ptr_mut(&mut s, n(5)),
                )
            };
            judge(r, untouched(&s));
            finite_if_ok(r, &s);
        }
        2 => {
            let mut s: mbs_point2d_state = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_mass_point_2d_solve_dynamic(
                    ptr(&b, n(0)),
                    ptr(&l, n(1)),
                    ptr(&set, n(2)),
                    ptr(&q0, n(3)).cast(),
                    ptr(&v0, n(4)).cast(),
                    ptr_mut(&mut s, n(5)),
                )
            };
            judge(r, untouched(&s));
            if r == MBS_OK {
                assert!(finite_state(&s));
            }
        }
        3 => {
            let var = if i.flag() {
                i.u32()
            } else {
                u32::from(i.byte() % 11)
            };
            let p: [f64; 3] = i.maybe([0.0; 3], Input::f64);
            let len = usize::from(i.byte() % 10);
            let mut out: [f64; 9] = poisoned();
            let mut written: usize = poisoned();
            // SAFETY: `out` holds 9 >= len values.
            let r = unsafe {
                mbs_mass_point_2d_output(
                    ptr(&b, n(0)),
                    ptr(&s0, n(1)),
                    var,
                    ptr(&p, n(2)).cast(),
                    ptr_mut(&mut out, n(3)).cast(),
                    len,
                    ptr_mut(&mut written, n(4)),
                )
            };
            judge(r, untouched(&out) && untouched(&written));
            if r == MBS_OK {
                assert!(finite64(&out[..written]) && untouched(&out[written..]));
            }
            let mut j: [f64; 6] = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_mass_point_2d_position_jacobian(
                    ptr(&b, n(5)),
                    ptr(&s0, n(6)),
                    p.as_ptr(),
                    ptr_mut(&mut j, false).cast(),
                )
            };
            judge(r, untouched(&j));
            finite_if_ok(r, &j);
        }
        _ => {
            let mut out: mbs_mass_point_2d = poisoned();
            // SAFETY: as above.
            let r = unsafe {
                mbs_mass_point_2d_init(
                    ptr_mut(&mut out, n(0)),
                    b.mass,
                    ptr(&b.reference_coordinates, n(1)).cast(),
                )
            };
            judge(r, untouched(&out));
            finite_if_ok(r, &out);
            let mut d: mbs_simulation_settings = poisoned();
            // SAFETY: as above.
            judge(
                unsafe { mbs_simulation_settings_default(ptr_mut(&mut d, n(2))) },
                untouched(&d),
            );
            let mut e = Out::<mbs_step_settings>::new();
            // SAFETY: as above.
            judge(
                unsafe { mbs_step_settings_default(e.ptr(n(3))) },
                e.untouched(),
            );
            let mut f: mbs_body_start = poisoned();
            // SAFETY: as above.
            judge(
                unsafe { mbs_body_start_default(ptr_mut(&mut f, n(4))) },
                untouched(&f),
            );
        }
    }
}

/// The bytes of a caller-owned storage (initialized: it was zeroed when allocated).
fn storage_bytes<S>(s: *const S) -> Vec<u8> {
    // SAFETY: `s` points to a live, zero-initialized storage of `size_of::<S>()` bytes.
    unsafe { core::slice::from_raw_parts(s.cast::<u8>(), size_of::<S>()) }.to_vec()
}

/// The time of the system (finite after every call).
fn system_time(sys: *const mbs_system) -> f64 {
    let mut t = 0.0f64;
    // SAFETY: `sys` is an initialized system of the harness.
    assert_eq!(unsafe { mbs_system_time(sys, &mut t) }, MBS_OK);
    t
}

/// An index: mostly small (items that exist or just past them), sometimes any `u32`.
fn index(i: &mut Input) -> u32 {
    if i.byte() % 8 == 0 {
        i.u32()
    } else {
        u32::from(i.byte() % 6)
    }
}

/// A sequence of up to 24 fuzzed system calls on one system (every entry point of the system
/// API): every call's status is known, nothing panics, a refused call changes neither its
/// outputs nor any byte of the system's storage, and every call leaves a finite time.
fn system(i: &mut Input) {
    let mut buffers: Vec<Vec<f64>> = Vec::new();
    let mut contexts = system_ops::Contexts(Vec::new());
    let mut storage: Box<MaybeUninit<mbs_system>> = Box::new_zeroed();
    let sys = storage.as_mut_ptr();
    // SAFETY: aligned, writable storage of the right size.
    assert_eq!(unsafe { mbs_system_init(sys) }, MBS_OK);
    system_ops::SYSTEM.store(sys, core::sync::atomic::Ordering::Relaxed);
    for _ in 0..24 {
        let before = storage_bytes(sys);
        let op = i.byte() % 48;
        if op >= 16 {
            let (r, untouched) = system_ops::more(i, sys, op, &mut contexts);
            judge_system(sys, op, r, untouched, &before);
            continue;
        }
        let a3 = i.maybe([0.0, 0.0, 0.0], Input::f64);
        let b3 = i.maybe([1.0, 0.0, 0.0], Input::f64);
        let q4 = i.maybe([1.0, 0.0, 0.0, 0.0], Input::f64);
        let (x, y) = (i.f64(), i.f64());
        let (j, k) = (index(i), index(i));
        let nul = i.byte();
        let n = |b: u32| nul & (1 << b) != 0 && nul & 0x80 != 0;
        let mut idx = Out::<u32>::new();
        let mut cb = Out::<mbs_created_body>::new();
        let mut item = Out::<mbs_item_ref>::new();
        let mut out = Out::<[f64; 9]>::new();
        let mut written = Out::<usize>::new();
        // SAFETY: every pointer is NULL or points to live storage of the harness of the size
        // the function reads or writes; sensor buffers live in `buffers` past the system.
        let (r, untouched) = unsafe {
            match op {
                0 => {
                    let r = mbs_system_add_node_point2d(
                        sys,
                        ptr(&a3, n(0)).cast(),
                        ptr(&b3, n(1)).cast(),
                        a3.as_ptr(),
                        idx.ptr(n(2)),
                    );
                    (r, idx.untouched())
                }
                1 => {
                    let r = mbs_system_add_node_rigid(
                        sys,
                        a3.as_ptr(),
                        ptr(&q4, n(0)).cast(),
                        b3.as_ptr(),
                        a3.as_ptr(),
                        idx.ptr(n(1)),
                    );
                    (r, idx.untouched())
                }
                2 => (
                    mbs_system_add_object_mass_point_2d(sys, j, x, idx.ptr(n(0))),
                    idx.untouched(),
                ),
                3 => {
                    let mp = mbs_mass_properties {
                        mass: x,
                        com: a3,
                        inertia: [y, 0.0, 0.0, 0.0, y, 0.0, 0.0, 0.0, y],
                    };
                    let g = if n(1) { core::ptr::null() } else { b3.as_ptr() };
                    let r = mbs_system_create_rigid_body(
                        sys,
                        ptr(&mp, n(0)),
                        a3.as_ptr(),
                        q4.as_ptr(),
                        b3.as_ptr(),
                        a3.as_ptr(),
                        g,
                        cb.ptr(n(2)),
                    );
                    (r, cb.untouched())
                }
                4 => {
                    let g = if n(0) { core::ptr::null() } else { a3.as_ptr() };
                    let r = mbs_system_create_mass_point(
                        sys,
                        x,
                        b3.as_ptr(),
                        a3.as_ptr(),
                        a3.as_ptr(),
                        g,
                        cb.ptr(n(1)),
                    );
                    (r, cb.untouched())
                }
                5 => {
                    let r = match i.byte() % 4 {
                        0 => mbs_system_add_marker_node_position(sys, j, idx.ptr(n(0))),
                        1 => mbs_system_add_marker_body_position(
                            sys,
                            j,
                            ptr(&a3, n(1)).cast(),
                            idx.ptr(n(0)),
                        ),
                        2 => mbs_system_add_marker_body_rigid(sys, j, a3.as_ptr(), idx.ptr(n(0))),
                        _ => mbs_system_add_marker_body_mass(sys, j, idx.ptr(n(0))),
                    };
                    (r, idx.untouched())
                }
                6 => {
                    let r = match i.byte() % 3 {
                        0 => {
                            mbs_system_add_load_force(sys, j, ptr(&a3, n(1)).cast(), idx.ptr(n(0)))
                        }
                        1 => mbs_system_add_load_torque(
                            sys,
                            j,
                            a3.as_ptr(),
                            u32::from(n(1)),
                            idx.ptr(n(0)),
                        ),
                        _ => mbs_system_add_load_mass_proportional(
                            sys,
                            j,
                            a3.as_ptr(),
                            idx.ptr(n(0)),
                        ),
                    };
                    (r, idx.untouched())
                }
                7 => (
                    mbs_system_add_spring_damper(sys, j, k, x.abs(), y, 0.5, 0.0, idx.ptr(n(0))),
                    idx.untouched(),
                ),
                8 => (
                    mbs_system_add_cartesian_spring_damper(
                        sys,
                        j,
                        k,
                        b3.as_ptr(),
                        a3.as_ptr(),
                        a3.as_ptr(),
                        idx.ptr(n(0)),
                    ),
                    idx.untouched(),
                ),
                9 => {
                    let rows = usize::from(i.byte() % 8);
                    buffers.push(vec![0.0; rows * 10]);
                    let buf = buffers
                        .last_mut()
                        .map_or(core::ptr::null_mut(), |b| b.as_mut_ptr());
                    let spec = mbs_sensor_spec {
                        kind: i.u32() % 5,
                        index: j,
                        variable: i.u32() % 12,
                        local_position: a3,
                    };
                    (
                        mbs_system_add_sensor(
                            sys,
                            ptr(&spec, n(0)),
                            if n(1) { core::ptr::null_mut() } else { buf },
                            rows,
                            idx.ptr(n(2)),
                        ),
                        idx.untouched(),
                    )
                }
                10 => {
                    let r = mbs_system_assemble(sys, item.ptr(n(0)));
                    // assemble writes the failing item on error
                    (r, true)
                }
                11 => {
                    let mut rep = Out::<mbs_system_step_report>::new();
                    let r = mbs_system_step(sys, x, rep.ptr(n(0)), item.ptr(n(1)));
                    (r, rep.untouched())
                }
                12 => {
                    let mut sim = mbs_simulation_settings::default();
                    mbs_simulation_settings_default(&mut sim);
                    sim.end_time = y;
                    sim.number_of_steps = u32::from(i.byte() % 64);
                    let mut rep = Out::<mbs_system_solve_report>::new();
                    let (report, failed) = (rep.ptr(n(0)), item.ptr(n(1)));
                    let r = match i.byte() % 3 {
                        0 => mbs_system_solve_dynamic(sys, &sim, report, failed),
                        k => {
                            let mut w = system_ops::Watch {
                                stop_at: u32::from(i.byte() % 64),
                                answer: if k == 1 { MBS_RUN_STOP } else { i.u32() as i32 },
                                calls: 0,
                            };
                            let r = mbs_system_solve_dynamic_observed(
                                sys,
                                &sim,
                                Some(system_ops::on_step),
                                (&mut w as *mut system_ops::Watch).cast(),
                                report,
                                failed,
                            );
                            if mbs_status_is_ok(r) && !report.is_null() {
                                let rep = &*report;
                                assert_eq!(rep.steps + 1, w.calls);
                                let stopped =
                                    w.answer != MBS_RUN_CONTINUE && w.stop_at < sim.number_of_steps;
                                assert_eq!(rep.stopped, u32::from(stopped));
                            }
                            r
                        }
                    };
                    (r, rep.untouched())
                }
                13 => {
                    let var = i.u32() % 12;
                    let len = usize::from(i.byte() % 10);
                    let p = out.ptr(n(0)).cast::<f64>();
                    let r = match i.byte() % 4 {
                        0 => mbs_system_node_output(sys, j, var, p, len, written.ptr(n(1))),
                        1 => mbs_system_object_output(
                            sys,
                            j,
                            var,
                            ptr(&a3, n(2)).cast(),
                            p,
                            len,
                            written.ptr(n(1)),
                        ),
                        2 => mbs_system_marker_output(sys, j, var, p, len, written.ptr(n(1))),
                        _ => mbs_system_sensor_value(sys, j, p, len, written.ptr(n(1))),
                    };
                    if mbs_status_is_ok(r) {
                        assert!(finite64(&out.get()[..written.get()]));
                    }
                    (r, out.untouched() && written.untouched())
                }
                14 => (
                    mbs_system_set_load_vector(sys, j, ptr(&a3, n(0)).cast()),
                    true,
                ),
                _ => {
                    let mut st = Out::<mbs_rigid_state>::new();
                    let r = mbs_system_get_rigid_state(sys, j, st.ptr(n(0)));
                    if r == MBS_OK {
                        let mut s2 = st.get();
                        s2.velocity = a3;
                        s2.orientation = q4;
                        let r2 = mbs_system_set_rigid_state(sys, j, &s2);
                        judge(r2, true);
                    }
                    (r, st.untouched())
                }
            }
        };
        judge_system(sys, op, r, untouched, &before);
    }
    system_ops::SYSTEM.store(core::ptr::null_mut(), core::sync::atomic::Ordering::Relaxed);
}

/// [`judge`] for a system call `op`, and: refused, it left every byte of the system's storage
/// as `before`; the time is finite.
fn judge_system(sys: *const mbs_system, op: u8, r: MbsStatus, untouched: bool, before: &[u8]) {
    judge(r, untouched);
    if !mbs_status_is_ok(r) {
        assert!(
            storage_bytes(sys) == before,
            "op {op}: status {r} changed the system's storage"
        );
    }
    assert!(system_time(sys).is_finite());
}

fuzz_target!(|data: &[u8]| {
    let mut i = Input { data };
    match i.byte() % 8 {
        0 => rigid_f64(&mut i),
        1 => rigid_f32(&mut i),
        2 => mass_point(&mut i),
        3 => rigid_more::rigid_more(&mut i),
        4 => tree::tree_f64(&mut i),
        5 => tree::tree_f32(&mut i),
        _ => system(&mut i),
    }
});
