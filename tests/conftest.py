"""Shared helpers for the tests.

ANIMBIN fixtures here are assembled with ``struct`` straight from the layout the engine reads
(Forceh91/psyqo-madnight-engine, src/animation/animation_manager.cpp), independently of
animspec's writer, so the parser
is not tested only against its own twin.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def tool_module(name: str):
    """``tools/<name>.py`` imported by its path, as ``tool_<name>``: tools/ is not a package,
    and putting it on sys.path would let its modules stand for tests' own (``tools/fuzz.py``
    for the ``tests/fuzz`` package). A tool that changes sys.path as it is imported (to reach
    bench/ or the other tools, or to drop its own folder) does so for itself: the tests' path
    is put back as it was."""
    import importlib.util
    import sys

    key = f"tool_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, ROOT / "tools" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module  # (dataclasses look their module up)
        path = list(sys.path)
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path[:] = path
    return sys.modules[key]


def name32(text: bytes, tail: bytes = b"") -> bytes:
    """A 32-byte name field: text, NUL, optional tail, zero padding (no NUL when 32 long)."""
    if len(text) == 32:
        return text
    field = text + b"\0" + tail
    return field + bytes(32 - len(field))


def header(num_animations: int, version: int = 1) -> bytes:
    return b"ANIMBIN" + struct.pack("<BB", version, num_animations)


def anim_header(name: bytes, flags: int, length: int, num_tracks: int, num_markers: int, tail: bytes = b"") -> bytes:
    return name32(name, tail) + struct.pack("<IHHH", flags, length, num_tracks, num_markers)


def track_header(track_type: int, joint_id: int, num_keys: int) -> bytes:
    return struct.pack("<BBH", track_type, joint_id, num_keys)


def rot_key(frame: int, w: int, x: int, y: int, z: int) -> bytes:
    return struct.pack("<HBhhhh", frame, 0, w, x, y, z)


def trans_key(frame: int, x: int, y: int, z: int) -> bytes:
    return struct.pack("<HBiii", frame, 1, x, y, z)


def raw_key(frame: int, key_type: int) -> bytes:
    """A key with a key type the engine does not know: no payload follows."""
    return struct.pack("<HB", frame, key_type)


def marker(name: bytes, frame: int) -> bytes:
    return name32(name) + struct.pack("<H", frame)


def one_clip(keys: list[bytes], *, length: int = 10, joint: int = 0, flags: int = 1, name: bytes = b"clip") -> bytes:
    """A file with one animation and one track holding ``keys``."""
    return header(1) + anim_header(name, flags, length, 1, 0) + track_header(0, joint, len(keys)) + b"".join(keys)


@pytest.fixture
def swing_bytes() -> bytes:
    return (EXAMPLES / "swing.animbin").read_bytes()


class Acceptance:
    """Counts the inputs a property test's reader accepted and refused.

    A property test that returns early on ParseError would also pass if the reader refused
    every input. Run the hypothesis function inside a plain test, count with
    :meth:`read` (or :meth:`accepted` / :meth:`refused`), then :meth:`check` that a minimum share got through
    (each minimum is set well below the share measured when it was written)."""

    def __init__(self) -> None:
        self.counts = {"accepted": 0, "refused": 0}

    def accepted(self) -> None:
        self.counts["accepted"] += 1

    def refused(self) -> None:
        self.counts["refused"] += 1

    def read(self, reader, data: bytes):
        """``reader(data)``, counted: the model, or None (counted as refused) on ParseError."""
        from animspec.common.errors import ParseError

        try:
            model = reader(data)
        except ParseError:
            self.refused()
            return None
        self.accepted()
        return model

    def check(self, minimum_share: float) -> None:
        total = sum(self.counts.values())
        share = self.counts["accepted"] / total if total else 0.0
        assert total and share >= minimum_share, f"{self.counts}: only {share:.0%} accepted, expected {minimum_share:.0%} or more"
