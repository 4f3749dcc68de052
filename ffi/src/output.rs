//! Output variables from the C side: `mbs_output_variable` values with fixed numbers (the
//! order of core's `OutputVariableType`, never renumbered), and the writing of an output value
//! into a caller's buffer.

use crate::boundary::FfiResult;
use crate::status::*;
use mbs_core::{OutputValue, OutputVariableType, Real};

/// Which output to read (`MBS_OUTPUT_*`). A fixed-width integer, not a C enum, so its size is
/// the same on every ABI. Vectors are resolved in the world frame unless the name says `LOCAL`;
/// matrices are written row-major. Each body documents which variables it provides; asking for
/// another one is `MBS_ERR_NOT_AVAILABLE`, an unknown number `MBS_ERR_INVALID_ARGUMENT`.
pub type MbsOutputVariable = u32;

/// Position of the point at the local position (m, world), 3 values.
pub const MBS_OUTPUT_POSITION: MbsOutputVariable = 0;
/// Displacement from the reference configuration (m, world), 3 values.
pub const MBS_OUTPUT_DISPLACEMENT: MbsOutputVariable = 1;
/// Velocity of the point at the local position (m/s, world), 3 values.
pub const MBS_OUTPUT_VELOCITY: MbsOutputVariable = 2;
/// Acceleration of the point at the local position (m/s^2, world), 3 values.
pub const MBS_OUTPUT_ACCELERATION: MbsOutputVariable = 3;
/// Rotation matrix `R_0b` (body to world, -), 9 values row-major.
pub const MBS_OUTPUT_ROTATION_MATRIX: MbsOutputVariable = 4;
/// Rotation parameters (rad), 3 values: Tait-Bryan x-y-z angles for a rigid body.
pub const MBS_OUTPUT_ROTATION: MbsOutputVariable = 5;
/// Angular velocity (rad/s, world), 3 values.
pub const MBS_OUTPUT_ANGULAR_VELOCITY: MbsOutputVariable = 6;
/// Angular velocity (rad/s, body frame), 3 values.
pub const MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL: MbsOutputVariable = 7;
/// Angular acceleration (rad/s^2, world), 3 values.
pub const MBS_OUTPUT_ANGULAR_ACCELERATION: MbsOutputVariable = 8;
/// Kinetic energy (J), 1 value.
pub const MBS_OUTPUT_KINETIC_ENERGY: MbsOutputVariable = 9;
/// Potential (elastic) energy stored in the body itself (J), 1 value.
pub const MBS_OUTPUT_POTENTIAL_ENERGY: MbsOutputVariable = 10;
/// A constraint's force: its Lagrange multipliers `[lambda_0, lambda_1, 0]` (N, or N m for a
/// rotation equation; see `mbs_system_constraint_output`).
pub const MBS_OUTPUT_FORCE: MbsOutputVariable = 11;
/// A constraint's residual `[C_0, C_1, 0]` (m or rad): zero to the Newton tolerance while the
/// constraint holds.
pub const MBS_OUTPUT_CONSTRAINT_RESIDUAL: MbsOutputVariable = 12;
/// A 2D node's coordinates (Exudyn's `Coordinates`): `[x, y, 0]` of a 2D point node,
/// `[x, y, theta]` of a 2D rigid-body node (displacements from the reference).
pub const MBS_OUTPUT_COORDINATES: MbsOutputVariable = 13;
/// Their velocities (Exudyn's `Coordinates_t`).
pub const MBS_OUTPUT_COORDINATES_T: MbsOutputVariable = 14;
/// Their accelerations of the last step (Exudyn's `Coordinates_tt`).
pub const MBS_OUTPUT_COORDINATES_TT: MbsOutputVariable = 15;
/// A 3D joint's force on marker 0's body in marker 0's frame (N).
pub const MBS_OUTPUT_FORCE_LOCAL: MbsOutputVariable = 16;
/// A 3D joint's torque on marker 0's body about marker 0's point (N m, world).
pub const MBS_OUTPUT_TORQUE: MbsOutputVariable = 17;
/// The same torque in marker 0's frame (N m).
pub const MBS_OUTPUT_TORQUE_LOCAL: MbsOutputVariable = 18;
/// A 3D joint's relative displacement: marker 1's point from marker 0's, in marker 0's joint
/// frame (m), 3 values: a prismatic joint's travel is its x component.
pub const MBS_OUTPUT_DISPLACEMENT_LOCAL: MbsOutputVariable = 19;
/// A 3D joint's relative velocity: marker 1's point's minus marker 0's, in marker 0's joint
/// frame (m/s), 3 values: a prismatic joint's speed is its x component.
pub const MBS_OUTPUT_VELOCITY_LOCAL: MbsOutputVariable = 20;

/// The core variable of a C value, or `MBS_ERR_INVALID_ARGUMENT`.
pub fn variable(v: MbsOutputVariable) -> FfiResult<OutputVariableType> {
    use OutputVariableType as O;
    Ok(match v {
        MBS_OUTPUT_POSITION => O::Position,
        MBS_OUTPUT_DISPLACEMENT => O::Displacement,
        MBS_OUTPUT_VELOCITY => O::Velocity,
        MBS_OUTPUT_ACCELERATION => O::Acceleration,
        MBS_OUTPUT_ROTATION_MATRIX => O::RotationMatrix,
        MBS_OUTPUT_ROTATION => O::Rotation,
        MBS_OUTPUT_ANGULAR_VELOCITY => O::AngularVelocity,
        MBS_OUTPUT_ANGULAR_VELOCITY_LOCAL => O::AngularVelocityLocal,
        MBS_OUTPUT_ANGULAR_ACCELERATION => O::AngularAcceleration,
        MBS_OUTPUT_KINETIC_ENERGY => O::KineticEnergy,
        MBS_OUTPUT_POTENTIAL_ENERGY => O::PotentialEnergy,
        MBS_OUTPUT_FORCE => O::Force,
        MBS_OUTPUT_CONSTRAINT_RESIDUAL => O::ConstraintResidual,
        MBS_OUTPUT_COORDINATES => O::Coordinates,
        MBS_OUTPUT_COORDINATES_T => O::CoordinatesT,
        MBS_OUTPUT_COORDINATES_TT => O::CoordinatesTT,
        MBS_OUTPUT_FORCE_LOCAL => O::ForceLocal,
        MBS_OUTPUT_TORQUE => O::Torque,
        MBS_OUTPUT_TORQUE_LOCAL => O::TorqueLocal,
        MBS_OUTPUT_DISPLACEMENT_LOCAL => O::DisplacementLocal,
        MBS_OUTPUT_VELOCITY_LOCAL => O::VelocityLocal,
        _ => return Err(MBS_ERR_INVALID_ARGUMENT),
    })
}

/// The number of values output variable `var` has (1, 3 or 9), or 0 for an unknown number.
#[no_mangle]
pub extern "C" fn mbs_output_variable_len(var: MbsOutputVariable) -> usize {
    match var {
        MBS_OUTPUT_KINETIC_ENERGY | MBS_OUTPUT_POTENTIAL_ENERGY => 1,
        MBS_OUTPUT_ROTATION_MATRIX => 9,
        v if v <= MBS_OUTPUT_ANGULAR_ACCELERATION => 3,
        MBS_OUTPUT_FORCE..=MBS_OUTPUT_VELOCITY_LOCAL => 3,
        _ => 0,
    }
}

/// Copies `value` into `out[0..n]` (matrices row-major) and `n` into `*written`, or returns
/// `MBS_ERR_STORAGE` (nothing written) if `out_len < n` and `MBS_ERR_NON_FINITE_STATE` if the
/// value overflowed. The pointers are checked non-null by
/// the caller.
///
/// # Safety
/// `out` is valid for `out_len` writes; `written` is valid for a write.
pub unsafe fn write_value<T: Real>(
    value: &OutputValue<T>,
    out: *mut T,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    let n = value.len();
    if out_len < n {
        return MBS_ERR_STORAGE;
    }
    let mut buf = [T::zero(); 9];
    if value.write_to(&mut buf).is_err() {
        return MBS_ERR_STORAGE;
    }
    if let Err(s) = crate::boundary::finite_result(&buf[..n]) {
        return s;
    }
    // SAFETY: `out` holds at least `out_len >= n` elements; `written` is writable.
    unsafe {
        core::ptr::copy_nonoverlapping(buf.as_ptr(), out, n);
        written.write(n);
    }
    MBS_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_maps_and_lengths_match_the_core_values() {
        use nalgebra::{Matrix3, Vector3};
        for v in 0..=MBS_OUTPUT_VELOCITY_LOCAL {
            let var = variable(v).unwrap();
            let len = match var {
                OutputVariableType::KineticEnergy | OutputVariableType::PotentialEnergy => {
                    OutputValue::Scalar(0.0f64).len()
                }
                OutputVariableType::RotationMatrix => {
                    OutputValue::Matrix3(Matrix3::<f64>::zeros()).len()
                }
                _ => OutputValue::Vector3(Vector3::<f64>::zeros()).len(),
            };
            assert_eq!(mbs_output_variable_len(v), len, "{var:?}");
        }
        assert_eq!(
            variable(MBS_OUTPUT_VELOCITY_LOCAL + 1),
            Err(MBS_ERR_INVALID_ARGUMENT)
        );
        assert_eq!(mbs_output_variable_len(MBS_OUTPUT_VELOCITY_LOCAL + 1), 0);
        assert_eq!(mbs_output_variable_len(u32::MAX), 0);
    }
}
