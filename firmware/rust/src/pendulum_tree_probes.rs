//! The 3D double pendulum in joint coordinates (`double_pendulum::tree`: the same chain as the
//! system's, a kinematic tree of two revolute joints): one RK4 and one semi-implicit Euler step
//! of 1 ms counted and their stack measured, beside the system's step of the same model.
//! Compiled for the Cortex-M4F only, as the arm's probes.

#[cfg(target_abi = "eabihf")]
mod m4f {
    use crate::double_pendulum;
    use crate::{probe, semihost, stack_line, Prepared};
    use cortex_m_semihosting::hprintln;
    use mbs_core::tree::{KinematicTree, TreeData, TreeScheme, TreeStepSettings};
    use mbs_core::{Real, Result};

    /// The chain's tree, its data and its joint coordinates and rates.
    pub struct PendulumTree<T: Real> {
        tree: KinematicTree<T, 2, 2>,
        data: TreeData<T, 2, 2>,
        q: [T; 2],
        v: [T; 2],
    }

    impl<T: Real> PendulumTree<T> {
        /// At the start: `q = 0`, both joints turning ([`double_pendulum::RATES`]).
        fn new() -> Result<Self> {
            Ok(Self {
                tree: double_pendulum::tree()?,
                data: TreeData::new(),
                q: [T::zero(); 2],
                v: double_pendulum::RATES.map(T::c),
            })
        }

        /// One step of 1 ms by `scheme`, no joint torques.
        fn step(&mut self, scheme: TreeScheme) -> Result<()> {
            let settings = TreeStepSettings::with_scheme(scheme);
            let (tree, data) = (&self.tree, &mut self.data);
            tree.step(
                data,
                &mut self.q,
                &mut self.v,
                &[T::zero(); 2],
                T::c(1e-3),
                &settings,
            )
            .map(|_| ())
        }
    }

    fn rk4<T: Real>(p: &mut Prepared<PendulumTree<T>>) {
        p.ok &= p.sim.step(TreeScheme::RungeKutta4).is_ok();
    }

    fn euler<T: Real>(p: &mut Prepared<PendulumTree<T>>) {
        p.ok &= p.sim.step(TreeScheme::SemiImplicitEuler).is_ok();
    }

    /// The chain after one RK4 step from its start (general angles).
    fn prepared<T: Real>() -> Option<Prepared<PendulumTree<T>>> {
        let mut sim = PendulumTree::<T>::new().ok()?;
        sim.step(TreeScheme::RungeKutta4).ok()?;
        Some(Prepared { sim, ok: true })
    }

    pub fn stack_lines() -> u32 {
        stack_line(
            "double_pendulum_tree_rk4",
            "f32",
            prepared::<f32>(),
            rk4::<f32>,
        ) + stack_line(
            "double_pendulum_tree_euler",
            "f32",
            prepared::<f32>(),
            euler::<f32>,
        )
    }

    /// An RK4 and a semi-implicit Euler step between the count markers.
    pub fn counted() -> bool {
        let Some(mut p) = prepared::<f32>() else {
            hprintln!("count FAIL (setup)");
            semihost::exit(1);
        };
        probe::counted(rk4::<f32>, &mut p);
        probe::counted(euler::<f32>, &mut p);
        p.ok
    }
}

#[cfg(target_abi = "eabihf")]
pub use m4f::{counted, stack_lines};

/// Not on this target.
#[cfg(not(target_abi = "eabihf"))]
pub fn stack_lines() -> u32 {
    0
}

/// Not on this target.
#[cfg(not(target_abi = "eabihf"))]
pub fn counted() -> bool {
    true
}
