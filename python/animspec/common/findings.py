"""Validator findings, shared by every format.

A finding has a stable ``code`` (scripts may match on it), a ``severity``, a sentence for a
person and ``where``: a small mapping locating it (``{"animation": 0, "track": 3, "key": 7}``
for ANIMBIN, section tags and indices for .animclip).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Severity(str, Enum):
    """ERROR: the console (or the game) misbehaves. WARNING: legal but almost certainly not
    what was meant. INFO: worth knowing, harmless."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    message: str
    where: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "where": dict(self.where),
        }

    def location(self) -> str:
        """``animation 0 ("walk"), track 3, key 7``: for one-line reports."""
        parts = []
        for key, value in self.where.items():
            if key.endswith("_name"):
                continue
            label = f"{key.replace('_', ' ')} {value}"
            name = self.where.get(f"{key}_name")
            if name is not None:
                label += f" ({name!r})"
            parts.append(label)
        return ", ".join(parts)


def findings_text(path: str, findings: list[Finding]) -> str:
    """The report of one file's findings, as ``animspec validate`` prints it: "PATH: ok", or
    a line per finding and a line of counts (no final newline)."""
    if not findings:
        return f"{path}: ok"
    lines = []
    for f in findings:
        where = f.location()
        lines.append(f"{path}: {f.severity.value}: {f.code}: {where + ': ' if where else ''}{f.message}")
    counts = {s: sum(1 for f in findings if f.severity is s) for s in Severity}
    lines.append(f"{path}: {counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
                 f"{counts[Severity.INFO]} info")
    return "\n".join(lines)


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)


MAX_PER_CODE = 1000
"""Findings of one code listed per file; a hostile file can hold millions of the same hazard
(one per 3-byte key), and a report of a million lines helps no one."""


def capped(findings: Iterable[Finding], per_code: int = MAX_PER_CODE) -> list[Finding]:
    """``findings`` (consumed lazily), keeping at most ``per_code`` of each code; past that,
    one more finding of the code and severity says how many were left out."""
    kept: list[Finding] = []
    counts: Counter[str] = Counter()
    severity: dict[str, Severity] = {}
    for f in findings:
        counts[f.code] += 1
        if counts[f.code] <= per_code:
            kept.append(f)
        else:
            severity[f.code] = max(severity.get(f.code, f.severity), f.severity, key=_rank)
    for code, sev in severity.items():
        kept.append(Finding(code, sev, f"{counts[code] - per_code} more {code} finding(s) not listed (at most "
                                       f"{per_code} per code are)"))
    return kept


def _rank(severity: Severity) -> int:
    return {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}[severity]
