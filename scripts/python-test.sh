#!/usr/bin/env bash
# The Python package as a new user gets it: a new virtual environment (target/python-venv),
# `pip install ./python[test]` from the repository (maturin builds the PyO3 extension with the
# machine's Rust toolchain; pytest and dask.distributed from PyPI), the abi3 wheel built, then
# the pytest suite (python/tests: closed forms, the C API bit for bit through
# python/tests/c_reference.c linked against libmbs.a, every status's exception and text, numpy
# shapes and dtypes, refusals, the batch and a Dask LocalCluster sweep).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "./python[test]"
# The wheel a release would upload: one abi3 wheel for CPython 3.9 and later.
rm -rf target/wheels
"$venv/bin/pip" wheel --quiet --disable-pip-version-check --no-deps -w target/wheels ./python
ls target/wheels/mbsdyn-*-cp39-abi3-*.whl >/dev/null
cargo build --quiet --release -p mbs-ffi
cc -std=c11 -O2 -Wall -Wextra -Werror -pedantic -Iinclude python/tests/c_reference.c \
  target/release/libmbs.a -lm -lpthread -ldl -o target/python-c-reference
MBS_C_REFERENCE="$PWD/target/python-c-reference" "$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
