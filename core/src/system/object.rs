//! The objects a system holds: the bodies (Exudyn's `ObjectGround`, `ObjectMassPoint2D`,
//! `ObjectRigidBody`) and Modelica's `BodyCylinder`, each on its node.
//!
//! Which node kind each needs, and which markers it can carry (Exudyn: a marker needs the
//! body's Jacobians for its type):
//!
//! | object | node | `MarkerBodyPosition` | `MarkerBodyRigid` | `MarkerBodyMass` |
//! |---|---|---|---|---|
//! | [`Object::Ground`] | none | yes | yes (zero Jacobians) | no (no mass) |
//! | [`Object::MassPoint2D`] | [`Node::Point2D`](super::Node::Point2D) | yes | no (no rotation Jacobian) | yes |
//! | [`Object::RigidBody`] | [`Node::RigidBody`](super::Node::RigidBody) | yes | yes | yes |
//! | [`Object::BodyCylinder`] | [`Node::RigidBody`](super::Node::RigidBody) | yes | yes | yes |
//! | [`Object::RigidBody2D`] | [`Node::RigidBody2D`](super::Node::RigidBody2D) | yes | yes | yes |
//! | [`Object::TreeLink`] | [`Node::TreeLink`](super::Node::TreeLink) | yes | yes | yes |

use super::cylinder_shape::CylinderShape;
use super::index::NodeIndex;
use crate::bodies::body_cylinder::BodyCylinder;
use crate::bodies::rigid_body::RigidBody;
use crate::bodies::rigid_body_2d::RigidBody2D;
use crate::bodies::{MassPoint2D, ObjectGround};
use crate::{Real, Result};
use nalgebra::Vector3;

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
    /// Modelica's `BodyCylinder` ([`BodyCylinder`]) on a
    /// [`Node::RigidBody`](super::Node::RigidBody): the node is frame_a, the body its
    /// [`BodyCylinder::body`] (mass properties of
    /// [`Cylinder::mass_properties`](crate::inertia::Cylinder::mass_properties): COM `r_CM`
    /// and inertia about it, frame_a). Of the cylinder's parameters only frame_b is kept (the
    /// full [`BodyCylinder`] would triple the size of every object slot); keep the
    /// [`BodyCylinder`] if its derived values are needed again. Its default drawing (Modelica's
    /// cylinder shape, `animation`, `color`, `specularCoefficient`) is packed in `shape`
    /// (32 bytes).
    BodyCylinder {
        /// Its node (frame_a).
        node: NodeIndex,
        /// The rigid body of the cylinder's mass properties.
        body: RigidBody<T>,
        /// frame_b's origin `r` (m, frame_a): a marker's local position for frame_b.
        frame_b: Vector3<T>,
        /// The cylinder's shape and animation parameters, for drawing.
        shape: CylinderShape,
    },
    /// Exudyn's `ObjectRigidBody2D` on a [`Node::RigidBody2D`](super::Node::RigidBody2D): the
    /// node is the body's reference point, the centre of mass at `body.center_of_mass()`
    /// (body frame; Exudyn's body has it at the node).
    RigidBody2D {
        /// Its node.
        node: NodeIndex,
        /// Mass, inertia about the COM, COM offset (body frame).
        body: RigidBody2D<T>,
    },
    /// A link of the system's kinematic tree (Exudyn's `ObjectKinematicTree` link, made by
    /// [`System::add_kinematic_tree`](super::System::add_kinematic_tree)): a rigid body with the
    /// link's mass properties, its body frame the link frame, on the link's node; markers,
    /// loads, connectors and sensors see it as a rigid body, and their forces act on the tree's
    /// joint coordinates through the link's Jacobian.
    TreeLink {
        /// The link's node.
        node: NodeIndex,
        /// The link's number in the tree.
        link: u16,
        /// The link's mass, COM and inertia about it (link frame).
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

    /// A `BodyCylinder` on `node` (frame_a); its start values are the node's business
    /// ([`System::create_body_cylinder`](super::System::create_body_cylinder) makes the node
    /// from them).
    pub fn body_cylinder(node: NodeIndex, cylinder: &BodyCylinder<T>) -> Self {
        Object::BodyCylinder {
            node,
            body: *cylinder.body(),
            frame_b: *cylinder.r(),
            shape: CylinderShape::of(cylinder),
        }
    }

    /// The node of the object (`None` for the ground).
    pub fn node(&self) -> Option<NodeIndex> {
        match self {
            Object::Ground(_) => None,
            Object::MassPoint2D { node, .. }
            | Object::RigidBody { node, .. }
            | Object::BodyCylinder { node, .. }
            | Object::RigidBody2D { node, .. }
            | Object::TreeLink { node, .. } => Some(*node),
        }
    }

    /// The rigid body of a rigid object ([`Object::RigidBody`], [`Object::BodyCylinder`],
    /// [`Object::TreeLink`]).
    pub fn rigid(&self) -> Option<&RigidBody<T>> {
        match self {
            Object::RigidBody { body, .. }
            | Object::BodyCylinder { body, .. }
            | Object::TreeLink { body, .. } => Some(body),
            _ => None,
        }
    }

    /// The centre of mass (m, body frame, from the reference point): a rigid body's `c`, a 2D
    /// rigid body's `[c_x, c_y, 0]`, the point itself for a mass point or the ground.
    pub fn center_of_mass(&self) -> Vector3<T> {
        match self {
            Object::RigidBody { body, .. }
            | Object::BodyCylinder { body, .. }
            | Object::TreeLink { body, .. } => *body.center_of_mass(),
            Object::RigidBody2D { body, .. } => {
                let c = body.center_of_mass();
                Vector3::new(c.x, c.y, T::zero())
            }
            _ => Vector3::zeros(),
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
