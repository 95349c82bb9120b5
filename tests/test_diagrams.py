"""docs/diagrams/ must be exactly what `make docs` draws from ksy/ today (like generated/)."""

from __future__ import annotations

import filecmp
import shutil
import subprocess

import pytest
from conftest import ROOT

NODE = shutil.which("node")
DIAGRAMS = ROOT / "docs" / "diagrams"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    if NODE is None or not (ROOT / "node_modules" / "kaitai-struct-compiler").exists():
        pytest.skip("node or node_modules/ missing (make test installs them; CI has node)")
    if shutil.which("dot") is None:
        pytest.skip("graphviz is not installed (apt-get install graphviz; .ci/run installs it)")
    out = tmp_path_factory.mktemp("diagrams")
    r = subprocess.run([NODE, str(ROOT / "tools" / "build_diagrams.js"), "--out", str(out)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return out


def test_every_spec_has_a_diagram_and_nothing_else_is_there(fresh):
    specs = {p.stem for p in (ROOT / "ksy").glob("*.ksy")}
    assert {p.stem for p in fresh.glob("*.svg")} == specs
    assert {p.stem for p in DIAGRAMS.glob("*.svg")} == specs, "run `make docs` and commit docs/diagrams/"


def test_diagrams_match_a_fresh_drawing(fresh):
    stale = [p.name for p in sorted(fresh.glob("*.svg"))
             if not filecmp.cmp(p, DIAGRAMS / p.name, shallow=False)]
    assert not stale, f"docs/diagrams/ is stale ({', '.join(stale)}): run `make docs` and commit"


def test_a_diagram_shows_the_spec_fields(fresh):
    svg = (fresh / "meshbin.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg
    for field in ("num_bones_declared", "vertex_colours", "bone_for_vertex", "Meshbin::Bone"):
        assert field in svg
