"""A readable summary of an ANIMBIN file (``animspec info``)."""

from __future__ import annotations

from collections import Counter

from .keys import all_rotation
from .model import NTSC_VSYNC_HZ, PAL_VSYNC_HZ, AnimbinFile, RotationKey, TranslationKey, UnknownKey


def summary(model: AnimbinFile) -> str:
    lines = [f"ANIMBIN version {model.version}, {len(model.animations)} animation(s)"]
    for i, anim in enumerate(model.animations):
        kinds: Counter[str] = Counter()
        for track in anim.tracks:
            if track.keys and all_rotation(track.keys):  # a packed table is counted without decoding it
                kinds["rotation"] += len(track.keys)
                continue
            for key in track.keys:
                kinds[_kind(key)] += 1
        keys = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "no keys"
        joints = sorted({t.joint_id for t in anim.tracks})
        lines.append(
            f"  [{i}] {str(anim.name)!r}: {anim.length} frames "
            f"({anim.seconds(NTSC_VSYNC_HZ):.3f} s NTSC, {anim.seconds(PAL_VSYNC_HZ):.3f} s PAL), "
            f"{'looping' if anim.is_looping else 'plays once'}"
        )
        lines.append(f"      {len(anim.tracks)} track(s) on joints {_ranges(joints)}; keys: {keys}")
        if anim.markers:
            marks = ", ".join(f"{str(m.name)!r}@{m.frame}" for m in anim.markers)
            lines.append(f"      {len(anim.markers)} marker(s): {marks}")
        else:
            lines.append("      no markers")
    if model.trailing:
        lines.append(f"  {len(model.trailing)} trailing byte(s) after the last animation")
    return "\n".join(lines)


def _kind(key: object) -> str:
    if isinstance(key, RotationKey):
        return "rotation"
    if isinstance(key, TranslationKey):
        return "translation"
    assert isinstance(key, UnknownKey)
    return f"unknown type {key.key_type}"


def _ranges(values: list[int]) -> str:
    """[0, 1, 2, 5] -> "0-2, 5"."""
    if not values:
        return "none"
    out, start, prev = [], values[0], values[0]
    ended: list[int | None] = [*values[1:], None]
    for v in ended:
        if v is not None and v == prev + 1:
            prev = v
            continue
        out.append(f"{start}-{prev}" if prev != start else f"{start}")
        if v is not None:
            start = prev = v
    return ", ".join(out)
