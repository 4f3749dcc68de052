//! A [`Scene`] (the core export's [`DrawPrimitive`]s, captured) drawn to SVG in a [`View`]:
//! orthographic, shaded, back to front, with the body numbers, the contour color bar, a world
//! axes triad and a scale bar.
//!
//! SVG structure (what the golden test checks): `<svg>` > background `<rect id="background">`,
//! `<text id="title">`, `<g id="bodies">` holding one `<g class="primitive" data-body
//! data-index data-shape>` per primitive in drawing order, `<g id="labels">` with one
//! `<text class="label">` per number, `<g id="legend">` (if contour colors are shown),
//! `<g id="axes">`, `<g id="scale">`.

use crate::legend::{legend_svg, ContourLegend, LEGEND_WIDTH};
use crate::projection::{Projector, View};
use crate::shading::shade;
use crate::svg::{escape, hex, num, open, points, rgb};
use crate::ticks::{label, nice_step};
use crate::Result;
use mbs_core::graphics::{
    export_scene, DrawPrimitive, DrawShape, Label, SceneBody, SceneSummary, VisualizationSettings,
};
use mbs_core::Real;
use nalgebra::{Matrix3, Vector3};
use std::fmt::Write;

/// A captured scene: the primitives of one export, in f64, and its color bar.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Scene {
    /// The primitives as the core exported them (world frame, final colors, labels).
    pub primitives: Vec<DrawPrimitive<f64>>,
    /// The color bar, if bodies were contour-colored and `contour.showColorBar` is set.
    pub legend: Option<ContourLegend>,
}

impl Scene {
    /// Runs the core's [`export_scene`] over `bodies` with `settings` and keeps its output.
    ///
    /// # Errors
    /// The core's refusals ([`export_scene`]).
    pub fn capture<'a, T, const N: usize, I>(
        settings: &VisualizationSettings,
        bodies: I,
    ) -> Result<Self>
    where
        T: Real + 'a,
        I: IntoIterator<Item = SceneBody<'a, T, N>>,
        I::IntoIter: Clone,
    {
        let mut primitives = Vec::new();
        let summary = export_scene(settings, bodies, |p| primitives.push(to_f64(p)))?;
        Ok(Self::from_export(primitives, &summary, settings))
    }

    /// The scene of exported `primitives` (f64) and the export's `summary` (for the color bar).
    pub fn from_export<T: Real>(
        primitives: Vec<DrawPrimitive<f64>>,
        summary: &SceneSummary<T>,
        settings: &VisualizationSettings,
    ) -> Self {
        let legend = match summary.contour_range {
            Some(r) if settings.contour.show_color_bar => Some(ContourLegend {
                min: r.min().to_f64(),
                max: r.max().to_f64(),
                title: contour_title(settings),
            }),
            _ => None,
        };
        Self { primitives, legend }
    }
}

/// `"<OutputVariable>, component k"`, or `"<OutputVariable> (norm)"` for component -1.
pub fn contour_title(settings: &VisualizationSettings) -> String {
    let c = &settings.contour;
    let var = c
        .output_variable
        .map(|v| format!("{v:?}"))
        .unwrap_or_else(|| "none".to_string());
    match c.output_variable_component {
        -1 => format!("{var} (norm)"),
        k => format!("{var}, component {k}"),
    }
}

fn v64<T: Real>(v: &Vector3<T>) -> Vector3<f64> {
    v.map(|x| x.to_f64())
}

/// `p` in f64.
pub fn to_f64<T: Real>(p: &DrawPrimitive<T>) -> DrawPrimitive<f64> {
    let shape = match p.shape {
        DrawShape::Cylinder {
            p0,
            p1,
            radius,
            inner_radius,
        } => DrawShape::Cylinder {
            p0: v64(&p0),
            p1: v64(&p1),
            radius: radius.to_f64(),
            inner_radius: inner_radius.to_f64(),
        },
        DrawShape::Cuboid { center, axes, size } => DrawShape::Cuboid {
            center: v64(&center),
            axes: axes.map(|x| x.to_f64()),
            size: v64(&size),
        },
        DrawShape::Sphere { center, radius } => DrawShape::Sphere {
            center: v64(&center),
            radius: radius.to_f64(),
        },
        DrawShape::Line { p0, p1 } => DrawShape::Line {
            p0: v64(&p0),
            p1: v64(&p1),
        },
    };
    DrawPrimitive {
        body: p.body,
        index: p.index,
        shape,
        color: p.color,
        specular: p.specular,
        contour_value: p.contour_value.map(|v| v.to_f64()),
        label: p.label.map(|l| Label {
            number: l.number,
            position: v64(&l.position),
        }),
    }
}

/// How to draw a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Image width (pixels).
    pub width: u32,
    /// Image height (pixels).
    pub height: u32,
    /// The view direction.
    pub view: View,
    /// Title line at the top (e.g. `"t = 1.00 s"`); `None` writes the view's name.
    pub title: Option<String>,
    /// Draw the world axes triad (bottom left).
    pub show_axes: bool,
    /// Draw a scale bar (bottom right).
    pub show_scale: bool,
    /// Background RGB.
    pub background: [f32; 3],
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            width: 800,
            height: 600,
            view: View::Isometric,
            title: None,
            show_axes: true,
            show_scale: true,
            background: [1.0, 1.0, 1.0],
        }
    }
}

/// The 8 corners of a box (world).
fn cuboid_corners(
    center: &Vector3<f64>,
    axes: &Matrix3<f64>,
    size: &Vector3<f64>,
) -> Vec<Vector3<f64>> {
    let mut out = Vec::with_capacity(8);
    for sx in [-0.5, 0.5] {
        for sy in [-0.5, 0.5] {
            for sz in [-0.5, 0.5] {
                out.push(
                    center
                        + axes.column(0) * (sx * size.x)
                        + axes.column(1) * (sy * size.y)
                        + axes.column(2) * (sz * size.z),
                );
            }
        }
    }
    out
}

/// The view-plane bounding box (m) of the scene, `None` if empty.
fn extents(scene: &Scene, proj: &Projector) -> Option<([f64; 2], [f64; 2])> {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    let mut add = |p: &Vector3<f64>, r: f64| {
        let v = proj.view(p);
        lo[0] = lo[0].min(v.x - r);
        lo[1] = lo[1].min(v.y - r);
        hi[0] = hi[0].max(v.x + r);
        hi[1] = hi[1].max(v.y + r);
    };
    for p in &scene.primitives {
        match &p.shape {
            DrawShape::Cylinder { p0, p1, radius, .. } => {
                add(p0, *radius);
                add(p1, *radius);
            }
            DrawShape::Sphere { center, radius } => add(center, *radius),
            DrawShape::Cuboid { center, axes, size } => {
                for c in cuboid_corners(center, axes, size) {
                    add(&c, 0.0);
                }
            }
            DrawShape::Line { p0, p1 } => {
                add(p0, 0.0);
                add(p1, 0.0);
            }
        }
        if let Some(l) = &p.label {
            add(&l.position, 0.0);
        }
    }
    if lo[0].is_finite() {
        Some((lo, hi))
    } else {
        None
    }
}

/// Depth (toward the viewer, m) of a primitive's farthest point: drawn in increasing order
/// (painter's algorithm). The farthest point, not the centre, so that a large ground plate is
/// drawn before the bodies above it (its far corner is behind them even where its centre is
/// not). Cylinder: the farther end-face centre minus the radius; box: its farthest corner.
fn depth(p: &DrawPrimitive<f64>, proj: &Projector) -> f64 {
    let d = |v: &Vector3<f64>| proj.view(v).z;
    match &p.shape {
        DrawShape::Cylinder { p0, p1, radius, .. } => d(p0).min(d(p1)) - radius,
        DrawShape::Line { p0, p1 } => d(p0).min(d(p1)),
        DrawShape::Sphere { center, radius } => d(center) - radius,
        DrawShape::Cuboid { center, axes, size } => cuboid_corners(center, axes, size)
            .iter()
            .map(d)
            .fold(f64::INFINITY, f64::min),
    }
}

fn shape_name(s: &DrawShape<f64>) -> &'static str {
    match s {
        DrawShape::Cylinder { .. } => "cylinder",
        DrawShape::Cuboid { .. } => "cuboid",
        DrawShape::Sphere { .. } => "sphere",
        DrawShape::Line { .. } => "line",
    }
}

fn opacity_attr(alpha: f32) -> String {
    if alpha < 1.0 {
        format!(
            " fill-opacity=\"{}\" stroke-opacity=\"{}\"",
            num(alpha as f64),
            num(alpha as f64)
        )
    } else {
        String::new()
    }
}

/// The resolved look of one primitive.
#[derive(Clone, Copy)]
struct Paint {
    base: [f32; 3],
    specular: f32,
    alpha: f32,
}

fn darker(c: [f32; 3], k: f32) -> [f32; 3] {
    [c[0] * k, c[1] * k, c[2] * k]
}

/// Writes one cylinder: back cap, shaded side (a gradient across it), front cap, hole.
#[allow(clippy::too_many_arguments)] // the geometry of one cylinder, kept explicit
fn cylinder_svg(
    out: &mut String,
    defs: &mut String,
    id: usize,
    proj: &Projector,
    p0: &Vector3<f64>,
    p1: &Vector3<f64>,
    radius: f64,
    inner_radius: f64,
    paint: Paint,
) {
    let Paint {
        base,
        specular,
        alpha,
    } = paint;
    let axis_v = proj.view_dir(&(p1 - p0));
    let len = axis_v.norm();
    let u = axis_v / len; // view coordinates, unit
    let a = [proj.pixel(p0), proj.pixel(p1)];
    let d = [a[1][0] - a[0][0], a[1][1] - a[0][1]];
    let dl = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let angle = if dl > 1e-9 {
        d[1].atan2(d[0]).to_degrees()
    } else {
        0.0
    };
    let r_px = radius * proj.scale;
    let rx = r_px * u.z.abs(); // along the projected axis
    let op = opacity_attr(alpha);
    // Across-the-axis direction in view coordinates and its toward-viewer companion.
    let n3 = {
        let n = Vector3::new(-u.y, u.x, 0.0);
        let l = n.norm();
        if l > 1e-9 {
            n / l
        } else {
            Vector3::new(1.0, 0.0, 0.0)
        }
    };
    let mut w3 = u.cross(&n3);
    if w3.z < 0.0 {
        w3 = -w3;
    }
    let side_dark = shade(base, &(-w3), specular);
    let (front, back, n_front) = if u.z >= 0.0 { (1, 0, u) } else { (0, 1, -u) };
    let ellipse = |c: [f64; 2], rx: f64, ry: f64, fill: [f32; 3], extra: &str| {
        format!(
            "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" transform=\"rotate({} {} {})\" \
             fill=\"{}\"{}{}/>\n",
            num(c[0]),
            num(c[1]),
            num(rx.max(0.01)),
            num(ry),
            num(angle),
            num(c[0]),
            num(c[1]),
            hex(fill),
            op,
            extra
        )
    };
    out.push_str(&ellipse(a[back], rx, r_px, side_dark, ""));
    if dl > 1e-6 {
        let np = [-d[1] / dl * r_px, d[0] / dl * r_px]; // pixel normal to the axis
        let quad = [
            [a[0][0] + np[0], a[0][1] + np[1]],
            [a[1][0] + np[0], a[1][1] + np[1]],
            [a[1][0] - np[0], a[1][1] - np[1]],
            [a[0][0] - np[0], a[0][1] - np[1]],
        ];
        // Gradient across: pixel point mid - r n3 to mid + r n3 (n3 in pixels: y flipped).
        let mid = [0.5 * (a[0][0] + a[1][0]), 0.5 * (a[0][1] + a[1][1])];
        let off = proj.pixel_offset(n3.x * radius, n3.y * radius);
        let _ = write!(
            defs,
            "<linearGradient id=\"side{id}\" gradientUnits=\"userSpaceOnUse\" x1=\"{}\" y1=\"{}\" \
             x2=\"{}\" y2=\"{}\">",
            num(mid[0] - off[0]),
            num(mid[1] - off[1]),
            num(mid[0] + off[0]),
            num(mid[1] + off[1])
        );
        for k in 0..=8 {
            let s = -1.0 + 2.0 * k as f64 / 8.0;
            let n = n3 * s + w3 * (1.0 - s * s).max(0.0).sqrt();
            let _ = write!(
                defs,
                "<stop offset=\"{}\" stop-color=\"{}\"/>",
                num((s + 1.0) / 2.0),
                hex(shade(base, &n, specular))
            );
        }
        defs.push_str("</linearGradient>\n");
        let _ = writeln!(
            out,
            "<polygon points=\"{}\" fill=\"url(#side{id})\"{}/>",
            points(&quad),
            op
        );
    }
    let cap = shade(base, &n_front, specular);
    out.push_str(&ellipse(
        a[front],
        rx,
        r_px,
        cap,
        &format!(" stroke=\"{}\" stroke-width=\"0.6\"", hex(darker(cap, 0.7))),
    ));
    if inner_radius > 0.0 {
        let ri = inner_radius * proj.scale;
        out.push_str(&ellipse(
            a[front],
            ri * u.z.abs(),
            ri,
            darker(side_dark, 0.45),
            "",
        ));
    }
}

fn sphere_svg(
    out: &mut String,
    defs: &mut String,
    id: usize,
    c: [f64; 2],
    r_px: f64,
    paint: Paint,
) {
    let Paint {
        base,
        specular,
        alpha,
    } = paint;
    // Focal point of the highlight: towards the light, in view coordinates (right, up).
    let f = [-0.3f64, 0.4];
    let fl = (f[0] * f[0] + f[1] * f[1]).sqrt();
    let _ = write!(
        defs,
        "<radialGradient id=\"ball{id}\" cx=\"0.5\" cy=\"0.5\" r=\"0.5\" fx=\"{}\" fy=\"{}\">",
        num(0.5 + 0.5 * f[0]),
        num(0.5 - 0.5 * f[1])
    );
    for k in 0..=6 {
        let t = k as f64 / 6.0;
        let o = [
            f[0] * (1.0 - t) - f[0] / fl * 0.98 * t,
            f[1] * (1.0 - t) - f[1] / fl * 0.98 * t,
        ];
        let z = (1.0 - o[0] * o[0] - o[1] * o[1]).max(0.0).sqrt();
        let n = Vector3::new(o[0], o[1], z);
        let _ = write!(
            defs,
            "<stop offset=\"{}\" stop-color=\"{}\"/>",
            num(t),
            hex(shade(base, &n, specular))
        );
    }
    defs.push_str("</radialGradient>\n");
    let _ = writeln!(
        out,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"url(#ball{id})\"{}/>",
        num(c[0]),
        num(c[1]),
        num(r_px),
        opacity_attr(alpha)
    );
}

fn cuboid_svg(
    out: &mut String,
    proj: &Projector,
    center: &Vector3<f64>,
    axes: &Matrix3<f64>,
    size: &Vector3<f64>,
    paint: Paint,
) {
    let Paint {
        base,
        specular,
        alpha,
    } = paint;
    let half = size * 0.5;
    for i in 0..3 {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        for sign in [-1.0, 1.0] {
            let n_world = axes.column(i) * sign;
            let nv = proj.view_dir(&n_world.into_owned());
            if nv.z <= 1e-9 {
                continue;
            }
            let fc = center + axes.column(i) * (sign * half[i]);
            let aj = axes.column(j) * half[j];
            let ak = axes.column(k) * half[k];
            let quad = [
                proj.pixel(&(fc + aj + ak)),
                proj.pixel(&(fc + aj - ak)),
                proj.pixel(&(fc - aj - ak)),
                proj.pixel(&(fc - aj + ak)),
            ];
            let c = shade(base, &nv, specular);
            let _ = writeln!(
                out,
                "<polygon points=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"0.7\" \
                 stroke-linejoin=\"round\"{}/>",
                points(&quad),
                hex(c),
                hex(darker(c, 0.7)),
                opacity_attr(alpha)
            );
        }
    }
}

/// The SVG text of `scene` drawn with `opts`.
pub fn scene_svg(scene: &Scene, opts: &RenderOptions) -> String {
    let (w, h) = (opts.width as f64, opts.height as f64);
    let legend_w = if scene.legend.is_some() {
        LEGEND_WIDTH
    } else {
        0.0
    };
    let rect = [
        24.0,
        48.0,
        (w - 48.0 - legend_w).max(10.0),
        (h - 48.0 - 44.0).max(10.0),
    ];
    let probe = Projector::fit(opts.view, [0.0, 0.0], [1.0, 1.0], rect);
    let (lo, hi) = extents(scene, &probe).unwrap_or(([-1.0, -1.0], [1.0, 1.0]));
    let pad = 0.04 * (hi[0] - lo[0]).max(hi[1] - lo[1]).max(1e-6);
    let proj = Projector::fit(
        opts.view,
        [lo[0] - pad, lo[1] - pad],
        [hi[0] + pad, hi[1] + pad],
        rect,
    );

    let mut order: Vec<usize> = (0..scene.primitives.len()).collect();
    order.sort_by(|&a, &b| {
        depth(&scene.primitives[a], &proj).total_cmp(&depth(&scene.primitives[b], &proj))
    });

    let mut defs = String::new();
    let mut body = String::new();
    for (n, &i) in order.iter().enumerate() {
        let p = &scene.primitives[i];
        let base = rgb(&p.color);
        let alpha = p.color.rgba()[3];
        let paint = Paint {
            base,
            specular: p.specular,
            alpha,
        };
        let _ = writeln!(
            body,
            "<g class=\"primitive\" data-body=\"{}\" data-index=\"{}\" data-shape=\"{}\">",
            p.body,
            p.index,
            shape_name(&p.shape)
        );
        match &p.shape {
            DrawShape::Cylinder {
                p0,
                p1,
                radius,
                inner_radius,
            } => cylinder_svg(
                &mut body,
                &mut defs,
                n,
                &proj,
                p0,
                p1,
                *radius,
                *inner_radius,
                paint,
            ),
            DrawShape::Sphere { center, radius } => sphere_svg(
                &mut body,
                &mut defs,
                n,
                proj.pixel(center),
                radius * proj.scale,
                paint,
            ),
            DrawShape::Cuboid { center, axes, size } => {
                cuboid_svg(&mut body, &proj, center, axes, size, paint)
            }
            DrawShape::Line { p0, p1 } => {
                let (a, b) = (proj.pixel(p0), proj.pixel(p1));
                let _ = writeln!(
                    body,
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\" \
                     stroke-linecap=\"round\"{}/>",
                    num(a[0]),
                    num(a[1]),
                    num(b[0]),
                    num(b[1]),
                    hex(base),
                    opacity_attr(alpha)
                );
            }
        }
        body.push_str("</g>\n");
    }

    let mut s = open(opts.width, opts.height);
    if !defs.is_empty() {
        let _ = write!(s, "<defs>\n{defs}</defs>\n");
    }
    let _ = writeln!(
        s,
        "<rect id=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        opts.width,
        opts.height,
        hex(opts.background)
    );
    let title = opts
        .title
        .clone()
        .unwrap_or_else(|| opts.view.name().to_string());
    let _ = writeln!(
        s,
        "<text id=\"title\" x=\"24\" y=\"30\" font-size=\"18\" fill=\"#222222\">{}</text>",
        escape(&title)
    );
    let _ = write!(s, "<g id=\"bodies\">\n{body}</g>\n");

    s.push_str("<g id=\"labels\">\n");
    for p in &scene.primitives {
        if let Some(l) = &p.label {
            let q = proj.pixel(&l.position);
            let _ = writeln!(
                s,
                "<text class=\"label\" x=\"{}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" \
                 fill=\"#111111\" stroke=\"#ffffff\" stroke-width=\"3\" paint-order=\"stroke\">{}</text>",
                num(q[0] + 6.0),
                num(q[1] - 6.0),
                l.number
            );
        }
    }
    s.push_str("</g>\n");

    if let Some(l) = &scene.legend {
        s.push_str(&legend_svg(l, w - legend_w, 48.0, h - 48.0 - 44.0));
    }
    if opts.show_axes {
        axes_svg(&mut s, &proj, [44.0, h - 40.0]);
    }
    if opts.show_scale {
        scale_svg(&mut s, &proj, rect);
    }
    s.push_str("</svg>\n");
    s
}

/// The world axes triad: x red, y green, z blue, 28 px long.
fn axes_svg(s: &mut String, proj: &Projector, o: [f64; 2]) {
    s.push_str("<g id=\"axes\">\n");
    let axes = [
        ("x", Vector3::x(), "#d62728"),
        ("y", Vector3::y(), "#2ca02c"),
        ("z", Vector3::z(), "#1f77b4"),
    ];
    for (name, e, color) in axes {
        let v = proj.view_dir(&e);
        if v.x.hypot(v.y) < 0.2 {
            // Along the view direction: a circle, with a dot if it points at the viewer.
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\"/>",
                num(o[0]),
                num(o[1])
            );
            if v.z > 0.0 {
                let _ = writeln!(
                    s,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"1.6\" fill=\"{color}\"/>",
                    num(o[0]),
                    num(o[1])
                );
            }
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"{color}\">{name}</text>",
                num(o[0] - 18.0),
                num(o[1] - 6.0)
            );
            continue;
        }
        let end = [o[0] + 28.0 * v.x, o[1] - 28.0 * v.y];
        let _ = writeln!(
            s,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{color}\" stroke-width=\"2\" \
             stroke-linecap=\"round\"/>",
            num(o[0]),
            num(o[1]),
            num(end[0]),
            num(end[1])
        );
        let t = [o[0] + 38.0 * v.x - 4.0, o[1] - 38.0 * v.y + 5.0];
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"{color}\">{name}</text>",
            num(t[0]),
            num(t[1])
        );
    }
    s.push_str("</g>\n");
}

/// A scale bar of a 1-2-5 length about a fifth of the drawing width, bottom right.
fn scale_svg(s: &mut String, proj: &Projector, rect: [f64; 4]) {
    let metres = nice_step(rect[2] / proj.scale / 5.0);
    let px = metres * proj.scale;
    let x1 = rect[0] + rect[2];
    let x0 = x1 - px;
    let y = rect[1] + rect[3] + 26.0;
    let _ = writeln!(
        s,
        "<g id=\"scale\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\" \
         stroke-width=\"2\"/><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\" \
         stroke-width=\"2\"/><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\" \
         stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\" \
         fill=\"#333333\">{} m</text></g>",
        num(x0),
        num(y),
        num(x1),
        num(y),
        num(x0),
        num(y - 5.0),
        num(x0),
        num(y + 5.0),
        num(x1),
        num(y - 5.0),
        num(x1),
        num(y + 5.0),
        num(0.5 * (x0 + x1)),
        num(y - 8.0),
        label(metres, 3)
    );
}
