#!/usr/bin/env bash
# Fuzzes every C entry point of libmbs (fuzz/fuzz_targets/c_api.rs and c_api/) with cargo-fuzz
# (libFuzzer + AddressSanitizer, nightly toolchain), for a bounded time (default 60 s):
# first the kept crash inputs (fuzz/regressions/c_api/) and the checked-in corpus
# (fuzz/corpus/c_api/) are replayed once, then new inputs are searched from the corpus.
#
#   scripts/fuzz.sh            # 60 s
#   scripts/fuzz.sh 300        # 5 min (CI)
#
# Exits non-zero on a crash, a panic, or an assertion of the target (an error status that
# changed an output or a storage, a non-finite result of a successful call); the input is
# saved in fuzz/artifacts/c_api/ (replay: cd fuzz && cargo +nightly fuzz run c_api <file>;
# keep it in fuzz/regressions/c_api/ once fixed). New corpus inputs go to a scratch copy;
# refresh the checked-in corpus with `cargo +nightly fuzz cmin c_api` when it has grown.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${1:-60}"
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo +nightly fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked --quiet
options=(-timeout=5 -rss_limit_mb=2048 -max_len=4096)
cargo +nightly fuzz run c_api regressions/c_api corpus/c_api -- -runs=0 "${options[@]}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r corpus/c_api/. "$scratch/"
cargo +nightly fuzz run c_api "$scratch" -- -max_total_time="$secs" -print_final_stats=1 "${options[@]}"
