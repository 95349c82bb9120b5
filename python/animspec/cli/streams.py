"""Standard output and error that end a command the way git and ripgrep do, never with a
traceback or a lost verdict.

* **Closed** (``animspec info x >&-``): the descriptor is taken by /dev/null at once, so no
  file the command opens can become "standard output", and any write to it raises one
  OSError (EBADF) that the command line prints as one line: exit status 2, not 0 with the
  output lost.
* **Broken pipe** (``animspec dump x | head``): the reader went away. Nothing is printed
  about it. A command whose product is what it prints (info, dump, play, compare, hash)
  stops there with the SIGPIPE convention, 128 + 13 = 141, as git does. A command whose
  product is a verdict or files (validate, convert, pack, plot, dump -o) goes on with its
  output discarded and exits with its own status: ``validate ... | head -2`` exits 1 when
  a file has errors, as ``validate ... > file`` does.

Standard error is guarded the same way, except that a reader of it going away never stops
a command (it carries diagnostics, not the product).
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any


class PipeState:
    """Whether standard output's reader went away during this command."""

    def __init__(self) -> None:
        self.broken = False


class ClosedStream:
    """Standard output when its descriptor was closed before the command started: every
    write is an error naming it."""

    def __init__(self, name: str):
        self.name = name

    def _fail(self) -> OSError:
        return OSError(errno.EBADF, f"cannot write to {self.name}: it is closed")

    def write(self, data: Any) -> int:
        if not data:
            return 0
        raise self._fail()

    @property
    def buffer(self) -> ClosedStream:
        return self

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise self._fail()


class GuardedStream:
    """A text stream (or its binary ``buffer``) whose broken pipe is handled as the module
    says: once broken, the descriptor is pointed at /dev/null and every write is dropped;
    ``stop`` re-raises the first BrokenPipeError so the command ends there."""

    def __init__(self, stream: Any, fd: int | None, state: PipeState, *, stop: bool):
        self._stream = stream
        self._fd = fd
        self._state = state
        self._stop = stop

    def _broken(self) -> None:
        if not self._state.broken:
            self._state.broken = True
            if self._fd is not None:
                # What is still buffered goes nowhere, also at the interpreter's final flush.
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, self._fd)
                os.close(null)

    def write(self, data: Any) -> int:
        if self._state.broken:
            return len(data)
        try:
            return self._stream.write(data)
        except BrokenPipeError:
            self._broken()
            if self._stop:
                raise
            return len(data)

    def flush(self) -> None:
        if self._state.broken:
            try:
                self._stream.flush()
            except OSError:
                pass
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._broken()
            if self._stop:
                raise

    @property
    def buffer(self) -> GuardedStream:
        return GuardedStream(self._stream.buffer, self._fd, self._state, stop=self._stop)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def guard(stop_on_broken_pipe: bool) -> PipeState:
    """Install the guards on sys.stdout and sys.stderr for one command; returns the state
    that tells, at the end, whether standard output's reader went away."""
    state = PipeState()
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None or (getattr(sys, name) is getattr(sys, f"__{name}__") and not _is_open(fd)):
            if not _is_open(fd):
                # Keep the number taken: a file opened later must not become fd 1 or 2.
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            setattr(sys, name, ClosedStream("standard output") if fd == 1 else open(os.devnull, "w"))
    if not isinstance(sys.stdout, (ClosedStream, GuardedStream)):
        stdout_fd = 1 if sys.stdout is sys.__stdout__ else None
        sys.stdout = GuardedStream(sys.stdout, stdout_fd, state, stop=stop_on_broken_pipe)
    if not isinstance(sys.stderr, GuardedStream) and sys.stderr is sys.__stderr__:
        sys.stderr = GuardedStream(sys.stderr, 2, PipeState(), stop=False)
    return state
