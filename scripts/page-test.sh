#!/usr/bin/env bash
# The pages of mbs-view in headless Chromium (Debian's chromium, driven by playwright-core from
# view/web's locked npm packages): the main job's page (run first: make -C c_examples run) and
# the page of a 10-link chain over 10,000 steps (mbs-view chain). Each loads with no console
# error, draws every body where its recording puts it at two slider positions, shows the
# recorded samples at the plot cursor and plays (view/web/test/page.test.mjs). Prints one
# "page test:" line per page (size, frames, load time).
set -euo pipefail
cd "$(dirname "$0")/.."
(cd view/web && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
[ -e target/mbs-run/run.html ] || make -C c_examples run >/dev/null
node view/web/test/page.test.mjs target/mbs-run/run.html target/mbs-run/run.txt
cargo run --quiet --release -p mbs-view -- chain --out target/mbs-view/chain >/dev/null
node view/web/test/page.test.mjs target/mbs-view/chain/chain.html target/mbs-view/chain/chain.txt
