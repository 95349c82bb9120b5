"""The .animclip encoder's search for error shifts (issue 31), held by properties against
independent references rather than by the bytes it writes:

- ``_choose_shifts`` against an exhaustive search over every shift a small element's code can
  say, whichever shift it starts from;
- the object-space search's start, when the frames it was chosen on miss the clip's worst
  frame: the bound is still met (measured with the reference decoder and this file's own
  forward kinematics);
- a field too wide for the format is refused naming the kind whose error to raise.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from animclip_reference import Counts, decode_values, transforms
from hypothesis import given, settings, strategies as st
from test_animclip_encode import sample_elem_payload
from test_object_space import vertex_errors

from animspec.animclip.frames import encode as encoder
from animspec.animclip.frames.encode import EncodeError, Frames, Tolerance, _choose_shifts, encode, tolerance_for
from animspec.animclip.frames.coding import I16_MAX
from animspec.animclip.frames.object_space import ObjectTolerance

COARSEST = 15
"""A small element's shift is its code's high nibble (docs/animclip.md 7.9): 0 to 15."""


def nearest(target: np.ndarray, base: np.ndarray, shift: int) -> np.ndarray:
    """Values base + (field << shift) nearest to ``target`` (F, C) with unsigned fields,
    written here from the format's rule: the field is the rounded quotient, never below 0."""
    step = 2.0**shift
    return base + np.maximum(np.rint((target - base) / step), 0) * step


def distance(values: np.ndarray, target: np.ndarray) -> float:
    """The largest distance over the frames between values and target (F, C)."""
    return float(np.linalg.norm(values - target, axis=-1).max(initial=0.0))


@st.composite
def components(draw):
    """A few joints of three components over a few frames, in quantised units: some still,
    some moving over up to 2^20 units, and a tolerance from a fraction of a unit to 2^13."""
    joints, frames = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    spans = np.exp2(rng.uniform(0, 20, joints)) * rng.integers(0, 2, joints)  # 0: a still joint
    target = 100.0 + rng.random((frames, joints, 3)) * spans[None, :, None]
    base = np.floor(target.min(axis=0))
    tolerance = 2.0 ** draw(st.floats(-2.0, 13.0))
    return target, base, tolerance


@settings(max_examples=60, deadline=None)
@given(components(), st.sampled_from([0, 1, 5, COARSEST]))
def test_choose_shifts_finds_what_an_exhaustive_search_finds_from_any_start(case, guess):
    """For each joint: error(s) is the largest distance when every component is rounded to a
    multiple of 2^s, computed here. Whatever shift the search starts from (too fine, too
    coarse), it ends at the coarsest s whose error and every finer one's are within the
    tolerance (the error grows with s on these inputs: checked), and at 0 for a still joint
    (no element, so no shift) or when even shift 0 is over."""
    target, base, tolerance = case
    joints = target.shape[1]

    def error_of(values: np.ndarray, which: np.ndarray) -> np.ndarray:
        return np.linalg.norm(values - target[:, which], axis=-1).max(axis=0)

    got = _choose_shifts(target, base.astype(np.int64), np.full(base.shape, np.inf), np.full(joints, guess),
                         tolerance, error_of)
    for j in range(joints):
        errors = [distance(nearest(target[:, j], base[j], s), target[:, j]) for s in range(COARSEST + 1)]
        still = np.ptp(target[:, j], axis=0).max() == 0
        within = [e <= tolerance for e in errors]
        expected = 0 if still or not within[0] else (within + [False]).index(False) - 1
        if not still and all(errors[s] <= errors[s + 1] for s in range(COARSEST)):
            assert got[j] == expected, (j, errors, tolerance)
        # whatever the shape of the errors: within the tolerance where shift 0 is, and no
        # coarser step the tolerance allows is left next to it
        if not still and within[0]:
            assert within[got[j]] and (got[j] == COARSEST or not within[got[j] + 1]), (j, errors, got[j])
        # and a start within the tolerance is only ever coarsened: never more bits than it
        if not still and within[guess]:
            assert got[j] >= guess, (j, errors, guess, got[j])


def shift_of(values: np.ndarray) -> np.ndarray:
    """The shift each joint's values (F, J, 1) were rounded at, for the target
    :func:`test_choose_shifts_follows_any_error_it_is_given` builds: frame k holds 3 * 2^k, a
    multiple of 2^s only where k >= s, so the first frame still exact is s."""
    exact = values[:, :, 0] == (3.0 * np.exp2(np.arange(COARSEST + 1)))[:, None]
    return exact.argmax(axis=0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5]), min_size=COARSEST + 1, max_size=COARSEST + 1),
                min_size=1, max_size=3),
       st.integers(0, COARSEST + 2))
def test_choose_shifts_follows_any_error_it_is_given(errors, guess):
    """``_choose_shifts`` as its docstring says, against a model written from it: from the
    start, finer while the error is over the tolerance (never below 0), then coarser while the
    next coarser error is within it, an error equal to the tolerance counting as within. The
    errors per shift are made up (any shape, with ties at the tolerance, 1.0, on most draws):
    ``error_of`` tells the shift from the values it is handed (:func:`shift_of`)."""
    table = np.array(errors)
    joints = len(table)
    target = np.tile((3.0 * np.exp2(np.arange(COARSEST + 1)))[:, None, None], (1, joints, 1))

    def error_of(values: np.ndarray, which: np.ndarray) -> np.ndarray:
        return table[which, shift_of(values)]

    got = _choose_shifts(target, np.zeros((joints, 1), np.int64), np.full((joints, 1), np.inf),
                         np.full(joints, guess), 1.0, error_of)
    for j in range(joints):
        s = min(guess, COARSEST)
        while s > 0 and table[j, s] > 1.0:
            s -= 1
        if table[j, s] <= 1.0:
            while s < COARSEST and table[j, s + 1] <= 1.0:
                s += 1
        assert got[j] == s, (table[j].tolist(), guess)


@pytest.mark.parametrize("guess", [0, 5, COARSEST])
def test_a_tolerance_finer_than_shift_0_gets_shift_0(guess):
    """A joint moving 800.3 units on x (a tenth of a unit off the grid at shift 0, a third
    at shift 1) within 0.1: shift 0, the finest a field has, from any start, never below."""
    target = np.array([[[100.0, 100.0, 100.0]], [[900.3, 100.0, 100.0]]])
    base = np.full((1, 3), 100, np.int64)

    def error_of(values: np.ndarray, which: np.ndarray) -> np.ndarray:
        return np.linalg.norm(values - target[:, which], axis=-1).max(axis=0)

    assert distance(nearest(target[:, 0], base[0], 0), target[:, 0]) > 0.1
    assert _choose_shifts(target, base, np.full((1, 3), np.inf), np.array([guess]), 0.1, error_of).tolist() == [0]


def chain(frames: int, joints: int, seed: int) -> tuple[Frames, list[int]]:
    """A chain of ``joints`` turning smoothly (with a little noise) about random axes, a
    fixed offset each: the start the search picks on every few frames of a long clip rarely
    holds on all of them (errors along a chain line up on some frame it did not look at)."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, frames)[:, None]
    axes = rng.normal(size=(joints, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    angle = rng.uniform(-1.5, 1.5, joints) * np.sin(2 * np.pi * (t * rng.uniform(0.5, 2, joints)
                                                                 + rng.uniform(0, 1, joints)))
    angle = angle + rng.normal(0, 0.002, angle.shape)
    rot = np.concatenate([np.sin(angle / 2)[..., None] * axes, np.cos(angle / 2)[..., None]], axis=-1)
    pos = np.broadcast_to(rng.uniform(-0.4, 0.4, (1, joints, 3)), (frames, joints, 3)).copy()
    return Frames(rot, pos), list(range(-1, joints - 1))


def reference_read(enc) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The encoder's sections decoded by the reference decoder (tests/animclip_reference.py)."""
    counts = Counts(enc.joints, enc.frames, enc.num_small, enc.num_large, enc.stride, enc.flags)
    read = transforms(decode_values(enc.base_state_records().tobytes(), sample_elem_payload(enc),
                                    enc.sample_data_bytes(), counts))
    as_read = {k: np.asarray(v, np.float32).astype(np.float64) for k, v in read.items()}
    return as_read["rotation_xyzw"], as_read["translation"], as_read["scale"]


@pytest.mark.parametrize("seed", [0, 2])
def test_a_start_chosen_on_every_other_frame_still_meets_the_bound_on_all(seed):
    """512 frames: the search chooses its start on every second frame; on these chains that
    start errs past the bound on a frame it skipped, and the start is lowered until every frame
    meets it (a line trace of the encoder showed both seeds taking that path). What the
    reference decoder reads meets the bound at every frame."""
    frames, parents = chain(512, 5, seed)
    bound, shell = 1e-3, 0.03
    enc = encode(frames, ObjectTolerance(bound, shell), parents=parents)
    rot, pos, scl = frames.checked()
    errors = vertex_errors(reference_read(enc), (rot, pos, scl), parents, shell)
    assert errors.max() <= bound * (1 + 1e-9)


def test_a_field_past_32_bits_is_refused_naming_the_kind_to_relax():
    """A scale of 10^6 within 2e-5: the scale exponent is the finest the format has, 14 (2^-15
    would be needed), so the field is (10^6 - 1) 2^14, 34 bits: the refusal names the scale
    and the joint, which error to raise, and the bits needed."""
    rot = np.tile([0.0, 0.0, 0.0, 1.0], (2, 2, 1))
    scl = np.ones((2, 2, 3))
    scl[1, 1, 0] = 1e6
    bits = int((1e6 - 1) * 2**14).bit_length()
    assert bits == 34 and math.ceil(math.log2(0.5 / 2e-5)) > 14
    with pytest.raises(EncodeError, match=rf"^joint 1: its scale spans more values than 32-bit fields hold at the "
                                          rf"error allowed \({bits} bits needed\): allow a larger scale error$"):
        encode(Frames(rot, np.zeros((2, 2, 3)), scl), tolerance_for(0.01, 2e-5))


@pytest.mark.parametrize("turn, tolerance", [(0.07, 0.1), (0.09, 0.2), (0.18, 0.5)])
def test_a_rotation_component_never_passes_the_16_bit_top(turn, tolerance):
    """A small turn about x (w stays near 32,767) at a coarse step: the base of w sits less than
    a step below 32,767, where the nearest multiple of the step is above it. The encoder keeps
    every rotation component a reader adds up (read here by the reference decoder) within the
    16 bits of Base State's quaternion, never rounding past the top."""
    angle = np.linspace(0.0, turn, 30)
    rot = np.zeros((30, 1, 4))
    rot[:, 0, 0], rot[:, 0, 3] = np.sin(angle / 2), np.cos(angle / 2)
    enc = encode(Frames(rot, np.zeros((30, 1, 3))), Tolerance(tolerance, 1e-3, 1e-3))
    counts = Counts(enc.joints, enc.frames, enc.num_small, enc.num_large, enc.stride, enc.flags)
    values = decode_values(enc.base_state_records().tobytes(), sample_elem_payload(enc), enc.sample_data_bytes(),
                           counts)
    assert values[..., 4:8].max() <= 32767 and values[..., 4:8].min() >= -32767
    assert enc.error.rotation.worst <= tolerance


@pytest.mark.parametrize("offset, scale, bound", [(10.0, 1.0 + 0.3 * np.sin(np.linspace(0, 3, 40)), 1e-2),
                                                   (1.0, np.full(40, 1.00012), 1e-4)])
def test_a_scaling_joint_meets_the_bound_where_its_scale_moves_a_child(offset, scale, bound):
    """The object-space search adjusts rotation and translation steps only; a joint's scale
    step comes from the bound shared over how far the joint's subtree reaches (``reach``). A
    root scaling a child ``offset`` units away: growing by up to 30 % with the child 10 units
    out, and held 1.2e-4 above 1 with the child 1 unit out (more than half of what its scale
    may err, 1e-4 / 1.03, so it must be stored finer than the format's default 2^-12, which
    rounds it away). What the reference decoder reads meets the bound."""
    frames = len(scale)
    rot = np.tile([0.0, 0.0, 0.0, 1.0], (frames, 2, 1))
    pos = np.zeros((frames, 2, 3))
    pos[:, 1, 1] = offset
    scl = np.ones((frames, 2, 3))
    scl[:, 0] = scale[:, None]
    clip, parents, shell = Frames(rot, pos, scl), [-1, 0], 0.03
    enc = encode(clip, ObjectTolerance(bound, shell), parents=parents)
    errors = vertex_errors(reference_read(enc), clip.checked(), parents, shell)
    assert errors.max() <= bound * (1 + 1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_short_clips_search_keeps_its_measure_current(seed):
    """Under 97 frames each step is judged on every frame and the joint's new transforms are
    kept at once: what the reference decoder reads meets the bound, and the error the encoder
    reports is that reading's (this file's forward kinematics, a fresh measure)."""
    frames, parents = chain(60, 4, seed)
    bound, shell = 1e-3, 0.03
    enc = encode(frames, ObjectTolerance(bound, shell), parents=parents)
    errors = vertex_errors(reference_read(enc), frames.checked(), parents, shell)
    assert errors.max() <= bound * (1 + 1e-9)
    np.testing.assert_allclose(enc.object_error.per_joint, errors.max(axis=0), rtol=1e-6, atol=1e-12)



@pytest.mark.parametrize("guess", [1, 2, COARSEST])
def test_a_start_one_step_too_coarse_is_refined(guess):
    """Whole units apart (exact at shift 0): at shift 1 the odd one errs a whole unit, past a
    tolerance of half a unit, so from a start at 1 (or coarser) the search steps down to 0."""
    target = np.array([[[100.0, 100.0, 100.0]], [[101.0, 100.0, 100.0]], [[104.0, 100.0, 100.0]]])
    base = np.full((1, 3), 100, np.int64)

    def error_of(values: np.ndarray, which: np.ndarray) -> np.ndarray:
        return np.linalg.norm(values - target[:, which], axis=-1).max(axis=0)

    assert distance(nearest(target[:, 0], base[0], 1), target[:, 0]) == 1.0
    assert _choose_shifts(target, base, np.full((1, 3), np.inf), np.array([guess]), 0.5, error_of).tolist() == [0]


def test_saturation_never_raises_a_translation_base_past_16_bits():
    """Four separate roots at x = 32,767 units and up (translation shift 0: the base stops at
    32,767, Base State's i16 top), 8-bit fields each but joint 0's, which two frames push to
    256 (9 bits: 33 in all, a second word). Holding those two at the top of 8 bits leaves more
    frames outside than raising the window by one step would (one frame, 0.45 unit above the
    base, then held 0.55 unit off, within the 0.6 asked), but that raise puts the base at
    32,768, which Base State cannot hold: the window is not raised, and what the reference
    decoder reads meets the bound."""
    frames, joints = 200, 4
    steps = np.rint(127 * (1 + np.sin(np.linspace(0, 4 * np.pi, frames))))  # 0 .. 254
    pos = np.zeros((frames, joints, 3))
    pos[:, :, 0] = I16_MAX + steps[:, None]
    x0 = I16_MAX + np.clip(steps, 1, 254)
    x0[np.argmin(steps)] = I16_MAX + 0.45
    x0[np.flatnonzero(steps == 254)[:2]] = I16_MAX + 255.55
    pos[:, 0, 0] = x0
    clip = Frames(np.tile([0.0, 0.0, 0.0, 1.0], (frames, joints, 1)), pos)
    enc = encode(clip, ObjectTolerance(0.6, 0.03))
    assert enc.base[:, 8:11].max() <= I16_MAX
    errors = vertex_errors(reference_read(enc), clip.checked(), [-1] * joints, 0.03)
    assert errors.max() <= 0.6


def independent_joints(frames: int, joints: int, seed: int) -> Frames:
    """Joints that are all roots, each turning about its own axis and moving a few centimetres
    on all three axes, so every rotation and translation component is animated."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, frames)[:, None, None]
    axes = rng.normal(size=(1, joints, 3))
    axes /= np.linalg.norm(axes, axis=-1, keepdims=True)
    angle = rng.uniform(-2, 2, (1, joints, 1)) * t + rng.uniform(-1, 1, (1, joints, 1)) * np.sin(6 * t)
    rot = np.concatenate([axes * np.sin(angle / 2), np.cos(angle / 2)], axis=-1)
    pos = rng.normal(size=(1, joints, 3)) * 0.3 + 0.05 * np.sin(4 * t + rng.uniform(0, 6, (1, joints, 3)))
    return Frames(rot, pos)


@pytest.mark.parametrize("seed, frames, joints, bound", [
    (0, 10, 2, 1e-3), (1, 40, 3, 1e-2), (2, 90, 4, 2e-4), (3, 60, 6, 1e-3), (4, 24, 5, 1e-2), (5, 96, 3, 1e-3)])
def test_independent_joints_are_left_no_coarser_step_the_bound_allows(seed, frames, joints, bound, monkeypatch):
    """The object-space search coarsens one component at a time "until no step can be taken".
    With every joint a root no joint's error depends on another's, and under 97 frames each
    step is judged on every frame, so the promise is checked here as a reader would see it:
    for every animated rotation and translation component, the next coarser shift that saves
    a bit of its width (the encoder's own rounding, :meth:`_Plan.values`, as it would write
    it) gives a clip whose reading (the reference decoder's dequantisation, this suite's
    forward kinematics) passes the bound. A search that skips a kind, stops early or never
    retries leaves such a step behind."""
    captured = {}
    original = encoder._object_shifts

    def recording(plan, *args):
        shift = original(plan, *args)
        captured.update(plan=plan, shift=shift.copy())  # (the plan's base as saturation left it)
        return shift

    monkeypatch.setattr(encoder, "_object_shifts", recording)
    clip, shell = independent_joints(frames, joints, seed), 0.03
    encode(clip, ObjectTolerance(bound, shell), parents=[-1] * joints)
    plan, shift = captured["plan"], captured["shift"]
    given = clip.checked()

    def worst(shifts: np.ndarray) -> float:
        values = encoder._Plan(plan.target, plan.base, shifts, plan.ceiling).values()[1]
        read = {k: np.asarray(v, np.float32).astype(np.float64) for k, v in transforms(values).items()}
        return float(vertex_errors((read["rotation_xyzw"], read["translation"], read["scale"]), given,
                                   [-1] * joints, shell).max())

    def top(j: int, c: int, s: int) -> int:
        return int(encoder._fields(plan.target[:, j, c], plan.base[j, c], s, plan.ceiling[j, c]).max(initial=0))

    assert worst(shift) <= bound * (1 + 1e-9)
    animated = np.ptp(plan.target, axis=0) > 0
    left = []
    for j, c in np.argwhere(animated[:, 4:11]) + [0, 4]:
        s, width = int(shift[j, c]), top(j, c, int(shift[j, c])).bit_length()
        coarser = next((t for t in range(s + 1, COARSEST + 1) if top(j, c, t).bit_length() < width), None)
        if coarser is not None:
            trial = shift.copy()
            trial[j, c] = coarser
            if worst(trial) <= bound:
                left.append((int(j), int(c), s, coarser))
    assert left == [], left
