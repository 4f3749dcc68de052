#!/usr/bin/env bash
# Line coverage of core and ffi by the workspace's tests (the Rust tests, the C tests and C
# examples they run through the ffi, the firmware tests' host parts): cargo-llvm-cov
# (installed with rustup's llvm-tools when missing). Prints one line, "coverage: core P % of
# N lines, ffi P % of N, both P %"; the per-file table goes to target/llvm-cov-summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup component list --installed 2>/dev/null | grep -q '^llvm-tools' ||
  rustup component add llvm-tools-preview >/dev/null 2>&1
command -v cargo-llvm-cov >/dev/null || cargo install cargo-llvm-cov --locked --quiet
mkdir -p target
cargo llvm-cov --release --workspace --summary-only \
  --ignore-filename-regex '(bench|view|firmware|examples|tests|src/bin)/' \
  >target/llvm-cov-summary.txt 2>target/llvm-cov.log ||
  { cat target/llvm-cov.log target/llvm-cov-summary.txt; exit 1; }
awk '
  $1 ~ /^core\// { cl += $8; cm += $9 }
  $1 ~ /^ffi\//  { fl += $8; fm += $9 }
  END {
    printf "coverage: core %.1f %% of %d lines, ffi %.1f %% of %d, both %.1f %%\n",
      100 * (cl - cm) / cl, cl, 100 * (fl - fm) / fl, fl, 100 * (cl + fl - cm - fm) / (cl + fl)
  }' target/llvm-cov-summary.txt
