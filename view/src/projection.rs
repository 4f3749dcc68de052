//! [`View`]: the direction a scene is looked at, as an orthonormal camera basis, and
//! [`Projector`], which maps world points (m) to image pixels.
//!
//! Orthographic throughout: a world point `p` has view coordinates `(right.p, up.p, toward.p)`;
//! `toward` points from the scene to the viewer, so a larger third coordinate is nearer.

use nalgebra::Vector3;

/// How the scene is looked at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// Along -x, from +x: right = world y, up = world z.
    AlongX,
    /// Along -y, from +y (from above when y is up): right = world z, up = world x.
    AlongY,
    /// Along -z, from +z: right = world x, up = world y (the x-y plane as drawn on paper).
    AlongZ,
    /// Isometric: from direction (1, 1, 1), world y up (Modelica's gravity is -y).
    Isometric,
}

impl View {
    /// `(right, up, toward)`: an orthonormal right-handed basis, `right x up = toward`.
    pub fn basis(&self) -> (Vector3<f64>, Vector3<f64>, Vector3<f64>) {
        match self {
            View::AlongX => (Vector3::y(), Vector3::z(), Vector3::x()),
            View::AlongY => (Vector3::z(), Vector3::x(), Vector3::y()),
            View::AlongZ => (Vector3::x(), Vector3::y(), Vector3::z()),
            View::Isometric => {
                let toward = Vector3::new(1.0, 1.0, 1.0) / 3f64.sqrt();
                let right = Vector3::y().cross(&toward);
                let right = right / right.dot(&right).sqrt();
                let up = toward.cross(&right);
                (right, up, toward)
            }
        }
    }

    /// A short name for titles ("along x", "isometric", ...).
    pub fn name(&self) -> &'static str {
        match self {
            View::AlongX => "view along x",
            View::AlongY => "view along y",
            View::AlongZ => "view along z",
            View::Isometric => "isometric view",
        }
    }
}

/// World (m) to view coordinates and to pixels: `px = ox + s (right.p)`,
/// `py = oy - s (up.p)` (image y grows downwards).
#[derive(Clone, Copy, Debug)]
pub struct Projector {
    right: Vector3<f64>,
    up: Vector3<f64>,
    toward: Vector3<f64>,
    /// Pixels per metre.
    pub scale: f64,
    /// Pixel of the view origin.
    pub origin: [f64; 2],
}

impl Projector {
    /// A projector for `view` that fits the view-plane box `[min, max]` (m, right/up
    /// coordinates) into the pixel rectangle `[x0, y0, w, h]`, centred, aspect kept.
    pub fn fit(view: View, min: [f64; 2], max: [f64; 2], rect: [f64; 4]) -> Self {
        let (right, up, toward) = view.basis();
        let span_x = (max[0] - min[0]).max(1e-9);
        let span_y = (max[1] - min[1]).max(1e-9);
        let scale = (rect[2] / span_x).min(rect[3] / span_y);
        let cx = 0.5 * (min[0] + max[0]);
        let cy = 0.5 * (min[1] + max[1]);
        let origin = [
            rect[0] + 0.5 * rect[2] - scale * cx,
            rect[1] + 0.5 * rect[3] + scale * cy,
        ];
        Self {
            right,
            up,
            toward,
            scale,
            origin,
        }
    }

    /// The view coordinates `(right.p, up.p, toward.p)` (m).
    pub fn view(&self, p: &Vector3<f64>) -> Vector3<f64> {
        Vector3::new(self.right.dot(p), self.up.dot(p), self.toward.dot(p))
    }

    /// A world direction in view coordinates.
    pub fn view_dir(&self, d: &Vector3<f64>) -> Vector3<f64> {
        self.view(d)
    }

    /// The pixel of a world point.
    pub fn pixel(&self, p: &Vector3<f64>) -> [f64; 2] {
        let v = self.view(p);
        [
            self.origin[0] + self.scale * v.x,
            self.origin[1] - self.scale * v.y,
        ]
    }

    /// A view-coordinate direction `(dx, dy)` (m) as a pixel offset.
    pub fn pixel_offset(&self, dx: f64, dy: f64) -> [f64; 2] {
        [self.scale * dx, -self.scale * dy]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases_are_right_handed_and_orthonormal() {
        for v in [View::AlongX, View::AlongY, View::AlongZ, View::Isometric] {
            let (r, u, t) = v.basis();
            assert!((r.cross(&u) - t).norm() < 1e-15, "{v:?}");
            assert!((r.norm() - 1.0).abs() < 1e-15 && (u.norm() - 1.0).abs() < 1e-15);
            assert!(r.dot(&u).abs() < 1e-15);
        }
        // Isometric: the three world axes project to equal lengths, y straight up.
        let (r, u, _) = View::Isometric.basis();
        let len = |a: Vector3<f64>| (r.dot(&a).powi(2) + u.dot(&a).powi(2)).sqrt();
        let (lx, ly, lz) = (len(Vector3::x()), len(Vector3::y()), len(Vector3::z()));
        assert!((lx - ly).abs() < 1e-15 && (ly - lz).abs() < 1e-15);
        assert!(r.dot(&Vector3::y()).abs() < 1e-15 && u.dot(&Vector3::y()) > 0.0);
    }

    #[test]
    fn fit_centres_and_flips_y() {
        let p = Projector::fit(
            View::AlongZ,
            [0.0, 0.0],
            [2.0, 1.0],
            [0.0, 0.0, 200.0, 200.0],
        );
        assert_eq!(p.scale, 100.0);
        assert_eq!(p.pixel(&Vector3::new(0.0, 0.0, 5.0)), [0.0, 150.0]);
        assert_eq!(p.pixel(&Vector3::new(2.0, 1.0, 0.0)), [200.0, 50.0]);
    }
}
