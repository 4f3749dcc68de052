//! The contour color bar: a vertical bar with the core's colormap (its knots as gradient stops,
//! so the bar is exactly the map), min at the bottom, max at the top, five labelled ticks.

use crate::svg::{escape, hex, num};
use crate::ticks::label;
use mbs_core::graphics::colormap::KNOTS;
use std::fmt::Write;

/// The contour color bar of a scene: the range and what it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ContourLegend {
    /// Value at the bottom (blue) of the bar.
    pub min: f64,
    /// Value at the top (red) of the bar.
    pub max: f64,
    /// What the colors show, e.g. `"AngularVelocity (norm)"`.
    pub title: String,
}

/// Width (pixels) the legend takes at the right of a scene picture.
pub const LEGEND_WIDTH: f64 = 150.0;

/// Significant digits of the tick labels (Exudyn's `colorBarPrecision = 4`).
pub const PRECISION: usize = 4;

/// The `<g id="legend">` of `l`, in the column starting at pixel `x`, from `y` over `height`.
pub fn legend_svg(l: &ContourLegend, x: f64, y: f64, height: f64) -> String {
    let bar_x = x + 16.0;
    let bar_w = 22.0;
    let bar_y = y + 30.0;
    let bar_h = (height - 50.0).clamp(40.0, 360.0);
    let mut s = String::from("<g id=\"legend\">\n");
    s.push_str("<defs><linearGradient id=\"colorbar\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">");
    for (v, c) in KNOTS {
        let _ = write!(
            s,
            "<stop offset=\"{}\" stop-color=\"{}\"/>",
            num(v as f64),
            hex(c)
        );
    }
    s.push_str("</linearGradient></defs>\n");
    // The title in up to two lines (split at the last space) so it fits the column.
    let (first, second) = match l.title.rsplit_once(' ') {
        Some((a, b)) if l.title.chars().count() > 18 => (a, Some(b)),
        _ => (l.title.as_str(), None),
    };
    let _ = write!(
        s,
        "<text class=\"legend-title\" x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"#222222\">{}",
        num(x + 4.0),
        num(y + if second.is_some() { 2.0 } else { 14.0 }),
        escape(first)
    );
    if let Some(b) = second {
        let _ = write!(
            s,
            "<tspan x=\"{}\" dy=\"15\">{}</tspan>",
            num(x + 4.0),
            escape(b)
        );
    }
    s.push_str("</text>\n");
    let _ = writeln!(
        s,
        "<rect class=\"colorbar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"url(#colorbar)\" \
         stroke=\"#333333\" stroke-width=\"0.8\"/>",
        num(bar_x),
        num(bar_y),
        num(bar_w),
        num(bar_h)
    );
    for k in 0..=4 {
        let t = k as f64 / 4.0;
        let v = l.min + (l.max - l.min) * t;
        let ty = bar_y + bar_h * (1.0 - t);
        let _ = writeln!(
            s,
            "<line class=\"tick\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333333\"/>\
             <text class=\"tick-label\" x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#222222\">{}</text>",
            num(bar_x + bar_w),
            num(ty),
            num(bar_x + bar_w + 5.0),
            num(ty),
            num(bar_x + bar_w + 8.0),
            num(ty + 4.0),
            label(v, PRECISION)
        );
    }
    s.push_str("</g>\n");
    s
}
