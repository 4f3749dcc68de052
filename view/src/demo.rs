//! A demo made only of what the core has today: five bodies with graphics data (BodyCylinder
//! shapes, a hollow pipe, a box with a sphere, a ground plate, one hidden body), each spun at a
//! constant angular velocity `w` by `R_0b(t) = exp(w t)` ([`Quaternion::exp`]), so a picture
//! and a trajectory can be made before the system exists. The system will replace
//! [`DemoSystem::scene_bodies`] by one [`SceneBody`] per object of its own.

use crate::plot::{plot_svg, PlotOptions};
use crate::projection::View;
use crate::raster::{write_png, write_svg};
use crate::scene_svg::{scene_svg, RenderOptions, Scene};
use crate::trajectory::Trajectory;
use crate::Result;
use mbs_core::graphics::{
    Color, GraphicsData, SceneBody, Shape, VisualizationSettings, DEFAULT_SPECULAR_COEFFICIENT,
};
use mbs_core::math::Quaternion;
use mbs_core::OutputVariableType;
use nalgebra::{Matrix3, Vector3};
use std::path::{Path, PathBuf};

/// One demo body: graphics, where its reference point is, how it spins.
#[derive(Clone, Debug)]
pub struct DemoBody {
    /// Graphics data (body frame).
    pub graphics: GraphicsData<f64>,
    /// Reference point (m, world), fixed.
    pub position: Vector3<f64>,
    /// Constant angular velocity (rad/s, world); `R_0b(t) = exp(w t)`.
    pub omega: Vector3<f64>,
    /// Whether the body has a contour value (the ground has none).
    pub has_value: bool,
}

/// The demo's bodies.
#[derive(Clone, Debug)]
pub struct DemoSystem {
    /// Object `i` is `bodies[i]`.
    pub bodies: Vec<DemoBody>,
}

impl DemoSystem {
    /// Builds the five bodies.
    ///
    /// # Errors
    /// Only if a shape were refused (it is not: all numbers are valid).
    pub fn new() -> Result<Self> {
        let mut bodies = Vec::new();
        // 0: ground plate, grey, no contour value.
        let mut ground = GraphicsData::new();
        ground.push_shape(
            Shape::Cuboid {
                center: Vector3::zeros(),
                size: Vector3::new(3.2, 0.06, 1.4),
            },
            Color::MODELICA_ROD,
            0.2,
        )?;
        bodies.push(DemoBody {
            graphics: ground,
            position: Vector3::new(0.0, -0.75, 0.0),
            omega: Vector3::zeros(),
            has_value: false,
        });
        // 1: a BodyCylinder crank (r = {0.9, 0, 0}, diameter 0.1) with a bob at its tip.
        let mut crank = GraphicsData::body_cylinder(
            Vector3::zeros(),
            Vector3::x(),
            0.9,
            0.1,
            0.0,
            true,
            Color::MODELICA_BODY,
            DEFAULT_SPECULAR_COEFFICIENT,
        )?;
        crank.push_shape(
            Shape::Sphere {
                center: Vector3::new(0.9, 0.0, 0.0),
                radius: 0.09,
            },
            Color::DEFAULT,
            DEFAULT_SPECULAR_COEFFICIENT,
        )?;
        bodies.push(DemoBody {
            graphics: crank,
            position: Vector3::new(-1.2, 0.0, 0.0),
            omega: Vector3::new(0.0, 0.0, 1.5),
            has_value: true,
        });
        // 2: a hollow BodyCylinder (pipe), default color (-1 = bodies.defaultColor).
        let pipe = GraphicsData::body_cylinder(
            Vector3::new(0.0, -0.25, 0.0),
            Vector3::y(),
            0.5,
            0.32,
            0.22,
            true,
            Color::DEFAULT,
            DEFAULT_SPECULAR_COEFFICIENT,
        )?;
        bodies.push(DemoBody {
            graphics: pipe,
            position: Vector3::new(0.2, 0.05, 0.0),
            omega: Vector3::new(0.8, 0.0, 0.0),
            has_value: true,
        });
        // 3: a box with a sphere on top, tumbling about (1, 1, 0).
        let mut block = GraphicsData::new();
        block.push_shape(
            Shape::Cuboid {
                center: Vector3::zeros(),
                size: Vector3::new(0.34, 0.34, 0.34),
            },
            Color::new(1.0, 0.55, 0.1, 1.0)?,
            0.4,
        )?;
        block.push_shape(
            Shape::Sphere {
                center: Vector3::new(0.0, 0.3, 0.0),
                radius: 0.12,
            },
            Color::new(0.85, 0.15, 0.2, 1.0)?,
            DEFAULT_SPECULAR_COEFFICIENT,
        )?;
        block.push_polyline(
            &[
                Vector3::new(0.0, 0.0, 0.0),
                Vector3::new(0.0, 0.0, 0.45),
                Vector3::new(0.2, 0.0, 0.45),
            ],
            Color::BLACK,
        )?;
        let s = 2.2 / 2f64.sqrt();
        bodies.push(DemoBody {
            graphics: block,
            position: Vector3::new(1.15, 0.0, 0.1),
            omega: Vector3::new(s, s, 0.0),
            has_value: true,
        });
        // 4: a BodyCylinder with animation = false: never drawn.
        let hidden = GraphicsData::body_cylinder(
            Vector3::zeros(),
            Vector3::z(),
            0.4,
            0.05,
            0.0,
            false,
            Color::DEFAULT,
            0.7,
        )?;
        bodies.push(DemoBody {
            graphics: hidden,
            position: Vector3::new(0.0, 0.8, 0.0),
            omega: Vector3::new(0.0, 0.5, 0.0),
            has_value: true,
        });
        Ok(Self { bodies })
    }

    /// `R_0b(t) = exp(w t)` of body `i`.
    pub fn rotation(&self, i: usize, t: f64) -> Matrix3<f64> {
        Quaternion::exp(&(self.bodies[i].omega * t)).to_matrix()
    }

    /// The [`SceneBody`] of each object at time `t` (s); the contour value is `|w|` (rad/s),
    /// i.e. `AngularVelocity` with component -1.
    pub fn scene_bodies(&self, t: f64) -> Vec<SceneBody<'_, f64>> {
        self.bodies
            .iter()
            .enumerate()
            .map(|(i, b)| SceneBody {
                number: i,
                position: b.position,
                rotation: self.rotation(i, t),
                graphics: (&b.graphics).into(),
                contour: b.has_value.then(|| b.omega.dot(&b.omega).sqrt()),
            })
            .collect()
    }

    /// Sensor outputs at `steps + 1` times from 0 to `t_end`: the crank tip (x, y), the pipe's
    /// top end z, the block's marker tip y, all world positions `r_0 + R_0b(t) p_b` (m).
    pub fn trajectory(&self, t_end: f64, steps: usize) -> Result<Trajectory> {
        let mut traj = Trajectory::new([
            "crank tip x (m)",
            "crank tip y (m)",
            "pipe end z (m)",
            "block marker y (m)",
        ]);
        let tip =
            |i: usize, t: f64, p: Vector3<f64>| self.bodies[i].position + self.rotation(i, t) * p;
        for k in 0..=steps {
            let t = t_end * k as f64 / steps.max(1) as f64;
            let c = tip(1, t, Vector3::new(0.9, 0.0, 0.0));
            let p = tip(2, t, Vector3::new(0.0, 0.25, 0.0));
            let m = tip(3, t, Vector3::new(0.2, 0.0, 0.45));
            traj.push(t, &[c.x, c.y, p.z, m.y])?;
        }
        Ok(traj)
    }
}

/// Where [`render_demo`] wrote its files.
#[derive(Clone, Debug)]
pub struct DemoFiles {
    /// Isometric picture, own colors, numbers (SVG and PNG).
    pub scene: [PathBuf; 2],
    /// View along z, contour colors by `|w|` with the color bar (SVG and PNG).
    pub contour: [PathBuf; 2],
    /// Time plot of the sensors (SVG and PNG).
    pub plot: [PathBuf; 2],
    /// The sensors as CSV.
    pub csv: PathBuf,
}

/// Renders the demo at `t` = 1 s and its 4 s trajectory into `dir` (created if missing).
pub fn render_demo(dir: &Path) -> Result<DemoFiles> {
    std::fs::create_dir_all(dir)?;
    let sys = DemoSystem::new()?;
    let t = 1.0;
    let bodies = sys.scene_bodies(t);

    let mut settings = VisualizationSettings::default();
    settings.bodies.show_numbers = true;
    let scene = Scene::capture(&settings, bodies.iter().copied())?;
    let svg = scene_svg(
        &scene,
        &RenderOptions {
            title: Some(format!(
                "mbs demo, t = {t:.2} s, isometric view, body numbers"
            )),
            ..RenderOptions::default()
        },
    );
    let files_scene = [dir.join("scene.svg"), dir.join("scene.png")];
    write_svg(&files_scene[0], &svg)?;
    write_png(&files_scene[1], &svg)?;

    settings.contour.output_variable = Some(OutputVariableType::AngularVelocity);
    settings.contour.output_variable_component = -1;
    let scene = Scene::capture(&settings, bodies.iter().copied())?;
    let svg = scene_svg(
        &scene,
        &RenderOptions {
            view: View::AlongZ,
            title: Some(format!(
                "contour: |angular velocity| (rad/s), t = {t:.2} s, view along z"
            )),
            ..RenderOptions::default()
        },
    );
    let files_contour = [dir.join("scene_contour.svg"), dir.join("scene_contour.png")];
    write_svg(&files_contour[0], &svg)?;
    write_png(&files_contour[1], &svg)?;

    let traj = sys.trajectory(4.0, 200)?;
    let svg = plot_svg(
        &traj,
        &PlotOptions {
            title: "demo sensors: positions of body points (world frame)".into(),
            y_label: "position (m)".into(),
            ..PlotOptions::default()
        },
    );
    let files_plot = [dir.join("plot.svg"), dir.join("plot.png")];
    write_svg(&files_plot[0], &svg)?;
    write_png(&files_plot[1], &svg)?;
    let csv = dir.join("trajectory.csv");
    traj.write_csv(&csv)?;
    Ok(DemoFiles {
        scene: files_scene,
        contour: files_contour,
        plot: files_plot,
        csv,
    })
}
