//! Shared helpers of the system integration tests: log-log slope fits, state access.
#![allow(dead_code)]

use mbs_core::nodes::Point2DState;
use mbs_core::state::RigidState;
use mbs_core::system::{NodeIndex, NodeState, System};

/// Least-squares slope of `log(err)` against `log(dt)`.
pub fn slope(dts: &[f64], errs: &[f64]) -> f64 {
    let n = dts.len() as f64;
    let xs: Vec<f64> = dts.iter().map(|d| d.ln()).collect();
    let ys: Vec<f64> = errs.iter().map(|e| e.ln()).collect();
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// The 2D point state of node `n`.
pub fn point<
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
>(
    sys: &System<f64, N, O, M, L, C, S, G, K, W>,
    n: NodeIndex,
) -> Point2DState<f64> {
    match sys.node_state(n).unwrap() {
        NodeState::Point2D(s) => *s,
        other => panic!("not a 2D point: {other:?}"),
    }
}

/// The rigid state of node `n`.
pub fn rigid<
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
>(
    sys: &System<f64, N, O, M, L, C, S, G, K, W>,
    n: NodeIndex,
) -> RigidState<f64> {
    match sys.node_state(n).unwrap() {
        NodeState::RigidBody(s) => *s,
        other => panic!("not a rigid-body node: {other:?}"),
    }
}
