//! `solve_batch`: K independent systems solved in one call, on a thread pool with the GIL
//! released, their sensor rows in one numpy array, for parameter studies and model-predictive
//! control.

use crate::errors;
use crate::system::{simulation_settings, Model, System};
use numpy::{PyArray3, ToPyArray};
use pyo3::prelude::*;
use rayon::prelude::*;

/// Solves every system of `systems` (Exudyn's `SolveDynamic`, as `System.solve_dynamic`) with
/// the same settings, in parallel with the GIL released, and returns their sensor rows as one
/// float64 array of shape (K, number_of_steps + 1, 1 + values): per system and row the time
/// and every sensor's values in sensor order. The systems keep their final states and records,
/// as after `solve_dynamic`. A failing system raises its `MbsError` (the others ran).
#[pyfunction]
#[pyo3(signature = (systems, end_time, number_of_steps, start_time = 0.0, spectral_radius = None, solver = "generalized_alpha"))]
pub fn solve_batch<'py>(
    py: Python<'py>,
    systems: Vec<PyRefMut<'py, System>>,
    end_time: f64,
    number_of_steps: u32,
    start_time: f64,
    spectral_radius: Option<f64>,
    solver: &str,
) -> PyResult<Bound<'py, PyArray3<f64>>> {
    let s = simulation_settings(
        end_time,
        number_of_steps,
        start_time,
        spectral_radius,
        solver,
    )?;
    let mut systems = systems;
    let mut models: Vec<&mut Model> = systems.iter_mut().map(|s| &mut s.model).collect();
    let results: Vec<_> = py.detach(|| {
        models
            .par_iter_mut()
            .map(|m| m.solve(&s).map(|_| ()))
            .collect()
    });
    for (m, r) in models.iter().zip(results) {
        r.map_err(|e| m.error(e))?;
    }
    let rows = number_of_steps as usize + 1;
    let width = models
        .first()
        .map_or(1, |m| 1 + m.records.widths.iter().sum::<usize>());
    let mut out = numpy::ndarray::Array3::<f64>::zeros((models.len(), rows, width));
    for (k, m) in models.iter().enumerate() {
        if 1 + m.records.widths.iter().sum::<usize>() != width {
            return Err(errors::invalid("the systems' sensors differ"));
        }
        let mut col = 1;
        for (r, w) in m.records.rows.iter().zip(&m.records.widths) {
            for (i, row) in r.chunks(w + 1).enumerate().take(rows) {
                out[[k, i, 0]] = row[0];
                for j in 0..*w {
                    out[[k, i, col + j]] = row[1 + j];
                }
            }
            col += w;
        }
    }
    Ok(out.to_pyarray(py))
}
