#!/usr/bin/env bash
# The 3D double pendulum of firmware/rust/src/double_pendulum.rs in mbs, Exudyn and MuJoCo in one
# run, on one core: per step cost and error at t = 2 s over a sweep of steps, and the cost per
# simulated second at matched accuracy (bench/double_pendulum.py). Uses bench/.venv (exudyn
# 1.13.6, mujoco 3.3.7, scipy 1.15.3: the pins of bench/compare.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c 'import exudyn, mujoco, scipy' 2>/dev/null ||
  "$venv/bin/pip" install --quiet --only-binary :all: exudyn==1.13.6 numpy==2.2.6 mujoco==3.3.7 scipy==1.15.3
(cd "$root" && cargo build --quiet --release -p mbs-bench --bin mbs-double-pendulum)
cd "$here"
taskset -c 1 "$venv/bin/python" -W ignore double_pendulum.py "$root/target/release/mbs-double-pendulum"
