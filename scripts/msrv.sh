#!/usr/bin/env bash
# Checks the workspace with the minimum Rust version it declares (`rust-version` in
# Cargo.toml), installing that toolchain first (rustup, minimal profile).
set -euo pipefail
cd "$(dirname "$0")/.."
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -1)
rustup toolchain list | grep -q "^$msrv-" || rustup toolchain install "$msrv" --profile minimal >/dev/null 2>&1
cargo "+$msrv" check --workspace --locked --target-dir target/msrv
