//! # mbs-bench
//!
//! Host-side benchmarks and comparisons of mbs (std allowed here, never in core):
//! - [`bullet`]: Bullet's implicit gyroscopic step re-implemented as an accuracy baseline;
//! - [`micro`]: min-of-batches timing of the mass point step and the cylinder;
//! - [`torque_free`]: the comparison problem (torque-free asymmetric body) and its runners,
//!   used by the `mbs-torque-free` binary that `bench/compare.sh` calls;
//! - [`chain`]: the system-scaling model (a chain of rigid bodies on spring-dampers), used by
//!   `benches/system.rs` and the `mbs-system-scaling` binary;
//! - `benches/steps.rs`, `benches/system.rs`: criterion benches of one step of each scheme and
//!   of systems of 1, 10 and 100 bodies.

pub mod bullet;
pub mod chain;
pub mod micro;
pub mod torque_free;
