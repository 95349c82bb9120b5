"""Write a file so that it is either completely there or untouched.

The bytes go to a temporary file in the destination's folder, are flushed to disk and
checked (read back and compared, then optionally verified by the caller), and only then
renamed over the destination, and the folder is synced; any failure removes the temporary
file and leaves the destination as it was. The new file gets the mode of the file it
replaces (or 0666 less the umask), not mkstemp's 0600.
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
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            # mkstemp makes the file 0600: give it the replaced file's mode, or the one a
            # plain open() would (0666 less the umask).
            os.fchmod(f.fileno(), mode)
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
        _fsync_folder(folder)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _read_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _read_umask()
"""Read once, at import: os.umask can only be read by setting it, which is not thread-safe."""


def _mode_for(path: str) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        return 0o666 & ~_UMASK


def _fsync_folder(folder: str) -> None:
    """Make the rename itself durable (POSIX); not possible everywhere, and not fatal."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
