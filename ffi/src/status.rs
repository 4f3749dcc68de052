//! Status codes: `mbs_status` values with fixed numbers, never reused.

use core::ffi::c_char;

/// Result of every `mbs_*` call: `MBS_OK` (0), a warning (1..=99: the call did its work) or an
/// error (>= 100: the call changed nothing). A fixed-width integer, not a C enum, so its size
/// is the same on every ABI.
pub type MbsStatus = u32;

/// Success.
pub const MBS_OK: MbsStatus = 0;
/// Warning: the step was taken but |w| dt (or another resolution limit) exceeded its bound.
pub const MBS_WARN_STEP_TOO_LARGE: MbsStatus = 1;

/// A required pointer argument was null.
pub const MBS_ERR_NULL_POINTER: MbsStatus = 100;
/// An argument is NaN or infinite.
pub const MBS_ERR_NOT_FINITE: MbsStatus = 101;
/// An argument is out of its range (negative density, mass <= 0, ...).
pub const MBS_ERR_OUT_OF_RANGE: MbsStatus = 102;
/// A vector or length that must be non-zero is zero.
pub const MBS_ERR_ZERO_LENGTH: MbsStatus = 103;
/// innerDiameter is not strictly below diameter.
pub const MBS_ERR_INNER_DIAMETER: MbsStatus = 104;
/// The time step is <= 0 or not finite.
pub const MBS_ERR_TIME_STEP: MbsStatus = 105;
/// The state holds NaN or infinity.
pub const MBS_ERR_NON_FINITE_STATE: MbsStatus = 106;
/// A fixed capacity is full.
pub const MBS_ERR_CAPACITY_FULL: MbsStatus = 107;
/// An index names no item.
pub const MBS_ERR_UNKNOWN_INDEX: MbsStatus = 108;
/// The item does not provide this output variable or Jacobian.
pub const MBS_ERR_NOT_AVAILABLE: MbsStatus = 109;
/// The system is not assembled.
pub const MBS_ERR_NOT_ASSEMBLED: MbsStatus = 110;
/// An argument is invalid in a way not listed above (unknown enum value, wrong item kind, ...).
pub const MBS_ERR_INVALID_ARGUMENT: MbsStatus = 111;
/// The solver failed (singular matrix, no convergence).
pub const MBS_ERR_SOLVER_FAILED: MbsStatus = 112;
/// An internal error that should be impossible (a caught panic).
pub const MBS_ERR_PANIC: MbsStatus = 199;

/// A static, NUL-terminated English description of `status` ("unknown status" if unknown).
/// Never null; the caller must not free it.
#[no_mangle]
pub extern "C" fn mbs_status_str(status: MbsStatus) -> *const c_char {
    let s: &'static [u8] = match status {
        MBS_OK => b"ok\0",
        MBS_WARN_STEP_TOO_LARGE => b"warning: step too large for the rotation rate or stiffness\0",
        MBS_ERR_NULL_POINTER => b"null pointer argument\0",
        MBS_ERR_NOT_FINITE => b"argument is NaN or infinite\0",
        MBS_ERR_OUT_OF_RANGE => b"argument out of range\0",
        MBS_ERR_ZERO_LENGTH => b"zero-length vector or length\0",
        MBS_ERR_INNER_DIAMETER => b"inner diameter not below diameter\0",
        MBS_ERR_TIME_STEP => b"time step must be finite and > 0\0",
        MBS_ERR_NON_FINITE_STATE => b"state is NaN or infinite\0",
        MBS_ERR_CAPACITY_FULL => b"capacity full\0",
        MBS_ERR_UNKNOWN_INDEX => b"unknown index\0",
        MBS_ERR_NOT_AVAILABLE => b"output or Jacobian not available for this item\0",
        MBS_ERR_NOT_ASSEMBLED => b"system not assembled\0",
        MBS_ERR_INVALID_ARGUMENT => b"invalid argument\0",
        MBS_ERR_SOLVER_FAILED => b"solver failed\0",
        MBS_ERR_PANIC => b"internal error\0",
        _ => b"unknown status\0",
    };
    s.as_ptr().cast()
}

/// `true` if `status` is `MBS_OK` or a warning (the call did its work).
#[no_mangle]
pub extern "C" fn mbs_status_is_ok(status: MbsStatus) -> bool {
    status < MBS_ERR_NULL_POINTER
}
