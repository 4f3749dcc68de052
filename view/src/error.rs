//! [`ViewError`]: what can go wrong while making a picture or a table.

use std::fmt;

/// An error of `mbs-view`.
#[derive(Debug)]
pub enum ViewError {
    /// The core refused the scene (non-finite pose, bad contour range, ...).
    Core(mbs_core::Error),
    /// Writing a file failed.
    Io(std::io::Error),
    /// The SVG could not be parsed for rasterizing (a bug of this crate if it happens).
    Svg(String),
    /// Rasterizing or PNG encoding failed (e.g. a zero image size).
    Png(String),
    /// A table row has the wrong number of values, or a time is not increasing/finite.
    Table(String),
    /// A primitive stream ([`crate::stream`]) could not be read: the line (1-based, 0 for the
    /// whole stream) and what is wrong.
    Stream {
        /// Line number (1-based; 0 = the stream as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::Core(e) => write!(f, "scene: {e}"),
            ViewError::Io(e) => write!(f, "file: {e}"),
            ViewError::Svg(e) => write!(f, "svg: {e}"),
            ViewError::Png(e) => write!(f, "png: {e}"),
            ViewError::Table(e) => write!(f, "table: {e}"),
            ViewError::Stream { line, message } => write!(f, "scene stream line {line}: {message}"),
        }
    }
}

impl std::error::Error for ViewError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ViewError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<mbs_core::Error> for ViewError {
    fn from(e: mbs_core::Error) -> Self {
        ViewError::Core(e)
    }
}

impl From<std::io::Error> for ViewError {
    fn from(e: std::io::Error) -> Self {
        ViewError::Io(e)
    }
}

/// `Result` with [`ViewError`].
pub type Result<T> = std::result::Result<T, ViewError>;
