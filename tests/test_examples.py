"""The files under examples/ are exactly what examples/make_examples.py makes."""

from __future__ import annotations

import importlib.util

from conftest import EXAMPLES


def test_examples_are_reproducible():
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, data in module.examples().items():
        assert (EXAMPLES / name).read_bytes() == data, f"examples/{name} is stale: run `make examples`"
