"""The 3D double pendulum of firmware/rust/src/double_pendulum.rs in MuJoCo: the same two links
(mass, full inertia tensor about the centre of mass, start pose) on two hinge joints about the
same axes (minimal coordinates), gravity, no contacts, no damping; stepped with MuJoCo's RK4 or
its (semi-implicit) Euler. `run(h, steps, integrator)` returns ns per step and link 2's centre of
mass at the end (m); imported by bench/double_pendulum.py."""
import time

import numpy as np
import mujoco
from scipy.spatial.transform import Rotation

from double_pendulum_exudyn import A1, A2, COM, INERTIA, MASS, O1, O2, RATES, TURN


def _quat(r):
    """MuJoCo's quaternion (w, x, y, z) of a rotation matrix."""
    x, y, z, w = Rotation.from_matrix(r).as_quat()
    return f"{w:.17g} {x:.17g} {y:.17g} {z:.17g}"


def _vec(v):
    return " ".join(f"{x:.17g}" for x in v)


def _inertia(i):
    """MuJoCo's fullinertia: ixx iyy izz ixy ixz iyz."""
    return _vec([i[0, 0], i[1, 1], i[2, 2], i[0, 1], i[0, 2], i[1, 2]])


def model_xml(h, integrator):
    r = [Rotation.from_rotvec(t).as_matrix() for t in TURN]
    a1, a2 = A1 / np.linalg.norm(A1), A2 / np.linalg.norm(A2)
    # Body frames at the centres of mass, turned by the start orientations; joint points and
    # axes in those frames.
    return f"""
<mujoco>
  <option timestep="{h:.17g}" gravity="0 -9.81 0" integrator="{integrator}">
    <flag contact="disable"/>
  </option>
  <worldbody>
    <body name="link1" pos="{_vec(COM[0])}" quat="{_quat(r[0])}">
      <joint name="j1" type="hinge" pos="{_vec(r[0].T @ (O1 - COM[0]))}" axis="{_vec(r[0].T @ a1)}"/>
      <inertial pos="0 0 0" mass="{MASS[0]}" fullinertia="{_inertia(INERTIA[0])}"/>
      <body name="link2" pos="{_vec(r[0].T @ (COM[1] - COM[0]))}" quat="{_quat(r[0].T @ r[1])}">
        <joint name="j2" type="hinge" pos="{_vec(r[1].T @ (O2 - COM[1]))}" axis="{_vec(r[1].T @ a2)}"/>
        <inertial pos="0 0 0" mass="{MASS[1]}" fullinertia="{_inertia(INERTIA[1])}"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def run(h, steps, integrator="RK4", repeats=3):
    """(ns per step, min over repeats; link 2's COM at the end, m)."""
    m = mujoco.MjModel.from_xml_string(model_xml(h, integrator))
    best, com = float("inf"), None
    for _ in range(repeats):
        d = mujoco.MjData(m)
        d.qvel[:] = RATES
        t0 = time.perf_counter()
        for _ in range(steps):
            mujoco.mj_step(m, d)
        best = min(best, (time.perf_counter() - t0) * 1e9 / steps)
        com = d.xipos[2].copy()
    return best, com
