//! [`PointMass`]: a mass concentrated in one point (no inertia about itself).

use super::MassProperties;
use crate::finite::all_finite;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A point mass `mass` (kg) at `position` (m, frame_a): `I = 0` about itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointMass<T> {
    /// Mass (kg), `>= 0`.
    pub mass: T,
    /// Position (m): vector from frame_a to the point, resolved in frame_a.
    pub position: Vector3<T>,
}

impl<T: Real> PointMass<T> {
    /// A point mass `mass` (kg) at `position` (m, frame_a).
    pub fn new(mass: T, position: Vector3<T>) -> Self {
        Self { mass, position }
    }

    /// `MassProperties { mass, com: position, inertia: 0 }`.
    /// Errors: `NotFinite(Mass)`, `OutOfRange(Mass)` for a negative mass,
    /// `NotFinite(CenterOfMass)` for a non-finite position.
    pub fn mass_properties(&self) -> Result<MassProperties<T>> {
        if !self.mass.finite() {
            return Err(Error::NotFinite(Param::Mass));
        }
        if self.mass < T::zero() {
            return Err(Error::OutOfRange(Param::Mass));
        }
        if !all_finite(&self.position) {
            return Err(Error::NotFinite(Param::CenterOfMass));
        }
        Ok(MassProperties {
            mass: self.mass,
            com: self.position,
            inertia: Matrix3::zeros(),
        })
    }
}
