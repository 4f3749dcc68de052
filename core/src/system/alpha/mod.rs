//! The whole system as one constrained mechanical system ([`ConstrainedModel`](crate::integrators::constrained::ConstrainedModel)) for the
//! generalized-alpha scheme: the coordinates of all nodes in one vector, the bodies' mass
//! matrices, the loads' and connectors' generalized forces, and the constraints' equations.
//!
//! The vector `q` holds each node's coordinates (Exudyn's ODE2 coordinates), the nodes farthest
//! from the ground first ([`leaves_first`]: what the Newton matrix's LU fills least): a
//! `NodePoint2D` 2 (`x, y`, m) and a `NodeRigidBody2D` 3 (`x, y` m, `theta` rad), displacements
//! from the node's reference; a 3D rigid-body node 7, its position and Euler parameters
//! (`r` m world, `e`: [`euler_parameters`](crate::bodies::euler_parameters), Exudyn's
//! `NodeRigidBodyEP`); a ground node none; after all nodes the kinematic tree's joint
//! coordinates (its links' nodes have none: [`crate::system::System::add_kinematic_tree`]). The rows of `C` hold first each 3D rigid node's
//! normalization `e . e - 1 = 0` in node order, then each constraint's equations in
//! constraint order. With these, `M q_tt + C_q^T lambda = Q + f_v` where `Q` is the sum of the
//! loads' and connectors' `J^T f` (as the explicit schemes use it; a 3D body's mapped to `e`
//! by `Gb^T`) and `f_v` the rigid bodies' centrifugal and gyroscopic forces.
//!
//! The orientation the node states carry is `e / |e|`: a unit quaternion to round-off, while
//! `e` itself keeps `|e| = 1` to the Newton tolerance.
//!
//! On the Lie group ([`Rotations::LieGroup`], [`lie_group`](crate::bodies::lie_group)) a 3D
//! rigid node has 6 entries instead: `r` and the rotation `theta` (rad, body frame) from its
//! orientation at the step's start, `R = R_n exp([theta]x)`, its velocities `[v; w]` (`w` body
//! frame); no normalization rows; `Q` and the bodies' terms enter as they are (no `Gb`). The
//! orientations `R_n` are kept in [`AlphaStorage`](storage::AlphaStorage) at each body's offset, and a committed step
//! makes its node states' orientations the next step's (`theta` back to zero). The constraints'
//! `C_q` is taken in the left-trivialized directions `d(R b)/dtheta = -R [b]x`, the Newton
//! matrix's constraint rows mapped to `theta` by the tangent operator of `exp`
//! ([`ConstrainedModel::constraint_rows_to_coordinates`](crate::integrators::constrained::ConstrainedModel::constraint_rows_to_coordinates)).
//!
//! The Newton matrix's Jacobians: constraints analytic (`C_q`, `d(C_q^T lambda)/dq`, the velocity
//! terms: [`crate::constraints::planar`]); loads analytic (a force at a point `p` of a 2D rigid
//! body gives `dQ_theta/dtheta = -(R p) . f`; torques and forces on points do not depend on `q`);
//! `f_v` analytic (a 3D body's over `e` with its mass matrix's, below); connectors by forward
//! differences over the coordinates and velocities of their two nodes (2D nodes, and 3D rigid
//! nodes' positions and Euler parameters, a 3D body's generalized force mapped by the `Gb^T` of the
//! perturbed `e` as the residual maps it; one evaluation of that connector per coordinate); 3D
//! joints' `d(C_q^T lambda)/dq` analytic ([`crate::constraints::spatial`], a tree link's through
//! its Jacobian columns); every force's dependence on the tree's coordinates and velocities by
//! forward differences; a 3D body's `d(M q_tt - f_v)/de` analytic
//! ([`ep::inertia_position_jacobian`](crate::bodies::euler_parameters::inertia_position_jacobian): terms of order `beta' omega^2` against `M`, which a
//! fast-spinning body needs), and, for the stabilized index 2, its normalization's velocity row
//! `(C_q v)_q = 2 e_t^T`. Left out (the iteration converges linearly at their rate, of order `h^2`
//! against `M`): how a 3D body's loads change with its `e`, a 2D body's `d(M q_tt)/dtheta` (an
//! offset centre of mass), and the joints' `(C_q v)_q` in the index-2 velocity rows.

/// The system's items as a constrained model, borrowing the item lists field by field (so that
/// the workspace can be borrowed mutably beside it).
macro_rules! model_of {
    ($sys:expr) => {
        SystemModel {
            nodes: &$sys.nodes,
            objects: &$sys.objects,
            markers: &$sys.markers,
            loads: &$sys.loads,
            connectors: &$sys.connectors,
            constraints: &$sys.constraints,
            layout: &$sys.layout,
            tree: &$sys.tree,
            starts: Cell::from_mut(&mut $sys.alpha.starts[..]).as_slice_of_cells(),
            equations: $sys.layout.m,
            failure: Cell::new(None),
        }
    };
}

mod constrained_model;
mod ends;
mod entries;
mod equations;
mod gather;
pub(crate) mod iterate;
mod jacobians;
pub(crate) mod layout;
mod mass;
pub(crate) mod model;
pub(crate) mod storage;
#[cfg(test)]
mod tests;
mod tree;

use crate::integrators::constrained::{
    ConstrainedAlpha, ConstrainedReport, ConstrainedState, Formulation,
};
use crate::integrators::StepStatus;
use crate::system::error::{SystemError, SystemResult};
use crate::system::index::{ConstraintIndex, ItemRef};
use crate::system::sensor::SensorSink;
use crate::system::settings::Rotations;
use crate::system::step::StepReport;
use crate::system::system::System;
use crate::{Error, Real};
use crate::{OutputValue, OutputVariableType};
use core::cell::Cell;
use gather::{gather, scatter_states};
use heapless::Vec;
use layout::{leaves_first, Layout};
use model::{constraint_ref, SystemModel};

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
    /// The layout of the coordinates and equations for generalized-alpha, checked: every
    /// constraint between markers it can join (`MarkerNotSupported` at the constraint), `n + m` (`n + 2m` stabilized)
    /// within the capacity `W` (`CapacityFull` at the system).
    pub(crate) fn alpha_layout(
        &mut self,
        formulation: Formulation,
        rotations: Rotations,
    ) -> SystemResult<()> {
        let tree = self.tree.tree().map_or(0, |(_, n)| n);
        let order: Vec<u16, N, u16> =
            leaves_first(&self.nodes, &self.objects, &self.markers, &self.constraints)?;
        self.layout = Layout::of(&self.nodes, &order, tree, &self.constraints, rotations)?;
        let (n, m) = (self.layout.n, self.layout.m);
        let need = match formulation {
            Formulation::StabilizedIndex2 => n + 2 * m,
            _ => n + m,
        };
        if need > W {
            return Err(SystemError::new(Error::CapacityFull, ItemRef::System));
        }
        let ends = model_of!(self).resolve_ends()?;
        self.layout.ends = ends;
        Ok(())
    }

    /// Consistent start values for generalized-alpha at the current time from the current node
    /// states ([`ConstrainedAlpha::initial_state`]: positions checked or projected, velocities
    /// likewise, accelerations and multipliers solved): written into the node states and the
    /// stored state. On error nothing changes.
    pub(crate) fn alpha_start(&mut self, scheme: &ConstrainedAlpha<T>) -> SystemResult<()> {
        let assembly = self.settings.alpha.assembly;
        let mut st = *self.alpha.state();
        // The orientations the start's rotations are taken from (kept only if it succeeds).
        let mut starts = self.alpha.starts;
        gather(&self.layout, &self.states, &mut st, true, &mut starts);
        self.tree.write_state(self.layout.tree, &mut st);
        let mut model = model_of!(self);
        model.starts = Cell::from_mut(&mut starts[..]).as_slice_of_cells();
        let n = self.layout.n;
        let start = scheme.initial_state(
            &model,
            self.time,
            &st.q[..n],
            &st.v[..n],
            assembly,
            &mut self.alpha.work,
        );
        let start = match start {
            Ok(s) => s,
            Err(e) => {
                let item = model.failure.take();
                return Err(match (e, item) {
                    (_, Some(item)) => item,
                    (Error::SingularMatrix, None) => self.first_singular(scheme, &st, &mut starts),
                    (Error::ConstraintViolated, None) => {
                        SystemError::new(e, self.most_violated(assembly.tolerance))
                    }
                    (e, None) => SystemError::new(e, ItemRef::System),
                });
            }
        };
        scatter_states(
            &self.layout,
            [&start.q, &start.v, &start.acc],
            &mut self.states,
            &starts,
        );
        self.alpha.starts = starts;
        self.alpha.set_state(&start);
        if self.layout.lie_group {
            // The start's rotations (an assembly moves them) into the orientations.
            self.alpha.rebase(&self.layout, &self.states);
        }
        self.alpha.started = true;
        // The workspace back to zeros: a step starts from a cleared Newton matrix.
        self.alpha.work.clear();
        // The start may have moved the tree's coordinates (assembly): its links follow.
        self.tree.read_state(self.layout.tree, self.alpha.state());
        self.refresh_links();
        Ok(())
    }

    /// The constraint whose position residual `C(q)` (its largest entry, m or rad) is the
    /// largest of those above `tolerance` at the node states; the system if none is (a
    /// violation of the velocity constraints).
    fn most_violated(&self, tolerance: T) -> ItemRef {
        let mut worst = (tolerance, ItemRef::System);
        for k in 0..self.constraints.len() {
            let residual = self.constraint_output(
                ConstraintIndex(k as u16),
                OutputVariableType::ConstraintResidual,
            );
            let size = match residual {
                Ok(OutputValue::Scalar(x)) => x.abs_l(),
                Ok(OutputValue::Vector3(v)) => v.iter().fold(T::zero(), |m, x| m.max(x.abs_l())),
                _ => continue,
            };
            if size > worst.0 {
                worst = (size, constraint_ref(k));
            }
        }
        worst.1
    }

    /// `SingularMatrix` at the first constraint `k` whose leading set `0..=k` makes the start's
    /// matrix singular (redundant or contradictory with those before it; at the system if
    /// none does alone, e.g. a coordinate without mass). Works in the system's workspace (a
    /// refused start is followed by `clear_solver_scratch`, which clears it).
    #[inline(never)]
    fn first_singular(
        &mut self,
        scheme: &ConstrainedAlpha<T>,
        st: &ConstrainedState<T, W>,
        starts: &mut [T; W],
    ) -> SystemError {
        let n = self.layout.n;
        let work = &mut self.alpha.work;
        let starts = Cell::from_mut(&mut starts[..]).as_slice_of_cells();
        for k in 0..self.constraints.len() {
            let mut model = model_of!(self);
            model.starts = starts;
            model.constraints = &self.constraints[..=k];
            model.equations = self.layout.rows.get(k).map_or(0, |r| usize::from(*r))
                + self.constraints.get(k).map_or(0, |c| c.equations());
            let r = scheme.initial_state(
                &model,
                self.time,
                &st.q[..n],
                &st.v[..n],
                self.settings.alpha.assembly,
                work,
            );
            if r == Err(Error::SingularMatrix) {
                return SystemError::new(Error::SingularMatrix, constraint_ref(k));
            }
        }
        SystemError::new(Error::SingularMatrix, ItemRef::System)
    }

    /// The generalized-alpha step of `h` to `t1`, the scheme's step of
    /// [`System::step`](crate::system::System::step): the start values first if the state is
    /// not started ([`Self::alpha_step_starting`]); the Newton-solved step from the state, its result
    /// left in the workspace ([`ConstrainedAlpha::newton_step`]); then [`Self::alpha_finish`]
    /// (node states, checks, sensors, commit). With step halving,
    /// [`Self::alpha_step_halving`]. `h` is checked by the caller, the sizes at assembly.
    // Inline: in its own frame it adds to the step's stack.
    #[inline(always)]
    pub(crate) fn alpha_step<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        scheme: &ConstrainedAlpha<T>,
        h: T,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        if !self.alpha.is_started() {
            return self.alpha_step_starting(scheme, h, t1, sink);
        }
        if scheme.step_halving_levels() > 0 {
            return self.alpha_step_halving(scheme, h, t1, sink);
        }
        // The node states are the state's positions and velocities while it is started; the
        // workspace is cleared for the layout's unknowns (by `clear_solver_scratch` after every
        // step and by `alpha_start`).
        let model = model_of!(self);
        let (sizes, cleared) = (model.layout.sizes(), model.layout.unknowns());
        let (state, work) = (&mut self.alpha.state, &mut self.alpha.work);
        let newton = scheme
            .newton_step(&model, state, work, h, sizes, cleared)
            .map_err(|e| model.error(e))?;
        self.alpha_finish(newton, t1, sink)
    }

    /// [`Self::alpha_step`] from start values computed first ([`Self::alpha_start`]); if the
    /// step is refused, the start is undone too: the node states, the tree's coordinates and
    /// the solver's state are put back (a refused step changes nothing).
    // Out of line: the copies are on the stack only in a step that starts.
    #[inline(never)]
    fn alpha_step_starting<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        scheme: &ConstrainedAlpha<T>,
        h: T,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        let (states, tree) = (self.states.clone(), self.tree.saved());
        self.alpha_start(scheme)?;
        let done = self.alpha_step(scheme, h, t1, sink);
        if done.is_err() {
            // In place: the unused slots of the node states keep their bytes.
            for (s, saved) in self.states.iter_mut().zip(states.iter()) {
                *s = *saved;
            }
            self.tree.restore(tree);
            self.alpha.invalidate();
        }
        done
    }

    /// [`Self::alpha_step`] with step halving ([`ConstrainedAlpha::step_halving`]) on a copy
    /// of the solver's state. On the Lie group the parts of a halved step move the
    /// orientations the rotations are taken from
    /// ([`ConstrainedModel::recentre`](crate::integrators::constrained::ConstrainedModel::recentre)):
    /// those, and with them the node states, are put back if the step is refused.
    // Out of line: the copies are on the stack only here.
    #[inline(never)]
    fn alpha_step_halving<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        scheme: &ConstrainedAlpha<T>,
        h: T,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        let starts = self.alpha.starts;
        let mut trial = *self.alpha.state();
        let model = model_of!(self);
        let sizes = model.layout.sizes();
        let work = &mut self.alpha.work;
        let newton = scheme.step_halving(&model, &mut trial, work, h, sizes);
        let newton = newton.map_err(|e| model.error(e)).inspect_err(|_| {
            self.alpha.starts = starts;
        })?;
        let done = self.alpha_finish(newton, t1, sink);
        if done.is_err() {
            self.alpha.starts = starts;
            self.restore_node_states();
        }
        done
    }

    /// After a generalized-alpha step (its result in the solver's workspace): the node states
    /// of its coordinates written in place ([`Self::alpha_node_states`]; no working copy: on a
    /// refusal they come back from the solver's state, [`Self::restore_node_states`]), checked,
    /// the sensors recorded, the result committed to the solver's state.
    // Out of line: the sensors' temporaries are on the stack after the Newton iteration, not
    // during it.
    #[inline(never)]
    fn alpha_finish<Sink: SensorSink<T> + ?Sized>(
        &mut self,
        newton: ConstrainedReport<T>,
        t1: T,
        sink: &mut Sink,
    ) -> SystemResult<StepReport> {
        self.alpha_node_states();
        let lambda = &self.alpha.work.lambda;
        // The planar nodes' states are the solver's coordinates, which it checked finite.
        if let Err(e) = self.check_and_record(&self.states, true, lambda, t1, sink) {
            self.restore_node_states();
            return Err(e);
        }
        self.alpha.commit(t1, &self.layout, &self.states);
        self.alpha.report = Some(newton);
        self.tree.read_state(self.layout.tree, self.alpha.state());
        self.time = t1;
        Ok(StepReport {
            status: StepStatus::Ok,
            substeps: newton.halvings.saturating_add(1),
            force_evaluations: newton.newton_iterations + 1,
            newton_iterations: newton.newton_iterations,
            halvings: newton.halvings,
        })
    }

    /// After generalized-alpha work, complete or refused: the solver's and the tree's scratch
    /// back to fixed values, so that the storage depends on the system's items and states
    /// alone (a refused call then changes no byte of it).
    pub(crate) fn clear_solver_scratch(&mut self) {
        self.alpha.clear_workspace();
        self.tree.reset_scratch();
    }

    /// The node states of the solver's current state written in place: of the coordinates,
    /// field by field, and the tree links' from the tree's own (read from that state). The
    /// node states always equal these between steps, so this puts them back byte for byte
    /// after [`Self::alpha_node_states`].
    pub(crate) fn restore_node_states(&mut self) {
        let (s, starts) = (&self.alpha.state, &self.alpha.starts);
        scatter_states(&self.layout, [&s.q, &s.v, &s.acc], &mut self.states, starts);
        self.refresh_links();
    }

    /// The node states of the step's result (what [`Self::alpha_step`] left in the
    /// workspace), written in place: of the coordinates, field by field, and the tree links'
    /// of the tree's.
    pub(crate) fn alpha_node_states(&mut self) {
        let (w, starts) = (&self.alpha.work, &self.alpha.starts);
        scatter_states(&self.layout, [&w.q, &w.v, &w.x], &mut self.states, starts);
        if let Some((_, n)) = self.tree.tree() {
            let o = self.layout.tree;
            if let (Some(q), Some(v), Some(a)) =
                (w.q.get(o..o + n), w.v.get(o..o + n), w.x.get(o..o + n))
            {
                self.tree.link_states(q, v, Some(a), &mut self.states);
            }
        }
    }
}
