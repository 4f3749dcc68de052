//! The whole system from C: caller-owned storage (`mbs_system`), its initialization, reset,
//! time and item counts. What is done with it is in the submodules: the items added to it
//! ([`items`], [`create`]), how it integrates ([`settings`]), assembling and stepping it
//! ([`step`]), reading it ([`output`]), its sensors ([`sensors`]) and its scene ([`scene`]).
//!
//! # Storage
//! C declares the system itself (`mbs_system sys;`, static, on the stack or inside its own
//! struct) and calls `mbs_system_init(&sys)`; nothing is allocated. The storage holds core's
//! `System<f64, 64, 64, 128, 128, 64, 32>` ([`CSystem`]) and, next to it, the C sensor buffers
//! (pointer, rows) that the ffi's sensor sink writes to. Its size `MBS_SYSTEM_SIZE` and alignment
//! `MBS_SYSTEM_ALIGN` are constants of the header, checked against the Rust type at compile time.
//!
//! Every other `mbs_system_*` call first checks the pointer (`MBS_ERR_NULL_POINTER`), its
//! alignment (`MBS_ERR_STORAGE`) and the header `mbs_system_init` writes (its tag:
//! `MBS_ERR_NOT_INITIALIZED`; its layout: `MBS_ERR_STORAGE`; `storage_header.rs`), through
//! [`crate::boundary`]'s `with_ref` / `with_mut` (and `MBS_ERR_BUSY` for a change while a solve
//! of it runs): the one place where a storage pointer becomes a Rust reference.

pub mod constraints;
pub mod create;
pub mod items;
pub mod output;
pub mod planar;
pub mod record;
pub mod scene;
pub mod sensors;
pub mod settings;
pub mod solve;
pub mod step;
pub mod tree;

use crate::boundary::{
    checked_mut, guard, init_storage, non_null_out, placed, put, storage_ref, with_mut, with_ref,
    Busy, CStorage, FfiResult,
};
use crate::status::*;
use crate::storage_header::Header;
use core::mem::{align_of, size_of};
use mbs_core::system::System;

/// The core system behind an `mbs_system` (double precision, the C capacities).
pub type CSystem = System<
    f64,
    { MBS_SYSTEM_MAX_NODES as usize },
    { MBS_SYSTEM_MAX_OBJECTS as usize },
    { MBS_SYSTEM_MAX_MARKERS as usize },
    { MBS_SYSTEM_MAX_LOADS as usize },
    { MBS_SYSTEM_MAX_CONNECTORS as usize },
    { MBS_SYSTEM_MAX_SENSORS as usize },
    0,
    { MBS_SYSTEM_MAX_CONSTRAINTS as usize },
    { MBS_SYSTEM_SOLVER_CAPACITY as usize },
    { MBS_SYSTEM_MAX_TREE_LINKS as usize },
>;

/// Capacity of an `mbs_system`: nodes.
pub const MBS_SYSTEM_MAX_NODES: u32 = 64;
/// Capacity of an `mbs_system`: objects (bodies, ground objects).
pub const MBS_SYSTEM_MAX_OBJECTS: u32 = 64;
/// Capacity of an `mbs_system`: markers.
pub const MBS_SYSTEM_MAX_MARKERS: u32 = 128;
/// Capacity of an `mbs_system`: loads.
pub const MBS_SYSTEM_MAX_LOADS: u32 = 128;
/// Capacity of an `mbs_system`: connectors.
pub const MBS_SYSTEM_MAX_CONNECTORS: u32 = 64;
/// Capacity of an `mbs_system`: sensors.
pub const MBS_SYSTEM_MAX_SENSORS: u32 = 32;
/// Capacity of an `mbs_system`: constraints.
pub const MBS_SYSTEM_MAX_CONSTRAINTS: u32 = 32;
/// Capacity `W` of an `mbs_system`'s generalized-alpha workspace: node coordinates plus
/// constraint equations (twice the equations with the stabilized index-2 formulation), e.g.
/// 12 planar links on 12 revolute joints (36 + 24); a 3D rigid body counts 7 coordinates and
/// 1 equation (6 and none with `MBS_ROTATIONS_LIE_GROUP`). The workspace, with the state it steps from, takes `(2 W^2 + 19 W + 1)`
/// doubles of the storage.
pub const MBS_SYSTEM_SOLVER_CAPACITY: u32 = 64;

/// Capacity of an `mbs_system`: links (and joint coordinates) of its kinematic tree
/// (`mbs_system_add_kinematic_tree`; a 6-axis arm with a gripper and a tool fits).
pub const MBS_SYSTEM_MAX_TREE_LINKS: u32 = 8;

/// Size of the `mbs_system` storage in 8-byte words (`MBS_SYSTEM_SIZE / 8`).
pub const MBS_SYSTEM_WORDS: usize = 19313;
/// Size of the `mbs_system` storage (bytes): the core system and the sensor buffers'
/// bookkeeping, on a 64-bit host (checked at compile time).
pub const MBS_SYSTEM_SIZE: usize = 154504;
/// Alignment the `mbs_system` storage needs (bytes).
pub const MBS_SYSTEM_ALIGN: usize = 8;

/// Index value meaning "no item" (e.g. the gravity marker of a body created without gravity).
pub const MBS_NO_INDEX: u32 = 0xFFFF_FFFF;

/// Storage for one multibody system, declared by the caller (no malloc): double precision,
/// capacities `MBS_SYSTEM_MAX_NODES` (64) nodes, `MBS_SYSTEM_MAX_OBJECTS` (64) objects,
/// `MBS_SYSTEM_MAX_MARKERS` (128) markers, `MBS_SYSTEM_MAX_LOADS` (128) loads,
/// `MBS_SYSTEM_MAX_CONNECTORS` (64) connectors, `MBS_SYSTEM_MAX_SENSORS` (32) sensors;
/// `MBS_SYSTEM_SIZE` bytes, sized for a host or a large MCU. A step also uses stack for a
/// working copy of the node states and the generalized forces, a solve more (the saved
/// states); `docs/embedded.md` has the sizes. Firmware with little RAM uses the per-item API
/// (`mbs_rigid_step`, `mbs_mass_point_2d_step`) or a Rust build with core's `FirmwareSystem`.
///
/// It must be aligned to `MBS_SYSTEM_ALIGN` (8): a declared `mbs_system` is wherever
/// `uint64_t` is 8-aligned; on ABIs where it is not (i386), declare it
/// `_Alignas(MBS_SYSTEM_ALIGN)`. A misaligned system is refused (`MBS_ERR_STORAGE`).
/// Its first 16 bytes are a header: the tag `mbs_system_init` writes and `mbs_system_deinit`
/// clears (`MBS_ERR_NOT_INITIALIZED` without it) and the layout of the library that wrote it
/// (`MBS_ERR_STORAGE` for another). They catch accidents (a forgotten init, a use after
/// deinit, memory kept across a library update), not a caller who writes the storage.
///
/// Declare it (`static mbs_system sys;` or a local), call `mbs_system_init(&sys)`, then the
/// other `mbs_system_*` functions, and `mbs_system_deinit(&sys)` before the storage is freed or
/// reused (later calls with it are then refused). The contents are private. Init writes zeros
/// over every byte, then the empty system (its unused item slots zeroed again); only the
/// padding between fields (a few dozen bytes), the payloads of the empty options (the
/// kinematic-tree slot's 7 KB; in builds that copy the empty value from the stack) and the
/// padding inside the values later calls copy in may hold any bytes: compare two systems
/// through their outputs, not byte for byte. Do not copy an initialized
/// system with `memcpy` while sensors hold buffers you do not want shared, and do not use
/// one system from two threads at once.
#[repr(C)]
pub struct mbs_system {
    /// Private.
    pub _opaque: [u64; MBS_SYSTEM_WORDS],
}

/// The header `mbs_system_init` writes: tag "mbs_sys1" and the layout.
const HEADER: Header = Header::new(0x6d62_735f_7379_7331, size_of::<Inner>());

/// A sensor's C buffer: rows `[t, values...]` of `row_len` doubles.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SensorBuffer {
    /// The caller's buffer (null if `capacity == 0`).
    pub ptr: *mut f64,
    /// Rows the buffer holds.
    pub capacity: usize,
    /// Doubles per row: 1 (time) + the sensor's values.
    pub row_len: usize,
    /// Rows written.
    pub rows: usize,
    /// Rows that found the buffer full (not written).
    pub dropped: u64,
}

impl SensorBuffer {
    pub(crate) const EMPTY: Self = Self {
        ptr: core::ptr::null_mut(),
        capacity: 0,
        row_len: 0,
        rows: 0,
        dropped: 0,
    };
}

/// What an `mbs_system` holds: the header (first: C code and other library builds find it at
/// the start), the core system, the sensors' C buffers.
#[repr(C)]
pub(crate) struct Inner {
    header: Header,
    /// The core system.
    pub sys: CSystem,
    /// One buffer per sensor slot (index = sensor index).
    pub buffers: [SensorBuffer; MBS_SYSTEM_MAX_SENSORS as usize],
    /// While a call runs the caller's code: the storage's own address (a solve's step callback
    /// reads: changes are refused), plus 1 while the library works on it (every call refused,
    /// `MBS_ERR_BUSY`); 0 otherwise. A copy of the storage taken meanwhile is free (its
    /// address differs).
    busy: usize,
}

const _: () = assert!(core::mem::offset_of!(Inner, header) == 0);
const _: () = assert!(size_of::<Inner>() <= MBS_SYSTEM_SIZE);
const _: () = assert!(align_of::<Inner>() <= MBS_SYSTEM_ALIGN);
const _: () = assert!(MBS_SYSTEM_WORDS * 8 == MBS_SYSTEM_SIZE);
const _: () = assert!(size_of::<mbs_system>() == MBS_SYSTEM_SIZE);
// No more than 1 KiB of slack on 64-bit hosts (the header's size is the real one).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(MBS_SYSTEM_SIZE - size_of::<Inner>() < 1024);

/// Bytes of the `Inner` an `mbs_system` holds (for the record: tests print it).
pub fn inner_size() -> usize {
    size_of::<Inner>()
}

impl CStorage for mbs_system {
    type Inner = Inner;
    const HEADER: Header = HEADER;
    fn busy(p: *const Inner) -> Busy {
        // SAFETY: a checked storage; the mark read as plain bytes, no reference made.
        let b = unsafe { core::ptr::addr_of!((*p).busy).read() };
        match b ^ (p as usize) {
            0 => Busy::Reading,
            1 => Busy::Working,
            _ => Busy::Free,
        }
    }

    fn set_busy(p: *mut Inner, b: Busy) {
        let mark = match b {
            Busy::Free => 0,
            Busy::Reading => p as usize,
            Busy::Working => p as usize | 1,
        };
        // SAFETY: a checked storage; the mark written as plain bytes, no reference made.
        unsafe { core::ptr::addr_of_mut!((*p).busy).write(mark) };
    }
}

/// The core system of `sys` (read only): the one way from an `mbs_system*` to `&CSystem`
/// (for exporters and other readers). Errors as [`checked`](crate::boundary::checked).
///
/// # Safety
/// `sys` is null or points to `MBS_SYSTEM_SIZE` readable bytes, not written for `'a`.
pub(crate) unsafe fn system_ref<'a>(sys: *const mbs_system) -> FfiResult<&'a CSystem> {
    // SAFETY: forwarded.
    unsafe { storage_ref(sys) }.map(|i| &i.sys)
}

/// `MBS_SYSTEM_SIZE`, for bindings that cannot read the header's constants (Python's ctypes
/// checks its `mbs_system` against it).
#[no_mangle]
pub extern "C" fn mbs_system_storage_size() -> usize {
    MBS_SYSTEM_SIZE
}

/// Writes a fresh, empty system into `*sys` (time 0, default settings, not assembled, no
/// sensor buffers). Any system there before is forgotten (nothing to free). `sys` must be
/// aligned to `MBS_SYSTEM_ALIGN` (a declared `mbs_system` is).
///
/// Errors (`*sys` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE` (misaligned),
/// `MBS_ERR_BUSY` (from the step callback of a solve of this system).
///
/// # Safety
/// `sys` is null or points to `MBS_SYSTEM_SIZE` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_init(sys: *mut mbs_system) -> MbsStatus {
    guard(|| {
        let p = match placed(sys) {
            Ok(p) => p,
            Err(s) => return s,
        };
        if checked_mut(sys) == Err(MBS_ERR_BUSY) {
            return MBS_ERR_BUSY; // from a callback of a call on this system
        }
        init_storage::<mbs_system>(
            p,
            Inner {
                header: HEADER,
                sys: CSystem::new(),
                buffers: [SensorBuffer::EMPTY; MBS_SYSTEM_MAX_SENSORS as usize],
                busy: 0,
            },
            core::mem::offset_of!(Inner, busy) + size_of::<usize>(),
        );
        // SAFETY: just written.
        unsafe { &mut *p }.sys.zero_unused_capacity();
        MBS_OK
    })
}

/// Ends the life of the system in `*sys`: clears the tag `mbs_system_init` wrote, so that every
/// later call with this storage (a use after the memory was reused or freed by the caller) is
/// `MBS_ERR_NOT_INITIALIZED` until it is initialized again. Call it before freeing or reusing
/// the storage. The tag guards against accidents (a forgotten init, a stale pointer), not
/// against a caller who writes the storage on purpose.
///
/// Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_deinit(sys: *mut mbs_system) -> MbsStatus {
    with_mut(sys, |s| {
        s.header = Header::CLEARED;
        Ok(MBS_OK)
    })
}

/// Puts every node back to its initial state, the time to 0, and every sensor buffer back to
/// 0 rows (items, settings and the assembled flag unchanged).
///
/// Errors: `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`, `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `sys` is null or an `mbs_system` (see `mbs_system`).
#[no_mangle]
pub unsafe extern "C" fn mbs_system_reset(sys: *mut mbs_system) -> MbsStatus {
    with_mut(sys, |s| {
        s.sys.reset();
        for b in s.buffers.iter_mut() {
            b.rows = 0;
            b.dropped = 0;
        }
        Ok(MBS_OK)
    })
}

/// The current time (s) into `*out`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_time(sys: *const mbs_system, out: *mut f64) -> MbsStatus {
    guard(|| {
        // SAFETY: the caller's guarantee on `sys`.
        match unsafe { system_ref(sys) }.and_then(|s| non_null_out(out).map(|()| s.time())) {
            Ok(t) => {
                put(out, t);
                MBS_OK
            }
            Err(e) => e,
        }
    })
}

/// Numbers of the items of a system.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct mbs_system_counts {
    /// Nodes (at most `MBS_SYSTEM_MAX_NODES`).
    pub nodes: u32,
    /// Objects (at most `MBS_SYSTEM_MAX_OBJECTS`).
    pub objects: u32,
    /// Markers (at most `MBS_SYSTEM_MAX_MARKERS`).
    pub markers: u32,
    /// Loads (at most `MBS_SYSTEM_MAX_LOADS`).
    pub loads: u32,
    /// Connectors (at most `MBS_SYSTEM_MAX_CONNECTORS`).
    pub connectors: u32,
    /// Sensors (at most `MBS_SYSTEM_MAX_SENSORS`).
    pub sensors: u32,
    /// Constraints (at most `MBS_SYSTEM_MAX_CONSTRAINTS`).
    pub constraints: u32,
    /// `true` after a successful `mbs_system_assemble` with no item added since.
    pub assembled: bool,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    pub _pad0: [u8; 3],
}

/// The item counts and the assembled flag into `*out`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_STORAGE`,
/// `MBS_ERR_NOT_INITIALIZED`.
///
/// # Safety
/// `sys` is null or an `mbs_system`; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_system_get_counts(
    sys: *const mbs_system,
    out: *mut mbs_system_counts,
) -> MbsStatus {
    with_ref(sys, |s| {
        non_null_out(out)?;
        let c = s.sys.counts().map(|n| n as u32);
        put(
            out,
            mbs_system_counts {
                nodes: c[0],
                objects: c[1],
                markers: c[2],
                loads: c[3],
                connectors: c[4],
                sensors: c[5],
                constraints: s.sys.constraint_count() as u32,
                assembled: s.sys.is_assembled(),
                _pad0: Default::default(),
            },
        );
        Ok(MBS_OK)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_is_checked_and_sized() {
        println!(
            "mbs_system: {} B storage, {} B used (core system {} B)",
            MBS_SYSTEM_SIZE,
            inner_size(),
            size_of::<CSystem>()
        );
        // misaligned: refused, nothing written
        let mut words = [0u64; MBS_SYSTEM_WORDS + 1];
        let p = words
            .as_mut_ptr()
            .cast::<u8>()
            .wrapping_add(4)
            .cast::<mbs_system>();
        // SAFETY: the pointer is refused before any access.
        assert_eq!(unsafe { mbs_system_init(p) }, MBS_ERR_STORAGE);
        assert!(words.iter().all(|w| *w == 0));
        let p = words.as_mut_ptr().cast::<mbs_system>();
        let mut t = 5.0;
        // zeroed storage is not a system
        // SAFETY: `words` holds MBS_SYSTEM_SIZE + 8 bytes.
        assert_eq!(
            unsafe { mbs_system_time(p, &mut t) },
            MBS_ERR_NOT_INITIALIZED
        );
        // SAFETY: as above.
        assert_eq!(unsafe { mbs_system_init(p) }, MBS_OK);
        // SAFETY: as above.
        assert_eq!(unsafe { mbs_system_time(p, &mut t) }, MBS_OK);
        assert_eq!(t, 0.0);
        assert_eq!(mbs_system_storage_size(), size_of::<mbs_system>());
    }
}
