"""Shared by the tests: the repository root and the examples as modules."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def example(name):
    """The module of python/examples/<name>.py."""
    sys.path.insert(0, str(ROOT / "python" / "examples"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)
