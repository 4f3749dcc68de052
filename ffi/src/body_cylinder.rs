//! Modelica's `BodyCylinder` (seed 001) as a steppable rigid body: the mass properties of the
//! `mbs_cylinder` (with Modelica's defaults) on a body whose reference point and body frame
//! are frame_a, and the state of Modelica's start values.
//!
//! The same physics as core's `BodyCylinder` item: mass `m = mo - mi`, centre of mass `r_CM`
//! and inertia `I = resolveDyade1(R, diag(I11, I22, I22))`, all in frame_a.

use crate::body_start::mbs_body_start;
use crate::convert::{read, status_of, FfiResult};
use crate::guard;
use crate::mass_properties::{cylinder_of, mbs_cylinder};
use crate::rigid_body::mbs_rigid_body;
use crate::rigid_state::{mbs_rigid_state, mbs_rigid_state_of};
use crate::status::*;
use mbs_core::bodies::rigid_body::RigidBody;

fn body_of(cyl: &mbs_cylinder) -> FfiResult<RigidBody<f64>> {
    let mp = cylinder_of(cyl)?.mass_properties().map_err(status_of)?;
    RigidBody::new(mp.mass, mp.inertia, mp.com).map_err(status_of)
}

/// A `BodyCylinder`: writes the rigid body of `*cyl` (reference point and body frame =
/// frame_a; mass, centre of mass `r_CM` (m, frame_a) and inertia about it (kg m^2, frame_a))
/// to `*body_out`, and the state of Modelica's start values `*start` (see
/// `mbs_rigid_state_from_start`) to `*state_out`.
///
/// Errors (both outputs untouched): `MBS_ERR_NULL_POINTER`, the errors of
/// `mbs_cylinder_mass_properties` (`MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_DENSITY`,
/// `MBS_ERR_INVALID_DIAMETER`, `MBS_ERR_INVALID_INNER_DIAMETER`, `MBS_ERR_INVALID_LENGTH`,
/// `MBS_ERR_INVALID_DIRECTION`), `MBS_ERR_INVALID_MASS` (density or diameter 0: no mass to
/// step), `MBS_ERR_INVALID_SEQUENCE`.
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
                let (c, st) = (read(cyl)?, read(start)?);
                let b = body_of(&c)?;
                let s = st.to_core()?;
                Ok((mbs_rigid_body::of(&b), mbs_rigid_state_of::of(&s)))
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
