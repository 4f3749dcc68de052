//! The linearly implicit midpoint step of seed 004 (`RigidInertialMidpointNode`, algorithm
//! MIME-NODE-112), exactly as the seed states it by default, and its options (issue 10).
//!
//! With the twist `V = [v_com; w_b]`, `M = diag(m E3, I)`, the resistance `R = diag(R_lin,
//! R_ang)` and the load `F = [f; tau_b]` (see [`RigidLoads`]):
//!
//! ```text
//! V' = V + (M/dt + R - K/2)^-1 (F - [0; w x (I w)] - R V),
//! K  = d(-w x (I w))/dw = [I w]x - [w]x I        (exact Jacobian of the gyroscopic term)
//! r' = r + dt v'                                  (position from the new velocity)
//! q' = q exp(dt w')                               (turned by the new body-frame rate)
//! ```
//!
//! The 6x6 system is block diagonal: the translation `(m E3 + dt R_lin) dv = dt (f - R_lin v)`
//! (per axis when `R_lin` is diagonal) and the rotation `(I + dt R_ang - dt/2 K) dw = dt (tau -
//! w x I w - R_ang w)`, whose matrix is **not symmetric** for unequal moments; it is solved by
//! the adjugate (Cramer's rule, one division) when its Hadamard ratio shows it well
//! conditioned, else by Gaussian elimination with partial pivoting
//! ([`solve3_adjugate`](super::solve3::solve3_adjugate)), no inverse. `I` may be any
//! symmetric positive definite tensor (not only principal axes). The start quaternion is
//! renormalized (one Newton step of `1/sqrt`) before the turn: `q' = (q (3 - |q|^2)/2)
//! exp(dt w')`, unit to a few EPS.
//!
//! # Options ([`MidpointSettings`], the seed's variant first and default)
//!
//! | option | variant | equation | order | stability |
//! |---|---|---|---|---|
//! | [`OrientationUpdate`] | `EndRate` (seed) | `q' = q exp(dt w')` | orientation 1 | held torsional spring: symplectic-Euler coupling |
//! | | `MeanRate` | `q' = q exp(dt (w + w')/2)` | orientation 2 | held undamped torsional spring grows at any `dt` |
//! | [`Resistance`] | `Implicit` (seed) | `M/dt + R - K/2` | velocity 1 if `R != 0` | L-stable |
//! | | `Trapezoidal` | `M/dt + R/2 - K/2`, same rhs `F - w x Iw - R V` | velocity 2 | A-stable, not L-stable |
//! | [`Invariants`] | `None` (seed) | - | energy, `\|L\|` order 2 | - |
//! | | `Project` | `w'` onto `w.Iw`, `\|Iw\|^2` levels (torque-free steps only) | unchanged | energy, `\|L\|` to rounding |
//!
//! Trapezoidal resistance: the resistance torque `-R w` taken at the mean `-R (w + w')/2`,
//! `(M/dt + R/2 - K/2) dV = F - w x Iw - R V`. Pure damping then gives
//! `v' = v (1 - a)/(1 + a)`, `a = c dt / (2m)`: for `c dt / m > 2` the velocity changes sign
//! every step (the price of not being L-stable).
//!
//! Measured orders (tests `rigid_midpoint_orders.rs`, body diag(1, 2, 3), `w0 = [0.1, 5, 0.1]`,
//! 4 s, dt 0.02 .. 0.00125, against an independent fine RK4): torque-free, `w` 2.00 for every
//! variant, orientation 1.17 (EndRate, pre-asymptotic; 1.00 damped) and 2.00 (MeanRate); with
//! angular resistance 0.5 and linear resistance 1.5 (mass 2): Implicit `w` 0.99 and `v` 1.00,
//! Trapezoidal 2.00 and 2.00, orientation 2.00 only with both MeanRate and Trapezoidal.
//! The position `r' = r + dt v'` is order 1 under forces (exact without them) in every variant.
//!
//! # What to keep small
//!
//! - `|w| dt < 0.5` rad (the seed's bound, MIME-ANO-129): beyond it the gyroscopic term is
//!   not resolved. The step reports [`StepStatus::StepTooLarge`](super::StepStatus) above
//!   [`StepSettings::max_rotation_per_step`] and sub-steps on request ([`StepSettings::substep`]).
//! - Held state-dependent loads (springs, dampers, PD controllers evaluated at the start of
//!   the step: every load but the resistance `R`). With `theta = dt omega`, `omega = sqrt(k/m)`
//!   (or `sqrt(k_t/I)`), `zeta = c/(2 m omega)`, the step is stable for (measured to 0.1 % in
//!   `rigid_held_loads.rs`, equal to the closed forms of the linear recurrences):
//!
//!   | coupling | stable for `theta <` |
//!   |---|---|
//!   | spring and damper held, translation or EndRate torsion | `2 (sqrt(1 + zeta^2) - zeta)` (2 undamped; 1.81 at `zeta` 0.1, 1.24 at 0.5) |
//!   | spring held, damper as `R`, `Implicit` | `2 (sqrt(1 + zeta^2) + zeta)` (3.24 at 0.5) |
//!   | spring held, damper as `R`, `Trapezoidal` | `2` |
//!   | torsional spring and damper held, `MeanRate` | `min(4 zeta, 1/zeta)`: **never stable undamped** |
//!
//!   Undamped and held, the end-rate coupling (symplectic Euler) keeps a modified energy: from
//!   rest, `E/E0` stays in `[1/(1 + theta/2), 1/(1 - theta/2)]` (+-10 % at `theta = 0.2`).
//!   The mean-rate update with a held undamped torsional spring multiplies the energy by
//!   `1 + theta^2/2` every step (this is the held-load energy growth that made MuJoCo withdraw
//!   its implicit midpoint): use `EndRate` for stiff held torsional springs, or damp them with
//!   `zeta > theta/4`. A spring at an offset point of a spinning body follows the same limit
//!   for its highest mode (`1/m_eff = 1/m + |p|^2/I`, measured within 0.2 %).
//!   Declare `omega_max` in [`StepSettings::load_frequency`]: the step then reports
//!   `StepTooLarge` when `theta > StepSettings::max_load_phase_per_step` (default 1.0, a
//!   factor 2 below the undamped limit, covering held dampers up to `zeta = 0.75`). Sub-stepping
//!   does not help a held load: call the step (and evaluate the load) more often.
//! - Piecewise-constant inputs (zero-order hold, not state-dependent) have no stability limit:
//!   the rate integrates a held torque exactly about a fixed axis, `MeanRate` the angle too,
//!   `EndRate` leads the exact angle by `dt^2 tau / (2 I)` per step; on a tumbling body the
//!   energy balance against the held torque's work converges with order 2.
//! - The resistance is backward Euler by default: any `dt` damps, pure damping gives exactly
//!   `v_{n+1} = v_n / (1 + c dt / m)`.
//!
//! Cost: no matrix is built beyond the 3x3 `A`; `K` and the solve are written out
//! (about 150 flops, no square root, no trigonometric function for `|w| dt < 2`); see
//! `docs/midpoint.md` for the measured cost of each option.

use super::invariant_projection::project_onto_levels;
use super::midpoint_options::{Invariants, OrientationUpdate, Resistance};
use super::rigid_driver::{advance_result_screened, renormalize_near_unit, ComState};
use super::solve3::{solve3, solve3_adjugate_inline};
use super::{RigidIntegrator, RigidLoads, StepInfo, StepSettings};
use crate::bodies::rigid_body::RigidBody;
use crate::nodes::rigid::RigidState;
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Settings of the midpoint step. `#[non_exhaustive]`: start from `default()` (the seed's
/// step: [`OrientationUpdate::EndRate`], [`Resistance::Implicit`], [`Invariants::None`]) and
/// use the `with_*` setters or assign the fields. Each option is a plain enum with
/// `from_u32`/`as_u32` for the C API ([`midpoint_options`](super::midpoint_options)).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MidpointSettings<T> {
    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    pub step: StepSettings<T>,
    /// How the orientation is turned (default: the seed's end rate).
    pub orientation: OrientationUpdate,
    /// How the resistance enters (default: the seed's backward Euler).
    pub resistance: Resistance,
    /// Whether the torque-free invariants are restored (default: no).
    pub invariants: Invariants,
    /// The levels `[w.Iw, |Iw|^2]` (J times 2, kg^2 m^4/s^2) [`Invariants::Project`] restores;
    /// `None` (default): those of the start of each step. Fixed levels (those of the initial
    /// state, [`MidpointSettings::with_projection_levels_of`]) also remove the rounding random
    /// walk of the start-of-step levels (about `EPS sqrt(steps)`, which in f32 exceeds the
    /// seed's own error after about 10^4 steps), but are right only for a body that stays
    /// torque-free for the whole run: after a torque they would pull the rate back to the old
    /// levels. Both entries finite and > 0, else the step returns `OutOfRange(Setting)`.
    pub projection_levels: Option<[T; 2]>,
}

impl<T: Real> Default for MidpointSettings<T> {
    fn default() -> Self {
        Self {
            step: StepSettings::default(),
            orientation: OrientationUpdate::default(),
            resistance: Resistance::default(),
            invariants: Invariants::default(),
            projection_levels: None,
        }
    }
}

impl<T: Real> MidpointSettings<T> {
    /// Sets [`MidpointSettings::step`].
    pub fn with_step(mut self, step: StepSettings<T>) -> Self {
        self.step = step;
        self
    }

    /// Sets [`MidpointSettings::orientation`].
    pub fn with_orientation(mut self, o: OrientationUpdate) -> Self {
        self.orientation = o;
        self
    }

    /// Sets [`MidpointSettings::resistance`].
    pub fn with_resistance(mut self, r: Resistance) -> Self {
        self.resistance = r;
        self
    }

    /// Sets [`MidpointSettings::invariants`].
    pub fn with_invariants(mut self, i: Invariants) -> Self {
        self.invariants = i;
        self
    }

    /// Sets [`MidpointSettings::projection_levels`] to `[w.Iw, |Iw|^2]` of `state` (its
    /// body-frame rate and the body's inertia about the COM).
    pub fn with_projection_levels_of(mut self, body: &RigidBody<T>, state: &RigidState<T>) -> Self {
        let w = &state.angular_velocity;
        let l = body.inertia() * w;
        self.projection_levels = Some([w.dot(&l), l.dot(&l)]);
        self
    }

    /// `OutOfRange(Setting)` unless the projection levels (if set) are finite and > 0; the
    /// shared [`StepSettings::validate`].
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
    pub fn validate(&self) -> Result<()> {
        self.step.validate()?;
        if let Some(l) = self.projection_levels {
            if !(l[0] > T::zero() && l[1] > T::zero() && l[0].finite() && l[1].finite()) {
                return Err(Error::OutOfRange(Param::Setting));
            }
        }
        Ok(())
    }

    /// The second-order variant: [`OrientationUpdate::MeanRate`] and
    /// [`Resistance::Trapezoidal`] (read their stability notes), no projection.
    pub fn second_order() -> Self {
        Self::default()
            .with_orientation(OrientationUpdate::MeanRate)
            .with_resistance(Resistance::Trapezoidal)
    }
}

/// The seed 004 linearly implicit midpoint step and its options (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearlyImplicitMidpoint<T> {
    /// The step's settings.
    pub settings: MidpointSettings<T>,
}

impl<T: Real> Default for LinearlyImplicitMidpoint<T> {
    fn default() -> Self {
        Self {
            settings: MidpointSettings::default(),
        }
    }
}

impl<T: Real> LinearlyImplicitMidpoint<T> {
    /// The seed's step with default settings (`|w| dt` bound 0.5 rad, no sub-stepping).
    pub fn new() -> Self {
        Self::default()
    }

    /// The step with `settings`.
    pub fn with_settings(settings: MidpointSettings<T>) -> Self {
        Self { settings }
    }

    /// The step with the shared step settings `step` (other options at their defaults).
    pub fn with_step_settings(step: StepSettings<T>) -> Self {
        Self {
            settings: MidpointSettings::default().with_step(step),
        }
    }
}

impl<T: Real> RigidIntegrator<T> for LinearlyImplicitMidpoint<T> {
    fn step(
        &self,
        body: &RigidBody<T>,
        loads: &RigidLoads<T>,
        state: &mut RigidState<T>,
        dt: T,
    ) -> Result<StepInfo> {
        let o = &self.settings;
        o.validate()?;
        advance_result_screened(
            body,
            loads,
            &o.step,
            state,
            dt,
            #[inline(always)]
            |s, h| midpoint_substep_with(body, loads, o, s, h),
        )
    }
}

/// The seed's rotation matrix `A = I + h R_ang - h/2 K`, `K = [I w]x - [w]x I`, and right-hand
/// side `h (tau - w x I w - R_ang w)` of the rotational part (body frame): [`rotation_system_weighted`]
/// with `theta = 1`.
#[inline]
pub fn rotation_system<T: Real>(
    inertia: &Matrix3<T>,
    angular_resistance: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
) -> (Matrix3<T>, Vector3<T>) {
    rotation_system_weighted(inertia, angular_resistance, torque, w, h, T::one())
}

/// `A = I + theta h R_ang - h/2 K` and `h (tau - w x I w - R_ang w)`, written out: `theta = 1`
/// is backward Euler in the resistance (seed), `theta = 1/2` trapezoidal. With `R_ang = 0`
/// (a bit test of its entries) it is [`rotation_system_free`], which gives the same bits
/// (`x + h 0 = x`, `x - 0 = x`) without the 18 multiply-adds of the resistance.
#[inline]
pub fn rotation_system_weighted<T: Real>(
    inertia: &Matrix3<T>,
    angular_resistance: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
    theta: T,
) -> (Matrix3<T>, Vector3<T>) {
    if crate::real::all_zero(angular_resistance) {
        rotation_system_free(inertia, torque, w, h)
    } else {
        rotation_system_resisted(inertia, angular_resistance, torque, w, h, theta)
    }
}

/// `A = I - h/2 K` and `h (tau - w x I w)`: [`rotation_system_weighted`] without resistance.
/// For a principal-axes inertia (off-diagonal entries exactly zero, a bit test)
/// [`rotation_system_principal`] (Euler's form, the same up to rounding), else the general
/// formula: the resisted one with `R_ang = 0`, which gives its bits (`x + h 0 = x`,
/// `x - 0 = x`; one copy of the general formula in the step's code, not two).
#[inline(always)]
pub fn rotation_system_free<T: Real>(
    inertia: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
) -> (Matrix3<T>, Vector3<T>) {
    let i = inertia;
    let off = Vector3::new(i[(1, 0)], i[(2, 0)], i[(2, 1)]);
    let off_t = Vector3::new(i[(0, 1)], i[(0, 2)], i[(1, 2)]);
    if crate::real::all_zero(&off) && crate::real::all_zero(&off_t) {
        rotation_system_principal(&Vector3::new(i[(0, 0)], i[(1, 1)], i[(2, 2)]), torque, w, h)
    } else {
        rotation_system_resisted(inertia, &Matrix3::zeros(), torque, w, h, T::one())
    }
}

/// [`rotation_system_free`] for the principal inertia `I = diag(d)` (kg m^2, body frame),
/// written with Euler's differences `e = (d_z - d_y, d_x - d_z, d_y - d_x)` (kg m^2): the
/// gyroscopic torque is `w x I w = e * (w_y w_z, w_z w_x, w_x w_y)` (per component), and
/// `-K = [w]x I - [I w]x` has the entries `-K_ij = e_i w_k` (`i != j`, `k` the third index)
/// and a zero diagonal, so `A_ii = d_i`, `A_ij = (h/2) e_i w_k`. The same matrix and
/// right-hand side as the general formula up to rounding, in about half the operations.
#[inline(always)]
pub fn rotation_system_principal<T: Real>(
    d: &Vector3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
) -> (Matrix3<T>, Vector3<T>) {
    let e = Vector3::new(d.z - d.y, d.x - d.z, d.y - d.x);
    let gyro = Vector3::new(e.x * (w.y * w.z), e.y * (w.z * w.x), e.z * (w.x * w.y));
    let rhs = (torque - gyro) * h;
    let g = e * (h * T::c(0.5));
    let a = Matrix3::new(
        d.x,
        g.x * w.z,
        g.x * w.y,
        g.y * w.z,
        d.y,
        g.y * w.x,
        g.z * w.y,
        g.z * w.x,
        d.z,
    );
    (a, rhs)
}

/// `[I w]x e_j`, the column `j` of `[I w]x`.
#[inline(always)]
fn iw_cross_e<T: Real>(iw: &Vector3<T>, j: usize) -> Vector3<T> {
    match j {
        0 => Vector3::new(T::zero(), iw.z, -iw.y),
        1 => Vector3::new(-iw.z, T::zero(), iw.x),
        _ => Vector3::new(iw.y, -iw.x, T::zero()),
    }
}

/// The general path of [`rotation_system_weighted`] (any `R_ang`).
#[inline(always)]
fn rotation_system_resisted<T: Real>(
    inertia: &Matrix3<T>,
    angular_resistance: &Matrix3<T>,
    torque: &Vector3<T>,
    w: &Vector3<T>,
    h: T,
    theta: T,
) -> (Matrix3<T>, Vector3<T>) {
    let iw = inertia * w;
    let rhs = (torque - w.cross(&iw) - angular_resistance * w) * h;
    let hh = h * T::c(0.5);
    let hr = h * theta;
    // -K = [w]x I - [I w]x; column j of [w]x I is w x I e_j, column j of [Iw]x is Iw x e_j.
    let mut a = Matrix3::zeros();
    for j in 0..3 {
        let ic = inertia.column(j);
        let wxi = Vector3::new(
            w.y * ic[2] - w.z * ic[1],
            w.z * ic[0] - w.x * ic[2],
            w.x * ic[1] - w.y * ic[0],
        );
        let lx = iw_cross_e(&iw, j);
        let rc = angular_resistance.column(j);
        for i in 0..3 {
            a[(i, j)] = ic[i] + hr * rc[i] + hh * (wxi[i] - lx[i]);
        }
    }
    (a, rhs)
}

/// One seed midpoint step of length `h` of the COM state (the seed's equations, module docs):
/// [`midpoint_substep_with`] with the default options, which are constants here, so this
/// copy holds none of the other options' code (the projection alone is 1.7 KB of Cortex-M
/// flash).
#[inline]
pub fn midpoint_substep<T: Real>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    s: &ComState<T>,
    h: T,
) -> Result<ComState<T>> {
    substep(body, loads, &MidpointSettings::default(), s, h)
}

/// One midpoint step of length `h` of the COM state with the options of `o` (module docs).
#[inline]
pub fn midpoint_substep_with<T: Real>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    o: &MidpointSettings<T>,
    s: &ComState<T>,
    h: T,
) -> Result<ComState<T>> {
    substep(body, loads, o, s, h)
}

/// The code of [`midpoint_substep_with`], inlined into it and into [`midpoint_substep`].
#[inline(always)]
fn substep<T: Real>(
    body: &RigidBody<T>,
    loads: &RigidLoads<T>,
    o: &MidpointSettings<T>,
    s: &ComState<T>,
    h: T,
) -> Result<ComState<T>> {
    let theta = match o.resistance {
        Resistance::Implicit => T::one(),
        Resistance::Trapezoidal => T::c(0.5),
    };
    // Rotation (body frame).
    let inertia = body.inertia();
    let (a, rhs) = rotation_system_weighted(
        inertia,
        &loads.angular_resistance,
        &loads.torque,
        &s.w,
        h,
        theta,
    );
    let dw = solve3_adjugate_inline(&a, &rhs).ok_or(Error::SolverFailed)?;
    let mut w1 = s.w + dw;
    if o.invariants == Invariants::Project && torque_free(loads) {
        let [two_e, l2] = match o.projection_levels {
            Some(l) => l,
            None => {
                let l0 = inertia * s.w;
                [s.w.dot(&l0), l0.dot(&l0)]
            }
        };
        w1 = project_onto_levels(inertia, &w1, two_e, l2);
    }
    // Translation (world frame).
    let v1 = s.v
        + translation_increment_weighted(
            body.mass(),
            &loads.linear_resistance,
            &loads.force,
            &s.v,
            h,
            theta,
        )?;
    let r1 = s.r + v1 * h;
    let turn = match o.orientation {
        OrientationUpdate::EndRate => w1 * h,
        OrientationUpdate::MeanRate => (s.w + w1) * (h * T::c(0.5)),
    };
    // Renormalized before the turn, not after: the factor (3 - |q|^2)/2 depends only on the
    // start orientation, so it is ready long before the turn and the product is the last
    // operation of the step (18 cycles off its longest chain of dependent operations on a
    // host). `|q'|^2 - 1` is then the rounding of the product plus `|exp|^2 - 1`, a few EPS,
    // and the next step takes it out again: it does not accumulate.
    let q1 = renormalize_near_unit(&s.q).mul_exp_inline(&turn);
    Ok(ComState {
        r: r1,
        v: v1,
        q: q1,
        w: w1,
    })
}

/// `true` if the body torque and the angular resistance are exactly zero: the rotation is then
/// torque-free and keeps `w.Iw` and `|Iw|` (a force at the COM does not turn the body).
#[inline]
pub fn torque_free<T: Real>(loads: &RigidLoads<T>) -> bool {
    let z = T::zero();
    loads.torque.iter().all(|x| *x == z) && loads.angular_resistance.iter().all(|x| *x == z)
}

/// `dv` of `(m E3 + h R_lin) dv = h (f - R_lin v)`: [`translation_increment_weighted`] with
/// `theta = 1` (backward Euler in the resistance, the seed's).
#[inline]
pub fn translation_increment<T: Real>(
    mass: T,
    linear_resistance: &Matrix3<T>,
    force: &Vector3<T>,
    v: &Vector3<T>,
    h: T,
) -> Result<Vector3<T>> {
    translation_increment_weighted(mass, linear_resistance, force, v, h, T::one())
}

/// `dv` of `(m E3 + theta h R_lin) dv = h (f - R_lin v)` (`theta = 1` backward Euler in the
/// resistance, `1/2` trapezoidal): `dv = h f / m` when `R_lin = 0` (a bit test), per axis
/// when `R_lin` is diagonal, else by [`solve3`]. `SolverFailed` if `m + h R_ii`
/// (or the matrix) is singular.
#[inline]
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail these tests
pub fn translation_increment_weighted<T: Real>(
    mass: T,
    linear_resistance: &Matrix3<T>,
    force: &Vector3<T>,
    v: &Vector3<T>,
    h: T,
    theta: T,
) -> Result<Vector3<T>> {
    let r = linear_resistance;
    if crate::real::all_zero(r) {
        // The per-axis path below with R_lin = 0: same bits, same refusal of m = 0.
        if !(mass.abs_l() > T::zero()) {
            return Err(Error::SolverFailed);
        }
        return Ok((force * h) / mass);
    }
    let hr = h * theta;
    let z = T::zero();
    let diagonal = r[(0, 1)] == z
        && r[(0, 2)] == z
        && r[(1, 0)] == z
        && r[(1, 2)] == z
        && r[(2, 0)] == z
        && r[(2, 1)] == z;
    if diagonal {
        let mut dv = Vector3::zeros();
        for i in 0..3 {
            let d = mass + hr * r[(i, i)];
            if !(d.abs_l() > z) {
                return Err(Error::SolverFailed);
            }
            dv[i] = h * (force[i] - r[(i, i)] * v[i]) / d;
        }
        Ok(dv)
    } else {
        let a = Matrix3::identity() * mass + r * hr;
        solve3(&a, &((force - r * v) * h)).ok_or(Error::SolverFailed)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// K against central finite differences of the gyroscopic term g(w) = -w x I w
    /// (the matrix is A = I + h R - h/2 K, so K = (I - A) * 2/h with R = 0).
    #[test]
    fn k_is_the_exact_jacobian_of_the_gyroscopic_term() {
        let i = Matrix3::new(2.0, 0.3, -0.1, 0.3, 3.0, 0.2, -0.1, 0.2, 4.0);
        let w = Vector3::new(0.7, -1.3, 2.1);
        let h = 0.01;
        let (a, _) = rotation_system(&i, &Matrix3::zeros(), &Vector3::zeros(), &w, h);
        let k = (i - a) * (2.0 / h);
        let g = |w: Vector3<f64>| -w.cross(&(i * w));
        let eps = 1e-6;
        for j in 0..3 {
            let mut e = Vector3::zeros();
            e[j] = eps;
            let fd = (g(w + e) - g(w - e)) / (2.0 * eps);
            assert!((k.column(j) - fd).norm() < 1e-8, "column {j}");
        }
        // Not symmetric for a general body.
        assert!((k - k.transpose()).norm() > 1.0);
    }

    #[test]
    fn translation_with_full_resistance_matches_the_diagonal_path() {
        let f = Vector3::new(1.0, -2.0, 3.0);
        let v = Vector3::new(0.5, 0.2, -0.1);
        let d = Matrix3::from_diagonal(&Vector3::new(0.3, 0.4, 0.5));
        let a = translation_increment(2.0, &d, &f, &v, 0.1).unwrap();
        // Force the general (solve3) path with a negligible off-diagonal entry.
        let mut full = d;
        full[(0, 1)] = 1e-300;
        let b = translation_increment(2.0, &full, &f, &v, 0.1).unwrap();
        assert!((a - b).norm() < 1e-15);
        for i in 0..3 {
            let expect: f64 = 0.1 * (f[i] - d[(i, i)] * v[i]) / (2.0 + 0.1 * d[(i, i)]);
            assert!((a[i] - expect).abs() < 1e-16);
        }
    }

    /// The principal-axes path of the rotation system (Euler's form) agrees with the general
    /// formula to rounding for a diagonal inertia, the resisted formula with a zero `R_ang`
    /// (the general path of a non-principal inertia) agrees with the general formula to
    /// rounding, at several rates, steps and torques; an inertia with one tiny off-diagonal
    /// entry takes the general path. The general formula here is the matrix form
    /// `A = I - h/2 ([I w]x - [w]x I)`, `h (tau - w x I w)` ([`general_reference`]).
    #[test]
    fn rotation_fast_paths_agree_with_the_general_paths() {
        let d = Vector3::new(1.0, 2.5, 3.25);
        let inertia = Matrix3::from_diagonal(&d);
        let cases = [
            (Vector3::new(0.1, 5.0, 0.1), 1e-3, Vector3::zeros()),
            (
                Vector3::new(-0.7, 1.3, 2.1),
                0.02,
                Vector3::new(0.3, -0.2, 0.1),
            ),
            (
                Vector3::new(3.0, -0.01, 0.5),
                0.1,
                Vector3::new(-1.0, 0.0, 2.0),
            ),
        ];
        let close = |a: (Matrix3<f64>, Vector3<f64>), b: (Matrix3<f64>, Vector3<f64>)| {
            (a.0 - b.0).norm() <= 4.0 * f64::EPSILON * b.0.norm()
                && (a.1 - b.1).norm() <= 8.0 * f64::EPSILON * (b.1.norm() + 1e-300)
        };
        for (w, h, tau) in cases {
            let p = rotation_system_principal(&d, &tau, &w, h);
            let g = general_reference(&inertia, &tau, &w, h);
            assert!(close(p, g), "principal vs general at {w}: {p:?} {g:?}");
            let f = rotation_system_weighted(&inertia, &Matrix3::zeros(), &tau, &w, h, 1.0);
            assert_eq!(f, p);
            for theta in [1.0, 0.5] {
                let zero = Matrix3::zeros();
                let r = rotation_system_resisted(&inertia, &zero, &tau, &w, h, theta);
                assert!(
                    close(r, g),
                    "resisted with zero R vs general, theta {theta}"
                );
                // A tiny resistance takes the resisted path and changes nothing visible.
                let tiny = Matrix3::identity() * 1e-300;
                let t = rotation_system_weighted(&inertia, &tiny, &tau, &w, h, theta);
                assert_eq!(t, r);
            }
            // A tiny off-diagonal inertia entry: the general path, equal to rounding.
            let mut off = inertia;
            off[(0, 1)] = 1e-300;
            off[(1, 0)] = 1e-300;
            let zero = Matrix3::zeros();
            assert_eq!(
                rotation_system_free(&off, &tau, &w, h),
                rotation_system_resisted(&off, &zero, &tau, &w, h, 1.0)
            );
            assert!(close(rotation_system_free(&off, &tau, &w, h), g));
        }
        // -0 off-diagonal entries count as zero (the bit test drops the sign).
        let mut neg = inertia;
        neg[(2, 1)] = -0.0;
        let w = Vector3::new(0.2, -0.4, 0.9);
        assert_eq!(
            rotation_system_free(&neg, &Vector3::zeros(), &w, 0.01),
            rotation_system_principal(&d, &Vector3::zeros(), &w, 0.01)
        );
    }

    /// The seed's rotation system without resistance in matrix form, an independent
    /// reference: `A = I - h/2 K`, `K = [I w]x - [w]x I`, right-hand side `h (tau - w x I w)`.
    fn general_reference(
        inertia: &Matrix3<f64>,
        tau: &Vector3<f64>,
        w: &Vector3<f64>,
        h: f64,
    ) -> (Matrix3<f64>, Vector3<f64>) {
        use crate::math::skew;
        let iw = inertia * w;
        let k = skew(&iw) - skew(w) * inertia;
        (inertia - k * (h / 2.0), (tau - w.cross(&iw)) * h)
    }

    /// Without linear resistance the translation is `h f / m` exactly (the per-axis path's
    /// bits, compared with a tiny diagonal resistance and the closed form), and a zero mass
    /// is still a solver failure.
    #[test]
    fn translation_without_resistance_is_h_f_over_m() {
        let f = Vector3::new(1.0, -2.0, 3.0);
        let v = Vector3::new(0.5, 0.2, -0.1);
        for (m, h) in [(2.0, 0.1), (0.3, 1e-3), (7.5, 0.02)] {
            let a = translation_increment(m, &Matrix3::zeros(), &f, &v, h).unwrap();
            assert_eq!(a, f * h / m);
            let tiny = Matrix3::identity() * 1e-300;
            let b = translation_increment(m, &tiny, &f, &v, h).unwrap();
            assert_eq!(a, b);
            let c = translation_increment_weighted(m, &Matrix3::zeros(), &f, &v, h, 0.5).unwrap();
            assert_eq!(a, c);
        }
        assert_eq!(
            translation_increment(0.0, &Matrix3::zeros(), &f, &v, 0.1),
            Err(Error::SolverFailed)
        );
    }
}
