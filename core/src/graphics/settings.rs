//! [`VisualizationSettings`]: the drawing settings, with Exudyn's names and defaults.
//!
//! | setting | default (Exudyn) | meaning |
//! |---|---|---|
//! | `bodies.show` | `true` | draw bodies at all (a body is drawn iff this and its own `show`) |
//! | `bodies.show_numbers` | `false` | write each drawn body's (object) number |
//! | `bodies.default_color` | `[0.3, 0.3, 1, 1]` | replaces every `-1` color component |
//! | `contour.output_variable` | `None` (`_None`) | the output whose value colors the bodies |
//! | `contour.output_variable_component` | `0` | component of it; `-1` = the norm |
//! | `contour.rigid_bodies_colored` | `true` | rigid bodies take the color of their value |
//! | `contour.automatic_range` | `true` | min/max from the drawn values, else `min_value`/`max_value` |
//! | `contour.min_value`, `max_value` | `0`, `1` | the fixed range |
//! | `contour.alpha_transparency` | `1` | alpha of a contour color |
//! | `contour.show_color_bar` | `true` | a viewer draws the color bar with min and max |

use super::color::Color;
use crate::OutputVariableType;

/// `bodies.*`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodiesSettings {
    /// `bodies.show`: whether bodies are drawn at all (default `true`).
    pub show: bool,
    /// `bodies.showNumbers`: whether the body (object) number is written (default `false`).
    pub show_numbers: bool,
    /// `bodies.defaultColor`: RGBA used where a body's color is `-1` (default Exudyn's
    /// `[0.3, 0.3, 1, 1]`).
    pub default_color: Color,
}

impl Default for BodiesSettings {
    fn default() -> Self {
        Self {
            show: true,
            show_numbers: false,
            default_color: Color::EXUDYN_BODY_DEFAULT,
        }
    }
}

/// `contour.*`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContourSettings {
    /// `contour.outputVariable`: `None` (Exudyn's `_None`, default) switches contours off.
    pub output_variable: Option<OutputVariableType>,
    /// `contour.outputVariableComponent`: `0, 1, 2, ...` a component (matrices row-major),
    /// `-1` the (Euclidean / Frobenius) norm; default `0`. A body that has no such component
    /// keeps its own colors.
    pub output_variable_component: i32,
    /// `contour.rigidBodiesColored`: rigid bodies (and mass points) take the contour color of
    /// their value (default `true`); `false` leaves their drawing untouched by contours.
    pub rigid_bodies_colored: bool,
    /// `contour.automaticRange`: range = [min, max] of the values of the drawn bodies
    /// (default `true`).
    pub automatic_range: bool,
    /// `contour.minValue`: lower end of the range if not automatic (default 0; unit of the
    /// output variable).
    pub min_value: f64,
    /// `contour.maxValue`: upper end of the range if not automatic (default 1).
    pub max_value: f64,
    /// `contour.alphaTransparency`: alpha of a contour color (default 1).
    pub alpha_transparency: f32,
    /// `contour.showColorBar`: a viewer draws the color bar (default `true`).
    pub show_color_bar: bool,
}

impl Default for ContourSettings {
    fn default() -> Self {
        Self {
            output_variable: None,
            output_variable_component: 0,
            rigid_bodies_colored: true,
            automatic_range: true,
            min_value: 0.0,
            max_value: 1.0,
            alpha_transparency: 1.0,
            show_color_bar: true,
        }
    }
}

impl ContourSettings {
    /// `true` if bodies are contour-colored: an output variable is chosen and
    /// `rigid_bodies_colored` is set.
    pub fn colors_bodies(&self) -> bool {
        self.output_variable.is_some() && self.rigid_bodies_colored
    }
}

/// The visualization settings (Exudyn's `visualizationSettings.bodies/contour`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct VisualizationSettings {
    /// `bodies.*`.
    pub bodies: BodiesSettings,
    /// `contour.*`.
    pub contour: ContourSettings,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_exudyns() {
        let s = VisualizationSettings::default();
        assert!(s.bodies.show);
        assert!(!s.bodies.show_numbers);
        assert_eq!(s.bodies.default_color.rgba(), [0.3, 0.3, 1.0, 1.0]);
        assert_eq!(s.contour.output_variable, None);
        assert_eq!(s.contour.output_variable_component, 0);
        assert!(s.contour.rigid_bodies_colored);
        assert!(s.contour.automatic_range);
        assert_eq!((s.contour.min_value, s.contour.max_value), (0.0, 1.0));
        assert!(!s.contour.colors_bodies());
    }
}
