//! Reads a **run recording** (`mbs-run 1`: frames of draw primitives and time-plot samples, the
//! format of `mbs_core::graphics::record`, written by C through `mbs_system_record_frame`, by
//! Rust through `System::record_frame`, by Python through `mbsdyn`'s `System.record_frame`).

use crate::legend::ContourLegend;
use crate::stream::{contour, err, number, primitive, records};
use crate::Result;
use mbs_core::graphics::record::RUN_MAGIC;
use mbs_core::graphics::DrawPrimitive;

/// The scene at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Time (s).
    pub time: f64,
    /// The draw primitives (world frame).
    pub primitives: Vec<DrawPrimitive<f64>>,
    /// The frame's colour bar, if its bodies are contour-coloured.
    pub legend: Option<ContourLegend>,
}

/// A recorded run.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Run {
    /// The `title` record.
    pub title: Option<String>,
    /// The frames, times strictly increasing.
    pub frames: Vec<Frame>,
    /// The time-plot columns' names.
    pub signals: Vec<String>,
    /// The time-plot rows: `[t, v_1, ..., v_n]`, one value per signal.
    pub samples: Vec<Vec<f64>>,
}

/// Reads a run recording (see `mbs_core::graphics::record` for the format).
///
/// # Errors
/// `Stream { line, message }`: no or another magic record, an unknown record, a primitive or
/// colour bar outside a frame, a frame time not after the one before, a `sample` whose number
/// of values is not the number of signals declared before it, or a primitive record that
/// `mbs-scene 1` refuses.
pub fn read_run(text: &str) -> Result<Run> {
    let mut run = Run::default();
    for (line, kind, rest) in records(text, RUN_MAGIC)? {
        match kind {
            "title" => run.title = Some(rest.trim().to_string()),
            "frame" => {
                let mut w = rest.split_whitespace();
                let time = number(line, w.next())?;
                if let Some(extra) = w.next() {
                    return Err(err(line, format!("unexpected field `{extra}`")));
                }
                if run.frames.last().is_some_and(|f| f.time >= time) {
                    return Err(err(line, "frame time not after the one before"));
                }
                run.frames.push(Frame {
                    time,
                    primitives: Vec::new(),
                    legend: None,
                });
            }
            "cylinder" | "box" | "sphere" | "line" => {
                let p = primitive(line, kind, rest)?;
                frame(&mut run, line)?.primitives.push(p);
            }
            "contour" => frame(&mut run, line)?.legend = Some(contour(line, rest)?),
            "signal" => {
                if !run.samples.is_empty() {
                    return Err(err(line, "a signal declared after samples"));
                }
                run.signals.push(rest.trim().to_string());
            }
            "sample" => {
                let row = rest
                    .split_whitespace()
                    .map(|w| number(line, Some(w)))
                    .collect::<Result<Vec<f64>>>()?;
                if row.len() != run.signals.len() + 1 {
                    return Err(err(
                        line,
                        format!(
                            "{} values for a time and {} signals",
                            row.len(),
                            run.signals.len()
                        ),
                    ));
                }
                if run.samples.last().is_some_and(|r| r[0] > row[0]) {
                    return Err(err(line, "sample time before the one before"));
                }
                run.samples.push(row);
            }
            other => return Err(err(line, format!("unknown record `{other}`"))),
        }
    }
    Ok(run)
}

fn frame(run: &mut Run, line: usize) -> Result<&mut Frame> {
    run.frames
        .last_mut()
        .ok_or_else(|| err(line, "a primitive or colour bar before the first `frame`"))
}
