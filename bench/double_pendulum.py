"""The 3D double pendulum (firmware/rust/src/double_pendulum.rs) in mbs, Exudyn and MuJoCo, in one
run: per step cost and the error of link 2's centre of mass at t = 2 s against a reference
(MuJoCo's RK4 at 1e-5 s, minimal coordinates) for a sweep of steps, then each code's cost per
simulated second at the largest step of the sweep within a target error (1e-5 m). mbs: `mbs-double-pendulum` (System::step, generalized-alpha, rho_inf 0.9, f64, iterated to
the tolerances and in real-time mode with one Newton update a step, each with the links'
rotations in Euler parameters (Exudyn's) and on the Lie group; and with `--tree` the same
chain as a kinematic tree in joint coordinates, RK4 and semi-implicit Euler); Exudyn:
SolveDynamic (generalized-alpha, rho_inf 0.9, its default modified Newton); MuJoCo: mj_step with
RK4 and with Euler (mujoco.rollout: the step loop in C, with its per-step copy of the state).
Times are the minimum over repeats on one core.

Usage (from bench/double_pendulum.sh): double_pendulum.py MBS_BINARY"""
import json
import subprocess
import sys
import time

import numpy as np
import mujoco
from mujoco import rollout

import double_pendulum_exudyn as exu_dp
import double_pendulum_mujoco as mj_dp

T_END = 2.0
STEPS = [4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4]
TARGET = 1e-5


def mbs(binary, h, tree=None, real_time=0, rotations="euler"):
    extra = (["--tree", tree] if tree else []) + ["--real-time", str(real_time),
                                                   "--rotations", rotations]
    out = subprocess.run([binary, "--steps", str(round(T_END / h)), "--t-end", str(T_END),
                          "--repeats", "5", *extra], capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return r["ns_per_step_min"], np.array(r["com2"])


def exudyn(h):
    import exudyn as exu
    best, com = float("inf"), None
    for _ in range(3):
        sc = exu.SystemContainer()
        m, n2 = exu_dp.build(sc)
        s = exu.SimulationSettings()
        s.timeIntegration.numberOfSteps = round(T_END / h)
        s.timeIntegration.endTime = T_END
        s.timeIntegration.verboseMode = 0
        s.timeIntegration.generalizedAlpha.spectralRadius = 0.9
        s.solutionSettings.writeSolutionToFile = False
        s.solutionSettings.sensorsWritePeriod = 1e9
        t0 = time.perf_counter()
        m.SolveDynamic(s)
        best = min(best, (time.perf_counter() - t0) * 1e9 / round(T_END / h))
        com = np.array(m.GetNodeOutput(n2, exu.OutputVariableType.Position))
    return best, com


def mujoco_run(h, integrator):
    steps = round(T_END / h)
    _, com = mj_dp.run(h, steps, integrator, repeats=1)
    m = mujoco.MjModel.from_xml_string(mj_dp.model_xml(h, integrator))
    d = mujoco.MjData(m)
    d.qvel[:] = exu_dp.RATES
    kind = mujoco.mjtState.mjSTATE_FULLPHYSICS
    s0 = np.zeros(mujoco.mj_stateSize(m, kind))
    mujoco.mj_getState(m, d, s0, kind)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        rollout.rollout(m, d, s0[None, :], nstep=steps)
        best = min(best, (time.perf_counter() - t0) * 1e9 / steps)
    return best, com


def at_target(hs, errs, ns):
    """The order (log-log fit of the errors), the largest measured step whose error is within
    the target and the cost (ms) per simulated second there; (order, None, None) if no step of
    the sweep reaches the target (no extrapolation past the sweep)."""
    p, _ = np.polyfit(np.log(hs), np.log(errs), 1)
    ok = [(h, n) for h, e, n in zip(hs, errs, ns) if e <= TARGET]
    if not ok:
        return p, None, None
    h, n = max(ok)
    return p, h, n / h * 1e-6


def main():
    binary = sys.argv[1]
    _, ref = mj_dp.run(1e-5, round(T_END / 1e-5), "RK4", repeats=1)
    codes = {
        "mbs (generalized-alpha)": lambda h: mbs(binary, h),
        "mbs (generalized-alpha, real-time, 1 update)": lambda h: mbs(binary, h, real_time=1),
        "mbs Lie group (generalized-alpha)": lambda h: mbs(binary, h, rotations="lie"),
        "mbs Lie group (real-time, 1 update)":
            lambda h: mbs(binary, h, real_time=1, rotations="lie"),
        "mbs tree RK4 (joint coordinates)": lambda h: mbs(binary, h, "rk4"),
        "mbs tree semi-implicit Euler": lambda h: mbs(binary, h, "euler"),
        "Exudyn 1.13.6 (generalized-alpha)": exudyn,
        "MuJoCo RK4": lambda h: mujoco_run(h, "RK4"),
        "MuJoCo Euler": lambda h: mujoco_run(h, "Euler"),
    }
    rows = {}
    for name, f in codes.items():
        rows[name] = [(h, *f(h)) for h in STEPS]
    print(f"link 2 COM at t = {T_END} s, reference (MuJoCo RK4, h = 1e-5 s): {ref}")
    print(f"| code | " + " | ".join(f"h = {h:g} s: ns/step, error (m)" for h in STEPS) + " |")
    for name, r in rows.items():
        cells = " | ".join(f"{ns:,.0f}, {np.linalg.norm(c - ref):.2e}" for _, ns, c in r)
        print(f"| {name} | {cells} |")
    print(f"\nat the target error {TARGET:g} m:")
    for name, r in rows.items():
        hs = [h for h, _, _ in r]
        errs = [np.linalg.norm(c - ref) for _, _, c in r]
        ns = [n for _, n, _ in r]
        p, h, cost = at_target(hs, errs, ns)
        if h is None:
            print(f"  {name}: order {p:.2f}, no step of the sweep reaches it")
        else:
            print(f"  {name}: order {p:.2f}, step {h:g} s, {cost:.3f} ms per simulated second")
    e1 = {name: [n for h, n, _ in r if h == 1e-3][0] for name, r in rows.items()}
    m = e1["mbs (generalized-alpha)"]
    print("\nper step at h = 1e-3 s: " + ", ".join(f"{k} {v:,.0f} ns ({v / m:.1f}x mbs)"
                                                  for k, v in e1.items()))
    rt = e1["mbs (generalized-alpha, real-time, 1 update)"]
    exu = e1["Exudyn 1.13.6 (generalized-alpha)"]
    print(f"Exudyn per step / mbs per step at h = 1e-3 s: {exu / m:.1f}x iterated, {exu / rt:.1f}x real-time")
    lie, lie_rt = e1["mbs Lie group (generalized-alpha)"], e1["mbs Lie group (real-time, 1 update)"]
    print(f"  with the rotations on the Lie group: {exu / lie:.1f}x iterated, "
          f"{exu / lie_rt:.1f}x real-time")


if __name__ == "__main__":
    main()
