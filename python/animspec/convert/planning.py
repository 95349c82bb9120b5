"""Planning a conversion run: which inputs it takes, the direction of each (told once, from
its first bytes, and carried by its job), where each output goes (a batch's layout and the
files it never replaces), and running one job.

Planning is here rather than in animspec.batch: batch.py is the format-blind machinery
``validate`` and ``info`` share too (folders, globs, worker processes); what a convert run
selects, passes over and names its outputs after depends on the directions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from ..batch import Result, Selection, collect, run_batch
from ..common.errors import AnimspecError
from ..common.inputs import read_head, read_head_or_fail, read_input
from ..common.output import ReadFile, check_output, file_identity
from ..common.ranges import OptionRangeError
from ..formats import CONVERT_SOURCES, HEAD_SIZE, load, sniff
from .declaration import Direction
from .directions import DIRECTIONS, direction_of
from .options import ConvertOptions, parameter_name
from .output import check_output_folder, check_output_name
from .refusals import Namer, OptionRefused, check_options


def source_kind(head: bytes) -> str | None:
    """Which convert source (animspec.formats.CONVERT_SOURCES) ``head``, a file's first
    bytes, starts; None for anything else."""
    fmt = sniff(head, CONVERT_SOURCES)
    return None if fmt is None else fmt.name


def convertible(head: bytes, path: str | None = None) -> bool:
    """What convert picks in a folder: a GLB, a .gltf JSON file, an ANIMBIN or an .animclip
    (``path`` is not looked at: formats are told by their bytes)."""
    return source_kind(head) is not None


def source_of(path: str) -> str | None:
    """The convert source the file at ``path`` is, told from its first bytes (None: none, or
    unreadable: converting it says why)."""
    head = read_head(path, HEAD_SIZE)
    return None if head is None else source_kind(head)


@dataclass(frozen=True)
class ConvertJob:
    """One input of a batch, its direction (None: no convert source, converting it says why)
    and where its output goes; ``clash`` is set when this output cannot be written: another
    input of the batch already produces it, or it is a file the run reads (this one then
    fails without being read)."""

    file: str
    output: str
    clash: str | None = None
    direction: Direction | None = None


@dataclass(frozen=True)
class ConvertTask:
    """Convert one :class:`ConvertJob` (picklable: runs in the batch's worker processes)."""

    options: ConvertOptions
    make_folders: bool = True
    words: Namer = parameter_name
    """How the refusals name the options (a module-level function: the task is pickled)."""

    def __call__(self, job: ConvertJob) -> Result:
        if job.clash:
            raise AnimspecError(job.clash)
        options = replace(self.options, make_folders=True) if self.make_folders else self.options
        try:
            return run_job(job.file, job.output, replace(options, words=self.words), job.direction)
        except (OptionRefused, OptionRangeError) as exc:
            raise exc.reword(self.words) from None


def convert_file(src: str, out: str, options: ConvertOptions) -> Result:
    """Convert ``src`` to ``out`` in the direction ``src``'s bytes give; the report lines are
    the result's ``text``. Raises AnimspecError or OSError when it cannot."""
    return run_job(src, out, options, direction_of(source_of(src), out, single=True))


def run_job(src: str, out: str, options: ConvertOptions, direction: Direction | None) -> Result:
    """Convert ``src`` to ``out`` in ``direction`` (told from its bytes by the plan): the
    output policy first, then the direction's run."""
    if not options.make_folders or os.path.isdir(os.path.dirname(out) or "."):
        # (a batch output whose folder is still to be made cannot exist yet)
        check_output(out, force=options.force, inputs=[src, *options.read_files()])
    check_output_name(out, direction)  # (after: writing over a file the run reads is the worse mistake)
    if direction is None:
        fmt, _ = load(src)  # (what no format reads is refused there, naming the file)
        raise AnimspecError(f"{src}: {fmt.description} has nothing to convert")
    if direction.source == "gltf" and not direction.acts("template") and options.template:
        raise OptionRefused("template", "animclip-output-only", output=out, file=src)
    return direction.run(src, out, options)


@dataclass
class ConvertPlan:
    """What one convert run does: the selected inputs, one job per input, the task."""

    selection: Selection
    """Every file the folders and globs gave; ``selection.passed_over`` says which of them
    are not converted and why (a side file, a glTF without animations)."""
    jobs: list[ConvertJob]
    task: ConvertTask
    single: bool
    """One file to the output file named: the command prints its report and raises its
    errors instead of a batch's per-file lines and summary."""

    @property
    def passed_over(self) -> list[tuple[str, str]]:
        """(path, why) of each file a folder or glob gave that is not converted."""
        return self.selection.passed_over

    def run(self, jobs: int | None = None, *, on_done: Callable[[int], None] | None = None) -> Iterator[Result]:
        """The results, one per job in order (animspec.batch.run_batch on ``jobs`` processes)."""
        return run_batch(self.jobs, self.task, jobs, on_done=on_done)


def plan(inputs: Sequence[str], output: str, options: ConvertOptions, *, words: Namer = parameter_name) -> ConvertPlan:
    """The run converting ``inputs`` (files, folders, globs) to ``output``: a file when one
    file is named (and ``output`` is not an existing folder), otherwise a folder in which
    each output keeps its input's path below the folder or glob it was found in, with .animbin
    (glTF in) or .glb (ANIMBIN, .animclip in). The output folder (and each folder below it)
    is made when its first file is written, so a batch whose files all fail creates nothing.

    Which files of a folder or glob are converted: every ANIMBIN and .animclip, and every
    glTF holding at least one animation; never a side file (``--skeleton``, ``--joints``,
    ``--markers``, ``--joint-names``), and no glTF without animations (a rig: nothing to
    convert). Those are listed with the reason in ``passed_over``. Every file the run reads
    (the inputs and the side files) is known before the first write, and a job whose output
    would replace one of them is refused (``clash``), even with ``force``.

    ``words``: how refusals name the options, the plan's own and its jobs' (a module-level
    function; default: as this library's parameters)."""
    try:
        return _plan(inputs, output, replace(options, words=words), words)
    except (OptionRefused, OptionRangeError) as exc:
        raise exc.reword(words) from None


def _plan(inputs: Sequence[str], output: str, options: ConvertOptions, words: Namer) -> ConvertPlan:
    side = {ident: r for r in options.read_files() if (ident := file_identity(r.path)) is not None}
    selection = collect(
        inputs, convertible, exclude=[output],
        pass_over={ident: f"read as {r.option} by this run: a side file is never converted"
                   for ident, r in side.items()},
    )
    single = not selection.many and not os.path.isdir(output)
    directions = {s.file: direction_of(source_of(s.file), output, single) for s in selection.sources}
    check_options(options, set(directions.values()) - {None}, DIRECTIONS, output)  # type: ignore[arg-type]
    if single:
        file = selection.sources[0].file
        jobs = [ConvertJob(file, output, direction=directions[file])]
        return ConvertPlan(selection, jobs, ConvertTask(options, make_folders=False, words=words), single=True)
    check_output_folder(output, {".gltf", *(direction_of(s, output, False).extension for s in CONVERT_SOURCES)})  # type: ignore[union-attr]
    kinds = _take_sources(selection, directions)
    read: dict[tuple[int, int], ReadFile] = {}
    for source in selection.sources:
        ident = file_identity(source.file)
        if ident is not None:
            read.setdefault(ident, ReadFile(source.file))
    read.update(side)  # (a side file named as an input too is refused as the side file)
    jobs = _jobs(selection, kinds, output, read, words)
    return ConvertPlan(selection, jobs, ConvertTask(options, words=words), single=False)


def _take_sources(selection: Selection, directions: dict[str, Direction | None]) -> list[Direction | None]:
    """Keep the sources a folder or glob gave that hold something to convert (moving the
    others to ``selection.passed_over``); returns each kept source's direction."""
    kept, kinds = [], []
    for source in selection.sources:
        kind = directions[source.file]
        why = _no_clip_in(source.file) if kind is not None and kind.source == "gltf" and not source.explicit else None
        if why is not None:
            selection.passed_over.append((source.file, why))
            continue
        kept.append(source)
        kinds.append(kind)
    selection.sources[:] = kept
    return kinds


def _no_clip_in(path: str) -> str | None:
    """Why the glTF at ``path`` has nothing to convert (no animation), or None when it has
    one (or cannot be read here: converting it then reports why). Only the JSON is read (a
    GLB's first chunk), not the buffers."""
    try:
        head = read_head_or_fail(path, 20)
        if head[:4] == b"glTF" and len(head) == 20 and head[16:20] == b"JSON":
            size = int.from_bytes(head[12:16], "little")
            if 20 + size > os.path.getsize(path):
                return None  # a chunk past the end: converting it says so
            text = read_head_or_fail(path, 20 + size)[20:]
        else:
            text = read_input(path)
        doc = json.loads(text)
    except (AnimspecError, OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("animations"):
        return None
    skins = doc.get("skins")
    if isinstance(skins, list) and skins:
        return (
            f"a rig: {len(skins)} skin(s) and no animation, nothing to convert to ANIMBIN "
            "(give it as --skeleton to put ANIMBIN clips on it)"
        )
    return "a glTF without animations: nothing to convert to ANIMBIN"


def _jobs(
    selection: Selection,
    kinds: list[Direction | None],
    out_dir: str,
    read: dict[tuple[int, int], ReadFile],
    words: Namer,
) -> list[ConvertJob]:
    """Each source's output below ``out_dir``: its path below its folder or glob (its bare
    name when named explicitly) with its source's output extension; refused when another
    source has it already, or when it is a file the run reads (``read``, by identity)."""
    jobs: list[ConvertJob] = []
    first: dict[str, str] = {}
    for source, kind in zip(selection.sources, kinds):
        ext = ".glb" if kind is None else kind.extension  # (an unreadable file fails later)
        out = os.path.join(out_dir, source.relative.with_suffix(ext))
        key = os.path.normcase(os.path.abspath(out))
        clash = None
        reads = read.get(file_identity(out))  # type: ignore[arg-type]
        if reads is not None:
            what = "an input" if reads.option is None else f"read as {reads.option}"
            clash = (
                f"{source.file}: its output {out} is a file this run reads ({reads.path}, {what}); "
                f"it is never replaced, even with {words('force')} (give {words('output')} a folder outside the inputs)"
            )
        elif key in first:
            clash = f"{source.file}: its output {out} is already the output of {first[key]}; rename one of them"
        else:
            first[key] = source.file
        jobs.append(ConvertJob(source.file, out, clash, kind))
    return jobs
