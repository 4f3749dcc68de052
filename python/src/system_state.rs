//! A system's node states (read and set, e.g. a measured state between steps), its
//! generalized-alpha settings and the Newton report of its last step.

use crate::errors::{self, invalid};
use crate::system::{idx, System};
use mbs_core::integrators::constrained::Formulation;
use mbs_core::math::Quaternion;
use mbs_core::system::{NodeIndex, NodeState, Rotations};
use nalgebra::{Vector2, Vector3};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `d[key]` as `N` floats, or `keep` if `d` has no `key`.
fn take<const N: usize>(d: &Bound<'_, PyDict>, key: &str, keep: [f64; N]) -> PyResult<[f64; N]> {
    match d.get_item(key)? {
        None => Ok(keep),
        Some(v) => v
            .extract::<[f64; N]>()
            .map_err(|_| invalid(&format!("{key}: {N} floats"))),
    }
}

fn array<'py>(py: Python<'py>, v: &[f64]) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_slice(py, v)
}

#[pymethods]
impl System {
    /// The state of `node` as a dict of float64 arrays: a 2D point `q`, `q_t`, `q_tt` (m, m/s,
    /// m/s^2: displacement from the reference); a 2D rigid body the same of `[x, y, theta]`; a
    /// 3D rigid body `position` (m), `orientation` ([w, x, y, z] of R_0b), `velocity` (m/s),
    /// `angular_velocity` (rad/s, world), `acceleration`, `angular_acceleration`; a ground
    /// node none.
    fn node_state<'py>(&self, py: Python<'py>, node: usize) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        match *self
            .model
            .sys
            .node_state(idx(node, NodeIndex)?)
            .map_err(errors::core)?
        {
            NodeState::Point2D(s) => {
                d.set_item("q", array(py, s.q.as_slice()))?;
                d.set_item("q_t", array(py, s.q_t.as_slice()))?;
                d.set_item("q_tt", array(py, s.q_tt.as_slice()))?;
            }
            NodeState::RigidBody2D(s) => {
                d.set_item("q", array(py, s.q.as_slice()))?;
                d.set_item("q_t", array(py, s.q_t.as_slice()))?;
                d.set_item("q_tt", array(py, s.q_tt.as_slice()))?;
            }
            NodeState::RigidBody(s) => {
                let q = s.orientation;
                d.set_item("position", array(py, s.position.as_slice()))?;
                d.set_item("orientation", array(py, &q.to_array()))?;
                d.set_item("velocity", array(py, s.velocity.as_slice()))?;
                d.set_item("angular_velocity", array(py, s.angular_velocity.as_slice()))?;
                d.set_item("acceleration", array(py, s.acceleration.as_slice()))?;
                d.set_item(
                    "angular_acceleration",
                    array(py, s.angular_acceleration.as_slice()),
                )?;
            }
            NodeState::Ground => {}
        }
        Ok(d)
    }

    /// Sets the state of `node` from a dict with the keys `node_state` gives (a key left out
    /// keeps its value), e.g. a measured state between steps. With generalized-alpha the next
    /// step first computes consistent accelerations and multipliers for it. Refused (nothing
    /// changed): unknown keys, a non-finite value, a zero quaternion, a tree link's node (set
    /// the tree's state).
    fn set_node_state(&mut self, node: usize, state: Bound<'_, PyDict>) -> PyResult<()> {
        let i = idx(node, NodeIndex)?;
        let current = *self.model.sys.node_state(i).map_err(errors::core)?;
        let keys: &[&str] = match current {
            NodeState::Point2D(_) | NodeState::RigidBody2D(_) => &["q", "q_t", "q_tt"],
            NodeState::RigidBody(_) => &[
                "position",
                "orientation",
                "velocity",
                "angular_velocity",
                "acceleration",
                "angular_acceleration",
            ],
            NodeState::Ground => &[],
        };
        for k in state.keys() {
            let k: String = k.extract()?;
            if !keys.contains(&k.as_str()) {
                return Err(invalid(&format!(
                    "unknown state key {k:?} (this node: {keys:?})"
                )));
            }
        }
        let new = match current {
            NodeState::Point2D(mut s) => {
                s.q = Vector2::from(take(&state, "q", s.q.into())?);
                s.q_t = Vector2::from(take(&state, "q_t", s.q_t.into())?);
                s.q_tt = Vector2::from(take(&state, "q_tt", s.q_tt.into())?);
                NodeState::Point2D(s)
            }
            NodeState::RigidBody2D(mut s) => {
                s.q = Vector3::from(take(&state, "q", s.q.into())?);
                s.q_t = Vector3::from(take(&state, "q_t", s.q_t.into())?);
                s.q_tt = Vector3::from(take(&state, "q_tt", s.q_tt.into())?);
                NodeState::RigidBody2D(s)
            }
            NodeState::RigidBody(mut s) => {
                let o = take(&state, "orientation", s.orientation.to_array())?;
                s.orientation = Quaternion::from_array(o);
                s.position = Vector3::from(take(&state, "position", s.position.into())?);
                s.velocity = Vector3::from(take(&state, "velocity", s.velocity.into())?);
                s.angular_velocity =
                    Vector3::from(take(&state, "angular_velocity", s.angular_velocity.into())?);
                s.acceleration =
                    Vector3::from(take(&state, "acceleration", s.acceleration.into())?);
                s.angular_acceleration = Vector3::from(take(
                    &state,
                    "angular_acceleration",
                    s.angular_acceleration.into(),
                )?);
                NodeState::RigidBody(s)
            }
            NodeState::Ground => NodeState::Ground,
        };
        self.model.sys.set_node_state(i, new).map_err(errors::core)
    }

    /// The generalized-alpha settings (Exudyn's `timeIntegration` names where it has them) as a
    /// dict: `spectral_radius`, `newton_relative_tolerance`, `newton_absolute_tolerance`,
    /// `max_newton_iterations`, `step_halving`, `formulation` ("index3" or
    /// "stabilized_index2"), `assembly_tolerance` (m or rad), `assembly_velocity_tolerance`,
    /// `solve_assembly` (project inconsistent initial positions instead of refusing them),
    /// `real_time_updates` (at most this many Newton updates a step, the last one taken
    /// without the evaluation that would only confirm it: a bounded step cost; 0 = off),
    /// `rotations` (the 3D rigid bodies' rotation coordinates: "euler_parameters", Exudyn's,
    /// or "lie_group", fewer unknowns and operations a step).
    fn alpha_settings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let a = &self.model.sys.settings().alpha;
        let d = PyDict::new(py);
        d.set_item("spectral_radius", a.spectral_radius)?;
        d.set_item("newton_relative_tolerance", a.newton.relative_tolerance)?;
        d.set_item("newton_absolute_tolerance", a.newton.absolute_tolerance)?;
        d.set_item("max_newton_iterations", a.newton.max_iterations)?;
        d.set_item("step_halving", a.step_halving)?;
        let f = match a.formulation {
            Formulation::StabilizedIndex2 => "stabilized_index2",
            _ => "index3",
        };
        d.set_item("formulation", f)?;
        d.set_item("assembly_tolerance", a.assembly.tolerance)?;
        d.set_item("assembly_velocity_tolerance", a.assembly.velocity_tolerance)?;
        d.set_item("solve_assembly", a.assembly.solve)?;
        d.set_item("real_time_updates", a.real_time_updates)?;
        let r = match a.rotations {
            Rotations::LieGroup => "lie_group",
            _ => "euler_parameters",
        };
        d.set_item("rotations", r)?;
        Ok(d)
    }

    /// Changes the generalized-alpha settings named in `settings` (the keys of
    /// `alpha_settings`); refused as a whole (nothing changed) for an unknown key or an invalid
    /// value.
    fn set_alpha_settings(&mut self, settings: Bound<'_, PyDict>) -> PyResult<()> {
        let mut s = *self.model.sys.settings();
        let a = &mut s.alpha;
        for (k, v) in settings.iter() {
            let k: String = k.extract()?;
            let bad = |_| invalid(&format!("{k}: wrong type"));
            match k.as_str() {
                "spectral_radius" => a.spectral_radius = v.extract().map_err(bad)?,
                "newton_relative_tolerance" => {
                    a.newton.relative_tolerance = v.extract().map_err(bad)?
                }
                "newton_absolute_tolerance" => {
                    a.newton.absolute_tolerance = v.extract().map_err(bad)?
                }
                "max_newton_iterations" => a.newton.max_iterations = v.extract().map_err(bad)?,
                "step_halving" => a.step_halving = v.extract().map_err(bad)?,
                "formulation" => {
                    a.formulation = match v.extract::<String>().map_err(bad)?.as_str() {
                        "index3" => Formulation::Index3,
                        "stabilized_index2" => Formulation::StabilizedIndex2,
                        other => {
                            return Err(invalid(&format!(
                                "unknown formulation {other:?} (index3, stabilized_index2)"
                            )))
                        }
                    }
                }
                "assembly_tolerance" => a.assembly.tolerance = v.extract().map_err(bad)?,
                "assembly_velocity_tolerance" => {
                    a.assembly.velocity_tolerance = v.extract().map_err(bad)?
                }
                "solve_assembly" => a.assembly.solve = v.extract().map_err(bad)?,
                "real_time_updates" => a.real_time_updates = v.extract().map_err(bad)?,
                "rotations" => {
                    a.rotations = match v.extract::<String>().map_err(bad)?.as_str() {
                        "euler_parameters" => Rotations::EulerParameters,
                        "lie_group" => Rotations::LieGroup,
                        other => {
                            return Err(invalid(&format!(
                                "unknown rotations {other:?} (euler_parameters, lie_group)"
                            )))
                        }
                    }
                }
                other => return Err(invalid(&format!("unknown setting {other:?}"))),
            }
        }
        a.scheme().map_err(errors::core)?;
        self.model.sys.set_settings(s).map_err(errors::core)
    }

    /// What the Newton iteration of the last generalized-alpha step did: `iterations`,
    /// `halvings`, `force_residual` (N), `constraint_residual` (m or rad) at convergence, and
    /// `history` (the residual before each update and at convergence); None before a step. A
    /// real-time step whose last update was taken unevaluated reports the residuals before it,
    /// and its `history` has `iterations` entries instead of `iterations + 1`.
    fn newton_report<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(r) = self.model.sys.newton_report() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("iterations", r.newton_iterations)?;
        d.set_item("halvings", r.halvings)?;
        d.set_item("force_residual", r.force_residual)?;
        d.set_item("constraint_residual", r.constraint_residual)?;
        let n = (r.history_len as usize).min(r.residual_history.len());
        d.set_item("history", array(py, &r.residual_history[..n]))?;
        Ok(Some(d))
    }
}
