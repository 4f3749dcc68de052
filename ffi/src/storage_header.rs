//! The header at the start of every caller-owned storage (`mbs_system`, `mbs_tree`,
//! `mbs_tree_f32`): a tag naming the kind of storage, written by its init and cleared by its
//! deinit, and the layout it was written with (the library's storage version and the size of
//! what it holds, which the capacities set). It catches accidents: a storage never
//! initialized, used after deinit, or initialized by another build of the library (other
//! capacities or version, e.g. memory kept across a firmware update). It is no defence against
//! a caller who writes the storage on purpose.

use crate::status::*;

/// Version of the storage layouts; a change of what a storage holds changes it.
const LAYOUT_VERSION: u64 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Header {
    tag: u64,
    layout: u64,
}

impl Header {
    /// The header of a storage of kind `tag` holding `size` bytes.
    pub(crate) const fn new(tag: u64, size: usize) -> Self {
        Self {
            tag,
            layout: ((size as u64) << 16) | LAYOUT_VERSION,
        }
    }

    /// What deinit leaves: no tag.
    pub(crate) const CLEARED: Self = Self { tag: 0, layout: 0 };

    /// A header read from a storage against the `expected` one: `MBS_ERR_NOT_INITIALIZED`
    /// without its tag, `MBS_ERR_STORAGE` with the tag but another layout.
    pub(crate) fn check(self, expected: Header) -> Result<(), MbsStatus> {
        if self.tag != expected.tag {
            Err(MBS_ERR_NOT_INITIALIZED)
        } else if self.layout != expected.layout {
            Err(MBS_ERR_STORAGE)
        } else {
            Ok(())
        }
    }
}
