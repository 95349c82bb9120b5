"""Quaternion curves of an ANIMBIN animation, engine and reference overlaid (``animspec plot``).

One panel per animated joint, the four components (w, x, y, z) against time in seconds:
the console's values as steps (they change only once per vsync, and hold between keys),
the authored reference as smooth dashed lines sampled finely. Needs matplotlib (the
``plot`` extra).
"""

from __future__ import annotations

import io
import math

import numpy as np

from ..common.errors import AnimspecError
from .model import Animation
from .playback import Refresh, play_engine, refresh_hz, sample_reference, vsync_deltas

COMPONENTS = ("w", "x", "y", "z")
COLOURS = ("#444444", "#d62728", "#2ca02c", "#1f77b4")
REFERENCE_SAMPLES_PER_VSYNC = 8


def plot_png(animation: Animation, *, region: Refresh = "ntsc", seconds: float | None = None) -> bytes:
    """PNG bytes of the curves for one pass through ``animation`` (or ``seconds``).
    AnimspecError naming the extra to install when matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:  # an optional dependency: say what to type, not a traceback
        raise AnimspecError(
            "plot needs matplotlib, which a plain install leaves out: pip install 'animspec[plot]'"
        ) from None

    matplotlib.use("Agg")  # files only: no display is needed or wanted
    import matplotlib.pyplot as plt

    hz = refresh_hz(region)
    ticks = max(1, int(round(seconds * hz)) if seconds is not None else max(animation.length, 1))
    engine = play_engine(animation, vsync_deltas(ticks))
    tick_times = np.arange(ticks) / hz
    fine = np.arange(ticks * REFERENCE_SAMPLES_PER_VSYNC) / (hz * REFERENCE_SAMPLES_PER_VSYNC)
    reference = sample_reference(animation, fine, refresh=hz, num_joints=engine.num_joints)
    engine_q = engine.rotations_float()
    # q and -q are one rotation: show the reference on the engine's side so curves overlay.
    nearest_tick = np.minimum((fine * hz).astype(int), ticks - 1)
    sign = np.sign(np.sum(reference.rotations * engine_q[nearest_tick], axis=-1, keepdims=True))
    ref_q = reference.rotations * np.where(sign == 0, 1.0, sign)

    joints = [j for j in range(engine.num_joints) if reference.has_rotation[j]]
    cols = min(2, max(1, len(joints)))
    rows = max(1, math.ceil(len(joints) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 2.6 * rows), squeeze=False, sharex=True)
    for panel, j in zip(axes.flat, joints):
        for c, (name, colour) in enumerate(zip(COMPONENTS, COLOURS)):
            panel.plot(fine, ref_q[:, j, c], linestyle="--", linewidth=1.0, color=colour, alpha=0.8)
            panel.step(tick_times, engine_q[:, j, c], where="post", linewidth=1.6, color=colour, label=name)
        panel.set_title(f"joint {j}", fontsize=10)
        panel.set_ylim(-1.05, 1.05)
        panel.grid(alpha=0.3)
    for panel in axes.flat[len(joints):]:
        panel.axis("off")
    for panel in axes[-1]:
        panel.set_xlabel("seconds")
    axes.flat[0].legend(loc="lower left", ncol=4, fontsize=8, title="solid: console   dashed: authored",
                        title_fontsize=8)
    region_name = region if isinstance(region, str) else f"{hz:g} Hz"
    fig.suptitle(f"{str(animation.name)!r} on {region_name.upper()} ({hz:.2f} Hz vsync), {ticks} vsyncs")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=100)
    plt.close(fig)
    return out.getvalue()
