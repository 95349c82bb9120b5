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

Temporary files are named ``.NAME.animspec-PID-TOKEN.tmp``: TOKEN is 8 random hex digits
followed by 8 derived from them (the marker: a file someone else named by hand almost never
has it), PID is for people only. The writer holds an exclusive ``flock`` on its temporary
file for the whole write; the file is created and locked under a name that cleanup never
considers (``.new``) and only then renamed to ``.tmp``, so a ``.tmp`` file nobody holds a
lock on is one whose writer is gone (killed, or the machine lost power), whatever PID
namespace or machine it ran in. The next write of NAME removes such files, but only ours:
a regular file (not a link) with the marker, owned by this user, on which the lock can be
taken. Anything else in the folder, whatever its name, is left alone and never stops a
write. SIGTERM and SIGHUP during a write remove the temporary file, then end the process as
the signal would have (the handlers are installed only for the write, and only in the main
thread). The published file never carries set-user-ID or set-group-ID bits, even when it
replaces a file that did: the bytes are new, and so is their owner.
This module knows nothing about which destinations are allowed: that is :mod:`.output`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import secrets
import signal
import stat
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

TEMP_TAG = "animspec-"
TEMP_SUFFIX = ".tmp"
_CREATING_SUFFIX = ".new"
"""The name a temporary file has between its creation and its lock: cleanup ignores it."""
_MAX_STEM = 100
"""Characters of NAME kept in a temporary file's name (NAME may be up to 255 already)."""
_MARKER_KEY = b"animspec temporary file"
_SET_ID_BITS = stat.S_ISUID | stat.S_ISGID
_CLEANUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

_NO_LOCKS = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EINVAL, errno.ENOSYS}
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}


def write_atomic(
    path: str | os.PathLike[str],
    data: bytes | bytearray,
    verify: Callable[[bytes], object] | None = None,
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
    # The handlers are in place before the temporary file exists: a SIGTERM at any moment
    # of the write (a batch stopped by Ctrl-C terminates its workers) leaves no file behind.
    with _removed_on_termination() as made:
        fd, tmp = _create_locked_temporary(path, folder, made)
        try:
            # The file is made 0600: give it the replaced file's mode (less set-id bits),
            # or the one a plain open() would (0666 less the umask).
            os.fchmod(fd, mode)
            _write_all(fd, data)
            os.fsync(fd)
            written = _read_all(tmp)
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
            _unlink_quietly(tmp)
            raise
        finally:
            os.close(fd)  # releases the lock, once the temporary file is gone


def _create_locked_temporary(path: str, folder: str, made: list[str]) -> tuple[int, str]:
    """Create a new temporary file for ``path``, locked, under its ``.tmp`` name. Each name
    it is about to give the file is added to ``made`` first (what a signal removes)."""
    prefix = os.path.join(folder, _temp_prefix(path))
    for _ in range(100):
        name = f"{prefix}{os.getpid()}-{_new_token()}"
        creating = name + _CREATING_SUFFIX
        made.append(creating)
        try:
            fd = os.open(creating, os.O_RDWR | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC, 0o600)
        except FileExistsError:
            made.remove(creating)  # (someone else's)
            continue
        made.append(name + TEMP_SUFFIX)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                # A file system without flock (some network ones): write unlocked. Cleanup
                # cannot take a lock there either, so it never removes this file.
                if exc.errno not in _NO_LOCKS:
                    raise
            os.rename(creating, name + TEMP_SUFFIX)
        except BaseException:
            _unlink_quietly(creating)
            os.close(fd)
            raise
        return fd, name + TEMP_SUFFIX
    raise FileExistsError(errno.EEXIST, "no free temporary file name", prefix)


_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _write_all(fd: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_all(tmp: str) -> bytes:
    with open(tmp, "rb") as f:
        return f.read()


def _unlink_quietly(name: str) -> None:
    try:
        os.unlink(name)
    except FileNotFoundError:
        pass


@contextlib.contextmanager
def _removed_on_termination() -> Iterator[list[str]]:
    """While the block runs, SIGTERM and SIGHUP remove the files named in the list it gives
    (names the block adds before it creates them) before they take effect.

    The previous handlers are restored afterwards. A signal the process ignores stays
    ignored; one it handles itself reaches that handler after the removal; otherwise the
    default action follows (the process ends with the signal's exit status).
    """
    made: list[str] = []
    if threading.current_thread() is not threading.main_thread():
        yield made  # only the main thread may set handlers; SIGKILL-like loss is cleaned later
        return
    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}  # what getsignal returns

    def on_signal(signum: int, frame: FrameType | None) -> None:
        for name in made:
            _unlink_quietly(name)
        old = previous.get(signum, signal.SIG_DFL)
        signal.signal(signum, old if old is not None else signal.SIG_DFL)
        if callable(old):
            old(signum, frame)
        else:
            os.kill(os.getpid(), signum)

    try:
        for signum in _CLEANUP_SIGNALS:
            old = signal.getsignal(signum)
            if old is signal.SIG_IGN:
                continue
            previous[signum] = old
            signal.signal(signum, on_signal)
        yield made
    finally:
        for signum, old in previous.items():
            signal.signal(signum, old if old is not None else signal.SIG_DFL)


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


def _marker(random_part: str) -> str:
    return hashlib.blake2b(random_part.encode("ascii"), digest_size=4, key=_MARKER_KEY).hexdigest()


def _new_token() -> str:
    random_part = secrets.token_hex(4)
    return random_part + _marker(random_part)


_TEMP_NAME = re.compile(r"[0-9]{1,10}-([0-9a-f]{8})([0-9a-f]{8})" + re.escape(TEMP_SUFFIX))


def is_our_temporary_name(path: str | os.PathLike[str], name: str) -> bool:
    """Whether ``name`` (a file name in ``path``'s folder) has the form and the marker of a
    temporary file this module makes for ``path``."""
    prefix = _temp_prefix(os.fspath(path))
    if not name.startswith(prefix):
        return False
    match = _TEMP_NAME.fullmatch(name[len(prefix):])
    return match is not None and _marker(match.group(1)) == match.group(2)


def remove_stale_temporaries(path: str | os.PathLike[str]) -> list[str]:
    """Remove this module's temporary files for ``path`` whose writer is gone; return their
    paths. Only a regular file of this user with the marker in its name, on which the
    writer's lock can be taken, is removed; nothing here raises."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not is_our_temporary_name(path, name):
            continue
        full = os.path.join(folder, name)
        try:
            if _remove_if_abandoned(full):
                removed.append(full)
        except (OSError, ValueError):
            pass  # not provably ours and abandoned: leave it
    return removed


def _remove_if_abandoned(full: str) -> bool:
    before = os.lstat(full)
    if not stat.S_ISREG(before.st_mode) or before.st_uid != os.geteuid():
        return False
    fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | _O_NOFOLLOW | _O_CLOEXEC)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # its writer is still at work (in any PID namespace)
        opened = os.fstat(fd)
        now = os.lstat(full)
        if (opened.st_dev, opened.st_ino) != (now.st_dev, now.st_ino):
            return False  # the name changed hands meanwhile
        os.unlink(full)
        return True
    finally:
        os.close(fd)


def _read_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _read_umask()
"""Read once, at import: os.umask can only be read by setting it, which is not thread-safe."""


def _mode_for(path: str) -> int:
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_UMASK
    # A set-id bit on new bytes would hand the replaced file's privileges to whatever the
    # writer wrote (a root-owned setuid file, when root replaces another user's one).
    return mode & ~_SET_ID_BITS


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
