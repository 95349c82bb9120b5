"""The .animclip declaration of the FileFormat contract (animspec.formats): this package's
functions as the operations every format has, and which options each one uses (joint names
label the joints the file knows only by hash)."""

from __future__ import annotations

from functools import partial

from ..formats import FileFormat, using_options
from .info import summary
from .jsonio import FORMAT as NAME, from_json, json_path, to_json
from .parse import looks_like_animclip, read_bytes
from .validate import validate
from .write import write_bytes

FORMAT = FileFormat(
    name=NAME,
    description="Insomniac .animclip/.performanceclip (DAT1)",
    detect=looks_like_animclip,
    read=read_bytes,
    write=write_bytes,
    validate=using_options(validate, "joint_names"),
    info=using_options(summary, "joint_names"),
    to_json=using_options(to_json, "joint_names"),
    from_json=from_json,
    json_path=json_path,
    read_generated=partial(read_bytes, fast=False),
)
