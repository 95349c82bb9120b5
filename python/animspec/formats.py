"""The file formats animspec handles, detected from their bytes (never from the extension).

Each format supplies the same handful of functions; the CLI and batch code go through this
table and know nothing format-specific.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any, Callable

from .common.errors import JsonInputError, ParseError
from .common.findings import Finding
from .common.inputs import read_input


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


class _Lazy:
    """One format function, imported on its first call. A format's package (its generated
    parser, numpy, its writer...) is imported only when one of its functions is first used,
    so ``animspec validate one.animbin`` never imports the MESHBIN or .animclip packages
    (issue 15: start-up is paid per file on every build). ``__wrapped__`` is the function
    itself, so ``inspect.signature`` sees its parameters."""

    __slots__ = ("module", "attr", "_fn")

    def __init__(self, module: str, attr: str) -> None:
        self.module, self.attr, self._fn = module, attr, None

    @property
    def __wrapped__(self) -> Callable[..., Any]:
        if self._fn is None:
            self._fn = getattr(importlib.import_module(self.module), self.attr)
        return self._fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.__wrapped__(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.module}.{self.attr}, imported on first call>"


def _format(package: str, name: str, description: str) -> FileFormat:
    """Every format package has the same modules: parse (read_bytes, looks_like_<package>),
    write, validate, info and jsonio. Imported as modules by path, because a package may
    re-export a function under its module's name (animbin.validate). ``name`` is the
    package's jsonio.FORMAT (a test holds them equal), given here so naming a format
    imports nothing."""

    def function(module: str, attr: str) -> Any:
        return _Lazy(f"{__package__}.{package}.{module}", attr)

    return FileFormat(
        name=name,
        description=description,
        detect=function("parse", f"looks_like_{package}"),
        read=function("parse", "read_bytes"),
        write=function("write", "write_bytes"),
        validate=function("validate", "validate"),
        summary=function("info", "summary"),
        to_json=function("jsonio", "to_json"),
        from_json=function("jsonio", "from_json"),
        json_path=function("jsonio", "json_path"),
    )


# Detection tries these in order, each imported only as far as its magic check: ANIMBIN
# first, the file a PS1 build validates most often.
FORMATS: list[FileFormat] = [
    _format("animbin", "animbin", "psyqo madnight engine ANIMBIN"),
    _format("meshbin", "meshbin", "psyqo madnight engine MESHBIN"),
    _format("animclip", "animclip", "Insomniac .animclip/.performanceclip (DAT1)"),
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
