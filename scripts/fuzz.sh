#!/usr/bin/env bash
# Fuzzes the C entry points of libmbs for a bounded time (default 60 s) with cargo-fuzz
# (libFuzzer + AddressSanitizer, nightly toolchain): fuzz/fuzz_targets/c_api.rs.
#
#   scripts/fuzz.sh            # 60 s
#   scripts/fuzz.sh 600        # 10 min
#
# Exits non-zero on a crash, a panic, or an assertion of the target (an error status that
# changed an output, a non-finite result of a successful call); the input that did it is
# saved in fuzz/artifacts/c_api/ (replay: cargo +nightly fuzz run c_api <file>). The corpus
# grows in fuzz/corpus/c_api/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-60}"
rustup toolchain list | grep -q '^nightly' || { echo "needs the nightly toolchain"; exit 2; }
cargo +nightly fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked
mkdir -p corpus/c_api
cargo +nightly fuzz run c_api corpus/c_api -- \
  -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
