"""One task over many files, on every core: what ``animspec validate|info|convert`` do with
folders and globs, as library functions.

    from animspec.batch import ValidateTask, Summary, collect, run_batch
    from animspec.formats import FormatOptions

    selection = collect(["assets/", "more/**/*.animbin"])
    summary = Summary(skipped=len(selection.skipped))
    for result in run_batch(selection.sources, ValidateTask(FormatOptions(bone_count=15)), jobs=4):
        summary.add(result)
        print(result.file, [f.code for f in result.findings], result.error)
    print(summary.lines(), summary.status)

Which files (:func:`collect`)
    A file named explicitly is always processed, whatever it holds: a missing file or one
    no format recognises is reported as unreadable (exit status 2). A folder is walked
    recursively in sorted order (entries whose name starts with "." are skipped, symlinked
    folders are not followed), and a file in it is taken only when its first bytes carry a
    magic some format recognises (``accept``); the others are skipped silently and counted.
    Only regular files are read: a FIFO, device or socket found in a folder is skipped
    without being opened, and listed (``Selection.not_regular``) so the CLI reports it; one
    named explicitly fails with that reason. A glob (``*``, ``?``, ``[...]``; ``**`` spans
    folders, entering each folder once however many links lead to it, so a link loop ends;
    for patterns the shell did not expand) selects like a folder: matching files
    are picked by content, matching folders walked. A folder or glob that selects no file
    at all is one failure (``Selection.empty``, with the reason), the same for both, as a
    missing file is: a typo in a path never passes as "nothing to check". A folder below
    that cannot be listed (permissions) is a failure too (``Selection.unreadable``), never
    passed over in silence. Walks use an explicit stack: any depth works.
    Each file is taken once (first mention wins), in argument order.

How (:func:`run_batch`)
    ``jobs`` worker processes (default ``os.cpu_count()``) through a ProcessPoolExecutor,
    files sent in chunks; results come back in the selection's order whatever finishes
    first. A file that fails (unreadable, or an unexpected exception in the task) gives a
    :class:`Result` with ``error`` set; a worker that dies (killed, out of memory) is
    replaced and its files retried one by one, so only the file that kills it fails. One
    bad file never stops the batch. ``jobs=1`` (or a single file) runs in this process.
    Ctrl-C stops the workers at once, leaving no process and no temporary file (:func:`run_batch`).
"""

from __future__ import annotations

import contextlib
import fnmatch
import glob
import math
import os
import re
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from .common.errors import AnimspecError, ParseError
from .common.findings import Finding, Severity, has_errors
from .common.inputs import not_regular_reason, read_head
from .common.status import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE
from .formats import HEAD_SIZE, NO_OPTIONS, FormatOptions, load, sniff

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

_GLOB_CHARS = frozenset("*?[")


# ---------------------------------------------------------------------------- selection


def is_known(head: bytes, path: str | None = None) -> bool:
    """True when ``head`` (a file's first bytes) starts with a magic some file format
    (animspec.formats.FORMATS) recognises; ``path`` is not looked at."""
    return sniff(head) is not None


@dataclass(frozen=True)
class Source:
    """One input file. ``file`` is the name shown to the user (the argument as typed, or the
    folder argument joined with the path below it); ``base`` the folder or glob base it was
    found under, None when it was named explicitly."""

    file: str
    base: str | None = None

    @property
    def explicit(self) -> bool:
        return self.base is None

    @property
    def relative(self) -> Path:
        """The path below ``base`` (the bare file name for a file named explicitly)."""
        if self.base is None:
            return Path(Path(self.file).name)
        return Path(os.path.relpath(self.file, self.base))


@dataclass
class Selection:
    sources: list[Source]
    skipped: list[str] = field(default_factory=list)
    """Files under a folder or glob that no format recognises (not processed)."""
    not_regular: list[tuple[str, str]] = field(default_factory=list)
    """(path, why) of FIFOs, devices and sockets under a folder or glob: skipped, never opened."""
    empty: list[tuple[str, str]] = field(default_factory=list)
    """(argument, why) of each folder or glob that selected no file: each counts as a failure."""
    many: bool = False
    """More than one file, or a folder or glob was given: a batch run (summary printed)."""
    passed_over: list[tuple[str, str]] = field(default_factory=list)
    """(path, why) of files of a known format under a folder or glob that the command does
    not take (convert: a side file such as --skeleton's rig, a glTF without animations)."""
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    """(folder, why) of each folder under a folder or glob that could not be listed: what it
    holds is unknown, so each counts as a failure (never passed over silently)."""

    @property
    def paths(self) -> list[Path]:
        return [Path(s.file) for s in self.sources]


Identity = tuple[int, int]
"""(st_dev, st_ino): one file or folder, whatever the path that reaches it."""


def _identity(path: str) -> Identity | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def collect(
    args: Iterable[str | os.PathLike[str]],
    accept: Callable[[bytes, str], bool] = is_known,
    *,
    exclude: Iterable[str | os.PathLike[str]] = (),
    pass_over: Mapping[Identity, str] | None = None,
) -> Selection:
    """The files ``args`` (files, folders, globs) name, per the module's rules; ``accept``
    judges a file found under a folder or glob by its first :data:`HEAD_SIZE` bytes (it is
    given the path too, for its messages: formats are told by their bytes).
    Folders in ``exclude`` (e.g. an output folder inside an input folder) are not walked.
    A file found under a folder or glob whose (st_dev, st_ino) is a key of ``pass_over`` is
    not taken: it goes to ``passed_over`` with that reason (convert: its side files)."""
    excluded = {os.path.realpath(p) for p in exclude}
    seen: set[str] = set()
    sources: list[Source] = []
    skipped: list[str] = []
    not_regular: list[tuple[str, str]] = []
    empty: list[tuple[str, str]] = []
    passed_over: list[tuple[str, str]] = []
    unreadable: list[tuple[str, str]] = []
    accepted: list[str] = []  # counts a file taken twice (by two arguments) for each
    many = False

    def add(source: Source, real: str) -> None:
        if real not in seen:
            seen.add(real)
            sources.append(source)

    def found(entry: _Found, base: str) -> None:
        special = None if entry.regular else not_regular_reason(entry.path)
        if special is not None:
            not_regular.append((entry.path, special))
        elif _accepts(entry.path, accept):
            why = pass_over.get(_identity(entry.path)) if pass_over else None  # type: ignore[arg-type]
            if why is not None:
                passed_over.append((entry.path, why))
                return
            accepted.append(entry.path)
            add(Source(entry.path, base), entry.real)
        else:
            skipped.append(entry.path)

    for arg in args:
        arg = os.fspath(arg)
        before = (len(accepted), len(skipped), len(not_regular), len(passed_over), len(unreadable))
        walked: set[Identity] = set()  # folders already listed for this argument
        if os.path.isdir(arg):
            many = True
            for entry in _walk(arg, excluded, unreadable, walked):
                found(entry, arg)
            if len(accepted) == before[0] and len(unreadable) == before[4]:
                nothing = _nothing(
                    f"{arg}: no file animspec reads is in this folder", skipped, not_regular, passed_over, before
                )
                empty.append((arg, nothing))
        elif not os.path.lexists(arg) and _GLOB_CHARS & set(arg):
            many = True
            matches = _glob(arg, unreadable)
            base = _glob_base(arg)
            for match in matches:
                if os.path.isdir(match):
                    for entry in _walk(match, excluded, unreadable, walked):
                        found(entry, base)
                elif not _hidden(os.path.relpath(match, base)):
                    found(_Found.named(match), base)
            if len(accepted) == before[0] and len(unreadable) == before[4]:
                what = "no file animspec reads matches this glob" if matches else "this glob matches no path"
                empty.append((arg, _nothing(f"{arg}: {what}", skipped, not_regular, passed_over, before)))
        else:
            add(Source(arg), os.path.realpath(arg))
    return Selection(
        sources,
        skipped,
        not_regular=not_regular,
        empty=empty,
        many=many or len(sources) > 1,
        passed_over=passed_over,
        unreadable=unreadable,
    )


def _nothing(what: str, skipped: list[str], not_regular: list, passed_over: list, before: tuple[int, ...]) -> str:
    """``what``, with what the folder or glob did find (all of it skipped)."""
    others = len(skipped) - before[1]
    special = len(not_regular) - before[2]
    passed = len(passed_over) - before[3]
    reasons = [f"{others} file(s) of no known format skipped"] if others else []
    if special:
        reasons.append(f"{special} non-regular file(s) skipped")
    if passed:
        reasons.append(
            f"{passed} file(s) passed over: " + "; ".join(f"{path}: {why}" for path, why in passed_over[before[3] :])
        )
    detail = f" ({', '.join(reasons)})" if reasons else ""
    return what + detail


def iter_paths(args: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The files ``args`` name (see :func:`collect`), as paths."""
    return collect(args).paths


def _accepts(path: str, accept: Callable[[bytes, str], bool]) -> bool:
    head = read_head(path, HEAD_SIZE)
    if head is None:
        return True  # unreadable: process it, so the failure is reported rather than hidden
    return accept(head, path)


def _hidden(relative: str) -> bool:
    return any(part.startswith(".") and part not in (".", "..") for part in Path(relative).parts)


@dataclass(frozen=True)
class _Found:
    """A file met in a folder walk, with what the directory listing already told."""

    path: str
    real: str
    """Its real path (symlinks resolved): the key that takes a file only once."""
    regular: bool
    """Known from the listing to be a regular file (no symlink): no stat needed."""

    @classmethod
    def named(cls, path: str) -> _Found:
        """A file met by name (a glob's match), nothing known of it yet."""
        return cls(path, os.path.realpath(path), regular=False)


def _walk(
    folder: str,
    excluded: set[str],
    unreadable: list[tuple[str, str]] | None = None,
    walked: set[Identity] | None = None,
) -> Iterator[_Found]:
    """The files under ``folder`` in os.walk's order (a folder's files by name, then its
    sub-folders by name; hidden names and ``excluded`` folders left out; symlinked folders
    listed, not entered). A folder that cannot be listed goes to ``unreadable`` with the
    reason; one in ``walked`` (by identity: a glob may name a folder and its sub-folders) is
    not listed again. An explicit stack, not recursion: a tree 10,000 folders deep is walked
    like a flat one. One ``scandir`` per folder gives each name's type, so a regular file
    costs no stat and its real path is the folder's real path joined with its name: on 10,000
    files that halves the selection's time, which is spent in the main process before any
    worker starts, so it bounds what ``-j 2`` gains over ``-j 1``."""
    unreadable = [] if unreadable is None else unreadable
    walked = set() if walked is None else walked
    # (path, its real path): a sub-folder that is no link has its parent's real path and
    # its own name, so a walk 1,000 deep costs no realpath per level.
    stack = [(folder, os.path.realpath(folder))]
    while stack:
        current, real_folder = stack.pop()
        ident = _identity(current)
        if ident is not None:
            if ident in walked:
                continue
            walked.add(ident)
        try:
            with os.scandir(current) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            unreadable.append((current, f"cannot list this folder: {exc.strerror or exc}"))
            continue
        subfolders = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.name.startswith("."):
                    subfolders.append(entry)
                continue
            if entry.name.startswith("."):
                continue
            link = entry.is_symlink()
            real = os.path.realpath(entry.path) if link else os.path.join(real_folder, entry.name)
            yield _Found(entry.path, real, not link and entry.is_file(follow_symlinks=False))
        for sub in reversed(subfolders):  # popped in name order
            real_sub = os.path.join(real_folder, sub.name)
            if sub.is_symlink() or real_sub in excluded:
                continue
            stack.append((sub.path, real_sub))


def _glob(pattern: str, unreadable: list[tuple[str, str]]) -> list[str]:
    """The paths ``pattern`` matches, sorted, as glob.glob(recursive=True) gives them, except
    that ``**`` enters each folder once (by identity): a symbolic link back up the tree (a
    loop) is not followed round and round. Folders ``**`` cannot list go to ``unreadable``."""
    if "**" not in pattern:
        return sorted(glob.glob(pattern))  # no recursion: finite whatever the links
    parts = list(Path(pattern).parts)
    fixed: list[str] = []
    while parts and not (_GLOB_CHARS & set(parts[0])):
        fixed.append(parts.pop(0))
    paths = [os.path.join(*fixed)] if fixed else [""]
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        nxt: list[str] = []
        for path in paths:
            if part == "**":
                nxt += _below(path, unreadable, files=last)
            elif _GLOB_CHARS & set(part):
                try:
                    names = os.listdir(path or ".")
                except OSError:
                    continue
                for name in fnmatch.filter(names, part):
                    if name.startswith(".") and not part.startswith("."):
                        continue
                    full = os.path.join(path, name)
                    if last or os.path.isdir(full):
                        nxt.append(full)
            else:
                full = os.path.join(path, part)
                if os.path.lexists(full) if last else os.path.isdir(full):
                    nxt.append(full)
        paths = nxt
    return sorted(dict.fromkeys(p for p in paths if p))


def _below(folder: str, unreadable: list[tuple[str, str]], *, files: bool) -> list[str]:
    """``folder`` and every folder below it (links to folders followed, each folder entered
    once by identity, hidden names left out), and with ``files`` every file too: what ``**``
    matches."""
    found = [folder]
    seen: set[Identity] = set()
    start = _identity(folder or ".")
    if start is None:
        return []
    seen.add(start)
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current or ".") as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            unreadable.append((current or ".", f"cannot list this folder: {exc.strerror or exc}"))
            continue
        subfolders = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = os.path.join(current, entry.name)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if not is_dir:
                if files:
                    found.append(path)
                continue
            ident = _identity(path)
            if ident is None or ident in seen:
                continue  # a loop, or a folder already reached by another link
            seen.add(ident)
            found.append(path)
            subfolders.append(path)
        stack.extend(reversed(subfolders))
    return found


def _glob_base(pattern: str) -> str:
    """The folder part of ``pattern`` before its first wildcard ("." if none)."""
    parts = Path(pattern).parts
    fixed = []
    for part in parts[:-1]:
        if _GLOB_CHARS & set(part):
            break
        fixed.append(part)
    return os.path.join(*fixed) if fixed else "."


# ---------------------------------------------------------------------------- results


@dataclass
class Result:
    """What a task made of one file."""

    file: str
    format: str | None = None
    findings: list[Finding] = field(default_factory=list)
    error: dict[str, Any] | None = None
    """Set when the file could not be handled: ``message`` (a sentence naming the file),
    plus ``offset`` and ``field`` for a parse error."""
    text: str = ""
    """Text-mode output of the task (info: the summary; convert: its report)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Task-specific JSON members (convert: ``outputs``)."""
    status: int = EXIT_OK
    """0, 1 (error findings) or 2 (unreadable or failed)."""

    @property
    def failed(self) -> bool:
        return self.error is not None

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"file": self.file}
        if self.format is not None:
            doc["format"] = self.format
        doc["findings"] = [f.to_json() for f in self.findings]
        doc.update(self.extra)
        if self.error is not None:
            doc["error"] = dict(self.error)
        return doc


def failure(file: str, exc: BaseException) -> Result:
    """The :class:`Result` of a file whose task raised ``exc``."""
    if isinstance(exc, ParseError):
        error: dict[str, Any] = {"message": str(exc), "offset": exc.offset, "field": exc.field}
    elif isinstance(exc, OSError) and exc.strerror:
        error = {"message": f"{exc.filename or file}: {exc.strerror}"}
    elif isinstance(exc, AnimspecError):
        message = str(exc)
        error = {"message": message if file in message else f"{file}: {message}"}
    else:  # a bug in a validator or converter: reported, and the batch goes on
        error = {"message": f"{file}: internal error: {type(exc).__name__}: {exc}", "internal": True}
    return Result(file, error=error, status=EXIT_UNREADABLE)


@dataclass(frozen=True)
class ValidateTask:
    """``animspec validate`` on one file."""

    options: FormatOptions = NO_OPTIONS

    def __call__(self, source: Source) -> Result:
        fmt, model = load(source.file)
        findings = fmt.validate(model, self.options)
        return Result(source.file, fmt.name, findings, status=EXIT_FINDINGS if has_errors(findings) else EXIT_OK)


@dataclass(frozen=True)
class InfoTask:
    """``animspec info`` on one file: ``text`` is the summary."""

    options: FormatOptions = NO_OPTIONS

    def __call__(self, source: Source) -> Result:
        try:
            fmt, model = load(source.file)
        except ParseError as exc:
            if exc.field != "magic" or not _is_gltf(source.file):
                raise
            from .gltf.info import summarise  # glTF is not a FileFormat: its own summary

            text = summarise(source.file).text()
            return Result(source.file, "gltf", text=text, extra={"summary": text})
        text = fmt.info(model, self.options)
        return Result(source.file, fmt.name, text=text, extra={"summary": text})


def is_known_or_gltf(head: bytes, path: str | None = None) -> bool:
    """What ``animspec info`` picks in a folder: a file format's magic, or glTF."""
    return sniff(head) is not None or sniff(head, ("gltf",)) is not None


def _is_gltf(path: str) -> bool:
    head = read_head(path, HEAD_SIZE)
    return head is not None and sniff(head, ("gltf",)) is not None


# ---------------------------------------------------------------------------- running


class Item(Protocol):
    @property
    def file(self) -> str: ...


def run_one(task: Callable[[Any], Result], item: Item) -> Result:
    """``task(item)``, with any exception turned into a failed :class:`Result`."""
    try:
        return task(item)
    except Exception as exc:  # noqa: BLE001 - one bad file never stops the batch
        return failure(item.file, exc)


_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that end a process; during a parallel run they end its workers first."""


def _worker_signals() -> None:
    """A worker's signals (the pool's initializer): Ctrl-C is left to the main process,
    which stops the workers (:class:`_Pool`); SIGTERM and SIGHUP end it as any process (not
    the main process's handlers, which a forked worker starts with)."""
    arrived: set[int] = set()
    _reset(signal.SIGINT, signal.SIG_IGN, arrived)
    for signum in _STOP_SIGNALS:
        _reset(signum, signal.SIG_DFL, arrived)
    for signum in arrived & set(_STOP_SIGNALS):
        os.kill(os.getpid(), signum)  # a stop signal came while the handlers changed: end as it asks


def _reset(signum: int, handler: Any, arrived: set[int]) -> None:
    """``signal.signal(signum, handler)``. A signal the main process's handler (inherited by
    the fork) caught but Python had not yet run makes that call raise ("Signal 15 ignored due
    to race condition": the main process sent SIGTERM while this worker was starting); its
    number goes to ``arrived``, and the call is made again (the signal is no longer pending)."""
    try:
        signal.signal(signum, handler)
    except OSError as exc:
        arrived.update(int(n) for n in re.findall(r"Signal (\d+)", str(exc)))
        signal.signal(signum, handler)


def _run_chunk(task: Callable[[Any], Result], chunk: Sequence[Item]) -> list[Result]:
    return [run_one(task, item) for item in chunk]


def default_jobs() -> int:
    return os.cpu_count() or 1


def run_batch(
    items: Iterable[Item | str | os.PathLike[str]],
    task: Callable[[Any], Result],
    jobs: int | None = None,
    *,
    chunksize: int | None = None,
    on_done: Callable[[int], None] | None = None,
) -> Generator[Result, None, None]:
    """``task`` over every item (a :class:`Source`, anything with a ``file`` attribute, or a
    path), yielding one :class:`Result` per item in the items' order. ``task`` must be
    picklable (a module-level function or an instance of a module-level class) when
    ``jobs`` > 1. ``on_done(n)`` is called in this process as each n results arrive.

    Ctrl-C (SIGINT, to this process or its whole process group) during a run on worker
    processes stops them at once: the workers ignore SIGINT; this process cancels what is
    queued, ends the running workers with SIGTERM (a write under way removes its temporary
    file: animspec.common.atomic), SIGKILL for one still there after :data:`STOP_GRACE`
    seconds, reaps them, and raises KeyboardInterrupt. A run left unfinished (the consumer
    stops iterating, or fails) stops its workers the same way. SIGTERM or SIGHUP to this
    process alone ends the workers the same way, then this process as the signal would."""
    work: list[Item] = [i if hasattr(i, "file") else Source(os.fspath(i)) for i in items]  # type: ignore[misc]
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    done = on_done or (lambda n: None)
    if jobs == 1 or len(work) <= 1:
        for item in work:
            result = run_one(task, item)
            done(1)
            yield result
        return
    size = chunksize or max(1, min(64, math.ceil(len(work) / (jobs * 8))))
    chunks = [work[i : i + size] for i in range(0, len(work), size)]
    yield from _Pool(task, min(jobs, len(chunks)), done).run(chunks)


STOP_GRACE = 1.0
"""Seconds a worker stopped by Ctrl-C has to end after SIGTERM before it gets SIGKILL (and
this process to see it gone after that)."""


class _Pool:
    """A ProcessPoolExecutor fed a bounded window of chunks, drained in order, that survives
    a worker dying, and whose workers Ctrl-C stops (see :func:`run_batch`).

    While it runs (in the main thread, Python's own SIGINT handler in place), SIGINT is
    handled here: the handler ends the workers at once (no chunk already queued to them is
    started, no file is written after it) and raises KeyboardInterrupt where that is safe:
    in the consumer's code between two results; inside the pool's own waits it only sets a
    flag, and the pool raises after the wait (an exception raised inside the executor's
    locks and queues could leave them held and hang the exit)."""

    def __init__(self, task: Callable[[Any], Result], workers: int, done: Callable[[int], None]):
        # Imported here, not at the top: multiprocessing and concurrent.futures.process cost
        # a single-file command (which runs in this process) a fifth of its start-up.
        from concurrent.futures.process import BrokenProcessPool

        self.broken = BrokenProcessPool
        self.task, self.workers, self.done = task, workers, done
        self.window = workers * 4
        self.executor: ProcessPoolExecutor | None = None
        self.owner = os.getpid()
        self.interrupted = False
        self.raised = False
        self.inside = True
        """The pool's own code is running (not the consumer's, between two results)."""

    def _start(self) -> ProcessPoolExecutor:
        from concurrent.futures import ProcessPoolExecutor

        self._check()  # (no new workers once interrupted)
        return ProcessPoolExecutor(self.workers, initializer=_worker_signals)

    def _restart(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)  # type: ignore[union-attr]
        self.executor = self._start()

    def _submit(self, chunk: list[Item]) -> Any:
        """The future of ``chunk``; one holding BrokenProcessPool if the pool broke meanwhile
        (a worker died, or Ctrl-C ended them), handled where its result is taken."""
        try:
            return self.executor.submit(_run_chunk, self.task, chunk)  # type: ignore[union-attr]
        except self.broken as exc:
            from concurrent.futures import Future

            future: Future = Future()
            future.set_exception(exc)
            return future

    def _check(self) -> None:
        if self.interrupted:
            self.raised = True
            raise KeyboardInterrupt

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if os.getpid() != self.owner:
            return  # a worker forked before its initializer ran: it ignores Ctrl-C too
        self.interrupted = True
        _signal_all(_workers(self.executor), signal.SIGTERM)
        if not self.inside and not self.raised:
            self._check()

    def _on_termination(self, signum: int, frame: Any) -> None:
        """SIGTERM or SIGHUP to this process alone: its workers would be left running (they
        wait for work that never comes); they are ended first, then this process as the
        signal would have."""
        if os.getpid() == self.owner:
            _end(_workers(self.executor))
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    @contextlib.contextmanager
    def _signals_stop_workers(self) -> Iterator[None]:
        """SIGINT (if Python's own handler is in place) and SIGTERM and SIGHUP (if they have
        their default action) handled as above while the block runs, in the main thread."""
        installed = {}
        if threading.current_thread() is threading.main_thread():
            wanted = {signal.SIGINT: (signal.default_int_handler, self._on_sigint)}
            wanted.update({signum: (signal.SIG_DFL, self._on_termination) for signum in _STOP_SIGNALS})
            for signum, (expected, handler) in wanted.items():
                if signal.getsignal(signum) == expected:
                    signal.signal(signum, handler)
                    installed[signum] = (expected, handler)
        try:
            yield
        finally:
            # (unless replaced since, or closed from another thread, which cannot set it)
            if threading.current_thread() is threading.main_thread():
                for signum, (expected, handler) in installed.items():
                    if signal.getsignal(signum) == handler:
                        signal.signal(signum, expected)

    def run(self, chunks: list[list[Item]]) -> Iterator[Result]:
        todo = iter(chunks)
        pending: deque = deque()
        finished = False
        with self._signals_stop_workers():
            try:
                self.executor = self._start()
                while True:
                    while len(pending) < self.window:
                        chunk = next(todo, None)
                        if chunk is None:
                            break
                        pending.append((chunk, self._submit(chunk)))
                    if not pending:
                        break
                    self._check()  # (workers forked after a Ctrl-C are not waited for)
                    chunk, future = pending.popleft()
                    try:
                        results = future.result()
                    except self.broken:
                        self._check()  # (the workers Ctrl-C ended)
                        self._restart()
                        pending = deque((c, self._submit(c)) for c, _ in pending)
                        results = self._one_by_one(chunk)
                    self._check()
                    self.done(len(results))
                    for result in results:
                        self.inside = False
                        yield result
                        self.inside = True
                        self._check()
                finished = True
            finally:
                self.inside = True
                if finished:
                    self.executor.shutdown(wait=True)  # type: ignore[union-attr]
                else:
                    self._stop()
            self._check()  # (Ctrl-C as the last results came: still an interruption)

    def _stop(self) -> None:
        """End the run now: nothing queued starts, the workers are ended (SIGTERM, then
        SIGKILL after STOP_GRACE seconds) and reaped, the executor's thread joined."""
        executor, self.executor = self.executor, None
        if executor is None:
            return
        processes = _workers(executor)
        manager = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        _end(processes)
        if manager is not None:
            manager.join(STOP_GRACE)  # (it reaps the workers once they are gone)

    def _one_by_one(self, chunk: list[Item]) -> list[Result]:
        """A chunk whose worker died: each file alone, so only the one that kills a worker fails."""
        results = []
        for item in chunk:
            try:
                results.append(self._submit([item]).result()[0])
            except self.broken:
                self._check()
                self._restart()
                results.append(
                    Result(
                        item.file,
                        status=EXIT_UNREADABLE,
                        error={
                            "message": f"{item.file}: the worker process died while handling this file",
                            "internal": True,
                        },
                    )
                )
        return results


def _workers(executor: Any) -> list[Any]:
    """The worker processes of a ProcessPoolExecutor (none once it is shut down)."""
    return list((getattr(executor, "_processes", None) or {}).values())


def _alive(processes: Sequence[Any]) -> list[Any]:
    """The worker processes (multiprocessing.Process) that have not ended: their sentinel is
    not ready (it is once the process is gone, reaped or not: no PID reused is signalled)."""
    from multiprocessing.connection import wait

    ready = set(wait([p.sentinel for p in processes], timeout=0)) if processes else set()
    return [p for p in processes if p.sentinel not in ready]


def _signal_all(processes: Sequence[Any], signum: int) -> None:
    for process in _alive(processes):
        try:
            os.kill(process.pid, signum)
        except ProcessLookupError:
            pass


def _end(processes: Sequence[Any]) -> None:
    """End ``processes``: SIGTERM, then SIGKILL for those still there after STOP_GRACE
    seconds; return once they are gone (or a second STOP_GRACE has passed)."""
    for signum in (signal.SIGTERM, signal.SIGKILL):
        _signal_all(processes, signum)
        if _wait_ended(processes, STOP_GRACE):
            return


def _wait_ended(processes: Sequence[Any], seconds: float) -> bool:
    """Wait up to ``seconds`` for every one of ``processes`` to end; whether they all did."""
    from multiprocessing.connection import wait

    deadline = time.monotonic() + seconds
    while alive := _alive(processes):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        wait([p.sentinel for p in alive], timeout=left)
    return True


# ---------------------------------------------------------------------------- summary


@dataclass
class Summary:
    """Counts over a batch: files, failures, findings by code."""

    files: int = 0
    failed: int = 0
    with_errors: int = 0
    skipped: int = 0
    passed_over: int = 0
    """Files of a known format a folder or glob gave that the command does not take (each
    reported with its reason)."""
    findings: Counter = field(default_factory=Counter)
    """(severity, code) -> count."""

    def add(self, result: Result) -> None:
        self.files += 1
        if result.failed:
            self.failed += 1
        elif result.status == EXIT_FINDINGS:
            self.with_errors += 1
        for f in result.findings:
            self.findings[(f.severity.value, f.code)] += 1

    @property
    def status(self) -> int:
        """2 if any file failed, else 1 if any had an error finding, else 0."""
        if self.failed:
            return EXIT_UNREADABLE
        return EXIT_FINDINGS if self.with_errors else EXIT_OK

    def lines(self) -> list[str]:
        ok = self.files - self.failed - self.with_errors
        head = f"{self.files} file(s): {ok} ok, {self.with_errors} with errors, {self.failed} failed"
        if self.skipped:
            head += f"; {self.skipped} skipped in folders (no format recognised, or not a regular file)"
        if self.passed_over:
            head += f"; {self.passed_over} passed over (reasons above)"
        out = [head]
        order = {s.value: i for i, s in enumerate(Severity)}
        items = sorted(self.findings.items(), key=lambda kv: (order[kv[0][0]], -kv[1], kv[0][1]))
        if items:
            out.append("findings: " + ", ".join(f"{code} ({severity}) {n}" for (severity, code), n in items))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "failed": self.failed,
            "with_errors": self.with_errors,
            "skipped": self.skipped,
            "passed_over": self.passed_over,
            "findings": {f"{sev}:{code}": n for (sev, code), n in sorted(self.findings.items())},
            "status": self.status,
        }


# ---------------------------------------------------------------------------- progress


class Progress:
    """A progress bar (tqdm) on ``stream`` (stderr by default), only when that stream is a
    terminal; otherwise, or without tqdm installed, it does nothing. :meth:`write` prints a
    line to another stream without tearing the bar."""

    def __init__(
        self, total: int, stream: TextIO | None = None, *, enabled: bool | None = None, desc: str | None = None
    ):
        stream = sys.stderr if stream is None else stream
        if enabled is None:
            enabled = _isatty(stream)
        self.bar = None
        if enabled and total > 1:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=total, file=stream, unit="file", desc=desc, leave=False, dynamic_ncols=True)

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def write(self, text: str, stream: TextIO) -> None:
        if self.bar is None:
            stream.write(text + "\n")
        else:
            self.bar.write(text, file=stream)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
