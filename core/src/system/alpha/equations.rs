//! The constraints' equations `C(q)`, their Jacobian `C_q` and Hessian terms
//! `d(C_q^T lambda)/dq`, evaluated at each constraint's ends.

use super::entries::vec4;
use super::layout::ConstraintEnds;
use super::model::{constraint_ref, SystemModel};
use crate::constraints::planar::{self, AngleCache, MarkerState, PlanarMarker};
use crate::constraints::spatial::{self, SpatialMarker, SpatialState};
use crate::integrators::constrained::Block;
use crate::system::constraint::Constraint;
use crate::tree::TreeData;
use crate::{Error, Real, Result};
use nalgebra::Vector2;

/// A constraint's ends at `q`, `v`: two marker states (borrowed where `each` computed them:
/// no copy of a state per constraint on the stack), or two coordinates.
pub(super) enum EvaluatedEnds<'e, 'a, T> {
    Planar(&'e MarkerState<T>, &'e MarkerState<T>),
    Spatial(&'e SpatialState<'a, T>, &'e SpatialState<'a, T>),
    Coordinates(Option<usize>, Option<usize>),
}

impl<'a, T: Real, const N: usize, const K: usize, const J: usize> SystemModel<'a, T, N, K, J> {
    /// Calls `f(row, constraint, ends)` for each constraint with its ends evaluated at `q`,
    /// `v`; a `None` from `f` (a distance of zero length: no direction) is `ZeroLength` at the
    /// constraint.
    pub(super) fn each<F>(&self, q: &[T], v: &[T], mut f: F) -> Result<()>
    where
        F: FnMut(usize, &Constraint<T>, &EvaluatedEnds<'_, '_, T>) -> Option<()>,
    {
        // The tree's poses, velocities, accelerations at zero joint accelerations and world
        // columns, once for all constraints (the markers on its links read them).
        let kinematics = self.tree_kinematics(q, v);
        let mut angles = AngleCache::new();
        for (k, c) in self.constraints.iter().enumerate() {
            let at = constraint_ref(k);
            let row = self.row(k);
            let mut g = |e: &EvaluatedEnds<'_, '_, T>| f(row, c, e);
            let ends = self
                .layout
                .ends
                .get(k)
                .ok_or_else(|| self.fail(Error::NotAssembled, at))?;
            let done = match ends {
                ConstraintEnds::Planar(m) => Self::with_planar(m, q, v, &mut angles, &mut g),
                ConstraintEnds::Spatial(m) => {
                    self.with_spatial(m, kinematics.as_deref(), q, v, &mut g)
                }
                ConstraintEnds::Coordinates(i0, i1) => g(&EvaluatedEnds::Coordinates(*i0, *i1)),
            };
            done.ok_or_else(|| self.fail(Error::ZeroLength(crate::Param::Length), at))?;
        }
        Ok(())
    }

    /// `g` of the states of the planar markers `ends` at `q`, `v` (the bodies' sines and
    /// cosines shared through `angles`); `None` if a marker has no state. Out of line, as
    /// [`Self::with_spatial`].
    #[inline(never)]
    pub(super) fn with_planar<G>(
        ends: &[PlanarMarker<T>; 2],
        q: &[T],
        v: &[T],
        angles: &mut AngleCache<T>,
        g: &mut G,
    ) -> Option<()>
    where
        G: FnMut(&EvaluatedEnds<'_, '_, T>) -> Option<()>,
    {
        // The states kept in their `Option`s and borrowed (a `?` would copy each out).
        let s0 = ends[0].state_cached(q, v, angles);
        let s1 = ends[1].state_cached(q, v, angles);
        let (Some(s0), Some(s1)) = (&s0, &s1) else {
            return None;
        };
        g(&EvaluatedEnds::Planar(s0, s1))
    }

    /// `g` of the states of the 3D markers `ends` (a tree link's from the tree's `kinematics`);
    /// `None` if a marker has no state.
    // Out of line, with `with_planar`: a constraint's marker states are on the stack only while
    // it is evaluated, and a planar system's step never holds 3D states.
    #[inline(never)]
    pub(super) fn with_spatial<G>(
        &self,
        ends: &[SpatialMarker<T>; 2],
        kinematics: Option<&TreeData<T, J, J>>,
        q: &[T],
        v: &[T],
        g: &mut G,
    ) -> Option<()>
    where
        G: FnMut(&EvaluatedEnds<'_, '_, T>) -> Option<()>,
    {
        // Each state built out of line into the `Option` kept here and borrowed from it (a `?`
        // would move it out: a 192-B copy per marker in f32): the markers' resolution and the
        // building's temporaries are off the stack when `g` runs.
        let s0 = self.spatial_state(&ends[0], kinematics, q, v);
        let s1 = self.spatial_state(&ends[1], kinematics, q, v);
        let (Some(s0), Some(s1)) = (&s0, &s1) else {
            return None;
        };
        g(&EvaluatedEnds::Spatial(s0, s1))
    }

    /// The state of the 3D marker `m` at `q`, `v` (a tree link's from the tree's
    /// `kinematics`); `None` if it has none.
    #[inline(never)]
    pub(super) fn spatial_state<'d>(
        &self,
        m: &SpatialMarker<T>,
        kinematics: Option<&'d TreeData<T, J, J>>,
        q: &[T],
        v: &[T],
    ) -> Option<SpatialState<'d, T>>
    where
        'a: 'd,
    {
        match (m, kinematics) {
            (SpatialMarker::TreeLink { link, local, frame }, Some(d)) => {
                self.tree_marker(d, *link, *local, *frame)
            }
            _ if self.layout.lie_group => m.state_on_group(q, v, self.starts),
            _ => m.state(q, v),
        }
    }
    /// `C(q)` into `c` (all `m` rows) if given, and `C_q` added to `jac` if given; each
    /// constraint writes from its row on. With `hessian = (lambda, a)` (and `jac`) also
    /// `a d(C_q^T lambda)/dq` added to `jac`'s columns block, each constraint's right after
    /// its rows of `C_q`, from the same marker states; the same entries in the same order as
    /// [`ConstrainedModel::constraint_force_jacobian`](crate::integrators::constrained::ConstrainedModel::constraint_force_jacobian) adds.
    pub(super) fn equations<const S: usize>(
        &self,
        q: &[T],
        mut c: Option<&mut [T]>,
        mut jac: Option<&mut Block<'_, T, S>>,
        hessian: Option<(&[T], T)>,
    ) -> Result<()> {
        // e . e - 1 = 0 of each 3D rigid node: C_q = 2 e^T.
        for (row, o) in self.normalizations() {
            let e = vec4(q, o + 3)?;
            if let Some(x) = c.as_deref_mut().and_then(|c| c.get_mut(row)) {
                *x = e.dot(&e) - T::one();
            }
            if let Some(j) = jac.as_deref_mut() {
                for k in 0..4 {
                    j.add(row, o + 3 + k, T::c(2.0) * e[k]);
                }
            }
        }
        if let (Some(j), Some((lambda, a)), true) = (
            jac.as_deref_mut(),
            hessian,
            self.layout.normalizations() > 0,
        ) {
            self.normalization_hessians(lambda, a, &mut j.columns_block());
        }
        let mut scratch = [T::zero(); 6];
        self.each(q, q, |row, con, ends| {
            let cc: &mut [T] = match c.as_deref_mut() {
                Some(c) => c.get_mut(row..)?,
                None => &mut scratch,
            };
            let mut sub = jac.as_deref_mut().map(|b| b.shifted(row));
            let done = constraint_equations(con, ends, q, cc, sub.as_mut());
            match (jac.as_deref_mut(), hessian) {
                (Some(j), Some((lambda, a))) if done.is_some() => {
                    constraint_hessian(con, ends, lambda, row, a, &mut j.columns_block())
                }
                _ => done,
            }
        })
    }

    /// Adds `a d(2 e lambda)/de = 2 a lambda E` of each 3D rigid node's normalization to `out`.
    // Out of line: off the frame of `equations`, under which the constraints' Hessians run.
    #[inline(never)]
    pub(super) fn normalization_hessians<const S: usize>(
        &self,
        lambda: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) {
        for (row, o) in self.normalizations() {
            let l = lambda.get(row).copied().unwrap_or(T::zero());
            out.add_diagonal(o + 3, 4, a * T::c(2.0) * l);
        }
    }

    /// `(C_q q_t)_q q_t` of every row into `out`: the normalizations' `2 e_t . e_t`, the
    /// constraints' from their ends' velocity terms (a coordinate constraint's zero).
    pub(super) fn velocity_terms(&self, q: &[T], v: &[T], out: &mut [T]) -> Result<()> {
        // (C_q q_t)_q q_t = 2 e_t . e_t of each normalization.
        for (row, o) in self.normalizations() {
            let e_t = vec4(v, o + 3)?;
            if let Some(x) = out.get_mut(row) {
                *x = T::c(2.0) * e_t.dot(&e_t);
            }
        }
        self.each(q, v, |row, c, ends| {
            if let EvaluatedEnds::Spatial(m0, m1) = &ends {
                return match c {
                    Constraint::Joint { axes, .. } => {
                        spatial::joint_velocity_terms(m0, m1, axes, row, out)
                    }
                    _ => {
                        *out.get_mut(row)? = spatial::distance_velocity_term(m0, m1)?;
                        Some(())
                    }
                };
            }
            let EvaluatedEnds::Planar(m0, m1) = ends else {
                *out.get_mut(row)? = T::zero(); // a coordinate constraint's is zero
                return Some(());
            };
            let (m0, m1) = (&m0, &m1);
            match c {
                Constraint::Distance { .. } => {
                    *out.get_mut(row)? = planar::distance_velocity_term(m0, m1)?;
                }
                Constraint::Revolute2D { .. } => {
                    let w = planar::revolute_velocity_term(m0, m1);
                    *out.get_mut(row)? = w.x;
                    *out.get_mut(row + 1)? = w.y;
                }
                Constraint::Prismatic2D {
                    axis_marker0,
                    normal_marker1,
                    constrain_rotation,
                    ..
                } => {
                    let w = planar::prismatic_velocity_terms(m0, m1, axis_marker0, normal_marker1);
                    *out.get_mut(row)? = w[0];
                    if *constrain_rotation {
                        *out.get_mut(row + 1)? = w[1];
                    }
                }
                Constraint::Coordinate { .. } | Constraint::Joint { .. } => {}
            }
            Some(())
        })
    }

    /// Adds `a d(C_q^T lambda)/dq` of the normalizations and of every constraint to `out`.
    #[inline(never)]
    pub(super) fn force_hessians<const S: usize>(
        &self,
        q: &[T],
        lambda: &[T],
        a: T,
        out: &mut Block<'_, T, S>,
    ) -> Result<()> {
        self.normalization_hessians(lambda, a, out);
        self.each(q, q, |row, c, ends| {
            constraint_hessian(c, ends, lambda, row, a, out)
        })
    }
}

/// `C` of constraint `con` at its evaluated `ends` into `cc` (from its first row) and its rows
/// of `C_q` added to `j` if given; `None` for a distance of zero length or a constraint whose
/// ends are not its kind's.
// Out of line: its temporaries are off the stack when the constraint's Hessian runs.
#[inline(never)]
pub(super) fn constraint_equations<T: Real, const S: usize>(
    con: &Constraint<T>,
    ends: &EvaluatedEnds<'_, '_, T>,
    q: &[T],
    cc: &mut [T],
    j: Option<&mut Block<'_, T, S>>,
) -> Option<()> {
    match (con, ends) {
        (Constraint::Distance { distance, .. }, EvaluatedEnds::Planar(m0, m1)) => {
            planar::distance(m0, m1, *distance, 0, cc, j)
        }
        (Constraint::Revolute2D { .. }, EvaluatedEnds::Planar(m0, m1)) => {
            planar::revolute(m0, m1, 0, cc, j)
        }
        (
            Constraint::Prismatic2D {
                axis_marker0,
                normal_marker1,
                constrain_rotation,
                ..
            },
            EvaluatedEnds::Planar(m0, m1),
        ) => planar::prismatic(
            m0,
            m1,
            axis_marker0,
            normal_marker1,
            *constrain_rotation,
            0,
            cc,
            j,
        ),
        (Constraint::Coordinate { factor, offset, .. }, EvaluatedEnds::Coordinates(i0, i1)) => {
            planar::coordinate(q, *i0, *i1, *factor, *offset, 0, cc, j)
        }
        (Constraint::Distance { distance, .. }, EvaluatedEnds::Spatial(m0, m1)) => {
            spatial::distance(m0, m1, *distance, 0, cc, j)
        }
        (Constraint::Joint { axes, .. }, EvaluatedEnds::Spatial(m0, m1)) => {
            spatial::joint(m0, m1, axes, 0, cc, j)
        }
        _ => None,
    }
}

/// Adds `a d(C_q^T lambda)/dq` of constraint `c` (first row `row` of `lambda`) at its
/// evaluated `ends` to `out`; `None` for a distance of zero length or multipliers missing.
pub(super) fn constraint_hessian<T: Real, const S: usize>(
    c: &Constraint<T>,
    ends: &EvaluatedEnds<'_, '_, T>,
    lambda: &[T],
    row: usize,
    a: T,
    out: &mut Block<'_, T, S>,
) -> Option<()> {
    let l = |i: usize| lambda.get(i).copied().unwrap_or(T::zero());
    match ends {
        EvaluatedEnds::Spatial(m0, m1) => {
            match c {
                Constraint::Joint { axes, .. } => {
                    spatial::joint_hessian(m0, m1, axes, lambda.get(row..)?, a, out)
                }
                _ => spatial::distance_hessian(m0, m1, l(row), a, out),
            }
            Some(())
        }
        EvaluatedEnds::Planar(m0, m1) => planar_hessian(c, m0, m1, [l(row), l(row + 1)], a, out),
        EvaluatedEnds::Coordinates(..) => Some(()), // a coordinate constraint is linear
    }
}

/// Adds `a d(C_q^T lambda)/dq` of planar constraint `c` between the marker states `m0`, `m1`
/// with its multipliers `l` (the first one for a distance) to `out`; `None` for a distance of
/// zero length.
// Out of line: the planar Hessians' temporaries are on the stack only while they run, not in
// the frame of every constraint's evaluation.
#[inline(never)]
pub(super) fn planar_hessian<T: Real, const S: usize>(
    c: &Constraint<T>,
    m0: &MarkerState<T>,
    m1: &MarkerState<T>,
    l: [T; 2],
    a: T,
    out: &mut Block<'_, T, S>,
) -> Option<()> {
    match c {
        Constraint::Distance { .. } => planar::distance_hessian(m0, m1, l[0], a, out)?,
        Constraint::Revolute2D { .. } => {
            planar::revolute_hessian(m0, m1, &Vector2::new(l[0], l[1]), a, out)
        }
        Constraint::Prismatic2D {
            axis_marker0,
            normal_marker1,
            constrain_rotation,
            ..
        } => planar::prismatic_hessian(
            m0,
            m1,
            axis_marker0,
            normal_marker1,
            *constrain_rotation,
            &l,
            a,
            out,
        ),
        Constraint::Coordinate { .. } | Constraint::Joint { .. } => {}
    }
    Some(())
}
