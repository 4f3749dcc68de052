//! Per-body graphics data (Exudyn's `graphicsData`, Modelica's animation shapes): a fixed-capacity
//! list of [`GraphicsPrimitive`]s given in the **body frame** `b` (m, measured from the body's
//! reference point), each with a [`Color`] and a specular coefficient, plus the body's own `show`
//! flag (Modelica's `animation`).
//!
//! Shapes ([`Shape`]): a cylinder from `p0` to `p1` (optionally hollow), an axis-aligned box, a
//! sphere, a line segment (a polyline is a run of segments, [`GraphicsData::push_polyline`]).
//!
//! [`GraphicsData::body_cylinder`] builds Modelica `BodyCylinder`'s default shape (Modelica's documentation, "The
//! cylinder shape is by default used in the animation"): Modelica draws a `"pipecylinder"` from
//! `r_shape` along `lengthDirection` with `length`, width = height = `diameter` and
//! `extra = innerDiameter/diameter`, in `color` (default `BodyColor`) with
//! `specularCoefficient` (default `world.defaultSpecularCoefficient = 0.7`).

use super::color::Color;
use crate::finite::all_finite;
use crate::frames::normalize_with_assert;
use crate::{Error, Param, Real, Result};
use nalgebra::Vector3;

/// Default capacity of a body's primitive list.
pub const GRAPHICS_CAPACITY: usize = 8;

/// Modelica's `world.defaultSpecularCoefficient` (-): the default reflection of ambient light.
pub const DEFAULT_SPECULAR_COEFFICIENT: f32 = 0.7;

/// A drawable shape in the frame it is given in (the body frame in [`GraphicsData`], the world
/// frame in a [`DrawShape`](super::scene::DrawShape)). Lengths in m.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape<T> {
    /// A circular cylinder whose axis runs from `p0` to `p1`; hollow (a pipe) if
    /// `inner_radius > 0`. `0 <= inner_radius < radius`, `p0 != p1`.
    Cylinder {
        /// Centre of the first end face (m).
        p0: Vector3<T>,
        /// Centre of the second end face (m).
        p1: Vector3<T>,
        /// Outer radius (m), > 0.
        radius: T,
        /// Inner radius (m), `0 <= inner_radius < radius`; 0 for a solid cylinder.
        inner_radius: T,
    },
    /// A box with edges along the frame's axes.
    Cuboid {
        /// Centre (m).
        center: Vector3<T>,
        /// Edge lengths along x, y, z (m), each > 0.
        size: Vector3<T>,
    },
    /// A sphere.
    Sphere {
        /// Centre (m).
        center: Vector3<T>,
        /// Radius (m), > 0.
        radius: T,
    },
    /// A straight line segment (drawn with a fixed screen width).
    Line {
        /// Start point (m).
        p0: Vector3<T>,
        /// End point (m).
        p1: Vector3<T>,
    },
}

impl<T: Real> Shape<T> {
    /// Checks the shape's numbers (see each variant).
    ///
    /// # Errors
    /// `NotFinite(Position | Radius | Dimensions)` for NaN or infinity; `OutOfRange(Radius)` for
    /// a radius <= 0 or an inner radius < 0; `InnerDiameterNotBelowDiameter` for
    /// `inner_radius >= radius`; `ZeroLength(Length)` for a cylinder with `p0 == p1`;
    /// `OutOfRange(Dimensions)` for an edge length <= 0.
    pub fn validate(&self) -> Result<()> {
        let pos = |v: &Vector3<T>| {
            if all_finite(v) {
                Ok(())
            } else {
                Err(Error::NotFinite(Param::Position))
            }
        };
        let radius_ok = |r: T| {
            if !r.finite() {
                Err(Error::NotFinite(Param::Radius))
            } else if r <= T::zero() {
                Err(Error::OutOfRange(Param::Radius))
            } else {
                Ok(())
            }
        };
        match self {
            Shape::Cylinder {
                p0,
                p1,
                radius,
                inner_radius,
            } => {
                pos(p0)?;
                pos(p1)?;
                radius_ok(*radius)?;
                if !inner_radius.finite() {
                    return Err(Error::NotFinite(Param::Radius));
                }
                if *inner_radius < T::zero() {
                    return Err(Error::OutOfRange(Param::Radius));
                }
                if *inner_radius >= *radius {
                    return Err(Error::InnerDiameterNotBelowDiameter);
                }
                if p0 == p1 {
                    return Err(Error::ZeroLength(Param::Length));
                }
                Ok(())
            }
            Shape::Cuboid { center, size } => {
                pos(center)?;
                if !all_finite(size) {
                    return Err(Error::NotFinite(Param::Dimensions));
                }
                if size.iter().any(|s| *s <= T::zero()) {
                    return Err(Error::OutOfRange(Param::Dimensions));
                }
                Ok(())
            }
            Shape::Sphere { center, radius } => {
                pos(center)?;
                radius_ok(*radius)
            }
            Shape::Line { p0, p1 } => {
                pos(p0)?;
                pos(p1)
            }
        }
    }
}

/// One shape with its drawing attributes. Built only through [`GraphicsPrimitive::new`], so
/// every primitive held is valid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphicsPrimitive<T> {
    shape: Shape<T>,
    color: Color,
    specular: f32,
}

impl<T: Real> GraphicsPrimitive<T> {
    /// A primitive: `shape` (body frame), `color` (`-1` components from `bodies.defaultColor`),
    /// `specular` coefficient (-, >= 0; Modelica's `specularCoefficient`, 0 = light completely
    /// absorbed).
    ///
    /// # Errors
    /// Those of [`Shape::validate`]; `NotFinite(Ratio)` / `OutOfRange(Ratio)` for a NaN,
    /// infinite or negative specular coefficient.
    pub fn new(shape: Shape<T>, color: Color, specular: f32) -> Result<Self> {
        shape.validate()?;
        if !specular.is_finite() {
            return Err(Error::NotFinite(Param::Ratio));
        }
        if specular < 0.0 {
            return Err(Error::OutOfRange(Param::Ratio));
        }
        Ok(Self {
            shape,
            color,
            specular,
        })
    }

    /// The shape (body frame).
    pub fn shape(&self) -> &Shape<T> {
        &self.shape
    }

    /// The color as given (may hold `-1` components).
    pub fn color(&self) -> Color {
        self.color
    }

    /// The specular coefficient (-).
    pub fn specular(&self) -> f32 {
        self.specular
    }
}

/// A body's graphics: its `show` flag and up to `N` primitives in the body frame.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphicsData<T, const N: usize = GRAPHICS_CAPACITY> {
    show: bool,
    primitives: heapless::Vec<GraphicsPrimitive<T>, N>,
}

impl<T: Real, const N: usize> Default for GraphicsData<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const N: usize> GraphicsData<T, N> {
    /// Empty, shown.
    pub fn new() -> Self {
        Self {
            show: true,
            primitives: heapless::Vec::new(),
        }
    }

    /// Modelica `BodyCylinder`'s animation shape: a cylinder from `r_shape` (m, body frame) along
    /// `length_direction` (-, body frame, any non-zero length) of `length` (m), outer `diameter`
    /// and `inner_diameter` (m; 0 for solid), in `color` with `specular`; `animation = false`
    /// hides it ([`GraphicsData::show`] false).
    ///
    /// `p0 = r_shape`, `p1 = r_shape + length_direction/|length_direction| * length`,
    /// `radius = diameter/2`, `inner_radius = inner_diameter/2`. Positions are measured from the
    /// body's reference point: if that is not Modelica's frame_a, pass `r_shape - r_ref`.
    ///
    /// # Errors
    /// `NotFinite(RShape | Direction | Length | Diameter | InnerDiameter)`;
    /// `ZeroLength(Direction)` for a zero `length_direction`; `OutOfRange(Length)` for
    /// `length <= 0`; `OutOfRange(Diameter)` for `diameter <= 0`; `OutOfRange(InnerDiameter)`
    /// for `inner_diameter < 0`; `InnerDiameterNotBelowDiameter`; `CapacityFull` if `N == 0`;
    /// those of [`GraphicsPrimitive::new`].
    #[allow(clippy::too_many_arguments)]
    pub fn body_cylinder(
        r_shape: Vector3<T>,
        length_direction: Vector3<T>,
        length: T,
        diameter: T,
        inner_diameter: T,
        animation: bool,
        color: Color,
        specular: f32,
    ) -> Result<Self> {
        if !all_finite(&r_shape) {
            return Err(Error::NotFinite(Param::RShape));
        }
        let e = normalize_with_assert(&length_direction)?;
        let fin = |x: T, p: Param| {
            if x.finite() {
                Ok(())
            } else {
                Err(Error::NotFinite(p))
            }
        };
        fin(length, Param::Length)?;
        fin(diameter, Param::Diameter)?;
        fin(inner_diameter, Param::InnerDiameter)?;
        if length <= T::zero() {
            return Err(Error::OutOfRange(Param::Length));
        }
        if diameter <= T::zero() {
            return Err(Error::OutOfRange(Param::Diameter));
        }
        if inner_diameter < T::zero() {
            return Err(Error::OutOfRange(Param::InnerDiameter));
        }
        if inner_diameter >= diameter {
            return Err(Error::InnerDiameterNotBelowDiameter);
        }
        let half = T::c(0.5);
        let prim = GraphicsPrimitive::new(
            Shape::Cylinder {
                p0: r_shape,
                p1: r_shape + e * length,
                radius: diameter * half,
                inner_radius: inner_diameter * half,
            },
            color,
            specular,
        )?;
        let mut g = Self::new();
        g.show = animation;
        g.push(prim)?;
        Ok(g)
    }

    /// Whether the body itself is shown (Exudyn's `show`, Modelica's `animation`).
    pub fn show(&self) -> bool {
        self.show
    }

    /// Sets the body's own `show` flag.
    pub fn set_show(&mut self, show: bool) {
        self.show = show;
    }

    /// The primitives, in the order pushed.
    pub fn primitives(&self) -> &[GraphicsPrimitive<T>] {
        &self.primitives
    }

    /// Appends a primitive. `Err(CapacityFull)`, nothing changed, if `N` are held.
    pub fn push(&mut self, p: GraphicsPrimitive<T>) -> Result<()> {
        self.primitives.push(p).map_err(|_| Error::CapacityFull)
    }

    /// Appends the checked primitive of `shape`, `color`, `specular`
    /// ([`GraphicsPrimitive::new`]'s errors, or `CapacityFull`; nothing changed on error).
    pub fn push_shape(&mut self, shape: Shape<T>, color: Color, specular: f32) -> Result<()> {
        let p = GraphicsPrimitive::new(shape, color, specular)?;
        self.push(p)
    }

    /// Appends the polyline through `points` (body frame, m) as `points.len() - 1` line
    /// segments. Checked first, so on `Err` nothing is added: `NotFinite(Position)` for a
    /// non-finite point, `CapacityFull` if the segments do not all fit; fewer than two points
    /// add nothing.
    pub fn push_polyline(&mut self, points: &[Vector3<T>], color: Color) -> Result<()> {
        if points.iter().any(|p| !all_finite(p)) {
            return Err(Error::NotFinite(Param::Position));
        }
        let segments = points.len().saturating_sub(1);
        if self.primitives.len() + segments > N {
            return Err(Error::CapacityFull);
        }
        for w in points.windows(2) {
            self.push(GraphicsPrimitive::new(
                Shape::Line { p0: w[0], p1: w[1] },
                color,
                0.0,
            )?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn body_cylinder_runs_from_r_shape_along_length_direction() -> Result<()> {
        // Modelica: the shape starts at r_shape and runs `length` along the unit lengthDirection.
        let g: GraphicsData<f64> = GraphicsData::body_cylinder(
            Vector3::new(0.1, 0.0, 0.0),
            Vector3::new(0.0, 3.0, 4.0), // |.| = 5
            2.0,
            0.4,
            0.1,
            true,
            Color::MODELICA_BODY,
            DEFAULT_SPECULAR_COEFFICIENT,
        )?;
        assert!(g.show());
        assert_eq!(g.primitives().len(), 1);
        let Shape::Cylinder {
            p0,
            p1,
            radius,
            inner_radius,
        } = *g.primitives()[0].shape()
        else {
            return Err(Error::UnknownIndex); // not a cylinder: fail
        };
        assert_eq!(p0, Vector3::new(0.1, 0.0, 0.0));
        assert_relative_eq!(p1, Vector3::new(0.1, 1.2, 1.6), epsilon = 1e-15);
        assert_eq!(radius, 0.2);
        assert_eq!(inner_radius, 0.05);
        assert_eq!(g.primitives()[0].color(), Color::MODELICA_BODY);
        assert_eq!(g.primitives()[0].specular(), 0.7);
        Ok(())
    }

    #[test]
    fn animation_false_hides_the_body() -> Result<()> {
        let g: GraphicsData<f32> = GraphicsData::body_cylinder(
            Vector3::zeros(),
            Vector3::x(),
            1.0,
            0.05,
            0.0,
            false,
            Color::DEFAULT,
            0.7,
        )?;
        assert!(!g.show());
        assert_eq!(g.primitives().len(), 1);
        Ok(())
    }

    #[test]
    fn body_cylinder_refuses_bad_numbers() {
        let c = |l: f64, d: f64, di: f64, dir: Vector3<f64>| {
            GraphicsData::<f64>::body_cylinder(
                Vector3::zeros(),
                dir,
                l,
                d,
                di,
                true,
                Color::DEFAULT,
                0.7,
            )
            .map(|_| ())
        };
        let x = Vector3::x();
        assert_eq!(
            c(1.0, 0.1, 0.0, Vector3::zeros()),
            Err(Error::ZeroLength(Param::Direction))
        );
        assert_eq!(c(0.0, 0.1, 0.0, x), Err(Error::OutOfRange(Param::Length)));
        assert_eq!(c(1.0, 0.0, 0.0, x), Err(Error::OutOfRange(Param::Diameter)));
        assert_eq!(
            c(1.0, 0.1, -0.01, x),
            Err(Error::OutOfRange(Param::InnerDiameter))
        );
        assert_eq!(
            c(1.0, 0.1, 0.1, x),
            Err(Error::InnerDiameterNotBelowDiameter)
        );
        assert_eq!(
            c(f64::NAN, 0.1, 0.0, x),
            Err(Error::NotFinite(Param::Length))
        );
    }

    #[test]
    fn shapes_are_checked_and_capacity_is_kept() -> Result<()> {
        let mut g: GraphicsData<f64, 3> = GraphicsData::new();
        let s = Shape::Sphere {
            center: Vector3::zeros(),
            radius: -1.0,
        };
        assert_eq!(
            g.push_shape(s, Color::DEFAULT, 0.5),
            Err(Error::OutOfRange(Param::Radius))
        );
        let b = Shape::Cuboid {
            center: Vector3::zeros(),
            size: Vector3::new(1.0, 0.0, 1.0),
        };
        assert_eq!(
            g.push_shape(b, Color::DEFAULT, 0.5),
            Err(Error::OutOfRange(Param::Dimensions))
        );
        let cyl = Shape::Cylinder {
            p0: Vector3::x(),
            p1: Vector3::x(),
            radius: 0.1,
            inner_radius: 0.0,
        };
        assert_eq!(
            g.push_shape(cyl, Color::DEFAULT, 0.5),
            Err(Error::ZeroLength(Param::Length))
        );
        assert_eq!(
            g.push_shape(
                Shape::Sphere {
                    center: Vector3::zeros(),
                    radius: 1.0
                },
                Color::DEFAULT,
                -0.1
            ),
            Err(Error::OutOfRange(Param::Ratio))
        );
        assert!(g.primitives().is_empty());
        // Four points = three segments: fits exactly; a fifth point would not and adds nothing.
        let pts = [
            Vector3::zeros(),
            Vector3::x(),
            Vector3::y(),
            Vector3::z(),
            Vector3::new(1.0, 1.0, 1.0),
        ];
        assert_eq!(
            g.push_polyline(&pts, Color::BLACK),
            Err(Error::CapacityFull)
        );
        assert!(g.primitives().is_empty());
        g.push_polyline(&pts[..4], Color::BLACK)?;
        assert_eq!(g.primitives().len(), 3);
        assert_eq!(
            *g.primitives()[2].shape(),
            Shape::Line {
                p0: Vector3::y(),
                p1: Vector3::z()
            }
        );
        assert_eq!(
            g.push_shape(
                Shape::Line {
                    p0: Vector3::zeros(),
                    p1: Vector3::x()
                },
                Color::BLACK,
                0.0
            ),
            Err(Error::CapacityFull)
        );
        Ok(())
    }
}
