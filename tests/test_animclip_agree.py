"""The validator and the decoder agree, and no converter writes a glTF it would refuse to read
(issue 27, items 8 and 9).

Every hostile clip is made here: examples/walk.animclip read into the model, one field changed,
written with animspec's writer. For each, ``validate`` must name the code the decoder refuses
with, and ``play`` must exit 2 naming that same code (or play works and ``validate`` is clean
of it, for what is read with a defined meaning and reported as a warning).
"""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import EXAMPLES
from pygltflib import GLTF2

from animspec.animclip import read_bytes, read_file, write_bytes
from animspec.animclip.frames.inputs import dat1_file_offset
from animspec.animclip.tags import FLAG_CAMERA, MOTION_HEADER_DTYPE, MOTION_SAMPLE_DTYPE, TAG_MOTION_DATA, TAG_SAMPLE_ELEM
from animspec.cli import main
from animspec.gltf.builder import Channel, DocumentBuilder, KeyDataError
from animspec.gltf.rig import read_accessor

WALK = EXAMPLES / "walk.animclip"
RIG = str(EXAMPLES / "biped_rig.glb")
TINY = float(np.float32(1.4e-45))


def _fps(value, duration=None):
    def edit(m):
        m.built.fps = value
        if duration is not None:
            m.built.duration = duration
    return edit


def _duration(value):
    def edit(m):
        m.built.duration = value
    return edit


def _large(code):
    """One large element (Sample Elem's second table) with ``code`` (width = low byte + 1,
    shift = high byte) on joint 1's translation x."""
    def edit(m):
        e = m.section(TAG_SAMPLE_ELEM)
        e.large_offsets = np.array([4 * (12 * 1 + 8)], "<u4")
        e.large_codes = np.array([code], "<u2")
        m.built.num_large_elems = 1
        m.built.stride += 8  # room for the field: only the width is wrong
    return edit


def _offset(value):
    def edit(m):
        e = m.section(TAG_SAMPLE_ELEM)
        e.offsets = e.offsets.copy()
        e.offsets[0] = value
    return edit


def _motion_header(name, index, value, camera=True):
    def edit(m):
        if camera:
            m.built.flags |= FLAG_CAMERA
        s = m.section(TAG_MOTION_DATA)
        data = bytearray(s.data)
        np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[name][0][index] = value
        s.data = bytes(data)
    return edit


def _motion_log_scale(value):
    def edit(m):
        s = m.section(TAG_MOTION_DATA)
        data = bytearray(s.data)
        header = np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[0]
        rows = np.frombuffer(data, MOTION_SAMPLE_DTYPE, int(header["num_samples"]),
                             MOTION_HEADER_DTYPE.itemsize + int(header["ofs_samples"]))
        rows["log_scale"][3] = value
        s.data = bytes(data)
    return edit


def _joints(value):
    """Built's joint count (+0x20) patched in the written bytes: the writer keeps it in step."""
    def edit(m):
        def patch(data):
            model = read_bytes(data)
            at = dat1_file_offset(model, model.built.offset + 0x20)
            out = bytearray(data)
            struct.pack_into("<H", out, at, value)
            return bytes(out)
        return patch
    return edit


REFUSED = {
    # name: (edit, the code validate reports and play refuses with)
    "large element of width 33": (_large(32), "sample-elem-width"),
    "width 256 shifted by 255": (_large(0xFFFF), "sample-elem-width"),
    "component offset 0x13": (_offset(0x13), "sample-elem-offset"),
    "fps 1.4e-45": (_fps(TINY), "clip-timing"),
    "fps 0, duration 1.4e-45": (_fps(0.0, TINY), "clip-timing"),
    "fps nan": (_fps(float("nan")), "clip-timing"),
    "fps inf": (_fps(float("inf")), "clip-timing"),
    "fps 3.4e38": (_fps(3.4e38), "clip-timing"),
    "fps -30": (_fps(-30.0), "clip-timing"),
    "duration nan": (_duration(float("nan")), "clip-timing"),
    "duration -1": (_duration(-1.0), "clip-timing"),
    "camera: initial translation nan": (_motion_header("initial_trans_0", 0, np.nan), "motion-not-finite"),
    "camera: initial rotation inf": (_motion_header("initial_rot_0", 1, np.inf), "motion-not-finite"),
    "initial translation -inf": (_motion_header("initial_trans_0", 2, -np.inf, camera=False), "motion-not-finite"),
    "element past the joints": (_offset(4 * 12 * 40), "sample-elem-joint"),
    "Built counts 40 joints, Base State holds 23 records": (_joints(40), "joint-count"),
}
READ_WITH_A_MEANING = {
    # name: (edit, the warning validate reports; play works)
    "motion log scale 40 (clamped to 16)": (_motion_log_scale(40), "motion-log-scale"),
    "motion log scale -3 (clamped to 0)": (_motion_log_scale(-3), "motion-log-scale"),
}


def hostile(tmp_path, edit, name="clip.animclip"):
    model = read_file(str(WALK))
    patch = edit(model)
    data = write_bytes(model)
    path = tmp_path / name
    path.write_bytes(patch(data) if patch else data)
    return path


def validate_codes(path, capsys) -> set[str]:
    capsys.readouterr()
    main(["validate", "--json", "--no-progress", "-j", "1", str(path)])
    report = json.loads(capsys.readouterr().out)
    return {f["code"] for f in report[0]["findings"]}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_play_refuses_validate_reports_with_the_same_code(tmp_path, capsys, case):
    edit, code = REFUSED[case]
    path = hostile(tmp_path, edit)
    assert code in validate_codes(path, capsys)
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{code}:" in err and str(path) in err and "Traceback" not in err
    out = tmp_path / "out.glb"
    assert main(["convert", str(path), "--skeleton", RIG, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{code}:" in err and "Traceback" not in err
    assert not out.exists()


CAMERA_WITHOUT_A_PATH = {
    # name: the Motion Data header's edit; convert refuses (no camera path), play shows the joints
    "motion type 1": ("motion_type", 1),
    "a secondary stream": ("flags", 0x06),
    "no motion flag": ("flags", 0),
    "no samples": ("num_samples", 0),
}


@pytest.mark.parametrize("case", sorted(CAMERA_WITHOUT_A_PATH))
def test_a_camera_clip_convert_cannot_write_is_a_finding(tmp_path, capsys, case):
    field, value = CAMERA_WITHOUT_A_PATH[case]

    def edit(m):
        m.built.flags |= FLAG_CAMERA
        s = m.section(TAG_MOTION_DATA)
        data = bytearray(s.data)
        np.frombuffer(data, MOTION_HEADER_DTYPE, 1)[field][0] = value
        s.data = bytes(data) + bytes(16 * 32)  # (room for type 1's samples: only the type is undescribed)
    path = hostile(tmp_path, edit)
    assert "camera-no-path" in validate_codes(path, capsys)
    out = tmp_path / "camera.glb"
    assert main(["convert", str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "camera-no-path:" in err and str(path) in err and "Traceback" not in err
    assert not out.exists()
    assert main(["play", str(path)]) == 0


@pytest.mark.parametrize("case", sorted(READ_WITH_A_MEANING))
def test_what_play_reads_with_a_meaning_validate_reports(tmp_path, capsys, case):
    edit, code = READ_WITH_A_MEANING[case]
    path = hostile(tmp_path, edit)
    assert code in validate_codes(path, capsys)
    assert main(["play", str(path)]) == 0


def test_the_example_plays_and_validates_clean(capsys):
    assert validate_codes(WALK, capsys) == set()
    assert main(["play", str(WALK)]) == 0


def test_the_decoder_has_no_refusal_the_validator_lacks():
    """Every code the decoder refuses with is one the validator can report: both read
    frames.inputs.sample_problems / motion_problems; the list of codes in REFUSED covers each kind."""
    from animspec.animclip.frames import inputs as views

    text = open(views.__file__, encoding="utf-8").read()
    raised = set(re.findall(r'SampleProblem\(\s*"([a-z0-9-]+)",\s*"error"', text))
    tested = {code for _edit, code in REFUSED.values()} | {"camera-no-path"}  # (CAMERA_WITHOUT_A_PATH)
    # Built on purpose elsewhere (tests/test_animclip_samples.py, test_animclip_msm2.py, test_costly_inputs.py):
    elsewhere = {"sample-stride", "sample-bits-over-stride", "frame-lookup-size", "frame-lookup-range",
                 "sample-data-size", "decode-size", "sample-elem-past-end", "motion-data-size"}
    assert raised - tested - elsewhere == set(), "a refusal with no hostile clip in this table"


# ---------------------------------------------------------------------------- item 8: what we write


def test_a_camera_clip_with_nan_motion_is_refused_before_any_file(tmp_path):
    src = hostile(tmp_path, _motion_header("initial_trans_0", 0, np.nan))
    out = tmp_path / "camera.glb"
    r = subprocess.run([sys.executable, "-m", "animspec", "convert", str(src), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "Warning" not in r.stderr
    assert str(src) in r.stderr and "motion_data.initial_trans_0" in r.stderr and "not finite" in r.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [src]


def _builder_with_node():
    from pygltflib import Node

    builder = DocumentBuilder()
    builder.gltf.nodes.append(Node(name="cam"))
    return builder


@pytest.mark.parametrize("times, values, path, expect", [
    ([0.0, 1 / 30, 2 / 30], [[0, 0, 0], [np.nan, 0, 0], [0, 0, 0]], "translation",
     "Motion Data sample 1 is not finite (translation x = nan)"),
    ([0.0, 1e-46, 2e-46], [[0, 0, 0]] * 3, "translation", "Motion Data sample 1 is at 0.0 s, not after"),
    ([0.0, 7e44, 1.4e45], [[0, 0, 0]] * 3, "translation", "Motion Data sample 1 has a time that is not finite"),
    ([0.0, 1.0], [[1, 0, 0, 0], [np.nan, 0, 0, 1]], "rotation", "Motion Data sample 1 is not finite (rotation w = nan)"),
    ([0.0, 1.0], [[0, 0, 0], [1e39, 0, 0]], "scale", "Motion Data sample 1 is not finite (scale x = inf)"),
    ([-1.0, 1.0], [[0, 0, 0]] * 2, "translation", "Motion Data sample 0 has a negative time"),
])
def test_the_builder_refuses_keys_gltf_cannot_hold_and_adds_nothing(times, values, path, expect):
    builder = _builder_with_node()
    good = Channel(0, "translation", np.array([0.0, 1.0]), np.zeros((2, 3)), "LINEAR")
    builder.animation("fine", [good])
    before = (bytes(builder.blob), len(builder.gltf.accessors), len(builder.gltf.bufferViews))
    bad = Channel(0, path, np.array(times), np.array(values, float), "LINEAR", "Motion Data sample")
    with pytest.raises(KeyDataError) as caught:
        builder.animation("clip", [good, bad])
    assert expect in str(caught.value) and "'cam'" in str(caught.value)
    assert caught.value.key == int(expect.split("sample ")[1].split()[0]) and caught.value.path == path
    assert (bytes(builder.blob), len(builder.gltf.accessors), len(builder.gltf.bufferViews)) == before
    assert len(builder.gltf.animations) == 1


def test_a_clip_animation_with_a_nan_frame_names_the_frame():
    from animspec.gltf import ClipAnimation, animclip_to_gltf
    from animspec.common.hashes import crc32

    rig = GLTF2().load(RIG)
    name = next(n.name for n in rig.nodes if n.name)
    frames = 4
    rotation = np.tile([0.0, 0.0, 0.0, 1.0], (frames, 1, 1))
    translation = np.zeros((frames, 1, 3))
    translation[2, 0, 1] = np.inf
    clip = ClipAnimation(np.array([crc32(name)], np.uint32), np.arange(frames) / 30, rotation, translation,
                         np.ones((frames, 1, 3)))
    with pytest.raises(KeyDataError, match=r"frame 2 is not finite \(translation y = inf\)"):
        animclip_to_gltf(clip, RIG)


def _written(tmp_path, args):
    out = tmp_path / "out.glb"
    assert main(["convert", *args, "-o", str(out), "--force"]) == 0
    return GLTF2().load(str(out))


CONVERSIONS = {
    "swing on a chain": [str(EXAMPLES / "swing.animbin")],
    "swing baked": [str(EXAMPLES / "swing.animbin"), "--bake-engine"],
    "sparse on the pendulum": [str(EXAMPLES / "sparse.animbin"), "--skeleton", str(EXAMPLES / "pendulum.meshbin")],
    "swing on the pendulum rig": [str(EXAMPLES / "swing.animbin"), "--skeleton", str(EXAMPLES / "pendulum_rig.glb")],
    "walk on the biped": [str(WALK), "--skeleton", RIG],
    "walk_lz4 on the biped": [str(EXAMPLES / "walk_lz4.animclip"), "--skeleton", RIG],
}


@pytest.mark.parametrize("case", sorted(CONVERSIONS) + ["walk as a camera"])
def test_every_glb_we_write_has_finite_keys_at_increasing_times(tmp_path, case):
    if case == "walk as a camera":
        args = [str(hostile(tmp_path, lambda m: setattr(m.built, "flags", m.built.flags | FLAG_CAMERA)))]
    else:
        args = CONVERSIONS[case]
    gltf = _written(tmp_path, args)
    blob = {0: gltf.binary_blob()}
    assert gltf.animations
    for animation in gltf.animations:
        for sampler in animation.samplers:
            times = read_accessor(gltf, sampler.input, blob)[:, 0].astype(np.float32)
            values = read_accessor(gltf, sampler.output, blob).astype(np.float32)
            assert np.isfinite(times).all() and (times >= 0).all()
            assert (np.diff(times) > 0).all(), f"{animation.name}: times do not strictly increase"
            assert np.isfinite(values).all(), f"{animation.name}: a value is not finite"


@pytest.mark.parametrize("fps", ["1e-300", "1e-5"])
def test_an_animclip_we_would_refuse_to_play_is_not_written(tmp_path, capsys, fps):
    """glTF -> .animclip: a clip play would refuse is never written (fps 1e-300 would be stored
    as 0; 1e-5 is below the playable range). The option's range refuses both first, naming
    --fps; the read-back check behind it is held by the next test."""
    glb = _written(tmp_path, [str(WALK), "--skeleton", RIG])
    src = tmp_path / "walk.glb"
    glb.save_binary(str(src))
    out = tmp_path / "back.animclip"
    capsys.readouterr()
    try:
        code = main(["convert", str(src), "-o", str(out), "--fps", fps])
    except SystemExit as exit_:  # (the parser's refusal)
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--fps" in err
    assert not out.exists()


def test_the_read_back_check_refuses_a_clip_play_would_refuse(tmp_path, monkeypatch):
    """The net behind the option ranges: with them lifted, fps 1e-5 (below the playable range)
    still gives no file, and the refusal names the clip that would have been written."""
    import animspec.convert as convert_module
    import animspec.convert.options as convert_options
    import animspec.gltf.to_animclip as to_animclip_module
    from animspec.common.errors import AnimspecError
    from animspec.common.ranges import NumberRange

    glb = _written(tmp_path, [str(WALK), "--skeleton", RIG])
    src = tmp_path / "walk.glb"
    glb.save_binary(str(src))
    out = tmp_path / "back.animclip"
    monkeypatch.setattr(convert_options, "option_ranges", lambda: {})
    monkeypatch.setattr(to_animclip_module, "FPS", NumberRange("fps", 0.0, 1e9, "frames per second"))
    with pytest.raises(AnimspecError) as refused:
        convert_module.convert_file(str(src), str(out), convert_module.ConvertOptions(fps=1e-5))
    assert "clip-timing" in str(refused.value) and str(out) in str(refused.value)
    assert not out.exists()


@pytest.mark.parametrize("field, value", [("stride", 0), ("stride", 6), ("fps", float("nan"))])
def test_a_refusal_on_a_built_field_names_that_fields_byte(tmp_path, capsys, field, value):
    """Every refusal of a Built field names the file byte where the field starts (the
    adversarial pass found sample-bits-over-stride saying 'unknown offset'), from Built's one
    layout (sections.built.BUILT_FIELD_OFFSETS, taken from its BUILT_DTYPE)."""
    from animspec.animclip.sections.built import BUILT_FIELD_OFFSETS

    data = bytearray(WALK.read_bytes())
    model = read_bytes(bytes(data))
    at = dat1_file_offset(model, model.built.offset + BUILT_FIELD_OFFSETS[field])
    struct.pack_into("<f" if field == "fps" else "<I", data, at, value)
    path = tmp_path / "w.animclip"
    path.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["play", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"byte {at} (0x{at:x}), field built.{field}:" in err, err
    assert "unknown offset" not in err


def test_built_field_offsets_are_the_specs():
    from animspec.animclip.sections.built import BUILT_FIELD_OFFSETS

    # ksy/animclip.ksy's built seq (spec 7.1): the fields the refusals name
    assert {k: BUILT_FIELD_OFFSETS[k] for k in ("flags", "fps", "duration", "num_frames", "stride",
                                                 "num_unique_samples", "resident_fps", "num_large_elems")} == {
        "flags": 0x08, "fps": 0x0C, "duration": 0x10, "num_frames": 0x22, "stride": 0x28,
        "num_unique_samples": 0x30, "resident_fps": 0x40, "num_large_elems": 0x44}
