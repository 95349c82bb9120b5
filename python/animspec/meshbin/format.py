"""MESHBIN's declaration of the FileFormat contract (animspec.formats): this package's
functions as the operations every format has, and which options each one uses."""

from __future__ import annotations

from functools import partial

from ..formats import FileFormat, using_options
from .info import summary
from .jsonio import FORMAT as NAME, from_json, json_path, to_json
from .parse import looks_like_meshbin, read_bytes
from .validate import validate
from .write import write_bytes

FORMAT = FileFormat(
    name=NAME,
    description="psyqo madnight engine MESHBIN",
    detect=looks_like_meshbin,
    read=read_bytes,
    write=write_bytes,
    validate=using_options(validate),  # a MESHBIN carries its own bone table: --bones is for ANIMBIN
    info=using_options(summary),
    to_json=using_options(to_json),
    from_json=from_json,
    json_path=json_path,
    read_generated=partial(read_bytes, fast=False),
)
