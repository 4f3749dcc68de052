//! Loads of a system, each on a marker: Exudyn's `LoadForceVector` (world force on a position
//! marker), `LoadTorqueVector` (torque on a rigid marker, world or body frame),
//! `LoadMassProportional` (uniform acceleration on a mass marker: gravity), and a user load
//! whose vector a callback gives at each time.
//!
//! # The user callback
//! [`LoadFn`] is a plain C function pointer with a context pointer, so the C API passes a C
//! callback straight through and nothing allocates:
//! `extern "C-unwind" fn(ctx: *mut c_void, t: T, out: *mut [T; 3])` (`extern "C"` on bare
//! metal). The system calls it with the context it was given, the time `t` (s) at which the
//! load is needed, and `out` pointing to
//! three zeros; the callback writes the vector (N, N m or m/s^2 as its [`UserLoadKind`] says)
//! into `out[0..3]`. It may be called several times per step (at the start and the end of a
//! step, and by sensors), so it must be a function of `t` (and of what `ctx` holds), not count
//! calls. **It must write a finite vector**: a NaN or infinite component fails the step with
//! `NotFinite(Force | Torque | Acceleration)` at this load, and the state is left untouched.
//! **It must return**: an unwind out of it (a C++ exception, a Rust panic) aborts the process
//! ([`crate::foreign`]).
//!
//! The context is kept as an address (`usize`), so the system stays `Send`: whoever steps the
//! system must be allowed to use what `ctx` points to (core never dereferences it). A Rust
//! callback reads its context with `unsafe`; core itself contains no unsafe code.

use super::body_states::BodyStates;
use super::index::{item, MarkerIndex};
use super::marker::{Marker, MarkerKind};
use super::node_force::NodeForce;
use crate::error::finite_all;
use crate::foreign::abort_on_unwind;
use crate::loads::{LoadForceVector, LoadMassProportional};
use crate::{Error, Param, Real, Result};
use core::ffi::c_void;
use nalgebra::Vector3;

/// A time-dependent load vector: writes the vector at time `t` (s) into `out` (see the module
/// docs; it must write finite values). `extern "C-unwind"` on hosted targets, so that a C++
/// exception leaving it is defined (and aborts, [`crate::foreign`]).
#[cfg(not(target_os = "none"))]
pub type LoadFn<T> = extern "C-unwind" fn(ctx: *mut c_void, t: T, out: *mut [T; 3]);
/// A time-dependent load vector (see the module docs). `extern "C"` on bare metal, where
/// nothing unwinds: a call that may unwind would need the personality routine of an unwinder
/// those targets lack (a RISC-V link then fails on `rust_eh_personality`).
#[cfg(target_os = "none")]
pub type LoadFn<T> = extern "C" fn(ctx: *mut c_void, t: T, out: *mut [T; 3]);

/// What a user load's vector is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UserLoadKind {
    /// A force (N, world frame) on a position marker.
    Force,
    /// A torque (N m, world frame) on a rigid marker.
    TorqueGlobal,
    /// A torque (N m, body frame of the rigid marker, turning with it).
    TorqueLocal,
    /// A uniform acceleration (m/s^2, world frame) on a mass marker.
    MassProportional,
}

impl UserLoadKind {
    fn marker_kind(self) -> MarkerKind {
        match self {
            UserLoadKind::Force => MarkerKind::Position,
            UserLoadKind::TorqueGlobal | UserLoadKind::TorqueLocal => MarkerKind::Rigid,
            UserLoadKind::MassProportional => MarkerKind::Mass,
        }
    }

    fn param(self) -> Param {
        match self {
            UserLoadKind::Force => Param::Force,
            UserLoadKind::TorqueGlobal | UserLoadKind::TorqueLocal => Param::Torque,
            UserLoadKind::MassProportional => Param::Acceleration,
        }
    }
}

/// A callback with its context. Compared by address (function and context): two distinct
/// functions with identical machine code may be merged by the linker and then compare equal.
#[derive(Clone, Copy, Debug)]
pub struct UserFunction<T> {
    function: LoadFn<T>,
    context: usize,
}

impl<T> PartialEq for UserFunction<T> {
    fn eq(&self, other: &Self) -> bool {
        self.function as usize == other.function as usize && self.context == other.context
    }
}

impl<T: Real> UserFunction<T> {
    /// `function` with `context` (passed back to it unchanged; may be null).
    pub fn new(function: LoadFn<T>, context: *mut c_void) -> Self {
        Self {
            function,
            context: context as usize,
        }
    }

    /// Calls the function at `t` (s); `NotFinite(p)` unless it wrote a finite vector.
    pub fn call(&self, t: T, p: Param) -> Result<Vector3<T>> {
        let mut out = [T::zero(); 3];
        abort_on_unwind(|| {
            (self.function)(self.context as *mut c_void, t, &mut out as *mut [T; 3])
        });
        let v = Vector3::new(out[0], out[1], out[2]);
        finite_all(&v, p)?;
        Ok(v)
    }
}

/// A load of a system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Load<T: Real> {
    /// Exudyn's `LoadForceVector`: a constant force (N, world) on a position marker.
    ForceVector {
        /// A position marker (`MarkerNodePosition`, `MarkerBodyPosition`, `MarkerBodyRigid`).
        marker: MarkerIndex,
        /// The force.
        load: LoadForceVector<T>,
    },
    /// Exudyn's `LoadTorqueVector`: a constant torque on a rigid marker, in N m, resolved in the
    /// world frame, or in the marker's body frame if `body_fixed` (then it turns with the body:
    /// `tau_0 = R_0b tau`).
    TorqueVector {
        /// A rigid marker (`MarkerBodyRigid`).
        marker: MarkerIndex,
        /// The torque (N m).
        torque: Vector3<T>,
        /// `true`: body frame; `false`: world frame (Exudyn's `bodyFixed`, default false).
        body_fixed: bool,
    },
    /// Exudyn's `LoadMassProportional`: a uniform acceleration (m/s^2, world) on the mass of a
    /// mass marker's body (gravity).
    MassProportional {
        /// A mass marker (`MarkerBodyMass`).
        marker: MarkerIndex,
        /// The acceleration.
        load: LoadMassProportional<T>,
    },
    /// A load whose vector a callback gives at each time (module docs).
    User {
        /// The marker, of the kind `kind` needs.
        marker: MarkerIndex,
        /// What the vector is.
        kind: UserLoadKind,
        /// The callback and its context.
        function: UserFunction<T>,
    },
}

impl<T: Real> Load<T> {
    /// A force `force` (N, world) on `marker`; `NotFinite(Force)`.
    pub fn force(marker: MarkerIndex, force: Vector3<T>) -> Result<Self> {
        Ok(Load::ForceVector {
            marker,
            load: LoadForceVector::new(force)?,
        })
    }

    /// A torque (N m; world frame, or body frame if `body_fixed`) on `marker`;
    /// `NotFinite(Torque)`.
    pub fn torque(marker: MarkerIndex, torque: Vector3<T>, body_fixed: bool) -> Result<Self> {
        finite_all(&torque, Param::Torque)?;
        Ok(Load::TorqueVector {
            marker,
            torque,
            body_fixed,
        })
    }

    /// A uniform acceleration `g` (m/s^2, world) on `marker`'s body; `NotFinite(Acceleration)`.
    pub fn mass_proportional(marker: MarkerIndex, g: Vector3<T>) -> Result<Self> {
        Ok(Load::MassProportional {
            marker,
            load: LoadMassProportional::new(g)?,
        })
    }

    /// A user load (module docs) on `marker`.
    pub fn user(
        marker: MarkerIndex,
        kind: UserLoadKind,
        function: LoadFn<T>,
        context: *mut c_void,
    ) -> Self {
        Load::User {
            marker,
            kind,
            function: UserFunction::new(function, context),
        }
    }

    /// The load's marker.
    pub fn marker(&self) -> MarkerIndex {
        match self {
            Load::ForceVector { marker, .. }
            | Load::TorqueVector { marker, .. }
            | Load::MassProportional { marker, .. }
            | Load::User { marker, .. } => *marker,
        }
    }

    /// The marker kind the load needs.
    pub fn marker_kind(&self) -> MarkerKind {
        match self {
            Load::ForceVector { .. } => MarkerKind::Position,
            Load::TorqueVector { .. } => MarkerKind::Rigid,
            Load::MassProportional { .. } => MarkerKind::Mass,
            Load::User { kind, .. } => kind.marker_kind(),
        }
    }

    /// Checks that the marker exists (`UnknownIndex`) and is of the kind the load needs
    /// (`MarkerNotSupported`).
    pub fn check(&self, markers: &[Marker<T>]) -> Result<()> {
        let m = item(markers, self.marker().get())?;
        if m.is(self.marker_kind()) {
            Ok(())
        } else {
            Err(Error::MarkerNotSupported)
        }
    }

    /// The load's vector at time `t` (s), as given: force (N, world), torque (N m, world or
    /// body frame), acceleration (m/s^2, world). Calls a user load's callback.
    pub fn value(&self, t: T) -> Result<Vector3<T>> {
        Ok(match self {
            Load::ForceVector { load, .. } => load.load_vector(),
            Load::TorqueVector { torque, .. } => *torque,
            Load::MassProportional { load, .. } => load.load_vector(),
            Load::User { kind, function, .. } => function.call(t, kind.param())?,
        })
    }

    /// The generalized force at time `t` (s) in the states of `view`, and the node it acts on
    /// (`None` on the ground).
    pub fn generalized_force(
        &self,
        view: &BodyStates<'_, T>,
        markers: &[Marker<T>],
        t: T,
    ) -> Result<Option<NodeForce<T>>> {
        let m = item(markers, self.marker().get())?;
        let v = self.value(t)?;
        let zero = Vector3::zeros();
        let (kind, body_fixed) = match self {
            Load::ForceVector { .. } => (UserLoadKind::Force, false),
            Load::TorqueVector { body_fixed, .. } => (UserLoadKind::TorqueGlobal, *body_fixed),
            Load::MassProportional { .. } => (UserLoadKind::MassProportional, false),
            Load::User { kind, .. } => (*kind, *kind == UserLoadKind::TorqueLocal),
        };
        match kind {
            UserLoadKind::Force => m.generalized_force(view, &v, &zero),
            UserLoadKind::TorqueGlobal | UserLoadKind::TorqueLocal => {
                let tau = if body_fixed {
                    m.rotation(view)?.0 * v
                } else {
                    v
                };
                m.generalized_force(view, &zero, &tau)
            }
            UserLoadKind::MassProportional => m.mass_force(view, &v),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    static CALLS: core::sync::atomic::AtomicU32 = core::sync::atomic::AtomicU32::new(0);

    // (core forbids unsafe code, so these callbacks cannot write `out`; a C or unsafe Rust
    // callback does)
    extern "C-unwind" fn counting(_: *mut c_void, _: f64, _: *mut [f64; 3]) {
        CALLS.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
    }

    extern "C-unwind" fn echo_time(_: *mut c_void, _t: f64, _out: *mut [f64; 3]) {}

    #[test]
    fn user_functions_compare_by_address_and_zero_is_the_default_output() {
        let ctx = 8usize as *mut c_void;
        let a = UserFunction::new(echo_time, ctx);
        assert_eq!(a, UserFunction::new(echo_time, ctx));
        assert_ne!(a, UserFunction::new(counting, ctx));
        assert_ne!(a, UserFunction::new(echo_time, core::ptr::null_mut()));
        // a callback that writes nothing leaves the zeros the system gave it
        assert_eq!(a.call(1.0, Param::Force), Ok(Vector3::zeros()));
        let before = CALLS.load(core::sync::atomic::Ordering::Relaxed);
        let c = UserFunction::new(counting, ctx);
        assert_eq!(c.call(0.5, Param::Torque), Ok(Vector3::zeros()));
        assert_eq!(
            CALLS.load(core::sync::atomic::Ordering::Relaxed),
            before + 1
        );
    }
}
