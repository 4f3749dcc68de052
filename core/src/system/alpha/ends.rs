//! Each constraint's ends resolved from its markers: planar, 3D or coordinate ends.

use super::layout::ConstraintEnds;
use super::model::{constraint_ref, SystemModel};
use crate::constraints::planar::PlanarMarker;
use crate::constraints::spatial::SpatialMarker;
use crate::system::constraint::Constraint;
use crate::system::error::{SystemError, SystemResult};
use crate::system::index::{ItemRef, MarkerIndex, NodeIndex};
use crate::system::marker::Marker;
use crate::system::node::Node;
use crate::system::object::Object;
use crate::{Error, Real, Result};
use heapless::Vec;
use nalgebra::{Vector2, Vector3};

impl<'a, T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'a, T, N, K, J> {
    /// The ends of constraint `c`: `MarkerNotSupported` if a marker is not on a body it can
    /// join.
    pub(super) fn resolve(&self, c: &Constraint<T>) -> Result<ConstraintEnds<T>> {
        let [a, b] = c.markers();
        let planar = || {
            Ok(ConstraintEnds::Planar([
                self.planar_marker(a)?,
                self.planar_marker(b)?,
            ]))
        };
        let spatial = || {
            Ok(ConstraintEnds::Spatial([
                self.spatial_marker(a)?,
                self.spatial_marker(b)?,
            ]))
        };
        match c {
            Constraint::Coordinate { .. } => Ok(ConstraintEnds::Coordinates(
                self.coordinate(a)?,
                self.coordinate(b)?,
            )),
            Constraint::Joint { .. } => spatial(),
            // Between 2D items in the plane, else in space.
            Constraint::Distance { .. } => match planar() {
                Err(Error::MarkerNotSupported) => spatial(),
                r => r,
            },
            _ => planar(),
        }
    }

    /// Every constraint's ends (for [`Layout::ends`](super::layout::Layout::ends)); the first constraint whose markers are
    /// not on bodies it can join is named.
    pub(crate) fn resolve_ends(&self) -> SystemResult<Vec<ConstraintEnds<T>, K, u16>> {
        let mut ends = Vec::new();
        for (k, c) in self.constraints.iter().enumerate() {
            let e = self
                .resolve(c)
                .map_err(|e| SystemError::new(e, constraint_ref(k)))?;
            ends.push(e)
                .map_err(|_| SystemError::new(Error::CapacityFull, ItemRef::System))?;
        }
        Ok(ends)
    }

    /// A position or rigid marker as a planar marker; `MarkerNotSupported` on a 3D body or for
    /// a marker frame not turned about z only.
    pub(super) fn planar_marker(&self, i: MarkerIndex) -> Result<PlanarMarker<T>> {
        let marker = self.markers.get(i.get()).ok_or(Error::UnknownIndex)?;
        let xy = |v: Vector3<T>| Vector2::new(v.x, v.y);
        let on_node = |node: NodeIndex, local: Vector3<T>, angle: T| -> Result<PlanarMarker<T>> {
            let offset = self.offset(node)?;
            Ok(
                match self.nodes.get(node.get()).ok_or(Error::UnknownIndex)? {
                    Node::Point2D(n) => PlanarMarker::Point {
                        offset,
                        reference: n.reference_coordinates() + xy(local),
                    },
                    Node::PointGround(g) => PlanarMarker::Ground {
                        position: xy(g.reference_coordinates() + local),
                        angle,
                    },
                    Node::RigidBody2D(n) => PlanarMarker::Rigid {
                        offset,
                        reference: n.reference_coordinates(),
                        local: xy(local),
                        angle,
                    },
                    Node::RigidBody(_) | Node::TreeLink(_) => {
                        return Err(Error::MarkerNotSupported)
                    }
                },
            )
        };
        let (object, local_position, angle) = match marker {
            Marker::NodePosition { node } => return on_node(*node, Vector3::zeros(), T::zero()),
            Marker::BodyPosition {
                object,
                local_position,
            } => (object, local_position, T::zero()),
            Marker::BodyRigid {
                object,
                local_position,
                local_rotation,
            } => (object, local_position, planar_angle(local_rotation)?),
            _ => return Err(Error::MarkerNotSupported),
        };
        match self.objects.get(object.get()).ok_or(Error::UnknownIndex)? {
            Object::Ground(g) => Ok(PlanarMarker::Ground {
                position: xy(g.reference_position() + local_position),
                angle,
            }),
            Object::MassPoint2D { node, .. } | Object::RigidBody2D { node, .. } => {
                on_node(*node, *local_position, angle)
            }
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// A position or rigid marker on a 3D rigid body or the ground as a spatial marker (a
    /// position marker's frame is the body's); `MarkerNotSupported` on a 2D body.
    pub(super) fn spatial_marker(&self, i: MarkerIndex) -> Result<SpatialMarker<T>> {
        let marker = self.markers.get(i.get()).ok_or(Error::UnknownIndex)?;
        let identity = nalgebra::Matrix3::identity();
        let (object, local, frame) = match marker {
            Marker::NodePosition { node } => {
                return match self.nodes.get(node.get()).ok_or(Error::UnknownIndex)? {
                    Node::RigidBody(_) => Ok(SpatialMarker::Rigid {
                        offset: self.offset(*node)?,
                        local: Vector3::zeros(),
                        frame: identity,
                    }),
                    Node::PointGround(g) => Ok(SpatialMarker::Ground {
                        position: g.reference_coordinates(),
                        frame: identity,
                    }),
                    Node::TreeLink(l) => Ok(SpatialMarker::TreeLink {
                        link: l.link(),
                        local: Vector3::zeros(),
                        frame: identity,
                    }),
                    _ => Err(Error::MarkerNotSupported),
                }
            }
            Marker::BodyPosition {
                object,
                local_position,
            } => (object, *local_position, identity),
            Marker::BodyRigid {
                object,
                local_position,
                local_rotation,
            } => (object, *local_position, local_rotation.to_matrix()),
            _ => return Err(Error::MarkerNotSupported),
        };
        match self.objects.get(object.get()).ok_or(Error::UnknownIndex)? {
            Object::Ground(g) => Ok(SpatialMarker::Ground {
                position: g.reference_position() + local,
                frame,
            }),
            Object::RigidBody { node, .. } | Object::BodyCylinder { node, .. } => {
                Ok(SpatialMarker::Rigid {
                    offset: self.offset(*node)?,
                    local,
                    frame,
                })
            }
            Object::TreeLink { link, .. } => Ok(SpatialMarker::TreeLink {
                link: usize::from(*link),
                local,
                frame,
            }),
            _ => Err(Error::MarkerNotSupported),
        }
    }

    /// The coordinate of a coordinate marker (`None` on a ground node).
    pub(super) fn coordinate(&self, i: MarkerIndex) -> Result<Option<usize>> {
        match self.markers.get(i.get()).ok_or(Error::UnknownIndex)? {
            Marker::NodeCoordinate { node, coordinate } => {
                match self.nodes.get(node.get()).ok_or(Error::UnknownIndex)? {
                    Node::PointGround(_) => Ok(None),
                    Node::RigidBody(_) | Node::TreeLink(_) => Err(Error::MarkerNotSupported),
                    _ => Ok(Some(self.offset(*node)? + usize::from(*coordinate))),
                }
            }
            _ => Err(Error::MarkerNotSupported),
        }
    }
}

/// The angle (rad) of a marker frame turned about z only; `MarkerNotSupported` else.
pub(super) fn planar_angle<T: Real>(r: &crate::math::Quaternion<T>) -> Result<T> {
    let z = T::zero();
    if r.x == z && r.y == z && r.z == z {
        return Ok(z); // the body's frame (no trigonometry on every evaluation)
    }
    let m = r.to_matrix();
    if (m[(2, 2)] - T::one()).abs_l() > T::c(1e-9) {
        return Err(Error::MarkerNotSupported);
    }
    Ok(m[(1, 0)].atan2_l(m[(0, 0)]))
}
