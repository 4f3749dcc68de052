//! The scene of a system from C (Exudyn's visualization rules): visualization settings
//! (`mbs_visualization_settings`, Exudyn's `bodies.*` and `contour.*` with their defaults) and
//! `mbs_system_export_scene`, which calls a C callback once per draw primitive
//! (`mbs_draw_primitive`: world-frame shape, final color, contour value, number label). No
//! allocation: a firmware can stream its scene (e.g. one text line per primitive, the format
//! `mbs-view render` reads, `view/src/stream.rs`).
//!
//! Every object is drawn by its default drawing (ground: nothing; mass point: a steel sphere of
//! its mass; rigid body: its equivalent uniform box; BodyCylinder: Modelica's cylinder shape in
//! Modelica's `BodyColor`); the C system holds no custom graphics.

use crate::boundary::{put, read, with_ref, FfiResult};
use crate::convert::{flag, MbsFlag};
use crate::output::{variable, MbsOutputVariable};
use crate::status::status_of;
use crate::status::*;
use crate::system::mbs_system;
use core::ffi::c_void;
use mbs_core::foreign::abort_on_unwind;
use mbs_core::graphics::{
    BodiesSettings, Color, ContourSettings, DrawPrimitive, DrawShape, SceneSummary,
    VisualizationSettings,
};

/// `contour_output_variable` value meaning "no contour" (Exudyn's `_None`, the default).
pub const MBS_CONTOUR_NONE: u32 = 0xFFFF_FFFF;

/// Shape kind of an `mbs_draw_primitive` (`MBS_SHAPE_*`, fixed numbers).
pub type mbs_shape = u32;
/// A cylinder from `p0` to `p1`; `size = {radius, inner_radius, 0}`.
pub const MBS_SHAPE_CYLINDER: mbs_shape = 0;
/// A box: centre `p0`, edge directions the columns of `axes`, edge lengths `size`.
pub const MBS_SHAPE_BOX: mbs_shape = 1;
/// A sphere: centre `p0`, `size = {radius, 0, 0}`.
pub const MBS_SHAPE_SPHERE: mbs_shape = 2;
/// A line segment from `p0` to `p1`.
pub const MBS_SHAPE_LINE: mbs_shape = 3;

/// The drawing settings (Exudyn's names and defaults). Fill with
/// `mbs_visualization_settings_default`, then override fields.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_visualization_settings {
    /// `bodies.show`: draw bodies at all (default true).
    pub bodies_show: MbsFlag,
    /// `bodies.showNumbers`: label each drawn body's first primitive with its object number
    /// (default false).
    pub bodies_show_numbers: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 2],
    /// `bodies.defaultColor` RGBA, each in [0, 1] (default {0.3, 0.3, 1, 1}): replaces every
    /// `-1` color component of a body.
    pub bodies_default_color: [f32; 4],
    /// `contour.outputVariable`: an `MBS_OUTPUT_*` value, or `MBS_CONTOUR_NONE` (default).
    pub contour_output_variable: u32,
    /// `contour.outputVariableComponent`: 0, 1, 2, ... (matrices row-major), -1 the norm
    /// (default 0).
    pub contour_output_variable_component: i32,
    /// `contour.rigidBodiesColored`: bodies take the color of their value (default true).
    pub contour_rigid_bodies_colored: MbsFlag,
    /// `contour.automaticRange`: the range is [min, max] of the drawn values (default true).
    pub contour_automatic_range: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad1: [u8; 2],
    /// `contour.minValue` (default 0), used without the automatic range.
    pub contour_min_value: f64,
    /// `contour.maxValue` (default 1), used without the automatic range; >= `contour_min_value`.
    pub contour_max_value: f64,
    /// `contour.alphaTransparency` of a contour color, in [0, 1] (default 1).
    pub contour_alpha_transparency: f32,
    /// `contour.showColorBar` (default true): a viewer draws the color bar.
    pub contour_show_color_bar: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad2: [u8; 3],
}

/// One primitive to draw, world frame (m), everything resolved.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_draw_primitive {
    /// Object number of the body it belongs to.
    pub body: u32,
    /// Index of the primitive in the body's graphics.
    pub index: u32,
    /// `MBS_SHAPE_*`.
    pub shape: mbs_shape,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: u32,
    /// Cylinder and line: the first end point; box and sphere: the centre (m, world).
    pub p0: [f64; 3],
    /// Cylinder and line: the second end point (m, world); else 0.
    pub p1: [f64; 3],
    /// Box: `R_0b` row-major, column k is the direction of the box's k-th edge (world);
    /// else the identity.
    pub axes: [f64; 9],
    /// Box: the edge lengths (m); cylinder: `{radius, inner_radius, 0}`; sphere:
    /// `{radius, 0, 0}`; line: 0.
    pub size: [f64; 3],
    /// The final color RGBA, each in [0, 1] (default color or contour color applied).
    pub color: [f32; 4],
    /// Specular coefficient (-).
    pub specular: f32,
    /// `true` if the color came from the contour map; then `contour_value` is the body's value.
    pub has_contour_value: bool,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad1: [u8; 3],
    /// The body's contour value (unit of the output variable), 0 if `!has_contour_value`.
    pub contour_value: f64,
    /// `true` on a body's first primitive when `bodies_show_numbers`.
    pub has_label: bool,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad2: [u8; 3],
    /// The number to write (the object number).
    pub label_number: u32,
    /// Where to write it: the body's reference point (m, world).
    pub label_position: [f64; 3],
}

/// What an export did.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_scene_summary {
    /// Bodies drawn (`bodies_show` and their own `show`).
    pub bodies_drawn: u32,
    /// Primitives handed to the callback.
    pub primitives: u32,
    /// `true` if bodies were contour-colored; then `contour_min`, `contour_max` is the range
    /// of the color bar.
    pub has_contour_range: bool,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 7],
    /// Value at the bottom (blue) of the color bar.
    pub contour_min: f64,
    /// Value at the top (red) of the color bar.
    pub contour_max: f64,
}

/// The callback of `mbs_system_export_scene`: called once per primitive, in object order and
/// primitive order, with the caller's `ctx`; `p` is valid only during the call. It must return:
/// a C++ exception that leaves it aborts the process (as from every callback), and no
/// `longjmp` may jump out of it across mbs.
pub type mbs_draw_fn =
    Option<unsafe extern "C-unwind" fn(ctx: *mut c_void, p: *const mbs_draw_primitive)>;

/// Writes Exudyn's default visualization settings (see each field).
///
/// Errors: `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_visualization_settings_default(
    out: *mut mbs_visualization_settings,
) -> MbsStatus {
    if out.is_null() {
        return MBS_ERR_NULL_POINTER;
    }
    put(out, to_c(&VisualizationSettings::default()));
    MBS_OK
}

fn to_c(s: &VisualizationSettings) -> mbs_visualization_settings {
    mbs_visualization_settings {
        bodies_show: u8::from(s.bodies.show),
        bodies_show_numbers: u8::from(s.bodies.show_numbers),
        bodies_default_color: s.bodies.default_color.rgba(),
        contour_output_variable: MBS_CONTOUR_NONE,
        contour_output_variable_component: s.contour.output_variable_component,
        contour_rigid_bodies_colored: u8::from(s.contour.rigid_bodies_colored),
        contour_automatic_range: u8::from(s.contour.automatic_range),
        contour_min_value: s.contour.min_value,
        contour_max_value: s.contour.max_value,
        contour_alpha_transparency: s.contour.alpha_transparency,
        contour_show_color_bar: u8::from(s.contour.show_color_bar),
        _pad0: Default::default(),
        _pad1: Default::default(),
        _pad2: Default::default(),
    }
}

/// The core settings of `c`: `MBS_ERR_NOT_FINITE` for a NaN/inf number,
/// `MBS_ERR_INVALID_SETTING` for a color or alpha outside [0, 1] or `min > max`,
/// `MBS_ERR_INVALID_ARGUMENT` for an unknown output variable.
pub(crate) fn from_c(c: &mbs_visualization_settings) -> FfiResult<VisualizationSettings> {
    let [r, g, b, a] = c.bodies_default_color;
    if [r, g, b, a].iter().any(|x| !x.is_finite())
        || !c.contour_min_value.is_finite()
        || !c.contour_max_value.is_finite()
        || !c.contour_alpha_transparency.is_finite()
    {
        return Err(MBS_ERR_NOT_FINITE);
    }
    if [r, g, b, a].iter().any(|x| !(0.0..=1.0).contains(x))
        || !(0.0..=1.0).contains(&c.contour_alpha_transparency)
        || c.contour_min_value > c.contour_max_value
    {
        return Err(MBS_ERR_INVALID_SETTING);
    }
    let default_color = Color::new(r, g, b, a).map_err(|_| MBS_ERR_INVALID_SETTING)?;
    let output_variable = match c.contour_output_variable {
        MBS_CONTOUR_NONE => None,
        v => Some(variable(v as MbsOutputVariable)?),
    };
    Ok(VisualizationSettings {
        bodies: BodiesSettings {
            show: flag(c.bodies_show)?,
            show_numbers: flag(c.bodies_show_numbers)?,
            default_color,
        },
        contour: ContourSettings {
            output_variable,
            output_variable_component: c.contour_output_variable_component,
            rigid_bodies_colored: flag(c.contour_rigid_bodies_colored)?,
            automatic_range: flag(c.contour_automatic_range)?,
            min_value: c.contour_min_value,
            max_value: c.contour_max_value,
            alpha_transparency: c.contour_alpha_transparency,
            show_color_bar: flag(c.contour_show_color_bar)?,
        },
    })
}

fn primitive(p: &DrawPrimitive<f64>) -> mbs_draw_primitive {
    let identity = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let v = |x: &nalgebra::Vector3<f64>| [x.x, x.y, x.z];
    let (shape, p0, p1, axes, size) = match &p.shape {
        DrawShape::Cylinder {
            p0,
            p1,
            radius,
            inner_radius,
        } => (
            MBS_SHAPE_CYLINDER,
            v(p0),
            v(p1),
            identity,
            [*radius, *inner_radius, 0.0],
        ),
        DrawShape::Cuboid { center, axes, size } => {
            let mut a = [0.0; 9];
            for r in 0..3 {
                for c in 0..3 {
                    a[3 * r + c] = axes[(r, c)];
                }
            }
            (MBS_SHAPE_BOX, v(center), [0.0; 3], a, v(size))
        }
        DrawShape::Sphere { center, radius } => (
            MBS_SHAPE_SPHERE,
            v(center),
            [0.0; 3],
            identity,
            [*radius, 0.0, 0.0],
        ),
        DrawShape::Line { p0, p1 } => (MBS_SHAPE_LINE, v(p0), v(p1), identity, [0.0; 3]),
    };
    mbs_draw_primitive {
        body: p.body as u32,
        index: p.index as u32,
        shape,
        p0,
        p1,
        axes,
        size,
        color: p.color.rgba(),
        specular: p.specular,
        has_contour_value: p.contour_value.is_some(),
        contour_value: p.contour_value.unwrap_or(0.0),
        has_label: p.label.is_some(),
        label_number: p.label.map_or(0, |l| l.number as u32),
        label_position: p.label.map_or([0.0; 3], |l| v(&l.position)),
        _pad0: Default::default(),
        _pad1: Default::default(),
        _pad2: Default::default(),
    }
}

/// The scene of the system's current state with `settings`: calls `callback(ctx, p)` once per
/// primitive of every drawn body (object order, then primitive order; Exudyn's visualization rules: a body
/// is drawn if `bodies_show` and its own show; `-1` color components take
/// `bodies_default_color`; with a contour variable and `contour_rigid_bodies_colored` a body
/// with a value takes the colormap's color; `bodies_show_numbers` labels its first primitive)
/// and writes `*summary_out` (may be NULL). Works unassembled too; allocates nothing.
///
/// Every object is checked first: on error the callback was not called and `*summary_out`
/// is untouched.
///
/// Errors: `MBS_ERR_NULL_POINTER` (`sys`, `settings`, `callback`), `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, those of the settings (`MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_SETTING`, `MBS_ERR_INVALID_ARGUMENT`), `MBS_ERR_NON_FINITE_STATE`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `settings` is null or valid; `callback` is null or a
/// function that may read `*p` during the call (and must not call back into this system
/// mutably); `summary_out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_export_scene(
    sys: *const mbs_system,
    settings: *const mbs_visualization_settings,
    callback: mbs_draw_fn,
    ctx: *mut c_void,
    summary_out: *mut mbs_scene_summary,
) -> MbsStatus {
    with_ref(sys, |s| {
        // SAFETY: the caller's guarantee on `settings`.
        let settings = from_c(&unsafe { read(settings) }?)?;
        let cb = callback.ok_or(MBS_ERR_NULL_POINTER)?;
        let summary = s
            .sys
            .export_scene(&settings, |p| {
                let c = primitive(p);
                // SAFETY: the caller's callback, with its own context; `c` outlives the call.
                abort_on_unwind(|| unsafe { cb(ctx, &c) })
            })
            .map_err(status_of)?;
        if !summary_out.is_null() {
            put(summary_out, mbs_scene_summary::of(&summary));
        }
        Ok(MBS_OK)
    })
}

impl mbs_scene_summary {
    /// The C form of core's summary of an export.
    pub(crate) fn of(s: &SceneSummary<f64>) -> Self {
        Self {
            bodies_drawn: s.bodies_drawn as u32,
            primitives: s.primitives as u32,
            has_contour_range: s.contour_range.is_some(),
            contour_min: s.contour_range.map_or(0.0, |r| r.min()),
            contour_max: s.contour_range.map_or(0.0, |r| r.max()),
            _pad0: Default::default(),
        }
    }
}
