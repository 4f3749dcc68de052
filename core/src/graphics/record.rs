//! The **run recording**: a run as text, written while it runs, for `mbs-view page` (an animated
//! 3D page with time plots) and `mbs-view render`. Allocation-free: every record goes to a
//! [`core::fmt::Write`] sink, so a firmware can stream it over a serial line and a C program
//! through `mbs_system_record_frame`'s callback.
//!
//! # Format (`mbs-run 1`)
//! UTF-8 text, one record per line, fields separated by spaces. Blank lines and lines starting
//! with `#` are ignored. Numbers as Rust's `{:?}` or C's `%.17g` write them (`inf`/`nan` are
//! refused). Lengths in m, times in s, world frame.
//!
//! ```text
//! mbs-run 1                      first record: magic and version
//! title <text>                   optional: the run's title
//! frame <t>                      a frame: the scene at time t (strictly increasing times);
//! <primitive records>            the frame's draw primitives, each as `mbs-scene 1` writes it
//! contour <min> <max> <text>     optional, within a frame: its colour bar
//! signal <name>                  a time-plot column: its name to the end of the line
//! sample <t> <v_1> ... <v_n>     a time-plot row: one value per signal declared before it
//! ```
//!
//! A primitive record (the same as the `mbs-scene 1` stream of `mbs-view render`):
//! `<kind> <body> <index> <geometry...> <r> <g> <b> <a> <specular> <value> <label>` with, by
//! kind, `cylinder p0 p1 radius inner_radius`, `box centre R_0b (row-major) size`,
//! `sphere centre radius`, `line p0 p1`; the colour (components in [0, 1]), the specular
//! coefficient, the contour value or `-`, and `-` or `<number> <x> <y> <z>` (the body number
//! and where to write it).

use super::scene::{DrawPrimitive, DrawShape, SceneSummary};
use super::settings::VisualizationSettings;
use crate::{Error, Real};
use core::fmt::{self, Write};
use nalgebra::Vector3;

/// The first record of a run recording.
pub const RUN_MAGIC: &str = "mbs-run 1";

fn v3<T: Real, W: Write>(w: &mut W, v: &Vector3<T>) -> fmt::Result {
    write!(w, " {:?} {:?} {:?}", v.x, v.y, v.z)
}

/// Writes one primitive record and its line break.
pub fn write_primitive<T: Real, W: Write>(w: &mut W, p: &DrawPrimitive<T>) -> fmt::Result {
    match &p.shape {
        DrawShape::Cylinder {
            p0,
            p1,
            radius,
            inner_radius,
        } => {
            write!(w, "cylinder {} {}", p.body, p.index)?;
            v3(w, p0)?;
            v3(w, p1)?;
            write!(w, " {radius:?} {inner_radius:?}")?;
        }
        DrawShape::Cuboid { center, axes, size } => {
            write!(w, "box {} {}", p.body, p.index)?;
            v3(w, center)?;
            for r in 0..3 {
                for c in 0..3 {
                    write!(w, " {:?}", axes[(r, c)])?;
                }
            }
            v3(w, size)?;
        }
        DrawShape::Sphere { center, radius } => {
            write!(w, "sphere {} {}", p.body, p.index)?;
            v3(w, center)?;
            write!(w, " {radius:?}")?;
        }
        DrawShape::Line { p0, p1 } => {
            write!(w, "line {} {}", p.body, p.index)?;
            v3(w, p0)?;
            v3(w, p1)?;
        }
    }
    let [r, g, b, a] = p.color.rgba();
    write!(w, " {r:?} {g:?} {b:?} {a:?} {:?}", p.specular)?;
    match &p.contour_value {
        Some(v) => write!(w, " {v:?}")?,
        None => w.write_str(" -")?,
    }
    match &p.label {
        Some(l) => {
            write!(w, " {}", l.number)?;
            v3(w, &l.position)?;
        }
        None => w.write_str(" -")?,
    }
    w.write_char('\n')
}

/// Writes the magic record and, if given, the title (line breaks in it become spaces).
pub fn write_run_header<W: Write>(w: &mut W, title: Option<&str>) -> fmt::Result {
    writeln!(w, "{RUN_MAGIC}")?;
    if let Some(t) = title {
        w.write_str("title ")?;
        for c in t.chars() {
            w.write_char(if c == '\n' || c == '\r' { ' ' } else { c })?;
        }
        w.write_char('\n')?;
    }
    Ok(())
}

/// Why a frame was not recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The scene export failed (an invalid state or contour value): nothing was written.
    Scene(Error),
    /// The sink refused the text (what it holds of the frame is incomplete).
    Write,
}

impl From<fmt::Error> for RecordError {
    fn from(_: fmt::Error) -> Self {
        Self::Write
    }
}

/// Writes one frame: `frame <t>`, every primitive `export` hands over (a scene export of the
/// state at `t`, which returns its summary), then the colour bar if the summary has a contour
/// range (named by the settings' contour variable and component). An export that fails before
/// its first primitive (as `System::export_scene` does) leaves nothing written.
pub fn write_frame<T, W, X>(
    w: &mut W,
    t: T,
    settings: &VisualizationSettings,
    export: X,
) -> Result<SceneSummary<T>, RecordError>
where
    T: Real,
    W: Write,
    X: FnOnce(&mut dyn FnMut(&DrawPrimitive<T>)) -> crate::Result<SceneSummary<T>>,
{
    let mut written: fmt::Result = Ok(());
    let mut started = false;
    let summary = export(&mut |p| {
        if !started {
            started = true;
            written = writeln!(w, "frame {t:?}");
        }
        if written.is_ok() {
            written = write_primitive(w, p);
        }
    })
    .map_err(RecordError::Scene)?;
    written?;
    if !started {
        writeln!(w, "frame {t:?}")?;
    }
    if let (Some(r), Some(var)) = (&summary.contour_range, settings.contour.output_variable) {
        write!(w, "contour {:?} {:?} {var:?}", r.min(), r.max())?;
        match settings.contour.output_variable_component {
            -1 => writeln!(w, " (norm)")?,
            k => writeln!(w, " [{k}]")?,
        }
    }
    Ok(summary)
}
