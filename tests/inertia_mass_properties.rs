//! `MassProperties`: parallel-axis shift, frame changes and combination, against closed forms
//! (dumbbell, rods, boxes) and against re-assembling a body from its parts.

use approx::assert_relative_eq;
use mbs_core::frames::axes_rotations;
use mbs_core::inertia::{Cuboid, Cylinder, MassProperties, PointMass, Sphere};
use mbs_core::{Error, Param, Real};
use nalgebra::{Matrix3, Vector3};

#[test]
fn two_point_masses_combine_into_a_dumbbell() {
    // Equal masses m at +-a along x: com 0, I = diag(0, 2 m a^2, 2 m a^2).
    let (m, a) = (1.5, 0.4);
    let p1 = PointMass::new(m, Vector3::new(a, 0.0, 0.0))
        .mass_properties()
        .unwrap();
    let p2 = PointMass::new(m, Vector3::new(-a, 0.0, 0.0))
        .mass_properties()
        .unwrap();
    let d = MassProperties::combine_two(&p1, &p2).unwrap();
    assert_eq!(d.mass, 2.0 * m);
    assert_relative_eq!(d.com, Vector3::zeros(), epsilon = 1e-16);
    let k = 2.0 * m * a * a;
    assert_relative_eq!(
        d.inertia,
        Matrix3::from_diagonal(&Vector3::new(0.0, k, k)),
        epsilon = 1e-15
    );

    // Unequal masses along an oblique line: com = (m1 p1 + m2 p2)/(m1 + m2),
    // I = mu |l|^2 (E - e e^T) with mu = m1 m2/(m1 + m2), l = p2 - p1, e = l/|l|.
    let (m1, m2) = (2.0, 0.5);
    let (q1, q2) = (Vector3::new(0.1, -0.3, 0.2), Vector3::new(-0.4, 0.5, 1.1));
    let d = MassProperties::combine(&[
        PointMass::new(m1, q1).mass_properties().unwrap(),
        PointMass::new(m2, q2).mass_properties().unwrap(),
    ])
    .unwrap();
    let lv = q2 - q1;
    let e = lv.normalize();
    let mu = m1 * m2 / (m1 + m2);
    assert_relative_eq!(d.com, (q1 * m1 + q2 * m2) / (m1 + m2), epsilon = 1e-15);
    let expected = (Matrix3::identity() - e * e.transpose()) * (mu * lv.norm_squared());
    assert_relative_eq!(d.inertia, expected, epsilon = 1e-15);
    assert_eq!(d.inertia, d.inertia.transpose());
}

#[test]
fn parallel_axis_shift_matches_closed_forms() {
    // Thin rod (a box of zero cross-section with given mass) about its end: m L^2/3.
    let (m, l) = (3.0, 2.0);
    let rod = Cuboid::new(Vector3::new(l, 0.0, 0.0))
        .mass(m)
        .mass_properties()
        .unwrap();
    let end = rod.inertia_about(&Vector3::new(-l / 2.0, 0.0, 0.0));
    assert_relative_eq!(
        end,
        Matrix3::from_diagonal(&Vector3::new(0.0, m * l * l / 3.0, m * l * l / 3.0)),
        epsilon = 1e-15
    );
    // Solid sphere about a point on its surface: 7/5 m r^2 across, 2/5 m r^2 along the offset.
    let (m, r) = (2.0, 0.3);
    let s = Sphere::new(2.0 * r).mass(m).mass_properties().unwrap();
    let p = s.inertia_about(&Vector3::new(0.0, 0.0, r));
    let (a, c) = (0.4 * m * r * r, 1.4 * m * r * r);
    assert_relative_eq!(
        p,
        Matrix3::from_diagonal(&Vector3::new(c, c, a)),
        epsilon = 1e-15
    );
    // About the centre of mass itself: unchanged.
    assert_eq!(s.inertia_about(&s.com), s.inertia);
    // Oblique offset of a point mass: I_p = m (|d|^2 E - d d^T) written out componentwise.
    let d = Vector3::new(0.3, -0.2, 0.7);
    let pm = PointMass::new(2.0, d).mass_properties().unwrap();
    let i = pm.inertia_about(&Vector3::zeros());
    let expected = Matrix3::new(
        2.0 * (d.y * d.y + d.z * d.z),
        -2.0 * d.x * d.y,
        -2.0 * d.x * d.z,
        -2.0 * d.y * d.x,
        2.0 * (d.x * d.x + d.z * d.z),
        -2.0 * d.y * d.z,
        -2.0 * d.z * d.x,
        -2.0 * d.z * d.y,
        2.0 * (d.x * d.x + d.y * d.y),
    );
    assert_relative_eq!(i, expected, epsilon = 1e-15);
}

#[test]
fn a_cylinder_cut_in_two_combines_back_to_the_whole() {
    // Oblique cylinder from 0 to r; halves from 0 to r/2 and r/2 to r. The diameter is explicit
    // (the default length/20 would differ for the halves).
    let r = Vector3::new(0.8, -0.5, 1.2);
    let (d, di) = (0.2, 0.12);
    let whole = Cylinder::new(r)
        .diameter(d)
        .inner_diameter(di)
        .mass_properties()
        .unwrap();
    let h1 = Cylinder::new(r / 2.0)
        .diameter(d)
        .inner_diameter(di)
        .mass_properties()
        .unwrap();
    let h2 = Cylinder::new(r)
        .r_shape(r / 2.0)
        .diameter(d)
        .inner_diameter(di)
        .mass_properties()
        .unwrap();
    let c = MassProperties::combine(&[h1, h2]).unwrap();
    assert_relative_eq!(c.mass, whole.mass, max_relative = 1e-15);
    assert_relative_eq!(c.com, whole.com, epsilon = 1e-15);
    let scale = whole.inertia.norm();
    assert_relative_eq!(c.inertia, whole.inertia, epsilon = 1e-14 * scale);
    // The halves' own COM is at 1/4 and 3/4 of r.
    assert_relative_eq!(h1.com, r / 4.0, epsilon = 1e-16);
    assert_relative_eq!(h2.com, r * 0.75, epsilon = 1e-15);
}

#[test]
fn two_cubes_side_by_side_are_a_two_by_one_box() {
    let rho = 1000.0;
    let a = Cuboid::new(Vector3::new(1.0, 1.0, 1.0))
        .density(rho)
        .center(Vector3::new(0.5, 0.0, 0.0));
    let b = Cuboid::new(Vector3::new(1.0, 1.0, 1.0))
        .density(rho)
        .center(Vector3::new(-0.5, 0.0, 0.0));
    let c = MassProperties::combine(&[a.mass_properties().unwrap(), b.mass_properties().unwrap()])
        .unwrap();
    let whole = Cuboid::new(Vector3::new(2.0, 1.0, 1.0))
        .density(rho)
        .mass_properties()
        .unwrap();
    assert_relative_eq!(c.mass, whole.mass, max_relative = 1e-15);
    assert_relative_eq!(c.com, whole.com, epsilon = 1e-15);
    assert_relative_eq!(c.inertia, whole.inertia, epsilon = 1e-12);
}

#[test]
fn rotated_box_is_the_box_with_swapped_edges() {
    // A box (a, b, c) resolved in a frame turned by 90 deg about z is the box (b, a, c).
    let (a, b, c) = (0.3, 0.7, 1.1);
    let bx = Cuboid::new(Vector3::new(a, b, c))
        .mass(4.0)
        .center(Vector3::new(1.0, 2.0, 3.0))
        .mass_properties()
        .unwrap();
    let t = axes_rotations([3, 1, 3], [core::f64::consts::FRAC_PI_2, 0.0, 0.0]).unwrap();
    let rot = bx.rotated(&t);
    let swapped = Cuboid::new(Vector3::new(b, a, c))
        .mass(4.0)
        .mass_properties()
        .unwrap();
    assert_relative_eq!(rot.inertia, swapped.inertia, epsilon = 1e-15);
    // com resolved in the new frame: x' = y, y' = -x.
    assert_relative_eq!(rot.com, Vector3::new(2.0, -1.0, 3.0), epsilon = 1e-15);
    assert_eq!(rot.mass, 4.0);
    assert_eq!(rot.inertia, rot.inertia.transpose());
    // Rotating back recovers the original; traces are invariant.
    let back = rot.rotated(&t.transpose());
    assert_relative_eq!(back.inertia, bx.inertia, epsilon = 1e-15);
    assert_relative_eq!(back.com, bx.com, epsilon = 1e-15);
    let t2 = axes_rotations([1, 2, 3], [0.3, -0.9, 2.0]).unwrap();
    assert_relative_eq!(
        bx.rotated(&t2).inertia.trace(),
        bx.inertia.trace(),
        max_relative = 1e-15
    );
}

#[test]
fn translated_moves_only_the_centre_of_mass() {
    let s = Sphere::new(0.2).mass_properties().unwrap();
    let t = s.translated(&Vector3::new(1.0, -2.0, 0.5));
    assert_eq!(t.com, Vector3::new(1.0, -2.0, 0.5));
    assert_eq!((t.mass, t.inertia), (s.mass, s.inertia));
    // Its inertia about the old origin is the parallel-axis shift by the offset.
    let about_origin = t.inertia_about(&Vector3::zeros());
    let d = Vector3::new(1.0, -2.0, 0.5);
    let expected =
        s.inertia + (Matrix3::identity() * d.norm_squared() - d * d.transpose()) * s.mass;
    assert_relative_eq!(about_origin, expected, epsilon = 1e-12);
}

#[test]
fn new_validates_and_combine_refuses_bad_parts() {
    let ok = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity()).unwrap();
    assert_eq!(
        MassProperties::new(1.0, Vector3::new(f64::NAN, 0.0, 0.0), Matrix3::identity()),
        Err(Error::NotFinite(Param::CenterOfMass))
    );
    assert_eq!(
        MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity() * f64::INFINITY),
        Err(Error::NotFinite(Param::Inertia))
    );
    // Triangle inequality violated (I3 > I1 + I2) in a rotated frame.
    let t = axes_rotations([1, 2, 3], [0.3, -0.9, 2.0]).unwrap();
    let bad = t.transpose() * Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 2.01)) * t;
    assert_eq!(
        MassProperties::new(1.0, Vector3::zeros(), bad),
        Err(Error::OutOfRange(Param::Inertia))
    );
    let edge = t.transpose() * Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, 2.0)) * t;
    assert!(MassProperties::new(1.0, Vector3::zeros(), edge).is_ok());
    // Negative principal moment hidden by rotation.
    let neg = t.transpose() * Matrix3::from_diagonal(&Vector3::new(-0.01, 1.0, 1.0)) * t;
    assert_eq!(
        MassProperties::new(1.0, Vector3::zeros(), neg),
        Err(Error::OutOfRange(Param::Inertia))
    );

    let mut nan_part = ok;
    nan_part.com.x = f64::NAN;
    assert_eq!(
        MassProperties::combine(&[ok, nan_part]),
        Err(Error::NotFinite(Param::CenterOfMass))
    );
    let mut neg_part = ok;
    neg_part.mass = -2.0;
    assert_eq!(
        MassProperties::combine(&[ok, neg_part]),
        Err(Error::OutOfRange(Param::Mass))
    );
    let zero = MassProperties::<f64>::zero();
    assert_eq!(
        MassProperties::combine(&[zero, zero]),
        Err(Error::OutOfRange(Param::Mass))
    );
    // A massless part does not move the centre of mass.
    let c = MassProperties::combine(&[ok, zero.translated(&Vector3::new(5.0, 0.0, 0.0))]).unwrap();
    assert_eq!(c, ok);
}

fn generic_dumbbell<T: Real>(tol: f64) {
    let (m, a) = (T::c(1.5), T::c(0.4));
    let p1 = PointMass::new(m, Vector3::new(a, T::zero(), T::zero()))
        .mass_properties()
        .unwrap();
    let p2 = PointMass::new(m, Vector3::new(-a, T::zero(), T::zero()))
        .mass_properties()
        .unwrap();
    let d = MassProperties::combine_two(&p1, &p2).unwrap();
    let k = 2.0 * 1.5 * 0.4 * 0.4;
    assert!((d.inertia[(1, 1)].to_f64() - k).abs() < tol * k);
    assert!((d.inertia[(2, 2)].to_f64() - k).abs() < tol * k);
    assert!(d.inertia[(0, 0)].to_f64().abs() < tol * k);
    let pm = d.principal_moments().map(|x| x.to_f64());
    assert!(pm[0].abs() < tol * k && (pm[1] - k).abs() < tol * k && (pm[2] - k).abs() < tol * k);
}

#[test]
fn dumbbell_in_f32_and_f64() {
    generic_dumbbell::<f32>(1e-6);
    generic_dumbbell::<f64>(1e-15);
}
