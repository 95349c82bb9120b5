"""One measure of error, with its unit, everywhere: what a conversion reports is what a reader
of the written file sees.

.animclip: the report's figures are recomputed here from the written bytes, read and decoded
with the public API ``play`` uses (animspec.animclip.read_bytes, frames.pose.clip_frames), and
compared with the glTF's sampled transforms with plain numpy: the angle between the rotations
in degrees, the distance between the translations, the scale's ratio error. ``--max-error X``
gives a clip whose object-space error (virtual vertices ``--shell`` from each joint, every
ancestor applied: recomputed here with a forward kinematics of its own) is read back within X;
the expert ``--local-rotation-error X`` gives one read back within X degrees. ANIMBIN: the report's error on screen is the engine's
playback of the written file against the glTF's curve. The command line and the Blender add-on
take their defaults from one place (the add-on's side: tests/test_blender_addon.py)."""

from __future__ import annotations

import math
import re
import subprocess
import sys

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT
from test_gltf_support import AnimSpec, ChannelSpec, JointSpec, build_glb, quat_xyzw

from animspec.animclip import read_bytes
from animspec.animclip.frames.encode import Frames, Tolerance, read_back_error
from animspec.animclip.frames.object_space import ObjectTolerance
from animspec.animclip.frames.pose import clip_frames
from animspec.common.ranges import ANIMBIN_ERRORS, ANIMCLIP_ERRORS, ANIMCLIP_LOCAL_ERRORS, ErrorDefaults
from animspec.convert import load_options
from animspec.convert.options import DIRECTION_ERRORS
from animspec.gltf.rig import read_rig
from animspec.gltf.to_animclip import gltf_to_animclip, sample_frames

JOINTS = [JointSpec("root", -1, (0.0, 0.0, 0.0)), JointSpec("spine", 0, (0.0, 1.0, 0.0)),
          JointSpec("arm", 1, (0.3, 0.5, 0.0), quat_xyzw((0, 0, 1), 30))]
REPORTED = re.compile(
    r"each joint's own: rotation (\S+) deg \('(\w+)', frame (\d+)\), translation (\S+) m \('(\w+)', "
    r"frame (\d+)\), scale (\S+) relative")


def swing_glb() -> bytes:
    """A second's swing: the spine nods, the arm sweeps 60 degrees, the root walks 2 m, the
    arm's scale shrinks to half on y."""
    times = np.linspace(0, 1, 9)
    return build_glb(JOINTS, [AnimSpec("swing", [
        ChannelSpec(0, "translation", times, [(0.0, 0.0, -2.0 * t) for t in times]),
        ChannelSpec(1, "rotation", times, [quat_xyzw((1, 0, 0), 40 * np.sin(4 * t)) for t in times]),
        ChannelSpec(2, "rotation", times, [quat_xyzw((0.3, 0.1, 1), 30 + 60 * t) for t in times]),
        ChannelSpec(2, "scale", times, [(1.0, 1.0 - 0.5 * t, 1.0) for t in times]),
    ])])


def source_frames(glb: bytes) -> Frames:
    """The glTF's local transforms per frame, as the conversion samples them (30 fps)."""
    from pygltflib import GLTF2

    frames, _ = sample_frames(read_rig(GLTF2.load_from_bytes(glb)), 0, 30.0, False)
    return frames


def seen(data: bytes, frames: Frames) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per frame and joint, what a reader of ``data`` sees against ``frames``: the angle
    (degrees), the distance, the scale ratio error; decoded as ``play`` decodes."""
    decoded = clip_frames(read_bytes(data, "out.animclip")).frames()
    rot, pos, scl = (np.asarray(a, np.float64) for a in (frames.rotations, frames.translations, frames.scales))
    rot = rot / np.linalg.norm(rot, axis=-1, keepdims=True)
    q = decoded.rotation.astype(np.float64)
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    angle = np.degrees(2 * np.arccos(np.minimum(np.abs((q * rot).sum(axis=-1)), 1.0)))
    distance = np.linalg.norm(decoded.translation.astype(np.float64) - pos, axis=-1)
    ratio = np.abs(decoded.scale.astype(np.float64) / scl - 1).max(axis=-1)
    return angle, distance, ratio


def shown_step(text: str) -> float:
    """How far a figure the report shows to 3 significant digits may be from the value: half
    its last digit (and a float32's rounding for a zero)."""
    value = abs(float(text))
    return 0.5 * 10.0 ** (math.floor(math.log10(value)) - 2) + 1e-9 if value else 1e-9


def convert(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "animspec", "convert", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


@pytest.mark.parametrize("max_error", ["0.05", "0.5", "2"])
def test_the_reported_error_is_the_written_clips_read_back_in_degrees_metres_and_ratio(tmp_path, max_error):
    src, out = tmp_path / "swing.glb", tmp_path / "swing.animclip"
    src.write_bytes(swing_glb())
    run = convert(str(src), "-o", str(out), "--local-rotation-error", max_error, "--local-translation-error", "1e-3")
    assert run.returncode == 0, run.stderr
    found = REPORTED.search(run.stdout)
    assert found, run.stdout
    angle, distance, ratio = seen(out.read_bytes(), source_frames(swing_glb()))
    names = [j.name for j in JOINTS]
    for (value, name, frame), errors in (((found[1], found[2], found[3]), angle),
                                         ((found[4], found[5], found[6]), distance)):
        worst = np.unravel_index(int(np.argmax(errors)), errors.shape)
        assert float(value) == pytest.approx(errors.max(), abs=shown_step(value)), (value, errors.max())
        assert (name, int(frame)) == (names[worst[1]], worst[0])
    assert float(found[7]) == pytest.approx(ratio.max(), abs=shown_step(found[7]))
    # what was asked is what is read back
    assert angle.max() <= float(max_error) and distance.max() <= 1e-3
    assert angle.max() > float(max_error) / 4  # and the tolerance was spent, not ignored


def test_the_report_reads_a_one_degree_turn_as_one_degree():
    """The written clip against its source turned 1 degree more on one joint at one frame."""
    glb = swing_glb()
    result = gltf_to_animclip(glb, max_error=Tolerance(0.01, 1e-4, 1e-4))
    frames = source_frames(glb)
    turned = np.array(frames.rotations, copy=True)
    extra = np.array(quat_xyzw((0, 1, 0), 1.0))  # x, y, z, w
    x1, y1, z1, w1 = extra
    x2, y2, z2, w2 = turned[7, 2]
    turned[7, 2] = (w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                    w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2, w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2)
    error = read_back_error(result.data, Frames(turned, frames.translations, frames.scales))
    assert error.rotation.worst == pytest.approx(1.0, abs=0.011)
    assert (error.rotation.joint, error.rotation.frame) == (2, 7)
    assert result.error.rotation.worst <= 0.01


def test_the_encoder_and_the_read_back_agree_and_the_report_says_the_read_back():
    result = gltf_to_animclip(swing_glb(), max_error=Tolerance())
    assert result.error.rotation.worst == pytest.approx(result.encoded.error.rotation.worst, abs=1e-9)
    assert result.error.translation.worst == pytest.approx(result.encoded.error.translation.worst, abs=1e-9)
    assert f"rotation {result.error.rotation.worst:.3g} deg" in result.report()


def test_the_walk_example_through_gltf_is_read_back_within_the_defaults(tmp_path):
    glb, out = tmp_path / "walk.glb", tmp_path / "walk.animclip"
    run = convert(str(EXAMPLES / "walk.animclip"), "--skeleton", str(EXAMPLES / "biped_rig.glb"), "-o", str(glb))
    assert run.returncode == 0, run.stderr
    run = convert(str(glb), "-o", str(out))
    assert run.returncode == 0, run.stderr
    found = OBJECT_REPORTED.search(run.stdout)
    assert found, run.stdout
    assert float(found[1]) / 1000 <= ANIMCLIP_ERRORS.max_error and float(found[5]) / 1000 == ANIMCLIP_ERRORS.shell


def test_one_place_holds_each_directions_defaults():
    assert DIRECTION_ERRORS == {"gltf-animbin": ANIMBIN_ERRORS, "gltf-animclip": ANIMCLIP_ERRORS}
    options = load_options()
    assert options.errors("gltf-animclip") == ANIMCLIP_ERRORS and options.errors("gltf-animbin") == ANIMBIN_ERRORS
    assert load_options(max_error=0.3).errors("gltf-animclip").max_error == 0.3
    assert options.local_errors() is None
    assert load_options(local_rotation_error=0.3).local_errors() == ErrorDefaults(
        0.3, ANIMCLIP_LOCAL_ERRORS.max_translation_error)
    assert Tolerance() == Tolerance(ANIMCLIP_LOCAL_ERRORS.max_error, ANIMCLIP_LOCAL_ERRORS.max_translation_error,
                                    ANIMCLIP_LOCAL_ERRORS.max_translation_error)
    assert ObjectTolerance() == ObjectTolerance(ANIMCLIP_ERRORS.max_error, ANIMCLIP_ERRORS.shell)
    help_text = " ".join(convert("--help").stdout.split())
    assert f"default {ANIMCLIP_ERRORS.max_error:g} = {ANIMCLIP_ERRORS.max_error * 1000:g} mm" in help_text
    assert f"(default {ANIMCLIP_ERRORS.shell:g}:" in help_text
    assert f"(default {ANIMCLIP_LOCAL_ERRORS.max_error:g})" in help_text
    assert f"(default {ANIMBIN_ERRORS.max_error:g})" in help_text


# --- .animclip: object-space error, measured here from the written bytes -------------------------

OBJECT_REPORTED = re.compile(
    r"object space: max (\S+) mm \('(\w+)', frame (\d+)\), 99th percentile (\S+) mm, at virtual vertices "
    r"(\S+) mm from each joint")


def _matrix(q: np.ndarray) -> np.ndarray:
    """(..., 4) x, y, z, w unit quaternions -> (..., 3, 3), written out (not the package's)."""
    x, y, z, w = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def vertex_errors(rot_a, pos_a, scl_a, rot_b, pos_b, scl_b, parents, shell) -> np.ndarray:
    """(F, J) the largest distance between the two poses' virtual vertices (``shell`` along each
    joint's x, y and z, taken to the root's space through every ancestor as 4x4 matrices)."""
    def world(rot, pos, scl):
        rot = np.asarray(rot, np.float64)
        rot = rot / np.linalg.norm(rot, axis=-1, keepdims=True)
        local = np.zeros(rot.shape[:2] + (4, 4))
        local[..., :3, :3] = _matrix(rot) * np.asarray(scl, np.float64)[..., None, :]
        local[..., :3, 3] = pos
        local[..., 3, 3] = 1
        out = np.zeros_like(local)
        for j, p in enumerate(parents):  # (parents come first in these rigs)
            out[:, j] = local[:, j] if p < 0 else out[:, p] @ local[:, j]
        vertices = np.concatenate([np.eye(3) * shell, np.ones((1, 3))])  # columns: (s,0,0,1), (0,s,0,1), ...
        return out @ vertices
    return np.linalg.norm(world(rot_a, pos_a, scl_a) - world(rot_b, pos_b, scl_b), axis=-2).max(axis=-1)


@pytest.mark.parametrize(("max_error", "shell"), [("0.0002", None), ("0.002", None), ("0.0005", "0.2")])
def test_the_object_space_error_reported_is_the_written_clips_measured_independently(tmp_path, max_error, shell):
    src, out = tmp_path / "swing.glb", tmp_path / "swing.animclip"
    src.write_bytes(swing_glb())
    run = convert(str(src), "-o", str(out), "--max-error", max_error, *(["--shell", shell] if shell else []))
    assert run.returncode == 0, run.stderr
    found = OBJECT_REPORTED.search(run.stdout)
    assert found, run.stdout
    frames = source_frames(swing_glb())
    decoded = clip_frames(read_bytes(out.read_bytes(), "out.animclip")).frames()
    used_shell = float(shell) if shell else ANIMCLIP_ERRORS.shell
    errors = vertex_errors(decoded.rotation, decoded.translation, decoded.scale, frames.rotations,
                           frames.translations, frames.scales, [j.parent for j in JOINTS], used_shell)
    frame, joint = np.unravel_index(int(np.argmax(errors)), errors.shape)
    assert float(found[1]) / 1000 == pytest.approx(errors.max(), abs=shown_step(found[1]) / 1000)
    assert (found[2], int(found[3])) == (JOINTS[joint].name, frame)
    assert float(found[4]) / 1000 == pytest.approx(np.percentile(errors, 99), abs=shown_step(found[4]) / 1000)
    assert float(found[5]) / 1000 == pytest.approx(used_shell)
    assert errors.max() <= float(max_error)  # the bound asked is the bound met
    assert errors.max() > float(max_error) / 4  # and spent, not ignored


def test_a_tighter_bound_never_gives_a_larger_error_and_a_looser_one_never_more_bytes():
    glb = swing_glb()
    frames = source_frames(glb)
    parents = [j.parent for j in JOINTS]
    last_error, last_bytes = math.inf, 0
    for bound in (3e-3, 1e-3, 3e-4, 1e-4, 5e-5):  # tighter and tighter
        result = gltf_to_animclip(glb, max_error=ObjectTolerance(bound))
        decoded = clip_frames(read_bytes(result.data, "out.animclip")).frames()
        error = vertex_errors(decoded.rotation, decoded.translation, decoded.scale, frames.rotations,
                              frames.translations, frames.scales, parents, ANIMCLIP_ERRORS.shell).max()
        assert error <= last_error and len(result.data) >= last_bytes, (bound, error, len(result.data))
        last_error, last_bytes = error, len(result.data)


# --- ANIMBIN: the error on screen is the engine's playback of the written file ------------------


def test_the_animbin_report_is_the_engine_playback_of_the_written_file(tmp_path):
    from pygltflib import GLTF2

    from animspec.animbin import read_bytes as read_animbin
    from animspec.animbin.budget import console_error
    from animspec.gltf.axes import rotations_to_ps1
    from animspec.gltf.sampling import local_rotations, sample_channels

    src, out = tmp_path / "swing.glb", tmp_path / "swing.animbin"
    src.write_bytes(swing_glb())
    rig = read_rig(GLTF2.load_from_bytes(swing_glb()))
    for fit, asked in (("reduce", "4"), ("best", None), ("cut", None)):
        args = ["--fit", fit, "--max-keys", "8"] if fit == "best" else ["--fit", fit]
        run = convert(str(src), "-o", str(out), "--force", *args, *(["--max-error", asked] if asked else []))
        assert run.returncode == 0, run.stderr
        shown = re.search(r"max error on screen: ([0-9.]+) deg at vsyncs \(joint (\d+) at frame (\d+)\)", run.stdout)
        assert shown, run.stdout
        written = read_animbin(out.read_bytes()).animations[0]
        # the curve at each vsync, the roots turned into the console's space, as the conversion does
        at = np.arange(written.length) / (60000 / 1001)
        channels = sample_channels(rig.gltf, 0, {n for p in rig.paths for n in p}, at, {})
        curve = local_rotations(rig, channels, len(at))
        roots = rig.skeleton.parents < 0
        curve[:, roots] = rotations_to_ps1(curve[:, roots])
        error = console_error(written, curve)
        assert float(shown[1]) == pytest.approx(error.degrees, abs=5e-5)
        assert (int(shown[2]), int(shown[3])) == (error.joint, error.frame)
        if asked:
            assert error.degrees <= float(asked)
