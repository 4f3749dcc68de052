//! A kinematic tree in the system from C (core's `System::add_kinematic_tree`): an `mbs_tree`
//! copied into the system with one rigid-body object per link, so markers, loads, connectors,
//! joints and sensors reach its links; its joint coordinates read and set as vectors of `nv`
//! doubles. Vector lengths are checked before anything is read; outputs are written on success
//! only.

use super::mbs_system;
use crate::boundary::storage_ref;
use crate::boundary::{non_null_out, put, with_mut, with_ref, FfiResult};
use crate::status::status_of;
use crate::status::*;
use crate::tree::dynamics::{input, output};
use crate::tree::{joint_spring, mbs_tree};

/// The number of coordinates of the system's tree: `MBS_ERR_UNKNOWN_INDEX` without one.
fn coordinates(sys: &super::CSystem) -> FfiResult<usize> {
    sys.kinematic_tree()
        .map(|t| t.nv())
        .ok_or(MBS_ERR_UNKNOWN_INDEX)
}

/// Checks an output vector against the tree's length `len`.
fn out_ok(p: *mut f64, n: usize, len: usize) -> FfiResult<()> {
    non_null_out(p)?;
    if n != len {
        return Err(MBS_ERR_INVALID_COORDINATE);
    }
    Ok(())
}

/// Adds the kinematic tree `tree` (copied; later changes to `tree` do not reach the system) at
/// joint coordinates `q[0..nq]` (m or rad) and velocities `v[0..nv]`, with one node and one
/// rigid-body object per link: link `k`'s object is `*first_object + k` (its body frame is the
/// link frame; put `mbs_system_add_marker_body_*` on it). The tree's gravity and joint
/// spring-dampers act; gravity may instead come from mass-proportional loads on the links
/// (then give the tree zero gravity). At most one tree per system, of at most
/// `MBS_SYSTEM_MAX_TREE_LINKS` links, revolute, prismatic and fixed joints only; the system is
/// then stepped with `MBS_SYSTEM_SCHEME_GENERALIZED_ALPHA` only (`mbs_system_assemble` refuses
/// another scheme with `MBS_ERR_NOT_SUPPORTED_BY_SCHEME` at the first link's object).
///
/// The tree's loops (`mbs_tree_add_loop`) come along as joints of the system, the next
/// constraints in the loops' order: a loop to the world as a generic joint from a ground object
/// at the origin (one, added after the links' objects; marker 0 at `point_b`, world axes) to
/// link `a`'s `point_a`, holding the loop's axes with the rotations free; a loop between two
/// links holding all three axes as a spherical joint. Each takes two markers and a constraint.
///
/// Errors (nothing added): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED` (of the system or the tree), `MBS_ERR_INVALID_COORDINATE` (`nq`,
/// `nv` not the tree's), `MBS_ERR_NOT_FINITE`, `MBS_ERR_CAPACITY_FULL` (a tree is there
/// already, more than `MBS_SYSTEM_MAX_TREE_LINKS` links, no room for the links' nodes and
/// objects, the loops' ground object, markers or constraints), `MBS_ERR_NOT_SUPPORTED_BY_SCHEME`
/// (a spherical or free joint; a loop between two links that holds only some world axes, which
/// no joint of the system can hold).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `tree` is null or an `mbs_tree` (not the same storage);
/// `q` is null or `nq` doubles, `v` null or `nv` doubles; `first_object` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_add_kinematic_tree(
    sys: *mut mbs_system,
    tree: *const mbs_tree,
    q: *const f64,
    nq: usize,
    v: *const f64,
    nv: usize,
    first_object: *mut u32,
) -> MbsStatus {
    with_mut(sys, |inner| {
        non_null_out(first_object)?;
        // SAFETY: the caller's guarantee on `tree`.
        let t = unsafe { storage_ref(tree) }?;
        let q = input(q, nq, t.tree.nq())?;
        let v = input(v, nv, t.tree.nv())?;
        let o = inner
            .sys
            .add_kinematic_tree_with_loops(&t.tree, &t.loops, &q[..nq], &v[..nv])
            .map_err(status_of)?;
        put(first_object, u32::from(o.0));
        Ok(MBS_OK)
    })
}

/// The object of link `link` of the system's tree into `*object`.
///
/// Errors (`*object` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX` (no tree, no such link).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `object` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_tree_link_object(
    sys: *const mbs_system,
    link: u32,
    object: *mut u32,
) -> MbsStatus {
    with_ref(sys, |inner| {
        non_null_out(object)?;
        let o = inner
            .sys
            .tree_link_object(link as usize)
            .map_err(status_of)?;
        put(object, u32::from(o.0));
        Ok(MBS_OK)
    })
}

/// The tree's joint coordinates `q` (m or rad), velocities and accelerations (of the last step
/// or start computation) of the current state, each `n` doubles (`n` the tree's number of
/// coordinates).
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX` (no tree), `MBS_ERR_INVALID_COORDINATE`
/// (`n` not the tree's).
///
/// # Safety
/// `sys` is null or an `mbs_system`; `q`, `v`, `q_tt` are null or `n` writable doubles each.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_tree_state(
    sys: *const mbs_system,
    q: *mut f64,
    v: *mut f64,
    q_tt: *mut f64,
    n: usize,
) -> MbsStatus {
    with_ref(sys, |inner| {
        let (tq, tv, ta) = inner.sys.tree_state().ok_or(MBS_ERR_UNKNOWN_INDEX)?;
        for p in [q, v, q_tt] {
            out_ok(p, n, tq.len())?;
        }
        output(q, tq);
        output(v, tv);
        output(q_tt, ta);
        Ok(MBS_OK)
    })
}

/// Sets the tree's joint coordinates `q[0..n]` and velocities `v[0..n]` (e.g. measured); the
/// links follow. With generalized-alpha the next step first computes consistent accelerations
/// and multipliers again.
///
/// Errors (nothing changed): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX` (no tree), `MBS_ERR_INVALID_COORDINATE`
/// (`n` not the tree's), `MBS_ERR_NOT_FINITE`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `q` and `v` are null or `n` doubles each.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_tree_state(
    sys: *mut mbs_system,
    q: *const f64,
    v: *const f64,
    n: usize,
) -> MbsStatus {
    with_mut(sys, |inner| {
        let len = coordinates(&inner.sys)?;
        let q = input(q, n, len)?;
        let v = input(v, n, len)?;
        inner
            .sys
            .set_tree_state(&q[..n], &v[..n])
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}

/// Sets the joint forces `tau[0..n]` (N m or N, one per tree coordinate; Exudyn's
/// `jointForceVector`) that act on the tree from the next step on, until changed: a
/// controller's output each period (the system stays assembled).
///
/// Errors (nothing changed): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX` (no tree), `MBS_ERR_INVALID_COORDINATE`
/// (`n` not the tree's), `MBS_ERR_NOT_FINITE`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `tau` is null or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_tree_joint_forces(
    sys: *mut mbs_system,
    tau: *const f64,
    n: usize,
) -> MbsStatus {
    with_mut(sys, |inner| {
        let len = coordinates(&inner.sys)?;
        let tau = input(tau, n, len)?;
        inner
            .sys
            .set_tree_joint_forces(&tau[..n])
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}

/// Sets the spring-damper of link `link`'s joint in the system's tree (Exudyn's joint P/D
/// control: `stiffness (position_offset - q) + damping (velocity_offset - q_t)`, N m or N): a
/// controller's set point each period (the system stays assembled). As
/// `mbs_tree_set_joint_spring`.
///
/// Errors (nothing changed): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_UNKNOWN_INDEX` (no tree, no such link),
/// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_STIFFNESS_DAMPING` (negative).
///
/// # Safety
/// `sys` is null or an `mbs_system`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_set_tree_joint_spring(
    sys: *mut mbs_system,
    link: u32,
    stiffness: f64,
    damping: f64,
    position_offset: f64,
    velocity_offset: f64,
) -> MbsStatus {
    with_mut(sys, |inner| {
        let spring = joint_spring([stiffness, damping, position_offset, velocity_offset])?;
        inner
            .sys
            .set_tree_joint_spring(link as usize, spring)
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}
