//! RAM of a system: `size_of` of the ready sizes and of one slot per item kind (what one more
//! unit of a capacity costs). Printed for the record; the assertions pin the per-slot costs so
//! that a change that bloats them is seen.

use mbs_core::system::{
    Connector, FirmwareSystem, HostSystem, Load, Marker, Node, NodeState, Object, ObjectIndex,
    Sensor, System,
};
use std::mem::size_of;

fn slots<T: mbs_core::Real>() -> [usize; 7] {
    [
        size_of::<Node<T>>() + size_of::<NodeState<T>>() + size_of::<Option<ObjectIndex>>(),
        size_of::<Object<T>>(),
        size_of::<Marker<T>>(),
        size_of::<Load<T>>(),
        size_of::<Connector<T>>(),
        size_of::<Sensor<T>>(),
        size_of::<System<T, 0, 0, 0, 0, 0, 0>>(),
    ]
}

#[test]
fn sizes() {
    for (name, s) in [("f32", slots::<f32>()), ("f64", slots::<f64>())] {
        println!(
            "{name}: per node {} B (node + state + body link), object {} B, marker {} B, load {} B, \
             connector {} B, sensor {} B, empty system {} B",
            s[0], s[1], s[2], s[3], s[4], s[5], s[6]
        );
    }
    let fw32 = size_of::<FirmwareSystem<f32>>();
    let fw64 = size_of::<FirmwareSystem<f64>>();
    let host32 = size_of::<HostSystem<f32>>();
    let host64 = size_of::<HostSystem<f64>>();
    println!("FirmwareSystem<f32> {fw32} B, <f64> {fw64} B; HostSystem<f32> {host32} B, <f64> {host64} B");
    // the sum of the slots is the system (up to padding of the lists' length fields)
    let s = slots::<f32>();
    let sum = 8 * s[0] + 8 * s[1] + 16 * s[2] + 16 * s[3] + 8 * s[4] + 8 * s[5] + s[6];
    assert!(fw32 <= sum + 32 && fw32 + 32 >= sum, "{fw32} vs {sum}");
    // firmware budget: a FirmwareSystem<f32> fits in 8 KiB of RAM
    assert!(fw32 <= 8 * 1024, "{fw32}");
    // The kinematic tree's capacity J: what a system of 8 and of 16 links costs more than one
    // without (the tree, its coordinates and its algorithms' data; the mass matrix grows with
    // J^2).
    type Empty<T> = System<T, 0, 0, 0, 0, 0, 0>;
    type Tree8<T> = System<T, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8>;
    type Tree16<T> = System<T, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16>;
    let t8 = size_of::<Tree8<f32>>() - size_of::<Empty<f32>>();
    let t16 = size_of::<Tree16<f32>>() - size_of::<Empty<f32>>();
    let t8d = size_of::<Tree8<f64>>() - size_of::<Empty<f64>>();
    println!("tree capacity: 8 links {t8} B (f32), {t8d} B (f64); 16 links {t16} B (f32)");
    assert!(t8 <= 8 * 900, "{t8}");
    assert!(t16 <= 16 * 950, "{t16}");
}
