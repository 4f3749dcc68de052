//! [`Sizes`]: how many coordinates and constraint equations a step solves for.

use crate::integrators::constrained::model::ConstrainedModel;
use crate::{Error, Real, Result};

/// The number of coordinates `n` and of constraint equations `m` of a model (the leading
/// `n` or `m` entries of every vector and block of a step are used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sizes {
    /// Coordinates `n`.
    pub(crate) n: usize,
    /// Constraint equations `m`.
    pub(crate) m: usize,
}

impl Sizes {
    /// The sizes of `model`; `CapacityFull` for no coordinates or `n + m > S`.
    pub(super) fn of<T: Real, M: ConstrainedModel<T>, const S: usize>(model: &M) -> Result<Self> {
        let (n, m) = (model.coordinates(), model.constraints());
        if n == 0 || n.checked_add(m).is_none_or(|k| k > S) {
            return Err(Error::CapacityFull);
        }
        Ok(Self { n, m })
    }
}
