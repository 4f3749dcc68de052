#!/usr/bin/env bash
# Runs C examples (and the C tests) under valgrind's memcheck: any invalid read or write, use
# of uninitialized memory, or leak fails with exit status 1.
#
#   scripts/memcheck.sh                  # spinning_cylinder (the main demo)
#   scripts/memcheck.sh mini_example test_rigid    # any programs of c_examples/ or c_tests/
#   scripts/memcheck.sh --all            # every C/C++ example and C test but those in SKIP
#
# Builds them without sanitizers (valgrind and ASan do not mix) into c_examples/build.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind not installed (scripts/setup.sh installs it)"; exit 2; }
# The C tests' byte-for-byte snapshots of a storage declare it defined first (c_tests/check.h).
SKIP=""
progs=("$@")
if [ "${1:-}" = "--all" ]; then
  progs=()
  for f in c_examples/*.c c_examples/*.cpp c_tests/test_*.c; do
    p=$(basename "$f"); p=${p%.c}; [[ $f == *.cpp ]] && p=${p%.cpp}_cpp
    [[ $SKIP == *" $p "* ]] || progs+=("$p")
  done
fi
[ ${#progs[@]} -gt 0 ] || progs=(spinning_cylinder)
make -s -C c_examples all $(printf 'build/%s ' "${progs[@]}") >/dev/null
for p in "${progs[@]}"; do
  echo "== valgrind $p"
  valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --track-origins=yes --quiet "c_examples/build/$p"
done
