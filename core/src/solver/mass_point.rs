//! The dynamic solve of one [`MassPoint2D`] on its [`NodePoint2D`] under constant loads
//! (what Exudyn's mini example of `ObjectMassPoint2D` does with `mbs.SolveDynamic()`).
//!
//! Equations of motion: `diag(m, m) q_tt = sum_loads Q[0..2]`, integrated by
//! [`GeneralizedAlpha`] with the [`SimulationSettings`]. Loads are world-frame constants, so
//! `dQ/dq = dQ/dq_t = 0` is exact and passed to the integrator.
//!
//! In this single-body solve, the mass point's node has index 0 and its body index 0; a load
//! naming another index is `Err(UnknownIndex)`. A system of many bodies sums the same
//! [`loads`](crate::loads) over its own items.

use crate::bodies::MassPoint2D;
use crate::body::Generalized;
use crate::error::finite_all;
use crate::integrators::{ForceJacobians, GeneralizedAlpha, SecondOrderOde, SecondOrderState};
use crate::loads::{LoadForceVector, LoadMassProportional};
use crate::nodes::{NodePoint2D, Point2DState};
use crate::solver::settings::{DynamicSolverType, SimulationSettings};
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix2, Vector2, Vector3};

/// A load on the single mass point, with the index of its target (node 0 / body 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MassPointLoad<T: Real> {
    /// A force (N, world) on node `node` (Exudyn: `LoadForceVector` on a `MarkerNodePosition`).
    NodeForce {
        /// Node index (0 is the mass point's node).
        node: usize,
        /// The force.
        load: LoadForceVector<T>,
    },
    /// A force (N, world) at `local_position` (m, body frame) of body `body` (Exudyn:
    /// `LoadForceVector` on a `MarkerBodyPosition`).
    BodyForce {
        /// Body index (0 is the mass point).
        body: usize,
        /// Where the force acts (m, body frame, from the reference point).
        local_position: Vector3<T>,
        /// The force.
        load: LoadForceVector<T>,
    },
    /// A uniform acceleration (m/s^2, world) acting on the mass of body `body` (Exudyn:
    /// `LoadMassProportional` on a `MarkerBodyMass`): gravity.
    MassProportional {
        /// Body index (0 is the mass point).
        body: usize,
        /// The acceleration field.
        load: LoadMassProportional<T>,
    },
}

/// The mass point with its loads as a [`SecondOrderOde`] of 2 coordinates (the displacement
/// `q`, m, world): for stepping it in a real-time loop with [`GeneralizedAlpha::step`].
#[derive(Clone, Copy, Debug)]
pub struct MassPointOde<'a, T: Real> {
    node: &'a NodePoint2D<T>,
    body: &'a MassPoint2D<T>,
    loads: &'a [MassPointLoad<T>],
}

impl<'a, T: Real> MassPointOde<'a, T> {
    /// Checks the loads: `Err(UnknownIndex)` for a target other than node 0 / body 0,
    /// `Err(NotFinite(LocalPosition))` for a non-finite local position.
    pub fn new(
        node: &'a NodePoint2D<T>,
        body: &'a MassPoint2D<T>,
        loads: &'a [MassPointLoad<T>],
    ) -> Result<Self> {
        for l in loads {
            match l {
                MassPointLoad::NodeForce { node: i, .. }
                | MassPointLoad::MassProportional { body: i, .. } => {
                    if *i != 0 {
                        return Err(Error::UnknownIndex);
                    }
                }
                MassPointLoad::BodyForce {
                    body: i,
                    local_position,
                    ..
                } => {
                    if *i != 0 {
                        return Err(Error::UnknownIndex);
                    }
                    finite_all(local_position, Param::LocalPosition)?;
                }
            }
        }
        Ok(Self { node, body, loads })
    }

    /// The node state of an integrator state.
    pub fn node_state(state: &SecondOrderState<T, 2>) -> Point2DState<T> {
        Point2DState {
            q: state.q,
            q_t: state.q_t,
            q_tt: state.q_tt,
        }
    }
}

impl<T: Real> SecondOrderOde<T, 2> for MassPointOde<'_, T> {
    fn mass(&self, _t: T, _q: &Vector2<T>) -> Result<Matrix2<T>> {
        Ok(self.body.mass_matrix())
    }

    /// `f = sum of Q[0..2]` over the loads (N).
    fn force(&self, _t: T, q: &Vector2<T>, q_t: &Vector2<T>) -> Result<Vector2<T>> {
        let state = Point2DState {
            q: *q,
            q_t: *q_t,
            q_tt: Vector2::zeros(),
        };
        let config = self.node.configuration(&state);
        let mut sum = Generalized::<T>::zeros();
        for l in self.loads {
            sum += match l {
                MassPointLoad::NodeForce { load, .. } => {
                    load.generalized_force_on_node(self.node, &state)?
                }
                MassPointLoad::BodyForce {
                    local_position,
                    load,
                    ..
                } => load.generalized_force_on_body(self.body, &config, local_position)?,
                MassPointLoad::MassProportional { load, .. } => {
                    load.generalized_force(self.body, &config)?
                }
            };
        }
        Ok(Vector2::new(sum[0], sum[1]))
    }

    /// Both zero: constant world-frame loads and a constant `Jpos`.
    fn force_jacobians(
        &self,
        _t: T,
        _q: &Vector2<T>,
        _q_t: &Vector2<T>,
    ) -> Option<Result<ForceJacobians<T, 2>>> {
        Some(Ok(ForceJacobians {
            df_dq: self.body.force_jacobian_wrt_coordinates(),
            df_dq_t: Matrix2::zeros(),
        }))
    }
}

/// Exudyn's `SolveDynamic` for one mass point: integrates from `settings.start_time` to
/// `settings.end_time` in `settings.number_of_steps` equal steps, starting from the node's
/// initial coordinates and velocities with consistent accelerations, and returns the final
/// node state (`q_tt` = the accelerations at the end time).
///
/// Errors (nothing is modified; all inputs are borrowed): invalid settings
/// ([`SimulationSettings::validate`]; `OutOfRange(Setting)` for
/// [`DynamicSolverType::SystemScheme`]), an unknown load target or non-finite local position
/// ([`MassPointOde::new`]), and any error of a step.
pub fn solve_dynamic<T: Real>(
    node: &NodePoint2D<T>,
    body: &MassPoint2D<T>,
    loads: &[MassPointLoad<T>],
    settings: &SimulationSettings<T>,
) -> Result<Point2DState<T>> {
    settings.validate()?;
    let ode = MassPointOde::new(node, body, loads)?;
    let integrator = match settings.solver_type {
        DynamicSolverType::GeneralizedAlpha => {
            GeneralizedAlpha::new(settings.spectral_radius)?.with_newton(settings.newton)?
        }
        // a single body has no system coupling
        _ => return Err(crate::Error::OutOfRange(crate::Param::Setting)),
    };
    let h = settings.step_size();
    let mut state = integrator.initial_state(
        &ode,
        settings.start_time,
        &node.initial_coordinates(),
        &node.initial_velocities(),
    )?;
    for i in 0..settings.number_of_steps {
        // t_i = t_0 + i h (no accumulated round-off in the time)
        let t = settings.start_time + h * T::c(f64::from(i));
        integrator.step(&ode, &mut state, t, h)?;
    }
    Ok(MassPointOde::node_state(&state))
}
