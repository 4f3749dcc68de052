//! The default drawing of each object kind (`mbs_core::system::default_drawing`): principal
//! axes of rotated tensors (eigen-equation, orthonormal, det +1), the equivalent uniform box of a
//! rigid body against the closed-form box inertia `m/12 (b^2 + c^2, ...)`, the mass point's steel
//! ball `m = rho 4/3 pi r^3`, the packed BodyCylinder shape against
//! `GraphicsData::body_cylinder` of the same Modelica parameters.

use approx::assert_relative_eq;
use mbs_core::bodies::body_cylinder::BodyCylinder;
use mbs_core::bodies::rigid_body::RigidBody;
use mbs_core::graphics::{Color, GraphicsData, GraphicsPrimitive, Shape};
use mbs_core::system::{
    default_drawing, principal_axes, CylinderShape, DefaultDrawing, NodeIndex, Object,
    MASS_POINT_SPHERE_DENSITY,
};
use nalgebra::{Matrix3, Vector3};

fn rigid_body_box(body: &RigidBody<f64>) -> DefaultDrawing<f64> {
    default_drawing(&Object::rigid_body(
        NodeIndex::from_usize(0).unwrap(),
        *body,
    ))
}

fn mass_point_sphere(m: f64) -> Option<GraphicsPrimitive<f64>> {
    default_drawing(&Object::mass_point_2d(NodeIndex::from_usize(0).unwrap(), m).unwrap()).primitive
}

/// `R = Rz(0.4) Rx(-0.7)` by hand (independent of the quaternion code).
fn rotation() -> Matrix3<f64> {
    let (s, c) = (libm::sin(0.4), libm::cos(0.4));
    let rz = Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
    let (s, c) = (libm::sin(-0.7), libm::cos(-0.7));
    let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c);
    rz * rx
}

fn check_eigenbasis(j: &Matrix3<f64>, l: [f64; 3], r: &Matrix3<f64>) {
    assert_relative_eq!(r.transpose() * r, Matrix3::identity(), epsilon = 1e-12);
    assert_relative_eq!(r.determinant(), 1.0, epsilon = 1e-12);
    for (k, lk) in l.iter().enumerate() {
        let v = r.column(k).into_owned();
        assert_relative_eq!(j * v, v * *lk, epsilon = 1e-12);
    }
}

#[test]
fn principal_axes_of_rotated_tensors() {
    let r = rotation();
    // Distinct moments.
    let j = r * Matrix3::from_diagonal(&Vector3::new(5.0, 1.0, 2.0)) * r.transpose();
    let (l, axes) = principal_axes(&j);
    assert_relative_eq!(l[0], 1.0, epsilon = 1e-13);
    assert_relative_eq!(l[1], 2.0, epsilon = 1e-13);
    assert_relative_eq!(l[2], 5.0, epsilon = 1e-13);
    let axes = axes.unwrap();
    check_eigenbasis(&j, l, &axes);
    // The axis of moment 5 is R's first column (up to sign).
    assert_relative_eq!(axes.column(2).dot(&r.column(0)).abs(), 1.0, epsilon = 1e-12);
    // A repeated pair (a cylinder's tensor): any basis of the pair's plane.
    let j = r * Matrix3::from_diagonal(&Vector3::new(0.5, 3.0, 3.0)) * r.transpose();
    let (l, axes) = principal_axes(&j);
    check_eigenbasis(&j, l, &axes.unwrap());
    let j = r * Matrix3::from_diagonal(&Vector3::new(3.0, 3.0, 7.0)) * r.transpose();
    let (l, axes) = principal_axes(&j);
    check_eigenbasis(&j, l, &axes.unwrap());
    // Diagonal: the body axes, no rotation.
    let d = Matrix3::from_diagonal(&Vector3::new(2.0, 1.0, 3.0));
    assert_eq!(principal_axes(&d), ([2.0, 1.0, 3.0], None));
}

#[test]
fn rigid_body_box_is_the_equivalent_uniform_box() {
    // A uniform 0.4 x 0.2 x 0.1 m box of 3 kg, turned by R, COM at c: the default drawing
    // is that box (closed form I = m/12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2)).
    let (a, b, c, m) = (0.4, 0.2, 0.1, 3.0);
    let i0 = m / 12.0
        * Matrix3::from_diagonal(&Vector3::new(b * b + c * c, a * a + c * c, a * a + b * b));
    let r = rotation();
    let com = Vector3::new(0.1, -0.2, 0.3);
    let body = RigidBody::new(m, r * i0 * r.transpose(), com).unwrap();
    let d = rigid_body_box(&body);
    let frame = d.frame.unwrap();
    let Some(Shape::Cuboid { center, size }) = d.primitive.map(|p| *p.shape()) else {
        panic!("not a box: {d:?}");
    };
    // The centre lands on the COM.
    assert_relative_eq!(frame * center, com, epsilon = 1e-14);
    // Each box edge k runs along R e_i with length edge_i.
    let edges = [a, b, c];
    for k in 0..3 {
        let axis = frame.column(k).into_owned();
        let i = (0..3)
            .find(|&i| (r.column(i).dot(&axis).abs() - 1.0).abs() < 1e-10)
            .unwrap();
        assert_relative_eq!(size[k], edges[i], epsilon = 1e-12);
    }
    // Axis-aligned inertia: body axes, edges in order.
    let body = RigidBody::new(m, i0, Vector3::zeros()).unwrap();
    let d = rigid_body_box(&body);
    assert!(d.frame.is_none());
    let Some(Shape::Cuboid { size, .. }) = d.primitive.map(|p| *p.shape()) else {
        panic!("not a box");
    };
    assert_relative_eq!(size, Vector3::new(a, b, c), epsilon = 1e-14);
    assert_eq!(d.primitive.unwrap().color(), Color::DEFAULT);
    // A thin plate (Izz = Ixx + Iyy: zero thickness) keeps 1/100 of its longest edge.
    let plate = m / 12.0 * Matrix3::from_diagonal(&Vector3::new(b * b, a * a, a * a + b * b));
    let d = rigid_body_box(&RigidBody::new(m, plate, Vector3::zeros()).unwrap());
    let Some(Shape::Cuboid { size, .. }) = d.primitive.map(|p| *p.shape()) else {
        panic!("not a box");
    };
    assert_relative_eq!(size, Vector3::new(a, b, a / 100.0), epsilon = 1e-7);
}

#[test]
fn mass_point_sphere_is_a_steel_ball_of_its_mass() {
    // m = rho 4/3 pi r^3 with r = 0.1 m.
    let m = MASS_POINT_SPHERE_DENSITY * 4.0 / 3.0 * core::f64::consts::PI * 1e-3;
    let p = mass_point_sphere(m).unwrap();
    let Shape::Sphere { radius, .. } = *p.shape() else {
        panic!("not a sphere");
    };
    assert_relative_eq!(radius, 0.1, epsilon = 1e-14);
    assert_eq!(p.color(), Color::DEFAULT);
}

#[test]
fn packed_cylinder_is_modelicas_shape() {
    let color = Color::new(0.2, -1.0, 0.6, 1.0).unwrap();
    let cyl = BodyCylinder::<f64>::params(Vector3::new(0.3, 0.0, 0.1))
        .r_shape(Vector3::new(0.0, 0.05, 0.0))
        .length_direction(Vector3::new(1.0, 2.0, 2.0))
        .length(0.6)
        .diameter(0.08)
        .inner_diameter(0.03)
        .color(color)
        .specular_coefficient(0.25)
        .animation(false)
        .build()
        .unwrap();
    let shape = CylinderShape::of(&cyl);
    assert!(!shape.animation());
    // -1 kept, 0.2 and 0.6 rounded to 51/255 and 153/255 (exact), alpha 1.
    assert_eq!(shape.color(), color);
    let got = shape.primitive(cyl.body().center_of_mass()).unwrap();
    let want = GraphicsData::<f64>::body_cylinder(
        Vector3::new(0.0, 0.05, 0.0),
        Vector3::new(1.0, 2.0, 2.0),
        0.6,
        0.08,
        0.03,
        false,
        color,
        0.25,
    )
    .unwrap();
    let (
        Shape::Cylinder {
            p0,
            p1,
            radius,
            inner_radius,
        },
        Shape::Cylinder {
            p0: q0,
            p1: q1,
            radius: rq,
            inner_radius: iq,
        },
    ) = (*got.shape(), *want.primitives()[0].shape())
    else {
        panic!("not cylinders");
    };
    // f32 storage: drawing precision.
    assert_relative_eq!(p0, q0, epsilon = 1e-7);
    assert_relative_eq!(p1, q1, epsilon = 1e-7);
    assert_relative_eq!(radius, rq, epsilon = 1e-8);
    assert_relative_eq!(inner_radius, iq, epsilon = 1e-8);
    assert_eq!(got.specular(), 0.25);
    // Modelica's default color is kept exactly.
    let d = BodyCylinder::<f32>::params(Vector3::x()).build().unwrap();
    let s = CylinderShape::of(&d);
    assert_eq!(s.color(), Color::MODELICA_BODY);
    assert!(s.animation());
    assert_eq!(core::mem::size_of::<CylinderShape>(), 32);
}
