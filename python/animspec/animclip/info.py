"""A readable summary of an .animclip / .performanceclip file (``animspec info``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .frames.inputs import sample_inputs
from .model import AnimclipFile
from .placement import payload_sizes
from .tags import (
    ASSET_MAGICS,
    CONTAINER_ASSET,
    CONTAINER_STG,
    FLAG_CAMERA,
    FLAG_HAS_MOTION,
    FLAG_LOOPING,
    SECTION_NAMES,
    SECTION_STATUS,
    TAG_SAMPLE_ELEM,
)

MAX_JOINTS_LISTED = 40


def summary(model: AnimclipFile, joint_names: Any = None) -> str:
    view = model.clip(joint_names)
    layout = model.layout
    game = ASSET_MAGICS.get(model.magic, "unknown game")
    lines = [f"Insomniac animation clip (.animclip/.performanceclip), magic {model.magic:08X} ({game})"]
    if layout is None:
        lines.append("  not read from a file (no recorded layout)")
    elif layout.compression is not None:
        lines.append(
            f"  LZ4-compressed DAT1: {len(layout.compression.compressed)} bytes -> {layout.dat1_size} bytes "
            "(an edited file is written uncompressed)"
        )
    else:
        lines.append(f"  uncompressed DAT1: {layout.dat1_size} bytes")
    if model.container != CONTAINER_ASSET:
        what = {CONTAINER_STG: f"Spider-Man 2's STG wrapper ({len(model.header_unk)} bytes)"}.get(
            model.container, "none (a bare DAT1)"
        )
        lines.append(f"  before the DAT1: {what}")
    if view.name is None and model.is_msm2 and not model.strings and view.name_hash is not None:
        lines.append(f"  clip name hash {view.name_hash:08X} (Spider-Man 2 clips carry no name string)")
        lines.append(f"  fps {view.fps:g}, duration {view.duration:g} s, frames {view.num_frames}")
    elif view.name is None and model.built is None:
        lines.append("  no Anim Clip Built section: no name, fps or duration")
    else:
        check = {True: "hash ok", False: "HASH MISMATCH", None: "unresolved"}[view.name_hash_ok]
        name = repr(view.name) if view.name is not None else "(name not found)"
        lines.append(f"  clip {name} ({check})")
        lines.append(
            f"  fps {view.fps:g}, duration {view.duration:g} s, frames {view.num_frames} "
            '(ALERT\'s labels: "fps?", "duration in seconds?", "frames count?")'
        )
    if view.joints:
        known = sum(1 for j in view.joints if j.name is not None)
        named = f", {known} named" if known else ""
        animated = (
            ", rot/pos: Base State alone (the pose of unanimated joints, the base of animated ones)"
            if model.section(TAG_SAMPLE_ELEM) is not None
            else ""
        )
        lines.append(f"  {len(view.joints)} joint(s){named}{animated}:")
        for j in view.joints[:MAX_JOINTS_LISTED]:
            label = f"{j.hash:08X}" if j.hash is not None else "(no hash)"
            if j.name is not None:
                label += f" {j.name}"
            if j.rotation is not None and j.translation is not None:
                r = ", ".join(f"{v:.3f}" for v in j.rotation)
                p = ", ".join(f"{v:.3f}" for v in j.translation)
                label += f"  rot [{r}]  pos [{p}]"
            else:
                label += "  (no base-state record)"
            lines.append(f"    [{j.index}] {label}")
        if len(view.joints) > MAX_JOINTS_LISTED:
            lines.append(f"    ... {len(view.joints) - MAX_JOINTS_LISTED} more")
    else:
        lines.append("  no joints")
    if view.custom_tracks:
        lines.append(f"  {len(view.custom_tracks)} custom track(s):")
        for t in view.custom_tracks:
            name = repr(t.name) if t.name is not None else f"(unresolved name, hash {t.hash:08X})"
            lines.append(f"    {name}: {len(t.values)} value(s){_range(t.values)}")
    if view.triggers is not None:
        lines.append(
            f"  triggers: {len(view.triggers.records)} record(s), {len(view.triggers.jsons)} bytes of "
            "serialized objects (kept raw)"
        )
    if view.path is not None:
        start = np.asarray(view.path.start_matrix)
        end = np.asarray(view.path.end_matrix)
        lines.append(f"  path: start row 3 {_vec(start[3])}, end row 3 {_vec(end[3])} (matrix order unknown)")
    lines.extend(_per_frame(model))
    lines.extend(_sections(model))
    return "\n".join(lines)


def _per_frame(model: AnimclipFile) -> list[str]:
    """How the clip's frames are coded (Sample Elem, Sample Data, Built's flags), or why they
    cannot be decoded; nothing for a file without Sample Elem (no per-frame data to speak of)."""
    elem = model.section(TAG_SAMPLE_ELEM)
    if elem is None:
        return []
    try:
        inputs = sample_inputs(model)
    except ValueError as exc:  # SampleInputError: the same reason play and convert give
        return [f"  per-frame data: cannot be decoded: {exc}"]
    large = len(getattr(elem, "large_offsets", ()))
    stored = len(inputs.samples)
    lookup = f"yes ({len(inputs.lookup)} entries)" if inputs.lookup is not None else "no"
    moved = len(np.unique(inputs.joint)) if len(inputs.joint) else 0
    block = SECTION_NAMES.get(inputs.section_tag, "no samples") if inputs.section_tag is not None else "no samples"
    flags = inputs.flags
    return [
        f"  per-frame data: {inputs.num_frames} frame(s) from {stored} stored sample(s) of {inputs.stride} bytes "
        f"({block}); {len(inputs.joint)} element(s), {large} large, moving {moved} joint(s), "
        f"{int(inputs.width.sum())} bits per sample",
        f"  frame lookup: {lookup}; looping: {'yes' if flags & FLAG_LOOPING else 'no'}; "
        f"root motion: {'yes' if flags & FLAG_HAS_MOTION else 'no'}; camera: {'yes' if flags & FLAG_CAMERA else 'no'}"
        " (Built flags)",
    ]


def _range(values: np.ndarray) -> str:
    if not len(values):
        return ""
    finite = values[np.isfinite(values)]
    if not len(finite):
        return " (none finite)"
    return f", {float(finite.min()):g} .. {float(finite.max()):g}"


def _vec(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{float(v):g}" for v in values) + "]"


def _sections(model: AnimclipFile) -> list[str]:
    try:
        sizes: list[int | None] = list(payload_sizes(model))
    except (TypeError, AttributeError):  # an in-memory model of the wrong types: still summarise
        sizes = [None] * len(model.sections)
    lines = [f"  {len(model.sections)} section(s), in table order:"]
    lines.append(f"    {'#':>2}  {'tag':8}  {'name':35} {'offset':>8} {'size':>9}  content")
    for i, s in enumerate(model.sections):
        name = SECTION_NAMES.get(s.tag, "(unknown tag, kept raw)")
        status = SECTION_STATUS.get(s.tag, "unknown, kept raw")
        offset = f"0x{s.offset:x}" if s.offset is not None else "new"
        size = "?" if sizes[i] is None else str(sizes[i])
        lines.append(f"    {i:>2}  {s.tag:08X}  {name:35} {offset:>8} {size:>9}  {status}")
    if model.unknowns:
        lines.append(f"  {len(model.unknowns)} unknowns-table entries (kept)")
    lines.append(f"  strings block: {len(model.strings)} bytes")
    return lines
