//! Second-order ODEs `M(q) q_tt = f(t, q, q_t)` of `N` coordinates, and their state.
//!
//! A model (one body, or a system of connected bodies) implements [`SecondOrderOde`]; an
//! implicit integrator ([`generalized_alpha`]) iterates on it. Sizes are const generics, nothing allocates.

pub mod generalized_alpha;

use crate::{Real, Result};
use nalgebra::{SMatrix, SVector};

/// The state of a second-order ODE at one instant (plain data).
///
/// Build it with an integrator's `initial_state` (which computes consistent accelerations),
/// then let the integrator advance it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SecondOrderState<T: Real, const N: usize> {
    /// Coordinates `q` (units of the model, e.g. m).
    pub q: SVector<T, N>,
    /// Velocities `q_t`.
    pub q_t: SVector<T, N>,
    /// Accelerations `q_tt` satisfying `M q_tt = f(t, q, q_t)` at the state's time.
    pub q_tt: SVector<T, N>,
    /// Algorithmic acceleration of generalized-alpha (`a` of Arnold & Brüls; equals `q_tt` at
    /// the start and for a constant `q_tt`). Other schemes ignore it.
    pub a: SVector<T, N>,
}

impl<T: Real, const N: usize> SecondOrderState<T, N> {
    /// `true` if every component is finite.
    pub fn is_finite(&self) -> bool {
        crate::finite::all_finite_of(&[&self.q, &self.q_t, &self.q_tt, &self.a])
    }
}

/// The Jacobians of the force `f(t, q, q_t)`: `df/dq` (= minus the tangent stiffness) and
/// `df/dq_t` (= minus the tangent damping).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForceJacobians<T: Real, const N: usize> {
    /// `d f / d q`.
    pub df_dq: SMatrix<T, N, N>,
    /// `d f / d q_t`.
    pub df_dq_t: SMatrix<T, N, N>,
}

/// A second-order ODE `M(q) q_tt = f(t, q, q_t)` with `N` coordinates.
pub trait SecondOrderOde<T: Real, const N: usize> {
    /// The mass matrix `M(t, q)` (symmetric positive definite for a mechanical model).
    fn mass(&self, t: T, q: &SVector<T, N>) -> Result<SMatrix<T, N, N>>;

    /// The force `f(t, q, q_t)` (all applied, elastic, damping and gyroscopic forces).
    fn force(&self, t: T, q: &SVector<T, N>, q_t: &SVector<T, N>) -> Result<SVector<T, N>>;

    /// The exact Jacobians of `f`, if the model has them; `None` (the default) makes an
    /// integrator use forward finite differences (`N` extra force evaluations per Jacobian).
    fn force_jacobians(
        &self,
        _t: T,
        _q: &SVector<T, N>,
        _q_t: &SVector<T, N>,
    ) -> Option<Result<ForceJacobians<T, N>>> {
        None
    }
}

/// An ODE from a constant mass matrix and a force closure `f(t, q, q_t)`, optionally with
/// constant force Jacobians (a linear model); without them the integrator differentiates
/// numerically.
#[derive(Clone, Copy, Debug)]
pub struct FnOde<T: Real, const N: usize, F> {
    mass: SMatrix<T, N, N>,
    force: F,
    jacobians: Option<ForceJacobians<T, N>>,
}

impl<T: Real, const N: usize, F> FnOde<T, N, F>
where
    F: Fn(T, &SVector<T, N>, &SVector<T, N>) -> SVector<T, N>,
{
    /// `mass q_tt = force(t, q, q_t)`. `Err(NotFinite(Mass))` if `mass` is not finite.
    pub fn new(mass: SMatrix<T, N, N>, force: F) -> Result<Self> {
        crate::error::finite_all(&mass, crate::Param::Mass)?;
        Ok(Self {
            mass,
            force,
            jacobians: None,
        })
    }

    /// Gives the (constant) exact Jacobians `df/dq`, `df/dq_t`.
    /// `Err(NotFinite(Stiffness | Damping))` if not finite.
    pub fn with_constant_jacobians(
        mut self,
        df_dq: SMatrix<T, N, N>,
        df_dq_t: SMatrix<T, N, N>,
    ) -> Result<Self> {
        crate::error::finite_all(&df_dq, crate::Param::Stiffness)?;
        crate::error::finite_all(&df_dq_t, crate::Param::Damping)?;
        self.jacobians = Some(ForceJacobians { df_dq, df_dq_t });
        Ok(self)
    }
}

impl<T: Real, const N: usize, F> SecondOrderOde<T, N> for FnOde<T, N, F>
where
    F: Fn(T, &SVector<T, N>, &SVector<T, N>) -> SVector<T, N>,
{
    fn mass(&self, _t: T, _q: &SVector<T, N>) -> Result<SMatrix<T, N, N>> {
        Ok(self.mass)
    }

    fn force(&self, t: T, q: &SVector<T, N>, q_t: &SVector<T, N>) -> Result<SVector<T, N>> {
        Ok((self.force)(t, q, q_t))
    }

    fn force_jacobians(
        &self,
        _t: T,
        _q: &SVector<T, N>,
        _q_t: &SVector<T, N>,
    ) -> Option<Result<ForceJacobians<T, N>>> {
        self.jacobians.map(Ok)
    }
}
