"""The file formats animspec handles, detected from their bytes (never from the extension).

Each format supplies the same handful of functions; the CLI and batch code go through this
table and know nothing format-specific.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any, Callable

from .errors import JsonInputError, ParseError
from .findings import Finding
from .inputs import read_input


@dataclass(frozen=True)
class FileFormat:
    name: str
    description: str
    detect: Callable[[bytes], bool]
    read: Callable[[bytes, str | None], Any]
    write: Callable[[Any], bytes]
    validate: Callable[..., list[Finding]]
    summary: Callable[[Any], str]
    to_json: Callable[[Any], dict[str, Any]]
    from_json: Callable[[Any, str | None], Any]
    json_path: Callable[[str, Any], str]
    """A writer's field path (``WriteError.field``) -> the JSON path of that value in a dump."""


def _format(package: str, description: str) -> FileFormat:
    """Every format package has the same modules: parse (read_bytes, looks_like_<package>),
    write, validate, info and jsonio. Imported as modules by path, because a package may
    re-export a function under its module's name (animbin.validate)."""

    def module(name: str) -> Any:
        return importlib.import_module(f"{__package__}.{package}.{name}")

    parse, jsonio = module("parse"), module("jsonio")
    return FileFormat(
        name=jsonio.FORMAT,
        description=description,
        detect=getattr(parse, f"looks_like_{package}"),
        read=parse.read_bytes,
        write=module("write").write_bytes,
        validate=module("validate").validate,
        summary=module("info").summary,
        to_json=jsonio.to_json,
        from_json=jsonio.from_json,
        json_path=jsonio.json_path,
    )


FORMATS: list[FileFormat] = [
    _format("animbin", "psyqo madnight engine ANIMBIN"),
    _format("meshbin", "psyqo madnight engine MESHBIN"),
    _format("animclip", "Insomniac .animclip/.performanceclip (DAT1)"),
]


def by_name(name: str) -> FileFormat:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(name)


def detect(data: bytes, path: str | None = None) -> FileFormat:
    """The format whose magic ``data`` carries; ParseError at offset 0 when none does."""
    for fmt in FORMATS:
        if fmt.detect(data):
            return fmt
    known = ", ".join(f.description for f in FORMATS)
    head = data[:8].hex(" ") if data else "an empty file"
    raise ParseError(path, 0, "magic", f"not a file animspec knows ({known}); it starts with {head}")


def load(path: str | os.PathLike[str]) -> tuple[FileFormat, Any]:
    """Read, detect and parse the file at ``path``."""
    path = os.fspath(path)
    data = read_input(path)
    fmt = detect(data, path)
    return fmt, fmt.read(data, path)


def format_of_dump(doc: Any, source: str | None = None) -> FileFormat:
    """The format a JSON dump declares in its ``"format"`` member."""
    name = doc.get("format") if isinstance(doc, dict) else None
    try:
        return by_name(name)  # type: ignore[arg-type]
    except KeyError:
        names = ", ".join(f'"{f.name}"' for f in FORMATS)
        raise JsonInputError(source, "$.format", f"expected one of {names}, found {name!r}") from None
