//! A whole run from C: `mbs_system_solve_dynamic`, and `mbs_system_solve_dynamic_observed`
//! with a step callback that sees every step and may stop the run.
//!
//! The run goes one step at a time: core's `solve_begin`, then the system's own `step` on the
//! run's time grid, then `solve_end`; no Rust reference to the storage lives while the callback runs: the
//! callback may call the functions that read the system (time, outputs, sensor rows, scene
//! export) with the pointer it is given. Calls that change it are refused with `MBS_ERR_BUSY`
//! while the run is on (the storage's busy flag).

use crate::boundary::{checked_mut, guard, put, read, Busy, Mark};
use crate::simulation_settings::mbs_simulation_settings;
use crate::status::*;
use crate::system::sensors::CSink;
use crate::system::step::{mbs_item_ref, mbs_system_step_report, system_error, warning};
use crate::system::{mbs_system, Inner, SensorBuffer, MBS_SYSTEM_MAX_SENSORS};
use core::ffi::c_void;
use mbs_core::foreign::abort_on_unwind;
use mbs_core::system::{SolveReport, SystemError};

/// What a system solve did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_system_solve_report {
    /// `MBS_OK` or the first warning, as the call returns.
    pub status: MbsStatus,
    /// Steps taken (`number_of_steps`, fewer when the step callback stopped the run).
    pub steps: u32,
    /// Steps that warned `MBS_WARN_STEP_TOO_LARGE` (the solve went on).
    pub steps_too_large: u32,
    /// The largest number of sub-steps of a rigid body in one step.
    pub max_substeps: u32,
    /// Evaluations of all loads and connector forces.
    pub force_evaluations: u64,
    /// Sensor rows not written because their buffer was full.
    pub sensor_rows_dropped: u64,
    /// Generalized-alpha: Newton updates over all steps.
    pub newton_iterations: u64,
    /// Generalized-alpha: step halvings over all steps.
    pub halvings: u32,
    /// 1 if the step callback stopped the run before its last step, else 0.
    pub stopped: u32,
}

/// Where a run is after a step: what the step callback of `mbs_system_solve_dynamic_observed`
/// is given.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_solve_progress {
    /// The system's time after the step (s): `start_time + step h`, `end_time` after the last.
    pub time: f64,
    /// The step just taken, 1 ..= `steps`; 0 at the start.
    pub step: u32,
    /// The run's number of steps (`number_of_steps`).
    pub steps: u32,
    /// What the step did (its sensor rows included).
    pub report: mbs_system_step_report,
}

/// The step callback's answer: take the next step.
pub const MBS_RUN_CONTINUE: i32 = 0;
/// The step callback's answer: end the run with the state of this step (any value other than
/// `MBS_RUN_CONTINUE` stops too).
pub const MBS_RUN_STOP: i32 = 1;

/// Called by `mbs_system_solve_dynamic_observed` once at the start (step 0: the initial state
/// at `start_time`) and after every step, the sensor rows of that state written: `ctx` is the
/// caller's pointer, `sys` the system being solved (in the state of the step), `progress`
/// where the run is (valid during the call). Returns `MBS_RUN_CONTINUE` or `MBS_RUN_STOP`.
///
/// The callback may call the functions that read `sys` (`mbs_system_time`, the outputs,
/// `mbs_system_sensor_rows`, `mbs_system_export_scene`, ...) and read the sensor buffers; a
/// call that changes `sys` returns `MBS_ERR_BUSY` and changes nothing. It must return: a C++
/// exception that leaves it aborts the process before it unwinds any frame of mbs (as from
/// every callback), and no `longjmp` may jump out of it across mbs.
pub type mbs_step_callback = Option<
    unsafe extern "C-unwind" fn(
        ctx: *mut c_void,
        sys: *const mbs_system,
        progress: *const mbs_solve_progress,
    ) -> i32,
>;

/// Exudyn's `SolveDynamic` for the system: every sensor buffer is emptied (0 rows), every
/// node (and a kinematic tree's joint coordinates) put in its initial state at
/// `settings->start_time`, one sensor row recorded there, then
/// `settings->number_of_steps` equal steps to `settings->end_time`, a sensor row after each. A
/// buffer of `number_of_steps + 1` rows holds the whole run. The system is left at `end_time`.
/// The same as `mbs_system_solve_dynamic_observed` with no callback.
///
/// The scheme is `settings->solver_type`'s: `MBS_DYNAMIC_SOLVER_GENERALIZED_ALPHA` (the
/// default) runs generalized-alpha on the whole system with `settings->spectral_radius` and
/// the Newton fields, the rest of generalized-alpha's settings the system's (formulation,
/// rotations, real-time updates, step halving, assembly; see `mbs_simulation_settings`),
/// first computing consistent start values, whatever the system's scheme.
/// `MBS_DYNAMIC_SOLVER_SYSTEM_SCHEME` steps with the system's own scheme
/// (`mbs_system_set_settings`), as `mbs_system_step` does.
///
/// Returns `MBS_OK` or a warning (`MBS_WARN_STEP_TOO_LARGE`, `MBS_WARN_SENSOR_BUFFER_FULL`).
/// `*report` (may be NULL) receives what the solve did.
///
/// Errors (state and time as before the call, every sensor's row count as before; the data
/// past those rows may have been overwritten; `*failed_item`, may be NULL, names the item):
/// `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_BUSY`,
/// `MBS_ERR_NOT_ASSEMBLED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_ARGUMENT` (solver type),
/// `MBS_ERR_INVALID_SETTING` (end <= start, 0 steps, ...), `MBS_ERR_NOT_SUPPORTED_BY_SCHEME`,
/// `MBS_ERR_CAPACITY_FULL` (coordinates plus equations beyond `MBS_SYSTEM_SOLVER_CAPACITY`),
/// the start's errors (`MBS_ERR_CONSTRAINT_VIOLATED`, `MBS_ERR_SINGULAR_MATRIX`), any step's
/// error.
///
/// # Safety
/// As `mbs_system_step`; `settings` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_solve_dynamic(
    sys: *mut mbs_system,
    settings: *const mbs_simulation_settings,
    report: *mut mbs_system_solve_report,
    failed_item: *mut mbs_item_ref,
) -> MbsStatus {
    // SAFETY: forwarded.
    unsafe {
        mbs_system_solve_dynamic_observed(
            sys,
            settings,
            None,
            core::ptr::null_mut(),
            report,
            failed_item,
        )
    }
}

/// `mbs_system_solve_dynamic` with `on_step(ctx, sys, &progress)` called at the start (step 0)
/// and after every step (may be NULL: then the same call, bit for bit). For a progress line, a
/// scene recorded every k steps (`mbs_system_record_frame`), or a stop: when the callback
/// returns `MBS_RUN_STOP` the run ends there, the system keeps the state and time of that step
/// (the same bits as a run of that many steps; at step 0 the initial state), the call returns
/// as a successful run and `report->stopped` is 1. See `mbs_step_callback` for what
/// the callback may call.
///
/// Errors as `mbs_system_solve_dynamic`; a step that fails after the callback saw earlier
/// steps still puts back the state and time before the call.
///
/// # Safety
/// As `mbs_system_solve_dynamic`; `on_step` is NULL or a function of that type, which may be
/// given `ctx`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_solve_dynamic_observed(
    sys: *mut mbs_system,
    settings: *const mbs_simulation_settings,
    on_step: mbs_step_callback,
    ctx: *mut c_void,
    report: *mut mbs_system_solve_report,
    failed_item: *mut mbs_item_ref,
) -> MbsStatus {
    guard(|| {
        let fail = |e: SystemError| system_error(e, failed_item);
        let p = match checked_mut(sys) {
            Ok(p) => p,
            Err(s) => return s,
        };
        // SAFETY: the caller's guarantee.
        let c = match unsafe { read(settings) }.and_then(|s| s.to_core()) {
            Ok(c) => c,
            Err(s) => return s,
        };
        // Each `&mut *p` below is made for one stretch of Rust work and ends before the step
        // callback, which reads the storage through `sys`; while the library works (the start
        // and the steps run the load callbacks) every call is refused, while the step callback
        // runs only changes. SAFETY (all of them): `p` is the checked storage.
        let rows = Rows::empty(unsafe { &mut *p });
        let working = Mark::<mbs_system>::set(p, Busy::Working);
        let (core, buffers) = parts(p);
        let mut sink = CSink::new(buffers);
        let begun = core.solve_begin(&c, &mut sink);
        let mut dropped = sink.dropped();
        let mut run = match begun {
            Ok(run) => run,
            Err(e) => {
                drop(working);
                rows.restore(unsafe { &mut *p });
                return fail(e);
            }
        };
        // The start (step 0, its sensor row written by solve_begin), then each step: the
        // system's own step on the run's time grid.
        let (mut progress, mut step_dropped) = (run.start(), dropped);
        loop {
            if let Some(f) = on_step {
                let progress = mbs_solve_progress {
                    time: progress.time,
                    step: progress.step,
                    steps: progress.steps,
                    report: mbs_system_step_report::of(&progress.report, step_dropped),
                };
                working.change(Busy::Reading);
                // SAFETY: the caller's function and context; `progress` lives over the call;
                // no reference to the storage is live.
                let answer = abort_on_unwind(|| unsafe { f(ctx, sys, &progress) });
                working.change(Busy::Working);
                if answer != MBS_RUN_CONTINUE {
                    run.stop();
                }
            }
            if run.is_done() {
                break;
            }
            let (core, buffers) = parts(p);
            let mut sink = CSink::new(buffers);
            let step = core.step(run.step_size(), &mut sink);
            step_dropped = sink.dropped();
            dropped += step_dropped;
            match step {
                Ok(r) => progress = run.record(r, core.time()),
                Err(e) => {
                    drop(working);
                    let inner = unsafe { &mut *p };
                    let e = inner.sys.solve_end(run, Err(e)).err().unwrap_or(e);
                    rows.restore(inner);
                    return fail(e);
                }
            }
        }
        drop(working);
        match unsafe { &mut *p }.sys.solve_end(run, Ok(())) {
            Ok(r) => {
                let status = warning(r.steps_too_large > 0, dropped);
                if !report.is_null() {
                    put(report, mbs_system_solve_report::of(&r, status, dropped));
                }
                status
            }
            Err(e) => fail(e),
        }
    })
}

impl mbs_system_solve_report {
    fn of(r: &SolveReport, status: MbsStatus, dropped: u64) -> Self {
        Self {
            status,
            steps: r.steps,
            steps_too_large: r.steps_too_large,
            max_substeps: r.max_substeps,
            force_evaluations: r.force_evaluations,
            sensor_rows_dropped: dropped,
            newton_iterations: r.newton_iterations,
            halvings: r.halvings,
            stopped: u32::from(r.stopped),
        }
    }
}

/// The sensor buffers' row counts before a run, which a failed run puts back; the run starts
/// them at 0.
struct Rows([(usize, u64); MBS_SYSTEM_MAX_SENSORS as usize]);

impl Rows {
    fn empty(inner: &mut Inner) -> Self {
        let saved = Self(inner.buffers.map(|b| (b.rows, b.dropped)));
        for b in inner.buffers.iter_mut() {
            b.rows = 0;
            b.dropped = 0;
        }
        saved
    }

    fn restore(&self, inner: &mut Inner) {
        for (b, (rows, d)) in inner.buffers.iter_mut().zip(self.0) {
            b.rows = rows;
            b.dropped = d;
        }
    }
}

/// The core system and the sensor buffers of the checked storage `p`, borrowed field by field
/// (the busy mark, which a re-entrant call reads, is not borrowed).
fn parts<'a>(
    p: *mut Inner,
) -> (
    &'a mut crate::system::CSystem,
    &'a mut [SensorBuffer; MBS_SYSTEM_MAX_SENSORS as usize],
) {
    // SAFETY: a checked storage; two disjoint fields, each borrowed once per stretch of work.
    unsafe {
        (
            &mut *core::ptr::addr_of_mut!((*p).sys),
            &mut *core::ptr::addr_of_mut!((*p).buffers),
        )
    }
}
