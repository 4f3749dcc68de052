//! The `worst` mode: every step of a long run of each real-time workload (a bounded number of
//! Newton updates a step), timed by the SysTick counter on the core clock, for the largest
//! step, not only the mean. Under QEMU's `-icount shift=0` each instruction advances the
//! virtual clock by 1 ns, and the boards' core clocks are 25 MHz: one tick is 40 instructions
//! (`tests/firmware_qemu.rs` checks the scale against the exec-log count of one step).
//!
//! One line per workload: `worst name=N type=f32 steps=S first=F max=M min=m mean=A` in
//! ticks, `first` the first step (it computes the start values), `max`, `min`, `mean` over the
//! others.

use crate::workload::{DoublePendulumSystem, SliderCrankSystem};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_semihosting::hprintln;
use mbs_core::system::Rotations;
use mbs_core::Result;

/// Steps of each run: 5 s of the mechanisms at 1 ms.
pub const STEPS: u32 = 5000;

/// Ticks of the 24-bit down-counter between `t0` and `t1` (one wrap at most: a step is far
/// below 2^24 ticks).
fn elapsed(t0: u32, t1: u32) -> u32 {
    t0.wrapping_sub(t1) & 0x00FF_FFFF
}

/// Times `STEPS` steps of `sim` (built by `make`); its line, `false` if a step failed.
fn run<S>(name: &str, make: impl FnOnce() -> Result<S>, step: fn(&mut S) -> bool) -> bool {
    let Ok(mut sim) = make() else {
        hprintln!("worst name={} FAIL (setup)", name);
        return false;
    };
    let (mut first, mut max, mut min, mut sum) = (0u32, 0u32, u32::MAX, 0u64);
    for k in 0..STEPS {
        let t0 = SYST::get_current();
        let ok = step(&mut sim);
        let t = elapsed(t0, SYST::get_current());
        if !ok {
            hprintln!("worst name={} FAIL (step {})", name, k);
            return false;
        }
        if k == 0 {
            first = t;
        } else {
            (max, min, sum) = (max.max(t), min.min(t), sum + u64::from(t));
        }
    }
    hprintln!(
        "worst name={} type=f32 steps={} first={} max={} min={} mean={}",
        name,
        STEPS,
        first,
        max,
        min,
        sum / u64::from(STEPS - 1)
    );
    true
}

/// Starts SysTick on the core clock and times each real-time workload; `false` if one failed.
pub fn worst() -> bool {
    let Some(p) = cortex_m::Peripherals::take() else {
        hprintln!("worst FAIL (peripherals)");
        return false;
    };
    let mut syst = p.SYST;
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(0x00FF_FFFF);
    syst.clear_current();
    syst.enable_counter();
    let pendulum = |s: &mut DoublePendulumSystem<f32>| s.step().is_ok();
    let crank = |s: &mut SliderCrankSystem<f32>| s.step().is_ok();
    let mut ok = run(
        "double_pendulum_real_time",
        || DoublePendulumSystem::on(1, Rotations::EulerParameters),
        pendulum,
    );
    ok &= run(
        "double_pendulum_lie_real_time",
        || DoublePendulumSystem::on(1, Rotations::LieGroup),
        pendulum,
    );
    ok &= run(
        "slider_crank_system_real_time",
        || SliderCrankSystem::in_motion(1.0, 5.0, 1),
        crank,
    );
    ok
}
