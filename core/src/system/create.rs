//! Exudyn's `CreateGround`, `CreateMassPoint`, `CreateRigidBody` (and a `CreateBodyCylinder`):
//! add a body with its node in one call and, with a non-zero gravity, a `MarkerBodyMass` with a
//! `LoadMassProportional` on it (Exudyn's `CreateMassPoint`, `CreateRigidBody`).
//!
//! Every helper checks all its parameters and the room for all its items first; on error the
//! system is unchanged.

use super::index::{LoadIndex, MarkerIndex, NodeIndex, ObjectIndex};
use super::load::Load;
use super::marker::Marker;
use super::node::{Node, NodeRigidBody};
use super::object::Object;
use super::system::System;
use crate::bodies::body_cylinder::BodyCylinder;
use crate::bodies::rigid_body::RigidBody;
use crate::bodies::ObjectGround;
use crate::error::finite_all;
use crate::inertia::MassProperties;
use crate::math::Quaternion;
use crate::nodes::NodePoint2D;
use crate::{Error, Param, Real, Result};
use nalgebra::{Vector2, Vector3};

/// The items a `create_*` helper added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CreatedBody {
    /// The body's node.
    pub node: NodeIndex,
    /// The body.
    pub object: ObjectIndex,
    /// The `MarkerBodyMass` of the gravity load (with a non-zero gravity).
    pub mass_marker: Option<MarkerIndex>,
    /// The `LoadMassProportional` (with a non-zero gravity).
    pub gravity_load: Option<LoadIndex>,
}

/// The parameters of [`System::create_mass_point`] (Exudyn's `CreateMassPoint` with
/// `create2D = True`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassPointSpec<T: Real> {
    /// Mass (kg, > 0).
    pub mass: T,
    /// Reference position `[x, y]` (m, world).
    pub reference_position: Vector2<T>,
    /// Initial displacement from the reference (m, world; default 0).
    pub initial_displacement: Vector2<T>,
    /// Initial velocity (m/s, world; default 0).
    pub initial_velocity: Vector2<T>,
    /// Gravity (m/s^2, world; default `None`); `Some(g)` with `g != 0` adds the mass marker and
    /// the load (the z component has no effect on a 2D point).
    pub gravity: Option<Vector3<T>>,
}

impl<T: Real> MassPointSpec<T> {
    /// A mass point of `mass` (kg) at rest at `reference_position` (m, world), no gravity.
    pub fn new(mass: T, reference_position: Vector2<T>) -> Self {
        Self {
            mass,
            reference_position,
            initial_displacement: Vector2::zeros(),
            initial_velocity: Vector2::zeros(),
            gravity: None,
        }
    }
}

/// The pose, twist and gravity of [`System::create_rigid_body`] (Exudyn's `CreateRigidBody`
/// arguments).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBodySpec<T: Real> {
    /// Position of the reference point (m, world; the node).
    pub position: Vector3<T>,
    /// Orientation `R_0b` (unit quaternion, scalar first; default identity).
    pub orientation: Quaternion<T>,
    /// Velocity of the reference point (m/s, world; default 0).
    pub velocity: Vector3<T>,
    /// Angular velocity (rad/s, **world** frame, as Exudyn's `initialAngularVelocity`;
    /// default 0).
    pub angular_velocity: Vector3<T>,
    /// Gravity (m/s^2, world; default `None`).
    pub gravity: Option<Vector3<T>>,
}

impl<T: Real> RigidBodySpec<T> {
    /// At rest at `position` (m, world), identity orientation, no gravity.
    pub fn at(position: Vector3<T>) -> Self {
        Self {
            position,
            orientation: Quaternion::identity(),
            velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            gravity: None,
        }
    }
}

/// `Some(g)` if the gravity is given and non-zero (after the finite check).
fn gravity_of<T: Real>(g: &Option<Vector3<T>>) -> Result<Option<Vector3<T>>> {
    match g {
        Some(g) => {
            finite_all(g, Param::Acceleration)?;
            Ok(g.iter().any(|x| *x != T::zero()).then_some(*g))
        }
        None => Ok(None),
    }
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
    /// Exudyn's `CreateGround`: an `ObjectGround` at `reference_position` (m, world).
    pub fn create_ground(&mut self, reference_position: Vector3<T>) -> Result<ObjectIndex> {
        self.add_object(Object::Ground(ObjectGround::new(reference_position)?))
    }

    /// Exudyn's `CreateMassPoint` (2D): a `NodePoint2D` and a `MassPoint2D` on it, and with a
    /// non-zero gravity a `MarkerBodyMass` and a `LoadMassProportional`.
    pub fn create_mass_point(&mut self, spec: &MassPointSpec<T>) -> Result<CreatedBody> {
        let node = Node::Point2D(NodePoint2D::new(
            spec.reference_position,
            spec.initial_displacement,
            spec.initial_velocity,
        )?);
        let node_index = self.next_node()?;
        let object = Object::mass_point_2d(node_index, spec.mass)?;
        self.create(node, object, gravity_of(&spec.gravity)?)
    }

    /// Exudyn's `CreateRigidBody`: a rigid-body node at the spec's pose and twist, an
    /// `ObjectRigidBody` of `mass` (mass, COM from the reference point and inertia about the
    /// COM, body frame), and with a non-zero gravity a `MarkerBodyMass` and a
    /// `LoadMassProportional`. Errors of [`RigidBody::new`] (`m > 0`, physical inertia),
    /// [`NodeRigidBody::new`], `CapacityFull`.
    pub fn create_rigid_body(
        &mut self,
        mass: &MassProperties<T>,
        spec: &RigidBodySpec<T>,
    ) -> Result<CreatedBody> {
        let body = RigidBody::new(mass.mass, mass.inertia, mass.com)?;
        let node = Node::RigidBody(NodeRigidBody::new(
            spec.position,
            spec.orientation,
            spec.velocity,
            spec.angular_velocity,
        )?);
        let object = Object::rigid_body(self.next_node()?, body);
        self.create(node, object, gravity_of(&spec.gravity)?)
    }

    /// Modelica's `BodyCylinder` with its node: frame_a's node starts from the
    /// cylinder's Modelica start values ([`BodyCylinder::initial_state`]: `r_0_start`,
    /// `v_0_start`, `angles_start`/`sequence_start`, `w_0_start`), and with a non-zero
    /// `gravity` (m/s^2, world) a `MarkerBodyMass` and a `LoadMassProportional`.
    pub fn create_body_cylinder(
        &mut self,
        cylinder: &BodyCylinder<T>,
        gravity: Option<Vector3<T>>,
    ) -> Result<CreatedBody> {
        let node = Node::RigidBody(NodeRigidBody::from_state(&cylinder.initial_state())?);
        let object = Object::body_cylinder(self.next_node()?, cylinder);
        self.create(node, object, gravity_of(&gravity)?)
    }

    /// The index the next node will get; `CapacityFull` if there is no room.
    fn next_node(&self) -> Result<NodeIndex> {
        if self.nodes.is_full() {
            return Err(Error::CapacityFull);
        }
        NodeIndex::from_usize(self.nodes.len()).ok_or(Error::CapacityFull)
    }

    /// Adds node, object (on that node) and the gravity items, all or nothing.
    fn create(
        &mut self,
        node: Node<T>,
        object: Object<T>,
        gravity: Option<Vector3<T>>,
    ) -> Result<CreatedBody> {
        let need_g = usize::from(gravity.is_some());
        if self.nodes.is_full()
            || self.objects.is_full()
            || self.markers.len() + need_g > M
            || self.loads.len() + need_g > L
        {
            return Err(Error::CapacityFull);
        }
        let counts = self.counts();
        let assembled = self.assembled;
        let result = self.create_unchecked(node, object, gravity);
        if result.is_err() {
            self.truncate_to(counts);
            self.assembled = assembled;
        }
        result
    }

    fn create_unchecked(
        &mut self,
        node: Node<T>,
        object: Object<T>,
        gravity: Option<Vector3<T>>,
    ) -> Result<CreatedBody> {
        let node = self.add_node(node)?;
        let object = self.add_object(object)?;
        let (mass_marker, gravity_load) = match gravity {
            Some(g) => {
                let m = self.add_marker(Marker::body_mass(object))?;
                let l = self.add_load(Load::mass_proportional(m, g)?)?;
                (Some(m), Some(l))
            }
            None => (None, None),
        };
        Ok(CreatedBody {
            node,
            object,
            mass_marker,
            gravity_load,
        })
    }

    /// Drops the items added after `counts` (an all-or-nothing helper's undo).
    fn truncate_to(&mut self, counts: [usize; 6]) {
        self.nodes.truncate(counts[0]);
        self.states.truncate(counts[0]);
        self.node_object.truncate(counts[0]);
        self.objects.truncate(counts[1]);
        for slot in self.node_object.iter_mut() {
            if matches!(slot, Some(o) if o.get() >= counts[1]) {
                *slot = None;
            }
        }
        self.markers.truncate(counts[2]);
        self.loads.truncate(counts[3]);
        self.connectors.truncate(counts[4]);
        self.sensors.truncate(counts[5]);
        self.graphics.retain(|(o, _)| o.get() < counts[1]);
    }
}
