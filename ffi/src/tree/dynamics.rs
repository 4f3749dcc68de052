//! The joint-space algorithms of a tree from C: inverse dynamics (RNEA), the bias forces, the
//! mass matrix (CRBA), forward dynamics (ABA), a time step, link poses, energies, link-point
//! Jacobians and applied link forces; each in double (`mbs_tree_*`) and single precision
//! (`mbs_tree_*_f32`), one generic function behind both.
//!
//! Vectors cross the boundary as pointer and length (`q` of `nq`, `v`, `tau`, `q_tt` of `nv`);
//! a length other than the tree's is `MBS_ERR_INVALID_COORDINATE`, before anything is read.
//! Inputs are copied in before
//! the work and outputs written after it, so an output may be the same array as an input and
//! an error leaves every output untouched.

use super::{mbs_tree, mbs_tree_f32};
use super::{
    Storage, MBS_TREE_MAX_COORDINATES, MBS_TREE_RUNGE_KUTTA_4, MBS_TREE_SEMI_IMPLICIT_EULER,
};
use crate::boundary::with_mut;
use crate::boundary::{finite, finite_result, non_null_out, read, FfiResult};
use crate::convert::vec3;
use crate::status::status_of;
use crate::status::*;
use mbs_core::tree::{LoopSettings, TreeScheme, TreeStepSettings};
use mbs_core::Real;

/// The longest vector: `nq` (and `nv <= nq`).
const C: usize = MBS_TREE_MAX_COORDINATES as usize;

/// A C vector of `n` entries copied in: `MBS_ERR_NULL_POINTER`; `MBS_ERR_INVALID_COORDINATE`
/// unless `n` is the tree's length `len` (checked before anything is read).
pub(crate) fn input<T: Real>(p: *const T, n: usize, len: usize) -> FfiResult<[T; C]> {
    if p.is_null() {
        return Err(MBS_ERR_NULL_POINTER);
    }
    if n != len || n > C {
        return Err(MBS_ERR_INVALID_COORDINATE);
    }
    let mut a = [T::default(); C];
    // SAFETY: non-null; the caller's guarantee of `n` readable entries.
    a[..n].copy_from_slice(unsafe { core::slice::from_raw_parts(p, n) });
    Ok(a)
}

/// Writes `x` to the C array `p` (checked non-null before the work).
pub(crate) fn output<T: Copy>(p: *mut T, x: &[T]) {
    // SAFETY: non-null (checked by the caller), the caller's guarantee of `x.len()` writable
    // entries; `x` is a local copy, so the two do not overlap.
    unsafe { core::slice::from_raw_parts_mut(p, x.len()) }.copy_from_slice(x);
}

/// Checks an output pointer and its length against the tree's `len`.
fn out_ok<T>(p: *mut T, n: usize, len: usize) -> FfiResult<()> {
    non_null_out(p)?;
    if n != len || n > C {
        return Err(MBS_ERR_INVALID_COORDINATE);
    }
    Ok(())
}

fn neutral<S: Storage>(tree: *mut S, q: *mut S::T, nq: usize) -> MbsStatus {
    with_mut(tree, |t| {
        out_ok(q, nq, t.tree.nq())?;
        let mut buf = [<S::T as Default>::default(); C];
        t.tree
            .neutral_configuration(&mut buf[..nq])
            .map_err(status_of)?;
        output(q, &buf[..nq]);
        Ok(MBS_OK)
    })
}

/// The tree's reference configuration (every joint at zero, identity rotations) into
/// `q[0..nq]`.
///
/// Errors (`q` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_COORDINATE` (`nq` is not the tree's).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_neutral_configuration(
    tree: *mut mbs_tree,
    q: *mut f64,
    nq: usize,
) -> MbsStatus {
    neutral(tree, q, nq)
}

/// `mbs_tree_neutral_configuration` in single precision.
///
/// # Safety
/// As `mbs_tree_neutral_configuration`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_neutral_configuration_f32(
    tree: *mut mbs_tree_f32,
    q: *mut f32,
    nq: usize,
) -> MbsStatus {
    neutral(tree, q, nq)
}

#[allow(clippy::too_many_arguments)]
fn rnea<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    v: *const S::T,
    q_tt: *const S::T,
    nv: usize,
    tau: *mut S::T,
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        let v = input(v, nv, t.tree.nv())?;
        let a = input(q_tt, nv, t.tree.nv())?;
        out_ok(tau, nv, t.tree.nv())?;
        let mut out = [<S::T as Default>::default(); C];
        let (tr, d) = (&t.tree, &mut t.data);
        tr.rnea(d, &q[..nq], &v[..nv], &a[..nv], &mut out[..nv])
            .map_err(status_of)?;
        finite_result(&out[..nv])?;
        output(tau, &out[..nv]);
        Ok(MBS_OK)
    })
}

/// Inverse dynamics (the recursive Newton-Euler algorithm): the joint forces `tau[0..nv]`
/// (N m, N) that give the accelerations `q_tt` at the state `q[0..nq]`, `v[0..nv]`, with
/// gravity, the joint spring-dampers and the applied link forces acting too:
/// `tau = M(q) q_tt + b(q, v)`.
///
/// Errors (`tau` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_INVALID_COORDINATE` (a length that is not the tree's),
/// `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_ORIENTATION` (a zero quaternion in `q`),
/// `MBS_ERR_NON_FINITE_STATE` (the result overflows).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `v`, `q_tt` are null or `nv`
/// doubles; `tau` is null or `nv` writable doubles (it may be `v` or `q_tt`).
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_rnea(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    v: *const f64,
    q_tt: *const f64,
    nv: usize,
    tau: *mut f64,
) -> MbsStatus {
    rnea(tree, q, nq, v, q_tt, nv, tau)
}

/// `mbs_tree_rnea` in single precision.
///
/// # Safety
/// As `mbs_tree_rnea`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_rnea_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    v: *const f32,
    q_tt: *const f32,
    nv: usize,
    tau: *mut f32,
) -> MbsStatus {
    rnea(tree, q, nq, v, q_tt, nv, tau)
}

fn bias<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    v: *const S::T,
    nv: usize,
    b: *mut S::T,
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        let v = input(v, nv, t.tree.nv())?;
        out_ok(b, nv, t.tree.nv())?;
        let mut out = [<S::T as Default>::default(); C];
        let (tr, d) = (&t.tree, &mut t.data);
        tr.bias_forces(d, &q[..nq], &v[..nv], &mut out[..nv])
            .map_err(status_of)?;
        finite_result(&out[..nv])?;
        output(b, &out[..nv]);
        Ok(MBS_OK)
    })
}

/// The bias forces `b(q, v)` into `b[0..nv]`: the joint forces that hold the tree at zero
/// acceleration against gravity, the velocity products, the joint spring-dampers and the
/// applied link forces (`M q_tt = tau - b`); with `v = 0`, the gravity compensation.
///
/// Errors (`b` untouched): as `mbs_tree_rnea`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `v` is null or `nv` doubles;
/// `b` is null or `nv` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_bias_forces(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    v: *const f64,
    nv: usize,
    b: *mut f64,
) -> MbsStatus {
    bias(tree, q, nq, v, nv, b)
}

/// `mbs_tree_bias_forces` in single precision.
///
/// # Safety
/// As `mbs_tree_bias_forces`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_bias_forces_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    v: *const f32,
    nv: usize,
    b: *mut f32,
) -> MbsStatus {
    bias(tree, q, nq, v, nv, b)
}

fn mass_matrix<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    m: *mut S::T,
    nv: usize,
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        non_null_out(m)?;
        if nv != t.tree.nv() {
            return Err(MBS_ERR_INVALID_COORDINATE);
        }
        let (tr, d) = (&t.tree, &mut t.data);
        tr.crba(d, &q[..nq]).map_err(status_of)?;
        let mut ok = true;
        for i in 0..nv {
            for j in 0..nv {
                ok &= d.mass_matrix(i, j).is_some_and(|x| x.finite());
            }
        }
        if !ok {
            return Err(MBS_ERR_NON_FINITE_STATE);
        }
        // SAFETY: non-null, the caller's guarantee of `nv * nv` writable entries.
        let out = unsafe { core::slice::from_raw_parts_mut(m, nv * nv) };
        for i in 0..nv {
            for j in 0..nv {
                out[i * nv + j] = d.mass_matrix(i, j).unwrap_or(<S::T as Default>::default());
            }
        }
        Ok(MBS_OK)
    })
}

/// The joint-space mass matrix `M(q)` (the composite-rigid-body algorithm) into
/// `mass[0..nv*nv]`, row-major (`mass[nv*i + j] = M_ij`), symmetric positive definite.
///
/// Errors (`mass` untouched): as `mbs_tree_rnea`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `mass` is null or `nv * nv`
/// writable doubles that do not overlap `q`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_mass_matrix(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    mass: *mut f64,
    nv: usize,
) -> MbsStatus {
    mass_matrix(tree, q, nq, mass, nv)
}

/// `mbs_tree_mass_matrix` in single precision.
///
/// # Safety
/// As `mbs_tree_mass_matrix`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_mass_matrix_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    mass: *mut f32,
    nv: usize,
) -> MbsStatus {
    mass_matrix(tree, q, nq, mass, nv)
}

#[allow(clippy::too_many_arguments)]
fn aba<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    v: *const S::T,
    tau: *const S::T,
    nv: usize,
    q_tt: *mut S::T,
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        let v = input(v, nv, t.tree.nv())?;
        let tau = input(tau, nv, t.tree.nv())?;
        out_ok(q_tt, nv, t.tree.nv())?;
        let mut out = [<S::T as Default>::default(); C];
        let inner = &mut *t;
        let (tr, d) = (&inner.tree, &mut inner.data);
        if inner.loops.is_empty() {
            tr.aba(d, &q[..nq], &v[..nv], &tau[..nv], &mut out[..nv])
        } else {
            let (loops, w) = (&inner.loops, &mut inner.loop_work);
            tr.loop_accelerations(d, loops, w, &q[..nq], &v[..nv], &tau[..nv], &mut out[..nv])
        }
        .map_err(status_of)?;
        finite_result(&out[..nv])?;
        output(q_tt, &out[..nv]);
        Ok(MBS_OK)
    })
}

/// Forward dynamics (the articulated-body algorithm, O(links)): the accelerations
/// `q_tt[0..nv] = M(q)^-1 (tau - b(q, v))` of the joint forces `tau` at the state `q`, `v`;
/// with loops (`mbs_tree_add_loop`), the accelerations with the loops closed (and the loop
/// forces for `mbs_tree_loop_forces`).
///
/// Errors (`q_tt` untouched): as `mbs_tree_rnea`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `v`, `tau` are null or `nv`
/// doubles; `q_tt` is null or `nv` writable doubles (it may be `v` or `tau`).
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_aba(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    v: *const f64,
    tau: *const f64,
    nv: usize,
    q_tt: *mut f64,
) -> MbsStatus {
    aba(tree, q, nq, v, tau, nv, q_tt)
}

/// `mbs_tree_aba` in single precision.
///
/// # Safety
/// As `mbs_tree_aba`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_aba_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    v: *const f32,
    tau: *const f32,
    nv: usize,
    q_tt: *mut f32,
) -> MbsStatus {
    aba(tree, q, nq, v, tau, nv, q_tt)
}

#[allow(clippy::too_many_arguments)]
fn step<S: Storage>(
    tree: *mut S,
    q: *mut S::T,
    nq: usize,
    v: *mut S::T,
    tau: *const S::T,
    nv: usize,
    h: S::T,
    scheme: u32,
    substeps: *mut u32,
) -> MbsStatus {
    with_mut(tree, |t| {
        let mut qb = input(q, nq, t.tree.nq())?;
        let mut vb = input(v, nv, t.tree.nv())?;
        let tau = input(tau, nv, t.tree.nv())?;
        let scheme = match scheme {
            MBS_TREE_SEMI_IMPLICIT_EULER => TreeScheme::SemiImplicitEuler,
            MBS_TREE_RUNGE_KUTTA_4 => TreeScheme::RungeKutta4,
            _ => return Err(MBS_ERR_INVALID_SETTING),
        };
        let h = finite(h)?;
        let settings = TreeStepSettings::with_scheme(scheme);
        let inner = &mut *t;
        let (tr, d) = (&inner.tree, &mut inner.data);
        let (qs, vs, ts) = (&mut qb[..nq], &mut vb[..nv], &tau[..nv]);
        let report = if inner.loops.is_empty() {
            tr.step(d, qs, vs, ts, h, &settings)
        } else {
            let (loops, w) = (&inner.loops, &mut inner.loop_work);
            tr.step_closed(
                d,
                loops,
                w,
                qs,
                vs,
                ts,
                h,
                &settings,
                &LoopSettings::default(),
            )
        }
        .map_err(status_of)?;
        output(q, &qb[..nq]);
        output(v, &vb[..nv]);
        if !substeps.is_null() {
            crate::boundary::put(substeps, report.substeps);
        }
        Ok(MBS_OK)
    })
}

/// Advances `q[0..nq]`, `v[0..nv]` in place by one step of `h` (s) under the joint forces
/// `tau[0..nv]` (held over the step), gravity, the joint spring-dampers and the applied link
/// forces: `scheme` `MBS_TREE_SEMI_IMPLICIT_EULER` (order 1, the joint damping linearly
/// implicit, ABA once) or `MBS_TREE_RUNGE_KUTTA_4` (order 4, ABA four times). A step whose
/// fastest joint would turn more than 0.5 rad is split into equal sub-steps (at most 64);
/// their number goes to `*substeps` (may be NULL). With loops (`mbs_tree_add_loop`), the
/// accelerations close them and each (sub-)step ends by projecting `q` and `v` onto them.
///
/// Errors (`q`, `v`, `*substeps` untouched): as `mbs_tree_rnea`, and
/// `MBS_ERR_SINGULAR_MATRIX`, `MBS_ERR_NEWTON_NOT_CONVERGED` (loops), and
/// `MBS_ERR_INVALID_TIME_STEP` (`h <= 0`), `MBS_ERR_INVALID_SETTING` (scheme),
/// `MBS_ERR_INVALID_VELOCITY` (more than 64 sub-steps needed).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` writable doubles; `v` is null or `nv`
/// writable doubles; `tau` is null or `nv` doubles; `substeps` is null or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mbs_tree_step(
    tree: *mut mbs_tree,
    q: *mut f64,
    nq: usize,
    v: *mut f64,
    tau: *const f64,
    nv: usize,
    h: f64,
    scheme: u32,
    substeps: *mut u32,
) -> MbsStatus {
    step(tree, q, nq, v, tau, nv, h, scheme, substeps)
}

/// `mbs_tree_step` in single precision.
///
/// # Safety
/// As `mbs_tree_step`, with floats.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mbs_tree_step_f32(
    tree: *mut mbs_tree_f32,
    q: *mut f32,
    nq: usize,
    v: *mut f32,
    tau: *const f32,
    nv: usize,
    h: f32,
    scheme: u32,
    substeps: *mut u32,
) -> MbsStatus {
    step(tree, q, nq, v, tau, nv, h, scheme, substeps)
}

fn link_pose<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    link: u32,
    rotation: *mut [S::T; 9],
    position: *mut [S::T; 3],
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        non_null_out(rotation)?;
        non_null_out(position)?;
        if link as usize >= t.tree.links().len() {
            return Err(MBS_ERR_UNKNOWN_INDEX);
        }
        let (tr, d) = (&t.tree, &mut t.data);
        tr.forward_kinematics(d, &q[..nq], None)
            .map_err(status_of)?;
        let x = d.link_pose(link as usize).ok_or(MBS_ERR_UNKNOWN_INDEX)?;
        let r = crate::convert::mat3_to_rows(&x.rotation);
        let p = [x.translation.x, x.translation.y, x.translation.z];
        crate::boundary::put(rotation, r);
        crate::boundary::put(position, p);
        Ok(MBS_OK)
    })
}

/// The world pose of `link` at `q[0..nq]` (forward kinematics): `rotation` (row-major, link to
/// world coordinates) and `position` (m, the link frame's origin).
///
/// Errors (outputs untouched): as `mbs_tree_rnea`, and `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `rotation` is null or 9,
/// `position` null or 3 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_link_pose(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    link: u32,
    rotation: *mut f64,
    position: *mut f64,
) -> MbsStatus {
    link_pose(tree, q, nq, link, rotation.cast(), position.cast())
}

/// `mbs_tree_link_pose` in single precision.
///
/// # Safety
/// As `mbs_tree_link_pose`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_link_pose_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    link: u32,
    rotation: *mut f32,
    position: *mut f32,
) -> MbsStatus {
    link_pose(tree, q, nq, link, rotation.cast(), position.cast())
}

#[allow(clippy::too_many_arguments)]
fn energy<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    v: *const S::T,
    nv: usize,
    kinetic: *mut S::T,
    potential: *mut S::T,
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        let v = input(v, nv, t.tree.nv())?;
        non_null_out(kinetic)?;
        non_null_out(potential)?;
        let (tr, d) = (&t.tree, &mut t.data);
        tr.forward_kinematics(d, &q[..nq], Some(&v[..nv]))
            .map_err(status_of)?;
        let e = [tr.kinetic_energy(d), tr.potential_energy(d, &q[..nq])];
        finite_result(&e)?;
        crate::boundary::put(kinetic, e[0]);
        crate::boundary::put(potential, e[1]);
        Ok(MBS_OK)
    })
}

/// The kinetic energy (J) into `*kinetic` and the potential energy (J; gravity, zero at the
/// world origin, and the joint springs) into `*potential` at the state `q`, `v`.
///
/// Errors (outputs untouched): as `mbs_tree_rnea`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `v` is null or `nv` doubles;
/// `kinetic`, `potential` are null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_energy(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    v: *const f64,
    nv: usize,
    kinetic: *mut f64,
    potential: *mut f64,
) -> MbsStatus {
    energy(tree, q, nq, v, nv, kinetic, potential)
}

/// `mbs_tree_energy` in single precision.
///
/// # Safety
/// As `mbs_tree_energy`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_energy_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    v: *const f32,
    nv: usize,
    kinetic: *mut f32,
    potential: *mut f32,
) -> MbsStatus {
    energy(tree, q, nq, v, nv, kinetic, potential)
}

#[allow(clippy::too_many_arguments)]
fn point_jacobian<S: Storage>(
    tree: *mut S,
    q: *const S::T,
    nq: usize,
    link: u32,
    point: *const [S::T; 3],
    jac: *mut S::T,
    nv: usize,
) -> MbsStatus {
    with_mut(tree, |t| {
        let q = input(q, nq, t.tree.nq())?;
        // SAFETY: the caller's guarantee on `point`.
        let point = vec3(&unsafe { read(point) }?)?;
        out_ok(jac, nv, t.tree.nv())?;
        if nv != t.tree.nv() {
            return Err(MBS_ERR_INVALID_COORDINATE);
        }
        let mut out = [<S::T as Default>::default(); 6 * C];
        let (tr, d) = (&t.tree, &mut t.data);
        tr.forward_kinematics(d, &q[..nq], None)
            .map_err(status_of)?;
        tr.point_jacobian(d, link as usize, &point, &mut out[..6 * nv])
            .map_err(status_of)?;
        finite_result(&out[..6 * nv])?;
        output(jac, &out[..6 * nv]);
        Ok(MBS_OK)
    })
}

/// The Jacobian of a link point at `q[0..nq]` into `jac[0..6*nv]` (row-major, 6 rows of `nv`):
/// rows 0-2 map `v` to the link's angular velocity (world), rows 3-5 to the velocity of
/// `point` (m, link coordinates) in the world.
///
/// Errors (`jac` untouched): as `mbs_tree_rnea`, and `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `q` is null or `nq` doubles; `point` is null or 3 doubles;
/// `jac` is null or `6 * nv` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_point_jacobian(
    tree: *mut mbs_tree,
    q: *const f64,
    nq: usize,
    link: u32,
    point: *const f64,
    jac: *mut f64,
    nv: usize,
) -> MbsStatus {
    point_jacobian(tree, q, nq, link, point.cast(), jac, nv)
}

/// `mbs_tree_point_jacobian` in single precision.
///
/// # Safety
/// As `mbs_tree_point_jacobian`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_point_jacobian_f32(
    tree: *mut mbs_tree_f32,
    q: *const f32,
    nq: usize,
    link: u32,
    point: *const f32,
    jac: *mut f32,
    nv: usize,
) -> MbsStatus {
    point_jacobian(tree, q, nq, link, point.cast(), jac, nv)
}

fn set_link_force<S: Storage>(
    tree: *mut S,
    link: u32,
    force: *const [S::T; 3],
    point: *const [S::T; 3],
) -> MbsStatus {
    with_mut(tree, |t| {
        // SAFETY: the caller's guarantee on `force` and `point`.
        let f = vec3(&unsafe { read(force) }?)?;
        // SAFETY: as above.
        let p = vec3(&unsafe { read(point) }?)?;
        if link as usize >= t.tree.links().len() {
            return Err(MBS_ERR_UNKNOWN_INDEX);
        }
        t.data.set_link_force(link as usize, f, p);
        Ok(MBS_OK)
    })
}

/// Applies `force` (N) through the link point `point` (m), both in `link`'s coordinates, from
/// now on (until replaced or `mbs_tree_clear_link_forces`): RNEA, the bias forces, ABA and
/// the steps count it.
///
/// Errors (nothing changed): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `force`, `point` are null or 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_set_link_force(
    tree: *mut mbs_tree,
    link: u32,
    force: *const f64,
    point: *const f64,
) -> MbsStatus {
    set_link_force(tree, link, force.cast(), point.cast())
}

/// `mbs_tree_set_link_force` in single precision.
///
/// # Safety
/// As `mbs_tree_set_link_force`, with floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_set_link_force_f32(
    tree: *mut mbs_tree_f32,
    link: u32,
    force: *const f32,
    point: *const f32,
) -> MbsStatus {
    set_link_force(tree, link, force.cast(), point.cast())
}

/// Removes every applied link force.
///
/// Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_clear_link_forces(tree: *mut mbs_tree) -> MbsStatus {
    with_mut(tree, |t| {
        t.data.clear_wrenches();
        Ok(MBS_OK)
    })
}

/// `mbs_tree_clear_link_forces` in single precision.
///
/// # Safety
/// `tree` is null or an `mbs_tree_f32`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_clear_link_forces_f32(tree: *mut mbs_tree_f32) -> MbsStatus {
    with_mut(tree, |t| {
        t.data.clear_wrenches();
        Ok(MBS_OK)
    })
}
