//! `System`: mbs's fixed-capacity system (`HostSystem<f64>`'s capacities, 256 nodes and objects,
//! 768 markers, 512 loads and connectors, 64 sensors, 128 constraints, and a kinematic tree of
//! 32 links) with Exudyn's item names, its sensors recorded into numpy arrays. SI units; vectors
//! in the world frame unless a name says `local` (body frame).

use crate::errors::{self, invalid};
use crate::python_load::PythonLoad;
use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::bodies::RigidBody2D;
use mbs_core::graphics::record::{write_run_header, RecordError};
use mbs_core::graphics::VisualizationSettings;
use mbs_core::inertia::{Cuboid, Cylinder, MassProperties, Sphere};
use mbs_core::math::Quaternion;
use mbs_core::nodes::{NodePointGround, NodeRigidBody2D};
use mbs_core::solver::{DynamicSolverType, SimulationSettings};
use mbs_core::system::{
    CartesianSpringDamper, Connector, ConnectorIndex, Constraint, ConstraintIndex, Control,
    CreatedBody as CoreBody, Load, LoadIndex, Marker, MarkerIndex, MassPointSpec, Node, NodeIndex,
    Object, ObjectIndex, Progress, RigidBodySpec, Sensor, SensorIndex, SensorSink, SolveReport,
    SpringDamper, StepReport, System as CoreSystem, SystemScheme, TorsionalSpringDamper,
};
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::{Matrix3, Vector2, Vector3};
use numpy::{PyArray1, PyArray2, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// `HostSystem`'s capacities and a kinematic tree of up to 32 links.
pub(crate) type Sys = CoreSystem<f64, 256, 256, 768, 512, 512, 64, 32, 128, 96, 32>;

/// Every sensor's rows `[t, values...]`, one flat `Vec` per sensor (core's `SensorSink`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Records {
    pub rows: Vec<Vec<f64>>,
    pub widths: Vec<usize>,
}

impl SensorSink<f64> for Records {
    fn record(&mut self, sensor: SensorIndex, t: f64, values: &[f64]) {
        if let Some(r) = self.rows.get_mut(sensor.get()) {
            r.push(t);
            r.extend_from_slice(values);
        }
    }
}

impl Records {
    fn clear(&mut self) {
        self.rows.iter_mut().for_each(Vec::clear);
    }
}

/// The system, its sensors' records and the Python functions of its user loads.
#[derive(Clone)]
pub(crate) struct Model {
    pub sys: Box<Sys>,
    pub records: Records,
    /// Kept alive as long as the system (and every copy) holds their addresses as contexts.
    pub user_loads: Vec<Arc<PythonLoad>>,
}

// SAFETY: the only raw pointers a core system holds are the contexts of user loads: each the
// address of a `PythonLoad` in `user_loads` (shared by copies through the `Arc`), whose
// function is called with the GIL taken and whose error slot is a mutex.
unsafe impl Send for Model {}
// SAFETY: as above.
unsafe impl Sync for Model {}

impl Model {
    /// `solve_dynamic` with `settings`, the records started over.
    pub fn solve(
        &mut self,
        settings: &SimulationSettings<f64>,
    ) -> Result<SolveReport, mbs_core::system::SystemError> {
        self.solve_observed(settings, |_, _| Control::Continue)
    }

    /// `solve_dynamic_observed` with `on_step`, the records started over.
    pub fn solve_observed(
        &mut self,
        settings: &SimulationSettings<f64>,
        on_step: impl FnMut(&Sys, &Progress<f64>) -> Control,
    ) -> Result<SolveReport, mbs_core::system::SystemError> {
        let saved = self.records.clone();
        self.records.clear();
        self.clear_load_errors();
        let r = self
            .sys
            .solve_dynamic_observed(settings, &mut self.records, on_step);
        if r.is_err() {
            self.records = saved;
        }
        r
    }
}

/// The nodes and items a `create_*` call made (Exudyn's `Create*` return values).
#[pyclass(module = "mbsdyn", frozen, get_all)]
#[derive(Clone, Copy)]
pub struct CreatedBody {
    /// The node.
    pub node: u16,
    /// The body (object).
    pub object: u16,
    /// Its mass marker (for gravity), or None.
    pub mass_marker: Option<u16>,
    /// Its gravity load, or None.
    pub gravity_load: Option<u16>,
}

#[pymethods]
impl CreatedBody {
    fn __repr__(&self) -> String {
        format!(
            "CreatedBody(node={}, object={}, mass_marker={:?}, gravity_load={:?})",
            self.node, self.object, self.mass_marker, self.gravity_load
        )
    }
}

impl From<CoreBody> for CreatedBody {
    fn from(b: CoreBody) -> Self {
        Self {
            node: b.node.0,
            object: b.object.0,
            mass_marker: b.mass_marker.map(|m| m.0),
            gravity_load: b.gravity_load.map(|l| l.0),
        }
    }
}

fn v3(a: [f64; 3]) -> Vector3<f64> {
    Vector3::from(a)
}

/// Item index `i` as the index type `f` makes (`MBS_ERR_UNKNOWN_INDEX` past `u16`).
pub(crate) fn idx<I>(i: usize, f: impl Fn(u16) -> I) -> PyResult<I> {
    u16::try_from(i).map(f).map_err(|_| errors::unknown_index())
}

/// The output variable of Exudyn's name (`"Position"`, `"Coordinates_t"`, ...).
pub(crate) fn variable(name: &str) -> PyResult<OutputVariableType> {
    OutputVariableType::from_name(name)
        .ok_or_else(|| invalid(&format!("unknown output variable {name:?}")))
}

fn values(v: OutputValue<f64>) -> Vec<f64> {
    match v {
        OutputValue::Scalar(x) => vec![x],
        OutputValue::Vector3(x) => x.as_slice().to_vec(),
        // Row-major, as the C API writes it.
        OutputValue::Matrix3(m) => m.transpose().as_slice().to_vec(),
    }
}

fn report_dict<'py>(py: Python<'py>, r: &StepReport) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("warning", r.status != mbs_core::integrators::StepStatus::Ok)?;
    d.set_item("substeps", r.substeps)?;
    d.set_item("force_evaluations", r.force_evaluations)?;
    d.set_item("newton_iterations", r.newton_iterations)?;
    d.set_item("halvings", r.halvings)?;
    Ok(d)
}

pub(crate) fn solve_report_dict<'py>(
    py: Python<'py>,
    r: &SolveReport,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("steps", r.steps)?;
    d.set_item("steps_too_large", r.steps_too_large)?;
    d.set_item("max_substeps", r.max_substeps)?;
    d.set_item("force_evaluations", r.force_evaluations)?;
    d.set_item("newton_iterations", r.newton_iterations)?;
    d.set_item("halvings", r.halvings)?;
    Ok(d)
}

/// Exudyn's `SimulationSettings` of a solve from keyword arguments.
pub(crate) fn simulation_settings(
    end_time: f64,
    number_of_steps: u32,
    start_time: f64,
    spectral_radius: Option<f64>,
    solver: &str,
) -> PyResult<SimulationSettings<f64>> {
    let mut s = SimulationSettings::default();
    (s.start_time, s.end_time, s.number_of_steps) = (start_time, end_time, number_of_steps);
    if let Some(r) = spectral_radius {
        s.spectral_radius = r;
    }
    s.solver_type = match solver {
        "generalized_alpha" => DynamicSolverType::GeneralizedAlpha,
        "system_scheme" => DynamicSolverType::SystemScheme,
        other => {
            return Err(invalid(&format!(
                "unknown solver {other:?} (generalized_alpha, system_scheme)"
            )))
        }
    };
    s.validate().map_err(errors::core)?;
    Ok(s)
}

/// A multibody system: nodes, bodies, markers, loads, connectors, constraints and sensors
/// (Exudyn's names), stepped by `step` or run by `solve_dynamic`.
#[pyclass(module = "mbsdyn")]
pub struct System {
    pub(crate) model: Model,
}

impl System {
    fn sys(&mut self) -> &mut Sys {
        &mut self.model.sys
    }
}

#[pymethods]
impl System {
    /// An empty system (time 0, kick-drift-kick scheme; `set_scheme` chooses another).
    #[new]
    fn new() -> Self {
        Self {
            model: Model {
                sys: Box::new(Sys::new()),
                records: Records::default(),
                user_loads: Vec::new(),
            },
        }
    }

    /// An independent copy (items, states, settings, time and records).
    fn copy(&self) -> Self {
        Self {
            model: self.model.clone(),
        }
    }

    /// The scheme `step` uses: "kick_drift_kick" (default) or "generalized_alpha" (needed for
    /// constraints and joints).
    fn set_scheme(&mut self, scheme: &str) -> PyResult<()> {
        let mut s = *self.model.sys.settings();
        s.scheme = match scheme {
            "kick_drift_kick" => SystemScheme::KickDriftKick,
            "generalized_alpha" => SystemScheme::GeneralizedAlpha,
            other => {
                let known = "\"kick_drift_kick\" or \"generalized_alpha\"";
                return Err(invalid(&format!("unknown scheme {other:?}: {known}")));
            }
        };
        self.sys().set_settings(s).map_err(errors::core)
    }

    /// Exudyn's `CreateGround`: a ground object at `reference_position` (m); its object index.
    #[pyo3(signature = (reference_position = [0.0, 0.0, 0.0]))]
    fn create_ground(&mut self, reference_position: [f64; 3]) -> PyResult<u16> {
        let o = self
            .sys()
            .create_ground(v3(reference_position))
            .map_err(errors::core)?;
        Ok(o.0)
    }

    /// Exudyn's `CreateMassPoint` of a 2D mass point (`NodePoint2D` + `MassPoint2D`): `mass`
    /// (kg), reference position, initial displacement and velocity (m, m/s, x-y plane), and
    /// `gravity` (m/s^2, 3D, its x and y act) if given.
    #[pyo3(signature = (mass, reference_position, initial_displacement = [0.0, 0.0], initial_velocity = [0.0, 0.0], gravity = None))]
    fn create_mass_point(
        &mut self,
        mass: f64,
        reference_position: [f64; 2],
        initial_displacement: [f64; 2],
        initial_velocity: [f64; 2],
        gravity: Option<[f64; 3]>,
    ) -> PyResult<CreatedBody> {
        let mut spec = MassPointSpec::new(mass, Vector2::from(reference_position));
        spec.initial_displacement = Vector2::from(initial_displacement);
        spec.initial_velocity = Vector2::from(initial_velocity);
        spec.gravity = gravity.map(v3);
        Ok(self
            .sys()
            .create_mass_point(&spec)
            .map_err(errors::core)?
            .into())
    }

    /// Exudyn's `CreateRigidBody`: `mass` (kg), `com` (m, body frame, from the reference
    /// point), `inertia` (kg m^2, 3x3 about the centre of mass, body frame), the reference
    /// point's `position` (m), `orientation` (unit quaternion [w, x, y, z] of R_0b),
    /// `velocity` (m/s), `angular_velocity` (rad/s, world), `gravity` (m/s^2) if given.
    #[pyo3(signature = (mass, inertia, position = [0.0, 0.0, 0.0], orientation = [1.0, 0.0, 0.0, 0.0], velocity = [0.0, 0.0, 0.0], angular_velocity = [0.0, 0.0, 0.0], com = [0.0, 0.0, 0.0], gravity = None))]
    #[allow(clippy::too_many_arguments)]
    fn create_rigid_body(
        &mut self,
        mass: f64,
        inertia: [[f64; 3]; 3],
        position: [f64; 3],
        orientation: [f64; 4],
        velocity: [f64; 3],
        angular_velocity: [f64; 3],
        com: [f64; 3],
        gravity: Option<[f64; 3]>,
    ) -> PyResult<CreatedBody> {
        let i = Matrix3::from_fn(|r, c| inertia[r][c]);
        let mp = MassProperties::new(mass, v3(com), i).map_err(errors::core)?;
        let mut spec = RigidBodySpec::at(v3(position));
        let [w, x, y, z] = orientation;
        spec.orientation = Quaternion::new(w, x, y, z);
        spec.velocity = v3(velocity);
        spec.angular_velocity = v3(angular_velocity);
        spec.gravity = gravity.map(v3);
        Ok(self
            .sys()
            .create_rigid_body(&mp, &spec)
            .map_err(errors::core)?
            .into())
    }

    /// Modelica's `BodyCylinder` from frame_a to frame_b at `r` (m, frame_a), `diameter` (m,
    /// default length/5), `inner_diameter` (m), `density` (kg/m^3, default steel 7700), its
    /// frame_a at `position` (m) turned by `angles` (rad) about the axes `sequence` (Modelica's
    /// `sequence_start`, default x, y, z in turn), moving with `velocity` (m/s, frame_a's
    /// origin, world) and `angular_velocity` (rad/s, world), with `gravity` (m/s^2) if given.
    #[pyo3(signature = (r, diameter = None, inner_diameter = 0.0, density = 7700.0, position = [0.0, 0.0, 0.0], angles = [0.0, 0.0, 0.0], sequence = [1, 2, 3], velocity = [0.0, 0.0, 0.0], angular_velocity = [0.0, 0.0, 0.0], gravity = None))]
    #[allow(clippy::too_many_arguments)]
    fn create_body_cylinder(
        &mut self,
        r: [f64; 3],
        diameter: Option<f64>,
        inner_diameter: f64,
        density: f64,
        position: [f64; 3],
        angles: [f64; 3],
        sequence: [u8; 3],
        velocity: [f64; 3],
        angular_velocity: [f64; 3],
        gravity: Option<[f64; 3]>,
    ) -> PyResult<CreatedBody> {
        let start = ModelicaStart {
            r_0_start: v3(position),
            angles_start: angles,
            sequence_start: sequence,
            v_0_start: v3(velocity),
            w_0_start: v3(angular_velocity),
            ..ModelicaStart::default()
        };
        let mut p = BodyCylinder::params(v3(r))
            .inner_diameter(inner_diameter)
            .density(density)
            .start(start);
        if let Some(d) = diameter {
            p = p.diameter(d);
        }
        let c = p.build().map_err(errors::core)?;
        Ok(self
            .sys()
            .create_body_cylinder(&c, gravity.map(v3))
            .map_err(errors::core)?
            .into())
    }

    /// Exudyn's `NodePointGround`: a fixed node at `reference_position` (m), e.g. for a
    /// coordinate constraint that holds another node's coordinate; the node's index.
    #[pyo3(signature = (reference_position = [0.0, 0.0, 0.0]))]
    fn add_node_point_ground(&mut self, reference_position: [f64; 3]) -> PyResult<u16> {
        let n = NodePointGround::new(v3(reference_position)).map_err(errors::core)?;
        Ok(self
            .sys()
            .add_node(Node::PointGround(n))
            .map_err(errors::core)?
            .0)
    }

    /// Exudyn's `NodeRigidBody2D`: coordinates `[x, y, theta]` (m, m, rad) of the reference
    /// point, as reference + initial displacement, with initial velocities (m/s, rad/s).
    #[pyo3(signature = (reference_coordinates, initial_coordinates = [0.0, 0.0, 0.0], initial_velocities = [0.0, 0.0, 0.0]))]
    fn add_node_rigid_body_2d(
        &mut self,
        reference_coordinates: [f64; 3],
        initial_coordinates: [f64; 3],
        initial_velocities: [f64; 3],
    ) -> PyResult<u16> {
        let n = NodeRigidBody2D::new(
            v3(reference_coordinates),
            v3(initial_coordinates),
            v3(initial_velocities),
        )
        .map_err(errors::core)?;
        Ok(self
            .sys()
            .add_node(Node::RigidBody2D(n))
            .map_err(errors::core)?
            .0)
    }

    /// Exudyn's `ObjectRigidBody2D` on `node`: `mass` (kg), `inertia` (kg m^2 about the centre
    /// of mass), `com` (m, body frame, from the reference point); the object's index.
    #[pyo3(signature = (node, mass, inertia, com = [0.0, 0.0]))]
    fn add_object_rigid_body_2d(
        &mut self,
        node: usize,
        mass: f64,
        inertia: f64,
        com: [f64; 2],
    ) -> PyResult<u16> {
        let body = RigidBody2D::new(mass, inertia, Vector2::from(com)).map_err(errors::core)?;
        let node = idx(node, NodeIndex)?;
        Ok(self
            .sys()
            .add_object(Object::RigidBody2D { node, body })
            .map_err(errors::core)?
            .0)
    }

    /// Exudyn's `MarkerNodePosition`: the position of `node`; the marker's index.
    fn add_marker_node_position(&mut self, node: usize) -> PyResult<u16> {
        let m = Marker::node_position(idx(node, NodeIndex)?);
        Ok(self.sys().add_marker(m).map_err(errors::core)?.0)
    }

    /// Exudyn's `MarkerBodyPosition`: a point of `body` at `local_position` (m, body frame).
    #[pyo3(signature = (body, local_position = [0.0, 0.0, 0.0]))]
    fn add_marker_body_position(&mut self, body: usize, local_position: [f64; 3]) -> PyResult<u16> {
        let m = Marker::body_position(idx(body, ObjectIndex)?, v3(local_position))
            .map_err(errors::core)?;
        Ok(self.sys().add_marker(m).map_err(errors::core)?.0)
    }

    /// Exudyn's `MarkerBodyRigid`: a frame of `body` at `local_position` (m, body frame),
    /// parallel to the body frame.
    #[pyo3(signature = (body, local_position = [0.0, 0.0, 0.0]))]
    fn add_marker_body_rigid(&mut self, body: usize, local_position: [f64; 3]) -> PyResult<u16> {
        let m = Marker::body_rigid(idx(body, ObjectIndex)?, v3(local_position))
            .map_err(errors::core)?;
        Ok(self.sys().add_marker(m).map_err(errors::core)?.0)
    }

    /// Exudyn's `MarkerBodyMass`: the whole mass of `body` (for gravity).
    fn add_marker_body_mass(&mut self, body: usize) -> PyResult<u16> {
        let m = Marker::body_mass(idx(body, ObjectIndex)?);
        Ok(self.sys().add_marker(m).map_err(errors::core)?.0)
    }

    /// Exudyn's `MarkerNodeCoordinate`: coordinate `coordinate` of `node`.
    fn add_marker_node_coordinate(&mut self, node: usize, coordinate: u16) -> PyResult<u16> {
        let m = Marker::node_coordinate(idx(node, NodeIndex)?, coordinate);
        Ok(self.sys().add_marker(m).map_err(errors::core)?.0)
    }

    /// `BodyCylinder`'s frame_a and frame_b as rigid markers, for joints.
    fn add_frame_markers(&mut self, body: usize) -> PyResult<(u16, u16)> {
        let [a, b] = self
            .sys()
            .add_frame_markers(idx(body, ObjectIndex)?)
            .map_err(errors::core)?;
        Ok((a.0, b.0))
    }

    /// Exudyn's `Force` (`LoadForceVector`): `force` (N, world) on `marker`; the load's index.
    fn add_load_force(&mut self, marker: usize, force: [f64; 3]) -> PyResult<u16> {
        let l = Load::force(idx(marker, MarkerIndex)?, v3(force)).map_err(errors::core)?;
        Ok(self.sys().add_load(l).map_err(errors::core)?.0)
    }

    /// Exudyn's `Torque` (`LoadTorqueVector`): `torque` (N m; body frame if `body_fixed`).
    #[pyo3(signature = (marker, torque, body_fixed = false))]
    fn add_load_torque(
        &mut self,
        marker: usize,
        torque: [f64; 3],
        body_fixed: bool,
    ) -> PyResult<u16> {
        let l = Load::torque(idx(marker, MarkerIndex)?, v3(torque), body_fixed)
            .map_err(errors::core)?;
        Ok(self.sys().add_load(l).map_err(errors::core)?.0)
    }

    /// Exudyn's `LoadMassProportional`: `gravity` (m/s^2) on a mass marker.
    fn add_load_mass_proportional(&mut self, marker: usize, gravity: [f64; 3]) -> PyResult<u16> {
        let l = Load::mass_proportional(idx(marker, MarkerIndex)?, v3(gravity))
            .map_err(errors::core)?;
        Ok(self.sys().add_load(l).map_err(errors::core)?.0)
    }

    /// A new vector (N, N m or m/s^2) for load `load`, e.g. between steps of a controller.
    fn set_load_vector(&mut self, load: usize, vector: [f64; 3]) -> PyResult<()> {
        let i = idx(load, LoadIndex)?;
        let v = v3(vector);
        let new = match *self.model.sys.load(i).map_err(errors::core)? {
            Load::ForceVector { marker, .. } => Load::force(marker, v),
            Load::TorqueVector {
                marker, body_fixed, ..
            } => Load::torque(marker, v, body_fixed),
            Load::MassProportional { marker, .. } => Load::mass_proportional(marker, v),
            _ => return Err(invalid("not a vector load")),
        }
        .map_err(errors::core)?;
        self.sys().replace_load(i, new).map_err(errors::core)
    }

    /// Exudyn's `ObjectConnectorSpringDamper` between two position markers: `stiffness` (N/m),
    /// `damping` (N s/m), `reference_length` (m), `force` (N, an offset); its index.
    #[pyo3(signature = (marker0, marker1, stiffness, damping, reference_length, force = 0.0))]
    fn add_spring_damper(
        &mut self,
        marker0: usize,
        marker1: usize,
        stiffness: f64,
        damping: f64,
        reference_length: f64,
        force: f64,
    ) -> PyResult<u16> {
        let m = [idx(marker0, MarkerIndex)?, idx(marker1, MarkerIndex)?];
        let c = Connector::SpringDamper(
            SpringDamper::new(m, stiffness, damping, reference_length, force)
                .map_err(errors::core)?,
        );
        Ok(self.sys().add_connector(c).map_err(errors::core)?.0)
    }

    /// Exudyn's `ObjectConnectorCartesianSpringDamper` between two position markers: per-axis
    /// `stiffness` (N/m), `damping` (N s/m) and `offset` (m, world): the force on marker 0 is
    /// `k .* (p1 - p0 - offset) + d .* (v1 - v0)`; its index.
    #[pyo3(signature = (marker0, marker1, stiffness, damping, offset = [0.0, 0.0, 0.0]))]
    fn add_cartesian_spring_damper(
        &mut self,
        marker0: usize,
        marker1: usize,
        stiffness: [f64; 3],
        damping: [f64; 3],
        offset: [f64; 3],
    ) -> PyResult<u16> {
        let m = [idx(marker0, MarkerIndex)?, idx(marker1, MarkerIndex)?];
        let c = CartesianSpringDamper::new(m, v3(stiffness), v3(damping), v3(offset))
            .map_err(errors::core)?;
        let c = Connector::CartesianSpringDamper(c);
        Ok(self.sys().add_connector(c).map_err(errors::core)?.0)
    }

    /// Exudyn's `ObjectConnectorTorsionalSpringDamper` between two rigid markers, about marker
    /// 0's z axis: `stiffness` (N m/rad), `damping` (N m s/rad), `offset` (rad), a constant
    /// `torque` (N m); its index.
    #[pyo3(signature = (marker0, marker1, stiffness, damping, offset = 0.0, torque = 0.0))]
    fn add_torsional_spring_damper(
        &mut self,
        marker0: usize,
        marker1: usize,
        stiffness: f64,
        damping: f64,
        offset: f64,
        torque: f64,
    ) -> PyResult<u16> {
        let m = [idx(marker0, MarkerIndex)?, idx(marker1, MarkerIndex)?];
        let c = TorsionalSpringDamper::new(m, stiffness, damping, offset, torque)
            .map_err(errors::core)?;
        let c = Connector::TorsionalSpringDamper(c);
        Ok(self.sys().add_connector(c).map_err(errors::core)?.0)
    }

    /// A new target angle `offset` (rad) and rate `rate_offset` (rad/s) of torsional
    /// spring-damper `connector` (a controller's set point between steps; stays assembled).
    #[pyo3(signature = (connector, offset, rate_offset = 0.0))]
    fn set_torsional_target(
        &mut self,
        connector: usize,
        offset: f64,
        rate_offset: f64,
    ) -> PyResult<()> {
        let i = idx(connector, ConnectorIndex)?;
        self.sys()
            .set_torsional_target(i, offset, rate_offset)
            .map_err(errors::core)
    }

    /// Exudyn's `ObjectConnectorDistance`: the markers' distance held at `distance` (m).
    fn add_distance_constraint(
        &mut self,
        marker0: usize,
        marker1: usize,
        distance: f64,
    ) -> PyResult<u16> {
        self.constraint(marker0, marker1, |m| Constraint::distance(m, distance))
    }

    /// Exudyn's `ObjectConnectorCoordinate`: `q1 factor - q0 = offset` of two coordinate
    /// markers (a ground coordinate fixes the other).
    #[pyo3(signature = (marker0, marker1, factor = 1.0, offset = 0.0))]
    fn add_coordinate_constraint(
        &mut self,
        marker0: usize,
        marker1: usize,
        factor: f64,
        offset: f64,
    ) -> PyResult<u16> {
        self.constraint(marker0, marker1, |m| {
            Constraint::coordinate(m, factor, offset)
        })
    }

    /// Exudyn's `RevoluteJoint2D` between two position markers.
    fn add_revolute_joint_2d(&mut self, marker0: usize, marker1: usize) -> PyResult<u16> {
        self.constraint(marker0, marker1, Constraint::revolute_2d)
    }

    /// Exudyn's `PrismaticJoint2D`: marker 1 slides along `axis_marker0` (marker 0's frame),
    /// `normal_marker1` (marker 1's frame) normal to it; the rotation locked if
    /// `constrain_rotation`.
    #[pyo3(signature = (marker0, marker1, axis_marker0 = [1.0, 0.0], normal_marker1 = [0.0, 1.0], constrain_rotation = true))]
    fn add_prismatic_joint_2d(
        &mut self,
        marker0: usize,
        marker1: usize,
        axis_marker0: [f64; 2],
        normal_marker1: [f64; 2],
        constrain_rotation: bool,
    ) -> PyResult<u16> {
        self.constraint(marker0, marker1, |m| {
            Constraint::prismatic_2d(
                m,
                Vector2::from(axis_marker0),
                Vector2::from(normal_marker1),
                constrain_rotation,
            )
        })
    }

    /// Exudyn's `SphericalJoint` between two rigid markers.
    fn add_spherical_joint(&mut self, marker0: usize, marker1: usize) -> PyResult<u16> {
        self.constraint(marker0, marker1, Constraint::spherical_joint)
    }

    /// Exudyn's `RevoluteJoint` about marker 0's z axis.
    fn add_revolute_joint(&mut self, marker0: usize, marker1: usize) -> PyResult<u16> {
        self.constraint(marker0, marker1, Constraint::revolute_joint)
    }

    /// Exudyn's `PrismaticJoint` along marker 0's x axis.
    fn add_prismatic_joint(&mut self, marker0: usize, marker1: usize) -> PyResult<u16> {
        self.constraint(marker0, marker1, Constraint::prismatic_joint)
    }

    /// Exudyn's `GenericJoint`: `constrained_axes` = [x, y, z, rx, ry, rz] (1 = locked) in
    /// marker 0's frame; all six a fixed joint.
    fn add_generic_joint(
        &mut self,
        marker0: usize,
        marker1: usize,
        constrained_axes: [bool; 6],
    ) -> PyResult<u16> {
        self.constraint(marker0, marker1, |m| {
            Constraint::generic_joint(m, constrained_axes)
        })
    }

    /// Exudyn's `SensorNode`: `variable` of `node` after every step; its index.
    fn add_sensor_node(&mut self, node: usize, variable: &str) -> PyResult<u16> {
        let s = Sensor::Node {
            node: idx(node, NodeIndex)?,
            variable: self::variable(variable)?,
        };
        self.sensor(s)
    }

    /// Exudyn's `SensorBody`: `variable` of `body` at `local_position` (m, body frame).
    #[pyo3(signature = (body, variable, local_position = [0.0, 0.0, 0.0]))]
    fn add_sensor_body(
        &mut self,
        body: usize,
        variable: &str,
        local_position: [f64; 3],
    ) -> PyResult<u16> {
        let s = Sensor::body(
            idx(body, ObjectIndex)?,
            v3(local_position),
            self::variable(variable)?,
        )
        .map_err(errors::core)?;
        self.sensor(s)
    }

    /// Exudyn's `SensorMarker`.
    fn add_sensor_marker(&mut self, marker: usize, variable: &str) -> PyResult<u16> {
        let s = Sensor::Marker {
            marker: idx(marker, MarkerIndex)?,
            variable: self::variable(variable)?,
        };
        self.sensor(s)
    }

    /// Exudyn's `SensorLoad`: the load's vector.
    fn add_sensor_load(&mut self, load: usize) -> PyResult<u16> {
        self.sensor(Sensor::Load {
            load: idx(load, LoadIndex)?,
        })
    }

    /// A constraint's `"Force"` or `"ConstraintResidual"`.
    fn add_sensor_constraint(&mut self, constraint: usize, variable: &str) -> PyResult<u16> {
        let s = Sensor::Constraint {
            constraint: idx(constraint, ConstraintIndex)?,
            variable: self::variable(variable)?,
        };
        self.sensor(s)
    }

    /// The rows a sensor recorded since the last solve (or reset): a float64 array of shape
    /// (rows, 1 + values), columns [t, values...].
    fn sensor_records<'py>(
        &self,
        py: Python<'py>,
        sensor: usize,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let (Some(rows), Some(w)) = (
            self.model.records.rows.get(sensor),
            self.model.records.widths.get(sensor),
        ) else {
            return Err(errors::unknown_index());
        };
        let n = rows.len() / (w + 1);
        let a = numpy::ndarray::Array2::from_shape_vec((n, w + 1), rows.clone())
            .map_err(|e| invalid(&e.to_string()))?;
        Ok(a.to_pyarray(py))
    }

    /// Checks the whole system and makes it ready to step (Exudyn's `Assemble`).
    fn assemble(&mut self) -> PyResult<()> {
        self.model.clear_load_errors();
        let r = self.model.sys.assemble();
        r.map_err(|e| self.model.error(e))
    }

    /// One step of `dt` (s) with the scheme; records a row of every sensor. A dict of what
    /// the step did.
    fn step<'py>(&mut self, py: Python<'py>, dt: f64) -> PyResult<Bound<'py, PyDict>> {
        self.model.clear_load_errors();
        let Model { sys, records, .. } = &mut self.model;
        let r = sys.step(dt, records);
        let r = r.map_err(|e| self.model.error(e))?;
        report_dict(py, &r)
    }

    /// Exudyn's `SolveDynamic`: from the initial state at `start_time`, `number_of_steps`
    /// equal steps to `end_time` (s); `solver` "generalized_alpha" (default, Exudyn's, with
    /// `spectral_radius`, default 0.9) or "system_scheme". The sensors' records start over.
    /// The GIL is released while it runs. With `on_step`, `on_step(step, steps, time)` is
    /// called at the start (step 0) and after every step (the GIL taken for the call); a true
    /// return value stops the run there (the state of that step, as a run of that many steps);
    /// `record_every = k > 0` also records a frame (`record_frame`'s text with `record_settings`)
    /// every k steps into the returned dict's "recording". An exception in `on_step` stops
    /// the run and is raised. A dict of what the solve did.
    #[pyo3(signature = (end_time, number_of_steps, start_time = 0.0, spectral_radius = None, solver = "generalized_alpha", on_step = None, record_every = 0, show_numbers = true, contour = None))]
    #[allow(clippy::too_many_arguments)]
    fn solve_dynamic<'py>(
        &mut self,
        py: Python<'py>,
        end_time: f64,
        number_of_steps: u32,
        start_time: f64,
        spectral_radius: Option<f64>,
        solver: &str,
        on_step: Option<Bound<'py, PyAny>>,
        record_every: u32,
        show_numbers: bool,
        contour: Option<&str>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let s = simulation_settings(
            end_time,
            number_of_steps,
            start_time,
            spectral_radius,
            solver,
        )?;
        let vis = visualization(show_numbers, contour)?;
        let model = &mut self.model;
        if on_step.is_none() && record_every == 0 {
            let r = py.detach(|| model.solve(&s));
            let r = r.map_err(|e| model.error(e))?;
            return solve_report_dict(py, &r);
        }
        let on_step = on_step.map(Bound::unbind);
        let mut failure: Option<PyErr> = None;
        let mut recording = String::new();
        let r = py.detach(|| {
            model.solve_observed(&s, |sys, p| {
                if record_every > 0 && p.step % record_every == 0 {
                    if let Err(e) = sys.record_frame(&vis, &mut recording) {
                        failure = Some(invalid(&format!("record: {e:?}")));
                        return Control::Stop;
                    }
                }
                let Some(f) = &on_step else {
                    return Control::Continue;
                };
                Python::attach(|py| match f.call1(py, (p.step, p.steps, p.time)) {
                    Ok(v) if v.is_truthy(py).unwrap_or(false) => Control::Stop,
                    Ok(_) => Control::Continue,
                    Err(e) => {
                        failure = Some(e);
                        Control::Stop
                    }
                })
            })
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let r = r.map_err(|e| model.error(e))?;
        let d = solve_report_dict(py, &r)?;
        if record_every > 0 {
            d.set_item("recording", recording)?;
        }
        Ok(d)
    }

    /// One frame of a run recording (`mbs-run 1`, read by `mbs-view page`): `frame <t>`, the
    /// scene's draw primitives, the colour bar; body numbers if `show_numbers`, contour colours
    /// by the output variable `contour` (its norm) if given.
    #[pyo3(signature = (show_numbers = true, contour = None))]
    fn record_frame(&self, show_numbers: bool, contour: Option<&str>) -> PyResult<String> {
        let vis = visualization(show_numbers, contour)?;
        let mut out = String::new();
        self.model
            .sys
            .record_frame(&vis, &mut out)
            .map_err(|e| match e {
                RecordError::Scene(e) => errors::core(e),
                RecordError::Write => invalid("record"),
            })?;
        Ok(out)
    }

    /// The time (s).
    #[getter]
    fn time(&self) -> f64 {
        self.model.sys.time()
    }

    /// Nodes, objects, markers, loads, connectors, sensors.
    fn counts(&self) -> [usize; 6] {
        self.model.sys.counts()
    }

    /// `variable` of `node` as a float64 array (1, 3 or 9 values; a matrix row-major).
    fn node_output<'py>(
        &self,
        py: Python<'py>,
        node: usize,
        variable: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let v = self
            .model
            .sys
            .node_output(idx(node, NodeIndex)?, self::variable(variable)?)
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, values(v)))
    }

    /// `variable` of `body` at `local_position` (m, body frame).
    #[pyo3(signature = (body, variable, local_position = [0.0, 0.0, 0.0]))]
    fn object_output<'py>(
        &self,
        py: Python<'py>,
        body: usize,
        variable: &str,
        local_position: [f64; 3],
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let v = self
            .model
            .sys
            .object_output(
                idx(body, ObjectIndex)?,
                self::variable(variable)?,
                &v3(local_position),
            )
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, values(v)))
    }

    /// `variable` of `marker`.
    fn marker_output<'py>(
        &self,
        py: Python<'py>,
        marker: usize,
        variable: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let v = self
            .model
            .sys
            .marker_output(idx(marker, MarkerIndex)?, self::variable(variable)?)
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, values(v)))
    }

    /// `variable` ("Force", "ConstraintResidual", ...) of `constraint`.
    fn constraint_output<'py>(
        &self,
        py: Python<'py>,
        constraint: usize,
        variable: &str,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let v = self
            .model
            .sys
            .constraint_output(idx(constraint, ConstraintIndex)?, self::variable(variable)?)
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, values(v)))
    }

    /// Every node back to its initial state, the time to 0, the records emptied.
    fn reset(&mut self) {
        self.model.sys.reset();
        self.model.records.clear();
    }

    fn __repr__(&self) -> String {
        let [n, o, m, l, c, s] = self.model.sys.counts();
        format!("System(t={}, nodes={n}, objects={o}, markers={m}, loads={l}, connectors={c}, sensors={s})", self.model.sys.time())
    }
}

impl System {
    fn constraint(
        &mut self,
        marker0: usize,
        marker1: usize,
        make: impl FnOnce([MarkerIndex; 2]) -> mbs_core::Result<Constraint<f64>>,
    ) -> PyResult<u16> {
        let c =
            make([idx(marker0, MarkerIndex)?, idx(marker1, MarkerIndex)?]).map_err(errors::core)?;
        let i: ConstraintIndex = self.sys().add_constraint(c).map_err(errors::core)?;
        Ok(i.0)
    }

    fn sensor(&mut self, s: Sensor<f64>) -> PyResult<u16> {
        let width = s.len();
        let i = self.sys().add_sensor(s).map_err(errors::core)?;
        self.model.records.rows.push(Vec::new());
        self.model.records.widths.push(width);
        Ok(i.0)
    }
}

/// `(mass, com, inertia)` as Python gets them.
type MassPropertiesTuple<'py> = (f64, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray2<f64>>);

/// Drawing settings: body numbers, contour colours by `contour` (its norm).
fn visualization(show_numbers: bool, contour: Option<&str>) -> PyResult<VisualizationSettings> {
    let mut vis = VisualizationSettings::default();
    vis.bodies.show_numbers = show_numbers;
    if let Some(c) = contour {
        vis.contour.output_variable = Some(variable(c)?);
        vis.contour.output_variable_component = -1;
    }
    Ok(vis)
}

/// The first records of a run recording (`mbs-run 1`) with `title`; frames follow
/// (`System.record_frame`), then `signal <name>` and `sample <t> <values...>` lines.
#[pyfunction]
#[pyo3(signature = (title = None))]
pub fn record_header(title: Option<&str>) -> String {
    let mut out = String::new();
    let _ = write_run_header(&mut out, title);
    out
}

/// Mass properties of Modelica's `BodyCylinder` from frame_a to frame_b at `r` (m, frame_a):
/// `(mass (kg), com (m, frame_a), inertia (kg m^2, 3x3 about the centre of mass, frame_a))`.
#[pyfunction]
#[pyo3(signature = (r, diameter = None, inner_diameter = 0.0, density = 7700.0))]
pub fn body_cylinder_mass_properties<'py>(
    py: Python<'py>,
    r: [f64; 3],
    diameter: Option<f64>,
    inner_diameter: f64,
    density: f64,
) -> PyResult<MassPropertiesTuple<'py>> {
    let mut c = Cylinder::new(v3(r))
        .inner_diameter(inner_diameter)
        .density(density);
    if let Some(d) = diameter {
        c = c.diameter(d);
    }
    let mp = c.mass_properties().map_err(errors::core)?;
    Ok(mass_properties_tuple(py, mp))
}

/// `(mass, com, inertia)` of a mass-properties result.
fn mass_properties_tuple(py: Python<'_>, mp: MassProperties<f64>) -> MassPropertiesTuple<'_> {
    let i = numpy::ndarray::Array2::from_shape_fn((3, 3), |(a, b)| mp.inertia[(a, b)]);
    (
        mp.mass,
        PyArray1::from_slice(py, mp.com.as_slice()),
        i.to_pyarray(py),
    )
}

/// Mass properties of a solid box of `dimensions` (m, edge lengths along the body axes) and
/// `density` (kg/m^3) centred at `center` (m): `(mass, com, inertia about the com)`.
#[pyfunction]
#[pyo3(signature = (dimensions, density = 7700.0, center = [0.0, 0.0, 0.0]))]
pub fn box_mass_properties<'py>(
    py: Python<'py>,
    dimensions: [f64; 3],
    density: f64,
    center: [f64; 3],
) -> PyResult<MassPropertiesTuple<'py>> {
    let mp = Cuboid::new(v3(dimensions))
        .density(density)
        .center(v3(center))
        .mass_properties()
        .map_err(errors::core)?;
    Ok(mass_properties_tuple(py, mp))
}

/// Mass properties of a sphere of `diameter` (m), hollow inside `inner_diameter` (m), of
/// `density` (kg/m^3) centred at `center` (m): `(mass, com, inertia about the com)`.
#[pyfunction]
#[pyo3(signature = (diameter, inner_diameter = 0.0, density = 7700.0, center = [0.0, 0.0, 0.0]))]
pub fn sphere_mass_properties<'py>(
    py: Python<'py>,
    diameter: f64,
    inner_diameter: f64,
    density: f64,
    center: [f64; 3],
) -> PyResult<MassPropertiesTuple<'py>> {
    let mp = Sphere::new(diameter)
        .inner_diameter(inner_diameter)
        .density(density)
        .center(v3(center))
        .mass_properties()
        .map_err(errors::core)?;
    Ok(mass_properties_tuple(py, mp))
}
