//! A kinematic tree as an item of a system (Exudyn's `ObjectKinematicTree`): its links become
//! rigid bodies of the system (markers, loads, joints, sensors act on them), its joint
//! coordinates are stepped by generalized-alpha with the rest; a controller sets joint forces
//! and P/D set points between steps.

use crate::errors;
use crate::system::System;
use crate::tree::{joint_spring, slice, KinematicTree};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

#[pymethods]
impl System {
    /// Adds `tree` (revolute, prismatic and fixed joints; copied in) at joint coordinates `q`
    /// and velocities `v`; each link becomes a rigid body (body frame = link frame). The object
    /// index of link 0 (`tree_link_object` gives each). One tree per system; the system is then
    /// stepped by generalized-alpha only.
    fn add_kinematic_tree(
        &mut self,
        tree: PyRef<'_, KinematicTree>,
        q: PyReadonlyArray1<'_, f64>,
        v: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<u16> {
        let o = self
            .model
            .sys
            .add_kinematic_tree(&tree.tree, slice(&q, "q")?, slice(&v, "v")?)
            .map_err(errors::core)?;
        Ok(o.0)
    }

    /// The object of link `link` of the system's tree.
    fn tree_link_object(&self, link: usize) -> PyResult<u16> {
        let o = self
            .model
            .sys
            .tree_link_object(link)
            .map_err(errors::core)?;
        Ok(o.0)
    }

    /// The tree's joint coordinates `q` (m or rad), velocities and accelerations (of the last
    /// step) as float64 arrays.
    #[allow(clippy::type_complexity)]
    fn tree_state<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<f64>>,
    )> {
        let (q, v, a) = self
            .model
            .sys
            .tree_state()
            .ok_or_else(errors::unknown_index)?;
        Ok((
            PyArray1::from_slice(py, q),
            PyArray1::from_slice(py, v),
            PyArray1::from_slice(py, a),
        ))
    }

    /// Sets the tree's joint coordinates and velocities (e.g. measured); the next
    /// generalized-alpha step starts from them with consistent accelerations.
    fn set_tree_state(
        &mut self,
        q: PyReadonlyArray1<'_, f64>,
        v: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<()> {
        self.model
            .sys
            .set_tree_state(slice(&q, "q")?, slice(&v, "v")?)
            .map_err(errors::core)
    }

    /// The joint forces `tau` (N m or N, one per tree coordinate; Exudyn's `jointForceVector`)
    /// from the next step on.
    fn set_tree_joint_forces(&mut self, tau: PyReadonlyArray1<'_, f64>) -> PyResult<()> {
        self.model
            .sys
            .set_tree_joint_forces(slice(&tau, "tau")?)
            .map_err(errors::core)
    }

    /// The P/D control of link `link`'s joint (Exudyn's `jointPositionOffsetVector` etc.):
    /// `stiffness` (N m/rad or N/m), `damping`, the set points `position_offset` and
    /// `velocity_offset`.
    #[pyo3(signature = (link, stiffness, damping, position_offset = 0.0, velocity_offset = 0.0))]
    fn set_tree_joint_spring(
        &mut self,
        link: usize,
        stiffness: f64,
        damping: f64,
        position_offset: f64,
        velocity_offset: f64,
    ) -> PyResult<()> {
        let spring = joint_spring(stiffness, damping, position_offset, velocity_offset);
        self.model
            .sys
            .set_tree_joint_spring(link, spring)
            .map_err(errors::core)
    }
}
