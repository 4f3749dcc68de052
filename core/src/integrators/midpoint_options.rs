//! The options of the midpoint step ([`MidpointSettings`](super::midpoint::MidpointSettings)),
//! one plain enum each, the seed 004 variant first and the default.
//!
//! Each enum converts from and to a `u32` for the C API ([`OrientationUpdate::from_u32`] etc.
//! return `OutOfRange(Setting)` for an unknown value; the numbers are part of the ABI and never
//! change meaning). Orders are those measured on the torque-free body diag(1, 2, 3),
//! `w0 = [0.1, 5, 0.1]`, and on damped bodies (tests `rigid_midpoint_options.rs`).

use crate::{Error, Param, Result};

/// How the orientation is turned over a step (`q` = `R_0b`, `w` body-frame rate, rad/s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum OrientationUpdate {
    /// Seed 004: `q' = q exp(dt w')`, the new rate. Orientation order 1 (the pose lags by
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
    /// outweighs the growth; see the module docs of [`midpoint`](super::midpoint).
    MeanRate = 1,
}

/// How the resistance `R` (linear `N s/m`, angular `N m s`) enters the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Resistance {
    /// Seed 004: backward Euler, `(M/dt + R - K/2) dV = F - w x Iw - R V`. Velocity order 1
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
    /// Seed 004: no correction (energy and `|L|` kept to second order in `dt`).
    #[default]
    None = 0,
    /// When the body torque and the angular resistance are exactly zero in the step (a force at
    /// the COM and a linear resistance do not matter), the new body-frame rate `w'` is moved by
    /// 2 or 3 Newton steps on two Lagrange multipliers
    /// ([`invariant_projection`](super::invariant_projection)) onto the levels of the kinetic
    /// energy `w.Iw/2` and of `|L|^2 = |Iw|^2`: those of the start of the step, or the fixed
    /// levels of [`MidpointSettings::projection_levels`](super::midpoint::MidpointSettings::projection_levels).
    /// Preserved exactly (to rounding): the energy and `|L|`. Not corrected: the direction of
    /// the world-frame `L` and the orientation. Measured over 500,000 steps (dt = 1e-3,
    /// diag(1, 2, 3), `w0 = [0.1, 5, 0.1]`): start-of-step levels 1.5e-13 (energy) and 6e-14
    /// (`|L|`), a rounding random walk; fixed levels 9e-16 and 4e-16; the seed 2e-6 and 1e-6.
    /// In f32 the start-of-step random walk (1.3e-5 after 10^4 steps) exceeds the seed's error
    /// (6e-6): use fixed levels there (4e-7). Orders are unchanged (projecting onto invariants
    /// of the exact flow keeps the order). With a non-zero torque or angular resistance the
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
        // The defaults are the seed's variants, code 0.
        assert_eq!(OrientationUpdate::default(), OrientationUpdate::EndRate);
        assert_eq!(Resistance::default(), Resistance::Implicit);
        assert_eq!(Invariants::default(), Invariants::None);
    }
}
