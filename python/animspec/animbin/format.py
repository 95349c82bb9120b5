"""ANIMBIN's declaration of the FileFormat contract (animspec.formats): each operation with
the signature every format shares, adapted to this package's functions."""

from __future__ import annotations

from typing import Any

from ..common.findings import Finding
from ..formats import NO_OPTIONS, FileFormat, FormatOptions
from .info import summary
from .jsonio import FORMAT as NAME, from_json, json_path, to_json as _to_json
from .model import AnimbinFile
from .parse import looks_like_animbin, read_bytes
from .validate import validate as _validate
from .write import write_bytes


def _read_generated(data: bytes, path: str | None = None) -> AnimbinFile:
    return read_bytes(data, path, fast=False)


def validate(model: AnimbinFile, options: FormatOptions = NO_OPTIONS) -> list[Finding]:
    return _validate(model, bone_count=options.bone_count)


def info(model: AnimbinFile, options: FormatOptions = NO_OPTIONS) -> str:
    return summary(model)


def to_json(model: AnimbinFile, options: FormatOptions = NO_OPTIONS) -> dict[str, Any]:
    return _to_json(model)


FORMAT = FileFormat(
    name=NAME,
    description="psyqo madnight engine ANIMBIN",
    detect=looks_like_animbin,
    read=read_bytes,
    write=write_bytes,
    validate=validate,
    info=info,
    to_json=to_json,
    from_json=from_json,
    json_path=json_path,
    read_generated=_read_generated,
)
