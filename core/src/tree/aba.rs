//! Forward dynamics of a [`KinematicTree`] in `O(links)`: the articulated-body algorithm
//! (Featherstone, *Rigid Body Dynamics Algorithms*, Table 7.1), with every spatial quantity in
//! world coordinates at the world origin (Featherstone, section 7.3): each link's inertia and
//! motion subspace are turned into the world once, and the articulated inertias add up the tree
//! without the 6x6 congruence `X^T I^A X` per joint that link coordinates need.

// Index loops over matrix rows and columns read as the equations.
#![allow(clippy::needless_range_loop)]

use super::data::{TreeData, Workspace};
use super::model::KinematicTree;
use super::spatial::{ArticulatedInertia, Force, Motion, RigidInertia};
use crate::{Real, Result};

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
        self.check_forward(q, v, tau, q_tt)?;
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
        // Pass 1: poses, world motion subspaces, velocities, velocity-product accelerations
        // `c = v x (S q_t)` (S turns with the link), rigid inertias and bias forces.
        for (i, l) in self.links.iter().enumerate() {
            let xw = self.link_world_pose(i, q, self.sin_cos(i, q), &w.x_world);
            let vp = l.parent.map_or(Motion::zero(), |p| w.vw[p]);
            w.x_world[i] = xw;
            let mut vj = Motion::zero();
            for k in 0..l.joint.nv() {
                let s = l.world_column(&xw, k);
                w.s[l.v_index + k] = s;
                vj += s * v[l.v_index + k];
            }
            let vi = vp + vj;
            w.vw[i] = vi;
            w.c[i] = vi.cross(&vj);
            let inertia = RigidInertia::from_placed_mass_properties(&l.mass_properties, &xw);
            w.ia[i] = ArticulatedInertia::from_rigid(&inertia);
            w.f[i] = vi.cross_force(&inertia.apply(&vi));
            if w.has_external {
                w.f[i] -= xw.force_to_parent(&w.external[i]);
            }
        }
        // Pass 2: articulated inertias and bias forces from the leaves.
        for (i, l) in self.links.iter().enumerate().rev() {
            let n = l.joint.nv();
            let base = l.v_index;
            // The joint's U = I^A S, D = S^T U (+ h D_damping), u = tau - S^T p^A, stored as
            // W = U D^-1 and D^-1 u; then, for the parent, I^a = I^A - W U^T and
            // p^a = p^A + I^a c + U D^-1 u.
            let mut pa = w.f[i];
            if n == 1 {
                // One coordinate (revolute, prismatic): scalars.
                let s = w.s[base];
                let u = w.ia[i].apply(&s);
                let d = s.dot(&u) + h_damping * l.spring.damping;
                let r = (tau[base] + l.spring_force(q, v, 0) - s.dot(&pa)) / d;
                let inv_d = T::one() / d;
                w.w[base] = u * inv_d;
                w.u_tilde[base] = r;
                if l.parent.is_some() {
                    w.ia[i].sub_symmetric_outer(&u, inv_d);
                    pa += u * r;
                }
            } else if n > 1 {
                let mut u = [Force::zero(); 6];
                let mut dm = [[T::zero(); 6]; 6];
                let mut rhs = [T::zero(); 6];
                for k in 0..n {
                    let s = &w.s[base + k];
                    u[k] = w.ia[i].apply(s);
                    for kk in 0..n {
                        dm[kk][k] = w.s[base + kk].dot(&u[k]);
                    }
                    dm[k][k] += h_damping * l.spring.damping;
                    rhs[k] = tau[base + k] + l.spring_force(q, v, k) - s.dot(&pa);
                }
                // D is symmetric positive definite (n <= 6): Cholesky.
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
                w.u_tilde[base..base + n].copy_from_slice(&rhs[..n]);
                if l.parent.is_some() {
                    for k in 0..n {
                        let wk = w.w[base + k];
                        w.ia[i].sub_outer(&wk, &u[k]);
                        pa += u[k] * rhs[k];
                    }
                }
            }
            if let Some(p) = l.parent {
                // The parent is an earlier link: split the array there (no copy of I^a).
                let (head, tail) = w.ia.split_at_mut(i);
                pa += tail[0].apply(&w.c[i]);
                head[p].add_assign(&tail[0]);
                w.f[p] += pa;
            }
        }
        // Pass 3: accelerations from the base, gravity as the base's acceleration `-g`.
        let a_base = Motion::new(nalgebra::Vector3::zeros(), -self.gravity);
        for (i, l) in self.links.iter().enumerate() {
            let ap = match l.parent {
                Some(p) => w.a[p],
                None => a_base,
            };
            let a_prime = ap + w.c[i];
            let mut ai = a_prime;
            let base = l.v_index;
            for k in 0..l.joint.nv() {
                let acc = w.u_tilde[base + k] - a_prime.dot(&w.w[base + k]);
                q_tt[base + k] = acc;
                ai += w.s[base + k] * acc;
            }
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
