"""Validator findings, shared by every format.

A finding has a stable ``code`` (scripts may match on it), a ``severity``, a sentence for a
person and ``where``: a small mapping locating it (``{"animation": 0, "track": 3, "key": 7}``
for ANIMBIN, section tags and indices for .animclip).
"""

from __future__ import annotations

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


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
