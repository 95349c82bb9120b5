"""Output policy of a conversion: the name an output may have (its extension must not claim
another format than the one its direction writes), where a batch puts each output, and
writing it (animspec.common.output's policy: never over a file the run reads, an existing
file only with ``force``, read back before it replaces anything).

What each direction writes and refuses is its declaration
(:data:`animspec.convert.directions.DIRECTIONS`).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..common.output import write_output
from .declaration import Direction
from .options import ConvertOptions
from .refusals import OptionRefused


def check_output_name(out: str, direction: Direction | None) -> None:
    """Refuse an output whose extension is not one of what ``direction`` writes
    (``convert swing.animbin -o out.animbin`` writes glTF, and so does ``-o out.txt``): the
    refusal names the names that fit. Names without an extension, ``-`` and devices are
    left alone."""
    if direction is None or out == "-" or out.startswith("/dev/"):
        return
    stem, ext = os.path.splitext(out)
    if not ext or ext.lower() in direction.accepts:
        return
    raise OptionRefused("output", "wrong-extension", output=out, direction=direction.title,
                        writes=direction.writes, claims=direction.refuses.get(ext.lower()), ext=ext,
                        fits=direction.fits.format(stem=stem))


def check_output_folder(output: str, extensions: set[str]) -> None:
    """A batch (several inputs, a folder or a glob) writes into a folder: refuse an existing
    file, or a new name ending in an extension an output has (``extensions``)."""
    exists = os.path.exists(output)
    if (exists and not os.path.isdir(output)) or (
        not exists and os.path.splitext(output)[1].lower() in extensions
    ):
        raise OptionRefused("output", "output-not-folder", output=output)


def write(path: str, data: bytes, o: ConvertOptions, src: str, verify: Callable[[bytes], object]) -> None:
    """animspec.common.output's policy (never over the input, an existing file only with
    ``force``), first creating the missing folders of a batch output."""
    if o.make_folders:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    write_output(path, data, force=o.force, inputs=[src, *o.read_files()], verify=verify)


def write_gltf(path: str, glb: bytes, o: ConvertOptions, src: str) -> int:
    """Write a converted glTF in the form ``path``'s extension asks for (.gltf: JSON with the
    buffer embedded; otherwise GLB), checked to read back; returns the bytes written."""
    from ..gltf.format import file_bytes, read_back

    data = file_bytes(glb, path)
    write(path, data, o, src, verify=lambda written: read_back(written, path))
    return len(data)
