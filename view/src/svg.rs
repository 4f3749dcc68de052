//! Small helpers to write SVG text: numbers, colors, escaping.

use mbs_core::graphics::Color;
use std::fmt::Write;

/// A coordinate with two decimals (pixels), `-0` written as `0`.
pub fn num(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    if s == "-0" || s.is_empty() {
        "0".to_string()
    } else {
        s
    }
}

/// `#rrggbb` of a color's RGB (components clamped into [0, 1]).
pub fn hex(rgb: [f32; 3]) -> String {
    let c = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", c(rgb[0]), c(rgb[1]), c(rgb[2]))
}

/// RGB of a color.
pub fn rgb(c: &Color) -> [f32; 3] {
    let [r, g, b, _] = c.rgba();
    [r, g, b]
}

/// Escapes `& < > " '` for text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// `points="x1,y1 x2,y2 ..."` value of a polygon/polyline.
pub fn points(pts: &[[f64; 2]]) -> String {
    let mut s = String::new();
    for (i, p) in pts.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{},{}", num(p[0]), num(p[1]));
    }
    s
}

/// The SVG document head: size in pixels and the font used for all text.
pub fn open(width: u32, height: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_colors_and_escapes() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.345), "12.35");
        assert_eq!(hex([1.0, 0.5, 0.0]), "#ff8000");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(points(&[[0.0, 1.5], [2.0, 3.0]]), "0,1.5 2,3");
    }
}
