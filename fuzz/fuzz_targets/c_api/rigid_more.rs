//! The per-item calls `rigid_f64`, `rigid_f32` and `mass_point` leave out: validate, the
//! float midpoint step, the float rotation Jacobian and state init, the float mass point,
//! every default and the storage sizes.

use super::*;
use mbs::system::scene::*;
use mbs::system::settings::*;
use mbs::tree::*;
use mbs::version::*;

pub fn rigid_more(i: &mut Input) {
    let (b, _, _, s0, dt) = rigid_inputs64(i);
    let nulls = i.byte();
    let n = |k: u8| nulls & (1 << k) != 0 && nulls & 0x80 != 0;
    // SAFETY (every block): valid or null pointers to locals.
    match i.byte() % 5 {
        1 => {
            let mut b2 = b;
            let r = unsafe { mbs_rigid_body_validate(ptr_mut(&mut b2, n(0))) };
            // A refused validate leaves the body as it was.
            judge(r, bytes_of(&b2) == bytes_of(&b));
        }
        2 => {
            // A float body from init (valid or refused), then validate, the midpoint step,
            // the rotation Jacobian.
            let inertia: [f32; 9] = to32(b.inertia, i);
            let com: [f32; 3] = to32(b.center_of_mass, i);
            let mut body = Out::<mbs_rigid_body_f32>::new();
            let r = unsafe {
                mbs_rigid_body_init_f32(
                    body.ptr(n(0)),
                    b.mass as f32,
                    ptr(&inertia, n(1)).cast(),
                    com.as_ptr(),
                )
            };
            judge(r, body.untouched());
            if r != MBS_OK {
                return;
            }
            let mut body = body.get();
            let before = body;
            let r = unsafe { mbs_rigid_body_validate_f32(&mut body) };
            judge(r, bytes_of(&body) == bytes_of(&before));
            let mut s = Out::<mbs_rigid_state_f32>::new();
            let p: [f32; 3] = to32(s0.position, i);
            let q: [f32; 4] = to32(s0.orientation, i);
            let v: [f32; 3] = to32(s0.velocity, i);
            let w: [f32; 3] = to32(s0.angular_velocity, i);
            let r = unsafe {
                mbs_rigid_state_init_f32(
                    s.ptr(n(2)),
                    p.as_ptr(),
                    ptr(&q, n(3)).cast(),
                    v.as_ptr(),
                    w.as_ptr(),
                )
            };
            judge(r, s.untouched());
            let mut sw = Out::<mbs_rigid_state_f32>::new();
            let r2 = unsafe {
                mbs_rigid_state_init_world_f32(
                    sw.ptr(n(2)),
                    p.as_ptr(),
                    ptr(&q, n(3)).cast(),
                    v.as_ptr(),
                    w.as_ptr(),
                )
            };
            judge(r2, sw.untouched());
            if r != MBS_OK {
                return;
            }
            let s = s.get();
            let mut w0 = Out::<[f32; 3]>::new();
            let r = unsafe { mbs_rigid_state_angular_velocity_world_f32(&s, w0.ptr(n(4)).cast()) };
            judge(r, w0.untouched());
            if r == MBS_OK {
                assert!(finite32(&w0.get()));
            }
            let mut jac = Out::<[f32; 18]>::new();
            let r = unsafe { mbs_rigid_rotation_jacobian_f32(&body, &s, jac.ptr(n(4)).cast()) };
            judge(r, jac.untouched());
            if r == MBS_OK {
                assert!(finite32(&jac.get()));
            }
            let mut st32 = Out::<mbs_step_settings_f32>::new();
            judge(
                unsafe { mbs_step_settings_default_f32(st32.ptr(n(5))) },
                st32.untouched(),
            );
            let st32 = mbs_step_settings_f32 {
                max_rotation_per_step: 0.5,
                ..step_settings(i, Input::f32, 0.5f32)
            };
            let loads: mbs_rigid_loads_f32 = unsafe { core::mem::zeroed() };
            let mut s2 = s;
            let mut info = Out::<mbs_step_info>::new();
            let r = unsafe {
                mbs_rigid_midpoint_step_f32(
                    &body,
                    &loads,
                    &st32,
                    &mut s2,
                    dt as f32,
                    info.ptr(n(6)),
                )
            };
            judge(r, bytes_of(&s2) == bytes_of(&s) && info.untouched());
            if mbs_status_is_ok(r) {
                assert!(state32_finite(&s2));
            }
        }
        3 => {
            // The float mass point: init, its state, a step.
            let r0: [f32; 2] = to32([0.0, 1.0], i);
            let mut body = Out::<mbs_mass_point_2d_f32>::new();
            let r = unsafe {
                mbs_mass_point_2d_init_f32(body.ptr(n(0)), b.mass as f32, ptr(&r0, n(1)).cast())
            };
            judge(r, body.untouched());
            if r != MBS_OK {
                return;
            }
            let body = body.get();
            let loads = mbs_mass_point_2d_loads_f32 {
                force: to32([0.0, 0.0, 0.0], i),
                gravity: to32([0.0, -9.81, 0.0], i),
            };
            let mut sim = Out::<mbs_simulation_settings_f32>::new();
            judge(
                unsafe { mbs_simulation_settings_default_f32(sim.ptr(n(2))) },
                sim.untouched(),
            );
            let mut sim: mbs_simulation_settings_f32 = unsafe { core::mem::zeroed() };
            unsafe { mbs_simulation_settings_default_f32(&mut sim) };
            if i.flag() {
                sim.spectral_radius = i.f32();
            }
            let x0: [f32; 2] = to32([0.0, 0.0], i);
            let mut st = Out::<mbs_point2d_state_f32>::new();
            let r = unsafe {
                mbs_mass_point_2d_init_state_f32(
                    &body,
                    &loads,
                    ptr(&sim, n(3)),
                    x0.as_ptr(),
                    x0.as_ptr(),
                    st.ptr(n(4)),
                )
            };
            judge(r, st.untouched());
            if r != MBS_OK {
                return;
            }
            let s = st.get();
            let mut s2 = s;
            let mut info = Out::<mbs_alpha_step_info>::new();
            let r = unsafe {
                mbs_mass_point_2d_step_f32(&body, &loads, &sim, &mut s2, dt as f32, info.ptr(n(5)))
            };
            judge(r, bytes_of(&s2) == bytes_of(&s) && info.untouched());
        }
        _ => {
            // Defaults and sizes.
            let mut c = Out::<mbs_cylinder>::new();
            let r = unsafe { mbs_cylinder_default(c.ptr(n(0)), ptr(&s0.position, n(1)).cast()) };
            judge(r, c.untouched());
            let mut v = Out::<mbs_visualization_settings>::new();
            judge(
                unsafe { mbs_visualization_settings_default(v.ptr(n(2))) },
                v.untouched(),
            );
            let mut s = Out::<mbs_system_settings>::new();
            judge(
                unsafe { mbs_system_settings_default(s.ptr(n(3))) },
                s.untouched(),
            );
            assert_eq!(mbs_system_storage_size(), size_of::<mbs_system>());
            assert_eq!(mbs_tree_storage_size(), size_of::<mbs::tree::mbs_tree>());
            assert_eq!(
                mbs_tree_f32_storage_size(),
                size_of::<mbs::tree::mbs_tree_f32>()
            );
            assert!(!mbs_version().is_null());
        }
    }
}
