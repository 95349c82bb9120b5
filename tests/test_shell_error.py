"""tools/shell_error.py, the object-space error `make luna-check` measures (ACL's metric:
virtual vertices a shell distance from each joint along its local axes), against displacements
worked out by hand from the metric's definition: a turn by angle a moves a point at distance r
from its axis by the chord 2 r sin(a / 2); a translation moves every point by its length."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import tool_module

_shell_error = tool_module("shell_error")
ACL_SHELL_METRES = _shell_error.ACL_SHELL_METRES
local_matrices = _shell_error.local_matrices
object_matrices = _shell_error.object_matrices
shell_errors = _shell_error.shell_errors
summarise = _shell_error.summarise

SHELL = ACL_SHELL_METRES


def turn_z(angle: float) -> list[float]:
    """x, y, z, w of a turn about +z."""
    return [0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)]


def chain(root_turn: float, root_move=(0.0, 0.0, 0.0), child_offset=(0.25, 0.0, 0.0)) -> np.ndarray:
    """One frame of a root and one child (parents [-1, 0]), object space."""
    rot = np.array([[turn_z(root_turn), turn_z(0.0)]])
    pos = np.array([[root_move, child_offset]])
    return object_matrices(local_matrices(rot, pos), [-1, 0])


def test_acl_shell_is_three_centimetres():
    assert ACL_SHELL_METRES == 0.03


def test_local_matrix_turns_scales_and_moves():
    rot, pos, scale = np.array([[turn_z(math.pi / 2)]]), np.array([[[1.0, 2.0, 3.0]]]), np.array([[[2.0, 1.0, 1.0]]])
    m = local_matrices(rot, pos, scale)[0, 0]
    # T R S: local x (scaled 2) lands on object +y, then the translation
    assert m @ np.array([1.0, 0, 0, 1]) == pytest.approx([1.0, 4.0, 3.0, 1.0])
    assert m @ np.array([0, 1.0, 0, 1]) == pytest.approx([0.0, 2.0, 3.0, 1.0])


def test_a_turned_root_moves_its_vertices_by_the_chord():
    a = 0.01
    err = shell_errors(chain(0.0), chain(a), SHELL)
    # the root's x and y vertices sit SHELL from the axis; the child's x vertex L + SHELL
    assert err[0, 0] == pytest.approx(2 * SHELL * math.sin(a / 2), rel=1e-9)
    assert err[0, 1] == pytest.approx(2 * (0.25 + SHELL) * math.sin(a / 2), rel=1e-9)


def test_a_turn_about_the_vertex_axis_alone_would_not_show():
    # a joint turned about its own z: its z vertex stays, so the worst of three is x's or y's
    want, got = chain(0.0), chain(0.2)
    moved = shell_errors(want, got, SHELL)[0, 0]
    assert moved == pytest.approx(2 * SHELL * math.sin(0.1))
    assert moved > 0


def test_a_moved_root_moves_every_vertex_by_the_move():
    move = (0.003, -0.004, 0.0)
    err = shell_errors(chain(0.3), chain(0.3, root_move=move), SHELL)
    assert err[0] == pytest.approx([0.005, 0.005], rel=1e-9)


def test_the_shell_distance_scales_rotation_error_not_translation():
    a = 0.02
    near = shell_errors(chain(0.0), chain(a), 0.01)[0, 0]
    far = shell_errors(chain(0.0), chain(a), 0.04)[0, 0]
    assert far == pytest.approx(4 * near, rel=1e-9)


def test_parents_in_any_order():
    rot = np.array([[turn_z(0.1), turn_z(0.2), turn_z(0.3)]])
    pos = np.array([[[0, 0, 0], [1.0, 0, 0], [0, 1.0, 0]]])
    ordered = object_matrices(local_matrices(rot, pos), [-1, 0, 1])
    # the same skeleton with the joints listed leaf first
    flipped = object_matrices(local_matrices(rot[:, ::-1], pos[:, ::-1]), [1, 2, -1])
    np.testing.assert_allclose(flipped[:, ::-1], ordered)
    # the leaf: turned 0.1 + 0.2 + 0.3 in all, at (cos .1, sin .1) + the turned (0, 1)
    assert ordered[0, 2, :2, 3] == pytest.approx([math.cos(0.1) - math.sin(0.3), math.sin(0.1) + math.cos(0.3)])
    assert ordered[0, 2, :2, 0] == pytest.approx([math.cos(0.6), math.sin(0.6)])


def test_a_cycle_is_refused():
    with pytest.raises(ValueError, match="cycle"):
        object_matrices(np.tile(np.eye(4), (1, 2, 1, 1)), [1, 0])


def test_summary_max_p99_and_where():
    errors = np.arange(1.0, 101.0).reshape(25, 4)  # 1..100: the 99th percentile is 99.01
    errors[7, 2], errors[24, 3] = 500.0, 7.0
    s = summarise(errors)
    assert (s.max, s.frame, s.joint) == (500.0, 7, 2)
    # sorted: 1..99 without 31 and 100, plus 7 and 500; rank 0.99 * 99 = 98.01 -> 99 + 0.01 * 401
    assert s.p99 == pytest.approx(99 + 0.01 * 401)
    assert s.scaled(100).max == 50000.0
