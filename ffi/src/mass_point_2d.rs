//! Exudyn's `ObjectMassPoint2D` on a `NodePoint2D` without a system (Exudyn's `ObjectMassPoint2D`): parameters,
//! state, one generalized-alpha step, outputs, the position Jacobian, and the whole
//! `SolveDynamic` of the mini example of Exudyn's `ObjectMassPoint2D` documentation. Parameters, state, loads, init and step in
//! double (`mbs_mass_point_2d_*`) and single precision (`mbs_mass_point_2d_*_f32`, for a
//! firmware on a single-precision FPU); outputs, Jacobian and the whole solve in double.
//!
//! The point moves in the world x-y plane: position `[r_0 + q_0, r_1 + q_1, 0]` (m, world)
//! with the reference coordinates `r` and the displacement coordinates `q`.

use crate::boundary::{finite, guard, non_null_out, read, time_step, write_with, FfiResult};
use crate::convert::{rows_of, vec2, vec3};
use crate::output::{variable, write_value, MbsOutputVariable};
use crate::simulation_settings::{
    mbs_simulation_settings, mbs_simulation_settings_f32, mbs_simulation_settings_of,
};
use crate::status::status_of;
use crate::status::*;
use mbs_core::bodies::MassPoint2D;
use mbs_core::body::Body;
use mbs_core::integrators::SecondOrderState;
use mbs_core::loads::{LoadForceVector, LoadMassProportional};
use mbs_core::nodes::{NodePoint2D, Point2DConfiguration, Point2DState};
use mbs_core::solver::{solve_dynamic, MassPointLoad, MassPointOde};
use mbs_core::Real;
use nalgebra::Vector2;

/// Parameters of a mass point in the plane: the body's mass and its node's reference
/// coordinates, generic over the scalar: use `mbs_mass_point_2d` (double) or
/// `mbs_mass_point_2d_f32` (float). Fill with `mbs_mass_point_2d_init(_f32)` (validated
/// again by every call).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_mass_point_2d_of<T> {
    /// Mass (kg), finite and > 0 (Exudyn's `physicsMass`).
    pub mass: T,
    /// Reference coordinates `r` of the node (m, world x and y; Exudyn's
    /// `referenceCoordinates`): the position is `r + q`.
    pub reference_coordinates: [T; 2],
}

/// A mass point's parameters in double precision.
pub type mbs_mass_point_2d = mbs_mass_point_2d_of<f64>;
/// A mass point's parameters in single precision.
pub type mbs_mass_point_2d_f32 = mbs_mass_point_2d_of<f32>;

/// The state of the mass point's node: what generalized-alpha carries from step to step,
/// generic over the scalar: `mbs_point2d_state` (double) or `mbs_point2d_state_f32` (float).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_point2d_state_of<T> {
    /// Displacement coordinates `q` (m, world x and y), from the reference coordinates.
    pub q: [T; 2],
    /// Velocities `q_t` (m/s, world x and y).
    pub q_t: [T; 2],
    /// Accelerations `q_tt` (m/s^2, world x and y) at the state's time.
    pub q_tt: [T; 2],
    /// Generalized-alpha's algorithmic acceleration `a` (m/s^2); equal to `q_tt` after
    /// `mbs_mass_point_2d_init_state`. Keep it with the state between steps.
    pub a: [T; 2],
}

/// A mass point's state in double precision.
pub type mbs_point2d_state = mbs_point2d_state_of<f64>;
/// A mass point's state in single precision.
pub type mbs_point2d_state_f32 = mbs_point2d_state_of<f32>;

/// Loads on the mass point, constant over a step (and over a whole solve). The terms add up.
/// Generic over the scalar: `mbs_mass_point_2d_loads` (double) or `mbs_mass_point_2d_loads_f32`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_mass_point_2d_loads_of<T> {
    /// Force on the node (N, world; Exudyn's `LoadForceVector`); the z component does no work
    /// on a planar point and is ignored.
    pub force: [T; 3],
    /// Uniform acceleration field (m/s^2, world; Exudyn's `LoadMassProportional`), e.g.
    /// `{0, -9.81, 0}`: adds the weight `m g`.
    pub gravity: [T; 3],
}

/// Loads on a mass point in double precision.
pub type mbs_mass_point_2d_loads = mbs_mass_point_2d_loads_of<f64>;
/// Loads on a mass point in single precision.
pub type mbs_mass_point_2d_loads_f32 = mbs_mass_point_2d_loads_of<f32>;

/// What a generalized-alpha step did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_alpha_step_info {
    /// Newton updates (linear solves) of the step; 0 if the predictor already satisfied the
    /// equations of motion.
    pub newton_iterations: u32,
}

impl<T: Real> mbs_mass_point_2d_of<T> {
    /// The validated core node (at the reference coordinates) and body: `MBS_ERR_NOT_FINITE`,
    /// `MBS_ERR_INVALID_MASS` (<= 0).
    pub fn to_core(&self) -> FfiResult<(NodePoint2D<T>, MassPoint2D<T>)> {
        let r = vec2(&self.reference_coordinates)?;
        let body = MassPoint2D::new(finite(self.mass)?).map_err(status_of)?;
        let node = NodePoint2D::at(r).map_err(status_of)?;
        Ok((node, body))
    }
}

impl<T: Real> mbs_point2d_state_of<T> {
    /// The checked core state: `MBS_ERR_NOT_FINITE` for NaN/inf anywhere.
    pub fn to_core(&self) -> FfiResult<SecondOrderState<T, 2>> {
        let s = SecondOrderState {
            q: Vector2::from(self.q),
            q_t: Vector2::from(self.q_t),
            q_tt: Vector2::from(self.q_tt),
            a: Vector2::from(self.a),
        };
        // Core's check of all eight entries (`finite::all_finite_of`: one sum test on a
        // microcontroller with hardware additions, a test of each entry elsewhere).
        if s.is_finite() {
            Ok(s)
        } else {
            Err(MBS_ERR_NOT_FINITE)
        }
    }

    /// The C state of a core state.
    pub fn of(s: &SecondOrderState<T, 2>) -> Self {
        Self {
            q: s.q.into(),
            q_t: s.q_t.into(),
            q_tt: s.q_tt.into(),
            a: s.a.into(),
        }
    }

    fn node_state(&self) -> Point2DState<T> {
        Point2DState {
            q: Vector2::from(self.q),
            q_t: Vector2::from(self.q_t),
            q_tt: Vector2::from(self.q_tt),
        }
    }
}

impl<T: Real> mbs_mass_point_2d_loads_of<T> {
    /// The core loads (node 0 and body 0): `MBS_ERR_NOT_FINITE` for NaN/inf.
    pub fn to_core(&self) -> FfiResult<[MassPointLoad<T>; 2]> {
        let f = LoadForceVector::new(vec3(&self.force)?).map_err(status_of)?;
        let g = LoadMassProportional::new(vec3(&self.gravity)?).map_err(status_of)?;
        Ok([
            MassPointLoad::NodeForce { node: 0, load: f },
            MassPointLoad::MassProportional { body: 0, load: g },
        ])
    }
}

/// The checked C inputs every mass point call starts from: the core node and body, the core
/// loads, and the settings (read, checked by the caller where it needs them).
struct Problem<T: Real> {
    node: NodePoint2D<T>,
    body: MassPoint2D<T>,
    loads: [MassPointLoad<T>; 2],
    settings: mbs_simulation_settings_of<T>,
}

impl<T: Real> Problem<T> {
    /// Reads and checks `body`, then `loads` (their errors in that order), then reads
    /// `settings`. Out of line: one copy serves the start state and the step.
    ///
    /// # Safety
    /// Each pointer is null or valid and aligned for reads.
    #[inline(never)]
    unsafe fn read(
        body: *const mbs_mass_point_2d_of<T>,
        loads: *const mbs_mass_point_2d_loads_of<T>,
        settings: *const mbs_simulation_settings_of<T>,
    ) -> FfiResult<Self> {
        // SAFETY: the caller's guarantees.
        unsafe {
            let (node, body) = read(body)?.to_core()?;
            let loads = read(loads)?.to_core()?;
            Ok(Self {
                node,
                body,
                loads,
                settings: read(settings)?,
            })
        }
    }

    /// The equations of motion (`MassPointOde::new`'s checks).
    fn ode(&self) -> FfiResult<MassPointOde<'_, T>> {
        MassPointOde::new(&self.node, &self.body, &self.loads).map_err(status_of)
    }
}

/// Validates and writes a mass point of `mass` (kg, > 0) on a node at `reference_coordinates`
/// (m, world x and y).
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS` (<= 0).
///
/// # Safety
/// `out` is null or writable; `reference_coordinates` is null or points to 2 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_init(
    out: *mut mbs_mass_point_2d,
    mass: f64,
    reference_coordinates: *const f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { init(out, mass, reference_coordinates.cast()) }
}

/// `mbs_mass_point_2d_init` in single precision.
///
/// # Safety
/// As `mbs_mass_point_2d_init` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_init_f32(
    out: *mut mbs_mass_point_2d_f32,
    mass: f32,
    reference_coordinates: *const f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { init(out, mass, reference_coordinates.cast()) }
}

/// The generic `mbs_mass_point_2d_init`.
///
/// # Safety
/// As `mbs_mass_point_2d_init`.
unsafe fn init<T: Real>(
    out: *mut mbs_mass_point_2d_of<T>,
    mass: T,
    reference_coordinates: *const [T; 2],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let c = mbs_mass_point_2d_of {
                    mass,
                    reference_coordinates: read(reference_coordinates)?,
                };
                c.to_core()?;
                Ok((c, MBS_OK))
            })
        }
    })
}

/// The start state at `settings->start_time` (s) with displacement `initial_coordinates`
/// (m, world; Exudyn's `initialCoordinates`) and `initial_velocities` (m/s, world) and the
/// consistent accelerations `q_tt = a = M^-1 f` of `loads` (what `SolveDynamic` starts from).
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS`, `MBS_ERR_INVALID_ARGUMENT` (solver type), `MBS_ERR_INVALID_SETTING`.
///
/// # Safety
/// Pointers are null or valid (`initial_*`: 2 doubles each; `out`: writable).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_init_state(
    body: *const mbs_mass_point_2d,
    loads: *const mbs_mass_point_2d_loads,
    settings: *const mbs_simulation_settings,
    initial_coordinates: *const f64,
    initial_velocities: *const f64,
    out: *mut mbs_point2d_state,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init_state(
            body,
            loads,
            settings,
            initial_coordinates.cast(),
            initial_velocities.cast(),
            out,
        )
    }
}

/// `mbs_mass_point_2d_init_state` in single precision.
///
/// # Safety
/// As `mbs_mass_point_2d_init_state` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_init_state_f32(
    body: *const mbs_mass_point_2d_f32,
    loads: *const mbs_mass_point_2d_loads_f32,
    settings: *const mbs_simulation_settings_f32,
    initial_coordinates: *const f32,
    initial_velocities: *const f32,
    out: *mut mbs_point2d_state_f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        init_state(
            body,
            loads,
            settings,
            initial_coordinates.cast(),
            initial_velocities.cast(),
            out,
        )
    }
}

/// The generic `mbs_mass_point_2d_init_state`.
///
/// # Safety
/// As `mbs_mass_point_2d_init_state`.
unsafe fn init_state<T: Real>(
    body: *const mbs_mass_point_2d_of<T>,
    loads: *const mbs_mass_point_2d_loads_of<T>,
    settings: *const mbs_simulation_settings_of<T>,
    initial_coordinates: *const [T; 2],
    initial_velocities: *const [T; 2],
    out: *mut mbs_point2d_state_of<T>,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                // Borrowed from the result, not moved out of it (a move copied it).
                let problem = Problem::read(body, loads, settings);
                let p = match &problem {
                    Ok(p) => p,
                    Err(e) => return Err(*e),
                };
                let q0 = vec2(&read(initial_coordinates)?)?;
                let v0 = vec2(&read(initial_velocities)?)?;
                let alpha = p.settings.integrator()?;
                let t0 = finite(p.settings.start_time)?;
                let s = alpha
                    .initial_state(&p.ode()?, t0, &q0, &v0)
                    .map_err(status_of)?;
                Ok((mbs_point2d_state_of::of(&s), MBS_OK))
            })
        }
    })
}

/// Advances `*state` by `dt` (s) with generalized-alpha (`settings->spectral_radius` and the
/// Newton fields; Exudyn's defaults from `mbs_simulation_settings_default`) under `loads`,
/// which act at the end of the step (`M q_tt_{n+1} = f_{n+1}`; give each step's force).
/// `*info_out` (may be NULL) receives the Newton iteration count.
///
/// Errors (state and `*info_out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_TIME_STEP` (`dt <= 0`), `MBS_ERR_INVALID_MASS`, `MBS_ERR_INVALID_ARGUMENT`
/// (solver type), `MBS_ERR_INVALID_SETTING`, `MBS_ERR_SOLVER_FAILED`.
///
/// # Safety
/// Each pointer is null or valid and aligned; `info_out` may be NULL.
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_step(
    body: *const mbs_mass_point_2d,
    loads: *const mbs_mass_point_2d_loads,
    settings: *const mbs_simulation_settings,
    state: *mut mbs_point2d_state,
    dt: f64,
    info_out: *mut mbs_alpha_step_info,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { step(body, loads, settings, state, dt, info_out) }
}

/// `mbs_mass_point_2d_step` in single precision: the same generalized-alpha step computed in
/// float (on a Cortex-M4F's FPU), with the same statuses.
///
/// # Safety
/// As `mbs_mass_point_2d_step` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_step_f32(
    body: *const mbs_mass_point_2d_f32,
    loads: *const mbs_mass_point_2d_loads_f32,
    settings: *const mbs_simulation_settings_f32,
    state: *mut mbs_point2d_state_f32,
    dt: f32,
    info_out: *mut mbs_alpha_step_info,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { step(body, loads, settings, state, dt, info_out) }
}

/// The generic `mbs_mass_point_2d_step`.
///
/// # Safety
/// As `mbs_mass_point_2d_step`.
unsafe fn step<T: Real>(
    body: *const mbs_mass_point_2d_of<T>,
    loads: *const mbs_mass_point_2d_loads_of<T>,
    settings: *const mbs_simulation_settings_of<T>,
    state: *mut mbs_point2d_state_of<T>,
    dt: T,
    info_out: *mut mbs_alpha_step_info,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees; everything is read by value first.
        let r = unsafe {
            (|| {
                // Borrowed from the result, not moved out of it (a move copied it).
                let problem = Problem::read(body, loads, settings);
                let p = match &problem {
                    Ok(p) => p,
                    Err(e) => return Err(*e),
                };
                let mut s = read(state.cast_const())?.to_core()?;
                let dt = time_step(dt)?;
                let alpha = p.settings.integrator()?;
                // Constant loads: the equations are autonomous, the step's start time is 0.
                let info = alpha
                    .step(&p.ode()?, &mut s, T::zero(), dt)
                    .map_err(status_of)?;
                Ok((s, info))
            })()
        };
        match r {
            Ok((s, info)) => {
                // SAFETY: `state` was read above (non-null); `info_out` is null or writable.
                unsafe {
                    state.write(mbs_point2d_state_of::of(&s));
                    if !info_out.is_null() {
                        info_out.write(mbs_alpha_step_info {
                            newton_iterations: info.newton_iterations,
                        });
                    }
                }
                MBS_OK
            }
            Err(e) => e,
        }
    })
}

/// Reads output `var` (`MBS_OUTPUT_*`) of the mass point in `state` at `local_position` (m)
/// into `out[0 .. n)` and `n` into `*written` (the output table of Exudyn's `ObjectMassPoint2D`): `POSITION` = `[r + q, 0] +
/// local_position` (m, world), `DISPLACEMENT` = `[q, 0]`, `VELOCITY` = `[q_t, 0]` (m/s),
/// `ACCELERATION` = `[q_tt, 0]` (m/s^2), `ROTATION_MATRIX` = identity, `ROTATION`,
/// `ANGULAR_VELOCITY`, `ANGULAR_VELOCITY_LOCAL` = 0, `KINETIC_ENERGY` = `m q_t.q_t / 2` (J) and
/// `POTENTIAL_ENERGY` = 0 (both only at `local_position = {0,0,0}`, else
/// `MBS_ERR_INVALID_LOCAL_POSITION`); `ANGULAR_ACCELERATION` is not available.
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS`, `MBS_ERR_INVALID_ARGUMENT` (unknown `var`), `MBS_ERR_NOT_AVAILABLE`,
/// `MBS_ERR_INVALID_LOCAL_POSITION`, `MBS_ERR_STORAGE` (`out_len < n`),
/// `MBS_ERR_NON_FINITE_STATE` (the value overflowed, e.g. the energy of a huge velocity).
///
/// # Safety
/// `body`, `state`, `local_position` (3 doubles) are null or valid; `out` is null or valid for
/// `out_len` writes; `written` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_output(
    body: *const mbs_mass_point_2d,
    state: *const mbs_point2d_state,
    var: MbsOutputVariable,
    local_position: *const f64,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    let local_position = local_position.cast::<[f64; 3]>();
    guard(|| {
        let r = (|| {
            non_null_out(out)?;
            non_null_out(written)?;
            // SAFETY: forwarded caller guarantees.
            let (b, s, p) = unsafe { (read(body)?, read(state)?, read(local_position)?) };
            let var = variable(var)?;
            let (node, b) = b.to_core()?;
            s.to_core()?;
            let config: Point2DConfiguration<f64> = node.configuration(&s.node_state());
            b.output(&config, var, &vec3(&p)?).map_err(status_of)
        })();
        match r {
            // SAFETY: non-null, `out_len` elements by the caller's guarantee.
            Ok(v) => unsafe { write_value(&v, out, out_len, written) },
            Err(s) => s,
        }
    })
}

/// The position Jacobian `Jpos = d v_0 / d q_t` (-) of the mass point as a row-major 3x2
/// matrix `{1,0, 0,1, 0,0}` (rows world x, y, z; columns `q_t` x, y), independent of
/// `local_position` (m, body frame) and of the state. A force `f` (N, world) acts on the
/// coordinates as `Q = Jpos^T f`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS`.
///
/// # Safety
/// Pointers are null or valid (`local_position`: 3 doubles; `out`: 6 writable doubles).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_position_jacobian(
    body: *const mbs_mass_point_2d,
    state: *const mbs_point2d_state,
    local_position: *const f64,
    out: *mut f64,
) -> MbsStatus {
    let local_position = local_position.cast::<[f64; 3]>();
    let out = out.cast::<[f64; 6]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let (node, b) = read(body)?.to_core()?;
                let s = read(state)?;
                s.to_core()?;
                let p = vec3(&read(local_position)?)?;
                let j = b
                    .position_jacobian(&node.configuration(&s.node_state()), &p)
                    .map_err(status_of)?;
                Ok((rows_of::<f64, 3, 2, 6>(&j), MBS_OK))
            })
        }
    })
}

/// Exudyn's `SolveDynamic` for the mass point (the mini example of Exudyn's `ObjectMassPoint2D` documentation): from
/// `initial_coordinates` (m) and `initial_velocities` (m/s) at `settings->start_time` with
/// consistent accelerations, `settings->number_of_steps` generalized-alpha steps to
/// `settings->end_time` under the constant `loads`; writes the final state.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS`, `MBS_ERR_INVALID_ARGUMENT` (solver type), `MBS_ERR_INVALID_SETTING`
/// (end <= start, 0 steps, spectral radius outside [0, 1], Newton settings),
/// `MBS_ERR_INVALID_TIME_STEP`, `MBS_ERR_SOLVER_FAILED`.
///
/// # Safety
/// Pointers are null or valid (`initial_*`: 2 doubles each; `out`: writable).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_point_2d_solve_dynamic(
    body: *const mbs_mass_point_2d,
    loads: *const mbs_mass_point_2d_loads,
    settings: *const mbs_simulation_settings,
    initial_coordinates: *const f64,
    initial_velocities: *const f64,
    out: *mut mbs_point2d_state,
) -> MbsStatus {
    let initial_coordinates = initial_coordinates.cast::<[f64; 2]>();
    let initial_velocities = initial_velocities.cast::<[f64; 2]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let c = read(body)?;
                let (_, b) = c.to_core()?;
                let loads = read(loads)?.to_core()?;
                let settings = read(settings)?.to_core_single_body()?;
                let q0 = vec2(&read(initial_coordinates)?)?;
                let v0 = vec2(&read(initial_velocities)?)?;
                let node =
                    NodePoint2D::new(vec2(&c.reference_coordinates)?, q0, v0).map_err(status_of)?;
                let end = solve_dynamic(&node, &b, &loads, &settings).map_err(status_of)?;
                // The solve's state has no algorithmic acceleration; at the end of a solve it
                // restarts from consistent accelerations: a = q_tt.
                let s = SecondOrderState {
                    q: end.q,
                    q_t: end.q_t,
                    q_tt: end.q_tt,
                    a: end.q_tt,
                };
                Ok((mbs_point2d_state::of(&s), MBS_OK))
            })
        }
    })
}
