"""Issue 7: the fuzz targets (tests/fuzz/targets.py) in a short, deterministic run.

* every committed crash input (tests/fuzz/regressions/<target>/) is replayed: each was a
  crash once and is fixed in the code;
* every seed (tests/fuzz/corpus/<target>/) runs clean;
* each target gets a fixed number of structure-aware mutations of its seeds, derandomized
  (hypothesis), so the run is the same on every machine;
* the bulk readers (animbin/fastread.py, meshbin/fastread.py) give the generated parser's
  model or its very error on every truncation of every seed and on mutated inputs.

The long run is ``make fuzz`` (tools/fuzz.py, atheris when installed).
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import pytest
from fuzz import targets as T
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from animspec.common.errors import ParseError

ROOT = T.ROOT

# Inputs per target (about 60 s for all of them on one core; convert targets cost more per
# input: pygltflib and numpy set-up).
EXAMPLES = {
    "read_animbin": 3000, "read_meshbin": 3000, "read_animclip": 3000,
    "pack_animbin": 2000, "pack_meshbin": 2000, "pack_animclip": 2000,
    "convert_gltf": 1500, "convert_animbin": 1000, "convert_animclip": 1000, "convert_meshbin_rig": 1500,
    "gltf_rig_folder": 500, "encode_animclip": 400, "blender_import_bounds": 1000,
}

REGRESSIONS = [(name, path) for name, t in T.TARGETS.items() for path in t.regressions()]


def test_every_target_has_seeds_and_a_budget():
    assert set(EXAMPLES) == set(T.TARGETS)
    for t in T.TARGETS.values():
        assert t.seeds(), f"{t.name}: no seeds; run python tools/fuzz.py seed"


@pytest.mark.parametrize("name,path", REGRESSIONS, ids=[f"{n}/{p.name}" for n, p in REGRESSIONS])
def test_regression_input(name, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        T.TARGETS[name].run(path.read_bytes())


@pytest.mark.parametrize("name", sorted(T.TARGETS))
def test_seeds(name):
    for data in T.TARGETS[name].seeds():
        T.TARGETS[name].run(data)


def _short_run(name: str):
    target = T.TARGETS[name]
    seeds = target.seeds()

    @settings(max_examples=EXAMPLES[name], derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(seeds) - 1), st.integers(1, 4), st.randoms(use_true_random=False))
    def run(index, rounds, rng):
        data = seeds[index]
        for _ in range(rounds):
            data = T.mutate(target, data, rng, max_size=1 << 18)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target.run(data)

    return run


@pytest.mark.parametrize("name", sorted(T.TARGETS))
def test_short_fuzz(name):
    _short_run(name)()


def _outcome(read, data: bytes, fast: bool):
    try:
        return ("model", read(data, "f", fast=fast))
    except ParseError as exc:
        return ("error", exc.field, exc.offset, exc.reason)


@pytest.mark.parametrize("fmt", ["animbin", "meshbin"])
def test_bulk_reader_matches_the_generated_parser(fmt):
    if fmt == "animbin":
        from animspec.animbin import read_bytes as read
    else:
        from animspec.meshbin import read_bytes as read
    seeds = T.TARGETS[f"read_{fmt}"].seeds()
    for seed in seeds:
        for n in range(len(seed) + 1):
            assert _outcome(read, seed[:n], True) == _outcome(read, seed[:n], False), n
    rng = random.Random(7)
    for _ in range(1500):
        data = rng.choice(seeds)
        for _ in range(rng.randint(1, 4)):
            data = T.mutate_binary(data, rng)
        assert _outcome(read, data, True) == _outcome(read, data, False)


def test_driver_lists_and_replays():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz.py"), "list"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "read_animbin:" in r.stdout
    if REGRESSIONS:
        name, path = REGRESSIONS[0]
        r = subprocess.run([sys.executable, str(ROOT / "tools" / "fuzz.py"), "replay", name, str(path)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr


def test_atheris_driver_runs_when_installed():
    pytest.importorskip("atheris")
    r = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fuzz.py"), "run", "read_meshbin", "--seconds", "30", "--", "-runs=300"],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "atheris exit 0" in r.stdout
