"""The bulk .animclip reader (animclip/fastread.py, issue 15) against the generated parser.

The fast reader must give the generated parser's model and layout for every file that
parser accepts, and accept nothing it refuses (it leaves those to the generated parser,
which words the error): checked on the examples, on written models, on random DAT1
images (plain and LZ4-compressed) and on the bench's clip. A load records its layout
from the bytes it read, without serialising anything, and a valid file never imports the
debug-mode generated parser.
"""

from __future__ import annotations

import struct
import subprocess
import sys

import lz4.block
import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, Acceptance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_animclip_roundtrip import dat1_images, models

from animspec.animclip import AnimclipFile, BaseState, Built, JointHashes, adapt, fastread, read_bytes, write_bytes
from animspec.animclip import write as animclip_write
from animspec.animclip.compression import is_compressed
from animspec.animclip.placement import content_digest
from animspec.animclip.sections import TYPED_SECTIONS, RawSection
from animspec.animclip.sections.base_state import JOINT_DTYPE
from animspec.animclip.tags import TAG_BASE_STATE
from animspec.common.errors import ParseError

SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
EXAMPLE_CLIPS = ["walk.animclip", "walk_lz4.animclip", "wave.performanceclip"]


def same_reading(data: bytes) -> bool:
    """Both readers give the same model and layout, or the fast one declines exactly what
    the generated one refuses. True when the file was accepted."""
    fast = fastread.read(data)
    try:
        reference = adapt.read(data)
    except ParseError:
        assert fast is None, "the fast reader accepted a file the generated parser refuses"
        return False
    assert fast is not None, "the fast reader declined a file the generated parser reads"
    assert fast == reference
    assert fast.layout == reference.layout  # offsets, sizes, gaps, digest, verbatim payloads, LZ4 block
    assert [s.offset for s in fast.sections] == [s.offset for s in reference.sections]
    assert [type(s) for s in fast.sections] == [type(s) for s in reference.sections]
    return True


def lz4_file(plain: bytes) -> bytes | None:
    """``plain`` with its DAT1 as one LZ4 block (both size fields telling the decompressed
    size, so the block decodes), when the block starts as ALERT's rule needs."""
    dat1 = bytearray(plain[36:])
    struct.pack_into("<I", dat1, 8, len(dat1))
    body = lz4.block.compress(bytes(dat1), store_size=False)
    return plain[:4] + struct.pack("<I", len(dat1)) + plain[8:36] + body if is_compressed(body[:7]) else None


@pytest.mark.parametrize("name", EXAMPLE_CLIPS)
def test_examples_read_alike(name):
    data = (EXAMPLES / name).read_bytes()
    assert same_reading(data)
    assert write_bytes(read_bytes(data)) == data


def test_the_bench_clip_reads_alike():
    sys.path.insert(0, str(ROOT / "bench"))
    import run as bench  # noqa: E402  (bench/run.py)

    assert same_reading(bench.synthetic_animclip(300_000))


@given(models())
@SLOW
def test_written_models_read_alike(model):
    assert same_reading(write_bytes(model))


def test_random_images_read_alike_plain_and_compressed():
    tally = Acceptance()
    compressed = []  # accepted images that compress as ALERT's rule needs

    @given(dat1_images())
    @SLOW
    def check(data):
        accepted = same_reading(data)
        (tally.accepted if accepted else tally.refused)()
        packed = lz4_file(data)
        if packed is not None:
            assert same_reading(packed) == accepted  # the same DAT1, compressed: read alike, or refused alike
            if accepted:
                compressed.append(packed)

    check()
    tally.check(0.03)  # 9% to 19% of these images are accepted
    assert len(compressed) >= 3, f"only {len(compressed)} accepted images compressed"  # 19 to 58 of 200 when written


@pytest.mark.parametrize("cut", [0, 35, 36, 42, 43, 51, 52, 100, -1])
def test_cut_files_are_left_to_the_generated_parser(cut):
    data = (EXAMPLES / "walk.animclip").read_bytes()
    data = data[:cut] if cut >= 0 else data[:-1]
    assert not same_reading(data)
    with pytest.raises(ParseError) as info:
        read_bytes(data)
    assert info.value.field  # the generated parser named the field


def test_a_load_serialises_nothing(monkeypatch):
    """Issue 15: the layout comes from the bytes read; the writer is not asked."""

    def forbidden(*args, **kwargs):
        raise AssertionError("the loader serialised a section")

    for cls in [*TYPED_SECTIONS.values(), RawSection]:  # every section type's writer
        monkeypatch.setattr(cls, "payload", forbidden)
    monkeypatch.setattr(animclip_write, "section_payload", forbidden)
    monkeypatch.setattr(animclip_write, "payloads", forbidden)
    for name in EXAMPLE_CLIPS:
        read_bytes((EXAMPLES / name).read_bytes())


@given(models())
@SLOW
def test_the_recorded_digest_is_the_writers(model):
    """What a load records as "the payloads the writer gives" is what the writer gives, so
    an unedited model is recognised as such (and written back exactly)."""
    data = write_bytes(model)
    again = read_bytes(data)
    assert again.layout.digest() == content_digest(again, animclip_write.payloads(again))


def test_signalling_nans_in_f32_fields_are_kept_verbatim():
    model = read_bytes((EXAMPLES / "walk.animclip").read_bytes())
    built = model.built
    assert built is not None
    i = model.sections.index(built)
    data = bytearray(write_bytes(model))
    at = 36 + built.offset + 0x0C
    struct.pack_into("<I", data, at, 0x7F800001)  # fps: a signalling NaN
    data = bytes(data)
    again = read_bytes(data)
    assert same_reading(data)
    assert again.layout.verbatim == {i: data[36 + built.offset : 36 + built.offset + 96]}
    assert write_bytes(again) == data


def test_a_valid_file_never_imports_the_generated_parser():
    code = (
        "import sys\n"
        "from animspec.animclip import read_file, write_bytes\n"
        "from animspec.animclip.validate import validate\n"
        f"for name in {EXAMPLE_CLIPS!r}:\n"
        f"    m = read_file({str(EXAMPLES)!r} + '/' + name)\n"
        "    validate(m); write_bytes(m)\n"
        "print(sorted(n for n in sys.modules if n.startswith('animspec.generated') or n.startswith('kaitaistruct')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_base_state_is_split_by_the_last_built():
    """Two Built sections saying different J and T, and a Base State with more bytes after
    its things than one more thing: the split is the last Built's (ksy dat1.idx_built)."""
    joints = np.zeros(3, JOINT_DTYPE)
    joints["qw"] = 32767
    model = AnimclipFile(sections=[
        Built(num_joints=1, num_base_state_things=0),
        Built(),  # the one that counts: J and T derived from Base State
        BaseState(joints=joints, things=bytes(range(64)), extra=bytes(40)),
        JointHashes(np.array([1, 2, 3, 0xFFFFFFFF], "<u4")),
    ])
    data = write_bytes(model)
    assert same_reading(data)
    base = read_bytes(data).section(TAG_BASE_STATE)
    assert (len(base.joints), len(base.things), len(base.extra)) == (3, 64, 40)


def test_opaque_payloads_are_views_into_the_files_bytes_and_still_pickle_copy_and_write():
    """Issue 22.6: Sample Data (and every RawSection) is not copied out of the file's bytes;
    a model holding such views pickles (batch workers), deep-copies (templates), writes back
    byte for byte and dumps to JSON like one holding bytes."""
    import copy
    import pickle

    from animspec.animclip import RawSection
    from animspec.animclip.jsonio import to_json

    data = (EXAMPLES / "walk.animclip").read_bytes()
    model = read_bytes(data)
    raw = [s for s in model.sections if isinstance(s, RawSection)]
    assert raw
    for s in raw:
        assert np.shares_memory(np.frombuffer(s.data, np.uint8), np.frombuffer(data, np.uint8))
    assert pickle.loads(pickle.dumps(model.sections)) == model.sections
    copied = copy.deepcopy(model)
    assert copied == model and write_bytes(copied) == data
    assert write_bytes(model) == data
    assert to_json(model) == to_json(read_bytes(data, fast=False))
