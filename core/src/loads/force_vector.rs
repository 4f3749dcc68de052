//! A constant force vector (Exudyn's `LoadForceVector` with `bodyFixed = False`).
//!
//! On a body at the local position `p_loc` (m, body frame): `Q = Jpos(p_loc)^T f`; on a node:
//! `Q = Jpos_node^T f`, with `f` (N, world).

use crate::body::{Body, Generalized};
use crate::error::finite_all;
use crate::nodes::PositionNode;
use crate::{Param, Real, Result};
use nalgebra::Vector3;

/// A constant force `load_vector` (N, world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadForceVector<T: Real> {
    load_vector: Vector3<T>,
}

impl<T: Real> LoadForceVector<T> {
    /// A force `load_vector` (N, world). `Err(NotFinite(Force))` for NaN/infinite components.
    pub fn new(load_vector: Vector3<T>) -> Result<Self> {
        finite_all(&load_vector, Param::Force)?;
        Ok(Self { load_vector })
    }

    /// The force (N, world).
    pub fn load_vector(&self) -> Vector3<T> {
        self.load_vector
    }

    /// `Q = Jpos(local_position)^T f` on `body` in `state`; `local_position` (m, body frame).
    pub fn generalized_force_on_body<B: Body<T>>(
        &self,
        body: &B,
        state: &B::State,
        local_position: &Vector3<T>,
    ) -> Result<Generalized<T>> {
        body.generalized_force(state, local_position, &self.load_vector, &Vector3::zeros())
    }

    /// `Q = Jpos_node^T f` on `node` in `state`.
    pub fn generalized_force_on_node<N: PositionNode<T>>(
        &self,
        node: &N,
        state: &N::State,
    ) -> Result<Generalized<T>> {
        Ok(node.position_jacobian(state)?.transpose() * self.load_vector)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::bodies::MassPoint2D;
    use crate::nodes::NodePoint2D;
    use crate::{Error, Param};
    use nalgebra::Vector2;

    #[test]
    fn force_acts_through_the_jacobian() {
        let n = NodePoint2D::at(Vector2::new(1.0, 1.0)).unwrap();
        let b = MassPoint2D::new(3.0).unwrap();
        let s = n.initial_state();
        let f = LoadForceVector::new(Vector3::new(2.0, -1.0, 5.0)).unwrap();
        let want = Generalized::new(2.0, -1.0, 0.0, 0.0, 0.0, 0.0);
        assert_eq!(f.generalized_force_on_node(&n, &s), Ok(want));
        assert_eq!(
            f.generalized_force_on_body(&b, &n.configuration(&s), &Vector3::new(0.1, 0.0, 0.0)),
            Ok(want)
        );
        assert_eq!(
            LoadForceVector::new(Vector3::new(0.0, f64::INFINITY, 0.0)),
            Err(Error::NotFinite(Param::Force))
        );
    }
}
