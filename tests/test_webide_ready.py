"""What makes the specs behave in the Kaitai Web IDE, checked without the IDE (issue 14).

The IDE itself is driven by `make webide-check` (tools/webide_check.js), which needs a local
copy of the IDE's static deploy and so stays out of the test suite. Here: tools/ksc.js fails
on every compiler warning (the compiler's JS API, and so the IDE, drop them), accepts only
the shared counts a spec lists, and lints the labels the IDE can render; the specs hand no
stream or object down as a parameter (the IDE shows parameters as tree nodes); and the
serialized-object key names, which used to need such a parameter, still resolve.
"""

from __future__ import annotations

import io
import json
import shutil
import struct
import subprocess

import pytest
from conftest import ROOT
from kaitaistruct import KaitaiStream
from test_animclip_support import assemble, trigger_data

from animspec.generated.animclip import Animclip

NODE = shutil.which("node")
KSC = ROOT / "tools" / "ksc.js"
TAG_TRIGGER_DATA = 0x6962F7DE

needs_node = pytest.mark.skipif(
    NODE is None or not (ROOT / "node_modules" / "kaitai-struct-compiler").exists(),
    reason="node or node_modules/ missing (make test installs them; CI has node)",
)


def ksc(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([NODE, str(KSC), *args], capture_output=True, text=True, cwd=ROOT)


def spec_file(tmp_path, name: str, body: str):
    path = tmp_path / f"{name}.ksy"
    path.write_text(f"meta:\n  id: {name}\n  endian: le\n{body}")
    return path


# --- compiler warnings -----------------------------------------------------------------------


@needs_node
def test_a_style_warning_fails_the_build_and_names_file_target_and_path(tmp_path):
    bad = spec_file(tmp_path, "counted", "seq:\n  - id: count\n    type: u1\n  - id: items\n    type: u1\n"
                                         "    repeat: expr\n    repeat-expr: count\n")
    r = ksc("--check", str(bad))
    assert r.returncode == 1
    assert f"ksc: warning: {bad} [python]: /seq/0/id: use `num_items` instead of `count`" in r.stderr
    # Nothing is written for a spec that draws a warning.
    out = tmp_path / "out"
    assert ksc("-d", str(out), str(bad)).returncode == 1 and not out.exists()


@needs_node
def test_a_warning_that_is_not_about_style_fails_too(tmp_path):
    # The JS API compiles this silently to .decode("KLINGON").
    bad = spec_file(tmp_path, "klingon", "seq:\n  - id: text\n    type: str\n    size: 4\n    encoding: KLINGON\n")
    r = ksc("--check", str(bad))
    assert r.returncode == 1 and "warning:" in r.stderr and "KLINGON" in r.stderr and "/seq/0/encoding" in r.stderr


@needs_node
def test_all_errors_are_reported_not_only_the_first(tmp_path):
    bad = spec_file(tmp_path, "two_errors", "seq:\n  - id: a\n    type: no_such_a\n  - id: b\n    type: no_such_b\n")
    r = ksc("--check", str(bad))
    assert r.returncode == 1 and "no_such_a" in r.stderr and "no_such_b" in r.stderr


PARALLEL = ("seq:\n  - id: num_items\n    type: u1\n{extra}  - id: items\n    type: u1\n    repeat: expr\n"
            "    repeat-expr: num_items\n  - id: weights\n    type: u1\n    repeat: expr\n    repeat-expr: num_items\n")


@needs_node
def test_a_shared_count_passes_only_for_the_arrays_it_lists(tmp_path):
    listed = spec_file(tmp_path, "listed", PARALLEL.format(extra="    -count-shared-by: [weights]\n"))
    assert ksc("--check", str(listed)).returncode == 0
    unlisted = spec_file(tmp_path, "unlisted", PARALLEL.format(extra=""))
    r = ksc("--check", str(unlisted))
    assert r.returncode == 1 and "use `num_weights` instead of `num_items`" in r.stderr


@needs_node
def test_a_stale_shared_count_entry_fails(tmp_path):
    stale = spec_file(tmp_path, "stale", PARALLEL.format(extra="    -count-shared-by: [weights, items]\n"))
    r = ksc("--check", str(stale))
    assert r.returncode == 1
    assert "/seq/0/-count-shared-by: `items` does not take its count or size from `num_items`" in r.stderr


@needs_node
def test_the_hook_refuses_a_compiler_it_does_not_know(tmp_path):
    # A copy of the wrapper next to a compiler build without the line it hooks.
    fake = tmp_path / "node_modules" / "kaitai-struct-compiler"
    fake.mkdir(parents=True)
    (fake / "package.json").write_text('{"name": "kaitai-struct-compiler", "version": "9.9.9", "main": "k.js"}')
    (fake / "k.js").write_text("module.exports = { languages: ['python'], version: '9.9.9' };")
    (tmp_path / "node_modules" / "js-yaml").symlink_to(ROOT / "node_modules" / "js-yaml")
    tools = tmp_path / "tools"
    tools.mkdir()
    shutil.copy(KSC, tools / "ksc.js")
    r = subprocess.run([NODE, str(tools / "ksc.js"), "--list-targets"], capture_output=True, text=True)
    assert r.returncode == 3 and "9.9.9" in r.stderr and "warnings would go unseen" in r.stderr


# --- labels the IDE can render ---------------------------------------------------------------


LABELLED = """meta:
  id: labelled
  title: t
  license: MIT
  file-extension: x
  endian: le
doc: d
doc-ref: r
seq:
  - id: item
    type: thing
    doc: d
types:
  thing:
    -webide-representation: '{label}'
    doc: d
    seq:
      - id: values
        type: u2
        repeat: expr
        repeat-expr: 2
        doc: d
      - id: m
        type: f4
        doc: d
    instances:
      lazy:
        value: m * 2
        doc: d
"""


@needs_node
@pytest.mark.parametrize(
    "label, problem",
    [
        ("{values}", "`values` is an array of numbers or bytes: the IDE's label code throws on it"),
        ("{m:sep=, }", 'the IDE reads " " as an option it does not know'),
        ("{nothing}", "no field `nothing` to show"),
        ("{lazy}", "`lazy` is a lazy instance: the IDE shows nothing for it"),
    ],
)
def test_lint_catches_labels_the_ide_cannot_render(tmp_path, label, problem):
    bad = tmp_path / "labelled.ksy"
    bad.write_text(LABELLED.replace("{label}", label))
    r = ksc("--check", "--lint", str(bad))
    assert r.returncode == 1 and f"/types/thing/-webide-representation: {label}: {problem}" in r.stderr, r.stderr
    good = tmp_path / "ok" / "labelled.ksy"
    good.parent.mkdir()
    good.write_text(LABELLED.replace("{label}", "{m} x2"))
    assert ksc("--check", "--lint", str(good)).returncode == 0


# --- parameters the IDE would show -----------------------------------------------------------


@needs_node
@pytest.mark.parametrize("param_type, argument, refused", [
    ("io", "_io", True), ("thing", "_parent.item", True), ("struct", "_root", True),
    ("u1", "1", False), ("bytes", "[0x41]", False),
])
def test_lint_refuses_a_stream_or_object_handed_down_as_a_parameter(tmp_path, param_type, argument, refused):
    """The IDE lists a type's parameters among its fields: a stream shows as an expandable
    KaitaiStream whose members fail when clicked, an object repeats a whole subtree."""
    text = LABELLED.replace("{label}", "{m}").replace("id: labelled", "id: passing")
    text = text.replace("    type: thing\n", f"    type: thing({argument})\n", 1)
    text = text.replace("    doc: d\n    seq:\n",
                        f"    doc: d\n    params:\n      - id: given\n        type: {param_type}\n        doc: d\n    seq:\n", 1)
    spec = tmp_path / "passing.ksy"
    spec.write_text(text)
    r = ksc("--check", "--lint", str(spec))
    if refused:
        assert r.returncode == 1 and "/types/thing/params/0 (given): type" in r.stderr, r.stderr
    else:
        assert r.returncode == 0, r.stderr


# --- key names still resolve -----------------------------------------------------------------


def clip_with_a_named_key() -> bytes:
    """Trigger Data holding one serialized object with one u32 child whose key name lies in
    the strings block, at a DAT1-absolute offset (ALERT's convention)."""
    name_offset = 16 + 12 * 1  # the strings block starts after the header and the one-entry table
    child = struct.pack("<IHBB", 0xDEADBEEF, 1 << 4, 0, 0x02) + struct.pack("<I", name_offset) + struct.pack("<I", 7)
    obj = struct.pack("<IIII", 0, 0x03150044, 1, len(child)) + child
    return assemble([(TAG_TRIGGER_DATA, trigger_data(bytes(8) + obj, []))], strings=b"speed\0")


def test_key_names_resolve_in_the_dat1_of_the_file():
    root = Animclip(KaitaiStream(io.BytesIO(clip_with_a_named_key())))
    root._read()
    body = root.dat1.sections[0].body
    obj = body.objects.objects[0]
    assert obj.body.key_names[0].ofs_name == 28
    assert obj.body.key_names[0].name == "speed"
    assert obj.body.values[0].elements[0].value_u4 == 7


@needs_node
def test_key_names_resolve_the_same_in_javascript(tmp_path):
    clip = tmp_path / "named_key.animclip"
    clip.write_bytes(clip_with_a_named_key())
    r = subprocess.run([NODE, str(ROOT / "tools" / "js_dump.js"), "--compact", str(clip)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    dump = json.loads(r.stdout)
    assert dump["error"] is None
    obj = dump["root"]["dat1"]["sections"][0]["body"]["objects"]["objects"][0]
    assert obj["body"]["key_names"][0]["name"] == "speed"
