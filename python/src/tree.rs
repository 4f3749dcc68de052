//! `KinematicTree`: a tree of links in joint coordinates (Featherstone's algorithms; Exudyn's
//! `ObjectKinematicTree` parameters), up to 32 links and 48 coordinates, with numpy in and out.

use crate::errors::{self, invalid};
use mbs_core::inertia::MassProperties;
use mbs_core::tree::{
    Joint, JointSpring, KinematicTree as CoreTree, Transform, TreeData, TreeScheme,
    TreeStepSettings,
};
use nalgebra::{Matrix3, Vector3};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1, ToPyArray};
use pyo3::prelude::*;

type Tree = CoreTree<f64, 32, 48>;
type Data = TreeData<f64, 32, 48>;

/// A kinematic tree: links added parents first, each on a joint ("revolute" or "prismatic"
/// about/along a unit `axis`, "fixed", "spherical" (a unit quaternion, 4 coordinates, 3 rates)
/// or "free"), placed in its parent (`position` m, `rotation` 3x3 child-to-parent, at q = 0),
/// with its mass properties (kg; com m and inertia kg m^2 about the com, link frame).
#[pyclass(module = "mbsdyn")]
pub struct KinematicTree {
    pub(crate) tree: Tree,
    data: Box<Data>,
}

/// A contiguous float64 vector's values.
pub(crate) fn slice<'a>(a: &'a PyReadonlyArray1<'_, f64>, what: &str) -> PyResult<&'a [f64]> {
    a.as_slice()
        .map_err(|_| invalid(&format!("{what}: a contiguous float64 vector")))
}

/// Exudyn's joint P/D control of one joint.
pub(crate) fn joint_spring(
    stiffness: f64,
    damping: f64,
    position_offset: f64,
    velocity_offset: f64,
) -> JointSpring<f64> {
    JointSpring {
        stiffness,
        damping,
        position_offset,
        velocity_offset,
    }
}

#[pymethods]
impl KinematicTree {
    /// An empty tree under `gravity` (m/s^2, world).
    #[new]
    #[pyo3(signature = (gravity = [0.0, 0.0, -9.81]))]
    fn new(gravity: [f64; 3]) -> PyResult<Self> {
        Ok(Self {
            tree: Tree::new(Vector3::from(gravity)).map_err(errors::core)?,
            data: Box::new(Data::new()),
        })
    }

    /// Adds a link; its index. `parent` None = the base.
    #[pyo3(signature = (parent, joint, mass, inertia, axis = [0.0, 0.0, 1.0], position = [0.0, 0.0, 0.0], rotation = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], com = [0.0, 0.0, 0.0]))]
    #[allow(clippy::too_many_arguments)]
    fn add_link(
        &mut self,
        parent: Option<usize>,
        joint: &str,
        mass: f64,
        inertia: [[f64; 3]; 3],
        axis: [f64; 3],
        position: [f64; 3],
        rotation: [[f64; 3]; 3],
        com: [f64; 3],
    ) -> PyResult<usize> {
        let axis = Vector3::from(axis);
        let joint = match joint {
            "revolute" => Joint::Revolute { axis },
            "prismatic" => Joint::Prismatic { axis },
            "fixed" => Joint::Fixed,
            "spherical" => Joint::Spherical,
            "free" => Joint::Free,
            other => return Err(invalid(&format!("unknown joint {other:?}"))),
        };
        let placement = Transform::new(
            Matrix3::from_fn(|r, c| rotation[r][c]),
            Vector3::from(position),
        );
        let mp = MassProperties::new(
            mass,
            Vector3::from(com),
            Matrix3::from_fn(|r, c| inertia[r][c]),
        )
        .map_err(errors::core)?;
        self.tree
            .add_link(parent, joint, placement, &mp)
            .map_err(errors::core)
    }

    /// Position coordinates.
    #[getter]
    fn nq(&self) -> usize {
        self.tree.nq()
    }

    /// Velocity coordinates.
    #[getter]
    fn nv(&self) -> usize {
        self.tree.nv()
    }

    /// Inverse dynamics (RNEA): the joint forces (N or N m, length nv) for accelerations `a`.
    fn rnea<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
        v: PyReadonlyArray1<'_, f64>,
        a: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let mut tau = vec![0.0; self.tree.nv()];
        self.tree
            .rnea(
                &mut self.data,
                slice(&q, "q")?,
                slice(&v, "v")?,
                slice(&a, "a")?,
                &mut tau,
            )
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, tau))
    }

    /// The joint-space mass matrix M(q) (CRBA), shape (nv, nv).
    fn crba<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.tree
            .crba(&mut self.data, slice(&q, "q")?)
            .map_err(errors::core)?;
        let n = self.tree.nv();
        let data = &self.data;
        let m = numpy::ndarray::Array2::from_shape_fn((n, n), |(i, j)| {
            data.mass_matrix(i, j).unwrap_or(f64::NAN)
        });
        Ok(m.to_pyarray(py))
    }

    /// One step of `dt` (s) under joint forces `tau`: `scheme` "semi_implicit_euler" (joint
    /// damping implicit) or "rk4", with the rotation guard's sub-steps; the new `(q, v)`.
    #[pyo3(signature = (q, v, tau, dt, scheme = "semi_implicit_euler"))]
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
        v: PyReadonlyArray1<'_, f64>,
        tau: PyReadonlyArray1<'_, f64>,
        dt: f64,
        scheme: &str,
    ) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>)> {
        let scheme = match scheme {
            "semi_implicit_euler" => TreeScheme::SemiImplicitEuler,
            "rk4" => TreeScheme::RungeKutta4,
            other => {
                return Err(invalid(&format!(
                    "unknown scheme {other:?} (semi_implicit_euler, rk4)"
                )))
            }
        };
        let (mut q, mut v) = (slice(&q, "q")?.to_vec(), slice(&v, "v")?.to_vec());
        self.tree
            .step(
                &mut self.data,
                &mut q,
                &mut v,
                slice(&tau, "tau")?,
                dt,
                &TreeStepSettings::with_scheme(scheme),
            )
            .map_err(errors::core)?;
        Ok((PyArray1::from_vec(py, q), PyArray1::from_vec(py, v)))
    }

    /// Forward dynamics (ABA): the accelerations (length nv) under joint forces `tau`.
    fn aba<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
        v: PyReadonlyArray1<'_, f64>,
        tau: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let mut a = vec![0.0; self.tree.nv()];
        self.tree
            .aba(
                &mut self.data,
                slice(&q, "q")?,
                slice(&v, "v")?,
                slice(&tau, "tau")?,
                &mut a,
            )
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, a))
    }

    /// Exudyn's joint P/D control on link `link`'s joint: the generalized force
    /// `stiffness (position_offset - q) + damping (velocity_offset - q_t)` (N m or N).
    #[pyo3(signature = (link, stiffness, damping, position_offset = 0.0, velocity_offset = 0.0))]
    fn set_joint_spring(
        &mut self,
        link: usize,
        stiffness: f64,
        damping: f64,
        position_offset: f64,
        velocity_offset: f64,
    ) -> PyResult<()> {
        let spring = joint_spring(stiffness, damping, position_offset, velocity_offset);
        self.tree
            .set_joint_spring(link, spring)
            .map_err(errors::core)
    }

    /// The neutral configuration (zero angles and offsets, unit quaternions), length nq.
    fn neutral_configuration<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let mut q = vec![0.0; self.tree.nq()];
        self.tree
            .neutral_configuration(&mut q)
            .map_err(errors::core)?;
        Ok(PyArray1::from_vec(py, q))
    }

    /// The pose of link `link` at `q`: `(rotation (3, 3) link-to-world, position (3,) m)`.
    #[allow(clippy::type_complexity)]
    fn link_pose<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
        link: usize,
    ) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>)> {
        self.tree
            .forward_kinematics(&mut self.data, slice(&q, "q")?, None)
            .map_err(errors::core)?;
        let x = self
            .data
            .link_pose(link)
            .ok_or_else(errors::unknown_index)?;
        let r = numpy::ndarray::Array2::from_shape_fn((3, 3), |(i, j)| x.rotation[(i, j)]);
        Ok((
            r.to_pyarray(py),
            PyArray1::from_slice(py, x.translation.as_slice()),
        ))
    }

    /// `(kinetic, potential)` energy (J) at `(q, v)`: potential of gravity (zero at the world
    /// origin) and of the joint springs.
    fn energy(
        &mut self,
        q: PyReadonlyArray1<'_, f64>,
        v: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<(f64, f64)> {
        let q = slice(&q, "q")?;
        self.tree
            .forward_kinematics(&mut self.data, q, Some(slice(&v, "v")?))
            .map_err(errors::core)?;
        Ok((
            self.tree.kinetic_energy(&self.data),
            self.tree.potential_energy(&self.data, q),
        ))
    }

    /// `(mass (kg), centre of mass (m, world))` at `q`.
    fn center_of_mass<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
    ) -> PyResult<(f64, Bound<'py, PyArray1<f64>>)> {
        self.tree
            .forward_kinematics(&mut self.data, slice(&q, "q")?, None)
            .map_err(errors::core)?;
        let (m, c) = self.tree.center_of_mass(&self.data);
        Ok((m, PyArray1::from_slice(py, c.as_slice())))
    }

    /// The Jacobian (6, nv) of the point `point` (m, link coordinates) of link `link` at `q`:
    /// rows 0-2 the link's angular velocity (rad/s, world), rows 3-5 the point's velocity
    /// (m/s, world).
    #[pyo3(signature = (q, link, point = [0.0, 0.0, 0.0]))]
    fn point_jacobian<'py>(
        &mut self,
        py: Python<'py>,
        q: PyReadonlyArray1<'_, f64>,
        link: usize,
        point: [f64; 3],
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        self.tree
            .forward_kinematics(&mut self.data, slice(&q, "q")?, None)
            .map_err(errors::core)?;
        let n = self.tree.nv();
        let mut jac = vec![0.0; 6 * n];
        self.tree
            .point_jacobian(&self.data, link, &Vector3::from(point), &mut jac)
            .map_err(errors::core)?;
        let a = numpy::ndarray::Array2::from_shape_vec((6, n), jac)
            .map_err(|e| invalid(&e.to_string()))?;
        Ok(a.to_pyarray(py))
    }
}
