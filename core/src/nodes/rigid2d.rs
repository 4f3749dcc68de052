//! Exudyn's `NodeRigidBody2D`: a rigid body's reference point and orientation in the x-y plane,
//! three coordinates.
//!
//! Coordinates `q = [x, y, theta]` are displacements from the reference `r = [r_x, r_y,
//! r_theta]`: the reference point is at `[r_x + x, r_y + y, 0]` (m, world) and the body frame
//! is turned by `phi = r_theta + theta` (rad) about the world z axis,
//! `R_0b = [cos phi, -sin phi, 0; sin phi, cos phi, 0; 0, 0, 1]`.

use crate::error::finite_all;
use crate::finite::all_finite;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix3, Vector2, Vector3};

/// Parameters of a 2D rigid-body node (static, validated at construction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeRigidBody2D<T: Real> {
    reference_coordinates: Vector3<T>,
    initial_coordinates: Vector3<T>,
    initial_velocities: Vector3<T>,
}

impl<T: Real> NodeRigidBody2D<T> {
    /// A node at `reference_coordinates` `[x, y, theta]` (m, m, rad) with the initial
    /// displacement `initial_coordinates` and `initial_velocities` (m/s, m/s, rad/s; Exudyn's
    /// defaults zero). `Err(NotFinite(Position | Velocity))` for NaN/infinity.
    pub fn new(
        reference_coordinates: Vector3<T>,
        initial_coordinates: Vector3<T>,
        initial_velocities: Vector3<T>,
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

    /// A node at rest at `reference_coordinates`, zero initial displacement.
    pub fn at(reference_coordinates: Vector3<T>) -> Result<Self> {
        Self::new(reference_coordinates, Vector3::zeros(), Vector3::zeros())
    }

    /// Reference coordinates `[x, y, theta]` (m, m, rad).
    pub fn reference_coordinates(&self) -> Vector3<T> {
        self.reference_coordinates
    }

    /// The state at the start: the initial coordinates and velocities, zero acceleration.
    pub fn initial_state(&self) -> Rigid2DState<T> {
        Rigid2DState {
            q: self.initial_coordinates,
            q_t: self.initial_velocities,
            q_tt: Vector3::zeros(),
        }
    }

    /// The node's reference together with `state`: what a body on this node reads.
    pub fn configuration(&self, state: &Rigid2DState<T>) -> Rigid2DConfiguration<T> {
        Rigid2DConfiguration {
            reference: self.reference_coordinates,
            state: *state,
        }
    }
}

/// The dynamic state of a [`NodeRigidBody2D`] (plain data).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rigid2DState<T: Real> {
    /// Displacements `[x, y, theta]` (m, m, rad) from the reference.
    pub q: Vector3<T>,
    /// Velocities (m/s, m/s, rad/s).
    pub q_t: Vector3<T>,
    /// Accelerations of the last solved step (m/s^2, m/s^2, rad/s^2).
    pub q_tt: Vector3<T>,
}

impl<T: Real> Rigid2DState<T> {
    /// `true` if every component is finite.
    pub fn is_finite(&self) -> bool {
        all_finite(&self.q) && all_finite(&self.q_t) && all_finite(&self.q_tt)
    }
}

/// A [`NodeRigidBody2D`]'s reference with its state: the current configuration of the body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rigid2DConfiguration<T: Real> {
    /// Reference coordinates `[x, y, theta]` (m, m, rad).
    pub reference: Vector3<T>,
    /// Displacements, velocities and last accelerations.
    pub state: Rigid2DState<T>,
}

impl<T: Real> Rigid2DConfiguration<T> {
    /// `true` if reference and state are finite.
    pub fn is_finite(&self) -> bool {
        all_finite(&self.reference) && self.state.is_finite()
    }

    /// `Err(NonFiniteState)` unless reference and state are finite.
    pub fn check(&self) -> Result<()> {
        if self.is_finite() {
            Ok(())
        } else {
            Err(Error::NonFiniteState)
        }
    }

    /// The reference point `[r_x + x, r_y + y]` (m, world).
    pub fn point(&self) -> Vector2<T> {
        Vector2::new(
            self.reference.x + self.state.q.x,
            self.reference.y + self.state.q.y,
        )
    }

    /// The angle `phi = r_theta + theta` (rad) of the body frame.
    pub fn angle(&self) -> T {
        self.reference.z + self.state.q.z
    }

    /// `R_0b` (body to world).
    pub fn rotation_matrix(&self) -> Matrix3<T> {
        let (s, c) = self.angle().sin_cos_l();
        let (o, z) = (T::one(), T::zero());
        Matrix3::new(c, -s, z, s, c, z, z, z, o)
    }

    /// Exudyn's node outputs (world frame, z = 0): `Position` `[r_x + x, r_y + y, 0]`,
    /// `Displacement` `[x, y, 0]`, `Velocity`, `Acceleration` of the reference point,
    /// `RotationMatrix` `R_0b`, `Rotation` `[0, 0, phi]`, `AngularVelocity` =
    /// `AngularVelocityLocal` `[0, 0, theta_t]`, `AngularAcceleration` `[0, 0, theta_tt]`,
    /// `Coordinates`, `CoordinatesT`, `CoordinatesTT` (`q`, `q_t`, `q_tt`); others
    /// `OutputNotAvailable`; `NonFiniteState`.
    pub fn output(&self, var: OutputVariableType) -> Result<OutputValue<T>> {
        self.check()?;
        let z = T::zero();
        let (q, v, a) = (self.state.q, self.state.q_t, self.state.q_tt);
        let p = self.point();
        let v3 = |x, y, w| OutputValue::Vector3(Vector3::new(x, y, w));
        Ok(match var {
            OutputVariableType::Position => v3(p.x, p.y, z),
            OutputVariableType::Displacement => v3(q.x, q.y, z),
            OutputVariableType::Velocity => v3(v.x, v.y, z),
            OutputVariableType::Acceleration => v3(a.x, a.y, z),
            OutputVariableType::RotationMatrix => OutputValue::Matrix3(self.rotation_matrix()),
            OutputVariableType::Rotation => v3(z, z, self.angle()),
            OutputVariableType::AngularVelocity | OutputVariableType::AngularVelocityLocal => {
                v3(z, z, v.z)
            }
            OutputVariableType::AngularAcceleration => v3(z, z, a.z),
            OutputVariableType::Coordinates => OutputValue::Vector3(q),
            OutputVariableType::CoordinatesT => OutputValue::Vector3(v),
            OutputVariableType::CoordinatesTT => OutputValue::Vector3(a),
            _ => return Err(Error::OutputNotAvailable),
        })
    }
}
