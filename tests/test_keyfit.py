"""--fit best (animspec.gltf.keyfit): the run costs, the segmentation against brute force,
the key values through the engine's Normalize, and the error measured on engine playback."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from animspec.animbin.model import Animation, Name, RotationKey, Track
from animspec.gltf import keyfit
from animspec.gltf.keyfit import (
    ReduceRule,
    RunCosts,
    best_fp12,
    fit_clip,
    fit_track,
    minimax_centre,
    optimal_segments,
    playback_errors_deg,
    reduce_track,
    rotation_tracks,
    segments_cost,
    shown_rotations,
)
from animspec.gltf.to_animbin import ROUND_BOUND_DEG, encode_fp12, reduce_keys
from animspec.skeleton import angle_between, normalize, quat_multiply

REDUCE = ReduceRule(reduce_keys, encode_fp12)


def axis_angle(axis: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    axis = np.asarray(axis, dtype=np.float64) / np.linalg.norm(axis, axis=-1, keepdims=True)
    half = np.radians(np.asarray(degrees, dtype=np.float64)) / 2
    return np.concatenate([np.cos(half)[..., None], np.sin(half)[..., None] * axis], axis=-1)


def random_curve(seed: int, n: int, step_deg: float = 6.0) -> np.ndarray:
    """A rough joint curve: a random walk of rotations with pauses (repeated frames) and
    the odd jump, so runs of every kind of shape appear."""
    rng = np.random.default_rng(seed)
    steps = rng.uniform(0, step_deg, n) * (rng.random(n) > 0.2)
    steps[rng.random(n) < 0.05] *= 6
    turns = axis_angle(rng.normal(size=(n, 3)), steps)
    q = np.empty((n, 4))
    q[0] = normalize(rng.normal(size=4))
    for f in range(1, n):
        q[f] = quat_multiply(turns[f], q[f - 1])
    q[0] *= np.sign(q[0, 0]) or 1.0
    for f in range(1, n):  # sign-continuous, as the converter hands curves over
        if q[f] @ q[f - 1] < 0:
            q[f] = -q[f]
    return normalize(q)


def smooth_clip(seed: int, n: int, joints: int) -> np.ndarray:
    """(n, joints, 4): swings about random axes, like a sampled glTF animation."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) / 60.0
    out = np.empty((n, joints, 4))
    for j in range(joints):
        a = axis_angle(rng.normal(size=3), 40 * np.sin(2 * np.pi * rng.uniform(0.3, 1.5) * t + rng.uniform(0, 6)))
        b = axis_angle(rng.normal(size=3), 20 * np.cos(2 * np.pi * rng.uniform(0.2, 2.0) * t))
        out[:, j] = quat_multiply(a, b)
    return normalize(out)


def brute_force(costs: RunCosts, max_keys: int) -> float:
    """The smallest largest run cost over EVERY choice of at most max_keys run starts."""
    n = costs.n
    best = np.inf
    for k in range(1, min(max_keys, n) + 1):
        for rest in itertools.combinations(range(1, n), k - 1):
            best = min(best, segments_cost(costs.cost, [0, *rest], n))
    return best


# --- the cost of a run ---------------------------------------------------------------------


def test_two_rotations_are_split_in_the_middle():
    q = np.stack([axis_angle([0, 0, 1], 0.0), axis_angle([0, 0, 1], 30.0)])
    centre, cost = minimax_centre(q)
    assert cost == pytest.approx(15.0, abs=1e-9)
    assert angle_between(centre, axis_angle([0, 0, 1], 15.0)) == pytest.approx(0.0, abs=1e-5)


@pytest.mark.parametrize("seed", range(6))
def test_the_centre_cannot_be_improved_by_moving_it(seed):
    q = random_curve(seed, 14, step_deg=9.0)
    centre, cost = minimax_centre(q)
    assert cost == pytest.approx(angle_between(centre, q).max(), abs=1e-6)
    rng = np.random.default_rng(100 + seed)
    for scale in (1e-2, 1e-3, 1e-4):
        moved = normalize(centre + scale * rng.normal(size=(400, 4)))
        worst = angle_between(moved[:, None, :], q[None, :, :]).max(axis=1)
        assert worst.min() >= cost - 1e-6


@pytest.mark.parametrize("seed", range(4))
def test_run_costs_equal_a_fresh_solve_and_never_shrink_when_a_run_grows(seed):
    """The premise of the greedy, measured: cost(a, b) from the incremental rows equals a
    fresh smallest-cap solve, and grows (never shrinks) with b and as a falls."""
    q = random_curve(seed, 26)
    costs = RunCosts(q)
    n = len(q)
    fresh = np.full((n, n), np.nan)
    for a in range(n):
        for b in range(a, n):
            fresh[a, b] = minimax_centre(q[a:b + 1])[1]
            assert costs.cost(a, b) == pytest.approx(fresh[a, b], abs=1e-9)
    grow_end = np.nanmax(fresh[:, :-1] - fresh[:, 1:])  # cost(a, b) - cost(a, b + 1)
    grow_start = np.nanmax(fresh[1:, :] - fresh[:-1, :])  # cost(a + 1, b) - cost(a, b)
    assert grow_end <= 1e-9 and grow_start <= 1e-9


# --- the segmentation ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("n, max_keys", [(9, 1), (9, 3), (11, 4), (12, 5), (10, 10), (13, 6)])
def test_segmentation_is_optimal_against_brute_force(seed, n, max_keys):
    q = random_curve(seed, n)
    costs = RunCosts(q)
    starts, bound = optimal_segments(costs, max_keys)
    assert starts[0] == 0 and len(starts) <= max_keys and starts == sorted(set(starts))
    assert segments_cost(costs.cost, starts, n) == pytest.approx(bound, abs=1e-12)
    assert bound == pytest.approx(brute_force(costs, max_keys), abs=1e-9)


# --- key values and the error on the console ----------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_the_key_value_is_the_best_of_its_fp12_neighbourhood(seed):
    q = random_curve(seed, 8, step_deg=3.0)
    centre, _ = minimax_centre(q)
    value, error = best_fp12(q, centre)
    plain = shown_rotations(encode_fp12(centre))
    assert error <= angle_between(plain, q).max() + 1e-9
    assert error == pytest.approx(angle_between(shown_rotations(value), q).max(), abs=1e-6)
    for offset in itertools.product((-1, 0, 1), repeat=4):
        other = shown_rotations(value + np.array(offset))
        assert angle_between(other, q).max() >= error - 1e-6 or not np.isfinite(other).all()


@pytest.mark.parametrize("seed, n, joints, max_keys", [(0, 120, 3, 30), (1, 200, 2, 7), (2, 25, 2, 30), (3, 90, 4, 1)])
def test_the_reported_error_is_what_engine_playback_shows(seed, n, joints, max_keys):
    rotations = smooth_clip(seed, n, joints)
    rotations[:, 0] = random_curve(seed, n)  # one rough joint
    fit = fit_clip(rotations, max_keys)
    animation = Animation(name=Name(b"fit"), length=n, tracks=rotation_tracks(fit))
    errors = playback_errors_deg(animation, rotations)
    for j, track in enumerate(fit.tracks):
        assert track.frames[0] == 0 and len(track.frames) <= max_keys
        assert all(b > a for a, b in zip(track.frames, track.frames[1:]))
        assert errors[:, j].max() == pytest.approx(track.max_error_deg, abs=1e-6)
        # Nothing with this many keys can do better than the continuous optimum, and the
        # FP12 step is all that separates the keys written from it.
        assert track.lower_bound_deg - 1e-9 <= track.max_error_deg <= track.lower_bound_deg + ROUND_BOUND_DEG
    assert errors.max() == pytest.approx(fit.max_error_deg, abs=1e-6)


def test_a_clip_within_the_budget_gets_a_key_where_it_changes():
    rotations = smooth_clip(5, 20, 2)
    rotations[:, 1] = axis_angle([1, 2, 3], 33.0)  # a joint that never moves
    fit = fit_clip(rotations, 30)
    assert fit.tracks[0].frames == list(range(20))
    assert fit.tracks[1].frames == [0]
    assert fit.lower_bound_deg == pytest.approx(0.0, abs=1e-6)
    assert fit.max_error_deg <= ROUND_BOUND_DEG
    plain = max(angle_between(shown_rotations(encode_fp12(rotations[:, j])), rotations[:, j]).max() for j in range(2))
    assert fit.max_error_deg <= plain


def reduce_error(q: np.ndarray, max_keys: int) -> float:
    """reduce at the smallest --max-error that fits, measured on engine playback."""
    frames, values, _ = reduce_track(q, max_keys, REDUCE)
    assert len(frames) <= max_keys
    keys = [RotationKey(f, *map(int, v)) for f, v in zip(frames, values)]
    animation = Animation(name=Name(b"reduce"), length=len(q), tracks=[Track(joint_id=0, keys=keys)])
    return float(playback_errors_deg(animation, q[:, None]).max())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_keys", [4, 12, 30])
def test_never_worse_than_reduce(seed, max_keys):
    q = random_curve(seed, 150) if seed % 2 else smooth_clip(seed, 150, 1)[:, 0]
    best = fit_track(q, max_keys, REDUCE)
    assert best.max_error_deg <= reduce_error(q, max_keys) + 1e-9
    runs_only = fit_track(q, max_keys)
    assert best.max_error_deg <= runs_only.max_error_deg


# --- through the CLI -----------------------------------------------------------------------


def test_cli_fit_best_with_max_keys(tmp_path, capsys):
    from test_gltf_to_animbin import glb_with

    from animspec.animbin import read_bytes
    from animspec.cli import main

    src = tmp_path / "long.glb"
    src.write_bytes(glb_with(2.0))  # 121 frames: 2 s at 59.94 Hz, both ends
    out = tmp_path / "long.animbin"
    assert main(["convert", str(src), "-o", str(out), "--fit", "best", "--max-keys", "12"]) == 0
    report = capsys.readouterr().out
    anim = read_bytes(out.read_bytes(), str(out)).animations[0]
    assert anim.length == 121 and all(1 <= len(t.keys) <= 12 for t in anim.tracks)
    assert any(len(t.keys) == 12 for t in anim.tracks)
    shown = float(re.search(r"max error on screen: ([0-9.]+) deg at vsyncs", report).group(1))
    bound = float(re.search(r"no 12-key track can show less than ([0-9.]+)", report).group(1))
    assert bound <= shown <= bound + ROUND_BOUND_DEG + 0.001
    with pytest.raises(SystemExit) as refused:  # the option's parser: its range (1 to 30)
        main(["convert", str(src), "-o", str(tmp_path / "x.animbin"), "--fit", "best", "--max-keys", "31"])
    assert refused.value.code == 2
    assert "--max-keys: 31: expected a whole number from 1 to 30" in capsys.readouterr().err
    assert not (tmp_path / "x.animbin").exists()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("max_keys", [5, 30])
def test_the_quick_reduce_check_never_rules_reduce_out_wrongly(seed, max_keys):
    """fit_track runs reduce's full search only where one reduce pass says reduce could
    win: whenever reduce does show less than some error, that check must say so."""
    q = random_curve(seed, 160) if seed % 2 else smooth_clip(seed, 160, 1)[:, 0]
    shown = reduce_error(q, max_keys)
    for above in (1e-6, 1e-3, 0.1, 1.0):
        assert keyfit._reduce_may_beat(q, max_keys, REDUCE, shown + above)


def test_reduces_keys_are_kept_when_they_show_less(monkeypatch):
    q = smooth_clip(3, 150, 1)[:, 0]
    honest = fit_track(q, 10, REDUCE)
    assert honest.method == "runs"

    def spoilt(run, centre):  # a key value tens of degrees off: reduce now does better
        value, _ = real(run, centre)
        value = value + np.array([0, 2000, -2000, 0])
        return value, float(angle_between(shown_rotations(value), run).max())

    real = keyfit.best_fp12
    monkeypatch.setattr(keyfit, "best_fp12", spoilt)
    kept = fit_track(q, 10, REDUCE)
    assert kept.method == "reduce"
    assert kept.max_error_deg == pytest.approx(reduce_error(q, 10), abs=1e-6)
    assert kept.max_error_deg < fit_track(q, 10).max_error_deg
