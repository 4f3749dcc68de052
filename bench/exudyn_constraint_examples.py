"""The constraint examples of Exudyn as tests/c_constraints.rs builds them in mbs, run by Exudyn
(pip's exudyn, in bench/.venv): the ObjectConnectorDistance mini example, pendulum2Dconstraint.py
and SliderCrank.py with their settings (and the slider-crank at a coarser step). Prints the
values the test compares with.

Usage: bench/.venv/bin/python bench/exudyn_constraint_examples.py
"""
import os
import sys

import exudyn as exu
from exudyn.itemInterface import *
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slider_crank_exudyn import build

def distance_mini():
    SC = exu.SystemContainer(); mbs = SC.AddSystem()
    oGround=mbs.AddObject(ObjectGround(referencePosition= [0,0,0]))
    nGround = mbs.AddNode(NodePointGround(referenceCoordinates=[0,0,0]))
    nMass = mbs.AddNode(NodePoint2D(referenceCoordinates=[1,0]))
    oMass = mbs.AddObject(MassPoint2D(physicsMass = 50, nodeNumber = nMass))
    mMass = mbs.AddMarker(MarkerNodePosition(nodeNumber=nMass))
    mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition = [0,0,0]))
    mbs.AddObject(DistanceConstraint(markerNumbers = [mGround, mMass], distance = 1))
    mbs.AddLoad(Force(markerNumber = mMass, loadVector = [0, -50*9.81, 0]))
    mbs.Assemble()
    sims=exu.SimulationSettings()
    sims.timeIntegration.generalizedAlpha.spectralRadius=0.7
    sims.timeIntegration.verboseMode=0
    sims.solutionSettings.writeSolutionToFile = False
    mbs.SolveDynamic(sims)
    return mbs.GetNodeOutput(nMass, exu.OutputVariableType.Position)

def pendulum(steps, tend, rho):
    SC = exu.SystemContainer(); mbs = SC.AddSystem()
    L=0.8; mass=2.5; g=9.81
    oGround = mbs.AddObject(ObjectGround(referencePosition = [0,0,0]))
    nMass = mbs.AddNode(NodePoint2D(referenceCoordinates=[L,0]))
    mbs.AddObject(MassPoint2D(physicsMass = mass, nodeNumber = nMass))
    mMass = mbs.AddMarker(MarkerNodePosition(nodeNumber=nMass))
    mGround = mbs.AddMarker(MarkerBodyPosition(bodyNumber=oGround, localPosition = [0,0,0]))
    mbs.AddObject(DistanceConstraint(markerNumbers = [mGround, mMass], distance = L))
    mbs.AddLoad(Force(markerNumber = mMass, loadVector = [0, -mass*g, 0]))
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps; s.timeIntegration.endTime = tend
    s.timeIntegration.newton.useModifiedNewton = True
    s.timeIntegration.newton.modifiedNewtonJacUpdatePerStep = True
    s.timeIntegration.generalizedAlpha.spectralRadius = rho
    s.timeIntegration.generalizedAlpha.computeInitialAccelerations = True
    s.timeIntegration.verboseMode=0
    s.solutionSettings.writeSolutionToFile = False
    mbs.SolveDynamic(s)
    return mbs.GetNodeOutput(nMass, exu.OutputVariableType.Position)

def slider(steps, tend, rho):
    SC = exu.SystemContainer()
    mbs, n = build(SC)
    s = exu.SimulationSettings()
    s.timeIntegration.numberOfSteps = steps; s.timeIntegration.endTime = tend
    s.timeIntegration.newton.useModifiedNewton = True
    s.timeIntegration.generalizedAlpha.spectralRadius = rho
    s.timeIntegration.verboseMode=0
    s.solutionSettings.writeSolutionToFile = False
    mbs.SolveDynamic(s)
    return mbs.GetNodeOutput(n, exu.OutputVariableType.Position)

print("exudyn", exu.GetVersionString())
print("distance mini", repr(distance_mini()[0]))
print("pendulum 1000 steps 1s rho .6", [repr(x) for x in pendulum(1000, 1.0, 0.6)[:2]])
print("slider 2000 steps 2s rho .5", repr(slider(2000, 2.0, 0.5)[0]))
print("slider 200000 steps 2s rho .5", repr(slider(200000, 2.0, 0.5)[0]))
