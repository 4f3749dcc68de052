//! The scene from C (`mbs_visualization_settings`, `mbs_system_export_scene`): a C-API system
//! of a BodyCylinder and a mass point hands the same primitives (every field converted) as
//! the core export of the equivalent Rust system, a contour summary, and every bad input is
//! refused before the callback runs with the summary untouched.

use mbs::mass_properties::{mbs_cylinder, mbs_cylinder_default};
use mbs::output::MBS_OUTPUT_VELOCITY;
use mbs::rigid::body_start::{mbs_body_start, mbs_body_start_default};
use mbs::system::create::{
    mbs_created_body, mbs_system_create_body_cylinder, mbs_system_create_mass_point,
};
use mbs::system::scene::*;
use mbs::system::{mbs_system, mbs_system_init, MBS_SYSTEM_WORDS};
use mbs::*;
use mbs_core::bodies::body_cylinder::BodyCylinder;
use mbs_core::graphics::{DrawPrimitive, DrawShape, VisualizationSettings};
use mbs_core::system::{HostSystem, MassPointSpec};
use mbs_core::OutputVariableType;
use nalgebra::{Vector2, Vector3};
use std::ffi::c_void;

unsafe extern "C-unwind" fn collect(ctx: *mut c_void, p: *const mbs_draw_primitive) {
    let v = unsafe { &mut *(ctx as *mut Vec<mbs_draw_primitive>) };
    v.push(unsafe { *p });
}

fn c_system() -> Box<mbs_system> {
    let mut sys = Box::new(mbs_system {
        _opaque: [0; MBS_SYSTEM_WORDS],
    });
    unsafe {
        assert_eq!(mbs_system_init(&mut *sys), MBS_OK);
        let mut cyl = std::mem::zeroed::<mbs_cylinder>();
        assert_eq!(
            mbs_cylinder_default(&mut cyl, [0.5, 0.0, 0.0].as_ptr()),
            MBS_OK
        );
        cyl.has_diameter = 1;
        cyl.diameter = 0.1;
        let mut start = std::mem::zeroed::<mbs_body_start>();
        assert_eq!(mbs_body_start_default(&mut start), MBS_OK);
        start.r_0_start = [0.0, 1.0, 0.0];
        start.v_0_start = [0.0, 0.0, 2.0];
        start.angles_start = [0.0, 0.0, 0.4];
        let mut out = mbs_created_body::default();
        assert_eq!(
            mbs_system_create_body_cylinder(&mut *sys, &cyl, &start, std::ptr::null(), &mut out),
            MBS_OK
        );
        assert_eq!(
            mbs_system_create_mass_point(
                &mut *sys,
                2.0,
                [1.0, 0.0].as_ptr(),
                [0.5, 0.0].as_ptr(),
                [3.0, 4.0].as_ptr(),
                std::ptr::null(),
                &mut out
            ),
            MBS_OK
        );
    }
    sys
}

fn rust_system() -> Box<HostSystem<f64>> {
    let mut sys = Box::new(HostSystem::<f64>::new());
    let start = mbs_core::bodies::body_cylinder::ModelicaStart {
        r_0_start: Vector3::new(0.0, 1.0, 0.0),
        v_0_start: Vector3::new(0.0, 0.0, 2.0),
        angles_start: [0.0, 0.0, 0.4],
        ..Default::default()
    };
    let cyl = BodyCylinder::params(Vector3::new(0.5, 0.0, 0.0))
        .diameter(0.1)
        .start(start)
        .build()
        .unwrap();
    sys.create_body_cylinder(&cyl, None).unwrap();
    let mut spec = MassPointSpec::new(2.0, Vector2::new(1.0, 0.0));
    spec.initial_displacement = Vector2::new(0.5, 0.0);
    spec.initial_velocity = Vector2::new(3.0, 4.0);
    sys.create_mass_point(&spec).unwrap();
    sys
}

fn v(x: &Vector3<f64>) -> [f64; 3] {
    [x.x, x.y, x.z]
}

#[test]
fn c_export_hands_the_core_primitives() {
    let sys = c_system();
    let mut vis = unsafe { std::mem::zeroed::<mbs_visualization_settings>() };
    assert_eq!(
        unsafe { mbs_visualization_settings_default(&mut vis) },
        MBS_OK
    );
    assert_eq!(vis.bodies_default_color, [0.3, 0.3, 1.0, 1.0]);
    assert_eq!(vis.contour_output_variable, MBS_CONTOUR_NONE);
    vis.bodies_show_numbers = 1;
    vis.contour_output_variable = MBS_OUTPUT_VELOCITY;
    vis.contour_output_variable_component = -1;
    let mut got: Vec<mbs_draw_primitive> = Vec::new();
    let mut summary = unsafe { std::mem::zeroed::<mbs_scene_summary>() };
    let st = unsafe {
        mbs_system_export_scene(
            &*sys,
            &vis,
            Some(collect),
            &mut got as *mut _ as *mut c_void,
            &mut summary,
        )
    };
    assert_eq!(st, MBS_OK);
    // The same scene from core.
    let mut s = VisualizationSettings::default();
    s.bodies.show_numbers = true;
    s.contour.output_variable = Some(OutputVariableType::Velocity);
    s.contour.output_variable_component = -1;
    let mut want: Vec<DrawPrimitive<f64>> = Vec::new();
    let ws = rust_system().export_scene(&s, |p| want.push(*p)).unwrap();
    assert_eq!(got.len(), 2);
    assert_eq!(summary.primitives, 2);
    assert_eq!(summary.bodies_drawn, ws.bodies_drawn as u32);
    assert!(summary.has_contour_range);
    assert_eq!((summary.contour_min, summary.contour_max), (2.0, 5.0));
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((g.body, g.index), (w.body as u32, w.index as u32));
        assert_eq!(g.color, w.color.rgba());
        assert_eq!(g.specular, w.specular);
        assert_eq!(g.has_contour_value, w.contour_value.is_some());
        assert_eq!(g.contour_value, w.contour_value.unwrap());
        let l = w.label.unwrap();
        assert!(g.has_label);
        assert_eq!(
            (g.label_number, g.label_position),
            (l.number as u32, v(&l.position))
        );
        match w.shape {
            DrawShape::Cylinder {
                p0,
                p1,
                radius,
                inner_radius,
            } => {
                assert_eq!(g.shape, MBS_SHAPE_CYLINDER);
                assert_eq!((g.p0, g.p1), (v(&p0), v(&p1)));
                assert_eq!(g.size, [radius, inner_radius, 0.0]);
            }
            DrawShape::Sphere { center, radius } => {
                assert_eq!(g.shape, MBS_SHAPE_SPHERE);
                assert_eq!(g.p0, v(&center));
                assert_eq!(g.size, [radius, 0.0, 0.0]);
            }
            other => panic!("{other:?}"),
        }
    }
    // Contour colors: the point (|v| = 5, top of the range) is red.
    assert_eq!(got[1].color, [0.9, 0.1, 0.1, 1.0]);
    assert_eq!(got[1].p0, [1.5, 0.0, 0.0]);
}

#[test]
fn bad_inputs_are_refused_before_the_callback() {
    let sys = c_system();
    let mut base = unsafe { std::mem::zeroed::<mbs_visualization_settings>() };
    assert_eq!(
        unsafe { mbs_visualization_settings_default(&mut base) },
        MBS_OK
    );
    let run = |vis: &mbs_visualization_settings, cb: mbs_draw_fn| {
        let mut got: Vec<mbs_draw_primitive> = Vec::new();
        let mut summary = mbs_scene_summary {
            bodies_drawn: 77,
            primitives: 77,
            has_contour_range: false,
            _pad0: [0; 7],
            contour_min: 0.0,
            contour_max: 0.0,
        };
        let st = unsafe {
            mbs_system_export_scene(
                &*sys,
                vis,
                cb,
                &mut got as *mut _ as *mut c_void,
                &mut summary,
            )
        };
        (st, got.len(), summary.primitives)
    };
    assert_eq!(run(&base, Some(collect)), (MBS_OK, 2, 2));
    assert_eq!(run(&base, None), (MBS_ERR_NULL_POINTER, 0, 77));
    let mut v = base;
    v.bodies_default_color[1] = f32::NAN;
    assert_eq!(run(&v, Some(collect)), (MBS_ERR_NOT_FINITE, 0, 77));
    let mut v = base;
    v.bodies_default_color[0] = -1.0;
    assert_eq!(run(&v, Some(collect)), (MBS_ERR_INVALID_SETTING, 0, 77));
    let mut v = base;
    v.contour_min_value = 2.0;
    assert_eq!(run(&v, Some(collect)), (MBS_ERR_INVALID_SETTING, 0, 77));
    let mut v = base;
    v.contour_output_variable = 999;
    assert_eq!(run(&v, Some(collect)), (MBS_ERR_INVALID_ARGUMENT, 0, 77));
    // A flag is 0 or 1: another byte (an uninitialized 0xAB) is refused, not undefined.
    for bad in [2u8, 0xAB] {
        let mut v = base;
        v.contour_show_color_bar = bad;
        assert_eq!(run(&v, Some(collect)), (MBS_ERR_INVALID_ARGUMENT, 0, 77));
    }
    let mut v = base;
    v.bodies_show = 0;
    assert_eq!(run(&v, Some(collect)), (MBS_OK, 0, 0));
    let st = unsafe {
        mbs_system_export_scene(
            &*sys,
            std::ptr::null(),
            Some(collect),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(st, MBS_ERR_NULL_POINTER);
    let st = unsafe {
        mbs_system_export_scene(
            std::ptr::null(),
            &base,
            Some(collect),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(st, MBS_ERR_NULL_POINTER);
}
