//! `BodyCylinder` (Modelica Standard Library `Modelica.Mechanics.MultiBody.Parts.BodyCylinder`): a [`RigidBody`] whose mass properties come
//! from a cylinder ([`Cylinder`]), with frame_a, frame_b and Modelica's initialization options.
//!
//! Frames: frame_a is the body frame and its origin the reference point (the node of the
//! [`RigidState`]); frame_b is at `r` (m, resolved in frame_a) from frame_a and always parallel to
//! it. The mass properties (mass, COM `r_CM` and inertia about the COM, resolved in frame_a) are
//! exactly [`Cylinder::mass_properties`] (Modelica's quirk included: the inertia's symmetry axis
//! is along `r`, the COM along `lengthDirection`).
//!
//! Initialization (Modelica's `Body` parameters): `r_0_start` (m, world: position of frame_a),
//! `v_0_start` (m/s, world), `angles_start` (rad) with `sequence_start` (default `{1,2,3}`):
//! `R_start = axesRotations(sequence_start, angles_start)` is Modelica's orientation `T`
//! (world -> frame_a), so the state's quaternion is that of `R_0b = T^T`; `w_0_start` (rad/s,
//! **world** frame) gives the body-frame rate `w_a = resolve2(R_start, w_0_start) = T w_0_start`;
//! `z_0_start` (rad/s^2, world) gives the body-frame angular acceleration `T z_0_start`.
//!
//! The `*_fixed` flags are kept as documented booleans: in Modelica `true` makes the start value
//! an initial condition and `false` only a guess for the initialization solver. mbs has no
//! initialization solver, so **every start value is used as the initial value**, whatever its
//! flag; the flags only record the model author's intent (and a later initialization stage may
//! honour them).

use super::rigid_body::RigidBody;
use crate::body::{Body, Jacobian};
use crate::error::finite_all;
use crate::frames::{axes_rotations, to_quaternion};
use crate::graphics::{Color, DEFAULT_SPECULAR_COEFFICIENT};
use crate::inertia::{Cylinder, CylinderDerived};
use crate::state::RigidState;
use crate::{OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::Vector3;

/// Modelica's initialization parameters of a body (all defaults zero, `sequence_start = {1,2,3}`,
/// every `*_fixed = false`); see the module docs for frames and the meaning of the flags.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelicaStart<T> {
    /// `r_0.start`: position of frame_a's origin (m, world).
    pub r_0_start: Vector3<T>,
    /// `r_0.fixed`: `true` = initial value, `false` = guess (used as initial value in mbs).
    pub r_0_fixed: bool,
    /// `v_0.start`: velocity of frame_a's origin (m/s, world).
    pub v_0_start: Vector3<T>,
    /// `v_0.fixed`: initial value vs guess (used as initial value in mbs).
    pub v_0_fixed: bool,
    /// `angles_start`: angles (rad) rotating the world frame about `sequence_start` into frame_a.
    pub angles_start: [T; 3],
    /// `sequence_start`: the axes (1, 2 or 3, consecutive axes distinct) of `angles_start`.
    pub sequence_start: [u8; 3],
    /// `angles_fixed`: initial value vs guess (used as initial value in mbs).
    pub angles_fixed: bool,
    /// `w_0_start`: angular velocity of frame_a (rad/s, **world** frame).
    pub w_0_start: Vector3<T>,
    /// `w_0_fixed`: initial value vs guess (used as initial value in mbs).
    pub w_0_fixed: bool,
    /// `z_0_start`: angular acceleration `der(w_0)` (rad/s^2, world frame); it only sets the
    /// state's last angular acceleration (an output), not the dynamics.
    pub z_0_start: Vector3<T>,
    /// `z_0_fixed`: initial value vs guess (used as initial value in mbs).
    pub z_0_fixed: bool,
}

impl<T: Real> Default for ModelicaStart<T> {
    fn default() -> Self {
        Self {
            r_0_start: Vector3::zeros(),
            r_0_fixed: false,
            v_0_start: Vector3::zeros(),
            v_0_fixed: false,
            angles_start: [T::zero(); 3],
            sequence_start: [1, 2, 3],
            angles_fixed: false,
            w_0_start: Vector3::zeros(),
            w_0_fixed: false,
            z_0_start: Vector3::zeros(),
            z_0_fixed: false,
        }
    }
}

impl<T: Real> ModelicaStart<T> {
    /// The initial node state: `position = r_0_start`, `orientation` = quaternion of
    /// `R_0b = axesRotations(sequence_start, angles_start)^T`, `velocity = v_0_start`,
    /// `angular_velocity = T w_0_start` (body), `angular_acceleration = T z_0_start` (body),
    /// `acceleration = 0`.
    ///
    /// Errors: `NotFinite(Position | Velocity | AngularVelocity | AngularAcceleration)`,
    /// `OutOfRange(Sequence)` for an invalid sequence, `NotFinite(Orientation)` for a non-finite
    /// angle.
    pub fn state(&self) -> Result<RigidState<T>> {
        finite_all(&self.r_0_start, Param::Position)?;
        finite_all(&self.v_0_start, Param::Velocity)?;
        finite_all(&self.w_0_start, Param::AngularVelocity)?;
        finite_all(&self.z_0_start, Param::AngularAcceleration)?;
        if !self.angles_start.iter().all(|a| a.finite()) {
            return Err(crate::Error::NotFinite(Param::Orientation));
        }
        let t = axes_rotations(self.sequence_start, self.angles_start)?;
        let mut s = RigidState::new(
            self.r_0_start,
            to_quaternion(&t),
            self.v_0_start,
            t * self.w_0_start,
        );
        s.angular_acceleration = t * self.z_0_start;
        Ok(s)
    }
}

/// Modelica `BodyCylinder`'s animation parameters: `animation` (default `true`:
/// show the cylinder between frame_a and frame_b), `color` (default
/// `Types.Defaults.BodyColor = {0, 128, 255}`, [`Color::MODELICA_BODY`]; a [`Color`] with `-1`
/// components takes them from `bodies.defaultColor`), `specularCoefficient` (-, >= 0; default
/// `world.defaultSpecularCoefficient = 0.7`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CylinderAnimation {
    /// `animation`: draw the cylinder (default `true`).
    pub animation: bool,
    /// `color` (default [`Color::MODELICA_BODY`]).
    pub color: Color,
    /// `specularCoefficient` (-, >= 0; default [`DEFAULT_SPECULAR_COEFFICIENT`] = 0.7).
    pub specular_coefficient: f32,
}

impl Default for CylinderAnimation {
    fn default() -> Self {
        Self {
            animation: true,
            color: Color::MODELICA_BODY,
            specular_coefficient: DEFAULT_SPECULAR_COEFFICIENT,
        }
    }
}

impl CylinderAnimation {
    /// `Ok` if the specular coefficient is finite (`NotFinite(Ratio)`) and >= 0
    /// (`OutOfRange(Ratio)`).
    pub fn validate(&self) -> Result<()> {
        if !self.specular_coefficient.is_finite() {
            return Err(crate::Error::NotFinite(Param::Ratio));
        }
        if self.specular_coefficient < 0.0 {
            return Err(crate::Error::OutOfRange(Param::Ratio));
        }
        Ok(())
    }
}

/// The parameters of a [`BodyCylinder`]: Modelica's `BodyCylinder` parameter list (the setters
/// forward to [`Cylinder`]; defaults as there), its animation parameters
/// ([`CylinderAnimation`]) and the [`ModelicaStart`] initialization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyCylinderParams<T> {
    r: Vector3<T>,
    cylinder: Cylinder<T>,
    start: ModelicaStart<T>,
    look: CylinderAnimation,
}

impl<T: Real> BodyCylinderParams<T> {
    /// Sets `r` (m, frame_a): frame_a to frame_b.
    pub fn r(mut self, r: Vector3<T>) -> Self {
        self.r = r;
        self.cylinder = self.cylinder.r(r);
        self
    }
    /// Sets `r_shape` (m, frame_a), default 0.
    pub fn r_shape(mut self, v: Vector3<T>) -> Self {
        self.cylinder = self.cylinder.r_shape(v);
        self
    }
    /// Sets `lengthDirection` (-, frame_a), default `r - r_shape`.
    pub fn length_direction(mut self, v: Vector3<T>) -> Self {
        self.cylinder = self.cylinder.length_direction(v);
        self
    }
    /// Sets `length` (m), default `|r - r_shape|`.
    pub fn length(mut self, l: T) -> Self {
        self.cylinder = self.cylinder.length(l);
        self
    }
    /// Sets `diameter` (m), default `length / width_fraction`.
    pub fn diameter(mut self, d: T) -> Self {
        self.cylinder = self.cylinder.diameter(d);
        self
    }
    /// Sets `innerDiameter` (m), default 0.
    pub fn inner_diameter(mut self, d: T) -> Self {
        self.cylinder = self.cylinder.inner_diameter(d);
        self
    }
    /// Sets `density` (kg/m^3), default 7700.
    pub fn density(mut self, rho: T) -> Self {
        self.cylinder = self.cylinder.density(rho);
        self
    }
    /// Sets the width fraction (-), default 20.
    pub fn width_fraction(mut self, f: T) -> Self {
        self.cylinder = self.cylinder.width_fraction(f);
        self
    }
    /// Sets the initialization.
    pub fn start(mut self, start: ModelicaStart<T>) -> Self {
        self.start = start;
        self
    }
    /// Sets `animation` (default `true`; `false` hides the cylinder).
    pub fn animation(mut self, animation: bool) -> Self {
        self.look.animation = animation;
        self
    }
    /// Sets `color` (default [`Color::MODELICA_BODY`]).
    pub fn color(mut self, color: Color) -> Self {
        self.look.color = color;
        self
    }
    /// Sets `specularCoefficient` (-, >= 0; default 0.7).
    pub fn specular_coefficient(mut self, s: f32) -> Self {
        self.look.specular_coefficient = s;
        self
    }

    /// Validates and builds the body: the cylinder's checks ([`Cylinder::derived`]), then
    /// [`RigidBody::new`] (`OutOfRange(Mass)` for a zero density: a massless body has no
    /// dynamics), then the start state ([`ModelicaStart::state`]), then the animation
    /// parameters ([`CylinderAnimation::validate`]).
    pub fn build(&self) -> Result<BodyCylinder<T>> {
        let derived = self.cylinder.derived()?;
        let mp = self.cylinder.mass_properties()?;
        let initial = self.start.state()?;
        self.look.validate()?;
        let body = RigidBody::from_mass_properties(&mp)?
            .with_reference(initial.position, initial.orientation)?;
        Ok(BodyCylinder {
            body,
            r: self.r,
            derived,
            start: self.start,
            initial,
            look: self.look,
        })
    }
}

/// A rigid cylinder body; see the module docs. Outputs and Jacobians are those of
/// its [`RigidBody`] (local positions from frame_a, in frame_a); frame_b is the local position
/// [`BodyCylinder::r`]. `Displacement` is measured from the start pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyCylinder<T> {
    body: RigidBody<T>,
    r: Vector3<T>,
    derived: CylinderDerived<T>,
    start: ModelicaStart<T>,
    initial: RigidState<T>,
    look: CylinderAnimation,
}

impl<T: Real> BodyCylinder<T> {
    /// The parameters of a cylinder from frame_a to frame_b at `r` (m, frame_a), every other
    /// parameter at Modelica's default; finish with [`BodyCylinderParams::build`].
    pub fn params(r: Vector3<T>) -> BodyCylinderParams<T> {
        BodyCylinderParams {
            r,
            cylinder: Cylinder::new(r),
            start: ModelicaStart::default(),
            look: CylinderAnimation::default(),
        }
    }

    /// The rigid body (mass, inertia, COM in frame_a) the steps integrate.
    pub fn body(&self) -> &RigidBody<T> {
        &self.body
    }

    /// `r` (m, frame_a): frame_b's local position.
    pub fn r(&self) -> &Vector3<T> {
        &self.r
    }

    /// Every derived value of Modelica's parameter table.
    pub fn derived(&self) -> &CylinderDerived<T> {
        &self.derived
    }

    /// The initialization parameters.
    pub fn start(&self) -> &ModelicaStart<T> {
        &self.start
    }

    /// The animation parameters (`animation`, `color`, `specularCoefficient`).
    pub fn animation(&self) -> &CylinderAnimation {
        &self.look
    }

    /// `r_shape` (m, frame_a): where the cylinder starts, `r_CM - e length/2` with
    /// `e = lengthDirection/|lengthDirection|` (from the derived values; equal to the given
    /// `r_shape` to rounding).
    pub fn r_shape(&self) -> Vector3<T> {
        let d = &self.derived;
        let n = d.length_direction.dot(&d.length_direction).sqrt_l();
        d.r_cm - d.length_direction * (d.length * T::c(0.5) / n)
    }

    /// The initial node state from the start values (see [`ModelicaStart::state`]).
    pub fn initial_state(&self) -> RigidState<T> {
        self.initial
    }

    /// Position of frame_b's origin, `r_0 + R_0b r` (m, world).
    pub fn frame_b_position(&self, state: &RigidState<T>) -> Result<Vector3<T>> {
        self.vector_output(state, OutputVariableType::Position, &self.r)
    }

    /// Velocity of frame_b's origin, `v_0 + R_0b (w_b x r)` (m/s, world).
    pub fn frame_b_velocity(&self, state: &RigidState<T>) -> Result<Vector3<T>> {
        self.vector_output(state, OutputVariableType::Velocity, &self.r)
    }

    fn vector_output(
        &self,
        state: &RigidState<T>,
        var: OutputVariableType,
        p: &Vector3<T>,
    ) -> Result<Vector3<T>> {
        match self.body.output(state, var, p)? {
            OutputValue::Vector3(v) => Ok(v),
            _ => Err(crate::Error::OutputNotAvailable),
        }
    }
}

impl<T: Real> Body<T> for BodyCylinder<T> {
    type State = RigidState<T>;

    fn coordinates(&self) -> usize {
        self.body.coordinates()
    }

    /// As [`RigidBody`]'s outputs (local positions from frame_a, resolved in frame_a).
    fn output(
        &self,
        state: &RigidState<T>,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        self.body.output(state, var, local_position)
    }

    fn position_jacobian(
        &self,
        state: &RigidState<T>,
        local_position: &Vector3<T>,
    ) -> Result<Jacobian<T>> {
        self.body.position_jacobian(state, local_position)
    }

    fn rotation_jacobian(&self, state: &RigidState<T>) -> Result<Jacobian<T>> {
        self.body.rotation_jacobian(state)
    }

    fn mass_jacobian_integral(&self, state: &RigidState<T>) -> Result<Jacobian<T>> {
        self.body.mass_jacobian_integral(state)
    }
}
