#!/usr/bin/env bash
# The slider-crank of Exudyn's SliderCrank.py: mbs's constrained generalized-alpha step (core,
# f64; the hand-written model and the system built from items, as mbs_system_step runs it)
# against Exudyn's SolveDynamic on the same model, step size and spectral radius, in one run,
# interleaved; prints the JSON lines and the ratios of the minima. The system also in real-time
# mode (one Newton update a step, unevaluated: at this step the same bits).
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
best_mbs=""; best_sys=""; best_rt=""; best_exu=""
for round in 1 2 3; do
  m=$(taskset -c 1 "$mbs" --repeats 10 "$@")
  y=$(taskset -c 1 "$mbs" --repeats 10 --system "$@")
  r=$(taskset -c 1 "$mbs" --repeats 10 --system --real-time 1 "$@")
  e=$(taskset -c 1 "$venv/bin/python" -W ignore "$here/slider_crank_exudyn.py" --repeats 3 "$@")
  echo "round $round mbs model  $m"
  echo "round $round mbs system $y"
  echo "round $round mbs system, real-time $r"
  echo "round $round exudyn     $e"
  best_mbs="$best_mbs $(echo "$m" | sed 's/.*"ns_per_step_min":\([0-9.]*\).*/\1/')"
  best_sys="$best_sys $(echo "$y" | sed 's/.*"ns_per_step_min":\([0-9.]*\).*/\1/')"
  best_rt="$best_rt $(echo "$r" | sed 's/.*"ns_per_step_min":\([0-9.]*\).*/\1/')"
  best_exu="$best_exu $(echo "$e" | sed 's/.*"ns_per_step_min": \([0-9.]*\).*/\1/')"
done
python3 - "$best_mbs" "$best_sys" "$best_rt" "$best_exu" <<'PY'
import sys
m, y, r, e = (min(float(x) for x in a.split()) for a in sys.argv[1:5])
print(f"slider-crank per step: mbs model {m:.0f} ns ({e / m:.1f}x), mbs system {y:.0f} ns ({e / y:.1f}x), "
      f"mbs system real-time {r:.0f} ns ({e / r:.1f}x), Exudyn {e:.0f} ns")
PY
