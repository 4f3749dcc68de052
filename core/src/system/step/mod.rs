//! Advancing a system in time: [`System::step`], every step's one dispatcher (the checks once,
//! then one `match` over the scheme: the rigid schemes' kick-drift-kick and held loads
//! here, on a working copy of the node states that replaces them only when everything
//! succeeded; generalized-alpha in `system/alpha/`);
//! each rigid body's part of it by the rigid scheme table
//! ([`with_rigid_scheme!`](crate::with_rigid_scheme)); and `solve_dynamic`, the run of many
//! steps ([`solve`]).

mod rigid2d;
pub mod solve;

use crate::bodies::rigid_body::RigidBody;
use crate::body::Generalized;
use crate::integrators::rigid::driver;
use crate::integrators::{RigidIntegrator, RigidLoads, StepInfo, StepStatus};
use crate::nodes::rigid2d::NodeRigidBody2D;
use crate::state::RigidState;
use crate::system::body_states::BodyStates;
use crate::system::constraint::Multipliers;
use crate::system::error::{At, SystemError, SystemResult};
use crate::system::forces::generalized_forces;
use crate::system::index::{ItemRef, ObjectIndex};
use crate::system::node::{Node, NodeState};
use crate::system::node_force::zeros;
use crate::system::object::Object;
use crate::system::output::record_sensors;
use crate::system::sensor::SensorSink;
use crate::system::settings::SystemScheme;
use crate::system::system::System;
use crate::with_rigid_scheme;
use crate::{Error, Param, Real};
use heapless::Vec;
use nalgebra::{Vector2, Vector3};

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
fn com_wrench<T: Real>(
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
fn planar_node<T: Real>(nodes: &[Node<T>], i: usize) -> crate::Result<&NodeRigidBody2D<T>> {
    match nodes.get(i) {
        Some(Node::RigidBody2D(n)) => Ok(n),
        _ => Err(Error::WrongNodeKind),
    }
}

/// The half kick `V += hk M^-1 Q` of every body, in centre-of-mass coordinates for a rigid
/// body: `v_com += hk f / m`, `w_b += hk I^-1 tau` (the pose is not changed).
fn kick<T: Real>(
    nodes: &[Node<T>],
    objects: &[Object<T>],
    work: &mut [NodeState<T>],
    q: &[Generalized<T>],
    hk: T,
) -> SystemResult<()> {
    for (i, o) in objects.iter().enumerate() {
        let at = ItemRef::Object(ObjectIndex(i as u16));
        let Some(n) = o.node() else { continue };
        let qn = q
            .get(n.get())
            .ok_or(SystemError::new(Error::UnknownIndex, at))?;
        if qn.iter().all(|x| *x == T::zero()) {
            continue; // no force: the velocities stay exactly as they are
        }
        match (o, work.get_mut(n.get())) {
            (Object::MassPoint2D { body, .. }, Some(NodeState::Point2D(s))) => {
                let k = hk / body.mass();
                s.q_t += Vector2::new(qn[0], qn[1]) * k;
            }
            (
                Object::RigidBody { body, .. } | Object::BodyCylinder { body, .. },
                Some(NodeState::RigidBody(s)),
            ) => {
                let (f, tau) = com_wrench(body, s, qn);
                let dw = body.inertia_inverse() * tau * hk;
                if body.com_at_reference() {
                    s.velocity += f * (hk / body.mass());
                    s.angular_velocity += dw;
                } else {
                    let v_com = body.com_velocity(s) + f * (hk / body.mass());
                    s.angular_velocity += dw;
                    let c = body.center_of_mass();
                    s.velocity = v_com - s.orientation.rotate(&s.angular_velocity.cross(c));
                }
            }
            (Object::RigidBody2D { body, .. }, Some(NodeState::RigidBody2D(s))) => {
                let node = planar_node(nodes, n.get()).at(at)?;
                rigid2d::kick(node, body, s, qn, hk);
            }
            _ => return Err(SystemError::new(Error::WrongNodeKind, at)),
        }
    }
    Ok(())
}

/// Accelerations at the end of a kick-drift-kick step from the last force evaluation `q`:
/// mass points `q_tt = Q / m`; rigid bodies `a_com = f / m`, `alpha_b = I^-1 (tau - w x I w)`,
/// and at the reference point `a = a_com - R_0b (alpha_b x c + w x (w x c))`.
fn end_accelerations<T: Real>(
    nodes: &[Node<T>],
    objects: &[Object<T>],
    work: &mut [NodeState<T>],
    q: &[Generalized<T>],
) {
    for o in objects {
        let Some(n) = o.node() else { continue };
        let Some(qn) = q.get(n.get()) else { continue };
        match (o, work.get_mut(n.get())) {
            (Object::MassPoint2D { body, .. }, Some(NodeState::Point2D(s))) => {
                s.q_tt = Vector2::new(qn[0], qn[1]) / body.mass();
            }
            (
                Object::RigidBody { body, .. } | Object::BodyCylinder { body, .. },
                Some(NodeState::RigidBody(s)),
            ) => {
                let (f, tau) = com_wrench(body, s, qn);
                let w = s.angular_velocity;
                let alpha = body.inertia_inverse() * (tau - w.cross(&(body.inertia() * w)));
                let c = body.center_of_mass();
                s.acceleration = f / body.mass()
                    - s.orientation
                        .rotate(&(alpha.cross(c) + w.cross(&w.cross(c))));
                s.angular_acceleration = alpha;
            }
            (Object::RigidBody2D { body, .. }, Some(NodeState::RigidBody2D(s))) => {
                if let Ok(node) = planar_node(nodes, n.get()) {
                    rigid2d::accelerations(node, body, s, qn);
                }
            }
            _ => {}
        }
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
    /// the solve's next time `t_0 + i h` instead, and `dt` must be its `h`. For a real-time loop: allocation-free, O(bodies + loads +
    /// connectors + sensors) work, a few force evaluations per step.
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

    /// Kick-drift-kick (module docs) with the rigid scheme `scheme`, on a working copy of the
    /// node states, then [`Self::commit`].
    // Out of line: the working copy is on the stack only in this scheme's step.
    #[inline(never)]
    fn kick_drift_kick<R: RigidIntegrator<T>, Sink: SensorSink<T> + ?Sized>(
        &mut self,
        scheme: &R,
        h: T,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        let mut work = Vec::new();
        self.working_copy(&mut work)?;
        let work = &mut work;
        let n = self.nodes.len();
        let half = h * T::c(0.5);
        let mut report = StepReport {
            status: StepStatus::Ok,
            substeps: 0,
            force_evaluations: 0,
            newton_iterations: 0,
            halvings: 0,
        };
        let mut q = Vec::new();
        zeros::<T, N>(&mut q, n);
        let q = &mut q[..];
        let eval = |work: &[NodeState<T>], t: T, q: &mut [Generalized<T>]| {
            let view = BodyStates::new(&self.nodes, work, &self.objects);
            generalized_forces(&view, &self.markers, &self.loads, &self.connectors, t, q)
        };
        // (1) forces at (t, q, v), first half kick
        eval(work, self.time, q)?;
        report.force_evaluations += 1;
        kick(&self.nodes, &self.objects, work, q, half)?;
        // (2) drift over h: mass points q += h q_t; rigid bodies the torque-free step of the
        // scheme (it moves the COM by h v_com and turns the body).
        let none = RigidLoads::none();
        for (i, o) in self.objects.iter().enumerate() {
            let at = ItemRef::Object(ObjectIndex(i as u16));
            let Some(nd) = o.node() else { continue };
            match (o, work.get_mut(nd.get())) {
                (Object::MassPoint2D { .. }, Some(NodeState::Point2D(s))) => {
                    s.q += s.q_t * h;
                }
                (
                    Object::RigidBody { body, .. } | Object::BodyCylinder { body, .. },
                    Some(NodeState::RigidBody(s)),
                ) => {
                    let info = driver::step(scheme, body, &none, s, h).at(at)?;
                    report.merge(&info);
                }
                (Object::RigidBody2D { body, .. }, Some(NodeState::RigidBody2D(s))) => {
                    let node = planar_node(&self.nodes, nd.get()).at(at)?;
                    rigid2d::advance(node, body, s, &Generalized::zeros(), h);
                }
                _ => return Err(SystemError::new(Error::WrongNodeKind, at)),
            }
        }
        // (3) forces at (t + h, q', v*), second half kick
        eval(work, t1, q)?;
        report.force_evaluations += 1;
        kick(&self.nodes, &self.objects, work, q, half)?;
        if self.velocity_dependent {
            let mut applied = Vec::new();
            zeros::<T, N>(&mut applied, n);
            let applied = &mut applied[..];
            for _ in 0..self.settings.damping_corrections {
                applied.copy_from_slice(q);
                eval(work, t1, q)?;
                report.force_evaluations += 1;
                // replace the kick of the previous forces by that of the new ones
                for (a, b) in applied.iter_mut().zip(q.iter()) {
                    *a = b - *a;
                }
                kick(&self.nodes, &self.objects, work, applied, half)?;
            }
        }
        end_accelerations(&self.nodes, &self.objects, work, q);
        self.commit(work, report, t1, sink)
    }

    /// Held loads: forces at the start, each body by its own integrator (module docs), the
    /// rigid bodies by `scheme`, on a working copy of the node states, then [`Self::commit`].
    // Out of line: the working copy is on the stack only in this scheme's step.
    #[inline(never)]
    fn held_loads<R: RigidIntegrator<T>, Sink: SensorSink<T> + ?Sized>(
        &mut self,
        scheme: &R,
        h: T,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        let mut work = Vec::new();
        self.working_copy(&mut work)?;
        let work = &mut work;
        let n = self.nodes.len();
        let mut report = StepReport {
            status: StepStatus::Ok,
            substeps: 0,
            force_evaluations: 1,
            newton_iterations: 0,
            halvings: 0,
        };
        let mut q = Vec::new();
        zeros::<T, N>(&mut q, n);
        let q = &mut q[..];
        {
            let view = BodyStates::new(&self.nodes, work, &self.objects);
            generalized_forces(
                &view,
                &self.markers,
                &self.loads,
                &self.connectors,
                self.time,
                q,
            )?;
        }
        let half_h2 = h * h * T::c(0.5);
        for (i, o) in self.objects.iter().enumerate() {
            let at = ItemRef::Object(ObjectIndex(i as u16));
            let Some(nd) = o.node() else { continue };
            let qn = q.get(nd.get()).copied().unwrap_or_else(Generalized::zeros);
            match (o, work.get_mut(nd.get())) {
                (Object::MassPoint2D { body, .. }, Some(NodeState::Point2D(s))) => {
                    let a = Vector2::new(qn[0], qn[1]) / body.mass();
                    s.q += s.q_t * h + a * half_h2;
                    s.q_t += a * h;
                    s.q_tt = a;
                }
                (
                    Object::RigidBody { body, .. } | Object::BodyCylinder { body, .. },
                    Some(NodeState::RigidBody(s)),
                ) => {
                    let mut loads = RigidLoads::none();
                    if qn.iter().any(|x| *x != T::zero()) {
                        loads.add_generalized(body, s, &qn);
                    }
                    let info = driver::step(scheme, body, &loads, s, h).at(at)?;
                    report.merge(&info);
                }
                (Object::RigidBody2D { body, .. }, Some(NodeState::RigidBody2D(s))) => {
                    let node = planar_node(&self.nodes, nd.get()).at(at)?;
                    rigid2d::advance(node, body, s, &qn, h);
                }
                _ => return Err(SystemError::new(Error::WrongNodeKind, at)),
            }
        }
        self.commit(work, report, t1, sink)
    }
}
