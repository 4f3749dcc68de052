#!/usr/bin/env bash
# Runs every test: installs what they need, then the workspace's tests (Rust unit and
# integration tests, the C/C++ examples through the ffi rlib, the firmware under QEMU) and
# mbs-view's pages in headless Chromium, and the Python package installed by pip with its tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo test --workspace --release "$@"
# The crate's examples run (their output is the user's; here only their success counts).
for ex in arm_dynamics spinning_body; do
  cargo run --quiet --release -p mbs-core --example "$ex" >/dev/null
done
# The pages that play a run, in a browser (the main job's and a 10-link chain's).
make -C c_examples run >/dev/null
bash scripts/page-test.sh
# The Python package: pip install into a new virtual environment, then pytest.
bash scripts/python-test.sh
