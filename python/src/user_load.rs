//! `System.add_load_user`: a load whose vector a Python function of time gives (Exudyn's
//! `loadVectorUserFunction`). Core calls a C function pointer with a context
//! ([`mbs_core::system::LoadFn`]); here the context is a [`PythonLoad`] the model keeps alive,
//! and the trampoline takes the GIL, calls the function and hands back its three floats. An
//! exception (or a result that is not three floats) writes NaN, so the step fails with
//! `MBS_ERR_NOT_FINITE` at that load and changes nothing; that error is raised with the
//! Python exception as its `__cause__`.

use crate::errors::{self, invalid};
use crate::python_load::{call_python, PythonLoad};
use crate::system::{idx, Model, System};
use mbs_core::system::{Load, MarkerIndex, SystemError, UserLoadKind};
use pyo3::prelude::*;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

impl Model {
    /// Forgets the exceptions of earlier load calls (before a step or a solve).
    pub(crate) fn clear_load_errors(&self) {
        for l in &self.user_loads {
            if let Ok(mut slot) = l.error.lock() {
                *slot = None;
            }
        }
    }

    /// The exception of a failed step or solve: the status naming its item, caused by the
    /// Python exception of a load function if one raised.
    pub(crate) fn error(&self, e: SystemError) -> PyErr {
        let err = errors::system(e);
        let raised = self
            .user_loads
            .iter()
            .find_map(|l| l.error.lock().ok().and_then(|mut s| s.take()));
        if let Some(cause) = raised {
            Python::attach(|py| err.set_cause(py, Some(cause)));
        }
        err
    }
}

#[pymethods]
impl System {
    /// A load on `marker` whose vector is `function(t)` (three floats; t in s): `kind`
    /// "force" (N, world, position marker), "torque" (N m, world, rigid marker),
    /// "torque_local" (N m, body frame) or "mass_proportional" (m/s^2, world, mass marker).
    /// It is called (with the GIL) several times per step, so it must be a function of `t`.
    /// A function that raises fails the step (nothing changed) with that exception as cause.
    fn add_load_user(
        &mut self,
        marker: usize,
        kind: &str,
        function: Bound<'_, PyAny>,
    ) -> PyResult<u16> {
        let kind = match kind {
            "force" => UserLoadKind::Force,
            "torque" => UserLoadKind::TorqueGlobal,
            "torque_local" => UserLoadKind::TorqueLocal,
            "mass_proportional" => UserLoadKind::MassProportional,
            other => {
                return Err(invalid(&format!(
                    "unknown load kind {other:?} (force, torque, torque_local, mass_proportional)"
                )))
            }
        };
        if !function.is_callable() {
            return Err(invalid("function: not callable"));
        }
        let marker = idx(marker, MarkerIndex)?;
        let load = Arc::new(PythonLoad {
            function: function.unbind(),
            error: Mutex::new(None),
        });
        let ctx = Arc::as_ptr(&load) as *mut c_void;
        let i = self
            .model
            .sys
            .add_load(Load::user(marker, kind, call_python, ctx))
            .map_err(errors::core)?;
        self.model.user_loads.push(load);
        Ok(i.0)
    }
}
