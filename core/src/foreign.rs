//! Calls into the caller's code: the C callbacks a user registers (a user load's function, and
//! in the C API the draw, text and step callbacks).
//!
//! A callback is typed `extern "C-unwind"`, so that a C++ exception leaving it is defined
//! behaviour, and is called only through [`abort_on_unwind`]: the exception aborts the process
//! there, before it unwinds a frame of mbs (whose state it would leave half updated and whose
//! caller could catch it). A Rust panic in a Rust callback is treated the same way.

/// Runs `f`, which calls a callback. An unwind out of `f` (a C++ exception, a panic) reaches
/// the boundary of a non-unwinding `extern "C"` function here and aborts the process.
pub fn abort_on_unwind<R, F: FnOnce() -> R>(f: F) -> R {
    // The slot passes `f` in and its result out: `extern "C"` is what makes an unwind abort,
    // and this function is never called from C, so its argument's type needs no C layout.
    #[allow(improper_ctypes_definitions)]
    extern "C" fn call<R, F: FnOnce() -> R>(slot: &mut (Option<F>, Option<R>)) {
        if let Some(f) = slot.0.take() {
            slot.1 = Some(f());
        }
    }
    let mut slot = (Some(f), None);
    call(&mut slot);
    match slot.1 {
        Some(r) => r,
        // `call` always fills the slot: it took `f` and ran it, or the process aborted.
        None => unreachable!("abort_on_unwind: the callback's result is written"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_what_the_callback_returns() {
        let mut calls = 0;
        let r = abort_on_unwind(|| {
            calls += 1;
            7
        });
        assert_eq!((r, calls), (7, 1));
    }
}
