//! The slider-crank of Exudyn's `SliderCrank.py` in redundant coordinates, for any scalar: a
//! crank and a connecting rod (2D rigid bodies, coordinates `x, y, theta` of their centres)
//! and a slider (a 2D mass point) joined by three revolute joints, the slider held on the x
//! axis by a coordinate constraint, a constant torque on the crank, no gravity: 8 coordinates,
//! 7 constraint equations. Twice: written by hand as one constrained model ([`SliderCrank`],
//! every Jacobian analytic from core's planar constraints), and built from a system's items as
//! Exudyn builds it ([`add_to_system`]). Compiled into the firmware and, through `#[path]`,
//! into the host tests and benchmarks.

use mbs_core::bodies::{ObjectGround, RigidBody2D};
use mbs_core::constraints::planar::{self, PlanarMarker};
use mbs_core::integrators::constrained::{Block, ConstrainedModel};
use mbs_core::nodes::{NodePoint2D, NodePointGround, NodeRigidBody2D};
use mbs_core::system::{Constraint, Load, Marker, Node, NodeIndex, Object, ObjectIndex, System};
use mbs_core::{Error, Real, Result};
use nalgebra::{Vector2, Vector3};

/// Half length of the crank (m).
pub const A0: f64 = 0.25;
/// Half length of the rod (m).
pub const A1: f64 = 0.5;
/// Mass of the crank (kg).
pub const M0: f64 = 2.0;
/// Mass of the rod (kg).
pub const M1: f64 = 4.0;
/// Mass of the slider (kg).
pub const M2: f64 = 1.0;

/// Moment of inertia of the crank about its centre (kg m^2): a bar of length `2 a0`.
pub fn i0() -> f64 {
    M0 / 12.0 * (2.0 * A0) * (2.0 * A0)
}

/// Moment of inertia of the rod about its centre (kg m^2).
pub fn i1() -> f64 {
    M1 / 12.0 * (2.0 * A1) * (2.0 * A1)
}

/// The straight start configuration of Exudyn's example: crank, rod and slider on the x axis.
pub fn start_coordinates<T: Real>() -> [T; 8] {
    let c = T::c;
    [
        c(A0),
        T::zero(),
        T::zero(),
        c(2.0 * A0 + A1),
        T::zero(),
        T::zero(),
        c(2.0 * A0 + 2.0 * A1),
        T::zero(),
    ]
}

/// Coordinates: crank `x, y, theta` (0..3), rod (3..6), slider `x, y` (6..8); `torque` (N m)
/// on the crank.
pub struct SliderCrank<T> {
    /// The torque on the crank (N m).
    pub torque: T,
}

impl<T: Real> SliderCrank<T> {
    /// Joint `k`'s marker pair: ground-crank (0), crank-rod (1), rod-slider (2).
    // One pair built where it is used: an array of all three, indexed, is copied byte by byte
    // on the Cortex-M4F.
    fn markers(k: usize) -> (PlanarMarker<T>, PlanarMarker<T>) {
        let rigid = |offset, x: f64| PlanarMarker::Rigid {
            offset,
            reference: Vector3::zeros(),
            local: Vector2::new(T::c(x), T::zero()),
            angle: T::zero(),
        };
        match k {
            0 => (
                PlanarMarker::Ground {
                    position: Vector2::zeros(),
                    angle: T::zero(),
                },
                rigid(0, -A0),
            ),
            1 => (rigid(0, A0), rigid(3, -A1)),
            _ => (
                rigid(3, A1),
                PlanarMarker::Point {
                    offset: 6,
                    reference: Vector2::zeros(),
                },
            ),
        }
    }

    /// The three revolute joints (rows 0..6) and the slider on the x axis (row 6).
    fn equations<const S: usize>(
        &self,
        q: &[T],
        c: &mut [T],
        mut jac: Option<&mut Block<'_, T, S>>,
    ) -> Result<()> {
        for k in 0..3 {
            revolute_rows(k, q, c, jac.as_deref_mut())?;
        }
        planar::coordinate(q, None, Some(7), T::one(), T::zero(), 6, c, jac)
            .ok_or(Error::UnknownIndex)
    }
}

/// Rows `2k, 2k + 1` of joint `k`.
// Out of line: one joint's marker states on the stack at a time.
#[inline(never)]
fn revolute_rows<T: Real, const S: usize>(
    k: usize,
    q: &[T],
    c: &mut [T],
    jac: Option<&mut Block<'_, T, S>>,
) -> Result<()> {
    let (a, b) = SliderCrank::<T>::markers(k);
    let v = [T::zero(); 8];
    // The states built here, not returned by a helper: a returned `Result` of the pair is
    // copied byte by byte on the Cortex-M4F (about 12,000 instructions a step).
    let (Some(m0), Some(m1)) = (a.state(q, &v), b.state(q, &v)) else {
        return Err(Error::UnknownIndex);
    };
    planar::revolute(&m0, &m1, 2 * k, c, jac).ok_or(Error::UnknownIndex)
}

/// `a (d/dq)(C_q^T lambda)` of joint `k` added to `out`.
#[inline(never)]
fn revolute_hessian_rows<T: Real, const S: usize>(
    k: usize,
    q: &[T],
    lambda: &[T],
    a: T,
    out: &mut Block<'_, T, S>,
) -> Result<()> {
    let (p0, p1) = SliderCrank::<T>::markers(k);
    let v = [T::zero(); 8];
    let (Some(m0), Some(m1)) = (p0.state(q, &v), p1.state(q, &v)) else {
        return Err(Error::UnknownIndex);
    };
    let l = Vector2::new(lambda[2 * k], lambda[2 * k + 1]);
    planar::revolute_hessian(&m0, &m1, &l, a, out);
    Ok(())
}

impl<T: Real> ConstrainedModel<T> for SliderCrank<T> {
    fn coordinates(&self) -> usize {
        8
    }

    fn constraints(&self) -> usize {
        7
    }

    fn mass<const S: usize>(&self, _t: T, _q: &[T], out: &mut Block<'_, T, S>) -> Result<()> {
        for (i, m) in [M0, M0, i0(), M1, M1, i1(), M2, M2].iter().enumerate() {
            out.add(i, i, T::c(*m));
        }
        Ok(())
    }

    fn force(&self, _t: T, _q: &[T], _v: &[T], f: &mut [T]) -> Result<()> {
        f[2] += self.torque;
        Ok(())
    }

    /// A constant torque: both Jacobians are zero.
    fn force_jacobians<const S: usize>(
        &self,
        _t: T,
        _q: &[T],
        _v: &[T],
        _a: T,
        _b: T,
        _out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        Some(Ok(()))
    }

    fn constraint(&self, _t: T, q: &[T], c: &mut [T]) -> Result<()> {
        self.equations::<0>(q, c, None)
    }

    fn constraint_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        let mut c = [T::zero(); 7];
        self.equations(q, &mut c, Some(out))
    }

    /// One pass over the joints for both.
    fn constraint_with_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        c: &mut [T],
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        self.equations(q, c, Some(out))
    }

    fn constraint_force_jacobian<const S: usize>(
        &self,
        _t: T,
        q: &[T],
        lambda: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Option<Result<()>> {
        for k in 0..3 {
            if let Err(e) = revolute_hessian_rows(k, q, lambda, a, out) {
                return Some(Err(e));
            }
        }
        Some(Ok(())) // the coordinate constraint is linear
    }

    fn constraint_velocity_term(
        &self,
        _t: T,
        q: &[T],
        v: &[T],
        out: &mut [T],
    ) -> Option<Result<()>> {
        for k in 0..3 {
            let (a, b) = Self::markers(k);
            let (Some(m0), Some(m1)) = (a.state(q, v), b.state(q, v)) else {
                return Some(Err(Error::UnknownIndex));
            };
            let t = planar::revolute_velocity_term(&m0, &m1);
            out[2 * k] = t.x;
            out[2 * k + 1] = t.y;
        }
        out[6] = T::zero();
        Some(Ok(()))
    }
}

/// Adds the slider-crank to `sys` as Exudyn's example builds it: a ground object and a ground
/// node, the crank and the rod on `NodeRigidBody2D`s at their centres, the slider on a
/// `NodePoint2D`, three `RevoluteJoint2D`s, a `CoordinateConstraint` holding the slider's y,
/// `torque` (N m) on the crank. Returns the crank's, the rod's and the slider's node. Errors
/// of the `add_*` calls (capacity).
#[allow(clippy::type_complexity)]
pub fn add_to_system<
    T: Real,
    const N: usize,
    const O: usize,
    const M: usize,
    const L: usize,
    const C: usize,
    const S: usize,
    const G: usize,
    const K: usize,
    const W: usize,
    const J: usize,
>(
    sys: &mut System<T, N, O, M, L, C, S, G, K, W, J>,
    torque: T,
) -> Result<[NodeIndex; 3]> {
    let c = T::c;
    let ground_node = sys.add_node(Node::PointGround(NodePointGround::new(Vector3::zeros())?))?;
    let ground = sys.add_object(Object::Ground(ObjectGround::new(Vector3::zeros())?))?;
    let mut rigid = |x: f64, m: f64, j: T| -> Result<(NodeIndex, ObjectIndex)> {
        let n = sys.add_node(Node::RigidBody2D(NodeRigidBody2D::at(Vector3::new(
            c(x),
            T::zero(),
            T::zero(),
        ))?))?;
        let body = RigidBody2D::new(c(m), j, Vector2::zeros())?;
        Ok((n, sys.add_object(Object::RigidBody2D { node: n, body })?))
    };
    let (crank_node, crank) = rigid(A0, M0, c(i0()))?;
    let (rod_node, rod) = rigid(2.0 * A0 + A1, M1, c(i1()))?;
    let slider_node = sys.add_node(Node::Point2D(NodePoint2D::at(Vector2::new(
        c(2.0 * A0 + 2.0 * A1),
        T::zero(),
    ))?))?;
    sys.add_object(Object::mass_point_2d(slider_node, c(M2))?)?;
    let mut at = |o: ObjectIndex, x: f64| {
        Marker::body_rigid(o, Vector3::new(c(x), T::zero(), T::zero()))
            .and_then(|m| sys.add_marker(m))
    };
    let m_ground = at(ground, 0.0)?;
    let m_crank0 = at(crank, -A0)?;
    let m_crank1 = at(crank, A0)?;
    let m_rod0 = at(rod, -A1)?;
    let m_rod1 = at(rod, A1)?;
    let m_slider = sys.add_marker(Marker::node_position(slider_node))?;
    for pair in [[m_ground, m_crank0], [m_crank1, m_rod0], [m_rod1, m_slider]] {
        sys.add_constraint(Constraint::revolute_2d(pair)?)?;
    }
    let c0 = sys.add_marker(Marker::node_coordinate(ground_node, 0))?;
    let c1 = sys.add_marker(Marker::node_coordinate(slider_node, 1))?;
    sys.add_constraint(Constraint::coordinate([c0, c1], T::one(), T::zero())?)?;
    sys.add_load(Load::torque(
        m_crank0,
        Vector3::new(T::zero(), T::zero(), torque),
        false,
    )?)?;
    Ok([crank_node, rod_node, slider_node])
}
