//! Forward kinematics of a [`KinematicTree`]: link poses and velocities, the centre of mass,
//! link-point Jacobians and the energies.

use super::data::{TreeData, Workspace};
use super::joint::Joint;
use super::model::KinematicTree;
use super::spatial::{Motion, Transform};
use crate::{Error, Param, Real, Result};
use nalgebra::Vector3;

/// Column `k` of `joint`'s motion subspace in the world at the world origin, for the link
/// frame `x` (link to world): `[R w; p x R w + R v]` of the joint's column, a revolute or
/// prismatic joint's without its zero half.
#[inline]
pub(crate) fn world_column<T: Real>(joint: &Joint<T>, x: &Transform<T>, k: usize) -> Motion<T> {
    match joint {
        Joint::Revolute { axis } => {
            let w = x.rotation * axis;
            Motion::new(w, x.translation.cross(&w))
        }
        Joint::Prismatic { axis } => Motion::new(Vector3::zeros(), x.rotation * axis),
        _ => x.motion_to_parent(&joint.column(k)),
    }
}

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// The link frame of link `i` in its parent's frame at `q`: `placement * X_J(q_i)`,
    /// written out per joint (a revolute joint only turns, a prismatic one only shifts).
    #[inline]
    pub(crate) fn joint_placement(&self, i: usize, q: &[T]) -> Transform<T> {
        let l = &self.links[i];
        let x = &l.placement;
        let q = &q[l.q_index..];
        match l.joint {
            Joint::Revolute { .. } => {
                let (sin, cos) = q[0].sin_cos_l();
                let [a, b] = &l.turn;
                Transform::new(x.rotation + a * sin + b * (T::one() - cos), x.translation)
            }
            Joint::Spherical => {
                Transform::new(x.rotation * l.joint.transform(q).rotation, x.translation)
            }
            Joint::Prismatic { axis } => {
                Transform::new(x.rotation, x.translation + x.rotation * (axis * q[0]))
            }
            Joint::Fixed => *x,
            Joint::Free => x.compose(&l.joint.transform(q)),
        }
    }

    /// One forward sweep: `x_up` of every link and, with `v`, its velocity
    /// `v_i = X_i v_parent + S_i v_i` (link coordinates).
    pub(crate) fn sweep(&self, work: &mut Workspace<T, L, D>, q: &[T], v: Option<&[T]>) {
        for (i, l) in self.links.iter().enumerate() {
            let x = self.joint_placement(i, q);
            work.x_up[i] = x;
            let (xw, vp) = match l.parent {
                Some(p) => (work.x_world[p].compose(&x), work.v[p]),
                None => (x, Motion::zero()),
            };
            work.x_world[i] = xw;
            if let Some(v) = v {
                work.v[i] = x.motion_to_child(&vp) + l.joint.motion(&v[l.v_index..]);
            }
        }
    }

    /// After a [`Self::sweep`] with velocities: every link's spatial acceleration without
    /// gravity (link coordinates) for the accelerations `q_tt` into `work.a`:
    /// `a_i = X_i a_p + S_i q_tt_i + v_i x S_i v_i`, `a_0 = 0`.
    pub(crate) fn link_accelerations(&self, work: &mut Workspace<T, L, D>, v: &[T], q_tt: &[T]) {
        for (i, l) in self.links.iter().enumerate() {
            let ap = match l.parent {
                Some(p) => work.x_up[i].motion_to_child(&work.a[p]),
                None => Motion::zero(),
            };
            let vj = l.joint.motion(&v[l.v_index..]);
            work.a[i] = ap + work.v[i].cross(&vj) + l.joint.motion(&q_tt[l.v_index..]);
        }
    }

    /// After a [`Self::sweep`]: every velocity coordinate's motion column in world coordinates
    /// at the world origin into `work.s` (`[R w; p x R w + R v]` of the joint's column).
    pub(crate) fn world_columns(&self, work: &mut Workspace<T, L, D>) {
        for (i, l) in self.links.iter().enumerate() {
            for k in 0..l.joint.nv() {
                work.s[l.v_index + k] = world_column(&l.joint, &work.x_world[i], k);
            }
        }
    }

    /// The last velocity coordinate on `link`'s path to the base (its own last one, or the
    /// nearest moving ancestor's); `usize::MAX` if none moves.
    pub(crate) fn last_coordinate(&self, link: usize) -> usize {
        let mut a = Some(link);
        while let Some(l) = a.and_then(|i| self.links.get(i)) {
            if l.joint.nv() > 0 {
                return l.v_index + l.joint.nv() - 1;
            }
            a = l.parent;
        }
        super::model::NONE
    }

    /// Forward kinematics: every link's pose in the world and, with `v`, its spatial velocity
    /// (link coordinates), into `data` ([`TreeData::link_pose`], [`TreeData::link_velocity`]).
    /// Errors (`data` unchanged): those of a state check (lengths, finiteness, a zero
    /// quaternion).
    pub fn forward_kinematics(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: Option<&[T]>,
    ) -> Result<()> {
        self.check_state(q, v)?;
        self.sweep(&mut data.work, q, v);
        Ok(())
    }

    /// The total mass (kg) and the centre of mass (m, world) of the tree at the configuration of
    /// the last [`Self::forward_kinematics`].
    pub fn center_of_mass(&self, data: &TreeData<T, L, D>) -> (T, Vector3<T>) {
        let mut m = T::zero();
        let mut h = Vector3::zeros();
        for (i, l) in self.links.iter().enumerate() {
            let x = &data.work.x_world[i];
            m += l.inertia.mass;
            h += x.rotation * l.inertia.first_moment + x.translation * l.inertia.mass;
        }
        (m, h / m)
    }

    /// The kinetic energy (J) `sum 1/2 v_i . (I_i v_i)` at the state of the last
    /// [`Self::forward_kinematics`] with velocities.
    pub fn kinetic_energy(&self, data: &TreeData<T, L, D>) -> T {
        let mut e = T::zero();
        for (i, l) in self.links.iter().enumerate() {
            let v = &data.work.v[i];
            e += v.dot(&l.inertia.apply(v));
        }
        e * T::c(0.5)
    }

    /// The potential energy (J) at the configuration `q` of the last
    /// [`Self::forward_kinematics`]: gravity `-sum m_i g . c_i` (zero at the world origin) and
    /// the joint springs `sum 1/2 P (q - u_o)^2`.
    pub fn potential_energy(&self, data: &TreeData<T, L, D>, q: &[T]) -> T {
        let (m, c) = self.center_of_mass(data);
        let mut e = -m * self.gravity.dot(&c);
        for l in self.links.iter() {
            if l.spring.stiffness != T::zero() {
                let d = q[l.q_index] - l.spring.position_offset;
                e += T::c(0.5) * l.spring.stiffness * d * d;
            }
        }
        e
    }

    /// The Jacobian of a link point at the configuration of the last
    /// [`Self::forward_kinematics`]: `jac` (row-major, 6 rows of `nv`) maps `v` to the link's
    /// angular velocity (rows 0-2, rad/s, world) and the velocity of the point `point` (m, link
    /// coordinates) (rows 3-5, m/s, world).
    /// Errors: `UnknownIndex`; `OutOfRange(Coordinate)` for a `jac` of another length than
    /// `6 nv`; `NotFinite(LocalPosition)`.
    pub fn point_jacobian(
        &self,
        data: &TreeData<T, L, D>,
        link: usize,
        point: &Vector3<T>,
        jac: &mut [T],
    ) -> Result<()> {
        if link >= self.links.len() {
            return Err(Error::UnknownIndex);
        }
        if jac.len() != 6 * self.nv {
            return Err(Error::OutOfRange(Param::Coordinate));
        }
        crate::error::finite_all(point, Param::LocalPosition)?;
        jac.iter_mut().for_each(|x| *x = T::zero());
        let n = self.nv;
        let xp = data.work.x_world[link].point_to_parent(point);
        let mut j = Some(link);
        while let Some(i) = j {
            let l = &self.links[i];
            let x = &data.work.x_world[i];
            for k in 0..l.joint.nv() {
                let s = l.joint.column(k);
                let w = x.rotation * s.angular;
                let vel = x.rotation * s.linear + w.cross(&(xp - x.translation));
                let col = l.v_index + k;
                for r in 0..3 {
                    jac[r * n + col] = w[r];
                    jac[(r + 3) * n + col] = vel[r];
                }
            }
            j = l.parent;
        }
        Ok(())
    }
}
