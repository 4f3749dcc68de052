//! # mbs-view
//!
//! Pictures of an mbs run on the host: a scene (the core's allocation-free
//! [`export_scene`](mbs_core::graphics::export_scene)) drawn to SVG and PNG in a chosen
//! orthographic [`View`], with contour colors and their color bar, body numbers, a world axes
//! triad and a scale bar; time plots of sensor outputs ([`Trajectory`]) to SVG and PNG; CSV of
//! the sensors. PNGs are rasterized from the SVG by `resvg`.
//!
//! ## What the system must provide
//! For each object, a [`SceneBody`](mbs_core::graphics::SceneBody):
//! - `number`: the object index;
//! - `position`: the position of the body's reference point (its node), m, world frame;
//! - `rotation`: `R_0b` (body to world) of its node (identity for a mass point, ground);
//! - `graphics`: a reference to the body's [`GraphicsData`](mbs_core::graphics::GraphicsData)
//!   (for a BodyCylinder: [`GraphicsData::body_cylinder`](mbs_core::graphics::GraphicsData::body_cylinder)
//!   with its `r_shape`, `lengthDirection`, `length`, `diameter`, `innerDiameter`, `animation`,
//!   `color`, `specularCoefficient`);
//! - `contour`: when `contour.outputVariable` is set, the body's
//!   [`contour_component`](mbs_core::graphics::contour_component)`(body.output(state, var, 0),
//!   component)`, `None` where the body has no such output (`OutputNotAvailable`).
//!
//! Then [`Scene::capture`]`(&settings, bodies)` and [`scene_svg`] / [`svg_to_png`]. A sensor
//! recorder pushes one row per step into a [`Trajectory`].
//!
//! For a core [`System`](mbs_core::system::System) all of this is one call:
//! [`render_system`] / [`render_system_png`] (through `System::export_scene`, which builds the
//! scene bodies itself: custom or default graphics, poses, contour values). A program outside
//! Rust writes its scene as text instead: a primitive stream ([`stream`], `mbs-scene 1`, e.g.
//! from `mbs_system_export_scene`'s C callback) or a body-state file ([`bodies`],
//! `mbs-bodies 1`), and `mbs-view render <file> [--csv sensors.csv] --out <dir>` draws it.
//! [`demo::render_demo`] draws hand-spun bodies without a system.

pub mod bodies;
pub mod chain;
pub mod demo;
pub mod error;
pub mod legend;
pub mod page;
pub mod plot;
pub mod projection;
pub mod raster;
pub mod run;
pub mod scene_svg;
pub mod shading;
pub mod stream;
pub mod svg;
pub mod system;
pub mod ticks;
pub mod trajectory;

pub use bodies::{read_bodies, BodiesFile};
pub use error::{Result, ViewError};
pub use legend::ContourLegend;
pub use page::{page_html, PageOptions};
pub use plot::{plot_svg, PlotOptions};
pub use projection::{Projector, View};
pub use raster::{svg_to_png, write_png, write_svg};
pub use run::{read_run, Frame, Run};
pub use scene_svg::{contour_title, scene_svg, RenderOptions, Scene};
pub use stream::{primitive_line, read_stream, write_stream, StreamScene};
pub use system::{render_system, render_system_png, system_scene};
pub use trajectory::Trajectory;
