//! [`CylinderShape`]: the few numbers a `BodyCylinder`'s default drawing needs, packed into its
//! object (Modelica Standard Library `Mechanics.MultiBody.Parts.BodyCylinder`'s shape
//! parameters).

use crate::bodies::body_cylinder::BodyCylinder;
use crate::graphics::{Color, GraphicsPrimitive, Shape};
use crate::Real;
use nalgebra::Vector3;

/// What a BodyCylinder's default shape needs, packed into its object slot (32 bytes, whatever
/// `T`): the half axis `e length / 2` (m, frame_a, f32), radius and inner radius (m, f32), the
/// specular coefficient, the color as RGBA8 (Modelica's colors are integers 0..255, so they are
/// kept exactly; other components are rounded to the nearest 1/255) with a mask of the `-1`
/// components, and the `animation` flag. The cylinder's centre is the body's centre of mass
/// `r_CM = r_shape + e length/2`, so `p0 = r_CM - half_axis`, `p1 = r_CM + half_axis`.
///
/// Geometry in f32 is a drawing precision (relative 6e-8); a shape whose radius or length does
/// not fit an f32 (below 1e-38 m or above 3e38 m) is not drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CylinderShape {
    half_axis: [f32; 3],
    radius: f32,
    inner_radius: f32,
    specular: f32,
    rgba8: [u8; 4],
    /// Bit 0: `animation`; bit 1 + k: color component k is `-1` (from `bodies.defaultColor`).
    flags: u8,
}

const _: () = assert!(core::mem::size_of::<CylinderShape>() == 32);

impl CylinderShape {
    /// Packs `cylinder`'s shape and animation parameters.
    pub fn of<T: Real>(cylinder: &BodyCylinder<T>) -> Self {
        let d = cylinder.derived();
        let n = d.length_direction.dot(&d.length_direction).sqrt_l();
        let h = d.length_direction * (d.length * T::c(0.5) / n);
        let look = cylinder.animation();
        let mut rgba8 = [0u8; 4];
        let mut flags = u8::from(look.animation);
        for (k, c) in look.color.rgba().iter().enumerate() {
            if *c < 0.0 {
                flags |= 1 << (k + 1);
            } else {
                rgba8[k] = (c * 255.0 + 0.5) as u8;
            }
        }
        Self {
            half_axis: [
                h.x.to_f64() as f32,
                h.y.to_f64() as f32,
                h.z.to_f64() as f32,
            ],
            radius: d.radius.to_f64() as f32,
            inner_radius: d.inner_radius.to_f64() as f32,
            specular: look.specular_coefficient,
            rgba8,
            flags,
        }
    }

    /// `animation`: whether the cylinder is drawn.
    pub fn animation(&self) -> bool {
        self.flags & 1 != 0
    }

    /// The color (components k/255, or `-1`).
    pub fn color(&self) -> Color {
        let mut c = [0.0f32; 4];
        for (k, x) in c.iter_mut().enumerate() {
            *x = if self.flags & (1 << (k + 1)) != 0 {
                -1.0
            } else {
                f32::from(self.rgba8[k]) / 255.0
            };
        }
        Color::new(c[0], c[1], c[2], c[3]).unwrap_or(Color::DEFAULT)
    }

    /// The cylinder primitive (frame_a) of a body whose centre of mass is `r_cm` (m, frame_a);
    /// `None` if the f32 numbers do not make a valid shape.
    pub fn primitive<T: Real>(&self, r_cm: &Vector3<T>) -> Option<GraphicsPrimitive<T>> {
        let h = Vector3::new(
            T::c(f64::from(self.half_axis[0])),
            T::c(f64::from(self.half_axis[1])),
            T::c(f64::from(self.half_axis[2])),
        );
        GraphicsPrimitive::new(
            Shape::Cylinder {
                p0: r_cm - h,
                p1: r_cm + h,
                radius: T::c(f64::from(self.radius)),
                inner_radius: T::c(f64::from(self.inner_radius)),
            },
            self.color(),
            self.specular,
        )
        .ok()
    }
}
