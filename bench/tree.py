"""mbs's kinematic-tree algorithms against Pinocchio and MuJoCo, in one run (bench/tree.sh).

1. Values: on the pseudo-random states of `mbs-tree --check`, Pinocchio's rnea, crba and aba (Python
   bindings) and MuJoCo's bias forces, mass matrix and accelerations (mj_forward) on the same
   model; prints the largest relative difference of each.
2. Speed: ns per call of mbs (`mbs-tree`, Rust) and of Pinocchio (C++) and MuJoCo (C) from
   `tree_peers` (bench/tree_peers.cpp), on the 6-DOF arm and on chains of n = 1 ... 32 links;
   prints a table, the ratios, and the cost slope in n from 8 to 32 links.

Usage: python tree.py MBS_TREE_BIN TREE_PEERS_BIN [--repeats R] [--rounds K] [--out DIR]
(DIR: where the model files and tree.json go; default target/tree_models)
"""
import argparse
import json
import math
import os
import subprocess
import sys

import mujoco
import numpy as np
import pinocchio as pin
from scipy.spatial.transform import Rotation

MODELS = ["arm"] + [f"chain:{n}" for n in (1, 2, 4, 8, 16, 32)]


def load(text):
    lines = [list(map(float, l.split())) for l in text.strip().splitlines()]
    gravity, links = lines[0], []
    for x in lines[1:]:
        links.append(
            dict(
                parent=int(x[0]),
                axis=np.array(x[1:4]),
                rotation=np.array(x[4:13]).reshape(3, 3),
                position=np.array(x[13:16]),
                mass=x[16],
                com=np.array(x[17:20]),
                inertia=np.array(x[20:29]).reshape(3, 3),
            )
        )
    return np.array(gravity), links


def pinocchio_model(gravity, links):
    model = pin.Model()
    model.gravity.linear = gravity
    ids = []
    for i, l in enumerate(links):
        parent = 0 if l["parent"] < 0 else ids[l["parent"]]
        joint = pin.JointModelRevoluteUnaligned(l["axis"])
        jid = model.addJoint(parent, joint, pin.SE3(l["rotation"], l["position"]), f"j{i}")
        model.appendBodyToJoint(jid, pin.Inertia(l["mass"], l["com"], l["inertia"]), pin.SE3.Identity())
        ids.append(jid)
    return model


def _v(v):
    return " ".join(f"{x:.17g}" for x in v)


def mjcf(gravity, links, integrator):
    """MuJoCo: one body per link at its joint frame (turned as the placement), a hinge about the
    axis at the body origin, the inertial at the centre of mass with the full tensor."""
    children = {}
    for i, l in enumerate(links):
        children.setdefault(l["parent"], []).append(i)

    def body(i, indent):
        l = links[i]
        x, y, z, w = Rotation.from_matrix(l["rotation"]).as_quat()
        ii = l["inertia"]
        full = [ii[0, 0], ii[1, 1], ii[2, 2], ii[0, 1], ii[0, 2], ii[1, 2]]
        pad = " " * indent
        inner = "".join(body(c, indent + 2) for c in children.get(i, []))
        return (
            f'{pad}<body pos="{_v(l["position"])}" quat="{_v([w, x, y, z])}">\n'
            f'{pad}  <inertial pos="{_v(l["com"])}" mass="{l["mass"]:.17g}" fullinertia="{_v(full)}"/>\n'
            f'{pad}  <joint type="hinge" axis="{_v(l["axis"])}"/>\n{inner}{pad}</body>\n'
        )

    roots = "".join(body(c, 4) for c in children.get(-1, []))
    return (
        f'<mujoco>\n  <option timestep="0.001" gravity="{_v(gravity)}" integrator="{integrator}">\n'
        f'    <flag contact="disable"/>\n  </option>\n  <worldbody>\n{roots}  </worldbody>\n</mujoco>\n'
    )


def rel(a, b):
    """|a - b| / |b| (|a - b| where b is zero)."""
    d, n = np.linalg.norm(np.asarray(a) - np.asarray(b)), np.linalg.norm(b)
    return float(d / n if n > 0 else d)


def check(mbs_bin, name, gravity, links, xml):
    model = pinocchio_model(gravity, links)
    data = model.createData()
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    worst = dict(rnea=0.0, crba=0.0, aba=0.0, mj_bias=0.0, mj_mass=0.0, mj_acc=0.0)
    out = subprocess.run([mbs_bin, "--model", name, "--check", "20"], check=True, capture_output=True, text=True)
    for line in out.stdout.splitlines():
        s = {k: np.array(v) for k, v in json.loads(line).items()}
        n = len(s["q"])
        worst["rnea"] = max(worst["rnea"], rel(s["rnea"], pin.rnea(model, data, s["q"], s["v"], s["qdd"])))
        mm = pin.crba(model, data, s["q"])
        mm = np.triu(mm) + np.triu(mm, 1).T
        worst["crba"] = max(worst["crba"], rel(s["mass"].reshape(n, n), mm))
        worst["aba"] = max(worst["aba"], rel(s["aba"], pin.aba(model, data, s["q"], s["v"], s["tau"])))
        d.qpos[:], d.qvel[:], d.qfrc_applied[:] = s["q"], s["v"], s["tau"]
        mujoco.mj_forward(m, d)
        full = np.zeros((n, n))
        mujoco.mj_fullM(m, full, d.qM)
        worst["mj_mass"] = max(worst["mj_mass"], rel(s["mass"].reshape(n, n), full))
        worst["mj_acc"] = max(worst["mj_acc"], rel(s["aba"], d.qacc))
        # Bias b = rnea(q, v, 0): MuJoCo's qfrc_bias (gravity and velocity products).
        bias = np.array(s["rnea"]) - s["mass"].reshape(n, n) @ s["qdd"]
        worst["mj_bias"] = max(worst["mj_bias"], rel(bias, d.qfrc_bias))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mbs_bin")
    ap.add_argument("peers_bin")
    ap.add_argument("--repeats", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--out", default="../target/tree_models")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    # Warm-up: one timed run of each binary first (the first process on an idle core ran slow).
    subprocess.run([args.mbs_bin, "--model", "arm", "--repeats", str(args.repeats)], check=True, capture_output=True)
    print("values (largest relative difference over 20 pseudo-random states):")
    for name in MODELS:
        text = subprocess.run([args.mbs_bin, "--model", name, "--dump"], check=True, capture_output=True, text=True).stdout
        gravity, links = load(text)
        stem = os.path.join(args.out, "tree_" + name.replace(":", ""))
        with open(stem + ".txt", "w") as f:
            f.write(text)
        for integ in ("Euler", "RK4"):
            with open(f"{stem}_{integ}.xml", "w") as f:
                f.write(mjcf(gravity, links, integ))
        w = check(args.mbs_bin, name, gravity, links, mjcf(gravity, links, "Euler"))
        print(f"  {name:9s} " + "  ".join(f"{k} {v:.1e}" for k, v in w.items()))
        mbs_cmd = [args.mbs_bin, "--model", name, "--repeats", str(args.repeats)]
        peers_cmd = [args.peers_bin, stem + ".txt", stem + "_Euler.xml", stem + "_RK4.xml", str(args.repeats)]
        if name == MODELS[0]:
            subprocess.run(peers_cmd, check=True, capture_output=True)
        # This machine's speed wanders between runs: mbs and the peers alternate, `rounds`
        # times, and each figure is the minimum over the rounds.
        mbs, peers = {}, {}
        for _ in range(args.rounds):
            for cmd, best in ((mbs_cmd, mbs), (peers_cmd, peers)):
                got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                for k, v in got.items():
                    best[k] = min(best[k], v) if k in best and k.endswith("_ns") else v
        rows.append((name, mbs, peers, w))
    print(f"\nns per call (min over {args.rounds} alternating rounds of {args.repeats} repeats; mbs Rust, Pinocchio C++, MuJoCo C):")
    print(f"  {'model':9s} {'nv':>3s} | {'RNEA':>7s} {'pin':>7s} {'x':>5s} | {'CRBA':>7s} {'pin':>7s} {'x':>5s} | {'ABA':>7s} {'pin':>7s} {'x':>5s} | {'mj_fwd':>7s} | {'Euler':>7s} {'mj':>7s} {'x':>5s} | {'RK4':>7s} {'mj':>7s} {'x':>5s}")
    for name, m, p, _ in rows:
        print(
            f"  {name:9s} {m['nv']:3d} | {m['rnea_ns']:7.0f} {p['pinocchio_rnea_ns']:7.0f} {p['pinocchio_rnea_ns']/m['rnea_ns']:5.2f} |"
            f" {m['crba_ns']:7.0f} {p['pinocchio_crba_ns']:7.0f} {p['pinocchio_crba_ns']/m['crba_ns']:5.2f} |"
            f" {m['aba_ns']:7.0f} {p['pinocchio_aba_ns']:7.0f} {p['pinocchio_aba_ns']/m['aba_ns']:5.2f} |"
            f" {p['mujoco_forward_ns']:7.0f} |"
            f" {m['euler_step_ns']:7.0f} {p['mujoco_euler_step_ns']:7.0f} {p['mujoco_euler_step_ns']/m['euler_step_ns']:5.2f} |"
            f" {m['rk4_step_ns']:7.0f} {p['mujoco_rk4_step_ns']:7.0f} {p['mujoco_rk4_step_ns']/m['rk4_step_ns']:5.2f}"
        )
    chains = {int(n.split(":")[1]): (m, p) for n, m, p, _ in rows if n.startswith("chain")}
    print("\ncost per added link from 8 to 32 links (ns/link; linear algorithms have a constant one):")
    for key, label in (("rnea_ns", "mbs RNEA"), ("aba_ns", "mbs ABA"), ("crba_ns", "mbs CRBA")):
        a, b = chains[8][0][key], chains[32][0][key]
        s16 = (chains[16][0][key] - a) / 8
        print(f"  {label:9s} 8->16 {s16:6.1f}  8->32 {(b - a) / 24:6.1f}")
    with open(os.path.join(args.out, "tree.json"), "w") as f:
        json.dump([dict(model=n, mbs=m, peers=p, values=w) for n, m, p, w in rows], f, indent=1)
    arm = max(rows[0][3][k] for k in ("rnea", "crba", "aba"))
    print(f"\nlargest difference from Pinocchio on the arm {arm:.1e} (must be below 1e-12)")
    return 0 if arm < 1e-12 else 1


if __name__ == "__main__":
    sys.exit(main())
