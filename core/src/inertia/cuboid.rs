//! [`Cuboid`]: a solid rectangular box with edges along the frame axes.
//!
//! Edge lengths `l = (l_x, l_y, l_z)` (m) along the x, y, z axes of frame_a, centre (= centre
//! of mass) at `center` (m, frame_a). Closed form about the centre:
//! `I = m/12 diag(l_y^2 + l_z^2, l_x^2 + l_z^2, l_x^2 + l_y^2)`, `m = density l_x l_y l_z` or
//! given. A box with another orientation: [`MassProperties::rotated`].

use super::cylinder::DEFAULT_DENSITY;
use super::{MassProperties, MassSpec};
use crate::finite::all_finite;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A solid box; see the module docs. Default: density 7700 kg/m^3, centre at the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<T> {
    dimensions: Vector3<T>,
    mass: MassSpec<T>,
    center: Vector3<T>,
}

impl<T: Real> Cuboid<T> {
    /// A box of edge lengths `dimensions = (l_x, l_y, l_z)` (m, along frame_a's axes),
    /// density 7700 kg/m^3, centred at the origin of frame_a.
    pub fn new(dimensions: Vector3<T>) -> Self {
        Self {
            dimensions,
            mass: MassSpec::Density(T::c(DEFAULT_DENSITY)),
            center: Vector3::zeros(),
        }
    }

    /// Sets a uniform density (kg/m^3).
    pub fn density(mut self, density: T) -> Self {
        self.mass = MassSpec::Density(density);
        self
    }

    /// Sets the total mass (kg) instead of the density.
    pub fn mass(mut self, mass: T) -> Self {
        self.mass = MassSpec::Mass(mass);
        self
    }

    /// Sets the centre (m, frame_a): vector from frame_a to the box centre.
    pub fn center(mut self, center: Vector3<T>) -> Self {
        self.center = center;
        self
    }

    /// Mass, centre of mass and inertia (about the centre, frame_a).
    ///
    /// Errors: `NotFinite(Dimensions)` / `OutOfRange(Dimensions)` for a non-finite or negative
    /// edge; `NotFinite(CenterOfMass)`; the density/mass errors of [`MassSpec::mass`];
    /// `NotFinite(Inertia)` on overflow. Zero edges are accepted (a plate or rod of given mass;
    /// with a density its mass is zero).
    pub fn mass_properties(&self) -> Result<MassProperties<T>> {
        let l = self.dimensions;
        if !all_finite(&l) {
            return Err(Error::NotFinite(Param::Dimensions));
        }
        if l.iter().any(|x| *x < T::zero()) {
            return Err(Error::OutOfRange(Param::Dimensions));
        }
        if !all_finite(&self.center) {
            return Err(Error::NotFinite(Param::CenterOfMass));
        }
        let m = self.mass.mass(l.x * l.y * l.z)?;
        let (x2, y2, z2) = (l.x * l.x, l.y * l.y, l.z * l.z);
        let k = m / T::c(12.0);
        let inertia =
            Matrix3::from_diagonal(&Vector3::new(k * (y2 + z2), k * (x2 + z2), k * (x2 + y2)));
        if !all_finite(&inertia) {
            return Err(Error::NotFinite(Param::Inertia));
        }
        Ok(MassProperties {
            mass: m,
            com: self.center,
            inertia,
        })
    }
}
