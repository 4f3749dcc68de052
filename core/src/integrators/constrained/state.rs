//! [`ConstrainedState`] (a constrained system at one instant) and [`Workspace`] (the working
//! memory of a step).

use super::block::{zero_block, zero_leading};
use crate::target::IN_ORDER;
use crate::Real;

/// The state of a constrained system at one instant: coordinates, velocities, accelerations,
/// the scheme's algorithmic accelerations and the multipliers. The first `n` (or `m`) entries
/// of each array are used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedState<T, const S: usize> {
    /// Time (s).
    pub t: T,
    /// Coordinates `q`.
    pub q: [T; S],
    /// Velocities `q_t`.
    pub v: [T; S],
    /// Accelerations `q_tt`.
    pub acc: [T; S],
    /// Algorithmic accelerations `a` of the generalized-alpha scheme.
    pub alg: [T; S],
    /// Lagrange multipliers `lambda` (`m`).
    pub lambda: [T; S],
}

impl<T: Real, const S: usize> Default for ConstrainedState<T, S> {
    /// Time 0, every entry zero.
    fn default() -> Self {
        let z = [T::zero(); S];
        Self {
            t: T::zero(),
            q: z,
            v: z,
            acc: z,
            alg: z,
            lambda: z,
        }
    }
}

/// The working memory of a constrained step: the Newton matrix, its right-hand side and
/// scratch space, all of capacity `S` (owned by the caller: a system keeps it in its storage,
/// not on the stack).
#[derive(Clone, Copy, Debug)]
pub struct Workspace<T, const S: usize> {
    pub(crate) jac: [[T; S]; S],
    pub(crate) scratch: [[T; S]; S],
    pub(crate) rhs: [T; S],
    pub(crate) f: [T; S],
    pub(crate) f2: [T; S],
    pub(crate) c: [T; S],
    pub(crate) q: [T; S],
    pub(crate) v: [T; S],
    pub(crate) a_base: [T; S],
    pub(crate) q_base: [T; S],
    pub(crate) v_base: [T; S],
    pub(crate) x: [T; S],
    pub(crate) alg: [T; S],
    pub(crate) lambda: [T; S],
    pub(crate) mu: [T; S],
    /// The size of the leading block of `scratch` written since the last [`Self::clear`]
    /// (most steps use none of it).
    pub(crate) scratch_used: usize,
    /// The number of leading unknowns (of `jac`'s rows and columns and of each vector)
    /// written since the last [`Self::clear`]: the most a step or a start solved for.
    pub(crate) used: usize,
    /// `jac`'s leading block is zero again: the last thing written to it was a solve that
    /// zeroes what it reads (set by a step that ends on such a solve, taken by [`Self::clear`]).
    pub(crate) jac_zero: bool,
}

impl<T: Real, const S: usize> Workspace<T, S> {
    /// `scratch`, for a use of its leading `k x k` block (recorded for [`Self::clear`]).
    pub(crate) fn scratch(&mut self, k: usize) -> &mut [[T; S]; S] {
        self.scratch_used = self.scratch_used.max(k);
        &mut self.scratch
    }

    /// Records that a step or start of `k` unknowns writes this workspace.
    pub(crate) fn uses(&mut self, k: usize) {
        self.used = self.used.max(k);
    }

    /// Zeroes what the steps and starts since the last clear wrote: the Newton matrix's
    /// leading block, the scratch matrix's block and the vectors' leading entries, of the
    /// sizes they recorded. Between steps the workspace then holds zeros, whatever the last
    /// step did, so that a refused step leaves its owner's memory byte for byte as it was.
    pub fn clear(&mut self) {
        let size = core::mem::take(&mut self.used).min(S);
        if !core::mem::take(&mut self.jac_zero) {
            zero_block(&mut self.jac, size);
        }
        zero_block(&mut self.scratch, core::mem::take(&mut self.scratch_used));
        let mut vectors = [
            &mut self.rhs,
            &mut self.f,
            &mut self.f2,
            &mut self.c,
            &mut self.q,
            &mut self.v,
            &mut self.a_base,
            &mut self.q_base,
            &mut self.v_base,
            &mut self.x,
            &mut self.alg,
            &mut self.lambda,
            &mut self.mu,
        ];
        if IN_ORDER {
            // One pass over the entries: a call of `memset` per vector costs more in order.
            for i in 0..size {
                for v in vectors.iter_mut() {
                    v[i] = T::zero();
                }
            }
        } else {
            for v in vectors {
                zero_leading(v, size);
            }
        }
    }
}

impl<T: Real, const S: usize> Default for Workspace<T, S> {
    fn default() -> Self {
        let z = [T::zero(); S];
        Self {
            jac: [z; S],
            scratch: [z; S],
            rhs: z,
            f: z,
            f2: z,
            c: z,
            q: z,
            v: z,
            a_base: z,
            q_base: z,
            v_base: z,
            x: z,
            alg: z,
            lambda: z,
            mu: z,
            scratch_used: 0,
            used: 0,
            jac_zero: false,
        }
    }
}
