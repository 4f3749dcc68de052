//! Constraints between markers, with Exudyn's names and equations: algebraic equations
//! `C(q) = 0` on the node coordinates that the generalized-alpha step keeps with Lagrange
//! multipliers `lambda` (`M q_tt + C_q^T lambda = Q`; the constraint forces are
//! `-C_q^T lambda`). The planar ones act in the x-y plane on 2D nodes (`NodePoint2D`,
//! `NodeRigidBody2D`, the ground); the z components of local positions are not used. A
//! [`Constraint::Joint`] joins 3D rigid bodies (`ObjectRigidBody`, `BodyCylinder`) and the
//! ground; a [`Constraint::Distance`] joins either kind.
//!
//! | constraint | Exudyn | markers | equations |
//! |---|---|---|---|
//! | [`Constraint::Distance`] | `ObjectConnectorDistance` | 2 position | `\|r_1 - r_0\| - d = 0` |
//! | [`Constraint::Coordinate`] | `ObjectConnectorCoordinate` | 2 coordinate | `f q_1 - q_0 - offset = 0` |
//! | [`Constraint::Revolute2D`] | `ObjectJointRevolute2D` | 2 position | `r_1 - r_0 = 0` (2) |
//! | [`Constraint::Prismatic2D`] | `ObjectJointPrismatic2D` | 2 rigid | `(r_1 - r_0) . n_1 = 0`, with `constrain_rotation` also `t_0 . n_1 = 0` |
//! | [`Constraint::Joint`] | `ObjectJointGeneric` (`ObjectJointSpherical`, `ObjectJointRevoluteZ`, `ObjectJointPrismaticX`, fixed) | 2 rigid (2 position for a spherical joint) | one per constrained axis ([`spatial`]) |
//!
//! (`r_i` marker positions, m, world; `t_0 = R_0 axis_marker0`, `n_1 = R_1 normal_marker1`
//! turned with the markers' bodies.) Outputs ([`System::constraint_output`](super::System::constraint_output)):
//! `Force`, the multipliers (Exudyn's joint `Force` output: the force of the joint on marker 0's
//! body is `+lambda` for a revolute joint, `+lambda u` with `u = (r_1 - r_0)/|r_1 - r_0|` for a
//! distance, `-lambda` on marker 1's body), and `ConstraintResidual`, `C(q)` (m or rad). A
//! joint's `Force` is its force on marker 0's body (N, world; `ForceLocal` in marker 0's frame),
//! `Torque` its torque on that body about marker 0's point (N m, world; `TorqueLocal`), and
//! `ConstraintResidual` the norms of its translation and rotation equations `[|C_t|, |C_r|, 0]`
//! (m, -); marker 1's body feels the opposite force at marker 1's point. A joint's motion, as
//! Exudyn's joints give it: `Position` and `Velocity` of marker 0's point (world), and marker 1
//! relative to marker 0 in marker 0's joint frame: `DisplacementLocal` (m; a prismatic joint's
//! travel along x), `VelocityLocal` (m/s), `Rotation` (Tait-Bryan x-y-z angles of
//! `R_0^T R_1`, rad: a revolute joint's angle about z is its z component) and
//! `AngularVelocityLocal` (rad/s: a revolute joint's rate about z).

use super::body_states::BodyStates;
use super::index::{item, MarkerIndex, NodeIndex};
use super::marker::{Marker, MarkerKind};
use super::node::{Node, NodeState};
use super::object::Object;
use crate::bodies::rigid_body::tait_bryan_xyz;
use crate::constraints::spatial::{self, Axes, SpatialState};
use crate::error::finite;
use crate::finite::all_finite;
use crate::{Error, OutputValue, OutputVariableType, Param, Real, Result};
use nalgebra::{Vector2, Vector3};

/// A constraint of a system (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Constraint<T: Real> {
    /// Exudyn's `ObjectConnectorDistance`: the markers' points `distance` (m, > 0) apart.
    Distance {
        /// Two position markers.
        markers: [MarkerIndex; 2],
        /// The distance (m).
        distance: T,
    },
    /// Exudyn's `ObjectConnectorCoordinate`: `factor q_1 - q_0 - offset = 0` for the
    /// coordinates `q_0`, `q_1` of two `MarkerNodeCoordinate`s (a ground node's coordinate is
    /// 0: a coordinate fixed at `offset` or `-offset`).
    Coordinate {
        /// Two coordinate markers.
        markers: [MarkerIndex; 2],
        /// Exudyn's `factorValue1` (-).
        factor: T,
        /// Exudyn's `offset` (m or rad).
        offset: T,
    },
    /// Exudyn's `ObjectJointRevolute2D`: the markers' points coincide.
    Revolute2D {
        /// Two position markers.
        markers: [MarkerIndex; 2],
    },
    /// Exudyn's `ObjectJointPrismatic2D`: marker 1's point slides along the axis of marker 0.
    Prismatic2D {
        /// Two rigid markers.
        markers: [MarkerIndex; 2],
        /// The sliding axis in marker 0's body frame (Exudyn's `axisMarker0`, -).
        axis_marker0: Vector2<T>,
        /// The normal to the axis in marker 1's body frame (Exudyn's `normalMarker1`, -).
        normal_marker1: Vector2<T>,
        /// Also keep the bodies' relative angle (Exudyn's `constrainRotation`).
        constrain_rotation: bool,
    },
    /// Exudyn's `ObjectJointGeneric` between two 3D markers: the constrained axes `axes`
    /// (`[x, y, z, rx, ry, rz]` of marker 0's frame, Exudyn's `constrainedAxes`); the
    /// constructors give Exudyn's special joints.
    Joint {
        /// Two rigid markers (position markers for a spherical joint).
        markers: [MarkerIndex; 2],
        /// The constrained axes.
        axes: Axes,
    },
}

fn distinct(markers: [MarkerIndex; 2]) -> Result<()> {
    if markers[0] == markers[1] {
        Err(Error::SameMarker)
    } else {
        Ok(())
    }
}

impl<T: Real> Constraint<T> {
    /// A distance constraint. Errors: `SameMarker`; `NotFinite(Length)`; `OutOfRange(Length)`
    /// unless `distance > 0` (at zero the direction is undefined).
    pub fn distance(markers: [MarkerIndex; 2], distance: T) -> Result<Self> {
        distinct(markers)?;
        finite(distance, Param::Length)?;
        if distance <= T::zero() {
            return Err(Error::OutOfRange(Param::Length));
        }
        Ok(Constraint::Distance { markers, distance })
    }

    /// A coordinate constraint. Errors: `SameMarker`; `NotFinite(Ratio | Position)` for the
    /// factor or the offset.
    pub fn coordinate(markers: [MarkerIndex; 2], factor: T, offset: T) -> Result<Self> {
        distinct(markers)?;
        finite(factor, Param::Ratio)?;
        finite(offset, Param::Position)?;
        Ok(Constraint::Coordinate {
            markers,
            factor,
            offset,
        })
    }

    /// A planar revolute joint. Errors: `SameMarker`.
    pub fn revolute_2d(markers: [MarkerIndex; 2]) -> Result<Self> {
        distinct(markers)?;
        Ok(Constraint::Revolute2D { markers })
    }

    /// A planar prismatic joint. Errors: `SameMarker`; `NotFinite(Direction)`;
    /// `OutOfRange(Direction)` for a zero axis or normal.
    pub fn prismatic_2d(
        markers: [MarkerIndex; 2],
        axis_marker0: Vector2<T>,
        normal_marker1: Vector2<T>,
        constrain_rotation: bool,
    ) -> Result<Self> {
        distinct(markers)?;
        for v in [axis_marker0, normal_marker1] {
            if !all_finite(&v) {
                return Err(Error::NotFinite(Param::Direction));
            }
            if v.x == T::zero() && v.y == T::zero() {
                return Err(Error::OutOfRange(Param::Direction));
            }
        }
        Ok(Constraint::Prismatic2D {
            markers,
            axis_marker0,
            normal_marker1,
            constrain_rotation,
        })
    }

    /// Exudyn's `ObjectJointGeneric` with the constrained axes `axes` (`[x, y, z, rx, ry, rz]`
    /// of marker 0's frame; all six: a fixed joint). Errors: `SameMarker`;
    /// `OutOfRange(Setting)` if no axis is constrained.
    pub fn generic_joint(markers: [MarkerIndex; 2], axes: Axes) -> Result<Self> {
        distinct(markers)?;
        if !axes.iter().any(|a| *a) {
            return Err(Error::OutOfRange(Param::Setting));
        }
        Ok(Constraint::Joint { markers, axes })
    }

    /// Exudyn's `ObjectJointSpherical`: the markers' points coincide (3 equations, world).
    /// Errors: `SameMarker`.
    pub fn spherical_joint(markers: [MarkerIndex; 2]) -> Result<Self> {
        Self::generic_joint(markers, [true, true, true, false, false, false])
    }

    /// Exudyn's `ObjectJointRevoluteZ`: the points coincide and the bodies turn only about
    /// marker 0's z axis (5 equations). Errors: `SameMarker`.
    pub fn revolute_joint(markers: [MarkerIndex; 2]) -> Result<Self> {
        Self::generic_joint(markers, [true, true, true, true, true, false])
    }

    /// Exudyn's `ObjectJointPrismaticX`: marker 1's point slides along marker 0's x axis and
    /// the bodies keep their relative orientation (5 equations). Errors: `SameMarker`.
    pub fn prismatic_joint(markers: [MarkerIndex; 2]) -> Result<Self> {
        Self::generic_joint(markers, [false, true, true, true, true, true])
    }

    /// A fixed joint (`ObjectJointGeneric` with all six axes constrained): the bodies move as
    /// one. Errors: `SameMarker`.
    pub fn fixed_joint(markers: [MarkerIndex; 2]) -> Result<Self> {
        Self::generic_joint(markers, [true; 6])
    }

    /// The two markers.
    pub fn markers(&self) -> [MarkerIndex; 2] {
        match self {
            Constraint::Distance { markers, .. }
            | Constraint::Coordinate { markers, .. }
            | Constraint::Revolute2D { markers }
            | Constraint::Prismatic2D { markers, .. }
            | Constraint::Joint { markers, .. } => *markers,
        }
    }

    /// Number of equations (and multipliers): 1, 1, 2, 1 or 2, and a joint's constrained axes.
    pub fn equations(&self) -> usize {
        match self {
            Constraint::Distance { .. } | Constraint::Coordinate { .. } => 1,
            Constraint::Revolute2D { .. } => 2,
            Constraint::Prismatic2D {
                constrain_rotation, ..
            } => 1 + usize::from(*constrain_rotation),
            Constraint::Joint { axes, .. } => axes.iter().filter(|a| **a).count(),
        }
    }

    /// The kind of marker both ends need.
    fn marker_kind(&self) -> MarkerKind {
        match self {
            Constraint::Distance { .. } | Constraint::Revolute2D { .. } => MarkerKind::Position,
            Constraint::Coordinate { .. } => MarkerKind::Coordinate,
            Constraint::Prismatic2D { .. } => MarkerKind::Rigid,
            Constraint::Joint { axes, .. } => joint_marker_kind(axes),
        }
    }

    /// Checks the markers: they exist (`UnknownIndex`), differ (`SameMarker`), are of the
    /// kind the constraint needs (`MarkerNotSupported`) and, but for a coordinate constraint,
    /// sit on two bodies (`SameBody`: one node, or both on the ground). Whether the bodies are
    /// ones the constraint can join is checked when the system is assembled.
    pub fn check(
        &self,
        markers: &[Marker<T>],
        nodes: &[Node<T>],
        objects: &[Object<T>],
    ) -> Result<()> {
        let [a, b] = self.markers();
        distinct([a, b])?;
        for i in [a, b] {
            if !item(markers, i.get())?.is(self.marker_kind()) {
                return Err(Error::MarkerNotSupported);
            }
        }
        let [na, nb] = self.nodes(markers, nodes, objects)?;
        if !matches!(self, Constraint::Coordinate { .. }) && na == nb {
            return Err(Error::SameBody);
        }
        Ok(())
    }

    /// The nodes its two markers move with (`None`: the ground). Errors: `UnknownIndex`.
    pub(crate) fn nodes(
        &self,
        markers: &[Marker<T>],
        nodes: &[Node<T>],
        objects: &[Object<T>],
    ) -> Result<[Option<NodeIndex>; 2]> {
        let body = |i: MarkerIndex| -> Result<Option<NodeIndex>> {
            let node = match item(markers, i.get())? {
                Marker::NodePosition { node } | Marker::NodeCoordinate { node, .. } => Some(*node),
                m => match m.body_point(objects)? {
                    Some((o, _)) => item(objects, o.get())?.node(),
                    None => None,
                },
            };
            Ok(node.filter(|n| !matches!(nodes.get(n.get()), Some(Node::PointGround(_)))))
        };
        let [a, b] = self.markers();
        Ok([body(a)?, body(b)?])
    }
}

/// The markers a joint of `axes` needs: position markers for the translations only (a
/// spherical joint), rigid ones else. Not inlined: inlined, the compiler reads the `axes` bytes
/// of any constraint before its variant is known, bytes another variant leaves undefined (a
/// branch on them that memcheck reports).
#[inline(never)]
fn joint_marker_kind(axes: &Axes) -> MarkerKind {
    if *axes == [true, true, true, false, false, false] {
        MarkerKind::Position
    } else {
        MarkerKind::Rigid
    }
}

/// `true` if either marker sits on a 3D rigid body (a distance between them is measured in 3D).
fn spatial_ends<T: Real>(view: &BodyStates<'_, T>, m0: &Marker<T>, m1: &Marker<T>) -> Result<bool> {
    let on_3d = |m: &Marker<T>| -> Result<bool> {
        Ok(match m {
            Marker::NodePosition { node } => matches!(view.node(*node)?.1, NodeState::RigidBody(_)),
            _ => match m.body_point(view.objects)? {
                Some((o, _)) => view.rigid_object(o)?.is_some(),
                None => false,
            },
        })
    };
    Ok(on_3d(m0)? || on_3d(m1)?)
}

/// A joint's marker from the states of `view`: its point, velocity and frame (the identity
/// frame for a position marker of a spherical joint), without Jacobians.
fn joint_end<T: Real>(
    view: &BodyStates<'_, T>,
    m: &Marker<T>,
    axes: &Axes,
) -> Result<SpatialState<'static, T>> {
    let (p, v) = m.motion(view)?;
    let frame = if *axes == [true, true, true, false, false, false] {
        nalgebra::Matrix3::identity()
    } else {
        m.rotation(view)?.0
    };
    Ok(SpatialState::fixed(p, v, frame))
}

impl<T: Real> Constraint<T> {
    /// `C(q)` from the markers' outputs in the states of `view` (`[C_0, C_1, 0]`, m or rad): the
    /// residual as a sensor reads it, computed from the marker positions and rotation matrices
    /// (not by the solver's planar code, which it checks).
    pub fn residual(&self, view: &BodyStates<'_, T>, markers: &[Marker<T>]) -> Result<Vector3<T>> {
        let [a, b] = self.markers();
        let (m0, m1) = (item(markers, a.get())?, item(markers, b.get())?);
        let xy = |v: Vector3<T>| Vector2::new(v.x, v.y);
        let z = T::zero();
        Ok(match self {
            Constraint::Distance { distance, .. } if spatial_ends(view, m0, m1)? => {
                let d = m1.motion(view)?.0 - m0.motion(view)?.0;
                Vector3::new(d.norm_squared().sqrt_l() - *distance, z, z)
            }
            Constraint::Distance { distance, .. } => {
                let d = xy(m1.motion(view)?.0 - m0.motion(view)?.0);
                Vector3::new(d.norm_squared().sqrt_l() - *distance, z, z)
            }
            Constraint::Joint { axes, .. } => {
                let (s0, s1) = (joint_end(view, m0, axes)?, joint_end(view, m1, axes)?);
                let mut c = [z; 6];
                spatial::joint::<T, 1>(&s0, &s1, axes, 0, &mut c, None)
                    .ok_or(Error::UnknownIndex)?;
                let nt = axes[..3].iter().filter(|a| **a).count();
                let norm = |x: &[T]| x.iter().fold(z, |s, v| s + *v * *v).sqrt_l();
                Vector3::new(norm(&c[..nt]), norm(&c[nt..self.equations()]), z)
            }
            Constraint::Revolute2D { .. } => {
                let d = xy(m1.motion(view)?.0 - m0.motion(view)?.0);
                Vector3::new(d.x, d.y, z)
            }
            Constraint::Prismatic2D {
                axis_marker0,
                normal_marker1,
                constrain_rotation,
                ..
            } => {
                let d = xy(m1.motion(view)?.0 - m0.motion(view)?.0);
                let turn = |m: &Marker<T>, v: &Vector2<T>| -> Result<Vector2<T>> {
                    Ok(xy(m.rotation(view)?.0 * Vector3::new(v.x, v.y, z)))
                };
                let t0 = turn(m0, axis_marker0)?;
                let n1 = turn(m1, normal_marker1)?;
                let c1 = if *constrain_rotation { t0.dot(&n1) } else { z };
                Vector3::new(d.dot(&n1), c1, z)
            }
            Constraint::Coordinate { factor, offset, .. } => {
                let q = |m: &Marker<T>| -> Result<T> {
                    let Marker::NodeCoordinate { node, coordinate } = m else {
                        return Err(Error::MarkerNotSupported);
                    };
                    let i = usize::from(*coordinate);
                    let x = match view.node(*node)?.1 {
                        NodeState::Ground => Some(z),
                        NodeState::Point2D(s) => s.q.get(i).copied(),
                        NodeState::RigidBody2D(s) => s.q.get(i).copied(),
                        NodeState::RigidBody(_) => None,
                    };
                    x.ok_or(Error::MarkerNotSupported)
                };
                Vector3::new(*factor * q(m1)? - q(m0)? - *offset, z, z)
            }
        })
    }

    /// A joint's motion outputs (module docs), `None` for another variable: `Position` and
    /// `Velocity` of marker 0's point (world), and marker 1 relative to marker 0 in marker 0's
    /// joint frame `R_0`: `DisplacementLocal` `R_0^T (r_1 - r_0)`, `VelocityLocal`
    /// `R_0^T (v_1 - v_0)`, `Rotation` the Tait-Bryan x-y-z angles of `R_0^T R_1` and
    /// `AngularVelocityLocal` `R_0^T (w_1 - w_0)`. The rotations need rigid markers
    /// (`OutputNotAvailable` on a spherical joint's position markers, whose frame is the
    /// world's for the displacement and velocity).
    fn joint_motion(
        &self,
        view: &BodyStates<'_, T>,
        markers: &[Marker<T>],
        var: OutputVariableType,
    ) -> Result<Option<Vector3<T>>> {
        use OutputVariableType as O;
        let [a, b] = self.markers();
        let (m0, m1) = (item(markers, a.get())?, item(markers, b.get())?);
        let frame = |m: &Marker<T>| match m {
            Marker::BodyRigid { .. } => m.rotation(view),
            _ => Ok((nalgebra::Matrix3::identity(), Vector3::zeros())),
        };
        Ok(Some(match var {
            O::Position => m0.motion(view)?.0,
            O::Velocity => m0.motion(view)?.1,
            O::DisplacementLocal => {
                let d = m1.motion(view)?.0 - m0.motion(view)?.0;
                frame(m0)?.0.transpose() * d
            }
            O::VelocityLocal => {
                let dv = m1.motion(view)?.1 - m0.motion(view)?.1;
                frame(m0)?.0.transpose() * dv
            }
            O::Rotation | O::AngularVelocityLocal => {
                let rigid = |m: &Marker<T>| matches!(m, Marker::BodyRigid { .. });
                if !(rigid(m0) && rigid(m1)) {
                    return Err(Error::OutputNotAvailable);
                }
                let ((r0, w0), (r1, w1)) = (m0.rotation(view)?, m1.rotation(view)?);
                if var == O::Rotation {
                    tait_bryan_xyz(&(r0.transpose() * r1))
                } else {
                    r0.transpose() * (w1 - w0)
                }
            }
            _ => return Ok(None),
        }))
    }

    /// Exudyn's outputs of a constraint (module docs), as a vector `[x_0, x_1, 0]` of its
    /// equations: `Force` the multipliers `lambda` (its rows of them), `ConstraintResidual`
    /// [`Constraint::residual`]; others `OutputNotAvailable`.
    pub fn output(
        &self,
        view: &BodyStates<'_, T>,
        markers: &[Marker<T>],
        lambda: &[T],
        var: OutputVariableType,
    ) -> Result<OutputValue<T>> {
        use OutputVariableType as O;
        if let Constraint::Joint { axes, .. } = self {
            if let Some(v) = self.joint_motion(view, markers, var)? {
                return Ok(OutputValue::Vector3(v));
            }
            if matches!(var, O::Force | O::ForceLocal | O::Torque | O::TorqueLocal) {
                let [a, b] = self.markers();
                let (m0, m1) = (item(markers, a.get())?, item(markers, b.get())?);
                let (s0, s1) = (joint_end(view, m0, axes)?, joint_end(view, m1, axes)?);
                let n = self.equations();
                let mut l = [T::zero(); 6];
                for (x, y) in l.iter_mut().zip(lambda.iter().take(n)) {
                    *x = *y;
                }
                let (f, tau) = spatial::joint_reaction(&s0, &s1, axes, &l);
                let local = s0.frame().transpose();
                return Ok(OutputValue::Vector3(match var {
                    O::Force => f,
                    O::ForceLocal => local * f,
                    O::Torque => tau,
                    _ => local * tau,
                }));
            }
        }
        match var {
            OutputVariableType::Force => {
                let l = |i: usize| {
                    if i < self.equations() {
                        lambda.get(i).copied().unwrap_or(T::zero())
                    } else {
                        T::zero()
                    }
                };
                Ok(OutputValue::Vector3(Vector3::new(l(0), l(1), T::zero())))
            }
            OutputVariableType::ConstraintResidual => {
                Ok(OutputValue::Vector3(self.residual(view, markers)?))
            }
            _ => Err(Error::OutputNotAvailable),
        }
    }
}

/// The constraints with their multipliers, as outputs and sensors read them: constraint `k`'s
/// multipliers are `lambda[rows[k]..]` (zero before the system was assembled for
/// generalized-alpha).
#[derive(Clone, Copy, Debug)]
pub(super) struct Multipliers<'a, T: Real> {
    pub(super) constraints: &'a [Constraint<T>],
    pub(super) rows: &'a [u16],
    pub(super) lambda: &'a [T],
}

impl<T: Real> Multipliers<'_, T> {
    /// `var` of constraint `k` ([`Constraint::output`]); `UnknownIndex`.
    pub(super) fn output(
        &self,
        k: usize,
        view: &BodyStates<'_, T>,
        markers: &[Marker<T>],
        var: OutputVariableType,
    ) -> Result<OutputValue<T>> {
        let c = item(self.constraints, k)?;
        let lambda = match self.rows.get(k) {
            Some(r) => self.lambda.get(usize::from(*r)..).unwrap_or(&[]),
            None => &[],
        };
        c.output(view, markers, lambda, var)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const M: [MarkerIndex; 2] = [MarkerIndex(0), MarkerIndex(1)];

    #[test]
    fn bad_parameters_are_refused() {
        let same = [MarkerIndex(3), MarkerIndex(3)];
        assert_eq!(Constraint::<f64>::revolute_2d(same), Err(Error::SameMarker));
        assert_eq!(
            Constraint::distance(M, f64::NAN),
            Err(Error::NotFinite(Param::Length))
        );
        assert_eq!(
            Constraint::distance(M, 0.0),
            Err(Error::OutOfRange(Param::Length))
        );
        assert_eq!(
            Constraint::coordinate(M, f64::INFINITY, 0.0),
            Err(Error::NotFinite(Param::Ratio))
        );
        assert_eq!(
            Constraint::coordinate(M, 1.0, f64::NAN),
            Err(Error::NotFinite(Param::Position))
        );
        let x = Vector2::x();
        assert_eq!(
            Constraint::prismatic_2d(M, Vector2::zeros(), x, true),
            Err(Error::OutOfRange(Param::Direction))
        );
        assert_eq!(
            Constraint::prismatic_2d(M, x, Vector2::new(f64::NAN, 1.0), true),
            Err(Error::NotFinite(Param::Direction))
        );
        assert_eq!(
            Constraint::prismatic_2d(M, x, Vector2::y(), false)
                .unwrap()
                .equations(),
            1
        );
    }
}
