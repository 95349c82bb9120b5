"""Issue 8's fast paths, checked for what they compute and what they allocate (no timing):

* the .animclip loader reads bulk tables from the spec's raw fields with numpy: it must give
  the generated parser's own typed views (the reference) on every example and on
  property-based files, never evaluate those views itself, and copy a big payload once
  (issue 15: extra memory at most 1.5x the file);
* bench/run.py runs (``--quick``) and its bare numpy reads agree with the loaders.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tracemalloc

import lz4.block
import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, Acceptance
from hypothesis import HealthCheck, given, settings
from test_animclip_roundtrip import dat1_images, models

from animspec.animclip import read_bytes, write_bytes
from animspec.animclip.tags import TAG_SAMPLE_DATA
from animspec.animclip.model import BaseState, CustomTrackData, CustomTracks, JointHashes, Path, RawSection, SampleElem, TriggerData
from animspec.common.errors import ParseError
from animspec.generated.animclip import Animclip
from animspec.kaitai_read import parse

sys.path.insert(0, str(ROOT / "bench"))
import run as bench  # noqa: E402  (bench/run.py)

BULK_VIEWS = ("words", "halfwords", "floats", "joints", "things", "values", "hashes", "records", "entries",
              "elems", "large_elems", "lookup", "samples", "full_samples", "markers")
"""Lazy typed instances of the spec's section types (per-element objects)."""


def f32s(values) -> np.ndarray:
    with np.errstate(invalid="ignore"):  # a signalling NaN becomes quiet: the same NaN position
        return np.asarray(values, dtype=np.float64)


def agree_with_typed_views(data: bytes) -> bool:
    """Every section of the loader's model equals the generated parser's typed reading;
    False when the loader refuses ``data`` (a ParseError), True when it read and agreed."""
    try:
        model = read_bytes(data)
    except ParseError:
        return False
    root = parse(Animclip, data)
    if not root.is_lz4_compressed:
        dat1 = root.dat1
    else:
        dat1 = parse(Animclip.Dat1, lz4.block.decompress(bytes(root.lz4_body), uncompressed_size=root.lz4_len_decompressed))
    for entry, section in zip(dat1.sections, model.sections):
        body = entry.body
        if isinstance(section, BaseState):
            typed = [tuple(getattr(j, k) for k in section.joints.dtype.names) for j in body.joints]
            assert typed == section.joints.tolist()
            assert b"".join(t.raw if hasattr(t, "raw") else b"" for t in body.things) in (b"", section.things)
            assert len(body.things) * 32 == len(section.things)
        elif isinstance(section, JointHashes):
            assert body.hashes == section.hashes.tolist()
        elif isinstance(section, CustomTracks):
            names = ("name_hash", "ofs_name", "zero_08", "zero_0c", "ofs_data", "unk_14", "zero_18", "zero_1c", "num_values", "zero_24")
            assert [[getattr(e, k) for k in names] for e in body.entries] == [list(vars(e).values()) for e in section.entries]
        elif isinstance(section, CustomTrackData):
            np.testing.assert_array_equal(f32s(body.values), f32s(section.values))  # NaN-aware
        elif isinstance(section, SampleElem):
            assert [(e.ofs_component, e.code) for e in body.elems] == list(zip(section.offsets.tolist(), section.codes.tolist()))
            assert [(e.ofs_component, e.code) for e in body.large_elems] == list(zip(section.large_offsets.tolist(), section.large_codes.tolist()))
        elif isinstance(section, TriggerData):
            assert [tuple(getattr(r, k) for k in "abcde") for r in body.records] == [tuple(vars(r).values()) for r in section.records]
        elif isinstance(section, Path):
            np.testing.assert_array_equal(f32s(body.start_matrix.m + body.end_matrix.m),
                                          f32s(np.concatenate([section.start_matrix.ravel(), section.end_matrix.ravel()])))
        elif isinstance(section, RawSection) and hasattr(body, "words"):
            n = len(section.data) // 4
            assert body.words == np.frombuffer(section.data, "<u4", n).tolist()
    return True


@pytest.mark.parametrize("name", ["walk.animclip", "walk_lz4.animclip", "wave.performanceclip"])
def test_examples_agree_with_the_typed_views(name):
    assert agree_with_typed_views((EXAMPLES / name).read_bytes())


def test_bench_clip_agrees_with_the_typed_views():
    assert agree_with_typed_views(bench.synthetic_animclip(40_000))


@given(models())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_written_models_agree_with_the_typed_views(model):
    assert agree_with_typed_views(write_bytes(model))


def test_random_images_agree_with_the_typed_views():
    tally = Acceptance()

    @given(dat1_images())
    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    def check(data):
        (tally.accepted if agree_with_typed_views(data) else tally.refused)()

    check()
    tally.check(0.05)  # about 23% were accepted when this was written


def test_the_loader_never_evaluates_a_lazy_typed_view(monkeypatch):
    def forbidden(self):
        raise AssertionError(f"{type(self).__name__}: the loader evaluated a per-element view")

    guarded = []
    for cls in vars(Animclip).values():
        if isinstance(cls, type):
            for name in BULK_VIEWS:
                if isinstance(vars(cls).get(name), property):
                    monkeypatch.setattr(cls, name, property(forbidden))
                    guarded.append(f"{cls.__name__}.{name}")
    assert {"SampleData.words", "BaseState.joints", "CustomTrackData.values", "SampleElem.elems", "SampleElem.large_elems"} <= set(guarded)
    for data in [bench.synthetic_animclip(2**18)] + [(EXAMPLES / n).read_bytes() for n in ("walk.animclip", "walk_lz4.animclip", "wave.performanceclip")]:
        read_bytes(data)


def test_a_big_payload_is_copied_once():
    """Issue 15: extra memory at most 1.5x the file. The loader copies each payload once out
    of the file's bytes (no substreams, no re-serialised copy, no per-element objects)."""
    data = bench.synthetic_animclip(8 * 2**20)
    read_bytes(data)  # imports and caches outside the measurement
    tracemalloc.start()
    model = read_bytes(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(model.section(TAG_SAMPLE_DATA).data) > 7 * 2**20
    assert peak < 1.5 * len(data), f"peak {peak / 2**20:.1f} MB for a {len(data) / 2**20:.1f} MB file"


def test_numpy_reads_in_the_bench_agree_with_the_loaders():
    data = bench.largest_animbin()
    arrays = bench.numpy_animbin(data)
    assert len(arrays) == 5 and arrays[0][1].shape == (50,) and arrays[0][1]["keys"].shape == (50, 30)
    assert struct.unpack_from("<H", data, 9 + 38)[0] == 50  # num_tracks of animation 0
    bench.check_animclip(bench.synthetic_animclip(2**18))


def test_the_benchs_struct_reader_reads_every_example_as_the_loader_does():
    from animspec import animbin

    for path in sorted(EXAMPLES.glob("*.animbin")):
        data = path.read_bytes()
        model = animbin.read_bytes(data)
        plain = bench.struct_animbin(data)
        assert [(a[0].split(b"\0")[0], a[1], a[2]) for a in plain] == \
            [(m.name.text, m.flags, m.length) for m in model.animations]
        assert [[(t[0], t[1], [(f, kt, v) for f, kt, v in t[2]]) for t in a[3]] for a in plain] == [
            [(t.track_type, t.joint_id, [(k.frame, int(k.key_type), getattr(k, "quaternion", getattr(k, "vector", None)))
                                         for k in t.keys]) for t in m.tracks] for m in model.animations]
    data = bench.largest_animbin()
    assert len(bench.struct_animbin(data)) == 5


def test_bench_runs_quick():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--quick"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for text in ("generated, debug build, eager", "generated, release build, eager", "hand-written struct loop",
                 "numpy (bare read", "play_engine", "run_batch, 1 job", "python -c \"import numpy\"",
                 "animspec validate swing.animbin", "load average at the end", "targets (issue 15",
                 "Codec on motion capture (issue 30.4)"):
        assert text in r.stdout


def test_bench_runs_one_part():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--only", "animbin"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "loader, then every key as a RotationKey" in r.stdout and "loader + validate" in r.stdout
    assert "run_batch" not in r.stdout and "play_engine" not in r.stdout and ".animclip" not in r.stdout
