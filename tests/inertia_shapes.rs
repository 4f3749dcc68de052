//! Sphere, box and point mass against their textbook closed forms, written out here.

use approx::assert_relative_eq;
use mbs_core::inertia::{Cuboid, PointMass, Sphere};
use mbs_core::{Error, Param};
use nalgebra::{Matrix3, Vector3};
use std::f64::consts::PI;

#[test]
fn solid_sphere() {
    let (d, rho) = (0.5, 2000.0);
    let r: f64 = d / 2.0;
    let s = Sphere::new(d)
        .density(rho)
        .center(Vector3::new(0.0, 1.0, 0.0))
        .mass_properties()
        .unwrap();
    let m = rho * 4.0 / 3.0 * PI * r.powi(3);
    assert_relative_eq!(s.mass, m, max_relative = 1e-15);
    assert_relative_eq!(
        s.inertia,
        Matrix3::identity() * (0.4 * m * r * r),
        epsilon = 1e-15
    );
    assert_eq!(s.com, Vector3::new(0.0, 1.0, 0.0));
    // Default density is steel, 7700.
    let s = Sphere::new(d).mass_properties().unwrap();
    assert_relative_eq!(
        s.mass,
        7700.0 * 4.0 / 3.0 * PI * r.powi(3),
        max_relative = 1e-15
    );
}

#[test]
fn hollow_sphere_and_its_limits() {
    let (ro, ri): (f64, f64) = (0.3, 0.2);
    let s = Sphere::new(2.0 * ro)
        .inner_diameter(2.0 * ri)
        .density(1000.0)
        .mass_properties()
        .unwrap();
    let m = 1000.0 * 4.0 / 3.0 * PI * (ro.powi(3) - ri.powi(3));
    let i = 0.4 * m * (ro.powi(5) - ri.powi(5)) / (ro.powi(3) - ri.powi(3));
    assert_relative_eq!(s.mass, m, max_relative = 1e-14);
    assert_relative_eq!(s.inertia, Matrix3::identity() * i, epsilon = 1e-14 * i);
    // Thin shell: I -> 2/3 m r^2, error O(gap).
    for gap in [1e-3, 1e-6, 1e-9] {
        let s = Sphere::new(2.0 * ro)
            .inner_diameter(2.0 * ro * (1.0 - gap))
            .mass(2.0)
            .mass_properties()
            .unwrap();
        let ratio = s.inertia[(0, 0)] / (2.0 / 3.0 * 2.0 * ro * ro);
        assert!((ratio - 1.0).abs() < 1.01 * gap, "gap {gap}: {ratio}");
        assert!((ratio - 1.0).abs() > 0.5 * gap, "gap {gap}: {ratio}");
    }
    // Solid limit.
    let s = Sphere::new(2.0 * ro)
        .inner_diameter(2e-9 * ro)
        .mass(2.0)
        .mass_properties()
        .unwrap();
    assert_relative_eq!(s.inertia[(0, 0)], 0.4 * 2.0 * ro * ro, max_relative = 1e-15);
}

#[test]
fn sphere_bad_inputs() {
    let ok = Sphere::new(0.2f64);
    assert_eq!(
        ok.inner_diameter(0.2).mass_properties(),
        Err(Error::InnerDiameterNotBelowDiameter)
    );
    assert_eq!(
        ok.inner_diameter(0.3).mass_properties(),
        Err(Error::InnerDiameterNotBelowDiameter)
    );
    assert_eq!(
        Sphere::new(0.0f64).mass_properties(),
        Err(Error::InnerDiameterNotBelowDiameter)
    );
    assert_eq!(
        Sphere::new(-0.1f64).mass_properties(),
        Err(Error::OutOfRange(Param::Diameter))
    );
    assert_eq!(
        Sphere::new(f64::NAN).mass_properties(),
        Err(Error::NotFinite(Param::Diameter))
    );
    assert_eq!(
        ok.inner_diameter(-0.1).mass_properties(),
        Err(Error::OutOfRange(Param::InnerDiameter))
    );
    assert_eq!(
        ok.inner_diameter(f64::NAN).mass_properties(),
        Err(Error::NotFinite(Param::InnerDiameter))
    );
    assert_eq!(
        ok.density(-1.0).mass_properties(),
        Err(Error::OutOfRange(Param::Density))
    );
    assert_eq!(
        ok.density(f64::INFINITY).mass_properties(),
        Err(Error::NotFinite(Param::Density))
    );
    assert_eq!(
        ok.mass(-1.0).mass_properties(),
        Err(Error::OutOfRange(Param::Mass))
    );
    assert_eq!(
        ok.mass(f64::NAN).mass_properties(),
        Err(Error::NotFinite(Param::Mass))
    );
    assert_eq!(
        ok.center(Vector3::new(0.0, f64::NAN, 0.0))
            .mass_properties(),
        Err(Error::NotFinite(Param::CenterOfMass))
    );
    assert_eq!(
        Sphere::new(1e30f32).mass_properties(),
        Err(Error::NotFinite(Param::Mass))
    );
}

#[test]
fn box_closed_form() {
    // 1 x 2 x 3 m, 1000 kg/m^3: m = 6000, I = m/12 diag(4+9, 1+9, 1+4) = diag(6500, 5000, 2500).
    let b = Cuboid::new(Vector3::new(1.0, 2.0, 3.0))
        .density(1000.0)
        .center(Vector3::new(0.1, 0.2, 0.3))
        .mass_properties()
        .unwrap();
    assert_relative_eq!(b.mass, 6000.0, max_relative = 1e-15);
    assert_relative_eq!(
        b.inertia,
        Matrix3::from_diagonal(&Vector3::new(6500.0, 5000.0, 2500.0)),
        epsilon = 1e-11
    );
    assert_eq!(b.com, Vector3::new(0.1, 0.2, 0.3));
    // Given mass, a square plate of zero thickness: I = m/12 diag(a^2, a^2, 2 a^2).
    let p = Cuboid::new(Vector3::new(0.6, 0.6, 0.0))
        .mass(12.0)
        .mass_properties()
        .unwrap();
    assert_relative_eq!(
        p.inertia,
        Matrix3::from_diagonal(&Vector3::new(0.36, 0.36, 0.72)),
        epsilon = 1e-15
    );
    // Default density 7700.
    assert_relative_eq!(
        Cuboid::new(Vector3::new(0.1, 0.1, 0.1))
            .mass_properties()
            .unwrap()
            .mass,
        7.7,
        max_relative = 1e-14
    );
}

#[test]
fn box_bad_inputs() {
    let ok = Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0));
    assert_eq!(
        Cuboid::new(Vector3::new(1.0, -1.0, 1.0)).mass_properties(),
        Err(Error::OutOfRange(Param::Dimensions))
    );
    assert_eq!(
        Cuboid::new(Vector3::new(1.0, f64::NAN, 1.0)).mass_properties(),
        Err(Error::NotFinite(Param::Dimensions))
    );
    assert_eq!(
        ok.density(-1.0).mass_properties(),
        Err(Error::OutOfRange(Param::Density))
    );
    assert_eq!(
        ok.mass(-1.0).mass_properties(),
        Err(Error::OutOfRange(Param::Mass))
    );
    assert_eq!(
        ok.center(Vector3::new(f64::INFINITY, 0.0, 0.0))
            .mass_properties(),
        Err(Error::NotFinite(Param::CenterOfMass))
    );
    assert_eq!(
        Cuboid::new(Vector3::new(1e10f32, 1e10, 1e10))
            .mass(1e30)
            .mass_properties(),
        Err(Error::NotFinite(Param::Inertia))
    );
    assert_eq!(
        Cuboid::new(Vector3::new(1e13f32, 1e13, 1e13)).mass_properties(),
        Err(Error::NotFinite(Param::Mass))
    );
}

#[test]
fn point_mass() {
    let p = PointMass::new(2.5, Vector3::new(1.0, 2.0, 3.0))
        .mass_properties()
        .unwrap();
    assert_eq!(
        (p.mass, p.com, p.inertia),
        (2.5, Vector3::new(1.0, 2.0, 3.0), Matrix3::zeros())
    );
    assert_eq!(
        PointMass::new(-1.0, Vector3::zeros()).mass_properties(),
        Err(Error::OutOfRange(Param::Mass))
    );
    assert_eq!(
        PointMass::new(f64::NAN, Vector3::zeros()).mass_properties(),
        Err(Error::NotFinite(Param::Mass))
    );
    assert_eq!(
        PointMass::new(1.0, Vector3::new(0.0, 0.0, f64::NAN)).mass_properties(),
        Err(Error::NotFinite(Param::CenterOfMass))
    );
}
