//! # mbs-bench
//!
//! Host-side benchmarks and comparisons of mbs (std allowed here, never in core):
//! - [`bullet`]: Bullet's implicit gyroscopic step re-implemented as an accuracy baseline;
//! - [`micro`]: min-of-batches timing of the mass point step and the cylinder;
//! - [`torque_free`]: the comparison problem (torque-free asymmetric body) and its runners,
//!   used by the `mbs-torque-free` binary that `bench/compare.sh` calls;
//! - `benches/steps.rs`: criterion benches of one step of each scheme.

pub mod bullet;
pub mod micro;
pub mod torque_free;
