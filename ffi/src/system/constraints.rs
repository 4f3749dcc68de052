//! Constraints from C (Exudyn's `ObjectConnectorDistance`, `ObjectConnectorCoordinate`,
//! `ObjectJointRevolute2D`, `ObjectJointPrismatic2D`, and between 3D rigid bodies
//! `ObjectJointGeneric`, `ObjectJointSpherical`, `ObjectJointRevoluteZ`,
//! `ObjectJointPrismaticX`), their outputs, and the Newton report of the last
//! generalized-alpha step. Constraints are stepped only by the generalized-alpha
//! scheme (`MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA`); `mbs_system_assemble` refuses them with
//! another one (`MBS_ERR_NOT_SUPPORTED_BY_SCHEME`).

use crate::boundary::{finite, non_null_out, put, with_mut, with_ref};
use crate::convert::{array, flag, index, vec2, MbsFlag};
use crate::output::{variable, MbsOutputVariable};
use crate::status::status_of;
use crate::status::*;
use crate::system::items::{add, marker_pair};
use crate::system::mbs_system;
use crate::system::output::output;
use mbs_core::integrators::constrained::generalized_alpha::RESIDUAL_HISTORY;
use mbs_core::system::{Constraint, ConstraintIndex, MarkerIndex, ObjectIndex};
use nalgebra::Vector3;

/// Adds a constraint made by `make` and writes its index to `*constraint`.
fn add_constraint(
    sys: *mut mbs_system,
    constraint: *mut u32,
    make: impl FnOnce() -> crate::boundary::FfiResult<Constraint<f64>>,
) -> MbsStatus {
    add(
        sys,
        constraint,
        |s| s.add_constraint(make()?).map_err(status_of),
        |i| i.0,
    )
}

/// Adds Exudyn's `ObjectConnectorDistance`: the points of the position markers `marker0` and
/// `marker1` stay `distance` (m, > 0) apart, `|r_1 - r_0| - d = 0` (in the x-y plane between 2D
/// items, in space when a marker is on a 3D rigid body).
/// `MBS_OUTPUT_FORCE` is `[lambda, 0, 0]`: the rod's tension (N; the force on marker 0's body
/// is `lambda u`, `u` the unit vector from marker 0 to marker 1).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_LENGTH` (`distance <= 0`),
/// `MBS_ERR_SAME_MARKER`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (not a position
/// marker), `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_distance_constraint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    distance: f64,
    constraint: *mut u32,
) -> MbsStatus {
    add_constraint(sys, constraint, || {
        Constraint::distance(marker_pair(marker0, marker1)?, finite(distance)?).map_err(status_of)
    })
}

/// Adds Exudyn's `ObjectConnectorCoordinate` between two coordinate markers
/// (`mbs_system_add_marker_node_coordinate`): `factor q_1 - q_0 - offset = 0` (Exudyn's
/// `factorValue1` and `offset`; a ground node's coordinate is 0, so a marker on it fixes the
/// other coordinate). `MBS_OUTPUT_FORCE` is `[lambda, 0, 0]` (N or N m).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_SAME_MARKER`,
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (not a coordinate marker),
/// `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_coordinate_constraint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    factor: f64,
    offset: f64,
    constraint: *mut u32,
) -> MbsStatus {
    add_constraint(sys, constraint, || {
        Constraint::coordinate(
            marker_pair(marker0, marker1)?,
            finite(factor)?,
            finite(offset)?,
        )
        .map_err(status_of)
    })
}

/// Adds Exudyn's `ObjectJointRevolute2D`: the points of the position markers `marker0` and
/// `marker1` coincide, `r_1 - r_0 = 0` (2 equations, x-y plane). `MBS_OUTPUT_FORCE` is
/// `[lambda_x, lambda_y, 0]`: the force of the joint on marker 0's body (N, world); marker 1's
/// body gets the opposite.
///
/// Errors (nothing added): as `mbs_system_add_distance_constraint` without the distance.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_revolute_joint_2d(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    constraint: *mut u32,
) -> MbsStatus {
    add_constraint(sys, constraint, || {
        Constraint::revolute_2d(marker_pair(marker0, marker1)?).map_err(status_of)
    })
}

/// Adds Exudyn's `ObjectJointPrismatic2D` between two rigid markers: marker 1's point slides
/// along `axis_marker0` (2 doubles, marker 0's body frame), `(r_1 - r_0) . n_1 = 0` with the
/// normal `normal_marker1` (2 doubles, marker 1's body frame) turned with its body; with
/// `constrain_rotation` = 1 also `t_0 . n_1 = 0` (the bodies keep their relative angle), with 0
/// not. `MBS_OUTPUT_FORCE` is `[lambda_0, lambda_1, 0]` (N, N m).
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_DIRECTION` (a zero axis
/// or normal), `MBS_ERR_INVALID_ARGUMENT` (`constrain_rotation` not 0 or 1),
/// `MBS_ERR_SAME_MARKER`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_MARKER` (not a rigid
/// marker), `MBS_ERR_CAPACITY_FULL`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `axis_marker0` and `normal_marker1` are null or hold 2
/// doubles; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_prismatic_joint_2d(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    axis_marker0: *const f64,
    normal_marker1: *const f64,
    constrain_rotation: u32,
    constraint: *mut u32,
) -> MbsStatus {
    add_constraint(sys, constraint, || {
        // SAFETY: the caller's guarantee.
        let (a, n) = unsafe { (array::<2>(axis_marker0)?, array::<2>(normal_marker1)?) };
        let rotation = flag(constrain_rotation)?;
        Constraint::prismatic_2d(
            marker_pair(marker0, marker1)?,
            vec2(&a)?,
            vec2(&n)?,
            rotation,
        )
        .map_err(status_of)
    })
}

/// Output `var` of constraint `constraint` now into `out[0 .. 3)` and 3 into `*written`:
/// `MBS_OUTPUT_FORCE`, its multipliers `[lambda_0, lambda_1, 0]` (each constraint's add call
/// says what they are; 0 before the system was assembled for generalized-alpha), or
/// `MBS_OUTPUT_CONSTRAINT_RESIDUAL`, `[C_0, C_1, 0]` (m or rad) from the markers' positions
/// and orientations. A 3D joint (`mbs_system_add_generic_joint`) gives its reaction on marker
/// 0's body instead: `MBS_OUTPUT_FORCE` (N, world), `MBS_OUTPUT_FORCE_LOCAL` (N, marker 0's
/// frame), `MBS_OUTPUT_TORQUE` (N m, world, about marker 0's point), `MBS_OUTPUT_TORQUE_LOCAL`
/// (marker 0's frame), and as `MBS_OUTPUT_CONSTRAINT_RESIDUAL` the norms of its translation
/// and rotation equations `[|C_t|, |C_r|, 0]` (m, -); marker 1's body feels the opposite force
/// at marker 1's point. A 3D joint also gives its motion: `MBS_OUTPUT_POSITION` and
/// `MBS_OUTPUT_VELOCITY` of marker 0's point (world), and marker 1 relative to marker 0 in
/// marker 0's frame `R_0`: `MBS_OUTPUT_DISPLACEMENT_LOCAL` `R_0^T (r_1 - r_0)` (m; a prismatic
/// joint's travel along x), `MBS_OUTPUT_VELOCITY_LOCAL` `R_0^T (v_1 - v_0)` (m/s; its speed),
/// `MBS_OUTPUT_ROTATION` the Tait-Bryan x-y-z angles of `R_0^T R_1` (rad; a revolute joint's
/// angle about z is the third, in (-pi, pi]) and `MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL`
/// `R_0^T (w_1 - w_0)` (rad/s; its rate about z). A spherical joint on position markers has
/// no rotation outputs (`MBS_ERR_NOT_AVAILABLE`; its frame is the world's).
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_INVALID_ARGUMENT` (unknown
/// variable), `MBS_ERR_NOT_AVAILABLE` (another variable), `MBS_ERR_STORAGE`
/// (`out_len < 3`).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or holds `out_len` writable doubles;
/// `written` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_constraint_output(
    sys: *const mbs_system,
    constraint: u32,
    var: MbsOutputVariable,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    with_ref(sys, |s| {
        output(out, out_len, written, || {
            let (i, v) = (index(constraint, ConstraintIndex)?, variable(var)?);
            s.sys.constraint_output(i, v).map_err(status_of)
        })
    })
}

/// Adds Exudyn's `ObjectJointGeneric` between two markers of 3D rigid bodies or the ground:
/// `constrained_axes` (6 flags, 0 or 1: translations along x, y, z and rotations about x, y, z
/// of marker 0's frame, Exudyn's `constrainedAxes`; all six: a fixed joint) say which relative
/// motions it stops, one equation each, with Exudyn's equations: all three translations as
/// `r_1 - r_0 = 0` (world), fewer along marker 0's axes; three rotations as
/// `z_0 . y_1 = z_0 . x_1 = x_0 . y_1 = 0` (the marker frames' axes), two as the free axis of
/// marker 0 perpendicular to the other two axes of marker 1, one as the two free axes (marker
/// 0's first, marker 1's second) perpendicular. The markers are rigid markers (frames from
/// `mbs_system_add_marker_body_rigid_frame`), or position markers for translations only.
/// Stepped by `MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA`; outputs: `mbs_system_constraint_output`.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_ARGUMENT` (a flag not 0 or 1),
/// `MBS_ERR_INVALID_SETTING` (no axis constrained), `MBS_ERR_SAME_MARKER`,
/// `MBS_ERR_SAME_BODY` (both markers on one body or on the ground), `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_MARKER` (not a rigid marker), `MBS_ERR_CAPACITY_FULL`. A marker on a 2D
/// item is refused by `mbs_system_assemble` (`MBS_ERR_INVALID_MARKER` at the constraint).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constrained_axes` is null or holds 6 `mbs_flag`s;
/// `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_generic_joint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    constrained_axes: *const MbsFlag,
    constraint: *mut u32,
) -> MbsStatus {
    add_constraint(sys, constraint, || {
        if constrained_axes.is_null() {
            return Err(MBS_ERR_NULL_POINTER);
        }
        let mut axes = [false; 6];
        for (k, a) in axes.iter_mut().enumerate() {
            // SAFETY: the caller's guarantee (6 readable flags).
            *a = flag(unsafe { constrained_axes.add(k).read() })?;
        }
        Constraint::generic_joint(marker_pair(marker0, marker1)?, axes).map_err(status_of)
    })
}

/// Adds the joint `make` builds between `marker0` and `marker1`.
fn add_joint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    constraint: *mut u32,
    make: fn([MarkerIndex; 2]) -> mbs_core::Result<Constraint<f64>>,
) -> MbsStatus {
    add_constraint(sys, constraint, || {
        make(marker_pair(marker0, marker1)?).map_err(status_of)
    })
}

/// Adds Exudyn's `ObjectJointSpherical`: the points of markers `marker0` and `marker1` (position
/// or rigid markers of 3D rigid bodies or the ground) coincide, `r_1 - r_0 = 0` (3 equations,
/// world). Errors: as `mbs_system_add_generic_joint` without the flags.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_spherical_joint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    constraint: *mut u32,
) -> MbsStatus {
    add_joint(
        sys,
        marker0,
        marker1,
        constraint,
        Constraint::spherical_joint,
    )
}

/// Adds Exudyn's `ObjectJointRevoluteZ` between two rigid markers: the points coincide and the
/// bodies turn relative to each other only about marker 0's z axis (5 equations). Errors: as
/// `mbs_system_add_generic_joint` without the flags.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_revolute_joint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    constraint: *mut u32,
) -> MbsStatus {
    add_joint(
        sys,
        marker0,
        marker1,
        constraint,
        Constraint::revolute_joint,
    )
}

/// Adds Exudyn's `ObjectJointPrismaticX` between two rigid markers: marker 1's point slides
/// along marker 0's x axis and the bodies keep their relative orientation (5 equations).
/// Errors: as `mbs_system_add_generic_joint` without the flags.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `constraint` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_prismatic_joint(
    sys: *mut mbs_system,
    marker0: u32,
    marker1: u32,
    constraint: *mut u32,
) -> MbsStatus {
    add_joint(
        sys,
        marker0,
        marker1,
        constraint,
        Constraint::prismatic_joint,
    )
}

/// A joint placed in world coordinates (`mbs_system_add_revolute_joint_at`,
/// `mbs_system_add_prismatic_joint_at`): the joint (a constraint) and its two markers, on the
/// first body (marker 0, whose frame the joint's outputs use) and on the second.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_world_joint {
    /// The joint, for `mbs_system_constraint_output` and sensors.
    pub joint: u32,
    /// Its markers on `object0` and `object1`.
    pub markers: [u32; 2],
}

fn add_joint_at(
    sys: *mut mbs_system,
    objects: [u32; 2],
    point: *const f64,
    axis: *const f64,
    out: *mut mbs_world_joint,
    revolute: bool,
) -> MbsStatus {
    with_mut(sys, |s| {
        non_null_out(out)?;
        // SAFETY: the caller's guarantee on `point` and `axis`.
        let (p, a) = unsafe { (array::<3>(point)?, array::<3>(axis)?) };
        let objects = [
            index(objects[0], ObjectIndex)?,
            index(objects[1], ObjectIndex)?,
        ];
        let (p, a) = (Vector3::from(p), Vector3::from(a));
        let j = if revolute {
            s.sys.add_revolute_joint_at(objects, p, a)
        } else {
            s.sys.add_prismatic_joint_at(objects, p, a)
        }
        .map_err(status_of)?;
        put(
            out,
            mbs_world_joint {
                joint: u32::from(j.joint.0),
                markers: j.markers.map(|m| u32::from(m.0)),
            },
        );
        Ok(MBS_OK)
    })
}

/// Exudyn's `CreateRevoluteJoint`: a revolute joint (`mbs_system_add_revolute_joint`) between
/// bodies `object0` and `object1` (3D rigid bodies or the ground) about `axis` (world, any
/// length > 0) through `point` (m, world), in the bodies' poses now: each body gets a rigid
/// marker at `point` with its z axis along `axis`. `*out` receives the joint and its markers.
/// The joint's `MBS_OUTPUT_ROTATION` z is then the angle `object1` turned about `axis`
/// relative to `object0` since now, `MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL` z its rate.
///
/// Errors (nothing added, `*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_DIRECTION` (a zero axis),
/// `MBS_ERR_UNKNOWN_INDEX`, `MBS_ERR_CAPACITY_FULL` (two markers and a constraint needed),
/// `MBS_ERR_INVALID_MARKER` (a body that takes no rigid marker), `MBS_ERR_SAME_BODY`,
/// `MBS_ERR_BUSY`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `point` and `axis` are null or hold 3 doubles; `out` is
/// null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_revolute_joint_at(
    sys: *mut mbs_system,
    object0: u32,
    object1: u32,
    point: *const f64,
    axis: *const f64,
    out: *mut mbs_world_joint,
) -> MbsStatus {
    add_joint_at(sys, [object0, object1], point, axis, out, true)
}

/// Exudyn's `CreatePrismaticJoint`: a prismatic joint (`mbs_system_add_prismatic_joint`)
/// between `object0` and `object1` along `axis` (world, any length > 0) through `point` (m,
/// world), in the bodies' poses now: each body gets a rigid marker at `point` with its x axis
/// along `axis`. The joint's `MBS_OUTPUT_DISPLACEMENT_LOCAL` x is then `object1`'s travel
/// along `axis` relative to `object0` since now, `MBS_OUTPUT_VELOCITY_LOCAL` x its speed.
/// Errors as `mbs_system_add_revolute_joint_at`.
///
/// # Safety
/// As `mbs_system_add_revolute_joint_at`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_prismatic_joint_at(
    sys: *mut mbs_system,
    object0: u32,
    object1: u32,
    point: *const f64,
    axis: *const f64,
    out: *mut mbs_world_joint,
) -> MbsStatus {
    add_joint_at(sys, [object0, object1], point, axis, out, false)
}

/// Number of Newton residuals an `mbs_newton_report` keeps.
pub const MBS_NEWTON_HISTORY: usize = 8;
const _: () = assert!(MBS_NEWTON_HISTORY == RESIDUAL_HISTORY);

/// What the Newton iteration of the last generalized-alpha step did. (No padding: every byte
/// the call writes is defined.)
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct mbs_newton_report {
    /// Newton updates (linear solves) of the last (sub-)step.
    pub iterations: u32,
    /// How often the step was halved (`alpha_step_halving`).
    pub halvings: u32,
    /// Valid entries of `history`.
    pub history_len: u32,
    /// Entries `history` holds (`MBS_NEWTON_HISTORY`).
    pub history_capacity: u32,
    /// `|r_1|`, the residual of the equations of motion at convergence (N); in real-time mode
    /// (`alpha_real_time_updates`) of the last evaluated iterate, before the last update.
    pub force_residual: f64,
    /// `|C(q)|` at convergence (m or rad), as `force_residual`.
    pub constraint_residual: f64,
    /// The Newton residual before each update and at convergence (first `history_len`). When
    /// the real-time mode took the last update without evaluating it, `history_len` equals
    /// `iterations`.
    pub history: [f64; MBS_NEWTON_HISTORY],
}

const _: () =
    assert!(core::mem::size_of::<mbs_newton_report>() == 16 + 8 * (2 + MBS_NEWTON_HISTORY));

/// The Newton report of the last generalized-alpha step into `*out`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_AVAILABLE` (no generalized-alpha step yet).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_newton_report(
    sys: *const mbs_system,
    out: *mut mbs_newton_report,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        let r = s.sys.newton_report().ok_or(MBS_ERR_NOT_AVAILABLE)?;
        put(
            out,
            mbs_newton_report {
                iterations: r.newton_iterations,
                halvings: r.halvings,
                force_residual: r.force_residual,
                constraint_residual: r.constraint_residual,
                history_len: r.history_len,
                history_capacity: MBS_NEWTON_HISTORY as u32,
                history: r.residual_history,
            },
        );
        Ok(MBS_OK)
    })
}
