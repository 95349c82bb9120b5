"""Editing a clip's joints: a new base-state value for a joint is applied to every frame and
the animation is encoded again (:mod:`.encode`), so that what a reader decodes is the edit.

A joint's frame is its Base State value plus the deltas of Sample Data (:mod:`.decode`). An
edit of that base value keeps the animation's motion and moves its base: a translation edit
adds the same offset to every frame, a rotation edit turns every frame by the turn that takes
the old base to the new one (for a joint that does not move, both set every frame to the
new value). The frames are then encoded as a conversion encodes them, the other sections
(custom tracks, triggers, path, Motion Data, the rest of Built) kept as they are
(:func:`.sections.clip_model` with the clip as its template).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...quaternion import conjugate, quat_multiply, wxyz_to_xyzw, xyzw_to_wxyz
from ..model import AnimclipFile
from ..tags import FLAG_LOOPING
from .decode import decode_clip
from .encode import EncodedAnimation, Frames, Tolerance, encode
from .sections import clip_model

KEPT_BUILT_FIELDS = ("fps", "duration", "resident_fps", "num_resident_samples")
"""Built fields the encoder sets from the frames that an edit of joints keeps as they were
(the clip's timing and its streaming fields are not the joints')."""


@dataclass(frozen=True)
class JointEdit:
    """A joint's new base-state value: rotation (x, y, z, w) and translation, each None when
    it is not edited; ``old_*`` are the values the clip held (as its view decodes them)."""

    rotation: np.ndarray | None = None
    translation: np.ndarray | None = None
    old_rotation: np.ndarray | None = None
    old_translation: np.ndarray | None = None


def edit_joints(model: AnimclipFile, edits: Mapping[int, JointEdit],
                tolerance: Tolerance | None = None) -> tuple[AnimclipFile, EncodedAnimation]:
    """The clip ``model`` with the joints in ``edits`` (by Base State index) moved as the
    module doc says, encoded again within ``tolerance`` (the encoder's default: what the
    result's ``error`` reaches). Errors of the decoder or the encoder are theirs."""
    frames = decode_clip(model)
    pose = frames.frames()
    rotation = np.array(pose.rotation, dtype=np.float64)
    translation = np.array(pose.translation, dtype=np.float64)
    scale = np.array(pose.scale, dtype=np.float64)
    for joint, edit in edits.items():
        if edit.translation is not None and edit.old_translation is not None:
            translation[:, joint] += np.asarray(edit.translation, np.float64) - edit.old_translation
        if edit.rotation is not None and edit.old_rotation is not None:
            new = xyzw_to_wxyz(np.asarray(edit.rotation, np.float64))
            turn = quat_multiply(new / np.linalg.norm(new), conjugate(xyzw_to_wxyz(edit.old_rotation)))
            rotation[:, joint] = wxyz_to_xyzw(quat_multiply(turn, xyzw_to_wxyz(rotation[:, joint])))
    built = model.built
    assert built is not None  # (decode_clip refuses a clip without Built)
    encoded = encode(Frames(rotation, translation, scale), tolerance or Tolerance(),
                     looping=bool(built.flags & FLAG_LOOPING))
    edited = clip_model(encoded, frames.joint_hashes, fps=built.fps, template=model)
    new_built = edited.built
    assert new_built is not None
    for name in KEPT_BUILT_FIELDS:
        setattr(new_built, name, getattr(built, name))
    return edited, encoded
