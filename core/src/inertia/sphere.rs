//! [`Sphere`]: a solid or hollow sphere (thick spherical shell).
//!
//! Outer radius `r_o = diameter/2`, inner `r_i = innerDiameter/2` (m), centre at `center`
//! (m, frame_a). `m = density 4/3 pi (r_o^3 - r_i^3)` or given, and about the centre
//! `I = 2/5 m (r_o^5 - r_i^5)/(r_o^3 - r_i^3) E`, evaluated without cancellation as
//! `I = 2/5 m r_o^2 (1 + x + x^2 + x^3 + x^4)/(1 + x + x^2)`, `x = r_i/r_o`, and the volume as
//! `4/3 pi (r_o - r_i)(r_o^2 + r_o r_i + r_i^2)`. Limits: solid `2/5 m r^2`, thin shell
//! (`r_i -> r_o`) `2/3 m r^2`.

use super::cylinder::DEFAULT_DENSITY;
use super::{MassProperties, MassSpec};
use crate::finite::all_finite;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A solid or hollow sphere; see the module docs. Default: solid, density 7700 kg/m^3,
/// centred at the origin of frame_a.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere<T> {
    diameter: T,
    inner_diameter: T,
    mass: MassSpec<T>,
    center: Vector3<T>,
}

impl<T: Real> Sphere<T> {
    /// A solid sphere of outer `diameter` (m), density 7700 kg/m^3, centred at the origin.
    pub fn new(diameter: T) -> Self {
        Self {
            diameter,
            inner_diameter: T::zero(),
            mass: MassSpec::Density(T::c(DEFAULT_DENSITY)),
            center: Vector3::zeros(),
        }
    }

    /// Sets the inner diameter (m, default 0: solid); must stay strictly below the diameter.
    pub fn inner_diameter(mut self, inner_diameter: T) -> Self {
        self.inner_diameter = inner_diameter;
        self
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

    /// Sets the centre (m, frame_a).
    pub fn center(mut self, center: Vector3<T>) -> Self {
        self.center = center;
        self
    }

    /// Mass, centre of mass and inertia (about the centre, frame_a).
    ///
    /// Errors: `NotFinite(Diameter | InnerDiameter | CenterOfMass)`,
    /// `OutOfRange(Diameter | InnerDiameter)` for a negative value,
    /// `InnerDiameterNotBelowDiameter` unless `innerDiameter < diameter` (as the cylinder's
    /// assert; this refuses `diameter = 0`), the density/mass errors of [`MassSpec::mass`],
    /// `NotFinite(Inertia)` on overflow.
    pub fn mass_properties(&self) -> Result<MassProperties<T>> {
        let (d, di) = (self.diameter, self.inner_diameter);
        if !d.finite() {
            return Err(Error::NotFinite(Param::Diameter));
        }
        if !di.finite() {
            return Err(Error::NotFinite(Param::InnerDiameter));
        }
        if !all_finite(&self.center) {
            return Err(Error::NotFinite(Param::CenterOfMass));
        }
        if d < T::zero() {
            return Err(Error::OutOfRange(Param::Diameter));
        }
        if di < T::zero() {
            return Err(Error::OutOfRange(Param::InnerDiameter));
        }
        if di >= d {
            return Err(Error::InnerDiameterNotBelowDiameter);
        }
        let half = T::c(0.5);
        let (ro, ri) = (d * half, di * half);
        let volume = T::c(4.0 / 3.0) * T::pi() * (ro - ri) * (ro * ro + ro * ri + ri * ri);
        let m = self.mass.mass(volume)?;
        let x = ri / ro;
        let one = T::one();
        let ratio = (one + x * (one + x * (one + x * (one + x)))) / (one + x * (one + x));
        let i = T::c(0.4) * m * ro * ro * ratio;
        if !i.finite() {
            return Err(Error::NotFinite(Param::Inertia));
        }
        Ok(MassProperties {
            mass: m,
            com: self.center,
            inertia: Matrix3::identity() * i,
        })
    }
}
