"""The budget of an export, before it is written: what the budget panel shows.

:func:`armature_budget` runs the export with the panel's options (nothing written), then
asks the library (:mod:`animspec.animbin.budget`) for the rows: per action its frames, keys
per track against the engine's 30, tracks against 50, markers against 5, the largest error
the console shows against Blender's own pose (the engine's exporter's rule, evaluated at
each console frame's time, between Blender frames when the scene runs at another rate);
per file the actions against 5 and the size. When the scene's frame rate is not the
region's, the notes say what that does, measured on this armature: how many console frames
each action becomes, and how far the engine's exporter's keys (Blender frame first + k as
key k, whatever the rates) are from the pose at the console's times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import bpy
import numpy as np

from animspec.animbin.budget import Budget, BudgetRow, budget, scene_rate_notes, units_apart
from animspec.animbin.model import MAX_KEYS
from animspec.animbin.playback import Refresh
from animspec.common.errors import AnimspecError

from .exporter import ExportResult, Which, export_animbin, exporter_quaternions, select_actions
from .importer import blender_frames_per_vsync, scene_fps
from .rig import armature_joints
from .wording import ANIMBIN_ERRORS


@dataclass
class PanelState:
    """What the panel shows for one armature: the rows, the notes, or why there are none."""

    rows: list[BudgetRow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    refusal: str | None = None

    def lines(self) -> list[tuple[str, bool]]:
        """(text, fits) per line, in the panel's order."""
        if self.refusal is not None:
            return [(f"refused: {self.refusal}", False)]
        return [(row.text(), row.ok) for row in self.rows] + [(f"note: {n}", False) for n in self.notes]

    def text(self) -> str:
        return "\n".join(text for text, _ in self.lines())


def armature_budget(
    arm: bpy.types.Object,
    *,
    which: Which = "all",
    chosen: Sequence[str] = (),
    region: Refresh = "ntsc",
    fit="best",
    fp12="round",
    max_error_deg: float = ANIMBIN_ERRORS.max_error,
    joint_names: Sequence[str] | None = None,
) -> tuple[Budget, ExportResult]:
    """The budget of exporting ``arm`` with these options (the Export panel's)."""
    result = export_animbin(arm, which=which, chosen=chosen, region=region, fit=fit, fp12=fp12,
                            max_error_deg=max_error_deg, joint_names=joint_names)
    actions = select_actions(arm, which, chosen)
    bones = armature_joints(arm, joint_names)
    scene = bpy.context.scene
    per_vsync = blender_frames_per_vsync(scene, region)
    references = result.references  # the Export report's own: the same figure, by the same function
    found = budget(result.animbin, references)
    exporter_units = None
    spans = []
    for action, reference in zip(actions, references):
        first, last = (int(round(f)) for f in action.frame_range)
        spans.append((action.name, float(last - first + 1)))
        if per_vsync != 1.0:
            # The engine's exporter: key k is Blender frame first + k (at most 30 of them).
            whole = [first + k for k in range(min(last - first + 1, MAX_KEYS, reference.shape[0]))]
            theirs = exporter_quaternions(arm, action, bones, whole)
            units = units_apart(np.array([theirs[f] for f in whole]), reference[: len(whole)])
            exporter_units = max(exporter_units or 0.0, units)
    found.notes = scene_rate_notes(scene_fps(scene), region, spans, exporter_units)
    return found, result


def panel_state(arm: bpy.types.Object, **options) -> PanelState:
    """The budget as the panel shows it; a refusal (over a limit the export itself refuses)
    becomes the panel's one line, in the add-on's words."""
    try:
        found, _ = armature_budget(arm, **options)
    except AnimspecError as exc:
        return PanelState(refusal=str(exc))
    return PanelState(found.rows(), found.notes)
