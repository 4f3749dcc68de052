//! SVG to PNG with resvg (usvg parses, tiny-skia rasterizes and encodes), and file writing.
//! The system fonts are loaded once per process (text needs them; without any font installed
//! text is left out and the shapes are still drawn); `sans-serif` is DejaVu Sans if installed.

use crate::{Result, ViewError};
use resvg::{tiny_skia, usvg};
use std::path::Path;
use std::sync::{Arc, OnceLock};

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        // The generic `sans-serif` (the time plots' family) is the font the tests install
        // when present: fontdb's own default, Arial, is not on a Debian machine.
        let dejavu = db
            .faces()
            .any(|f| f.families.iter().any(|(n, _)| n == "DejaVu Sans"));
        if dejavu {
            db.set_sans_serif_family("DejaVu Sans");
        }
        Arc::new(db)
    })
    .clone()
}

/// Rasterizes SVG text to PNG bytes at the SVG's own size (1 SVG unit = 1 pixel).
///
/// # Errors
/// `Svg` if the text does not parse, `Png` for a zero size or an encoding failure.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>> {
    let opt = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| ViewError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| ViewError::Png(format!("bad size {}x{}", size.width(), size.height())))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| ViewError::Png(e.to_string()))
}

/// Writes `svg` to `path` as SVG text.
pub fn write_svg(path: &Path, svg: &str) -> Result<()> {
    std::fs::write(path, svg)?;
    Ok(())
}

/// Rasterizes `svg` and writes the PNG to `path`.
pub fn write_png(path: &Path, svg: &str) -> Result<()> {
    let png = svg_to_png(svg)?;
    std::fs::write(path, png)?;
    Ok(())
}
