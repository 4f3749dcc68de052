"""The cost of driving mbs from Python, in one run: K copies of the spring-damper (Exudyn's
tutorialSpringDamperCreate: 1.6 kg on 4000 N/m and 8 N s/m, pulled by a force that differs per
copy) over N steps of 1 ms, kick-drift-kick, a displacement sensor, solved

- by ``mbsdyn.solve_batch`` (one call, all cores, the GIL released),
- by a Python loop of ``System.solve_dynamic`` (one call per system),
- by a Python loop of ``System.step`` (one call per step),
- by MuJoCo's Python loop of ``mj_step`` on the same model (a slide joint with that stiffness,
  damping and force, Euler, 1 ms),

against the native loop: ``solve_dynamic``'s time per step from Python with one system over
many steps (the Python call's overhead spread over them). Prints ns per system-step and the
ratios; the best of 5 rounds.

    python bench/python_batch.py [K] [N]      # after pip install ./python and pip install mujoco
"""

import os
import sys
import time

import numpy as np

import mbsdyn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "examples"))
from sweep_dask import system  # noqa: E402  (the same spring-damper as the Dask sweep)

K = int(sys.argv[1]) if len(sys.argv) > 1 else 256
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
DT = 1e-3
FORCES = np.linspace(10.0, 100.0, K)


def best(f, rounds=5):
    t = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


def main():
    systems = [system(f) for f in FORCES]
    kw = dict(end_time=N * DT, number_of_steps=N, solver="system_scheme")
    batch = best(lambda: mbsdyn.solve_batch(systems, **kw)) / (K * N)
    loop_solve = best(lambda: [s.solve_dynamic(**kw) for s in systems]) / (K * N)

    def step_loop():
        for s in systems:
            s.reset()
            for _ in range(N):
                s.step(DT)

    loop_step = best(step_loop, rounds=2) / (K * N)
    long = system(50.0)
    native = best(lambda: long.solve_dynamic(end_time=100 * N * DT, number_of_steps=100 * N, solver="system_scheme")) / (100 * N)

    rows = [
        ("mbsdyn.solve_batch (all cores)", batch),
        ("Python loop of solve_dynamic", loop_solve),
        ("Python loop of step", loop_step),
    ]
    try:
        import mujoco

        xml = f"""<mujoco><option timestep="{DT}" integrator="Euler" gravity="0 0 0"/>
        <worldbody><body><joint name="x" type="slide" axis="1 0 0" stiffness="4000" damping="8"/>
        <geom type="sphere" size="0.05" mass="1.6"/></body></worldbody></mujoco>"""
        model = mujoco.MjModel.from_xml_string(xml)
        datas = [mujoco.MjData(model) for _ in range(K)]

        def mj_loop():
            for d, f in zip(datas, FORCES):
                mujoco.mj_resetData(model, d)
                d.qfrc_applied[0] = f
                for _ in range(N):
                    mujoco.mj_step(model, d)

        rows.append((f"MuJoCo {mujoco.__version__} Python loop of mj_step", best(mj_loop, rounds=2) / (K * N)))
    except ImportError:
        rows.append(("MuJoCo (not installed: pip install mujoco)", float("nan")))
    print(f"K = {K} systems x N = {N} steps, {os.cpu_count()} cores; ns per system-step (best of rounds)")
    print(f"  native loop (one solve_dynamic of {100 * N} steps): {native * 1e9:8.1f} ns  1.00x")
    for name, t in rows:
        print(f"  {name:48s} {t * 1e9:8.1f} ns  {t / native:5.2f}x")


if __name__ == "__main__":
    main()
