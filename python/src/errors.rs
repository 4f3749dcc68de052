//! `MbsError`: a refused call. Its message is the text `mbs_status_str` gives the C API's
//! status for the same error (and the item, for a whole-system call); `status` holds the code
//! (`MBS_ERR_*`), `item` the item as `(kind, index)` or `None`.

use mbs::status::status_of;
use mbs::status::{mbs_status_str, MbsStatus, MBS_ERR_INVALID_ARGUMENT, MBS_ERR_UNKNOWN_INDEX};
use mbs_core::system::{ItemRef, SystemError};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::ffi::CStr;

create_exception!(
    _native,
    MbsError,
    PyValueError,
    "A call mbs refused (nothing was changed): `status` is the C API's status code, `item` the item (kind, index) or None."
);

/// The C API's text of `status`.
pub fn status_text(status: MbsStatus) -> String {
    // SAFETY: mbs_status_str returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(mbs_status_str(status)) }
        .to_string_lossy()
        .into_owned()
}

/// The exception of `status` (with `item` where known).
pub fn error(status: MbsStatus, item: Option<ItemRef>) -> PyErr {
    let (text, item) = match item {
        Some(r) => {
            let (kind, index) = match r {
                ItemRef::Node(i) => ("node", i.0),
                ItemRef::Object(i) => ("object", i.0),
                ItemRef::Marker(i) => ("marker", i.0),
                ItemRef::Load(i) => ("load", i.0),
                ItemRef::Connector(i) => ("connector", i.0),
                ItemRef::Sensor(i) => ("sensor", i.0),
                ItemRef::Constraint(i) => ("constraint", i.0),
                ItemRef::System => ("system", 0),
            };
            let text = if kind == "system" {
                format!("{} (the system)", status_text(status))
            } else {
                format!("{} ({kind} {index})", status_text(status))
            };
            (text, Some((kind, index)))
        }
        None => (status_text(status), None),
    };
    let err = MbsError::new_err(text);
    Python::attach(|py| {
        let v = err.value(py);
        let _ = v.setattr("status", status);
        let _ = v.setattr("item", item);
    });
    err
}

/// `MBS_ERR_UNKNOWN_INDEX`: no such item (an index past `u16`, a missing sensor, link or tree).
pub fn unknown_index() -> PyErr {
    error(MBS_ERR_UNKNOWN_INDEX, None)
}

/// The exception of a core error.
pub fn core(e: mbs_core::Error) -> PyErr {
    error(status_of(e), None)
}

/// The exception of a whole-system error, naming its item.
pub fn system(e: SystemError) -> PyErr {
    error(status_of(e.error), Some(e.item))
}

/// `MBS_ERR_INVALID_ARGUMENT` with what was wrong.
pub fn invalid(what: &str) -> PyErr {
    let err = MbsError::new_err(format!("{}: {what}", status_text(MBS_ERR_INVALID_ARGUMENT)));
    Python::attach(|py| {
        let v = err.value(py);
        let _ = v.setattr("status", MBS_ERR_INVALID_ARGUMENT);
        let _ = v.setattr("item", py.None());
    });
    err
}

/// The C API's text of status code `status` (`mbs_status_str`): what an `MbsError` of that
/// status says.
#[pyfunction]
#[pyo3(name = "status_text")]
pub fn py_status_text(status: MbsStatus) -> String {
    status_text(status)
}
