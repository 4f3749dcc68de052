//! [`NodeForce`]: a generalized force on one node's velocity coordinates, what a load, a
//! marker or a connector end hands to the sum of forces.

use super::index::NodeIndex;
use crate::body::Generalized;
use crate::Real;
use heapless::Vec;

/// A generalized force on the velocity coordinates of a node (what a load or a connector end
/// applies; the node's first `coordinates` entries meaningful, as in [`generalized_forces`](super::forces::generalized_forces)).
// repr(C), the force first: in a `Result<Option<_>>` it is then aligned, and moved as words
// (the tuple `(NodeIndex, Generalized)` was copied byte by byte on the Cortex-M4F).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeForce<T: Real> {
    /// The generalized force.
    pub q: Generalized<T>,
    /// The node it acts on.
    pub node: NodeIndex,
}

impl<T: Real> NodeForce<T> {
    /// `q` on `node`.
    #[inline]
    pub fn new(node: NodeIndex, q: Generalized<T>) -> Self {
        Self { q, node }
    }
}

/// Fills `v` with `n` zero generalized forces (O(n), not O(capacity); `n` is at most the
/// capacity, the number of nodes of a system of that capacity).
pub(crate) fn zeros<T: Real, const N: usize>(v: &mut Vec<Generalized<T>, N, u16>, n: usize) {
    v.clear();
    let _ = v.resize(n.min(N), Generalized::zeros());
}
