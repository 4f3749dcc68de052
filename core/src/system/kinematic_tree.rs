//! The functions of [`System`] for its kinematic tree: add it, read and set its joint
//! coordinates, joint forces and joint spring-dampers.

use super::constraint::Constraint;
use super::index::{item, MarkerIndex, NodeIndex, ObjectIndex};
use super::marker::Marker;
use super::node::{Node, NodeTreeLink};
use super::object::Object;
use super::system::System;
use crate::bodies::rigid_body::RigidBody;
use crate::bodies::ObjectGround;
use crate::tree::{Joint, KinematicTree, LoopClosure};
use crate::{Error, Real, Result};
use nalgebra::Vector3;

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
    /// Adds `tree` (copied into the system's capacity `J`) at joint coordinates `q` and
    /// velocities `v`, with one node and one rigid-body object per link
    /// ([`Object::TreeLink`]: the link's mass properties, body frame = link frame; link `k`'s
    /// object is the returned index plus `k`). Put markers on those objects to attach loads,
    /// connectors and sensors to the links. The tree's own gravity and joint spring-dampers
    /// act as in [`KinematicTree::bias_forces`]; gravity on the links can instead come from
    /// mass-proportional loads (then set the tree's gravity to zero). A system with a tree is
    /// stepped by generalized-alpha only (`NotSupportedByScheme` at `assemble` otherwise).
    ///
    /// Errors (nothing changed): `CapacityFull` (a tree is there already; more links or
    /// coordinates than `J`; no room for the links' nodes and objects); `NotSupportedByScheme`
    /// for a spherical or free joint (module docs); the state checks of `q`, `v`
    /// (`OutOfRange(Coordinate)`, `NotFinite(Position | Velocity)`).
    pub fn add_kinematic_tree<const L2: usize, const D2: usize>(
        &mut self,
        tree: &KinematicTree<T, L2, D2>,
        q: &[T],
        v: &[T],
    ) -> Result<ObjectIndex> {
        if self.tree.model.is_some() {
            return Err(Error::CapacityFull);
        }
        if tree
            .links()
            .iter()
            .any(|l| matches!(l.joint, Joint::Spherical | Joint::Free))
        {
            return Err(Error::NotSupportedByScheme);
        }
        tree.check_state(q, Some(v))?;
        let copy: KinematicTree<T, J, J> = tree.to_capacity()?;
        let links = copy.links().len();
        if self.nodes.len() + links > N || self.objects.len() + links > O {
            return Err(Error::CapacityFull);
        }
        let first_node = NodeIndex::from_usize(self.nodes.len()).ok_or(Error::CapacityFull)?;
        let first_object =
            ObjectIndex::from_usize(self.objects.len()).ok_or(Error::CapacityFull)?;
        if NodeIndex::from_usize(self.nodes.len() + links).is_none()
            || ObjectIndex::from_usize(self.objects.len() + links).is_none()
        {
            return Err(Error::CapacityFull);
        }
        // Every link's rigid body first (the only fallible step left), then the items.
        let mut bodies: heapless::Vec<RigidBody<T>, J> = heapless::Vec::new();
        for l in copy.links() {
            let body = RigidBody::from_mass_properties(&l.mass_properties)?;
            bodies.push(body).map_err(|_| Error::CapacityFull)?;
        }
        for (k, body) in bodies.iter().enumerate() {
            let link = NodeTreeLink { link: k as u16 };
            let node = NodeIndex((first_node.get() + k) as u16);
            let object = ObjectIndex((first_object.get() + k) as u16);
            let pushed = self.nodes.push(Node::TreeLink(link)).is_ok()
                && self
                    .states
                    .push(Node::TreeLink(link).initial_state())
                    .is_ok()
                && self.node_object.push(Some(object)).is_ok()
                && self
                    .objects
                    .push(Object::TreeLink {
                        node,
                        link: k as u16,
                        body: *body,
                    })
                    .is_ok();
            if !pushed {
                // unreachable (room checked above)
                return Err(Error::CapacityFull);
            }
        }
        let n = copy.nv();
        let t = &mut self.tree;
        t.model = Some(copy);
        t.first_node = first_node.0;
        t.first_object = first_object.0;
        for (dst, src) in [
            (&mut t.initial_q, q),
            (&mut t.initial_v, v),
            (&mut t.q, q),
            (&mut t.v, v),
        ] {
            dst[..n].copy_from_slice(src);
        }
        t.acc = [T::zero(); J];
        self.refresh_links();
        self.assembled = false;
        Ok(first_object)
    }

    /// [`Self::add_kinematic_tree`] with the tree's loop closures, each carried into the system
    /// as a joint that generalized-alpha keeps with its multipliers: a loop to the world as an
    /// `ObjectJointGeneric` from a ground object at the origin (one, added for the loops;
    /// marker 0 at `point_b`, its frame the world's) to link `a`'s `point_a`, holding the
    /// loop's world axes with the rotations free; a loop between two links holding all three
    /// axes as a spherical joint. Link `k`'s object is the returned index plus `k`; the loops'
    /// joints are the system's next constraints, in the order of `loops`.
    ///
    /// Errors (nothing changed): those of [`Self::add_kinematic_tree`]; `UnknownIndex` (a
    /// loop's link not in `tree`); `NotSupportedByScheme` for a loop between two links that
    /// holds only some world axes (no joint of the system holds fixed world directions
    /// between two moving bodies); `CapacityFull` (no room for the ground object and, per
    /// loop, two markers and a constraint).
    pub fn add_kinematic_tree_with_loops<const L2: usize, const D2: usize>(
        &mut self,
        tree: &KinematicTree<T, L2, D2>,
        loops: &[LoopClosure<T>],
        q: &[T],
        v: &[T],
    ) -> Result<ObjectIndex> {
        let links = tree.links().len();
        let to_world = loops.iter().any(|l| l.link_b.is_none());
        let first = self.objects.len();
        let ground = ObjectIndex::from_usize(first + links).ok_or(Error::CapacityFull)?;
        // Every marker and joint built (and so checked) before anything is added.
        let mut items: heapless::Vec<(Marker<T>, Marker<T>, Constraint<T>), K> =
            heapless::Vec::new();
        for (i, l) in loops.iter().enumerate() {
            let link = |k: usize| {
                item(tree.links(), k)?;
                ObjectIndex::from_usize(first + k).ok_or(Error::CapacityFull)
            };
            let a = Marker::body_rigid(link(l.link_a)?, l.point_a)?;
            let m = MarkerIndex::from_usize(self.markers.len() + 2 * i + 1)
                .ok_or(Error::CapacityFull)?;
            let m0 = MarkerIndex(m.0 - 1);
            let entry = match l.link_b {
                None => {
                    let [x, y, z] = l.axes;
                    let b = Marker::body_rigid(ground, l.point_b)?;
                    let joint = Constraint::generic_joint([m0, m], [x, y, z, false, false, false])?;
                    (b, a, joint)
                }
                Some(k) if l.axes == [true; 3] => {
                    let b = Marker::body_rigid(link(k)?, l.point_b)?;
                    (a, b, Constraint::spherical_joint([m0, m])?)
                }
                Some(_) => return Err(Error::NotSupportedByScheme),
            };
            items.push(entry).map_err(|_| Error::CapacityFull)?;
        }
        let objects = first + links + usize::from(to_world);
        if objects > O
            || self.markers.len() + 2 * loops.len() > M
            || self.constraints.len() + loops.len() > K
        {
            return Err(Error::CapacityFull);
        }
        let first_object = self.add_kinematic_tree(tree, q, v)?;
        // Room and values checked above: the additions below do not fail.
        if to_world {
            self.add_object(Object::Ground(ObjectGround::new(Vector3::zeros())?))?;
        }
        for (m0, m1, joint) in items {
            self.add_marker(m0)?;
            self.add_marker(m1)?;
            self.add_constraint(joint)?;
        }
        Ok(first_object)
    }

    /// The system's kinematic tree, if it has one.
    pub fn kinematic_tree(&self) -> Option<&KinematicTree<T, J, J>> {
        self.tree.model.as_ref()
    }

    /// The object of link `link` of the system's tree. Errors: `UnknownIndex`.
    pub fn tree_link_object(&self, link: usize) -> Result<ObjectIndex> {
        let (tree, _) = self.tree.tree().ok_or(Error::UnknownIndex)?;
        item(tree.links(), link)?;
        Ok(ObjectIndex(self.tree.first_object + link as u16))
    }

    /// The tree's joint coordinates `q` (m or rad), velocities and accelerations (of the last
    /// step or start computation) of the current state; `None` without a tree.
    pub fn tree_state(&self) -> Option<(&[T], &[T], &[T])> {
        let (_, n) = self.tree.tree()?;
        Some((&self.tree.q[..n], &self.tree.v[..n], &self.tree.acc[..n]))
    }

    /// Sets the tree's joint coordinates and velocities (e.g. measured), the links' states with
    /// them. Errors (nothing changed): `UnknownIndex` without a tree; the state checks
    /// (`OutOfRange(Coordinate)`, `NotFinite(Position | Velocity)`). With generalized-alpha the
    /// next step first computes consistent accelerations and multipliers again.
    pub fn set_tree_state(&mut self, q: &[T], v: &[T]) -> Result<()> {
        let (tree, n) = self.tree.tree().ok_or(Error::UnknownIndex)?;
        tree.check_state(q, Some(v))?;
        self.tree.q[..n].copy_from_slice(q);
        self.tree.v[..n].copy_from_slice(v);
        self.tree.acc = [T::zero(); J];
        self.refresh_links();
        self.alpha.invalidate();
        Ok(())
    }

    /// Sets the joint forces `tau` (N m or N, one per tree coordinate; Exudyn's
    /// `jointForceVector`) that act on the tree from the next step on, until changed (a
    /// controller's output each period; the system stays assembled). Errors (nothing changed):
    /// `UnknownIndex` without a tree, `OutOfRange(Coordinate)` for another length,
    /// `NotFinite(Torque)`.
    pub fn set_tree_joint_forces(&mut self, tau: &[T]) -> Result<()> {
        let (tree, n) = self.tree.tree().ok_or(Error::UnknownIndex)?;
        tree.check_forces(tau, crate::Param::Torque)?;
        self.tree.joint_forces[..n].copy_from_slice(tau);
        Ok(())
    }

    /// The joint forces of [`Self::set_tree_joint_forces`] (`None` without a tree).
    pub fn tree_joint_forces(&self) -> Option<&[T]> {
        let (_, n) = self.tree.tree()?;
        Some(&self.tree.joint_forces[..n])
    }

    /// Sets the spring-damper of link `link`'s joint (Exudyn's joint P/D control with its
    /// position and velocity offsets: a controller's set point each period; the system stays
    /// assembled). Errors (nothing changed): `UnknownIndex` (no tree, no such link) and those
    /// of [`KinematicTree::set_joint_spring`].
    pub fn set_tree_joint_spring(
        &mut self,
        link: usize,
        spring: crate::tree::JointSpring<T>,
    ) -> Result<()> {
        let tree = self.tree.model.as_mut().ok_or(Error::UnknownIndex)?;
        tree.set_joint_spring(link, spring)
    }

    /// The link nodes' states from the tree's current coordinates; the tree's scratch back to
    /// its initial values after (its bytes depend on no call).
    pub(crate) fn refresh_links(&mut self) {
        let Some((_, n)) = self.tree.tree() else {
            return;
        };
        let t = &self.tree;
        t.link_states(&t.q[..n], &t.v[..n], Some(&t.acc[..n]), &mut self.states);
        self.tree.reset_scratch();
    }
}
