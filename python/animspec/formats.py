"""The file formats animspec handles: the contract each one fulfils, and the registry by name.

A format is detected from its bytes, never from the extension. Each format package declares
itself in its own ``format`` module (``animspec.animbin.format.FORMAT``...): a
:class:`FileFormat` whose operations have the one fixed signature below and take the one
options object, :class:`FormatOptions`. The registry here names each format and where its
declaration lives, so naming a format imports nothing and a format's package (its parser,
numpy, its writer...) is imported only when one of its operations is first used:
``animspec validate one.animbin`` never imports the MESHBIN or .animclip packages (start-up is
paid per file on every build).

glTF is registered the same way, as a :class:`Format` (detection only): animspec converts
from and to it and reads rigs from it, but does not validate, dump or pack it. Which formats
``convert`` takes and which hold a skeleton are the role lists :data:`CONVERT_SOURCES` and
:data:`RIG_FORMATS`.

A new format: a package with a ``format.py`` declaring ``FORMAT = FileFormat(...)``, one
:func:`_declared` line in :data:`FORMATS`, and tests/test_format_contract.py checks it.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .common.errors import JsonInputError, ParseError
from .common.findings import Finding
from .common.inputs import read_input

HEAD_SIZE = 64
"""The bytes of a file a format's detection is given (a magic, or the start of glTF JSON):
one size for every caller, so a folder walk, convert and --skeleton tell a file apart alike
(glTF JSON detection depends on how much of the object the head holds)."""


@dataclass(frozen=True)
class FormatOptions:
    """What a user may tell any format's operations, the same object for every format: each
    format uses the members that mean something to it and ignores the others (--bones means
    nothing to an .animclip, --joint-names nothing to an ANIMBIN)."""

    bone_count: int | None = None
    """The skeleton's bone count (validate --bones): joint ids must be below it."""
    joint_names: tuple[str, ...] | None = None
    """Names to label joints known only by hash (--joint-names FILE, already read)."""


NO_OPTIONS = FormatOptions()


@dataclass(frozen=True)
class Format:
    """What every registered format has: a name, a description, and detection from a file's
    first bytes (:data:`HEAD_SIZE` of them, or the whole file)."""

    name: str
    description: str
    detect: Callable[[bytes], bool]


@dataclass(frozen=True)
class FileFormat(Format):
    """A format animspec reads, writes, checks, summarises and dumps to JSON and back.

    ``read(write(m)) == m`` and, for a file as read, ``write(read(f)) == f`` byte for byte;
    ``from_json(to_json(m)) == m``. Bad bytes raise ParseError (file, byte offset, field);
    a bad dump JsonInputError (file, JSON path); a value that does not fit WriteError, whose
    ``field`` ``json_path`` turns into the place in the dump the user wrote it.
    """

    read: Callable[[bytes, str | None], Any]
    """(data, path) -> model; ``path`` only labels errors."""
    write: Callable[[Any], bytes]
    validate: Callable[[Any, FormatOptions], list[Finding]]
    info: Callable[[Any, FormatOptions], str]
    """The readable summary ``animspec info`` prints."""
    to_json: Callable[[Any, FormatOptions], dict[str, Any]]
    from_json: Callable[[Any, str | None], Any]
    """(parsed JSON dump, its file name for errors) -> model."""
    json_path: Callable[[str, Any], str]
    """A writer's field path (``WriteError.field``) -> the JSON path of that value in a dump."""
    read_generated: Callable[[bytes, str | None], Any] | None = None
    """The same as ``read`` through the parser generated from the .ksy alone, for a format
    whose ``read`` is a faster hand-written reader (the tests hold the two equal)."""


def using_options(fn: Callable[..., Any], *names: str) -> Callable[[Any, FormatOptions], Any]:
    """``fn(model, **keywords)`` as an operation of the contract, ``(model, options)``, passing
    it the :class:`FormatOptions` members ``names`` under the same names: a format declares
    which options an operation uses (``using_options(validate, "bone_count")``)."""
    unknown = set(names) - {f.name for f in fields(FormatOptions)}
    if unknown:
        raise TypeError(f"FormatOptions has no {', '.join(sorted(unknown))}")

    def operation(model: Any, options: FormatOptions = NO_OPTIONS) -> Any:
        return fn(model, **{name: getattr(options, name) for name in names})

    operation.__name__ = operation.__qualname__ = getattr(fn, "__name__", "operation")
    operation.uses = names  # type: ignore[attr-defined]  # (which options act: the CLI refuses the others)
    operation.__doc__ = fn.__doc__
    return operation


def operations(kind: type[Format]) -> tuple[str, ...]:
    """The operations of a ``kind`` of format: its fields but its name, description and the
    tests' reference reader."""
    return tuple(f.name for f in fields(kind) if f.name not in ("name", "description", "read_generated"))


class _Lazy:
    """One operation of a format declared in ``module``, imported on its first call."""

    __slots__ = ("module", "attr", "_fn")

    def __init__(self, module: str, attr: str) -> None:
        self.module, self.attr = module, attr
        self._fn: Callable[..., Any] | None = None

    def resolve(self) -> Callable[..., Any]:
        if self._fn is None:
            declared = importlib.import_module(self.module).FORMAT
            self._fn = getattr(declared, self.attr)
        return self._fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.module}.FORMAT.{self.attr}, imported on first call>"


def declaration(fmt: Format) -> Format:
    """The format object its package declares (importing the package), for a registered one."""
    lazy = fmt.detect
    return importlib.import_module(lazy.module).FORMAT if isinstance(lazy, _Lazy) else fmt


def _declared(name: str, description: str, module: str, kind: type[Format] = FileFormat) -> Any:
    """The registry's stand-in for the format ``module`` declares as ``FORMAT``: its name and
    description, given here so naming a format imports nothing (tests hold them equal to the
    declaration's), and each operation forwarding to the declaration, imported on first call."""
    # (read_generated, a reference for the tests, is only on the declaration itself.)
    return kind(name=name, description=description, **{op: _Lazy(module, op) for op in operations(kind)})


# Detection tries these in order, each imported only as far as its magic check: ANIMBIN
# first, the file a PS1 build validates most often.
FORMATS: list[FileFormat] = [
    _declared("animbin", "psyqo madnight engine ANIMBIN", f"{__package__}.animbin.format"),
    _declared("meshbin", "psyqo madnight engine MESHBIN", f"{__package__}.meshbin.format"),
    _declared("animclip", "Insomniac .animclip/.performanceclip (DAT1)", f"{__package__}.animclip.format"),
]

GLTF: Format = _declared("gltf", "glTF 2.0 (GLB or .gltf JSON)", f"{__package__}.gltf.format", Format)
"""glTF: only detected here; animspec.convert and animspec.rigs do the rest."""

CONVERT_SOURCES = ("gltf", "animbin", "animclip")
"""What ``animspec convert`` takes (animspec.convert turns each into the other side)."""
RIG_FORMATS = ("meshbin", "gltf")
"""What holds a skeleton (``--skeleton``; animspec.rigs)."""


def registered() -> list[Format]:
    """Every registered format: the file formats, then glTF."""
    return [*FORMATS, GLTF]


def by_name(name: str) -> FileFormat:
    """The file format called ``name`` (KeyError if none is)."""
    return _named(name, FORMATS)


def format_named(name: str) -> Format:
    """Any registered format called ``name``, glTF included (KeyError if none is)."""
    return _named(name, registered())


def _named(name: str, formats: Sequence[Any]) -> Any:
    for fmt in formats:
        if fmt.name == name:
            return fmt
    raise KeyError(name)


def sniff(head: bytes, names: Sequence[str] | None = None) -> Format | None:
    """The first registered format among ``names`` (default: the file formats) whose detection
    accepts ``head``, a file's first bytes; None when none does."""
    candidates = FORMATS if names is None else [format_named(n) for n in names]
    for fmt in candidates:
        if fmt.detect(head):
            return fmt
    return None


class FormatMismatch(ParseError):
    """The bytes are a file of a registered format, but not of the one (or ones) asked for: an
    ANIMBIN given where an .animclip is read, a glTF given to ``validate``. ``found`` and
    ``wanted`` are the formats' names (a front end says what to do instead)."""

    def __init__(self, path: str | None, found: Format, wanted: Sequence[Format]):
        self.found, self.wanted = found.name, tuple(w.name for w in wanted)
        expected = " or ".join(w.description for w in wanted)
        super().__init__(path, 0, "magic", f"the file is {found.description}, not {expected}")


def check_format(data: bytes, wanted: Sequence[str], path: str | None = None) -> None:
    """Raise :class:`FormatMismatch` when ``data`` is a file of a registered format other than
    those ``wanted`` (by name): a reader's magic error then names what the file is instead
    (a magic compare per format; a file of a wanted format costs one)."""
    head = bytes(data[:HEAD_SIZE])
    if sniff(head, wanted) is not None:
        return
    found = sniff(head, [f.name for f in registered() if f.name not in wanted])
    if found is not None:
        raise FormatMismatch(path, found, [format_named(n) for n in wanted])


def detect(data: bytes, path: str | None = None) -> FileFormat:
    """The file format whose magic ``data`` carries; ParseError at offset 0 when none does
    (:class:`FormatMismatch` for a glTF, which is registered but no file format)."""
    fmt = sniff(data)
    if fmt is not None:
        return fmt  # type: ignore[return-value]  # sniff() without names tries FORMATS only: a FileFormat
    check_format(data, [f.name for f in FORMATS], path)
    known = ", ".join(f.description for f in registered())
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
        return by_name(name)  # type: ignore[arg-type]  # None or a non-name is no key either: reported below
    except KeyError:
        names = ", ".join(f'"{f.name}"' for f in FORMATS)
        raise JsonInputError(source, "$.format", f"expected one of {names}, found {name!r}") from None
