//! Contour values: the scalar a body shows for `contour.outputVariable` /
//! `contour.outputVariableComponent` ([`contour_component`]) and the value range of the color
//! bar ([`ContourRange`]).

use super::color::Color;
use super::colormap::{colormap, normalize};
use crate::{Error, OutputValue, Param, Real, Result};

/// The scalar drawn for `value` and `component` (Exudyn's `outputVariableComponent`):
/// `-1` the norm (`|v| = sqrt(v.v)` for a vector, the Frobenius norm for a matrix, `|s|` for a
/// scalar), `k >= 0` component `k` (matrices row-major, a scalar has only component 0).
/// `None` for a component the value does not have: the body then keeps its own colors.
pub fn contour_component<T: Real>(value: &OutputValue<T>, component: i32) -> Option<T> {
    let mut buf = [T::zero(); 9];
    let n = value.write_to(&mut buf).ok()?;
    let comps = &buf[..n];
    match component {
        -1 => Some(
            comps
                .iter()
                .fold(T::zero(), |acc, x| acc + *x * *x)
                .sqrt_l(),
        ),
        k if k >= 0 => comps.get(k as usize).copied(),
        _ => None,
    }
}

/// The value range of a contour plot: `min` maps to the bottom color (blue), `max` to the top
/// (red). `min <= max`, both finite (unit of the output variable).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContourRange<T> {
    min: T,
    max: T,
}

impl<T: Real> ContourRange<T> {
    /// A range `[min, max]`.
    ///
    /// # Errors
    /// `NotFinite(Setting)` for NaN or infinity, `OutOfRange(Setting)` for `min > max`.
    pub fn new(min: T, max: T) -> Result<Self> {
        if !(min.finite() && max.finite()) {
            return Err(Error::NotFinite(Param::Setting));
        }
        if min > max {
            return Err(Error::OutOfRange(Param::Setting));
        }
        Ok(Self { min, max })
    }

    /// Lower end.
    pub fn min(&self) -> T {
        self.min
    }

    /// Upper end.
    pub fn max(&self) -> T {
        self.max
    }

    /// Widens the range to contain `v` (a finite value).
    pub fn include(&mut self, v: T) {
        if v < self.min {
            self.min = v;
        }
        if v > self.max {
            self.max = v;
        }
    }

    /// `v = (value - min)/(max - min)` (0 for `max == min`).
    pub fn normalize(&self, value: T) -> f32 {
        normalize(value, self.min, self.max)
    }

    /// The colormap's color of `value` in this range, with `alpha`.
    pub fn color(&self, value: T, alpha: f32) -> Color {
        colormap(self.normalize(value), alpha)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Vector3};

    #[test]
    fn components_and_norms() {
        let v = OutputValue::Vector3(Vector3::new(3.0f64, -4.0, 12.0));
        assert_eq!(contour_component(&v, 0), Some(3.0));
        assert_eq!(contour_component(&v, 1), Some(-4.0));
        assert_eq!(contour_component(&v, 2), Some(12.0));
        assert_eq!(contour_component(&v, -1), Some(13.0)); // 3-4-12-13 triangle
        assert_eq!(contour_component(&v, 3), None);
        assert_eq!(contour_component(&v, -2), None);
        let s = OutputValue::Scalar(-2.5f64);
        assert_eq!(contour_component(&s, 0), Some(-2.5));
        assert_eq!(contour_component(&s, -1), Some(2.5));
        assert_eq!(contour_component(&s, 1), None);
        let m = OutputValue::Matrix3(Matrix3::new(1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0));
        assert_eq!(contour_component(&m, 5), Some(6.0)); // row-major: (1, 2)
        assert_eq!(contour_component(&m, -1), Some(285.0f64.sqrt()));
        // The identity's Frobenius norm is sqrt(3).
        let i = OutputValue::Matrix3(Matrix3::<f64>::identity());
        assert_eq!(contour_component(&i, -1), Some(3.0f64.sqrt()));
    }

    #[test]
    fn range_checks_and_widens() -> Result<()> {
        assert_eq!(
            ContourRange::new(1.0f64, 0.0),
            Err(Error::OutOfRange(Param::Setting))
        );
        assert_eq!(
            ContourRange::new(f64::NAN, 0.0),
            Err(Error::NotFinite(Param::Setting))
        );
        let mut r = ContourRange::new(2.0f64, 2.0)?;
        r.include(-1.0);
        r.include(5.0);
        assert_eq!((r.min(), r.max()), (-1.0, 5.0));
        assert_eq!(r.normalize(2.0), 0.5);
        assert_eq!(r.color(5.0, 1.0).rgba(), [0.9, 0.1, 0.1, 1.0]);
        Ok(())
    }
}
