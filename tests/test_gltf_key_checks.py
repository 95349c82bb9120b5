"""The one check every animation written passes (gltf/builder.py ``key_data_problem``): the
first key glTF cannot hold and what is wrong with it, in the words and numbers a user reads
(glTF 2.0 section 3.11: times finite, not negative, strictly increasing; values finite)."""

from __future__ import annotations

import numpy as np
import pytest

from animspec.gltf.builder import KeyDataError, key_data_problem

F32 = np.float32


@pytest.mark.parametrize(("times", "values", "path", "expected"), [
    ([0.0, 1.0, 2.0], np.zeros((3, 3)), "translation", None),
    ([0.0, np.inf, np.nan], np.zeros((3, 3)), "translation", (1, "has a time that is not finite (inf s)")),
    ([0.0, 0.5, -1.0, -2.0], np.zeros((4, 3)), "scale", (2, "has a negative time (-1.0 s)")),
    ([0.0, 0.5, 0.5, 0.4], np.zeros((4, 3)), "translation",
     (2, "is at 0.5 s, not after the one before it (0.5 s): key times must strictly increase (as 32-bit floats)")),
    ([0.0, 0.5, 0.25], np.zeros((3, 3)), "translation",  # a key before the one before it: both times named
     (2, "is at 0.25 s, not after the one before it (0.5 s): key times must strictly increase (as 32-bit floats)")),
    ([0.0, 0.25, 0.5], [[0, 0, 0, 1], [0, 0, 0, 1], [0, np.nan, np.inf, 1]], "rotation",
     (2, "is not finite (rotation y = nan)")),
    ([0.0, 1.0], [[1.0, 2.0, 3.0, 4.0, np.inf], [1.0, 2.0, 3.0, 4.0, 5.0]], "weights",
     (0, "is not finite (weights 4 = inf)")),
])
def test_the_first_key_glTF_cannot_hold_is_named_with_its_numbers(times, values, path, expected):
    assert key_data_problem(np.asarray(times, F32), np.asarray(values, F32), path) == expected


def test_the_refusal_keeps_its_facts_apart():
    error = KeyDataError("walk", "hips", "rotation", "frame", 7, "is not finite (rotation x = nan)")
    assert (error.animation, error.node, error.path, error.keys, error.key) == ("walk", "hips", "rotation", "frame", 7)
    assert str(error) == ("animation 'walk', rotation of node 'hips': frame 7 is not finite (rotation x = nan): "
                          "a glTF cannot hold it")
