//! Closed loops of a tree from C: a link point held on another link's (or a world) point along
//! chosen world axes (`mbs_tree_add_loop`). Once a tree has loops, `mbs_tree_aba` returns the
//! accelerations with the loops closed and `mbs_tree_step` steps them and projects `q`, `v`
//! back onto the loops; `mbs_tree_project_loops` makes a start state consistent;
//! `mbs_tree_loop_forces` reads the loop forces. RNEA, the bias forces and the mass matrix are
//! those of the open tree.

use super::{mbs_tree, mbs_tree_f32, Storage};
use crate::boundary::with_mut;
use crate::boundary::{non_null_out, read};
use crate::convert::{flag, vec3, MbsFlag};
use crate::status::status_of;
use crate::status::*;
use crate::system::MBS_NO_INDEX;
use mbs_core::tree::{LoopClosure, LoopSettings};

/// A loop closure, as `mbs_tree_add_loop` takes it: `point_a` of `link_a` held on `point_b` of
/// `link_b` (or on the world point `point_b` for `MBS_NO_INDEX`) along the world axes whose flag
/// is 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_tree_loop_of<T> {
    /// The first link.
    pub link_a: u32,
    /// The point on it (m, link coordinates).
    pub point_a: [T; 3],
    /// The second link, or `MBS_NO_INDEX` for the world.
    pub link_b: u32,
    /// The point on it (m, link coordinates; world coordinates for the world).
    pub point_b: [T; 3],
    /// The world axes x, y, z held (0 or 1 each; a planar loop in the x-y plane holds x and y).
    pub axes: [MbsFlag; 3],
}

/// A loop closure in double precision.
pub type mbs_tree_loop = mbs_tree_loop_of<f64>;
/// A loop closure in single precision.
pub type mbs_tree_loop_f32 = mbs_tree_loop_of<f32>;

fn add_loop<S: Storage>(
    tree: *mut S,
    closure: *const mbs_tree_loop_of<S::T>,
    index: *mut u32,
) -> MbsStatus {
    with_mut(tree, |t| {
        // SAFETY: the caller's guarantee on `closure`.
        let c = unsafe { read(closure) }?;
        non_null_out(index)?;
        let l = LoopClosure {
            link_a: c.link_a as usize,
            point_a: vec3(&c.point_a)?,
            link_b: match c.link_b {
                MBS_NO_INDEX => None,
                b => Some(b as usize),
            },
            point_b: vec3(&c.point_b)?,
            axes: [flag(c.axes[0])?, flag(c.axes[1])?, flag(c.axes[2])?],
        };
        let mut all = t.loops.clone();
        all.push(l).map_err(|_| MBS_ERR_CAPACITY_FULL)?;
        t.tree
            .check_loops::<{ super::MBS_TREE_MAX_LOOP_ROWS as usize }>(&all)
            .map_err(status_of)?;
        t.loops = all;
        crate::boundary::put(index, (t.loops.len() - 1) as u32);
        Ok(MBS_OK)
    })
}

/// Adds a loop closure (see `mbs_tree_loop`) and writes its index to `*index`. From then on
/// `mbs_tree_aba` and `mbs_tree_step` close the tree's loops.
///
/// Errors (nothing added, `*index` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_ARGUMENT` (a flag not 0 or
/// 1), `MBS_ERR_UNKNOWN_INDEX` (a link), `MBS_ERR_INVALID_COORDINATE` (no axis held),
/// `MBS_ERR_CAPACITY_FULL` (more than `MBS_TREE_MAX_LOOP_ROWS` rows). Redundant loops are
/// refused by the algorithms (`MBS_ERR_SINGULAR_MATRIX`).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `closure` is null or readable; `index` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_add_loop(
    tree: *mut mbs_tree,
    closure: *const mbs_tree_loop,
    index: *mut u32,
) -> MbsStatus {
    add_loop(tree, closure, index)
}

/// `mbs_tree_add_loop` in single precision.
///
/// # Safety
/// As `mbs_tree_add_loop`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_add_loop_f32(
    tree: *mut mbs_tree_f32,
    closure: *const mbs_tree_loop_f32,
    index: *mut u32,
) -> MbsStatus {
    add_loop(tree, closure, index)
}

fn project<S: Storage>(
    tree: *mut S,
    q: *mut S::T,
    nq: usize,
    v: *mut S::T,
    nv: usize,
) -> MbsStatus {
    with_mut(tree, |t| {
        let mut qb = super::dynamics::input(q, nq, t.tree.nq())?;
        let mut vb = super::dynamics::input(v, nv, t.tree.nv())?;
        let inner = &mut *t;
        inner
            .tree
            .project_loops(
                &mut inner.data,
                &inner.loops,
                &mut inner.loop_work,
                &mut qb[..nq],
                &mut vb[..nv],
                &LoopSettings::default(),
            )
            .map_err(status_of)?;
        super::dynamics::output(q, &qb[..nq]);
        super::dynamics::output(v, &vb[..nv]);
        Ok(MBS_OK)
    })
}

/// Puts `q[0..nq]` on the loops (Newton, the least change in the metric of the mass matrix,
/// to 1e-10 m in double, 1e-5 m in single precision) and then `v[0..nv]` on their velocities:
/// a consistent start.
///
/// Errors (`q`, `v` untouched): as `mbs_tree_rnea`, and `MBS_ERR_SINGULAR_MATRIX` (redundant
/// loops), `MBS_ERR_NEWTON_NOT_CONVERGED` (no consistent position near `q` in 8 iterations).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` writable doubles; `v` is null or `nv`
/// writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_project_loops(
    tree: *mut mbs_tree,
    q: *mut f64,
    nq: usize,
    v: *mut f64,
    nv: usize,
) -> MbsStatus {
    project(tree, q, nq, v, nv)
}

/// `mbs_tree_project_loops` in single precision.
///
/// # Safety
/// As `mbs_tree_project_loops`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_project_loops_f32(
    tree: *mut mbs_tree_f32,
    q: *mut f32,
    nq: usize,
    v: *mut f32,
    nv: usize,
) -> MbsStatus {
    project(tree, q, nq, v, nv)
}

fn loop_forces<S: Storage>(tree: *mut S, out: *mut S::T, n: usize, rows: *mut u32) -> MbsStatus {
    with_mut(tree, |t| {
        non_null_out(rows)?;
        let f = t.loop_work.forces();
        if f.len() > n || (out.is_null() && !f.is_empty()) {
            return Err(if out.is_null() {
                MBS_ERR_NULL_POINTER
            } else {
                MBS_ERR_INVALID_COORDINATE
            });
        }
        if !f.is_empty() {
            super::dynamics::output(out, f);
        }
        crate::boundary::put(rows, f.len() as u32);
        Ok(MBS_OK)
    })
}

/// The loop forces of the last `mbs_tree_aba` or `mbs_tree_step` with loops (N, world
/// coordinates, the force on each loop's `link_a`, one per held axis, loops in order) into
/// `out[0..rows]`, and their number into `*rows` (0 before any).
///
/// Errors (nothing written): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_COORDINATE` (`n` below the rows).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `out` is null or `n` writable doubles; `rows` is null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_loop_forces(
    tree: *mut mbs_tree,
    out: *mut f64,
    n: usize,
    rows: *mut u32,
) -> MbsStatus {
    loop_forces(tree, out, n, rows)
}

/// `mbs_tree_loop_forces` in single precision.
///
/// # Safety
/// As `mbs_tree_loop_forces`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_loop_forces_f32(
    tree: *mut mbs_tree_f32,
    out: *mut f32,
    n: usize,
    rows: *mut u32,
) -> MbsStatus {
    loop_forces(tree, out, n, rows)
}
