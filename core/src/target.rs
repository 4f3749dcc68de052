//! What an in-order microcontroller core (`target_os = "none"`) does differently from an
//! out-of-order host, in one place. The results are the same bits on both; only which tests
//! run, and how, differs. (Function attributes that differ by target, `inline` on a host and
//! one out-of-line copy on a microcontroller, stay on the functions, each with its reason.)

use crate::Real;

/// `true` on a microcontroller: it executes in order, so the fewest instructions is the
/// fastest code; a host executes independent operations side by side, so the shortest chain
/// of dependent operations is.
pub const IN_ORDER: bool = cfg!(target_os = "none");

/// `true` where a finiteness check screens many entries by one test of their sum
/// ([`all_finite`](crate::finite::all_finite), [`all_finite_of`](crate::finite::all_finite_of)):
/// where additions are hardware instructions ([`Real::HARDWARE_ADD`]) and the core executes in
/// order ([`IN_ORDER`]: one addition per entry is the fewest instructions). A host tests each
/// entry: the tests run side by side, where a sum is a chain of dependent additions.
// Inlined: a constant after monomorphization.
#[inline(always)]
pub fn sum_screen<T: Real>() -> bool {
    T::HARDWARE_ADD && IN_ORDER
}

/// Whether the rigid step's result check tests the new orientation apart from the other
/// entries, so that it can skip it when the orientation is known finite
/// ([`driver`](crate::integrators::rigid::driver)). On a host the orientation ends the step's
/// longest chain of dependent operations, and a test that waits for it makes the whole step
/// wait; in order, one test of one sum is fewer instructions than two compares that skip it.
pub const TEST_ORIENTATION_APART: bool = !IN_ORDER;
