#!/usr/bin/env bash
# mbs's host step times at two commits, measured in one run: the bench binaries of each are
# built (release, in their own target directories) and run in turn, A B A B ..., on one core,
# so that a change of the machine's load falls on both. Prints a Markdown table: each
# workload's best per-step time over the rounds at the old and the new commit and their ratio.
#
#   bash bench/before-after.sh <old commit> [<new commit, default: the work tree>] [rounds, default 3]
#
# Workloads: the 3D double pendulum's system step (Euler parameters and the Lie group,
# iterated and real-time), the slider-crank as a system and hand-written (iterated and
# real-time), the chain of rigid bodies on spring-dampers (1, 10, 100; kick-drift-kick), and
# the 6-DOF arm's tree algorithms (RNEA, CRBA, ABA, the semi-implicit Euler and RK4 steps).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
old=${1:?usage: bench/before-after.sh <old commit> [<new commit>] [rounds]}
new=${2:-}
rounds=${3:-3}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/old" >/dev/null 2>&1 || true;
      [ -d "$work/new" ] && git -C "$root" worktree remove --force "$work/new" >/dev/null 2>&1 || true;
      rm -rf "$work"' EXIT

build() { # source dir -> the bench binaries' dir
  (cd "$1" && CARGO_TARGET_DIR="$1/target" cargo build --quiet --release -p mbs-bench \
    --bin mbs-double-pendulum --bin mbs-slider-crank --bin mbs-system-scaling --bin mbs-tree)
  echo "$1/target/release"
}
git -C "$root" worktree add --detach "$work/old" "$old" >/dev/null 2>&1
A=$(build "$work/old")
if [ -n "$new" ]; then
  git -C "$root" worktree add --detach "$work/new" "$new" >/dev/null 2>&1
  B=$(build "$work/new")
else
  B=$(build "$root")
fi

pin() { if command -v taskset >/dev/null; then taskset -c 1 "$@"; else "$@"; fi; }
# One round of every workload with the binaries in $1: lines "name ns".
round() {
  local d=$1 j
  for rot in euler lie; do
    j=$(pin "$d/mbs-double-pendulum" --repeats 5 --rotations "$rot")
    echo "double pendulum system, $rot, iterated $(jq_ns "$j")"
    j=$(pin "$d/mbs-double-pendulum" --repeats 5 --rotations "$rot" --real-time 1)
    echo "double pendulum system, $rot, real-time $(jq_ns "$j")"
  done
  j=$(pin "$d/mbs-slider-crank" --repeats 5 --system)
  echo "slider-crank system, iterated $(jq_ns "$j")"
  j=$(pin "$d/mbs-slider-crank" --repeats 5 --system --real-time 1)
  echo "slider-crank system, real-time $(jq_ns "$j")"
  j=$(pin "$d/mbs-slider-crank" --repeats 5)
  echo "slider-crank hand-written, iterated $(jq_ns "$j")"
  pin "$d/mbs-system-scaling" --repeats 5 --bodies 1,10,100 |
    awk -F'|' '/^\| *[0-9]+ *\|/ { gsub(/ /, "", $2); gsub(/[ ,]/, "", $3); print "chain of " $2 " bodies, kick-drift-kick " $3 }'
  pin "$d/mbs-tree" --model arm --repeats 5 | python3 -c '
import json, sys
for k, v in json.load(sys.stdin).items():
    if k.endswith("_ns"):
        print("arm tree %s %s" % (k, v))'
}
jq_ns() { python3 -c 'import json,sys; print(json.loads(sys.argv[1])["ns_per_step_min"])' "$1"; }

for _ in $(seq "$rounds"); do
  round "$A" | sed 's/^/A /'
  round "$B" | sed 's/^/B /'
done >"$work/times"

python3 - "$work/times" "$old" "${new:-work tree}" <<'EOF'
import sys, collections
best = collections.defaultdict(dict)
order = []
for line in open(sys.argv[1]):
    side, rest = line.split(" ", 1)
    name, ns = rest.rsplit(" ", 1)
    try:
        ns = float(ns)
    except ValueError:
        continue
    if name not in order:
        order.append(name)
    best[name][side] = min(best[name].get(side, ns), ns)
print("| workload | %s (ns) | %s (ns) | new / old |" % (sys.argv[2][:10], sys.argv[3][:10]))
print("|---|---|---|---|")
for name in order:
    a, b = best[name].get("A"), best[name].get("B")
    if a and b:
        print("| %s | %.1f | %.1f | %.3f |" % (name, a, b, b / a))
EOF
