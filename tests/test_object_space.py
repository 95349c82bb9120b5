"""The .animclip encoder's object-space measure and search (issue 30), as properties.

- The incremental bookkeeping the search relies on (one joint's local changed, its subtree
  measured again) gives what a fresh evaluation of the whole clip gives.
- On random hierarchies (parents listed in any order, scale included), the encoder meets the
  object-space bound it is given whenever the format can (above the floor it reports), and
  the figure it reports is the written file's, measured here by a forward kinematics of this
  file's own (4x4 matrices, rotations by the benchmark's reference formula, not the package's).
- A joint's error moves what it carries: the same rotation error on a root costs more than
  on a leaf, so the search gives the root more bits.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings, strategies as st

from animspec.animclip.frames.encode import Frames, encode
from animspec.animclip.frames.object_space import (
    HierarchyError,
    ObjectSpace,
    ObjectTolerance,
    checked_parents,
    local_matrices,
)

sys.path.insert(0, str(ROOT / "bench"))
import bvh  # noqa: E402  (bench/bvh.py: the benchmark's reference, written from the formula, not the package's)


def vertex_errors(read, given, parents, shell):
    """(F, J) the farthest of each joint's three virtual vertices, read against given, each a
    (rotations xyzw, translations, scales) triple of (F, J, ...) local transforms."""
    def world(rot, pos, scl):
        local = np.zeros(np.shape(rot)[:2] + (4, 4))
        local[..., :3, :3] = bvh.quaternion_matrices(rot) * np.asarray(scl, np.float64)[..., None, :]
        local[..., :3, 3] = pos
        local[..., 3, 3] = 1
        out = np.full_like(local, np.nan)
        while np.isnan(out).any():  # parents in any order: fill in as parents become known
            for j, p in enumerate(parents):
                if p < 0:
                    out[:, j] = local[:, j]
                elif not np.isnan(out[:, p]).any():
                    out[:, j] = out[:, p] @ local[:, j]
        vertices = np.concatenate([np.eye(3) * shell, np.ones((1, 3))])
        return out @ vertices
    return np.linalg.norm(world(*read) - world(*given), axis=-2).max(axis=-1)


FRAMES = 300
"""Long enough for the search to judge steps on a subtree's worst frames first (and to take
back what every frame refuses)."""


@st.composite
def clips(draw):
    """A clip of 2-7 joints under random parents (listed in any order), FRAMES frames of
    turning (smooth, with a little noise, as motion capture has), some translation and,
    sometimes, a non-uniform scale."""
    n = draw(st.integers(2, 7))
    order = draw(st.permutations(range(n)))  # order[0] is the root; each later one hangs above
    parents = [-1] * n
    for i in range(1, n):
        parents[order[i]] = order[draw(st.integers(0, i - 1))]
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, FRAMES)[:, None]
    axes = rng.normal(size=(n, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    angle = rng.uniform(-1.5, 1.5, n) * np.sin(2 * np.pi * (t * rng.uniform(0.5, 2, n) + rng.uniform(0, 1, n)))
    angle = angle + rng.normal(0, 0.002, angle.shape)
    rot = np.concatenate([np.sin(angle / 2)[..., None] * axes, np.cos(angle / 2)[..., None]], axis=-1)
    pos = np.broadcast_to(rng.uniform(-0.4, 0.4, (1, n, 3)), (FRAMES, n, 3)).copy()
    pos[:, order[0]] += t * rng.uniform(-1, 1, 3)  # the root travels
    scl = None
    if draw(st.booleans()):
        scl = np.ones((FRAMES, n, 3))
        scl[:, order[-1]] = 1 + 0.3 * t * rng.uniform(-1, 1, 3)
    return Frames(rot, pos, scl), parents


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clips(), st.sampled_from([3e-4, 1e-3, 5e-3]), st.sampled_from([0.03, 0.2]))
def test_the_encoder_meets_the_bound_and_reports_the_written_error(clip, bound, shell):
    from animspec.animclip.frames.decode import decode_clip
    from animspec.animclip.frames.encode import joint_hashes
    from animspec.animclip.frames.sections import clip_model
    from animspec.animclip.parse import read_bytes
    from animspec.animclip.write import write_bytes

    frames, parents = clip
    encoded = encode(frames, ObjectTolerance(bound, shell), parents=parents)
    data = write_bytes(clip_model(encoded, joint_hashes([f"j{i}" for i in range(len(parents))])))
    decoded = decode_clip(read_bytes(data)).frames(0, encoded.frames)
    rot, pos, scl = frames.checked()
    errors = vertex_errors((decoded.rotation, decoded.translation, decoded.scale), (rot, pos, scl), parents, shell)
    assert encoded.object_error.max == pytest.approx(errors.max(), rel=1e-5, abs=1e-12)
    assert encoded.object_error.p99 == pytest.approx(np.percentile(errors, 99), rel=1e-5, abs=1e-12)
    floor = encode(frames, ObjectTolerance(1e-9, shell), parents=parents).object_error.max
    assert errors.max() <= max(bound, floor) * (1 + 1e-9)


@settings(max_examples=25, deadline=None)
@given(clips(), st.data())
def test_measuring_again_where_a_joint_changed_equals_measuring_everything(clip, data):
    frames, parents = clip
    rot, pos, scl = frames.checked()
    par = checked_parents(parents, len(parents))
    space = ObjectSpace(rot, pos, scl, par, 0.05)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    noisy = rot + rng.normal(0, 0.01, rot.shape)
    lm = local_matrices(noisy / np.linalg.norm(noisy, axis=-1, keepdims=True), scl)
    lt = pos + rng.normal(0, 1e-3, pos.shape)
    space.set_all(lm, lt)
    changed = data.draw(st.lists(st.integers(0, len(parents) - 1), min_size=1, max_size=3))
    for j in changed:
        lm[:, j] = local_matrices(rot[:, j], scl[:, j])  # back to exact for these joints
        lt[:, j] = pos[:, j]
        space.set_local(j, lm[:, j], lt[:, j])
    space.refresh(changed)
    fresh = ObjectSpace(rot, pos, scl, par, 0.05)
    np.testing.assert_allclose(space.err, fresh.set_all(lm, lt), rtol=1e-9, atol=1e-15)
    for j in range(len(parents)):  # and a trial's figure is what committing it would give
        worst = space.trial(j, lm[:, j], lt[:, j])
        assert worst == pytest.approx(space.err[:, space.subtree[j]].max(), rel=1e-9, abs=1e-15)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clips(), st.sampled_from([3e-4, 2e-3]))
def test_the_reported_error_is_a_fresh_measure_of_the_integers_written(clip, bound):
    """The encoder reports the error its search last measured, joint by joint as it went;
    that must be what measuring the written integers afresh, all joints at once, gives:
    exactly, or the search judged rounding choices the file does not hold."""
    from animspec.animclip.frames.coding import dequantise

    frames, parents = clip
    encoded = encode(frames, ObjectTolerance(bound, 0.05), parents=parents)
    values = np.repeat(encoded.base[None].astype(np.int64), encoded.frames, axis=0)
    flat = values.reshape(encoded.frames, -1)
    flat[:, encoded.components] += encoded.fields.astype(np.int64) << encoded.shifts
    scale, rotation, translation = (np.asarray(v, np.float32).astype(np.float64) for v in dequantise(values))
    rot, pos, scl = frames.checked()
    fresh = ObjectSpace(rot, pos, scl, checked_parents(parents, len(parents)), 0.05)
    err = fresh.set_all(local_matrices(rotation, scale), translation)
    np.testing.assert_array_equal(encoded.object_error.per_joint, err.max(axis=0))


def test_a_joint_rounds_alone_as_it_rounds_among_the_others():
    """The search decodes one joint at a time, the writer all at once: each quaternion's
    choice of rounding (16 ways) must not depend on what else is in the array."""
    from animspec.animclip.frames.encode import _rotation_fields

    rng = np.random.default_rng(7)
    frames, joints = 500, 9
    q = rng.normal(size=(frames, joints, 4))
    q *= 32767 / np.linalg.norm(q, axis=-1, keepdims=True)
    base = np.floor(q.min(axis=0))
    step = np.exp2(rng.integers(0, 9, size=(joints, 4))).astype(np.float64)
    top = np.rint((q.max(axis=0) - base) / step)
    together = _rotation_fields(q, base, step, top)
    for j in range(joints):
        alone = _rotation_fields(q[:, j:j + 1], base[j:j + 1], step[j:j + 1], top[j:j + 1])
        np.testing.assert_array_equal(alone[:, 0], together[:, j])
    # and the rounding is the best of the 16 for a reader that normalises: no way is nearer
    value = base + together * step
    best = np.abs(np.sum(value * q, axis=-1)) / np.linalg.norm(value, axis=-1)
    for way in range(16):
        up = (way >> np.array([3, 2, 1, 0])) & 1
        other = np.minimum(np.clip(np.floor((q - base) / step), 0, top) + up, top)
        v = base + other * step
        assert (np.abs(np.sum(v * q, axis=-1)) / np.linalg.norm(v, axis=-1) <= best * (1 + 1e-12)).all()


def test_a_root_gets_more_bits_than_a_leaf_for_the_same_motion():
    """Two joints turning alike, one the root of a 1 m chain of five, one at its end: the
    root's rotation moves every vertex below it, so its steps must be finer."""
    t = np.linspace(0, 2 * np.pi, 120)[:, None]
    angle = 0.8 * np.sin(t) * np.ones((1, 5))
    rot = np.concatenate([np.sin(angle / 2)[..., None] * [0.0, 0.0, 1.0], np.cos(angle / 2)[..., None]], axis=-1)
    pos = np.zeros((120, 5, 3))
    pos[:, 1:, 0] = 0.25
    encoded = encode(Frames(rot, pos), ObjectTolerance(2e-4), parents=[-1, 0, 1, 2, 3])
    width = {int(c) // 12: 0 for c in encoded.components}
    for c, w in zip(encoded.components, encoded.widths):
        width[int(c) // 12] += int(w)
    assert width[0] > width[4], width


def test_parents_that_are_no_hierarchy_are_refused():
    with pytest.raises(HierarchyError, match="own ancestor"):
        checked_parents([1, 0], 2)
    with pytest.raises(HierarchyError, match="not another joint"):
        checked_parents([-1, 5], 2)
    with pytest.raises(HierarchyError, match="joint 1: parent 2 is not another joint"):
        checked_parents([-1, 2], 2)  # (one past the last joint, the first index out of range)
    with pytest.raises(HierarchyError, match="2 parents for 3 joints"):
        checked_parents([-1, 0], 3)


def test_a_clip_is_within_a_joint_local_tolerance_only_when_every_kind_is():
    from animspec.animclip.frames.encode import ClipError, KindError, Tolerance

    def kind(worst: float) -> KindError:
        return KindError(np.array([worst]), np.array([0]))

    tolerance = Tolerance(0.1, 1e-3, 1e-3)
    assert ClipError(kind(0.1), kind(1e-3), kind(1e-3)).within(tolerance)
    for over in (ClipError(kind(0.11), kind(0.0), kind(0.0)), ClipError(kind(0.0), kind(2e-3), kind(0.0)),
                 ClipError(kind(0.0), kind(0.0), kind(2e-3))):
        assert not over.within(tolerance)


def test_parents_listed_after_their_children_are_ordered_parents_first():
    """Joint 0 hangs under joint 2, which hangs under the root, joint 3: every parent comes
    before its children in the order the measure walks, and depth counts from the roots."""
    from animspec.animclip.frames.object_space import topological_order

    parents = np.array([2, 0, 3, -1, 3])
    order = list(topological_order(parents))
    assert order.index(3) < order.index(2) < order.index(0) < order.index(1)
    assert order[0] == 3 and sorted(order) == [0, 1, 2, 3, 4]


def test_the_measures_of_a_clip_without_frames_or_joints_are_zero_and_name_joint_0():
    from animspec.animclip.frames.object_space import JointWorst, object_error_of

    none = object_error_of(np.zeros((0, 3)), 0.05)
    assert (none.max, none.p99, none.joint, none.frame, none.shell) == (0.0, 0.0, 0, 0, 0.05)
    assert none.per_joint.shape == (3,) and not none.per_joint.any() and none.frames.dtype == np.int64
    empty = JointWorst(np.zeros(0), np.zeros(0, np.int64))
    assert (empty.worst, empty.joint, empty.frame) == (0.0, 0, 0)
    one = object_error_of(np.array([[0.0, 2.0], [3.0, 1.0]]), 0.03)
    assert (one.max, one.joint, one.frame) == (3.0, 0, 1) and one.p99 == pytest.approx(np.percentile([0, 2, 3, 1], 99))
    assert ObjectTolerance().shell == pytest.approx(0.03) and ObjectTolerance().max_error == pytest.approx(2e-4)


def saturation_clip(joints: int) -> tuple[Frames, float, int]:
    """``joints`` separate roots, each moving along x over 255 values a step of 2^-8 m apart
    (8-bit fields at that step, which a bound of 0.6 step keeps: the next step errs a whole
    step), joint 0 with one frame 0.55 step past the 8-bit field's reach. Nearest rounding
    gives joint 0 a 9th bit; held at the top, that frame errs 0.55 step, within the bound.
    Returns the frames, the bound and the frame."""
    frames, step = 200, 2.0**-8
    angle = np.linspace(0, 4 * np.pi, frames)
    x = step * np.rint(127 * (1 + np.sin(angle)))  # 0 .. 254 steps
    rot = np.tile([0.0, 0.0, 0.0, 1.0], (frames, joints, 1))
    pos = np.zeros((frames, joints, 3))
    pos[:, :, 0] = x[:, None]
    frame = int(np.argmax(x))
    pos[frame, 0, 0] = 255.55 * step
    return Frames(rot, pos), 0.6 * step, frame


@pytest.mark.parametrize("joints, saturated", [(4, True), (3, False)])
def test_a_field_a_step_past_a_power_of_two_saturates_when_that_saves_a_word(joints, saturated):
    """Four 8-bit fields and one frame that would make one of them 9 bits: 33 bits, a second
    u32 word in every sample, unless that frame's field is held at the top of 8 bits, which
    the bound allows: it is. With three, 25 bits fit one word either way, so nothing is held
    (the frame keeps its nearest value and its smaller error)."""
    frames, bound, frame = saturation_clip(joints)
    encoded = encode(frames, ObjectTolerance(bound, 0.03), parents=[-1] * joints)
    x = {int(c) // 12: i for i, c in enumerate(encoded.components) if int(c) % 12 == 8}
    assert sorted(x) == list(range(joints))
    assert all(int(encoded.widths[x[j]]) == 8 for j in range(1, joints))  # (the setting this test needs)
    assert int(encoded.widths[x[0]]) == (8 if saturated else 9)
    assert int(encoded.fields[frame, x[0]]) == (255 if saturated else 256)
    assert encoded.stride == 4 * (1 if saturated or joints * 8 + 1 <= 32 else 2)
    assert encoded.object_error.max <= bound


def test_a_tolerance_is_checked_max_error_first_and_cannot_change():
    """Both values out of range: the refusal names ``max_error``, the first of the two (the
    order a front end lists them); a tolerance is a value (frozen, hashable), so a default
    shared by every call (``encode``'s) cannot be changed by one of them."""
    import dataclasses

    from animspec.common.ranges import OptionRangeError

    for bad, option in (({"max_error": 0.0, "shell": 0.0}, "max_error"), ({"shell": 0.0}, "shell")):
        with pytest.raises(OptionRangeError) as caught:
            ObjectTolerance(**bad)
        assert caught.value.option == option
    tolerance = ObjectTolerance(1e-3, 0.05)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tolerance.max_error = 1.0  # type: ignore[misc]
    assert hash(tolerance) == hash(ObjectTolerance(1e-3, 0.05)) and tolerance == ObjectTolerance(1e-3, 0.05)


def test_each_joints_worst_is_found_over_the_frames_of_that_joint():
    """(F, J) errors with F != J: each joint's largest over its own column, and that frame."""
    from animspec.animclip.frames.object_space import worst_per_joint

    per_frame = np.array([[0.0, 5.0], [4.0, 1.0], [2.0, 0.0]])  # 3 frames, 2 joints
    worst, frames = worst_per_joint(per_frame)
    assert worst.tolist() == [4.0, 5.0] and frames.tolist() == [1, 0] and frames.dtype == np.int64
    worst, frames = worst_per_joint(np.zeros((0, 4)))  # no frames: one zero per joint
    assert worst.shape == frames.shape == (4,) and frames.dtype == np.int64


def test_the_measure_of_a_clip_of_no_joints_is_empty():
    from animspec.animclip.frames.object_space import object_error

    rot, pos, scl = np.zeros((3, 0, 4)), np.zeros((3, 0, 3)), np.ones((3, 0, 3))
    none = object_error(rot, pos, scl, rot, pos, scl, None)
    assert none.per_joint.shape == none.frames.shape == (0,) and (none.max, none.joint, none.frame) == (0.0, 0, 0)


def test_rotations_read_at_any_length_are_measured_as_their_unit_rotations():
    """``object_error`` normalises each rotation read on its own: a clip read back at twice
    (or any per-frame) length is the rotations given, error 0 (frames of different turns, so a
    norm taken across the frames instead would not be)."""
    from animspec.animclip.frames.object_space import object_error

    angle = np.linspace(0.0, 2.0, 5)
    rot = np.zeros((5, 2, 4))
    rot[:, :, 0], rot[:, :, 3] = np.sin(angle / 2)[:, None], np.cos(angle / 2)[:, None]
    pos, scl = np.tile([0.0, 1.0, 0.0], (5, 2, 1)), np.ones((5, 2, 3))
    lengths = np.array([2.0, 0.5, 3.0, 1.0, 7.0])[:, None, None]
    err = object_error(rot * lengths, pos, scl, rot, pos, scl, [-1, 0], shell=0.1)
    assert err.max < 1e-12


def chain_space(frames: int = 1, shell: float = 0.1) -> tuple[ObjectSpace, np.ndarray, np.ndarray, np.ndarray]:
    """A root at (10, 0, 0), away from the origin, and its child one unit up (y), still:
    the space and the rotations, translations, scales given."""
    rot = np.tile([0.0, 0.0, 0.0, 1.0], (frames, 2, 1))
    pos = np.tile([[10.0, 0.0, 0.0], [0.0, 1.0, 0.0]], (frames, 1, 1))
    scl = np.ones((frames, 2, 3))
    return ObjectSpace(rot, pos, scl, np.array([-1, 0]), shell), rot, pos, scl


def test_a_joints_reach_is_its_subtrees_farthest_vertex_from_it():
    """The root's subtree reaches the child's vertices: 1 unit up, its x and z vertices a
    shell further out (sqrt(1 + shell^2)) and its y vertex 1 + shell; a leaf reaches its own
    shell. Measured from the joint (at 10 on x), not from the origin; a reach below 1 as it is."""
    space, *_ = chain_space(shell=0.1)
    np.testing.assert_allclose(space.reach(), [1.1, 0.1], rtol=1e-12)


def test_a_trial_stops_only_past_its_limit():
    """``limit``: the trial stops at the first joint whose error passes it. A joint erring
    exactly the limit has not passed it, so the trial goes on to the child, which errs more
    (the root's turn is carried a unit further)."""
    space, rot, pos, scl = chain_space()
    space.set_all(local_matrices(rot, scl), pos)
    turned = np.array([[np.sin(1e-3), 0.0, 0.0, np.cos(1e-3)]])
    lm, lt = local_matrices(turned[:, None], scl[:, :1])[:, 0], pos[:, 0]
    own = space.trial(0, lm, lt, limit=-1.0)  # stops at the root, the first of its subtree
    full = space.trial(0, lm, lt)
    assert full > own > 0
    assert space.trial(0, lm, lt, limit=own) == full


def test_focus_is_the_worst_frames_and_every_strideth():
    """Frames 7 and 230 err most on the child (the root's subtree), the others a little each;
    with count 2 and stride 100 the focus is those two and frames 0, 100 and 200, nothing else."""
    space, rot, pos, scl = chain_space(frames=300)
    lossy = pos.copy()
    lossy[:, 1, 0] += 1e-3 * np.random.default_rng(5).random(300)
    lossy[7, 1, 0], lossy[230, 1, 0] = 1.0, 0.5
    space.set_all(local_matrices(rot, scl), lossy)
    assert space.focus(0, 2, 100).tolist() == [0, 7, 100, 200, 230]
    assert space.focus(1, 2, 1000).tolist() == [0, 7, 230]
