"""tools/mutation.py's own rules (issue 31): a flaky test is never what kills a mutant, and a
hand-made mutant is the exact text it names, in the module it names."""

from __future__ import annotations

import json

import pytest
from conftest import tool_module


@pytest.fixture(scope="module")
def driver():
    return tool_module("mutation")


def test_flaky_tests_are_never_selected(driver):
    mutant = driver.Mutant("x.py", 0, 3, "Add -> Sub", "", start_line=3, end_line=3)
    order = ["tests/test_a.py::t1", "tests/test_architecture.py::t2", "tests/test_temporaries.py::t3"]
    at_import = {"order": order, "lines": {"3": [""]}}  # a module constant: every mapped test
    mapped = ["tests/test_a.py", "tests/test_architecture.py", "tests/test_temporaries.py"]
    assert driver.tests_for(mutant, at_import, mapped) == ["tests/test_a.py"]
    only_flaky = {"order": order, "lines": {"3": ["tests/test_architecture.py::t2", "file::tests/test_temporaries.py"]}}
    assert driver.tests_for(mutant, only_flaky, mapped) is None  # a survivor, not a kill


def test_no_module_maps_a_flaky_test(driver):
    assert set(driver.NOT_A_KILL) == {"tests/test_temporaries.py", "tests/test_architecture.py"}
    for rel, conf in driver.MODULES.items():
        assert not [t for t in conf["tests"] if t.startswith(driver.NOT_A_KILL)], rel


def test_every_planted_mutant_applies_once_to_a_mapped_module(driver):
    for rel, bugs in driver.PLANTED.items():
        assert rel in driver.MODULES
        text = (driver.PACKAGE / rel).read_text()
        for what, old, new in bugs:
            assert text.count(old) == 1 and old != new, (rel, what)
        made = driver.planted_mutants(rel, text, 1000)
        assert all(source is not None and source != text for _, source in made)
        assert [m.what for m, _ in made] == [what for what, _, _ in bugs]


def test_a_planted_mutant_whose_text_is_gone_is_stale(driver, monkeypatch):
    monkeypatch.setitem(driver.PLANTED, "fixed_point.py", [("gone", "no such text", "x")])
    (mutant, source), = driver.planted_mutants("fixed_point.py", "a = 1\n", 5)
    assert source is None and mutant.planted and mutant.index == 5


def _listed(driver, capsys, *args: str) -> list[str]:
    assert driver.main(["animclip/frames/sections.py", "--list", *args]) == 0
    return capsys.readouterr().out.splitlines()


def test_two_phases_of_a_sample_make_the_full_run(driver, capsys):
    full = _listed(driver, capsys)
    even, odd = _listed(driver, capsys, "--every", "2"), _listed(driver, capsys, "--every", "2", "--phase", "1")
    planted = [line for line in full if ": planted: " in line]
    assert planted and set(planted) <= set(even) & set(odd)  # the hand-made ones run in both
    generated = [line for line in full if line not in planted]
    assert sorted(line for line in even + odd if line not in planted) == sorted(generated)
    assert abs(len(even) - len(odd)) <= 1 and even[0] == full[0] and odd[0] == full[1]
    with pytest.raises(SystemExit):
        driver.main(["animclip/frames/sections.py", "--list", "--every", "2", "--phase", "2"])
    assert "--phase 2 with --every 2" in capsys.readouterr().err


def test_a_rerun_takes_the_earlier_survivors_even_where_lines_moved(driver, capsys, tmp_path):
    full = _listed(driver, capsys)
    kept, killed = full[3], full[4]  # "module:line: what: source"
    lines = (driver.PACKAGE / "animclip/frames/sections.py").read_text().splitlines()

    def entry(listed: str, status: str, suffix: str = "") -> dict:
        # "module:line: what: source", where a mutation's name may hold ": " itself
        module, line, rest = listed.split(":", 2)
        source = lines[int(line) - 1].strip()
        what = rest.strip().removesuffix(source).removesuffix(": ")
        return {"module": module, "line": int(line) + 7, "what": what + suffix, "source_line": "    " + source,
                "status": status}
    earlier = tmp_path / "earlier.json"
    earlier.write_text(json.dumps({"animclip/frames/sections.py": [
        entry(kept, "survived", driver.NO_TEST_RUNS), entry(killed, "killed")]}))
    assert _listed(driver, capsys, "--survivors-of", str(earlier)) == [kept]
    earlier.write_text("[1, 2]")
    with pytest.raises(SystemExit, match="not the --json of an earlier run"):
        driver.main(["animclip/frames/sections.py", "--survivors-of", str(earlier)])


def test_every_survivor_excused_by_a_contract_is_a_mutant_of_a_module_with_one(driver):
    """WITHIN_CONTRACT names mutants the driver makes today (a stale entry would excuse
    nothing, or the next mutant that happens to match), each in a module whose CONTRACT says
    what its tests hold, and none that EQUIVALENT already argues (a mutant is one or the other)."""
    assert not set(driver.WITHIN_CONTRACT) & set(driver.EQUIVALENT)
    made: dict[str, set[tuple[str, str]]] = {}
    for rel, source, what in driver.WITHIN_CONTRACT:
        assert rel in driver.CONTRACT and rel in driver.MODULES, rel
        if rel not in made:
            path = driver.PACKAGE / rel
            lines = path.read_text().splitlines()
            made[rel] = {(lines[line - 1].strip(), kind)
                         for line, _, _, kind in driver.sites(path, driver.MODULES[rel].get("only"))}
        assert (source, what) in made[rel], (rel, source, what)


def test_a_survivor_on_a_line_no_test_runs_is_matched_by_its_mutation(driver):
    """The run adds " (no test runs this line)" to such a mutant's name; the tables' keys do
    not carry it, and an argued survivor must still be found there (it was reported open).
    A hand-made mutant is never excused, whatever its text."""
    (rel, source, what), = [k for k in driver.EQUIVALENT if k[1] == "if lookup:"]
    untested = driver.Mutant(rel, 1, 1, what + driver.NO_TEST_RUNS, "        " + source, start_line=1, end_line=1)
    assert driver.excused(untested) is driver.EQUIVALENT
    (rel, source, what) = next(iter(driver.WITHIN_CONTRACT))
    assert driver.excused(driver.Mutant(rel, 2, 1, what, source, start_line=1, end_line=1)) is driver.WITHIN_CONTRACT
    planted = driver.Mutant(rel, 3, 1, what, source, start_line=1, end_line=1, planted=True)
    unknown = driver.Mutant(rel, 4, 1, what + "!", source, start_line=1, end_line=1)
    assert driver.excused(planted) is None and driver.excused(unknown) is None
