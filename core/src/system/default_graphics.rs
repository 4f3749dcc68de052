//! The default drawing of each object kind (used unless the object has custom graphics data,
//! [`System::set_graphics`](super::System::set_graphics)), computed when a scene is exported
//! from the object's parameters, so nothing is stored for it, except the few numbers a
//! `BodyCylinder`'s shape needs ([`CylinderShape`](super::CylinderShape), packed into the object).
//!
//! | object | default drawing (body frame) | color |
//! |---|---|---|
//! | ground | nothing (shown, no primitive) | - |
//! | mass point 2D | a sphere at the point, radius `r = cbrt(3 m / (4 pi rho))`, `rho` = 7700 kg/m^3 (a steel ball of the body's mass; Modelica `BodyCylinder`'s default density) | `-1` (`bodies.defaultColor`) |
//! | rigid body, tree link | its **equivalent uniform box**: centre at the COM, edges along the principal axes of the inertia about the COM, edge `a_i = sqrt(6 (I_j + I_k - I_i) / m)` ({i, j, k} = {0, 1, 2}), so a uniform box of these edges and mass `m` has exactly the body's inertia; an edge below 1/100 of the longest is drawn 1/100 of the longest (a thin plate stays visible) | `-1` (`bodies.defaultColor`) |
//! | rigid body 2D | a square plate in the x-y plane centred at the COM, edge `a = sqrt(6 I / m)` (a uniform square of this edge and mass `m` has the body's moment of inertia `I`), thickness `a / 10` | `-1` (`bodies.defaultColor`) |
//! | BodyCylinder | Modelica's shape ([`GraphicsData::body_cylinder`](crate::graphics::GraphicsData::body_cylinder)): from `r_shape` along `lengthDirection`, `length`, `diameter`, `innerDiameter`; hidden if `animation = false` | its `color` (default `BodyColor`), `specularCoefficient` |
//!
//! Every default primitive has specular coefficient 0.7 (Modelica's
//! `world.defaultSpecularCoefficient`) unless the BodyCylinder's own is given.
//!
//! A box along principal axes that are not the body axes cannot be written as a body-frame
//! [`Shape::Cuboid`] (its edges follow the frame's axes), so the default drawing carries the
//! rotation `R_bp` (principal frame to body frame, columns the principal axes): the scene body
//! is then posed with `R_0b R_bp` and the box centre given in the principal frame,
//! `R_bp^T r_CM`; every point lands at `r_0 + R_0b r_CM + R_0b R_bp d_p`, the box of the body.

use super::object::Object;
use crate::bodies::rigid_body::RigidBody;
use crate::graphics::{Color, GraphicsPrimitive, Shape, DEFAULT_SPECULAR_COEFFICIENT};
use crate::inertia::principal::symmetric_eigenvalues;
use crate::Real;
use nalgebra::{Matrix3, Vector3};

/// Density of the default mass-point sphere (kg/m^3): steel, Modelica `BodyCylinder`'s default.
pub const MASS_POINT_SPHERE_DENSITY: f64 = 7700.0;

/// The smallest drawn edge of a default rigid-body box, as a fraction of its longest edge.
pub const MIN_BOX_EDGE_FRACTION: f64 = 0.01;

/// An object's default drawing: its own `show` flag, at most one primitive, and for a rigid
/// body's principal-axes box the rotation `R_bp` to pose it with (`None` = the body frame).
#[derive(Clone, Copy, Debug)]
pub struct DefaultDrawing<T> {
    /// The object's own `show` (a BodyCylinder's `animation`; `true` otherwise).
    pub show: bool,
    /// The primitive (in the body frame, or in the principal frame if `frame` is set).
    pub primitive: Option<GraphicsPrimitive<T>>,
    /// `R_bp`: principal frame to body frame, if the primitive is given in the principal frame.
    pub frame: Option<Matrix3<T>>,
}

/// The default drawing of `object` (see the module table).
pub fn default_drawing<T: Real>(object: &Object<T>) -> DefaultDrawing<T> {
    let none = |show| DefaultDrawing {
        show,
        primitive: None,
        frame: None,
    };
    match object {
        Object::Ground(_) => none(true),
        Object::MassPoint2D { body, .. } => DefaultDrawing {
            show: true,
            primitive: mass_point_sphere(body.mass(), &Vector3::zeros()),
            frame: None,
        },
        Object::RigidBody { body, .. } | Object::TreeLink { body, .. } => rigid_body_box(body),
        Object::BodyCylinder { body, shape, .. } => DefaultDrawing {
            show: shape.animation(),
            primitive: shape.primitive(body.center_of_mass()),
            frame: None,
        },
        Object::RigidBody2D { body, .. } => {
            let a = (T::c(6.0) * body.inertia() / body.mass()).sqrt_l();
            let c = body.center_of_mass();
            DefaultDrawing {
                show: true,
                primitive: GraphicsPrimitive::new(
                    Shape::Cuboid {
                        center: Vector3::new(c.x, c.y, T::zero()),
                        size: Vector3::new(a, a, a * T::c(0.1)),
                    },
                    Color::DEFAULT,
                    DEFAULT_SPECULAR_COEFFICIENT,
                )
                .ok(),
                frame: None,
            }
        }
    }
}

/// The sphere of a mass `m` (kg) of steel at `center`: `r = cbrt(3 m / (4 pi rho))` (m).
fn mass_point_sphere<T: Real>(m: T, center: &Vector3<T>) -> Option<GraphicsPrimitive<T>> {
    let v = T::c(3.0) * m / (T::c(4.0 * core::f64::consts::PI * MASS_POINT_SPHERE_DENSITY));
    let radius = (v.ln_l() / T::c(3.0)).exp_l();
    GraphicsPrimitive::new(
        Shape::Sphere {
            center: *center,
            radius,
        },
        Color::DEFAULT,
        DEFAULT_SPECULAR_COEFFICIENT,
    )
    .ok()
}

/// The equivalent uniform box of a rigid body (see the module table).
fn rigid_body_box<T: Real>(body: &RigidBody<T>) -> DefaultDrawing<T> {
    let (moments, r_bp) = principal_axes(body.inertia());
    let m = body.mass();
    let six = T::c(6.0);
    let mut edge = [T::zero(); 3];
    for (i, e) in edge.iter_mut().enumerate() {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let a2 = six * (moments[j] + moments[k] - moments[i]) / m;
        *e = if a2 > T::zero() {
            a2.sqrt_l()
        } else {
            T::zero()
        };
    }
    let longest = edge[0].max(edge[1]).max(edge[2]);
    let com = body.center_of_mass();
    if !(longest > T::zero() && longest.finite()) {
        return DefaultDrawing {
            show: true,
            primitive: mass_point_sphere(m, com),
            frame: None,
        };
    }
    let min = longest * T::c(MIN_BOX_EDGE_FRACTION);
    let size = Vector3::new(edge[0].max(min), edge[1].max(min), edge[2].max(min));
    let (center, frame) = match r_bp {
        Some(r) => (r.transpose() * com, Some(r)),
        None => (*com, None),
    };
    DefaultDrawing {
        show: true,
        primitive: GraphicsPrimitive::new(
            Shape::Cuboid { center, size },
            Color::DEFAULT,
            DEFAULT_SPECULAR_COEFFICIENT,
        )
        .ok(),
        frame,
    }
}

/// Principal moments and axes of the symmetric inertia `j`: for a diagonal `j` its diagonal and
/// `None` (the body axes); otherwise the eigenvalues ([`symmetric_eigenvalues`], ascending) and
/// `R_bp` (columns the unit eigenvectors, right-handed), each eigenvector the largest cross
/// product of two rows of `j - lambda E`. The most isolated eigenvalue's axis is found first;
/// the second is orthogonalized against it, the third is their cross product; for a repeated
/// pair any orthonormal pair perpendicular to the isolated axis is an eigenbasis.
pub fn principal_axes<T: Real>(j: &Matrix3<T>) -> ([T; 3], Option<Matrix3<T>>) {
    let (a01, a02, a12) = (j[(0, 1)], j[(0, 2)], j[(1, 2)]);
    if a01 == T::zero() && a02 == T::zero() && a12 == T::zero() {
        return ([j[(0, 0)], j[(1, 1)], j[(2, 2)]], None);
    }
    let l = symmetric_eigenvalues(j);
    let scale = l[2].abs_l().max(l[0].abs_l());
    let tol = scale * T::c(1e-9);
    // The most isolated eigenvalue: l0 if it is farther from l1 than l2 is.
    let (iso, mid, other) = if l[1] - l[0] > l[2] - l[1] {
        (0, 1, 2)
    } else {
        (2, 1, 0)
    };
    let Some(v_iso) = eigenvector(j, l[iso]) else {
        return ([j[(0, 0)], j[(1, 1)], j[(2, 2)]], None);
    };
    let v_mid = if (l[mid] - l[other]).abs_l() <= tol {
        any_perpendicular(&v_iso)
    } else {
        match eigenvector(j, l[mid]) {
            Some(v) => {
                let w = v - v_iso * v_iso.dot(&v);
                let n = w.dot(&w).sqrt_l();
                if n > T::c(1e-6) {
                    w / n
                } else {
                    any_perpendicular(&v_iso)
                }
            }
            None => any_perpendicular(&v_iso),
        }
    };
    let mut cols = [Vector3::zeros(); 3];
    cols[iso] = v_iso;
    cols[mid] = v_mid;
    // Right-handed: column `other` completes (c0, c1, c2) with det +1.
    cols[other] = match other {
        0 => cols[1].cross(&cols[2]),
        _ => cols[0].cross(&cols[1]),
    };
    (l, Some(Matrix3::from_columns(&cols)))
}

/// A unit eigenvector of symmetric `j` for eigenvalue `lambda` (isolated): the largest of the
/// cross products of two rows of `j - lambda E`; `None` if all vanish.
fn eigenvector<T: Real>(j: &Matrix3<T>, lambda: T) -> Option<Vector3<T>> {
    let m = j - Matrix3::identity() * lambda;
    let r = [
        m.row(0).transpose(),
        m.row(1).transpose(),
        m.row(2).transpose(),
    ];
    let c = [r[0].cross(&r[1]), r[0].cross(&r[2]), r[1].cross(&r[2])];
    let mut best = c[0];
    let mut n2 = best.dot(&best);
    for v in &c[1..] {
        let d = v.dot(v);
        if d > n2 {
            best = *v;
            n2 = d;
        }
    }
    (n2 > T::zero() && n2.finite()).then(|| best / n2.sqrt_l())
}

/// A unit vector perpendicular to the unit vector `v`.
fn any_perpendicular<T: Real>(v: &Vector3<T>) -> Vector3<T> {
    let a = if v.x.abs_l() < T::c(0.6) {
        Vector3::x()
    } else {
        Vector3::y()
    };
    let w = a - v * v.dot(&a);
    w / w.dot(&w).sqrt_l()
}
