//! [`PythonLoad`]: a Python load function as the context of core's load callback, and the
//! callback, `call_python`, that takes the GIL, calls it and hands back its three floats (NaN
//! and the exception kept when it raises).

use crate::errors::invalid;
use pyo3::prelude::*;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// A Python load function and the exception of its last failed call.
pub(crate) struct PythonLoad {
    pub(crate) function: Py<PyAny>,
    pub(crate) error: Mutex<Option<PyErr>>,
}

impl PythonLoad {
    fn fail(&self, e: PyErr) {
        if let Ok(mut slot) = self.error.lock() {
            *slot = Some(e);
        }
    }
}

/// Core's load callback: `ctx` is a `PythonLoad` (see `add_load_user`).
pub(crate) extern "C-unwind" fn call_python(ctx: *mut c_void, t: f64, out: *mut [f64; 3]) {
    // SAFETY: `ctx` is the address of a `PythonLoad` in an `Arc` that every model holding this
    // load keeps (`Model::user_loads`), so it outlives each call; it is only read.
    let load = unsafe { &*(ctx as *const PythonLoad) };
    let called = catch_unwind(AssertUnwindSafe(|| {
        Python::attach(|py| {
            load.function
                .call1(py, (t,))
                .and_then(|v| v.extract::<[f64; 3]>(py))
        })
    }));
    let v = match called {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            load.fail(e);
            [f64::NAN; 3]
        }
        Err(_) => {
            load.fail(invalid("the load function panicked"));
            [f64::NAN; 3]
        }
    };
    // SAFETY: core passes a valid, writable `[f64; 3]`.
    unsafe { *out = v };
}
