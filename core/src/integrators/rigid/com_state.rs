//! The state a rigid-body scheme integrates: the centre of mass and the orientation, and the
//! maps to and from the reference point of a [`RigidState`].
//!
//! `r_com = r + R_0b c`, `v_com = v + R_0b (w_b x c)` (m, m/s, world), and back
//! `r = r_com - R_0b c`, `v = v_com - R_0b (w_b x c)`, with `c` the centre of mass in the
//! body frame. With `c = 0` both maps are the identity.

use crate::bodies::rigid_body::RigidBody;
use crate::math::Quaternion;
use crate::state::RigidState;
use crate::Real;
use nalgebra::Vector3;

/// The state a scheme integrates: the centre of mass and the orientation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ComState<T> {
    /// COM position (m, world).
    pub r: Vector3<T>,
    /// COM velocity (m/s, world).
    pub v: Vector3<T>,
    /// Orientation `R_0b` (unit quaternion, scalar first).
    pub q: Quaternion<T>,
    /// Angular velocity (rad/s, body frame).
    pub w: Vector3<T>,
}

impl<T: Real> ComState<T> {
    /// The COM state of a reference-point state.
    // Inlined: the step keeps the state in registers.
    #[inline(always)]
    pub fn from_reference(body: &RigidBody<T>, s: &RigidState<T>) -> Self {
        let (r, v) = if body.com_at_reference() {
            (s.position, s.velocity)
        } else {
            (body.com_position(s), body.com_velocity(s))
        };
        Self {
            r,
            v,
            q: s.orientation,
            w: s.angular_velocity,
        }
    }

    /// Position and velocity of the reference point (m, m/s, world) of this COM state.
    // Inlined: the step keeps the state in registers.
    #[inline(always)]
    pub fn reference_point(&self, body: &RigidBody<T>) -> (Vector3<T>, Vector3<T>) {
        if body.com_at_reference() {
            (self.r, self.v)
        } else {
            let c = body.center_of_mass();
            (
                self.r - self.q.rotate(c),
                self.v - self.q.rotate(&self.w.cross(c)),
            )
        }
    }
}

/// Renormalizes a quaternion that is unit to a few ulp (a product of unit quaternions) by one
/// Newton step of `1/sqrt(n)`: `q (3 - |q|^2)/2`. It takes `| |q|^2 - 1 | = e` to about
/// `3 e^2 / 4`, with no square root or division.
#[inline]
pub fn renormalize_near_unit<T: Real>(q: &Quaternion<T>) -> Quaternion<T> {
    let k = T::c(1.5) - T::c(0.5) * q.norm_squared();
    Quaternion::new(q.w * k, q.x * k, q.y * k, q.z * k)
}
