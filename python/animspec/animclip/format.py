"""The .animclip declaration of the FileFormat contract (animspec.formats): each operation
with the signature every format shares, adapted to this package's functions. Joint names
(--joint-names) label the joints that the file knows only by hash."""

from __future__ import annotations

from typing import Any

from ..common.findings import Finding
from ..formats import NO_OPTIONS, FileFormat, FormatOptions
from .info import summary
from .jsonio import FORMAT as NAME, from_json, json_path, to_json as _to_json
from .model import AnimclipFile
from .parse import looks_like_animclip, read_bytes
from .validate import validate as _validate
from .write import write_bytes


def validate(model: AnimclipFile, options: FormatOptions = NO_OPTIONS) -> list[Finding]:
    return _validate(model, joint_names=options.joint_names)


def info(model: AnimclipFile, options: FormatOptions = NO_OPTIONS) -> str:
    return summary(model, options.joint_names)


def to_json(model: AnimclipFile, options: FormatOptions = NO_OPTIONS) -> dict[str, Any]:
    return _to_json(model, options.joint_names)


FORMAT = FileFormat(
    name=NAME,
    description="Insomniac .animclip/.performanceclip (DAT1)",
    detect=looks_like_animclip,
    read=read_bytes,
    write=write_bytes,
    validate=validate,
    info=info,
    to_json=to_json,
    from_json=from_json,
    json_path=json_path,
    # No read_generated: read_bytes IS the generated parser's adapter (no second reader).
)
