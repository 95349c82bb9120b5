"""The file formats animspec handles, detected from their bytes (never from the extension).

Each format supplies the same handful of functions; the CLI and batch code go through this
table and know nothing format-specific.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Callable

from .errors import JsonInputError, ParseError
from .findings import Finding
from .inputs import read_input


class FileFormat:
    """One format: its name and description now, its functions on first use.

    A format's package (numpy, its generated parser, its writer...) is imported only when one
    of its functions is first looked up, so ``animspec validate one.animbin`` never imports
    the .animclip or MESHBIN packages (issue 15: start-up is paid per file on every build).
    Every format package has the same modules: parse (read_bytes, looks_like_<package>),
    write, validate, info and jsonio. Imported as modules by path, because a package may
    re-export a function under its module's name (animbin.validate)."""

    def __init__(self, package: str, name: str, description: str) -> None:
        self.package = package
        self.name = name
        self.description = description

    def _module(self, name: str) -> Any:
        return importlib.import_module(f"{__package__}.{self.package}.{name}")

    @property
    def detect(self) -> Callable[[bytes], bool]:
        return getattr(self._module("parse"), f"looks_like_{self.package}")

    @property
    def read(self) -> Callable[[bytes, str | None], Any]:
        return self._module("parse").read_bytes

    @property
    def write(self) -> Callable[[Any], bytes]:
        return self._module("write").write_bytes

    @property
    def validate(self) -> Callable[..., list[Finding]]:
        return self._module("validate").validate

    @property
    def summary(self) -> Callable[[Any], str]:
        return self._module("info").summary

    @property
    def to_json(self) -> Callable[[Any], dict[str, Any]]:
        return self._module("jsonio").to_json

    @property
    def from_json(self) -> Callable[[Any, str | None], Any]:
        return self._module("jsonio").from_json

    @property
    def json_path(self) -> Callable[[str, Any], str]:
        """A writer's field path (``WriteError.field``) -> the JSON path of that value in a dump."""
        return self._module("jsonio").json_path

    def __repr__(self) -> str:
        return f"FileFormat({self.name!r})"


# Detection tries these in order, importing each package only as far as its magic check:
# ANIMBIN first, the file a PS1 build validates most often.
FORMATS: list[FileFormat] = [
    FileFormat("animbin", "animbin", "psyqo madnight engine ANIMBIN"),
    FileFormat("meshbin", "meshbin", "psyqo madnight engine MESHBIN"),
    FileFormat("animclip", "animclip", "Insomniac .animclip/.performanceclip (DAT1)"),
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
