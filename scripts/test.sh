#!/usr/bin/env bash
# Runs every test: installs what they need, then the workspace's tests (Rust unit and
# integration tests, the C/C++ examples through the ffi rlib, the firmware under QEMU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --workspace --release "$@"
