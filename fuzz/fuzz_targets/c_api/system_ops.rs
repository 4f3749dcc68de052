//! The system calls beyond the first sixteen operations of `system`: grounds, 2D rigid bodies,
//! frame markers, cylinders, every constraint and joint, torsional springs, user loads, the
//! state getters and setters, settings, reset, scene export, sensors, the Newton report and a
//! kinematic tree in the system. Each returns the status and whether its outputs are untouched.

use super::*;
use core::ffi::{c_char, c_void};
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, Ordering};
use mbs::system::constraints::*;
use mbs::system::planar::*;
use mbs::system::record::*;
use mbs::system::scene::*;
use mbs::system::settings::*;
use mbs::system::tree::*;
use mbs::tree::*;

/// The system the harness builds, which a callback tries to re-enter (null: none).
pub static SYSTEM: AtomicPtr<mbs_system> = AtomicPtr::new(core::ptr::null_mut());

/// Calls from a callback into the system that runs it: every change is refused with
/// `MBS_ERR_BUSY`, whether the call running the callback changes the system (a step, an
/// assembly: reads refused too) or reads it (an output: reads answered).
unsafe fn reenter(sys: *mut mbs_system) {
    let mut t = f64::NAN;
    let read = mbs_system_time(sys, &mut t);
    assert!(
        read == MBS_OK || read == MBS_ERR_BUSY,
        "a read from a callback: {read}"
    );
    let mut c = mbs_system_counts::default();
    let counts = mbs_system_get_counts(sys, &mut c);
    assert_eq!(counts, read, "two reads from one callback");
    assert_eq!(mbs_system_reset(sys), MBS_ERR_BUSY);
    assert_eq!(
        mbs_system_step(sys, 1e-3, null_mut(), null_mut()),
        MBS_ERR_BUSY
    );
    assert_eq!(mbs_system_assemble(sys, null_mut()), MBS_ERR_BUSY);
    let origin = [0.0; 3];
    let mut idx = 0u32;
    assert_eq!(
        mbs_system_create_ground(sys, origin.as_ptr(), &mut idx),
        MBS_ERR_BUSY
    );
    assert_eq!(mbs_system_deinit(sys), MBS_ERR_BUSY);
    assert_eq!(mbs_system_init(sys), MBS_ERR_BUSY);
}

/// A user load writing what its context holds (finite or not), after trying to re-enter
/// the system.
unsafe extern "C-unwind" fn user_load(ctx: *mut c_void, t: f64, out: *mut f64) {
    let sys = SYSTEM.load(Ordering::Relaxed);
    if !sys.is_null() {
        reenter(sys);
    }
    let v = if ctx.is_null() {
        [t, 0.0, 0.0]
    } else {
        *ctx.cast::<[f64; 3]>()
    };
    for (k, x) in v.iter().enumerate() {
        *out.add(k) = *x;
    }
}

/// A recording's text writer: appends each piece to the `Vec<u8>` at `ctx`.
unsafe extern "C-unwind" fn collect_text(ctx: *mut c_void, text: *const c_char, len: usize) {
    let out = &mut *ctx.cast::<Vec<u8>>();
    out.extend_from_slice(core::slice::from_raw_parts(text.cast::<u8>(), len));
}

/// A scene callback that reads every field.
unsafe extern "C-unwind" fn draw(ctx: *mut c_void, p: *const mbs_draw_primitive) {
    let n = &mut *ctx.cast::<usize>();
    *n += 1;
    let p = &*p;
    assert!(finite64(&p.p0) && finite64(&p.p1) && finite64(&p.axes) && finite64(&p.size));
}

/// What the step callback does: stop after step `stop_at` (0: at the start) answering `answer`.
pub struct Watch {
    pub stop_at: u32,
    pub answer: i32,
    pub calls: u32,
}

/// A solve's step callback: reads the system (its time is the step's), is refused a change,
/// stops where the input says.
pub unsafe extern "C-unwind" fn on_step(
    ctx: *mut c_void,
    sys: *const mbs_system,
    p: *const mbs_solve_progress,
) -> i32 {
    let w = &mut *ctx.cast::<Watch>();
    let p = &*p;
    assert_eq!(p.step, w.calls);
    w.calls += 1;
    let mut t = f64::NAN;
    assert_eq!(mbs_system_time(sys, &mut t), MBS_OK);
    assert_eq!(t.to_bits(), p.time.to_bits());
    assert_eq!(mbs_system_reset(sys.cast_mut()), MBS_ERR_BUSY);
    assert_eq!(
        mbs_system_step(sys.cast_mut(), 1e-3, null_mut(), null_mut()),
        MBS_ERR_BUSY
    );
    assert_eq!(mbs_system_init(sys.cast_mut()), MBS_ERR_BUSY);
    assert_eq!(mbs_system_deinit(sys.cast_mut()), MBS_ERR_BUSY);
    let mut sim = mbs_simulation_settings::default();
    mbs_simulation_settings_default(&mut sim);
    let r = mbs_system_solve_dynamic(sys.cast_mut(), &sim, null_mut(), null_mut());
    assert_eq!(r, MBS_ERR_BUSY);
    // Reads are answered: the scene and a recorded frame of the step's state.
    let vis = mbs_visualization_settings_default_value();
    let mut text: Vec<u8> = Vec::new();
    let ctx = (&mut text as *mut Vec<u8>).cast();
    let r = mbs_system_record_frame(sys, &vis, Some(collect_text), ctx, null_mut());
    assert!(
        r == MBS_OK || r == MBS_ERR_NON_FINITE_STATE,
        "record_frame from a step callback: {r}"
    );
    if p.step == w.stop_at {
        w.answer
    } else {
        MBS_RUN_CONTINUE
    }
}

/// The user loads' contexts: they must outlive the system (kept for the whole input).
pub struct Contexts(pub Vec<Box<[f64; 3]>>);

pub fn more(
    i: &mut Input,
    sys: *mut mbs_system,
    op: u8,
    contexts: &mut Contexts,
) -> (MbsStatus, bool) {
    let a3 = i.maybe([0.0, 0.0, 0.0], Input::f64);
    let b3 = i.maybe([1.0, 0.0, 0.0], Input::f64);
    let (x, y) = (i.f64(), i.f64());
    let (j, k) = (index(i), index(i));
    let nul = i.byte();
    let n = |b: u32| nul & (1 << b) != 0 && nul & 0x80 != 0;
    let mut idx = Out::<u32>::new();
    let mut cb = Out::<mbs_created_body>::new();
    // SAFETY: every pointer is NULL or points to live storage of the harness of the size the
    // function reads or writes; user-load contexts live in `contexts` past the system.
    unsafe {
        match op {
            16 => {
                let r = match i.byte() % 3 {
                    0 => mbs_system_add_node_ground(sys, ptr(&a3, n(0)).cast(), idx.ptr(n(1))),
                    1 => mbs_system_add_object_ground(sys, ptr(&a3, n(0)).cast(), idx.ptr(n(1))),
                    _ => mbs_system_create_ground(sys, ptr(&a3, n(0)).cast(), idx.ptr(n(1))),
                };
                (r, idx.untouched())
            }
            17 => {
                let r = mbs_system_add_node_rigid_2d(
                    sys,
                    ptr(&a3, n(0)).cast(),
                    b3.as_ptr(),
                    a3.as_ptr(),
                    idx.ptr(n(1)),
                );
                (r, idx.untouched())
            }
            18 => (
                mbs_system_add_object_rigid_body_2d(
                    sys,
                    j,
                    x,
                    y,
                    ptr(&a3, n(0)).cast(),
                    idx.ptr(n(1)),
                ),
                idx.untouched(),
            ),
            19 => {
                let mp = mbs_mass_properties {
                    mass: x,
                    com: a3,
                    inertia: [y, 0.0, 0.0, 0.0, y, 0.0, 0.0, 0.0, y],
                };
                (
                    mbs_system_add_object_rigid_body(sys, j, ptr(&mp, n(0)), idx.ptr(n(1))),
                    idx.untouched(),
                )
            }
            20 => (
                mbs_system_add_marker_node_coordinate(sys, j, k % 8, idx.ptr(n(0))),
                idx.untouched(),
            ),
            21 => {
                let rot: [f64; 9] = if i.flag() {
                    core::array::from_fn(|_| i.f64())
                } else {
                    [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
                };
                let r = mbs_system_add_marker_body_rigid_frame(
                    sys,
                    j,
                    a3.as_ptr(),
                    ptr(&rot, n(0)).cast(),
                    idx.ptr(n(1)),
                );
                (r, idx.untouched())
            }
            22 => {
                let mut two = Out::<[u32; 2]>::new();
                (
                    mbs_system_add_frame_markers(sys, j, two.ptr(n(0)).cast()),
                    two.untouched(),
                )
            }
            23 => {
                let mut cyl = mbs_cylinder::default();
                mbs_cylinder_default(&mut cyl, b3.as_ptr());
                cyl.diameter = x.abs();
                cyl.has_diameter = i.c_flag();
                let mut start = mbs_body_start::default();
                mbs_body_start_default(&mut start);
                start.w_0_start = a3;
                let g = if n(2) { core::ptr::null() } else { a3.as_ptr() };
                let r = mbs_system_create_body_cylinder(
                    sys,
                    ptr(&cyl, n(0)),
                    ptr(&start, n(1)),
                    g,
                    cb.ptr(n(3)),
                );
                (r, cb.untouched())
            }
            24 => (
                mbs_system_add_coordinate_constraint(sys, j, k, x, y, idx.ptr(n(0))),
                idx.untouched(),
            ),
            25 => (
                mbs_system_add_distance_constraint(sys, j, k, x, idx.ptr(n(0))),
                idx.untouched(),
            ),
            26 => {
                let r = match i.byte() % 5 {
                    0 => mbs_system_add_revolute_joint_2d(sys, j, k, idx.ptr(n(0))),
                    1 => mbs_system_add_revolute_joint(sys, j, k, idx.ptr(n(0))),
                    2 => mbs_system_add_prismatic_joint(sys, j, k, idx.ptr(n(0))),
                    3 => mbs_system_add_spherical_joint(sys, j, k, idx.ptr(n(0))),
                    _ => mbs_system_add_prismatic_joint_2d(
                        sys,
                        j,
                        k,
                        ptr(&a3, n(1)).cast(),
                        b3.as_ptr(),
                        u32::from(i.byte() % 3),
                        idx.ptr(n(0)),
                    ),
                };
                (r, idx.untouched())
            }
            27 => {
                let axes: [u8; 6] = core::array::from_fn(|_| i.c_flag());
                (
                    mbs_system_add_generic_joint(sys, j, k, ptr(&axes, n(1)).cast(), idx.ptr(n(0))),
                    idx.untouched(),
                )
            }
            28 => (
                mbs_system_add_torsional_spring_damper(
                    sys,
                    j,
                    k,
                    x,
                    y,
                    i.f64(),
                    i.f64(),
                    idx.ptr(n(0)),
                ),
                idx.untouched(),
            ),
            29 => (mbs_system_set_torsional_target(sys, j, x, y), true),
            30 => {
                contexts.0.push(Box::new(a3));
                let ctx = contexts.0.last_mut().map_or(core::ptr::null_mut(), |b| {
                    (&mut **b as *mut [f64; 3]).cast::<c_void>()
                });
                let f: mbs_load_fn = if n(1) { None } else { Some(user_load) };
                let r = mbs_system_add_load_user(sys, j, i.u32() % 5, f, ctx, idx.ptr(n(0)));
                (r, idx.untouched())
            }
            31 => {
                let mut out = Out::<[f64; 9]>::new();
                let mut written = Out::<usize>::new();
                let len = usize::from(i.byte() % 10);
                let r = mbs_system_constraint_output(
                    sys,
                    j,
                    i.u32() % 24,
                    out.ptr(n(0)).cast(),
                    len,
                    written.ptr(n(1)),
                );
                if mbs_status_is_ok(r) {
                    assert!(finite64(&out.get()[..written.get()]));
                }
                (r, out.untouched() && written.untouched())
            }
            32 => {
                let mut rep = Out::<mbs_newton_report>::new();
                (
                    mbs_system_newton_report(sys, rep.ptr(n(0))),
                    rep.untouched(),
                )
            }
            33 => {
                let mut v = Out::<[f64; 3]>::new();
                let r = mbs_system_load_value(sys, j, v.ptr(n(0)).cast());
                if r == MBS_OK {
                    assert!(finite64(&v.get()));
                }
                (r, v.untouched())
            }
            34 => {
                let mut st = Out::<mbs_point2d_state>::new();
                let r = mbs_system_get_point2d_state(sys, j, st.ptr(n(0)));
                if r == MBS_OK {
                    let mut s2 = st.get();
                    s2.q = [a3[0], a3[1]];
                    s2.q_t = [b3[0], b3[1]];
                    judge(mbs_system_set_point2d_state(sys, j, ptr(&s2, n(1))), true);
                }
                (r, st.untouched())
            }
            35 => {
                let mut st = Out::<mbs_rigid2d_state>::new();
                let r = mbs_system_get_rigid2d_state(sys, j, st.ptr(n(0)));
                if r == MBS_OK {
                    let mut s2 = st.get();
                    s2.q = a3;
                    s2.q_t = b3;
                    judge(mbs_system_set_rigid2d_state(sys, j, ptr(&s2, n(1))), true);
                }
                (r, st.untouched())
            }
            36 => {
                let mut s = Out::<mbs_system_settings>::new();
                let r = mbs_system_get_settings(sys, s.ptr(n(0)));
                if r == MBS_OK {
                    let mut s2 = s.get();
                    match i.byte() % 8 {
                        0 => s2.scheme = i.u32() % 6,
                        1 => s2.rigid_scheme = i.u32() % 6,
                        2 => s2.substep = i.c_flag(),
                        3 => s2.max_rotation_per_step = x,
                        4 => s2.alpha_spectral_radius = x,
                        5 => s2.alpha_formulation = i.u32() % 4,
                        6 => s2.alpha_assembly_solve = i.c_flag(),
                        _ => s2.alpha_newton_max_iterations = i.u32() % 40,
                    }
                    judge(mbs_system_set_settings(sys, ptr(&s2, n(1))), true);
                }
                (r, s.untouched())
            }
            37 => (mbs_system_reset(sys), true),
            46 => {
                // A joint placed by a point and an axis (world), revolute or prismatic.
                let mut out = Out::<mbs_world_joint>::new();
                let (p, a) = (ptr(&a3, n(0)).cast(), ptr(&b3, n(1)).cast());
                let f = if i.byte() % 2 == 0 {
                    mbs_system_add_revolute_joint_at
                } else {
                    mbs_system_add_prismatic_joint_at
                };
                let r = f(sys, j, k, p, a, out.ptr(n(2)));
                (r, out.untouched())
            }
            45 => {
                // A recording: its first records, or a frame of the system now. Refused:
                // nothing written.
                let mut text: Vec<u8> = Vec::new();
                let ctx = (&mut text as *mut Vec<u8>).cast();
                let write: mbs_text_fn = if n(0) { None } else { Some(collect_text) };
                if i.byte() % 2 == 0 {
                    // A title of fuzzed bytes (maybe not UTF-8, maybe with line breaks).
                    let title = [i.byte(), i.byte(), i.byte(), 0];
                    let title = if n(1) {
                        core::ptr::null()
                    } else {
                        title.as_ptr().cast()
                    };
                    let r = mbs_record_header(title, write, ctx);
                    if r == MBS_OK {
                        assert!(text.starts_with(b"mbs-run 1\n"));
                        assert!(core::str::from_utf8(&text).is_ok());
                        assert_eq!(
                            text.iter().filter(|&&b| b == b'\n').count(),
                            1 + usize::from(!n(1))
                        );
                    }
                    (r, text.is_empty())
                } else {
                    let vis = mbs_visualization_settings_default_value();
                    let mut summary = Out::<mbs_scene_summary>::new();
                    let r = mbs_system_record_frame(
                        sys,
                        ptr(&vis, n(1)),
                        write,
                        ctx,
                        summary.ptr(n(2)),
                    );
                    if r == MBS_OK {
                        assert!(text.starts_with(b"frame "));
                        assert!(core::str::from_utf8(&text).is_ok());
                    }
                    (r, text.is_empty() && summary.untouched())
                }
            }
            38 => {
                let mut vis = mbs_visualization_settings_default_value();
                vis.contour_output_variable = i.u32() % 14;
                vis.contour_output_variable_component = i32::from(i.byte() % 5) - 1;
                vis.contour_rigid_bodies_colored = i.c_flag();
                vis.bodies_show_numbers = i.c_flag();
                let mut count = 0usize;
                let mut summary = Out::<mbs_scene_summary>::new();
                let f: mbs_draw_fn = if n(1) { None } else { Some(draw) };
                let r = mbs_system_export_scene(
                    sys,
                    ptr(&vis, n(0)),
                    f,
                    (&mut count as *mut usize).cast(),
                    summary.ptr(n(2)),
                );
                (r, summary.untouched())
            }
            39 => match i.byte() % 3 {
                0 => {
                    let mut info = Out::<mbs_sensor_info>::new();
                    let r = mbs_system_sensor_info(sys, j, info.ptr(n(0)));
                    (r, info.untouched())
                }
                1 => {
                    let mut rows = Out::<usize>::new();
                    let r = mbs_system_sensor_rows(sys, j, rows.ptr(n(0)));
                    (r, rows.untouched())
                }
                _ => (mbs_system_sensor_clear(sys, j), true),
            },
            40 => {
                // A small tree of fuzzed revolute and prismatic links, into the system.
                let mut storage: Box<MaybeUninit<mbs_tree>> = Box::new_zeroed();
                let tree = storage.as_mut_ptr();
                assert_eq!(mbs_tree_init(tree, [0.0, 0.0, -9.81].as_ptr()), MBS_OK);
                let links = 1 + i.byte() % 3;
                for l in 0..links {
                    let mut link: mbs_tree_link = core::mem::zeroed();
                    link.parent = if l == 0 {
                        MBS_NO_INDEX
                    } else {
                        u32::from(l) - 1
                    };
                    link.joint = u32::from(i.byte() % 5);
                    link.axis = [0.0, 0.0, 1.0];
                    link.rotation = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
                    link.position = [0.5, 0.0, 0.0];
                    link.mass = 1.0;
                    link.inertia = [0.1, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1];
                    judge(mbs_tree_add_link(tree, &link, core::ptr::null_mut()), true);
                }
                let q: [f64; 8] = core::array::from_fn(|_| i.f64());
                let len = usize::from(i.byte() % 9);
                let r = mbs_system_add_kinematic_tree(
                    sys,
                    ptr(&*tree, n(0)),
                    q.as_ptr(),
                    len,
                    q.as_ptr(),
                    len,
                    idx.ptr(n(1)),
                );
                (r, idx.untouched())
            }
            41 => {
                let mut q = Out::<[f64; 8]>::new();
                let mut v = Out::<[f64; 8]>::new();
                let mut a = Out::<[f64; 8]>::new();
                let len = usize::from(i.byte() % 9);
                let r = mbs_system_tree_state(
                    sys,
                    q.ptr(n(0)).cast(),
                    v.ptr(n(1)).cast(),
                    a.ptr(n(2)).cast(),
                    len,
                );
                if r == MBS_OK {
                    assert!(finite64(&q.get()[..len]) && finite64(&v.get()[..len]));
                }
                (r, q.untouched() && v.untouched() && a.untouched())
            }
            42 => {
                let q: [f64; 8] = core::array::from_fn(|_| i.f64());
                let len = usize::from(i.byte() % 9);
                let r = match i.byte() % 2 {
                    0 => mbs_system_set_tree_state(sys, ptr(&q, n(0)).cast(), q.as_ptr(), len),
                    _ => mbs_system_set_tree_joint_forces(sys, ptr(&q, n(0)).cast(), len),
                };
                (r, true)
            }
            43 => (
                mbs_system_set_tree_joint_spring(sys, j, x, y, i.f64(), i.f64()),
                true,
            ),
            44 => (
                mbs_system_tree_link_object(sys, j, idx.ptr(n(0))),
                idx.untouched(),
            ),
            _ => {
                // The life cycle: deinit, every call refused, init again (the items are gone).
                let r = mbs_system_deinit(ptr_mut(&mut *sys, n(0)));
                judge(r, true);
                if r == MBS_OK {
                    let mut c = mbs_system_counts::default();
                    assert_eq!(mbs_system_get_counts(sys, &mut c), MBS_ERR_NOT_INITIALIZED);
                    assert_eq!(mbs_system_reset(sys), MBS_ERR_NOT_INITIALIZED);
                    assert_eq!(mbs_system_init(sys), MBS_OK);
                }
                (MBS_OK, true)
            }
        }
    }
}

fn mbs_visualization_settings_default_value() -> mbs_visualization_settings {
    let mut v = Out::<mbs_visualization_settings>::new();
    // SAFETY: a valid pointer to local storage.
    assert_eq!(
        unsafe { mbs_visualization_settings_default(v.ptr(false)) },
        MBS_OK
    );
    v.get()
}
