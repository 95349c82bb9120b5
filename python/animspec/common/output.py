"""The one output policy of every command that writes a file (dump, pack, plot, convert).

``OUT`` (the value of ``-o``) is handled by what it is when the command writes:

* ``-``: the bytes go to standard output (a command's report then goes to stderr); so do
  they for ``/dev/stdout`` (and ``/dev/stderr``, ``/dev/fd/N``: that descriptor), which are
  the descriptor the shell set up, never a file to replace.
* a character device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe): the bytes are
  written into it, as a shell redirection would; it is never replaced, so no ``--force``
  is needed. A FIFO nobody reads is an error, not a hang.
* a folder, a block device, a socket: refused, naming what to give instead.
* a regular file: refused unless ``--force``; with it, replaced atomically (temporary file
  in the same folder, read back and checked, renamed over it). Never a file the command reads
  (its input and every side file, such as ``--skeleton``: :class:`ReadFile`), compared as
  (device, inode) so no symbolic or hard link gets around it, even with ``--force``.
* nothing yet: created atomically, and only if it still does not exist at that moment, so
  concurrent writers without ``--force`` cannot overwrite each other: exactly one creates
  the file, the others are refused (:func:`animspec.common.atomic.write_atomic` ``replace=False``).
* a symbolic link: followed. The file it points at is what is created, replaced (with
  ``--force``) or written into; the link itself stays a link.

Every refusal and every failure is an :class:`OutputError` naming the user's path and the
option, never a temporary file, and saying what to do.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .atomic import write_atomic
from .errors import AnimspecError, WriteError

STDOUT = "-"
_DESCRIPTOR = re.compile(r"/dev/(?:fd|stdout|stderr)(?:/(\d+))?|/proc/self/fd/(\d+)")


def descriptor(path: str) -> int | None:
    """The open file descriptor ``path`` names (``-`` and /dev/stdout: 1), or None."""
    if path == STDOUT or path == "/dev/stdout":
        return 1
    if path == "/dev/stderr":
        return 2
    match = _DESCRIPTOR.fullmatch(path)
    number = match and (match[1] or match[2])
    return int(number) if number else None


@dataclass(frozen=True)
class ReadFile:
    """A file the command reads, and the option that names it (``--skeleton``); None for
    the command's own input. Every file a command reads is an input: never an output."""

    path: str
    option: str | None = None

    def describe(self) -> str:
        if self.option is None:
            return f"this is the input file {self.path}"
        return f"this file is read as {self.option} ({self.path})"


Inputs = Iterable[str | ReadFile]
"""What ``inputs`` takes: paths of the command's input, or :class:`ReadFile` for side files."""


def file_identity(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """(st_dev, st_ino) of the file ``path`` resolves to (links followed), None if there is
    none: the same file under any name, symbolic or hard link."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


class OutputError(WriteError):
    """``OUT`` cannot be written; the message names it, the option, and what to do."""

    def __init__(self, path: str, option: str, reason: str):
        self.path = path
        self.option = option
        super().__init__(f"{path} ({option})", reason)


def check_output(
    path: str,
    *,
    option: str = "-o",
    force: bool = False,
    inputs: Inputs = (),
    existing: bool = True,
) -> None:
    """Raise :class:`OutputError` now if :func:`write_output` would refuse ``path`` (commands
    call it before their slow work). ``existing=False`` skips the rule about an existing
    file (pack reports problems with its dump first)."""
    if descriptor(path) is not None:
        return
    target = _target(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        _check_folder(path, target, option)
        return
    except OSError as exc:
        raise OutputError(path, option, _reason(exc, path)) from None
    _check_existing(path, target, st, option, force if existing else True, inputs)


def write_output(
    path: str,
    data: bytes | bytearray,
    *,
    option: str = "-o",
    force: bool = False,
    inputs: Inputs = (),
    verify: Callable[[bytes], object] | None = None,
) -> str:
    """Write ``data`` to ``path`` under the module's policy; ``inputs`` are the files the
    command read (never replaced), ``verify`` checks the bytes read back from a regular file
    before they are published. Returns how it was written: "stdout", "into", "created" or
    "replaced"."""
    inputs = list(inputs)
    verify = _naming(verify, path, option)
    fd = descriptor(path)
    if fd is not None:
        try:
            _write_descriptor(fd, data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(path, option, _reason(exc, path)) from None
        return "stdout" if fd == 1 else "into"
    target = _target(path)
    try:
        try:
            st = os.stat(target)
        except FileNotFoundError:
            _check_folder(path, target, option)
            try:
                write_atomic(target, data, verify, replace=False)
            except FileExistsError:
                raise OutputError(
                    path, option,
                    "another process created this file while this one was writing it; it was "
                    "left as that process wrote it (pass --force to replace it)",
                ) from None
            return "created"
        _check_existing(path, target, st, option, force, inputs)
        if stat.S_ISREG(st.st_mode):
            write_atomic(target, data, verify, replace=True)
            return "replaced"
        _write_into(target, data, st)
        return "into"
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(path, option, _reason(exc, path)) from None


def _naming(verify: Callable[[bytes], object] | None, path: str, option: str) -> Callable[[bytes], object] | None:
    """``verify``, its refusal reworded to name ``path`` and say that nothing changed."""
    if verify is None:
        return None

    def check(written: bytes) -> None:
        try:
            verify(written)
        except OutputError:
            raise
        except AnimspecError as exc:
            reason = exc.reason if isinstance(exc, WriteError) else str(exc)
            raise OutputError(path, option, f"{reason}; nothing was written (an existing file is unchanged)") from None

    return check


def _target(path: str) -> str:
    """What is replaced or created: the file a symbolic link points at (the link stays), else
    ``path``. A link to a device or FIFO is opened as given (writing into follows it)."""
    if not os.path.islink(path):
        return path
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return os.path.realpath(path)  # dangling: the file it names is created
    return os.path.realpath(path) if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else path


def _check_folder(path: str, target: str, option: str) -> None:
    folder = os.path.dirname(os.path.abspath(target)) or "/"
    if not os.path.isdir(folder):
        raise OutputError(path, option, f"the folder {folder} does not exist; create it first or choose another path")


def _check_existing(path: str, target: str, st: os.stat_result, option: str, force: bool, inputs: Inputs) -> None:
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise OutputError(path, option, f"this is a folder; give {option} a file name (inside it, e.g. "
                                        f"{os.path.join(path, 'NAME')})")
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return  # written into, never replaced
    if not stat.S_ISREG(mode):
        kind = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
        raise OutputError(path, option, f"this is {kind}; animspec writes regular files, character devices, FIFOs and "
                                        "- (standard output)")
    here = (st.st_dev, st.st_ino)
    for source in inputs:
        read = source if isinstance(source, ReadFile) else ReadFile(os.fspath(source))
        if file_identity(read.path) == here:
            # Refused even with --force: replacing it would lose what the command reads.
            raise OutputError(path, option, f"{read.describe()}; choose another path")
    if not force:
        via = f" (a link to {target})" if target != path else ""
        raise OutputError(
            path, option,
            f"the file exists{via}; pass --force to replace it (it is replaced only once the new file is written and "
            "checked)",
        )


def _write_into(target: str, data: bytes | bytearray, st: os.stat_result) -> None:
    """Write into a character device or FIFO, as ``cat > target`` would."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
    if stat.S_ISFIFO(st.st_mode):
        # Non-blocking open: a FIFO with no reader fails with ENXIO instead of hanging.
        fd = os.open(target, flags | os.O_NONBLOCK)
        os.set_blocking(fd, True)
    else:
        fd = os.open(target, flags)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _write_descriptor(fd: int, data: bytes | bytearray) -> None:
    """Write to standard output or error through Python's stream (it may be replaced, as
    when tests capture it), any other descriptor directly."""
    stream = {1: sys.stdout, 2: sys.stderr}.get(fd)
    if stream is None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        return
    stream.flush()
    out = getattr(stream, "buffer", None)
    if out is None:  # a text-only stream
        stream.write(data.decode("utf-8", "surrogateescape"))
    else:
        out.write(data)
        out.flush()


def _reason(exc: OSError, path: str) -> str:
    """A sentence about ``exc`` that names no temporary file."""
    folder = os.path.dirname(os.path.abspath(path)) or "/"
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        return (f"no space left on the device holding {folder} (or quota exceeded); nothing was written there, "
                "an existing file is unchanged")
    if code in (errno.EACCES, errno.EPERM):
        return f"permission denied: cannot create or replace a file in {folder}; choose a folder you may write to"
    if code == errno.EROFS:
        return f"{folder} is on a read-only file system; choose another path"
    if code == errno.ENXIO:
        return "this FIFO has no reader; start the reading process first"
    if code == errno.ELOOP:
        return "too many levels of symbolic links"
    if code == errno.ENAMETOOLONG:
        return "the file name is too long"
    return exc.strerror or str(exc)
