#!/usr/bin/env bash
# mbs's RNEA, CRBA, ABA and tree steps against Pinocchio (C++) and MuJoCo (C) in one run, on one
# core: values on pseudo-random states, then ns per call on the 6-DOF arm and chains of 1-32 links
# (bench/tree.py). Uses bench/.venv (pin 4.1.0, mujoco 3.3.7, scipy 1.15.3) and Debian's
# libeigen3-dev; tree_peers is compiled once (about 2 minutes: Pinocchio's templates).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import pinocchio, mujoco, scipy' 2>/dev/null ||
  "$venv/bin/pip" install --quiet --only-binary :all: pin==4.1.0 numpy==2.2.6 mujoco==3.3.7 scipy==1.15.3
[ -d /usr/include/eigen3 ] || { apt-get install -y -q libeigen3-dev >/dev/null 2>&1 || sudo apt-get install -y -q libeigen3-dev >/dev/null; }
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
peers="$root/target/tree_peers"
if [ ! -x "$peers" ] || [ "$here/tree_peers.cpp" -nt "$peers" ]; then
  echo "compiling tree_peers (Pinocchio's templates, -O3 -march=native) ..." >&2
  # Pinocchio's CMake package sets these definitions; the wheel has no pkg-config file for them.
  g++ -O3 -march=native -DNDEBUG -std=c++17 \
    -DBOOST_MPL_LIMIT_LIST_SIZE=30 -DBOOST_MPL_LIMIT_VECTOR_SIZE=30 \
    -DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS -DBOOST_FUSION_INVOKE_MAX_ARITY=12 \
    -I"$site/cmeel.prefix/include" -I/usr/include/eigen3 -I"$site/mujoco/include" \
    "$here/tree_peers.cpp" -o "$peers" \
    -L"$site/mujoco" -l:libmujoco.so.3.3.7 -Wl,-rpath,"$site/mujoco"
fi
(cd "$root" && cargo build --quiet --release -p mbs-bench --bin mbs-tree)
cd "$here"
taskset -c 1 "$venv/bin/python" -W ignore tree.py "$root/target/release/mbs-tree" "$peers" "$@"
