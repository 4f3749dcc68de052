//! Held loads: every load and connector force evaluated at the start of the step and held,
//! each body advanced by its own integrator (mass points exactly for the held force, rigid
//! bodies by their rigid scheme), on a working copy of the node states.

use super::{planar_node, rigid2d, StepReport};
use crate::body::Generalized;
use crate::integrators::rigid::driver;
use crate::integrators::{RigidIntegrator, RigidLoads, StepStatus};
use crate::system::body_states::BodyStates;
use crate::system::error::{At, SystemError, SystemResult};
use crate::system::forces::generalized_forces;
use crate::system::index::{ItemRef, ObjectIndex};
use crate::system::node::NodeState;
use crate::system::node_force::zeros;
use crate::system::object::Object;
use crate::system::sensor::SensorSink;
use crate::system::system::System;
use crate::{Error, Real};
use heapless::Vec;
use nalgebra::Vector2;

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
    /// Held loads: forces at the start, each body by its own integrator (module docs), the
    /// rigid bodies by `scheme`, on a working copy of the node states, then [`Self::commit`].
    // Out of line: the working copy is on the stack only in this scheme's step.
    #[inline(never)]
    pub(super) fn held_loads<R: RigidIntegrator<T>, Sink: SensorSink<T> + ?Sized>(
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
