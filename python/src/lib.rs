//! `mbsdyn._native`: mbs for Python, the same engine as the C library (`mbs-core`), numpy in
//! and out. `System` (items named as Exudyn names them, sensors recorded into numpy arrays,
//! `solve_dynamic`, `step`), `KinematicTree` (`rnea`, `crba`, `aba`), mass properties, and
//! `solve_batch` (K systems solved on a thread pool with the GIL released). Every error is an
//! `MbsError` whose message is the C API's status text and, where known, the item.

mod batch;
mod errors;
mod python_load;
mod system;
mod system_state;
mod system_tree;
mod tree;
mod user_load;

use pyo3::prelude::*;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MbsError", m.py().get_type::<errors::MbsError>())?;
    m.add_class::<system::System>()?;
    m.add_class::<system::CreatedBody>()?;
    m.add_class::<tree::KinematicTree>()?;
    m.add_function(wrap_pyfunction!(batch::solve_batch, m)?)?;
    m.add_function(wrap_pyfunction!(system::body_cylinder_mass_properties, m)?)?;
    m.add_function(wrap_pyfunction!(system::record_header, m)?)?;
    m.add_function(wrap_pyfunction!(system::box_mass_properties, m)?)?;
    m.add_function(wrap_pyfunction!(system::sphere_mass_properties, m)?)?;
    m.add_function(wrap_pyfunction!(errors::py_status_text, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
