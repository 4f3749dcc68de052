#!/usr/bin/env python3
"""mbs against its peers on one torque-free asymmetric rigid body, in one run.

The body: mass 1 kg, principal inertia diag(1, 2, 3) kg m^2, start rate w0 = [0.1, 5, 0.1] rad/s
(body frame, close to the unstable middle axis: it flips), identity orientation, no gravity, no
contact; dt = 1e-3 s for 10 s. Every scheme runs the same 10 000 steps.

- mbs: the `mbs-torque-free` release binary (Rust API; it loops over the steps itself, so no
  Python overhead per step) runs the linearly implicit midpoint (f64 and f32), core's baselines
  (semi-implicit Euler, explicit Euler, RK4) and the Bullet-style step (Bullet's
  computeGyroscopicImpulseImplicit_Body: one Newton step of implicit Euler on the gyroscopic
  term), and times them.
- MuJoCo: one free body, `mj_step` with the integrators Euler (the default), implicitfast,
  implicit and RK4. Timed two ways: a Python loop of `mj_step(m, d)` (Python overhead per
  step) and `mj_step(m, d, nstep=N)` (the loop in C).
- Exudyn: one rigid body (Euler parameters, Exudyn's default node), `SolveDynamic` with its
  default generalized-alpha; timed as the wall time of `SolveDynamic` / steps.
- Reference: scipy `solve_ivp` DOP853 (rtol 1e-12, atol 1e-14) on Euler's equations and the
  quaternion kinematics.

Printed: per-step time and its ratio to the mbs f64 midpoint measured in this run (plus a paired
ratio to mj_step: 10 rounds of mbs and mj_step timed back to back, for a shared machine), and the
energy, |L|, rate and orientation errors at 10 s (and the largest energy error over the run).
Written: results JSON, a Markdown table and the error plot (PNG) into --out.
"""

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

MOMENTS = np.array([1.0, 2.0, 3.0])
W0 = np.array([0.1, 5.0, 0.1])
DT = 1e-3
T_END = 10.0
EVERY = 10  # record every 10 steps (0.01 s)


# --- invariants and rotations -------------------------------------------------------------

def energy(w):
    """Kinetic energy 1/2 w.I w (J) of body-frame rates w, shape (..., 3)."""
    w = np.asarray(w)
    return 0.5 * np.sum(MOMENTS * w * w, axis=-1)


def momentum(w):
    """|L| = |I w| (kg m^2/s)."""
    return np.linalg.norm(MOMENTS * np.asarray(w), axis=-1)


def quat_to_matrix(q):
    """R_0b of unit quaternions [w, x, y, z], shape (..., 4) -> (..., 3, 3)."""
    q = np.asarray(q, dtype=float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    w, x, y, z = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def rotation_angle_between(r_a, r_b):
    """Angle (rad) of R_a^T R_b, from |R_a^T R_b - E3|_F = 2 sqrt(2) sin(angle/2) (accurate
    for small angles, where acos of the trace loses half the digits)."""
    d = np.linalg.norm(r_a.T @ r_b - np.eye(3))
    return float(2.0 * math.asin(min(1.0, d / (2.0 * math.sqrt(2.0)))))


# --- reference ------------------------------------------------------------------------------

def reference(t_eval):
    """DOP853 on I w' = -w x I w and q' = 1/2 q [0, w]."""
    def rhs(_t, y):
        w, q = y[:3], y[3:]
        dw = -np.cross(w, MOMENTS * w) / MOMENTS
        qw, qx, qy, qz = q
        wx, wy, wz = w
        dq = 0.5 * np.array([
            -qx * wx - qy * wy - qz * wz,
            qw * wx + qy * wz - qz * wy,
            qw * wy - qx * wz + qz * wx,
            qw * wz + qx * wy - qy * wx,
        ])
        return np.concatenate([dw, dq])

    y0 = np.concatenate([W0, [1.0, 0.0, 0.0, 0.0]])
    sol = solve_ivp(rhs, (0.0, T_END), y0, method="DOP853", rtol=1e-12, atol=1e-14,
                    t_eval=t_eval)
    if not sol.success:
        raise RuntimeError(f"reference failed: {sol.message}")
    return sol.y[:3].T, sol.y[3:].T


# --- mbs (Rust binary) ------------------------------------------------------------------------

def run_mbs(binary, repeats):
    out = subprocess.run([binary, "--dt", str(DT), "--t-end", str(T_END), "--every", str(EVERY),
                          "--repeats", str(repeats)], check=True, capture_output=True, text=True)
    data = json.loads(out.stdout)
    runs = []
    for s in data["schemes"]:
        runs.append({
            "name": ("Bullet-style " + s["name"].replace("Bullet ", "") if "Bullet" in s["name"]
                     else ("" if s["name"].startswith("mbs") else "mbs ") + s["name"])
                    + ("" if s["scalar"] == "f64" else f" {s['scalar']}"),
            "group": "mbs" if s["name"].startswith("mbs") else
                     ("Bullet-style" if "Bullet" in s["name"] else "mbs baseline"),
            "t": np.array(s["t"]), "w": np.array(s["w"]),
            "R": quat_to_matrix(np.array(s["q"])),
            "ns_min": s["ns_per_step_min"], "ns_median": s["ns_per_step_median"],
            "timing": "Rust loop",
        })
    return runs, data.get("micro_ns", {})


# --- MuJoCo -----------------------------------------------------------------------------------

MJCF = """
<mujoco model="torque-free">
  <option timestep="{dt}" gravity="0 0 0" integrator="{integrator}">
    <flag contact="disable"/>
  </option>
  <worldbody>
    <body name="b">
      <freejoint/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 2 3"/>
    </body>
  </worldbody>
</mujoco>
"""


def run_mujoco(repeats, steps):
    import mujoco

    runs = []
    for integrator in ["Euler", "implicitfast", "implicit", "RK4"]:
        m = mujoco.MjModel.from_xml_string(MJCF.format(dt=DT, integrator=integrator))
        d = mujoco.MjData(m)

        def reset():
            mujoco.mj_resetData(m, d)
            d.qvel[3:6] = W0  # free joint: angular velocity in the body frame

        def body_state():
            # From qpos/qvel (the state after the step; d.xmat and d.cvel still belong to the
            # start of the last step): free joint qpos[3:7] = R_0b as [w, x, y, z], qvel[3:6]
            # = body-frame rate (checked against mj_objectVelocity after mj_forward).
            return d.qvel[3:6].copy(), quat_to_matrix(d.qpos[3:7].copy())

        # trajectory
        reset()
        ts, ws, rs = [0.0], [], []
        w, r = body_state()
        ws.append(w)
        rs.append(r)
        for k in range(1, steps + 1):
            mujoco.mj_step(m, d)
            if k % EVERY == 0 or k == steps:
                ts.append(k * DT)
                w, r = body_state()
                ws.append(w)
                rs.append(r)

        # timing: Python loop of single steps, and nstep (the loop in C)
        def timed(fn):
            reset()
            fn()  # warm-up
            per = []
            for _ in range(repeats):
                reset()
                t0 = time.perf_counter_ns()
                fn()
                per.append((time.perf_counter_ns() - t0) / steps)
            per.sort()
            return per[0], per[len(per) // 2]

        def py_loop():
            step = mujoco.mj_step
            for _ in range(steps):
                step(m, d)

        def c_loop():
            mujoco.mj_step(m, d, nstep=steps)

        c_min, c_med = timed(c_loop)
        p_min, p_med = timed(py_loop)
        base = {"group": "MuJoCo " + mujoco.__version__, "t": np.array(ts), "w": np.array(ws),
                "R": np.array(rs)}
        runs.append(dict(base, name=f"MuJoCo {integrator}", ns_min=c_min, ns_median=c_med,
                         timing="mj_step(nstep=N), loop in C"))
        runs.append({"name": f"MuJoCo {integrator}", "group": base["group"], "t": None,
                     "ns_min": p_min, "ns_median": p_med,
                     "timing": "Python loop of mj_step"})
    return runs


# --- Exudyn -----------------------------------------------------------------------------------

def run_exudyn(repeats, steps):
    import exudyn as exu
    from exudyn.utilities import RigidBodyInertia, SensorNode

    def build(with_sensors):
        sc = exu.SystemContainer()
        mbs = sc.AddSystem()
        inertia = RigidBodyInertia(mass=1.0, inertiaTensor=np.diag(MOMENTS))
        b = mbs.CreateRigidBody(inertia=inertia, referencePosition=[0, 0, 0],
                                initialVelocity=[0, 0, 0],
                                initialAngularVelocity=list(W0),  # = body frame at R = E3
                                gravity=[0, 0, 0],
                                nodeType=exu.NodeType.RotationEulerParameters)
        n = mbs.GetObject(b)["nodeNumber"]
        sensors = None
        if with_sensors:
            sw = mbs.AddSensor(SensorNode(nodeNumber=n, storeInternal=True, writeToFile=False,
                                          outputVariableType=exu.OutputVariableType.AngularVelocityLocal))
            sr = mbs.AddSensor(SensorNode(nodeNumber=n, storeInternal=True, writeToFile=False,
                                          outputVariableType=exu.OutputVariableType.RotationMatrix))
            sensors = (sw, sr)
        mbs.Assemble()
        s = exu.SimulationSettings()
        s.timeIntegration.numberOfSteps = steps
        s.timeIntegration.endTime = steps * DT
        s.timeIntegration.verboseMode = 0
        s.show.computationTime = False
        s.show.statistics = False
        s.solution.file.write = False
        s.solution.sensors.writePeriod = EVERY * DT
        return sc, mbs, s, sensors

    sc, mbs, s, (sw, sr) = build(True)
    mbs.SolveDynamic(s)
    dw = np.array(mbs.GetSensorStoredData(sw))
    dr = np.array(mbs.GetSensorStoredData(sr))
    t = dw[:, 0]
    w = dw[:, 1:4]
    r = dr[:, 1:10].reshape(-1, 3, 3)  # row-major 3x3

    per = []
    for k in range(repeats + 1):
        sc, mbs, s, _ = build(False)
        t0 = time.perf_counter_ns()
        mbs.SolveDynamic(s)
        if k > 0:  # first is a warm-up
            per.append((time.perf_counter_ns() - t0) / steps)
    per.sort()
    return [{"name": "Exudyn generalized-alpha", "group": "Exudyn " + exu.__version__,
             "t": t, "w": w, "R": r, "ns_min": per[0], "ns_median": per[len(per) // 2],
             "timing": "SolveDynamic wall time / steps"}]


# --- paired ratio: mbs and mj_step interleaved ---------------------------------------------

def paired_ratio(binary, steps, rounds=10):
    """Median over `rounds` of (mj_step Euler ns / mbs f64 midpoint ns), the two timed back to
    back in each round (best of 3 each), so that a load change on a shared machine hits both."""
    import mujoco

    m = mujoco.MjModel.from_xml_string(MJCF.format(dt=DT, integrator="Euler"))
    d = mujoco.MjData(m)
    ratios, mbs_ns, mj_ns = [], [], []
    for _ in range(rounds):
        out = subprocess.run([binary, "--only", "midpoint f64", "--repeats", "3",
                              "--every", str(steps)], check=True, capture_output=True, text=True)
        a = json.loads(out.stdout)["schemes"][0]["ns_per_step_min"]
        best = math.inf
        for _ in range(3):
            mujoco.mj_resetData(m, d)
            d.qvel[3:6] = W0
            t0 = time.perf_counter_ns()
            mujoco.mj_step(m, d, nstep=steps)
            best = min(best, (time.perf_counter_ns() - t0) / steps)
        ratios.append(best / a)
        mbs_ns.append(a)
        mj_ns.append(best)
    ratios.sort()
    return {"ratio_median": ratios[len(ratios) // 2], "ratio_min": ratios[0],
            "ratio_max": ratios[-1], "mbs_ns_min": min(mbs_ns), "mj_ns_min": min(mj_ns),
            "rounds": rounds}


# --- report -----------------------------------------------------------------------------------

def errors(run, w_ref_fn, r_ref_fn, e0, l0):
    t, w, r = run["t"], run["w"], run["R"]
    e_rel = (energy(w) - e0) / e0
    l_rel = (momentum(w) - l0) / l0
    w_ref, r_ref = w_ref_fn(t[-1]), r_ref_fn(t[-1])
    return {
        "t": t, "e_rel": e_rel, "l_rel": l_rel,
        "e_end": float(e_rel[-1]), "l_end": float(l_rel[-1]),
        "e_max": float(np.max(np.abs(e_rel))),
        "w_err": float(np.linalg.norm(w[-1] - w_ref) / np.linalg.norm(W0)),
        "rot_err": rotation_angle_between(r_ref, r[-1]),
    }


def lscpu():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor(), os.cpu_count()
    info = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    return info.get("Model name", "?").strip(), info.get("CPU(s)", "?").strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mbs-bin", required=True, help="path of the mbs-torque-free binary")
    ap.add_argument("--repeats", type=int, default=20, help="timed repetitions of each 10 s run")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "results"))
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args()
    steps = int(round(T_END / DT))
    os.makedirs(args.out, exist_ok=True)

    t_grid = np.round(np.arange(0, steps + 1, EVERY) * DT, 12)
    w_ref, q_ref = reference(t_grid)
    e0, l0 = float(energy(W0)), float(momentum(W0))
    ref_drift_e = float(np.max(np.abs(energy(w_ref) - e0)) / e0)
    ref_drift_l = float(np.max(np.abs(momentum(w_ref) - l0)) / l0)
    r_ref_all = quat_to_matrix(q_ref)

    def idx(t):
        return int(np.argmin(np.abs(t_grid - t)))

    def w_ref_fn(t):
        return w_ref[idx(t)]

    def r_ref_fn(t):
        return r_ref_all[idx(t)]

    # Order: mbs first (its timing is the unit), then the peers; mbs again at the end so a
    # load change during the run shows up as a difference between the two mbs timings.
    runs, micro = run_mbs(args.mbs_bin, args.repeats)
    runs += run_mujoco(args.repeats, steps)
    runs += run_exudyn(max(3, args.repeats // 4), steps)
    runs_again, _ = run_mbs(args.mbs_bin, args.repeats)
    paired = paired_ratio(args.mbs_bin, steps)
    unit = min(runs[0]["ns_min"], runs_again[0]["ns_min"])
    unit_med = min(runs[0]["ns_median"], runs_again[0]["ns_median"])

    rows = []
    for run in runs:
        err = errors(run, w_ref_fn, r_ref_fn, e0, l0) if run["t"] is not None else None
        run["err"] = err
        rows.append({
            "name": run["name"], "group": run["group"], "timing": run["timing"],
            "ns_min": run["ns_min"], "ns_median": run["ns_median"],
            "ratio_min": run["ns_min"] / unit, "ratio_median": run["ns_median"] / unit_med,
            **({k: err[k] for k in ("e_end", "l_end", "e_max", "w_err", "rot_err")} if err else {}),
        })

    cpu, ncpu = lscpu()
    mid = next(r for r in rows if r["name"] == "mbs midpoint")
    semi = next(r for r in rows if r["name"] == "mbs semi-implicit Euler")
    mj_c = next(r for r in rows if r["name"] == "MuJoCo Euler" and "C" in r["timing"])
    mj_py = next(r for r in rows if r["name"] == "MuJoCo Euler" and "Python" in r["timing"])
    targets = {
        "f64 midpoint step <= 50 ns": (unit <= 50.0, f"{unit:.1f} ns (best of both mbs runs)"),
        ">= 20x faster than MuJoCo mj_step (nstep, loop in C)":
            (mj_c["ns_min"] / unit >= 20, f"{mj_c['ns_min'] / unit:.1f}x"),
        ">= 20x faster than MuJoCo mj_step (nstep), paired rounds (median)":
            (paired["ratio_median"] >= 20,
             f"{paired['ratio_median']:.1f}x (range {paired['ratio_min']:.1f}-"
             f"{paired['ratio_max']:.1f}x over {paired['rounds']} rounds)"),
        ">= 20x faster than MuJoCo mj_step (Python loop)":
            (mj_py["ns_min"] / unit >= 20, f"{mj_py['ns_min'] / unit:.1f}x"),
        "energy drift at 10 s >= 10x smaller than semi-implicit Euler":
            (abs(semi["e_end"]) >= 10 * abs(mid["e_end"]),
             f"{abs(semi['e_end']) / max(abs(mid['e_end']), 1e-300):.3g}x "
             f"({mid['e_end']:+.2e} vs {semi['e_end']:+.2e})"),
    }

    lines = [
        f"Machine: {cpu}, {ncpu} CPUs; Python {platform.python_version()}; "
        f"reference DOP853 invariant drift: energy {ref_drift_e:.1e}, |L| {ref_drift_l:.1e}",
        f"mbs f64 midpoint per step: first run {runs[0]['ns_min']:.1f} ns (median "
        f"{runs[0]['ns_median']:.1f}), second run {runs_again[0]['ns_min']:.1f} ns (median "
        f"{runs_again[0]['ns_median']:.1f}); the unit of the ratios is the lower of the two.",
        "",
        "| scheme | timing | ns/step (min) | ns/step (median) | x mbs (min) | energy err 10 s |"
        " max energy err | \\|L\\| err 10 s | rate err 10 s | orientation err 10 s (rad) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if "e_end" in r:
            acc = (f"{r['e_end']:+.2e} | {r['e_max']:.2e} | {r['l_end']:+.2e} | "
                   f"{r['w_err']:.2e} | {r['rot_err']:.2e}")
        else:
            acc = "(same run as above) | | | |"
        lines.append(f"| {r['name']} | {r['timing']} | {r['ns_min']:.1f} | {r['ns_median']:.1f} | "
                     f"{r['ratio_min']:.2f} | {acc} |")
    lines += ["", "mbs, other calls (ns per call, min of batches): "
              + "; ".join(f"{k} {v:.1f}" for k, v in micro.items())]
    lines += ["", "Targets:"]
    for k, (ok, v) in targets.items():
        lines.append(f"- {'MET' if ok else 'NOT MET'}: {k}: {v}")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(args.out, "torque_free.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(args.out, "torque_free.json"), "w") as f:
        json.dump({"machine": {"cpu": cpu, "cpus": ncpu}, "rows": rows,
                   "paired_mj_step_ratio": paired, "mbs_micro_ns": micro,
                   "targets": {k: {"met": bool(ok), "value": v} for k, (ok, v) in targets.items()},
                   "reference_drift": {"energy": ref_drift_e, "L": ref_drift_l}}, f, indent=1)

    if not args.no_plot:
        plot(runs, os.path.join(args.out, "torque_free_errors.png"))


def plot(runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 1, figsize=(11, 10), sharex=True)
    colors = plt.get_cmap("tab20").colors
    k = 0
    for run in runs:
        err = run.get("err")
        if err is None:
            continue
        style = "-" if run["group"] in ("mbs", "Bullet-style", "mbs baseline") else "--"
        for ax, key in zip(axes, ("e_rel", "l_rel")):
            ax.plot(err["t"], err[key], style, lw=1.3, color=colors[(2 * k) % 20 + (k >= 10)],
                    label=run["name"])
        k += 1
    axes[0].set_ylabel("(E - E0) / E0  (signed, symlog)")
    axes[1].set_ylabel("(|L| - |L0|) / |L0|  (signed, symlog)")
    axes[1].set_xlabel("t (s)")
    axes[0].set_title("Torque-free body, I = diag(1, 2, 3), w0 = [0.1, 5, 0.1] rad/s, dt = 1 ms"
                      "\n(> 0: energy gained, < 0: dissipated)")
    for ax in axes:
        ax.set_yscale("symlog", linthresh=1e-14)
        ax.axhline(0.0, color="k", lw=0.5)
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(fontsize=8, ncol=3, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"\nplot: {path}")


if __name__ == "__main__":
    sys.exit(main())
