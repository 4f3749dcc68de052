//! Forward dynamics of a [`KinematicTree`] in `O(links)`: the articulated-body algorithm
//! (Featherstone, *Rigid Body Dynamics Algorithms*, Table 7.1).

// Index loops over matrix rows and columns read as the equations.
#![allow(clippy::needless_range_loop)]

use super::data::{TreeData, Workspace};
use super::model::KinematicTree;
use super::spatial::{ArticulatedInertia, Force, Motion};
use crate::{Param, Real, Result};

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// Forward dynamics: the accelerations `q_tt = M(q)^-1 (tau - b(q, v))` (length `nv`) of
    /// the joint forces `tau` at the state `q`, `v`, with gravity, the joint spring-dampers and
    /// the links' applied wrenches.
    ///
    /// Errors (`q_tt` and `data` unchanged): those of a state check, `OutOfRange(Coordinate)`
    /// or `NotFinite(Torque)` for `tau`, `OutOfRange(Coordinate)` for `q_tt`'s length.
    pub fn aba(
        &self,
        data: &mut TreeData<T, L, D>,
        q: &[T],
        v: &[T],
        tau: &[T],
        q_tt: &mut [T],
    ) -> Result<()> {
        self.check_state(q, Some(v))?;
        self.check_forces(tau, Param::Torque)?;
        self.check_output(q_tt)?;
        self.aba_core(&mut data.work, q, v, tau, T::zero(), q_tt);
        Ok(())
    }

    /// ABA on checked inputs. `h_damping` adds `h_damping * D` to each joint's `S^T I^A S`
    /// (`D` its damping): the accelerations of `(M + h D) q_tt = tau - b(q, v)`, the
    /// linearly implicit damping of a step of size `h` (zero: plain forward dynamics).
    pub(crate) fn aba_core(
        &self,
        w: &mut Workspace<T, L, D>,
        q: &[T],
        v: &[T],
        tau: &[T],
        h_damping: T,
        q_tt: &mut [T],
    ) {
        // Pass 1: velocities, velocity-product accelerations, rigid inertias and bias forces.
        for (i, l) in self.links.iter().enumerate() {
            let x = self.joint_placement(i, q);
            w.x_up[i] = x;
            let vp = match l.parent {
                Some(p) => w.v[p],
                None => Motion::zero(),
            };
            let vj = l.joint.motion(&v[l.v_index..]);
            let vi = x.motion_to_child(&vp) + vj;
            w.v[i] = vi;
            w.c[i] = vi.cross(&vj);
            w.ia[i] = ArticulatedInertia::from_rigid(&l.inertia);
            w.f[i] = vi.cross_force(&l.inertia.apply(&vi)) - w.external[i];
        }
        // Pass 2: articulated inertias and bias forces from the leaves.
        for (i, l) in self.links.iter().enumerate().rev() {
            let n = l.joint.nv();
            let base = l.v_index;
            let mut u = [Force::zero(); 6];
            let mut dm = [[T::zero(); 6]; 6];
            let mut rhs = [T::zero(); 6];
            let scalar_q = if l.joint.nq() == 1 {
                q[l.q_index]
            } else {
                T::zero()
            };
            for k in 0..n {
                u[k] = w.ia[i].apply(&l.joint.column(k));
                for kk in 0..n {
                    dm[kk][k] = l.joint.project(&u[k], kk);
                }
                dm[k][k] += h_damping * l.spring.damping;
                rhs[k] = tau[base + k] + l.spring.force(scalar_q, v[base + k])
                    - l.joint.project(&w.f[i], k);
            }
            // D^-1 u and W = U D^-1 (D symmetric positive definite, n <= 6).
            if n == 1 {
                rhs[0] /= dm[0][0];
                w.w[base] = u[0] * (T::one() / dm[0][0]);
            } else if n > 1 {
                let fac = cholesky(&mut dm, n);
                solve_cholesky(&fac, n, &mut rhs);
                for r in 0..6 {
                    let mut row = [T::zero(); 6];
                    for k in 0..n {
                        row[k] = u[k].get(r);
                    }
                    solve_cholesky(&fac, n, &mut row);
                    for k in 0..n {
                        set(&mut w.w[base + k], r, row[k]);
                    }
                }
            }
            w.u_tilde[base..base + n].copy_from_slice(&rhs[..n]);
            if let Some(p) = l.parent {
                let mut ia = w.ia[i];
                let mut pa = w.f[i];
                for k in 0..n {
                    ia.sub_outer(&w.w[base + k], &u[k]);
                    pa += u[k] * rhs[k];
                }
                pa += ia.apply(&w.c[i]);
                let x = w.x_up[i];
                let up = ia.to_parent(&x);
                w.ia[p].add_assign(&up);
                let fp = x.force_to_parent(&pa);
                w.f[p] += fp;
            }
        }
        // Pass 3: accelerations from the base.
        let a_base = Motion::new(nalgebra::Vector3::zeros(), -self.gravity);
        for (i, l) in self.links.iter().enumerate() {
            let ap = match l.parent {
                Some(p) => w.a[p],
                None => a_base,
            };
            let mut ai = w.x_up[i].motion_to_child(&ap) + w.c[i];
            let base = l.v_index;
            for k in 0..l.joint.nv() {
                let acc = w.u_tilde[base + k] - ai.dot(&w.w[base + k]);
                q_tt[base + k] = acc;
            }
            ai += l.joint.motion(&q_tt[base..]);
            w.a[i] = ai;
        }
    }
}

/// Sets component `r` of `[angular; linear]`.
#[inline]
fn set<T: Real>(f: &mut Force<T>, r: usize, x: T) {
    if r < 3 {
        f.angular[r] = x;
    } else {
        f.linear[r - 3] = x;
    }
}

/// The Cholesky factor (lower, in place) of the leading `n x n` block of a symmetric positive
/// definite `a`; returns it.
#[inline]
fn cholesky<T: Real>(a: &mut [[T; 6]; 6], n: usize) -> [[T; 6]; 6] {
    for j in 0..n {
        let mut d = a[j][j];
        for k in 0..j {
            d -= a[j][k] * a[j][k];
        }
        let d = d.sqrt_l();
        a[j][j] = d;
        for i in (j + 1)..n {
            let mut s = a[i][j];
            for k in 0..j {
                s -= a[i][k] * a[j][k];
            }
            a[i][j] = s / d;
        }
    }
    *a
}

/// Solves `G G^T x = b` in place for the leading `n` entries, `G` from [`cholesky`].
#[inline]
fn solve_cholesky<T: Real>(g: &[[T; 6]; 6], n: usize, b: &mut [T; 6]) {
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= g[i][k] * b[k];
        }
        b[i] = s / g[i][i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in (i + 1)..n {
            s -= g[k][i] * b[k];
        }
        b[i] = s / g[i][i];
    }
}
