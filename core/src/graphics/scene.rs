//! The scene export: from the [`VisualizationSettings`] and one [`SceneBody`] per object, hand
//! every primitive to draw to a caller's callback as a [`DrawPrimitive`] (world-frame shape,
//! final color, optional number label). No allocation, so a firmware can stream a scene.
//!
//! Exudyn's visualization rules, exactly:
//! - a body is drawn iff `bodies.show` and its own `show` ([`GraphicsData::show`]) are true;
//! - it is drawn as its graphics data, in its frame (`p_0 = r_0 + R_0b p_b`), with the colors
//!   given there; `bodies.defaultColor` replaces each `-1` component ([`Color::resolve`]);
//! - with `contour.outputVariable` set and `contour.rigidBodiesColored`, a body whose contour
//!   value is known takes the color of that value ([`ContourRange::color`], alpha
//!   `contour.alphaTransparency`) on every primitive; a body without a value keeps its colors;
//! - `bodies.showNumbers` writes its number: the first emitted primitive of each drawn body
//!   carries a [`Label`] at the body's reference point.
//!
//! # What the system must provide
//! One [`SceneBody`] per object: its object index (`number`), the world pose of its body frame
//! (`position` = position of the reference point `r_0`, m, world frame; `rotation` = `R_0b`), its
//! graphics ([`BodyGraphics`]: a reference to its [`GraphicsData`], or one default primitive
//! made on the fly), and, when `contour.outputVariable` is set, the body's
//! value `contour_component(body.output(state, var, 0), component)` (or `None` if the body has
//! no such output). The bodies are passed as a cloneable iterator: the export runs over them
//! twice (checks and contour range, then emission), so nothing is emitted when an input is bad.

use super::color::Color;
use super::contour::ContourRange;
use super::graphics_data::{GraphicsData, GraphicsPrimitive, Shape, GRAPHICS_CAPACITY};
use super::settings::VisualizationSettings;
use crate::finite::all_finite;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// The graphics of a [`SceneBody`]: a body's [`GraphicsData`] by reference, or (for a body drawn
/// by a default shape computed when the scene is exported, so nothing is stored for it) its own
/// `show` flag and at most one primitive by value.
#[derive(Clone, Copy, Debug)]
pub enum BodyGraphics<'a, T, const N: usize = GRAPHICS_CAPACITY> {
    /// Graphics data held elsewhere (body frame).
    Data(&'a GraphicsData<T, N>),
    /// A body's own `show` flag and its one primitive (body frame), or none (nothing to draw).
    Single {
        /// The body's own `show` flag (Exudyn's `show`, Modelica's `animation`).
        show: bool,
        /// The primitive, `None` for a body without a shape (it is still "drawn": no primitive).
        primitive: Option<GraphicsPrimitive<T>>,
    },
}

impl<T: Real, const N: usize> BodyGraphics<'_, T, N> {
    /// The body's own `show` flag.
    pub fn show(&self) -> bool {
        match self {
            BodyGraphics::Data(g) => g.show(),
            BodyGraphics::Single { show, .. } => *show,
        }
    }

    /// The primitives (body frame), in order.
    pub fn primitives(&self) -> &[GraphicsPrimitive<T>] {
        match self {
            BodyGraphics::Data(g) => g.primitives(),
            BodyGraphics::Single { primitive, .. } => primitive.as_slice(),
        }
    }
}

impl<'a, T, const N: usize> From<&'a GraphicsData<T, N>> for BodyGraphics<'a, T, N> {
    fn from(g: &'a GraphicsData<T, N>) -> Self {
        BodyGraphics::Data(g)
    }
}

/// What the system hands the export for one object.
#[derive(Clone, Copy, Debug)]
pub struct SceneBody<'a, T, const N: usize = GRAPHICS_CAPACITY> {
    /// The object index (written when `bodies.showNumbers`).
    pub number: usize,
    /// Position of the body's reference point `r_0` (m, world frame).
    pub position: Vector3<T>,
    /// `R_0b`: body frame to world frame, `v_0 = R_0b v_b` (orthonormal, det +1; unchecked
    /// beyond finiteness).
    pub rotation: Matrix3<T>,
    /// The body's graphics (body frame) and its own `show` flag.
    pub graphics: BodyGraphics<'a, T, N>,
    /// The body's contour value for `contour.outputVariable` / component (see
    /// [`contour_component`](super::contour::contour_component)); `None` if it has none.
    pub contour: Option<T>,
}

/// A shape in the **world** frame (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DrawShape<T> {
    /// Cylinder from `p0` to `p1` (world), radius and inner radius (m).
    Cylinder {
        /// Centre of the first end face (m, world).
        p0: Vector3<T>,
        /// Centre of the second end face (m, world).
        p1: Vector3<T>,
        /// Outer radius (m).
        radius: T,
        /// Inner radius (m), 0 if solid.
        inner_radius: T,
    },
    /// Box: centre (world), edge directions and edge lengths.
    Cuboid {
        /// Centre (m, world).
        center: Vector3<T>,
        /// Columns: the box's x, y, z edge directions in the world frame (`R_0b`).
        axes: Matrix3<T>,
        /// Edge lengths along the box's x, y, z (m).
        size: Vector3<T>,
    },
    /// Sphere.
    Sphere {
        /// Centre (m, world).
        center: Vector3<T>,
        /// Radius (m).
        radius: T,
    },
    /// Line segment.
    Line {
        /// Start (m, world).
        p0: Vector3<T>,
        /// End (m, world).
        p1: Vector3<T>,
    },
}

impl<T: Real> DrawShape<T> {
    /// `shape` (frame b) placed at `r_0`, `R_0b`: every point `p_0 = r_0 + R_0b p_b`.
    pub fn place(shape: &Shape<T>, r0: &Vector3<T>, r0b: &Matrix3<T>) -> Self {
        let p = |v: &Vector3<T>| r0 + r0b * v;
        match *shape {
            Shape::Cylinder {
                p0,
                p1,
                radius,
                inner_radius,
            } => DrawShape::Cylinder {
                p0: p(&p0),
                p1: p(&p1),
                radius,
                inner_radius,
            },
            Shape::Cuboid { center, size } => DrawShape::Cuboid {
                center: p(&center),
                axes: *r0b,
                size,
            },
            Shape::Sphere { center, radius } => DrawShape::Sphere {
                center: p(&center),
                radius,
            },
            Shape::Line { p0, p1 } => DrawShape::Line {
                p0: p(&p0),
                p1: p(&p1),
            },
        }
    }
}

/// A body number to write, at the body's reference point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label<T> {
    /// The object index.
    pub number: usize,
    /// Where to write it: the body's reference point (m, world).
    pub position: Vector3<T>,
}

/// One primitive to draw, everything resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawPrimitive<T> {
    /// Object index of the body it belongs to.
    pub body: usize,
    /// Index of the primitive in the body's graphics data.
    pub index: usize,
    /// The shape in the world frame.
    pub shape: DrawShape<T>,
    /// The final color: default-resolved, or the contour color (components in `[0, 1]`).
    pub color: Color,
    /// Specular coefficient (-).
    pub specular: f32,
    /// The body's contour value if the color came from the contour map.
    pub contour_value: Option<T>,
    /// Set on the body's first primitive when `bodies.showNumbers`.
    pub label: Option<Label<T>>,
}

/// What an export did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneSummary<T> {
    /// Bodies drawn (`bodies.show` and their own `show`).
    pub bodies_drawn: usize,
    /// Primitives emitted.
    pub primitives: usize,
    /// The contour range used (for a color bar), `None` if no body was contour-colored.
    pub contour_range: Option<ContourRange<T>>,
}

/// The contour range of a scene: `None` unless `contour.outputVariable` is set with
/// `rigidBodiesColored`; with `automaticRange` the min and max of the drawn bodies' values
/// (`None` if none has a value), else `[minValue, maxValue]`.
///
/// # Errors
/// `NonFiniteState` for a NaN or infinite contour value of a drawn body; those of
/// [`ContourRange::new`] for a bad fixed range.
pub fn contour_range<'a, T, const N: usize, I>(
    settings: &VisualizationSettings,
    bodies: I,
) -> Result<Option<ContourRange<T>>>
where
    T: Real + 'a,
    I: IntoIterator<Item = SceneBody<'a, T, N>>,
{
    let c = &settings.contour;
    if !c.colors_bodies() || !settings.bodies.show {
        return Ok(None);
    }
    let mut range: Option<ContourRange<T>> = None;
    for b in bodies {
        if !b.graphics.show() {
            continue;
        }
        if let Some(v) = b.contour {
            if !v.finite() {
                return Err(Error::NonFiniteState);
            }
            match range.as_mut() {
                Some(r) => r.include(v),
                None => range = Some(ContourRange::new(v, v)?),
            }
        }
    }
    if c.automatic_range {
        Ok(range)
    } else if range.is_some() {
        Ok(Some(ContourRange::new(
            T::c(c.min_value),
            T::c(c.max_value),
        )?))
    } else {
        Ok(None)
    }
}

/// Exports the scene: checks every drawn body (finite pose, finite contour value) and finds the
/// contour range, then calls `emit` once per primitive of each drawn body, in body order and
/// primitive order. On `Err` nothing was emitted.
///
/// # Errors
/// `NotFinite(Position)` / `NotFinite(Orientation)` for a drawn body's non-finite pose;
/// those of [`contour_range`].
pub fn export_scene<'a, T, const N: usize, I, F>(
    settings: &VisualizationSettings,
    bodies: I,
    mut emit: F,
) -> Result<SceneSummary<T>>
where
    T: Real + 'a,
    I: IntoIterator<Item = SceneBody<'a, T, N>>,
    I::IntoIter: Clone,
    F: FnMut(&DrawPrimitive<T>),
{
    let iter = bodies.into_iter();
    let s = &settings.bodies;
    if s.show {
        for b in iter.clone() {
            if b.graphics.show() {
                if !all_finite(&b.position) {
                    return Err(Error::NotFinite(Param::Position));
                }
                if !all_finite(&b.rotation) {
                    return Err(Error::NotFinite(Param::Orientation));
                }
            }
        }
    }
    let range = contour_range(settings, iter.clone())?;
    let mut summary = SceneSummary {
        bodies_drawn: 0,
        primitives: 0,
        contour_range: range,
    };
    if !s.show {
        return Ok(summary);
    }
    let alpha = settings.contour.alpha_transparency;
    for b in iter {
        if !b.graphics.show() {
            continue;
        }
        summary.bodies_drawn += 1;
        let contour = match (range, b.contour) {
            (Some(r), Some(v)) => Some((r.color(v, alpha), v)),
            _ => None,
        };
        for (index, p) in b.graphics.primitives().iter().enumerate() {
            let (color, contour_value) = match contour {
                Some((c, v)) => (c, Some(v)),
                None => (p.color().resolve(&s.default_color), None),
            };
            let label = if s.show_numbers && index == 0 {
                Some(Label {
                    number: b.number,
                    position: b.position,
                })
            } else {
                None
            };
            emit(&DrawPrimitive {
                body: b.number,
                index,
                shape: DrawShape::place(p.shape(), &b.position, &b.rotation),
                color,
                specular: p.specular(),
                contour_value,
                label,
            });
            summary.primitives += 1;
        }
    }
    Ok(summary)
}
