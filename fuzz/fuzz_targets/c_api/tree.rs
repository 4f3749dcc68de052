//! The kinematic-tree API (`mbs_tree_*`, double and float from one macro): a tree built from
//! fuzzed links and loops, then up to 24 fuzzed calls of every tree function with vectors of
//! fuzzed lengths. On error the outputs are untouched and what the tree reports is as it was
//! (counts, loop forces; its scratch, the refused call's intermediate results, may differ); on
//! success the numbers written are finite.

use super::*;
use mbs::tree::dynamics::*;
use mbs::tree::loops::*;
use mbs::tree::*;

/// A length near `n` (the right one most often), sometimes any small one.
fn length(i: &mut Input, n: usize) -> usize {
    match i.byte() % 8 {
        0 => usize::from(i.byte() % 64),
        1 => n + 1,
        2 => n.saturating_sub(1),
        _ => n,
    }
}

macro_rules! tree_fuzz {
    ($name:ident, $T:ty, $num:ident, $finite:ident, $Tree:ty, $Link:ty, $Loop:ty,
     $init:ident, $deinit:ident, $add_link:ident, $add_loop:ident, $counts:ident,
     $spring:ident, $force:ident, $clear:ident, $neutral:ident, $rnea:ident, $bias:ident,
     $aba:ident, $mass:ident, $energy:ident, $pose:ident, $jac:ident, $step:ident,
     $project:ident, $loop_forces:ident) => {
        pub fn $name(i: &mut Input) {
            let mut storage: Box<MaybeUninit<$Tree>> = Box::new_zeroed();
            let tree = storage.as_mut_ptr();
            let g: [$T; 3] = i.maybe([0.0, 0.0, -9.81], Input::$num);
            let nul = i.byte();
            // SAFETY: aligned, writable storage of the tree's size; `g` holds 3 numbers.
            let r = unsafe {
                $init(
                    ptr_mut(&mut *tree, nul & 0x81 == 0x81),
                    ptr(&g, nul & 0x82 == 0x82).cast(),
                )
            };
            judge(r, true);
            if r != MBS_OK {
                // SAFETY: as above.
                assert_eq!(
                    unsafe { $init(tree, [0.0 as $T, 0.0, -9.81].as_ptr()) },
                    MBS_OK
                );
            }
            // What a refused call must leave as it was: the counts and the loop forces.
            let observe = |tree: *mut $Tree| -> Vec<u8> {
                let (mut nq, mut nv, mut rows) = (0u32, 0u32, 0u32);
                let mut f = [0.0 as $T; 16];
                // SAFETY: an initialized tree of the harness; 16 >= the loop rows' capacity.
                unsafe {
                    assert_eq!($counts(tree, &mut nq, &mut nv), MBS_OK);
                    assert_eq!($loop_forces(tree, f.as_mut_ptr(), 16, &mut rows), MBS_OK);
                }
                let mut b = bytes_of(&[nq, nv, rows]).to_vec();
                b.extend_from_slice(bytes_of(&f[..rows as usize]));
                b
            };
            for _ in 0..24 {
                let before = observe(tree);
                let (mut nq, mut nv) = (0u32, 0u32);
                // SAFETY: an initialized tree of the harness.
                let counted = unsafe { $counts(tree, &mut nq, &mut nv) } == MBS_OK;
                let (nq, nv) = if counted {
                    (nq as usize, nv as usize)
                } else {
                    (0, 0)
                };
                let lq = length(i, nq);
                let lv = length(i, nv);
                let q: Vec<$T> = (0..64)
                    .map(|k| {
                        if k < lq && i.flag() {
                            i.$num()
                        } else {
                            0.1 * k as $T
                        }
                    })
                    .collect();
                let v: Vec<$T> = (0..64)
                    .map(|k| if k < lv && i.flag() { i.$num() } else { 0.0 })
                    .collect();
                let a3: [$T; 3] = i.maybe([0.0, 0.0, 0.0], Input::$num);
                let b3: [$T; 3] = i.maybe([0.0, 0.0, 1.0], Input::$num);
                let (x, y) = (i.$num(), i.$num());
                let j = index(i);
                let nul = i.byte();
                let n = |b: u32| nul & (1 << b) != 0 && nul & 0x80 != 0;
                let mut out = Out::<[$T; 48 * 48]>::new();
                let mut out2 = Out::<[$T; 64]>::new();
                let mut idx = Out::<u32>::new();
                let mut e1 = Out::<$T>::new();
                let mut e2 = Out::<$T>::new();
                let mut qm = q.clone();
                let mut vm = v.clone();
                let op = i.byte() % 20;
                // SAFETY: every pointer is NULL or points to live storage of at least the
                // length passed with it (the vectors hold 64 numbers, outputs 64 or 48 x 48).
                let (r, outputs_untouched, written) = unsafe {
                    match op {
                        0 | 1 | 2 => {
                            let joint = u32::from(i.byte() % 6);
                            let mut link: $Link = core::mem::zeroed();
                            link.parent = if i.byte() % 4 == 0 { MBS_NO_INDEX } else { j };
                            link.joint = joint;
                            link.axis = b3;
                            link.rotation = if i.flag() {
                                core::array::from_fn(|_| i.$num())
                            } else {
                                [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
                            };
                            link.position = a3;
                            link.mass = if i.flag() { x } else { 1.0 };
                            link.com = a3;
                            let d = if i.flag() { y } else { 0.1 };
                            link.inertia = [d, 0.0, 0.0, 0.0, d, 0.0, 0.0, 0.0, d];
                            let r = $add_link(tree, ptr(&link, n(0)), idx.ptr(n(1)));
                            (r, idx.untouched(), 0)
                        }
                        3 => {
                            let mut l: $Loop = core::mem::zeroed();
                            l.link_a = j;
                            l.point_a = a3;
                            l.link_b = if i.flag() { MBS_NO_INDEX } else { index(i) };
                            l.point_b = b3;
                            l.axes = [i.c_flag(), i.c_flag(), i.c_flag()];
                            let r = $add_loop(tree, ptr(&l, n(0)), idx.ptr(n(1)));
                            (r, idx.untouched(), 0)
                        }
                        4 => ($spring(tree, j, x, y, i.$num(), i.$num()), true, 0),
                        5 => (
                            $force(tree, j, ptr(&a3, n(0)).cast(), ptr(&b3, n(1)).cast()),
                            true,
                            0,
                        ),
                        6 => ($clear(tree), true, 0),
                        7 => {
                            let p = out2.ptr(n(0)).cast::<$T>();
                            ($neutral(tree, p, lq), out2.untouched(), lq.min(64))
                        }
                        8 => {
                            let p = out2.ptr(n(0)).cast::<$T>();
                            (
                                $rnea(tree, q.as_ptr(), lq, ptr(&v[0], n(1)), v.as_ptr(), lv, p),
                                out2.untouched(),
                                lv.min(64),
                            )
                        }
                        9 => {
                            let p = out2.ptr(n(0)).cast::<$T>();
                            (
                                $bias(tree, q.as_ptr(), lq, v.as_ptr(), lv, p),
                                out2.untouched(),
                                lv.min(64),
                            )
                        }
                        10 => {
                            let p = out2.ptr(n(0)).cast::<$T>();
                            (
                                $aba(tree, ptr(&q[0], n(1)), lq, v.as_ptr(), v.as_ptr(), lv, p),
                                out2.untouched(),
                                lv.min(64),
                            )
                        }
                        11 => {
                            let p = out.ptr(n(0)).cast::<$T>();
                            let r = $mass(tree, q.as_ptr(), lq, p, lv);
                            (r, out.untouched(), (lv * lv).min(48 * 48))
                        }
                        12 => {
                            let r = $energy(
                                tree,
                                q.as_ptr(),
                                lq,
                                v.as_ptr(),
                                lv,
                                e1.ptr(n(0)),
                                e2.ptr(n(1)),
                            );
                            if r == MBS_OK {
                                assert!(e1.get().is_finite() && e2.get().is_finite());
                            }
                            (r, e1.untouched() && e2.untouched(), 0)
                        }
                        13 => {
                            let p = out.ptr(n(0)).cast::<$T>();
                            let r = $pose(tree, q.as_ptr(), lq, j, p, out2.ptr(n(1)).cast());
                            if r == MBS_OK {
                                assert!($finite(&out2.get()[..3]));
                            }
                            (r, out.untouched() && out2.untouched(), 9)
                        }
                        14 => {
                            let p = out.ptr(n(0)).cast::<$T>();
                            let r = $jac(tree, q.as_ptr(), lq, j, ptr(&a3, n(1)).cast(), p, lv);
                            (r, out.untouched(), (6 * lv).min(48 * 48))
                        }
                        15 | 16 => {
                            let mut sub = Out::<u32>::new();
                            let scheme = u32::from(i.byte() % 3);
                            let r = $step(
                                tree,
                                ptr_mut(&mut qm[0], n(0)),
                                lq,
                                vm.as_mut_ptr(),
                                v.as_ptr(),
                                lv,
                                x,
                                scheme,
                                sub.ptr(n(1)),
                            );
                            let same = bytes_of(&qm[..]) == bytes_of(&q[..])
                                && bytes_of(&vm[..]) == bytes_of(&v[..]);
                            if mbs_status_is_ok(r) {
                                assert!($finite(&qm[..lq]) && $finite(&vm[..lv]));
                            }
                            (r, sub.untouched() && same, 0)
                        }
                        17 => {
                            let r =
                                $project(tree, qm.as_mut_ptr(), lq, ptr_mut(&mut vm[0], n(0)), lv);
                            let same = bytes_of(&qm[..]) == bytes_of(&q[..])
                                && bytes_of(&vm[..]) == bytes_of(&v[..]);
                            if mbs_status_is_ok(r) {
                                assert!($finite(&qm[..lq]) && $finite(&vm[..lv]));
                            }
                            (r, same, 0)
                        }
                        18 => {
                            let p = out2.ptr(n(0)).cast::<$T>();
                            let r = $loop_forces(tree, p, lv.min(64), idx.ptr(n(1)));
                            (r, out2.untouched() && idx.untouched(), 0)
                        }
                        _ => {
                            let r = $deinit(ptr_mut(&mut *tree, n(0)));
                            judge(r, true);
                            if r == MBS_OK {
                                assert_eq!(
                                    $counts(tree, &mut 0u32, &mut 0u32),
                                    MBS_ERR_NOT_INITIALIZED
                                );
                                assert_eq!(
                                    $init(tree, g.as_ptr()),
                                    if $finite(&g) {
                                        MBS_OK
                                    } else {
                                        MBS_ERR_NOT_FINITE
                                    }
                                );
                                if !$finite(&g) {
                                    assert_eq!(
                                        $init(tree, [0.0 as $T, 0.0, -9.81].as_ptr()),
                                        MBS_OK
                                    );
                                }
                            }
                            continue;
                        }
                    }
                };
                judge(r, outputs_untouched);
                if mbs_status_is_ok(r) && op >= 7 && op <= 14 && op != 12 && op != 13 {
                    let o: Vec<$T> = if op == 11 || op == 14 {
                        out.get().to_vec()
                    } else {
                        out2.get().to_vec()
                    };
                    assert!($finite(&o[..written]), "op {op}: a non-finite output");
                }
                if !mbs_status_is_ok(r) {
                    assert!(
                        observe(tree) == before,
                        "op {op}: status {r} changed what the tree reports"
                    );
                }
            }
        }
    };
}

tree_fuzz!(
    tree_f64,
    f64,
    f64,
    finite64,
    mbs_tree,
    mbs_tree_link,
    mbs_tree_loop,
    mbs_tree_init,
    mbs_tree_deinit,
    mbs_tree_add_link,
    mbs_tree_add_loop,
    mbs_tree_counts,
    mbs_tree_set_joint_spring,
    mbs_tree_set_link_force,
    mbs_tree_clear_link_forces,
    mbs_tree_neutral_configuration,
    mbs_tree_rnea,
    mbs_tree_bias_forces,
    mbs_tree_aba,
    mbs_tree_mass_matrix,
    mbs_tree_energy,
    mbs_tree_link_pose,
    mbs_tree_point_jacobian,
    mbs_tree_step,
    mbs_tree_project_loops,
    mbs_tree_loop_forces
);

tree_fuzz!(
    tree_f32,
    f32,
    f32,
    finite32,
    mbs_tree_f32,
    mbs_tree_link_f32,
    mbs_tree_loop_f32,
    mbs_tree_init_f32,
    mbs_tree_deinit_f32,
    mbs_tree_add_link_f32,
    mbs_tree_add_loop_f32,
    mbs_tree_counts_f32,
    mbs_tree_set_joint_spring_f32,
    mbs_tree_set_link_force_f32,
    mbs_tree_clear_link_forces_f32,
    mbs_tree_neutral_configuration_f32,
    mbs_tree_rnea_f32,
    mbs_tree_bias_forces_f32,
    mbs_tree_aba_f32,
    mbs_tree_mass_matrix_f32,
    mbs_tree_energy_f32,
    mbs_tree_link_pose_f32,
    mbs_tree_point_jacobian_f32,
    mbs_tree_step_f32,
    mbs_tree_project_loops_f32,
    mbs_tree_loop_forces_f32
);
