//! Modelica's `BodyCylinder` (core's `BodyCylinder`) as a steppable rigid body: the
//! `mbs_cylinder` parameters (with Modelica's defaults) and the `mbs_body_start` values give
//! the rigid body (reference point and body frame = frame_a) and its start state.

use crate::boundary::{finite, guard, read, FfiResult};
use crate::convert::vec3;
use crate::mass_properties::mbs_cylinder;
use crate::rigid::body::mbs_rigid_body;
use crate::rigid::body_start::mbs_body_start;
use crate::rigid::state::{mbs_rigid_state, mbs_rigid_state_of};
use crate::status::status_of_checked;
use crate::status::*;
use mbs_core::bodies::body_cylinder::BodyCylinder;

pub(crate) fn body_cylinder(
    c: &mbs_cylinder,
    start: &mbs_body_start,
) -> FfiResult<BodyCylinder<f64>> {
    let mut p = BodyCylinder::params(vec3(&c.r)?)
        .r_shape(vec3(&c.r_shape)?)
        .inner_diameter(finite(c.inner_diameter)?)
        .density(finite(c.density)?)
        .width_fraction(finite(c.width_fraction)?)
        .start(start.to_core()?);
    if crate::convert::flag(c.has_length_direction)? {
        p = p.length_direction(vec3(&c.length_direction)?);
    }
    if crate::convert::flag(c.has_length)? {
        p = p.length(finite(c.length)?);
    }
    if crate::convert::flag(c.has_diameter)? {
        p = p.diameter(finite(c.diameter)?);
    }
    // Every input was checked finite above: a NotFinite of the build is an overflow.
    p.build().map_err(status_of_checked)
}

/// A `BodyCylinder`: writes the rigid body of `*cyl` to `*body_out` (reference point and body
/// frame = frame_a; mass `m = mo - mi` (kg), centre of mass `r_CM` (m, frame_a) and inertia
/// `resolveDyade1(R, diag(I11, I22, I22))` about it (kg m^2, frame_a); the reference pose for
/// `MBS_OUTPUT_DISPLACEMENT` is the start pose) and the state of the start values `*start`
/// (see `mbs_rigid_state_from_start`) to `*state_out`. frame_b is the local position `cyl->r`.
///
/// Errors (both outputs untouched): `MBS_ERR_NULL_POINTER`, the errors of
/// `mbs_cylinder_mass_properties` (`MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_DENSITY`,
/// `MBS_ERR_INVALID_DIAMETER`, `MBS_ERR_INVALID_INNER_DIAMETER`, `MBS_ERR_INVALID_LENGTH`,
/// `MBS_ERR_INVALID_DIRECTION`, `MBS_ERR_NON_FINITE_STATE`), `MBS_ERR_INVALID_MASS` (density or
/// diameter 0: no mass to step), `MBS_ERR_INVALID_SEQUENCE`.
///
/// # Safety
/// `cyl` and `start` are null or valid; `body_out` and `state_out` are null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_body_cylinder_init(
    cyl: *const mbs_cylinder,
    start: *const mbs_body_start,
    body_out: *mut mbs_rigid_body,
    state_out: *mut mbs_rigid_state,
) -> MbsStatus {
    guard(|| {
        if body_out.is_null() || state_out.is_null() {
            return MBS_ERR_NULL_POINTER;
        }
        // SAFETY: forwarded caller guarantees.
        let r = unsafe {
            (|| {
                let bc = body_cylinder(&read(cyl)?, &read(start)?)?;
                Ok((
                    mbs_rigid_body::of(bc.body()),
                    mbs_rigid_state_of::of(&bc.initial_state()),
                ))
            })()
        };
        match r {
            Ok((b, s)) => {
                // SAFETY: non-null and writable by the caller's guarantee.
                unsafe {
                    body_out.write(b);
                    state_out.write(s);
                }
                MBS_OK
            }
            Err(e) => e,
        }
    })
}
