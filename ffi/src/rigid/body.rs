//! A rigid body without a system (per-item stepping): its parameters, validation, outputs and
//! Jacobians, in double (`mbs_rigid_body`) and single precision (`mbs_rigid_body_f32`).
//!
//! One generic implementation serves both: each pair of `extern "C"` functions calls the same
//! generic function instantiated with `f64` or `f32`.

use crate::boundary::{
    all_finite, finite, finite_result, guard, non_null_out, read, write_with, FfiResult,
};
use crate::convert::{mat3, mat3_to_rows, rows_of, vec3};
use crate::output::{variable, write_value, MbsOutputVariable};
use crate::rigid::state::mbs_rigid_state_of;
use crate::status::status_of;
use crate::status::*;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::body::Body;
use mbs_core::math::Quaternion;
use mbs_core::Real;

/// Parameters of a rigid body, generic over the scalar: use `mbs_rigid_body` (double) or
/// `mbs_rigid_body_f32` (float). Fill with `mbs_rigid_body_init` or `mbs_body_cylinder_init`,
/// which validate the body and seal it: `validated` keeps what the validation derived and a
/// checksum of the fields. A call that takes a sealed body only compares the checksum; a body
/// whose checksum does not match (a field changed since, or a body filled by hand) is
/// validated again in full, as thoroughly as by init, by every call that takes it (the
/// eigenvalue check of the inertia: slow). After changing a field, call
/// `mbs_rigid_body_validate` once to check the body and seal it again.
///
/// The body frame `b` is attached at the body's reference point (the point the state's
/// position and velocity describe); the centre of mass (COM) sits at `center_of_mass` from it.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_rigid_body_of<T> {
    /// Mass (kg), finite and > 0.
    pub mass: T,
    /// Inertia tensor about the COM (kg m^2, body frame), row-major 3x3: symmetric, positive
    /// definite, principal moments satisfying the triangle inequality `I1 <= I2 + I3`.
    pub inertia: [T; 9],
    /// COM offset from the reference point (m, body frame).
    pub center_of_mass: [T; 3],
    /// Reference position of the reference point for `MBS_OUTPUT_DISPLACEMENT` (m, world);
    /// `{0,0,0}` after init.
    pub reference_position: [T; 3],
    /// Reference orientation for `MBS_OUTPUT_DISPLACEMENT`: unit quaternion `[w, x, y, z]` of
    /// `R_0b` (body to world); `{1,0,0,0}` after init.
    pub reference_orientation: [T; 4],
    /// Private, written by init and `mbs_rigid_body_validate`: never write it (a body whose
    /// `validated` does not match its fields is validated again in full by every call).
    pub validated: mbs_rigid_body_validated_of<T>,
}

impl<T: Default + Copy> Default for mbs_rigid_body_of<T> {
    /// All zero (not a valid body: fill it with init).
    fn default() -> Self {
        Self {
            mass: T::default(),
            inertia: [T::default(); 9],
            center_of_mass: [T::default(); 3],
            reference_position: [T::default(); 3],
            reference_orientation: [T::default(); 4],
            validated: mbs_rigid_body_validated_of::default(),
        }
    }
}

/// Words of `T` in core's validated `RigidBody<T>` (mass, inertia, its inverse, COM, reference
/// position and orientation: 1 + 9 + 9 + 3 + 3 + 4); checked at compile time.
pub const MBS_RIGID_BODY_CORE_WORDS: usize = 29;

/// The validated core body kept with a rigid body, and the checksum that says the body's fields
/// are unchanged since (private to the library: zero it or leave it, never fill it).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct mbs_rigid_body_validated_of<T> {
    /// core's `RigidBody<T>` as validation built it, bit for bit (all `T`, no padding), so a
    /// step borrows it instead of building a body (no copy, no stack for it).
    core: [T; MBS_RIGID_BODY_CORE_WORDS],
    /// A polynomial hash of the 32-bit words of the public fields and `core` (`h = h P + w`
    /// with FNV's offset basis and prime).
    checksum: u32,
    /// Zero: padding made explicit, so that every byte of the struct is defined.
    _pad0: u32,
}

impl<T: Default + Copy> Default for mbs_rigid_body_validated_of<T> {
    fn default() -> Self {
        Self {
            core: [T::default(); MBS_RIGID_BODY_CORE_WORDS],
            checksum: 0,
            _pad0: 0,
        }
    }
}

impl<T: Real> mbs_rigid_body_validated_of<T> {
    const LAYOUT_MATCHES: () = assert!(
        core::mem::size_of::<RigidBody<T>>() == MBS_RIGID_BODY_CORE_WORDS * core::mem::size_of::<T>()
            && core::mem::align_of::<RigidBody<T>>() == core::mem::align_of::<T>(),
        "core's RigidBody<T> is no longer 29 plain T: update MBS_RIGID_BODY_CORE_WORDS (and the Python mirror)"
    );

    /// Keeps `b` (bit for bit).
    fn keep(b: &RigidBody<T>) -> [T; MBS_RIGID_BODY_CORE_WORDS] {
        let () = Self::LAYOUT_MATCHES;
        let mut core = [T::zero(); MBS_RIGID_BODY_CORE_WORDS];
        // SAFETY: same size and alignment (asserted at compile time); `RigidBody<T>` is plain
        // floats (Copy, no padding: 29 T in 29 T of space), so its bytes are initialized.
        unsafe { core.as_mut_ptr().cast::<RigidBody<T>>().write(*b) };
        core
    }

    /// The kept body.
    fn body(&self) -> &RigidBody<T> {
        let () = Self::LAYOUT_MATCHES;
        // SAFETY: same size and alignment (asserted at compile time); every bit pattern of
        // floats is a valid `RigidBody<T>` value (it has float fields only). Whether the
        // value is a validated body is what the checksum says (`is_sealed`).
        unsafe { &*self.core.as_ptr().cast::<RigidBody<T>>() }
    }
}

/// FNV's 32-bit offset basis and prime, as a polynomial hash of whole 32-bit words: each step
/// `h = h P + w (mod 2^32)` is a bijection of `h` for a given `w` (P odd) and of `w` for a given
/// `h`, so changing any single word always changes the checksum (one multiply-add per word).
const CHECK_OFFSET: u32 = 0x811c_9dc5;
const CHECK_PRIME: u32 = 0x0100_0193;

/// Folds the bits of `xs` (f32 or f64: no padding, 4-byte aligned) as 32-bit words.
#[inline]
fn fold_words<T: Real>(mut h: u32, xs: &[T]) -> u32 {
    const { assert!(core::mem::size_of::<T>().is_multiple_of(4) && core::mem::align_of::<T>() >= 4) };
    let n = core::mem::size_of_val(xs) / 4;
    // SAFETY: `xs` is `4 n` initialized bytes of floats (no padding), aligned to at least 4
    // (asserted above); every bit pattern is a valid u32.
    let words = unsafe { core::slice::from_raw_parts(xs.as_ptr().cast::<u32>(), n) };
    for &w in words {
        h = h.wrapping_mul(CHECK_PRIME).wrapping_add(w);
    }
    h
}

/// A rigid body in double precision.
pub type mbs_rigid_body = mbs_rigid_body_of<f64>;
/// A rigid body in single precision.
pub type mbs_rigid_body_f32 = mbs_rigid_body_of<f32>;

impl<T: Real> mbs_rigid_body_of<T> {
    /// The checksum of the public fields and `core`.
    fn checksum(&self, core: &[T; MBS_RIGID_BODY_CORE_WORDS]) -> u32 {
        let mut h = fold_words(CHECK_OFFSET, core::slice::from_ref(&self.mass));
        h = fold_words(h, &self.inertia);
        h = fold_words(h, &self.center_of_mass);
        h = fold_words(h, &self.reference_position);
        h = fold_words(h, &self.reference_orientation);
        fold_words(h, core)
    }

    /// `true` if `validated` is what validating exactly these fields wrote (init or
    /// `mbs_rigid_body_validate`): no field changed since.
    pub fn is_sealed(&self) -> bool {
        self.validated.checksum == self.checksum(&self.validated.core)
    }

    /// The validated core body of a sealed body ([`Self::is_sealed`]), borrowed: no
    /// validation and no copy. `None` if the body is not sealed (then use [`Self::to_core`]).
    #[inline]
    pub fn sealed_core(&self) -> Option<&RigidBody<T>> {
        self.is_sealed().then(|| self.validated.body())
    }

    /// The core body: a copy of the kept one if sealed, else [`Self::to_core`].
    pub fn to_core_or_sealed(&self) -> FfiResult<RigidBody<T>> {
        match self.sealed_core() {
            Some(b) => Ok(*b),
            None => self.to_core(),
        }
    }

    /// The validated core body: `MBS_ERR_NOT_FINITE`, `MBS_ERR_INVALID_MASS` (<= 0),
    /// `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_INVALID_ORIENTATION` (reference not unit).
    pub fn to_core(&self) -> FfiResult<RigidBody<T>> {
        all_finite(&self.reference_orientation)?;
        let b = RigidBody::new(
            finite(self.mass)?,
            mat3(&self.inertia)?,
            vec3(&self.center_of_mass)?,
        )
        .map_err(status_of)?;
        b.with_reference(
            vec3(&self.reference_position)?,
            Quaternion::from_array(self.reference_orientation),
        )
        .map_err(status_of)
    }

    /// The C parameters of a (validated) core body, sealed (the inertia as stored:
    /// symmetrized).
    pub fn of(b: &RigidBody<T>) -> Self {
        let mut c = Self {
            mass: b.mass(),
            inertia: mat3_to_rows(b.inertia()),
            center_of_mass: (*b.center_of_mass()).into(),
            reference_position: (*b.reference_position()).into(),
            reference_orientation: b.reference_orientation().to_array(),
            validated: mbs_rigid_body_validated_of::default(),
        };
        let core = mbs_rigid_body_validated_of::keep(b);
        c.validated = mbs_rigid_body_validated_of {
            core,
            checksum: c.checksum(&core),
            _pad0: Default::default(),
        };
        c
    }
}

/// The generic `mbs_rigid_body_init`.
///
/// # Safety
/// As `mbs_rigid_body_init`.
pub unsafe fn init<T: Real>(
    out: *mut mbs_rigid_body_of<T>,
    mass: T,
    inertia: *const [T; 9],
    center_of_mass: *const [T; 3],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let c = mbs_rigid_body_of {
                    mass,
                    inertia: read(inertia)?,
                    center_of_mass: read(center_of_mass)?,
                    reference_position: [T::zero(); 3],
                    reference_orientation: [T::one(), T::zero(), T::zero(), T::zero()],
                    validated: mbs_rigid_body_validated_of::default(),
                };
                Ok((mbs_rigid_body_of::of(&c.to_core()?), MBS_OK))
            })
        }
    })
}

/// The generic `mbs_rigid_body_validate`.
///
/// # Safety
/// As `mbs_rigid_body_validate`.
pub unsafe fn validate<T: Real>(body: *mut mbs_rigid_body_of<T>) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees (read first, written only on success).
        unsafe {
            write_with(body, || {
                let c = read(body.cast_const())?;
                Ok((mbs_rigid_body_of::of(&c.to_core()?), MBS_OK))
            })
        }
    })
}

/// The generic `mbs_rigid_output`.
///
/// # Safety
/// As `mbs_rigid_output`.
pub unsafe fn output<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    state: *const mbs_rigid_state_of<T>,
    var: MbsOutputVariable,
    local_position: *const [T; 3],
    out: *mut T,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    guard(|| {
        let r = (|| {
            non_null_out(out)?;
            non_null_out(written)?;
            // SAFETY: forwarded caller guarantees.
            let (b, s, p) = unsafe { (read(body)?, read(state)?, read(local_position)?) };
            let var = variable(var)?;
            let (b, s, p) = (b.to_core_or_sealed()?, s.to_core()?, vec3(&p)?);
            b.output(&s, var, &p).map_err(status_of)
        })();
        match r {
            // SAFETY: non-null, `out_len` elements by the caller's guarantee.
            Ok(v) => unsafe { write_value(&v, out, out_len, written) },
            Err(s) => s,
        }
    })
}

/// The generic `mbs_rigid_position_jacobian`.
///
/// # Safety
/// As `mbs_rigid_position_jacobian`.
pub unsafe fn position_jacobian<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    state: *const mbs_rigid_state_of<T>,
    local_position: *const [T; 3],
    out: *mut [T; 18],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let (b, s, p) = (read(body)?, read(state)?, read(local_position)?);
                let (b, s, p) = (b.to_core_or_sealed()?, s.to_core()?, vec3(&p)?);
                let j = b.position_jacobian(&s, &p).map_err(status_of)?;
                let rows = rows_of::<T, 3, 6, 18>(&j);
                finite_result(&rows)?;
                Ok((rows, MBS_OK))
            })
        }
    })
}

/// The generic `mbs_rigid_rotation_jacobian`.
///
/// # Safety
/// As `mbs_rigid_rotation_jacobian`.
pub unsafe fn rotation_jacobian<T: Real>(
    body: *const mbs_rigid_body_of<T>,
    state: *const mbs_rigid_state_of<T>,
    out: *mut [T; 18],
) -> MbsStatus {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        unsafe {
            write_with(out, || {
                let (b, s) = (read(body)?.to_core_or_sealed()?, read(state)?.to_core()?);
                let j = b.rotation_jacobian(&s).map_err(status_of)?;
                let rows = rows_of::<T, 3, 6, 18>(&j);
                finite_result(&rows)?;
                Ok((rows, MBS_OK))
            })
        }
    })
}

/// Validates a rigid body of `mass` (kg, > 0), `inertia` (kg m^2, about the centre of mass,
/// body frame, row-major 3x3) and `center_of_mass` (m, body frame, from the reference point),
/// and writes it to `*out` (inertia symmetrized, reference configuration at the origin with
/// identity orientation).
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS` (<= 0), `MBS_ERR_INVALID_INERTIA` (not symmetric to 1024 eps,
/// not positive definite, or violating the triangle inequality of the principal moments).
///
/// # Safety
/// `out` is null or valid for writes; `inertia` is null or points to 9 doubles,
/// `center_of_mass` to 3.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_body_init(
    out: *mut mbs_rigid_body,
    mass: f64,
    inertia: *const f64,
    center_of_mass: *const f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { init(out, mass, inertia.cast(), center_of_mass.cast()) }
}

/// `mbs_rigid_body_init` in single precision.
///
/// # Safety
/// As `mbs_rigid_body_init` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_body_init_f32(
    out: *mut mbs_rigid_body_f32,
    mass: f32,
    inertia: *const f32,
    center_of_mass: *const f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { init(out, mass, inertia.cast(), center_of_mass.cast()) }
}

/// Validates `*body` as `mbs_rigid_body_init` does (its reference pose included) and seals
/// it: afterwards a step compares a checksum instead of validating the body again. Call it
/// after changing a field of an initialized body (or after filling one by hand); the inertia
/// is written back symmetrized. Without it such a body still works, validated in full by
/// every call.
///
/// Errors (`*body` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_MASS`, `MBS_ERR_INVALID_INERTIA`, `MBS_ERR_INVALID_ORIENTATION`.
///
/// # Safety
/// `body` is null or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_body_validate(body: *mut mbs_rigid_body) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { validate(body) }
}

/// `mbs_rigid_body_validate` in single precision.
///
/// # Safety
/// As `mbs_rigid_body_validate`.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_body_validate_f32(body: *mut mbs_rigid_body_f32) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { validate(body) }
}

/// Reads output `var` (`MBS_OUTPUT_*`) of the body in `state` at `local_position` (m, body
/// frame, from the reference point) into `out[0 .. n)`, `n` = 1, 3 or 9
/// (`mbs_output_variable_len`), and `n` into `*written`. Frames: positions, velocities and
/// accelerations in the world frame; `ROTATION_MATRIX` = `R_0b` row-major; `ROTATION` =
/// Tait-Bryan x-y-z angles (rad, `R_0b = Rx(a) Ry(b) Rz(c)`); `ANGULAR_VELOCITY` world,
/// `ANGULAR_VELOCITY_LOCAL` body frame; `ACCELERATION` and `ANGULAR_ACCELERATION` use the
/// state's last-step accelerations; `KINETIC_ENERGY` (J). The body-wide outputs ignore
/// `local_position`. `POTENTIAL_ENERGY` is not available (a rigid body stores none).
///
/// Errors (outputs untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`,
/// `MBS_ERR_INVALID_ARGUMENT` (unknown `var`), `MBS_ERR_NOT_AVAILABLE`, `MBS_ERR_STORAGE`
/// (`out_len < n`), the body's and the state's validation errors, `MBS_ERR_NON_FINITE_STATE`
/// (the value overflowed, e.g. the energy of a huge velocity).
///
/// # Safety
/// `body`, `state`, `local_position` (3 doubles) are null or valid; `out` is null or valid for
/// `out_len` writes; `written` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_output(
    body: *const mbs_rigid_body,
    state: *const crate::rigid::state::mbs_rigid_state,
    var: MbsOutputVariable,
    local_position: *const f64,
    out: *mut f64,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        output(
            body,
            state,
            var,
            local_position.cast(),
            out,
            out_len,
            written,
        )
    }
}

/// `mbs_rigid_output` in single precision.
///
/// # Safety
/// As `mbs_rigid_output` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_output_f32(
    body: *const mbs_rigid_body_f32,
    state: *const crate::rigid::state::mbs_rigid_state_f32,
    var: MbsOutputVariable,
    local_position: *const f32,
    out: *mut f32,
    out_len: usize,
    written: *mut usize,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe {
        output(
            body,
            state,
            var,
            local_position.cast(),
            out,
            out_len,
            written,
        )
    }
}

/// The position Jacobian `Jpos(p) = d v_0(p) / d q_dot = [E3, -R_0b [p]x]` at `local_position`
/// `p` (m, body frame) as a row-major 3x6 matrix: rows are world x, y, z; columns the velocity
/// coordinates `q_dot = [v (m/s, world, reference point); w_b (rad/s, body frame)]`. A force
/// `f` (N, world) at `p` acts on the coordinates as `Q = Jpos^T f`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`, the body's and the
/// state's validation errors, `MBS_ERR_NON_FINITE_STATE` (a huge `local_position` overflowed).
///
/// # Safety
/// Pointers are null or valid (`local_position`: 3 doubles; `out`: 18 writable doubles).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_position_jacobian(
    body: *const mbs_rigid_body,
    state: *const crate::rigid::state::mbs_rigid_state,
    local_position: *const f64,
    out: *mut f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { position_jacobian(body, state, local_position.cast(), out.cast()) }
}

/// `mbs_rigid_position_jacobian` in single precision.
///
/// # Safety
/// As `mbs_rigid_position_jacobian` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_position_jacobian_f32(
    body: *const mbs_rigid_body_f32,
    state: *const crate::rigid::state::mbs_rigid_state_f32,
    local_position: *const f32,
    out: *mut f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { position_jacobian(body, state, local_position.cast(), out.cast()) }
}

/// The rotation Jacobian `Jrot = d omega_0 / d q_dot = [0, R_0b]` as a row-major 3x6 matrix
/// (columns as in `mbs_rigid_position_jacobian`). A torque `tau` (N m, world) acts on the
/// coordinates as `Q = Jrot^T tau`.
///
/// Errors (`*out` untouched): `MBS_ERR_NULL_POINTER`, `MBS_ERR_NOT_FINITE`, the body's and the
/// state's validation errors.
///
/// # Safety
/// Pointers are null or valid (`out`: 18 writable doubles).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_rotation_jacobian(
    body: *const mbs_rigid_body,
    state: *const crate::rigid::state::mbs_rigid_state,
    out: *mut f64,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { rotation_jacobian(body, state, out.cast()) }
}

/// `mbs_rigid_rotation_jacobian` in single precision.
///
/// # Safety
/// As `mbs_rigid_rotation_jacobian` (floats).
#[no_mangle]
pub unsafe extern "C" fn mbs_rigid_rotation_jacobian_f32(
    body: *const mbs_rigid_body_f32,
    state: *const crate::rigid::state::mbs_rigid_state_f32,
    out: *mut f32,
) -> MbsStatus {
    // SAFETY: forwarded caller guarantees.
    unsafe { rotation_jacobian(body, state, out.cast()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rigid::loads::mbs_rigid_loads_of;
    use crate::rigid::state::mbs_rigid_state_of;
    use crate::rigid::step::step;
    use crate::rigid::step_settings::mbs_step_settings_of;

    const INERTIA: [f64; 9] = [0.02, 0.001, 0.0, 0.001, 0.03, -0.002, 0.0, -0.002, 0.04];

    fn sealed<T: Real>() -> mbs_rigid_body_of<T> {
        let mut b = mbs_rigid_body_of::<T>::default();
        let i = INERTIA.map(T::c);
        let c = [0.1, 0.0, -0.05].map(T::c);
        // SAFETY: pointers to live locals.
        assert_eq!(unsafe { init(&mut b, T::c(2.5), &i, &c) }, MBS_OK);
        b
    }

    /// `n` steps of a tumbling body (general inertia, COM off the reference point, gravity):
    /// the final state, or the first error status.
    fn run<T: Real>(b: &mbs_rigid_body_of<T>, n: usize) -> Result<mbs_rigid_state_of<T>, u32> {
        let mut s = mbs_rigid_state_of::<T> {
            orientation: [1.0, 0.0, 0.0, 0.0].map(T::c),
            angular_velocity: [3.0, -1.0, 0.5].map(T::c),
            ..Default::default()
        };
        let l = mbs_rigid_loads_of::<T> {
            gravity: [0.0, 0.0, -9.81].map(T::c),
            ..Default::default()
        };
        let c = mbs_step_settings_of::<T>::defaults();
        for _ in 0..n {
            // SAFETY: pointers to live locals; info may be null.
            let st = unsafe { step(b, &l, &c, &mut s, T::c(1e-3), core::ptr::null_mut()) };
            if st != MBS_OK {
                return Err(st);
            }
        }
        Ok(s)
    }

    fn bits<T: Real>(s: &mbs_rigid_state_of<T>) -> [u64; 19] {
        let mut out = [0u64; 19];
        let all = s
            .position
            .iter()
            .chain(&s.orientation)
            .chain(&s.velocity)
            .chain(&s.angular_velocity)
            .chain(&s.acceleration)
            .chain(&s.angular_acceleration);
        for (o, x) in out.iter_mut().zip(all) {
            *o = x.to_f64().to_bits();
        }
        out
    }

    /// The sealed fast path (checksum, kept core body) gives the same bits as validating the
    /// same fields in full on every step (the body filled by hand: not sealed).
    fn sealed_equals_full_validation<T: Real>() {
        let b = sealed::<T>();
        assert!(b.is_sealed());
        let mut hand = b;
        hand.validated = mbs_rigid_body_validated_of::default();
        assert!(!hand.is_sealed());
        let (a, h) = (run(&b, 50).unwrap(), run(&hand, 50).unwrap());
        assert_eq!(bits(&a), bits(&h));
        assert!(a.angular_velocity[0] != T::c(3.0), "the body moved");
    }

    #[test]
    fn sealed_body_steps_like_a_fully_validated_one() {
        sealed_equals_full_validation::<f64>();
        sealed_equals_full_validation::<f32>();
    }

    /// Any field changed after init breaks the seal, and then the full validation refuses
    /// an invalid value: the seal never lets a changed field through unchecked.
    #[test]
    fn a_field_changed_after_init_is_validated_again() {
        let mut b = sealed::<f64>();
        b.mass = 0.0;
        assert!(!b.is_sealed());
        assert_eq!(run(&b, 1).unwrap_err(), MBS_ERR_INVALID_MASS);
        let mut b = sealed::<f64>();
        // Principal moments about 0.001, 0.02, 0.03: 0.001 + 0.02 < 0.03, no physical body.
        b.inertia[8] = 0.001;
        assert!(!b.is_sealed());
        assert_eq!(run(&b, 1).unwrap_err(), MBS_ERR_INVALID_INERTIA);
        let mut b = sealed::<f32>();
        b.reference_orientation[0] = 2.0;
        assert_eq!(run(&b, 1).unwrap_err(), MBS_ERR_INVALID_ORIENTATION);
        // Every single word of the body is covered, the kept core body included.
        let b = sealed::<f32>();
        let words = core::mem::offset_of!(mbs_rigid_body_of<f32>, validated)
            + core::mem::offset_of!(mbs_rigid_body_validated_of<f32>, checksum);
        for k in 0..words / 4 {
            let mut c = b;
            // SAFETY: word k of the struct's first `words` bytes (floats only, no padding).
            unsafe {
                let p = (&mut c as *mut mbs_rigid_body_of<f32>).cast::<u32>().add(k);
                p.write(p.read() ^ 1);
            }
            assert!(!c.is_sealed(), "word {k}");
        }
        // A zeroed body is no sealed body.
        assert!(!mbs_rigid_body_of::<f64>::default().is_sealed());
        assert!(!mbs_rigid_body_of::<f32>::default().is_sealed());
    }

    /// `mbs_rigid_body_validate` seals a changed body again (the same steps as a body
    /// initialized with the new value) and refuses an invalid one, leaving it untouched.
    #[test]
    fn validate_seals_again_or_refuses() {
        let mut b = sealed::<f64>();
        b.mass = 4.0;
        b.reference_position = [1.0, 2.0, 3.0];
        // SAFETY: a live local.
        assert_eq!(unsafe { mbs_rigid_body_validate(&mut b) }, MBS_OK);
        assert!(b.is_sealed());
        assert_eq!(b.reference_position, [1.0, 2.0, 3.0]);
        let mut fresh = mbs_rigid_body::default();
        let c = [0.1, 0.0, -0.05];
        // SAFETY: live locals.
        assert_eq!(unsafe { init(&mut fresh, 4.0, &INERTIA, &c) }, MBS_OK);
        assert_eq!(bits(&run(&b, 20).unwrap()), bits(&run(&fresh, 20).unwrap()));
        let mut bad = b;
        bad.inertia[0] = f64::NAN;
        let before = bad;
        // SAFETY: a live local.
        assert_eq!(
            unsafe { mbs_rigid_body_validate(&mut bad) },
            MBS_ERR_NOT_FINITE
        );
        assert_eq!(bad.inertia[1..], before.inertia[1..]);
        assert_eq!(bad.validated, before.validated);
        // SAFETY: null is refused.
        assert_eq!(
            unsafe { mbs_rigid_body_validate(core::ptr::null_mut()) },
            MBS_ERR_NULL_POINTER
        );
    }
}
