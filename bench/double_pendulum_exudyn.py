"""The 3D double pendulum of firmware/rust/src/double_pendulum.rs in Exudyn: two rigid bodies
(Euler-parameter nodes, Exudyn's default) with full inertia tensors, two revolute joints
(CreateRevoluteJoint, global frame) about axes that are not world axes, gravity, both joints
turning at the start; SolveDynamic (generalized-alpha, Exudyn's defaults but the step) timed per
step. Prints one JSON line: the step, the spectral radius, ns per step (min and median over the
repeats), link 2's centre of mass at the end (m) and the Exudyn version.

Usage: double_pendulum_exudyn.py [--steps N] [--t-end S] [--rho R] [--repeats N] [--full-newton]
(defaults 2000, 2, 0.9, 5; the constants below are those of double_pendulum.rs)."""
import argparse
import json
import time

import numpy as np
import exudyn as exu
from exudyn.rigidBodyUtilities import RotationVector2RotationMatrix
from exudyn.utilities import RigidBodyInertia

GRAVITY = [0.0, -9.81, 0.0]
O1 = np.array([0.0, 0.0, 0.0])
A1 = np.array([0.3, 0.2, 1.0])
O2 = np.array([0.5, -0.3, 0.1])
A2 = np.array([-0.2, 0.4, 1.0])
COM = [np.array([0.25, -0.2, 0.05]), np.array([0.8, -0.5, 0.2])]
TURN = [np.array([0.14, -0.35, 0.21]), np.array([-0.44, 0.11, 0.66])]
MASS = [1.2, 0.8]
INERTIA = [
    np.array([[0.020, 0.002, -0.001], [0.002, 0.030, 0.003], [-0.001, 0.003, 0.025]]),
    np.array([[0.012, -0.001, 0.002], [-0.001, 0.015, 0.001], [0.002, 0.001, 0.009]]),
]
RATES = [1.5, -2.0]


def build(sc):
    mbs = sc.AddSystem()
    a1, a2 = A1 / np.linalg.norm(A1), A2 / np.linalg.norm(A2)
    w1 = a1 * RATES[0]
    w2 = w1 + a2 * RATES[1]
    vel = [np.cross(w1, COM[0] - O1), np.cross(w1, O2 - O1) + np.cross(w2, COM[1] - O2)]
    ground = mbs.CreateGround(referencePosition=[0, 0, 0])
    bodies = []
    for k in range(2):
        b = mbs.CreateRigidBody(
            inertia=RigidBodyInertia(mass=MASS[k], inertiaTensor=INERTIA[k], com=[0, 0, 0]),
            referencePosition=COM[k],
            referenceRotationMatrix=RotationVector2RotationMatrix(TURN[k]),
            initialVelocity=vel[k],
            initialAngularVelocity=[w1, w2][k],
            gravity=GRAVITY,
            returnDict=True,
        )
        bodies.append(b)
    mbs.CreateRevoluteJoint(bodyNumbers=[ground, bodies[0]["bodyNumber"]], position=O1,
                            axis=a1, useGlobalFrame=True, show=False)
    mbs.CreateRevoluteJoint(bodyNumbers=[bodies[0]["bodyNumber"], bodies[1]["bodyNumber"]],
                            position=O2, axis=a2, useGlobalFrame=True, show=False)
    mbs.Assemble()
    return mbs, bodies[1]["nodeNumber"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--t-end", type=float, default=2.0)
    p.add_argument("--rho", type=float, default=0.9)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--full-newton", action="store_true")
    a = p.parse_args()
    times, com = [], None
    for _ in range(a.repeats):
        sc = exu.SystemContainer()
        mbs, n2 = build(sc)
        s = exu.SimulationSettings()
        s.timeIntegration.numberOfSteps = a.steps
        s.timeIntegration.endTime = a.t_end
        s.timeIntegration.verboseMode = 0
        s.timeIntegration.generalizedAlpha.spectralRadius = a.rho
        s.timeIntegration.newton.useModifiedNewton = not a.full_newton
        s.solutionSettings.writeSolutionToFile = False
        s.solutionSettings.sensorsWritePeriod = 1e9
        t0 = time.perf_counter()
        mbs.SolveDynamic(s)
        times.append((time.perf_counter() - t0) * 1e9 / a.steps)
        com = list(mbs.GetNodeOutput(n2, exu.OutputVariableType.Position))
    times.sort()
    print(json.dumps({"h": a.t_end / a.steps, "rho": a.rho, "steps": a.steps,
                      "modified_newton": not a.full_newton,
                      "ns_per_step_min": round(times[0], 1),
                      "ns_per_step_median": round(times[len(times) // 2], 1),
                      "com2": com, "exudyn": exu.config.Version()}))


if __name__ == "__main__":
    main()
