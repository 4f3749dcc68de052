//! A kinematic tree as an item of a system (Exudyn's `ObjectKinematicTree`): the tree's joint
//! coordinates join the system's coordinates, and each link is a rigid body of the system
//! ([`Object::TreeLink`](super::Object::TreeLink) on a [`Node::TreeLink`](super::Node::TreeLink)) whose pose and twist are the tree's forward
//! kinematics. Markers, loads, connectors, sensors and drawing treat a link as any rigid body;
//! the forces they put on it act on the joint coordinates through the link's Jacobian.
//!
//! In the generalized-alpha system (the only scheme that steps a tree) the tree adds, at its
//! coordinates `q_T` and velocities `v_T`:
//! - to `M`: the tree's joint-space mass matrix (CRBA);
//! - to `Q`: the joint forces `tau` ([`System::set_tree_joint_forces`](super::System::set_tree_joint_forces), Exudyn's
//!   `jointForceVector`) less `b(q_T, v_T)` with every link's wrench `w_i` from loads and
//!   connectors as an applied force (RNEA at zero acceleration: gravity of the tree, velocity
//!   products, joint spring-dampers, and `+ J_i^T w_i`);
//! - to the Newton matrix: `d Q / d q_T` and `d Q / d v_T` of all forces by forward differences
//!   (one evaluation of all forces per tree coordinate and per velocity).
//!
//! Joints of the system ([`Constraint`](super::Constraint)) join tree links to other bodies or
//! close loops: a marker on a link moves with the link's Jacobian columns
//! ([`crate::constraints::spatial`]); a four-bar linkage is a three-link tree and one joint.
//!
//! Only joints with one coordinate (revolute, prismatic) and fixed joints join a system, as in
//! Exudyn's `ObjectKinematicTree`: the system's coordinates are integrated as `q_t = v`, which
//! a quaternion joint's coordinates are not.

use super::index::{ItemRef, ObjectIndex};
use super::node::NodeState;
use crate::integrators::constrained::ConstrainedState;
use crate::math::Quaternion;
use crate::state::RigidState;
use crate::tree::data::Workspace;
use crate::tree::{KinematicTree, TreeData};
use crate::Real;
use core::cell::RefCell;

/// The system's kinematic tree (at most one; [`System::add_kinematic_tree`](super::System::add_kinematic_tree)): the tree of at
/// most `J` links and `J` coordinates, its links' first node and object, its initial and current
/// coordinates, and the scratch memory of its algorithms.
#[derive(Clone, Debug, PartialEq)]
pub struct SystemTree<T: Real, const J: usize> {
    pub(crate) model: Option<KinematicTree<T, J, J>>,
    pub(crate) first_node: u16,
    pub(crate) first_object: u16,
    pub(crate) initial_q: [T; J],
    pub(crate) initial_v: [T; J],
    /// Joint coordinates `q` (m or rad), velocities and accelerations of the current state.
    pub(crate) q: [T; J],
    pub(crate) v: [T; J],
    pub(crate) acc: [T; J],
    /// Joint forces applied to the tree's coordinates (N m or N; Exudyn's `jointForceVector`),
    /// held until changed.
    pub(crate) joint_forces: [T; J],
    pub(crate) scratch: Scratch<TreeData<T, J, J>>,
}

/// Scratch memory of the tree algorithms, borrowed while the system's forces are evaluated
/// through shared references. Not part of the system's value: equal whatever it holds.
#[derive(Clone, Debug)]
pub struct Scratch<X>(pub(crate) RefCell<X>);

impl<X> PartialEq for Scratch<X> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T: Real, const J: usize> Default for SystemTree<T, J> {
    fn default() -> Self {
        let z = [T::zero(); J];
        Self {
            model: None,
            first_node: 0,
            first_object: 0,
            initial_q: z,
            initial_v: z,
            q: z,
            v: z,
            acc: z,
            joint_forces: z,
            scratch: Scratch(RefCell::new(TreeData::new())),
        }
    }
}

impl<T: Real, const J: usize> SystemTree<T, J> {
    /// The tree's scratch back to its initial values (see [`TreeData`]'s `reset`): after a step,
    /// complete or refused, so that its bytes do not depend on the step.
    pub(crate) fn reset_scratch(&mut self) {
        if self.model.is_some() {
            self.scratch.0.get_mut().reset();
        }
    }

    /// The joint coordinates, velocities and accelerations, for a solve's way back on error.
    pub(crate) fn saved(&self) -> [[T; J]; 3] {
        [self.q, self.v, self.acc]
    }

    /// Puts back what [`Self::saved`] took.
    pub(crate) fn restore(&mut self, [q, v, acc]: [[T; J]; 3]) {
        (self.q, self.v, self.acc) = (q, v, acc);
    }

    /// The tree and its number of coordinates, if there is one.
    pub(crate) fn tree(&self) -> Option<(&KinematicTree<T, J, J>, usize)> {
        self.model.as_ref().map(|t| (t, t.nv()))
    }

    /// The item errors about the tree name: its first link's object.
    pub(crate) fn item(&self) -> ItemRef {
        ItemRef::Object(ObjectIndex(self.first_object))
    }

    /// The current coordinates, velocities and accelerations into entries `o..o + n` of a
    /// generalized-alpha state (`o` the tree's first coordinate in the layout).
    pub(crate) fn write_state<const W: usize>(&self, o: usize, st: &mut ConstrainedState<T, W>) {
        let Some((_, n)) = self.tree() else { return };
        for (dst, src) in [
            (&mut st.q, &self.q),
            (&mut st.v, &self.v),
            (&mut st.acc, &self.acc),
        ] {
            if let (Some(d), Some(s)) = (dst.get_mut(o..o + n), src.get(..n)) {
                d.copy_from_slice(s);
            }
        }
    }

    /// The current coordinates, velocities and accelerations from entries `o..o + n` of a
    /// generalized-alpha state.
    pub(crate) fn read_state<const W: usize>(&mut self, o: usize, st: &ConstrainedState<T, W>) {
        let Some((_, n)) = self.tree() else { return };
        for (dst, src) in [
            (&mut self.q, &st.q),
            (&mut self.v, &st.v),
            (&mut self.acc, &st.acc),
        ] {
            if let (Some(d), Some(s)) = (dst.get_mut(..n), src.get(o..o + n)) {
                d.copy_from_slice(s);
            }
        }
    }

    /// Writes the link nodes' states (pose and twist of each link frame, and with `q_tt` its
    /// accelerations) at the tree coordinates `q`, velocities `v` into `states` (the system's
    /// node states, the links' from `first_node` on).
    pub(crate) fn link_states(
        &self,
        q: &[T],
        v: &[T],
        q_tt: Option<&[T]>,
        states: &mut [NodeState<T>],
    ) {
        let Some((tree, _)) = self.tree() else { return };
        // Never in use here (the system's evaluations do not nest); a borrow that fails leaves
        // the states as they are rather than panic.
        let Ok(mut data) = self.scratch.0.try_borrow_mut() else {
            return;
        };
        let w = &mut data.work;
        tree.sweep(w, q, Some(v));
        if let Some(q_tt) = q_tt {
            tree.link_accelerations(w, v, q_tt);
        }
        let first = usize::from(self.first_node);
        for (i, s) in states
            .iter_mut()
            .skip(first)
            .take(tree.links().len())
            .enumerate()
        {
            // The payload in place: a whole enum written could change its padding's bytes.
            match s {
                NodeState::RigidBody(r) => *r = link_state(w, i, q_tt.is_some()),
                s => *s = NodeState::RigidBody(link_state(w, i, q_tt.is_some())),
            }
        }
    }
}

/// Link `i`'s rigid state from a sweep (and accelerations in `w.a` with `acc`): the link
/// frame's origin `p` (m, world), orientation `R_0i`, origin velocity `R v_O` (m/s, world),
/// angular velocity `w` (rad/s, link frame); the acceleration of the origin
/// `R (a_lin + w x v_O)` (world) and the angular acceleration `a_ang` (link frame).
fn link_state<T: Real, const L: usize, const D: usize>(
    w: &Workspace<T, L, D>,
    i: usize,
    acc: bool,
) -> RigidState<T> {
    let x = &w.x_world[i];
    let v = &w.v[i];
    let mut s = RigidState::at_rest(x.translation, Quaternion::from_matrix(&x.rotation));
    s.velocity = x.rotation * v.linear;
    s.angular_velocity = v.angular;
    if acc {
        let a = &w.a[i];
        s.acceleration = x.rotation * (a.linear + v.angular.cross(&v.linear));
        s.angular_acceleration = a.angular;
    }
    s
}
