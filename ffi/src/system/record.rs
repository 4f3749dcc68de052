//! Run recordings from C (the `mbs-run 1` text of core's `graphics::record`, read by
//! `mbs-view page`): the header and one frame per call, handed to the caller's text callback
//! as it is made (allocation-free: a firmware streams it over a serial line).

use crate::boundary::{guard, put, read, with_ref};
use crate::status::status_of;
use crate::status::*;
use crate::system::mbs_system;
use crate::system::scene::{from_c, mbs_scene_summary, mbs_visualization_settings};
use core::ffi::{c_char, c_void, CStr};
use core::fmt;
use mbs_core::foreign::abort_on_unwind;
use mbs_core::graphics::record::{write_run_header, RecordError};

/// Receives a piece of a recording's text: `len` bytes of UTF-8 at `text` (not
/// NUL-terminated, valid during the call; pieces end at no particular place, lines are ended
/// by `\n`). `ctx` is the caller's pointer. Must return: a C++ exception that leaves it aborts
/// the process (as from every callback), and no `longjmp` may jump out of it across mbs.
pub type mbs_text_fn =
    Option<unsafe extern "C-unwind" fn(ctx: *mut c_void, text: *const c_char, len: usize)>;

/// `core::fmt::Write` over the caller's text callback.
struct Sink {
    write: unsafe extern "C-unwind" fn(*mut c_void, *const c_char, usize),
    ctx: *mut c_void,
}

impl fmt::Write for Sink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // SAFETY: the caller's callback with its context; `s` lives over the call.
        abort_on_unwind(|| unsafe { (self.write)(self.ctx, s.as_ptr().cast(), s.len()) });
        Ok(())
    }
}

/// Writes the first records of a run recording: `mbs-run 1` and, if `title` is not NULL, the
/// title (a NUL-terminated UTF-8 string; line breaks become spaces). Then one
/// `mbs_system_record_frame` per frame; time plots follow as text the caller writes itself:
/// `signal <name>` per column, then `sample <t> <v_1> ... <v_n>` per row (numbers as `%.17g`).
///
/// Errors (nothing written): `MBS_ERR_NULL_POINTER` (`write`), `MBS_ERR_INVALID_ARGUMENT`
/// (`title` not UTF-8).
///
/// # Safety
/// `title` is NULL or a NUL-terminated string; `write` is NULL or a function of its type,
/// which may be given `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mbs_record_header(
    title: *const c_char,
    write: mbs_text_fn,
    ctx: *mut c_void,
) -> MbsStatus {
    guard(|| {
        let Some(write) = write else {
            return MBS_ERR_NULL_POINTER;
        };
        let title = if title.is_null() {
            None
        } else {
            // SAFETY: the caller's NUL-terminated string.
            match unsafe { CStr::from_ptr(title) }.to_str() {
                Ok(t) => Some(t),
                Err(_) => return MBS_ERR_INVALID_ARGUMENT,
            }
        };
        let _ = write_run_header(&mut Sink { write, ctx }, title);
        MBS_OK
    })
}

/// One frame of a run recording: `frame <t>` with the system's time, every primitive of
/// `mbs_system_export_scene` with `settings` as a text record, and the colour bar if bodies are
/// contour-coloured; handed to `write(ctx, text, len)` piece by piece. `*summary_out` (may be
/// NULL) receives the export's summary. Call it from a solve's step callback to record a run
/// (every k-th step), or after each `mbs_system_step`.
///
/// Errors (nothing written, `*summary_out` untouched): those of `mbs_system_export_scene`;
/// `MBS_ERR_NULL_POINTER` for a NULL `write`.
///
/// # Safety
/// As `mbs_system_export_scene`; `write` is NULL or a function of its type, which may be
/// given `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_record_frame(
    sys: *const mbs_system,
    settings: *const mbs_visualization_settings,
    write: mbs_text_fn,
    ctx: *mut c_void,
    summary_out: *mut mbs_scene_summary,
) -> MbsStatus {
    with_ref(sys, |s| {
        // SAFETY: the caller's guarantee on `settings`.
        let settings = from_c(&unsafe { read(settings) }?)?;
        let write = write.ok_or(MBS_ERR_NULL_POINTER)?;
        let summary = match s.sys.record_frame(&settings, &mut Sink { write, ctx }) {
            Ok(summary) => summary,
            Err(RecordError::Scene(e)) => return Err(status_of(e)),
            // The sink never fails.
            Err(RecordError::Write) => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        if !summary_out.is_null() {
            put(summary_out, mbs_scene_summary::of(&summary));
        }
        Ok(MBS_OK)
    })
}
