#!/usr/bin/env bash
# The slider-crank of Exudyn's SliderCrank.py: mbs's constrained generalized-alpha step (core,
# f64) against Exudyn's SolveDynamic on the same model, step size and spectral radius, in one
# run, interleaved; prints both JSON lines and the ratio of the minima.
# Uses bench/.venv (bench/compare.sh creates it; exudyn 1.13.6).
# Usage: bench/slider_crank.sh [--steps N] [--t-end S] [--rho R]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import exudyn' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --only-binary :all: exudyn==1.13.6 numpy==2.2.6
fi
(cd "$root" && cargo build --quiet --release -p mbs-bench --bin mbs-slider-crank)
mbs="$root/target/release/mbs-slider-crank"
best_mbs=""; best_exu=""
for round in 1 2 3; do
  m=$(taskset -c 1 "$mbs" --repeats 10 "$@")
  e=$(taskset -c 1 "$venv/bin/python" -W ignore "$here/slider_crank_exudyn.py" --repeats 3 "$@")
  echo "round $round mbs    $m"
  echo "round $round exudyn $e"
  best_mbs="$best_mbs $(echo "$m" | sed 's/.*"ns_per_step_min":\([0-9.]*\).*/\1/')"
  best_exu="$best_exu $(echo "$e" | sed 's/.*"ns_per_step_min": \([0-9.]*\).*/\1/')"
done
python3 - "$best_mbs" "$best_exu" <<'PY'
import sys
m = min(float(x) for x in sys.argv[1].split()); e = min(float(x) for x in sys.argv[2].split())
print(f"slider-crank per step: mbs {m:.0f} ns, Exudyn {e:.0f} ns, ratio {e / m:.1f}x")
PY
