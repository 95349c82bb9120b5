"""Typed access to JSON input, with the JSON path of every value in error messages.

Packing a hand-edited dump must fail with one clear :class:`JsonInputError` naming the
offending value (``$.animations[0].tracks[2].keys[5].frame``), never with a KeyError or
TypeError from deep inside.
"""

from __future__ import annotations

import base64
import binascii
import builtins
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from .errors import JsonInputError


def parse_json(raw: bytes | str, source: str | None = None) -> Any:
    """The JSON document in ``raw``; one :class:`JsonInputError` at ``$`` for anything that
    is not JSON: bad syntax or encoding, nesting too deep for the parser (RecursionError),
    an integer too long to convert (Python refuses more than 4300 digits)."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise JsonInputError(source, "$", f"not valid JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise JsonInputError(source, "$", f"not valid JSON: not UTF-8, UTF-16 or UTF-32 text ({exc.reason})") from None
    except RecursionError:
        raise JsonInputError(source, "$", "not valid JSON here: nested too deeply") from None
    except ValueError as exc:
        raise JsonInputError(source, "$", f"not valid JSON here: {exc}") from None


def json_path_of(field: str, rules: Sequence[tuple[str, str]]) -> str:
    """The JSON path of a dump's value from a writer's field path (``WriteError.field``):
    the first of ``rules`` (regular expression over the whole field, replacement) that
    matches, else the field below ``$``. Each format's jsonio lists its rules, so a value that
    does not fit its field is reported where the user wrote it (``$.animations[0].tracks[0]
    .keys[3].rotation[1]``), not by the writer's name for it (``value.x``)."""
    for pattern, replacement in rules:
        path, n = re.subn(rf"^{pattern}$", replacement, field)
        if n:
            return path
    return f"$.{field}" if field else "$"


class JsonNode:
    """A JSON value together with its path from the document root."""

    def __init__(self, value: Any, path: str = "$", source: str | None = None):
        self.value = value
        self.path = path
        self.source = source

    def error(self, reason: str) -> JsonInputError:
        return JsonInputError(self.source, self.path, reason)

    def _child(self, value: Any, path: str) -> JsonNode:
        return JsonNode(value, path, self.source)

    def obj(self) -> dict:
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, found {_kind(self.value)}")
        return self.value

    def __getitem__(self, key: str) -> JsonNode:
        d = self.obj()
        if key not in d:
            raise self.error(f'missing "{key}"')
        return self._child(d[key], f"{self.path}.{key}")

    def get(self, key: str, default: Any = None) -> JsonNode:
        d = self.obj()
        return self._child(d.get(key, default), f"{self.path}.{key}")

    def has(self, key: str) -> bool:
        return key in self.obj()

    def items(self) -> Iterator[JsonNode]:
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, found {_kind(self.value)}")
        for i, v in enumerate(self.value):
            yield self._child(v, f"{self.path}[{i}]")

    def int(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.error(f"expected an integer, found {_kind(self.value)}")
        return self.value

    def ints(self, count: builtins.int) -> list[builtins.int]:  # (int here would be the method above)
        values = [n.int() for n in self.items()]
        if len(values) != count:
            raise self.error(f"expected {count} integers, found {len(values)}")
        return values

    def str(self) -> str:
        if not isinstance(self.value, str):
            raise self.error(f"expected a string, found {_kind(self.value)}")
        return self.value

    def hex_bytes(self) -> bytes:
        try:
            return bytes.fromhex(self.str())
        except ValueError:
            raise self.error("expected hexadecimal digits") from None

    def base64_bytes(self) -> bytes:
        try:
            return base64.b64decode(self.str(), validate=True)
        except (binascii.Error, ValueError):
            raise self.error("expected base64") from None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "an object"}.get(type(value), type(value).__name__)
