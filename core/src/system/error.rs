//! The error of the system's whole-system operations (assemble, step, solve): the core
//! [`Error`] together with the item it concerns.

use super::index::ItemRef;
use crate::Error;

/// What went wrong ([`Error`]) and where ([`ItemRef`]): e.g. `SameMarker` at
/// `Connector(ConnectorIndex(3))`, or `NotAssembled` at `System`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SystemError {
    /// The error.
    pub error: Error,
    /// The item it concerns ([`ItemRef::System`] for the system as a whole).
    pub item: ItemRef,
}

impl SystemError {
    /// `error` at `item`.
    #[inline]
    pub fn new(error: Error, item: ItemRef) -> Self {
        Self { error, item }
    }
}

impl From<SystemError> for Error {
    #[inline]
    fn from(e: SystemError) -> Self {
        e.error
    }
}

impl core::fmt::Display for SystemError {
    #[inline]
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} at {:?}", self.error, self.item)
    }
}

/// A [`SystemError`] is an error (`?` into `Box<dyn Error>` keeps its item); its source is the
/// core [`Error`].
impl core::error::Error for SystemError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// `core::result::Result` with [`SystemError`].
pub type SystemResult<T> = core::result::Result<T, SystemError>;

/// Attaches an item to a core error.
pub(crate) trait At<V> {
    /// Maps `Err(e)` to `Err(SystemError { error: e, item })`.
    fn at(self, item: ItemRef) -> SystemResult<V>;
}

impl<V> At<V> for crate::Result<V> {
    #[inline]
    fn at(self, item: ItemRef) -> SystemResult<V> {
        self.map_err(|error| SystemError { error, item })
    }
}
