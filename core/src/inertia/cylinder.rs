//! [`Cylinder`]: the mass properties of Modelica's `BodyCylinder` (Modelica Standard Library `Modelica.Mechanics.MultiBody.Parts.BodyCylinder`), from its
//! full parameter list, every derived value as Modelica's parameter table defines it.
//!
//! | parameter | default |
//! |---|---|
//! | `r` (m, frame_a) | required: vector from frame_a to frame_b |
//! | `r_shape` (m, frame_a) | `{0,0,0}`: vector from frame_a to the cylinder origin |
//! | `length_direction` (-, frame_a) | `to_unit1(r - r_shape)` |
//! | `length` (m) | `|r - r_shape|` |
//! | `diameter` (m) | `length / width_fraction` |
//! | `width_fraction` (-) | `world.defaultWidthFraction = 20` |
//! | `inner_diameter` (m) | `0` |
//! | `density` (kg/m^3) | `7700` (steel) |
//!
//! Derived (Modelica's parameter table): `radius = diameter/2`, `innerRadius = innerDiameter/2`,
//! `mo = density pi length radius^2`, `mi = density pi length innerRadius^2`, `m = mo - mi`,
//! `I22 = (mo (length^2 + 3 radius^2) - mi (length^2 + 3 innerRadius^2))/12`,
//! `R = from_nxy(r, {0,1,0})`, `r_CM = r_shape + normalizeWithAssert(lengthDirection) length/2`,
//! `I = resolveDyade1(R, diag((mo radius^2 - mi innerRadius^2)/2, I22, I22))`.
//!
//! `m`, `I11` and `I22` are evaluated in the algebraically identical, cancellation-free forms
//! `m = density pi length (radius - innerRadius)(radius + innerRadius)`,
//! `I11 = m (radius^2 + innerRadius^2)/2`, `I22 = m (length^2 + 3 (radius^2 + innerRadius^2))/12`,
//! so a thin-walled tube keeps full relative precision (Modelica's `mo - mi` loses
//! `log10(r^2/(r^2 - ri^2))` digits). `mo` and `mi` are reported as the table defines them.
//!
//! **Modelica's quirk, kept on purpose:** `R` is built from `r`, not from `lengthDirection`
//! (nor from `r - r_shape`). The inertia's symmetry axis is along `r` (along frame_a's x axis
//! if `|r| < 1e-10`), while `r_CM` lies along `lengthDirection`. When the two directions differ,
//! the result is what Modelica computes, not a cylinder whose axis is `lengthDirection`.

use super::mass_properties::symmetrize;
use super::MassProperties;
use crate::finite::all_finite;
use crate::frames::{from_nxy, length as vlength, normalize_with_assert, resolve_dyade1, to_unit1};
use crate::{Error, Param, Real, Result};
use nalgebra::{Matrix3, Vector3};

/// Modelica's `world.defaultWidthFraction` (-): the default diameter is `length / 20`.
pub const DEFAULT_WIDTH_FRACTION: f64 = 20.0;

/// `BodyCylinder`'s default density (kg/m^3), steel.
pub const DEFAULT_DENSITY: f64 = 7700.0;

/// The parameters of a Modelica `BodyCylinder`, with Modelica's defaults; see the module docs.
///
/// Build with [`Cylinder::new`] and override any parameter with its setter; defaults that derive
/// from other parameters (`length_direction`, `length`, `diameter`) follow the values set, in
/// any order. Nothing is checked until [`Cylinder::derived`] / [`Cylinder::mass_properties`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<T> {
    r: Vector3<T>,
    r_shape: Vector3<T>,
    length_direction: Option<Vector3<T>>,
    length: Option<T>,
    diameter: Option<T>,
    inner_diameter: T,
    density: T,
    width_fraction: T,
}

/// Every derived value of Modelica's parameter table (and the resolved defaults), SI units, frame_a.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CylinderDerived<T> {
    /// `lengthDirection` (-, frame_a) as given or defaulted, not normalized.
    pub length_direction: Vector3<T>,
    /// `length` (m).
    pub length: T,
    /// `diameter` (m).
    pub diameter: T,
    /// `innerDiameter` (m).
    pub inner_diameter: T,
    /// `density` (kg/m^3).
    pub density: T,
    /// `radius = diameter/2` (m).
    pub radius: T,
    /// `innerRadius = innerDiameter/2` (m).
    pub inner_radius: T,
    /// `mo = density pi length radius^2` (kg): mass of the cylinder without hole.
    pub mo: T,
    /// `mi = density pi length innerRadius^2` (kg): mass of the hole.
    pub mi: T,
    /// `I11 = (mo radius^2 - mi innerRadius^2)/2` (kg m^2): inertia about the cylinder axis
    /// through the centre of mass.
    pub i11: T,
    /// `I22 = (mo (length^2 + 3 radius^2) - mi (length^2 + 3 innerRadius^2))/12` (kg m^2):
    /// inertia about an axis through the centre of mass perpendicular to the cylinder axis.
    pub i22: T,
    /// `m = mo - mi` (kg).
    pub m: T,
    /// `R = from_nxy(r, {0,1,0})`: Modelica's orientation `T` from frame_a to the cylinder
    /// frame (x along `r`), `v_cyl = R v_a`.
    pub orientation: Matrix3<T>,
    /// `r_CM = r_shape + normalizeWithAssert(lengthDirection) length/2` (m, frame_a).
    pub r_cm: Vector3<T>,
    /// `I = resolveDyade1(R, diag(I11, I22, I22)) = R^T diag(I11, I22, I22) R` (kg m^2, about
    /// the centre of mass, frame_a), symmetrized exactly (`(I + I^T)/2`, a rounding-level change).
    pub inertia: Matrix3<T>,
}

impl<T: Real> Cylinder<T> {
    /// A cylinder from frame_a to frame_b at `r` (m, frame_a), every other parameter at
    /// Modelica's default.
    pub fn new(r: Vector3<T>) -> Self {
        Self {
            r,
            r_shape: Vector3::zeros(),
            length_direction: None,
            length: None,
            diameter: None,
            inner_diameter: T::zero(),
            density: T::c(DEFAULT_DENSITY),
            width_fraction: T::c(DEFAULT_WIDTH_FRACTION),
        }
    }

    /// Sets `r` (m, frame_a): vector from frame_a to frame_b.
    pub fn r(mut self, r: Vector3<T>) -> Self {
        self.r = r;
        self
    }

    /// Sets `r_shape` (m, frame_a): vector from frame_a to the cylinder origin (default 0).
    pub fn r_shape(mut self, r_shape: Vector3<T>) -> Self {
        self.r_shape = r_shape;
        self
    }

    /// Sets `lengthDirection` (-, frame_a, any non-zero length; default `r - r_shape`).
    pub fn length_direction(mut self, d: Vector3<T>) -> Self {
        self.length_direction = Some(d);
        self
    }

    /// Sets `length` (m, default `|r - r_shape|`).
    pub fn length(mut self, length: T) -> Self {
        self.length = Some(length);
        self
    }

    /// Sets `diameter` (m, default `length / width_fraction`).
    pub fn diameter(mut self, diameter: T) -> Self {
        self.diameter = Some(diameter);
        self
    }

    /// Sets `innerDiameter` (m, default 0: solid).
    pub fn inner_diameter(mut self, inner_diameter: T) -> Self {
        self.inner_diameter = inner_diameter;
        self
    }

    /// Sets `density` (kg/m^3, default 7700).
    pub fn density(mut self, density: T) -> Self {
        self.density = density;
        self
    }

    /// Sets the width fraction (-, Modelica's `world.defaultWidthFraction`, default 20) from
    /// which the default diameter `length / width_fraction` derives.
    pub fn width_fraction(mut self, width_fraction: T) -> Self {
        self.width_fraction = width_fraction;
        self
    }

    /// Validates the parameters and computes every derived value (see the module docs).
    ///
    /// Checks, in this order (the first failure is returned):
    /// - `NotFinite(R | RShape | Direction | Length | Diameter | InnerDiameter | Density | Ratio)`
    ///   for a NaN or infinite parameter (also `NotFinite(R)` if `r - r_shape` overflows);
    /// - `ZeroLength(Direction)` if `lengthDirection` is zero, explicit or defaulted from
    ///   `r == r_shape` (Modelica's `normalizeWithAssert`);
    /// - `OutOfRange(Length)` for a negative length, `ZeroLength(Length)` for zero;
    /// - `OutOfRange(Ratio)` for a width fraction `<= 0`;
    /// - `OutOfRange(Diameter | InnerDiameter | Density)` for a negative value;
    /// - `InnerDiameterNotBelowDiameter` unless `innerDiameter < diameter` (Modelica's strict
    ///   assert). With the default inner diameter 0 this also refuses `diameter = 0`: a
    ///   zero-diameter cylinder has no mass, as Modelica refuses it too (model a thin rod
    ///   with a small diameter, or a point mass);
    /// - `NotFinite(Mass | CenterOfMass | Inertia)` if a result overflows.
    ///
    /// A zero density is accepted (a massless cylinder: `m = 0`, `I = 0`).
    pub fn derived(&self) -> Result<CylinderDerived<T>> {
        let fin = |ok: bool, p: Param| if ok { Ok(()) } else { Err(Error::NotFinite(p)) };
        fin(all_finite(&self.r), Param::R)?;
        fin(all_finite(&self.r_shape), Param::RShape)?;
        if let Some(d) = &self.length_direction {
            fin(all_finite(d), Param::Direction)?;
        }
        if let Some(l) = self.length {
            fin(l.finite(), Param::Length)?;
        }
        if let Some(d) = self.diameter {
            fin(d.finite(), Param::Diameter)?;
        }
        fin(self.inner_diameter.finite(), Param::InnerDiameter)?;
        fin(self.density.finite(), Param::Density)?;
        fin(self.width_fraction.finite(), Param::Ratio)?;

        let d_ab = self.r - self.r_shape;
        fin(all_finite(&d_ab), Param::R)?;
        let length_direction = self.length_direction.unwrap_or_else(|| to_unit1(&d_ab));
        let axis = normalize_with_assert(&length_direction)?;
        let length = self.length.unwrap_or_else(|| vlength(&d_ab));
        if length < T::zero() {
            return Err(Error::OutOfRange(Param::Length));
        }
        if length == T::zero() {
            return Err(Error::ZeroLength(Param::Length));
        }
        if self.width_fraction <= T::zero() {
            return Err(Error::OutOfRange(Param::Ratio));
        }
        let diameter = self.diameter.unwrap_or(length / self.width_fraction);
        if diameter < T::zero() {
            return Err(Error::OutOfRange(Param::Diameter));
        }
        let inner_diameter = self.inner_diameter;
        if inner_diameter < T::zero() {
            return Err(Error::OutOfRange(Param::InnerDiameter));
        }
        if self.density < T::zero() {
            return Err(Error::OutOfRange(Param::Density));
        }
        if inner_diameter >= diameter {
            return Err(Error::InnerDiameterNotBelowDiameter);
        }

        let density = self.density;
        let half = T::c(0.5);
        let radius = diameter * half;
        let inner_radius = inner_diameter * half;
        let rho_pi_l = density * T::pi() * length;
        let mo = rho_pi_l * radius * radius;
        let mi = rho_pi_l * inner_radius * inner_radius;
        let m = rho_pi_l * (radius - inner_radius) * (radius + inner_radius);
        let rr = radius * radius + inner_radius * inner_radius;
        let i11 = m * rr * half;
        let i22 = m * (length * length + T::c(3.0) * rr) / T::c(12.0);
        let orientation = from_nxy(&self.r, &Vector3::y());
        let r_cm = self.r_shape + axis * (length * half);
        let inertia = symmetrize(&resolve_dyade1(
            &orientation,
            &Matrix3::from_diagonal(&Vector3::new(i11, i22, i22)),
        ));
        fin(m.finite() && mo.finite(), Param::Mass)?;
        fin(all_finite(&r_cm), Param::CenterOfMass)?;
        fin(i22.finite() && all_finite(&inertia), Param::Inertia)?;
        Ok(CylinderDerived {
            length_direction,
            length,
            diameter,
            inner_diameter,
            density,
            radius,
            inner_radius,
            mo,
            mi,
            i11,
            i22,
            m,
            orientation,
            r_cm,
            inertia,
        })
    }

    /// `MassProperties { mass: m, com: r_CM, inertia: I }` (kg, m, kg m^2; frame_a), after the
    /// checks of [`Cylinder::derived`].
    pub fn mass_properties(&self) -> Result<MassProperties<T>> {
        let d = self.derived()?;
        Ok(MassProperties {
            mass: d.m,
            com: d.r_cm,
            inertia: d.inertia,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_modelica() -> Result<()> {
        let d = Cylinder::new(Vector3::new(0.0, 0.0, 2.0f64)).derived()?;
        assert_eq!(d.length, 2.0);
        assert_eq!(d.diameter, 0.1);
        assert_eq!(d.density, 7700.0);
        assert_eq!(d.inner_diameter, 0.0);
        assert_eq!(d.r_cm, Vector3::new(0.0, 0.0, 1.0));
        let m = 7700.0 * core::f64::consts::PI * 2.0 * 0.05 * 0.05;
        assert!((d.m - m).abs() < 1e-12 * m);
        Ok(())
    }
}
