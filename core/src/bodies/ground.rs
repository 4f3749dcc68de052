//! Exudyn's `ObjectGround`: a body with no coordinates, fixed at a reference position, on which
//! markers for connectors to the world are placed.
//!
//! The ground frame is parallel to the world frame (`R_0b = I`). Outputs at a local position
//! `p_loc` (m): `Position = p_ref + p_loc` (world); `Displacement`, `Velocity`, `Acceleration`,
//! `Rotation`, `AngularVelocity`, `AngularVelocityLocal`, `AngularAcceleration` are zero;
//! `RotationMatrix = I`; `KineticEnergy = PotentialEnergy = 0` (only at `p_loc = 0`).
//! All Jacobians are zero (it has no coordinates), so a force on the ground does nothing.

use crate::body::{Body, Jacobian};
use crate::error::finite_all;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// The ground at `reference_position` (m, world).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObjectGround<T: Real> {
    reference_position: Vector3<T>,
}

impl<T: Real> ObjectGround<T> {
    /// The ground at `reference_position` (m, world; Exudyn default `[0, 0, 0]`).
    /// `Err(NotFinite(Position))` for NaN/infinite components.
    pub fn new(reference_position: Vector3<T>) -> Result<Self> {
        finite_all(&reference_position, Param::Position)?;
        Ok(Self { reference_position })
    }

    /// Reference position (m, world).
    pub fn reference_position(&self) -> Vector3<T> {
        self.reference_position
    }
}

impl<T: Real> Default for ObjectGround<T> {
    /// The ground at the origin.
    fn default() -> Self {
        Self {
            reference_position: Vector3::zeros(),
        }
    }
}

impl<T: Real> Body<T> for ObjectGround<T> {
    type State = ();

    fn coordinates(&self) -> usize {
        0
    }

    fn output(
        &self,
        _state: &(),
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        finite_all(local_position, Param::LocalPosition)?;
        let z = Vector3::zeros();
        Ok(match var {
            OutputVariableType::Position => {
                OutputValue::Vector3(self.reference_position + local_position)
            }
            OutputVariableType::Displacement
            | OutputVariableType::Velocity
            | OutputVariableType::Acceleration
            | OutputVariableType::Rotation
            | OutputVariableType::AngularVelocity
            | OutputVariableType::AngularVelocityLocal
            | OutputVariableType::AngularAcceleration => OutputValue::Vector3(z),
            OutputVariableType::RotationMatrix => OutputValue::Matrix3(Matrix3::identity()),
            OutputVariableType::KineticEnergy | OutputVariableType::PotentialEnergy => {
                if local_position.iter().any(|x| *x != T::zero()) {
                    return Err(Error::LocalPositionMustBeZero);
                }
                OutputValue::Scalar(T::zero())
            }
            // variants added to the shared enum later are not defined for the ground
            #[allow(unreachable_patterns)]
            _ => return Err(Error::OutputNotAvailable),
        })
    }

    fn position_jacobian(&self, _state: &(), local_position: &Vector3<T>) -> Result<Jacobian<T>> {
        finite_all(local_position, Param::LocalPosition)?;
        Ok(Jacobian::zeros())
    }

    fn rotation_jacobian(&self, _state: &()) -> Result<Jacobian<T>> {
        Ok(Jacobian::zeros())
    }

    fn mass_jacobian_integral(&self, _state: &()) -> Result<Jacobian<T>> {
        Ok(Jacobian::zeros())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::body::Generalized;

    #[test]
    fn ground_is_fixed_and_forces_on_it_vanish() {
        let g = ObjectGround::new(Vector3::new(1.0, -2.0, 0.5)).unwrap();
        let loc = Vector3::new(0.5, 0.5, 0.5);
        assert_eq!(
            g.output(&(), OutputVariableType::Position, &loc),
            Ok(OutputValue::Vector3(Vector3::new(1.5, -1.5, 1.0)))
        );
        assert_eq!(
            g.output(&(), OutputVariableType::Velocity, &loc),
            Ok(OutputValue::Vector3(Vector3::zeros()))
        );
        assert_eq!(
            g.output(&(), OutputVariableType::KineticEnergy, &loc),
            Err(Error::LocalPositionMustBeZero)
        );
        let q = g.generalized_force(
            &(),
            &loc,
            &Vector3::new(1.0, 2.0, 3.0),
            &Vector3::new(4.0, 5.0, 6.0),
        );
        assert_eq!(q, Ok(Generalized::zeros()));
        assert_eq!(g.coordinates(), 0);
        assert_eq!(
            ObjectGround::new(Vector3::new(f64::NAN, 0.0, 0.0)),
            Err(Error::NotFinite(Param::Position))
        );
    }
}
