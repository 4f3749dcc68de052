//! A solve's time grid: where each of its steps ends.

use crate::Real;

/// The end times of a solve's steps: step `i` of `steps` at `start + i h` (s), the last at
/// `end` exactly (not a running sum of `h`). Off ([`Grid::off`], every field zero) outside a
/// solve: a plain value rather than an `Option`, so that every byte of it is written when a
/// solve ends (a refused solve changes no byte of a C storage).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Grid<T> {
    pub(crate) start: T,
    pub(crate) h: T,
    pub(crate) end: T,
    pub(crate) steps: u32,
    /// Steps taken on the grid so far.
    pub(crate) taken: u32,
}

impl<T: Real> Grid<T> {
    /// No grid: `steps == 0`.
    pub(crate) fn off() -> Self {
        Self {
            start: T::zero(),
            h: T::zero(),
            end: T::zero(),
            steps: 0,
            taken: 0,
        }
    }

    /// `true` during a solve (a solve takes at least one step).
    pub(crate) fn is_on(&self) -> bool {
        self.steps > 0
    }

    /// The end time of the next step; `None` after the last (or when off).
    pub(crate) fn next_end(&self) -> Option<T> {
        let i = self.taken.checked_add(1)?;
        match i.cmp(&self.steps) {
            core::cmp::Ordering::Less => Some(self.start + self.h * T::c(f64::from(i))),
            core::cmp::Ordering::Equal => Some(self.end),
            core::cmp::Ordering::Greater => None,
        }
    }
}
