//! Forward kinematics of a [`KinematicTree`]: link poses and velocities, the centre of mass,
//! link-point Jacobians and the energies.

use super::data::{TreeData, Workspace};
use super::joint::Joint;
use super::model::{KinematicTree, Link, Turn};
use super::spatial::{Motion, Transform};
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// `m R_k(angle)`, the rotation `m` turned about its own axis `e_k` by the angle of sine `s`
/// and cosine `c`: columns `i = k + 1`, `j = k + 2` (mod 3) become `c m_i + s m_j` and
/// `c m_j - s m_i`, column `k` stays.
#[inline(always)]
fn turn_columns<T: Real>(m: &Matrix3<T>, k: usize, s: T, c: T) -> Matrix3<T> {
    #[inline(always)]
    fn turn<T: Real>(m: &Matrix3<T>, i: usize, j: usize, s: T, c: T) -> (Vector3<T>, Vector3<T>) {
        let (a, b) = (m.column(i), m.column(j));
        (a * c + b * s, b * c - a * s)
    }
    match k {
        0 => {
            let (y, z) = turn(m, 1, 2, s, c);
            Matrix3::from_columns(&[m.column(0).into_owned(), y, z])
        }
        1 => {
            let (z, x) = turn(m, 2, 0, s, c);
            Matrix3::from_columns(&[x, m.column(1).into_owned(), z])
        }
        _ => {
            let (x, y) = turn(m, 0, 1, s, c);
            Matrix3::from_columns(&[x, y, m.column(2).into_owned()])
        }
    }
}

/// `R_k(angle)` itself, the rotation about `e_k` by the angle of sine `s` and cosine `c`.
#[inline]
fn basis_rotation<T: Real>(k: usize, s: T, c: T) -> Matrix3<T> {
    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
    let mut r = Matrix3::identity();
    r[(i, i)] = c;
    r[(j, i)] = s;
    r[(i, j)] = -s;
    r[(j, j)] = c;
    r
}

impl<T: Real> Link<T> {
    /// Column `k` of the joint's motion subspace in the world at the world origin, for the
    /// link frame `x` (link to world): `[R w; p x R w + R v]` of the joint's column, a revolute
    /// or prismatic joint's without its zero half (and an aligned axis's `R w` a column of `R`).
    #[inline(always)]
    pub(crate) fn world_column(&self, x: &Transform<T>, k: usize) -> Motion<T> {
        let axis = |a: &Vector3<T>| match self.turn {
            Turn::Aligned {
                k: column, sign, ..
            } => x.rotation.column(column) * sign,
            _ => x.rotation * a,
        };
        match &self.joint {
            Joint::Revolute { axis: a } => {
                let w = axis(a);
                Motion::new(w, x.translation.cross(&w))
            }
            Joint::Prismatic { axis: a } => Motion::new(Vector3::zeros(), axis(a)),
            j => x.motion_to_parent(&j.column(k)),
        }
    }
}

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// The sine and cosine of link `i`'s revolute joint angle at `q` (the sine signed by an
    /// aligned axis's direction); `(0, 1)` for other joints.
    #[inline(always)]
    pub(crate) fn sin_cos(&self, i: usize, q: &[T]) -> (T, T) {
        let l = &self.links[i];
        match (&l.joint, &l.turn) {
            (Joint::Revolute { .. }, Turn::Aligned { sign, .. }) => {
                let (s, c) = q[l.q_index].sin_cos_l();
                (s * *sign, c)
            }
            (Joint::Revolute { .. }, _) => q[l.q_index].sin_cos_l(),
            _ => (T::zero(), T::one()),
        }
    }

    /// The link frame of link `i` in its parent's frame at `q`: `placement * X_J(q_i)`,
    /// written out per joint (a revolute joint only turns, a prismatic one only shifts).
    #[inline]
    pub(crate) fn joint_placement(&self, i: usize, q: &[T]) -> Transform<T> {
        self.local_pose(i, q, self.sin_cos(i, q))
    }

    /// [`Self::joint_placement`] with the joint angle's [`Self::sin_cos`] `(s, c)`.
    #[inline(always)]
    fn local_pose(&self, i: usize, q: &[T], (s, c): (T, T)) -> Transform<T> {
        let l = &self.links[i];
        let x = &l.placement;
        let q = &q[l.q_index..];
        match (&l.joint, &l.turn) {
            (Joint::Revolute { .. }, Turn::Aligned { k, placed, .. }) => {
                let r = match placed {
                    true => turn_columns(&x.rotation, *k, s, c),
                    false => basis_rotation(*k, s, c),
                };
                Transform::new(r, x.translation)
            }
            (Joint::Revolute { .. }, Turn::General([a, b])) => {
                Transform::new(x.rotation + a * s + b * (T::one() - c), x.translation)
            }
            (Joint::Prismatic { axis }, _) => {
                Transform::new(x.rotation, x.translation + x.rotation * (axis * q[0]))
            }
            (Joint::Spherical, _) => {
                Transform::new(x.rotation * l.joint.transform(q).rotation, x.translation)
            }
            (Joint::Free, _) => x.compose(&l.joint.transform(q)),
            _ => *x,
        }
    }

    /// Link `i`'s frame in the world at `q` from its parent's world frame `xp` and the joint
    /// angle's [`Self::sin_cos`]: `xp * placement * X_J(q_i)`; an aligned joint turns or shifts
    /// along a column of `xp R_p` (of `xp`'s rotation when `R_p = E`) instead of composing.
    #[inline(always)]
    fn world_pose(&self, i: usize, q: &[T], sc: (T, T), xp: &Transform<T>) -> Transform<T> {
        let l = &self.links[i];
        let Turn::Aligned { k, sign, placed } = l.turn else {
            return xp.compose(&self.local_pose(i, q, sc));
        };
        let r = match placed {
            true => xp.rotation * l.placement.rotation,
            false => xp.rotation,
        };
        let t = xp.point_to_parent(&l.placement.translation);
        match l.joint {
            Joint::Revolute { .. } => Transform::new(turn_columns(&r, k, sc.0, sc.1), t),
            _ => {
                let shift = r.column(k) * (sign * q[l.q_index]);
                Transform::new(r, t + shift)
            }
        }
    }

    /// Link `i`'s frame in the world at `q`, from its parent's in `x_world` (the base's parent
    /// is the world), with the joint angle's [`Self::sin_cos`].
    #[inline(always)]
    pub(crate) fn link_world_pose(
        &self,
        i: usize,
        q: &[T],
        sc: (T, T),
        x_world: &[Transform<T>],
    ) -> Transform<T> {
        match self.links[i].parent {
            Some(p) => self.world_pose(i, q, sc, &x_world[p]),
            None => self.local_pose(i, q, sc),
        }
    }

    /// One forward sweep: every link's world frame `x_world` and, with `v`, its frame in its
    /// parent `x_up` and its velocity `v_i = X_i v_parent + S_i v_i` (link coordinates).
    pub(crate) fn sweep(&self, work: &mut Workspace<T, L, D>, q: &[T], v: Option<&[T]>) {
        for (i, l) in self.links.iter().enumerate() {
            let sc = self.sin_cos(i, q);
            work.x_world[i] = self.link_world_pose(i, q, sc, &work.x_world);
            if let Some(v) = v {
                let x = self.local_pose(i, q, sc);
                let vp = l.parent.map_or(Motion::zero(), |p| work.v[p]);
                work.x_up[i] = x;
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
                work.s[l.v_index + k] = l.world_column(&work.x_world[i], k);
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::inertia::MassProperties;
    use crate::tree::TreeData;

    /// Joints along `+-e_k` (revolute and prismatic, placed with and without a rotation) take
    /// the prepared column paths; their world poses and motion columns equal the general
    /// `placement * X_J(q)` composed down the chain and `X S` of the joint's column.
    #[test]
    fn aligned_axes_equal_the_general_composition() {
        let mp = MassProperties::new(
            1.0,
            Vector3::new(0.1, -0.05, 0.2),
            Matrix3::new(0.3, 0.01, 0.0, 0.01, 0.2, 0.02, 0.0, 0.02, 0.25),
        )
        .unwrap();
        let turned = crate::math::Quaternion::exp(&Vector3::new(0.3, -0.7, 0.5)).to_matrix();
        let place = |r: Matrix3<f64>| Transform::new(r, Vector3::new(0.2, -0.1, 0.4));
        let mut t = KinematicTree::<f64, 32, 32>::new(Vector3::new(0.0, 0.0, -9.81)).unwrap();
        // A general axis at the base, so the aligned links hang from a turned frame.
        let a = Vector3::new(0.3, -0.4, 0.5).normalize();
        let mut parent = Some(
            t.add_link(None, Joint::Revolute { axis: a }, place(turned), &mp)
                .unwrap(),
        );
        for k in 0..3 {
            for sign in [1.0, -1.0] {
                for r in [Matrix3::identity(), turned] {
                    let mut axis = Vector3::zeros();
                    axis[k] = sign;
                    for joint in [Joint::Revolute { axis }, Joint::Prismatic { axis }] {
                        parent = Some(t.add_link(parent, joint, place(r), &mp).unwrap());
                        let l = t.links.last().unwrap();
                        assert!(matches!(l.turn, Turn::Aligned { .. }));
                    }
                }
            }
        }
        let q: [f64; 25] = core::array::from_fn(|i| 0.37 * i as f64 - 2.9);
        let mut d = TreeData::<f64, 32, 32>::new();
        t.forward_kinematics(&mut d, &q, None).unwrap();
        t.world_columns(&mut d.work);
        let mut x = Transform::identity();
        for (i, l) in t.links.iter().enumerate() {
            x = x.compose(&l.placement.compose(&l.joint.transform(&q[l.q_index..])));
            let w = &d.work.x_world[i];
            assert!((w.rotation - x.rotation).abs().max() < 1e-14, "link {i}");
            assert!(
                (w.translation - x.translation).abs().max() < 1e-14,
                "link {i}"
            );
            let s = x.motion_to_parent(&l.joint.column(0));
            let c = d.work.s[l.v_index];
            let e = (c.angular - s.angular)
                .abs()
                .max()
                .max((c.linear - s.linear).abs().max());
            assert!(e < 1e-14, "link {i}: {e}");
        }
    }
}
