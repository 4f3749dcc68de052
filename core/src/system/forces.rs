//! The sum of all loads and connector forces as generalized forces on the nodes' velocity
//! coordinates: `Q_node = sum over loads and connector ends of J^T f` (as Exudyn's bodies), in one pass
//! over the loads and one over the connectors (O(loads + connectors), no allocation).

use super::body_states::BodyStates;
use super::connector::Connector;
use super::error::SystemError;
use super::error::{At, SystemResult};
use super::index::{ConnectorIndex, ItemRef, LoadIndex, NodeIndex};
use super::load::Load;
use super::marker::Marker;
use super::node_force::NodeForce;
use crate::body::Generalized;
use crate::finite::all_finite;
use crate::{Error, Real};

/// Adds `f` to the entry of its node.
#[inline]
fn add<T: Real>(out: &mut [Generalized<T>], f: Option<NodeForce<T>>) {
    if let Some(f) = f {
        if let Some(o) = out.get_mut(f.node.get()) {
            *o += f.q;
        }
    }
}

/// Writes into `out[node]` (one entry per node; the first `coordinates` entries meaningful:
/// 2 for a 2D point `[f_x, f_y]` N, 6 for a rigid-body node `[f (N, world); tau (N m, body
/// frame, about the reference point)]`) the sum of the generalized forces of every load at
/// time `t` (s) and every connector, in the states of `view`. Errors name the load or
/// connector; a non-finite sum is `NotFinite(Force)` at the system.
pub(super) fn generalized_forces<T: Real>(
    view: &BodyStates<'_, T>,
    markers: &[Marker<T>],
    loads: &[Load<T>],
    connectors: &[Connector<T>],
    t: T,
    out: &mut [Generalized<T>],
) -> SystemResult<()> {
    for o in out.iter_mut() {
        *o = Generalized::zeros();
    }
    for (i, l) in loads.iter().enumerate() {
        let at = ItemRef::Load(LoadIndex(i as u16));
        add(out, l.generalized_force(view, markers, t).at(at)?);
    }
    for (i, c) in connectors.iter().enumerate() {
        let at = ItemRef::Connector(ConnectorIndex(i as u16));
        let [q0, q1] = c.generalized_forces(view, markers).at(at)?;
        add(out, q0);
        add(out, q1);
    }
    for (i, o) in out.iter().enumerate() {
        if !all_finite(o) {
            return Err(SystemError::new(
                Error::NotFinite(crate::Param::Force),
                ItemRef::Node(NodeIndex(i as u16)),
            ));
        }
    }
    Ok(())
}
