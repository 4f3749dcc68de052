//! Time steps of a [`KinematicTree`] in joint coordinates: semi-implicit Euler with the joint
//! damping linearly implicit, and the classical Runge-Kutta method of order 4, each on ABA's
//! accelerations, with the joint forces held over the step (a controller's zero-order hold).

// `!(x > 0)` is meant: NaN must fail these checks.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

use super::data::TreeData;
use super::model::KinematicTree;
use crate::{Error, Param, Real, Result};

/// The integration scheme of [`KinematicTree::step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeScheme {
    /// `v+ = v + h q_tt`, `q+ = q (+) h v+` (quaternions turned exactly), with
    /// `(M + h D) q_tt = tau - b(q, v)`: the damping `D` of the joint spring-dampers taken at
    /// `v+`, so a stiff damper does not limit the step. Order 1, symplectic without damping.
    SemiImplicitEuler,
    /// The classical Runge-Kutta method of order 4 on `q_t = G(q) v`, `v_t = q_tt(q, v)`
    /// (quaternions renormalized after the step). Explicit: the damping limits the step.
    RungeKutta4,
}

/// How [`KinematicTree::step`] steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeStepSettings<T> {
    /// The scheme.
    pub scheme: TreeScheme,
    /// The largest rotation (rad) a joint may turn its link in one (sub-)step: a step whose
    /// fastest joint turns more, `|w| h > max_rotation_per_step` at its start, is split into
    /// `ceil(|w| h / max_rotation_per_step)` equal sub-steps (the guard of mbs's rigid-body
    /// step). Default 0.5.
    pub max_rotation_per_step: T,
    /// The most sub-steps one step may take (default 64); beyond, the step is refused.
    pub max_substeps: u32,
}

impl<T: Real> Default for TreeStepSettings<T> {
    fn default() -> Self {
        Self {
            scheme: TreeScheme::SemiImplicitEuler,
            max_rotation_per_step: T::c(0.5),
            max_substeps: 64,
        }
    }
}

impl<T: Real> TreeStepSettings<T> {
    /// The default settings with `scheme`.
    pub fn with_scheme(scheme: TreeScheme) -> Self {
        Self {
            scheme,
            ..Self::default()
        }
    }
}

/// What a [`KinematicTree::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeStepReport {
    /// The sub-steps it took (1 without the rotation guard).
    pub substeps: u32,
}

/// What a step integrates: the accelerations at a state (with the damping taken linearly
/// implicit over `h_damping`, zero for none) and what follows each (sub-)step. The open tree's
/// is ABA; a tree with closed loops adds its loop forces and a projection (`loops.rs`).
pub(crate) trait StepModel<T: Real, const L: usize, const D: usize> {
    /// `q_tt` at `q`, `v` under `tau`.
    #[allow(clippy::too_many_arguments)]
    fn accelerations(
        &mut self,
        tree: &KinematicTree<T, L, D>,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        tau: &[T],
        h_damping: T,
        q_tt: &mut [T],
    ) -> Result<()>;

    /// Runs after each (sub-)step on its result.
    fn after_step(
        &mut self,
        _tree: &KinematicTree<T, L, D>,
        _data: &mut TreeData<T, L, D>,
        _q: &mut [T],
        _v: &mut [T],
    ) -> Result<()> {
        Ok(())
    }
}

/// The open tree: ABA.
struct Open;

impl<T: Real, const L: usize, const D: usize> StepModel<T, L, D> for Open {
    fn accelerations(
        &mut self,
        tree: &KinematicTree<T, L, D>,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        tau: &[T],
        h_damping: T,
        q_tt: &mut [T],
    ) -> Result<()> {
        tree.aba_core(&mut data.work, q, v, tau, h_damping, q_tt);
        Ok(())
    }
}

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// Advances `q`, `v` by one step of `h` (s) under the joint forces `tau` (held over the
    /// step), gravity, the joint spring-dampers and the applied wrenches in `data`.
    ///
    /// Errors (`q`, `v` unchanged): those of a state check and of `tau`;
    /// `NotFinite(TimeStep)`/`OutOfRange(TimeStep)` for `h` not finite or not positive;
    /// `NotFinite(Setting)`/`OutOfRange(Setting)` for a rotation bound that is not positive;
    /// `OutOfRange(AngularVelocity)` if the rotation guard needs more than `max_substeps`;
    /// `NonFiniteState` if the step overflows.
    pub fn step(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
        settings: &TreeStepSettings<T>,
    ) -> Result<TreeStepReport> {
        self.step_with(data, q, v, tau, h, settings, &mut Open)
    }

    /// The one step driver: checks, the rotation guard's sub-steps of the scheme on `model`'s
    /// accelerations, each followed by `model.after_step`, on copies of `q` and `v` that are
    /// written back only when finite.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn step_with<M: StepModel<T, L, D>>(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
        settings: &TreeStepSettings<T>,
        model: &mut M,
    ) -> Result<TreeStepReport> {
        self.check_state(q, Some(v))?;
        self.check_forces(tau, Param::Torque)?;
        crate::error::finite(h, Param::TimeStep)?;
        if !(h > T::zero()) {
            return Err(Error::OutOfRange(Param::TimeStep));
        }
        let theta = crate::error::finite(settings.max_rotation_per_step, Param::Setting)?;
        if !(theta > T::zero()) {
            return Err(Error::OutOfRange(Param::Setting));
        }
        let n = self.substeps(v, h, theta, settings.max_substeps)?;
        let hs = h / T::of_u32(n);
        let (nq, nv) = (self.nq, self.nv);
        let (mut qs, mut vs) = ([T::zero(); D], [T::zero(); D]);
        let (qs, vs) = (&mut qs[..nq], &mut vs[..nv]);
        qs.copy_from_slice(q);
        vs.copy_from_slice(v);
        for _ in 0..n {
            match settings.scheme {
                TreeScheme::SemiImplicitEuler => {
                    self.euler_substep(data, model, qs, vs, tau, hs)?
                }
                TreeScheme::RungeKutta4 => self.rk4_substep(data, model, qs, vs, tau, hs)?,
            }
            model.after_step(self, data, qs, vs)?;
        }
        if !crate::finite::all_finite_slice(qs) || !crate::finite::all_finite_slice(vs) {
            return Err(Error::NonFiniteState);
        }
        q.copy_from_slice(qs);
        v.copy_from_slice(vs);
        Ok(TreeStepReport { substeps: n })
    }

    /// The rotation guard: `ceil(max |w_joint| h / theta)` sub-steps, at least 1.
    fn substeps(&self, v: &[T], h: T, theta: T, max: u32) -> Result<u32> {
        let mut rate = T::zero();
        for l in self.links.iter() {
            if let Some(r) = l.joint.rotation_rate(&v[l.v_index..]) {
                rate = rate.max(r);
            }
        }
        let ratio = rate * h / theta;
        if ratio <= T::one() {
            return Ok(1);
        }
        if !(ratio <= T::of_u32(max)) {
            return Err(Error::OutOfRange(Param::AngularVelocity));
        }
        let n = ratio.to_u32_sat();
        Ok(if T::of_u32(n) < ratio { n + 1 } else { n })
    }

    /// One semi-implicit Euler step, the damping linearly implicit.
    fn euler_substep<M: StepModel<T, L, D>>(
        &self,
        data: &mut TreeData<T, L, D>,
        model: &mut M,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
    ) -> Result<()> {
        let mut acc = [T::zero(); D];
        let acc = &mut acc[..self.nv];
        model.accelerations(self, data, q, v, tau, h, acc)?;
        for (vk, ak) in v.iter_mut().zip(acc.iter()) {
            *vk += h * *ak;
        }
        for l in self.links.iter() {
            l.joint.integrate(&mut q[l.q_index..], &v[l.v_index..], h);
        }
        Ok(())
    }

    /// One classical Runge-Kutta step: stages `k_i = (G(q_i) v_i, q_tt(q_i, v_i))`,
    /// `y+ = y + h/6 (k1 + 2 k2 + 2 k3 + k4)`, quaternions renormalized at the end.
    fn rk4_substep<M: StepModel<T, L, D>>(
        &self,
        data: &mut TreeData<T, L, D>,
        model: &mut M,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
    ) -> Result<()> {
        let (nq, nv) = (self.nq, self.nv);
        let z = [T::zero(); D];
        // Stage state, its rates, and the sums of the weighted rates.
        let (mut qi, mut vi, mut dq, mut dv, mut sq, mut sv) = (z, z, z, z, z, z);
        qi[..nq].copy_from_slice(q);
        vi[..nv].copy_from_slice(v);
        let weights = [T::one(), T::c(2.0), T::c(2.0), T::one()];
        let offsets = [T::c(0.5), T::c(0.5), T::one()];
        for stage in 0..4 {
            for l in self.links.iter() {
                l.joint
                    .position_rate(&qi[l.q_index..], &vi[l.v_index..], &mut dq[l.q_index..]);
            }
            model.accelerations(
                self,
                data,
                &qi[..nq],
                &vi[..nv],
                tau,
                T::zero(),
                &mut dv[..nv],
            )?;
            for k in 0..nq {
                sq[k] += weights[stage] * dq[k];
            }
            for k in 0..nv {
                sv[k] += weights[stage] * dv[k];
            }
            if stage < 3 {
                let c = offsets[stage] * h;
                for k in 0..nq {
                    qi[k] = q[k] + c * dq[k];
                }
                for k in 0..nv {
                    vi[k] = v[k] + c * dv[k];
                }
            }
        }
        let c = h / T::c(6.0);
        for k in 0..nq {
            q[k] += c * sq[k];
        }
        for k in 0..nv {
            v[k] += c * sv[k];
        }
        for l in self.links.iter() {
            l.joint.normalize(&mut q[l.q_index..]);
        }
        Ok(())
    }
}
