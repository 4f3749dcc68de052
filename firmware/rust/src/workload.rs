//! The workloads the firmware runs, written once against `mbs_core` and compiled twice: into
//! the Cortex-M firmware (`firmware/rust`) and into the host test `tests/firmware_qemu.rs`
//! (through `#[path]`), which compares the hashes of both for bit-for-bit determinism.
//!
//! Each workload returns its final state, an FNV-1a hash over the bit patterns of every state
//! component after every step, and an error against an independent closed form.
//!
//! Only `mbs_core` and `core` may be used here (no std, no allocation).

use mbs_core::math::Quaternion;
use mbs_core::Real;
use nalgebra::Vector3;

/// FNV-1a 64-bit offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Folds the 8 little-endian bytes of `bits` into the FNV-1a hash `h`.
#[inline]
pub fn fnv1a(mut h: u64, bits: u64) -> u64 {
    let mut i = 0;
    while i < 8 {
        h ^= (bits >> (8 * i)) & 0xff;
        h = h.wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// Folds the bit pattern of `x` (exactly widened to f64, so f32 and f64 hash the same way).
#[inline]
pub fn hash_real<T: Real>(h: u64, x: T) -> u64 {
    fnv1a(h, x.to_f64().to_bits())
}

/// The larger of two errors; NaN if either is NaN, so a NaN state fails every tolerance.
#[inline]
pub fn worse(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if b > a {
        b
    } else {
        a
    }
}

/// What a workload reports.
#[derive(Clone, Copy, Debug)]
pub struct Outcome {
    /// The first component of the final state, widened to f64 (exact).
    pub value: f64,
    /// FNV-1a over the bits of every state component after every step.
    pub hash: u64,
    /// Largest absolute deviation from the closed-form reference.
    pub error: f64,
}

/// Placeholder step: the body-frame rate `w` (rad/s) is held constant over `dt` (s), so the
/// orientation advances as `q_{k+1} = q_k exp(w dt)` (quaternion exponential, body frame).
#[inline(never)]
pub fn quat_spin_step<T: Real>(q: &mut Quaternion<T>, w_dt: &Vector3<T>) {
    *q = q.mul(&Quaternion::exp(w_dt));
}

/// Placeholder workload: `steps` steps of [`quat_spin_step`] from the identity with
/// `w = [0.3, -1.2, 2.0]` rad/s, `dt = 1 ms`.
///
/// Reference (closed form, libm directly): a constant body rate turns the body about the fixed
/// axis `n = w/|w|` by `|w| t`, `q(t) = [cos(|w| t/2), sin(|w| t/2) n]`.
pub fn quat_spin<T: Real>(steps: u32) -> Outcome {
    let dt = T::c(1e-3);
    let w = Vector3::new(T::c(0.3), T::c(-1.2), T::c(2.0));
    let w_dt = w * dt;
    let mut q = Quaternion::<T>::identity();
    let mut h = FNV_OFFSET;
    for _ in 0..steps {
        quat_spin_step(&mut q, &w_dt);
        for c in q.to_array() {
            h = hash_real(h, c);
        }
    }
    // Reference in f64 from the f64 constants, independent of the step's exp and products.
    let wf = [0.3f64, -1.2, 2.0];
    let wn = libm::sqrt(wf[0] * wf[0] + wf[1] * wf[1] + wf[2] * wf[2]);
    let half = 0.5 * wn * (steps as f64) * 1e-3;
    let s = libm::sin(half) / wn;
    let reference = [libm::cos(half), s * wf[0], s * wf[1], s * wf[2]];
    let got = q.to_array();
    let mut error = 0.0f64;
    for i in 0..4 {
        error = worse(error, libm::fabs(got[i].to_f64() - reference[i]));
    }
    Outcome {
        value: got[0].to_f64(),
        hash: h,
        error,
    }
}
