"""JSON text that a person can read and edit: one line per list of plain values.

``json.dumps(indent=2)`` puts every number of a quaternion on its own line; dumps are
meant to be edited by hand, so lists of scalars, and short objects made only of scalars and
such lists (a key, a marker), stay on one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def dumps(value: Any, indent: int = 2) -> str:
    return _dumps(value, indent, 0)


def iter_dumps(value: Any, indent: int = 2) -> Iterator[str]:
    """The text of :func:`dumps` in pieces, none larger than one inline value: a dump of
    millions of keys is written out without its whole text, or a list of every line, in
    memory at once."""
    return _iter_dumps(value, indent, 0)


def _iter_dumps(value: Any, indent: int, level: int) -> Iterator[str]:
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, dict):
        if not value:
            yield "{}"
            return
        if all(_is_flat(v) for v in value.values()):
            inline = json.dumps(value, separators=(", ", ": "))
            if len(inline) <= INLINE_WIDTH:
                yield inline
                return
        separator = "{\n"
        for k, v in value.items():
            yield f"{separator}{pad}{json.dumps(str(k))}: "
            yield from _iter_dumps(v, indent, level + 1)
            separator = ",\n"
        yield "\n" + end + "}"
        return
    if isinstance(value, list):
        if all(_is_scalar(v) for v in value):
            yield "[" + ", ".join(json.dumps(v) for v in value) + "]"
            return
        separator = "[\n"
        for v in value:
            yield separator + pad
            yield from _iter_dumps(v, indent, level + 1)
            separator = ",\n"
        yield "\n" + end + "]"
        return
    yield json.dumps(value)


INLINE_WIDTH = 100


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


def _is_flat(value: Any) -> bool:
    return _is_scalar(value) or (isinstance(value, list) and all(_is_scalar(v) for v in value))


def _dumps(value: Any, indent: int, level: int) -> str:
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(_is_flat(v) for v in value.values()):
            inline = json.dumps(value, separators=(", ", ": "))
            if len(inline) <= INLINE_WIDTH:
                return inline
        items = [f"{pad}{json.dumps(str(k))}: {_dumps(v, indent, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, list):
        if all(_is_scalar(v) for v in value):
            return json.dumps(value)  # "[a, b]": the items as one call encodes them, ", " between
        items = [pad + _dumps(v, indent, level + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return json.dumps(value)
