//! The state of a rigid-body node: pose and twist of the body's reference point, plus the
//! accelerations of the last step.
//!
//! Frames: `position`, `velocity` and `acceleration` are resolved in the world frame `0`;
//! `orientation` is the unit quaternion of `R_0b` (body to world, scalar first);
//! `angular_velocity` and `angular_acceleration` are resolved in the **body** frame `b`
//! (the axes of the midpoint step). The world-frame angular velocity is `R_0b w_b`; since
//! `d/dt (R_0b w_b) = R_0b dw_b/dt` (`R_0b [w_b]x w_b = 0`), the world-frame angular acceleration is
//! `R_0b` times the body-frame one.

use crate::math::Quaternion;
use crate::{Error, Param, Real, Result};
use nalgebra::Vector3;

/// Largest accepted `| |q|^2 - 1 |` of a state's orientation quaternion (-). A step renormalizes
/// its result to a few ulp, so only a quaternion set by the caller can come near this bound.
pub const QUATERNION_TOLERANCE: f64 = 1e-6;

/// Pose, twist and last accelerations of a rigid body's reference point .
///
/// `repr(C)`: 19 `T` in declaration order, the layout of the C API's `mbs_rigid_state`, so the
/// C API steps the caller's struct in place (its layout is asserted at compile time there).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct RigidState<T> {
    /// Position of the reference point (m, world frame).
    pub position: Vector3<T>,
    /// Orientation, unit quaternion of `R_0b` (body to world, scalar first `[w, x, y, z]`).
    pub orientation: Quaternion<T>,
    /// Velocity of the reference point (m/s, world frame).
    pub velocity: Vector3<T>,
    /// Angular velocity of the body (rad/s, **body** frame).
    pub angular_velocity: Vector3<T>,
    /// Acceleration of the reference point over the last step, `(v_{n+1} - v_n)/dt`
    /// (m/s^2, world frame); zero before the first step unless set.
    pub acceleration: Vector3<T>,
    /// Angular acceleration over the last step, `(w_{n+1} - w_n)/dt` (rad/s^2, **body** frame);
    /// zero before the first step unless set.
    pub angular_acceleration: Vector3<T>,
}

impl<T: Real> Default for RigidState<T> {
    /// At rest at the origin, orientation identity.
    fn default() -> Self {
        Self::at_rest(Vector3::zeros(), Quaternion::identity())
    }
}

impl<T: Real> RigidState<T> {
    /// A state at `position` (m, world) with `orientation` (`R_0b`), all velocities and
    /// accelerations zero. Not validated: call [`RigidState::validate`] or let the step do it.
    pub fn at_rest(position: Vector3<T>, orientation: Quaternion<T>) -> Self {
        Self {
            position,
            orientation,
            velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            acceleration: Vector3::zeros(),
            angular_acceleration: Vector3::zeros(),
        }
    }

    /// A state with the given pose and twist (`velocity` m/s world, `angular_velocity` rad/s
    /// body frame), accelerations zero. Not validated.
    pub fn new(
        position: Vector3<T>,
        orientation: Quaternion<T>,
        velocity: Vector3<T>,
        angular_velocity: Vector3<T>,
    ) -> Self {
        Self {
            velocity,
            angular_velocity,
            ..Self::at_rest(position, orientation)
        }
    }

    /// Checks the state: every component finite (else [`Error::NonFiniteState`]) and the
    /// orientation a unit quaternion, `| |q|^2 - 1 | <= QUATERNION_TOLERANCE`
    /// (else `OutOfRange(Orientation)`).
    pub fn validate(&self) -> Result<()> {
        let q = &self.orientation;
        let finite = crate::finite::all_finite(&self.position)
            && crate::finite::all_finite(&self.velocity)
            && crate::finite::all_finite(&self.angular_velocity)
            && crate::finite::all_finite(&self.acceleration)
            && crate::finite::all_finite(&self.angular_acceleration)
            && q.w.finite()
            && q.x.finite()
            && q.y.finite()
            && q.z.finite();
        if !finite {
            return Err(Error::NonFiniteState);
        }
        self.check_unit_orientation()
    }

    /// The sum of every component (position, orientation, velocities, accelerations), summed
    /// in a short tree (-, mixed units): finite if and only if every component is finite,
    /// unless finite components overflow the sum (then it is infinite although they are
    /// finite). A one-branch screen: `(s * 0 == 0)` is `true` exactly when `s` is finite.
    #[inline]
    pub fn entry_sum(&self) -> T {
        let s3 = |v: &Vector3<T>| v.x + v.y + v.z;
        let q = &self.orientation;
        let a = s3(&self.position) + s3(&self.velocity);
        let b = s3(&self.angular_velocity) + s3(&self.acceleration);
        let c = s3(&self.angular_acceleration) + ((q.w + q.x) + (q.y + q.z));
        (a + b) + c
    }

    /// [`RigidState::entry_sum`] without the orientation (-, mixed units): for a screen that
    /// also checks `| |q|^2 - 1 |`, which fails for a NaN or infinite component of `q`.
    // Inlined: part of the step's one input screen.
    #[inline(always)]
    pub fn entry_sum_but_orientation(&self) -> T {
        let s3 = |v: &Vector3<T>| v.x + v.y + v.z;
        let a = s3(&self.position) + s3(&self.velocity);
        let b = s3(&self.angular_velocity) + s3(&self.acceleration);
        (a + b) + s3(&self.angular_acceleration)
    }

    /// The sum of the two accelerations (-, mixed units): the entries no step reads, which a
    /// step screened by its result must still screen up front
    /// ([`checks::unread`](crate::integrators::rigid::checks::unread)).
    // Inlined: part of the step's one input screen.
    #[inline(always)]
    pub fn entry_sum_accelerations(&self) -> T {
        let s3 = |v: &Vector3<T>| v.x + v.y + v.z;
        s3(&self.acceleration) + s3(&self.angular_acceleration)
    }

    /// `true` if `| |q|^2 - 1 | <= QUATERNION_TOLERANCE`: `false` also for a NaN or infinite
    /// component (unlike [`RigidState::check_unit_orientation`], which lets NaN through to
    /// the finiteness checks).
    // Inlined: part of the step's one input screen.
    #[inline(always)]
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail this test
    pub fn orientation_is_unit_and_finite(&self) -> bool {
        (self.orientation.norm_squared() - T::one()).abs_l() <= T::c(QUATERNION_TOLERANCE)
    }

    /// [`RigidState::validate`] screened by one finiteness test of [`RigidState::entry_sum`]:
    /// if the sum is finite only the quaternion norm is checked, otherwise the detailed checks
    /// run (so the same error comes back, and a sum that only overflowed passes). Same result
    /// as `validate` for every state.
    #[inline]
    pub fn validate_screened(&self) -> Result<()> {
        if self.entry_sum() * T::zero() == T::zero() {
            self.check_unit_orientation()
        } else {
            self.validate()
        }
    }

    /// `OutOfRange(Orientation)` unless `| |q|^2 - 1 | <= QUATERNION_TOLERANCE`.
    #[inline]
    pub fn check_unit_orientation(&self) -> Result<()> {
        if (self.orientation.norm_squared() - T::one()).abs_l() > T::c(QUATERNION_TOLERANCE) {
            return Err(Error::OutOfRange(Param::Orientation));
        }
        Ok(())
    }

    /// `R_0b`, the rotation matrix of the orientation (body to world).
    #[inline]
    pub fn rotation_matrix(&self) -> nalgebra::Matrix3<T> {
        self.orientation.to_matrix()
    }

    /// Angular velocity resolved in the world frame, `R_0b w_b` (rad/s).
    #[inline]
    pub fn angular_velocity_world(&self) -> Vector3<T> {
        self.orientation.rotate(&self.angular_velocity)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn validation_refuses_non_finite_and_non_unit_states() {
        let ok = RigidState::<f64>::new(
            Vector3::new(1.0, 2.0, 3.0),
            Quaternion::exp(&Vector3::new(0.3, -0.2, 0.1)),
            Vector3::new(0.1, 0.0, 0.0),
            Vector3::new(0.0, 1.0, 0.0),
        );
        assert_eq!(ok.validate(), Ok(()));
        let mut s = ok;
        s.velocity.y = f64::NAN;
        assert_eq!(s.validate(), Err(Error::NonFiniteState));
        let mut s = ok;
        s.angular_acceleration.z = f64::INFINITY;
        assert_eq!(s.validate(), Err(Error::NonFiniteState));
        let mut s = ok;
        s.orientation.w *= 1.0 + 1e-6; // |q|^2 - 1 ~ 2e-6 w^2 > 1e-6 for w ~ 1
        assert_eq!(s.validate(), Err(Error::OutOfRange(Param::Orientation)));
        let mut s = ok;
        s.orientation = Quaternion::new(0.0, 0.0, 0.0, 0.0);
        assert_eq!(s.validate(), Err(Error::OutOfRange(Param::Orientation)));
    }

    /// The screened check gives `validate`'s answer for a non-finite entry in every field
    /// (each component in turn), for a non-unit quaternion, and for finite entries whose sum
    /// overflows (accepted, as by `validate`).
    #[test]
    fn screened_validation_agrees_with_the_detailed_one() {
        let ok = RigidState::<f64>::new(
            Vector3::new(1.0, 2.0, 3.0),
            Quaternion::exp(&Vector3::new(0.3, -0.2, 0.1)),
            Vector3::new(0.1, 0.0, 0.0),
            Vector3::new(0.0, 1.0, 0.0),
        );
        assert_eq!(ok.validate_screened(), Ok(()));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for i in 0..19 {
                let mut s = ok;
                match i {
                    0..=2 => s.position[i] = bad,
                    3..=5 => s.velocity[i - 3] = bad,
                    6..=8 => s.angular_velocity[i - 6] = bad,
                    9..=11 => s.acceleration[i - 9] = bad,
                    12..=14 => s.angular_acceleration[i - 12] = bad,
                    15 => s.orientation.w = bad,
                    16 => s.orientation.x = bad,
                    17 => s.orientation.y = bad,
                    _ => s.orientation.z = bad,
                }
                assert_eq!(s.validate_screened(), Err(Error::NonFiniteState), "{i}");
                assert_eq!(s.validate_screened(), s.validate());
            }
        }
        let mut s = ok;
        s.orientation.w *= 1.0 + 1e-6;
        assert_eq!(
            s.validate_screened(),
            Err(Error::OutOfRange(Param::Orientation))
        );
        // +inf and -inf in different fields sum to NaN: still caught.
        let mut s = ok;
        s.position.x = f64::INFINITY;
        s.velocity.y = f64::NEG_INFINITY;
        assert_eq!(s.validate_screened(), Err(Error::NonFiniteState));
        // Finite but overflowing: the sum is infinite, the detailed check accepts.
        let mut s = ok;
        s.position = Vector3::new(f64::MAX, f64::MAX, 0.0);
        assert!(!s.entry_sum().is_finite());
        assert_eq!(s.validate_screened(), Ok(()));
    }

    #[test]
    fn world_angular_velocity_is_the_rotated_body_rate() {
        // A quarter turn about z maps body x onto world y.
        let q = Quaternion::<f64>::exp(&Vector3::new(0.0, 0.0, core::f64::consts::FRAC_PI_2));
        let s = RigidState::new(
            Vector3::zeros(),
            q,
            Vector3::zeros(),
            Vector3::new(2.0, 0.0, 0.0),
        );
        assert!((s.angular_velocity_world() - Vector3::new(0.0, 2.0, 0.0)).norm() < 1e-15);
    }
}
