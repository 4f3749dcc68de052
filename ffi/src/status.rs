//! Status codes: `mbs_status` values with fixed numbers, never reused.
//!
//! - `0`: success.
//! - `1..=99`: warnings: the call did its work, read the outputs.
//! - `100..=199`: errors: the call changed nothing.
//! - `200..=299`: "invalid argument", naming which one: the call changed nothing.

use core::ffi::c_char;
use mbs_core::{Error, Param};

/// Result of every `mbs_*` call (see the ranges above). A fixed-width integer, not a C enum,
/// so its size is the same on every ABI (C enums are 1 byte on arm-none-eabi).
pub type MbsStatus = u32;

/// Success.
pub const MBS_OK: MbsStatus = 0;
/// Warning: the step was taken, but `|w| dt` (or `dt sqrt(k/m)`) exceeded its bound, so the
/// result is not resolved; sub-step or shorten `dt`.
pub const MBS_WARN_STEP_TOO_LARGE: MbsStatus = 1;

/// Warning: the step was taken, but at least one sensor's buffer was full, so its row was
/// not written (counted in `mbs_sensor_info.dropped_rows`; `mbs_system_sensor_clear` empties
/// it).
pub const MBS_WARN_SENSOR_BUFFER_FULL: MbsStatus = 2;

/// A required pointer argument was null.
pub const MBS_ERR_NULL_POINTER: MbsStatus = 100;
/// An argument is NaN or infinite.
pub const MBS_ERR_NOT_FINITE: MbsStatus = 101;
/// A fixed capacity is full (system items, sensor buffer).
pub const MBS_ERR_CAPACITY_FULL: MbsStatus = 102;
/// An index names no item of that kind.
pub const MBS_ERR_UNKNOWN_INDEX: MbsStatus = 103;
/// The system is not assembled (or was changed since): call `mbs_system_assemble`.
pub const MBS_ERR_NOT_ASSEMBLED: MbsStatus = 104;
/// The item does not provide this output variable or Jacobian.
pub const MBS_ERR_NOT_AVAILABLE: MbsStatus = 105;
/// The solver failed (singular matrix, no Newton convergence).
pub const MBS_ERR_SOLVER_FAILED: MbsStatus = 106;
/// The state holds NaN or infinity, or a result computed from finite inputs overflowed
/// (a step or an output of a huge state).
pub const MBS_ERR_NON_FINITE_STATE: MbsStatus = 107;
/// An argument is invalid in a way the 2xx codes do not name (unknown enum value, ...).
pub const MBS_ERR_INVALID_ARGUMENT: MbsStatus = 108;
/// Caller storage too small or misaligned (e.g. the system buffer), or a storage with the tag of
/// its kind but another layout (initialized by another build of the library).
pub const MBS_ERR_STORAGE: MbsStatus = 109;
/// The `mbs_system` storage was not initialized with `mbs_system_init`.
pub const MBS_ERR_NOT_INITIALIZED: MbsStatus = 110;
/// The Newton matrix of a constrained step is singular: redundant or contradictory
/// constraints (or a coordinate without mass).
pub const MBS_ERR_SINGULAR_MATRIX: MbsStatus = 111;
/// The Newton iteration of an implicit step did not converge within its iterations (shorten
/// the step, or let the solver halve it).
pub const MBS_ERR_NEWTON_NOT_CONVERGED: MbsStatus = 112;
/// The positions violate a constraint beyond the tolerance (ask for the initial assembly, or
/// give consistent positions).
pub const MBS_ERR_CONSTRAINT_VIOLATED: MbsStatus = 113;
/// The system's integration scheme cannot step this item: a constraint with an explicit
/// scheme (select `MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA`).
pub const MBS_ERR_NOT_SUPPORTED_BY_SCHEME: MbsStatus = 114;
/// A call on a system made from a callback of a call on that system: any call from a load
/// callback during a step, an assembly or a solve; a call that changes the system from the
/// step callback of a solve (which may only read it).
pub const MBS_ERR_BUSY: MbsStatus = 115;
/// An internal error that should be impossible (a caught panic).
pub const MBS_ERR_PANIC: MbsStatus = 199;

/// Invalid mass (must be > 0, or >= 0 where documented).
pub const MBS_ERR_INVALID_MASS: MbsStatus = 200;
/// Invalid density (must be >= 0).
pub const MBS_ERR_INVALID_DENSITY: MbsStatus = 201;
/// Invalid diameter (must be >= 0).
pub const MBS_ERR_INVALID_DIAMETER: MbsStatus = 202;
/// Invalid inner diameter: negative, or not strictly below the diameter.
pub const MBS_ERR_INVALID_INNER_DIAMETER: MbsStatus = 203;
/// Invalid length (must be > 0).
pub const MBS_ERR_INVALID_LENGTH: MbsStatus = 204;
/// Invalid direction or axis (zero vector).
pub const MBS_ERR_INVALID_DIRECTION: MbsStatus = 205;
/// Invalid inertia (not symmetric positive definite, or violating the triangle inequality).
pub const MBS_ERR_INVALID_INERTIA: MbsStatus = 206;
/// Invalid time step (must be finite and > 0).
pub const MBS_ERR_INVALID_TIME_STEP: MbsStatus = 207;
/// Invalid box dimensions (must be >= 0).
pub const MBS_ERR_INVALID_DIMENSIONS: MbsStatus = 208;
/// Invalid orientation (not a unit quaternion).
pub const MBS_ERR_INVALID_ORIENTATION: MbsStatus = 209;
/// Invalid rotation sequence (axes 1..3, consecutive axes distinct).
pub const MBS_ERR_INVALID_SEQUENCE: MbsStatus = 210;
/// Invalid solver or simulation setting (end time, step count, spectral radius, tolerance).
pub const MBS_ERR_INVALID_SETTING: MbsStatus = 211;
/// Invalid local position (must be `[0,0,0]` for this output).
pub const MBS_ERR_INVALID_LOCAL_POSITION: MbsStatus = 212;
/// Invalid stiffness or damping (must be >= 0).
pub const MBS_ERR_INVALID_STIFFNESS_DAMPING: MbsStatus = 213;
/// The body cannot carry this marker type (e.g. a rigid marker on a mass point).
pub const MBS_ERR_INVALID_MARKER: MbsStatus = 214;
/// A connector or a joint joins a marker with itself.
pub const MBS_ERR_SAME_MARKER: MbsStatus = 215;
/// An item refers to a node of the wrong kind.
pub const MBS_ERR_WRONG_NODE_KIND: MbsStatus = 216;
/// Invalid centre of mass or other position parameter.
pub const MBS_ERR_INVALID_POSITION: MbsStatus = 217;
/// Invalid velocity, angular velocity or acceleration parameter.
pub const MBS_ERR_INVALID_VELOCITY: MbsStatus = 218;
/// Invalid force or torque.
pub const MBS_ERR_INVALID_LOAD: MbsStatus = 219;

/// A second body on a node that already carries one (a node belongs to one body).
pub const MBS_ERR_NODE_ALREADY_USED: MbsStatus = 220;
/// A node with coordinates (2D point, rigid-body node) that no body gives a mass
/// (`mbs_system_assemble`).
pub const MBS_ERR_NODE_WITHOUT_BODY: MbsStatus = 221;
/// A node coordinate index beyond the node's coordinates, or a joint vector whose length is
/// not the tree's (`mbs_tree_*`).
pub const MBS_ERR_INVALID_COORDINATE: MbsStatus = 222;
/// A constraint's two markers are on one body (one node) or both on the ground.
pub const MBS_ERR_SAME_BODY: MbsStatus = 223;

/// A static, NUL-terminated English description of `status` ("unknown status" if unknown).
/// Never null; the caller must not free it.
#[no_mangle]
pub extern "C" fn mbs_status_str(status: MbsStatus) -> *const c_char {
    let s: &'static [u8] = match status {
        MBS_OK => b"ok\0",
        MBS_WARN_STEP_TOO_LARGE => b"warning: step too large for the rotation rate or stiffness\0",
        MBS_WARN_SENSOR_BUFFER_FULL => b"warning: a sensor buffer is full, rows were dropped\0",
        MBS_ERR_NULL_POINTER => b"null pointer argument\0",
        MBS_ERR_NOT_FINITE => b"argument is NaN or infinite\0",
        MBS_ERR_CAPACITY_FULL => b"capacity full\0",
        MBS_ERR_UNKNOWN_INDEX => b"unknown index\0",
        MBS_ERR_NOT_ASSEMBLED => b"system not assembled\0",
        MBS_ERR_NOT_AVAILABLE => b"output or Jacobian not available for this item\0",
        MBS_ERR_SOLVER_FAILED => b"solver failed\0",
        MBS_ERR_NON_FINITE_STATE => b"state is NaN or infinite, or a result overflowed\0",
        MBS_ERR_INVALID_ARGUMENT => b"invalid argument\0",
        MBS_ERR_STORAGE => b"storage too small, misaligned, or of another layout\0",
        MBS_ERR_NOT_INITIALIZED => b"system storage not initialized (call mbs_system_init)\0",
        MBS_ERR_SINGULAR_MATRIX => {
            b"singular Newton matrix (redundant or contradictory constraints)\0"
        }
        MBS_ERR_NEWTON_NOT_CONVERGED => b"Newton iteration did not converge\0",
        MBS_ERR_CONSTRAINT_VIOLATED => b"positions violate a constraint\0",
        MBS_ERR_NOT_SUPPORTED_BY_SCHEME => b"the integration scheme does not support this item\0",
        MBS_ERR_BUSY => b"the system is busy: a call from inside its callback\0",
        MBS_ERR_PANIC => b"internal error\0",
        MBS_ERR_INVALID_MASS => b"invalid mass\0",
        MBS_ERR_INVALID_DENSITY => b"invalid density\0",
        MBS_ERR_INVALID_DIAMETER => b"invalid diameter\0",
        MBS_ERR_INVALID_INNER_DIAMETER => {
            b"invalid inner diameter (must be >= 0 and below the diameter)\0"
        }
        MBS_ERR_INVALID_LENGTH => b"invalid length (must be > 0)\0",
        MBS_ERR_INVALID_DIRECTION => b"invalid direction (zero vector)\0",
        MBS_ERR_INVALID_INERTIA => b"invalid inertia\0",
        MBS_ERR_INVALID_TIME_STEP => b"invalid time step (must be finite and > 0)\0",
        MBS_ERR_INVALID_DIMENSIONS => b"invalid dimensions\0",
        MBS_ERR_INVALID_ORIENTATION => b"invalid orientation\0",
        MBS_ERR_INVALID_SEQUENCE => b"invalid rotation sequence\0",
        MBS_ERR_INVALID_SETTING => b"invalid setting\0",
        MBS_ERR_INVALID_LOCAL_POSITION => b"invalid local position\0",
        MBS_ERR_INVALID_STIFFNESS_DAMPING => b"invalid stiffness or damping\0",
        MBS_ERR_INVALID_MARKER => b"marker type not supported by this body\0",
        MBS_ERR_SAME_MARKER => b"a connector or joint joins a marker with itself\0",
        MBS_ERR_WRONG_NODE_KIND => b"node of the wrong kind\0",
        MBS_ERR_INVALID_POSITION => b"invalid position\0",
        MBS_ERR_INVALID_VELOCITY => b"invalid velocity\0",
        MBS_ERR_INVALID_LOAD => b"invalid force or torque\0",
        MBS_ERR_NODE_ALREADY_USED => b"node already carries a body\0",
        MBS_ERR_NODE_WITHOUT_BODY => b"node has no body (no mass)\0",
        MBS_ERR_INVALID_COORDINATE => b"invalid coordinate index or vector length\0",
        MBS_ERR_SAME_BODY => {
            b"constraint joins a body with itself (or the ground with the ground)\0"
        }
        _ => b"unknown status\0",
    };
    s.as_ptr().cast()
}

/// `true` if `status` is `MBS_OK` or a warning (the call did its work).
#[no_mangle]
pub extern "C" fn mbs_status_is_ok(status: MbsStatus) -> bool {
    status < MBS_ERR_NULL_POINTER
}

/// Maps a core error to its status code.
pub fn status_of(e: Error) -> MbsStatus {
    match e {
        Error::NotFinite(_) => MBS_ERR_NOT_FINITE,
        Error::OutOfRange(p) | Error::ZeroLength(p) => status_of_param(p),
        Error::InnerDiameterNotBelowDiameter => MBS_ERR_INVALID_INNER_DIAMETER,
        Error::NonFiniteState => MBS_ERR_NON_FINITE_STATE,
        Error::UnknownIndex => MBS_ERR_UNKNOWN_INDEX,
        Error::CapacityFull => MBS_ERR_CAPACITY_FULL,
        Error::OutputNotAvailable | Error::JacobianNotAvailable => MBS_ERR_NOT_AVAILABLE,
        Error::LocalPositionMustBeZero => MBS_ERR_INVALID_LOCAL_POSITION,
        Error::MarkerNotSupported => MBS_ERR_INVALID_MARKER,
        Error::SameMarker => MBS_ERR_SAME_MARKER,
        Error::SameBody => MBS_ERR_SAME_BODY,
        Error::WrongNodeKind => MBS_ERR_WRONG_NODE_KIND,
        Error::NotAssembled => MBS_ERR_NOT_ASSEMBLED,
        Error::SolverFailed => MBS_ERR_SOLVER_FAILED,
        Error::NodeAlreadyUsed => MBS_ERR_NODE_ALREADY_USED,
        Error::NodeWithoutBody => MBS_ERR_NODE_WITHOUT_BODY,
        Error::SingularMatrix => MBS_ERR_SINGULAR_MATRIX,
        Error::NewtonNotConverged => MBS_ERR_NEWTON_NOT_CONVERGED,
        Error::ConstraintViolated => MBS_ERR_CONSTRAINT_VIOLATED,
        Error::NotSupportedByScheme => MBS_ERR_NOT_SUPPORTED_BY_SCHEME,
        _ => MBS_ERR_INVALID_ARGUMENT,
    }
}

/// The status of a core error on inputs the caller has already checked finite: a `NotFinite`
/// from core then means that a result overflowed (`MBS_ERR_NON_FINITE_STATE`), e.g. the mass
/// of a huge density.
pub fn status_of_checked(e: Error) -> MbsStatus {
    match e {
        Error::NotFinite(_) => MBS_ERR_NON_FINITE_STATE,
        e => status_of(e),
    }
}

/// The "invalid argument" code (2xx) that names parameter `p`.
pub fn status_of_param(p: Param) -> MbsStatus {
    match p {
        Param::Mass => MBS_ERR_INVALID_MASS,
        Param::Density => MBS_ERR_INVALID_DENSITY,
        Param::Diameter => MBS_ERR_INVALID_DIAMETER,
        Param::InnerDiameter => MBS_ERR_INVALID_INNER_DIAMETER,
        Param::Length => MBS_ERR_INVALID_LENGTH,
        Param::Dimensions => MBS_ERR_INVALID_DIMENSIONS,
        Param::R | Param::RShape | Param::Direction => MBS_ERR_INVALID_DIRECTION,
        Param::Inertia => MBS_ERR_INVALID_INERTIA,
        Param::CenterOfMass | Param::Position => MBS_ERR_INVALID_POSITION,
        Param::TimeStep => MBS_ERR_INVALID_TIME_STEP,
        Param::SimulationTime | Param::Setting | Param::Ratio => MBS_ERR_INVALID_SETTING,
        Param::Force | Param::Torque => MBS_ERR_INVALID_LOAD,
        Param::Damping | Param::Stiffness => MBS_ERR_INVALID_STIFFNESS_DAMPING,
        Param::Velocity
        | Param::AngularVelocity
        | Param::AngularAcceleration
        | Param::Acceleration => MBS_ERR_INVALID_VELOCITY,
        Param::Orientation => MBS_ERR_INVALID_ORIENTATION,
        Param::LocalPosition => MBS_ERR_INVALID_LOCAL_POSITION,
        Param::Sequence => MBS_ERR_INVALID_SEQUENCE,
        Param::Coordinate => MBS_ERR_INVALID_COORDINATE,
        _ => MBS_ERR_INVALID_ARGUMENT,
    }
}

#[cfg(test)]
mod status_of_tests {
    use super::*;

    #[test]
    fn every_param_maps_to_a_2xx_code_and_errors_to_their_codes() {
        assert_eq!(
            status_of(Error::OutOfRange(Param::Mass)),
            MBS_ERR_INVALID_MASS
        );
        assert_eq!(status_of(Error::NotFinite(Param::Mass)), MBS_ERR_NOT_FINITE);
        assert_eq!(status_of(Error::CapacityFull), MBS_ERR_CAPACITY_FULL);
        assert_eq!(status_of(Error::SingularMatrix), MBS_ERR_SINGULAR_MATRIX);
        assert_eq!(
            status_of(Error::NewtonNotConverged),
            MBS_ERR_NEWTON_NOT_CONVERGED
        );
        assert_eq!(
            status_of(Error::ConstraintViolated),
            MBS_ERR_CONSTRAINT_VIOLATED
        );
        assert_eq!(
            status_of(Error::NotSupportedByScheme),
            MBS_ERR_NOT_SUPPORTED_BY_SCHEME
        );
        assert_eq!(
            status_of(Error::OutOfRange(Param::Coordinate)),
            MBS_ERR_INVALID_COORDINATE
        );
        assert_eq!(
            status_of(Error::ZeroLength(Param::Length)),
            MBS_ERR_INVALID_LENGTH
        );
    }
}
