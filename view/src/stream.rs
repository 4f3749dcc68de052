//! The **primitive stream**: a scene as text, one draw primitive per line, so any program (a C
//! program through `mbs_system_export_scene`'s callback, a firmware over a serial line) can write
//! its scene to a file and `mbs-view render <scene.txt>` draws it.
//!
//! # Format (version 1)
//! UTF-8 text, one record per line, fields separated by spaces or tabs. Blank lines and lines
//! starting with `#` are ignored. Numbers are decimal floating point as C's `%.17g` or Rust's
//! `{:?}` write them (`0.1`, `-2.5e-07`; `inf`/`nan` are refused). Lengths in m, world frame.
//!
//! ```text
//! mbs-scene 1                                   first record: magic and version
//! title <text to the end of the line>           optional: the picture's title
//! contour <min> <max> <text to the end>         optional: the color bar (range, what it shows)
//! <kind> <body> <index> <geometry...> <r> <g> <b> <a> <specular> <value> <label>
//! ```
//!
//! `body` is the object number, `index` the primitive's index in its graphics data. The
//! geometry, by `kind` (world frame):
//!
//! | kind | geometry fields |
//! |---|---|
//! | `cylinder` | `p0x p0y p0z p1x p1y p1z radius inner_radius` (end-face centres, radii; inner 0 = solid) |
//! | `box` | `cx cy cz R00 R01 R02 R10 R11 R12 R20 R21 R22 sx sy sz` (centre, the box axes `R_0b` row-major: column k is the box's k-th edge direction, edge lengths) |
//! | `sphere` | `cx cy cz radius` |
//! | `line` | `p0x p0y p0z p1x p1y p1z` |
//!
//! Then the final color `r g b a` (each in `[0, 1]`, defaults and contours already resolved),
//! the specular coefficient (>= 0), the contour `value` or `-` (the body's value if the color came
//! from the contour map), and the `label`: `-`, or `<number> <x> <y> <z>` (write this body
//! number at that point) — the body's first primitive carries it when `bodies.showNumbers`.
//!
//! Example:
//! ```text
//! mbs-scene 1
//! title t = 1 s
//! sphere 1 0 1.5 2 0 0.05 0.3 0.3 1 1 0.7 - 1 1.5 2 0
//! ```

use crate::legend::ContourLegend;
use crate::scene_svg::Scene;
use crate::{Result, ViewError};
use mbs_core::graphics::record::write_primitive;
use mbs_core::graphics::{Color, DrawPrimitive, DrawShape, Label, Shape};
use nalgebra::{Matrix3, Vector3};
use std::fmt::Write as _;

/// The first record of a stream.
pub const MAGIC: &str = "mbs-scene 1";

/// A scene read from a stream: its primitives and color bar, and the title if given.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct StreamScene {
    /// The scene.
    pub scene: Scene,
    /// The `title` record.
    pub title: Option<String>,
}

/// One primitive as a record (no line break): core's
/// [`write_primitive`](mbs_core::graphics::record::write_primitive), the writer of C, Rust and
/// firmware streams alike.
pub fn primitive_line(p: &DrawPrimitive<f64>) -> String {
    let mut s = String::new();
    let _ = write_primitive(&mut s, p);
    s.pop();
    s
}

/// The whole stream of `scene` (magic, title, color bar, one record per primitive).
pub fn write_stream(scene: &Scene, title: Option<&str>) -> String {
    let mut s = String::from(MAGIC);
    s.push('\n');
    if let Some(t) = title {
        let _ = writeln!(s, "title {}", one_line(t));
    }
    if let Some(l) = &scene.legend {
        let _ = writeln!(s, "contour {:?} {:?} {}", l.min, l.max, one_line(&l.title));
    }
    for p in &scene.primitives {
        s.push_str(&primitive_line(p));
        s.push('\n');
    }
    s
}

fn one_line(t: &str) -> String {
    t.replace(['\n', '\r'], " ")
}

pub(crate) fn err(line: usize, msg: impl Into<String>) -> ViewError {
    ViewError::Stream {
        line,
        message: msg.into(),
    }
}

/// Reads a stream (see the module docs).
///
/// # Errors
/// `Stream { line, message }` for a missing or wrong magic record, an unknown record, a wrong
/// number of fields, a number that does not parse or is not finite, a color component outside
/// `[0, 1]`, or a shape that is not valid (radius <= 0, inner radius >= radius, edge <= 0,
/// cylinder of zero length).
pub fn read_stream(text: &str) -> Result<StreamScene> {
    let mut out = StreamScene::default();
    for (line, kind, rest) in records(text, MAGIC)? {
        match kind {
            "title" => out.title = Some(rest.trim().to_string()),
            "contour" => out.scene.legend = Some(contour(line, rest)?),
            "cylinder" | "box" | "sphere" | "line" => {
                out.scene.primitives.push(primitive(line, kind, rest)?);
            }
            other => return Err(err(line, format!("unknown record `{other}`"))),
        }
    }
    Ok(out)
}

/// The records of a text format of this crate: `(line, kind, rest)` for each line after the
/// first record, which must be `magic` (lines are 1-based; blank lines and `#` comments are
/// skipped; `kind` is the first word, `rest` what follows it).
///
/// # Errors
/// `Stream` at the first record if it is not `magic`, at line 0 if there is no record.
pub(crate) fn records<'a>(text: &'a str, magic: &str) -> Result<Vec<(usize, &'a str, &'a str)>> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(k, raw)| (k + 1, raw.trim()))
        .filter(|(_, t)| !t.is_empty() && !t.starts_with('#'));
    match lines.next() {
        None => return Err(err(0, format!("empty (no `{magic}`)"))),
        Some((line, t)) if !t.split_whitespace().eq(magic.split(' ')) => {
            return Err(err(line, format!("expected `{magic}`, found `{t}`")));
        }
        Some(_) => {}
    }
    Ok(lines
        .map(|(line, t)| {
            let (kind, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
            (line, kind, rest)
        })
        .collect())
}

/// A `contour <min> <max> <title>` record's fields (`rest`): the colour bar.
pub(crate) fn contour(line: usize, rest: &str) -> Result<ContourLegend> {
    let mut w = rest.split_whitespace();
    let min = number(line, w.next())?;
    let max = number(line, w.next())?;
    if min > max {
        return Err(err(line, "contour min > max"));
    }
    let title = w.collect::<Vec<_>>().join(" ");
    Ok(ContourLegend { min, max, title })
}

pub(crate) fn number(line: usize, w: Option<&str>) -> Result<f64> {
    let w = w.ok_or_else(|| err(line, "too few fields"))?;
    let x: f64 = w
        .parse()
        .map_err(|_| err(line, format!("`{w}` is not a number")))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(err(line, format!("`{w}` is not finite")))
    }
}

fn integer(line: usize, w: Option<&str>) -> Result<usize> {
    let w = w.ok_or_else(|| err(line, "too few fields"))?;
    w.parse()
        .map_err(|_| err(line, format!("`{w}` is not a non-negative integer")))
}

pub(crate) fn primitive(line: usize, kind: &str, rest: &str) -> Result<DrawPrimitive<f64>> {
    let mut w = rest.split_whitespace();
    let body = integer(line, w.next())?;
    let index = integer(line, w.next())?;
    let vec3 = |w: &mut std::str::SplitWhitespace<'_>| -> Result<Vector3<f64>> {
        Ok(Vector3::new(
            number(line, w.next())?,
            number(line, w.next())?,
            number(line, w.next())?,
        ))
    };
    // Each shape is checked as a body-frame shape at the identity pose (same rules).
    let (shape, check) = match kind {
        "cylinder" => {
            let p0 = vec3(&mut w)?;
            let p1 = vec3(&mut w)?;
            let radius = number(line, w.next())?;
            let inner_radius = number(line, w.next())?;
            (
                DrawShape::Cylinder {
                    p0,
                    p1,
                    radius,
                    inner_radius,
                },
                Shape::Cylinder {
                    p0,
                    p1,
                    radius,
                    inner_radius,
                },
            )
        }
        "box" => {
            let center = vec3(&mut w)?;
            let mut axes = Matrix3::zeros();
            for r in 0..3 {
                for c in 0..3 {
                    axes[(r, c)] = number(line, w.next())?;
                }
            }
            let size = vec3(&mut w)?;
            (
                DrawShape::Cuboid { center, axes, size },
                Shape::Cuboid { center, size },
            )
        }
        "sphere" => {
            let center = vec3(&mut w)?;
            let radius = number(line, w.next())?;
            (
                DrawShape::Sphere { center, radius },
                Shape::Sphere { center, radius },
            )
        }
        _ => {
            let p0 = vec3(&mut w)?;
            let p1 = vec3(&mut w)?;
            (DrawShape::Line { p0, p1 }, Shape::Line { p0, p1 })
        }
    };
    check
        .validate()
        .map_err(|e| err(line, format!("invalid {kind}: {e}")))?;
    let mut c = [0f32; 4];
    for x in &mut c {
        let v = number(line, w.next())?;
        if !(0.0..=1.0).contains(&v) {
            return Err(err(line, format!("color component {v} outside [0, 1]")));
        }
        *x = v as f32;
    }
    let color = Color::new(c[0], c[1], c[2], c[3]).map_err(|e| err(line, format!("color: {e}")))?;
    let specular = number(line, w.next())?;
    if specular < 0.0 {
        return Err(err(line, "negative specular coefficient"));
    }
    let contour_value = match w.next() {
        Some("-") => None,
        other => Some(number(line, other)?),
    };
    let label = match w.next() {
        Some("-") => None,
        other => {
            let number = integer(line, other)?;
            Some(Label {
                number,
                position: vec3(&mut w)?,
            })
        }
    };
    if let Some(extra) = w.next() {
        return Err(err(line, format!("unexpected field `{extra}`")));
    }
    Ok(DrawPrimitive {
        body,
        index,
        shape,
        color,
        specular: specular as f32,
        contour_value,
        label,
    })
}
