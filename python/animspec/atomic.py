"""Write a file so that it is either completely there or untouched.

The bytes go to a temporary file in the destination's folder, are flushed to disk and
checked (optionally by re-reading them), and only then renamed over the destination; any
failure removes the temporary file and leaves the destination as it was.
"""

from __future__ import annotations

import os
import tempfile
from typing import Callable


def write_atomic(path: str | os.PathLike[str], data: bytes, verify: Callable[[bytes], None] | None = None) -> None:
    """Write ``data`` to ``path`` atomically.

    ``verify`` is called with the bytes read back from the temporary file before the rename;
    it raises to abort (the destination is then not touched).
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        with open(tmp, "rb") as f:
            written = f.read()
        if written != data:
            raise OSError(f"{tmp}: read back {len(written)} bytes differing from the {len(data)} written")
        if verify is not None:
            verify(written)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
