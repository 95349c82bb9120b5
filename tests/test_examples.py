"""The files under examples/ are exactly what the examples/make_*.py scripts make."""

from __future__ import annotations

import importlib.util

import pytest
from conftest import EXAMPLES

SCRIPTS = sorted(EXAMPLES.glob("make_*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_examples_are_reproducible(script):
    spec = importlib.util.spec_from_file_location(script.stem, script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = module.examples()
    assert made, f"{script.name} makes nothing"
    for name, data in made.items():
        assert (EXAMPLES / name).read_bytes() == data, f"examples/{name} is stale: run `make examples`"
