"""Build the sample files under examples/ with animspec's own writer.

Run ``make examples`` (or ``python examples/make_examples.py``) to regenerate them; the
tests check that the committed files equal what this script makes.

swing.animbin
    Two clips for a four-bone chain (a pendulum: root, upper, lower, tip, hanging down
    along +Z of the console's model space, examples/pendulum.meshbin), keyed on every vsync
    as the Blender exporter does, so the console plays them smoothly.
    "swing": 30 frames, looping; each bone swings about -Y, so the chain moves in the
    vertical X-Z plane (left-right seen from the front, where console +X is to the right),
    each a little later and wider than its parent; markers "left" (tip at -X) and "right"
    (tip at +X) at the extremes.
    "nod": 20 frames, plays once; the tip bone nods about X, out of the swing's plane.
sparse.animbin
    The same pendulum swing keyed only every 5 frames. Legal, but the engine does not
    interpolate between keys: ``animspec validate`` warns (sparse-keys) and the console
    shows it stepping.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from animspec.animbin import Animation, AnimbinFile, Marker, Name, RotationKey, Track, write_bytes
from animspec.common.atomic import write_atomic

HERE = Path(__file__).resolve().parent
FP12 = 4096


def fp12(v: float) -> int:
    # Round to nearest (the upstream exporter truncates; rounding halves the error).
    return max(-32768, min(32767, round(v * FP12)))


def axis_angle(axis: tuple[float, float, float], degrees: float) -> tuple[int, int, int, int]:
    """FP12 quaternion (w, x, y, z) for a rotation of ``degrees`` about a unit ``axis``."""
    half = math.radians(degrees) / 2
    s = math.sin(half)
    return (fp12(math.cos(half)), fp12(axis[0] * s), fp12(axis[1] * s), fp12(axis[2] * s))


def swing_track(joint: int, length: int, step: int) -> Track:
    """Bone ``joint`` swinging about -Y: amplitude grows and phase lags down the chain.

    The chain hangs along +Z (down in the console's model space); a turn about the
    horizontal Y axis keeps it in the vertical X-Z plane, the picture plane of a front view.
    About -Y, a positive angle takes the tip towards -X (left): the "left" marker sits at the
    positive peak.
    """
    amplitude = 20.0 + 10.0 * joint
    lag = 0.35 * joint
    keys = []
    for frame in range(0, length, step):
        angle = amplitude * math.sin(2 * math.pi * frame / length - lag)
        keys.append(RotationKey(frame, *axis_angle((0.0, -1.0, 0.0), angle)))
    return Track(joint_id=joint, keys=keys)


def swing(step: int) -> Animation:
    length = 30
    return Animation(
        name=Name.from_str("swing"),
        length=length,
        tracks=[swing_track(j, length, step) for j in range(4)],
        markers=[Marker(Name.from_str("left"), 7), Marker(Name.from_str("right"), 22)],
    )


def nod() -> Animation:
    length = 20
    keys = [
        RotationKey(f, *axis_angle((1.0, 0.0, 0.0), 35.0 * math.sin(math.pi * f / (length - 1))))
        for f in range(length)
    ]
    return Animation(name=Name.from_str("nod"), length=length, flags=0, tracks=[Track(3, keys)])


def examples() -> dict[str, bytes]:
    return {
        "swing.animbin": write_bytes(AnimbinFile([swing(step=1), nod()])),
        "sparse.animbin": write_bytes(AnimbinFile([swing(step=5)])),
    }


def main() -> int:
    for name, data in examples().items():
        write_atomic(HERE / name, data)
        print(f"examples/{name}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
