//! Markers (as Exudyn's bodies): where loads and connectors attach to a body or node, what they read from
//! it, and how their forces act back through its Jacobians.
//!
//! | marker | reads (world frame) | acts through |
//! |---|---|---|
//! | [`Marker::NodePosition`] | position, velocity of the node's point | `Jpos_node^T f` |
//! | [`Marker::BodyPosition`] | position, velocity at `local_position` | `Jpos(p)^T f` |
//! | [`Marker::BodyRigid`] | also the marker frame `R_0b R_bm` and the angular velocity | `Jpos(p)^T f + Jrot^T tau` |
//! | [`Marker::BodyMass`] | position, velocity of the centre of mass | `(int rho Jpos dV)^T g` |
//! | [`Marker::NodeCoordinate`] | one coordinate of a node | (constraints on coordinates) |
//!
//! `local_position` is in the body frame, from the body's reference point (its node), in m;
//! `local_rotation` (`R_bm`, marker frame to body frame) turns a rigid marker's frame in the
//! body (Exudyn's `localHT` rotation): a joint's axes are its marker frames' axes.
//! A marker a body cannot carry ([`Object`]'s table) is refused at creation
//! with `MarkerNotSupported`.

use super::body_states::{vector3, BodyStates};
use super::index::{NodeIndex, ObjectIndex};
use super::node::Node;
use super::node_force::NodeForce;
use super::object::Object;
use crate::error::finite_all;
use crate::math::Quaternion;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// A marker of a system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker<T: Real> {
    /// Exudyn's `MarkerNodePosition`: the point of a node (2D point, ground, rigid-body node).
    NodePosition {
        /// The node.
        node: NodeIndex,
    },
    /// Exudyn's `MarkerBodyPosition`: a point of a body.
    BodyPosition {
        /// The body.
        object: ObjectIndex,
        /// The point (m, body frame, from the reference point).
        local_position: Vector3<T>,
    },
    /// Exudyn's `MarkerBodyRigid`: a point of a body with a frame turned with the body (needs
    /// a rotation Jacobian: not on a mass point).
    BodyRigid {
        /// The body.
        object: ObjectIndex,
        /// The point (m, body frame, from the reference point).
        local_position: Vector3<T>,
        /// The marker frame in the body frame, `R_bm` as a unit quaternion (identity: the
        /// body's frame).
        local_rotation: Quaternion<T>,
    },
    /// Exudyn's `MarkerBodyMass`: the body's mass distribution, for mass-proportional loads
    /// (not on the ground).
    BodyMass {
        /// The body.
        object: ObjectIndex,
    },
    /// Exudyn's `MarkerNodeCoordinate`: coordinate `coordinate` of a node (its displacement
    /// `q_i`, m or rad; 0 on a ground node), for a
    /// [`CoordinateConstraint`](super::Constraint::Coordinate).
    NodeCoordinate {
        /// The node.
        node: NodeIndex,
        /// Which of its coordinates (0-based; a ground node has one, always 0).
        coordinate: u16,
    },
}

/// What a marker is good for (the check of loads and connectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    /// A position marker: forces (NodePosition, BodyPosition, BodyRigid).
    Position,
    /// A rigid marker: forces and torques (BodyRigid).
    Rigid,
    /// A mass marker: mass-proportional loads (BodyMass).
    Mass,
    /// A coordinate marker: coordinate constraints (NodeCoordinate).
    Coordinate,
}

impl<T: Real> Marker<T> {
    /// `MarkerNodePosition` on `node`.
    pub fn node_position(node: NodeIndex) -> Self {
        Marker::NodePosition { node }
    }

    /// `MarkerBodyPosition` at `local_position` (m, body frame); `NotFinite(LocalPosition)`.
    pub fn body_position(object: ObjectIndex, local_position: Vector3<T>) -> Result<Self> {
        finite_all(&local_position, Param::LocalPosition)?;
        Ok(Marker::BodyPosition {
            object,
            local_position,
        })
    }

    /// `MarkerBodyRigid` at `local_position` (m, body frame), its frame the body's;
    /// `NotFinite(LocalPosition)`.
    pub fn body_rigid(object: ObjectIndex, local_position: Vector3<T>) -> Result<Self> {
        Self::body_rigid_frame(object, local_position, &Matrix3::identity())
    }

    /// `MarkerBodyRigid` at `local_position` (m, body frame) with the frame `local_rotation`
    /// (`R_bm`: the marker's axes as columns, in the body frame; Exudyn's `localHT` rotation).
    /// Errors: `NotFinite(LocalPosition | Orientation)`; `OutOfRange(Orientation)` unless
    /// `local_rotation` is a rotation (`|R^T R - E| <= 1e-9` entrywise, `64 EPS` in `f32`;
    /// `det R > 0`).
    pub fn body_rigid_frame(
        object: ObjectIndex,
        local_position: Vector3<T>,
        local_rotation: &Matrix3<T>,
    ) -> Result<Self> {
        finite_all(&local_position, Param::LocalPosition)?;
        Ok(Marker::BodyRigid {
            object,
            local_position,
            local_rotation: rotation_of(local_rotation)?,
        })
    }

    /// `MarkerBodyMass` on `object`.
    pub fn body_mass(object: ObjectIndex) -> Self {
        Marker::BodyMass { object }
    }

    /// `MarkerNodeCoordinate` for coordinate `coordinate` of `node`.
    pub fn node_coordinate(node: NodeIndex, coordinate: u16) -> Self {
        Marker::NodeCoordinate { node, coordinate }
    }

    /// `true` if the marker is of `kind`.
    pub fn is(&self, kind: MarkerKind) -> bool {
        match kind {
            MarkerKind::Position => !matches!(
                self,
                Marker::BodyMass { .. } | Marker::NodeCoordinate { .. }
            ),
            MarkerKind::Rigid => matches!(self, Marker::BodyRigid { .. }),
            MarkerKind::Mass => matches!(self, Marker::BodyMass { .. }),
            MarkerKind::Coordinate => matches!(self, Marker::NodeCoordinate { .. }),
        }
    }

    /// Checks the marker against the items: its node or object exists (`UnknownIndex`), the
    /// body can carry it (`MarkerNotSupported`), its local position is finite.
    pub fn check(&self, nodes: &[Node<T>], objects: &[Object<T>]) -> Result<()> {
        let object = |i: ObjectIndex| objects.get(i.get()).ok_or(Error::UnknownIndex);
        match self {
            Marker::NodePosition { node } => {
                nodes.get(node.get()).ok_or(Error::UnknownIndex)?;
            }
            Marker::BodyPosition {
                object: o,
                local_position,
            } => {
                object(*o)?;
                finite_all(local_position, Param::LocalPosition)?;
            }
            Marker::BodyRigid {
                object: o,
                local_position,
                ..
            } => {
                if !object(*o)?.has_rotation() {
                    return Err(Error::MarkerNotSupported);
                }
                finite_all(local_position, Param::LocalPosition)?;
            }
            Marker::BodyMass { object: o } => {
                if !object(*o)?.has_mass() {
                    return Err(Error::MarkerNotSupported);
                }
            }
            Marker::NodeCoordinate { node, coordinate } => {
                let n = nodes.get(node.get()).ok_or(Error::UnknownIndex)?;
                if usize::from(*coordinate) >= n.coordinates().max(1) {
                    return Err(Error::OutOfRange(Param::Coordinate));
                }
            }
        }
        Ok(())
    }

    /// The body point a body marker refers to (m, body frame): its local position, or the
    /// centre of mass of a mass marker; `None` for a node marker. `UnknownIndex` for a mass
    /// marker on an object not in `objects`.
    pub(super) fn body_point(
        &self,
        objects: &[Object<T>],
    ) -> Result<Option<(ObjectIndex, Vector3<T>)>> {
        Ok(match self {
            Marker::NodePosition { .. } | Marker::NodeCoordinate { .. } => None,
            Marker::BodyPosition {
                object,
                local_position,
            }
            | Marker::BodyRigid {
                object,
                local_position,
                ..
            } => Some((*object, *local_position)),
            Marker::BodyMass { object } => Some((
                *object,
                objects
                    .get(object.get())
                    .ok_or(Error::UnknownIndex)?
                    .center_of_mass(),
            )),
        })
    }

    /// Position (m, world) and velocity (m/s, world) of the marker's point (the COM for a mass
    /// marker).
    pub fn motion(&self, view: &BodyStates<'_, T>) -> Result<(Vector3<T>, Vector3<T>)> {
        match (self, self.body_point(view.objects)?) {
            (Marker::NodePosition { node }, _) => view.node_motion(*node),
            (_, Some((o, p))) => view.with_rigid_object(o, |rigid| match rigid {
                Some((_, _, s)) => BodyStates::rigid_point_motion(s, &p),
                None => Ok((
                    vector3(view.body_output(o, OutputVariableType::Position, &p)?)?,
                    vector3(view.body_output(o, OutputVariableType::Velocity, &p)?)?,
                )),
            }),
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// The marker frame `R_0b R_bm` (marker to world) and the angular velocity (rad/s, world)
    /// of a rigid marker; `MarkerNotSupported` for another marker.
    pub fn rotation(&self, view: &BodyStates<'_, T>) -> Result<(Matrix3<T>, Vector3<T>)> {
        let Marker::BodyRigid {
            object,
            local_position,
            local_rotation,
        } = self
        else {
            return Err(Error::MarkerNotSupported);
        };
        let r =
            match view.body_output(*object, OutputVariableType::RotationMatrix, local_position)? {
                OutputValue::Matrix3(r) => r * local_rotation.to_matrix(),
                _ => return Err(Error::OutputNotAvailable),
            };
        let w = vector3(view.body_output(
            *object,
            OutputVariableType::AngularVelocity,
            local_position,
        )?)?;
        Ok((r, w))
    }

    /// The generalized force of a force `f` (N, world) at the marker's point and a torque `tau`
    /// (N m, world; only on a rigid marker, else it must be zero), and the node it acts on
    /// (`None` on the ground). `MarkerNotSupported` on a mass marker.
    pub fn generalized_force(
        &self,
        view: &BodyStates<'_, T>,
        force: &Vector3<T>,
        torque: &Vector3<T>,
    ) -> Result<Option<NodeForce<T>>> {
        let zero = Vector3::zeros();
        match self {
            Marker::NodePosition { node } => view.node_generalized_force(*node, force),
            Marker::BodyPosition {
                object,
                local_position,
            } => view.point_generalized_force(*object, local_position, force, &zero),
            Marker::BodyRigid {
                object,
                local_position,
                ..
            } => view.point_generalized_force(*object, local_position, force, torque),
            Marker::BodyMass { .. } | Marker::NodeCoordinate { .. } => {
                Err(Error::MarkerNotSupported)
            }
        }
    }

    /// The generalized force of a uniform acceleration `g` (m/s^2, world) on the mass of a mass
    /// marker's body; `MarkerNotSupported` on another marker.
    pub fn mass_force(
        &self,
        view: &BodyStates<'_, T>,
        g: &Vector3<T>,
    ) -> Result<Option<NodeForce<T>>> {
        match self {
            Marker::BodyMass { object } => view.body_mass_force(*object, g),
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// Exudyn's `GetMarkerOutput`: `Position`, `Velocity` (world; of the COM for a mass
    /// marker), and for a rigid marker also `RotationMatrix`, `AngularVelocity` (world),
    /// `AngularVelocityLocal` (body); other variables `OutputNotAvailable`.
    pub fn output(
        &self,
        view: &BodyStates<'_, T>,
        var: OutputVariableType,
    ) -> Result<OutputValue<T>> {
        use OutputVariableType as O;
        match var {
            O::Position => Ok(OutputValue::Vector3(self.motion(view)?.0)),
            O::Velocity => Ok(OutputValue::Vector3(self.motion(view)?.1)),
            O::RotationMatrix | O::AngularVelocity | O::AngularVelocityLocal => {
                let (r, w) = self.rotation(view).map_err(|e| match e {
                    Error::MarkerNotSupported => Error::OutputNotAvailable,
                    e => e,
                })?;
                Ok(match var {
                    O::RotationMatrix => OutputValue::Matrix3(r),
                    O::AngularVelocity => OutputValue::Vector3(w),
                    _ => OutputValue::Vector3(r.transpose() * w),
                })
            }
            _ => Err(Error::OutputNotAvailable),
        }
    }
}

/// The unit quaternion of a rotation matrix `r`, checked: `NotFinite(Orientation)`, or
/// `OutOfRange(Orientation)` unless `|r^T r - E| <= max(1e-9, 64 EPS)` entrywise (a matrix
/// computed in `f32` is orthonormal to its rounding) and `det r > 0`.
pub(crate) fn rotation_of<T: Real>(r: &Matrix3<T>) -> Result<Quaternion<T>> {
    finite_all(r, Param::Orientation)?;
    let e = r.transpose() * r - Matrix3::identity();
    let tol = T::c(1e-9).max(T::EPS * T::c(64.0));
    if e.iter().any(|x| x.abs_l() > tol) || r.determinant() <= T::zero() {
        return Err(Error::OutOfRange(Param::Orientation));
    }
    Ok(Quaternion::from_matrix(r))
}
