//! Exudyn's `ObjectMassPoint2D`: a point mass on a [`NodePoint2D`](crate::nodes::NodePoint2D).
//!
//! The body frame is the world frame (`R_0b = I`). With the node's reference `r` and
//! displacement `q = [q_0, q_1]` (m, world):
//!
//! - equations of motion: `diag(m, m) q_tt = [f_0, f_1]`; `f_2` has no effect;
//! - `Position(p_loc) = [r + q, 0] + p_loc` (m, world), `Displacement = [q_0, q_1, 0]`,
//!   `Velocity = [q_t0, q_t1, 0]`, `Acceleration = [q_tt0, q_tt1, 0]` (world);
//! - `RotationMatrix = I`, `Rotation = AngularVelocity = AngularVelocityLocal = 0`
//!   (only for completeness, as in Exudyn);
//! - `KineticEnergy = 1/2 m v.v` (J), `PotentialEnergy = 0` (the body has no elastic energy;
//!   gravity is a load, not part of it); both only at `p_loc = [0, 0, 0]`;
//! - marker interface: `Jpos = [1 0; 0 1; 0 0]` for every local position, no rotation Jacobian,
//!   `int rho Jpos dV = m [1 0; 0 1; 0 0]`, `d(Jpos^T f)/dq = 0`, so `Q = Jpos^T f = [f_0, f_1]`.

use crate::body::{Body, Generalized, Jacobian};
use crate::error::{finite, finite_all};
use crate::nodes::point2d::point2d_jacobian;
use crate::nodes::Point2DConfiguration;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

/// A 2D mass point of mass `m` (kg).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassPoint2D<T: Real> {
    mass: T,
}

impl<T: Real> MassPoint2D<T> {
    /// A mass point of `mass` (kg). `Err(NotFinite(Mass))` for NaN/infinity,
    /// `Err(OutOfRange(Mass))` for `mass <= 0`.
    ///
    /// Exudyn's default mass is `0`; mbs refuses it because the mass matrix `diag(m, m)` would be
    /// singular and the equations of motion undefined.
    pub fn new(mass: T) -> Result<Self> {
        finite(mass, Param::Mass)?;
        if mass <= T::zero() {
            return Err(Error::OutOfRange(Param::Mass));
        }
        Ok(Self { mass })
    }

    /// The mass `m` (kg).
    pub fn mass(&self) -> T {
        self.mass
    }

    /// The mass matrix `diag(m, m)` (kg) of the coordinates `[q_0, q_1]`.
    pub fn mass_matrix(&self) -> Matrix2<T> {
        Matrix2::from_diagonal_element(self.mass)
    }

    /// `d(Jpos^T f)/dq` for a constant force `f` (N, world): zero, since `Jpos` is constant.
    pub fn force_jacobian_wrt_coordinates(&self) -> Matrix2<T> {
        Matrix2::zeros()
    }

    /// The generalized force `[f_0, f_1]` (N) of a force `f` (N, world); `f_2` has no effect.
    pub fn generalized_force_2d(&self, force: &Vector3<T>) -> Result<Vector2<T>> {
        finite_all(force, Param::Force)?;
        Ok(Vector2::new(force.x, force.y))
    }
}

fn check_local<T: Real>(local_position: &Vector3<T>) -> Result<()> {
    finite_all(local_position, Param::LocalPosition)
}

fn check_local_zero<T: Real>(local_position: &Vector3<T>) -> Result<()> {
    check_local(local_position)?;
    if local_position.iter().any(|x| *x != T::zero()) {
        return Err(Error::LocalPositionMustBeZero);
    }
    Ok(())
}

impl<T: Real> Body<T> for MassPoint2D<T> {
    type State = Point2DConfiguration<T>;

    fn coordinates(&self) -> usize {
        2
    }

    fn output(
        &self,
        state: &Point2DConfiguration<T>,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        check_local(local_position)?;
        state.check()?;
        let z = Vector3::zeros();
        Ok(match var {
            OutputVariableType::Position => OutputValue::Vector3(state.position() + local_position),
            OutputVariableType::Displacement => OutputValue::Vector3(state.displacement()),
            OutputVariableType::Velocity => OutputValue::Vector3(state.velocity()),
            OutputVariableType::Acceleration => OutputValue::Vector3(state.acceleration()),
            OutputVariableType::RotationMatrix => OutputValue::Matrix3(Matrix3::identity()),
            OutputVariableType::Rotation
            | OutputVariableType::AngularVelocity
            | OutputVariableType::AngularVelocityLocal => OutputValue::Vector3(z),
            OutputVariableType::KineticEnergy => {
                check_local_zero(local_position)?;
                let v = state.state.q_t;
                OutputValue::Scalar(T::c(0.5) * self.mass * v.dot(&v))
            }
            OutputVariableType::PotentialEnergy => {
                check_local_zero(local_position)?;
                OutputValue::Scalar(T::zero())
            }
            _ => return Err(Error::OutputNotAvailable),
        })
    }

    /// `[1 0; 0 1; 0 0]` for every local position (the body does not rotate).
    fn position_jacobian(
        &self,
        _state: &Point2DConfiguration<T>,
        local_position: &Vector3<T>,
    ) -> Result<Jacobian<T>> {
        check_local(local_position)?;
        Ok(point2d_jacobian())
    }

    /// `Err(JacobianNotAvailable)`: a mass point has no rotation coordinates.
    fn rotation_jacobian(&self, _state: &Point2DConfiguration<T>) -> Result<Jacobian<T>> {
        Err(Error::JacobianNotAvailable)
    }

    /// `m [1 0; 0 1; 0 0]` (kg).
    fn mass_jacobian_integral(&self, _state: &Point2DConfiguration<T>) -> Result<Jacobian<T>> {
        Ok(point2d_jacobian::<T>() * self.mass)
    }

    /// `Q = Jpos^T f = [f_0, f_1, 0, 0, 0, 0]`; a non-zero torque is
    /// `Err(JacobianNotAvailable)`.
    fn generalized_force(
        &self,
        state: &Point2DConfiguration<T>,
        local_position: &Vector3<T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Generalized<T>> {
        finite_all(force, Param::Force)?;
        finite_all(torque, Param::Torque)?;
        let mut q = self.position_jacobian(state, local_position)?.transpose() * force;
        if torque.iter().any(|t| *t != T::zero()) {
            q += self.rotation_jacobian(state)?.transpose() * torque;
        }
        Ok(q)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::nodes::NodePoint2D;
    use approx::assert_relative_eq;

    fn config() -> Point2DConfiguration<f64> {
        let n = NodePoint2D::new(
            Vector2::new(1.0, 2.0),
            Vector2::new(0.5, -0.25),
            Vector2::new(3.0, -4.0),
        )
        .unwrap();
        let mut s = n.initial_state();
        s.q_tt = Vector2::new(0.1, -9.81);
        n.configuration(&s)
    }

    fn vec3(v: OutputValue<f64>) -> Vector3<f64> {
        match v {
            OutputValue::Vector3(v) => v,
            other => panic!("not a vector: {other:?}"),
        }
    }

    #[test]
    fn outputs_match_exudyns_table() {
        let b = MassPoint2D::new(2.0).unwrap();
        let c = config();
        let z = Vector3::zeros();
        let loc = Vector3::new(0.1, 0.2, 0.3);
        let out = |var, l: &Vector3<f64>| b.output(&c, var, l);
        // p = p_ref + u + local position (body frame = global frame)
        assert_eq!(
            vec3(out(OutputVariableType::Position, &loc).unwrap()),
            Vector3::new(1.6, 1.95, 0.3)
        );
        assert_eq!(
            vec3(out(OutputVariableType::Displacement, &z).unwrap()),
            Vector3::new(0.5, -0.25, 0.0)
        );
        assert_eq!(
            vec3(out(OutputVariableType::Velocity, &loc).unwrap()),
            Vector3::new(3.0, -4.0, 0.0)
        );
        assert_eq!(
            vec3(out(OutputVariableType::Acceleration, &z).unwrap()),
            Vector3::new(0.1, -9.81, 0.0)
        );
        assert_eq!(
            out(OutputVariableType::RotationMatrix, &z),
            Ok(OutputValue::Matrix3(Matrix3::identity()))
        );
        for var in [
            OutputVariableType::Rotation,
            OutputVariableType::AngularVelocity,
            OutputVariableType::AngularVelocityLocal,
        ] {
            assert_eq!(out(var, &loc), Ok(OutputValue::Vector3(z)));
        }
        // 1/2 m |v|^2 with |v| = 5 (3-4-5 triangle): 25 J
        assert_eq!(
            out(OutputVariableType::KineticEnergy, &z),
            Ok(OutputValue::Scalar(25.0))
        );
        assert_eq!(
            out(OutputVariableType::PotentialEnergy, &z),
            Ok(OutputValue::Scalar(0.0))
        );
        assert_eq!(
            out(OutputVariableType::KineticEnergy, &loc),
            Err(Error::LocalPositionMustBeZero)
        );
        assert_eq!(
            out(
                OutputVariableType::PotentialEnergy,
                &Vector3::new(0.0, 0.0, 1e-300)
            ),
            Err(Error::LocalPositionMustBeZero)
        );
        assert_eq!(
            out(OutputVariableType::AngularAcceleration, &z),
            Err(Error::OutputNotAvailable)
        );
        assert_eq!(
            out(
                OutputVariableType::Position,
                &Vector3::new(f64::NAN, 0.0, 0.0)
            ),
            Err(Error::NotFinite(Param::LocalPosition))
        );
    }

    #[test]
    fn jacobians_and_generalized_forces() {
        let b = MassPoint2D::new(2.5).unwrap();
        let c = config();
        let loc = Vector3::new(0.3, -0.2, 7.0);
        let f = Vector3::new(1.5, -2.0, 99.0);
        let j = b.position_jacobian(&c, &loc).unwrap();
        assert_eq!(
            j.transpose() * f,
            Generalized::new(1.5, -2.0, 0.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(
            b.generalized_force(&c, &loc, &f, &Vector3::zeros()),
            Ok(Generalized::new(1.5, -2.0, 0.0, 0.0, 0.0, 0.0))
        );
        assert_eq!(b.generalized_force_2d(&f), Ok(Vector2::new(1.5, -2.0)));
        assert_eq!(b.rotation_jacobian(&c), Err(Error::JacobianNotAvailable));
        assert_eq!(
            b.generalized_force(&c, &loc, &f, &Vector3::new(0.0, 0.0, 1.0)),
            Err(Error::JacobianNotAvailable)
        );
        // gravity g: Q = m [g_0, g_1]
        let g = Vector3::new(0.0, -9.81, 3.0);
        let q = b.mass_jacobian_integral(&c).unwrap().transpose() * g;
        assert_relative_eq!(q[0], 0.0);
        assert_relative_eq!(q[1], -2.5 * 9.81, max_relative = 1e-15);
        assert_eq!(q[2], 0.0);
        assert_eq!(b.force_jacobian_wrt_coordinates(), Matrix2::zeros());
        assert_eq!(b.mass_matrix(), Matrix2::new(2.5, 0.0, 0.0, 2.5));
        assert_eq!(b.coordinates(), 2);
    }

    #[test]
    fn mass_must_be_positive_and_finite() {
        assert_eq!(MassPoint2D::new(0.0), Err(Error::OutOfRange(Param::Mass)));
        assert_eq!(MassPoint2D::new(-1.0), Err(Error::OutOfRange(Param::Mass)));
        assert_eq!(
            MassPoint2D::new(f64::NAN),
            Err(Error::NotFinite(Param::Mass))
        );
        assert_eq!(
            MassPoint2D::new(f32::INFINITY),
            Err(Error::NotFinite(Param::Mass))
        );
        assert_eq!(MassPoint2D::new(1e-30f64).map(|b| b.mass()), Ok(1e-30));
    }
}
