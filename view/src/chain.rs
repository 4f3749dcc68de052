//! A long run to look at: a chain of `n` steel BodyCylinder links (Modelica's `BodyCylinder`,
//! 0.25 m long, 0.03 m diameter) hung from the ground on revolute joints about the world z
//! axis, under gravity `(0, -9.81, 0)` m/s^2, released from a zig-zag at rest and solved with
//! generalized-alpha; every step recorded (`mbs-run 1`) with the scene, contour-coloured by
//! the links' speed, and each link's end height as a time plot. `mbs-view chain` writes it and
//! its page; a progress line goes to stderr when the run takes longer than a second.

use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::graphics::record::{write_run_header, RecordError};
use mbs_core::graphics::VisualizationSettings;
use mbs_core::solver::SimulationSettings;
use mbs_core::system::{
    Constraint, Control, Marker, NoSink, ObjectIndex, Progress, System, SystemScheme,
    SystemSettings,
};
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::Vector3;
use std::fmt::Write as _;
use std::io::{IsTerminal as _, Write as _};
use std::time::Instant;

/// Link length (m).
pub const LINK: f64 = 0.25;

/// Up to 16 links: 16 nodes and objects, 2 markers and a gravity load per link, 16 joints, a
/// generalized-alpha workspace of 16 x (7 coordinates + 1 normalization + 5 joint equations).
pub type ChainSystem = System<f64, 17, 17, 64, 16, 0, 0, 0, 16, 208>;

/// The most links [`chain`] builds.
pub const MAX_LINKS: usize = 16;

/// The chain of `n` links, assembled.
///
/// # Errors
/// Those of the core calls; `CapacityFull` for more than [`MAX_LINKS`] links.
pub fn chain(n: usize) -> mbs_core::Result<(Box<ChainSystem>, Vec<ObjectIndex>)> {
    let mut sys = Box::new(ChainSystem::new());
    let mut settings = SystemSettings::default();
    settings.scheme = SystemScheme::GeneralizedAlpha;
    sys.set_settings(settings)?;
    let g = Vector3::new(0.0, -9.81, 0.0);
    let ground = sys.create_ground(Vector3::zeros())?;
    let mut previous = sys.add_marker(Marker::body_rigid(ground, Vector3::zeros())?)?;
    let mut end = Vector3::zeros();
    let mut links = Vec::new();
    for k in 0..n {
        // Zig-zag: link k at +-0.6 rad from the downward vertical (its axis, x, turned about z).
        let angle = if k % 2 == 0 { 0.6 } else { -0.3 };
        let start = ModelicaStart {
            r_0_start: end,
            angles_start: [0.0, 0.0, angle - core::f64::consts::FRAC_PI_2],
            ..ModelicaStart::default()
        };
        let link = BodyCylinder::params(Vector3::new(LINK, 0.0, 0.0))
            .diameter(0.03)
            .start(start)
            .build()?;
        let body = sys.create_body_cylinder(&link, Some(g))?;
        let [a, b] = sys.add_frame_markers(body.object)?;
        sys.add_constraint(Constraint::revolute_joint([previous, a])?)?;
        previous = b;
        end += Vector3::new(angle.sin(), -angle.cos(), 0.0) * LINK;
        links.push(body.object);
    }
    sys.assemble().map_err(|e| e.error)?;
    Ok((sys, links))
}

/// Runs the chain of `n` links for `steps` steps of `dt` s and returns its recording: a frame
/// per step (and the start) and the links' end heights (m) as signals.
///
/// # Errors
/// Those of the core calls, as text.
pub fn record_chain(n: usize, steps: u32, dt: f64) -> Result<String, String> {
    let (mut sys, links) = chain(n).map_err(|e| format!("chain: {e}"))?;
    let mut vis = VisualizationSettings::default();
    vis.bodies.show_numbers = true;
    vis.contour.output_variable = Some(OutputVariableType::Velocity);
    vis.contour.output_variable_component = -1;
    let mut out = String::new();
    let title = format!(
        "chain of {n} steel BodyCylinder links on revolute joints, {steps} steps of {dt} s"
    );
    let _ = write_run_header(&mut out, Some(&title));
    // The link ends' heights: frame_b of each link, from the link's pose.
    let mut heights: Vec<Vec<f64>> = Vec::new();
    let end_height = |sys: &ChainSystem, o: ObjectIndex| {
        sys.object_output(
            o,
            OutputVariableType::Position,
            &Vector3::new(LINK, 0.0, 0.0),
        )
        .ok()
        .and_then(|v| match v {
            OutputValue::Vector3(p) => Some(p.y),
            _ => None,
        })
        .unwrap_or(f64::NAN)
    };
    let mut record = |sys: &ChainSystem, out: &mut String| -> Result<(), RecordError> {
        sys.record_frame(&vis, out)?;
        let mut row = vec![sys.time()];
        row.extend(links.iter().map(|o| end_height(sys, *o)));
        heights.push(row);
        Ok(())
    };
    let mut settings = SimulationSettings::default();
    (settings.end_time, settings.number_of_steps) = (f64::from(steps) * dt, steps);
    // Frame 0 is the start (the observer's step 0).
    let mut progress = ProgressLine::new("chain");
    let mut failure = None;
    sys.solve_dynamic_observed(&settings, &mut NoSink, |sys, p| {
        progress.show(p);
        match record(sys, &mut out) {
            Ok(()) => Control::Continue,
            Err(e) => {
                failure = Some(e);
                Control::Stop
            }
        }
    })
    .map_err(|e| format!("solve: {e}"))?;
    progress.done();
    if let Some(e) = failure {
        return Err(format!("record: {e:?}"));
    }
    for k in 1..=n {
        let _ = writeln!(out, "signal link {k} end y (m)");
    }
    for row in &heights {
        out.push_str("sample");
        for v in row {
            let _ = write!(out, " {v:?}");
        }
        out.push('\n');
    }
    Ok(out)
}

/// A progress line on stderr when it is a terminal, shown only once a run has taken longer
/// than a second, updated at most ten times a second, ended by [`ProgressLine::done`].
pub struct ProgressLine {
    what: String,
    start: Instant,
    last: Option<Instant>,
}

impl ProgressLine {
    /// A line for the run named `what`, its clock started now.
    pub fn new(what: &str) -> Self {
        Self {
            what: what.to_string(),
            start: Instant::now(),
            last: None,
        }
    }

    /// After a step.
    pub fn show(&mut self, p: &Progress<f64>) {
        let now = Instant::now();
        let due = self
            .last
            .map_or(now - self.start > std::time::Duration::from_secs(1), |l| {
                now - l > std::time::Duration::from_millis(100)
            });
        if !due && p.step != p.steps {
            return;
        }
        if self.last.is_none() && now - self.start <= std::time::Duration::from_secs(1)
            || !std::io::stderr().is_terminal()
        {
            return;
        }
        self.last = Some(now);
        let mut e = std::io::stderr();
        let _ = write!(
            e,
            "\r{}: step {} / {} ({:.0} %), t = {:.4} s, {:.1} s",
            self.what,
            p.step,
            p.steps,
            100.0 * f64::from(p.step) / f64::from(p.steps),
            p.time,
            (now - self.start).as_secs_f64()
        );
        let _ = e.flush();
    }

    /// Ends the line if one was shown.
    pub fn done(&self) {
        if self.last.is_some() {
            eprintln!();
        }
    }
}
