"""Exudyn's SliderCrank.py model (main/pythonDev/Examples/SliderCrank.py, without graphics):
two RigidBody2D, a MassPoint2D, three RevoluteJoint2D, a CoordinateConstraint, a torque of
10 N m on the crank, SolveDynamic with generalized-alpha. Prints one JSON object: ns per step
(min and median of repeated solves, setup excluded) and the slider's final x (m).

Usage: python slider_crank_exudyn.py [--steps N] [--t-end S] [--rho R] [--repeats N]
"""

import argparse
import json
import time

import exudyn as exu
from exudyn.itemInterface import (CoordinateConstraint, MarkerBodyPosition, MarkerBodyRigid,
                                  MarkerNodeCoordinate, MassPoint2D, NodePoint2D,
                                  NodePointGround, NodeRigidBody2D, ObjectGround,
                                  ObjectRigidBody2D, RevoluteJoint2D, Torque)


def build(SC):
    mbs = SC.AddSystem()
    o_ground = mbs.AddObject(ObjectGround(referencePosition=[0, 0, 0]))
    n_ground = mbs.AddNode(NodePointGround(referenceCoordinates=[0, 0, 0]))
    a0, a1 = 0.25, 0.5
    m0, m1 = 2.0, 4.0
    n0 = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[a0, 0, 0], initialVelocities=[0, 0, 0]))
    o0 = mbs.AddObject(ObjectRigidBody2D(physicsMass=m0, physicsInertia=m0 / 12 * (2 * a0) ** 2,
                                         nodeNumber=n0))
    n1 = mbs.AddNode(NodeRigidBody2D(referenceCoordinates=[2 * a0 + a1, 0, 0],
                                     initialVelocities=[0, 0, 0]))
    o1 = mbs.AddObject(ObjectRigidBody2D(physicsMass=m1, physicsInertia=m1 / 12 * (2 * a1) ** 2,
                                         nodeNumber=n1))
    n_mass = mbs.AddNode(NodePoint2D(referenceCoordinates=[2 * a0 + 2 * a1, 0]))
    o_mass = mbs.AddObject(MassPoint2D(physicsMass=1.0, nodeNumber=n_mass))
    m0l = mbs.AddMarker(MarkerBodyRigid(bodyNumber=o0, localPosition=[-a0, 0., 0.]))
    m0r = mbs.AddMarker(MarkerBodyPosition(bodyNumber=o0, localPosition=[a0, 0., 0.]))
    m1l = mbs.AddMarker(MarkerBodyPosition(bodyNumber=o1, localPosition=[-a1, 0., 0.]))
    m1r = mbs.AddMarker(MarkerBodyPosition(bodyNumber=o1, localPosition=[a1, 0., 0.]))
    mm = mbs.AddMarker(MarkerBodyPosition(bodyNumber=o_mass, localPosition=[0., 0., 0.]))
    mg = mbs.AddMarker(MarkerBodyPosition(bodyNumber=o_ground, localPosition=[0, 0, 0.]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[mg, m0l]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[m0r, m1l]))
    mbs.AddObject(RevoluteJoint2D(markerNumbers=[m1r, mm]))
    mgc = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n_ground, coordinate=0))
    mnc = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=n_mass, coordinate=1))
    mbs.AddObject(CoordinateConstraint(markerNumbers=[mgc, mnc]))
    mbs.AddLoad(Torque(markerNumber=m0l, loadVector=[0, 0, 10]))
    mbs.Assemble()
    return mbs, n_mass


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=10000)
    p.add_argument("--t-end", type=float, default=1.0)
    p.add_argument("--rho", type=float, default=0.5)
    p.add_argument("--repeats", type=int, default=5)
    a = p.parse_args()
    times, x = [], float("nan")
    for _ in range(a.repeats):
        SC = exu.SystemContainer()
        mbs, n_mass = build(SC)
        s = exu.SimulationSettings()
        s.timeIntegration.numberOfSteps = a.steps
        s.timeIntegration.endTime = a.t_end
        s.timeIntegration.verboseMode = 0
        s.timeIntegration.generalizedAlpha.spectralRadius = a.rho
        s.solutionSettings.writeSolutionToFile = False
        s.solutionSettings.sensorsWritePeriod = 1e9
        t0 = time.perf_counter()
        mbs.SolveDynamic(s)
        times.append((time.perf_counter() - t0) * 1e9 / a.steps)
        x = mbs.GetNodeOutput(n_mass, exu.OutputVariableType.Position)[0]
    times.sort()
    print(json.dumps({"h": a.t_end / a.steps, "rho": a.rho, "steps": a.steps,
                      "ns_per_step_min": round(times[0], 1),
                      "ns_per_step_median": round(times[len(times) // 2], 1),
                      "x_slider": x, "exudyn": exu.config.Version()}))


if __name__ == "__main__":
    main()
