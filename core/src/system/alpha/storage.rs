//! [`AlphaStorage`]: the generalized-alpha state a system keeps between steps, and its Newton
//! workspace.

use super::layout::{Layout, NO_COORDINATES};
use crate::bodies::lie_group::{self as lg};
use crate::integrators::constrained::{
    generalized_alpha, ConstrainedReport, ConstrainedState, Workspace,
};
use crate::system::node::NodeState;
use crate::Real;

/// The generalized-alpha state kept between steps (accelerations, algorithmic accelerations,
/// multipliers; positions and velocities are the node states') and the Newton workspace, both
/// of capacity `W` (coordinates plus equations).
#[derive(Clone)]
pub struct AlphaStorage<T: Real, const W: usize> {
    /// The state. A step leaves its result in `work` and the system commits it here once
    /// the step is complete (checked, the sensors recorded), so a refused step leaves it as it
    /// was.
    pub(super) state: ConstrainedState<T, W>,
    pub(crate) work: Workspace<T, W>,
    /// `state` holds consistent accelerations and multipliers for the node states (set by the
    /// start computation; cleared by [`Self::invalidate`]).
    pub(super) started: bool,
    /// What the last step's Newton iteration did.
    pub(crate) report: Option<ConstrainedReport<T>>,
    /// On the Lie group: each 3D rigid node's orientation at the state, at its coordinates'
    /// offset ([`lg::start_at`]; the state's rotations `theta` are zero, each step starts from
    /// these).
    pub(crate) starts: [T; W],
}

/// [`AlphaStorage::saved`]: a solve's way back on error.
pub(crate) struct SavedAlpha<T: Real, const W: usize> {
    state: ConstrainedState<T, W>,
    started: bool,
    report: Option<ConstrainedReport<T>>,
    starts: [T; W],
}

impl<T: Real, const W: usize> Default for AlphaStorage<T, W> {
    fn default() -> Self {
        Self {
            state: ConstrainedState::default(),
            work: Workspace::default(),
            started: false,
            report: None,
            starts: [T::zero(); W],
        }
    }
}

/// The workspace is scratch memory, not part of the system's value: two systems with equal
/// items, states and multipliers are equal whatever their last Newton matrices were.
impl<T: Real, const W: usize> PartialEq for AlphaStorage<T, W> {
    fn eq(&self, other: &Self) -> bool {
        self.state() == other.state()
            && self.started == other.started
            && self.starts == other.starts
    }
}

impl<T: Real, const W: usize> core::fmt::Debug for AlphaStorage<T, W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AlphaStorage")
            .field("state", self.state())
            .finish_non_exhaustive()
    }
}

impl<T: Real, const W: usize> AlphaStorage<T, W> {
    /// Whether the state holds consistent start values for the node states.
    pub(crate) fn is_started(&self) -> bool {
        self.started
    }

    /// The node states were set from outside (or a run starts from them): the next step first
    /// computes consistent accelerations and multipliers again. An unstarted state is zero
    /// (so that undoing a start, [`Self::invalidate`] again, puts back every byte).
    pub(crate) fn invalidate(&mut self) {
        self.state = ConstrainedState::default();
        self.starts = [T::zero(); W];
        self.started = false;
    }

    /// The state.
    pub(crate) fn state(&self) -> &ConstrainedState<T, W> {
        &self.state
    }

    /// Sets the state (a start computed in place).
    pub(crate) fn set_state(&mut self, s: &ConstrainedState<T, W>) {
        self.state = *s;
    }

    /// The result of a complete step (in the workspace:
    /// [`ConstrainedAlpha::newton_step`](crate::integrators::constrained::ConstrainedAlpha::newton_step))
    /// made the state, at time `t1`, in `layout`, with `states` the node states of that result
    /// (on the Lie group each 3D rigid node then starts the next step from its orientation:
    /// [`Self::rebase`]).
    pub(crate) fn commit<const N: usize, const K: usize>(
        &mut self,
        t1: T,
        layout: &Layout<T, N, K>,
        states: &[NodeState<T>],
    ) {
        generalized_alpha::commit(&mut self.state, &self.work, t1, layout.sizes());
        if layout.lie_group {
            self.rebase(layout, states);
        }
    }

    /// On the Lie group: each 3D rigid node's orientation in `states` (the node states of the
    /// state, [`lg::step_orientation`] of its `theta`) made its start, and `theta` zero.
    // Out of line: not in the frame of a step in Euler parameters.
    #[inline(never)]
    pub(crate) fn rebase<const N: usize, const K: usize>(
        &mut self,
        layout: &Layout<T, N, K>,
        states: &[NodeState<T>],
    ) {
        for (s, o) in states.iter().zip(&layout.offsets) {
            // (A tree link's state is not at an offset.)
            if *o == NO_COORDINATES {
                continue;
            }
            let o = usize::from(*o);
            let (NodeState::RigidBody(r), Some(theta)) = (s, self.state.q.get_mut(o + 3..o + 6))
            else {
                continue;
            };
            lg::set_start(&mut self.starts, o, &r.orientation);
            theta.fill(T::zero());
        }
    }

    /// After a step or a start computation, complete or refused: the workspace zero
    /// ([`Workspace::clear`]). Between calls the storage then depends on the state alone, so a
    /// refused call changes no byte of it.
    pub(crate) fn clear_workspace(&mut self) {
        self.work.clear();
    }

    /// What [`Self::restore`] puts back: the current state and which buffer holds it, the
    /// started flag, the last report.
    pub(crate) fn saved(&self) -> SavedAlpha<T, W> {
        SavedAlpha {
            state: self.state,
            started: self.started,
            report: self.report,
            starts: self.starts,
        }
    }

    /// Puts back what [`Self::saved`] took.
    pub(crate) fn restore(&mut self, s: SavedAlpha<T, W>) {
        self.state = s.state;
        self.started = s.started;
        self.report = s.report;
        self.starts = s.starts;
    }
}
