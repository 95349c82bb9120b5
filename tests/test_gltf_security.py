"""glTF inputs that reach outside their folder or cost more than their size (issue 21).

* external buffer and image URIs: only plain relative paths resolving inside the glTF's own
  folder, read like every input (regular files, never blocking, at most 1 GiB), only when
  something reads them; checked from the command line with a secret planted outside;
* node hierarchies that are not trees (cycles, self-parents, a child listed twice);
* the accessor budget counts only buffer bytes actually read;
* a rig of N joints under a chain of D nodes is read in N + D compositions, and --skeleton
  has a joint limit checked before the walk;
* huge, infinite or NaN numbers in ``extras.animbin`` / ``extras.markers``.

Work is asserted by counting calls (no timed assertions); memory with tracemalloc.
"""

from __future__ import annotations

import base64
import copy
import json
import os
import re
import secrets
import struct
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from animspec.animbin import read_file as read_animbin
from animspec.common.errors import AnimspecError
from animspec.gltf import GltfError, gltf_to_animbin, read_rig, animbin_to_gltf, animbin_to_gltf_on_rig
from animspec.gltf import rig as rig_module
from animspec.gltf.document import load_path
from animspec.gltf.rig import BUDGET_PER_BYTE, MAX_ZERO_ELEMENTS

ROOT = Path(__file__).resolve().parent.parent
SWING = ROOT / "examples" / "swing.animbin"
PYTHON = sys.executable
CLI_TIMEOUT = 120
"""A command that has not answered by then is stuck (a cycle walked forever, a FIFO waited on)."""


# --------------------------------------------------------------------------- building assets


def glb_bytes(doc: dict[str, Any], blob: bytes | None = None) -> bytes:
    """A GLB of ``doc`` and an optional BIN chunk (written by hand: the container is what is tested)."""
    text = json.dumps(doc).encode()
    text += b" " * (-len(text) % 4)
    body = struct.pack("<I4s", len(text), b"JSON") + text
    if blob is not None:
        blob += bytes(-len(blob) % 4)
        body += struct.pack("<I4s", len(blob), b"BIN\0") + blob
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def rig_doc(uri: str | None, byte_length: int = 96, joints: int = 4) -> dict[str, Any]:
    """A skinned chain of ``joints`` nodes with one rotation animation on the first, its two
    accessors in buffer 0 (``uri``): times in a 64-byte view (two floats read), rotations in
    a 32-byte view (two x, y, z, w)."""
    nodes = [{"name": f"j{i}", "translation": [0.0, 1.0, 0.0]} for i in range(joints)]
    for i in range(joints - 1):
        nodes[i]["children"] = [i + 1]
    buffer: dict[str, Any] = {"byteLength": byte_length}
    if uri is not None:
        buffer["uri"] = uri
    return {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "skins": [{"joints": list(range(joints))}],
        "buffers": [buffer],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 64},
            {"buffer": 0, "byteOffset": 64, "byteLength": 32},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR"},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"},
        ],
        "animations": [{
            "name": "turn",
            "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}],
        }],
    }


def good_data() -> bytes:
    """96 bytes rig_doc's accessors read as times 0, 0.25 s and two unit rotations."""
    times = struct.pack("<2f", 0.0, 0.25) + bytes(56)
    rotations = struct.pack("<8f", 0, 0, 0, 1, 0, 0.7071067, 0, 0.7071068)
    return times + rotations


def write_gltf(folder: Path, name: str, doc: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(doc))
    return path


def run_cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, **(env or {}))
    full_env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), full_env.get("PYTHONPATH", "")])
    return subprocess.run(
        [PYTHON, "-m", "animspec", *args], capture_output=True, text=True, timeout=CLI_TIMEOUT, env=full_env, cwd=cwd
    )


def one_line_error(run: subprocess.CompletedProcess, *needles: str) -> str:
    """Assert that ``run`` failed with exactly one line on stderr, no traceback, naming ``needles``."""
    assert run.returncode != 0, f"exit 0: stdout {run.stdout!r} stderr {run.stderr!r}"
    assert "Traceback" not in run.stderr, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


# --------------------------------------------------------------------------- URIs: library


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path, str]:
    """tmp/secret.txt (a random token, repeated) outside tmp/rig/, the rig's folder."""
    token = secrets.token_hex(16)
    secret = tmp_path / "secret.txt"
    secret.write_text(token * 8)  # 256 bytes: every view read would hold the whole token
    rig = tmp_path / "rig"
    rig.mkdir()
    return secret, rig, token


def escaping_uris(secret: Path, rig: Path) -> dict[str, str]:
    """Name -> URI, every one naming a file outside ``rig`` (the symlink one needs the link made)."""
    (rig / "link.bin").symlink_to(secret)
    (rig / "up").symlink_to(secret.parent, target_is_directory=True)
    return {
        "parent": "../secret.txt",
        "absolute": str(secret),
        "encoded-parent": "%2E%2E%2Fsecret.txt",
        "encoded-slash-absolute": "%2F" + "%2F".join(str(secret).strip("/").split("/")),
        "proc-environ": "/proc/self/environ",
        "file-scheme": "file://" + str(secret),
        "backslash-parent": "..\\secret.txt",
        "drive-letter": "C:/secret.txt",
        "nul": "secret.txt%00.bin",
        "symlink-out": "link.bin",
        "symlinked-folder-out": "up/secret.txt",
    }


def test_escaping_uris_are_refused_naming_buffer_and_uri(planted):
    secret, rig, token = planted
    for name, uri in escaping_uris(secret, rig).items():
        path = write_gltf(rig, f"{name}.gltf", rig_doc(uri))
        with pytest.raises(GltfError) as caught:
            gltf_to_animbin(str(path))
        message = str(caught.value)
        assert "buffer" in message and repr(uri) in message, (name, message)
        assert token not in message


def test_escaping_image_uri_is_refused(planted):
    secret, rig, token = planted
    doc = rig_doc("data.bin")
    (rig / "data.bin").write_bytes(good_data())
    doc["images"] = [{"uri": "../secret.txt"}]
    path = write_gltf(rig, "image.gltf", doc)
    with pytest.raises(GltfError, match=r"images\[0\].*'\.\./secret\.txt'"):
        animbin_to_gltf_on_rig(read_animbin(SWING), read_rig(str(path)))


def test_relative_paths_inside_the_folder_still_read(planted):
    _, rig, _ = planted
    (rig / "sub").mkdir()
    (rig / "sub" / "data file.bin").write_bytes(good_data())
    (rig / "alias.bin").symlink_to(rig / "sub" / "data file.bin")  # a link that stays inside
    for uri in ("sub/data%20file.bin", "./sub/data file.bin", "alias.bin"):
        path = write_gltf(rig, "ok.gltf", rig_doc(uri))
        result = gltf_to_animbin(str(path))
        assert str(result.animbin.animations[0].name) == "turn"


def test_byte_length_past_the_cap_or_the_file_names_buffer_and_uri(planted):
    _, rig, _ = planted
    (rig / "data.bin").write_bytes(good_data())
    too_big = write_gltf(rig, "huge.gltf", rig_doc("data.bin", byte_length=1 << 31))
    with pytest.raises(GltfError, match=r"buffer 0: uri 'data\.bin': byteLength 2147483648 is more than the 1073741824"):
        gltf_to_animbin(str(too_big))
    short = write_gltf(rig, "short.gltf", rig_doc("data.bin", byte_length=4096))
    with pytest.raises(GltfError, match=r"buffer 0: uri 'data\.bin': .*4096 bytes wanted, the file has 96"):
        gltf_to_animbin(str(short))


def test_a_buffer_swapped_for_a_fifo_after_the_check_never_blocks(tmp_path):
    """The old reader asked ``is_file()`` and then opened with a blocking open(): a FIFO put
    in place between the two hung it. Here the check is made to pass (as if the swap came
    right after it) and the open must still refuse the FIFO at once."""
    rig = tmp_path / "rig"
    rig.mkdir()
    os.mkfifo(rig / "data.bin")
    path = write_gltf(rig, "fifo.gltf", rig_doc("data.bin"))
    script = (
        "import pathlib, sys\n"
        "pathlib.Path.is_file = lambda self: True\n"
        "from animspec.gltf import gltf_to_animbin, GltfError\n"
        "try:\n"
        f"    gltf_to_animbin({str(path)!r})\n"
        "except GltfError as exc:\n"
        "    print(exc)\n"
        "    sys.exit(0)\n"
        "sys.exit(1)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    try:
        run = subprocess.run([PYTHON, "-c", script], capture_output=True, text=True, timeout=30, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail("reading a buffer that is a FIFO blocked")
    assert run.returncode == 0, run.stderr
    assert "FIFO" in run.stdout and "'data.bin'" in run.stdout


# --------------------------------------------------------------------------- unused buffers


def unused_buffer_doc(declared: int) -> dict[str, Any]:
    """rig_doc on a data: buffer, plus buffer 1 (a file that does not exist, declaring
    ``declared`` bytes) under a bufferView no accessor, image or extension reads."""
    doc = rig_doc("data:application/octet-stream;base64," + base64.b64encode(good_data()).decode())
    doc["buffers"].append({"uri": "absent.bin", "byteLength": declared})
    doc["bufferViews"].append({"buffer": 1, "byteOffset": 0, "byteLength": declared})
    return doc


def test_a_buffer_nothing_reads_is_not_read(tmp_path, monkeypatch):
    from animspec.common import inputs

    opened: list[str] = []
    real = inputs.read_within

    def spy(folder, relative, **kw):
        opened.append(relative)
        return real(folder, relative, **kw)

    monkeypatch.setattr("animspec.gltf.document.read_within", spy)
    path = write_gltf(tmp_path, "unused.gltf", unused_buffer_doc(1 << 50))
    gltf_to_animbin(str(path))  # glTF -> ANIMBIN
    glb = animbin_to_gltf_on_rig(read_animbin(SWING), read_rig(str(path)))  # the rig copied into a GLB
    assert opened == []
    back = load_path(_save(tmp_path, "back.glb", glb))
    assert len(back.bufferViews) >= 2 and all(v.byteLength < 1 << 20 for v in back.bufferViews)
    assert all(a.bufferView is None or a.bufferView < len(back.bufferViews) for a in back.accessors)


def _save(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def test_accessor_budget_counts_only_buffer_bytes_read():
    """300 accessors aliasing one 64 KB view, next to a buffer declaring 2^50 bytes that
    nothing reads: the budget (8 elements per byte READ + 2^20) stops them long before 300,
    and the peak stays within that budget's float64s."""
    view_bytes, samplers = 65536, 300
    times = (np.arange(view_bytes // 4) * 1e-5).astype("<f4")  # 0.16 s: a clip that fits 30 keys
    blob = times.tobytes() + struct.pack("<8f", 0, 0, 0, 1, 0, 0, 0, 1)
    doc = {
        "asset": {"version": "2.0"},
        "nodes": [{"name": "j0"}],
        "skins": [{"joints": [0]}],
        "buffers": [{"byteLength": len(blob)}, {"uri": "never.bin", "byteLength": 1 << 50}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": view_bytes},
            {"buffer": 0, "byteOffset": view_bytes, "byteLength": 32},
            {"buffer": 1, "byteOffset": 0, "byteLength": 1 << 50},
        ],
        "accessors": [{"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}]
        + [{"bufferView": 0, "componentType": 5126, "count": view_bytes // 4, "type": "SCALAR"}] * samplers,
        "animations": [{
            "name": "a",
            "samplers": [{"input": 1 + i, "output": 0} for i in range(samplers)],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}],
        }],
    }
    data = glb_bytes(doc, blob)
    tracemalloc.start()
    try:
        with pytest.raises(GltfError, match="per byte of the buffer data read"):
            gltf_to_animbin(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    budget_bytes = 8 * (BUDGET_PER_BYTE * len(blob) + MAX_ZERO_ELEMENTS)  # float64 per element
    everything = 8 * samplers * (view_bytes // 4)
    assert peak < budget_bytes + (4 << 20), f"peak {peak / 1e6:.1f} MB, budget {budget_bytes / 1e6:.1f} MB"
    assert everything > budget_bytes  # the file asks for more than the budget: it must be refused


# --------------------------------------------------------------------------- node cycles


def cycle_docs() -> dict[str, dict[str, Any]]:
    """Rigs whose node hierarchy is not a tree, above or among the skin's joints."""
    cycle = rig_doc("data:application/octet-stream;base64," + base64.b64encode(good_data()).decode())
    # j0 -> j1 -> j2 -> j3 and a node 4 above j0 whose parent is j3: a cycle through the joints
    cycle["nodes"].append({"name": "armature", "children": [0]})
    cycle["nodes"][3]["children"] = [4]
    self_cycle = copy.deepcopy(cycle)
    self_cycle["nodes"][3].pop("children")
    self_cycle["nodes"][4]["children"] = [0, 4]  # the armature node is its own child
    twice = copy.deepcopy(self_cycle)
    twice["nodes"][4]["children"] = [0]
    twice["nodes"][1]["children"] = [2, 2]
    above = copy.deepcopy(twice)
    above["nodes"][1]["children"] = [2]
    above["nodes"].append({"name": "above", "children": [4]})
    above["nodes"][4]["children"] = [0, 5]  # armature <-> above, over the skeleton
    return {"cycle": cycle, "selfcycle": self_cycle, "child-twice": twice, "cycle-above": above}


EXPECTED_NODE = {"cycle": "is its own ancestor", "selfcycle": "node 4 ('armature') lists itself",
                 "child-twice": "node 2 ('j2') is listed twice", "cycle-above": "is its own ancestor"}


@pytest.mark.parametrize("name", sorted(EXPECTED_NODE))
def test_node_hierarchy_that_is_not_a_tree_is_refused(name, tmp_path):
    doc = cycle_docs()[name]
    data = glb_bytes(doc)
    for armature_space in (False, True):
        with pytest.raises(GltfError, match=re.escape(EXPECTED_NODE[name])):
            read_rig(data, armature_space=armature_space)
    with pytest.raises(GltfError, match=re.escape(EXPECTED_NODE[name])):
        gltf_to_animbin(data)


@pytest.mark.parametrize("name", sorted(EXPECTED_NODE))
def test_node_cycles_from_the_command_line(name, tmp_path):
    """Every command that walks a rig's parents: glTF -> ANIMBIN, ANIMBIN -> glTF on
    --skeleton, play --skeleton. Each answers with one line (the old walk never ended)."""
    path = tmp_path / f"{name}.glb"
    path.write_bytes(glb_bytes(cycle_docs()[name]))
    runs = [
        run_cli("convert", str(path), "-o", str(tmp_path / "out.animbin")),
        run_cli("convert", str(SWING), "--skeleton", str(path), "-o", str(tmp_path / "out.glb")),
        run_cli("play", str(SWING), "--skeleton", str(path)),
    ]
    for run in runs:
        one_line_error(run, EXPECTED_NODE[name], str(path))
    assert not (tmp_path / "out.animbin").exists() and not (tmp_path / "out.glb").exists()


def test_a_long_chain_into_a_cycle_is_refused():
    """5,000 nodes in a chain whose top is a child of its bottom: one walk, one error."""
    n = 5_000
    nodes = [{"name": f"n{i}", "children": [i + 1]} for i in range(n - 1)] + [{"name": "last", "children": [0]}]
    doc = {"asset": {"version": "2.0"}, "nodes": nodes, "skins": [{"joints": [n - 1]}]}
    with pytest.raises(GltfError, match="is its own ancestor"):
        read_rig(glb_bytes(doc))


# --------------------------------------------------------------------------- rig read work


def fan_under_chain(leaves: int, depth: int, *, scale: bool = False) -> bytes:
    """``leaves`` joint nodes, all children of the bottom of a chain of ``depth`` non-joint nodes."""
    chain = [{"name": f"c{i}", "translation": [0.0, 1.0, 0.0], "children": [i + 1]} for i in range(depth)]
    chain[-1]["children"] = list(range(depth, depth + leaves))
    joints = [{"name": f"leaf{i}", "translation": [float(i), 0.0, 0.0]} for i in range(leaves)]
    if scale:
        chain[0]["scale"] = [2.0, 2.0, 2.0]
    doc = {"asset": {"version": "2.0"}, "nodes": chain + joints,
           "skins": [{"joints": list(range(depth, depth + leaves))}]}
    return glb_bytes(doc)


class Counted:
    """A wrapper counting calls, failing as soon as the count passes ``limit`` (so the old
    quadratic walk fails in a moment instead of running for minutes)."""

    def __init__(self, function, limit: int):
        self.function, self.limit, self.calls = function, limit, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.calls > self.limit:
            raise AssertionError(f"more than {self.limit} calls")
        return self.function(*args, **kwargs)


def test_rig_read_composes_each_node_once(monkeypatch):
    n = d = 1000
    limit = 3 * (n + d)
    products = Counted(rig_module.trs_matrices, limit)
    rotations = Counted(rig_module.quat_multiply, limit)
    monkeypatch.setattr(rig_module, "trs_matrices", products)
    monkeypatch.setattr(rig_module, "quat_multiply", rotations)
    rig = read_rig(fan_under_chain(n, d))
    assert rig.skeleton.bone_count == n
    assert products.calls <= n + d and rotations.calls <= n + d
    # Still the same rest pose: every leaf sits d units up (the chain) plus its own offset.
    np.testing.assert_allclose(rig.skeleton.rest_translation[:, 1], float(d))
    np.testing.assert_allclose(rig.skeleton.rest_translation[:, 0], np.arange(n, dtype=float))
    assert len(rig.paths[0]) == d + 1 and rig.paths[n - 1][1:] == list(range(d - 1, -1, -1))


def test_the_joint_limit_comes_before_the_walk(monkeypatch):
    """The main glTF input's MAX_BONES, and --skeleton's MAX_RIG_JOINTS, refuse a rig before
    a single node transform is composed."""
    from animspec.rigs import MAX_RIG_JOINTS

    products = Counted(rig_module.trs_matrices, 0)
    monkeypatch.setattr(rig_module, "trs_matrices", products)
    with pytest.raises(AnimspecError, match=r"1000 joints; the engine's skeleton holds 15 \(MAX_BONES\): give --joints FILE"):
        gltf_to_animbin(fan_under_chain(1000, 1000))
    assert products.calls == 0
    assert MAX_RIG_JOINTS < 5000


def test_skeleton_joint_limit_from_the_command_line(tmp_path):
    from animspec.rigs import MAX_RIG_JOINTS

    path = tmp_path / "big.glb"
    path.write_bytes(fan_under_chain(MAX_RIG_JOINTS + 1, 2))
    out = tmp_path / "out.glb"
    one_line_error(
        run_cli("convert", str(SWING), "--skeleton", str(path), "-o", str(out)),
        str(path), f"{MAX_RIG_JOINTS + 1} joints", "MAX_RIG_JOINTS", "--joints FILE",
    )
    one_line_error(run_cli("play", str(SWING), "--skeleton", str(path)), "MAX_RIG_JOINTS", "--joint-names FILE")
    assert not out.exists()


# --------------------------------------------------------------------------- extras numbers


def _extras_glb() -> tuple[dict[str, Any], bytes]:
    """swing.animbin as a GLB (with its extras.animbin layout) plus a marker on each clip."""
    glb = animbin_to_gltf(read_animbin(SWING))
    size = struct.unpack_from("<I", glb, 12)[0]
    doc = json.loads(glb[20 : 20 + size])
    bin_size = struct.unpack_from("<I", glb, 20 + size)[0]
    blob = glb[28 + size : 28 + size + bin_size]
    for anim in doc["animations"]:
        anim["extras"]["markers"] = [{"name": "step", "frame": 1, "time": 0.0167}]
    return doc, blob


def _leaves(value: Any, path: list[Any]) -> list[list[Any]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, path + [k])]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, path + [i])]
    return [path]


def _json_path(path: list[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


EXTRAS_DOC, EXTRAS_BLOB = _extras_glb()
EXTRAS_LEAVES = [
    ["animations", a, "extras", key] + p
    for a, anim in enumerate(EXTRAS_DOC["animations"])
    for key in ("animbin", "markers")
    for p in _leaves(anim["extras"][key], [])
]


@pytest.mark.parametrize("bad", [10**400, float("inf"), float("-inf"), float("nan"), 1e300], ids=repr)
def test_every_number_in_extras_out_of_range_is_one_error_naming_its_path(bad):
    assert len(EXTRAS_LEAVES) >= 54
    escaped = []
    for leaf in EXTRAS_LEAVES:
        doc = copy.deepcopy(EXTRAS_DOC)
        target = doc
        for key in leaf[:-1]:
            target = target[key]
        target[leaf[-1]] = bad
        try:
            gltf_to_animbin(glb_bytes(doc, EXTRAS_BLOB))
        except GltfError as exc:
            if _json_path(leaf) not in str(exc):
                escaped.append((leaf, f"GltfError without the path: {exc}"))
        except Exception as exc:  # OverflowError, ValueError, ... : the bug
            escaped.append((leaf, f"{type(exc).__name__}: {exc}"))
        else:
            escaped.append((leaf, "accepted"))
    assert not escaped, f"{len(escaped)} of {len(EXTRAS_LEAVES)} leaves: {escaped[:5]}"


def test_one_file_convert_names_the_file_an_extras_error_is_in(tmp_path):
    """The glTF layer names the JSON path; the command names the file as well, as a batch does."""
    doc = copy.deepcopy(EXTRAS_DOC)
    doc["animations"][0]["extras"]["animbin"]["length"] = 10**400
    bad = _save(tmp_path, "bad.glb", glb_bytes(doc, EXTRAS_BLOB))
    line = one_line_error(run_cli("convert", str(bad), "-o", str(tmp_path / "out.animbin")),
                          "$.animations[0].extras.animbin.length")
    assert line.startswith(f"animspec: error: {bad}: "), line
    assert not (tmp_path / "out.animbin").exists()


# --------------------------------------------------------------------------- the command line


def test_a_secret_outside_the_folder_never_reaches_an_output(planted):
    """The issue's attack from the command line: every way of naming a file outside the
    rig's folder, through the three commands that read a glTF rig. Each must answer with one
    line naming the URI (or, for play, which reads no buffer, run without reading it), and
    the token must appear in no file written and in nothing printed."""
    secret, rig, token = planted
    out = secret.parent / "out"
    out.mkdir()
    env = {"ANIMSPEC_TEST_TOKEN": token}  # so that /proc/self/environ holds it too
    checked = 0
    uris = escaping_uris(secret, rig)
    for name, uri in uris.items():
        path = write_gltf(rig, f"{name}.gltf", rig_doc(uri))
        runs = {
            "to-glb": run_cli("convert", str(SWING), "--skeleton", str(path), "-o", str(out / f"{name}.glb"), env=env),
            "to-animbin": run_cli("convert", str(path), "-o", str(out / f"{name}.animbin"), env=env),
            "play": run_cli("play", str(SWING), "--skeleton", str(path), env=env),
        }
        for command, run in runs.items():
            assert token not in run.stdout and token not in run.stderr, (name, command)
            if command == "play" and name.startswith("symlink") and run.returncode == 0:
                continue  # play reads no buffer: a link that leads out is never followed
            one_line_error(run, repr(uri), str(path))
            checked += 1
    written = [p for p in secret.parent.rglob("*") if p.is_file() and not p.is_symlink() and p != secret]
    assert written  # the rigs themselves at least
    for path in written:
        assert token.encode() not in path.read_bytes(), path
    assert not list(out.iterdir())  # no output at all
    assert checked >= 3 * len(uris) - 2
