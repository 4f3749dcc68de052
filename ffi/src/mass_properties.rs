//! Mass properties from the C side: Modelica's `BodyCylinder` (with its defaults), box, sphere,
//! point mass, combination and the parallel-axis shift. All `double`, SI units, frame_a.
//! Every function also returns `MBS_ERR_NON_FINITE_STATE` if finite inputs overflow (a huge
//! density or extent): a success writes finite numbers only.

use crate::boundary::{finite, finite_result, guard, non_null, non_null_mut, FfiResult};
use crate::convert::{flag, mat3, mat3_to_rows, vec3, MbsFlag};
use crate::status::*;
use crate::status::{status_of, status_of_checked};
use mbs_core::inertia::{Cuboid, Cylinder, MassProperties, PointMass, Sphere};

/// Mass, centre of mass and inertia of a body, all resolved in one frame `a`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_mass_properties {
    /// Mass (kg).
    pub mass: f64,
    /// Centre of mass `r_CM` (m, frame_a).
    pub com: [f64; 3],
    /// Inertia tensor about the centre of mass (kg m^2, frame_a), row-major 3x3.
    pub inertia: [f64; 9],
}

/// Parameters of a Modelica Standard Library `Modelica.Mechanics.MultiBody.Parts.BodyCylinder`. Fill with
/// `mbs_cylinder_default`, then override fields. A `has_*` flag set to `false` means "use
/// Modelica's default", which derives from the other parameters.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_cylinder {
    /// `r`: vector from frame_a to frame_b (m, frame_a).
    pub r: [f64; 3],
    /// `r_shape`: vector from frame_a to the cylinder origin (m, frame_a). Default {0,0,0}.
    pub r_shape: [f64; 3],
    /// `lengthDirection` (-, frame_a), used when `has_length_direction`; default `r - r_shape`.
    pub length_direction: [f64; 3],
    /// Use `length_direction` instead of the default.
    pub has_length_direction: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 7],
    /// `length` (m), used when `has_length`; default `|r - r_shape|`.
    pub length: f64,
    /// Use `length` instead of the default.
    pub has_length: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad1: [u8; 7],
    /// `diameter` (m), used when `has_diameter`; default `length / width_fraction`.
    pub diameter: f64,
    /// Use `diameter` instead of the default.
    pub has_diameter: MbsFlag,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad2: [u8; 7],
    /// `innerDiameter` (m); 0 (solid) by default; must be below `diameter`.
    pub inner_diameter: f64,
    /// `density` (kg/m^3); 7700 (steel) by default.
    pub density: f64,
    /// `world.defaultWidthFraction` (-); 20 by default.
    pub width_fraction: f64,
}

/// Every derived value of Modelica's `BodyCylinder` parameter table, SI units, frame_a.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_cylinder_derived {
    /// Resolved `lengthDirection` (-, frame_a), not normalized.
    pub length_direction: [f64; 3],
    /// `length` (m).
    pub length: f64,
    /// `diameter` (m).
    pub diameter: f64,
    /// `innerDiameter` (m).
    pub inner_diameter: f64,
    /// `radius` (m).
    pub radius: f64,
    /// `innerRadius` (m).
    pub inner_radius: f64,
    /// `mo`: mass without hole (kg).
    pub mo: f64,
    /// `mi`: mass of the hole (kg).
    pub mi: f64,
    /// `(mo radius^2 - mi innerRadius^2)/2`: inertia about the cylinder axis (kg m^2).
    pub i11: f64,
    /// `I22`: inertia about a perpendicular axis through the centre of mass (kg m^2).
    pub i22: f64,
    /// `m = mo - mi` (kg).
    pub m: f64,
    /// `R = from_nxy(r, {0,1,0})`: Modelica orientation `T` of the cylinder frame, row-major.
    pub orientation: [f64; 9],
    /// `r_CM` (m, frame_a).
    pub r_cm: [f64; 3],
    /// `I = resolveDyade1(R, diag(I11, I22, I22))` (kg m^2, about the centre of mass, frame_a), row-major.
    pub inertia: [f64; 9],
}

/// The C value of core mass properties, or `MBS_ERR_NON_FINITE_STATE` if finite inputs
/// overflowed (a huge density or extent).
fn to_c(mp: &MassProperties<f64>) -> FfiResult<mbs_mass_properties> {
    let c = mbs_mass_properties {
        mass: mp.mass,
        com: mp.com.into(),
        inertia: mat3_to_rows(&mp.inertia),
    };
    finite_result(&[c.mass])?;
    finite_result(&c.com)?;
    finite_result(&c.inertia)?;
    Ok(c)
}

fn from_c(mp: &mbs_mass_properties) -> FfiResult<MassProperties<f64>> {
    MassProperties::new(finite(mp.mass)?, vec3(&mp.com)?, mat3(&mp.inertia)?).map_err(status_of)
}

fn cylinder_of(c: &mbs_cylinder) -> FfiResult<Cylinder<f64>> {
    let mut cyl = Cylinder::new(vec3(&c.r)?)
        .r_shape(vec3(&c.r_shape)?)
        .inner_diameter(finite(c.inner_diameter)?)
        .density(finite(c.density)?)
        .width_fraction(finite(c.width_fraction)?);
    if flag(c.has_length_direction)? {
        cyl = cyl.length_direction(vec3(&c.length_direction)?);
    }
    if flag(c.has_length)? {
        cyl = cyl.length(finite(c.length)?);
    }
    if flag(c.has_diameter)? {
        cyl = cyl.diameter(finite(c.diameter)?);
    }
    Ok(cyl)
}

/// Writes `v` to `*out` and returns `MBS_OK`, or returns the error and leaves `*out` untouched.
fn write<T>(out: &mut T, v: FfiResult<T>) -> MbsStatus {
    match v {
        Ok(v) => {
            *out = v;
            MBS_OK
        }
        Err(s) => s,
    }
}

/// Fills `*out` with Modelica's `BodyCylinder` defaults for the given `r` (m, frame_a):
/// `r_shape = 0`, default length direction, length and diameter, `inner_diameter = 0`,
/// `density = 7700`, `width_fraction = 20`.
///
/// # Safety
/// `out` is null or valid for writes; `r` is null or points to 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_cylinder_default(out: *mut mbs_cylinder, r: *const f64) -> MbsStatus {
    let r = r.cast::<[f64; 3]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (out, r) = match unsafe { (non_null_mut(out), non_null(r)) } {
            (Ok(o), Ok(r)) => (o, r),
            _ => return MBS_ERR_NULL_POINTER,
        };
        let r = match vec3(r) {
            Ok(r) => r,
            Err(s) => return s,
        };
        *out = mbs_cylinder {
            r: r.into(),
            inner_diameter: 0.0,
            density: mbs_core::inertia::DEFAULT_DENSITY,
            width_fraction: mbs_core::inertia::DEFAULT_WIDTH_FRACTION,
            ..Default::default()
        };
        MBS_OK
    })
}

/// Mass properties of a `BodyCylinder` about its centre of mass, in frame_a.
/// Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_DENSITY` (< 0),
/// `MBS_ERR_INVALID_DIAMETER` (< 0), `MBS_ERR_INVALID_INNER_DIAMETER` (< 0 or not below the
/// diameter), `MBS_ERR_INVALID_LENGTH` (<= 0), `MBS_ERR_INVALID_DIRECTION` (zero length direction).
///
/// # Safety
/// `cyl` is null or points to an `mbs_cylinder`; `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_cylinder_mass_properties(
    cyl: *const mbs_cylinder,
    out: *mut mbs_mass_properties,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (cyl, out) = match unsafe { (non_null(cyl), non_null_mut(out)) } {
            (Ok(c), Ok(o)) => (c, o),
            _ => return MBS_ERR_NULL_POINTER,
        };
        write(
            out,
            cylinder_of(cyl)
                .and_then(|c| c.mass_properties().map_err(status_of_checked))
                .and_then(|m| to_c(&m)),
        )
    })
}

/// Every derived value of Modelica's `BodyCylinder` parameter table (errors as
/// `mbs_cylinder_mass_properties`).
///
/// # Safety
/// `cyl` is null or points to an `mbs_cylinder`; `out` is null or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_cylinder_derived_values(
    cyl: *const mbs_cylinder,
    out: *mut mbs_cylinder_derived,
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (cyl, out) = match unsafe { (non_null(cyl), non_null_mut(out)) } {
            (Ok(c), Ok(o)) => (c, o),
            _ => return MBS_ERR_NULL_POINTER,
        };
        let d = cylinder_of(cyl)
            .and_then(|c| c.derived().map_err(status_of_checked))
            .map(|d| mbs_cylinder_derived {
                length_direction: d.length_direction.into(),
                length: d.length,
                diameter: d.diameter,
                inner_diameter: d.inner_diameter,
                radius: d.radius,
                inner_radius: d.inner_radius,
                mo: d.mo,
                mi: d.mi,
                i11: d.i11,
                i22: d.i22,
                m: d.m,
                orientation: mat3_to_rows(&d.orientation),
                r_cm: d.r_cm.into(),
                inertia: mat3_to_rows(&d.inertia),
            })
            .and_then(|c| {
                let scalars = [
                    c.length,
                    c.diameter,
                    c.inner_diameter,
                    c.radius,
                    c.inner_radius,
                    c.mo,
                    c.mi,
                    c.i11,
                    c.i22,
                    c.m,
                ];
                finite_result(&scalars)?;
                finite_result(&c.length_direction)?;
                finite_result(&c.orientation)?;
                finite_result(&c.r_cm)?;
                finite_result(&c.inertia)?;
                Ok(c)
            });
        write(out, d)
    })
}

/// A uniform box with edge lengths `dimensions` (m, along frame_a's axes) and `density`
/// (kg/m^3), centred at `center` (m, frame_a). Errors: `MBS_ERR_NULL_POINTER`,
/// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_DIMENSIONS` (< 0), `MBS_ERR_INVALID_DENSITY` (< 0).
///
/// # Safety
/// Pointers are null or valid (`dimensions`, `center`: 3 doubles; `out`: writable).
#[no_mangle]
pub unsafe extern "C" fn mbs_box_mass_properties(
    dimensions: *const f64,
    density: f64,
    center: *const f64,
    out: *mut mbs_mass_properties,
) -> MbsStatus {
    let dimensions = dimensions.cast::<[f64; 3]>();
    let center = center.cast::<[f64; 3]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (d, c, out) =
            match unsafe { (non_null(dimensions), non_null(center), non_null_mut(out)) } {
                (Ok(d), Ok(c), Ok(o)) => (d, c, o),
                _ => return MBS_ERR_NULL_POINTER,
            };
        let mp = (|| {
            let b = Cuboid::new(vec3(d)?)
                .density(finite(density)?)
                .center(vec3(c)?);
            b.mass_properties().map_err(status_of_checked)
        })();
        write(out, mp.and_then(|m| to_c(&m)))
    })
}

/// A uniform solid (`inner_diameter = 0`) or hollow sphere of `density` (kg/m^3) centred at
/// `center` (m, frame_a). Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_DIAMETER`, `MBS_ERR_INVALID_INNER_DIAMETER`, `MBS_ERR_INVALID_DENSITY`.
///
/// # Safety
/// Pointers are null or valid (`center`: 3 doubles; `out`: writable).
#[no_mangle]
pub unsafe extern "C" fn mbs_sphere_mass_properties(
    diameter: f64,
    inner_diameter: f64,
    density: f64,
    center: *const f64,
    out: *mut mbs_mass_properties,
) -> MbsStatus {
    let center = center.cast::<[f64; 3]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (c, out) = match unsafe { (non_null(center), non_null_mut(out)) } {
            (Ok(c), Ok(o)) => (c, o),
            _ => return MBS_ERR_NULL_POINTER,
        };
        let mp = (|| {
            Sphere::new(finite(diameter)?)
                .inner_diameter(finite(inner_diameter)?)
                .density(finite(density)?)
                .center(vec3(c)?)
                .mass_properties()
                .map_err(status_of_checked)
        })();
        write(out, mp.and_then(|m| to_c(&m)))
    })
}

/// A point mass `mass` (kg, >= 0) at `position` (m, frame_a): zero inertia about itself.
///
/// # Safety
/// Pointers are null or valid (`position`: 3 doubles; `out`: writable).
#[no_mangle]
pub unsafe extern "C" fn mbs_point_mass_properties(
    mass: f64,
    position: *const f64,
    out: *mut mbs_mass_properties,
) -> MbsStatus {
    let position = position.cast::<[f64; 3]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (p, out) = match unsafe { (non_null(position), non_null_mut(out)) } {
            (Ok(p), Ok(o)) => (p, o),
            _ => return MBS_ERR_NULL_POINTER,
        };
        let mp = (|| {
            PointMass::new(finite(mass)?, vec3(p)?)
                .mass_properties()
                .map_err(status_of_checked)
        })();
        write(out, mp.and_then(|m| to_c(&m)))
    })
}

/// Combines `count` bodies (all in the same frame_a): total mass, mass-weighted centre of mass,
/// inertias shifted to the common centre of mass and summed. Errors: `MBS_ERR_NULL_POINTER`,
/// `MBS_ERR_INVALID_ARGUMENT` (`count == 0`), `MBS_ERR_INVALID_MASS` (total mass 0), the checks
/// of each part (`MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_INERTIA`, ...).
///
/// # Safety
/// `parts` is null or points to `count` elements; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_properties_combine(
    parts: *const mbs_mass_properties,
    count: usize,
    out: *mut mbs_mass_properties,
) -> MbsStatus {
    guard(|| {
        if parts.is_null() || out.is_null() {
            return MBS_ERR_NULL_POINTER;
        }
        if count == 0 {
            return MBS_ERR_INVALID_ARGUMENT;
        }
        // SAFETY: non-null, `count` elements by the caller's guarantee.
        let parts = unsafe { core::slice::from_raw_parts(parts, count) };
        let mut total: Option<MassProperties<f64>> = None;
        for p in parts {
            let p = match from_c(p) {
                Ok(p) => p,
                Err(s) => return s,
            };
            total = Some(match total {
                None => p,
                Some(t) => match MassProperties::combine_two(&t, &p) {
                    Ok(c) => c,
                    Err(e) => return status_of_checked(e),
                },
            });
        }
        // SAFETY: non-null, caller guarantees writability.
        let out = unsafe { &mut *out };
        write(
            out,
            total.ok_or(MBS_ERR_INVALID_ARGUMENT).and_then(|t| to_c(&t)),
        )
    })
}

/// The inertia of `mp` about `point` (m, frame_a) by the parallel-axis theorem,
/// `I_p = I_c + m (|d|^2 E - d d^T)`, `d = com - point` (kg m^2, row-major).
///
/// # Safety
/// Pointers are null or valid (`point`: 3 doubles; `out`: 9 writable doubles).
#[no_mangle]
pub unsafe extern "C" fn mbs_mass_properties_inertia_about(
    mp: *const mbs_mass_properties,
    point: *const f64,
    out: *mut f64,
) -> MbsStatus {
    let point = point.cast::<[f64; 3]>();
    let out = out.cast::<[f64; 9]>();
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (mp, p, out) = match unsafe { (non_null(mp), non_null(point), non_null_mut(out)) } {
            (Ok(m), Ok(p), Ok(o)) => (m, p, o),
            _ => return MBS_ERR_NULL_POINTER,
        };
        let r = from_c(mp).and_then(|m| {
            let rows = mat3_to_rows(&m.inertia_about(&vec3(p)?));
            finite_result(&rows)?;
            Ok(rows)
        });
        write(out, r)
    })
}
