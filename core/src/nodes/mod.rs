//! Nodes: the state (coordinates, velocities, last accelerations) that bodies own and steps advance.

pub mod rigid;
