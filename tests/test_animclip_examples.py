"""The .animclip files under examples/ are exactly what examples/make_animclip_examples.py makes,
and are what its docstring says they are."""

from __future__ import annotations

import importlib.util

from conftest import EXAMPLES

from animspec.animclip import read_bytes
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
