//! The workloads the firmware runs, written once against `mbs_core` and compiled twice: into
//! the Cortex-M firmware (`firmware/rust`) and into the host test `tests/firmware_qemu.rs`
//! (through `#[path]`), which compares the hashes of both for bit-for-bit determinism.
//!
//! - [`MiniMassPoint`]: the mini example of Exudyn's `ObjectMassPoint2D`, a `MassPoint2D` (m = 1 kg) on a `NodePoint2D`
//!   (reference `[1, 1]`, initial `[0.5, 0]`, velocity `[0.5, 0]` m/s), Exudyn's `SolveDynamic`
//!   defaults (generalized-alpha, rho_inf = 0.9, 100 steps to t = 1 s). Reference: free motion,
//!   final `x = 1 + 0.5 + 0.5 * 1 = 2` m, `y = 1` m.
//! - [`SpinningCylinder`]: a steel `BodyCylinder` (Modelica's: r = [0.1, 0, 0] m, diameter 0.1 m,
//!   Modelica's density 7700 kg/m^3; started with `w_0_start` = [`CYLINDER_W0`]) spinning
//!   torque-free under the linearly implicit midpoint step, dt = 1 ms, 1000 steps. Reference: Euler's equations of a symmetric top
//!   (axial moment `I1`, transverse `I2 = I3`) in the body frame: `w1` constant and
//!   `w2 + i w3 = (w2(0) + i w3(0)) exp(-i lambda t)`, `lambda = (I2 - I1)/I2 w1`; the kinetic
//!   energy `1/2 w.Iw` is conserved. The step converges with order 2 in `w`, so the error at
//!   t = 1 s is about `lambda^3 dt^2 t / 12 |w_perp|` = 3e-5 rad/s (measured: 2.3e-5 rad/s in f64
//!   and in f32).
//!
//! - [`SliderCrankRun`]: the slider-crank of Exudyn's `SliderCrank.py` in redundant
//!   coordinates under a torque, index-3 generalized-alpha with Lagrange multipliers; reference:
//!   the loop closure of the crank angle at every step.
//! - [`SliderCrankSystem`]: the same mechanism built from a system's items (nodes, bodies,
//!   markers, joints, a load) in a `FirmwareConstrainedSystem`, stepped by `System::step`
//!   (what `mbs_system_step` runs), same settings and reference.
//!
//! Each run returns the final state, an FNV-1a hash over the bit patterns of every state
//! component after every step, and the error against the closed form. Only `mbs_core`,
//! `nalgebra`, `libm` and `core` are used here (no std, no allocation).

use crate::arm;
use crate::double_pendulum;
use crate::slider_crank::{add_to_system, start_coordinates, SliderCrank, A0, A1};
use mbs_core::bodies::body_cylinder::{BodyCylinder, ModelicaStart};
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::bodies::MassPoint2D;
use mbs_core::graphics::VisualizationSettings;
use mbs_core::integrators::constrained::{Assembly, ConstrainedAlpha, ConstrainedState, Workspace};
use mbs_core::integrators::rigid::midpoint::LinearlyImplicitMidpoint;
use mbs_core::integrators::{
    GeneralizedAlpha, RigidIntegrator, RigidLoads, SecondOrderState, StepStatus,
};
use mbs_core::nodes::{NodePoint2D, PositionNode};
use mbs_core::solver::settings::NewtonSettings;
use mbs_core::solver::{MassPointOde, SimulationSettings};
use mbs_core::state::RigidState;
use mbs_core::system::{
    AlphaSettings, ConstraintIndex, FirmwareConstrainedSystem, NoSink, NodeIndex, NodeState,
    Rotations, System, SystemScheme, SystemSettings,
};
use mbs_core::tree::{KinematicTree, TreeData, TreeScheme, TreeStepSettings};
use mbs_core::OutputVariableType;
use mbs_core::{Error, Real, Result};
use nalgebra::{Vector2, Vector3};

/// FNV-1a 64-bit offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Steps of the spinning cylinder (the determinism test hashes all of them).
pub const CYLINDER_STEPS: u32 = 1000;
/// Time step of the spinning cylinder (s).
pub const CYLINDER_DT: f64 = 1e-3;
/// Initial body-frame angular velocity of the cylinder (rad/s): 50 rad/s about its axis plus
/// a 1 rad/s wobble.
pub const CYLINDER_W0: [f64; 3] = [50.0, 1.0, 0.0];

/// Folds the 8 little-endian bytes of `bits` into the FNV-1a hash `h`.
#[inline]
pub fn fnv1a(mut h: u64, bits: u64) -> u64 {
    let mut i = 0;
    while i < 8 {
        h ^= (bits >> (8 * i)) & 0xff;
        h = h.wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// Folds the bit pattern of `x` (exactly widened to f64, so f32 and f64 hash the same way).
#[inline]
pub fn hash_real<T: Real>(h: u64, x: T) -> u64 {
    fnv1a(h, x.to_f64().to_bits())
}

/// Folds every component of `xs`.
#[inline]
pub fn hash_all<T: Real>(mut h: u64, xs: &[T]) -> u64 {
    for &x in xs {
        h = hash_real(h, x);
    }
    h
}

/// The larger of two errors; NaN if either is NaN, so a NaN state fails every tolerance.
#[inline]
pub fn worse(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if b > a {
        b
    } else {
        a
    }
}

/// What a workload reports.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// Number of steps taken.
    pub steps: u32,
    /// The headline value of the final state, widened to f64 (exact): `x` (m) of the mass
    /// point, `w1` (rad/s) of the cylinder.
    pub value: f64,
    /// FNV-1a over the bits of every state component after every step.
    pub hash: u64,
    /// Largest absolute deviation from the closed-form reference (NaN on a failed step).
    pub error: f64,
}

impl Outcome {
    fn failed(steps: u32, hash: u64) -> Self {
        Self {
            steps,
            value: f64::NAN,
            hash,
            error: f64::NAN,
        }
    }
}

/// The mini example of Exudyn's `ObjectMassPoint2D`, stepped one generalized-alpha step at a time (what
/// `solve_dynamic` does, with the state exposed between steps).
#[derive(Clone, Copy, Debug)]
pub struct MiniMassPoint<T: Real> {
    node: NodePoint2D<T>,
    body: MassPoint2D<T>,
    integrator: GeneralizedAlpha<T>,
    settings: SimulationSettings<T>,
    /// Integrator state: displacement `q` (m), `q_t` (m/s), `q_tt`, `a` (m/s^2), world.
    pub state: SecondOrderState<T, 2>,
    /// Steps taken.
    pub step_index: u32,
}

impl<T: Real> MiniMassPoint<T> {
    /// The mini example at t = 0 with consistent initial accelerations.
    pub fn new() -> Result<Self> {
        let node = NodePoint2D::new(
            Vector2::new(T::one(), T::one()),
            Vector2::new(T::c(0.5), T::zero()),
            Vector2::new(T::c(0.5), T::zero()),
        )?;
        let body = MassPoint2D::new(T::one())?;
        let settings = SimulationSettings::<T>::default();
        settings.validate()?;
        let integrator =
            GeneralizedAlpha::new(settings.spectral_radius)?.with_newton(settings.newton)?;
        let ode = MassPointOde::new(&node, &body, &[])?;
        let state = integrator.initial_state(
            &ode,
            settings.start_time,
            &node.initial_coordinates(),
            &node.initial_velocities(),
        )?;
        Ok(Self {
            node,
            body,
            integrator,
            settings,
            state,
            step_index: 0,
        })
    }

    /// Number of steps of the example (`SimulationSettings::default().number_of_steps`).
    pub fn steps(&self) -> u32 {
        self.settings.number_of_steps
    }

    /// One step from `t_i = t_0 + i h` to `t_{i+1}`.
    pub fn step(&mut self) -> Result<()> {
        let ode = MassPointOde::new(&self.node, &self.body, &[])?;
        let h = self.settings.step_size();
        let t = self.settings.start_time + h * T::c(f64::from(self.step_index));
        self.integrator.step(&ode, &mut self.state, t, h)?;
        self.step_index += 1;
        Ok(())
    }

    /// Position of the mass point (m, world).
    pub fn position(&self) -> Result<Vector3<T>> {
        self.node.position(&MassPointOde::node_state(&self.state))
    }

    fn hash(&self, h: u64) -> u64 {
        let s = &self.state;
        let h = hash_all(h, s.q.as_slice());
        let h = hash_all(h, s.q_t.as_slice());
        let h = hash_all(h, s.q_tt.as_slice());
        hash_all(h, s.a.as_slice())
    }
}

/// Runs the mini example to its end time; error = `max(|x - 2|, |y - 1|)` (m).
pub fn mini_masspoint<T: Real>() -> Outcome {
    let Ok(mut m) = MiniMassPoint::<T>::new() else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut h = FNV_OFFSET;
    for k in 0..m.steps() {
        if m.step().is_err() {
            return Outcome::failed(k, h);
        }
        h = m.hash(h);
    }
    match m.position() {
        Ok(p) => Outcome {
            steps: m.steps(),
            value: p.x.to_f64(),
            hash: h,
            error: worse(
                libm::fabs(p.x.to_f64() - 2.0),
                libm::fabs(p.y.to_f64() - 1.0),
            ),
        },
        Err(_) => Outcome::failed(m.steps(), h),
    }
}

/// The spinning cylinder and its midpoint step.
#[derive(Clone, Copy, Debug)]
pub struct SpinningCylinder<T: Real> {
    body: RigidBody<T>,
    loads: RigidLoads<T>,
    integrator: LinearlyImplicitMidpoint<T>,
    dt: T,
    /// Pose and twist (position m world, orientation `R_0b`, velocity m/s world, angular
    /// velocity rad/s body).
    pub state: RigidState<T>,
    /// Axial moment `I1` (kg m^2, about the centre of mass).
    pub i1: T,
    /// Transverse moment `I2 = I3` (kg m^2, about the centre of mass).
    pub i2: T,
}

impl<T: Real> SpinningCylinder<T> {
    /// The cylinder with frame_a at the origin, identity orientation, at rest except for
    /// `w_0_start` = [`CYLINDER_W0`] (world = body frame at the start); the reference point is
    /// frame_a, the COM at `[0.05, 0, 0]` m.
    pub fn new() -> Result<Self> {
        let start = ModelicaStart {
            w_0_start: Vector3::new(
                T::c(CYLINDER_W0[0]),
                T::c(CYLINDER_W0[1]),
                T::c(CYLINDER_W0[2]),
            ),
            ..ModelicaStart::default()
        };
        let cylinder = BodyCylinder::params(Vector3::new(T::c(0.1), T::zero(), T::zero()))
            .diameter(T::c(0.1))
            .start(start)
            .build()?;
        let d = cylinder.derived();
        Ok(Self {
            body: *cylinder.body(),
            loads: RigidLoads::none(),
            integrator: LinearlyImplicitMidpoint::new(),
            dt: T::c(CYLINDER_DT),
            state: cylinder.initial_state(),
            i1: d.i11,
            i2: d.i22,
        })
    }

    /// One midpoint step of `dt`; `Err(SolverFailed)` also for the step-size warning (the
    /// workload stays within `|w| dt <= 0.5`).
    pub fn step(&mut self) -> Result<()> {
        let info = self
            .integrator
            .step(&self.body, &self.loads, &mut self.state, self.dt)?;
        if info.status == StepStatus::Ok {
            Ok(())
        } else {
            Err(Error::SolverFailed)
        }
    }

    fn hash(&self, h: u64) -> u64 {
        let s = &self.state;
        let h = hash_all(h, s.position.as_slice());
        let h = hash_all(h, &s.orientation.to_array());
        let h = hash_all(h, s.velocity.as_slice());
        let h = hash_all(h, s.angular_velocity.as_slice());
        let h = hash_all(h, s.acceleration.as_slice());
        hash_all(h, s.angular_acceleration.as_slice())
    }
}

/// Runs the cylinder for `steps` steps; error = the largest of `|w_b - w_closed_form|`
/// (rad/s, component-wise), the relative kinetic-energy change and `| |q| - 1 |`.
pub fn spinning_cylinder<T: Real>(steps: u32) -> Outcome {
    let Ok(mut c) = SpinningCylinder::<T>::new() else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut h = FNV_OFFSET;
    for k in 0..steps {
        if c.step().is_err() {
            return Outcome::failed(k, h);
        }
        h = c.hash(h);
    }
    // Closed form in f64 from the f64 constants (the moments from the type's own values).
    let (i1, i2) = (c.i1.to_f64(), c.i2.to_f64());
    let [w1, w2, w3] = CYLINDER_W0;
    let t = f64::from(steps) * CYLINDER_DT;
    let lambda = (i2 - i1) / i2 * w1;
    let (s, co) = (libm::sin(lambda * t), libm::cos(lambda * t));
    // (w2 + i w3) exp(-i lambda t)
    let reference = [w1, w2 * co + w3 * s, w3 * co - w2 * s];
    let w = c.state.angular_velocity;
    let mut error = 0.0f64;
    for k in 0..3 {
        error = worse(error, libm::fabs(w[k].to_f64() - reference[k]));
    }
    let energy = |w: [f64; 3]| 0.5 * (i1 * w[0] * w[0] + i2 * (w[1] * w[1] + w[2] * w[2]));
    let e0 = energy(CYLINDER_W0);
    let e1 = energy([w[0].to_f64(), w[1].to_f64(), w[2].to_f64()]);
    error = worse(error, libm::fabs(e1 - e0) / e0);
    let q = c.state.orientation.to_array();
    let qn = libm::sqrt(q.iter().map(|x| x.to_f64() * x.to_f64()).sum::<f64>());
    error = worse(error, libm::fabs(qn - 1.0));
    Outcome {
        steps,
        value: w[0].to_f64(),
        hash: h,
        error,
    }
}

/// Steps of the slider-crank (the determinism test hashes all of them).
pub const SLIDER_CRANK_STEPS: u32 = 1000;
/// Time step of the slider-crank (s).
pub const SLIDER_CRANK_DT: f64 = 1e-3;
/// Torque on the crank (N m), as in Exudyn's example.
pub const SLIDER_CRANK_TORQUE: f64 = 10.0;
/// Unknowns the slider-crank's Newton matrix holds: 8 coordinates and 7 multipliers.
pub const SLIDER_CRANK_CAPACITY: usize = 16;

/// The mechanisms' system settings: the generalized-alpha scheme with rho_inf = 0.9, the
/// default Newton tolerances (by precision: `NewtonSettings`), the start projected onto the
/// constraints (positions and rates rounded to T satisfy them only to T's rounding), and the
/// real-time mode's `k` Newton updates a step (0: off).
fn mechanism_settings<T: Real>(k: u32) -> SystemSettings<T> {
    mechanism_settings_on(k, Rotations::EulerParameters)
}

/// [`mechanism_settings`] with the 3D bodies' rotations in `rotations`.
fn mechanism_settings_on<T: Real>(k: u32, rotations: Rotations) -> SystemSettings<T> {
    let mut alpha = AlphaSettings::default();
    alpha.rotations = rotations;
    alpha.real_time_updates = k;
    alpha.spectral_radius = T::c(0.9);
    alpha.assembly.tolerance = T::EPS * T::c(64.0);
    alpha.assembly.solve = true;
    SystemSettings::default()
        .with_scheme(SystemScheme::GeneralizedAlpha)
        .with_alpha(alpha)
}

/// `|x - x(phi)|` (m): the slider's `x` against the loop closure of the crank angle `phi`,
/// `x(phi) = 2 a0 cos(phi) + 2 a1 cos(psi)`, `sin(psi) = -(a0/a1) sin(phi)`.
fn closure_deviation(phi: f64, x: f64) -> f64 {
    let psi = libm::asin(-(A0 / A1) * libm::sin(phi));
    libm::fabs(x - (2.0 * A0 * libm::cos(phi) + 2.0 * A1 * libm::cos(psi)))
}

/// The slider-crank of Exudyn's `SliderCrank.py` ([`crate::slider_crank`]) from rest in the
/// straight configuration under the torque, index-3 generalized-alpha with `rho_inf = 0.9`
/// (Exudyn's default), `dt` = 1 ms. The Newton tolerances follow the precision: Exudyn's
/// (1e-8 relative, 1e-10 absolute) in f64; 1e-5 and 1e-6 in f32, whose rounding is 1e-7.
/// Reference: the loop closure, `x_slider = 2 a0 cos(phi) + 2 a1 cos(psi)`,
/// `sin(psi) = -(a0/a1) sin(phi)`, at every step.
pub struct SliderCrankRun<T: Real> {
    model: SliderCrank<T>,
    solver: ConstrainedAlpha<T>,
    /// The state.
    pub state: ConstrainedState<T, SLIDER_CRANK_CAPACITY>,
    work: Workspace<T, SLIDER_CRANK_CAPACITY>,
}

impl<T: Real> SliderCrankRun<T> {
    /// The mechanism at rest in the straight configuration with its consistent accelerations
    /// and multipliers.
    pub fn new() -> Result<Self> {
        Self::starting_from(start_coordinates::<T>())
    }

    /// The mechanism with the crank at `phi` (rad) turning at `omega` (rad/s): the other
    /// bodies placed and moving by the loop closure, then projected onto the constraints in `T`
    /// (Exudyn's initial assembly).
    pub fn in_motion(phi: f64, omega: f64) -> Result<Self> {
        let (q, v) = (Self::angle_coordinates(phi), Self::angle_rates(phi, omega));
        Self::starting_with(q.map(T::c), v.map(T::c))
    }

    /// The coordinates (absolute) with the crank at `phi` (rad): the loop closure.
    pub fn angle_coordinates(phi: f64) -> [f64; 8] {
        let psi = libm::asin(-(A0 / A1) * libm::sin(phi));
        let (tip_x, tip_y) = (2.0 * A0 * libm::cos(phi), 2.0 * A0 * libm::sin(phi));
        [
            A0 * libm::cos(phi),
            A0 * libm::sin(phi),
            phi,
            tip_x + A1 * libm::cos(psi),
            tip_y + A1 * libm::sin(psi),
            psi,
            tip_x + 2.0 * A1 * libm::cos(psi),
            0.0,
        ]
    }

    /// The velocities (absolute) of [`Self::angle_coordinates`] with the crank turning at
    /// `omega` (rad/s): the time derivative of the loop closure, `psi_t = -(a0/a1) cos(phi)
    /// omega / cos(psi)`.
    pub fn angle_rates(phi: f64, omega: f64) -> [f64; 8] {
        let psi = libm::asin(-(A0 / A1) * libm::sin(phi));
        let psi_t = -(A0 / A1) * libm::cos(phi) * omega / libm::cos(psi);
        let (tip_x_t, tip_y_t) = (
            -2.0 * A0 * libm::sin(phi) * omega,
            2.0 * A0 * libm::cos(phi) * omega,
        );
        [
            -A0 * libm::sin(phi) * omega,
            A0 * libm::cos(phi) * omega,
            omega,
            tip_x_t - A1 * libm::sin(psi) * psi_t,
            tip_y_t + A1 * libm::cos(psi) * psi_t,
            psi_t,
            tip_x_t - 2.0 * A1 * libm::sin(psi) * psi_t,
            0.0,
        ]
    }

    fn starting_from(q0: [T; 8]) -> Result<Self> {
        Self::starting_with(q0, [T::zero(); 8])
    }

    fn starting_with(q0: [T; 8], v0: [T; 8]) -> Result<Self> {
        let model = SliderCrank {
            torque: T::c(SLIDER_CRANK_TORQUE),
        };
        let solver = ConstrainedAlpha::new(T::c(0.9))?.with_newton(NewtonSettings::default())?;
        let mut work = Workspace::default();
        // Positions rounded to T satisfy the constraints to T's rounding: assembled.
        let assembly = Assembly {
            tolerance: T::EPS * T::c(64.0),
            solve: true,
            ..Assembly::default()
        };
        let state = solver.initial_state(&model, T::zero(), &q0, &v0, assembly, &mut work)?;
        Ok(Self {
            model,
            solver,
            state,
            work,
        })
    }

    /// One step of [`SLIDER_CRANK_DT`].
    pub fn step(&mut self) -> Result<()> {
        self.solver
            .step(
                &self.model,
                &mut self.state,
                &mut self.work,
                T::c(SLIDER_CRANK_DT),
            )
            .map(|_| ())
    }
}

/// The slider-crank for `steps` steps: the hash of every coordinate, velocity, acceleration and
/// multiplier after every step, and the largest deviation of the slider from the loop closure
/// of the crank angle (m).
pub fn slider_crank<T: Real>(steps: u32) -> Outcome {
    let Ok(mut run) = SliderCrankRun::<T>::new() else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut h = FNV_OFFSET;
    let mut error = 0.0f64;
    for k in 0..steps {
        if run.step().is_err() {
            return Outcome::failed(k, h);
        }
        let s = &run.state;
        h = hash_all(h, &s.q[..8]);
        h = hash_all(h, &s.v[..8]);
        h = hash_all(h, &s.acc[..8]);
        h = hash_all(h, &s.lambda[..7]);
        let phi = s.q[2].to_f64();
        error = worse(error, closure_deviation(phi, s.q[6].to_f64()));
    }
    Outcome {
        steps,
        value: run.state.q[6].to_f64(),
        hash: h,
        error,
    }
}

/// The slider-crank built from a system's items ([`add_to_system`]) in a
/// `FirmwareConstrainedSystem`, stepped by `System::step` with the generalized-alpha scheme
/// and [`SliderCrankRun`]'s settings (rho_inf = 0.9, Newton tolerances by precision, 1 ms).
pub struct SliderCrankSystem<T: Real> {
    sys: FirmwareConstrainedSystem<T>,
    /// The crank's, the rod's and the slider's node.
    nodes: [NodeIndex; 3],
}

impl<T: Real> SliderCrankSystem<T> {
    /// Built and assembled from rest in the straight configuration; in real-time mode with `k`
    /// Newton updates a step (0: off).
    pub fn new(k: u32) -> Result<Self> {
        let mut sys = FirmwareConstrainedSystem::<T>::new();
        sys.set_settings(mechanism_settings(k))?;
        let nodes = add_to_system(&mut sys, T::c(SLIDER_CRANK_TORQUE))?;
        sys.assemble().map_err(|e| e.error)?;
        Ok(Self { sys, nodes })
    }

    /// Built with the crank at `phi` (rad) turning at `omega` (rad/s):
    /// [`SliderCrankRun::in_motion`]'s positions and velocities as the nodes' states (the first
    /// step computes the consistent start from them).
    pub fn in_motion(phi: f64, omega: f64, k: u32) -> Result<Self> {
        let mut run = Self::new(k)?;
        let q = SliderCrankRun::<f64>::angle_coordinates(phi);
        let v = SliderCrankRun::<f64>::angle_rates(phi, omega);
        let z = nalgebra::Vector3::zeros();
        let rigid = |x: f64, y: f64, th: f64, k: usize| {
            NodeState::RigidBody2D(mbs_core::nodes::Rigid2DState {
                q: nalgebra::Vector3::new(T::c(x), T::c(y), T::c(th)),
                q_t: nalgebra::Vector3::new(T::c(v[k]), T::c(v[k + 1]), T::c(v[k + 2])),
                q_tt: z,
            })
        };
        let [crank, rod, slider] = run.nodes;
        run.sys
            .set_node_state(crank, rigid(q[0] - A0, q[1], q[2], 0))?;
        run.sys
            .set_node_state(rod, rigid(q[3] - (2.0 * A0 + A1), q[4], q[5], 3))?;
        run.sys.set_node_state(
            slider,
            NodeState::Point2D(mbs_core::nodes::Point2DState {
                q: Vector2::new(T::c(q[6] - (2.0 * A0 + 2.0 * A1)), T::c(q[7])),
                q_t: Vector2::new(T::c(v[6]), T::c(v[7])),
                q_tt: Vector2::zeros(),
            }),
        )?;
        Ok(run)
    }

    /// One step of [`SLIDER_CRANK_DT`].
    pub fn step(&mut self) -> Result<()> {
        self.sys
            .step(T::c(SLIDER_CRANK_DT), &mut NoSink)
            .map(|_| ())
            .map_err(|e| e.error)
    }

    /// Newton updates of the last step (0 before the first).
    pub fn updates(&self) -> u32 {
        self.sys.newton_report().map_or(0, |r| r.newton_iterations)
    }

    /// The crank angle (rad) and the slider's x (m, absolute).
    fn angle_and_slider(&self) -> (f64, f64) {
        let phi = match self.sys.node_state(self.nodes[0]) {
            Ok(NodeState::RigidBody2D(s)) => s.q.z.to_f64(),
            _ => f64::NAN,
        };
        let x = match self.sys.node_state(self.nodes[2]) {
            Ok(NodeState::Point2D(s)) => 2.0 * A0 + 2.0 * A1 + s.q.x.to_f64(),
            _ => f64::NAN,
        };
        (phi, x)
    }
}

/// [`SliderCrankSystem`] for `steps` steps: the hash of every node's coordinates, velocities
/// and accelerations after every step, and the largest deviation of the slider from the loop
/// closure (m).
pub fn slider_crank_system<T: Real>(steps: u32) -> Outcome {
    slider_crank_system_real_time::<T>(steps, 0)
}

/// [`slider_crank_system`] in real-time mode with `k` Newton updates a step (0: off).
pub fn slider_crank_system_real_time<T: Real>(steps: u32, k: u32) -> Outcome {
    let Ok(mut run) = SliderCrankSystem::<T>::new(k) else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut h = FNV_OFFSET;
    let mut error = 0.0f64;
    for k in 0..steps {
        if run.step().is_err() {
            return Outcome::failed(k, h);
        }
        for n in run.nodes {
            let (q, q_t, q_tt): (&[T], &[T], &[T]) = match run.sys.node_state(n) {
                Ok(NodeState::RigidBody2D(s)) => {
                    (s.q.as_slice(), s.q_t.as_slice(), s.q_tt.as_slice())
                }
                Ok(NodeState::Point2D(s)) => (s.q.as_slice(), s.q_t.as_slice(), s.q_tt.as_slice()),
                _ => return Outcome::failed(k, h),
            };
            h = hash_all(hash_all(hash_all(h, q), q_t), q_tt);
        }
        let (phi, x) = run.angle_and_slider();
        error = worse(error, closure_deviation(phi, x));
    }
    Outcome {
        steps,
        value: run.angle_and_slider().1,
        hash: h,
        error,
    }
}

/// Steps of the 3D double pendulum workload.
pub const DOUBLE_PENDULUM_STEPS: u32 = 500;
/// Its step (s).
pub const DOUBLE_PENDULUM_DT: f64 = 1e-3;

/// The system of the 3D double pendulum: 2 nodes, 3 objects (the ground, two links), 6
/// markers, 2 loads (gravity), 2 joints; 14 coordinates and 12 equations (two Euler-parameter
/// normalizations, 5 per revolute joint).
pub type DoublePendulumSys<T> = System<T, 2, 3, 6, 2, 1, 1, 0, 2, 26>;

/// [`double_pendulum::add_to_system`] stepped by the generalized-alpha scheme: rho_inf = 0.9,
/// Newton tolerances by precision, 1 ms.
pub struct DoublePendulumSystem<T: Real> {
    sys: DoublePendulumSys<T>,
    /// The links' nodes.
    pub nodes: [NodeIndex; 2],
}

impl<T: Real> DoublePendulumSystem<T> {
    /// Built and assembled at its start (joints turning); in real-time mode with `k` Newton
    /// updates a step (0: off).
    pub fn new(k: u32) -> Result<Self> {
        Self::on(k, Rotations::EulerParameters)
    }

    /// [`Self::new`] with the links' rotations in `rotations`.
    pub fn on(k: u32, rotations: Rotations) -> Result<Self> {
        let mut sys = DoublePendulumSys::<T>::new();
        sys.set_settings(mechanism_settings_on(k, rotations))?;
        let nodes = double_pendulum::add_to_system(&mut sys)?;
        sys.assemble().map_err(|e| e.error)?;
        Ok(Self { sys, nodes })
    }

    /// One step of [`DOUBLE_PENDULUM_DT`].
    pub fn step(&mut self) -> Result<()> {
        self.sys
            .step(T::c(DOUBLE_PENDULUM_DT), &mut NoSink)
            .map(|_| ())
            .map_err(|e| e.error)
    }

    /// Newton updates of the last step (0 before the first).
    pub fn updates(&self) -> u32 {
        self.sys.newton_report().map_or(0, |r| r.newton_iterations)
    }

    /// The largest residual of the two joints (m, and -: the norms of their translation and
    /// rotation equations).
    fn joint_residual(&self) -> f64 {
        let mut r = 0.0f64;
        for k in 0..2 {
            match self
                .sys
                .constraint_output(ConstraintIndex(k), OutputVariableType::ConstraintResidual)
            {
                Ok(mbs_core::OutputValue::Vector3(x)) => {
                    r = worse(r, worse(x.x.to_f64(), x.y.to_f64()));
                }
                _ => return f64::NAN,
            }
        }
        r
    }
}

/// [`DoublePendulumSystem`] for `steps` steps: the hash of both links' positions,
/// orientations, velocities and angular velocities after every step, and the largest joint
/// residual (m, -).
pub fn double_pendulum<T: Real>(steps: u32) -> Outcome {
    double_pendulum_real_time::<T>(steps, 0)
}

/// [`double_pendulum`] in real-time mode with `k` Newton updates a step (0: off).
pub fn double_pendulum_real_time<T: Real>(steps: u32, k: u32) -> Outcome {
    double_pendulum_on::<T>(steps, k, Rotations::EulerParameters)
}

/// [`double_pendulum`] in real-time mode with one Newton update a step, the links' rotations
/// on the Lie group.
pub fn double_pendulum_lie_real_time<T: Real>(steps: u32) -> Outcome {
    double_pendulum_on::<T>(steps, 1, Rotations::LieGroup)
}

/// [`double_pendulum_real_time`] with the links' rotations in `rotations`.
fn double_pendulum_on<T: Real>(steps: u32, k: u32, rotations: Rotations) -> Outcome {
    let Ok(mut run) = DoublePendulumSystem::<T>::on(k, rotations) else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut h = FNV_OFFSET;
    let mut error = 0.0f64;
    for k in 0..steps {
        if run.step().is_err() {
            return Outcome::failed(k, h);
        }
        for n in run.nodes {
            let Ok(NodeState::RigidBody(s)) = run.sys.node_state(n) else {
                return Outcome::failed(k, h);
            };
            h = hash_all(h, s.position.as_slice());
            h = hash_all(h, &s.orientation.to_array());
            h = hash_all(h, s.velocity.as_slice());
            h = hash_all(h, s.angular_velocity.as_slice());
        }
        error = worse(error, run.joint_residual());
    }
    let value = match run.sys.node_state(run.nodes[1]) {
        Ok(NodeState::RigidBody(s)) => s.position.x.to_f64(),
        _ => f64::NAN,
    };
    Outcome {
        steps,
        value,
        hash: h,
        error,
    }
}

/// A `core::fmt::Write` that folds the text into an FNV-1a hash and counts its bytes: a run
/// recording streamed nowhere, as a firmware streams it over a serial line.
struct HashWriter {
    hash: u64,
    bytes: usize,
}

impl core::fmt::Write for HashWriter {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for b in s.bytes() {
            self.hash = (self.hash ^ u64::from(b)).wrapping_mul(FNV_PRIME);
        }
        self.bytes += s.len();
        Ok(())
    }
}

/// Frames of the recorded double pendulum: one every this many steps (and the start).
pub const RECORD_EVERY: u32 = 25;

/// The double pendulum recorded as `mbs-run 1` text (`System::record_frame`, contour colours
/// by speed, body numbers) every [`RECORD_EVERY`] steps: the hash of the text and, as the
/// value, its length in bytes. The same text on every target: the run and the formatting.
pub fn double_pendulum_recording<T: Real>(steps: u32) -> Outcome {
    let Ok(mut run) = DoublePendulumSystem::<T>::new(0) else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut vis = VisualizationSettings::default();
    vis.bodies.show_numbers = true;
    vis.contour.output_variable = Some(OutputVariableType::Velocity);
    vis.contour.output_variable_component = -1;
    let mut w = HashWriter {
        hash: FNV_OFFSET,
        bytes: 0,
    };
    for k in 0..=steps {
        if k % RECORD_EVERY == 0 && run.sys.record_frame(&vis, &mut w).is_err() {
            return Outcome::failed(k, w.hash);
        }
        if k < steps && run.step().is_err() {
            return Outcome::failed(k, w.hash);
        }
    }
    Outcome {
        steps,
        value: w.bytes as f64,
        hash: w.hash,
        error: 0.0,
    }
}

/// Steps of the 6-DOF arm workload.
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
pub const ARM_STEPS: u32 = 500;
/// Its step (s).
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
pub const ARM_DT: f64 = 1e-3;

/// The arm's tree and data: 6 links, 6 coordinates.
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
pub type ArmTree<T> = KinematicTree<T, 6, 6>;
/// The data of [`ArmTree`].
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
pub type ArmData<T> = TreeData<T, 6, 6>;

/// The 6-DOF arm of [`arm`] in joint coordinates, from its start state (`Q0`, `V0`): the
/// calls a robot controller makes on the chip (inverse dynamics, forward dynamics) and the
/// plant's time step.
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
pub struct ArmRun<T: Real> {
    /// The model.
    pub tree: ArmTree<T>,
    /// Its data.
    pub data: ArmData<T>,
    /// Joint angles (rad).
    pub q: [T; 6],
    /// Joint rates (rad/s).
    pub v: [T; 6],
    /// Joint torques (N m): the gravity compensation at the start, held.
    pub tau: [T; 6],
    /// The last accelerations of [`Self::aba`] or torques of [`Self::rnea`].
    pub out: [T; 6],
}

#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
impl<T: Real> ArmRun<T> {
    /// The arm at its start, holding its start torques.
    pub fn new() -> Result<Self> {
        let tree = arm::build::<T, 6, 6>()?;
        let mut data = ArmData::new();
        let q = arm::Q0.map(T::c);
        let mut tau = [T::zero(); 6];
        tree.bias_forces(&mut data, &q, &[T::zero(); 6], &mut tau)?;
        Ok(Self {
            tree,
            data,
            q,
            v: arm::V0.map(T::c),
            tau,
            out: [T::zero(); 6],
        })
    }

    /// Forward dynamics at the state (ABA) into `out`.
    pub fn aba(&mut self) -> Result<()> {
        let Self {
            tree,
            data,
            q,
            v,
            tau,
            out,
        } = self;
        tree.aba(data, q, v, tau, out)
    }

    /// Inverse dynamics at the state of the accelerations in `out` (RNEA) into `out`.
    pub fn rnea(&mut self) -> Result<()> {
        let Self {
            tree,
            data,
            q,
            v,
            out,
            ..
        } = self;
        let acc = *out;
        tree.rnea(data, q, v, &acc, out)
    }

    /// One semi-implicit Euler step of `ARM_DT` (ABA once).
    pub fn euler_step(&mut self) -> Result<()> {
        let Self {
            tree,
            data,
            q,
            v,
            tau,
            ..
        } = self;
        tree.step(data, q, v, tau, T::c(ARM_DT), &TreeStepSettings::default())
            .map(|_| ())
    }

    /// One classical Runge-Kutta step of `ARM_DT` (ABA four times).
    pub fn rk4_step(&mut self) -> Result<()> {
        let Self {
            tree,
            data,
            q,
            v,
            tau,
            ..
        } = self;
        let s = TreeStepSettings::with_scheme(TreeScheme::RungeKutta4);
        tree.step(data, q, v, tau, T::c(ARM_DT), &s).map(|_| ())
    }

    /// Kinetic plus potential energy (J), less the work of the held torques from `q0`: constant
    /// along the exact motion.
    pub fn energy(&mut self, q0: &[T; 6]) -> Result<f64> {
        let Self {
            tree,
            data,
            q,
            v,
            tau,
            ..
        } = self;
        tree.forward_kinematics(data, q, Some(v))?;
        let mut e = (tree.kinetic_energy(data) + tree.potential_energy(data, q)).to_f64();
        for k in 0..6 {
            e -= (tau[k] * (q[k] - q0[k])).to_f64();
        }
        Ok(e)
    }
}

/// The arm for `steps` RK4 steps under its start torques (the gravity compensation of the
/// start pose: the arm swings from its start rates): the hash of `q` and `v` after every step,
/// and the error the largest relative change of the energy (less the torques' work), which the
/// exact motion keeps.
#[cfg_attr(not(target_abi = "eabihf"), allow(dead_code))] // the arm runs on the Cortex-M4F
pub fn arm<T: Real>(steps: u32) -> Outcome {
    let Ok(mut run) = ArmRun::<T>::new() else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let q0 = run.q;
    let Ok(e0) = run.energy(&q0) else {
        return Outcome::failed(0, FNV_OFFSET);
    };
    let mut h = FNV_OFFSET;
    let mut error = 0.0f64;
    for k in 0..steps {
        if run.rk4_step().is_err() {
            return Outcome::failed(k, h);
        }
        h = hash_all(h, &run.q);
        h = hash_all(h, &run.v);
        match run.energy(&q0) {
            Ok(e) => error = worse(error, libm::fabs(e - e0) / libm::fabs(e0)),
            Err(_) => return Outcome::failed(k, h),
        }
    }
    Outcome {
        steps,
        value: run.q[0].to_f64(),
        hash: h,
        error,
    }
}

/// Every workload whose trajectory hash the tests compare across machines, as `(name, ty)`.
#[allow(dead_code)] // the hosted and RISC-V builds list the workloads with it
pub const HASHED: [(&str, &str); 13] = [
    ("mini_masspoint", "f64"),
    ("arm", "f32"),
    ("mini_masspoint", "f32"),
    ("spinning_cylinder", "f64"),
    ("spinning_cylinder", "f32"),
    ("slider_crank", "f64"),
    ("slider_crank", "f32"),
    ("slider_crank_system", "f32"),
    ("double_pendulum", "f32"),
    ("slider_crank_system_real_time", "f32"),
    ("double_pendulum_real_time", "f32"),
    ("double_pendulum_lie_real_time", "f32"),
    ("double_pendulum_recording", "f32"),
];

/// The workload `name` in `ty` (`"f32"`, `"f64"`) with its standard number of steps, as the
/// firmware runs it; `None` for a name or scalar it does not come in.
#[allow(dead_code)] // the host's tests and the hosted build name the workloads with it
pub fn run(name: &str, ty: &str) -> Option<Outcome> {
    Some(match (name, ty) {
        ("mini_masspoint", "f64") => mini_masspoint::<f64>(),
        ("mini_masspoint", "f32") => mini_masspoint::<f32>(),
        ("spinning_cylinder", "f64") => spinning_cylinder::<f64>(CYLINDER_STEPS),
        ("spinning_cylinder", "f32") => spinning_cylinder::<f32>(CYLINDER_STEPS),
        ("slider_crank", "f64") => slider_crank::<f64>(SLIDER_CRANK_STEPS),
        ("slider_crank", "f32") => slider_crank::<f32>(SLIDER_CRANK_STEPS),
        ("slider_crank_system", "f32") => slider_crank_system::<f32>(SLIDER_CRANK_STEPS),
        ("double_pendulum", "f32") => double_pendulum::<f32>(DOUBLE_PENDULUM_STEPS),
        ("slider_crank_system_real_time", "f32") => {
            slider_crank_system_real_time::<f32>(SLIDER_CRANK_STEPS, 1)
        }
        ("double_pendulum_real_time", "f32") => {
            double_pendulum_real_time::<f32>(DOUBLE_PENDULUM_STEPS, 1)
        }
        ("double_pendulum_lie_real_time", "f32") => {
            double_pendulum_lie_real_time::<f32>(DOUBLE_PENDULUM_STEPS)
        }
        ("double_pendulum_recording", "f32") => {
            double_pendulum_recording::<f32>(DOUBLE_PENDULUM_STEPS)
        }
        ("arm", "f32") => arm::<f32>(ARM_STEPS),
        _ => return None,
    })
}
