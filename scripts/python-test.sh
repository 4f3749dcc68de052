#!/usr/bin/env bash
# The Python package as a new user gets it: a new virtual environment (target/python-venv),
# `pip install ./python[test]` from the repository (maturin builds the PyO3 extension with the
# machine's Rust toolchain; pytest and dask.distributed from PyPI), then its pytest suite
# (python/tests: closed forms, the C API bit for bit through the ctypes mirror of libmbs.so,
# numpy shapes and dtypes, exceptions, the batch and a Dask LocalCluster sweep).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "./python[test]"
[ -e target/release/libmbs.so ] || cargo build --quiet --release -p mbs-ffi
MBS_LIB="$PWD/target/release/libmbs.so" "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
