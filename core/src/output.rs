//! Output variables, shared by all bodies (Exudyn's `OutputVariableType`), and their values.
//!
//! A body answers only the variables its page defines; asking for another one is
//! [`Error::OutputNotAvailable`](crate::Error::OutputNotAvailable), never a zero.

use nalgebra::{Matrix3, Vector3};

/// What to read from a body, node or sensor. Frames and units are those of each body's docs;
/// vectors are resolved in the world frame unless the name says `Local`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OutputVariableType {
    /// Position of a point given by a local position (m, world frame).
    Position,
    /// Displacement of the node from its reference position (m, world frame).
    Displacement,
    /// Velocity of a point given by a local position (m/s, world frame).
    Velocity,
    /// Acceleration of a point given by a local position (m/s^2, world frame).
    Acceleration,
    /// Rotation matrix `R_0b` (body to world), 3x3, row-major when flattened.
    RotationMatrix,
    /// Rotation parameters (rad); each body states its convention.
    Rotation,
    /// Angular velocity (rad/s, world frame).
    AngularVelocity,
    /// Angular velocity (rad/s, body frame).
    AngularVelocityLocal,
    /// Angular acceleration (rad/s^2, world frame).
    AngularAcceleration,
    /// Kinetic energy (J).
    KineticEnergy,
    /// Potential (elastic) energy of the body itself (J); loads such as gravity are not part of it.
    PotentialEnergy,
    /// A constraint's force: its Lagrange multipliers (N, or N m for a rotation equation;
    /// each constraint states its convention).
    Force,
    /// A constraint's residual `C(q)` (m or rad): zero to the Newton tolerance while the
    /// constraint holds.
    ConstraintResidual,
    /// A 2D node's coordinates (Exudyn's `Coordinates`: the displacements `[x, y]` of a
    /// `NodePoint2D`, `[x, y, theta]` of a `NodeRigidBody2D`; as a 3-vector, unused entries 0).
    Coordinates,
    /// Their velocities (Exudyn's `Coordinates_t`).
    CoordinatesT,
    /// Their accelerations of the last step (Exudyn's `Coordinates_tt`).
    CoordinatesTT,
    /// A joint's force on marker 0's body in marker 0's frame (N; Exudyn's `ForceLocal`).
    ForceLocal,
    /// A joint's torque on marker 0's body about marker 0's point (N m, world; Exudyn's
    /// `Torque`).
    Torque,
    /// The same torque in marker 0's frame (N m; Exudyn's `TorqueLocal`).
    TorqueLocal,
    /// A joint's relative displacement: marker 1's point from marker 0's, in marker 0's joint
    /// frame (m; Exudyn's `DisplacementLocal`): a prismatic joint's travel along its axis.
    DisplacementLocal,
    /// A joint's relative velocity: marker 1's point's minus marker 0's, in marker 0's joint
    /// frame (m/s; Exudyn's `VelocityLocal`): a prismatic joint's speed along its axis.
    VelocityLocal,
}

impl OutputVariableType {
    /// Every variable, in declaration order (the C API's `MBS_OUTPUT_*` numbers).
    pub const ALL: [OutputVariableType; 21] = [
        Self::Position,
        Self::Displacement,
        Self::Velocity,
        Self::Acceleration,
        Self::RotationMatrix,
        Self::Rotation,
        Self::AngularVelocity,
        Self::AngularVelocityLocal,
        Self::AngularAcceleration,
        Self::KineticEnergy,
        Self::PotentialEnergy,
        Self::Force,
        Self::ConstraintResidual,
        Self::Coordinates,
        Self::CoordinatesT,
        Self::CoordinatesTT,
        Self::ForceLocal,
        Self::Torque,
        Self::TorqueLocal,
        Self::DisplacementLocal,
        Self::VelocityLocal,
    ];

    /// Exudyn's name of the variable (`"Position"`, `"Coordinates_t"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Self::Position => "Position",
            Self::Displacement => "Displacement",
            Self::Velocity => "Velocity",
            Self::Acceleration => "Acceleration",
            Self::RotationMatrix => "RotationMatrix",
            Self::Rotation => "Rotation",
            Self::AngularVelocity => "AngularVelocity",
            Self::AngularVelocityLocal => "AngularVelocityLocal",
            Self::AngularAcceleration => "AngularAcceleration",
            Self::KineticEnergy => "KineticEnergy",
            Self::PotentialEnergy => "PotentialEnergy",
            Self::Force => "Force",
            Self::ConstraintResidual => "ConstraintResidual",
            Self::Coordinates => "Coordinates",
            Self::CoordinatesT => "Coordinates_t",
            Self::CoordinatesTT => "Coordinates_tt",
            Self::ForceLocal => "ForceLocal",
            Self::Torque => "Torque",
            Self::TorqueLocal => "TorqueLocal",
            Self::DisplacementLocal => "DisplacementLocal",
            Self::VelocityLocal => "VelocityLocal",
        }
    }

    /// The variable named `name`: its [`Self::name`], compared without ASCII case and
    /// underscores (`"coordinates_t"` and `"CoordinatesT"` are `CoordinatesT`).
    pub fn from_name(name: &str) -> Option<Self> {
        let same = |a: &str, b: &str| {
            let mut a = a.bytes().filter(|c| *c != b'_');
            let mut b = b.bytes().filter(|c| *c != b'_');
            loop {
                match (a.next(), b.next()) {
                    (None, None) => return true,
                    (Some(x), Some(y)) if x.eq_ignore_ascii_case(&y) => {}
                    _ => return false,
                }
            }
        };
        Self::ALL.into_iter().find(|v| same(v.name(), name))
    }
}

/// The value of an output variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OutputValue<T> {
    /// A scalar (energies).
    Scalar(T),
    /// A 3-vector (positions, velocities, rotations).
    Vector3(Vector3<T>),
    /// A 3x3 matrix (rotation matrix).
    Matrix3(Matrix3<T>),
}

impl<T: crate::Real> OutputValue<T> {
    /// Number of components: 1, 3 or 9.
    pub fn len(&self) -> usize {
        match self {
            OutputValue::Scalar(_) => 1,
            OutputValue::Vector3(_) => 3,
            OutputValue::Matrix3(_) => 9,
        }
    }

    /// Always `false` (a value has at least one component).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The scalar, or `None` for a vector or matrix.
    pub fn as_scalar(&self) -> Option<T> {
        match self {
            OutputValue::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The 3-vector (a position, a velocity, ...), or `None` for a scalar or matrix.
    pub fn as_vector3(&self) -> Option<Vector3<T>> {
        match self {
            OutputValue::Vector3(v) => Some(*v),
            _ => None,
        }
    }

    /// The 3x3 matrix (a rotation matrix), or `None` for a scalar or vector.
    pub fn as_matrix3(&self) -> Option<Matrix3<T>> {
        match self {
            OutputValue::Matrix3(m) => Some(*m),
            _ => None,
        }
    }

    /// Writes the components into `out` (matrices row-major) and returns how many were written;
    /// `Err(CapacityFull)` and nothing written if `out` is too short.
    pub fn write_to(&self, out: &mut [T]) -> crate::Result<usize> {
        let n = self.len();
        if out.len() < n {
            return Err(crate::Error::CapacityFull);
        }
        match self {
            OutputValue::Scalar(s) => out[0] = *s,
            OutputValue::Vector3(v) => out[..3].copy_from_slice(v.as_slice()),
            OutputValue::Matrix3(m) => {
                for i in 0..3 {
                    for j in 0..3 {
                        out[3 * i + j] = m[(i, j)];
                    }
                }
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_has_one_name_and_is_found_by_it() {
        for (i, v) in OutputVariableType::ALL.into_iter().enumerate() {
            assert_eq!(OutputVariableType::from_name(v.name()), Some(v));
            // Declaration order: the position in ALL is the discriminant.
            assert_eq!(v as usize, i);
        }
        assert_eq!(
            OutputVariableType::from_name("coordinates_T"),
            Some(OutputVariableType::CoordinatesT)
        );
        assert_eq!(OutputVariableType::from_name("Speed"), None);
        assert_eq!(
            OutputVariableType::from_name("Position_"),
            Some(OutputVariableType::Position)
        );
        assert_eq!(OutputVariableType::from_name(""), None);
    }

    #[test]
    fn each_reader_gives_its_kind_and_none_for_the_others() {
        let (s, v, m) = (
            2.5f64,
            Vector3::new(1.0, 2.0, 3.0),
            Matrix3::identity() * 4.0,
        );
        let all = [
            OutputValue::Scalar(s),
            OutputValue::Vector3(v),
            OutputValue::Matrix3(m),
        ];
        assert_eq!(all.map(|o| o.as_scalar()), [Some(s), None, None]);
        assert_eq!(all.map(|o| o.as_vector3()), [None, Some(v), None]);
        assert_eq!(all.map(|o| o.as_matrix3()), [None, None, Some(m)]);
    }

    #[test]
    fn matrices_flatten_row_major_and_short_buffers_are_refused() {
        let m = Matrix3::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
        let mut out = [0.0; 9];
        assert_eq!(OutputValue::Matrix3(m).write_to(&mut out), Ok(9));
        assert_eq!(out, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        let mut short = [7.0; 2];
        assert!(OutputValue::Vector3(Vector3::new(1.0, 2.0, 3.0))
            .write_to(&mut short)
            .is_err());
        assert_eq!(short, [7.0; 2]);
    }
}
