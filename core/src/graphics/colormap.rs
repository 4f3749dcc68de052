//! The contour colormap: Exudyn's color bar (`ColorBarColor`), a piecewise-linear rainbow through
//! five knots of the normalized value `v = (value - min)/(max - min)`:
//!
//! | v | color (RGB) |
//! |---|---|
//! | 0 | (0.1, 0.1, 0.9) blue |
//! | 0.25 | (0.1, 0.9, 0.9) cyan |
//! | 0.5 | (0.1, 0.9, 0.1) green |
//! | 0.75 | (0.9, 0.9, 0.1) yellow |
//! | 1 | (0.9, 0.1, 0.1) red |
//!
//! Below the range (`v < 0`) dark grey (0.1, 0.1, 0.1), above it (`v > 1`) light grey
//! (0.9, 0.9, 0.9), so clipped values are visible as such; NaN is treated as above. A degenerate
//! range (`max == min`) gives `v = 0` (Exudyn's choice).

use super::color::Color;
use crate::Real;

/// The knots `(v, [r, g, b])` of the colormap.
pub const KNOTS: [(f32, [f32; 3]); 5] = [
    (0.0, [0.1, 0.1, 0.9]),
    (0.25, [0.1, 0.9, 0.9]),
    (0.5, [0.1, 0.9, 0.1]),
    (0.75, [0.9, 0.9, 0.1]),
    (1.0, [0.9, 0.1, 0.1]),
];

/// Color below the range.
pub const BELOW: [f32; 3] = [0.1, 0.1, 0.1];
/// Color above the range.
pub const ABOVE: [f32; 3] = [0.9, 0.9, 0.9];

/// The color of the normalized value `v` (see the module docs), with alpha `alpha`.
pub fn colormap(v: f32, alpha: f32) -> Color {
    let rgb = if v < 0.0 {
        BELOW
    } else if v.is_nan() || v > 1.0 {
        ABOVE
    } else {
        let mut out = KNOTS[KNOTS.len() - 1].1;
        for w in KNOTS.windows(2) {
            let (v0, c0) = w[0];
            let (v1, c1) = w[1];
            if v <= v1 {
                let s = (v - v0) / (v1 - v0);
                // c0 (1 - s) + c1 s: exact at both knots.
                let l = |k: usize| c0[k] * (1.0 - s) + c1[k] * s;
                out = [l(0), l(1), l(2)];
                break;
            }
        }
        out
    };
    Color::clamped(rgb[0], rgb[1], rgb[2], alpha)
}

/// `v = (value - min)/(max - min)` as f32, `0` if `max == min`.
pub fn normalize<T: Real>(value: T, min: T, max: T) -> f32 {
    if max == min {
        return 0.0;
    }
    ((value - min) / (max - min)).to_f64() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(c: Color) -> [f32; 3] {
        let [r, g, b, _] = c.rgba();
        [r, g, b]
    }

    #[test]
    fn knots_ends_midpoints_and_clipping() {
        assert_eq!(rgb(colormap(0.0, 1.0)), [0.1, 0.1, 0.9]);
        assert_eq!(rgb(colormap(0.5, 1.0)), [0.1, 0.9, 0.1]);
        assert_eq!(rgb(colormap(1.0, 1.0)), [0.9, 0.1, 0.1]);
        // Halfway between yellow and red: g = (0.9 + 0.1)/2.
        let c = rgb(colormap(0.875, 1.0));
        assert!((c[0] - 0.9).abs() < 1e-6 && (c[1] - 0.5).abs() < 1e-6);
        assert_eq!(rgb(colormap(-0.01, 1.0)), BELOW);
        assert_eq!(rgb(colormap(1.01, 1.0)), ABOVE);
        assert_eq!(rgb(colormap(f32::NAN, 1.0)), ABOVE);
        assert_eq!(colormap(0.3, 0.25).rgba()[3], 0.25);
    }

    #[test]
    fn colormap_is_continuous() {
        let mut prev = rgb(colormap(0.0, 1.0));
        for i in 1..=1000 {
            let c = rgb(colormap(i as f32 / 1000.0, 1.0));
            for k in 0..3 {
                // Max slope 0.8 per 0.25 = 3.2 per unit: at most 3.2e-3 per step.
                assert!((c[k] - prev[k]).abs() <= 3.2e-3 + 1e-6, "jump at {i}");
            }
            prev = c;
        }
    }

    #[test]
    fn normalize_maps_min_max_to_0_1() {
        assert_eq!(normalize(2.0f64, 2.0, 6.0), 0.0);
        assert_eq!(normalize(6.0f64, 2.0, 6.0), 1.0);
        assert_eq!(normalize(3.0f64, 2.0, 6.0), 0.25);
        assert_eq!(normalize(5.0f32, 5.0, 5.0), 0.0);
    }
}
