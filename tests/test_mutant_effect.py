"""tools/mutant_effect.py's verdict on a mutant (issue 31): a file past the bound, or other
figures reported for the same file, is a gap in the tests; other bytes within the bound are
not. Checked on rows made here, not on a run (which takes minutes)."""

from __future__ import annotations

import pytest
from conftest import tool_module


@pytest.fixture(scope="module")
def tool():
    return tool_module("mutant_effect")


def _row(bytes_: int = 1000, sha: str = "a", max_m: float = 1e-4, bound: float | None = 2e-4,
         reported=(1e-4, 0.01, 0.0, 0.0), cpu: float = 1.0, bits: int = 100) -> dict:
    return {"clip": "c", "setting": "s", "bytes": bytes_, "bits": bits, "sha256": sha, "max_m": max_m,
            "bound_m": bound, "reported": list(reported), "cpu_s": cpu}


def test_other_bytes_within_the_bound_are_measured_not_flagged(tool):
    got = tool.compare([_row(1010, "b", 1.5e-4, bits=102, cpu=2.0)], [_row()])
    assert got["over_bound"] == [] and got["misreported"] == []
    assert got["bytes_change"] == pytest.approx(0.01) and got["bits_change"] == pytest.approx(0.02)
    assert got["rows_changed"] == [("c", "s", 10)] and got["cpu_ratio"] == pytest.approx(2.0)
    assert got["error_ratio"] == pytest.approx(1.5)


def test_a_file_past_the_bound_is_flagged_and_a_joint_local_row_has_none(tool):
    assert tool.compare([_row(max_m=2.1e-4, sha="b")], [_row()])["over_bound"] == ["c s: 0.02100 cm"]
    assert tool.compare([_row(max_m=2e-4 * (1 + 1e-12))], [_row()])["over_bound"] == []  # measuring noise
    assert tool.compare([_row(max_m=1.0, bound=None, sha="b")], [_row(bound=None)])["over_bound"] == []


def test_other_figures_for_the_same_file_are_flagged(tool):
    same_file = tool.compare([_row(reported=(0.0, 0.01, 0.0, 0.0))], [_row()])
    assert same_file["misreported"] == ["c s"] and same_file["rows_changed"] == []
    other_file = tool.compare([_row(sha="b", reported=(0.0, 0.01, 0.0, 0.0))], [_row()])
    assert other_file["misreported"] == []  # (another file may well report other figures)
