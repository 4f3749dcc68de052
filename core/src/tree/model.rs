//! [`KinematicTree`]: the model of a tree of rigid links in joint coordinates (what the user
//! describes; it does not change while the tree moves). Exudyn's `ObjectKinematicTree` is the
//! model for its parameters: a parent, a joint, the joint's placement in the parent and the
//! link's mass properties per link, gravity, and a spring-damper on a joint coordinate.

// `!(x > 0)` is meant: NaN must fail these checks.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use super::joint::Joint;
use super::spatial::{RigidInertia, Transform};
use crate::error::finite_all;
use crate::inertia::{inertia_tolerance, MassProperties};
use crate::{Error, Param, Real, Result};
use heapless::Vec;
use nalgebra::{Matrix3, Vector3};

/// A spring-damper on each velocity coordinate of a joint, Exudyn's `ObjectKinematicTree`
/// control vectors: the generalized force `P (u_o - q) + D (v_o - q_t)` (N m or N) acts on the
/// link, and its reaction on the parent. The stiffness and position offset apply to a revolute
/// or prismatic joint only (a rotation has no scalar coordinate); damping and velocity offset to
/// every velocity coordinate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointSpring<T> {
    /// `P`: stiffness (N m/rad or N/m), `>= 0` (Exudyn's `jointPControlVector`).
    pub stiffness: T,
    /// `D`: damping (N m s/rad or N s/m), `>= 0` (Exudyn's `jointDControlVector`).
    pub damping: T,
    /// `u_o`: the coordinate where the spring is relaxed (Exudyn's `jointPositionOffsetVector`).
    pub position_offset: T,
    /// `v_o`: the velocity the damper drives towards (Exudyn's `jointVelocityOffsetVector`).
    pub velocity_offset: T,
}

impl<T: Real> JointSpring<T> {
    /// No spring, no damper.
    pub fn none() -> Self {
        Self {
            stiffness: T::zero(),
            damping: T::zero(),
            position_offset: T::zero(),
            velocity_offset: T::zero(),
        }
    }

    /// The generalized force `P (u_o - q) + D (v_o - q_t)` on one coordinate (`q` is ignored,
    /// pass zero, where the joint has no scalar position).
    #[inline]
    pub fn force(&self, q: T, q_t: T) -> T {
        self.stiffness * (self.position_offset - q) + self.damping * (self.velocity_offset - q_t)
    }
}

/// One link of a tree and the joint that carries it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link<T> {
    /// The parent link (an earlier link), or `None` for the base (the world frame).
    pub parent: Option<usize>,
    /// The joint between the parent and this link.
    pub joint: Joint<T>,
    /// The joint frame in the parent's link frame (or in the world for the base): the link
    /// frame at the joint's reference coordinates.
    pub placement: Transform<T>,
    /// The link's spatial inertia in its link frame.
    pub inertia: RigidInertia<T>,
    /// The link's mass properties in its link frame (centre of mass, inertia about it).
    pub mass_properties: MassProperties<T>,
    /// The spring-damper on the joint's coordinates.
    pub spring: JointSpring<T>,
    /// Where the joint's coordinates start in `q`.
    pub q_index: usize,
    /// Where the joint's velocities start in `v` (and in `tau`, `q_tt`, the mass matrix).
    pub v_index: usize,
    /// How the joint's coordinate moves the link in its parent, prepared for the sweeps.
    pub(crate) turn: Turn<T>,
}

/// How a revolute or prismatic joint's coordinate moves its link, prepared when the link is
/// added so that the sweeps do the least arithmetic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Turn<T> {
    /// The axis is `sign e_k` of the joint frame (`sign` = +-1; the usual case of a robot
    /// description): the axis is column `k` of the link's rotation, and a revolute joint turns
    /// the other two columns of `R_p` (or, `placed = false`, of the identity: `R_p = E`).
    Aligned { k: usize, sign: T, placed: bool },
    /// A revolute joint about another axis: `R_p [a]x` and `R_p [a]x^2`, so that the link's
    /// rotation in its parent at angle `q` is `R_p + sin q R_p [a]x + (1 - cos q) R_p [a]x^2`.
    General([Matrix3<T>; 2]),
    /// A prismatic joint along another axis, or a joint without one axis.
    None,
}

impl<T: Real> Turn<T> {
    /// The form of `joint` placed at the rotation `r` in its parent.
    fn of(joint: &Joint<T>, r: &Matrix3<T>) -> Self {
        let (axis, revolute) = match joint {
            Joint::Revolute { axis } => (axis, true),
            Joint::Prismatic { axis } => (axis, false),
            _ => return Turn::None,
        };
        let placed = *r != Matrix3::identity();
        for k in 0..3 {
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            if axis[i] == T::zero() && axis[j] == T::zero() && axis[k].abs_l() == T::one() {
                return Turn::Aligned {
                    k,
                    sign: axis[k],
                    placed,
                };
            }
        }
        if revolute {
            let ax = crate::math::skew(axis);
            let first = r * ax;
            Turn::General([first, first * ax])
        } else {
            Turn::None
        }
    }
}

impl<T: Real> Link<T> {
    /// The spring-damper's generalized force on the joint's velocity coordinate `k` at `q`,
    /// `v` (the tree's whole vectors): the position enters for a joint with one scalar
    /// coordinate only (the others carry no stiffness).
    #[inline]
    pub fn spring_force(&self, q: &[T], v: &[T], k: usize) -> T {
        let position = if self.joint.nq() == 1 {
            q[self.q_index]
        } else {
            T::zero()
        };
        self.spring.force(position, v[self.v_index + k])
    }
}

/// A tree of at most `L` rigid links with at most `D` joint coordinates in total (`nq <= D`;
/// `nv <= nq`), `T` the scalar. Links are numbered in the order they are added; a parent is
/// always an earlier link, so one forward sweep visits parents before children (Featherstone's
/// regular numbering).
///
/// Vectors: `q` (length [`nq`](Self::nq)), `v`, `q_tt` and `tau` (length [`nv`](Self::nv)),
/// each joint's part in link order, as [`Joint`] lists. Spatial quantities of a link are in its
/// link frame ([`super::spatial`]).
#[derive(Clone, Debug, PartialEq)]
pub struct KinematicTree<T, const L: usize, const D: usize> {
    pub(crate) links: Vec<Link<T>, L>,
    pub(crate) gravity: Vector3<T>,
    /// Zero: with `gravity`, four scalars, so that no padding follows them in single
    /// precision and a copy of the tree (the C API's storage) has every byte defined.
    _fill: T,
    pub(crate) nq: usize,
    pub(crate) nv: usize,
    /// Featherstone's `lambda`: the velocity coordinate each one hangs from in the tree (the
    /// previous one of a multi-coordinate joint, else the last one of the nearest ancestor
    /// that moves); `usize::MAX` for none.
    pub(crate) lambda: [usize; D],
}

/// "No parent coordinate" in [`KinematicTree`]'s `lambda`.
pub(crate) const NONE: usize = usize::MAX;

impl<T: Real, const L: usize, const D: usize> KinematicTree<T, L, D> {
    /// An empty tree under `gravity` (m/s^2, world coordinates).
    /// Errors: `NotFinite(Acceleration)`.
    pub fn new(gravity: Vector3<T>) -> Result<Self> {
        finite_all(&gravity, Param::Acceleration)?;
        Ok(Self {
            links: Vec::new(),
            gravity,
            _fill: T::zero(),
            nq: 0,
            nv: 0,
            lambda: [NONE; D],
        })
    }

    /// Writes zeros into the link slots not in use. A tree moved into a caller's buffer (the
    /// C API's storage) carries whatever bytes those slots held before the move; after this,
    /// every byte of its unused capacity is defined.
    pub fn zero_unused_capacity(&mut self) {
        for slot in self.links.spare_capacity_mut() {
            *slot = core::mem::MaybeUninit::zeroed();
        }
    }

    /// Adds a link on `joint` whose joint frame sits at `placement` in `parent`'s link frame (or
    /// in the world, for `None`), with mass properties `mass` in the link frame (mass, centre of
    /// mass, inertia about the centre of mass: [`MassProperties`], e.g. of a `BodyCylinder`).
    /// Returns the link's index.
    ///
    /// Errors (nothing is added): `UnknownIndex` for a parent that is not an earlier link;
    /// `NotFinite(Direction)`/`ZeroLength(Direction)` for a joint axis;
    /// `NotFinite(Orientation | Position)` or `OutOfRange(Orientation)` for a placement whose
    /// rotation is not orthonormal with determinant +1; `NotFinite`/`OutOfRange` of
    /// [`MassProperties::new`], `OutOfRange(Mass)` for a mass that is not positive,
    /// `OutOfRange(Inertia)` for an inertia tensor that is not positive definite (every
    /// principal moment above the physical-inertia tolerance times the trace: a joint about an
    /// axis without inertia would make the dynamics singular); `CapacityFull` when `L` links or
    /// `D` coordinates would be exceeded.
    pub fn add_link(
        &mut self,
        parent: Option<usize>,
        joint: Joint<T>,
        placement: Transform<T>,
        mass: &MassProperties<T>,
    ) -> Result<usize> {
        if let Some(p) = parent {
            if p >= self.links.len() {
                return Err(Error::UnknownIndex);
            }
        }
        let joint = match joint {
            Joint::Revolute { axis } => Joint::revolute(axis)?,
            Joint::Prismatic { axis } => Joint::prismatic(axis)?,
            j => j,
        };
        check_placement(&placement)?;
        let mp = MassProperties::new(mass.mass, mass.com, mass.inertia)?;
        if !(mp.mass > T::zero()) {
            return Err(Error::OutOfRange(Param::Mass));
        }
        let moments = mp.principal_moments();
        let trace = moments[0] + moments[1] + moments[2];
        if !(moments[0] > inertia_tolerance::<T>() * trace) {
            return Err(Error::OutOfRange(Param::Inertia));
        }
        if self.links.len() >= L || self.nq + joint.nq() > D {
            return Err(Error::CapacityFull);
        }
        // The coordinate the new joint's first velocity hangs from.
        let mut above = NONE;
        let mut a = parent;
        while let Some(i) = a {
            let l = &self.links[i];
            if l.joint.nv() > 0 {
                above = l.v_index + l.joint.nv() - 1;
                break;
            }
            a = l.parent;
        }
        for k in 0..joint.nv() {
            self.lambda[self.nv + k] = if k == 0 { above } else { self.nv + k - 1 };
        }
        let link = Link {
            parent,
            joint,
            placement,
            inertia: RigidInertia::from_mass_properties(&mp),
            mass_properties: mp,
            spring: JointSpring::none(),
            q_index: self.nq,
            v_index: self.nv,
            turn: Turn::of(&joint, &placement.rotation),
        };
        self.links.push(link).map_err(|_| Error::CapacityFull)?;
        self.nq += joint.nq();
        self.nv += joint.nv();
        Ok(self.links.len() - 1)
    }

    /// The same tree in capacities `L2` links and `D2` coordinates (e.g. a tree built in a
    /// large scratch capacity, kept in a system sized for it). Errors: `CapacityFull`.
    pub fn to_capacity<const L2: usize, const D2: usize>(
        &self,
    ) -> Result<KinematicTree<T, L2, D2>> {
        let mut t = KinematicTree::new(self.gravity)?;
        for l in self.links.iter() {
            let i = t.add_link(l.parent, l.joint, l.placement, &l.mass_properties)?;
            t.set_joint_spring(i, l.spring)?;
        }
        Ok(t)
    }

    /// Sets the spring-damper of `link`'s joint. Errors (nothing changed): `UnknownIndex`;
    /// `NotFinite(Stiffness | Damping | Position | Velocity)`; `OutOfRange(Stiffness | Damping)`
    /// for a negative value, or a stiffness or position offset on a joint without a scalar
    /// position (fixed, spherical, free).
    pub fn set_joint_spring(&mut self, link: usize, spring: JointSpring<T>) -> Result<()> {
        let l = self.links.get(link).ok_or(Error::UnknownIndex)?;
        crate::error::finite(spring.stiffness, Param::Stiffness)?;
        crate::error::finite(spring.damping, Param::Damping)?;
        crate::error::finite(spring.position_offset, Param::Position)?;
        crate::error::finite(spring.velocity_offset, Param::Velocity)?;
        if spring.stiffness < T::zero() {
            return Err(Error::OutOfRange(Param::Stiffness));
        }
        if spring.damping < T::zero() {
            return Err(Error::OutOfRange(Param::Damping));
        }
        let scalar = matches!(l.joint, Joint::Revolute { .. } | Joint::Prismatic { .. });
        if !scalar && (spring.stiffness != T::zero() || spring.position_offset != T::zero()) {
            return Err(Error::OutOfRange(Param::Stiffness));
        }
        self.links[link].spring = spring;
        Ok(())
    }

    /// Sets gravity (m/s^2, world coordinates). Errors: `NotFinite(Acceleration)`.
    pub fn set_gravity(&mut self, gravity: Vector3<T>) -> Result<()> {
        finite_all(&gravity, Param::Acceleration)?;
        self.gravity = gravity;
        Ok(())
    }

    /// Gravity (m/s^2, world coordinates).
    pub fn gravity(&self) -> Vector3<T> {
        self.gravity
    }

    /// The number of position coordinates `nq`.
    pub fn nq(&self) -> usize {
        self.nq
    }

    /// The number of velocity coordinates (degrees of freedom) `nv`.
    pub fn nv(&self) -> usize {
        self.nv
    }

    /// The links, in order.
    pub fn links(&self) -> &[Link<T>] {
        &self.links
    }

    /// The reference configuration (every joint at zero, identity rotations) into `q[..nq]`.
    /// Errors: `OutOfRange(Coordinate)` for a `q` of another length than `nq`.
    pub fn neutral_configuration(&self, q: &mut [T]) -> Result<()> {
        if q.len() != self.nq {
            return Err(Error::OutOfRange(Param::Coordinate));
        }
        for l in self.links.iter() {
            l.joint.neutral(&mut q[l.q_index..]);
        }
        Ok(())
    }

    /// Checks a configuration and its velocities: lengths `nq` and `nv`
    /// (`OutOfRange(Coordinate)`), finite (`NotFinite(Position | Velocity)`), and every
    /// quaternion of length above `sqrt(EPS)` (`ZeroLength(Orientation)`).
    pub(crate) fn check_state(&self, q: &[T], v: Option<&[T]>) -> Result<()> {
        if q.len() != self.nq || v.is_some_and(|v| v.len() != self.nv) {
            return Err(Error::OutOfRange(Param::Coordinate));
        }
        if !crate::finite::all_finite_slice(q) {
            return Err(Error::NotFinite(Param::Position));
        }
        if let Some(v) = v {
            if !crate::finite::all_finite_slice(v) {
                return Err(Error::NotFinite(Param::Velocity));
            }
        }
        for l in self.links.iter() {
            if let Some(k) = l.joint.quaternion_at() {
                let e = &q[l.q_index + k..l.q_index + k + 4];
                let n2 = e.iter().fold(T::zero(), |s, x| s + *x * *x);
                if !(n2 > T::EPS) {
                    return Err(Error::ZeroLength(Param::Orientation));
                }
            }
        }
        Ok(())
    }

    /// Checks an input vector of joint forces or accelerations: length `nv`
    /// (`OutOfRange(Coordinate)`) and finite (`NotFinite(param)`).
    pub(crate) fn check_forces(&self, tau: &[T], param: Param) -> Result<()> {
        if tau.len() != self.nv {
            return Err(Error::OutOfRange(Param::Coordinate));
        }
        if !crate::finite::all_finite_slice(tau) {
            return Err(Error::NotFinite(param));
        }
        Ok(())
    }

    /// The checks of a forward-dynamics call: the state, the joint forces (`NotFinite(Torque)`)
    /// and the output's length.
    pub(crate) fn check_forward(&self, q: &[T], v: &[T], tau: &[T], q_tt: &[T]) -> Result<()> {
        self.check_state(q, Some(v))?;
        self.check_forces(tau, Param::Torque)?;
        self.check_output(q_tt)
    }

    /// Checks an output vector's length: `nv` (`OutOfRange(Coordinate)`).
    pub(crate) fn check_output(&self, out: &[T]) -> Result<()> {
        if out.len() != self.nv {
            return Err(Error::OutOfRange(Param::Coordinate));
        }
        Ok(())
    }
}

/// A placement's rotation must be a rotation: `|R^T R - E| <= max(1e-9, 64 EPS)` per entry and
/// `det R > 0`.
fn check_placement<T: Real>(x: &Transform<T>) -> Result<()> {
    finite_all(&x.rotation, Param::Orientation)?;
    finite_all(&x.translation, Param::Position)?;
    let tol = T::c(1e-9).max(T::EPS * T::c(64.0));
    let e = x.rotation.transpose() * x.rotation - Matrix3::identity();
    if e.iter().any(|d| !(d.abs_l() <= tol)) || !(x.rotation.determinant() > T::zero()) {
        return Err(Error::OutOfRange(Param::Orientation));
    }
    Ok(())
}
