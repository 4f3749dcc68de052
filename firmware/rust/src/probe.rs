//! Measuring one call of a step: its stack high-water mark (stack painting) and, between two
//! marker functions, its instruction count (counted from QEMU's exec log by
//! `scripts/embedded-figures.sh`).

use core::hint::black_box;
use core::ptr::{read_volatile, write_volatile};

/// The word the stack is painted with (the same as cortex-m-rt's `paint-stack`).
pub const PAINT: u32 = 0xcccc_cccc;

extern "C" {
    /// Lowest address of the stack region (cortex-m-rt's linker script; memory.x sets it).
    static _stack_end: u32;
    /// One past the highest address of the stack region (the initial SP).
    static _stack_start: u32;
}

#[inline(always)]
fn stack_bottom() -> usize {
    // Only the address of the linker symbol is taken (no read).
    core::ptr::addr_of!(_stack_end) as usize
}

#[inline(always)]
fn stack_top() -> usize {
    core::ptr::addr_of!(_stack_start) as usize
}

/// Bytes of stack `f(s)` uses, the call itself included: paints every free stack word below
/// the current SP, calls `f` through an opaque pointer (so it cannot be inlined here), then
/// finds the lowest word that is no longer paint.
#[inline(never)]
pub fn stack_bytes<S>(f: fn(&mut S), s: &mut S) -> usize {
    let sp: usize;
    // SAFETY: reads SP only. SP stays fixed in this function's body (no dynamic allocation).
    unsafe {
        core::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags))
    };
    let bottom = stack_bottom();
    let mut p = bottom;
    while p < sp {
        // SAFETY: [bottom, sp) is the unused part of the stack region.
        unsafe { write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
    let f = black_box(f);
    f(black_box(s));
    let mut p = bottom;
    // SAFETY: reads within the stack region.
    while p < sp && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    sp - p
}

/// Size of the painted stack region (bytes): a figure equal to it means the stack overflowed
/// the region, and the figure is not a measurement.
pub fn stack_region_bytes() -> usize {
    stack_top() - stack_bottom()
}

/// Bytes of stack used since reset (cortex-m-rt painted the whole stack region before `main`).
pub fn stack_bytes_since_reset() -> usize {
    let (bottom, top) = (stack_bottom(), stack_top());
    let mut p = bottom;
    // SAFETY: reads within the stack region.
    while p < top && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    top - p
}

/// Start of a counted region: QEMU's exec log shows this address where counting begins.
#[no_mangle]
#[inline(never)]
pub extern "C" fn mbs_count_begin() {
    // SAFETY: a nop; the asm statement keeps the function and every call of it, and a body
    // different from mbs_count_end's keeps the linker from folding the two into one address.
    unsafe { core::arch::asm!("nop", options(nostack, preserves_flags)) };
}

/// End of a counted region.
#[no_mangle]
#[inline(never)]
pub extern "C" fn mbs_count_end() {
    // SAFETY: as above (two nops).
    unsafe { core::arch::asm!("nop", "nop", options(nostack, preserves_flags)) };
}

/// Runs `f(s)` once between [`mbs_count_begin`] and [`mbs_count_end`], called through an
/// opaque pointer so nothing of it moves outside the markers.
#[inline(never)]
pub fn counted<S>(f: fn(&mut S), s: &mut S) {
    let f = black_box(f);
    let s = black_box(s);
    mbs_count_begin();
    f(s);
    mbs_count_end();
}

/// An empty counted region: the markers' own cost, subtracted from every count.
#[inline(never)]
pub fn counted_empty() {
    mbs_count_begin();
    mbs_count_end();
}
