"""A file as its JSON dump, and a dump back as the file, whatever the format: what
``animspec dump`` and ``animspec pack`` do, as library functions (the command line only
parses arguments and prints). The format is the file's (detected from its bytes) or the
dump's ``"format"`` member; animspec.common.output's policy decides what may be written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .common import jsonfmt
from .common.errors import JsonInputError, ParseError, WriteError
from .common.inputs import read_input
from .common.jsonpath import parse_json
from .common.output import ReadFile, check_output, write_output
from .formats import HEAD_SIZE, NO_OPTIONS, FileFormat, Format, FormatOptions, format_of_dump, load, registered, sniff


def dump_text(path: str | os.PathLike[str], options: FormatOptions = NO_OPTIONS) -> str:
    """The JSON dump of the file at ``path`` (raw integer values), with a final newline."""
    return _dump_bytes(path, options).decode("utf-8")


def _dump_bytes(path: str | os.PathLike[str], options: FormatOptions) -> bytearray:
    """The dump's text, encoded, built piece by piece (jsonfmt.iter_dumps): the peak is the
    JSON document plus its text once, not plus every line and the text a second time
    (docs/hardening.md: a dump costs at most DUMP_MEMORY_MULTIPLE x the file)."""
    try:
        fmt, model = load(path)
    except ParseError as exc:
        gltf = _gltf_dump(path) if exc.field == "magic" else None
        if gltf is None:
            raise
        return bytearray((jsonfmt.dumps(gltf) + "\n").encode("utf-8"))
    doc = fmt.to_json(model, options)
    del model
    out = bytearray()
    for piece in jsonfmt.iter_dumps(doc):
        out += piece.encode("utf-8")
    out += b"\n"
    return out


DUMP_MEMORY_MULTIPLE = 100
"""Peak memory of ``dump`` (to a file or to standard output) is at most this many times the
file (a compressed .animclip: its DAT1 decompressed) plus 1 MB; tests/test_costly_inputs.py
holds it with tracemalloc. Measured worst: 96x, a file of 3-byte unknown ANIMBIN keys (the
model and its JSON document are both alive while the document is built)."""


def _gltf_dump(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """A glTF's dump: what ``info`` lists (skins, joints, animations) and its JSON document
    (buffers are not in it). None when ``path`` is not glTF. ``pack`` does not take it back:
    animspec does not write glTF from a dump."""
    from .common.inputs import read_head
    from .formats import HEAD_SIZE, sniff

    head = read_head(os.fspath(path), HEAD_SIZE)
    if head is None or sniff(head, ("gltf",)) is None:
        return None
    from .gltf.info import document_json, summarise
    from .gltf.rig import load_gltf

    gltf = load_gltf(path)
    return {"format": "gltf", "summary": summarise(gltf).to_json(), "document": document_json(gltf)}


def dump_file(
    path: str,
    output: str,
    options: FormatOptions = NO_OPTIONS,
    *,
    force: bool = False,
    side_files: Iterable[ReadFile] = (),
) -> str:
    """Write the dump of ``path`` to ``output`` (an existing file only with ``force``, never
    the input nor one of the ``side_files`` read for ``options``, such as --joint-names);
    returns the text written."""
    reads: list[str | ReadFile] = [path, *side_files]
    check_output(output, force=force, inputs=reads)
    data = _dump_bytes(path, options)
    # A regular file is read back and compared before it is published (animspec.common.atomic).
    write_output(output, data, force=force, inputs=reads)
    return data.decode("utf-8")


@dataclass(frozen=True)
class Packed:
    """A dump rebuilt: its format, the model it describes and the file's bytes."""

    format: FileFormat
    model: Any
    data: bytes

    @property
    def reencoded(self) -> Any:
        """The encoding edits of the dump made (an .animclip whose joints were edited:
        :class:`animspec.animclip.frames.encode.EncodedAnimation`, its ``error`` what the
        edits cost), or None: the file is the dump's values as they are."""
        return getattr(self.model, "reencoded", None)


class NotADump(JsonInputError):
    """``pack`` was given a file of a known format instead of a JSON dump (the binary itself,
    or a glTF): ``found`` is that format's name, so a front end can say what to run first."""

    def __init__(self, source: str | None, found: Format):
        self.found = found.name
        super().__init__(source, "$", f"not a JSON dump: the file is {found.description}")


def pack_bytes(raw: bytes, source: str) -> Packed:
    """The file the JSON dump ``raw`` (read from ``source``, named in errors) describes.
    JsonInputError names the dump's file and the JSON path of what is wrong, also for a
    value that does not fit its field (:class:`NotADump`: a file of a known format)."""
    found = sniff(raw[:HEAD_SIZE], [f.name for f in registered()])
    if found is not None:
        raise NotADump(source, found)
    doc = parse_json(raw, source)
    fmt = format_of_dump(doc, source)
    model = fmt.from_json(doc, source)
    try:
        data = fmt.write(model)
    except WriteError as exc:  # a value that does not fit its field: where the user wrote it
        raise JsonInputError(source, fmt.json_path(exc.field, doc), exc.reason) from None
    return Packed(fmt, model, data)


def pack_file(dump: str, output: str, *, force: bool = False) -> Packed:
    """Rebuild the file the dump at ``dump`` describes as ``output``: written atomically, and
    published only once it reads back as the dump describes."""
    check_output(output, inputs=[dump], existing=False)
    packed = pack_bytes(read_input(dump), dump)
    # Problems with the dump come first; an existing OUT is only replaced when asked.
    check_output(output, force=force, inputs=[dump])

    def same_model(written: bytes) -> None:
        try:
            back = packed.format.read(written, output)
        except ParseError as exc:
            raise WriteError("file", f"the written file does not read back: {exc.reason}") from None
        if back != packed.model:
            raise WriteError("file", "the written file does not read back as the dump describes")

    write_output(output, packed.data, force=force, inputs=[dump], verify=same_model)
    return packed
