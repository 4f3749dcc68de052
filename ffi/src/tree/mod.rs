//! Kinematic trees from C: caller-owned storage (`mbs_tree` in double, `mbs_tree_f32` in
//! single precision), building a tree link by link, and the joint-space algorithms
//! ([`dynamics`]).
//!
//! ```text
//! mbs_tree_aba[_f32] -> dynamics::aba: checked storage, pointers and lengths
//!   -> KinematicTree::aba (core, tree/aba.rs): checks, then the three sweeps
//! ```
//!
//! # Storage
//! C declares the storage (`mbs_tree arm;`, static or local) and calls `mbs_tree_init`; nothing
//! is allocated. It holds core's `KinematicTree<T, 32, 48>` and its `TreeData` (capacity
//! `MBS_TREE_MAX_LINKS` links, `MBS_TREE_MAX_COORDINATES` position coordinates), behind a tag
//! that `mbs_tree_init` writes. Its size is a header constant, checked against the Rust type at
//! compile time.

pub mod dynamics;
pub mod loops;

use crate::boundary::{guard, init_storage, placed, read, with_mut, CStorage, FfiResult};
use crate::convert::{mat3, vec3};
use crate::status::status_of;
use crate::status::*;
use crate::storage_header::Header;
use crate::system::MBS_NO_INDEX;
use core::mem::{align_of, size_of};
use mbs_core::inertia::MassProperties;
use mbs_core::tree::{
    Joint, JointSpring, KinematicTree, LoopClosure, LoopWork, Transform, TreeData,
};
use mbs_core::Real;

/// Capacity of an `mbs_tree`: links.
pub const MBS_TREE_MAX_LINKS: u32 = 32;
/// Capacity of an `mbs_tree`: loop-closure rows (`mbs_tree_add_loop`; a loop has one row per
/// held axis, at most 3).
pub const MBS_TREE_MAX_LOOP_ROWS: u32 = 12;
/// Capacity of an `mbs_tree`: position coordinates `nq` (a revolute or prismatic joint has 1,
/// a spherical joint 4, a free joint 7; `nv <= nq`).
pub const MBS_TREE_MAX_COORDINATES: u32 = 48;

/// Joint type of `mbs_tree_link::joint`: rotation about `axis` (1 coordinate, rad).
pub const MBS_JOINT_REVOLUTE: u32 = 0;
/// Joint type: translation along `axis` (1 coordinate, m).
pub const MBS_JOINT_PRISMATIC: u32 = 1;
/// Joint type: welded to the parent (no coordinate).
pub const MBS_JOINT_FIXED: u32 = 2;
/// Joint type: ball joint; q a unit quaternion `[w, x, y, z]` (link in joint frame), v the
/// relative angular velocity in link coordinates (rad/s).
pub const MBS_JOINT_SPHERICAL: u32 = 3;
/// Joint type: six degrees of freedom (a floating base); q = position (m, joint-frame
/// coordinates) then a unit quaternion; v = `[w; v]`, the relative angular velocity and the
/// velocity of the link origin, both in link coordinates.
pub const MBS_JOINT_FREE: u32 = 4;

/// `mbs_tree_step` scheme: semi-implicit Euler, the joint damping linearly implicit.
pub const MBS_TREE_SEMI_IMPLICIT_EULER: u32 = 0;
/// `mbs_tree_step` scheme: the classical Runge-Kutta method of order 4.
pub const MBS_TREE_RUNGE_KUTTA_4: u32 = 1;

/// One link of a tree and its joint, as `mbs_tree_add_link` takes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_tree_link_of<T> {
    /// The parent: an earlier link's index, or `MBS_NO_INDEX` for the base (the world).
    pub parent: u32,
    /// `MBS_JOINT_REVOLUTE`, `_PRISMATIC`, `_FIXED`, `_SPHERICAL` or `_FREE`.
    pub joint: u32,
    /// The joint axis (revolute, prismatic; any length but zero), joint-frame coordinates.
    pub axis: [T; 3],
    /// The joint frame's rotation in the parent link frame (world for the base), row-major:
    /// parent coordinates = rotation * joint-frame coordinates. Orthonormal, det +1.
    pub rotation: [T; 9],
    /// The joint frame's origin in the parent link frame (m).
    pub position: [T; 3],
    /// The link's mass (kg), > 0.
    pub mass: T,
    /// The link's centre of mass (m, link frame; the link frame is the joint frame moved by the
    /// joint).
    pub com: [T; 3],
    /// The link's inertia tensor about its centre of mass (kg m^2, link frame, row-major):
    /// symmetric, positive definite, every principal moment above `max(1e-6, 256 eps)` times
    /// the trace (`MBS_ERR_INVALID_INERTIA` otherwise: a joint about an axis without inertia
    /// would make the dynamics singular).
    pub inertia: [T; 9],
}

/// A tree link in double precision.
pub type mbs_tree_link = mbs_tree_link_of<f64>;
/// A tree link in single precision.
pub type mbs_tree_link_f32 = mbs_tree_link_of<f32>;

/// The core tree behind an `mbs_tree` / `mbs_tree_f32`.
pub type CTree<T> =
    KinematicTree<T, { MBS_TREE_MAX_LINKS as usize }, { MBS_TREE_MAX_COORDINATES as usize }>;
/// Its data.
pub type CTreeData<T> =
    TreeData<T, { MBS_TREE_MAX_LINKS as usize }, { MBS_TREE_MAX_COORDINATES as usize }>;

/// The loop work of an `mbs_tree`.
pub type CLoopWork<T> =
    LoopWork<T, { MBS_TREE_MAX_COORDINATES as usize }, { MBS_TREE_MAX_LOOP_ROWS as usize }>;

/// What an `mbs_tree` holds: the header first (found at the start by any build), then the
/// tree, its data, its loops.
#[repr(C)]
pub(crate) struct Inner<T> {
    header: Header,
    pub tree: CTree<T>,
    pub data: CTreeData<T>,
    /// The loop closures (`mbs_tree_add_loop`); the algorithms close them when there are any.
    pub loops: heapless::Vec<LoopClosure<T>, { MBS_TREE_MAX_LOOP_ROWS as usize }>,
    pub loop_work: CLoopWork<T>,
}

/// Size of the `mbs_tree` storage in 8-byte words (`MBS_TREE_SIZE / 8`).
pub const MBS_TREE_WORDS: usize = 11998;
/// Size of the `mbs_tree` storage (bytes), double precision, on a 64-bit host (checked at
/// compile time).
pub const MBS_TREE_SIZE: usize = 95984;
/// Size of the `mbs_tree_f32` storage in 8-byte words (`MBS_TREE_F32_SIZE / 8`).
pub const MBS_TREE_F32_WORDS: usize = 6131;
/// Size of the `mbs_tree_f32` storage (bytes), single precision, on a 64-bit host.
pub const MBS_TREE_F32_SIZE: usize = 49048;
/// Alignment the tree storages need (bytes).
pub const MBS_TREE_ALIGN: usize = 8;

/// Storage for one kinematic tree in double precision, declared by the caller (no malloc):
/// capacity `MBS_TREE_MAX_LINKS` (32) links and `MBS_TREE_MAX_COORDINATES` (48) coordinates,
/// `MBS_TREE_SIZE` bytes, aligned to `MBS_TREE_ALIGN` (a declared `mbs_tree` is). Call
/// `mbs_tree_init`, add links, then call the algorithms with the joint vectors; call
/// `mbs_tree_deinit` before the storage is reused. The contents are private (init writes zeros
/// over every byte, then the empty tree; only the padding between fields, a few bytes, and
/// inside the links added later may hold any bytes); one tree is not used from two threads at
/// once.
#[repr(C)]
pub struct mbs_tree {
    /// Private.
    pub _opaque: [u64; MBS_TREE_WORDS],
}

/// Storage for one kinematic tree in single precision (for FPUs without double, e.g. the
/// Cortex-M4F): as `mbs_tree`, `MBS_TREE_F32_SIZE` bytes; used with the `mbs_tree_*_f32`
/// functions.
#[repr(C)]
pub struct mbs_tree_f32 {
    /// Private.
    pub _opaque: [u64; MBS_TREE_F32_WORDS],
}

const _: () = assert!(size_of::<Inner<f64>>() <= MBS_TREE_SIZE);
const _: () = assert!(size_of::<Inner<f32>>() <= MBS_TREE_F32_SIZE);
const _: () = assert!(align_of::<Inner<f64>>() <= MBS_TREE_ALIGN);
const _: () = assert!(align_of::<Inner<f32>>() <= MBS_TREE_ALIGN);
const _: () = assert!(core::mem::offset_of!(Inner<f64>, header) == 0);
const _: () = assert!(MBS_TREE_WORDS * 8 == MBS_TREE_SIZE);
const _: () = assert!(MBS_TREE_F32_WORDS * 8 == MBS_TREE_F32_SIZE);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(MBS_TREE_SIZE - size_of::<Inner<f64>>() < 64);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(MBS_TREE_F32_SIZE - size_of::<Inner<f32>>() < 64);

/// A tree storage (`mbs_tree`, `mbs_tree_f32`) and its scalar.
pub(crate) trait Storage: CStorage<Inner = Inner<Self::T>> {
    type T: Real;
}
impl CStorage for mbs_tree {
    type Inner = Inner<f64>;
    const HEADER: Header = Header::new(0x6d62_735f_7472_6531, size_of::<Inner<f64>>()); // "mbs_tre1"
}
impl Storage for mbs_tree {
    type T = f64;
}
impl CStorage for mbs_tree_f32 {
    type Inner = Inner<f32>;
    const HEADER: Header = Header::new(0x6d62_735f_7472_6631, size_of::<Inner<f32>>()); // "mbs_trf1"
}
impl Storage for mbs_tree_f32 {
    type T = f32;
}

fn init<S: Storage>(tree: *mut S, gravity: *const [S::T; 3]) -> MbsStatus {
    guard(|| {
        let p = match placed(tree) {
            Ok(p) => p,
            Err(s) => return s,
        };
        // SAFETY: the caller's guarantee on `gravity`.
        let g = match unsafe { read(gravity) }.and_then(|g| vec3(&g)) {
            Ok(g) => g,
            Err(s) => return s,
        };
        init_storage::<S>(
            p,
            Inner {
                header: S::HEADER,
                tree: match CTree::<S::T>::new(g) {
                    Ok(t) => t,
                    Err(e) => return status_of(e),
                },
                data: CTreeData::new(),
                loops: heapless::Vec::new(),
                loop_work: CLoopWork::new(),
            },
            core::mem::offset_of!(Inner<S::T>, loop_work) + size_of::<CLoopWork<S::T>>(),
        );
        // The vectors' unused slots came with the values written (bytes of the stack).
        // SAFETY: just written.
        let inner = unsafe { &mut *p };
        inner.tree.zero_unused_capacity();
        for slot in inner.loops.spare_capacity_mut() {
            *slot = core::mem::MaybeUninit::zeroed();
        }
        MBS_OK
    })
}

/// `MBS_TREE_SIZE`, for bindings that cannot read the header's constants.
#[no_mangle]
pub extern "C" fn mbs_tree_storage_size() -> usize {
    MBS_TREE_SIZE
}

/// `MBS_TREE_F32_SIZE`, for bindings that cannot read the header's constants.
#[no_mangle]
pub extern "C" fn mbs_tree_f32_storage_size() -> usize {
    MBS_TREE_F32_SIZE
}

/// Writes an empty tree under `gravity` (m/s^2, world, `double[3]`) into `*tree`; any tree
/// there before is forgotten.
///
/// Errors (`*tree` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE` (misaligned),
/// `MBS_ERR_NOT_FINITE` (gravity).
///
/// # Safety
/// `tree` is null or points to `MBS_TREE_SIZE` writable bytes; `gravity` is null or 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_init(tree: *mut mbs_tree, gravity: *const f64) -> MbsStatus {
    init(tree, gravity.cast())
}

/// `mbs_tree_init` in single precision.
///
/// # Safety
/// `tree` is null or points to `MBS_TREE_F32_SIZE` writable bytes; `gravity` is null or 3
/// floats.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_init_f32(
    tree: *mut mbs_tree_f32,
    gravity: *const f32,
) -> MbsStatus {
    init(tree, gravity.cast())
}

/// Ends the life of the tree in `*tree`: later calls with the storage are
/// `MBS_ERR_NOT_INITIALIZED` until `mbs_tree_init`.
///
/// Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_deinit(tree: *mut mbs_tree) -> MbsStatus {
    with_mut(tree, |t| {
        t.header = Header::CLEARED;
        Ok(MBS_OK)
    })
}

/// `mbs_tree_deinit` in single precision.
///
/// # Safety
/// `tree` is null or an `mbs_tree_f32`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_deinit_f32(tree: *mut mbs_tree_f32) -> MbsStatus {
    with_mut(tree, |t| {
        t.header = Header::CLEARED;
        Ok(MBS_OK)
    })
}

fn add_link<S: Storage>(
    tree: *mut S,
    link: *const mbs_tree_link_of<S::T>,
    index: *mut u32,
) -> MbsStatus {
    with_mut(tree, |t| {
        // SAFETY: the caller's guarantee on `link`.
        let l = unsafe { read(link) }?;
        crate::boundary::non_null_out(index)?;
        let parent = match l.parent {
            MBS_NO_INDEX => None,
            p => Some(p as usize),
        };
        let axis = vec3(&l.axis)?;
        let joint = match l.joint {
            MBS_JOINT_REVOLUTE => Joint::Revolute { axis },
            MBS_JOINT_PRISMATIC => Joint::Prismatic { axis },
            MBS_JOINT_FIXED => Joint::Fixed,
            MBS_JOINT_SPHERICAL => Joint::Spherical,
            MBS_JOINT_FREE => Joint::Free,
            _ => return Err(MBS_ERR_INVALID_ARGUMENT),
        };
        let placement = Transform::new(mat3(&l.rotation)?, vec3(&l.position)?);
        let mp = MassProperties {
            mass: crate::boundary::finite(l.mass)?,
            com: vec3(&l.com)?,
            inertia: mat3(&l.inertia)?,
        };
        let i = t
            .tree
            .add_link(parent, joint, placement, &mp)
            .map_err(status_of)?;
        crate::boundary::put(index, i as u32);
        Ok(MBS_OK)
    })
}

/// Adds a link on its joint (see `mbs_tree_link`) and writes its index to `*index`. Links are
/// numbered in order; a parent is an earlier link.
///
/// Errors (nothing added, `*index` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX` (a parent that is
/// not an earlier link), `MBS_ERR_INVALID_ARGUMENT` (joint type), `MBS_ERR_INVALID_DIRECTION`
/// (a zero axis), `MBS_ERR_INVALID_ORIENTATION` (rotation not orthonormal with det +1),
/// `MBS_ERR_INVALID_MASS` (mass not > 0), `MBS_ERR_INVALID_INERTIA` (not symmetric positive
/// definite), `MBS_ERR_CAPACITY_FULL` (`MBS_TREE_MAX_LINKS` links or
/// `MBS_TREE_MAX_COORDINATES` coordinates).
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `link` is null or readable; `index` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_add_link(
    tree: *mut mbs_tree,
    link: *const mbs_tree_link,
    index: *mut u32,
) -> MbsStatus {
    add_link(tree, link, index)
}

/// `mbs_tree_add_link` in single precision.
///
/// # Safety
/// As `mbs_tree_add_link`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_add_link_f32(
    tree: *mut mbs_tree_f32,
    link: *const mbs_tree_link_f32,
    index: *mut u32,
) -> MbsStatus {
    add_link(tree, link, index)
}

/// The joint spring of the C arguments `[stiffness, damping, position_offset,
/// velocity_offset]`: `MBS_ERR_NOT_FINITE` for a NaN or infinite one.
pub(crate) fn joint_spring<T: Real>(spring: [T; 4]) -> FfiResult<JointSpring<T>> {
    crate::boundary::all_finite(&spring)?;
    let [stiffness, damping, position_offset, velocity_offset] = spring;
    Ok(JointSpring {
        stiffness,
        damping,
        position_offset,
        velocity_offset,
    })
}

fn set_joint_spring<S: Storage>(tree: *mut S, link: u32, spring: [S::T; 4]) -> MbsStatus {
    with_mut(tree, |t| {
        t.tree
            .set_joint_spring(link as usize, joint_spring(spring)?)
            .map_err(status_of)?;
        Ok(MBS_OK)
    })
}

/// Sets the spring-damper of `link`'s joint (Exudyn's `ObjectKinematicTree` control
/// vectors): the generalized force `stiffness (position_offset - q) + damping
/// (velocity_offset - q_t)` on each of its coordinates (N m or N). Stiffness and position
/// offset only for a revolute or prismatic joint.
///
/// Errors (nothing changed): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`, `MBS_ERR_NOT_FINITE`, `MBS_ERR_UNKNOWN_INDEX`,
/// `MBS_ERR_INVALID_STIFFNESS_DAMPING` (negative, or a stiffness or offset on a joint without a
/// scalar position).
///
/// # Safety
/// `tree` is null or an `mbs_tree`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_set_joint_spring(
    tree: *mut mbs_tree,
    link: u32,
    stiffness: f64,
    damping: f64,
    position_offset: f64,
    velocity_offset: f64,
) -> MbsStatus {
    set_joint_spring(
        tree,
        link,
        [stiffness, damping, position_offset, velocity_offset],
    )
}

/// `mbs_tree_set_joint_spring` in single precision.
///
/// # Safety
/// `tree` is null or an `mbs_tree_f32`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_set_joint_spring_f32(
    tree: *mut mbs_tree_f32,
    link: u32,
    stiffness: f32,
    damping: f32,
    position_offset: f32,
    velocity_offset: f32,
) -> MbsStatus {
    set_joint_spring(
        tree,
        link,
        [stiffness, damping, position_offset, velocity_offset],
    )
}

fn counts<S: Storage>(tree: *mut S, nq: *mut u32, nv: *mut u32) -> MbsStatus {
    with_mut(tree, |t| {
        crate::boundary::non_null_out(nq)?;
        crate::boundary::non_null_out(nv)?;
        crate::boundary::put(nq, t.tree.nq() as u32);
        crate::boundary::put(nv, t.tree.nv() as u32);
        Ok(MBS_OK)
    })
}

/// The tree's number of position coordinates into `*nq` and of velocity coordinates (degrees
/// of freedom, the length of v, tau and q_tt) into `*nv`.
///
/// Errors (nothing written): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `tree` is null or an `mbs_tree`; `nq`, `nv` are null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_counts(
    tree: *mut mbs_tree,
    nq: *mut u32,
    nv: *mut u32,
) -> MbsStatus {
    counts(tree, nq, nv)
}

/// `mbs_tree_counts` in single precision.
///
/// # Safety
/// As `mbs_tree_counts`.
#[no_mangle]
pub unsafe extern "C" fn mbs_tree_counts_f32(
    tree: *mut mbs_tree_f32,
    nq: *mut u32,
    nv: *mut u32,
) -> MbsStatus {
    counts(tree, nq, nv)
}
