//! A solve's per-step observer (`System::solve_dynamic_observed`): an observer that always
//! continues gives the bits of `solve_dynamic` (pinned: the fingerprint of this run before the
//! observer existed), a stop at step k leaves exactly the state of a run of k steps, and the
//! observer sees every step with the system in that step's state.
#[path = "../firmware/rust/src/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;

use mbs_core::solver::SimulationSettings;
use mbs_core::system::{Control, HostSystem, NoSink, NodeIndex, SystemScheme, SystemSettings};

fn pendulum() -> (Box<HostSystem<f64>>, [NodeIndex; 2]) {
    let mut mbs = Box::new(HostSystem::<f64>::new());
    let mut settings = SystemSettings::default();
    settings.scheme = SystemScheme::GeneralizedAlpha;
    mbs.set_settings(settings).unwrap();
    let nodes = double_pendulum::add_to_system(&mut *mbs).unwrap();
    mbs.assemble().unwrap();
    (mbs, nodes)
}

/// FNV-1a of the nodes' states and the time, each f64 by its shortest round-trip text (the bits).
fn fingerprint(mbs: &HostSystem<f64>, nodes: &[NodeIndex]) -> u64 {
    let mut text = format!("{:?}", mbs.time());
    for n in nodes {
        text.push_str(&format!("{:?}", mbs.node_state(*n).unwrap()));
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// 256 steps of h = 2^-10 s: `k h` and `(k h) / k` are exact, so a run of k steps has the
/// same step and times as the first k steps of this one.
fn settings(steps: u32) -> SimulationSettings<f64> {
    let mut s = SimulationSettings::default();
    (s.end_time, s.number_of_steps) = (f64::from(steps) / 1024.0, steps);
    s
}

/// The fingerprint of `solve_dynamic` on this run: pinned before the observer existed, and
/// again at each intended change of the 3D step's arithmetic.
const PINNED: u64 = 0x09cf_8b6d_743c_b7ad;

#[test]
fn an_observer_that_continues_changes_no_bit() {
    let (mut plain, nodes) = pendulum();
    let r = plain.solve_dynamic(&settings(256), &mut NoSink).unwrap();
    assert_eq!(fingerprint(&plain, &nodes), PINNED);
    assert_eq!((r.steps, r.stopped), (256, false));

    let (mut observed, _) = pendulum();
    let mut seen = Vec::new();
    let ro = observed
        .solve_dynamic_observed(&settings(256), &mut NoSink, |sys, p| {
            // The system handed over is in the state of the step just taken.
            assert_eq!(sys.time(), p.time);
            seen.push((p.step, p.steps, p.time, p.report.newton_iterations));
            Control::Continue
        })
        .unwrap();
    assert_eq!(fingerprint(&observed, &nodes), PINNED);
    assert_eq!(ro, r);
    // The start (step 0), then every step.
    assert_eq!(seen.len(), 257);
    for (k, (step, steps, t, newton)) in seen.iter().enumerate() {
        assert_eq!((*step, *steps), (k as u32, 256));
        assert_eq!(*t, f64::from(*step) / 1024.0);
        assert_eq!(
            *newton >= 1,
            *step > 0,
            "step {step}: a generalized-alpha step makes a Newton update, the start none"
        );
    }
}

#[test]
fn a_stop_at_step_k_leaves_the_state_of_a_run_of_k_steps() {
    for k in [1u32, 100, 255] {
        let (mut stopped, nodes) = pendulum();
        let mut calls = 0;
        let r = stopped
            .solve_dynamic_observed(&settings(256), &mut NoSink, |_, p| {
                calls += 1;
                if p.step == k {
                    Control::Stop
                } else {
                    Control::Continue
                }
            })
            .unwrap();
        assert_eq!((r.steps, r.stopped, calls), (k, true, k + 1));

        let (mut short, _) = pendulum();
        let rs = short.solve_dynamic(&settings(k), &mut NoSink).unwrap();
        assert_eq!(stopped.time(), f64::from(k) / 1024.0);
        assert_eq!(
            fingerprint(&stopped, &nodes),
            fingerprint(&short, &nodes),
            "k = {k}"
        );
        assert_eq!(r.newton_iterations, rs.newton_iterations);

        // The stopped system goes on as any other: a second solve from the start is the full run.
        stopped.solve_dynamic(&settings(256), &mut NoSink).unwrap();
        assert_eq!(fingerprint(&stopped, &nodes), PINNED);
    }
    // A stop at the start leaves the initial state at the start time.
    let (mut first, nodes) = pendulum();
    let (fresh, _) = pendulum();
    let r = first
        .solve_dynamic_observed(&settings(256), &mut NoSink, |_, _| Control::Stop)
        .unwrap();
    assert_eq!((r.steps, r.stopped, first.time()), (0, true, 0.0));
    assert_eq!(fingerprint(&first, &nodes), fingerprint(&fresh, &nodes));
    // A stop at the last step is a complete run.
    let (mut last, nodes) = pendulum();
    let r = last
        .solve_dynamic_observed(&settings(256), &mut NoSink, |_, p| {
            if p.step == 256 {
                Control::Stop
            } else {
                Control::Continue
            }
        })
        .unwrap();
    assert_eq!((r.steps, r.stopped), (256, false));
    assert_eq!(fingerprint(&last, &nodes), PINNED);
}
