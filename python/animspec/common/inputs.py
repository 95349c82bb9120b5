"""Reading the files a command is given: only regular files, and only up to a size limit.

Every reader (the format readers' ``read_file``, ``formats.load``, pack's JSON dump, the
side files of --joint-names, --names-file, --joints, --markers, and the first bytes batch
commands look at in a folder) goes through here, so that:

* a FIFO, a device (``/dev/zero``), a socket or a folder is refused before a byte is read,
  and opening one never blocks (``O_NONBLOCK``: a FIFO without a writer would otherwise
  hang the open forever);
* a file larger than :data:`MAX_INPUT_BYTES` is refused from its size, before it is read,
  and a file that grows past it while being read is refused once it does;
* a missing or unreadable file is the same :class:`InputError` (a :class:`ParseError` with
  no offset), so the promise that readers raise nothing but ParseError holds.
"""

from __future__ import annotations

import os
import stat

from .errors import ParseError

MAX_INPUT_BYTES = 1 << 30
"""1 GiB: the largest input read. An .animclip's decompressed DAT1 is capped at the same
(``animclip.compression.MAX_DAT1_SIZE``; the largest real clip is about 17 MB), an ANIMBIN or
MESHBIN is loaded whole into a PlayStation's 2 MB of RAM, and a JSON dump of a file under
the limit is far smaller. Reading stays within the memory multiples of docs/hardening.md, so
the limit also bounds memory."""


class InputError(ParseError):
    """A file cannot be read at all: missing, not a regular file, too large, unreadable."""

    def __init__(self, path: str, reason: str):
        super().__init__(path, None, "", reason)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def is_regular(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is (or links to) a regular file; never opens it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def not_regular_reason(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` is not read (a FIFO, a device...), or None for a regular or missing file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else f"{_kind(mode)}, not a regular file: not read"


def _open(path: str, extra_flags: int = 0) -> tuple[int, os.stat_result]:
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer. It does not change how a
        # regular file reads.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | extra_flags)
    except OSError as exc:
        raise InputError(path, f"cannot open: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise InputError(path, f"{_kind(st.st_mode)}, not a regular file: animspec reads only regular files")
    return fd, st


def read_input(path: str | os.PathLike[str], *, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The whole regular file at ``path``, at most ``limit`` bytes; :class:`InputError` otherwise."""
    path = os.fspath(path)
    fd, st = _open(path)
    try:
        if st.st_size > limit:
            raise InputError(path, f"{st.st_size} bytes is more than the {limit} bytes (1 GiB) animspec reads")
        # One read of the size fstat gave (one allocation, no join in the usual case), then
        # small reads until the end, in case the file grew or a read came back short.
        first = os.read(fd, st.st_size) if st.st_size else b""
        chunks = [first]
        total = len(first)
        probe = 1 << 12  # os.read allocates what it asks for: the end-of-file check asks little
        while True:
            chunk = os.read(fd, probe)
            probe = 1 << 20
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise InputError(path, f"grew past the {limit} bytes animspec reads while being read")
            chunks.append(chunk)
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return first if len(chunks) == 1 else b"".join(chunks)


def read_head(path: str | os.PathLike[str], size: int) -> bytes | None:
    """The first ``size`` bytes of the regular file at ``path``; None when it is not a
    regular file or cannot be read (the caller decides what that means)."""
    try:
        return read_head_or_fail(path, size)
    except InputError:
        return None


def read_head_or_fail(path: str | os.PathLike[str], size: int) -> bytes:
    """The first ``size`` bytes of the regular file at ``path``; :class:`InputError` otherwise."""
    path = os.fspath(path)
    fd, _ = _open(path)
    try:
        return os.read(fd, size)
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], *, what: str = "text file", limit: int = MAX_INPUT_BYTES) -> str:
    """A UTF-8 side file (names, markers) as text; a byte that is not UTF-8 is an
    :class:`InputError` naming its line and byte offset."""
    path = os.fspath(path)
    data = read_input(path, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ParseError(
            path, exc.start, f"line {line}",
            f"this {what} is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
        ) from None


def _inside(folder: str, path: str) -> bool:
    """True when the resolved ``path`` is ``folder`` or below it (both already resolved)."""
    try:
        return os.path.commonpath([folder, path]) == folder
    except ValueError:  # different drives, or one relative and one absolute
        return False


def read_within(
    folder: str | os.PathLike[str], relative: str, *, size: int | None = None, limit: int = MAX_INPUT_BYTES
) -> bytes:
    """The regular file ``relative`` to ``folder``, which must resolve (symbolic links
    followed) to a file INSIDE ``folder``: a file a document names (a glTF buffer or image)
    is never read from anywhere else. ``size``: exactly that many first bytes (the file must
    have them); else the whole file. At most ``limit`` bytes either way. Opened like every
    input (``O_NONBLOCK``, the opened descriptor checked to be a regular file), and, where
    the system says which file a descriptor is (``/proc/self/fd``), checked again after the
    open, so a path swapped for a link to elsewhere between the check and the open is
    refused too. :class:`InputError` naming ``relative`` otherwise."""
    root = os.path.realpath(os.fspath(folder))
    if os.path.isabs(relative) or "\0" in relative:
        raise InputError(relative, "not a relative path inside the document's folder: not read")
    try:
        target = os.path.realpath(os.path.join(root, relative))
    except (ValueError, UnicodeError) as exc:  # a name this system cannot encode
        raise InputError(repr(relative), f"not a file name: {exc}") from None
    if target == root or not _inside(root, target):
        raise InputError(relative, f"resolves outside the document's folder {root}: not read")
    if size is not None and size > limit:
        raise InputError(relative, f"{size} bytes is more than the {limit} bytes animspec reads")
    fd, st = _open(target, getattr(os, "O_NOFOLLOW", 0))
    try:
        opened = f"/proc/self/fd/{fd}"
        if os.path.islink(opened) and not _inside(root, os.path.realpath(opened)):
            raise InputError(relative, f"resolves outside the document's folder {root}: not read")
        if st.st_size > limit and size is None:
            raise InputError(relative, f"{st.st_size} bytes is more than the {limit} bytes animspec reads")
        want = st.st_size if size is None else size
        if st.st_size < want:
            raise InputError(relative, f"{want} bytes wanted, the file has {st.st_size}")
        chunks, total = [], 0
        while total < want:
            chunk = os.read(fd, min(want - total, 1 << 24))
            if not chunk:
                raise InputError(relative, f"{want} bytes wanted, the file ended after {total}")
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise InputError(relative, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
