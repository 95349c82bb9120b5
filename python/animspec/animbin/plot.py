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
from .playback import ReferenceSampler, Refresh, play_engine_chunks, refresh_hz, ticks_per_chunk, vsync_deltas

COMPONENTS = ("w", "x", "y", "z")
COLOURS = ("#444444", "#d62728", "#2ca02c", "#1f77b4")
REFERENCE_SAMPLES_PER_VSYNC = 8
MAX_REFERENCE_SAMPLES = 4096
"""Points of each dashed curve at most: a panel is 650 pixels wide, so more show nothing more."""
MAX_PLOT_TICKS = 8192
"""Vsyncs one picture shows at most (137 s on NTSC, 164 s on PAL: 12 per pixel already); a
longer run is refused, the caller narrowing it (``animspec plot --seconds``)."""
MAX_PLOT_JOINTS = 16
"""Panels at most (the engine animates at most 15 bones); further joints are named in the title."""


class PlotTooLong(ValueError):
    """The run has more vsyncs than :data:`MAX_PLOT_TICKS`."""


def plot_ticks(animation: Animation, region: Refresh = "ntsc", seconds: float | None = None) -> int:
    """The vsyncs :func:`plot_png` draws for these arguments."""
    hz = refresh_hz(region)
    return max(1, int(round(seconds * hz)) if seconds is not None else max(animation.length, 1))


PLOT_EXTRA = "plot"
"""The optional-dependencies extra of pyproject.toml that brings matplotlib. animspec is not on
PyPI: it is installed from a checkout, so the hint is pip's editable install of the extra."""
PLOT_INSTALL = f"pip install -e '.[{PLOT_EXTRA}]'"
PLOT_MAKE = "make .venv/.installed"


def plot_png(animation: Animation, *, region: Refresh = "ntsc", seconds: float | None = None) -> bytes:
    """PNG bytes of the curves for one pass through ``animation`` (or ``seconds``).

    At most :data:`MAX_PLOT_TICKS` vsyncs (:class:`PlotTooLong` otherwise) and the first
    :data:`MAX_PLOT_JOINTS` animated joints; what is held is those joints' curves only, the
    playback itself runs chunk by chunk. AnimspecError naming the extra to install when
    matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:  # an optional dependency: say what to type, not a traceback
        raise AnimspecError(
            f"plot needs matplotlib, which a plain install leaves out: in the animspec checkout, run "
            f"`{PLOT_INSTALL}` (or `{PLOT_MAKE}`: the project's .venv with the test tools, matplotlib among them)"
        ) from None

    matplotlib.use("Agg")  # files only: no display is needed or wanted
    import matplotlib.pyplot as plt

    hz = refresh_hz(region)
    ticks = plot_ticks(animation, region, seconds)
    if ticks > MAX_PLOT_TICKS:
        raise PlotTooLong(
            f"{ticks} vsyncs ({ticks / hz:.3f} s at {hz:.2f} Hz) do not fit one picture: at most "
            f"{MAX_PLOT_TICKS} ({MAX_PLOT_TICKS / hz:.3f} s)"
        )
    tick_times = np.arange(ticks) / hz
    n_fine = min(ticks * REFERENCE_SAMPLES_PER_VSYNC, MAX_REFERENCE_SAMPLES)
    fine = np.arange(n_fine) * (ticks / (hz * n_fine))
    engine_q: np.ndarray | None = None
    joints: list[int] = []
    animated = 0
    for first, played in play_engine_chunks(animation, vsync_deltas(ticks)):
        if engine_q is None:
            sampler = ReferenceSampler(animation, num_joints=played.num_joints)
            all_joints = [j for j in range(played.num_joints) if sampler.has_rotation[j]]
            animated = len(all_joints)
            joints = all_joints[:MAX_PLOT_JOINTS]
            engine_q = np.empty((ticks, len(joints), 4))
        engine_q[first:first + played.num_ticks] = played.rotations_float()[:, joints]
    assert engine_q is not None
    ref_q = np.empty((n_fine, len(joints), 4))
    size = ticks_per_chunk(animation, sampler.num_joints)
    for first in range(0, n_fine, size):
        ref_q[first:first + size] = sampler.at_times(fine[first:first + size], hz).rotations[:, joints]
    # q and -q are one rotation: show the reference on the engine's side so curves overlay.
    nearest_tick = np.minimum((fine * hz).astype(int), ticks - 1)
    sign = np.sign(np.sum(ref_q * engine_q[nearest_tick], axis=-1, keepdims=True))
    ref_q *= np.where(sign == 0, 1.0, sign)

    cols = min(2, max(1, len(joints)))
    rows = max(1, math.ceil(len(joints) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 2.6 * rows), squeeze=False, sharex=True)
    for k, (panel, j) in enumerate(zip(axes.flat, joints)):
        for c, (name, colour) in enumerate(zip(COMPONENTS, COLOURS)):
            panel.plot(fine, ref_q[:, k, c], linestyle="--", linewidth=1.0, color=colour, alpha=0.8)
            panel.step(tick_times, engine_q[:, k, c], where="post", linewidth=1.6, color=colour, label=name)
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
    title = f"{str(animation.name)!r} on {region_name.upper()} ({hz:.2f} Hz vsync), {ticks} vsyncs"
    if animated > len(joints):
        title += f"\nfirst {len(joints)} of {animated} animated joints shown"
    fig.suptitle(title)
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=100)
    plt.close(fig)
    return out.getvalue()
