//! Advancing a system in time: [`System::step`], every step's one dispatcher (the checks
//! once, then one `match` over the scheme), and the schemes' shared parts (the working copy,
//! the commit, the sensors). One scheme a file: `kick_drift_kick.rs` and `held_loads.rs`
//! (on a working copy of the node states that replaces them only when everything succeeded;
//! each rigid body's part by the rigid scheme table,
//! [`with_rigid_scheme!`](crate::with_rigid_scheme)), generalized-alpha in `system/alpha/`;
//! `solve_dynamic`, the run of many steps, in [`solve`].

mod held_loads;
mod kick_drift_kick;
mod rigid2d;
pub mod solve;

use crate::bodies::rigid_body::RigidBody;
use crate::body::Generalized;
use crate::integrators::{StepInfo, StepStatus};
use crate::nodes::rigid2d::NodeRigidBody2D;
use crate::state::RigidState;
use crate::system::body_states::BodyStates;
use crate::system::constraint::Multipliers;
use crate::system::error::{At, SystemError, SystemResult};
use crate::system::index::ItemRef;
use crate::system::node::{Node, NodeState};
use crate::system::output::record_sensors;
use crate::system::sensor::SensorSink;
use crate::system::settings::SystemScheme;
use crate::system::system::System;
use crate::with_rigid_scheme;
use crate::{Error, Param, Real};
use heapless::Vec;
use nalgebra::Vector3;

/// What a step did. The state was advanced; `status` may carry a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepReport {
    /// [`StepStatus::Ok`], or [`StepStatus::StepTooLarge`] if some rigid body turned by more
    /// than [`StepSettings::max_rotation_per_step`](crate::integrators::StepSettings) in a
    /// (sub-)step: a warning, the step was taken.
    pub status: StepStatus,
    /// The sub-steps taken: with kick-drift-kick or held loads the largest number of a rigid body (1
    /// without sub-stepping, 0 without rigid bodies); with generalized-alpha the parts of a
    /// halved step (`halvings + 1`: each halving splits one part in two).
    pub substeps: u32,
    /// Evaluations of all loads and connector forces in this step (generalized-alpha: one per
    /// Newton iteration and one at the start, besides those of the Jacobians).
    pub force_evaluations: u32,
    /// Generalized-alpha: Newton updates of the (last sub-)step; 0 otherwise.
    pub newton_iterations: u32,
    /// Generalized-alpha: how often a (part of the) step was halved.
    pub halvings: u32,
}

impl StepReport {
    fn merge(&mut self, info: &StepInfo) {
        if info.status != StepStatus::Ok {
            self.status = info.status;
        }
        self.substeps = self.substeps.max(info.substeps);
    }
}

/// `(f (N, world), tau (N m, body frame, about the COM))` of a rigid body's generalized force
/// `Q = [f; tau_ref]` (`tau_ref` about the reference point, body frame):
/// `tau = tau_ref - c x (R_0b^T f)`.
#[inline]
pub(super) fn com_wrench<T: Real>(
    body: &RigidBody<T>,
    s: &RigidState<T>,
    q: &Generalized<T>,
) -> (Vector3<T>, Vector3<T>) {
    let f = Vector3::new(q[0], q[1], q[2]);
    let tau = Vector3::new(q[3], q[4], q[5]);
    if body.com_at_reference() {
        (f, tau)
    } else {
        let f_b = s.orientation.conjugate().rotate(&f);
        (f, tau - body.center_of_mass().cross(&f_b))
    }
}

/// Node `i` if it is a 2D rigid-body node; `WrongNodeKind` otherwise.
pub(super) fn planar_node<T: Real>(
    nodes: &[Node<T>],
    i: usize,
) -> crate::Result<&NodeRigidBody2D<T>> {
    match nodes.get(i) {
        Some(Node::RigidBody2D(n)) => Ok(n),
        _ => Err(Error::WrongNodeKind),
    }
}

impl<
        T: Real,
        const N: usize,
        const O: usize,
        const M: usize,
        const L: usize,
        const C: usize,
        const S: usize,
        const G: usize,
        const K: usize,
        const W: usize,
        const J: usize,
    > System<T, N, O, M, L, C, S, G, K, W, J>
{
    /// Advances the system by `dt` (s) from the current time (Kahan's compensated sum of the
    /// steps: `n` steps of `h` end at `n h` to a rounding) with its [`SystemSettings`]
    /// (the coupled scheme of the [module docs](super)), then records every sensor at the new
    /// time into `sink` (one row). During a solve ([`System::solve_begin`]) the step ends at
    /// the solve's next time `t_0 + i h` instead, and `dt` must be its `h`. For a real-time
    /// loop: allocation-free, O(bodies + loads + connectors + sensors) work, a few force
    /// evaluations per step.
    ///
    /// Every step's one path (as MuJoCo's `mj_step`): the checks, once; then the scheme's
    /// step, chosen by one `match` over [`SystemSettings::scheme`]: kick-drift-kick, held
    /// loads or generalized-alpha (during a solve, the solve's scheme). Each scheme's step
    /// checks and commits its result.
    ///
    /// Errors (the state and time are then unchanged; a sensor row begun in `sink` is left
    /// without `end_row`): `NotFinite | OutOfRange(TimeStep)` at [`ItemRef::System`] for a
    /// bad `dt` (during a solve: not its `h`, or its steps all taken); `NotAssembled` at the
    /// system if it was never assembled or changed since; a failing load (a callback writing
    /// NaN), connector (`ZeroLength(Length)`) or body step, naming the item; `NonFiniteState`
    /// if the result overflowed.
    ///
    /// [`SystemSettings`]: crate::system::SystemSettings
    /// [`SystemSettings::scheme`]: crate::system::SystemSettings::scheme
    pub fn step<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        dt: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        // The end time: during a solve its grid's next point, else Kahan's compensated sum
        // t1 = t + dt with the rounding of the earlier sums carried (a plain running sum
        // drifts by a rounding per step).
        let at_system = |e| SystemError::new(e, ItemRef::System);
        let (t1, carry) = if self.grid.is_on() {
            match self.grid.next_end() {
                Some(t1) if dt == self.grid.h => (t1, T::zero()),
                _ => return Err(at_system(Error::OutOfRange(Param::TimeStep))),
            }
        } else {
            let y = dt - self.time_carry;
            let t1 = self.time + y;
            (t1, (t1 - self.time) - y)
        };
        if !dt.finite() || !t1.finite() {
            return Err(at_system(Error::NotFinite(Param::TimeStep)));
        }
        if dt <= T::zero() {
            return Err(at_system(Error::OutOfRange(Param::TimeStep)));
        }
        if !self.assembled {
            return Err(at_system(Error::NotAssembled));
        }
        let (rigid, st) = (self.settings.rigid, self.settings.step);
        let report = match self.settings.scheme {
            SystemScheme::KickDriftKick => {
                with_rigid_scheme!(rigid, st, |r| self.kick_drift_kick(r, dt, t1, sink))
            }
            SystemScheme::HeldLoads => {
                with_rigid_scheme!(rigid, st, |r| self.held_loads(r, dt, t1, sink))
            }
            SystemScheme::GeneralizedAlpha => {
                let scheme = match self.alpha_scheme {
                    Some(s) => s,
                    None => self.settings.alpha.scheme().at(ItemRef::System)?,
                };
                let result = self.alpha_step(&scheme, dt, t1, sink);
                self.clear_solver_scratch();
                result
            }
        }?;
        self.time_carry = carry;
        if self.grid.is_on() {
            self.grid.taken += 1;
        }
        Ok(report)
    }

    /// The node states into `work` (empty), in place: O(number of nodes), not O(capacity)
    /// (a returned buffer would be moved whole).
    fn working_copy(&self, work: &mut Vec<NodeState<T>, N, u16>) -> SystemResult<()> {
        for s in self.states.iter() {
            work.push(*s)
                .map_err(|_| SystemError::new(Error::CapacityFull, ItemRef::System))?;
        }
        Ok(())
    }

    /// Checks the stepped node states `work`, records the sensors at `t1` and makes them the
    /// system's.
    fn commit<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        work: &[NodeState<T>],
        report: StepReport,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        self.check_and_record(work, false, &self.alpha.state().lambda, t1, sink)?;
        for (s, w) in self.states.iter_mut().zip(work.iter()) {
            *s = *w;
        }
        self.time = t1;
        Ok(report)
    }

    /// Checks the node states `states` of a step to `t1` (`NonFiniteState` at the first node
    /// that is not finite; with `planar_checked` the mass points' and 2D rigid bodies' are
    /// taken as checked) and records the sensors at them, with the multipliers `lambda`.
    pub(crate) fn check_and_record<Sink: SensorSink<T> + ?Sized>(
        &self,
        states: &[NodeState<T>],
        planar_checked: bool,
        lambda: &[T],
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<()> {
        for (i, s) in states.iter().enumerate() {
            let planar = matches!(s, NodeState::Point2D(_) | NodeState::RigidBody2D(_));
            if planar && planar_checked {
                continue;
            }
            if let Some(node) = self.nodes.get(i) {
                s.check_for(node).map_err(|_| {
                    SystemError::new(
                        Error::NonFiniteState,
                        ItemRef::Node(crate::system::NodeIndex(i as u16)),
                    )
                })?;
            }
        }
        let view = BodyStates::new(&self.nodes, states, &self.objects);
        let multipliers = Multipliers {
            constraints: &self.constraints,
            rows: &self.layout.rows,
            lambda,
        };
        record_sensors(
            &self.sensors,
            &view,
            &self.markers,
            &self.loads,
            &multipliers,
            t1,
            sink,
        )
    }
}
