//! The 6-DOF arm's check, stack lines, counted calls and RAM lines: compiled for the Cortex-M4F
//! only. On the Cortex-M0 (16 KiB of RAM) they are empty functions, so its firmware holds none
//! of the arm's code (`if` on a constant would still instantiate it and move the other
//! workloads' frames).

#[cfg(target_abi = "eabihf")]
mod m4f {
    use crate::probe;
    use crate::workload::{self, ArmRun};
    use crate::{check, semihost, stack_line, Prepared};
    use core::mem::size_of;
    use cortex_m_semihosting::hprintln;
    use mbs_core::Real;

    /// The arm's relative energy change over its RK4 run in f32: the rounding of f32 energies
    /// (about 40 J) and joint angles, far above RK4's truncation at 1 ms.
    const ARM_TOL_F32: f64 = 1e-4;

    fn aba<T: Real>(p: &mut Prepared<ArmRun<T>>) {
        p.ok &= p.sim.aba().is_ok();
    }

    fn rnea<T: Real>(p: &mut Prepared<ArmRun<T>>) {
        p.ok &= p.sim.rnea().is_ok();
    }

    fn euler_step<T: Real>(p: &mut Prepared<ArmRun<T>>) {
        p.ok &= p.sim.euler_step().is_ok();
    }

    /// The arm after one RK4 step from its start (general angles and rates), its
    /// accelerations computed (RNEA's input).
    fn prepared<T: Real>() -> Option<Prepared<ArmRun<T>>> {
        let mut sim = ArmRun::<T>::new().ok()?;
        sim.rk4_step().ok()?;
        sim.aba().ok()?;
        Some(Prepared { sim, ok: true })
    }

    pub fn check_run() -> u32 {
        check(
            "arm",
            "f32",
            workload::arm::<f32>(workload::ARM_STEPS),
            ARM_TOL_F32,
        )
    }

    pub fn stack_lines() -> u32 {
        stack_line("arm_aba", "f32", prepared::<f32>(), aba::<f32>)
            + stack_line("arm_rnea", "f32", prepared::<f32>(), rnea::<f32>)
            + stack_line(
                "arm_euler_step",
                "f32",
                prepared::<f32>(),
                euler_step::<f32>,
            )
    }

    /// ABA, RNEA and a semi-implicit Euler step between the count markers, on one arm.
    pub fn counted() -> bool {
        let Some(mut a) = prepared::<f32>() else {
            hprintln!("count FAIL (setup)");
            semihost::exit(1);
        };
        probe::counted(aba::<f32>, &mut a);
        probe::counted(rnea::<f32>, &mut a);
        probe::counted(euler_step::<f32>, &mut a);
        a.ok
    }

    /// The arm's model and data, and what one more link on a one-coordinate joint adds to both
    /// (capacities `L = D` from 6 to 7).
    pub fn ram() {
        use mbs_core::tree::{KinematicTree, TreeData};
        fn lines<T: Real>(ty: &str) {
            let arm = size_of::<KinematicTree<T, 6, 6>>() + size_of::<TreeData<T, 6, 6>>();
            let seven = size_of::<KinematicTree<T, 7, 7>>() + size_of::<TreeData<T, 7, 7>>();
            hprintln!(
                "ram what=arm_tree(6,6) type={} bytes={}",
                ty,
                size_of::<KinematicTree<T, 6, 6>>()
            );
            hprintln!(
                "ram what=arm_tree_data(6,6) type={} bytes={}",
                ty,
                size_of::<TreeData<T, 6, 6>>()
            );
            hprintln!(
                "ram what=tree_per_link(model+data,6->7) type={} bytes={}",
                ty,
                seven - arm
            );
        }
        lines::<f32>("f32");
        lines::<f64>("f64");
    }
}

#[cfg(target_abi = "eabihf")]
pub use m4f::{check_run, counted, ram, stack_lines};

/// No arm on this target.
#[cfg(not(target_abi = "eabihf"))]
pub fn check_run() -> u32 {
    0
}

/// No arm on this target.
#[cfg(not(target_abi = "eabihf"))]
pub fn stack_lines() -> u32 {
    0
}

/// No arm on this target.
#[cfg(not(target_abi = "eabihf"))]
pub fn counted() -> bool {
    true
}

/// No arm on this target.
#[cfg(not(target_abi = "eabihf"))]
pub fn ram() {}
