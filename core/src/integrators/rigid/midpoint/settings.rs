//! The settings of the midpoint step ([`MidpointSettings`]) and its options, one plain enum
//! each, the default first.
//!
//! Each enum converts from and to a `u32` for the C API ([`OrientationUpdate::from_u32`] etc.
//! return `OutOfRange(Setting)` for an unknown value; the numbers are part of the ABI and never
//! change meaning). The orders stated are those of the tests `rigid_midpoint_orders.rs`;
//! `docs/midpoint.md` has the measurements.

use super::super::StepSettings;
use crate::bodies::rigid_body::RigidBody;
use crate::state::RigidState;
use crate::{Error, Param, Real, Result};

/// How the orientation is turned over a step (`q` = `R_0b`, `w` body-frame rate, rad/s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum OrientationUpdate {
    /// Default: `q' = q exp(dt w')`, the new rate. Orientation order 1 (the pose lags by
    /// `dt/2 (w' - w)` per step). With a held orientation-dependent torque (a torsional spring
    /// or a PD controller evaluated at the start of the step) it is the symplectic-Euler
    /// coupling: bounded energy for `dt omega < 2` (undamped).
    #[default]
    EndRate = 0,
    /// `q' = q exp(dt (w + w')/2)`, the mean rate. Orientation order 2; exact for a torque held
    /// over the step about a fixed axis (zero-order hold). But with a held *undamped*
    /// orientation-dependent torque the coupling is unstable for every `dt`: the amplitude
    /// grows by `sqrt(1 + (dt omega)^2 / 2)` per step (the held load MuJoCo's implicit
    /// midpoint suffered from). A held damper with ratio `zeta > dt omega / 4` (about)
    /// outweighs the growth; see [`midpoint`](super).
    MeanRate = 1,
}

/// How the resistance `R` (linear `N s/m`, angular `N m s`) enters the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Resistance {
    /// Default: backward Euler, `(M/dt + R - K/2) dV = F - w x Iw - R V`. Velocity order 1
    /// when `R != 0`; L-stable: any `dt` damps, and `dt -> inf` takes the velocity to zero
    /// (pure damping `v' = v / (1 + c dt / m)` exactly).
    #[default]
    Implicit = 0,
    /// Trapezoidal: `-R (V + V')/2`, i.e. `(M/dt + R/2 - K/2) dV = F - w x Iw - R V`. Velocity
    /// order 2; A-stable but not L-stable: pure damping `v' = v (1 - a)/(1 + a)`,
    /// `a = c dt / (2 m)`, which for `a > 1` flips the sign of `v` every step (decaying only
    /// slowly as `a` grows). Keep `c dt / m` below about 2 (no sign flips) for smooth results.
    Trapezoidal = 1,
}

/// Whether the step restores the invariants of the torque-free rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Invariants {
    /// Default: no correction (energy and `|L|` kept to second order in `dt`).
    #[default]
    None = 0,
    /// When the body torque and the angular resistance are exactly zero in the step (a force at
    /// the COM and a linear resistance do not matter), the new body-frame rate `w'` is moved by
    /// 2 or 3 Newton steps on two Lagrange multipliers
    /// ([`projection`](super::projection)) onto the levels of the kinetic energy `w.Iw/2` and
    /// of `|L|^2 = |Iw|^2`: those of the start of the step, or the fixed levels of
    /// [`MidpointSettings::projection_levels`]. Preserved to rounding: the energy and `|L|`
    /// (start-of-step levels drift as a rounding random walk, `EPS sqrt(steps)`; in f32 use
    /// fixed levels). Not corrected: the direction of the world-frame `L` and the orientation.
    /// Orders are unchanged (projecting onto invariants of the exact flow keeps the order). With a non-zero torque or angular resistance the
    /// step is the unprojected one, bit for bit.
    Project = 1,
}

macro_rules! u32_codes {
    ($t:ident { $($v:ident = $n:literal),+ $(,)? }) => {
        impl $t {
            /// The option of C value `v`; `OutOfRange(Setting)` for an unknown value.
            pub fn from_u32(v: u32) -> Result<Self> {
                match v {
                    $($n => Ok(Self::$v),)+
                    _ => Err(Error::OutOfRange(Param::Setting)),
                }
            }

            /// The C value of the option (the inverse of `from_u32`).
            pub fn as_u32(self) -> u32 {
                match self {
                    $(Self::$v => $n,)+
                }
            }
        }
    };
}

u32_codes!(OrientationUpdate {
    EndRate = 0,
    MeanRate = 1
});
u32_codes!(Resistance {
    Implicit = 0,
    Trapezoidal = 1
});
u32_codes!(Invariants {
    None = 0,
    Project = 1
});

/// Settings of the midpoint step. `#[non_exhaustive]`: start from `default()` (the step as
/// the module docs state it: [`OrientationUpdate::EndRate`], [`Resistance::Implicit`],
/// [`Invariants::None`]) and use the `with_*` setters or assign the fields. Each option is a
/// plain enum with `from_u32`/`as_u32` for the C API.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MidpointSettings<T> {
    /// Rotation-per-step bound, load-frequency bound and sub-stepping.
    pub step: StepSettings<T>,
    /// How the orientation is turned (default: the end rate).
    pub orientation: OrientationUpdate,
    /// How the resistance enters (default: backward Euler).
    pub resistance: Resistance,
    /// Whether the torque-free invariants are restored (default: no).
    pub invariants: Invariants,
    /// The levels `[w.Iw, |Iw|^2]` (J times 2, kg^2 m^4/s^2) [`Invariants::Project`] restores;
    /// `None` (default): those of the start of each step. Fixed levels (those of the initial
    /// state, [`MidpointSettings::with_projection_levels_of`]) also remove the rounding random
    /// walk of the start-of-step levels (about `EPS sqrt(steps)`, which in f32 soon exceeds the
    /// unprojected step's own error), but are right only for a body that stays
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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_unknown_values_are_refused() {
        for v in 0..2 {
            assert_eq!(OrientationUpdate::from_u32(v).unwrap().as_u32(), v);
            assert_eq!(Resistance::from_u32(v).unwrap().as_u32(), v);
            assert_eq!(Invariants::from_u32(v).unwrap().as_u32(), v);
        }
        // The discriminants are the C values.
        assert_eq!(OrientationUpdate::MeanRate as u32, 1);
        assert_eq!(Resistance::Trapezoidal as u32, 1);
        assert_eq!(Invariants::Project as u32, 1);
        let bad = Error::OutOfRange(Param::Setting);
        for v in [2, 3, u32::MAX] {
            assert_eq!(OrientationUpdate::from_u32(v), Err(bad));
            assert_eq!(Resistance::from_u32(v), Err(bad));
            assert_eq!(Invariants::from_u32(v), Err(bad));
        }
        // The defaults are code 0.
        assert_eq!(OrientationUpdate::default(), OrientationUpdate::EndRate);
        assert_eq!(Resistance::default(), Resistance::Implicit);
        assert_eq!(Invariants::default(), Invariants::None);
    }
}
