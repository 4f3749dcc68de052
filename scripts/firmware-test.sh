#!/usr/bin/env bash
# Runs only the firmware tests under QEMU (tests/firmware_qemu.rs), requiring the tools
# (a missing arm-none-eabi-gcc or qemu-system-arm fails instead of skipping).
# The figures of docs/embedded.md: scripts/embedded-figures.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
MBS_REQUIRE_QEMU=1 cargo test --release --test firmware_qemu "$@"
