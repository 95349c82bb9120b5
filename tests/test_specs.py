"""The specs beyond Python: every compiler target, and the conventions of the Kaitai gallery.

The wrapper parses YAML with js-yaml's core schema and compiles with the npm compiler 0.11,
as the Kaitai Web IDE does, so a spec that passes here opens in the IDE.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import ROOT

NODE = shutil.which("node")
KSC = ROOT / "tools" / "ksc.js"
SPECS = sorted((ROOT / "ksy").glob("*.ksy"))
TARGETS = ["construct", "cpp_stl", "csharp", "go", "graphviz", "html", "java", "javascript",
           "lua", "nim", "perl", "php", "python", "ruby", "rust"]

pytestmark = pytest.mark.skipif(
    NODE is None or not (ROOT / "node_modules" / "kaitai-struct-compiler").exists(),
    reason="node or node_modules/ missing (make test installs them; CI has node)",
)


def ksc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, str(KSC), *args], capture_output=True, text=True, cwd=ROOT)


def test_compiler_offers_the_fifteen_targets_we_check():
    assert ksc("--list-targets").stdout.split() == TARGETS


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_spec_compiles_for_every_target(spec, tmp_path):
    r = ksc("-t", "all", "-d", str(tmp_path), str(spec))
    assert r.returncode == 0, r.stderr
    for target in TARGETS:
        produced = list((tmp_path / target).rglob("*"))
        assert any(p.is_file() and p.stat().st_size > 0 for p in produced), f"{target}: no output"


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_spec_follows_gallery_conventions(spec):
    r = ksc("--check", "--lint", str(spec))
    assert r.returncode == 0, r.stderr


def test_lint_catches_a_missing_doc(tmp_path):
    bad = tmp_path / "undocumented.ksy"
    bad.write_text("meta:\n  id: undocumented\n  title: t\n  license: MIT\n  file-extension: x\n"
                   "doc: d\ndoc-ref: r\nseq:\n  - id: a\n    type: u1\n")
    r = ksc("--check", "--lint", str(bad))
    assert r.returncode == 1 and "/seq/0 (a): doc missing" in r.stderr
