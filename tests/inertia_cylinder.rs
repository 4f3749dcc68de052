//! Modelica `BodyCylinder` mass properties  against independent computations:
//! textbook closed forms of the (hollow) cylinder written out here, Modelica's table formulas
//! written out here, an independently built orthonormal basis for oblique axes, and the
//! invariants (trace, eigenvalues, orthonormality).

use approx::assert_relative_eq;
use mbs_core::frames::from_nxy;
use mbs_core::inertia::{Cylinder, MassProperties};
use mbs_core::{Error, Param, Real};
use nalgebra::{Matrix3, Vector3};
use std::f64::consts::PI;

const RHO: f64 = 7700.0;

/// Textbook hollow cylinder (outer radius `r`, inner `ri`, length `l`, density `rho`):
/// `m = rho pi l (r^2 - ri^2)`, axial `m (r^2 + ri^2)/2`, transverse `m (3 (r^2 + ri^2) + l^2)/12`.
fn textbook(rho: f64, l: f64, r: f64, ri: f64) -> (f64, f64, f64) {
    let m = rho * PI * l * (r * r - ri * ri);
    (
        m,
        m * (r * r + ri * ri) / 2.0,
        m * (3.0 * (r * r + ri * ri) + l * l) / 12.0,
    )
}

fn sorted_eigenvalues(i: &Matrix3<f64>) -> Vec<f64> {
    let mut e: Vec<f64> = i.symmetric_eigen().eigenvalues.iter().copied().collect();
    e.sort_by(|a, b| a.partial_cmp(b).unwrap());
    e
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v
}

#[test]
fn axis_aligned_solid_and_hollow_cylinders_match_closed_forms() {
    let l = 1.3;
    for (dir, axis) in [
        (Vector3::x(), 0usize),
        (Vector3::y(), 1),
        (Vector3::z(), 2),
        (-Vector3::x(), 0),
        (-Vector3::y(), 1),
        (-Vector3::z(), 2),
    ] {
        for (d, di) in [(0.2, 0.0), (0.2, 0.12), (0.05, 0.0)] {
            let r = dir * l;
            let mp = Cylinder::new(r)
                .diameter(d)
                .inner_diameter(di)
                .mass_properties()
                .unwrap();
            let (m, i_ax, i_tr) = textbook(RHO, l, d / 2.0, di / 2.0);
            assert_relative_eq!(mp.mass, m, max_relative = 1e-15);
            assert_relative_eq!(mp.com, r / 2.0, epsilon = 1e-16);
            let mut diag = Vector3::repeat(i_tr);
            diag[axis] = i_ax;
            assert_relative_eq!(
                mp.inertia,
                Matrix3::from_diagonal(&diag),
                epsilon = 1e-15 * i_tr
            );
        }
    }
}

#[test]
fn modelicas_orientation_for_axis_aligned_r() {
    // r along y is parallel to from_nxy's n_y = {0,1,0}: Modelica's fallback picks n_y_aux = x.
    let d = Cylinder::new(Vector3::new(0.0, 2.0, 0.0))
        .derived()
        .unwrap();
    assert_eq!(
        d.orientation,
        Matrix3::new(0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0)
    );
    let d = Cylinder::new(Vector3::new(0.0, 0.0, 2.0))
        .derived()
        .unwrap();
    assert_eq!(
        d.orientation,
        Matrix3::new(0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0)
    );
    let d = Cylinder::new(Vector3::new(2.0, 0.0, 0.0))
        .derived()
        .unwrap();
    assert_eq!(d.orientation, Matrix3::identity());
}

#[test]
fn every_derived_value_equals_modelicas_table() {
    let c = Cylinder::new(Vector3::new(0.4, -0.3, 1.2))
        .r_shape(Vector3::new(0.05, 0.02, -0.1))
        .diameter(0.16)
        .inner_diameter(0.1)
        .density(2700.0);
    let d = c.derived().unwrap();
    // Modelica's table, evaluated as written.
    let r_ab = Vector3::new(0.4 - 0.05, -0.3 - 0.02, 1.2 + 0.1);
    let length = r_ab.norm();
    let (radius, inner_radius) = (0.08, 0.05);
    let mo = 2700.0 * PI * length * radius * radius;
    let mi = 2700.0 * PI * length * inner_radius * inner_radius;
    let i22 = (mo * (length * length + 3.0 * radius * radius)
        - mi * (length * length + 3.0 * inner_radius * inner_radius))
        / 12.0;
    let i11 = (mo * radius * radius - mi * inner_radius * inner_radius) / 2.0;
    let m = mo - mi;
    let r_cm = Vector3::new(0.05, 0.02, -0.1) + r_ab / length * length / 2.0;
    assert_relative_eq!(d.length, length, max_relative = 1e-15);
    assert_relative_eq!(d.length_direction, r_ab, epsilon = 1e-16);
    assert_eq!((d.radius, d.inner_radius), (radius, inner_radius));
    assert_relative_eq!(d.mo, mo, max_relative = 1e-15);
    assert_relative_eq!(d.mi, mi, max_relative = 1e-15);
    assert_relative_eq!(d.m, m, max_relative = 1e-14);
    assert_relative_eq!(d.i11, i11, max_relative = 1e-14);
    assert_relative_eq!(d.i22, i22, max_relative = 1e-14);
    assert_relative_eq!(d.r_cm, r_cm, epsilon = 1e-15);
    // I = resolveDyade1(R, diag) = transpose(R) * diag * R, R = from_nxy(r, {0,1,0}).
    let rr = from_nxy(&Vector3::new(0.4, -0.3, 1.2), &Vector3::y());
    let i = rr.transpose() * Matrix3::from_diagonal(&Vector3::new(i11, i22, i22)) * rr;
    assert_relative_eq!(d.inertia, i, epsilon = 1e-14 * i22);
    let mp = c.mass_properties().unwrap();
    assert_eq!(
        mp,
        MassProperties {
            mass: d.m,
            com: d.r_cm,
            inertia: d.inertia
        }
    );
}

#[test]
fn oblique_cylinders_match_an_independent_basis_and_invariants() {
    for r in [
        Vector3::new(1.0, -2.0, 0.5),
        Vector3::new(-0.3, 0.1, -0.7),
        Vector3::new(0.0, 1.0, 1.0),
        Vector3::new(1e-3, 1.0, 0.0),
    ] {
        for (d, di) in [(0.3, 0.0), (0.3, 0.25)] {
            let l = r.norm();
            let der = Cylinder::new(r)
                .diameter(d)
                .inner_diameter(di)
                .derived()
                .unwrap();
            let (m, i11, i22) = textbook(RHO, l, d / 2.0, di / 2.0);
            assert_relative_eq!(der.m, m, max_relative = 1e-14);
            assert_relative_eq!(der.r_cm, r / 2.0, epsilon = 1e-15);

            // Independent basis: u = r/|r|, then Gram-Schmidt of {0,1,0} against u (or of
            // {1,0,0} if r is nearly along y), w = u x v.
            let u = r / l;
            let helper = if u.cross(&Vector3::y()).norm_squared() > 1e-6 {
                Vector3::y()
            } else {
                Vector3::x()
            };
            let v = (helper - u * u.dot(&helper)).normalize();
            let w = u.cross(&v);
            let b = Matrix3::from_rows(&[u.transpose(), v.transpose(), w.transpose()]);
            let dd = Matrix3::from_diagonal(&Vector3::new(i11, i22, i22));
            let expected = b.transpose() * dd * b;
            assert_relative_eq!(der.inertia, expected, epsilon = 1e-14 * i22);
            // And the coordinate-free form I = I22 E + (I11 - I22) u u^T.
            let cf = Matrix3::identity() * i22 + u * u.transpose() * (i11 - i22);
            assert_relative_eq!(der.inertia, cf, epsilon = 1e-14 * i22);

            // Invariants.
            assert_relative_eq!(der.inertia.trace(), i11 + 2.0 * i22, max_relative = 1e-14);
            let ev = sorted_eigenvalues(&der.inertia);
            for (a, e) in ev.iter().zip(sorted(vec![i11, i22, i22])) {
                assert_relative_eq!(*a, e, epsilon = 1e-13 * i22);
            }
            let rr = der.orientation;
            assert_relative_eq!(rr * rr.transpose(), Matrix3::identity(), epsilon = 1e-15);
            assert_relative_eq!(rr.determinant(), 1.0, epsilon = 1e-15);
            assert_relative_eq!(rr.row(0).transpose(), u, epsilon = 1e-15);
            assert_relative_eq!(der.inertia, der.inertia.transpose(), epsilon = 0.0);
            // Physical by MassProperties::new's checks.
            assert!(MassProperties::new(der.m, der.r_cm, der.inertia).is_ok());
        }
    }
}

#[test]
fn r_shape_offsets_the_cylinder() {
    // Along x from 0.2 to 1.0: length 0.8, default diameter 0.8/20, centre at 0.6.
    let d = Cylinder::new(Vector3::new(1.0, 0.0, 0.0))
        .r_shape(Vector3::new(0.2, 0.0, 0.0))
        .derived()
        .unwrap();
    assert_relative_eq!(d.length, 0.8, epsilon = 1e-16);
    assert_relative_eq!(d.diameter, 0.04, epsilon = 1e-17);
    assert_relative_eq!(d.r_cm, Vector3::new(0.6, 0.0, 0.0), epsilon = 1e-16);
    let (m, i_ax, i_tr) = textbook(RHO, 0.8, 0.02, 0.0);
    assert_relative_eq!(d.m, m, max_relative = 1e-15);
    assert_relative_eq!(
        d.inertia,
        Matrix3::from_diagonal(&Vector3::new(i_ax, i_tr, i_tr)),
        epsilon = 1e-15 * i_tr
    );

    // Explicit lengthDirection (any length) and length with r_shape: r_CM = r_shape + e L/2.
    let d = Cylinder::new(Vector3::new(0.0, 0.0, 0.5))
        .r_shape(Vector3::new(0.0, 0.0, -0.1))
        .length_direction(Vector3::new(0.0, 0.0, 3.0))
        .length(0.4)
        .diameter(0.1)
        .derived()
        .unwrap();
    assert_relative_eq!(d.r_cm, Vector3::new(0.0, 0.0, 0.1), epsilon = 1e-16);
    let (m, i_ax, i_tr) = textbook(RHO, 0.4, 0.05, 0.0);
    assert_relative_eq!(d.m, m, max_relative = 1e-15);
    assert_relative_eq!(
        d.inertia,
        Matrix3::from_diagonal(&Vector3::new(i_tr, i_tr, i_ax)),
        epsilon = 1e-15 * i_tr
    );
}

#[test]
fn orientation_is_built_from_r_not_length_direction_as_modelica_does() {
    // r_shape off the axis: lengthDirection = r - r_shape is oblique, r_CM follows it, but the
    // inertia's symmetry axis follows r = z (Modelica's R = from_nxy(r, {0,1,0})).
    let r = Vector3::new(0.0, 0.0, 1.0);
    let r_shape = Vector3::new(0.1, 0.2, 0.0);
    let d = Cylinder::new(r)
        .r_shape(r_shape)
        .diameter(0.1)
        .derived()
        .unwrap();
    let l = (r - r_shape).norm();
    assert_relative_eq!(d.length, l, max_relative = 1e-15);
    assert_relative_eq!(d.r_cm, Vector3::new(0.05, 0.1, 0.5), epsilon = 1e-15);
    let (_, i_ax, i_tr) = textbook(RHO, l, 0.05, 0.0);
    assert_relative_eq!(
        d.inertia,
        Matrix3::from_diagonal(&Vector3::new(i_tr, i_tr, i_ax)),
        epsilon = 1e-14 * i_tr
    );
    // r = 0 (frame_b at frame_a): R falls back to the identity, axis along x.
    let d = Cylinder::new(Vector3::zeros())
        .length_direction(Vector3::z())
        .length(1.0)
        .diameter(0.1)
        .derived()
        .unwrap();
    assert_eq!(d.orientation, Matrix3::identity());
    assert_relative_eq!(d.r_cm, Vector3::new(0.0, 0.0, 0.5), epsilon = 1e-16);
}

#[test]
fn thin_shell_limit() {
    // inner -> outer: I11 -> m r^2, I22 -> m (r^2/2 + L^2/12), with error O(gap).
    let (l, d): (f64, f64) = (0.7, 0.2);
    let r = d / 2.0;
    let mut last = f64::INFINITY;
    for gap in [1e-2, 1e-4, 1e-6, 1e-9] {
        let der = Cylinder::new(Vector3::new(l, 0.0, 0.0))
            .diameter(d)
            .inner_diameter(d * (1.0 - gap))
            .derived()
            .unwrap();
        let e11 = (der.i11 / (der.m * r * r) - 1.0).abs();
        let e22 = (der.i22 / (der.m * (r * r / 2.0 + l * l / 12.0)) - 1.0).abs();
        // I11/(m r^2) = (1 + (1-gap)^2)/2 = 1 - gap + gap^2/2.
        assert_relative_eq!(e11, gap - gap * gap / 2.0, max_relative = 1e-6);
        assert!(e22 <= e11 && e11 < last, "gap {gap}: {e11} {e22}");
        last = e11;
        // The mass keeps full relative precision in the thin wall (no mo - mi cancellation).
        let ri = d * (1.0 - gap) / 2.0;
        let m_ref = RHO * PI * l * (r - ri) * (r + ri);
        assert_relative_eq!(der.m, m_ref, max_relative = 4e-16);
    }
    // Modelica's assert refuses the exact shell innerDiameter == diameter.
    assert_eq!(
        Cylinder::new(Vector3::new(l, 0.0, 0.0))
            .diameter(d)
            .inner_diameter(d)
            .derived(),
        Err(Error::InnerDiameterNotBelowDiameter)
    );
}

#[test]
fn thin_wall_keeps_precision_in_f32() {
    // A tube whose wall is 1e-5 of its radius, in f32: Modelica's mo - mi would lose ~5 of
    // f32's 7 digits; the cancellation-free form keeps ~1e-6 relative.
    let (l, d) = (0.7f32, 0.2f32);
    let di = d * (1.0 - 1e-5);
    let der = Cylinder::new(Vector3::new(l, 0.0, 0.0))
        .diameter(d)
        .inner_diameter(di)
        .derived()
        .unwrap();
    let (r, ri, l) = (d as f64 / 2.0, di as f64 / 2.0, l as f64);
    let (m, i11, i22) = textbook(RHO, l, r, ri);
    assert_relative_eq!(der.m as f64, m, max_relative = 2e-6);
    assert_relative_eq!(der.i11 as f64, i11, max_relative = 2e-6);
    assert_relative_eq!(der.i22 as f64, i22, max_relative = 2e-6);
    let naive = (der.mo - der.mi) as f64;
    assert!(
        (naive / m - 1.0).abs() > 1e-4,
        "the naive form is really worse: {naive} vs {m}"
    );
}

#[test]
fn solid_limit() {
    let (l, d) = (0.5, 0.3);
    let r = d / 2.0;
    let solid = Cylinder::new(Vector3::new(0.0, 0.0, l))
        .diameter(d)
        .derived()
        .unwrap();
    assert_relative_eq!(solid.i11, solid.m * r * r / 2.0, max_relative = 1e-15);
    assert_relative_eq!(
        solid.i22,
        solid.m * (3.0 * r * r + l * l) / 12.0,
        max_relative = 1e-15
    );
    assert_eq!(solid.mi, 0.0);
    let near = Cylinder::new(Vector3::new(0.0, 0.0, l))
        .diameter(d)
        .inner_diameter(d * 1e-6)
        .derived()
        .unwrap();
    assert_relative_eq!(near.m, solid.m, max_relative = 1e-11);
    assert_relative_eq!(near.inertia, solid.inertia, epsilon = 1e-11 * solid.i22);
}

fn generic_oblique<T: Real>(tol: f64) {
    let r64 = Vector3::new(1.0, -2.0, 0.5);
    let der = Cylinder::new(r64.map(T::c))
        .diameter(T::c(0.3))
        .inner_diameter(T::c(0.2))
        .derived()
        .unwrap();
    let (m, i11, i22) = textbook(RHO, r64.norm(), 0.15, 0.1);
    let u = r64.normalize();
    let cf = Matrix3::identity() * i22 + u * u.transpose() * (i11 - i22);
    assert!((der.m.to_f64() / m - 1.0).abs() < tol);
    for i in 0..3 {
        assert!((der.r_cm[i].to_f64() - r64[i] / 2.0).abs() < tol);
        for j in 0..3 {
            assert!(
                (der.inertia[(i, j)].to_f64() - cf[(i, j)]).abs() < tol * i22,
                "{i}{j}"
            );
        }
    }
}

#[test]
fn oblique_cylinder_in_f32_and_f64() {
    generic_oblique::<f32>(2e-6);
    generic_oblique::<f64>(1e-14);
}

#[test]
fn every_bad_input_returns_its_error() {
    let ok = Cylinder::new(Vector3::new(0.0, 0.0, 1.0));
    assert!(ok.derived().is_ok());
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    let cases: Vec<(Cylinder<f64>, Error)> = vec![
        (
            ok.r(Vector3::new(nan, 0.0, 1.0)),
            Error::NotFinite(Param::R),
        ),
        (
            ok.r_shape(Vector3::new(0.0, inf, 0.0)),
            Error::NotFinite(Param::RShape),
        ),
        (
            ok.length_direction(Vector3::new(0.0, 0.0, nan)),
            Error::NotFinite(Param::Direction),
        ),
        (ok.length(nan), Error::NotFinite(Param::Length)),
        (ok.diameter(inf), Error::NotFinite(Param::Diameter)),
        (
            ok.inner_diameter(nan),
            Error::NotFinite(Param::InnerDiameter),
        ),
        (ok.density(-inf), Error::NotFinite(Param::Density)),
        (ok.width_fraction(nan), Error::NotFinite(Param::Ratio)),
        (
            ok.r(Vector3::new(1e308, 0.0, 0.0))
                .r_shape(Vector3::new(-1e308, 0.0, 0.0)),
            Error::NotFinite(Param::R),
        ),
        (ok.density(-1.0), Error::OutOfRange(Param::Density)),
        (ok.diameter(-0.1), Error::OutOfRange(Param::Diameter)),
        (
            ok.inner_diameter(-0.01),
            Error::OutOfRange(Param::InnerDiameter),
        ),
        (ok.length(-1.0), Error::OutOfRange(Param::Length)),
        (ok.length(0.0), Error::ZeroLength(Param::Length)),
        (ok.width_fraction(0.0), Error::OutOfRange(Param::Ratio)),
        (
            ok.diameter(0.1).inner_diameter(0.2),
            Error::InnerDiameterNotBelowDiameter,
        ),
        (
            ok.diameter(0.1).inner_diameter(0.1),
            Error::InnerDiameterNotBelowDiameter,
        ),
        // diameter 0: innerDiameter (0) < diameter (0) fails, as Modelica's assert.
        (ok.diameter(0.0), Error::InnerDiameterNotBelowDiameter),
        // r == r_shape, no explicit lengthDirection: to_unit1(0) = 0, normalizeWithAssert fails.
        (
            ok.r_shape(Vector3::new(0.0, 0.0, 1.0)),
            Error::ZeroLength(Param::Direction),
        ),
        (
            ok.r_shape(Vector3::new(0.0, 0.0, 1.0)).length(1.0),
            Error::ZeroLength(Param::Direction),
        ),
        (
            ok.length_direction(Vector3::zeros()),
            Error::ZeroLength(Param::Direction),
        ),
        // Overflow of the result.
        (
            ok.r(Vector3::new(0.0, 0.0, 1e200)),
            Error::NotFinite(Param::Mass),
        ),
    ];
    for (c, e) in cases {
        assert_eq!(c.derived(), Err(e), "{c:?}");
        assert_eq!(c.mass_properties(), Err(e));
    }
    // r == r_shape is fine once lengthDirection and length are explicit.
    let c = ok
        .r_shape(Vector3::new(0.0, 0.0, 1.0))
        .length_direction(Vector3::x())
        .length(2.0);
    let d = c.derived().unwrap();
    assert_relative_eq!(d.r_cm, Vector3::new(1.0, 0.0, 1.0), epsilon = 1e-16);
    // Zero density is a massless cylinder, not an error.
    assert_eq!(ok.density(0.0).mass_properties().unwrap().mass, 0.0);
    // f32 overflow: r = 1e30 m makes the mass infinite in f32.
    assert_eq!(
        Cylinder::new(Vector3::new(1e30f32, 0.0, 0.0)).mass_properties(),
        Err(Error::NotFinite(Param::Mass))
    );
}
