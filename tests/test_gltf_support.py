"""Helpers for the glTF tests, and tests of the helpers themselves.

``build_glb`` writes glTF test assets with pygltflib directly (not with animspec's writer),
so the converter is tested against files its own code did not make. ``khronos_validate``
runs tools/gltf_validate.js (the Khronos glTF validator); it skips, with the reason shown,
only when node or node_modules/gltf-validator is missing.
"""

from __future__ import annotations

import json
import math
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pytest
from pygltflib import (
    FLOAT,
    GLTF2,
    Accessor,
    Animation,
    AnimationChannel,
    AnimationChannelTarget,
    AnimationSampler,
    Asset,
    Buffer,
    BufferView,
    Node,
    Scene,
    Skin,
)

ROOT = Path(__file__).resolve().parent.parent
VALIDATOR = ROOT / "node_modules" / "gltf-validator"
SCRIPT = ROOT / "tools" / "gltf_validate.js"


def khronos_report(data: bytes, tmp_path: Path, name: str = "asset.glb") -> dict[str, Any]:
    """The validator's JSON report for ``data`` (skips when the validator is not installed)."""
    node = shutil.which("node")
    if node is None or not VALIDATOR.is_dir():
        pytest.skip("Khronos glTF validator unavailable (needs node and node_modules/gltf-validator: run `npm ci`)")
    path = tmp_path / name
    path.write_bytes(data)
    run = subprocess.run([node, str(SCRIPT), str(path), "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), f"validator failed to run: {run.stderr}"
    report = json.loads(run.stdout)
    assert (run.returncode == 1) == (report["issues"]["numErrors"] > 0)
    return report


def khronos_validate(data: bytes, tmp_path: Path, name: str = "asset.glb") -> dict[str, Any]:
    """Assert that the Khronos validator finds zero errors in ``data``; returns the report."""
    report = khronos_report(data, tmp_path, name)
    errors = [m for m in report["issues"]["messages"] if m["severity"] == 0]
    assert report["issues"]["numErrors"] == 0, f"glTF validator errors: {errors}"
    return report


# --- building test assets with pygltflib ---------------------------------------------------


def quat_xyzw(axis: Sequence[float], degrees: float) -> tuple[float, float, float, float]:
    half = math.radians(degrees) / 2
    a = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    return (*(a * math.sin(half)).tolist(), math.cos(half))


@dataclass
class JointSpec:
    name: str
    parent: int  # index into the joint list, -1 for a root
    translation: Sequence[float] = (0.0, 1.0, 0.0)
    rotation: Sequence[float] = (0.0, 0.0, 0.0, 1.0)  # x, y, z, w


@dataclass
class ChannelSpec:
    node: int
    path: str
    times: Sequence[float]
    values: Sequence[Sequence[float]]  # for CUBICSPLINE: in-tangent, value, out-tangent per key
    interpolation: str = "LINEAR"


@dataclass
class AnimSpec:
    name: str | None
    channels: list[ChannelSpec]
    extras: dict[str, Any] = field(default_factory=dict)


def build_glb(
    joints: Sequence[JointSpec],
    animations: Sequence[AnimSpec] = (),
    *,
    skin_order: Sequence[int] | None = None,
    extra_nodes: Sequence[Node] = (),
) -> bytes:
    """A GLB with one node per joint (node i = joint i), a skin over them (in ``skin_order``,
    default node order) and the given animations. ``extra_nodes`` are appended after the
    joints (their indices follow); link them with ``children`` yourself."""
    gltf = GLTF2(asset=Asset(generator="animspec tests", version="2.0"))
    blob = bytearray()

    def accessor(rows: np.ndarray, kind: str, bounds: bool = False) -> int:
        nonlocal blob
        rows = np.asarray(rows, dtype="<f4")
        blob += bytes(-len(blob) % 4)
        gltf.bufferViews.append(BufferView(buffer=0, byteOffset=len(blob), byteLength=rows.nbytes))
        blob += rows.tobytes()
        acc = Accessor(bufferView=len(gltf.bufferViews) - 1, componentType=FLOAT, count=len(rows), type=kind)
        if bounds:
            acc.min = [float(v) for v in rows.reshape(len(rows), -1).min(axis=0)]
            acc.max = [float(v) for v in rows.reshape(len(rows), -1).max(axis=0)]
        gltf.accessors.append(acc)
        return len(gltf.accessors) - 1

    for j in joints:
        gltf.nodes.append(Node(name=j.name, translation=list(j.translation), rotation=list(j.rotation)))
    for i, j in enumerate(joints):
        if j.parent >= 0:
            gltf.nodes[j.parent].children.append(i)
    gltf.nodes.extend(extra_nodes)
    children = {c for n in gltf.nodes for c in (n.children or [])}
    gltf.scenes.append(Scene(nodes=[i for i in range(len(gltf.nodes)) if i not in children]))
    gltf.scene = 0
    gltf.skins.append(Skin(joints=list(skin_order if skin_order is not None else range(len(joints)))))
    for spec in animations:
        anim = Animation(name=spec.name, extras=dict(spec.extras))
        for ch in spec.channels:
            inp = accessor(np.asarray(ch.times, dtype=float).reshape(-1, 1), "SCALAR", bounds=True)
            values = np.asarray(ch.values, dtype=float)
            out = accessor(values, {3: "VEC3", 4: "VEC4"}[values.shape[1]])
            anim.samplers.append(AnimationSampler(input=inp, output=out, interpolation=ch.interpolation))
            anim.channels.append(AnimationChannel(sampler=len(anim.samplers) - 1,
                                                  target=AnimationChannelTarget(node=ch.node, path=ch.path)))
        gltf.animations.append(anim)
    if not blob:
        # pygltflib would write an empty buffer (invalid): a JSON-only GLB instead.
        text = gltf.gltf_to_json(separators=(",", ":"), indent=None).encode("utf-8")
        text += b" " * (-len(text) % 4)
        return struct.pack("<4sII", b"glTF", 2, 20 + len(text)) + struct.pack("<I4s", len(text), b"JSON") + text
    blob += bytes(-len(blob) % 4)
    gltf.buffers.append(Buffer(byteLength=len(blob)))
    gltf.set_binary_blob(bytes(blob))
    return b"".join(gltf.save_to_bytes())


def chain(n: int, length: float = 1.0) -> list[JointSpec]:
    """``n`` joints in a chain, each ``length`` above its parent (glTF Y-up)."""
    return [JointSpec(f"j{i}", i - 1, (0.0, length if i else 0.0, 0.0)) for i in range(n)]


def animation_channels(data: bytes) -> list[dict[tuple[int, str], tuple[np.ndarray, np.ndarray, str]]]:
    """Per animation of a GLB: (node, path) -> (times, values, interpolation), rotations x, y, z, w."""
    from animspec.gltf.rig import read_accessor

    gltf = GLTF2.load_from_bytes(data)
    out = []
    for anim in gltf.animations:
        channels = {}
        for ch in anim.channels:
            s = anim.samplers[ch.sampler]
            channels[(ch.target.node, ch.target.path)] = (
                read_accessor(gltf, s.input)[:, 0], read_accessor(gltf, s.output), s.interpolation
            )
        out.append(channels)
    return out


# --- tests of the helpers ------------------------------------------------------------------


def test_validator_accepts_a_hand_built_rig(tmp_path):
    data = build_glb(chain(3), [AnimSpec("a", [ChannelSpec(1, "rotation", [0, 1], [quat_xyzw((0, 0, 1), 0), quat_xyzw((0, 0, 1), 90)])])])
    report = khronos_validate(data, tmp_path)
    assert report["info"]["animationCount"] == 1


def test_validator_harness_reports_errors(tmp_path):
    """The harness must be able to fail: a non-unit rotation and decreasing key times are
    errors for the Khronos validator."""
    bad = build_glb(chain(2), [AnimSpec("bad", [ChannelSpec(1, "rotation", [1.0, 0.5], [(0, 0, 0, 2), (0, 0, 0, 1)])])])
    report = khronos_report(bad, tmp_path)
    codes = {m["code"] for m in report["issues"]["messages"] if m["severity"] == 0}
    assert report["issues"]["numErrors"] > 0
    assert "ACCESSOR_ANIMATION_INPUT_NON_INCREASING" in codes
    with pytest.raises(AssertionError, match="glTF validator errors"):
        khronos_validate(bad, tmp_path)


def test_cli_script_exit_status(tmp_path):
    """tools/gltf_validate.js exits 0 on a valid file, 1 on errors, 2 on a non-glTF file."""
    node = shutil.which("node")
    if node is None or not VALIDATOR.is_dir():
        pytest.skip("Khronos glTF validator unavailable (needs node and node_modules/gltf-validator: run `npm ci`)")
    good, bad, junk = tmp_path / "good.glb", tmp_path / "bad.glb", tmp_path / "junk.glb"
    good.write_bytes(build_glb(chain(2), [AnimSpec("g", [ChannelSpec(1, "rotation", [0.0, 0.5], [(0, 0, 0, 1)] * 2)])]))
    bad.write_bytes(build_glb(chain(2), [AnimSpec("b", [ChannelSpec(1, "rotation", [1.0, 0.5], [(0, 0, 0, 1)] * 2)])]))
    junk.write_bytes(struct.pack("<4I", 1, 2, 3, 4))
    codes = [subprocess.run([node, str(SCRIPT), str(p)], capture_output=True, text=True).returncode for p in (good, bad, junk)]
    assert codes == [0, 1, 2]
