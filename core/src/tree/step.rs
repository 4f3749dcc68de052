//! Time steps of a [`KinematicTree`] in joint coordinates: semi-implicit Euler with the joint
//! damping linearly implicit, and the classical Runge-Kutta method of order 4, each on ABA's
//! accelerations, with the joint forces held over the step (a controller's zero-order hold).

// `!(x > 0)` is meant: NaN must fail these checks.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::data::{TreeData, Workspace};
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
        // Work on copies; write back only a finite result.
        let TreeData { work, scratch, .. } = data;
        let [qs, vs, rest @ ..] = scratch;
        let (qs, vs) = (&mut qs[..nq], &mut vs[..nv]);
        qs.copy_from_slice(q);
        vs.copy_from_slice(v);
        for _ in 0..n {
            match settings.scheme {
                TreeScheme::SemiImplicitEuler => self.euler_substep(work, qs, vs, tau, hs, rest),
                TreeScheme::RungeKutta4 => self.rk4_substep(work, qs, vs, tau, hs, rest),
            }
        }
        if !crate::finite::all_finite_slice(qs) || !crate::finite::all_finite_slice(vs) {
            return Err(Error::NonFiniteState);
        }
        q.copy_from_slice(qs);
        v.copy_from_slice(vs);
        Ok(TreeStepReport { substeps: n })
    }

    /// The rotation guard: `ceil(max |w_joint| h / theta)` sub-steps, at least 1.
    pub(crate) fn substeps(&self, v: &[T], h: T, theta: T, max: u32) -> Result<u32> {
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

    /// One semi-implicit Euler step with the damping implicit (`rest[0]` holds `q_tt`).
    fn euler_substep(
        &self,
        work: &mut Workspace<T, L, D>,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
        rest: &mut [[T; D]],
    ) {
        let acc = &mut rest[0][..self.nv];
        self.aba_core(work, q, v, tau, h, acc);
        for (vk, ak) in v.iter_mut().zip(acc.iter()) {
            *vk += h * *ak;
        }
        for l in self.links.iter() {
            l.joint.integrate(&mut q[l.q_index..], &v[l.v_index..], h);
        }
    }

    /// One classical Runge-Kutta step: stages `k_i = (G(q_i) v_i, q_tt(q_i, v_i))`,
    /// `y+ = y + h/6 (k1 + 2 k2 + 2 k3 + k4)`. `rest`: stage `q`, stage `v`, rate of `q`, rate of
    /// `v` (the accelerations), and the sums of the weighted rates.
    fn rk4_substep(
        &self,
        work: &mut Workspace<T, L, D>,
        q: &mut [T],
        v: &mut [T],
        tau: &[T],
        h: T,
        rest: &mut [[T; D]],
    ) {
        let (nq, nv) = (self.nq, self.nv);
        let [qi, vi, dq, dv, sq, sv] = rest else {
            return;
        };
        let (qi, vi) = (&mut qi[..nq], &mut vi[..nv]);
        let (dq, dv) = (&mut dq[..nq], &mut dv[..nv]);
        let (sq, sv) = (&mut sq[..nq], &mut sv[..nv]);
        sq.iter_mut()
            .chain(sv.iter_mut())
            .for_each(|x| *x = T::zero());
        qi.copy_from_slice(q);
        vi.copy_from_slice(v);
        let half = T::c(0.5);
        let weights = [T::one(), T::c(2.0), T::c(2.0), T::one()];
        let offsets = [half, half, T::one()];
        for stage in 0..4 {
            // Rates at (qi, vi).
            for l in self.links.iter() {
                l.joint
                    .position_rate(&qi[l.q_index..], &vi[l.v_index..], &mut dq[l.q_index..]);
            }
            self.aba_core(work, qi, vi, tau, T::zero(), dv);
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
    }
}
