"""Spending a track's key budget well: which frames get keys and what each key holds.

The engine never interpolates (:mod:`animspec.animbin.playback`): at every vsync frame a
bone shows ``Normalize(k)`` for the last key ``k`` at or before that frame. A track of at
most ``max_keys`` keys, frame 0 keyed, is therefore a partition of the frames into at most
``max_keys`` runs, each showing one fixed rotation. Minimising the largest angle between
the curve and what the console shows is a minimax segmentation:

* **cost of a run** (:func:`minimax_centre`): the rotation that minimises the largest angle
  to the run's rotations is the centre of the smallest spherical cap holding them (as unit
  quaternions in one hemisphere). Maximising ``min_f c . q_f`` over unit ``c`` is dual to
  the point of smallest norm in the convex hull of the ``q_f`` (``c`` is its direction, the
  optimum its norm), found exactly by Wolfe's algorithm ("Finding the nearest point in a
  polytope", Mathematical Programming 11, 1976). This cost can only grow when a run grows.
* **segmentation** (:func:`optimal_segments`): for a bound ``E`` the greedy that makes each
  run as long as the bound allows uses the fewest runs (with a cost that grows with the run
  that is the classic exchange argument); a bisection on ``E`` then finds the smallest bound
  the budget allows. The tests check it against brute force.
* **key value** (:func:`best_fp12`): the centre encoded in FP12, then the best of its
  neighbours while one is better, each seen through the engine's ``Normalize``
  (:func:`animspec.fixed_point.normalize_quat_array`, the function playback uses).

The continuous optimum is a LOWER BOUND for every track of that many keys (whatever a key
holds, the console shows one rotation per run), so the error reached minus that bound is the
most any other choice could gain; :class:`TrackFit` reports both. Given ``reduce``'s rule
(:class:`ReduceRule`), :func:`fit_track` also keeps reduce's own keys when they happen to
show less, so the result is never worse than ``reduce``.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..animbin.model import FP12_ONE, MAX_KEYS, Animation, RotationKey, Track
from ..animbin.playback import play_engine
from ..fixed_point import normalize_quat_array
from ..quaternion import angle_between, same_hemisphere, sign_continuous

WOLFE_TOLERANCE = 1e-13
"""Wolfe stops when no point lies more than this below the current point's plane (unit
points: far below the float noise of an angle)."""
BISECTION_TOLERANCE_DEG = 1e-9
"""The bisection on the error bound stops when the bracket is this narrow."""
NEIGHBOURS = np.array(list(itertools.product((-1, 0, 1), repeat=4)), dtype=np.int64)
"""FP12 offsets tried around the encoded centre (81 values, the centre's own encoding first
after sorting by distance, so ties keep the plain encoding)."""
NEIGHBOURS = NEIGHBOURS[np.argsort(np.abs(NEIGHBOURS).sum(axis=1), kind="stable")]


# --- angles --------------------------------------------------------------------------------


def rotation_angles_deg(c: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Rotation angle (degrees) between unit quaternions ``c`` (..., 1, 4) or (4,) and
    ``q`` (..., 4), ignoring the sign. ``4 atan2(|c - q|, |c + q|)`` rather than
    ``2 acos(|c . q|)``: acos loses half the digits near 1, and runs differing by 1e-6
    degrees must be told apart."""
    minus = np.sqrt(np.square(q - c).sum(axis=-1))
    plus = np.sqrt(np.square(q + c).sum(axis=-1))
    return np.degrees(4 * np.arctan2(np.minimum(minus, plus), np.maximum(minus, plus)))


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


# --- the cost of one run: smallest enclosing cap (Wolfe) ----------------------------------


Vec4 = tuple[float, float, float, float]


def _dot(a: Vec4, b: Vec4) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]


@dataclass
class _Corral:
    """Wolfe's state: the point of the hull nearest the origin as weights on a few points.

    Plain floats and tuples, not numpy: the points are a run of a few dozen frames and the
    corral at most five, so numpy's per-call cost would dominate (the segmentation makes
    about a thousand updates per joint)."""

    support: list[int]
    weights: list[float]
    point: Vec4


def _combine(points: list[Vec4], support: list[int], weights: list[float]) -> Vec4:
    x = [0.0, 0.0, 0.0, 0.0]
    for i, w in zip(support, weights):
        p = points[i]
        x[0] += w * p[0]
        x[1] += w * p[1]
        x[2] += w * p[2]
        x[3] += w * p[3]
    return (x[0], x[1], x[2], x[3])


def _solve(system: list[list[float]], rhs: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting on a small dense system (at most 4 x 4
    here); None when singular."""
    n = len(rhs)
    m = [row[:] + [r] for row, r in zip(system, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-14:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                m[r] = [a - f * b for a, b in zip(m[r], m[col])]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (m[r][n] - sum(m[r][c] * out[c] for c in range(r + 1, n))) / m[r][r]
    return out


def _affine_minimum(sub: list[Vec4]) -> list[float]:
    """Weights (summing to 1) of the point nearest the origin on the affine hull of
    ``sub``: with ``d_i = p_i - p_0``, minimise ``|p_0 + sum b_i d_i|``, i.e. solve the
    normal equations ``(d d^T) b = -d p_0``. Closed forms for 2 and 3 points (the usual
    corral along a curve), elimination beyond; least squares when the points are affinely
    dependent (repeated frames)."""
    k = len(sub)
    if k == 1:
        return [1.0]
    p0 = sub[0]
    d = [(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2], p[3] - p0[3]) for p in sub[1:]]
    m = [[_dot(di, dj) for dj in d] for di in d]
    rhs = [-_dot(di, p0) for di in d]
    beta: list[float] | None
    if k == 2:
        beta = [rhs[0] / m[0][0]] if m[0][0] > 1e-28 else None
    elif k == 3:
        det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
        scale = m[0][0] * m[1][1]
        beta = (
            [(rhs[0] * m[1][1] - m[0][1] * rhs[1]) / det, (m[0][0] * rhs[1] - m[1][0] * rhs[0]) / det]
            if scale > 0 and abs(det) > 1e-12 * scale else None
        )
    else:
        beta = _solve(m, rhs)
    if beta is None:
        points = np.array(sub)
        system = np.ones((k + 1, k + 1))
        system[:k, :k] = points @ points.T
        system[k, k] = 0.0
        rhs_full = np.zeros(k + 1)
        rhs_full[k] = 1.0
        return np.linalg.lstsq(system, rhs_full, rcond=None)[0][:k].tolist()
    return [1.0 - sum(beta), *beta]


def _wolfe(points: list[Vec4], corral: _Corral) -> _Corral:
    """The minimum-norm point of the convex hull of ``points``, from ``corral``."""
    support, weights = list(corral.support), list(corral.weights)
    x = _combine(points, support, weights)
    for _ in range(10 * len(points) + 50):
        j, lowest = 0, math.inf
        for i, p in enumerate(points):
            d = _dot(p, x)
            if d < lowest:
                j, lowest = i, d
        if _dot(x, x) - lowest <= WOLFE_TOLERANCE or j in support:
            break
        support.append(j)
        weights.append(0.0)
        while True:  # minor cycle: the affine hull's nearest point, kept inside the hull
            alpha = _affine_minimum([points[i] for i in support])
            if min(alpha) > 0:
                weights = alpha
                break
            theta = min(
                (w / (w - a) for w, a in zip(weights, alpha) if a <= 0 and w - a > 0), default=1.0
            )
            weights = [theta * a + (1 - theta) * w for w, a in zip(weights, alpha)]
            biggest = max(range(len(weights)), key=weights.__getitem__)
            kept = [i for i, w in enumerate(weights) if w > 1e-15 or i == biggest]
            total = sum(weights[i] for i in kept)
            support = [support[i] for i in kept]
            weights = [weights[i] / total for i in kept]
        x = _combine(points, support, weights)
    return _Corral(support, weights, x)


def _centre(x: Vec4, first: Vec4) -> Vec4:
    norm = math.sqrt(_dot(x, x))
    return (x[0] / norm, x[1] / norm, x[2] / norm, x[3] / norm) if norm > 1e-12 else first


def _angle_deg(c: Vec4, p: Vec4) -> float:
    """:func:`rotation_angles_deg` for one pair, in plain floats."""
    minus = math.sqrt((p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2 + (p[2] - c[2]) ** 2 + (p[3] - c[3]) ** 2)
    plus = math.sqrt((p[0] + c[0]) ** 2 + (p[1] + c[1]) ** 2 + (p[2] + c[2]) ** 2 + (p[3] + c[3]) ** 2)
    return math.degrees(4 * math.atan2(min(minus, plus), max(minus, plus)))


def minimax_centre(q: np.ndarray) -> tuple[np.ndarray, float]:
    """The unit quaternion minimising the largest rotation angle to the rows of ``q``
    (m, 4), and that angle in degrees (measured over every row). The rows are taken in the
    hemisphere of the first row, which is exact whenever the answer is below 90 degrees
    (every row is then within a quarter turn of the centre, and so within a half turn of
    the first row)."""
    points = same_hemisphere(np.asarray(q, dtype=np.float64), np.asarray(q[0], dtype=np.float64))
    rows = [tuple(p) for p in points.tolist()]
    corral = _wolfe(rows, _Corral([0], [1.0], rows[0]))
    centre = np.array(_centre(corral.point, rows[0]))
    return centre, float(rotation_angles_deg(centre, points).max())


class RunCosts:
    """``cost(a, b)``: the minimax angle of frames ``a..b`` of one curve, computed run by run
    (start ``a``, growing ``b``) and cached, so that the segmentation's many bounds cost
    one Wolfe update per (start, end) pair at most. ``cost`` is made non-decreasing in
    ``b`` (running maximum) so float noise cannot break the greedy's premise. The cost of
    a run is the angle from its cap's centre to the corral's points, the farthest ones."""

    def __init__(self, q: np.ndarray) -> None:
        self.q = np.asarray(q, dtype=np.float64)
        self.n = self.q.shape[0]
        self._points: list[Vec4] = [tuple(p) for p in self.q.tolist()]
        self._rows: dict[int, tuple[list[float], list[Vec4], _Corral]] = {}

    def _row(self, a: int) -> tuple[list[float], list[Vec4], _Corral]:
        if a not in self._rows:
            first = self._points[a]
            self._rows[a] = ([0.0], [first], _Corral([0], [1.0], first))
        return self._rows[a]

    def _extend(self, a: int) -> bool:
        costs, run, corral = self._row(a)
        b = a + len(costs)  # the next frame to add
        if b >= self.n:
            return False
        new = self._points[b]
        if _dot(new, run[0]) < 0:  # in the run's hemisphere
            new = (-new[0], -new[1], -new[2], -new[3])
        run.append(new)
        x = corral.point
        if _dot(new, x) >= _dot(x, x) - WOLFE_TOLERANCE:  # inside the cap: the centre stays
            costs.append(costs[-1])
            return True
        corral = _wolfe(run, corral)
        self._rows[a] = (costs, run, corral)
        centre = _centre(corral.point, run[0])
        cost = max(_angle_deg(centre, run[i]) for i in corral.support)
        costs.append(max(cost, costs[-1]))
        return True

    def cost(self, a: int, b: int) -> float:
        costs = self._row(a)[0]
        while a + len(costs) <= b:
            self._extend(a)
        return costs[b - a]

    def reach(self, a: int, bound: float) -> int:
        """The last frame ``b >= a`` with ``cost(a, b) <= bound`` (``a`` itself at least)."""
        costs = self._row(a)[0]
        while costs[-1] <= bound and self._extend(a):
            pass
        return a + max(bisect.bisect_right(costs, bound) - 1, 0)


# --- segmentation --------------------------------------------------------------------------


def greedy_segments(reach: Callable[[int, float], int], n: int, bound: float, limit: int) -> list[int] | None:
    """Run starts for ``bound``, each run as long as ``reach`` allows; None past ``limit`` runs."""
    starts: list[int] = []
    a = 0
    while a < n:
        if len(starts) == limit:
            return None
        starts.append(a)
        a = reach(a, bound) + 1
    return starts


def segments_cost(cost: Callable[[int, int], float], starts: list[int], n: int) -> float:
    ends = starts[1:] + [n]
    return max((cost(a, b - 1) for a, b in zip(starts, ends)), default=0.0)


def optimal_segments(costs: RunCosts, max_keys: int) -> tuple[list[int], float]:
    """At most ``max_keys`` run starts (0 first) minimising the largest run cost, and that
    cost. Bisection on the bound; a feasible bound is lowered to the cost the greedy
    actually reached (a run cost, so the search lands on the optimum itself).

    Every bound tried walks about the whole curve, and far from the optimum those walks are
    new; so the bracket comes from the same problem on every other frame first (recursively):
    any segmentation of all frames is one of the half (same or lower cost), so the half's
    optimum is a lower bound, and its runs stretched back over all frames an upper bound."""
    n = costs.n
    lo = 0.0  # the greedy at 0 may be feasible too: hi then drops to 0
    if n > 4 * max_keys:
        half_starts, half_bound = optimal_segments(RunCosts(costs.q[::2]), max_keys)
        best = [2 * s for s in half_starts]
        lo = max(half_bound - BISECTION_TOLERANCE_DEG, 0.0)
    else:
        best = list(range(min(n, max_keys)))
    hi = segments_cost(costs.cost, best, n)
    while hi - lo > BISECTION_TOLERANCE_DEG:
        mid = (lo + hi) / 2
        starts = greedy_segments(costs.reach, n, mid, max_keys)
        if starts is None:
            lo = mid
        else:
            best, hi = starts, segments_cost(costs.cost, starts, n)
    # The greedy at the optimum itself uses the fewest keys that reach it.
    fewest = greedy_segments(costs.reach, n, hi, max_keys)
    return (fewest, hi) if fewest is not None and len(fewest) <= len(best) else (best, hi)


# --- the value each key holds --------------------------------------------------------------


def shown_rotations(raw: np.ndarray) -> np.ndarray:
    """What the console shows for raw FP12 keys (..., 4): ``Normalize``, as floats (unit
    length restored in float only to measure angles). Rows the console cannot normalise
    (a division by zero) come back as NaN."""
    normalised, bad = normalize_quat_array(np.asarray(raw, dtype=np.int64).astype(np.int16))
    out = normalised.astype(np.float64) / FP12_ONE
    out[bad] = np.nan
    return out


def best_fp12(q: np.ndarray, centre: np.ndarray) -> tuple[np.ndarray, float]:
    """The raw FP12 key (4,) near ``centre`` whose shown rotation has the smallest largest
    angle to the rows of ``q``, and that angle: from the centre's encoding, step to the best
    of the 80 neighbours (+-1 per component) while that lowers the error (Normalize's
    truncation makes the nearest encoding not always the best shown value)."""
    value = np.rint(centre * FP12_ONE).astype(np.int64)
    error = np.inf
    for _ in range(64):
        candidates = np.clip(value + NEIGHBOURS, -0x8000, 0x7FFF)
        shown = shown_rotations(candidates)
        errors = rotation_angles_deg(_unit(shown)[:, None, :], q[None, :, :]).max(axis=1)
        errors[np.isnan(errors)] = np.inf  # the console cannot normalise that value
        i = int(np.argmin(errors))  # the first of equals: the current value stays on a tie
        if not errors[i] < error:
            break
        value, error = candidates[i], float(errors[i])
    return value, error


# --- one track, one clip -------------------------------------------------------------------


@dataclass(frozen=True)
class ReduceRule:
    """``--fit reduce`` as the converter runs it, so that ``best`` can be held to it:
    ``keys(q, encoded, max_error_deg, limit)`` gives its key frames (it stops counting past
    ``limit``), ``encode(q)`` the FP12 samples those keys hold."""

    keys: Callable[[np.ndarray, np.ndarray, float, int | None], list[int]]
    encode: Callable[[np.ndarray], np.ndarray]


@dataclass
class TrackFit:
    """One joint's keys and how close they come."""

    frames: list[int]
    values: np.ndarray
    """int64 (keys, 4): raw FP12 w, x, y, z as written (each in the previous key's hemisphere)."""
    max_error_deg: float
    """Largest angle between the curve and what the console shows, over every frame."""
    lower_bound_deg: float
    """No track of ``max_keys`` keys can show less (the continuous minimax optimum)."""
    method: str = "runs"
    """"runs" (the minimax segmentation) or "reduce" (reduce's keys at its smallest bound
    were better: possible only within the FP12 step, and kept then)."""


def shown_errors_deg(q: np.ndarray, frames: list[int], values: np.ndarray) -> np.ndarray:
    """(frames,) angle between ``q`` and what the console shows: ``Normalize`` of the last
    key at or before each frame (NaN keys the console cannot normalise count as 180)."""
    held = np.searchsorted(np.asarray(frames), np.arange(q.shape[0]), side="right") - 1
    shown = shown_rotations(values)[held]
    errors = rotation_angles_deg(_unit(shown), q)
    return np.where(np.isnan(errors), 180.0, errors)


def reduce_track(
    q: np.ndarray, max_keys: int, rule: ReduceRule, lower_bound: float = 0.0
) -> tuple[list[int], np.ndarray, float]:
    """What ``reduce`` writes at the smallest bound that fits ``max_keys`` keys: frames,
    sign-continuous values and the largest error shown. ``lower_bound``: see
    :func:`reduce_threshold_deg`."""
    encoded = rule.encode(q)
    bound = reduce_threshold_deg(q, encoded, max_keys, rule.keys, lower_bound)
    frames = rule.keys(q, encoded, bound, max_keys)
    values = sign_continuous(np.asarray(encoded[frames], dtype=np.int64))  # the converter's rule for reduce
    return frames, values, float(shown_errors_deg(q, frames, values).max())


def fit_track(q: np.ndarray, max_keys: int = MAX_KEYS, reduce: ReduceRule | None = None) -> TrackFit:
    """Keys for one joint's curve ``q`` (frames, 4), unit quaternions, one per vsync frame.
    With ``reduce``, reduce's own keys are kept instead when they show less."""
    q = _unit(np.asarray(q, dtype=np.float64))
    if max_keys < 1:
        raise ValueError("max_keys must be at least 1")
    costs = RunCosts(q)
    starts, bound = optimal_segments(costs, max_keys)
    ends = starts[1:] + [q.shape[0]]
    values = []
    previous = np.array([1.0, 0.0, 0.0, 0.0])
    for a, b in zip(starts, ends):
        run = q[a:b]
        centre, _ = minimax_centre(run)
        if centre @ previous < 0:  # sign continuity, chosen before encoding: Normalize(-v) != -Normalize(v)
            centre = -centre
        value, _ = best_fp12(run, centre)
        values.append(value)
        previous = value.astype(np.float64)
    fit = TrackFit(starts, np.array(values, dtype=np.int64), 0.0, bound)
    fit.max_error_deg = float(shown_errors_deg(q, fit.frames, fit.values).max())
    if reduce is not None and _reduce_may_beat(q, max_keys, reduce, fit.max_error_deg):
        frames, raw, error = reduce_track(q, max_keys, reduce, bound)
        if error < fit.max_error_deg:
            return TrackFit(frames, raw, error, bound, "reduce")
    return fit


def _reduce_may_beat(q: np.ndarray, max_keys: int, rule: ReduceRule, error: float) -> bool:
    """Whether reduce could show less than ``error`` with ``max_keys`` keys, in one reduce
    pass instead of a search for its smallest bound.

    Reduce measures its error on the encoded keys; at its smallest fitting bound T that
    error is T itself (at any lower error its greedy would take the same keys at that
    lower bound, and fit there), and at any larger bound not below T either. What the
    console shows differs from an encoded key by Normalize's own move, ``slack`` (measured
    here on every frame's encoding, both signs). So reduce cannot show less than T - slack,
    and if it does not fit at ``error + slack``, T is larger and reduce cannot win."""
    encoded = rule.encode(q)
    as_encoded = _unit(encoded.astype(np.float64))
    slack = max(
        float(np.nanmax(rotation_angles_deg(as_encoded, _unit(shown_rotations(sign * encoded))), initial=0.0))
        for sign in (1, -1)
    )
    return len(rule.keys(q, encoded, error + slack, max_keys)) <= max_keys


@dataclass
class ClipFit:
    """Every joint's :class:`TrackFit`, one clip."""

    tracks: list[TrackFit]

    @property
    def max_error_deg(self) -> float:
        return max((t.max_error_deg for t in self.tracks), default=0.0)

    @property
    def lower_bound_deg(self) -> float:
        return max((t.lower_bound_deg for t in self.tracks), default=0.0)


def fit_clip(rotations: np.ndarray, max_keys: int = MAX_KEYS, reduce: ReduceRule | None = None) -> ClipFit:
    """Keys for every joint of ``rotations`` (frames, joints, 4)."""
    return ClipFit([fit_track(rotations[:, j], max_keys, reduce) for j in range(rotations.shape[1])])


def rotation_tracks(fit: ClipFit) -> list[Track]:
    """The ANIMBIN tracks of ``fit``, joint id = position."""
    return [
        Track(joint_id=j, keys=[RotationKey(f, *map(int, v)) for f, v in zip(t.frames, t.values)])
        for j, t in enumerate(fit.tracks)
    ]


# --- measuring on engine playback ----------------------------------------------------------


def playback_errors_deg(animation: Animation, rotations: np.ndarray) -> np.ndarray:
    """(frames, joints) angle between ``rotations`` (frames, joints, 4), the curve at each
    vsync frame, and what :func:`animspec.animbin.playback.play_engine` shows at that vsync
    when ``animation`` is started at frame 0 and played one tick per vsync (a clip shorter
    than the curve loops or holds, as on the console)."""
    frames, joints = rotations.shape[:2]
    played = play_engine(animation, [1] * frames, num_joints=joints)
    return angle_between(played.rotations_float(), rotations)


def reduce_threshold_deg(
    q: np.ndarray, encoded: np.ndarray, max_keys: int, reduce_keys: Callable, lower_bound: float = 0.0,
    tolerance: float = 1e-4,
) -> float:
    """The smallest ``max_error_deg`` (within ``tolerance`` degree) for which the ``reduce``
    greedy (``reduce_keys(q, encoded, max_error_deg, limit)``) keys one joint in ``max_keys``
    (a bisection: where the greedy's count is not monotone in its bound, a bound that fits).
    ``lower_bound``: a bound known not to fit or to be the least (the continuous optimum:
    reduce's keys are one rotation per run too), to start the bracket there."""
    def fits(bound: float) -> bool:
        return len(reduce_keys(q, encoded, bound, max_keys)) <= max_keys

    lo = max(lower_bound - tolerance, 0.0)
    if fits(lo):
        return lo
    hi = max(2 * lo, 1.0)
    while hi < 360.0 and not fits(hi):  # at 360 degrees nothing drifts: one key fits
        lo, hi = hi, 2 * hi
    while hi - lo > tolerance:
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    return hi


def option_value(threshold: float, fits: Callable[[float], bool]) -> float:
    """``threshold`` rounded UP to 0.001 degree, as a user would type it, raised until
    ``fits`` holds (the reduce greedy is not guaranteed monotone in its bound)."""
    value = math.ceil(threshold * 1000 - 1e-9) / 1000
    while value < 360.0 and not fits(value):  # at 360 degrees nothing drifts: one key fits
        value = round(value + 0.001, 3)
    return value


@dataclass(frozen=True)
class ReduceAdvice:
    """What :func:`reduce_advice` found: the smallest tolerance (degrees, 3 decimals) from
    which reduce fits ``max_keys`` keys, and the largest error best fit shows with them. Its
    text is the command line's advice."""

    max_keys: int
    fits_from_deg: float
    best_deg: float

    def __str__(self) -> str:
        return (
            f"it fits in {self.max_keys} keys from --max-error {self.fits_from_deg:.3f}; --fit best keeps every joint "
            f"within {self.best_deg:.3f} degrees with {self.max_keys} keys"
        )


def reduce_advice(curves: list[np.ndarray], max_keys: int, rule: ReduceRule) -> ReduceAdvice:
    """What to say when ``reduce`` refuses a clip: from which ``--max-error`` it fits (its
    greedy stops counting at ``max_keys + 1``, so the count it reached says nothing) and
    what ``--fit best`` reaches with the same budget. ``curves``: each joint's (frames, 4)."""
    encoded = [rule.encode(q) for q in curves]
    needed = max(reduce_threshold_deg(q, e, max_keys, rule.keys) for q, e in zip(curves, encoded))

    def fits(bound: float) -> bool:
        return all(len(rule.keys(q, e, bound, max_keys)) <= max_keys for q, e in zip(curves, encoded))

    value = option_value(needed, fits)
    best = fit_clip(np.stack(curves, axis=1), max_keys, rule).max_error_deg
    return ReduceAdvice(max_keys, value, best)
