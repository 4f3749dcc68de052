//! `mbs_core::frames` against Modelica's definitions written out independently here:
//! elementary rotation matrices, `planarRotation` products, Modelica's `from_Q`, and the
//! geometric meaning of each orientation.

use approx::assert_relative_eq;
use mbs_core::frames::*;
use mbs_core::math::Quaternion;
use mbs_core::{Error, Param, Real};
use nalgebra::{Matrix3, Vector3};

/// Elementary passive rotations (frame 1 -> frame 2 rotated by `a` about axis x, y, z), as
/// printed in Modelica's `axisRotation`.
fn rx(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(1.0, 0.0, 0.0, 0.0, c, s, 0.0, -s, c)
}
fn ry(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(c, 0.0, -s, 0.0, 1.0, 0.0, s, 0.0, c)
}
fn rz(a: f64) -> Matrix3<f64> {
    let (s, c) = a.sin_cos();
    Matrix3::new(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0)
}

/// Modelica's `planarRotation(e, angle) = e e^T + (E - e e^T) cos - skew(e) sin`, written out.
fn planar(e: Vector3<f64>, a: f64) -> Matrix3<f64> {
    let ee = e * e.transpose();
    let sk = Matrix3::new(0.0, -e.z, e.y, e.z, 0.0, -e.x, -e.y, e.x, 0.0);
    ee + (Matrix3::identity() - ee) * a.cos() - sk * a.sin()
}

fn axis(i: u8) -> Vector3<f64> {
    match i {
        1 => Vector3::x(),
        2 => Vector3::y(),
        _ => Vector3::z(),
    }
}

fn assert_rotation(t: &Matrix3<f64>, tol: f64) {
    assert_relative_eq!(t * t.transpose(), Matrix3::identity(), epsilon = tol);
    assert_relative_eq!(t.determinant(), 1.0, epsilon = tol);
}

#[test]
fn axes_rotations_123_is_the_product_of_elementary_rotations() {
    let a = [0.3, -1.1, 2.4];
    let t = axes_rotations([1, 2, 3], a).unwrap();
    assert_relative_eq!(t, rz(a[2]) * ry(a[1]) * rx(a[0]), epsilon = 1e-15);
    assert_rotation(&t, 1e-15);
}

#[test]
fn axes_rotations_match_planar_rotation_products_for_every_sequence() {
    let a = [0.7, 0.4, -2.9];
    for s1 in 1..=3u8 {
        for s2 in (1..=3u8).filter(|&x| x != s1) {
            for s3 in (1..=3u8).filter(|&x| x != s2) {
                let t = axes_rotations([s1, s2, s3], a).unwrap();
                let r = planar(axis(s3), a[2]) * planar(axis(s2), a[1]) * planar(axis(s1), a[0]);
                assert_relative_eq!(t, r, epsilon = 1e-15);
                assert_relative_eq!(
                    planar_rotation(&axis(s1), a[0]),
                    planar(axis(s1), a[0]),
                    epsilon = 1e-16
                );
            }
        }
    }
}

#[test]
fn axes_rotations_is_passive_rotation_of_the_frame() {
    // Frame 2 = frame 1 turned by +90 deg about z: frame 1's x axis is frame 2's -y axis.
    let t = axes_rotations([3, 1, 2], [core::f64::consts::FRAC_PI_2, 0.0, 0.0]).unwrap();
    assert_relative_eq!(resolve2(&t, &Vector3::x()), -Vector3::y(), epsilon = 1e-16);
    assert_relative_eq!(resolve1(&t, &Vector3::x()), Vector3::y(), epsilon = 1e-16);
}

#[test]
fn axes_rotations_agree_with_the_body_quaternion() {
    // Body turned by a1 about x, then a2 about the new y, then a3 about the new z:
    // R_0b = Rx(a1) Ry(a2) Rz(a3) (active), body quaternion q = qx * qy * qz; T = R_0b^T.
    let a = [0.3, -1.1, 2.4];
    let q = Quaternion::exp(&(Vector3::x() * a[0]))
        .mul(&Quaternion::exp(&(Vector3::y() * a[1])))
        .mul(&Quaternion::exp(&(Vector3::z() * a[2])));
    let t = axes_rotations([1, 2, 3], a).unwrap();
    assert_relative_eq!(from_quaternion(&q), t, epsilon = 1e-15);
    let q2 = to_quaternion(&t);
    let s = if q2.w * q.w < 0.0 { -1.0 } else { 1.0 };
    assert_relative_eq!(q2.w, s * q.w, epsilon = 1e-15);
    assert_relative_eq!(q2.vector(), q.vector() * s, epsilon = 1e-15);
}

/// Modelica's `TransformationMatrices.from_Q(Q)`, written out (Q scalar last).
fn modelica_from_q(q: [f64; 4]) -> Matrix3<f64> {
    let [q1, q2, q3, q4] = q;
    Matrix3::new(
        2.0 * (q1 * q1 + q4 * q4) - 1.0,
        2.0 * (q1 * q2 + q3 * q4),
        2.0 * (q1 * q3 - q2 * q4),
        2.0 * (q2 * q1 - q3 * q4),
        2.0 * (q2 * q2 + q4 * q4) - 1.0,
        2.0 * (q2 * q3 + q1 * q4),
        2.0 * (q3 * q1 + q2 * q4),
        2.0 * (q3 * q2 - q1 * q4),
        2.0 * (q3 * q3 + q4 * q4) - 1.0,
    )
}

#[test]
fn from_quaternion_is_modelicas_from_q() {
    // Modelica's Quaternions.planarRotation(e, a) = {e sin(a/2), cos(a/2)} rotates frame 1 by
    // +a about e, the same frame rotation as mbs's body quaternion exp(e a) = [cos, e sin].
    let e = Vector3::new(1.0, -2.0, 0.5).normalize();
    let a: f64 = 2.2;
    let (s, c) = (a / 2.0).sin_cos();
    let q_modelica = [e.x * s, e.y * s, e.z * s, c];
    let t = modelica_from_q(q_modelica);
    assert_relative_eq!(
        from_quaternion(&Quaternion::exp(&(e * a))),
        t,
        epsilon = 1e-15
    );
    assert_relative_eq!(planar_rotation(&e, a), t, epsilon = 1e-15);
}

#[test]
fn axes_rotations_angles_inverts_axes_rotations() {
    let sequences = [
        [1, 2, 3],
        [3, 1, 3],
        [3, 2, 1],
        [2, 3, 1],
        [1, 3, 1],
        [2, 1, 2],
    ];
    let angles: [[f64; 3]; 3] = [[0.3, -1.1, 2.4], [-2.0, 0.9, -0.4], [1.2, 0.2, 3.0]];
    for seq in sequences {
        for a in angles {
            let t = axes_rotations(seq, a).unwrap();
            // Guess near the true first angle: the same solution comes back.
            let b = axes_rotations_angles(&t, seq, a[0] + 0.1).unwrap();
            // Proper Euler sequences (s1 == s3) need a2 in (0, pi) for the same branch;
            // then all three angles are recovered. Otherwise only T is.
            let same = seq[0] != seq[2] || a[1] > 0.0;
            if same {
                for i in 0..3 {
                    assert_relative_eq!(b[i], a[i], epsilon = 1e-12);
                }
            }
            let b0 = axes_rotations_angles(&t, seq, 0.0).unwrap();
            assert_relative_eq!(axes_rotations(seq, b0).unwrap(), t, epsilon = 1e-14);
            for x in b0 {
                assert!(x.abs() <= core::f64::consts::PI);
            }
        }
    }
}

#[test]
fn axes_rotations_angles_singular_configuration_takes_the_guess() {
    // Gimbal lock of {1,2,3}: a2 = pi/2; a1 and a3 are not separable, angles[0] = guess.
    let t = axes_rotations([1, 2, 3], [0.5, core::f64::consts::FRAC_PI_2, 0.2]).unwrap();
    let b = axes_rotations_angles(&t, [1, 2, 3], 0.25).unwrap();
    assert_eq!(b[0], 0.25);
    assert_relative_eq!(axes_rotations([1, 2, 3], b).unwrap(), t, epsilon = 1e-14);
    assert_eq!(
        axes_rotations_angles(&t, [1, 1, 3], 0.0),
        Err(Error::OutOfRange(Param::Sequence))
    );
    assert_eq!(
        axes_rotations_angles(&(t * f64::NAN), [1, 2, 3], 0.0),
        Err(Error::NotFinite(Param::Orientation))
    );
}

#[test]
fn axes_rotations_refuses_repeated_consecutive_axes() {
    for s in [[1, 1, 3], [2, 3, 3], [3, 3, 3], [0, 1, 2], [1, 2, 7]] {
        assert_eq!(
            axes_rotations::<f64>(s, [0.0; 3]),
            Err(Error::OutOfRange(Param::Sequence))
        );
    }
    assert_eq!(
        axis_rotation::<f32>(4, 0.0),
        Err(Error::OutOfRange(Param::Sequence))
    );
}

fn generic_axes_rotations<T: Real>(tol: f64) {
    let a = [0.3, -1.1, 2.4];
    let t = axes_rotations([1, 2, 3], a.map(T::c)).unwrap();
    let r = rz(a[2]) * ry(a[1]) * rx(a[0]);
    for i in 0..3 {
        for j in 0..3 {
            assert!((t[(i, j)].to_f64() - r[(i, j)]).abs() < tol, "{i} {j}");
        }
    }
}

#[test]
fn axes_rotations_in_f32_and_f64() {
    generic_axes_rotations::<f32>(5e-7);
    generic_axes_rotations::<f64>(1e-15);
}

#[test]
fn from_nxy_general_case_spans_the_plane_of_nx_and_ny() {
    let n_x = Vector3::new(1.0, -2.0, 0.5);
    let n_y = Vector3::new(0.3, 1.0, 2.0);
    let t = from_nxy(&n_x, &n_y);
    assert_rotation(&t, 1e-15);
    let e_x = n_x / n_x.norm();
    assert_relative_eq!(t.row(0).transpose(), e_x, epsilon = 1e-16);
    // e_y is n_y with its e_x component removed (Gram-Schmidt), normalized.
    let g = n_y - e_x * e_x.dot(&n_y);
    assert_relative_eq!(t.row(1).transpose(), g / g.norm(), epsilon = 1e-15);
}

#[test]
fn from_nxy_parallel_vectors_follow_modelicas_rule() {
    // n_x = {0,2,0} with n_y = {0,1,0}: parallel, e_x[x] = 0 -> n_y_aux = {1,0,0},
    // e_z = normalize(y x x) = -z, e_y = e_z x e_x = x: T = {y, x, -z}.
    let t = from_nxy(&Vector3::new(0.0, 2.0, 0.0), &Vector3::y());
    assert_eq!(
        t,
        Matrix3::new(0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -1.0)
    );
    // n_x = {0,-2,0}: e_z = normalize(-y x x) = z, e_y = z x -y = x: T = {-y, x, z}.
    let t = from_nxy(&Vector3::new(0.0, -2.0, 0.0), &Vector3::y());
    assert_eq!(
        t,
        Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    );
    // Nearly parallel (|e_x x e_y|^2 = 1e-8 < 1e-6) with e_x[x] = 1e-4 > 1e-6 -> n_y_aux = y.
    let n_x = Vector3::new(1e-4, 1.0, 0.0);
    let t = from_nxy(&n_x, &Vector3::y());
    assert_rotation(&t, 1e-12);
    assert_relative_eq!(t.row(2).transpose(), Vector3::z(), epsilon = 1e-15);
    // ... but e_x[x] = 1e-7 <= 1e-6 -> n_y_aux = x, e_z = normalize(e_x x x) ~ -z.
    let n_x = Vector3::new(1e-7, 1.0, 0.0);
    let t = from_nxy(&n_x, &Vector3::y());
    assert_rotation(&t, 1e-12);
    assert_relative_eq!(t.row(2).transpose(), -Vector3::z(), epsilon = 1e-15);
}

#[test]
fn from_nxy_zero_vectors_fall_back_to_the_axes() {
    // |n_x| < 1e-10 -> e_x = {1,0,0}; |n_y| < 1e-10 -> e_y = {0,1,0}.
    assert_eq!(
        from_nxy(&Vector3::new(1e-11, 0.0, 0.0), &Vector3::new(0.0, 0.0, 1.0)).row(0),
        Vector3::x().transpose()
    );
    let t = from_nxy(&Vector3::new(0.0, 0.0, 5.0), &Vector3::zeros());
    // e_x = z, e_y = y: e_z = normalize(z x y) = -x, T = {z, y, -x}.
    assert_eq!(
        t,
        Matrix3::new(0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0)
    );
    let t = from_nxy::<f32>(&Vector3::zeros(), &Vector3::zeros());
    assert_eq!(t, Matrix3::identity());
}

#[test]
fn resolve_functions_are_consistent() {
    let t = axes_rotations([3, 1, 2], [0.4, -0.8, 1.9]).unwrap();
    let v1 = Vector3::new(0.1, -2.0, 3.0);
    let w1 = Vector3::new(1.5, 0.2, -0.7);
    let v2 = resolve2(&t, &v1);
    assert_relative_eq!(resolve1(&t, &v2), v1, epsilon = 1e-15);
    // A dyad u w^T resolves as the dyad of the resolved vectors.
    let d1 = v1 * w1.transpose();
    let d2 = resolve_dyade2(&t, &d1);
    assert_relative_eq!(d2, v2 * resolve2(&t, &w1).transpose(), epsilon = 1e-14);
    assert_relative_eq!(resolve_dyade1(&t, &d2), d1, epsilon = 1e-14);
}

#[test]
fn normalize_with_assert_and_to_unit1() {
    assert_eq!(
        normalize_with_assert(&Vector3::<f64>::zeros()),
        Err(Error::ZeroLength(Param::Direction))
    );
    assert_eq!(
        normalize_with_assert(&Vector3::new(f64::NAN, 0.0, 0.0)),
        Err(Error::NotFinite(Param::Direction))
    );
    let v = Vector3::new(2.0, -1.0, 2.0);
    assert_relative_eq!(normalize_with_assert(&v).unwrap(), v / 3.0, epsilon = 1e-16);
    assert_eq!(to_unit1(&v), v);
    // Tiny but non-zero still normalizes (Modelica asserts only length > 0).
    let tiny = Vector3::new(0.0, 3e-300, 4e-300);
    assert_relative_eq!(
        normalize_with_assert(&tiny).unwrap(),
        Vector3::new(0.0, 0.6, 0.8),
        epsilon = 1e-15
    );
}
