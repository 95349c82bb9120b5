"""generated/ must be exactly what the pinned compiler makes of ksy/ today."""

from __future__ import annotations

import filecmp
import shutil
import subprocess

import pytest
from conftest import ROOT

NODE = shutil.which("node")
COMPILER = ROOT / "node_modules" / "kaitai-struct-compiler"


@pytest.fixture(scope="module")
def fresh_compile(tmp_path_factory):
    if NODE is None:
        pytest.skip("node is not installed: cannot recompile ksy/ (CI has node)")
    if not COMPILER.exists():
        pytest.skip("node_modules/ is missing: run `npm ci` (make test does)")
    out = tmp_path_factory.mktemp("generated")
    specs = sorted(str(p) for p in (ROOT / "ksy").glob("*.ksy"))
    r = subprocess.run([NODE, str(ROOT / "tools" / "ksc.js"), "--debug", "-d", str(out), *specs],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return out


def test_generated_matches_a_fresh_compile(fresh_compile):
    committed = {p.name for p in (ROOT / "generated").iterdir() if p.suffix == ".py"}
    fresh = {p.name for p in fresh_compile.iterdir() if p.suffix == ".py"}
    assert committed == fresh, "run `make generate`"
    stale = [n for n in sorted(fresh) if not filecmp.cmp(ROOT / "generated" / n, fresh_compile / n, shallow=False)]
    assert not stale, f"generated/ is stale ({', '.join(stale)}): run `make generate` and commit"


def test_wrapper_reports_file_and_yaml_path_and_fails(tmp_path):
    if NODE is None or not COMPILER.exists():
        pytest.skip("node or node_modules/ missing")
    bad = tmp_path / "bad_spec.ksy"
    bad.write_text("meta:\n  id: bad_spec\n  endian: le\nseq:\n  - id: a\n    type: no_such_type\n")
    r = subprocess.run([NODE, str(ROOT / "tools" / "ksc.js"), "--check", str(bad)], capture_output=True, text=True)
    assert r.returncode == 1
    assert str(bad) in r.stderr and "/seq/0/type" in r.stderr and "no_such_type" in r.stderr

    wrong_id = tmp_path / "other.ksy"
    wrong_id.write_text("meta:\n  id: something_else\nseq: []\n")
    r = subprocess.run([NODE, str(ROOT / "tools" / "ksc.js"), "--check", str(wrong_id)], capture_output=True, text=True)
    assert r.returncode == 1 and "/meta/id" in r.stderr
