"""Write a regular file so that it is either completely there or untouched.

The bytes go to a temporary file in the destination's folder, are flushed to disk and
checked (read back and compared, then optionally verified by the caller), and only then
published under the destination's name, and the folder is synced; any failure removes the
temporary file and leaves the destination as it was. The new file gets the mode of the file
it replaces (or 0666 less the umask), not mkstemp's 0600.

Publishing is one atomic step in both cases, so two writers cannot both believe they won:
``replace=True`` renames over whatever is there (``os.replace``); ``replace=False`` creates
the name only if nothing has it yet, with ``os.link`` (which fails with EEXIST, unlike a
rename), or on a file system without hard links by reserving the name with
``O_CREAT | O_EXCL`` first. Checking for the file and renaming later would leave a window in
which another process creates it and then loses it.

Temporary files are named ``.NAME.animspec-PID-XXXXXXXX.tmp``. One left behind by a writer
that was killed (SIGKILL, power loss) is removed by the next write of NAME in that folder,
once no process with that PID runs on this machine; a live writer's file is never touched.
This module knows nothing about which destinations are allowed: that is :mod:`.output`.
"""

from __future__ import annotations

import errno
import os
import tempfile
from typing import Callable

TEMP_TAG = "animspec-"
TEMP_SUFFIX = ".tmp"
_MAX_STEM = 100
"""Characters of NAME kept in a temporary file's name (NAME may be up to 255 already)."""

_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes,
    verify: Callable[[bytes], None] | None = None,
    *,
    replace: bool = True,
) -> None:
    """Write ``data`` to the regular file ``path`` atomically.

    ``verify`` is called with the bytes read back from the temporary file before publishing;
    it raises to abort (the destination is then not touched). ``replace=False`` raises
    FileExistsError, leaving everything as it was, when ``path`` exists at the moment of
    publishing (even if it did not when the write began).
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale_temporaries(path)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path) + f"{os.getpid()}-", suffix=TEMP_SUFFIX, dir=folder)
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
            raise OSError(errno.EIO, f"read back {len(written)} bytes differing from the {len(data)} written")
        if verify is not None:
            verify(written)
        if replace:
            os.replace(tmp, path)
        else:
            _create(tmp, path)
        _fsync_folder(folder)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _create(tmp: str, path: str) -> None:
    """Give ``tmp`` the name ``path`` only if nothing has that name (FileExistsError if so)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in _NO_HARD_LINKS:
            raise
        # No hard links here (FAT, some network file systems): reserve the name, then
        # rename over the reservation. Another writer without --force then finds the name
        # taken; a reader may briefly see an empty file.
        reserved = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(reserved)
        try:
            os.replace(tmp, path)
        except BaseException:
            os.unlink(path)
            raise
        return
    os.unlink(tmp)


def _temp_prefix(path: str) -> str:
    return f".{os.path.basename(path)[:_MAX_STEM]}.{TEMP_TAG}"


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[str]:
    """Remove this module's temporary files for ``path`` whose writer no longer runs; return
    their paths. A file whose PID is alive (or unreadable) is kept."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    prefix = _temp_prefix(path)
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        pid_text = name[len(prefix):].split("-", 1)[0]
        if not pid_text.isdigit() or _running(int(pid_text)):
            continue
        try:
            os.unlink(os.path.join(folder, name))
            removed.append(os.path.join(folder, name))
        except OSError:
            pass
    return removed


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


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
