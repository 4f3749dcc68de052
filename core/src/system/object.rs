//! The objects a system holds: the bodies (Exudyn's `ObjectGround`, `ObjectMassPoint2D`,
//! `ObjectRigidBody`) and Modelica's `BodyCylinder`, each on its node.
//!
//! Which node kind each needs, and which markers it can carry (seed 003: a marker needs the
//! body's Jacobians for its type):
//!
//! | object | node | `MarkerBodyPosition` | `MarkerBodyRigid` | `MarkerBodyMass` |
//! |---|---|---|---|---|
//! | [`Object::Ground`] | none | yes | yes (zero Jacobians) | no (no mass) |
//! | [`Object::MassPoint2D`] | [`Node::Point2D`](super::Node::Point2D) | yes | no (no rotation Jacobian) | yes |
//! | [`Object::RigidBody`] | [`Node::RigidBody`](super::Node::RigidBody) | yes | yes | yes |
//! | [`Object::BodyCylinder`] | [`Node::RigidBody`](super::Node::RigidBody) | yes | yes | yes |

use super::index::NodeIndex;
use crate::bodies::rigid_body::RigidBody;
use crate::bodies::{MassPoint2D, ObjectGround};
use crate::inertia::Cylinder;
use crate::{Real, Result};

/// A body of a system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Object<T: Real> {
    /// Exudyn's `ObjectGround` (no node, no coordinates).
    Ground(ObjectGround<T>),
    /// Exudyn's `ObjectMassPoint2D` on a [`Node::Point2D`](super::Node::Point2D).
    MassPoint2D {
        /// Its node.
        node: NodeIndex,
        /// Its mass.
        body: MassPoint2D<T>,
    },
    /// Exudyn's `ObjectRigidBody` on a [`Node::RigidBody`](super::Node::RigidBody): the node is
    /// the body's reference point, the centre of mass at `body.center_of_mass()` (body frame).
    RigidBody {
        /// Its node.
        node: NodeIndex,
        /// Mass, inertia about the COM, COM offset (body frame).
        body: RigidBody<T>,
    },
    /// Modelica's `BodyCylinder` (seed 001) as a rigid body on a
    /// [`Node::RigidBody`](super::Node::RigidBody): the node is frame_a, the mass properties
    /// are those of [`Cylinder::mass_properties`] (COM `r_CM` and inertia about it, frame_a).
    /// The cylinder's parameters are not kept (they would double the size of every object
    /// slot); keep the [`Cylinder`] if it is needed again.
    BodyCylinder {
        /// Its node (frame_a).
        node: NodeIndex,
        /// The rigid body of the cylinder's mass properties.
        body: RigidBody<T>,
    },
}

impl<T: Real> Object<T> {
    /// A mass point of `mass` (kg, > 0) on `node`; errors of [`MassPoint2D::new`].
    pub fn mass_point_2d(node: NodeIndex, mass: T) -> Result<Self> {
        Ok(Object::MassPoint2D {
            node,
            body: MassPoint2D::new(mass)?,
        })
    }

    /// A rigid body on `node`.
    pub fn rigid_body(node: NodeIndex, body: RigidBody<T>) -> Self {
        Object::RigidBody { node, body }
    }

    /// A `BodyCylinder` on `node` (frame_a). Errors: those of [`Cylinder::derived`], and
    /// `OutOfRange(Mass | Inertia)` for a massless cylinder (density 0), which has no
    /// equations of motion.
    pub fn body_cylinder(node: NodeIndex, cylinder: Cylinder<T>) -> Result<Self> {
        let mp = cylinder.mass_properties()?;
        let body = RigidBody::new(mp.mass, mp.inertia, mp.com)?;
        Ok(Object::BodyCylinder { node, body })
    }

    /// The node of the object (`None` for the ground).
    pub fn node(&self) -> Option<NodeIndex> {
        match self {
            Object::Ground(_) => None,
            Object::MassPoint2D { node, .. }
            | Object::RigidBody { node, .. }
            | Object::BodyCylinder { node, .. } => Some(*node),
        }
    }

    /// The rigid body of a rigid object ([`Object::RigidBody`], [`Object::BodyCylinder`]).
    pub fn rigid(&self) -> Option<&RigidBody<T>> {
        match self {
            Object::RigidBody { body, .. } | Object::BodyCylinder { body, .. } => Some(body),
            _ => None,
        }
    }

    /// `true` if a `MarkerBodyRigid` fits (the body has a rotation Jacobian).
    pub fn has_rotation(&self) -> bool {
        !matches!(self, Object::MassPoint2D { .. })
    }

    /// `true` if a `MarkerBodyMass` fits (the body has a mass).
    pub fn has_mass(&self) -> bool {
        !matches!(self, Object::Ground(_))
    }
}
