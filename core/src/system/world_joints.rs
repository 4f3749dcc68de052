//! Joints placed in world coordinates, as Exudyn's `CreateRevoluteJoint(bodyNumbers, position,
//! axis)` and `CreatePrismaticJoint` place them: the caller gives two bodies, a point and an
//! axis in the world frame; the system puts a rigid marker on each body at that point with its
//! frame turned to the axis (in the bodies' poses now), then the joint between them.

use super::constraint::Constraint;
use super::index::{ConstraintIndex, MarkerIndex, ObjectIndex};
use super::marker::Marker;
use super::system::System;
use crate::finite::all_finite;
use crate::frames::{from_nxy, length};
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A joint added by [`System::add_revolute_joint_at`] or [`System::add_prismatic_joint_at`]:
/// the joint and its markers (on `objects[0]`, `objects[1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldJoint {
    /// The joint.
    pub joint: ConstraintIndex,
    /// Its markers: on the first body (marker 0, whose frame the joint's outputs use) and on
    /// the second.
    pub markers: [MarkerIndex; 2],
}

/// A frame `R_0m` (columns: its axes in the world) with `axis` as its axis number `k` (0: x,
/// 2: z): Modelica's `from_nxy(axis, axis)`, whose x is along `axis`, its columns turned
/// cyclically (a rotation still) so that `axis` is column `k`.
fn frame_along<T: Real>(axis: &Vector3<T>, k: usize) -> Matrix3<T> {
    let r = from_nxy(axis, axis).transpose();
    let c = |i: usize| r.column((i + 3 - k) % 3).into_owned();
    Matrix3::from_columns(&[c(0), c(1), c(2)])
}

impl<
        T: Real,
        const N: usize,
        const O: usize,
        const M: usize,
        const L: usize,
        const C: usize,
        const S: usize,
        const G: usize,
        const K: usize,
        const W: usize,
        const J: usize,
    > System<T, N, O, M, L, C, S, G, K, W, J>
{
    /// Exudyn's `CreateRevoluteJoint`: a revolute joint ([`Constraint::revolute_joint`])
    /// between `objects` (3D rigid bodies or the ground) about `axis` (world, any length > 0)
    /// through `point` (m, world), in the bodies' poses now: each body gets a rigid marker at
    /// `point` with its z axis along `axis`. The joint's `Rotation` z is then the angle the
    /// second body turned about `axis` relative to the first since now.
    ///
    /// Errors (nothing added): `NotFinite(Position | Direction)`; `OutOfRange(Direction)` for
    /// a zero axis; `UnknownIndex`; `CapacityFull` (two markers and a constraint needed);
    /// those of the markers and of [`System::add_constraint`] (`SameBody`, ...).
    pub fn add_revolute_joint_at(
        &mut self,
        objects: [ObjectIndex; 2],
        point: Vector3<T>,
        axis: Vector3<T>,
    ) -> Result<WorldJoint> {
        self.add_joint_at(objects, point, axis, 2, Constraint::revolute_joint)
    }

    /// Exudyn's `CreatePrismaticJoint`: a prismatic joint ([`Constraint::prismatic_joint`])
    /// between `objects` along `axis` (world, any length > 0) through `point` (m, world), in
    /// the bodies' poses now: each body gets a rigid marker at `point` with its x axis along
    /// `axis`. The joint's `DisplacementLocal` x is then the second body's travel along `axis`
    /// relative to the first since now. Errors as [`System::add_revolute_joint_at`].
    pub fn add_prismatic_joint_at(
        &mut self,
        objects: [ObjectIndex; 2],
        point: Vector3<T>,
        axis: Vector3<T>,
    ) -> Result<WorldJoint> {
        self.add_joint_at(objects, point, axis, 0, Constraint::prismatic_joint)
    }

    /// The markers at `point` with axis `k` of their frame along `axis`, then `joint` on them,
    /// all checked before anything is added.
    fn add_joint_at(
        &mut self,
        objects: [ObjectIndex; 2],
        point: Vector3<T>,
        axis: Vector3<T>,
        k: usize,
        joint: fn([MarkerIndex; 2]) -> Result<Constraint<T>>,
    ) -> Result<WorldJoint> {
        if !all_finite(&point) {
            return Err(Error::NotFinite(Param::Position));
        }
        if !all_finite(&axis) {
            return Err(Error::NotFinite(Param::Direction));
        }
        if length(&axis) == T::zero() {
            return Err(Error::OutOfRange(Param::Direction));
        }
        if self.markers.len() + 2 > self.markers.capacity() || self.constraints.is_full() {
            return Err(Error::CapacityFull);
        }
        let frame = frame_along(&(axis / length(&axis)), k);
        // Each body's marker: at `point` with `frame`, both resolved in the body frame now
        // (`r_local = R_0b^T (point - p_0b)`, `R_bm = R_0b^T R_0m`).
        let mut local = [(Vector3::zeros(), Matrix3::identity()); 2];
        for (l, o) in local.iter_mut().zip(objects) {
            let zero = Vector3::zeros();
            let (OutputValue::Vector3(p), OutputValue::Matrix3(r)) = (
                self.object_output(o, OutputVariableType::Position, &zero)?,
                self.object_output(o, OutputVariableType::RotationMatrix, &zero)?,
            ) else {
                return Err(Error::OutputNotAvailable);
            };
            *l = (r.transpose() * (point - p), r.transpose() * frame);
        }
        let m0 = Marker::body_rigid_frame(objects[0], local[0].0, &local[0].1)?;
        let m1 = Marker::body_rigid_frame(objects[1], local[1].0, &local[1].1)?;
        // Everything checked before anything is added, the joint on the two markers alone.
        m0.check(&self.nodes, &self.objects)?;
        m1.check(&self.nodes, &self.objects)?;
        joint([MarkerIndex(0), MarkerIndex(1)])?.check(&[m0, m1], &self.nodes, &self.objects)?;
        let markers = [self.add_marker(m0)?, self.add_marker(m1)?];
        let joint = self.add_constraint(joint(markers)?)?;
        Ok(WorldJoint { joint, markers })
    }
}
