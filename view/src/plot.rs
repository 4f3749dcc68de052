//! Time plots of a [`Trajectory`] to SVG: a framed plot area with 1-2-5 ticks and a grid,
//! labelled axes, one polyline per column (a gap at each non-finite value) and a legend.
//!
//! SVG structure: `<g id="plot-area">` (frame, grid), `<g id="x-axis">`, `<g id="y-axis">`
//! (ticks, labels, axis title), `<g id="series">` with one `<polyline class="series"
//! data-column>` per continuous run, `<g id="plot-legend">` with one entry per column.

use crate::svg::{escape, num, open, points};
use crate::ticks::{label, nice_ticks};
use crate::trajectory::Trajectory;
use std::fmt::Write;

/// Line colors, one per column in turn (the "tab10" palette).
pub const PALETTE: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// How to draw a plot.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotOptions {
    /// Image width (pixels).
    pub width: u32,
    /// Image height (pixels).
    pub height: u32,
    /// Title above the plot.
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// The columns to draw (indices); `None` draws all.
    pub columns: Option<Vec<usize>>,
}

impl Default for PlotOptions {
    fn default() -> Self {
        Self {
            width: 800,
            height: 450,
            title: "sensor outputs".into(),
            x_label: "time (s)".into(),
            y_label: "value".into(),
            columns: None,
        }
    }
}

/// The SVG text of the time plot of `traj`.
pub fn plot_svg(traj: &Trajectory, opts: &PlotOptions) -> String {
    let (w, h) = (opts.width as f64, opts.height as f64);
    let cols: Vec<usize> = opts
        .columns
        .clone()
        .unwrap_or_else(|| (0..traj.names().len()).collect())
        .into_iter()
        .filter(|c| *c < traj.names().len())
        .collect();
    // Plot area: room for the y labels at the left, the x labels below, the legend right.
    let longest = cols
        .iter()
        .map(|c| traj.names()[*c].chars().count())
        .max()
        .unwrap_or(0) as f64;
    let lw = if cols.is_empty() {
        0.0
    } else {
        44.0 + 7.0 * longest
    };
    let (x0, y0) = (78.0, 44.0);
    let (pw, ph) = ((w - x0 - 24.0 - lw).max(10.0), (h - y0 - 58.0).max(10.0));

    let t = traj.time();
    let (t_lo, t_hi) = match (t.first(), t.last()) {
        (Some(a), Some(b)) if b > a => (*a, *b),
        (Some(a), _) => (*a, *a + 1.0),
        _ => (0.0, 1.0),
    };
    let mut v_lo = f64::INFINITY;
    let mut v_hi = f64::NEG_INFINITY;
    for &c in &cols {
        for v in traj.column(c).unwrap_or(&[]) {
            if v.is_finite() {
                v_lo = v_lo.min(*v);
                v_hi = v_hi.max(*v);
            }
        }
    }
    if !v_lo.is_finite() {
        (v_lo, v_hi) = (-1.0, 1.0);
    }
    if v_hi - v_lo < 1e-12 * (1.0 + v_lo.abs()) {
        let d = 0.5 * (1.0 + v_lo.abs());
        (v_lo, v_hi) = (v_lo - d, v_hi + d);
    }
    let margin = 0.05 * (v_hi - v_lo);
    let (v_lo, v_hi) = (v_lo - margin, v_hi + margin);
    let px = |tt: f64| x0 + (tt - t_lo) / (t_hi - t_lo) * pw;
    let py = |v: f64| y0 + ph - (v - v_lo) / (v_hi - v_lo) * ph;

    let mut s = open(opts.width, opts.height);
    let _ = writeln!(
        s,
        "<rect id=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        opts.width, opts.height
    );
    let _ = writeln!(
        s,
        "<text id=\"title\" x=\"{}\" y=\"28\" font-size=\"17\" text-anchor=\"middle\" fill=\"#222222\">{}</text>",
        num(x0 + pw / 2.0),
        escape(&opts.title)
    );
    s.push_str("<g id=\"plot-area\">\n");
    let xt = nice_ticks(t_lo, t_hi, 8);
    let yt = nice_ticks(v_lo, v_hi, 6);
    for tt in &xt {
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#e4e4e4\"/>",
            num(px(*tt)),
            num(y0),
            num(y0 + ph)
        );
    }
    for v in &yt {
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" stroke=\"#e4e4e4\"/>",
            num(py(*v)),
            num(x0),
            num(x0 + pw)
        );
    }
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333333\"/>",
        num(x0),
        num(y0),
        num(pw),
        num(ph)
    );
    s.push_str("</g>\n<g id=\"x-axis\">\n");
    for tt in &xt {
        let x = px(*tt);
        let _ = writeln!(
            s,
            "<line class=\"tick\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333333\"/>\
             <text class=\"tick-label\" x=\"{0}\" y=\"{3}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#222222\">{4}</text>",
            num(x),
            num(y0 + ph),
            num(y0 + ph + 5.0),
            num(y0 + ph + 19.0),
            label(*tt, 4)
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis-title\" x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\" fill=\"#222222\">{}</text>",
        num(x0 + pw / 2.0),
        num(y0 + ph + 42.0),
        escape(&opts.x_label)
    );
    s.push_str("</g>\n<g id=\"y-axis\">\n");
    for v in &yt {
        let y = py(*v);
        let _ = writeln!(
            s,
            "<line class=\"tick\" x1=\"{1}\" y1=\"{0}\" x2=\"{2}\" y2=\"{0}\" stroke=\"#333333\"/>\
             <text class=\"tick-label\" x=\"{3}\" y=\"{4}\" font-size=\"12\" text-anchor=\"end\" fill=\"#222222\">{5}</text>",
            num(y),
            num(x0 - 5.0),
            num(x0),
            num(x0 - 8.0),
            num(y + 4.0),
            label(*v, 4)
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis-title\" x=\"18\" y=\"{0}\" font-size=\"14\" text-anchor=\"middle\" \
         transform=\"rotate(-90 18 {0})\" fill=\"#222222\">{1}</text>",
        num(y0 + ph / 2.0),
        escape(&opts.y_label)
    );
    s.push_str("</g>\n<g id=\"series\">\n");
    for (k, &c) in cols.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let mut run: Vec<[f64; 2]> = Vec::new();
        let flush = |run: &mut Vec<[f64; 2]>, s: &mut String| {
            if run.len() >= 2 {
                let _ = writeln!(
                    s,
                    "<polyline class=\"series\" data-column=\"{c}\" points=\"{}\" fill=\"none\" \
                     stroke=\"{color}\" stroke-width=\"2\" stroke-linejoin=\"round\"/>",
                    points(run)
                );
            } else if let Some(p) = run.first() {
                let _ = writeln!(
                    s,
                    "<circle class=\"series\" data-column=\"{c}\" cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"{color}\"/>",
                    num(p[0]),
                    num(p[1])
                );
            }
            run.clear();
        };
        for (tt, v) in t.iter().zip(traj.column(c).unwrap_or(&[])) {
            if v.is_finite() {
                run.push([px(*tt), py(*v)]);
            } else {
                flush(&mut run, &mut s);
            }
        }
        flush(&mut run, &mut s);
    }
    s.push_str("</g>\n<g id=\"plot-legend\">\n");
    let lx = x0 + pw + 12.0;
    let ly = y0;
    let lw = lw - 4.0;
    if !cols.is_empty() {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"#bbbbbb\"/>",
            num(lx),
            num(ly),
            num(lw),
            num(10.0 + 18.0 * cols.len() as f64)
        );
    }
    for (k, &c) in cols.iter().enumerate() {
        let y = ly + 14.0 + 18.0 * k as f64;
        let _ = writeln!(
            s,
            "<g class=\"legend-entry\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#222222\">{}</text></g>",
            num(lx + 8.0),
            num(y),
            num(lx + 30.0),
            num(y),
            PALETTE[k % PALETTE.len()],
            num(lx + 36.0),
            num(y + 4.0),
            escape(&traj.names()[c])
        );
    }
    s.push_str("</g>\n</svg>\n");
    s
}
