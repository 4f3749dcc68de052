//! The mechanics of the C boundary, in one place: the panic guard around every entry point,
//! the check that turns a caller's storage pointer (`mbs_system*`, `mbs_tree*`) into a Rust
//! reference, pointers to inputs and outputs, and the finiteness and time-step checks. An
//! entry point's body is then only its work:
//!
//! ```ignore
//! pub unsafe extern "C" fn mbs_system_step(sys: *mut mbs_system, dt: f64, ...) -> MbsStatus {
//!     with_mut(sys, |s| {
//!         let dt = time_step(dt)?;
//!         ...
//!     })
//! }
//! ```
//!
//! The status each core error maps to is in [`crate::status`].

use crate::status::*;
use crate::storage_header::Header;
use mbs_core::Real;

/// A boundary result: the value, or the status to return.
pub type FfiResult<T> = core::result::Result<T, MbsStatus>;

/// Runs `f`, turning a panic into [`MBS_ERR_PANIC`] on hosted targets (no-op on bare metal,
/// where nothing can unwind).
#[inline]
pub(crate) fn guard<F: FnOnce() -> MbsStatus>(f: F) -> MbsStatus {
    #[cfg(not(target_os = "none"))]
    {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
            Ok(s) => s,
            Err(_) => MBS_ERR_PANIC,
        }
    }
    #[cfg(target_os = "none")]
    {
        f()
    }
}

/// What a storage accepts while one of its calls runs the caller's code (a load callback, a
/// solve's step callback): re-entrant calls are refused with `MBS_ERR_BUSY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Busy {
    /// No call in progress.
    Free,
    /// A solve's step callback runs, no Rust reference to the storage live: reads are
    /// accepted, changes refused.
    Reading,
    /// The library works on the storage (a step, an assembly, a solve's start or step) and may
    /// call back: every call is refused.
    Working,
}

/// A caller-owned storage of the C API (`mbs_system`, `mbs_tree`, `mbs_tree_f32`): the type
/// it holds and the header its init writes.
pub(crate) trait CStorage {
    /// What the storage holds: `#[repr(C)]` with its [`Header`] as the first field.
    type Inner;
    /// The header of an initialized storage of this kind.
    const HEADER: Header;
    /// Which calls of the storage `p` (checked) are refused now (storages that never call back
    /// are always free).
    fn busy(_p: *const Self::Inner) -> Busy {
        Busy::Free
    }
    /// Sets what [`Self::busy`] says, through the raw pointer (no reference to the storage
    /// made: its other fields may be borrowed).
    fn set_busy(_p: *mut Self::Inner, _b: Busy) {}
}

/// Marks the storage `p` busy until dropped (also by a panic), then puts back the mark it had.
pub(crate) struct Mark<S: CStorage> {
    p: *mut S::Inner,
    before: Busy,
}

impl<S: CStorage> Mark<S> {
    /// Marks the checked storage `p` as `b`.
    pub(crate) fn set(p: *mut S::Inner, b: Busy) -> Self {
        let before = S::busy(p);
        S::set_busy(p, b);
        Self { p, before }
    }

    /// Changes the mark while it is held (a solve reads between its steps).
    pub(crate) fn change(&self, b: Busy) {
        S::set_busy(self.p, b);
    }
}

impl<S: CStorage> Drop for Mark<S> {
    fn drop(&mut self) {
        S::set_busy(self.p, self.before);
    }
}

/// The pointer to a storage its init may write, initialized or not: `MBS_ERR_NULL_POINTER`,
/// `MBS_ERR_STORAGE` (misaligned).
pub(crate) fn placed<S: CStorage>(p: *const S) -> FfiResult<*mut S::Inner> {
    if p.is_null() {
        return Err(MBS_ERR_NULL_POINTER);
    }
    if !(p as usize).is_multiple_of(align_of::<S::Inner>()) {
        return Err(MBS_ERR_STORAGE);
    }
    Ok(p.cast::<S::Inner>().cast_mut())
}

/// Writes `inner` into the caller's storage `p` (from [`placed`]) after zeros over all of its
/// bytes, and zeros again after `fields_end` (the end of `S::Inner`'s last field): the bytes
/// the value's move leaves alone (the unused capacity of fixed-size vectors, the storage's
/// tail) and its trailing padding are then defined. The padding inside its fields is what
/// the move copied.
pub(crate) fn init_storage<S: CStorage>(p: *mut S::Inner, inner: S::Inner, fields_end: usize) {
    // SAFETY: `p` is non-null and aligned ([`placed`]) and the caller's storage has
    // `size_of::<S>()` writable bytes (every init documents it); `S::Inner` fits in them
    // (compile-time checks beside each storage); after `fields_end` are only padding and the
    // storage's tail, plain bytes.
    unsafe {
        p.cast::<u8>().write_bytes(0, size_of::<S>());
        p.write(inner);
        let tail = size_of::<S>().saturating_sub(fields_end);
        p.cast::<u8>().add(fields_end).write_bytes(0, tail);
    }
}

/// The checked pointer to an initialized storage: the errors of [`placed`], then
/// `MBS_ERR_STORAGE` (initialized by another build: its layout) and `MBS_ERR_NOT_INITIALIZED`
/// (no init's tag).
pub(crate) fn checked<S: CStorage>(p: *const S) -> FfiResult<*mut S::Inner> {
    let q = placed(p)?;
    // SAFETY: non-null and aligned; the caller's storage is as large as the header says its
    // kind is, and the header is its first 16 bytes (`CStorage::Inner`), read as plain bytes.
    unsafe { q.cast::<Header>().read() }.check(S::HEADER)?;
    if S::busy(q) == Busy::Working {
        return Err(MBS_ERR_BUSY);
    }
    Ok(q)
}

/// [`checked`] for a change: also `MBS_ERR_BUSY` while a call of the storage runs the caller's
/// code.
pub(crate) fn checked_mut<S: CStorage>(p: *mut S) -> FfiResult<*mut S::Inner> {
    let q = checked(p)?;
    if S::busy(q) != Busy::Free {
        return Err(MBS_ERR_BUSY);
    }
    Ok(q)
}

/// What the storage `p` holds, for reading. Errors as [`checked`].
///
/// # Safety
/// `p` is null or the caller's storage of an `S`, not written for `'a`.
pub(crate) unsafe fn storage_ref<'a, S: CStorage>(p: *const S) -> FfiResult<&'a S::Inner> {
    // SAFETY: checked pointer to an initialized storage, by the caller's guarantee.
    checked(p).map(|q| unsafe { &*q })
}

/// Runs `f` on what the storage `p` holds, read only, under the panic guard; its status. The
/// storage is [`Busy::Reading`] meanwhile (`f` may run a user load's callback): a read from
/// the callback is answered, a change refused.
pub(crate) fn with_ref<S: CStorage>(
    p: *const S,
    f: impl FnOnce(&S::Inner) -> FfiResult<MbsStatus>,
) -> MbsStatus {
    guard(|| {
        let q = match checked(p) {
            Ok(q) => q,
            Err(s) => return s,
        };
        // Written only while no reference to the storage is live: a nested read finds it
        // reading already and leaves it.
        let _reading = (S::busy(q) == Busy::Free).then(|| Mark::<S>::set(q, Busy::Reading));
        // SAFETY: the caller's guarantee on `p` (every entry point documents it); a re-entrant
        // call reads only the header and the busy mark, through the raw pointer.
        match f(unsafe { &*q }) {
            Ok(s) | Err(s) => s,
        }
    })
}

/// Runs `f` on what the storage `p` holds, exclusively, under the panic guard; its status. The
/// storage is [`Busy::Working`] meanwhile: a call from a callback `f` runs is refused.
pub(crate) fn with_mut<S: CStorage>(
    p: *mut S,
    f: impl FnOnce(&mut S::Inner) -> FfiResult<MbsStatus>,
) -> MbsStatus {
    guard(|| {
        let q = match checked_mut(p) {
            Ok(q) => q,
            Err(s) => return s,
        };
        let _working = Mark::<S>::set(q, Busy::Working);
        // SAFETY: the caller's guarantee on `p` (every entry point documents it); a re-entrant
        // call reads only the header and the busy mark, through the raw pointer.
        match f(unsafe { &mut *q }) {
            Ok(s) | Err(s) => s,
        }
    })
}

/// Writes `v` to `*out` (checked non-null by the caller).
pub(crate) fn put<T>(out: *mut T, v: T) {
    // SAFETY: the entry points check `out` non-null before the work; writable by the caller's
    // guarantee.
    unsafe { out.write(v) }
}

/// `Ok(&*p)` or `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `p` is null or points to a valid, aligned `T` for the returned lifetime.
#[inline]
pub unsafe fn non_null<'a, T>(p: *const T) -> FfiResult<&'a T> {
    // SAFETY: the caller guarantees validity when non-null.
    unsafe { p.as_ref() }.ok_or(MBS_ERR_NULL_POINTER)
}

/// `Ok(&mut *p)` or `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `p` is null or points to a valid, aligned, exclusively borrowed `T`.
#[inline]
pub unsafe fn non_null_mut<'a, T>(p: *mut T) -> FfiResult<&'a mut T> {
    // SAFETY: the caller guarantees validity and exclusivity when non-null.
    unsafe { p.as_mut() }.ok_or(MBS_ERR_NULL_POINTER)
}

/// Reads `*p` by value (a copy: the caller's object is never borrowed, so inputs and outputs
/// may overlap), or `MBS_ERR_NULL_POINTER`.
///
/// # Safety
/// `p` is null or points to a valid, aligned `T`.
#[inline]
pub unsafe fn read<T: Copy>(p: *const T) -> FfiResult<T> {
    if p.is_null() {
        Err(MBS_ERR_NULL_POINTER)
    } else {
        // SAFETY: non-null; validity and alignment by the caller's guarantee.
        Ok(unsafe { p.read() })
    }
}

/// `MBS_ERR_NULL_POINTER` if `p` is null (an output checked before any work).
#[inline]
pub fn non_null_out<T>(p: *mut T) -> FfiResult<()> {
    if p.is_null() {
        Err(MBS_ERR_NULL_POINTER)
    } else {
        Ok(())
    }
}

/// Runs `f` and, on success, writes its value to `*out` (checked non-null before `f` runs, so
/// a null output is `MBS_ERR_NULL_POINTER` whatever the inputs). On error `*out` is untouched.
///
/// # Safety
/// `out` is null or valid for writes of a `T`.
#[inline]
pub unsafe fn write_with<T, F: FnOnce() -> FfiResult<(T, MbsStatus)>>(
    out: *mut T,
    f: F,
) -> MbsStatus {
    if out.is_null() {
        return MBS_ERR_NULL_POINTER;
    }
    match f() {
        Ok((v, status)) => {
            // SAFETY: non-null and writable by the caller's guarantee.
            unsafe { out.write(v) };
            status
        }
        Err(s) => s,
    }
}

/// A finite `f64` or `f32`, else `MBS_ERR_NOT_FINITE`.
#[inline]
pub fn finite<T: Real>(x: T) -> FfiResult<T> {
    if x.finite() {
        Ok(x)
    } else {
        Err(MBS_ERR_NOT_FINITE)
    }
}

/// `MBS_ERR_NOT_FINITE` unless every entry of `a` is finite.
#[inline]
pub fn all_finite<T: Real>(a: &[T]) -> FfiResult<()> {
    if mbs_core::finite::all_finite_slice(a) {
        Ok(())
    } else {
        Err(MBS_ERR_NOT_FINITE)
    }
}

/// `MBS_ERR_NON_FINITE_STATE` unless every entry of a computed result is finite (finite inputs
/// can still overflow, e.g. the kinetic energy of a velocity of 1e200 m/s).
pub fn finite_result<T: Real>(a: &[T]) -> FfiResult<()> {
    if mbs_core::finite::all_finite_slice(a) {
        Ok(())
    } else {
        Err(MBS_ERR_NON_FINITE_STATE)
    }
}

/// Checks a time step `dt` (s): `MBS_ERR_NOT_FINITE` for NaN/inf, `MBS_ERR_INVALID_TIME_STEP`
/// for `dt <= 0`.
pub fn time_step<T: Real>(dt: T) -> FfiResult<T> {
    if finite(dt)? <= T::zero() {
        return Err(MBS_ERR_INVALID_TIME_STEP);
    }
    Ok(dt)
}
