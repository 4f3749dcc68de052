//! [`TreeData`]: what the algorithms of a [`KinematicTree`](super::KinematicTree) compute and
//! keep (MuJoCo's model/data split: the model is constant, the data is the work of one call).
//! Fixed size, no allocation: `L` links, `D` coordinates, the same capacities as the tree.

use super::spatial::{ArticulatedInertia, Force, Motion, RigidInertia, Transform};
use crate::Real;
use nalgebra::Vector3;

/// The per-link results and work of the tree algorithms. Spatial quantities are in link
/// coordinates (see [`super::spatial`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeData<T, const L: usize, const D: usize> {
    pub(crate) work: Workspace<T, L, D>,
    /// The joint-space mass matrix of the last [`crba`](super::KinematicTree::crba), row-major,
    /// its leading `nv x nv` block.
    pub(crate) mass_matrix: [[T; D]; D],
    /// Its `L^T D L` factors (Featherstone, ch. 6): `D` on the diagonal, `L` below.
    pub(crate) factor: [[T; D]; D],
    /// `mass_matrix` holds the matrix of a [`crba`](super::KinematicTree::crba) ...
    pub(crate) has_mass_matrix: bool,
    /// ... and `factor` its factors.
    pub(crate) has_factor: bool,
}

/// The per-link quantities of the recursions.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Workspace<T, const L: usize, const D: usize> {
    /// Link frame in its parent's link frame (after the joint).
    pub(crate) x_up: [Transform<T>; L],
    /// Link frame in the world (forward kinematics, CRBA, ABA).
    pub(crate) x_world: [Transform<T>; L],
    /// Spatial velocity of the link (forward kinematics, RNEA; link coordinates).
    pub(crate) v: [Motion<T>; L],
    /// Spatial acceleration of the link with gravity as an acceleration of the base, `-g`
    /// (RNEA: link coordinates; ABA: world coordinates at the world origin).
    pub(crate) a: [Motion<T>; L],
    /// RNEA: the force the joint transmits to the link; ABA: the articulated bias force.
    pub(crate) f: [Force<T>; L],
    /// ABA: spatial velocity of the link in world coordinates at the world origin.
    pub(crate) vw: [Motion<T>; L],
    /// ABA, CRBA: each velocity coordinate's motion subspace column in world coordinates.
    pub(crate) s: [Motion<T>; D],
    /// Velocity-product acceleration `v x (S q_t)`.
    pub(crate) c: [Motion<T>; L],
    /// ABA's articulated inertia.
    pub(crate) ia: [ArticulatedInertia<T>; L],
    /// CRBA's composite inertia of the subtree (world coordinates at the world origin).
    pub(crate) ic: [RigidInertia<T>; L],
    /// Applied wrench on each link (link coordinates, about the link origin).
    pub(crate) external: [Force<T>; L],
    /// Some applied wrench was set since the last clear.
    pub(crate) has_external: bool,
    /// ABA per velocity coordinate: `W = U D^-1` (a force-type column) ...
    pub(crate) w: [Force<T>; D],
    /// ... and `D^-1 u`.
    pub(crate) u_tilde: [T; D],
}

impl<T: Real, const L: usize, const D: usize> TreeData<T, L, D> {
    /// Zeroed data for any tree of capacity `L`, `D`.
    pub fn new() -> Self {
        let z = T::zero();
        let zi = RigidInertia::zero();
        Self {
            work: Workspace {
                x_up: [Transform::identity(); L],
                x_world: [Transform::identity(); L],
                v: [Motion::zero(); L],
                a: [Motion::zero(); L],
                f: [Force::zero(); L],
                vw: [Motion::zero(); L],
                s: [Motion::zero(); D],
                c: [Motion::zero(); L],
                ia: [ArticulatedInertia::from_rigid(&zi); L],
                ic: [zi; L],
                external: [Force::zero(); L],
                has_external: false,
                w: [Force::zero(); D],
                u_tilde: [z; D],
            },
            mass_matrix: [[z; D]; D],
            factor: [[z; D]; D],
            has_mass_matrix: false,
            has_factor: false,
        }
    }

    /// The world pose of `link` from the last
    /// [`forward_kinematics`](super::KinematicTree::forward_kinematics),
    /// [`crba`](super::KinematicTree::crba) or [`aba`](super::KinematicTree::aba) (`None` past
    /// `L`).
    pub fn link_pose(&self, link: usize) -> Option<Transform<T>> {
        self.work.x_world.get(link).copied()
    }

    /// The spatial velocity of `link` (link coordinates) from the last forward kinematics with
    /// velocities or RNEA.
    pub fn link_velocity(&self, link: usize) -> Option<Motion<T>> {
        self.work.v.get(link).copied()
    }

    /// The mass matrix of the last [`crba`](super::KinematicTree::crba): entry `(i, j)`,
    /// `i, j < nv` (`None` past `D`).
    pub fn mass_matrix(&self, i: usize, j: usize) -> Option<T> {
        self.mass_matrix.get(i).and_then(|r| r.get(j)).copied()
    }

    /// Sets the wrench applied to `link`: `force` (N) through the link point `point` (m), both
    /// in link coordinates; it stays until changed or [`Self::clear_wrenches`]. `false` past `L`.
    pub fn set_link_force(&mut self, link: usize, force: Vector3<T>, point: Vector3<T>) -> bool {
        self.set_link_wrench(link, Force::new(point.cross(&force), force))
    }

    /// Sets the wrench applied to `link` (link coordinates, moment about the link origin).
    /// `false` past `L`.
    pub fn set_link_wrench(&mut self, link: usize, wrench: Force<T>) -> bool {
        match self.work.external.get_mut(link) {
            Some(f) => {
                *f = wrench;
                self.work.has_external = true;
                true
            }
            None => false,
        }
    }

    /// The wrench applied to `link` (link coordinates).
    pub fn link_wrench(&self, link: usize) -> Option<Force<T>> {
        self.work.external.get(link).copied()
    }

    /// Removes every applied wrench.
    pub fn clear_wrenches(&mut self) {
        self.work.external = [Force::zero(); L];
        self.work.has_external = false;
    }
}

impl<T: Real, const L: usize, const D: usize> TreeData<T, L, D> {
    /// Back to [`Self::new`]'s values field by field, in place (only the fields' bytes are
    /// written): for scratch data whose bytes must not depend on what the last call did.
    pub(crate) fn reset(&mut self) {
        let z = T::zero();
        let zi = RigidInertia::zero();
        let w = &mut self.work;
        w.x_up.fill(Transform::identity());
        w.x_world.fill(Transform::identity());
        for m in [&mut w.v, &mut w.a, &mut w.vw, &mut w.c] {
            m.fill(Motion::zero());
        }
        w.s.fill(Motion::zero());
        w.f.fill(Force::zero());
        w.ia.fill(ArticulatedInertia::from_rigid(&zi));
        w.ic.fill(zi);
        w.external.fill(Force::zero());
        w.has_external = false;
        w.w.fill(Force::zero());
        w.u_tilde.fill(z);
        for row in self.mass_matrix.iter_mut().chain(self.factor.iter_mut()) {
            row.fill(z);
        }
        self.has_mass_matrix = false;
        self.has_factor = false;
    }
}

impl<T: Real, const L: usize, const D: usize> Default for TreeData<T, L, D> {
    fn default() -> Self {
        Self::new()
    }
}
