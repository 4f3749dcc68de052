//! Kick-drift-kick, the default system scheme: Strang splitting (velocity Verlet generalized
//! to rigid bodies) on a working copy of the node states. (1) forces at the start, half kick
//! `V += h/2 M^-1 Q`; (2) drift over `h` (mass points `q += h q_t`, rigid bodies the
//! torque-free step of their rigid scheme); (3) forces at the end, half kick, with damping
//! corrections of that kick when a force depends on the velocities.

use super::{com_wrench, planar_node, rigid2d, StepReport};
use crate::body::Generalized;
use crate::integrators::rigid::driver;
use crate::integrators::{RigidIntegrator, RigidLoads, StepStatus};
use crate::system::body_states::BodyStates;
use crate::system::error::{At, SystemError, SystemResult};
use crate::system::forces::generalized_forces;
use crate::system::index::{ItemRef, ObjectIndex};
use crate::system::node::{Node, NodeState};
use crate::system::node_force::zeros;
use crate::system::object::Object;
use crate::system::sensor::SensorSink;
use crate::system::system::System;
use crate::{Error, Real};
use heapless::Vec;
use nalgebra::Vector2;

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
    /// Kick-drift-kick (module docs) with the rigid scheme `scheme`, on a working copy of the
    /// node states, then [`Self::commit`].
    // Out of line: the working copy is on the stack only in this scheme's step.
    #[inline(never)]
    pub(super) fn kick_drift_kick<R: RigidIntegrator<T>, Sink: SensorSink<T> + ?Sized>(
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
}
