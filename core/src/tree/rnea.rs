//! Inverse dynamics of a [`KinematicTree`]: the recursive Newton-Euler algorithm
//! (Featherstone, *Rigid Body Dynamics Algorithms*, Table 5.1).

use super::data::TreeData;
use super::model::KinematicTree;
use super::spatial::Motion;
use crate::{Param, Real, Result};

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// Inverse dynamics: the joint forces `tau` (N m or N, length `nv`) that give the
    /// accelerations `q_tt` at the state `q`, `v`, with gravity, the joint spring-dampers and
    /// the links' applied wrenches acting too:
    /// `tau = M(q) q_tt + b(q, v)`, `b` the bias forces of [`Self::bias_forces`].
    ///
    /// Forward sweep: `v_i = X_i v_p + S_i v_i`, `a_i = X_i a_p + S_i q_tt_i + v_i x S_i v_i`,
    /// `a_0 = -g`, `f_i = I_i a_i + v_i x* I_i v_i - f_ext_i`; backward sweep:
    /// `tau_i = S_i^T f_i - f_spring_i`, `f_p += X_i^T f_i`.
    ///
    /// Errors (`tau` and `data` unchanged): those of a state check, and
    /// `OutOfRange(Coordinate)`/`NotFinite(AngularAcceleration)` for `q_tt`,
    /// `OutOfRange(Coordinate)` for `tau`'s length.
    pub fn rnea(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        q_tt: &[T],
        tau: &mut [T],
    ) -> Result<()> {
        self.check_state(q, Some(v))?;
        self.check_forces(q_tt, Param::AngularAcceleration)?;
        self.check_output(tau)?;
        self.rnea_core(data, q, v, Some(q_tt), tau);
        Ok(())
    }

    /// The bias forces `b(q, v)` (length `nv`): the joint forces that hold the tree at zero
    /// acceleration against gravity, the velocity products, the joint spring-dampers and the
    /// applied wrenches (`M q_tt = tau - b`). Errors as [`Self::rnea`].
    pub fn bias_forces(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        b: &mut [T],
    ) -> Result<()> {
        self.check_state(q, Some(v))?;
        self.check_output(b)?;
        self.rnea_core(data, q, v, None, b);
        Ok(())
    }

    /// RNEA on checked inputs (`q_tt = None`: zero accelerations).
    pub(crate) fn rnea_core(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        q_tt: Option<&[T]>,
        tau: &mut [T],
    ) {
        let w = &mut data.work;
        let a_base = Motion::new(nalgebra::Vector3::zeros(), -self.gravity);
        for (i, l) in self.links.iter().enumerate() {
            let x = self.joint_placement(i, q);
            w.x_up[i] = x;
            let (vp, ap) = match l.parent {
                Some(p) => (w.v[p], w.a[p]),
                None => (Motion::zero(), a_base),
            };
            let vj = l.joint.motion(&v[l.v_index..]);
            let vi = x.motion_to_child(&vp) + vj;
            let mut ai = x.motion_to_child(&ap) + vi.cross(&vj);
            if let Some(q_tt) = q_tt {
                ai += l.joint.motion(&q_tt[l.v_index..]);
            }
            w.v[i] = vi;
            w.a[i] = ai;
            w.f[i] = l.inertia.apply(&ai) + vi.cross_force(&l.inertia.apply(&vi));
            if w.has_external {
                w.f[i] -= w.external[i];
            }
        }
        for (i, l) in self.links.iter().enumerate().rev() {
            let fi = w.f[i];
            for k in 0..l.joint.nv() {
                tau[l.v_index + k] = l.joint.project(&fi, k) - l.spring_force(q, v, k);
            }
            if let Some(p) = l.parent {
                let fp = w.x_up[i].force_to_parent(&fi);
                w.f[p] += fp;
            }
        }
    }
}
