//! Exudyn's `NodePoint2D`: a point in the x-y plane with two displacement coordinates.
//!
//! Position of the point (m, world): `p_0 = [r_0 + q_0, r_1 + q_1, 0]`, with the reference
//! coordinates `r = [r_0, r_1]` (m, world) and the displacement coordinates `q = [q_0, q_1]`
//! (m, world). Velocity `v_0 = [q_t0, q_t1, 0]` (m/s, world).

use super::position::PositionNode;
use crate::body::Jacobian;
use crate::error::finite_all;
use crate::finite::all_finite;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Vector2, Vector3};

/// Parameters of a 2D point node (static, validated at construction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodePoint2D<T: Real> {
    reference_coordinates: Vector2<T>,
    initial_coordinates: Vector2<T>,
    initial_velocities: Vector2<T>,
}

impl<T: Real> NodePoint2D<T> {
    /// A node at `reference_coordinates` (m, world) with the initial displacement
    /// `initial_coordinates` (m, world; Exudyn default `[0, 0]`) and `initial_velocities`
    /// (m/s, world; default `[0, 0]`).
    ///
    /// `Err(NotFinite(Position))` for a NaN/infinite reference or displacement,
    /// `Err(NotFinite(Velocity))` for a NaN/infinite velocity.
    pub fn new(
        reference_coordinates: Vector2<T>,
        initial_coordinates: Vector2<T>,
        initial_velocities: Vector2<T>,
    ) -> Result<Self> {
        finite_all(&reference_coordinates, Param::Position)?;
        finite_all(&initial_coordinates, Param::Position)?;
        finite_all(&initial_velocities, Param::Velocity)?;
        Ok(Self {
            reference_coordinates,
            initial_coordinates,
            initial_velocities,
        })
    }

    /// A node at rest at `reference_coordinates` (m, world), zero initial displacement.
    pub fn at(reference_coordinates: Vector2<T>) -> Result<Self> {
        Self::new(reference_coordinates, Vector2::zeros(), Vector2::zeros())
    }

    /// Reference coordinates `[x, y]` (m, world).
    pub fn reference_coordinates(&self) -> Vector2<T> {
        self.reference_coordinates
    }

    /// Initial displacement `[q_0, q_1]` (m, world).
    pub fn initial_coordinates(&self) -> Vector2<T> {
        self.initial_coordinates
    }

    /// Initial velocity `[q_t0, q_t1]` (m/s, world).
    pub fn initial_velocities(&self) -> Vector2<T> {
        self.initial_velocities
    }

    /// The state at the start: the initial coordinates and velocities, zero acceleration
    /// (a solver replaces it by the consistent one, `M^-1 f(t_0, q_0, q_t0)`).
    pub fn initial_state(&self) -> Point2DState<T> {
        Point2DState {
            q: self.initial_coordinates,
            q_t: self.initial_velocities,
            q_tt: Vector2::zeros(),
        }
    }

    /// The node's reference together with `state`: what a body on this node reads.
    pub fn configuration(&self, state: &Point2DState<T>) -> Point2DConfiguration<T> {
        Point2DConfiguration {
            reference: self.reference_coordinates,
            state: *state,
        }
    }
}

/// The dynamic state of a [`NodePoint2D`] (plain data).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point2DState<T: Real> {
    /// Displacement coordinates `[q_0, q_1]` (m, world), measured from the reference.
    pub q: Vector2<T>,
    /// Velocities `[q_t0, q_t1]` (m/s, world).
    pub q_t: Vector2<T>,
    /// Accelerations `[q_tt0, q_tt1]` of the last solved step (m/s^2, world): the
    /// `Acceleration` output.
    pub q_tt: Vector2<T>,
}

impl<T: Real> Point2DState<T> {
    /// `true` if every component is finite.
    pub fn is_finite(&self) -> bool {
        all_finite(&self.q) && all_finite(&self.q_t) && all_finite(&self.q_tt)
    }
}

/// A [`NodePoint2D`]'s reference with its state: the current configuration of the point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point2DConfiguration<T: Real> {
    /// Reference coordinates `[x, y]` (m, world).
    pub reference: Vector2<T>,
    /// Displacements, velocities and last accelerations.
    pub state: Point2DState<T>,
}

impl<T: Real> Point2DConfiguration<T> {
    /// `true` if reference and state are finite.
    pub fn is_finite(&self) -> bool {
        all_finite(&self.reference) && self.state.is_finite()
    }

    /// `p_0 = [r_0 + q_0, r_1 + q_1, 0]` (m, world).
    pub fn position(&self) -> Vector3<T> {
        let p = self.reference + self.state.q;
        Vector3::new(p.x, p.y, T::zero())
    }

    /// `u_0 = [q_0, q_1, 0]` (m, world).
    pub fn displacement(&self) -> Vector3<T> {
        Vector3::new(self.state.q.x, self.state.q.y, T::zero())
    }

    /// `v_0 = [q_t0, q_t1, 0]` (m/s, world).
    pub fn velocity(&self) -> Vector3<T> {
        Vector3::new(self.state.q_t.x, self.state.q_t.y, T::zero())
    }

    /// `a_0 = [q_tt0, q_tt1, 0]` (m/s^2, world).
    pub fn acceleration(&self) -> Vector3<T> {
        Vector3::new(self.state.q_tt.x, self.state.q_tt.y, T::zero())
    }

    /// `Err(NonFiniteState)` unless reference and state are finite.
    pub fn check(&self) -> Result<()> {
        if self.is_finite() {
            Ok(())
        } else {
            Err(Error::NonFiniteState)
        }
    }
}

/// The position Jacobian of a 2D point, `[1 0; 0 1; 0 0]`, in the fixed 3x6 layout.
pub(crate) fn point2d_jacobian<T: Real>() -> Jacobian<T> {
    let mut j = Jacobian::zeros();
    j[(0, 0)] = T::one();
    j[(1, 1)] = T::one();
    j
}

impl<T: Real> PositionNode<T> for NodePoint2D<T> {
    type State = Point2DState<T>;

    fn coordinates(&self) -> usize {
        2
    }

    fn position(&self, state: &Point2DState<T>) -> Result<Vector3<T>> {
        let c = self.configuration(state);
        c.check()?;
        Ok(c.position())
    }

    fn velocity(&self, state: &Point2DState<T>) -> Result<Vector3<T>> {
        let c = self.configuration(state);
        c.check()?;
        Ok(c.velocity())
    }

    fn position_jacobian(&self, _state: &Point2DState<T>) -> Result<Jacobian<T>> {
        Ok(point2d_jacobian())
    }

    /// Position, Displacement, Velocity, Acceleration (world), Coordinates, CoordinatesT,
    /// CoordinatesTT (`[q, 0]`, ...); others `Err(OutputNotAvailable)`.
    fn output(&self, state: &Point2DState<T>, var: OutputVariableType) -> Result<OutputValue<T>> {
        let c = self.configuration(state);
        c.check()?;
        let v = match var {
            OutputVariableType::Position => c.position(),
            OutputVariableType::Displacement => c.displacement(),
            OutputVariableType::Velocity => c.velocity(),
            OutputVariableType::Acceleration => c.acceleration(),
            OutputVariableType::Coordinates => Vector3::new(state.q.x, state.q.y, T::zero()),
            OutputVariableType::CoordinatesT => Vector3::new(state.q_t.x, state.q_t.y, T::zero()),
            OutputVariableType::CoordinatesTT => {
                Vector3::new(state.q_tt.x, state.q_tt.y, T::zero())
            }
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
    fn node_outputs_follow_reference_plus_displacement() {
        let n = NodePoint2D::new(
            Vector2::new(1.0, 1.0),
            Vector2::new(0.5, 0.0),
            Vector2::new(0.5, -2.0),
        )
        .unwrap();
        let s = n.initial_state();
        assert_eq!(
            n.output(&s, OutputVariableType::Position),
            Ok(OutputValue::Vector3(Vector3::new(1.5, 1.0, 0.0)))
        );
        assert_eq!(
            n.output(&s, OutputVariableType::Displacement),
            Ok(OutputValue::Vector3(Vector3::new(0.5, 0.0, 0.0)))
        );
        assert_eq!(n.velocity(&s), Ok(Vector3::new(0.5, -2.0, 0.0)));
        assert_eq!(
            n.output(&s, OutputVariableType::RotationMatrix),
            Err(Error::OutputNotAvailable)
        );
        let j = n.position_jacobian(&s).unwrap();
        assert_eq!(
            j.transpose() * Vector3::new(3.0, 4.0, 5.0),
            crate::body::Generalized::new(3.0, 4.0, 0.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn non_finite_parameters_and_states_are_refused() {
        let z = Vector2::zeros();
        assert_eq!(
            NodePoint2D::new(Vector2::new(f64::NAN, 0.0), z, z),
            Err(Error::NotFinite(Param::Position))
        );
        assert_eq!(
            NodePoint2D::new(z, Vector2::new(0.0, f64::INFINITY), z),
            Err(Error::NotFinite(Param::Position))
        );
        assert_eq!(
            NodePoint2D::new(z, z, Vector2::new(f64::NAN, 0.0)),
            Err(Error::NotFinite(Param::Velocity))
        );
        let n = NodePoint2D::at(z).unwrap();
        let mut s = n.initial_state();
        s.q_t.y = f64::NAN;
        assert_eq!(n.position(&s), Err(Error::NonFiniteState));
    }
}
