"""Build the sample .animclip / .performanceclip files under examples/ with animspec's own writer.

THESE FILES ARE SYNTHETIC. No game data was used: every number below is made up to exercise
the layout ALERT documents (Tkachov/ALERT, dat1lib/types/dat1.py and
dat1lib/types/sections/animclip/autogen.py), not taken from a
real clip. The joint names only look like a typical biped rig's; their hashes are the DAT1
CRC32 of those names. Run ``python examples/make_animclip_examples.py`` to regenerate them;
tests/test_animclip_examples.py checks the committed files equal what this script makes.

walk.animclip
    Marvel's Spider-Man magic (C96F58F3). A 21-joint biped (root, pelvis, spine_01 ... foot_r)
    plus the FFFFFFFF terminator in Joint Hashes; a Base State pose (J = 21 records, T = 1
    thing); three custom tracks of 31 values (foot_plant_l, foot_plant_r, camera_fov_scale);
    Trigger Data with one empty serialized object and two footstep records; Trigger Joint
    Names; Path (identity start, end moved 1.4 along Z); and a real animation of 31 frames:
    Sample Elem, Sample Data and Motion Data coded as Pcniado/luna_engine_io_tools
    (anim_import.py, motion.py) reads them (:func:`walk_motion`). Y-up in metres, facing +Z,
    like the game's clips: one walk cycle, the arms hanging and swinging opposite to the
    legs, both about the lateral axis, the pelvis bobbing, the root travelling 1.4 m forward
    (+Z). tests/test_examples_look_right.py checks that it looks it, frame by frame.
wave.performanceclip
    Ratchet & Clank: Rift Apart magic (0F64FFE8). An 8-joint upper body of the same biped,
    one custom track, a Morph Info / Morph Frame Data pair (opaque bytes), and 46 frames
    coded as walk's are: the right arm raised over the head, its forearm waving from side
    to side three times. Same sections as an .animclip: the extension is the only
    difference.
walk_lz4.animclip
    walk.animclip with its DAT1 body compressed as one raw LZ4 block (ALERT's
    dat1lib/decompression.py), as
    some game files are stored. animspec reads it; unedited it is written back compressed,
    edited it is written uncompressed.
joint_names.txt
    The joint names used above, one per line, for ``--joint-names``.
"""

from __future__ import annotations

import dataclasses
import math
import struct
import sys
from pathlib import Path as FilePath

import lz4.block
import numpy as np

from animspec.animclip import (
    AnimclipFile,
    BaseState,
    Built,
    CustomTrackData,
    CustomTrackEntry,
    CustomTracks,
    JointHashes,
    Path,
    RawSection,
    SampleElem,
    TriggerData,
    TriggerJointNames,
    TriggerRecord,
    write_bytes,
)
from animspec.animclip.sections.base_state import JOINT_DTYPE
from animspec.animclip.tags import (
    MAGIC_MSMR_MM,
    MAGIC_RCRA,
    TAG_MORPH_FRAME_DATA,
    TAG_MORPH_INFO,
    TAG_MOTION_DATA,
    TAG_SAMPLE_DATA,
    TERMINATOR_HASH,
)
from animspec.common.atomic import write_atomic
from animspec.common.hashes import crc32

HERE = FilePath(__file__).resolve().parent

# name, parent, local offset (metres), rotation axis, angle (degrees): a made-up biped in the
# game's axes (docs/axes.md): +Y up, facing +Z, so its left is +X and the lateral axis is X.
# Arms hang from the shoulders, legs stand under the hips. For a joint that swings in the
# walk, the angle is the start of its swing (see SWINGS); about +X, a negative angle takes a
# hanging bone forward (towards +Z), a positive one back.
BIPED = [
    ("root", None, (0.0, 0.0, 0.0), (0, 1, 0), 0),
    ("pelvis", "root", (0.0, 0.95, 0.0), (0, 1, 0), 3),
    ("spine_01", "pelvis", (0.0, 0.12, 0.0), (1, 0, 0), 3),
    ("spine_02", "spine_01", (0.0, 0.14, 0.0), (1, 0, 0), 2),
    ("spine_03", "spine_02", (0.0, 0.14, 0.0), (1, 0, 0), -2),
    ("neck_01", "spine_03", (0.0, 0.16, 0.0), (1, 0, 0), -4),
    ("head", "neck_01", (0.0, 0.10, 0.0), (1, 0, 0), 3),
    ("clavicle_l", "spine_03", (0.06, 0.12, -0.02), (0, 0, 1), 5),
    ("upperarm_l", "clavicle_l", (0.16, 0.0, 0.0), (1, 0, 0), -20),
    ("lowerarm_l", "upperarm_l", (0.0, -0.28, 0.0), (1, 0, 0), -25),
    ("hand_l", "lowerarm_l", (0.0, -0.26, 0.0), (0, 1, 0), 5),
    ("clavicle_r", "spine_03", (-0.06, 0.12, -0.02), (0, 0, 1), -5),
    ("upperarm_r", "clavicle_r", (-0.16, 0.0, 0.0), (1, 0, 0), -20),
    ("lowerarm_r", "upperarm_r", (0.0, -0.28, 0.0), (1, 0, 0), -25),
    ("hand_r", "lowerarm_r", (0.0, -0.26, 0.0), (0, 1, 0), -5),
    ("thigh_l", "pelvis", (0.1, -0.05, 0.0), (1, 0, 0), -25),
    ("calf_l", "thigh_l", (0.0, -0.45, 0.0), (1, 0, 0), 5),
    ("foot_l", "calf_l", (0.0, -0.40, 0.0), (1, 0, 0), -5),
    ("thigh_r", "pelvis", (-0.1, -0.05, 0.0), (1, 0, 0), -25),
    ("calf_r", "thigh_r", (0.0, -0.45, 0.0), (1, 0, 0), 5),
    ("foot_r", "calf_r", (0.0, -0.40, 0.0), (1, 0, 0), -5),
]
UPPER_BODY = ["root", "pelvis", "spine_01", "neck_01", "head", "upperarm_r", "lowerarm_r", "hand_r"]
TRANSLATION_EXPONENT = 12
"""log_scale2: translations in 1/4096 m, so +-8 m fit an i16 (ALERT's animclip_to_gltf.py
divides by 2**E15)."""


def quantise_rotation(axis: tuple[float, float, float], degrees: float) -> tuple[int, int, int, int]:
    """i16 x, y, z, w of a rotation (x 32767: 1.0 does not fit, as in the tests' 400-byte clip)."""
    half = math.radians(degrees) / 2
    n = math.sqrt(sum(a * a for a in axis))
    q = [a / n * math.sin(half) for a in axis] + [math.cos(half)]
    return tuple(max(-32767, min(32767, round(c * 32767))) for c in q)  # type: ignore[return-value]


def rest_pose(overrides: dict[str, tuple[tuple[int, int, int], float]] | None = None) -> dict:
    """name -> (axis, angle) of BIPED's rest rotations, with ``overrides`` for a clip's own pose."""
    return {name: (axis, angle) for name, _, _, axis, angle in BIPED} | (overrides or {})


def base_state(names: list[str], overrides: dict | None = None) -> BaseState:
    offsets = {name: offset for name, _, offset, _, _ in BIPED}
    pose = rest_pose(overrides)
    joints = np.zeros(len(names), JOINT_DTYPE)
    for i, name in enumerate(names):
        offset, (axis, angle) = offsets[name], pose[name]
        position = tuple(round(v * (1 << TRANSLATION_EXPONENT)) for v in offset)
        joints[i] = (*quantise_rotation(axis, angle), *position, 0, TRANSLATION_EXPONENT)
    # One 32-byte "thing" (contents unknown in the spec): two identity-like halves.
    thing = struct.pack("<7hBB", 0, 0, 0, 32767, 0, 0, 0, 0, TRANSLATION_EXPONENT) * 2
    return BaseState(joints=joints, things=thing)


# Joints that swing in walk.animclip: name -> (amplitude in degrees, phase in frames). Each
# turns about its own rest axis from its rest angle up to rest + amplitude and back, so the
# Base State record (the rest pose) stays the lowest value of every moving component. One
# cycle is the clip's 30 frame steps: a joint is at its rest angle on frame (-phase) mod 30
# and at the other end of its swing 15 frames later. The legs swing about the lateral axis
# half a cycle apart (the left leg is forward on frame 23, where the left foot strikes, and
# back on frame 8, where the right one does), each knee bends most mid-swing, and each arm
# swings with the opposite leg.
SWINGS = {
    "thigh_l": (45.0, 7), "thigh_r": (45.0, 22), "calf_l": (45.0, 0), "calf_r": (45.0, 15),
    "upperarm_l": (35.0, 22), "upperarm_r": (35.0, 7),
}
PELVIS_BOB = 0.03
"""Metres the pelvis rises above its rest height (both feet down, legs apart) and falls
back, twice per cycle."""
PELVIS_BOB_PHASE = 7
"""Frames: the pelvis is lowest when the feet strike (frames 8 and 23)."""
ROOT_TRAVEL = 1.4
"""Metres the root moves forward (+Z, where the biped faces) over the clip (Motion Data):
two steps of 0.7 m, about what the legs' swing spans."""
# wave.performanceclip: the right arm raised (out and up, turned about the forward axis Z)
# and its forearm waving from side to side over the head: from leaning in (towards the head,
# +X) to leaning out, three times over the clip.
WAVE_POSE = {"upperarm_r": ((0, 0, 1), -135.0), "lowerarm_r": ((0, 0, 1), -75.0), "hand_r": ((0, 0, 1), 0.0)}
WAVE_SWINGS = {"lowerarm_r": (60.0, 0)}
WAVE_PERIOD = 15
"""Frames per wave (half a second at 30 fps)."""
FLAG_HAS_MOTION = 0x800000
"""Built flags bit: the clip has root motion (Luna flags.py)."""


def _pack_bits(fields: list[tuple[int, int]]) -> bytes:
    """One sample: (value, width) fields packed from the least significant bit up into
    little-endian u32 words, the last word padded with zero bits."""
    acc, bits = 0, 0
    for value, width in fields:
        acc |= value << bits
        bits += width
    words = (bits + 31) // 32
    return acc.to_bytes(4 * words, "little")


def swinging(names: list[str], base: BaseState, frames: int, swings: dict[str, tuple[float, float]], period: int,
             pose: dict) -> dict[tuple[int, int], np.ndarray]:
    """(joint, component) -> per-frame integers of each joint in ``swings`` (name ->
    amplitude in degrees, phase in frames) turning about its axis in ``pose`` from its rest
    angle to rest + amplitude and back once every ``period`` frames. The quaternion is
    written as (axis * K tan(angle / 2), K) with K = 32767 cos(rest / 2): the reader
    normalises it, w stays constant, the axis part grows with the angle, and at the rest
    angle it is the Base State record itself, the lowest value of the moving component."""
    values = {}
    records = base.joints
    for j, name in enumerate(names):
        if name in swings:
            amplitude, phase = swings[name]
            axis, rest = pose[name]
            lift = (1 - np.cos(2 * np.pi * (np.arange(frames) + phase) / period)) / 2
            angles = np.radians(rest + amplitude * lift)
            k = 32767 * math.cos(math.radians(rest) / 2)
            c = int(np.flatnonzero(axis)[0])
            values[(j, 4 + c)] = np.round(k * np.tan(angles / 2)).astype(np.int64)
            assert records[j][("qx", "qy", "qz")[c]] == values[(j, 4 + c)].min() and records[j]["qw"] == round(k)
    return values


def sample_coding(base: BaseState, frames: int,
                  values: dict[tuple[int, int], np.ndarray]) -> tuple[SampleElem, bytes, int]:
    """Sample Elem, Sample Data and the stride coding ``values`` the way Luna's reader decodes
    them: per animated component an element (byte offset 4 * (12 * joint + component), code =
    width - 1) whose field is the frame's value minus the Base State value (the lowest value
    of each moving component)."""
    elements = []
    for (j, c), v in sorted(values.items()):
        base_value = int(v.min())
        assert base_value == base.joints[j][("qx", "qy", "qz", "qw", "x", "y", "z")[c - 4]]
        width = max(1, int(v.max() - base_value).bit_length())
        assert width <= 16
        elements.append((j, c, width, v - base_value))
    stride = 4 * ((sum(w for _, _, w, _ in elements) + 31) // 32)
    samples = b"".join(
        _pack_bits([(int(d[f]), w) for _, _, w, d in elements]).ljust(stride, b"\0") for f in range(frames)
    )
    elem = SampleElem(
        np.array([4 * (12 * j + c) for j, c, _, _ in elements], "<u4"),
        np.array([w - 1 for _, _, w, _ in elements], "u1"),
        bytes(-5 * len(elements) % 4),
    )
    return elem, samples, stride


def walk_motion(names: list[str], base: BaseState, frames: int) -> tuple[SampleElem, bytes, bytes, int]:
    """The walk's samples, coded as Pcniado/luna_engine_io_tools (anim_import.py, motion.py)
    reads them: the joints of SWINGS swinging once over the clip, the pelvis bobbing, and the
    root motion. Returns Sample Elem, Sample Data, Motion Data and the stride."""
    t = np.arange(frames) / (frames - 1)
    values = swinging(names, base, frames, SWINGS, frames - 1, rest_pose())
    j = names.index("pelvis")
    lift = (1 - np.cos(4 * np.pi * (np.arange(frames) + PELVIS_BOB_PHASE) / (frames - 1))) / 2
    rise = np.round(PELVIS_BOB * lift * (1 << TRANSLATION_EXPONENT)).astype(np.int64)
    values[(j, 9)] = base.joints[j]["y"] + rise  # component 9: translation y, up
    elem, samples, stride = sample_coding(base, frames, values)
    # Motion Data: a 0x7C-byte header (type 0, flag 0x02 "has motion", the sample count, an
    # identity initial transform, the samples right after the header) and 16-byte samples:
    # i16 quaternion x, y, z, w (/ 32768), i16 translation x, y, z, i8 log scale, i8 phase.
    header = bytearray(0x7C)
    struct.pack_into("<BBH", header, 0, 0, 0x02, frames)
    struct.pack_into("<4f", header, 0x04, 0.0, 0.0, 0.0, 1.0)
    struct.pack_into("<4f", header, 0x14, 0.0, 0.0, 0.0, 1.0)
    log_scale = 12
    motion = bytes(header) + b"".join(
        struct.pack("<4h3hbb", 0, 0, 0, 32767, 0, 0, round(ROOT_TRAVEL * z * (1 << log_scale)), log_scale, 0) for z in t
    )
    motion += bytes(-len(motion) % 16)
    return elem, samples, motion, stride


def set_sample_coding(built: Built, flags: int, stride: int) -> None:
    """Built's flags (u32 +0x08) and stride (u32 +0x28): named fields of the model once it
    names them, else the u16 halves it reads there."""
    if {"flags", "stride"} <= {f.name for f in dataclasses.fields(Built)}:
        built.flags, built.stride = flags, stride
    else:
        built.unk_08, built.unk_0a, built.unk_28 = flags & 0xFFFF, flags >> 16, stride


def joint_hashes(names: list[str]) -> JointHashes:
    return JointHashes(np.array([crc32(n) for n in names] + [TERMINATOR_HASH], "<u4"))


def custom_tracks(clip: AnimclipFile, tracks: dict[str, np.ndarray]) -> None:
    """Append Custom Tracks + Custom Track Data holding ``tracks`` (name -> values)."""
    entries = [CustomTrackEntry(name_hash=crc32(name), ofs_name=clip.add_string(name)) for name in tracks]
    clip.sections += [CustomTracks(entries), CustomTrackData()]
    clip.set_all_custom_track_values(dict(enumerate(tracks.values())))


def opaque(seed: int, size: int) -> bytes:
    """Deterministic filler for sections whose content nobody has decoded."""
    return np.random.default_rng(seed).integers(0, 256, size, dtype=np.uint8).tobytes()


def empty_serialized_object() -> bytes:
    """A serialized object with no children (spec 9): u32 0, marker 0x03150044, C = 0, L = 0."""
    return struct.pack("<IIII", 0, 0x03150044, 0, 0)


def walk() -> AnimclipFile:
    names = [name for name, *_ in BIPED]
    frames = 31
    clip = AnimclipFile(magic=MAGIC_MSMR_MM, type_id=MAGIC_MSMR_MM)
    built = Built(fps=30.0, duration=1.0, num_frames=frames, num_unique_samples=frames)
    clip.sections = [built, base_state(names), joint_hashes(names)]
    clip.set_clip_name("walk_forward")
    t = np.arange(frames) / (frames - 1)
    custom_tracks(clip, {
        "foot_plant_l": (np.cos(2 * np.pi * t) > 0).astype("<f4"),
        "foot_plant_r": (np.cos(2 * np.pi * t) <= 0).astype("<f4"),
        "camera_fov_scale": (1.0 + 0.05 * np.sin(2 * np.pi * t)).astype("<f4"),
    })
    foot_l, foot_r, step = crc32("foot_l"), crc32("foot_r"), crc32("footstep")
    end = np.eye(4, dtype="<f4")
    end[3, 2] = ROOT_TRAVEL  # "like I + translation vector" (ALERT): forward along Z; matrix order unknown
    clip.sections += [
        TriggerData(
            num_jsons=1, num_things=2, unk1=foot_l,
            jsons=bytes(8) + empty_serialized_object(),  # unk3, unk4, then the objects
            # each foot's step where it strikes the ground (SWINGS)
            records=[TriggerRecord(step, foot_r, 1, 8, 0), TriggerRecord(step, foot_l, 1, 23, 0)],
        ),
        TriggerJointNames([foot_l, foot_r]),
        Path(np.eye(4, dtype="<f4"), end),
    ]
    base = next(s for s in clip.sections if isinstance(s, BaseState))
    elem, samples, motion, stride = walk_motion(names, base, frames)
    set_sample_coding(built, FLAG_HAS_MOTION, stride)
    clip.sections += [elem, RawSection(TAG_SAMPLE_DATA, samples), RawSection(TAG_MOTION_DATA, motion)]
    return clip


def wave() -> AnimclipFile:
    frames = 46
    clip = AnimclipFile(magic=MAGIC_RCRA, type_id=MAGIC_RCRA)
    built = Built(fps=30.0, duration=1.5, num_frames=frames, num_unique_samples=frames)
    base = base_state(UPPER_BODY, WAVE_POSE)
    clip.sections = [built, base, joint_hashes(UPPER_BODY)]
    clip.set_clip_name("wave_hello")
    t = np.arange(frames) / (frames - 1)
    custom_tracks(clip, {"blend_weight": np.clip(np.sin(np.pi * t) * 1.5, 0, 1).astype("<f4")})
    clip.sections += [RawSection(TAG_MORPH_INFO, opaque(3, 28)), RawSection(TAG_MORPH_FRAME_DATA, opaque(4, 92))]
    values = swinging(UPPER_BODY, base, frames, WAVE_SWINGS, WAVE_PERIOD, rest_pose(WAVE_POSE))
    elem, samples, stride = sample_coding(base, frames, values)
    set_sample_coding(built, 0, stride)
    clip.sections += [elem, RawSection(TAG_SAMPLE_DATA, samples)]
    return clip


def compressed(plain: bytes) -> bytes:
    """The same file with its DAT1 body (from byte 36) as one raw LZ4 block (spec 3.1)."""
    return plain[:36] + lz4.block.compress(plain[36:], store_size=False)


def examples() -> dict[str, bytes]:
    walk_bytes = write_bytes(walk())
    names = sorted({name for name, *_ in BIPED})
    return {
        "walk.animclip": walk_bytes,
        "wave.performanceclip": write_bytes(wave()),
        "walk_lz4.animclip": compressed(walk_bytes),
        "joint_names.txt": ("\n".join(names) + "\n").encode("utf-8"),
    }


def main() -> int:
    for name, data in examples().items():
        write_atomic(HERE / name, data)
        print(f"examples/{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
