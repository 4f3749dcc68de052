//! The one error type of `mbs-core`: every fallible function returns [`Result`].
//!
//! Errors are values, never panics. A function that returns an error has not changed its
//! inputs or its `&mut` state (checks come before writes). Variants carry the [`Param`] that
//! was refused, so the C API can name it.

/// `core::result::Result` with [`Error`].
pub type Result<T> = core::result::Result<T, Error>;

/// Which input a validation refused. Names follow the Modelica / Exudyn parameter names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Param {
    /// A mass (kg).
    Mass,
    /// A density (kg/m^3).
    Density,
    /// A cylinder or sphere (outer) diameter (m).
    Diameter,
    /// A cylinder's or sphere's inner diameter (m).
    InnerDiameter,
    /// A length (m).
    Length,
    /// A box's edge lengths (m).
    Dimensions,
    /// The vector `r` from frame_a to frame_b (m).
    R,
    /// The vector `r_shape` from frame_a to the shape origin (m).
    RShape,
    /// A direction vector (length direction, axis; -).
    Direction,
    /// A moment of inertia or inertia tensor (kg m^2).
    Inertia,
    /// A centre-of-mass position (m).
    CenterOfMass,
    /// A time step (s).
    TimeStep,
    /// An end time or a step count of a simulation.
    SimulationTime,
    /// A force (N).
    Force,
    /// A torque (N m).
    Torque,
    /// A damping or resistance coefficient (N s/m, N m s).
    Damping,
    /// A stiffness (N/m).
    Stiffness,
    /// A position or displacement coordinate (m).
    Position,
    /// A velocity coordinate (m/s).
    Velocity,
    /// An orientation (quaternion or angles).
    Orientation,
    /// An angular velocity (rad/s).
    AngularVelocity,
    /// An angular acceleration (rad/s^2).
    AngularAcceleration,
    /// An acceleration (m/s^2), e.g. gravity.
    Acceleration,
    /// A local position on a body (m, body frame).
    LocalPosition,
    /// A rotation sequence (each axis 1, 2 or 3, consecutive axes distinct).
    Sequence,
    /// A solver setting (spectral radius, tolerance, ...).
    Setting,
    /// A width fraction or other dimensionless ratio.
    Ratio,
    /// A color (RGBA, each component in [0, 1] or -1 for the default color).
    Color,
    /// A radius of a drawn shape (m).
    Radius,
    /// A coordinate of a node (its index among the node's coordinates).
    Coordinate,
}

/// Everything that can go wrong in `mbs-core`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The parameter is NaN or infinite.
    NotFinite(Param),
    /// The parameter is outside its allowed range (negative density, mass <= 0, dt <= 0, ...).
    OutOfRange(Param),
    /// The parameter is a zero-length vector (or zero length) where a direction or extent is needed.
    ZeroLength(Param),
    /// A cylinder's or sphere's inner diameter is not strictly below its diameter
    /// (Modelica's assert: `innerDiameter < diameter`).
    InnerDiameterNotBelowDiameter,
    /// The state (positions, velocities, orientation) holds NaN or infinity.
    NonFiniteState,
    /// An index names no item of that kind.
    UnknownIndex,
    /// A fixed-capacity container is full.
    CapacityFull,
    /// The item does not provide the requested output variable.
    OutputNotAvailable,
    /// The item does not provide the requested Jacobian (e.g. a rotation Jacobian of a mass point).
    JacobianNotAvailable,
    /// The output is only defined at local position `[0, 0, 0]` (Exudyn: "localPosition must be `[0,0,0]`").
    LocalPositionMustBeZero,
    /// A marker type that the body cannot carry (e.g. a rigid marker on a mass point).
    MarkerNotSupported,
    /// A connector or a joint joins a marker with itself.
    SameMarker,
    /// A constraint joins a body (or the ground) with itself: its two markers are on one node
    /// or both on the ground.
    SameBody,
    /// An item refers to a node of the wrong kind (e.g. a mass point on a rigid-body node).
    WrongNodeKind,
    /// The system was changed or never assembled: call `assemble` first.
    NotAssembled,
    /// The step's matrix is singular (or the Newton iteration did not converge).
    SolverFailed,
    /// A second body on a node that already carries one (a node belongs to one body).
    NodeAlreadyUsed,
    /// A node with coordinates (a 2D point or a rigid-body node) that no body gives a mass.
    NodeWithoutBody,
    /// The Newton matrix of a constrained step is singular: redundant or contradictory
    /// constraints (or a massless coordinate).
    SingularMatrix,
    /// The Newton iteration of an implicit step did not converge within its iterations.
    NewtonNotConverged,
    /// The positions violate a constraint beyond the tolerance (and no assembly was asked for).
    ConstraintViolated,
    /// The system's integration scheme cannot step this item: a constraint with an explicit
    /// scheme (constraints need generalized-alpha).
    NotSupportedByScheme,
}

impl Error {
    /// The refused parameter, if the error names one.
    pub fn param(&self) -> Option<Param> {
        match *self {
            Error::NotFinite(p) | Error::OutOfRange(p) | Error::ZeroLength(p) => Some(p),
            Error::InnerDiameterNotBelowDiameter => Some(Param::InnerDiameter),
            _ => None,
        }
    }
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::NotFinite(p) => write!(f, "{p:?} is NaN or infinite"),
            Error::OutOfRange(p) => write!(f, "{p:?} is out of range"),
            Error::ZeroLength(p) => write!(f, "{p:?} has zero length"),
            Error::InnerDiameterNotBelowDiameter => {
                f.write_str("innerDiameter must be below diameter")
            }
            Error::NonFiniteState => f.write_str("state is NaN or infinite"),
            Error::UnknownIndex => f.write_str("unknown index"),
            Error::CapacityFull => f.write_str("capacity full"),
            Error::OutputNotAvailable => f.write_str("output variable not available for this item"),
            Error::JacobianNotAvailable => f.write_str("Jacobian not available for this item"),
            Error::LocalPositionMustBeZero => {
                f.write_str("local position must be [0,0,0] for this output")
            }
            Error::MarkerNotSupported => f.write_str("marker type not supported by this body"),
            Error::SameMarker => f.write_str("a connector or joint joins a marker with itself"),
            Error::SameBody => f.write_str("constraint joins a body with itself"),
            Error::WrongNodeKind => f.write_str("node of the wrong kind"),
            Error::NotAssembled => f.write_str("system not assembled"),
            Error::SolverFailed => f.write_str("solver failed (singular matrix or no convergence)"),
            Error::NodeAlreadyUsed => f.write_str("node already carries a body"),
            Error::NodeWithoutBody => f.write_str("node has no body (no mass)"),
            Error::SingularMatrix => {
                f.write_str("singular Newton matrix (redundant or contradictory constraints)")
            }
            Error::NewtonNotConverged => f.write_str("Newton iteration did not converge"),
            Error::ConstraintViolated => f.write_str("positions violate a constraint"),
            Error::NotSupportedByScheme => {
                f.write_str("the integration scheme does not support this item")
            }
        }
    }
}

/// `Error` is a `core::error::Error` (no `std` needed): `?` lifts it into `Box<dyn Error>` and
/// error-reporting crates on the host.
impl core::error::Error for Error {}

/// Returns `Ok(x)` if `x` is finite, else `Err(NotFinite(p))`.
#[inline]
pub fn finite<T: crate::real::Real>(x: T, p: Param) -> Result<T> {
    if x.finite() {
        Ok(x)
    } else {
        Err(Error::NotFinite(p))
    }
}

/// Checks a finite vector or matrix, else `Err(NotFinite(p))`.
#[inline]
pub fn finite_all<T: crate::real::Real, R: nalgebra::Dim, C: nalgebra::Dim, S>(
    m: &nalgebra::Matrix<T, R, C, S>,
    p: Param,
) -> Result<()>
where
    S: nalgebra::RawStorage<T, R, C> + nalgebra::IsContiguous,
{
    if crate::finite::all_finite(m) {
        Ok(())
    } else {
        Err(Error::NotFinite(p))
    }
}
