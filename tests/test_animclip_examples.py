"""The .animclip files under examples/ are exactly what examples/make_animclip_examples.py makes,
and are what its docstring says they are."""

from __future__ import annotations

import importlib.util

from conftest import EXAMPLES, ROOT

from animspec.animclip import read_bytes, read_file
from animspec.common.hashes import crc32, read_names_file


def load_script():
    spec = importlib.util.spec_from_file_location("make_animclip_examples", EXAMPLES / "make_animclip_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_are_reproducible():
    module = load_script()
    made = module.examples()
    assert set(made) == {"walk.animclip", "wave.performanceclip", "walk_lz4.animclip", "joint_names.txt"}
    for name, data in made.items():
        assert (EXAMPLES / name).read_bytes() == data, f"examples/{name} is stale: run examples/make_animclip_examples.py"


def test_script_says_the_clips_are_synthetic():
    doc = load_script().__doc__
    assert "SYNTHETIC" in doc and "No game data" in doc


def test_examples_have_what_the_docstring_lists():
    names = read_names_file(str(EXAMPLES / "joint_names.txt"))
    walk = read_bytes((EXAMPLES / "walk.animclip").read_bytes())
    clip = walk.clip(names)
    assert walk.magic == 0xC96F58F3 and clip.name == "walk_forward"
    assert len(clip.joints) == 21 and {j.name for j in clip.joints} == set(names)
    assert clip.joints[0].hash == crc32("root") and clip.joints[1].name == "pelvis"
    assert [t.name for t in clip.custom_tracks] == ["foot_plant_l", "foot_plant_r", "camera_fov_scale"]
    assert len(clip.triggers.records) == 2 and clip.path is not None
    wave = read_bytes((EXAMPLES / "wave.performanceclip").read_bytes())
    assert wave.magic == 0x0F64FFE8 and wave.clip_name == "wave_hello"
    lz4 = (EXAMPLES / "walk_lz4.animclip").read_bytes()
    assert lz4[36:40] != b"1TAD" and b"1TAD" in lz4[37:43]
    compressed = read_bytes(lz4)
    assert compressed.layout.compression is not None and compressed == walk


def test_info_says_how_the_frames_are_coded():
    """`info` summarises the per-frame coding from the same checked inputs play decodes
    (frames.inputs.sample_inputs): frames, stored samples, stride, elements, flags."""
    from animspec.animclip.info import summary
    from animspec.animclip.frames.inputs import sample_inputs

    for path in (EXAMPLES / "walk.animclip", ROOT / "tests" / "fixtures" / "luna" / "holds.animclip"):
        model = read_file(path)
        inputs = sample_inputs(model)
        text = summary(model)
        assert (f"per-frame data: {inputs.num_frames} frame(s) from {len(inputs.samples)} stored sample(s) of "
                f"{inputs.stride} bytes") in text, text
        assert f"{len(inputs.joint)} element(s), 0 large" in text and f"{int(inputs.width.sum())} bits per sample" in text
    assert "root motion: yes" in summary(read_file(EXAMPLES / "walk.animclip"))
    broken = read_file(EXAMPLES / "walk.animclip")
    broken.built.stride = 4  # 89 bits cannot fit 32
    assert "per-frame data: cannot be decoded: " in summary(broken)
