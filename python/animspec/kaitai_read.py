"""Run a generated Kaitai parser and turn any failure into one :class:`ParseError`.

generated/ is compiled in debug mode (tools/ksc.js --debug), the mode the Kaitai Web IDE
uses: every object records where each field starts (``_debug[name]["start"]``, per array
element under ``"arr"``), and a partly read child object is still attached to its parent
when its ``_read`` raises. After a failure this module walks the partial tree from the root
along the last field started at each level; that gives the exact field path and, adding the
start of every substream on the way down, the absolute byte offset. No byte layout is
described here: only the generated code knows the layout.
"""

from __future__ import annotations

from io import BytesIO
from typing import TypeVar

from kaitaistruct import (
    EndOfStreamError,
    KaitaiStream,
    KaitaiStruct,
    KaitaiStructError,
    NoTerminatorFoundError,
    ValidationFailedError,
    ValidationNotEqualError,
)

from .common.errors import ParseError

T = TypeVar("T", bound=KaitaiStruct)


def parse(cls: type[T], data: bytes, path: str | None = None) -> T:
    """Parse ``data`` with the generated class ``cls``; raise :class:`ParseError` on failure."""
    root = cls(KaitaiStream(BytesIO(data)))
    try:
        root._read()  # type: ignore[attr-defined]  # every generated class has it; KaitaiStruct declares none
    except (KaitaiStructError, EOFError, ValueError, UnicodeDecodeError, OverflowError) as exc:
        field, offset = locate_failure(root)
        raise ParseError(path, offset, field, describe(exc)) from None
    return root


def record_error(cls: type[KaitaiStruct], data: bytes, start: int, prefix: str, path: str | None = None) -> ParseError:
    """The ParseError of one record of type ``cls`` that a bulk reader found cut short at
    ``start``: the generated type reads it (from ``start`` to the end of ``data``, the bytes
    the whole-file parser would have had left) and names the field that ran out, as
    :func:`parse` would with ``prefix`` (``animations[0].tracks[3].keys[7]``) in front."""
    record = cls(KaitaiStream(BytesIO(data[start:])))
    try:
        record._read()  # type: ignore[attr-defined]  # every generated class has it; KaitaiStruct declares none
    except (KaitaiStructError, EOFError, ValueError, UnicodeDecodeError, OverflowError) as exc:
        field, offset = locate_failure(record)
        return ParseError(path, None if offset is None else start + offset, f"{prefix}.{field}" if field else prefix,
                          describe(exc))
    raise AssertionError(f"{cls.__name__} reads at byte {start}; the bulk reader said it could not")


def locate_failure(root: KaitaiStruct) -> tuple[str, int | None]:
    """Field path and absolute offset of the field that was being read when parsing stopped."""
    obj, base = root, 0
    segments: list[str] = []
    offset: int | None = None
    while True:
        debug = getattr(obj, "_debug", None)
        if not debug:
            break
        name, entry = next(reversed(debug.items()))
        start = entry.get("start")
        child = getattr(obj, name, None)
        segment = name
        elements = entry.get("arr")
        if elements is not None:
            if elements:
                index = len(elements) - 1
                segment = f"{name}[{index}]"
                start = elements[index].get("start", start)
                child = child[index] if isinstance(child, list) and len(child) > index else None
            else:
                child = None
        segments.append(segment)
        offset = None if start is None else base + start
        if not isinstance(child, KaitaiStruct) or not getattr(child, "_debug", None):
            break
        # A child reading from its own stream (a sized substream) counts positions from the
        # start of that field; one reading the root stream counts from the file's start.
        if child._io is root._io:
            base = 0
        elif child._io is not obj._io and start is not None:
            base = base + start
        obj = child
    return ".".join(segments), offset


def describe(exc: BaseException) -> str:
    """A sentence for the user, without Kaitai's internal positions or source paths."""
    if isinstance(exc, NoTerminatorFoundError):
        return f"no terminator {exc.term!r} before the end of the data"
    if isinstance(exc, EndOfStreamError):
        return (
            f"data ends too early: the field needs {exc.bytes_needed} bytes, "
            f"only {exc.bytes_available} remain"
        )
    if isinstance(exc, EOFError):
        return f"data ends too early ({exc})"
    if isinstance(exc, ValidationNotEqualError):
        return f"expected {_show(exc.expected)}, found {_show(exc.actual)}"
    if isinstance(exc, ValidationFailedError):
        return str(exc).split("validation failed: ", 1)[-1]
    if isinstance(exc, UnicodeDecodeError):
        return f"text is not valid {exc.encoding}: byte 0x{exc.object[exc.start]:02x}"
    return str(exc)


def _show(value: object) -> str:
    if isinstance(value, (bytes, bytearray)):
        text = bytes(value)
        if all(32 <= b < 127 for b in text):
            return repr(text.decode("ascii"))
        return text.hex(" ")
    return repr(value)
