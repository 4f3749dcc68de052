//! [`Color`]: an RGBA color, each component in `[0, 1]` (f32), with Exudyn's convention that a
//! component `-1` means "take this component from `bodies.defaultColor`" (Exudyn:
//! "bodies.defaultColor where a color is -1"); [`Color::DEFAULT`] is `[-1, -1, -1, -1]`.
//!
//! Modelica's colors are integer RGB 0..255 ([`Color::from_rgb8`]); its default for bodies with
//! mass is [`Color::MODELICA_BODY`] = `{0, 128, 255}` (`Types.Defaults.BodyColor`, light blue).

use crate::{Error, Param, Result};

/// An RGBA color: red, green, blue, alpha (opacity), each in `[0, 1]`, or exactly `-1` for
/// "use the default color's component". Build with [`Color::new`] (checked) or the constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Color {
    rgba: [f32; 4],
}

/// The marker of a component taken from the default color (Exudyn's convention).
pub const USE_DEFAULT: f32 = -1.0;

impl Color {
    /// `[-1, -1, -1, -1]`: every component from `bodies.defaultColor`.
    pub const DEFAULT: Color = Color {
        rgba: [USE_DEFAULT; 4],
    };
    /// Modelica MultiBody `Types.Defaults.BodyColor = {0, 128, 255}` (light blue), opaque.
    pub const MODELICA_BODY: Color = Color::from_rgb8(0, 128, 255);
    /// Modelica MultiBody `Types.Defaults.RodColor = {155, 155, 155}` (grey), opaque.
    pub const MODELICA_ROD: Color = Color::from_rgb8(155, 155, 155);
    /// Exudyn's `bodies.defaultColor = [0.3, 0.3, 1, 1]`.
    pub const EXUDYN_BODY_DEFAULT: Color = Color {
        rgba: [0.3, 0.3, 1.0, 1.0],
    };
    /// Opaque black.
    pub const BLACK: Color = Color {
        rgba: [0.0, 0.0, 0.0, 1.0],
    };
    /// Opaque white.
    pub const WHITE: Color = Color {
        rgba: [1.0, 1.0, 1.0, 1.0],
    };

    /// A color from RGBA components, each in `[0, 1]` or exactly `-1` (default).
    ///
    /// # Errors
    /// `NotFinite(Color)` for NaN or infinity, `OutOfRange(Color)` for any other value outside
    /// `[0, 1]`.
    pub fn new(r: f32, g: f32, b: f32, a: f32) -> Result<Self> {
        let rgba = [r, g, b, a];
        for c in rgba {
            if !c.is_finite() {
                return Err(Error::NotFinite(Param::Color));
            }
            if c != USE_DEFAULT && !(0.0..=1.0).contains(&c) {
                return Err(Error::OutOfRange(Param::Color));
            }
        }
        Ok(Self { rgba })
    }

    /// A color from components clamped into `[0, 1]` (NaN becomes 0; never a default `-1`).
    pub fn clamped(r: f32, g: f32, b: f32, a: f32) -> Self {
        let c = |x: f32| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
        Self {
            rgba: [c(r), c(g), c(b), c(a)],
        }
    }

    /// An opaque color from Modelica's integer RGB `{r, g, b}` (0..255): component / 255.
    pub const fn from_rgb8(r: u8, g: u8, b: u8) -> Self {
        Self {
            rgba: [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 1.0],
        }
    }

    /// The components `[r, g, b, a]` (each in `[0, 1]` or `-1`).
    pub const fn rgba(&self) -> [f32; 4] {
        self.rgba
    }

    /// `true` if any component is `-1` (taken from the default color).
    pub fn uses_default(&self) -> bool {
        self.rgba.contains(&USE_DEFAULT)
    }

    /// The drawn color: each `-1` component replaced by `default`'s component. If `default`
    /// itself has a `-1` component there, that component becomes `0` (alpha `1`), so the result
    /// always lies in `[0, 1]`.
    pub fn resolve(&self, default: &Color) -> Color {
        let mut out = self.rgba;
        for (i, c) in out.iter_mut().enumerate() {
            if *c == USE_DEFAULT {
                let d = default.rgba[i];
                *c = if d == USE_DEFAULT {
                    if i == 3 {
                        1.0
                    } else {
                        0.0
                    }
                } else {
                    d
                };
            }
        }
        Color { rgba: out }
    }

    /// The same color with alpha replaced by `alpha` (clamped to `[0, 1]`; NaN gives 1).
    pub fn with_alpha(&self, alpha: f32) -> Color {
        let a = if alpha.is_nan() {
            1.0
        } else {
            alpha.clamp(0.0, 1.0)
        };
        let mut rgba = self.rgba;
        rgba[3] = a;
        Color { rgba }
    }
}

impl Default for Color {
    /// [`Color::DEFAULT`]: every component from `bodies.defaultColor`.
    fn default() -> Self {
        Color::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modelica_body_color_is_0_128_255() {
        let c = Color::MODELICA_BODY.rgba();
        assert_eq!(c[0], 0.0);
        assert!((c[1] * 255.0 - 128.0).abs() < 1e-4);
        assert_eq!(c[2], 1.0);
        assert_eq!(c[3], 1.0);
    }

    #[test]
    fn minus_one_components_take_the_default() -> Result<()> {
        let d = Color::new(0.1, 0.2, 0.3, 0.4)?;
        assert_eq!(Color::DEFAULT.resolve(&d), d);
        let partial = Color::new(0.9, -1.0, 0.5, -1.0)?;
        assert_eq!(partial.resolve(&d).rgba(), [0.9, 0.2, 0.5, 0.4]);
        assert!(partial.uses_default());
        assert!(!d.uses_default());
        // A full color ignores the default.
        assert_eq!(Color::WHITE.resolve(&d), Color::WHITE);
        // A default that is itself "default" resolves to opaque black, never to -1.
        assert_eq!(Color::DEFAULT.resolve(&Color::DEFAULT), Color::BLACK);
        Ok(())
    }

    #[test]
    fn out_of_range_and_non_finite_components_are_refused() {
        assert_eq!(
            Color::new(1.1, 0.0, 0.0, 1.0),
            Err(Error::OutOfRange(Param::Color))
        );
        assert_eq!(
            Color::new(0.0, -0.5, 0.0, 1.0),
            Err(Error::OutOfRange(Param::Color))
        );
        assert_eq!(
            Color::new(0.0, 0.0, f32::NAN, 1.0),
            Err(Error::NotFinite(Param::Color))
        );
        assert!(Color::new(0.0, 1.0, -1.0, 0.0).is_ok());
    }
}
