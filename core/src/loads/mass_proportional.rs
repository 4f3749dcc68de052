//! A uniform acceleration field acting on a body's mass (Exudyn's `LoadMassProportional` on a
//! `MarkerBodyMass`): gravity.
//!
//! `Q = (int_V rho Jpos dV)^T g`, with `g` (m/s^2, world). For a mass point: `Q = m [g_0, g_1]`.

use crate::body::{Body, Generalized};
use crate::error::finite_all;
use crate::{Param, Real, Result};
use nalgebra::Vector3;

/// A uniform acceleration `load_vector` (m/s^2, world frame), e.g. `[0, -9.81, 0]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadMassProportional<T: Real> {
    load_vector: Vector3<T>,
}

impl<T: Real> LoadMassProportional<T> {
    /// An acceleration field `load_vector` (m/s^2, world).
    /// `Err(NotFinite(Acceleration))` for NaN/infinite components.
    pub fn new(load_vector: Vector3<T>) -> Result<Self> {
        finite_all(&load_vector, Param::Acceleration)?;
        Ok(Self { load_vector })
    }

    /// Standard gravity, `9.80665 m/s^2` along `-y` (Modelica's world default).
    pub fn standard_gravity_minus_y() -> Self {
        Self {
            load_vector: Vector3::new(T::zero(), T::c(-9.80665), T::zero()),
        }
    }

    /// The acceleration (m/s^2, world).
    pub fn load_vector(&self) -> Vector3<T> {
        self.load_vector
    }

    /// `Q = (int rho Jpos dV)^T g` on `body` in `state`.
    pub fn generalized_force<B: Body<T>>(
        &self,
        body: &B,
        state: &B::State,
    ) -> Result<Generalized<T>> {
        Ok(body.mass_jacobian_integral(state)?.transpose() * self.load_vector)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::bodies::{MassPoint2D, ObjectGround};
    use crate::nodes::NodePoint2D;
    use crate::Error;
    use approx::assert_relative_eq;
    use nalgebra::Vector2;

    #[test]
    fn gravity_is_mass_times_g() {
        let n = NodePoint2D::at(Vector2::new(0.0, 0.0)).unwrap();
        let b = MassPoint2D::new(0.75).unwrap();
        let g = LoadMassProportional::new(Vector3::new(1.0, -9.81, 4.0)).unwrap();
        let q = g
            .generalized_force(&b, &n.configuration(&n.initial_state()))
            .unwrap();
        assert_relative_eq!(q[0], 0.75, max_relative = 1e-15);
        assert_relative_eq!(q[1], -0.75 * 9.81, max_relative = 1e-15);
        assert_eq!(q.rows(2, 4).iter().filter(|x| **x != 0.0).count(), 0);
        let ground = ObjectGround::<f64>::default();
        assert_eq!(g.generalized_force(&ground, &()), Ok(Generalized::zeros()));
        assert_eq!(
            LoadMassProportional::new(Vector3::new(f64::NAN, 0.0, 0.0)),
            Err(Error::NotFinite(Param::Acceleration))
        );
        assert_eq!(
            LoadMassProportional::<f64>::standard_gravity_minus_y().load_vector(),
            Vector3::new(0.0, -9.80665, 0.0)
        );
    }
}
