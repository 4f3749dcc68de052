//! The **page** of a run: one self-contained HTML file (no server, opens from disk, works
//! offline) that plays a recorded run in 3D (three.js, orbit camera, play/pause, time slider,
//! speed, body numbers, contour colours and colour bar) beside its time plots (uPlot, with a
//! cursor at the frame's time and a readout of the values there).
//!
//! The viewer is `web/src/viewer.js`, bundled with three.js and uPlot from the npm registry
//! into `web/dist/viewer.js` (`npm run build` in `view/web`; their licences in
//! `web/dist/LICENSES.txt`, copied into the page). This module turns a [`Run`] into the JSON
//! the viewer reads: per frame and shape an affine map from a unit shape to the world, a
//! colour and a label position (binary arrays in base64, f32 and u8).

use crate::run::Run;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use mbs_core::graphics::colormap::KNOTS;
use mbs_core::graphics::{DrawPrimitive, DrawShape};
use nalgebra::{Matrix3, Vector3};
use serde_json::json;

const TEMPLATE: &str = include_str!("page.html");
const VIEWER_JS: &str = include_str!("../web/dist/viewer.js");
const VIEWER_CSS: &str = include_str!("../web/dist/viewer.css");
const LICENSES: &str = include_str!("../web/dist/LICENSES.txt");

/// How the page's camera looks at the run at first (the orbit camera moves it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageOptions {
    /// The world direction that is up on the screen.
    pub up: [f64; 3],
    /// The direction from the centre of the run to the camera (world).
    pub view_direction: [f64; 3],
}

impl Default for PageOptions {
    fn default() -> Self {
        Self {
            up: [0.0, 1.0, 0.0],
            view_direction: [1.0, 0.8, 1.4],
        }
    }
}

/// A shape of the page: a primitive of a body, the same in every frame it is drawn in.
#[derive(Clone, Debug, PartialEq)]
struct Shape {
    kind: &'static str,
    body: usize,
    index: usize,
    label: Option<usize>,
    inner: f64,
}

fn kind(p: &DrawPrimitive<f64>) -> &'static str {
    match p.shape {
        DrawShape::Cylinder { .. } => "cylinder",
        DrawShape::Cuboid { .. } => "box",
        DrawShape::Sphere { .. } => "sphere",
        DrawShape::Line { .. } => "line",
    }
}

/// A unit vector normal to the unit vector `u`.
fn normal_to(u: &Vector3<f64>) -> Vector3<f64> {
    let t = if u.x.abs() < 0.9 {
        Vector3::x()
    } else {
        Vector3::y()
    };
    u.cross(&t).normalize()
}

/// The affine map `x -> A x + t` from the viewer's unit shape to the primitive (world): the
/// columns of `A` and `t`. Unit shapes: cylinder of radius 1 along y from -1/2 to 1/2, cube of
/// edge 1, sphere of radius 1 (all centred at the origin), line from the origin to `y`.
fn pose(p: &DrawPrimitive<f64>) -> (Matrix3<f64>, Vector3<f64>) {
    match &p.shape {
        DrawShape::Cylinder { p0, p1, radius, .. } => {
            let axis = p1 - p0;
            let u = axis.normalize();
            let e1 = normal_to(&u);
            // (e1, u, e1 x u) is right-handed, as the unit cylinder's (x, y, z).
            let e2 = e1.cross(&u);
            let a = Matrix3::from_columns(&[e1 * *radius, axis, e2 * *radius]);
            (a, (p0 + p1) / 2.0)
        }
        DrawShape::Cuboid { center, axes, size } => {
            let a = Matrix3::from_columns(&[
                axes.column(0) * size.x,
                axes.column(1) * size.y,
                axes.column(2) * size.z,
            ]);
            (a, *center)
        }
        DrawShape::Sphere { center, radius } => (Matrix3::identity() * *radius, *center),
        DrawShape::Line { p0, p1 } => {
            let axis = p1 - p0;
            let n = if axis.norm() > 0.0 {
                normal_to(&axis.normalize())
            } else {
                Vector3::x()
            };
            (Matrix3::from_columns(&[n, axis, axis.cross(&n)]), *p0)
        }
    }
}

/// The page of `run` (a whole HTML document).
pub fn page_html(run: &Run, options: &PageOptions) -> String {
    // Shapes in the order they first appear, keyed by (kind, body, index).
    let mut shapes: Vec<Shape> = Vec::new();
    let mut slot = std::collections::HashMap::new();
    for f in &run.frames {
        for p in &f.primitives {
            let key = (kind(p), p.body, p.index);
            let k = *slot.entry(key).or_insert_with(|| {
                let inner = match p.shape {
                    DrawShape::Cylinder {
                        radius,
                        inner_radius,
                        ..
                    } => inner_radius / radius,
                    _ => 0.0,
                };
                shapes.push(Shape {
                    kind: key.0,
                    body: p.body,
                    index: p.index,
                    label: None,
                    inner,
                });
                shapes.len() - 1
            });
            if let Some(l) = &p.label {
                shapes[k].label = Some(l.number);
            }
        }
    }
    let (nf, ns) = (run.frames.len(), shapes.len());
    let mut poses = vec![0f32; nf * ns * 12];
    let mut colors = vec![0u8; nf * ns * 4];
    let mut labels = vec![0f32; nf * ns * 3];
    for (fi, f) in run.frames.iter().enumerate() {
        for p in &f.primitives {
            let k = slot[&(kind(p), p.body, p.index)];
            let at = fi * ns + k;
            let (a, t) = pose(p);
            for (j, x) in a.iter().chain(t.iter()).enumerate() {
                poses[12 * at + j] = *x as f32;
            }
            for (j, c) in p.color.rgba().iter().enumerate() {
                // Alpha 0 marks "not drawn"; a drawn primitive keeps at least 1/255.
                let v = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
                colors[4 * at + j] = if j == 3 { v.max(1) } else { v };
            }
            if let Some(l) = &p.label {
                for j in 0..3 {
                    labels[3 * at + j] = l.position[j] as f32;
                }
            }
        }
    }
    let f32s =
        |v: &[f32]| STANDARD.encode(v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    let legend = |f: &crate::run::Frame| {
        f.legend
            .as_ref()
            .map(|l| json!({"min": l.min, "max": l.max, "title": l.title}))
    };
    let contour: Vec<_> = run.frames.iter().map(legend).collect();
    let signals = (!run.signals.is_empty()).then(|| {
        json!({
            "names": run.signals,
            "t": run.samples.iter().map(|r| r[0]).collect::<Vec<_>>(),
            "values": (1..=run.signals.len())
                .map(|j| run.samples.iter().map(|r| r[j]).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
        })
    });
    let data = json!({
        "version": 1,
        "title": run.title,
        "times": run.frames.iter().map(|f| f.time).collect::<Vec<_>>(),
        "shapes": shapes.iter().map(|s| json!({
            "kind": s.kind, "body": s.body, "index": s.index, "label": s.label, "inner": s.inner,
        })).collect::<Vec<_>>(),
        "poses": f32s(&poses),
        "colors": STANDARD.encode(&colors),
        "labels": f32s(&labels),
        "contour": contour,
        "colormap": KNOTS.iter().map(|(v, c)| json!([v, c])).collect::<Vec<_>>(),
        "signals": signals,
        "up": options.up,
        "view_direction": options.view_direction,
    });
    // `</` may not appear inside a script element: JSON and JavaScript both read `<\/` as `</`.
    let script_safe = |s: &str| s.replace("</", "<\\/");
    let title = run.title.clone().unwrap_or_else(|| "mbs run".to_string());
    TEMPLATE
        .replace("{{LICENSES}}", &LICENSES.replace("--", "- -"))
        .replace("{{TITLE}}", &html_escape(&title))
        .replace("{{CSS}}", VIEWER_CSS)
        .replace("{{DATA}}", &script_safe(&data.to_string()))
        .replace("{{JS}}", &script_safe(VIEWER_JS))
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
