//! [`MassSpec`]: a solid's mass given directly or through its density.

use crate::{Error, Param, Real, Result};

/// How a solid's mass is given.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MassSpec<T> {
    /// Uniform density (kg/m^3): `m = density * volume`.
    Density(T),
    /// Total mass (kg), uniformly distributed over the volume.
    Mass(T),
}

impl<T: Real> MassSpec<T> {
    /// The mass (kg) of a solid of `volume` (m^3, finite, `>= 0`).
    /// `NotFinite(Density | Mass)` or `OutOfRange(Density | Mass)` for a non-finite or
    /// negative value; `NotFinite(Mass)` if `density * volume` overflows.
    pub fn mass(&self, volume: T) -> Result<T> {
        let (v, p) = match *self {
            MassSpec::Density(rho) => (rho, Param::Density),
            MassSpec::Mass(m) => (m, Param::Mass),
        };
        if !v.finite() {
            return Err(Error::NotFinite(p));
        }
        if v < T::zero() {
            return Err(Error::OutOfRange(p));
        }
        let m = match *self {
            MassSpec::Density(rho) => rho * volume,
            MassSpec::Mass(m) => m,
        };
        if m.finite() {
            Ok(m)
        } else {
            Err(Error::NotFinite(Param::Mass))
        }
    }
}
