//! Library version.

use core::ffi::c_char;

/// The crate version as a static NUL-terminated string, e.g. `"0.1.0"`.
#[no_mangle]
pub extern "C" fn mbs_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
