//! Spatial vectors and inertias (Featherstone, *Rigid Body Dynamics Algorithms*, ch. 2), in
//! fixed-size 3-vector parts.
//!
//! A motion vector is `[w; v]` and a force vector `[n; f]`, angular part first as in
//! Featherstone's book: `w` the angular velocity (rad/s), `v` the velocity (m/s) of the body
//! point at the frame's origin, `n` the moment (N m) about the frame's origin, `f` the force (N);
//! all four resolved in the same frame. A [`Transform`] `(R, p)` places a child frame in its
//! parent: `R` maps child coordinates to parent coordinates (as `R_0b` does for a body), `p` is
//! the child's origin in parent coordinates (m).

use crate::math::skew;
use crate::Real;
use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};
use nalgebra::{Matrix3, Vector3};

/// A spatial motion vector `[w; v]` (rad/s, m/s; see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion<T> {
    /// Angular velocity `w` (rad/s) or angular acceleration.
    pub angular: Vector3<T>,
    /// Velocity (m/s) of the body point at the frame's origin, or its spatial acceleration.
    pub linear: Vector3<T>,
}

/// A spatial force vector `[n; f]` (N m about the frame's origin, N; see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Force<T> {
    /// Moment `n` (N m) about the frame's origin.
    pub angular: Vector3<T>,
    /// Force `f` (N).
    pub linear: Vector3<T>,
}

macro_rules! spatial_vector_ops {
    ($t:ident) => {
        impl<T: Real> $t<T> {
            /// The vector of its angular and linear parts.
            #[inline]
            pub fn new(angular: Vector3<T>, linear: Vector3<T>) -> Self {
                Self { angular, linear }
            }
            /// The zero vector.
            #[inline]
            pub fn zero() -> Self {
                Self::new(Vector3::zeros(), Vector3::zeros())
            }
            /// Component `k` of `[angular; linear]` (`k < 6`).
            #[inline]
            pub fn get(&self, k: usize) -> T {
                if k < 3 {
                    self.angular[k]
                } else {
                    self.linear[k - 3]
                }
            }
            /// `true` if all six components are finite.
            pub fn is_finite(&self) -> bool {
                crate::finite::all_finite(&self.angular) && crate::finite::all_finite(&self.linear)
            }
        }
        impl<T: Real> Add for $t<T> {
            type Output = Self;
            #[inline]
            fn add(self, o: Self) -> Self {
                Self::new(self.angular + o.angular, self.linear + o.linear)
            }
        }
        impl<T: Real> Sub for $t<T> {
            type Output = Self;
            #[inline]
            fn sub(self, o: Self) -> Self {
                Self::new(self.angular - o.angular, self.linear - o.linear)
            }
        }
        impl<T: Real> AddAssign for $t<T> {
            #[inline]
            fn add_assign(&mut self, o: Self) {
                self.angular += o.angular;
                self.linear += o.linear;
            }
        }
        impl<T: Real> SubAssign for $t<T> {
            #[inline]
            fn sub_assign(&mut self, o: Self) {
                self.angular -= o.angular;
                self.linear -= o.linear;
            }
        }
        impl<T: Real> Neg for $t<T> {
            type Output = Self;
            #[inline]
            fn neg(self) -> Self {
                Self::new(-self.angular, -self.linear)
            }
        }
        impl<T: Real> Mul<T> for $t<T> {
            type Output = Self;
            #[inline]
            fn mul(self, s: T) -> Self {
                Self::new(self.angular * s, self.linear * s)
            }
        }
    };
}
spatial_vector_ops!(Motion);
spatial_vector_ops!(Force);

impl<T: Real> Motion<T> {
    /// The spatial cross product `self x m` of two motions (Featherstone's `crm`):
    /// `[w x m_w; w x m_v + v x m_w]`.
    #[inline]
    pub fn cross(&self, m: &Motion<T>) -> Motion<T> {
        Motion::new(
            self.angular.cross(&m.angular),
            self.angular.cross(&m.linear) + self.linear.cross(&m.angular),
        )
    }

    /// The dual cross product `self x* f` of a motion and a force (Featherstone's `crf`):
    /// `[w x n + v x f; w x f]`.
    #[inline]
    pub fn cross_force(&self, f: &Force<T>) -> Force<T> {
        Force::new(
            self.angular.cross(&f.angular) + self.linear.cross(&f.linear),
            self.angular.cross(&f.linear),
        )
    }

    /// The power `w.n + v.f` (W) of a force on this motion.
    #[inline]
    pub fn dot(&self, f: &Force<T>) -> T {
        self.angular.dot(&f.angular) + self.linear.dot(&f.linear)
    }
}

/// The placement `(R, p)` of a child frame in a parent frame (see the module).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform<T> {
    /// `R`: child coordinates to parent coordinates (orthonormal, det +1).
    pub rotation: Matrix3<T>,
    /// `p`: the child's origin in parent coordinates (m).
    pub translation: Vector3<T>,
}

impl<T: Real> Transform<T> {
    /// The child frame coincides with the parent.
    pub fn identity() -> Self {
        Self::new(Matrix3::identity(), Vector3::zeros())
    }

    /// The placement of rotation `R` (child to parent) and origin `p` (m, parent coordinates).
    #[inline]
    pub fn new(rotation: Matrix3<T>, translation: Vector3<T>) -> Self {
        Self {
            rotation,
            translation,
        }
    }

    /// A pure translation by `p` (m, parent coordinates).
    pub fn translation(p: Vector3<T>) -> Self {
        Self::new(Matrix3::identity(), p)
    }

    /// The frame `self * child`: `child` placed in `self`'s child frame, seen from `self`'s
    /// parent: `(R R_c, p + R p_c)`.
    #[inline]
    pub fn compose(&self, child: &Transform<T>) -> Transform<T> {
        Transform::new(
            self.rotation * child.rotation,
            self.translation + self.rotation * child.translation,
        )
    }

    /// A point given in child coordinates (m), in parent coordinates: `R x + p`.
    #[inline]
    pub fn point_to_parent(&self, x: &Vector3<T>) -> Vector3<T> {
        self.rotation * x + self.translation
    }

    /// A motion in parent coordinates, in child coordinates (Featherstone's `X m`):
    /// `[R^T w; R^T (v - p x w)]`.
    #[inline]
    pub fn motion_to_child(&self, m: &Motion<T>) -> Motion<T> {
        let rt = self.rotation.transpose();
        Motion::new(
            rt * m.angular,
            rt * (m.linear - self.translation.cross(&m.angular)),
        )
    }

    /// A motion in child coordinates, in parent coordinates (`X^-1 m`):
    /// `[R w; R v + p x R w]`.
    #[inline]
    pub fn motion_to_parent(&self, m: &Motion<T>) -> Motion<T> {
        let w = self.rotation * m.angular;
        Motion::new(w, self.rotation * m.linear + self.translation.cross(&w))
    }

    /// A force in child coordinates, in parent coordinates (`X^T f`):
    /// `[R n + p x R f; R f]`.
    #[inline]
    pub fn force_to_parent(&self, f: &Force<T>) -> Force<T> {
        let lin = self.rotation * f.linear;
        Force::new(
            self.rotation * f.angular + self.translation.cross(&lin),
            lin,
        )
    }

    /// A force in parent coordinates, in child coordinates (`X^-T f`):
    /// `[R^T (n - p x f); R^T f]`.
    #[inline]
    pub fn force_to_child(&self, f: &Force<T>) -> Force<T> {
        let rt = self.rotation.transpose();
        Force::new(
            rt * (f.angular - self.translation.cross(&f.linear)),
            rt * f.linear,
        )
    }
}

/// The spatial inertia of a rigid body in a frame: mass `m` (kg), first moment `h = m c`
/// (kg m, `c` the centre of mass in the frame) and the rotational inertia `I_o` (kg m^2) about
/// the frame's origin: Featherstone's `[I_o, [h]x; [h]x^T, m E]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidInertia<T> {
    /// Mass `m` (kg).
    pub mass: T,
    /// First moment `h = m c` (kg m).
    pub first_moment: Vector3<T>,
    /// Inertia tensor `I_o` (kg m^2) about the frame's origin.
    pub rotational: Matrix3<T>,
}

impl<T: Real> RigidInertia<T> {
    /// No mass.
    pub fn zero() -> Self {
        Self {
            mass: T::zero(),
            first_moment: Vector3::zeros(),
            rotational: Matrix3::zeros(),
        }
    }

    /// The inertia of a body of mass `m` (kg) with centre of mass `c` (m) and inertia `I_c`
    /// (kg m^2) about it, all in this frame: `I_o = I_c + m (|c|^2 E - c c^T)`.
    pub fn from_mass_properties(mp: &crate::inertia::MassProperties<T>) -> Self {
        Self {
            mass: mp.mass,
            first_moment: mp.com * mp.mass,
            rotational: mp.inertia_about(&Vector3::zeros()),
        }
    }

    /// The inertia, in the parent frame of `x`, of a body whose mass properties `mp` (mass,
    /// centre of mass `c`, inertia `I_c` about it) are given in `x`'s child frame:
    /// `c' = R c + p`, `I_o = R I_c R^T + m (|c'|^2 E - c' c'^T)`: Featherstone's `X^T I X` of
    /// the body's inertia in the child frame, with about half the operations of that congruence
    /// (the rotated tensor is symmetric, and no shift about the child's origin is undone).
    #[inline(always)]
    pub fn from_placed_mass_properties(
        mp: &crate::inertia::MassProperties<T>,
        x: &Transform<T>,
    ) -> RigidInertia<T> {
        let c = x.point_to_parent(&mp.com);
        let ic = rotate_symmetric(&x.rotation, &mp.inertia);
        let m = mp.mass;
        let (mx, my, mz) = (m * c.x, m * c.y, m * c.z);
        let (xx, yy, zz) = (mx * c.x, my * c.y, mz * c.z);
        let (xy, xz, yz) = (mx * c.y, mx * c.z, my * c.z);
        RigidInertia {
            mass: m,
            first_moment: Vector3::new(mx, my, mz),
            rotational: Matrix3::new(
                ic[(0, 0)] + yy + zz,
                ic[(0, 1)] - xy,
                ic[(0, 2)] - xz,
                ic[(1, 0)] - xy,
                ic[(1, 1)] + xx + zz,
                ic[(1, 2)] - yz,
                ic[(2, 0)] - xz,
                ic[(2, 1)] - yz,
                ic[(2, 2)] + xx + yy,
            ),
        }
    }

    /// The momentum `I m` of a motion: `[I_o w + h x v; m v - h x w]`.
    #[inline]
    pub fn apply(&self, m: &Motion<T>) -> Force<T> {
        Force::new(
            self.rotational * m.angular + self.first_moment.cross(&m.linear),
            m.linear * self.mass - self.first_moment.cross(&m.angular),
        )
    }

    /// Adds `o` (in the same frame) to this inertia in place (two bodies rigidly joined).
    #[inline]
    pub fn add_assign(&mut self, o: &RigidInertia<T>) {
        self.mass += o.mass;
        self.first_moment += o.first_moment;
        self.rotational += o.rotational;
    }
}

/// `R S R^T` of a symmetric `S`, exactly symmetric: `T = R S`, then the six distinct entries
/// of `T R^T`.
#[inline]
pub fn rotate_symmetric<T: Real>(r: &Matrix3<T>, s: &Matrix3<T>) -> Matrix3<T> {
    let t = r * s;
    let e =
        |i: usize, j: usize| t[(i, 0)] * r[(j, 0)] + t[(i, 1)] * r[(j, 1)] + t[(i, 2)] * r[(j, 2)];
    let (a01, a02, a12) = (e(0, 1), e(0, 2), e(1, 2));
    Matrix3::new(e(0, 0), a01, a02, a01, e(1, 1), a12, a02, a12, e(2, 2))
}

/// An articulated-body inertia (Featherstone, ch. 7): a symmetric 6x6 map from motion to force,
/// `[n; f] = [A B; B^T C] [w; v]`, stored as its three distinct blocks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArticulatedInertia<T> {
    /// `A` (kg m^2): moment from angular motion, symmetric.
    pub a: Matrix3<T>,
    /// `B` (kg m): moment from linear motion (`B^T`: force from angular motion).
    pub b: Matrix3<T>,
    /// `C` (kg): force from linear motion, symmetric.
    pub c: Matrix3<T>,
}

impl<T: Real> ArticulatedInertia<T> {
    /// The inertia of a rigid body: `A = I_o`, `B = [h]x`, `C = m E`.
    #[inline]
    pub fn from_rigid(i: &RigidInertia<T>) -> Self {
        Self {
            a: i.rotational,
            b: skew(&i.first_moment),
            c: Matrix3::identity() * i.mass,
        }
    }

    /// The force `IA m`: `[A w + B v; B^T w + C v]`.
    #[inline]
    pub fn apply(&self, m: &Motion<T>) -> Force<T> {
        Force::new(
            self.a * m.angular + self.b * m.linear,
            self.b.tr_mul(&m.angular) + self.c * m.linear,
        )
    }

    /// `self -= w u^T` for a force-type column `u` and `w` (the rank-one update
    /// `IA - U D^-1 U^T` summed over a joint's columns, `w = U D^-1`).
    #[inline]
    pub fn sub_outer(&mut self, w: &Force<T>, u: &Force<T>) {
        self.a -= w.angular * u.angular.transpose();
        self.b -= w.angular * u.linear.transpose();
        self.c -= w.linear * u.linear.transpose();
    }

    /// `self -= u u^T / d` for one force-type column `u` and a scalar `d` (a one-coordinate
    /// joint's `I^A - U D^-1 U^T`), keeping `A` and `C` exactly symmetric: their upper entries
    /// computed, the lower mirrored.
    #[inline]
    pub fn sub_symmetric_outer(&mut self, u: &Force<T>, inv_d: T) {
        let (ua, ul) = (u.angular, u.linear);
        let (wa, wl) = (ua * inv_d, ul * inv_d);
        for i in 0..3 {
            for j in i..3 {
                let a = self.a[(i, j)] - wa[i] * ua[j];
                self.a[(i, j)] = a;
                self.a[(j, i)] = a;
                let c = self.c[(i, j)] - wl[i] * ul[j];
                self.c[(i, j)] = c;
                self.c[(j, i)] = c;
            }
        }
        self.b -= wa * ul.transpose();
    }

    /// `self += o`.
    #[inline]
    pub fn add_assign(&mut self, o: &ArticulatedInertia<T>) {
        self.a += o.a;
        self.b += o.b;
        self.c += o.c;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::needless_range_loop)]
mod tests {
    use super::*;
    use nalgebra::{Matrix6, Vector6};

    fn x() -> Transform<f64> {
        let q = crate::math::Quaternion::new(0.8, 0.2, -0.4, 0.4);
        let q = q.normalized().unwrap();
        Transform::new(q.to_matrix(), Vector3::new(0.3, -1.2, 0.7))
    }

    fn v6m(m: &Motion<f64>) -> Vector6<f64> {
        Vector6::new(
            m.angular.x,
            m.angular.y,
            m.angular.z,
            m.linear.x,
            m.linear.y,
            m.linear.z,
        )
    }
    fn v6f(f: &Force<f64>) -> Vector6<f64> {
        Vector6::new(
            f.angular.x,
            f.angular.y,
            f.angular.z,
            f.linear.x,
            f.linear.y,
            f.linear.z,
        )
    }

    /// Featherstone's 6x6 motion transform (parent -> child) built from its definition.
    fn xm(x: &Transform<f64>) -> Matrix6<f64> {
        let e = x.rotation.transpose();
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&e);
        m.fixed_view_mut::<3, 3>(3, 3).copy_from(&e);
        m.fixed_view_mut::<3, 3>(3, 0)
            .copy_from(&(-e * skew(&x.translation)));
        m
    }

    #[test]
    fn transforms_match_featherstone_matrices() {
        let x = x();
        let m = Motion::new(Vector3::new(0.1, 2.0, -0.3), Vector3::new(-1.0, 0.5, 0.25));
        let f = Force::new(Vector3::new(0.7, -0.2, 1.1), Vector3::new(3.0, -2.0, 0.4));
        let xm = xm(&x);
        assert!((v6m(&x.motion_to_child(&m)) - xm * v6m(&m)).norm() < 1e-14);
        assert!((v6m(&x.motion_to_parent(&x.motion_to_child(&m))) - v6m(&m)).norm() < 1e-14);
        assert!((v6f(&x.force_to_parent(&f)) - xm.transpose() * v6f(&f)).norm() < 1e-14);
        assert!((v6f(&x.force_to_child(&x.force_to_parent(&f))) - v6f(&f)).norm() < 1e-14);
        // Power is frame-independent.
        let mc = x.motion_to_child(&m);
        let fp = x.force_to_parent(&f);
        assert!((mc.dot(&f) - m.dot(&fp)).abs() < 1e-14);
    }

    #[test]
    fn inertia_transforms_are_congruences() {
        let x = x();
        let mp = crate::inertia::MassProperties::new(
            2.5,
            Vector3::new(0.1, -0.2, 0.3),
            Matrix3::new(0.3, 0.01, -0.02, 0.01, 0.25, 0.03, -0.02, 0.03, 0.2),
        )
        .unwrap();
        let i = RigidInertia::from_mass_properties(&mp);
        let ia = ArticulatedInertia::from_rigid(&i);
        let m = Motion::new(Vector3::new(0.1, 2.0, -0.3), Vector3::new(-1.0, 0.5, 0.25));
        // X^T I X m from the transforms (checked against Featherstone's matrices above).
        let direct = x.force_to_parent(&i.apply(&x.motion_to_child(&m)));
        let placed = RigidInertia::from_placed_mass_properties(&mp, &x);
        assert!((v6f(&placed.apply(&m)) - v6f(&direct)).norm() < 1e-13);
        assert_eq!(placed.rotational, placed.rotational.transpose());
        // The rigid form is the articulated one with B = [h]x.
        assert!((v6f(&ia.apply(&m)) - v6f(&i.apply(&m))).norm() < 1e-15);
        // Moving the body's frame moves its centre of mass: c_p = R c + p.
        let c = x.point_to_parent(&mp.com);
        assert!((placed.first_moment / placed.mass - c).norm() < 1e-14);
        let expected = RigidInertia::from_mass_properties(&crate::inertia::MassProperties {
            mass: mp.mass,
            com: c,
            inertia: x.rotation * mp.inertia * x.rotation.transpose(),
        });
        assert!((placed.rotational - expected.rotational).norm() < 1e-13);
    }

    #[test]
    fn cross_products_are_the_derivative_of_a_moving_frame() {
        // crf is minus the transpose (adjoint) of crm: (v x m).f = -m.(v x* f).
        let v: Motion<f64> =
            Motion::new(Vector3::new(0.3, -0.1, 0.8), Vector3::new(1.0, 2.0, -0.5));
        let m = Motion::new(Vector3::new(0.1, 2.0, -0.3), Vector3::new(-1.0, 0.5, 0.25));
        let f = Force::new(Vector3::new(0.7, -0.2, 1.1), Vector3::new(3.0, -2.0, 0.4));
        assert!((v.cross(&m).dot(&f) + m.dot(&v.cross_force(&f))).abs() < 1e-14);
        assert!(v.cross(&v).is_finite() && v6m(&v.cross(&v)).norm() < 1e-15);
    }
}
