//! The mini example of Exudyn's `ObjectMassPoint2D` built through the system and solved with the default settings
//! (Exudyn: `mbs.Assemble(); mbs.SolveDynamic()`): the final x of the position is 2.

use approx::assert_relative_eq;
use mbs_core::nodes::NodePoint2D;
use mbs_core::solver::{DynamicSolverType, SimulationSettings};
use mbs_core::system::{FirmwareSystem, NoSink, Node, Object, SystemSettings};
use mbs_core::{OutputValue, OutputVariableType};
use nalgebra::Vector2;

fn mini_example(settings: SystemSettings<f64>) -> f64 {
    let mut mbs = FirmwareSystem::<f64>::new();
    mbs.set_settings(settings).unwrap();
    let node = mbs
        .add_node(Node::Point2D(
            NodePoint2D::new(
                Vector2::new(1.0, 1.0),
                Vector2::new(0.5, 0.0),
                Vector2::new(0.5, 0.0),
            )
            .unwrap(),
        ))
        .unwrap();
    mbs.add_object(Object::mass_point_2d(node, 1.0).unwrap())
        .unwrap();
    mbs.assemble().unwrap();
    let report = mbs
        .solve_dynamic(
            &SimulationSettings {
                solver_type: DynamicSolverType::SystemScheme,
                ..SimulationSettings::default()
            },
            &mut NoSink,
        )
        .unwrap();
    assert_eq!(report.steps, 100);
    assert_relative_eq!(mbs.time(), 1.0);
    match mbs.node_output(node, OutputVariableType::Position).unwrap() {
        OutputValue::Vector3(p) => {
            assert_eq!(p.y, 1.0);
            p.x
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn mini_example_final_x_is_2_with_default_settings() {
    // x(1) = x_ref + x_0 + v_0 t = 1 + 0.5 + 0.5 * 1 (no force)
    let x = mini_example(SystemSettings::default());
    println!("mini example: x = {x:.17}");
    assert!((x - 2.0).abs() < 1e-12, "x = {x}");
}

#[test]
fn mini_example_with_held_loads_too() {
    use mbs_core::system::SystemScheme;
    let x = mini_example(SystemSettings::default().with_scheme(SystemScheme::HeldLoads));
    assert!((x - 2.0).abs() < 1e-12, "x = {x}");
}
