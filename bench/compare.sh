#!/usr/bin/env bash
# mbs against MuJoCo, Exudyn and a Bullet-style step on one torque-free body (see compare.py).
# Creates bench/.venv with pinned wheels on first use, builds the mbs binary in release, runs.
# Usage: bench/compare.sh [--repeats N] [--out DIR] [--no-plot]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
python="${PYTHON:-python3.11}"
command -v "$python" >/dev/null || python=python3
venv="$here/.venv"
# Pinned: each has a manylinux x86_64 wheel for CPython 3.11 (mujoco 3.3.x is one wheel;
# 4.x splits into mujoco-core).
pins=(mujoco==3.3.7 exudyn==1.13.6 numpy==2.2.6 scipy==1.15.3 matplotlib==3.10.8)
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mujoco, exudyn, scipy, matplotlib' 2>/dev/null; then
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --only-binary :all: "${pins[@]}"
fi
(cd "$root" && cargo build --quiet --release -p mbs-bench --bin mbs-torque-free)
target="$(cd "$root" && cargo metadata --format-version 1 --no-deps | "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
exec "$venv/bin/python" "$here/compare.py" --mbs-bin "$target/release/mbs-torque-free" "$@"
