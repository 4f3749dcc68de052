//! # mbs-ffi: the C API of mbs
//!
//! Built as `libmbs.a`, `libmbs.so` and an rlib. The header `include/mbs.h` is generated from
//! this crate by cbindgen (`build.rs`) and checked in.
//!
//! Rules of every `mbs_*` function:
//! - it returns an [`MbsStatus`] (0 = `MBS_OK`), except the few that return a string or a size;
//! - null pointers, NaN/inf and out-of-range values are refused with a status, and outputs are
//!   written only on success: on any error the caller's data is untouched;
//! - all memory is the caller's: no function allocates.
//! - nothing panics across the boundary: inputs are checked before core is called and core
//!   returns errors instead of panicking; on hosted targets [`boundary`]'s guard also turns an
//!   unexpected panic into `MBS_ERR_PANIC`.
#![cfg_attr(target_os = "none", no_std)]
#![deny(missing_docs)]
// The C names (`mbs_rigid_body`, ...) are the API: snake case by design.
#![allow(non_camel_case_types)]

pub mod boundary;
pub mod convert;
pub mod mass_point_2d;
pub mod mass_properties;
pub mod output;
pub mod rigid;
pub mod simulation_settings;
pub mod status;
mod storage_header;
pub mod system;
pub mod tree;
pub mod version;

pub use status::*;

#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // Unreachable by design (every input is checked); a firmware must not unwind.
    loop {}
}
