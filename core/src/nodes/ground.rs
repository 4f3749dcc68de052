//! Exudyn's `NodePointGround`: a fixed point with no coordinates, to which connectors and
//! markers attach.

use super::position::PositionNode;
use crate::body::Jacobian;
use crate::error::finite_all;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::Vector3;

/// A ground node at `reference_coordinates` `[x, y, z]` (m, world); it never moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodePointGround<T: Real> {
    reference_coordinates: Vector3<T>,
}

impl<T: Real> NodePointGround<T> {
    /// A ground node at `reference_coordinates` (m, world; Exudyn default `[0, 0, 0]`).
    /// `Err(NotFinite(Position))` if any component is NaN or infinite.
    pub fn new(reference_coordinates: Vector3<T>) -> Result<Self> {
        finite_all(&reference_coordinates, Param::Position)?;
        Ok(Self {
            reference_coordinates,
        })
    }

    /// Reference coordinates `[x, y, z]` (m, world).
    pub fn reference_coordinates(&self) -> Vector3<T> {
        self.reference_coordinates
    }
}

impl<T: Real> Default for NodePointGround<T> {
    /// A ground node at the origin.
    fn default() -> Self {
        Self {
            reference_coordinates: Vector3::zeros(),
        }
    }
}

impl<T: Real> PositionNode<T> for NodePointGround<T> {
    type State = ();

    fn coordinates(&self) -> usize {
        0
    }

    fn position(&self, _state: &()) -> Result<Vector3<T>> {
        Ok(self.reference_coordinates)
    }

    fn velocity(&self, _state: &()) -> Result<Vector3<T>> {
        Ok(Vector3::zeros())
    }

    /// All zeros: the ground has no coordinates, a force on it does nothing.
    fn position_jacobian(&self, _state: &()) -> Result<Jacobian<T>> {
        Ok(Jacobian::zeros())
    }

    /// Position (the reference), Displacement, Velocity, Acceleration (zeros);
    /// others `Err(OutputNotAvailable)`.
    fn output(&self, _state: &(), var: OutputVariableType) -> Result<OutputValue<T>> {
        let v = match var {
            OutputVariableType::Position => self.reference_coordinates,
            OutputVariableType::Displacement
            | OutputVariableType::Velocity
            | OutputVariableType::Acceleration => Vector3::zeros(),
            _ => return Err(Error::OutputNotAvailable),
        };
        Ok(OutputValue::Vector3(v))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn ground_node_stays_at_its_reference() {
        let g = NodePointGround::new(Vector3::new(1.0, 2.0, 3.0)).unwrap();
        assert_eq!(g.coordinates(), 0);
        assert_eq!(g.position(&()), Ok(Vector3::new(1.0, 2.0, 3.0)));
        assert_eq!(
            g.output(&(), OutputVariableType::Velocity),
            Ok(OutputValue::Vector3(Vector3::zeros()))
        );
        assert_eq!(
            g.output(&(), OutputVariableType::KineticEnergy),
            Err(Error::OutputNotAvailable)
        );
        assert_eq!(g.position_jacobian(&()), Ok(Jacobian::zeros()));
        assert_eq!(
            NodePointGround::new(Vector3::new(0.0, f64::NAN, 0.0)),
            Err(Error::NotFinite(Param::Position))
        );
    }
}
