//! Exudyn's `ObjectRigidBody2D`: a rigid body in the x-y plane on a
//! [`NodeRigidBody2D`](crate::nodes::rigid2d::NodeRigidBody2D), with an optional centre of mass
//! `c` off the node's reference point (m, body frame; Exudyn's body has `c = 0`).
//!
//! With the node's point `r` and angle `phi` (`R = R_0b`, 2D part), a local position `p` (m,
//! body frame) is at `r + R p`. Equations of motion in the coordinates `[x, y, phi]`, with
//! `s = R c` (m, world) and `e_z x` the 90-degree turn `[-s_y, s_x]`:
//!
//! ```text
//! M = [ m E2          m e_z x s ]      f_v = [ m phi_t^2 s ]   (the centrifugal force of c)
//!     [ m (e_z x s)^T I + m |c|^2 ]          [ 0           ]
//! ```
//!
//! `I` is the moment of inertia about the centre of mass and the z axis (kg m^2). Outputs at a
//! local position `p` (world): `Position = [r + R p, p_z]`, `Velocity = [r_t + phi_t e_z x R p,
//! 0]`, `Acceleration = [r_tt + phi_tt e_z x R p - phi_t^2 R p, 0]`, `Displacement` (at the
//! reference point), `RotationMatrix = R_0b`, `Rotation = [0, 0, phi]`,
//! `AngularVelocity = AngularVelocityLocal = [0, 0, phi_t]`, `AngularAcceleration =
//! [0, 0, phi_tt]`, `KineticEnergy`. Marker interface: `Jpos(p) = [1 0 -(R p)_y; 0 1 (R p)_x;
//! 0 0 0]`, `Jrot = [0 0 0; 0 0 0; 0 0 1]`, `int rho Jpos dV = m Jpos(c)`.

use crate::body::{Body, Jacobian};
use crate::error::{finite, finite_all};
use crate::nodes::rigid2d::Rigid2DConfiguration;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Matrix3, Vector2, Vector3};

/// A 2D rigid body: mass `m` (kg), moment of inertia `I` about its centre of mass (kg m^2),
/// centre of mass `c` (m, body frame, from the node's point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody2D<T: Real> {
    mass: T,
    inertia: T,
    center_of_mass: Vector2<T>,
}

/// `e_z x v` for a vector in the plane: `[-v_y, v_x]`.
fn perp<T: Real>(v: &Vector2<T>) -> Vector2<T> {
    Vector2::new(-v.y, v.x)
}

impl<T: Real> RigidBody2D<T> {
    /// A body of `mass` (kg, > 0) and `inertia` about its centre of mass (kg m^2, > 0), with the
    /// centre of mass at `center_of_mass` (m, body frame). `Err(NotFinite(Mass | Inertia |
    /// CenterOfMass))`, `Err(OutOfRange(Mass | Inertia))` for a value <= 0 (Exudyn's defaults
    /// of 0 would make the mass matrix singular).
    pub fn new(mass: T, inertia: T, center_of_mass: Vector2<T>) -> Result<Self> {
        finite(mass, Param::Mass)?;
        finite(inertia, Param::Inertia)?;
        finite_all(&center_of_mass, Param::CenterOfMass)?;
        if mass <= T::zero() {
            return Err(Error::OutOfRange(Param::Mass));
        }
        if inertia <= T::zero() {
            return Err(Error::OutOfRange(Param::Inertia));
        }
        Ok(Self {
            mass,
            inertia,
            center_of_mass,
        })
    }

    /// The mass `m` (kg).
    pub fn mass(&self) -> T {
        self.mass
    }

    /// The moment of inertia about the centre of mass (kg m^2).
    pub fn inertia(&self) -> T {
        self.inertia
    }

    /// The centre of mass `c` (m, body frame).
    pub fn center_of_mass(&self) -> Vector2<T> {
        self.center_of_mass
    }

    /// `R p` for a local position `p` at the configuration's angle (no trigonometry for
    /// `p = 0`, a body's centre of mass at its node).
    fn turned(&self, s: &Rigid2DConfiguration<T>, p: &Vector2<T>) -> Vector2<T> {
        if p.x == T::zero() && p.y == T::zero() {
            return Vector2::zeros();
        }
        let (sn, cs) = s.angle().sin_cos_l();
        Vector2::new(cs * p.x - sn * p.y, sn * p.x + cs * p.y)
    }

    /// The mass matrix in `[x, y, phi]` (module docs).
    pub fn mass_matrix(&self, s: &Rigid2DConfiguration<T>) -> Matrix3<T> {
        let m = self.mass;
        let e = perp(&self.turned(s, &self.center_of_mass)) * m;
        let c2 = self.center_of_mass.norm_squared();
        Matrix3::new(
            m,
            T::zero(),
            e.x,
            T::zero(),
            m,
            e.y,
            e.x,
            e.y,
            self.inertia + m * c2,
        )
    }

    /// The velocity-dependent force `f_v = [m phi_t^2 R c, 0]` (N, N, N m).
    pub fn quadratic_velocity_force(&self, s: &Rigid2DConfiguration<T>) -> Vector3<T> {
        let w = s.state.q_t.z;
        let f = self.turned(s, &self.center_of_mass) * (self.mass * w * w);
        Vector3::new(f.x, f.y, T::zero())
    }
}

fn local_2d<T: Real>(p: &Vector3<T>) -> Result<Vector2<T>> {
    finite_all(p, Param::LocalPosition)?;
    Ok(Vector2::new(p.x, p.y))
}

impl<T: Real> Body<T> for RigidBody2D<T> {
    type State = Rigid2DConfiguration<T>;

    fn coordinates(&self) -> usize {
        3
    }

    fn output(
        &self,
        s: &Rigid2DConfiguration<T>,
        var: OutputVariableType,
        local_position: &Vector3<T>,
    ) -> Result<OutputValue<T>> {
        let p = local_2d(local_position)?;
        s.check()?;
        let z = T::zero();
        let rp = self.turned(s, &p);
        let (v, a) = (s.state.q_t, s.state.q_tt);
        let v3 = |x: Vector2<T>, zz: T| OutputValue::Vector3(Vector3::new(x.x, x.y, zz));
        Ok(match var {
            OutputVariableType::Position => v3(s.point() + rp, local_position.z),
            OutputVariableType::Velocity => v3(Vector2::new(v.x, v.y) + perp(&rp) * v.z, z),
            OutputVariableType::Acceleration => v3(
                Vector2::new(a.x, a.y) + perp(&rp) * a.z - rp * (v.z * v.z),
                z,
            ),
            OutputVariableType::KineticEnergy => {
                if local_position.iter().any(|x| *x != z) {
                    return Err(Error::LocalPositionMustBeZero);
                }
                OutputValue::Scalar(T::c(0.5) * v.dot(&(self.mass_matrix(s) * v)))
            }
            // the same at every point: the node's
            _ => return s.output(var),
        })
    }

    fn position_jacobian(
        &self,
        s: &Rigid2DConfiguration<T>,
        local_position: &Vector3<T>,
    ) -> Result<Jacobian<T>> {
        let p = local_2d(local_position)?;
        let d = perp(&self.turned(s, &p));
        let mut j = Jacobian::zeros();
        j[(0, 0)] = T::one();
        j[(1, 1)] = T::one();
        j[(0, 2)] = d.x;
        j[(1, 2)] = d.y;
        Ok(j)
    }

    fn rotation_jacobian(&self, _s: &Rigid2DConfiguration<T>) -> Result<Jacobian<T>> {
        let mut j = Jacobian::zeros();
        j[(2, 2)] = T::one();
        Ok(j)
    }

    fn mass_jacobian_integral(&self, s: &Rigid2DConfiguration<T>) -> Result<Jacobian<T>> {
        let c = self.center_of_mass;
        Ok(self.position_jacobian(s, &Vector3::new(c.x, c.y, T::zero()))? * self.mass)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::nodes::rigid2d::{NodeRigidBody2D, Rigid2DState};

    fn config(q: [f64; 3], v: [f64; 3], a: [f64; 3]) -> Rigid2DConfiguration<f64> {
        NodeRigidBody2D::at(Vector3::new(0.5, -0.2, 0.3))
            .unwrap()
            .configuration(&Rigid2DState {
                q: Vector3::from(q),
                q_t: Vector3::from(v),
                q_tt: Vector3::from(a),
            })
    }

    fn vec3(o: OutputValue<f64>) -> Vector3<f64> {
        match o {
            OutputValue::Vector3(v) => v,
            _ => Vector3::repeat(f64::NAN),
        }
    }

    /// Velocity and acceleration of a local point against central differences of its
    /// position along the motion `q(t) = q + t v + t^2/2 a`; the position Jacobian against the
    /// velocity; the kinetic energy `v.Mv/2` against the COM's translation plus rotation about it.
    #[test]
    fn outputs_jacobians_and_mass_matrix_against_independent_forms() {
        let body = RigidBody2D::new(3.0, 0.4, Vector2::new(0.2, -0.1)).unwrap();
        let (q, v, a) = ([0.1, 0.7, -0.4], [0.3, -0.2, 1.7], [0.5, 0.1, -0.9]);
        let p = Vector3::new(0.35, 0.15, 0.05);
        let at = |t: f64| {
            let qt = [0, 1, 2].map(|i| q[i] + t * v[i] + 0.5 * t * t * a[i]);
            let vt = [0, 1, 2].map(|i| v[i] + t * a[i]);
            vec3(
                body.output(&config(qt, vt, a), OutputVariableType::Position, &p)
                    .unwrap(),
            )
        };
        let h = 1e-5;
        let s = config(q, v, a);
        let vel = vec3(body.output(&s, OutputVariableType::Velocity, &p).unwrap());
        let acc = vec3(
            body.output(&s, OutputVariableType::Acceleration, &p)
                .unwrap(),
        );
        let fd_v = (at(h) - at(-h)) / (2.0 * h);
        let fd_a = (at(h) - at(0.0) * 2.0 + at(-h)) / (h * h);
        assert!(
            (vel - fd_v).norm() < 1e-9 && (acc - fd_a).norm() < 1e-4,
            "{vel} {fd_v} {acc} {fd_a}"
        );
        let jpos = body.position_jacobian(&s, &p).unwrap();
        let vq = nalgebra::Vector6::new(v[0], v[1], v[2], 0.0, 0.0, 0.0);
        assert!((jpos * vq - vel).norm() < 1e-14);
        // Kinetic energy: m |v_com|^2 / 2 + I phi_t^2 / 2.
        let c = Vector3::new(0.2, -0.1, 0.0);
        let v_com = vec3(body.output(&s, OutputVariableType::Velocity, &c).unwrap());
        let ke = 0.5 * 3.0 * v_com.norm_squared() + 0.5 * 0.4 * v[2] * v[2];
        let OutputValue::Scalar(k) = body
            .output(&s, OutputVariableType::KineticEnergy, &Vector3::zeros())
            .unwrap()
        else {
            unreachable!()
        };
        assert!((k - ke).abs() < 1e-13, "{k} {ke}");
        // The quadratic velocity force is M's time derivative's share: with phi_tt = 0 and no
        // force, the COM does not accelerate: M [0, 0, 0]^T = f_v - m a_com... checked through
        // the COM's acceleration -phi_t^2 R c at zero coordinate accelerations.
        let s0 = config(q, v, [0.0; 3]);
        let a_com = vec3(
            body.output(&s0, OutputVariableType::Acceleration, &c)
                .unwrap(),
        );
        let fv = body.quadratic_velocity_force(&s0);
        assert!((fv + a_com * 3.0).norm() < 1e-13);
        assert_eq!(
            vec3(body.output(&s, OutputVariableType::Rotation, &p).unwrap()).z,
            0.3 + q[2]
        );
        assert_eq!(body.rotation_jacobian(&s).unwrap()[(2, 2)], 1.0);
    }

    /// `Q = Jpos^T f + Jrot^T tau` bit for bit against the Jacobians' transposes, also for a
    /// pure torque (where the position Jacobian is not formed) and a pure force, at angles in
    /// every quadrant and forces and torques of either sign.
    #[test]
    fn the_generalized_force_is_the_jacobians_transposes_times_the_load() {
        let body = RigidBody2D::new(3.0, 0.4, Vector2::new(0.2, -0.1)).unwrap();
        let p = Vector3::new(0.35, -0.15, 0.0);
        for phi in [-2.5, -0.7, 0.0, 0.9, 2.8] {
            let s = config([0.1, 0.7, phi], [0.0; 3], [0.0; 3]);
            let jpos = body.position_jacobian(&s, &p).unwrap();
            let jrot = body.rotation_jacobian(&s).unwrap();
            for (f, tau) in [
                (Vector3::zeros(), Vector3::new(0.0, 0.0, 2.5)),
                (Vector3::zeros(), Vector3::new(0.0, 0.0, -1.5)),
                (Vector3::new(1.5, -2.0, 0.0), Vector3::zeros()),
                (Vector3::new(-0.5, 3.0, 0.0), Vector3::new(0.0, 0.0, -0.25)),
            ] {
                let mut want = jpos.transpose() * f;
                if tau != Vector3::zeros() {
                    want += jrot.transpose() * tau;
                }
                let q = body.generalized_force(&s, &p, &f, &tau).unwrap();
                assert_eq!(
                    q.map(f64::to_bits),
                    want.map(f64::to_bits),
                    "{phi} {f} {tau}"
                );
            }
        }
    }

    /// Bad parameters and states are refused.
    #[test]
    fn bad_input_is_refused() {
        let c = Vector2::zeros();
        assert_eq!(
            RigidBody2D::new(0.0, 1.0, c),
            Err(Error::OutOfRange(Param::Mass))
        );
        assert_eq!(
            RigidBody2D::new(1.0, 0.0, c),
            Err(Error::OutOfRange(Param::Inertia))
        );
        assert_eq!(
            RigidBody2D::new(f64::NAN, 1.0, c),
            Err(Error::NotFinite(Param::Mass))
        );
        assert_eq!(
            RigidBody2D::new(1.0, 1.0, Vector2::new(f64::INFINITY, 0.0)),
            Err(Error::NotFinite(Param::CenterOfMass))
        );
        let body = RigidBody2D::new(1.0, 1.0, c).unwrap();
        let bad = config([f64::NAN, 0.0, 0.0], [0.0; 3], [0.0; 3]);
        assert_eq!(
            body.output(&bad, OutputVariableType::Position, &Vector3::zeros()),
            Err(Error::NonFiniteState)
        );
        assert_eq!(
            body.output(
                &config([0.0; 3], [0.0; 3], [0.0; 3]),
                OutputVariableType::KineticEnergy,
                &Vector3::x()
            ),
            Err(Error::LocalPositionMustBeZero)
        );
        assert!(NodeRigidBody2D::at(Vector3::new(f64::NAN, 0.0, 0.0)).is_err());
    }
}
