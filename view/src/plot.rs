//! Time plots of a [`Trajectory`] to SVG, drawn by the `plotters` crate (its SVG backend): a
//! framed plot area with a grid, labelled axes, one line per column (a gap at each non-finite
//! value) and a legend. The PNG is that SVG rasterized ([`crate::raster`]).

use crate::trajectory::Trajectory;
use plotters::prelude::*;

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
    let cols: Vec<usize> = opts
        .columns
        .clone()
        .unwrap_or_else(|| (0..traj.names().len()).collect())
        .into_iter()
        .filter(|c| *c < traj.names().len())
        .collect();
    let t = traj.time();
    let (t_lo, t_hi) = match (t.first(), t.last()) {
        (Some(a), Some(b)) if b > a => (*a, *b),
        (Some(a), _) => (*a, *a + 1.0),
        _ => (0.0, 1.0),
    };
    let (mut v_lo, mut v_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for &c in &cols {
        for v in traj
            .column(c)
            .unwrap_or(&[])
            .iter()
            .filter(|v| v.is_finite())
        {
            (v_lo, v_hi) = (v_lo.min(*v), v_hi.max(*v));
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
    let mut svg = String::new();
    // plotters reports only backend errors, which a String backend does not have.
    let _ = draw(
        &mut svg,
        traj,
        opts,
        &cols,
        (t_lo..t_hi, v_lo - margin..v_hi + margin),
    );
    svg
}

type Range = core::ops::Range<f64>;

fn draw<'a>(
    svg: &'a mut String,
    traj: &Trajectory,
    opts: &PlotOptions,
    cols: &[usize],
    (x, y): (Range, Range),
) -> Result<(), Box<dyn std::error::Error + 'a>> {
    let root = SVGBackend::with_string(svg, (opts.width, opts.height)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(&opts.title, ("sans-serif", 17))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc(&opts.x_label)
        .y_desc(&opts.y_label)
        .light_line_style(RGBColor(240, 240, 240))
        .draw()?;
    let t = traj.time();
    for (k, &c) in cols.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let v = traj.column(c).unwrap_or(&[]);
        // One line per run of finite values: a gap at each NaN or infinity.
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for (tt, vv) in t.iter().zip(v) {
            match runs.last_mut() {
                Some(run) if vv.is_finite() => run.push((*tt, *vv)),
                Some(run) if !run.is_empty() => runs.push(Vec::new()),
                _ => {}
            }
        }
        for (i, run) in runs.into_iter().filter(|r| !r.is_empty()).enumerate() {
            let series = chart.draw_series(LineSeries::new(run, color.stroke_width(2)))?;
            if i == 0 {
                series
                    .label(traj.names()[c].as_str())
                    .legend(move |(x, y)| {
                        PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2))
                    });
            }
        }
    }
    if !cols.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// Line colours, one per column in turn (the "tab10" palette).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];
