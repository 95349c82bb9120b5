"""Every finding code the code can emit has a row in docs/findings.md, with its severity.

The codes are collected from the source, not listed here: every ``Finding(...)`` call in
python/animspec whose code is a string literal, and, where the code is a variable, the
code strings of the table it is taken from in the same function (kebab-case strings in a
tuple that also names a severity). A new rule without a row fails this test.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "animspec"
DOCS = ROOT / "docs" / "findings.md"
SEVERITIES = {"ERROR": "error", "WARNING": "warning", "INFO": "info"}
CODE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")
RECOUNTED = {PACKAGE / "common" / "findings.py"}
"""Modules whose Finding calls repeat a code made elsewhere (the "N more" line of a capped list)."""


def _severity(node: ast.expr | None) -> str | None:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return SEVERITIES.get(name or "")


def emitted() -> dict[str, set[str | None]]:
    """code -> the severities it is emitted with (None: chosen at run time)."""
    codes: dict[str, set[str | None]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in RECOUNTED or "generated" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.Module))]
        for scope in functions:
            for call in ast.walk(scope):
                name = getattr(call.func, "id", getattr(call.func, "attr", None)) if isinstance(call, ast.Call) else None
                if name == "SampleProblem":
                    _sample_problem(call, codes)
                if name != "Finding":
                    continue
                if not call.args:
                    continue
                first = call.args[0]
                severity = _severity(call.args[1]) if len(call.args) > 1 else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.setdefault(first.value, set()).add(severity)
                elif isinstance(scope, ast.FunctionDef):
                    for table in ast.walk(scope):
                        if isinstance(table, ast.Tuple) and any(_severity(e) for e in table.elts):
                            sev = next(_severity(e) for e in table.elts if _severity(e))
                            for e in table.elts:
                                if isinstance(e, ast.Constant) and isinstance(e.value, str) and CODE.match(e.value):
                                    codes.setdefault(e.value, set()).add(sev)
    return codes


def _sample_problem(call: ast.Call, codes: dict[str, set[str | None]]) -> None:
    """A ``SampleProblem(code, "error" | "warning", ...)`` (animclip/frames/inputs.py): the validator
    reports it with that severity; also as INFO, the error as well as the warning, on the games
    where the per-frame layout is a hypothesis, unless the call says ``per_frame=False`` (a rule
    of Built that holds for every game) (animclip/validate.py)."""
    code, severity = (a.value if isinstance(a, ast.Constant) else None for a in call.args[:2])
    if not isinstance(code, str):
        return
    per_frame = not any(k.arg == "per_frame" and isinstance(k.value, ast.Constant) and k.value.value is False
                        for k in call.keywords)
    codes.setdefault(code, set()).update({severity} | ({"info"} if per_frame else set()))


def documented() -> dict[str, set[str]]:
    rows: dict[str, set[str]] = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0].startswith("`") and cells[0].endswith("`"):
            assert cells[3] and cells[4], f"{cells[0]}: a row says what it means and what to do"
            rows[cells[0].strip("`")] = {s.strip() for s in cells[2].split(",")}
    return rows


def test_the_collection_finds_the_codes_it_should():
    codes = emitted()
    assert len(codes) > 80, "the AST walk found almost nothing; the check would pass vacuously"
    # A literal code, a code from a table (MESHBIN faces), a severity from a table (PAIRS).
    assert codes["sparse-keys"] == {"warning"}
    assert codes["face-normal-index-out-of-range"] == {"warning"}
    assert codes["face-vertex-index-out-of-range"] == {"error"}
    assert "pair-missing" in codes and "few-joints-matched" in codes
    # What the .animclip decoder refuses, from the list the validator reports (frames/inputs.py).
    assert codes["sample-elem-joint"] == {"error", "info"} and codes["joint-count"] == {"error"}
    assert codes["sample-log-scale"] == {"warning", "info"}


def test_every_finding_code_has_a_row_with_its_severity():
    docs = documented()
    missing = sorted(set(emitted()) - set(docs))
    assert not missing, f"finding codes with no row in docs/findings.md: {missing}"
    wrong = {c: (sorted(s - {None}), sorted(docs[c])) for c, s in emitted().items()
             if s - {None} and not (s - {None}) <= docs[c]}
    assert not wrong, f"severity in the code vs in docs/findings.md: {wrong}"
    stale = sorted(set(docs) - set(emitted()))
    assert not stale, f"rows in docs/findings.md for codes nothing emits: {stale}"


def test_the_readme_points_at_the_findings_table():
    assert "docs/findings.md" in (ROOT / "README.md").read_text(encoding="utf-8")
