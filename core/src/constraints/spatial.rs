//! Joints between 3D rigid bodies with Exudyn's equations: `ObjectJointGeneric` (a mask of
//! constrained axes; `ObjectJointSpherical`, `ObjectJointRevoluteZ`, `ObjectJointPrismaticX`
//! and a fixed joint are masks of it) and `ObjectConnectorDistance`, each as the equations
//! `C(q)`, their Jacobian `C_q` and the velocity terms `(C_q q_t)_q q_t`, written into the rows
//! of a [`Block`] at the columns of the markers' bodies.
//!
//! A marker ([`SpatialMarker`]) is a point of the ground, or a point of a 3D rigid body whose
//! coordinates `[r; e]` (m, world; Euler parameters of `A = R_0b`) start at `offset`, at the
//! local position `l` (m, body frame), with a frame `R_bm` (marker to body frame). At `q`:
//! `p = r + A l` and the marker frame `A_m = A R_bm` (marker to world), `A` the rotation of
//! `e / |e|` (so `C` does not change along `e`, where the normalization acts; `Gb` below is
//! then `Gb(e) / |e|^2`, equal at `|e| = 1`). With `Gb` of
//! [`euler_parameters`](crate::bodies::euler_parameters) (`w = Gb e_t`, body frame), the derivatives are
//! `dp/dr = E`, `dp/de = -A [l]x Gb`, and for a body-fixed vector `b`,
//! `d(A b)/de = -A [b]x Gb`; so a row `u . dp/dq` is `[u^T, (Gb^T (l x A^T u))^T]` and a row
//! `u . d(A b)/dq` is `[0, (Gb^T (b x A^T u))^T]`.
//!
//! Equations of a joint with the mask `axes` (`[x, y, z, rx, ry, rz]`, marker 0's frame), with
//! `d = p_1 - p_0` and `x_i, y_i, z_i` the axes of marker `i`'s frame (world), one row per
//! constrained axis in axis order:
//! - translations: all three constrained: `d` (world); else `x_0 . d`, `y_0 . d`, `z_0 . d` for
//!   the constrained ones;
//! - rotations: all three: `z_0 . y_1`, `z_0 . x_1`, `x_0 . y_1`; two (free axis `f`): the free
//!   axis of marker 0 perpendicular to the other two of marker 1, `f_0 . a_1 = 0`; one
//!   (constrained `c`, free `f < g`): `f_0 . g_1 = 0` (Exudyn's universal joint).
//!
//! On the Lie group ([`lie_group`](crate::bodies::lie_group), [`SpatialMarker::state_on_group`])
//! a body's coordinates are `[r; theta]` with `A = A_n exp([theta]x)`, and the derivatives
//! by `theta` are the left-trivialized ones: the columns are `[E, 0]` and `[0, E]`, a row
//! `u . dp/dq` is `[u^T, (l x A^T u)^T]`, and `d(C_q^T lambda)/dq` is the blocks below without
//! the map `Gb` and its derivative.
//!
//! A marker on a link of a kinematic tree ([`SpatialMarker::TreeLink`]) moves with the tree's
//! joint coordinates: each coordinate `c` on the link's path to the base has the world motion
//! column `[w_c; v_c]` (at the world origin), so the link origin `O` moves by
//! `dr = (v_c + w_c x O) dq_c` and the link frame turns by `dtheta = A^T w_c dq_c` (link frame):
//! the rows above with these columns in place of `[E, 0]` and `[0, Gb]`. Its velocity terms add
//! the link's acceleration at zero joint accelerations (`O_tt` and `alpha` of the velocity
//! products). In `d(C_q^T lambda)/dq` the change of the tree's columns with `q` is left out
//! (the Newton iteration converges linearly at that rate, as for the other terms left out).
//!
//! The constraint forces are `-C_q^T lambda`; their derivative `d(C_q^T lambda)/dq` for the
//! Newton matrix ([`joint_hessian`], [`distance_hessian`]) comes from the virtual work
//! `lambda . dC = sum_k f_k . dr_k + tau_k . dtheta_k` (`f_k` a world force, `tau_k` a
//! body-frame torque, `dtheta_k = Gb de_k` the body's virtual rotation): with
//! `dp = dr - A [l]x dtheta`, `d(A b) = -A [b]x dtheta`, `d(A^T v) = [A^T v]x dtheta` for a
//! fixed `v`, the derivatives of `f_k` and `tau_k` by `r_j` and `theta_j` are 3x3 blocks, and
//! `d(Gb^T tau)/de` at fixed `tau` adds `2 [[0, -tau^T], [tau, -[tau]x]]` (`Gb^T tau` is linear
//! in `e`).

// Index loops read as the equations.
#![allow(clippy::needless_range_loop)]

use crate::bodies::euler_parameters::{g_body, quaternion};
use crate::bodies::lie_group::{orientation, start_in, LG_COORDINATES};
use crate::integrators::constrained::Block;
use crate::math::{skew, skew_product};
use crate::tree::Motion;
use crate::Real;
use core::cell::Cell;
use nalgebra::{Matrix3, Matrix3x4, Matrix4, Vector3, Vector4};

/// Where a 3D marker sits (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpatialMarker<T> {
    /// A point fixed in the world with a fixed frame.
    Ground {
        /// Position (m, world).
        position: Vector3<T>,
        /// Marker frame (marker to world).
        frame: Matrix3<T>,
    },
    /// A point of a 3D rigid body whose coordinates (`[r; e]`, or `[r; theta]` on the Lie
    /// group) start at `offset` in `q`.
    Rigid {
        /// Index of `r_x` in `q`.
        offset: usize,
        /// Local position `l` (m, body frame).
        local: Vector3<T>,
        /// Marker frame in the body frame `R_bm`.
        frame: Matrix3<T>,
    },
    /// A point of link `link` of the system's kinematic tree, evaluated with the tree's
    /// kinematics ([`SpatialState::tree_link`]).
    TreeLink {
        /// The link.
        link: usize,
        /// Local position `l` (m, link frame).
        local: Vector3<T>,
        /// Marker frame in the link frame `R_bm`.
        frame: Matrix3<T>,
    },
}

/// The Jacobian columns of a tree link (module docs): the tree's world motion columns, the
/// coordinate each one hangs from, the link's last coordinate on its path to the base and where
/// the tree's coordinates start in `q`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeColumns<'a, T> {
    /// `[w_c; v_c]` of every tree coordinate (world, at the world origin).
    pub columns: &'a [Motion<T>],
    /// The coordinate each coordinate hangs from (`usize::MAX`: the base).
    pub parent: &'a [usize],
    /// The link's last coordinate on its path (`usize::MAX`: the link does not move).
    pub last: usize,
    /// Index of the tree's first coordinate in `q`.
    pub offset: usize,
}

/// A marker evaluated at `q`, `q_t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpatialState<'a, T> {
    /// Position `p` (m, world).
    pub position: Vector3<T>,
    /// Velocity `p_t` (m/s, world).
    pub velocity: Vector3<T>,
    /// The body's `A` (identity on the ground).
    rotation: Matrix3<T>,
    /// `R_bm`.
    frame_local: Matrix3<T>,
    /// `l` (m, body frame; the world position on the ground).
    local: Vector3<T>,
    /// Body-frame angular velocity `w = Gb e_t` (rad/s; zero on the ground).
    w: Vector3<T>,
    /// What the marker moves with.
    carrier: Carrier<'a, T>,
}

/// What a marker state moves with (one of them: a state holds only its carrier's fields).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Carrier<'a, T> {
    /// The ground: no coordinates.
    Ground,
    /// A rigid body whose coordinates `[r; e]` start at `offset` in `q`: its rate map
    /// `g = Gb(e) / |e|^2` and its Euler parameters `e`.
    Body {
        offset: usize,
        g: Matrix3x4<T>,
        e: Vector4<T>,
    },
    /// A rigid body on the Lie group whose coordinates `[r; theta]` start at `offset` in `q`
    /// ([`lie_group`](crate::bodies::lie_group)): its columns are `[E, 0]` and `[0, E]`.
    GroupBody { offset: usize },
    /// A tree link: its columns, its origin `O` (m, world), and at zero joint accelerations
    /// the acceleration of its origin (m/s^2, world) and its angular acceleration (rad/s^2,
    /// world).
    Link {
        columns: TreeColumns<'a, T>,
        origin: Vector3<T>,
        origin_tt: Vector3<T>,
        alpha: Vector3<T>,
    },
}

impl<T: Real> SpatialMarker<T> {
    /// The marker at coordinates `q` and velocities `v`; `None` if its entries are outside
    /// them; `None` for a tree link (see [`SpatialState::tree_link`]).
    // Inlined: the caller then builds each marker state where it keeps it instead of copying
    // a returned one into place (192 B in f32).
    #[inline(always)]
    pub fn state(&self, q: &[T], v: &[T]) -> Option<SpatialState<'static, T>> {
        match *self {
            SpatialMarker::Ground { position, frame } => Some(SpatialState {
                frame_local: frame,
                local: position,
                ..SpatialState::fixed(position, Vector3::zeros(), Matrix3::identity())
            }),
            SpatialMarker::TreeLink { .. } => None,
            SpatialMarker::Rigid {
                offset,
                local,
                frame,
            } => {
                let x = q.get(offset..offset + 7)?;
                let y = v.get(offset..offset + 7)?;
                let e = Vector4::new(x[3], x[4], x[5], x[6]);
                let e_t = Vector4::new(y[3], y[4], y[5], y[6]);
                // The orientation of e / |e| (C depends on e only through it: no radial
                // derivative, as Gb e = 0 says) and its rate map Gb(e / |e|) / |e| = Gb(e) / |e|^2.
                let n2 = e.dot(&e);
                let a = quaternion(&e).to_matrix_normalized();
                let g = g_body(&e) / n2;
                let w = g * e_t;
                Some(SpatialState {
                    position: Vector3::new(x[0], x[1], x[2]) + a * local,
                    velocity: Vector3::new(y[0], y[1], y[2]) + a * w.cross(&local),
                    rotation: a,
                    frame_local: frame,
                    local,
                    w,
                    carrier: Carrier::Body { offset, g, e },
                })
            }
        }
    }
}

impl<T: Real> SpatialMarker<T> {
    /// [`Self::state`] for the Lie-group coordinates of 3D rigid bodies
    /// ([`lie_group`](crate::bodies::lie_group)): `[r; theta]` at `offset` in `q` and `[v; w]`
    /// in `v` (`w` rad/s, body frame), the orientation `e_n exp(theta)` with `e_n` the body's
    /// unit quaternion at the step's start, kept in `starts` ([`start_in`]). `None` if its
    /// entries are outside `q`, `v`, `starts`.
    #[inline(always)]
    pub fn state_on_group(
        &self,
        q: &[T],
        v: &[T],
        starts: &[Cell<T>],
    ) -> Option<SpatialState<'static, T>> {
        let SpatialMarker::Rigid {
            offset,
            local,
            frame,
        } = *self
        else {
            return self.state(q, v);
        };
        let start = &start_in(starts, offset)?;
        let x = q.get(offset..offset + LG_COORDINATES)?;
        let y = v.get(offset..offset + LG_COORDINATES)?;
        let a = orientation(start, &Vector3::new(x[3], x[4], x[5])).to_matrix();
        let w = Vector3::new(y[3], y[4], y[5]);
        Some(SpatialState {
            position: Vector3::new(x[0], x[1], x[2]) + a * local,
            velocity: Vector3::new(y[0], y[1], y[2]) + a * w.cross(&local),
            rotation: a,
            frame_local: frame,
            local,
            w,
            carrier: Carrier::GroupBody { offset },
        })
    }
}

impl<'a, T: Real> SpatialState<'a, T> {
    /// A marker at `position` (m, world) moving with `velocity` (m/s, world) with the frame
    /// `frame` (marker to world), as measured from outside (no Jacobians: a residual or a
    /// reaction evaluated from a system's outputs).
    pub fn fixed(position: Vector3<T>, velocity: Vector3<T>, frame: Matrix3<T>) -> Self {
        Self {
            position,
            velocity,
            rotation: frame,
            frame_local: Matrix3::identity(),
            local: Vector3::zeros(),
            w: Vector3::zeros(),
            carrier: Carrier::Ground,
        }
    }

    /// A marker at `local` (m, link frame) with the frame `frame` (`R_bm`) on a tree link whose
    /// origin is at `origin` (m, world) with the rotation `rotation` (link to world), origin
    /// velocity `velocity` (m/s, world), angular velocity `w` (rad/s, link frame), and at zero
    /// joint accelerations the origin acceleration `origin_tt` (m/s^2, world) and angular
    /// acceleration `alpha` (rad/s^2, world); its Jacobian `columns`.
    #[allow(clippy::too_many_arguments)]
    pub fn tree_link(
        local: Vector3<T>,
        frame: Matrix3<T>,
        origin: Vector3<T>,
        rotation: Matrix3<T>,
        velocity: Vector3<T>,
        w: Vector3<T>,
        origin_tt: Vector3<T>,
        alpha: Vector3<T>,
        columns: TreeColumns<'a, T>,
    ) -> Self {
        Self {
            position: origin + rotation * local,
            velocity: velocity + rotation * w.cross(&local),
            rotation,
            frame_local: frame,
            local,
            w,
            carrier: Carrier::Link {
                columns,
                origin,
                origin_tt,
                alpha,
            },
        }
    }

    /// The columns of the body's coordinates in `q` with the virtual displacement each one
    /// gives: of the reference point `dr` (world) and the rotation `dtheta` (body frame)
    /// (module docs; a rigid body's `[E, 0]` and `[0, Gb]`, a tree link's path), into `f`.
    fn each_column(&self, mut f: impl FnMut(usize, Vector3<T>, Vector3<T>)) {
        let z = Vector3::zeros();
        match &self.carrier {
            Carrier::Ground => {}
            Carrier::Body { offset: o, g, .. } => {
                for i in 0..3 {
                    f(o + i, Vector3::ith(i, T::one()), z);
                }
                for c in 0..4 {
                    f(o + 3 + c, z, g.column(c).into_owned());
                }
            }
            Carrier::GroupBody { offset: o } => {
                for i in 0..3 {
                    f(o + i, Vector3::ith(i, T::one()), z);
                }
                for i in 0..3 {
                    f(o + 3 + i, z, Vector3::ith(i, T::one()));
                }
            }
            Carrier::Link {
                columns: t, origin, ..
            } => {
                let mut c = t.last;
                while let Some(col) = t.columns.get(c) {
                    f(
                        t.offset + c,
                        col.linear + col.angular.cross(origin),
                        self.rotation.transpose() * col.angular,
                    );
                    c = t.parent.get(c).copied().unwrap_or(usize::MAX);
                }
            }
        }
    }

    /// A rigid body's first column in `q`, rate map `Gb(e) / |e|^2` and Euler parameters
    /// (`None` on the ground and on a tree link).
    fn body(&self) -> Option<(usize, &Matrix3x4<T>, &Vector4<T>)> {
        match &self.carrier {
            Carrier::Body { offset, g, e } => Some((*offset, g, e)),
            _ => None,
        }
    }

    /// A rigid body's first column in `q` on the Lie group (`None` elsewhere).
    fn group_body(&self) -> Option<usize> {
        match &self.carrier {
            Carrier::GroupBody { offset } => Some(*offset),
            _ => None,
        }
    }

    /// `true` on a tree link.
    fn on_link(&self) -> bool {
        matches!(self.carrier, Carrier::Link { .. })
    }

    /// The marker frame `A_m = A R_bm` (marker to world).
    pub fn frame(&self) -> Matrix3<T> {
        self.rotation * self.frame_local
    }

    /// Axis `k` of the marker frame (world).
    fn axis(&self, k: usize) -> Vector3<T> {
        self.rotation * self.frame_local.column(k)
    }

    /// Axis `k` of the marker frame in the body frame.
    fn axis_local(&self, k: usize) -> Vector3<T> {
        self.frame_local.column(k).into_owned()
    }

    /// Adds `s u . d(A b)/dq` to row `row` of `out` (`b` body frame, `u` world), or with
    /// `point` `s u . dp/dq` (`b` then the local position).
    fn add_row<const S: usize>(
        &self,
        out: &mut Block<'_, T, S>,
        row: usize,
        b: &Vector3<T>,
        u: &Vector3<T>,
        s: T,
        point: bool,
    ) {
        if self.on_link() {
            let th = b.cross(&(self.rotation.transpose() * u));
            self.each_column(|c, dr, dth| {
                let dr = if point { u.dot(&dr) } else { T::zero() };
                out.add(row, c, s * (dr + th.dot(&dth)));
            });
            return;
        }
        let Some((o, g, _)) = self.body() else {
            return self.add_group_row(out, row, b, u, s, point);
        };
        // As sub-blocks of one row: bounds-checked once each.
        if point {
            out.add_scaled(row, o, &u.transpose(), s);
        }
        let de = g.transpose() * b.cross(&self.rotation.tr_mul(u));
        out.add_scaled(row, o + 3, &de.transpose(), s);
    }

    /// [`Self::add_row`] on a body on the Lie group: `[u^T, (b x A^T u)^T]` (nothing on the
    /// ground).
    // Entry by entry: a second caller of `Block::add_scaled`'s row form makes LLVM call it
    // out of line in `add_row` too.
    fn add_group_row<const S: usize>(
        &self,
        out: &mut Block<'_, T, S>,
        row: usize,
        b: &Vector3<T>,
        u: &Vector3<T>,
        s: T,
        point: bool,
    ) {
        let Some(o) = self.group_body() else {
            return;
        };
        let th = b.cross(&self.rotation.tr_mul(u));
        for i in 0..3 {
            if point {
                out.add(row, o + i, s * u[i]);
            }
            out.add(row, o + 3 + i, s * th[i]);
        }
    }

    /// The time derivative of the body-fixed vector `A b` (world) and the velocity part of its
    /// second derivative, `A (w x b)` and `A (w x (w x b))` (a tree link's plus
    /// `alpha x A b`).
    fn rates(&self, b: &Vector3<T>) -> (Vector3<T>, Vector3<T>) {
        let wb = self.w.cross(b);
        let tt = self.rotation * self.w.cross(&wb);
        match &self.carrier {
            Carrier::Link { alpha, .. } => {
                (self.rotation * wb, tt + alpha.cross(&(self.rotation * b)))
            }
            _ => (self.rotation * wb, tt),
        }
    }

    /// The velocity part of `p_tt`, `A (w x (w x l))` (zero on the ground; a tree link's plus
    /// `O_tt + alpha x A l`).
    fn point_tt(&self) -> Vector3<T> {
        match &self.carrier {
            Carrier::Link { origin_tt, .. } => *origin_tt + self.rates(&self.local).1,
            Carrier::Body { .. } | Carrier::GroupBody { .. } => self.rates(&self.local).1,
            Carrier::Ground => Vector3::zeros(),
        }
    }
}

/// The constrained axes of a joint (`[x, y, z, rx, ry, rz]` in marker 0's frame).
pub type Axes = [bool; 6];

/// The rotation equations of `axes`: pairs `(axis of marker 0, axis of marker 1)` whose
/// directions must stay perpendicular, one per constrained rotation axis in axis order
/// (module docs), and their number.
fn rotation_pairs(axes: &Axes) -> ([(usize, usize); 3], usize) {
    let locked = [axes[3], axes[4], axes[5]];
    let count = locked.iter().filter(|x| **x).count();
    let mut pairs = [(0, 0); 3];
    match count {
        3 => pairs = [(2, 1), (2, 0), (0, 1)],
        2 => {
            let free = locked.iter().position(|x| !*x).unwrap_or(2);
            let mut k = 0;
            for a in 0..3 {
                if locked[a] {
                    pairs[k] = (free, a);
                    k += 1;
                }
            }
        }
        1 => {
            let mut free = (0..3).filter(|a| !locked[*a]);
            let (f, g) = (free.next().unwrap_or(0), free.next().unwrap_or(1));
            pairs[0] = (f, g);
        }
        _ => {}
    }
    (pairs, count)
}

/// One equation of a joint, in row order (module docs): a world translation `d_i` (all three
/// translations constrained), a translation along marker 0's axis `i`, or two axes (marker 0's,
/// marker 1's) kept perpendicular.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Equation {
    World(usize),
    Local(usize),
    Dot(usize, usize),
}

/// The equations of a joint with the constrained axes `axes`, in row order.
fn equations(axes: &Axes) -> impl Iterator<Item = Equation> {
    let world = world_translations(axes);
    let (pairs, count) = rotation_pairs(axes);
    let axes = *axes;
    (0..3)
        .filter(move |i| axes[*i])
        .map(move |i| {
            if world {
                Equation::World(i)
            } else {
                Equation::Local(i)
            }
        })
        .chain(
            pairs
                .into_iter()
                .take(count)
                .map(|(a, b)| Equation::Dot(a, b)),
        )
}

/// Whether `axes` lock all three translations: then the joint's first three equations are
/// `World(0..3)` ([`equations`]), else its translations are `Local`.
fn world_translations(axes: &Axes) -> bool {
    axes[0] && axes[1] && axes[2]
}

/// The joint's equations from `row` on into `c` and, if given, their Jacobian into `jac`
/// (module docs). `None` if `c` is too short.
pub fn joint<T: Real, const S: usize>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    axes: &Axes,
    row: usize,
    c: &mut [T],
    mut jac: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    let d = m1.position - m0.position;
    let one = T::one();
    for (r, eq) in equations(axes).enumerate() {
        let r = row + r;
        match eq {
            Equation::World(i) | Equation::Local(i) => {
                let local = eq == Equation::Local(i);
                let u = if local {
                    m0.axis(i)
                } else {
                    Vector3::ith(i, one)
                };
                *c.get_mut(r)? = u.dot(&d);
                if let Some(out) = jac.as_deref_mut() {
                    m1.add_row(out, r, &m1.local, &u, one, true);
                    m0.add_row(out, r, &m0.local, &u, -one, true);
                    if local {
                        m0.add_row(out, r, &m0.axis_local(i), &d, one, false);
                    }
                }
            }
            Equation::Dot(a, b) => {
                let (u0, u1) = (m0.axis(a), m1.axis(b));
                *c.get_mut(r)? = u0.dot(&u1);
                if let Some(out) = jac.as_deref_mut() {
                    m0.add_row(out, r, &m0.axis_local(a), &u1, one, false);
                    m1.add_row(out, r, &m1.axis_local(b), &u0, one, false);
                }
            }
        }
    }
    Some(())
}

/// The velocity terms of [`joint`] (each equation's second time derivative without the
/// accelerations) from `row` on into `out`.
pub fn joint_velocity_terms<T: Real>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    axes: &Axes,
    row: usize,
    out: &mut [T],
) -> Option<()> {
    let d = m1.position - m0.position;
    let d_t = m1.velocity - m0.velocity;
    let d_tt = m1.point_tt() - m0.point_tt();
    let two = T::c(2.0);
    for (r, eq) in equations(axes).enumerate() {
        *out.get_mut(row + r)? = match eq {
            Equation::World(i) => d_tt[i],
            Equation::Local(i) => {
                // (a . d)_tt = a_tt . d + 2 a_t . d_t + a . d_tt.
                let (a_t, a_tt) = m0.rates(&m0.axis_local(i));
                a_tt.dot(&d) + two * a_t.dot(&d_t) + m0.axis(i).dot(&d_tt)
            }
            Equation::Dot(a, b) => {
                let (u0_t, u0_tt) = m0.rates(&m0.axis_local(a));
                let (u1_t, u1_tt) = m1.rates(&m1.axis_local(b));
                u0_tt.dot(&m1.axis(b)) + two * u0_t.dot(&u1_t) + m0.axis(a).dot(&u1_tt)
            }
        };
    }
    Some(())
}

/// The joint's force (N, world) and torque (N m, world, about marker 0's point) on marker 0's
/// body for the multipliers `lambda` of its equations (the force `-C_q^T lambda` on that body's
/// coordinates): `f = sum lambda_i u_i` over the translation equations `u_i . d` (`u_i` the world
/// axes, or marker 0's), `tau = -sum lambda_i u_i x d - sum lambda_k u_0k x u_1k` (the second
/// over the rotation equations `u_0k . u_1k`).
pub fn joint_reaction<T: Real>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    axes: &Axes,
    lambda: &[T; 6],
) -> (Vector3<T>, Vector3<T>) {
    let d = m1.position - m0.position;
    let (mut f, mut tau) = (Vector3::zeros(), Vector3::zeros());
    for (eq, l) in equations(axes).zip(lambda) {
        match eq {
            Equation::World(i) => f += Vector3::ith(i, *l),
            Equation::Local(i) => {
                let u = m0.axis(i);
                f += u * *l;
                tau -= u.cross(&d) * *l;
            }
            Equation::Dot(a, b) => tau -= m0.axis(a).cross(&m1.axis(b)) * *l,
        }
    }
    (f, tau)
}

/// The derivatives of the virtual-work coefficients `f_k` (world force) and `tau_k` (body-frame
/// torque) of the two ends `k` by the virtual displacements `r_j` and rotations `theta_j`, and
/// the torques themselves (module docs). The blocks of point forces along marker axes are apart
/// ([`ForceBlocks`]): the revolute and spherical joints (world translations and rotation
/// equations) have none, and neither zero nor hold them.
struct Tangent<'f, T> {
    t_th: [[Matrix3<T>; 2]; 2],
    tau: [Vector3<T>; 2],
    forces: Option<&'f mut ForceBlocks<T>>,
}

/// `d f_k / d r_j`, `d f_k / d theta_j`, `d tau_k / d r_j` of a [`Tangent`].
struct ForceBlocks<T> {
    f_r: [[Matrix3<T>; 2]; 2],
    f_th: [[Matrix3<T>; 2]; 2],
    t_r: [[Matrix3<T>; 2]; 2],
}

impl<T: Real> ForceBlocks<T> {
    fn new() -> Self {
        let z = [[Matrix3::zeros(); 2]; 2];
        Self {
            f_r: z,
            f_th: z,
            t_r: z,
        }
    }
}

impl<'f, T: Real> Tangent<'f, T> {
    fn new(forces: Option<&'f mut ForceBlocks<T>>) -> Self {
        Self {
            t_th: [[Matrix3::zeros(); 2]; 2],
            tau: [Vector3::zeros(); 2],
            forces,
        }
    }

    /// The terms of a joint's equations (`axes`) with their multipliers `lambda`; a `Local`
    /// equation's force blocks go to `self.forces` (the caller gives them when `axes` has one).
    fn add_joint(&mut self, m0: &SpatialState<T>, m1: &SpatialState<T>, axes: &Axes, lambda: &[T]) {
        // World translations (all three or none) come first. Their terms are linear in the
        // multipliers: one point term with `v = sum_i mu_i e_i` (`mu (p_1 - p_0)_i`:
        // `tau_1 = l_1 x A_1^T mu e_i`, `tau_0` the same at `-mu l_0`).
        if let (true, Some(&[x, y, z])) = (world_translations(axes), lambda.get(..3)) {
            let v = Vector3::new(x, y, z);
            self.point(m1, 1, &v);
            self.point(m0, 0, &(-v));
        }
        let d = m1.position - m0.position;
        // The bodies' relative rotation, once for all the joint's perpendicular-axes pairs.
        let r01 = if rotation_pairs(axes).1 > 0 {
            m0.rotation.tr_mul(&m1.rotation)
        } else {
            Matrix3::zeros()
        };
        for (eq, &mu) in equations(axes).zip(lambda) {
            match eq {
                Equation::World(_) => {}
                Equation::Local(i) => self.local_translation(m0, m1, &d, i, mu),
                Equation::Dot(p, q) => self.perpendicular_axes(&r01, m0, m1, p, q, mu),
            }
        }
    }

    /// A point term `v . p_k` (`v` world, held fixed): `tau_k = l_k x (A_k^T v)`,
    /// `d tau_k / d theta_k = [l_k]x [A_k^T v]x`.
    // Out of line, as the other terms: the caller's frame holds no products.
    #[inline(never)]
    fn point(&mut self, m: &SpatialState<T>, k: usize, v: &Vector3<T>) {
        let av = m.rotation.tr_mul(v);
        self.tau[k] += m.local.cross(&av);
        self.t_th[k][k] += skew_product(&m.local, &av);
    }

    /// The terms of `mu (a . d)`, `a = A_0 w` marker 0's axis `i` (world), `d = p_1 - p_0`:
    /// `f_1 = mu a = -f_0`, `tau_1 = mu l_1 x A_1^T a`, `tau_0 = mu (w x A_0^T d - l_0 x w)`.
    // Out of line (also `perpendicular_axes`): each equation's products are on the stack one
    // at a time, beside the `Tangent` they add to.
    #[inline(never)]
    fn local_translation(
        &mut self,
        m0: &SpatialState<T>,
        m1: &SpatialState<T>,
        d: &Vector3<T>,
        i: usize,
        mu: T,
    ) {
        let (a0, a1) = (&m0.rotation, &m1.rotation);
        let w = m0.axis_local(i);
        let wx = skew(&w);
        let da = a0 * wx * mu; // d(mu a)/d theta_0 = -mu A_0 [w]x
        let wa0t = wx * a0.transpose() * mu;
        if let Some(f) = self.forces.as_deref_mut() {
            f.f_th[1][0] -= da;
            f.f_th[0][0] += da;
            f.t_r[0][1] += wa0t;
            f.t_r[0][0] -= wa0t;
        }
        self.point(m1, 1, &(m0.axis(i) * mu));
        self.t_th[1][0] -= skew(&m1.local) * a1.transpose() * a0 * wx * mu;
        let a0d = a0.transpose() * d;
        self.tau[0] += (w.cross(&a0d) - m0.local.cross(&w)) * mu;
        self.t_th[0][1] -= wa0t * a1 * skew(&m1.local);
        self.t_th[0][0] += wx * (skew(&a0d) + skew(&m0.local)) * mu;
    }

    /// The terms of `mu (u_0 . u_1)`, `u_k = A_k b_k` (axis `p` of marker 0, `q` of marker 1),
    /// with `r01 = A_0^T A_1`: `tau_0 = mu b_0 x A_0^T u_1`, `tau_1 = mu b_1 x A_1^T u_0`;
    /// `d tau_0 / d theta_1 = -mu [b_0]x r01 [b_1]x`, and `d tau_1 / d theta_0` its transpose
    /// (skews are antisymmetric). As `[x]x R = R [R^T x]x` for a rotation `R` and
    /// `[c]x [b]x = b c^T - (c . b) E`,
    /// `[b_0]x r01 [b_1]x = (r01 b_1) (r01^T b_0)^T - (r01^T b_0 . b_1) r01`: an outer
    /// product, not two matrix products.
    #[inline(never)]
    fn perpendicular_axes(
        &mut self,
        r01: &Matrix3<T>,
        m0: &SpatialState<T>,
        m1: &SpatialState<T>,
        p: usize,
        q: usize,
        mu: T,
    ) {
        let (b0, b1) = (m0.axis_local(p), m1.axis_local(q));
        let (a0u1, a1u0) = (r01 * b1, r01.tr_mul(&b0));
        self.tau[0] += b0.cross(&a0u1) * mu;
        self.tau[1] += b1.cross(&a1u0) * mu;
        self.t_th[0][0] += skew_product(&b0, &a0u1) * mu;
        self.t_th[1][1] += skew_product(&b1, &a1u0) * mu;
        let cross = (a0u1 * a1u0.transpose() - *r01 * a1u0.dot(&b1)) * mu;
        self.t_th[0][1] -= cross;
        self.t_th[1][0] -= cross.transpose();
    }

    /// Adds `a d(C_q^T lambda)/dq` to `out` at the ends' columns (module docs): the blocks of
    /// each pair of ends, then each rigid body's map derivative.
    // The blocks' products and the map derivative in calls of their own, one after the other:
    // their temporaries are never on the stack together.
    fn write<const S: usize>(&self, m: [&SpatialState<T>; 2], a: T, out: &mut Block<'_, T, S>) {
        if m.iter().any(|s| s.on_link()) {
            self.write_columns(m, a, out);
        } else if m.iter().any(|s| s.group_body().is_some()) {
            // Both ends on the group or the ground; a body in Euler parameters at the other
            // end (no system mixes them) through its columns.
            if m.iter().any(|s| s.body().is_some()) {
                self.write_columns(m, a, out);
            } else {
                self.write_group_blocks(m, a, out);
            }
        } else {
            self.write_blocks(m, a, out);
        }
        for k in 0..2 {
            if let Some((ok, g, e)) = m[k].body() {
                self.write_map_derivative(g, e, k, ok, a, out);
            }
        }
    }

    /// The blocks of [`Self::write`] between two ends on rigid bodies (or the ground):
    /// `G_k^T t_th G_j` and, with point forces, the force blocks.
    #[inline(never)]
    fn write_blocks<const S: usize>(
        &self,
        m: [&SpatialState<T>; 2],
        a: T,
        out: &mut Block<'_, T, S>,
    ) {
        for k in 0..2 {
            let Some((ok, gk, _)) = m[k].body() else {
                continue;
            };
            for j in 0..2 {
                let Some((oj, gj, _)) = m[j].body() else {
                    continue;
                };
                let ee = gk.transpose() * self.t_th[k][j] * gj;
                out.add_scaled(ok + 3, oj + 3, &ee, a);
                if let Some(f) = self.forces.as_deref() {
                    write_force_blocks(f, [gk, gj], k, j, [ok, oj], a, out);
                }
            }
        }
    }

    /// The blocks of [`Self::write`] between two ends on rigid bodies on the Lie group (or the
    /// ground): `t_th` and, with point forces, the force blocks, as they are (the columns are
    /// the virtual displacements themselves).
    #[inline(never)]
    fn write_group_blocks<const S: usize>(
        &self,
        m: [&SpatialState<T>; 2],
        a: T,
        out: &mut Block<'_, T, S>,
    ) {
        for k in 0..2 {
            let Some(ok) = m[k].group_body() else {
                continue;
            };
            for j in 0..2 {
                let Some(oj) = m[j].group_body() else {
                    continue;
                };
                out.add_scaled(ok + 3, oj + 3, &self.t_th[k][j], a);
                if let Some(f) = self.forces.as_deref() {
                    out.add_scaled(ok, oj, &f.f_r[k][j], a);
                    out.add_scaled(ok, oj + 3, &f.f_th[k][j], a);
                    out.add_scaled(ok + 3, oj, &f.t_r[k][j], a);
                }
            }
        }
    }

    /// Adds `a d(G^T tau_k)/de` at fixed `tau_k` of a rigid body's end `k` at `ok`:
    /// `G = Gb(e) / |e|^2`, `H(tau) / |e|^2 - 2 G^T tau e^T / |e|^2` with
    /// `H(tau) = 2 [[0, -tau^T], [tau, -[tau]x]]`.
    #[inline(never)]
    fn write_map_derivative<const S: usize>(
        &self,
        g: &Matrix3x4<T>,
        e: &Vector4<T>,
        k: usize,
        ok: usize,
        a: T,
        out: &mut Block<'_, T, S>,
    ) {
        let two = T::c(2.0);
        let t = self.tau[k];
        let n2 = e.dot(e);
        let gt = g.transpose() * t;
        let tx = skew(&t);
        let d = Matrix4::from_fn(|i, c| {
            let h = match (i, c) {
                (0, 0) => T::zero(),
                (0, c) => -two * t[c - 1],
                (i, 0) => two * t[i - 1],
                (i, c) => -two * tx[(i - 1, c - 1)],
            };
            a * (h - two * gt[i] * e[c]) / n2
        });
        out.add_scaled(ok + 3, ok + 3, &d, T::one());
    }
}

/// The point-force blocks of ends `k`, `j` (at columns `o = [o_k, o_j]`, rate maps
/// `g = [G_k, G_j]`) of [`Tangent::write_blocks`]: `f_r`, `f_th G_j`, `G_k^T t_r`.
// Out of line: only joints with point forces along marker axes have them.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn write_force_blocks<T: Real, const S: usize>(
    f: &ForceBlocks<T>,
    g: [&Matrix3x4<T>; 2],
    k: usize,
    j: usize,
    o: [usize; 2],
    a: T,
    out: &mut Block<'_, T, S>,
) {
    let [ok, oj] = o;
    let rr = f.f_r[k][j];
    let re = f.f_th[k][j] * g[1];
    let er = g[0].transpose() * f.t_r[k][j];
    out.add_scaled(ok, oj, &rr, a);
    out.add_scaled(ok, oj + 3, &re, a);
    out.add_scaled(ok + 3, oj, &er, a);
}

impl<T: Real> Tangent<'_, T> {
    /// The blocks of [`Self::write`] with a tree link among the ends: through each end's
    /// columns (`J_k^T [f_r f_th; t_r t_th]_kj J_j`, module docs).
    #[inline(never)]
    fn write_columns<const S: usize>(
        &self,
        m: [&SpatialState<T>; 2],
        a: T,
        out: &mut Block<'_, T, S>,
    ) {
        for k in 0..2 {
            for j in 0..2 {
                m[k].each_column(|ck, rk, thk| {
                    let tth = self.t_th[k][j].transpose() * thk;
                    // Without force blocks their terms are zero (`v` then the same bits).
                    let f = self.forces.as_deref().map(|f| {
                        (
                            f.f_r[k][j].transpose() * rk + f.t_r[k][j].transpose() * thk,
                            f.f_th[k][j].transpose() * rk,
                        )
                    });
                    m[j].each_column(|cj, rj, thj| {
                        let v = match f {
                            Some((r, th)) => r.dot(&rj) + (th + tth).dot(&thj),
                            None => tth.dot(&thj),
                        };
                        if v != T::zero() {
                            out.add(ck, cj, a * v);
                        }
                    });
                });
            }
        }
    }
}

/// Adds `a d(C_q^T lambda)/dq` of the joint's equations (multipliers `lambda` from the joint's
/// first row) to `out` (module docs).
// Out of line: its `Tangent` and products are on the stack only while it runs.
#[inline(never)]
pub fn joint_hessian<T: Real, const S: usize>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    axes: &Axes,
    lambda: &[T],
    a: T,
    out: &mut Block<'_, T, S>,
) {
    if equations(axes).any(|e| matches!(e, Equation::Local(_))) {
        return joint_hessian_with_forces(m0, m1, axes, lambda, a, out);
    }
    let mut tg = Tangent::new(None);
    tg.add_joint(m0, m1, axes, lambda);
    tg.write([m0, m1], a, out);
}

/// [`joint_hessian`] of a joint with point forces along marker axes (a prismatic or generic
/// joint's `Local` equations).
// Out of line: their blocks are on the stack only for such joints.
#[inline(never)]
fn joint_hessian_with_forces<T: Real, const S: usize>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    axes: &Axes,
    lambda: &[T],
    a: T,
    out: &mut Block<'_, T, S>,
) {
    let mut forces = ForceBlocks::new();
    let mut tg = Tangent::new(Some(&mut forces));
    tg.add_joint(m0, m1, axes, lambda);
    tg.write([m0, m1], a, out);
}

/// Adds `a d(C_q^T mu)/dq` of [`distance`] with its multiplier `mu` to `out`. Nothing if the
/// points coincide.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail the length test
#[inline(never)] // as `joint_hessian`
pub fn distance_hessian<T: Real, const S: usize>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    mu: T,
    a: T,
    out: &mut Block<'_, T, S>,
) {
    let d = m1.position - m0.position;
    let len = d.norm_squared().sqrt_l();
    if !(len > T::zero()) {
        return;
    }
    let n = d / len;
    // f_1 = mu n = -f_0, tau_k = sign_k mu l_k x A_k^T n, with dn = P dd / L (P = E - n n^T),
    // dd = dr_1 - A_1 [l_1]x dtheta_1 - dr_0 + A_0 [l_0]x dtheta_0.
    let p = (Matrix3::identity() - n * n.transpose()) * (mu / len);
    let dd_r = [-Matrix3::identity(), Matrix3::identity()];
    let dd_th = [
        m0.rotation * skew(&m0.local),
        -(m1.rotation * skew(&m1.local)),
    ];
    let mut f = ForceBlocks::new();
    let mut tg = Tangent::new(None);
    let m = [m0, m1];
    let sign = [-T::one(), T::one()];
    for k in 0..2 {
        tg.point(m[k], k, &(n * (mu * sign[k])));
        let lat = skew(&m[k].local) * m[k].rotation.transpose();
        for j in 0..2 {
            f.f_r[k][j] += p * dd_r[j] * sign[k];
            f.f_th[k][j] += p * dd_th[j] * sign[k];
            f.t_r[k][j] += lat * p * dd_r[j] * sign[k];
            tg.t_th[k][j] += lat * p * dd_th[j] * sign[k];
        }
    }
    tg.forces = Some(&mut f);
    tg.write([m0, m1], a, out);
}

/// Exudyn's `ObjectConnectorDistance` between 3D markers: `|p_1 - p_0| - distance` at `row`,
/// its Jacobian into `jac` if given. `None` if the points coincide (no direction) or `c` is
/// too short.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail the length test
pub fn distance<T: Real, const S: usize>(
    m0: &SpatialState<T>,
    m1: &SpatialState<T>,
    distance: T,
    row: usize,
    c: &mut [T],
    jac: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    let d = m1.position - m0.position;
    let len = d.norm_squared().sqrt_l();
    if !(len > T::zero()) {
        return None;
    }
    *c.get_mut(row)? = len - distance;
    if let Some(out) = jac {
        let n = d / len;
        m1.add_row(out, row, &m1.local, &n, T::one(), true);
        m0.add_row(out, row, &m0.local, &n, -T::one(), true);
    }
    Some(())
}

/// The velocity term of [`distance`]: `(d_t . d_t + d . d_tt) / L - (d . d_t)^2 / L^3` with
/// the velocity part of `d_tt`. `None` if the points coincide.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must fail the length test
pub fn distance_velocity_term<T: Real>(m0: &SpatialState<T>, m1: &SpatialState<T>) -> Option<T> {
    let d = m1.position - m0.position;
    let d_t = m1.velocity - m0.velocity;
    let d_tt = m1.point_tt() - m0.point_tt();
    let len = d.norm_squared().sqrt_l();
    if !(len > T::zero()) {
        return None;
    }
    let dd = d.dot(&d_t);
    Some((d_t.dot(&d_t) + d.dot(&d_tt)) / len - dd * dd / (len * len * len))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::math::Quaternion;

    const S: usize = 16;

    fn markers() -> (SpatialMarker<f64>, SpatialMarker<f64>, [f64; 14], [f64; 14]) {
        let f0 = Quaternion::exp(&Vector3::new(0.3, -0.2, 0.4)).to_matrix();
        let f1 = Quaternion::exp(&Vector3::new(-0.1, 0.5, 0.2)).to_matrix();
        let m0 = SpatialMarker::Rigid {
            offset: 0,
            local: Vector3::new(0.2, -0.1, 0.3),
            frame: f0,
        };
        let m1 = SpatialMarker::Rigid {
            offset: 7,
            local: Vector3::new(-0.3, 0.1, 0.05),
            frame: f1,
        };
        let e0 = Vector4::new(0.9, 0.1, -0.3, 0.2).normalize();
        let e1 = Vector4::new(0.7, -0.4, 0.1, 0.5).normalize();
        let q = [
            0.1, 0.2, -0.3, e0[0], e0[1], e0[2], e0[3], 0.4, -0.1, 0.2, e1[0], e1[1], e1[2], e1[3],
        ];
        let w0 = crate::bodies::euler_parameters::rates(&e0, &Vector3::new(1.0, -2.0, 0.5));
        let w1 = crate::bodies::euler_parameters::rates(&e1, &Vector3::new(-0.3, 0.7, 2.0));
        let v = [
            0.3, -0.2, 0.1, w0[0], w0[1], w0[2], w0[3], -0.5, 0.4, 0.2, w1[0], w1[1], w1[2], w1[3],
        ];
        (m0, m1, q, v)
    }

    /// `C_q` against central differences of `C`, and the velocity terms against
    /// `d/dt (C_q(q(t)) v)` at `t = 0` along `q(t) = q + t v` (central differences).
    fn check(axes: Option<Axes>, dist: f64) {
        let (m0, m1, q, v) = markers();
        let eval = |q: &[f64], c: &mut [f64], jac: Option<&mut Block<'_, f64, S>>| {
            let (s0, s1) = (m0.state(q, &v).unwrap(), m1.state(q, &v).unwrap());
            match axes {
                Some(a) => joint(&s0, &s1, &a, 0, c, jac).unwrap(),
                None => distance(&s0, &s1, dist, 0, c, jac).unwrap(),
            }
        };
        let rows = axes.map_or(1, |a| a.iter().filter(|x| **x).count());
        let mut jac = [[0.0; S]; S];
        let mut c = [0.0; 6];
        eval(&q, &mut c, Some(&mut Block::new(&mut jac, 0, 0, rows, 14)));
        let h = 1e-6;
        for j in 0..14 {
            // Along coordinate j; for a Euler parameter its part tangent to the unit sphere,
            // `(E - e e^T) e_j` (the Jacobian's `Gb` has `Gb e = 0`: the radial direction is
            // the normalization's).
            let mut dir = [0.0; 14];
            dir[j] = 1.0;
            for o in [0, 7] {
                if (o + 3..o + 7).contains(&j) {
                    for k in o + 3..o + 7 {
                        dir[k] -= q[k] * q[j];
                    }
                }
            }
            let (mut qp, mut qm) = (q, q);
            for k in 0..14 {
                qp[k] += h * dir[k];
                qm[k] -= h * dir[k];
            }
            let (mut cp, mut cm) = ([0.0; 6], [0.0; 6]);
            eval(&qp, &mut cp, None);
            eval(&qm, &mut cm, None);
            for r in 0..rows {
                let num = (cp[r] - cm[r]) / (2.0 * h);
                assert!(
                    (num - jac[r][j]).abs() < 1e-8,
                    "{axes:?} row {r} col {j}: {num} vs {}",
                    jac[r][j]
                );
            }
        }
        // (C_q v)_t along q + t v equals the velocity term (e_tt = 0 there, which the EP
        // Jacobian maps to w_t = Gb e_tt = 0).
        let cqv = |q: &[f64]| {
            let mut jac = [[0.0; S]; S];
            let mut c = [0.0; 6];
            eval(q, &mut c, Some(&mut Block::new(&mut jac, 0, 0, rows, 14)));
            let mut out = [0.0; 6];
            for r in 0..rows {
                out[r] = (0..14).map(|j| jac[r][j] * v[j]).sum();
            }
            out
        };
        let (mut qp, mut qm) = (q, q);
        for j in 0..14 {
            qp[j] += h * v[j];
            qm[j] -= h * v[j];
        }
        let (a, b) = (cqv(&qp), cqv(&qm));
        let (s0, s1) = (m0.state(&q, &v).unwrap(), m1.state(&q, &v).unwrap());
        let mut vt = [0.0; 6];
        match axes {
            Some(ax) => joint_velocity_terms(&s0, &s1, &ax, 0, &mut vt).unwrap(),
            None => vt[0] = distance_velocity_term(&s0, &s1).unwrap(),
        }
        for r in 0..rows {
            let num = (a[r] - b[r]) / (2.0 * h);
            assert!(
                (num - vt[r]).abs() < 1e-6 * (1.0 + num.abs()),
                "{axes:?} velocity term {r}: {num} vs {}",
                vt[r]
            );
        }
    }

    /// `d(C_q^T lambda)/dq` against central differences of `C_q(q)^T lambda` along every
    /// coordinate (the radial direction of `e` too: `C` and `Gb / |e|^2` are defined off the
    /// unit sphere, and the Hessian has their derivatives there).
    fn check_hessian(axes: Option<Axes>, dist: f64) {
        let (m0, m1, q, v) = markers();
        let rows = axes.map_or(1, |a| a.iter().filter(|x| **x).count());
        let lambda = [0.7, -1.3, 0.4, 2.1, -0.6, 0.9];
        let force = |q: &[f64]| -> [f64; 14] {
            let (s0, s1) = (m0.state(q, &v).unwrap(), m1.state(q, &v).unwrap());
            let mut jac = [[0.0; S]; S];
            let mut c = [0.0; 6];
            let mut b = Block::new(&mut jac, 0, 0, rows, 14);
            match axes {
                Some(a) => joint(&s0, &s1, &a, 0, &mut c, Some(&mut b)).unwrap(),
                None => distance(&s0, &s1, dist, 0, &mut c, Some(&mut b)).unwrap(),
            }
            let mut f = [0.0; 14];
            for j in 0..14 {
                f[j] = (0..rows).map(|r| jac[r][j] * lambda[r]).sum();
            }
            f
        };
        let (s0, s1) = (m0.state(&q, &v).unwrap(), m1.state(&q, &v).unwrap());
        let mut hess = [[0.0; S]; S];
        let mut b = Block::new(&mut hess, 0, 0, 14, 14);
        match axes {
            Some(a) => joint_hessian(&s0, &s1, &a, &lambda, 1.0, &mut b),
            None => distance_hessian(&s0, &s1, lambda[0], 1.0, &mut b),
        }
        let h = 1e-6;
        for j in 0..14 {
            let (mut qp, mut qm) = (q, q);
            qp[j] += h;
            qm[j] -= h;
            let (fp, fm) = (force(&qp), force(&qm));
            for i in 0..14 {
                let num = (fp[i] - fm[i]) / (2.0 * h);
                assert!(
                    (num - hess[i][j]).abs() < 2e-7 * (1.0 + num.abs()),
                    "{axes:?} ({i}, {j}): {num} vs {}",
                    hess[i][j]
                );
            }
        }
    }

    /// The joint masks the tests run: spherical, revolute about z, prismatic along x, fixed,
    /// local translations with a universal joint, rotations only (free y).
    const MASKS: [Axes; 6] = {
        let (t, f) = (true, false);
        [
            [t, t, t, f, f, f],
            [t, t, t, t, t, f],
            [f, t, t, t, t, t],
            [t, t, t, t, t, t],
            [t, f, t, f, t, f],
            [f, f, f, t, f, t],
        ]
    };

    #[test]
    fn hessians_match_differences() {
        for axes in MASKS {
            check_hessian(Some(axes), 0.0);
        }
        check_hessian(None, 0.7);
    }

    #[test]
    fn jacobians_and_velocity_terms_match_differences() {
        for axes in MASKS {
            check(Some(axes), 0.0);
        }
        check(None, 0.7);
    }

    /// Two markers on bodies on the Lie group (coordinates `[r; theta]`, 6 each), at
    /// `theta = 0` (where the chart's derivatives are the left-trivialized ones), with the
    /// starts' orientations (at each body's offset); velocities `[v; w]`.
    #[allow(clippy::type_complexity)]
    fn group_markers() -> (
        [SpatialMarker<f64>; 2],
        [Cell<f64>; 12],
        [f64; 12],
        [f64; 12],
    ) {
        let (m0, m1, q, _) = markers();
        let [m0, m1] = [(m0, 0), (m1, 6)].map(|(m, o)| match m {
            SpatialMarker::Rigid { local, frame, .. } => SpatialMarker::Rigid {
                offset: o,
                local,
                frame,
            },
            m => m,
        });
        let mut starts = [0.0; 12];
        starts[..4].copy_from_slice(&q[3..7]);
        starts[6..10].copy_from_slice(&q[10..14]);
        let q = [0.1, 0.2, -0.3, 0.0, 0.0, 0.0, 0.4, -0.1, 0.2, 0.0, 0.0, 0.0];
        let v = [
            0.3, -0.2, 0.1, 1.0, -2.0, 0.5, -0.5, 0.4, 0.2, -0.3, 0.7, 2.0,
        ];
        ([m0, m1], starts.map(Cell::new), q, v)
    }

    /// [`check`] and [`check_hessian`] on the Lie group: `C_q` and `d(C_q^T lambda)/dq`
    /// against central differences over `[r; theta]` at `theta = 0`, and the velocity terms
    /// against `d/dt (C_q v)` along `q + t v` (`R_n exp(t w)`: the motion with `w`).
    fn check_on_group(axes: Option<Axes>, dist: f64) {
        let ([m0, m1], starts, q, v) = group_markers();
        let rows = axes.map_or(1, |a| a.iter().filter(|x| **x).count());
        let lambda = [0.7, -1.3, 0.4, 2.1, -0.6, 0.9];
        let states = |q: &[f64]| {
            (
                m0.state_on_group(q, &v, &starts).unwrap(),
                m1.state_on_group(q, &v, &starts).unwrap(),
            )
        };
        // C and C_q at q.
        let eval = |q: &[f64]| {
            let (s0, s1) = states(q);
            let mut jac = [[0.0; S]; S];
            let mut c = [0.0; 6];
            let mut b = Block::new(&mut jac, 0, 0, rows, 12);
            match axes {
                Some(a) => joint(&s0, &s1, &a, 0, &mut c, Some(&mut b)).unwrap(),
                None => distance(&s0, &s1, dist, 0, &mut c, Some(&mut b)).unwrap(),
            }
            (c, jac)
        };
        let (_, jac) = eval(&q);
        let (s0, s1) = states(&q);
        let mut hess = [[0.0; S]; S];
        let mut b = Block::new(&mut hess, 0, 0, 12, 12);
        match axes {
            Some(a) => joint_hessian(&s0, &s1, &a, &lambda, 1.0, &mut b),
            None => distance_hessian(&s0, &s1, lambda[0], 1.0, &mut b),
        }
        let h = 1e-6;
        let mut largest = 0.0f64;
        for j in 0..12 {
            let (mut qp, mut qm) = (q, q);
            qp[j] += h;
            qm[j] -= h;
            let ((cp, jp), (cm, jm)) = (eval(&qp), eval(&qm));
            for r in 0..rows {
                let num = (cp[r] - cm[r]) / (2.0 * h);
                assert!(
                    (num - jac[r][j]).abs() < 1e-8,
                    "{axes:?} row {r} col {j}: {num} vs {}",
                    jac[r][j]
                );
            }
            for i in 0..12 {
                let f = |jac: &[[f64; S]; S]| (0..rows).map(|r| jac[r][i] * lambda[r]).sum::<f64>();
                let num = (f(&jp) - f(&jm)) / (2.0 * h);
                largest = largest.max(num.abs());
                assert!(
                    (num - hess[i][j]).abs() < 2e-7 * (1.0 + num.abs()),
                    "{axes:?} Hessian ({i}, {j}): {num} vs {}",
                    hess[i][j]
                );
            }
        }
        assert!(largest > 0.1, "{axes:?}: a zero Hessian checks nothing");
        let cqv = |q: &[f64]| {
            let (_, jac) = eval(q);
            core::array::from_fn::<f64, 6, _>(|r| (0..12).map(|j| jac[r][j] * v[j]).sum())
        };
        let (mut qp, mut qm) = (q, q);
        for j in 0..12 {
            qp[j] += h * v[j];
            qm[j] -= h * v[j];
        }
        let (a, b) = (cqv(&qp), cqv(&qm));
        let mut vt = [0.0; 6];
        match axes {
            Some(ax) => joint_velocity_terms(&s0, &s1, &ax, 0, &mut vt).unwrap(),
            None => vt[0] = distance_velocity_term(&s0, &s1).unwrap(),
        }
        for r in 0..rows {
            let num = (a[r] - b[r]) / (2.0 * h);
            assert!(
                (num - vt[r]).abs() < 1e-6 * (1.0 + num.abs()),
                "{axes:?} velocity term {r}: {num} vs {}",
                vt[r]
            );
        }
    }

    #[test]
    fn on_the_lie_group_jacobians_hessians_and_velocity_terms_match_differences() {
        for axes in MASKS {
            check_on_group(Some(axes), 0.0);
        }
        check_on_group(None, 0.7);
    }

    /// The same marker on the same body gives the same position, velocity and frame in both
    /// coordinates (Euler parameters `e`, and the group at `theta = 0` from `e`).
    #[test]
    fn a_marker_is_the_same_in_both_coordinates() {
        let (m0, _, q, v) = markers();
        let ([g0, _], starts, qg, vg) = group_markers();
        let (a, b) = (
            m0.state(&q, &v).unwrap(),
            g0.state_on_group(&qg, &vg, &starts).unwrap(),
        );
        assert!((a.position - b.position).norm() < 1e-15);
        assert!((a.velocity - b.velocity).norm() < 1e-14);
        assert!((a.frame() - b.frame()).norm() < 1e-15);
    }

    /// Exudyn's equations at a configuration where a revolute joint holds: its residual is 0.
    #[test]
    fn a_held_revolute_joint_has_zero_residual() {
        let frame = Quaternion::exp(&Vector3::new(0.2, 0.4, -0.3)).to_matrix();
        let m0 = SpatialMarker::Ground {
            position: Vector3::new(0.1, 0.2, 0.3),
            frame,
        };
        // Body turned about the joint axis by 0.7 rad, its marker at l.
        let turn = Quaternion::exp(&(frame.column(2).into_owned() * 0.7));
        let a = turn.to_matrix();
        let l = Vector3::new(0.3, -0.2, 0.1);
        let r = Vector3::new(0.1, 0.2, 0.3) - a * l;
        let m1 = SpatialMarker::Rigid {
            offset: 0,
            local: l,
            frame: a.transpose() * turn.to_matrix() * frame,
        };
        let q = [r.x, r.y, r.z, turn.w, turn.x, turn.y, turn.z];
        let (s0, s1) = (m0.state(&q, &q).unwrap(), m1.state(&q, &q).unwrap());
        let mut c = [1.0; 5];
        joint::<f64, S>(
            &s0,
            &s1,
            &[true, true, true, true, true, false],
            0,
            &mut c,
            None,
        )
        .unwrap();
        assert!(c.iter().all(|x| x.abs() < 1e-15), "{c:?}");
    }
}
