#![allow(clippy::unwrap_used)]

use super::*;
use crate::bodies::RigidBody2D;
use crate::inertia::MassProperties;
use crate::integrators::constrained::{Block, ConstrainedModel};
use crate::math::Quaternion;
use crate::nodes::{NodePoint2D, NodeRigidBody2D};
use crate::system::constraint::Constraint;
use crate::system::marker::Marker;
use crate::system::node::Node;
use crate::system::object::Object;
use crate::system::{HostSystem, RigidBodySpec};
use nalgebra::Matrix3;
use nalgebra::{Vector2, Vector3};

const S: usize = 40;

/// 3D: two bodies with full inertia tensors on a revolute joint about an oblique axis
/// (markers off the centres) to the ground and a spherical joint, plus a distance; planar:
/// two 2D bodies and a mass point on a revolute, a prismatic (rotation held), a distance
/// and a coordinate constraint. Every kind of Hessian the model has.
fn mechanism() -> HostSystem<f64> {
    let mut sys = HostSystem::<f64>::new();
    let ground = sys.create_ground(Vector3::zeros()).unwrap();
    let inertia = Matrix3::new(0.3, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.2);
    let mp = MassProperties::new(2.0, Vector3::zeros(), inertia).unwrap();
    let mut spec = RigidBodySpec::at(Vector3::new(0.5, -0.2, 0.1));
    spec.orientation = Quaternion::new(0.9, 0.1, -0.3, 0.2).normalized().unwrap();
    let b0 = sys.create_rigid_body(&mp, &spec).unwrap();
    spec.position = Vector3::new(1.2, -0.6, 0.3);
    let b1 = sys.create_rigid_body(&mp, &spec).unwrap();
    let frame = Matrix3::new(0.0, 0.6, 0.8, 0.0, 0.8, -0.6, -1.0, 0.0, 0.0);
    let mut marker = |m: Marker<f64>| sys.add_marker(m).unwrap();
    let g = marker(Marker::body_rigid_frame(ground, Vector3::zeros(), &frame).unwrap());
    let m0 =
        marker(Marker::body_rigid_frame(b0.object, Vector3::new(-0.4, 0.1, 0.0), &frame).unwrap());
    let m1 = marker(Marker::body_rigid(b0.object, Vector3::new(0.3, -0.2, 0.1)).unwrap());
    let m2 = marker(Marker::body_rigid(b1.object, Vector3::new(-0.3, 0.2, 0.0)).unwrap());
    let m3 = marker(Marker::body_rigid(b1.object, Vector3::new(0.2, 0.1, -0.1)).unwrap());
    sys.add_constraint(Constraint::revolute_joint([g, m0]).unwrap())
        .unwrap();
    sys.add_constraint(Constraint::spherical_joint([m1, m2]).unwrap())
        .unwrap();
    sys.add_constraint(Constraint::distance([g, m3], 1.5).unwrap())
        .unwrap();
    let mut rigid2d = |x: f64| {
        let node = Node::RigidBody2D(NodeRigidBody2D::at(Vector3::new(x, 0.1, 0.2)).unwrap());
        let n = sys.add_node(node).unwrap();
        let body = RigidBody2D::new(1.5, 0.2, Vector2::zeros()).unwrap();
        (
            n,
            sys.add_object(Object::RigidBody2D { node: n, body })
                .unwrap(),
        )
    };
    let (_, r0) = rigid2d(0.5);
    let (_, r1) = rigid2d(1.5);
    let p = sys.add_node(Node::Point2D(
        NodePoint2D::at(Vector2::new(2.5, 0.3)).unwrap(),
    ));
    let p = p.unwrap();
    sys.add_object(Object::mass_point_2d(p, 0.5).unwrap())
        .unwrap();
    let mut marker = |m: Marker<f64>| sys.add_marker(m).unwrap();
    let at = |o, x: f64| Marker::body_rigid(o, Vector3::new(x, 0.05, 0.0)).unwrap();
    let (g0, a0, a1, c0) = (
        marker(at(ground, 0.0)),
        marker(at(r0, -0.5)),
        marker(at(r0, 0.5)),
        marker(at(r1, -0.5)),
    );
    let (c1, pm) = (marker(at(r1, 0.5)), marker(Marker::node_position(p)));
    let pc = marker(Marker::node_coordinate(p, 1));
    let gc = marker(Marker::node_coordinate(p, 0));
    let axis = Vector2::new(1.0, 0.2);
    let normal = Vector2::new(-0.1, 1.0);
    for c in [
        Constraint::revolute_2d([g0, a0]).unwrap(),
        Constraint::prismatic_2d([a1, c0], axis, normal, true).unwrap(),
        Constraint::distance([c1, pm], 1.0).unwrap(),
        Constraint::coordinate([pc, gc], 0.5, 0.1).unwrap(),
    ] {
        sys.add_constraint(c).unwrap();
    }
    sys.set_settings(
        crate::system::SystemSettings::default()
            .with_scheme(crate::system::SystemScheme::GeneralizedAlpha),
    )
    .unwrap();
    sys.alpha_layout(Formulation::Index3, Rotations::EulerParameters)
        .unwrap();
    sys
}

/// A chain joined to the ground at its first body (added first) is laid out from its free
/// end; a body no constraint joins to the ground comes before it; ties in index order.
#[test]
fn the_coordinates_are_laid_out_from_the_free_ends() {
    let mut sys = HostSystem::<f64>::new();
    let ground = sys.create_ground(Vector3::zeros()).unwrap();
    let mut bodies = [ground; 4];
    for (k, b) in bodies.iter_mut().enumerate().skip(1) {
        let node = NodeRigidBody2D::at(Vector3::new(k as f64, 0.0, 0.0)).unwrap();
        let n = sys.add_node(Node::RigidBody2D(node)).unwrap();
        let body = RigidBody2D::new(1.0, 0.1, Vector2::zeros()).unwrap();
        *b = sys
            .add_object(Object::RigidBody2D { node: n, body })
            .unwrap();
    }
    let free = sys.add_node(Node::Point2D(
        NodePoint2D::at(Vector2::new(5.0, 0.0)).unwrap(),
    ));
    sys.add_object(Object::mass_point_2d(free.unwrap(), 1.0).unwrap())
        .unwrap();
    // Nodes 0 - 1 - 2 a chain from the ground; node 3 free.
    for (a, b) in [(0, 1), (1, 2), (2, 3)] {
        let x = a as f64 + 0.5;
        let m = |s: &mut HostSystem<f64>, o| {
            s.add_marker(Marker::body_rigid(o, Vector3::new(x, 0.0, 0.0)).unwrap())
        };
        let (ma, mb) = (
            m(&mut sys, bodies[a]).unwrap(),
            m(&mut sys, bodies[b]).unwrap(),
        );
        sys.add_constraint(Constraint::revolute_2d([ma, mb]).unwrap())
            .unwrap();
    }
    let order: Vec<u16, 8, u16> =
        leaves_first(&sys.nodes, &sys.objects, &sys.markers, &sys.constraints).unwrap();
    assert_eq!(order.as_slice(), &[3, 2, 1, 0]);
    let layout = Layout::<f64, 8, 8>::of(
        &sys.nodes,
        &order,
        0,
        &sys.constraints,
        Rotations::EulerParameters,
    )
    .unwrap();
    assert_eq!(layout.offsets.as_slice(), &[8, 5, 2, 0]);
    assert_eq!((layout.n, layout.m), (11, 6));
    // A distance between nodes 0 and 2 closes a loop: node 2 is then as near the ground as 1.
    let [m0, m2] = [bodies[1], bodies[3]].map(|o| {
        sys.add_marker(Marker::body_rigid(o, Vector3::zeros()).unwrap())
            .unwrap()
    });
    sys.add_constraint(Constraint::distance([m0, m2], 2.0).unwrap())
        .unwrap();
    let order: Vec<u16, 8, u16> =
        leaves_first(&sys.nodes, &sys.objects, &sys.markers, &sys.constraints).unwrap();
    assert_eq!(order.as_slice(), &[3, 1, 2, 0]);
}

/// `M` taken with its product (`mass_with_product`, each body's block times its
/// coordinates) is, bit for bit, `mass`'s `M` and the product over `M`'s whole rows: the
/// residual does not depend on which way it was taken.
#[test]
fn the_mass_taken_with_its_product_is_the_mass_and_its_rows_product_bit_for_bit() {
    let mut sys = mechanism();
    let model = model_of!(sys);
    let n = model.layout.n;
    let q: [f64; S] = core::array::from_fn(|i| (0.37 * i as f64).sin());
    let x: [f64; S] = core::array::from_fn(|i| 0.5 - (0.91 * i as f64).cos());
    let (mut one, mut two) = ([[0.0; S]; S], [[0.0; S]; S]);
    let mut mx = [0.0; S];
    model
        .mass_with_product(
            0.0,
            &q[..n],
            &x[..n],
            &mut Block::new(&mut one, 0, 0, n, n),
            &mut mx[..n],
        )
        .unwrap()
        .unwrap();
    model
        .mass(0.0, &q[..n], &mut Block::new(&mut two, 0, 0, n, n))
        .unwrap();
    let bits = |x: &[[f64; S]; S]| x.map(|r| r.map(f64::to_bits));
    assert_eq!(bits(&one), bits(&two));
    for i in 0..n {
        let row = two[i][..n]
            .iter()
            .zip(&x[..n])
            .fold(0.0, |acc, (a, b)| acc + a * b);
        assert_eq!(mx[i].to_bits(), row.to_bits(), "{i}");
        assert!(row != 0.0, "{i}");
    }
}

/// The constraints' Jacobian and Hessian taken in one pass over the markers
/// (`constraint_with_jacobian_and_hessian`) are, bit for bit, what the separate calls add to
/// a matrix that already holds `M`: so a step's Newton matrix does not depend on which
/// evaluation took the Hessian.
#[test]
fn the_hessian_taken_with_the_jacobian_is_the_separate_one_bit_for_bit() {
    let mut sys = mechanism();
    let model = model_of!(sys);
    let (n, m) = (model.layout.n, model.layout.m);
    assert!(n + m <= S && m == 2 + 5 + 3 + 1 + 2 + 2 + 1 + 1, "{n} {m}");
    // Away from the constraints' manifold and from any symmetry.
    let q: [f64; S] = core::array::from_fn(|i| (0.37 * i as f64).sin());
    let lambda: [f64; S] = core::array::from_fn(|i| 1.0 + 0.3 * (1.7 * i as f64).cos());
    let a = 0.7;
    let (mut one, mut two) = ([[0.0; S]; S], [[0.0; S]; S]);
    let (mut c1, mut c2) = ([0.0; S], [0.0; S]);
    for jac in [&mut one, &mut two] {
        model
            .mass(0.0, &q[..n], &mut Block::new(jac, m, m, n, n))
            .unwrap();
    }
    let mut block = Block::new(&mut one, 0, m, m, n);
    let r = model.constraint_with_jacobian_and_hessian(
        0.0,
        &q[..n],
        &lambda[..m],
        a,
        &mut c1[..m],
        &mut block,
    );
    r.unwrap().unwrap();
    model
        .constraint_with_jacobian(
            0.0,
            &q[..n],
            &mut c2[..m],
            &mut Block::new(&mut two, 0, m, m, n),
        )
        .unwrap();
    let mut coordinates = Block::new(&mut two, m, m, n, n);
    model
        .constraint_force_jacobian(0.0, &q[..n], &lambda[..m], a, &mut coordinates)
        .unwrap()
        .unwrap();
    let bits = |x: &[[f64; S]; S]| x.map(|r| r.map(f64::to_bits));
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(c1.map(f64::to_bits), c2.map(f64::to_bits));
    // The Hessian is there: the coordinates' block is not M alone.
    let mut mass = [[0.0; S]; S];
    model
        .mass(0.0, &q[..n], &mut Block::new(&mut mass, m, m, n, n))
        .unwrap();
    let differ = (m..m + n).flat_map(|i| (m..m + n).map(move |j| (i, j)));
    assert!(differ.filter(|&(i, j)| one[i][j] != mass[i][j]).count() > 3 * n);
}
