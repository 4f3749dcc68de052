//! Drawing (Exudyn's visualization rules, Modelica's `BodyCylinder` shape): what a body looks like and how a
//! scene is handed to a viewer, allocation-free.
//!
//! - [`color`]: RGBA [`Color`], `-1` = `bodies.defaultColor`.
//! - [`graphics_data`]: a body's [`GraphicsData`] (shapes in the body frame, `show`), with
//!   Modelica `BodyCylinder`'s default shape.
//! - [`settings`]: [`VisualizationSettings`] (`bodies.*`, `contour.*`, Exudyn's defaults).
//! - [`contour`]: the contour value of a body ([`contour_component`]) and [`ContourRange`].
//! - [`colormap()`]: Exudyn's contour color bar as a pure function.
//! - [`scene`]: [`export_scene`], which turns one [`SceneBody`] per object into
//!   [`DrawPrimitive`]s (world frame, final colors, labels) for a callback.

pub mod color;
pub mod colormap;
pub mod contour;
pub mod graphics_data;
pub mod record;
pub mod scene;
pub mod settings;

pub use color::Color;
pub use colormap::colormap;
pub use contour::{contour_component, ContourRange};
pub use graphics_data::{
    GraphicsData, GraphicsPrimitive, Shape, DEFAULT_SPECULAR_COEFFICIENT, GRAPHICS_CAPACITY,
};
pub use scene::{
    contour_range, export_scene, BodyGraphics, DrawPrimitive, DrawShape, Label, SceneBody,
    SceneSummary,
};
pub use settings::{BodiesSettings, ContourSettings, VisualizationSettings};
