//! Flat Blinn-Phong shading of a surface normal (view coordinates) for the SVG fills: one
//! directional light from the upper left front, an ambient term, and a white highlight scaled
//! by the primitive's specular coefficient (Modelica's `specularCoefficient`: 0 = no highlight).

use nalgebra::Vector3;

/// Fraction of the base color seen without direct light.
pub const AMBIENT: f32 = 0.45;
/// Fraction added at normal incidence.
pub const DIFFUSE: f32 = 0.55;
/// Phong exponent of the highlight.
pub const SHININESS: f32 = 24.0;
/// Highlight intensity per unit specular coefficient.
pub const SPECULAR_GAIN: f32 = 0.35;

/// The light direction (unit, view coordinates: right, up, toward the viewer).
pub fn light() -> Vector3<f64> {
    let l: Vector3<f64> = Vector3::new(-0.45, 0.6, 1.0);
    l / l.dot(&l).sqrt()
}

/// The shaded RGB of `base` for the unit normal `n` (view coordinates).
pub fn shade(base: [f32; 3], n: &Vector3<f64>, specular: f32) -> [f32; 3] {
    let l = light();
    let v = Vector3::new(0.0, 0.0, 1.0);
    let h = (l + v) / (l + v).dot(&(l + v)).sqrt();
    let diff = n.dot(&l).max(0.0) as f32;
    let spec = (n.dot(&h).max(0.0) as f32).powf(SHININESS) * SPECULAR_GAIN * specular;
    let k = AMBIENT + DIFFUSE * diff;
    [
        (base[0] * k + spec).min(1.0),
        (base[1] * k + spec).min(1.0),
        (base[2] * k + spec).min(1.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lit_faces_are_brighter_and_specular_adds_white() {
        let base = [0.2, 0.4, 0.8];
        let lit = shade(base, &light(), 0.0);
        let back = shade(base, &Vector3::new(0.0, 0.0, -1.0), 0.0);
        assert!(lit[2] > back[2]);
        assert!((back[2] - 0.8 * AMBIENT).abs() < 1e-6);
        let shiny = shade(base, &light(), 1.0);
        assert!(shiny[0] > lit[0]);
    }
}
