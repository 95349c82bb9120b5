"""Conversion between the formats, as a library: glTF -> ANIMBIN, ANIMBIN -> glTF (GLB),
.animclip animation -> glTF. What ``animspec convert`` does, usable from Python with the
same results:

    from animspec.convert import load_options, plan

    work = plan(["clips/"], "out/", load_options(region="pal", skeleton="rig.glb"))
    for result in work.run(jobs=2):
        print(result.text if not result.failed else result.error["message"])

Here: the options (:class:`ConvertOptions`, one field per command-line option, named as its
argparse ``dest``), which inputs a run takes and where each output goes (:func:`plan`: the
batch layout and the overwrite policy), converting one file (:func:`convert_file`, in the
direction its bytes give, through the format registry's convert sources), and the
``--skeleton`` cache. The conversions themselves are in animspec.gltf; running over many
files in animspec.batch. The command line (animspec.cli.convert) only parses and prints.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, Callable, Iterator, Sequence

from .batch import Result, Selection, collect, run_batch
from .common.errors import AnimspecError, WriteError
from .common.findings import Finding, findings_text, has_errors
from .common.hashes import read_names_file
from .common.inputs import read_head, read_head_or_fail, read_input
from .common.output import ReadFile, check_output, file_identity, write_output
from .common.ranges import MAX_ERROR_DEG, NumberRange
from .common.status import EXIT_FINDINGS, EXIT_OK
from .formats import CONVERT_SOURCES, HEAD_SIZE, load, sniff

OUTPUT_EXTENSIONS = {"gltf": ".animbin", "animbin": ".glb", "animclip": ".glb"}
"""Convert source -> the extension of what it becomes (a batch's output names)."""


# ---------------------------------------------------------------------------- options

READS_FILE = {"reads_file": True}
"""The metadata of a :class:`ConvertOptions` field whose command-line value names a file the
run reads (:data:`FILE_OPTIONS`)."""


@dataclass(frozen=True)
class ConvertOptions:
    """Everything convert takes besides IN and OUT, side files already read (once per run).
    Each field has the name of its command-line option (``--max-error`` is ``max_error``)."""

    region: Any = "ntsc"
    """"ntsc", "pal" or a refresh rate in Hz: the vsync rate frames map to."""
    animations: tuple[str, ...] | None = None
    """glTF in: only these animations (--animation, repeatable)."""
    skin: int = 0
    joints: tuple[str, ...] | None = field(default=None, metadata=READS_FILE)
    """Joint id order, glTF node names (read from --joints FILE)."""
    fit: str | None = None
    """bake, cut, reduce or best; None: bake, or the ANIMBIN layout a glTF carries in extras
    (an explicit fit wins over that layout)."""
    max_error: float = 1.0
    """--fit reduce: the largest angle error allowed, degrees."""
    max_keys: int = 30
    template: str | None = field(default=None, metadata=READS_FILE)
    """glTF -> .animclip (an OUT ending in .animclip): the clip whose other sections, Built
    fields and looping flag the new clip keeps."""
    fps: float = 30.0
    """glTF -> .animclip: frames per second the animation is sampled at."""
    max_translation_error: float = 1e-3
    """glTF -> .animclip: the largest translation (and scale) error; rotation: ``max_error``."""
    ps1_space: bool = False
    armature_space: bool = False
    fp12: str = "round"
    merge: str | None = None
    translations: bool = False
    markers: dict[str, Any] | None = field(default=None, hash=False, metadata=READS_FILE)
    """Markers per animation (read from --markers FILE.json)."""
    one_shot: bool = False
    split: bool = False
    skeleton: str | None = field(default=None, metadata=READS_FILE)
    """ANIMBIN / .animclip in: the MESHBIN or glTF rig file (a path: loaded once per process)."""
    bake_engine: bool = False
    no_skin: bool = False
    joint_names: tuple[str, ...] | None = field(default=None, metadata=READS_FILE)
    """.animclip in: joint names to label the report (read from --joint-names FILE)."""
    no_root_motion: bool = False
    """.animclip in: leave the clip's root motion out (the character stays in place). glTF ->
    .animclip: write no Motion Data from the node above the skeleton (a template's is kept)."""
    force: bool = False
    """Replace existing output files (animspec.common.output's policy, as every command)."""
    make_folders: bool = False
    """Create the output's missing folders, right before writing it (batch runs): a file
    that fails before then leaves no empty folder behind. Not a command-line option."""
    given: frozenset[str] = frozenset()
    """The options the user gave (:func:`load_options` records them): each must act on some
    input of the run (:func:`check_options`). Not a command-line option."""
    side_files: tuple[ReadFile, ...] = ()
    """The files named by the :data:`FILE_OPTIONS` given to :func:`load_options` (those whose
    contents it read, such as --joints, and the others, such as --template): inputs, so never
    an output. Not a command-line option."""

    def read_files(self) -> tuple[ReadFile, ...]:
        """Every side file a conversion with these options reads: the files of
        :data:`FILE_OPTIONS`, as :func:`load_options` recorded them, and any of those options
        still holding its path (options made without :func:`load_options`). None of them is
        ever written or converted."""
        recorded = {r.option for r in self.side_files}
        kept = tuple(
            ReadFile(value, option_flag(name)) for name in FILE_OPTIONS
            if isinstance(value := getattr(self, name), str) and value and option_flag(name) not in recorded
        )
        return self.side_files + kept


_NOT_OPTIONS = {"make_folders", "side_files", "given"}
OPTION_NAMES = tuple(f.name for f in fields(ConvertOptions) if f.name not in _NOT_OPTIONS)
"""The command-line options of ``animspec convert``, by their argparse ``dest``."""

FILE_OPTIONS = tuple(f.name for f in fields(ConvertOptions) if f.metadata.get("reads_file"))
"""The options whose value names a file the run reads (the fields marked :data:`READS_FILE`),
by ``dest``: the one list the output check (:meth:`ConvertOptions.read_files`: never an
output, even with --force, by any name) and a batch's selection (never a source) take them
from."""


def _read_names(path: str) -> tuple[str, ...]:
    return tuple(read_names_file(path))


def _read_markers(path: str) -> dict[str, Any]:
    from .gltf import read_markers_file

    return read_markers_file(path)


READ_WHEN_LOADED: dict[str, Callable[[str], Any]] = {
    "joints": _read_names, "markers": _read_markers, "joint_names": _read_names,
}
"""The :data:`FILE_OPTIONS` whose file :func:`load_options` reads once per run, and how; the
others keep their path (read where they are used: the --skeleton cache, --template)."""


def load_options(**given: Any) -> ConvertOptions:
    """:class:`ConvertOptions` from the command line's values: the same names; each file of
    :data:`FILE_OPTIONS` recorded as read (``side_files``), those of :data:`READ_WHEN_LOADED`
    (``joints``, ``markers``, ``joint_names``) given as paths and read here; a list of
    ``animations`` becomes a tuple."""
    given = {name: value for name, value in given.items() if name not in FILE_OPTIONS or value}
    side = tuple(ReadFile(given[name], option_flag(name)) for name in FILE_OPTIONS if name in given)
    named = frozenset(given)
    check_ranges(given)
    for name, read in READ_WHEN_LOADED.items():
        if name in given:
            given[name] = read(given[name])
    animations = given.pop("animations", None)
    return ConvertOptions(
        given=named, animations=tuple(animations) if animations else None, side_files=side, **given,
    )


# ---------------------------------------------------------------------------- options that act

DIRECTIONS = {
    "gltf": "glTF -> ANIMBIN", "gltf-animclip": "glTF -> .animclip (-o ending in .animclip)",
    "animbin": "ANIMBIN -> glTF", "animclip": ".animclip -> glTF",
}
"""Each direction a run converts in (by source, and for glTF by the output's name), as the
command's help names them."""

ACTS_ON: dict[str, tuple[str, ...]] = {
    "region": ("gltf", "animbin"),
    "animations": ("gltf", "gltf-animclip"),
    "skin": ("gltf", "gltf-animclip"),
    "joints": ("gltf", "gltf-animclip", "animbin"),
    "fit": ("gltf",),
    "max_error": ("gltf", "gltf-animclip"),
    "max_keys": ("gltf",),
    "template": ("gltf-animclip",),
    "fps": ("gltf-animclip",),
    "max_translation_error": ("gltf-animclip",),
    "ps1_space": ("gltf", "animbin"),
    "armature_space": ("gltf", "animbin"),
    "fp12": ("gltf",),
    "merge": ("gltf",),
    "translations": ("gltf",),
    "markers": ("gltf",),
    "one_shot": ("gltf", "gltf-animclip"),
    "split": ("gltf",),
    "skeleton": ("animbin", "animclip"),
    "bake_engine": ("animbin",),
    "no_skin": ("animbin",),
    "joint_names": ("animclip",),
    "no_root_motion": ("animclip", "gltf-animclip"),
    "force": tuple(DIRECTIONS),
}
"""Option (its ``dest``) -> the directions it changes the result of. An option given for a
run none of whose inputs it acts on is refused: it would do nothing, silently."""


def direction(kind: str | None, output: str, single: bool) -> str | None:
    """The direction a source of ``kind`` converts in: glTF to an .animclip when one file is
    written to a name ending in .animclip, else by its kind."""
    if kind == "gltf" and single and output.lower().endswith(".animclip"):
        return "gltf-animclip"
    return kind


def option_flag(name: str) -> str:
    """The command-line spelling of an option's ``dest`` (``max_error`` -> ``--max-error``)."""
    return {"animations": "--animation"}.get(name, "--" + name.replace("_", "-"))


SKIN = NumberRange("skin", 0, 2**31 - 1, "a skin's index in the glTF", whole=True)


def option_ranges() -> dict[str, NumberRange]:
    """Each numeric option of ``convert`` (its ``dest``) and its range, declared where the limit
    is: the command line's parser and :func:`check_ranges` both use it."""
    from .animclip.encode import FPS, MAX_TRANSLATION_ERROR
    from .gltf.to_animbin import MAX_KEYS_RANGE

    return {r.option: r for r in (SKIN, MAX_ERROR_DEG, MAX_KEYS_RANGE, FPS, MAX_TRANSLATION_ERROR)}


def check_ranges(values: dict[str, Any]) -> None:
    """Refuse (OptionRangeError, naming the option and its range) a numeric option outside its
    range: a NaN, an infinity, 0 where 0 means nothing."""
    for name, limits in option_ranges().items():
        if name in values:
            limits.check(values[name])


def check_options(options: ConvertOptions, kinds: set[str], output: str = "OUT") -> None:
    """Refuse (AnimspecError) an option the user gave that does nothing on a run over inputs
    of ``kinds``: one of another direction, --max-error without --fit reduce, --armature-space
    or --joints with no glTF rig to act on; and a numeric option outside its range."""
    given = options.given
    check_ranges({name: getattr(options, name) for name in option_ranges()})
    if not kinds:
        return
    for name in sorted(given):
        acts = ACTS_ON.get(name, tuple(DIRECTIONS))
        if not kinds & set(acts):
            if acts == ("gltf-animclip",) and "gltf" in kinds:
                raise AnimspecError(
                    f"{option_flag(name)} is for an .animclip output; -o {output} does not end in .animclip"
                )
            inputs = " and ".join(sorted(DIRECTIONS[k] for k in kinds))
            raise AnimspecError(
                f"{option_flag(name)} acts on {' and '.join(DIRECTIONS[k] for k in acts)} only; "
                f"this run converts {inputs}: leave {option_flag(name)} out"
            )
    if "max_error" in given and options.fit != "reduce" and "gltf-animclip" not in kinds:
        raise AnimspecError(
            f"--max-error is the tolerance of --fit reduce; with --fit {options.fit or 'bake'} it does nothing: "
            "give --fit reduce, or leave --max-error out"
        )
    if "one_shot" in given and kinds == {"gltf-animclip"} and not options.template:
        raise AnimspecError(
            "--one-shot clears the looping flag a --template clip passes on; without --template the new "
            ".animclip does not loop anyway: leave --one-shot out"
        )
    rig_skeleton = options.skeleton is not None and _kind_of(options.skeleton, ("gltf",)) == "gltf"
    if not {"gltf", "gltf-animclip"} & kinds and not rig_skeleton:
        for name in ("armature_space", "joints"):
            if name in given:
                raise AnimspecError(
                    f"{option_flag(name)} acts on a glTF rig (a glTF input, or --skeleton RIG.glb); "
                    f"{'--skeleton ' + options.skeleton + ' is not one' if options.skeleton else 'there is none'}: "
                    f"leave {option_flag(name)} out"
                )
    if "armature_space" in given and "gltf" not in kinds and rig_skeleton:
        _nothing_above(options.skeleton, 0, "--skeleton " + str(options.skeleton))  # type: ignore[arg-type]


def _nothing_above(rig: str, skin: int, what: str) -> None:
    from .gltf.info import nodes_above_skin

    if not nodes_above_skin(rig, skin):
        raise AnimspecError(
            f"--armature-space leaves out the nodes above the skeleton; {what} has none above skin {skin}, "
            "so it would change nothing: leave it out"
        )


def _explicit_fit(o: ConvertOptions) -> str | None:
    """Why a glTF's ANIMBIN layout in extras is not followed: an explicit fit or key budget."""
    asked = [f"--fit {o.fit}"] if o.fit else []
    asked += ["--max-keys"] if "max_keys" in o.given else []
    return f"{' and '.join(asked)} given" if asked else None


WRONG_EXTENSIONS = {
    "gltf": {".glb": "a glTF", ".gltf": "a glTF", ".performanceclip": "a .performanceclip",
             ".meshbin": "a MESHBIN", ".json": "JSON"},
    "animbin": {".animbin": "an ANIMBIN", ".animclip": "an .animclip", ".performanceclip": "an .animclip",
                ".meshbin": "a MESHBIN", ".json": "JSON"},
}
WRONG_EXTENSIONS["animclip"] = WRONG_EXTENSIONS["animbin"]
"""Per convert source, output extensions that name another format than the one written."""


def check_output_name(out: str, kind: str | None) -> None:
    """Refuse an output whose extension names another format than the one ``kind`` becomes
    (``convert swing.animbin -o out.animbin`` writes glTF). Names without a known extension,
    ``-`` and devices are left alone."""
    ext = os.path.splitext(out)[1].lower()
    claims = WRONG_EXTENSIONS.get(kind or "", {}).get(ext)
    if claims is None:
        return
    fits = (".animbin (or .animclip, for an .animclip animation)" if kind == "gltf"
            else ".glb (binary glTF) or .gltf (JSON, buffer embedded)")
    raise AnimspecError(
        f"-o {out}: {DIRECTIONS[kind]} writes {'an ANIMBIN' if kind == 'gltf' else 'glTF'}, "  # type: ignore[index]
        f"not {claims} as {ext} says; name it {fits}"
    )


# ---------------------------------------------------------------------------- what to convert


def source_kind(head: bytes) -> str | None:
    """Which convert source (animspec.formats.CONVERT_SOURCES) ``head``, a file's first
    bytes, starts; None for anything else."""
    fmt = sniff(head, CONVERT_SOURCES)
    return None if fmt is None else fmt.name


def convertible(head: bytes, path: str | None = None) -> bool:
    """What convert picks in a folder: a GLB, a .gltf JSON file, an ANIMBIN or an .animclip
    (``path`` is not looked at: formats are told by their bytes)."""
    return source_kind(head) is not None


def _kind_of(path: str, names: Sequence[str] = CONVERT_SOURCES) -> str | None:
    head = read_head(path, HEAD_SIZE)
    fmt = None if head is None else sniff(head, names)
    return None if fmt is None else fmt.name


@dataclass(frozen=True)
class ConvertJob:
    """One input of a batch and where its output goes; ``clash`` is set when this output
    cannot be written: another input of the batch already produces it, or it is a file the
    run reads (this one then fails without being read)."""

    file: str
    output: str
    clash: str | None = None


@dataclass(frozen=True)
class ConvertTask:
    """Convert one :class:`ConvertJob` (picklable: runs in the batch's worker processes)."""

    options: ConvertOptions
    make_folders: bool = True

    def __call__(self, job: ConvertJob) -> Result:
        if job.clash:
            raise AnimspecError(job.clash)
        options = replace(self.options, make_folders=True) if self.make_folders else self.options
        return convert_file(job.file, job.output, options)


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


def plan(inputs: Sequence[str], output: str, options: ConvertOptions) -> ConvertPlan:
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
    would replace one of them is refused (``clash``), even with ``force``."""
    side = {file_identity(r.path): r for r in options.read_files()}
    side.pop(None, None)
    selection = collect(
        inputs, convertible, exclude=[output],
        pass_over={ident: f"read as {r.option} by this run: a side file is never converted"
                   for ident, r in side.items()},
    )
    single = not selection.many and not os.path.isdir(output)
    check_options(options, {direction(_kind_of(s.file), output, single) for s in selection.sources} - {None}, output)  # type: ignore[misc]
    if not selection.many and not os.path.isdir(output):
        jobs = [ConvertJob(selection.sources[0].file, output)]
        return ConvertPlan(selection, jobs, ConvertTask(options, make_folders=False), single=True)
    exists = os.path.exists(output)
    if (exists and not os.path.isdir(output)) or (
        not exists and os.path.splitext(output)[1].lower() in {".gltf", *OUTPUT_EXTENSIONS.values()}
    ):
        raise AnimspecError(f"{output}: with several inputs, a folder or a glob, -o must be a folder")
    kinds = _take_sources(selection)
    read: dict[tuple[int, int], ReadFile] = {}
    for source in selection.sources:
        ident = file_identity(source.file)
        if ident is not None:
            read.setdefault(ident, ReadFile(source.file))
    read.update(side)  # (a side file named as an input too is refused as the side file)
    return ConvertPlan(selection, _jobs(selection, kinds, output, read), ConvertTask(options), single=False)


def _take_sources(selection: Selection) -> list[str | None]:
    """Keep the sources a folder or glob gave that hold something to convert (moving the
    others to ``selection.passed_over``); returns each kept source's kind."""
    kept, kinds = [], []
    for source in selection.sources:
        kind = _kind_of(source.file)
        why = _no_clip_in(source.file) if kind == "gltf" and not source.explicit else None
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
        return (f"a rig: {len(skins)} skin(s) and no animation, nothing to convert to ANIMBIN "
                "(give it as --skeleton to put ANIMBIN clips on it)")
    return "a glTF without animations: nothing to convert to ANIMBIN"


def _jobs(
    selection: Selection, kinds: list[str | None], out_dir: str, read: dict[tuple[int, int], ReadFile]
) -> list[ConvertJob]:
    """Each source's output below ``out_dir``: its path below its folder or glob (its bare
    name when named explicitly) with its source's output extension; refused when another
    source has it already, or when it is a file the run reads (``read``, by identity)."""
    jobs: list[ConvertJob] = []
    first: dict[str, str] = {}
    for source, kind in zip(selection.sources, kinds):
        ext = OUTPUT_EXTENSIONS.get(kind, ".glb")  # (an unreadable file fails later)
        out = os.path.join(out_dir, source.relative.with_suffix(ext))
        key = os.path.normcase(os.path.abspath(out))
        clash = None
        reads = read.get(file_identity(out))  # type: ignore[arg-type]
        if reads is not None:
            what = "an input" if reads.option is None else f"read as {reads.option}"
            clash = (f"{source.file}: its output {out} is a file this run reads ({reads.path}, {what}); "
                     "it is never replaced, even with --force (give -o a folder outside the inputs)")
        elif key in first:
            clash = f"{source.file}: its output {out} is already the output of {first[key]}; rename one of them"
        else:
            first[key] = source.file
        jobs.append(ConvertJob(source.file, out, clash))
    return jobs


# ---------------------------------------------------------------------------- one file


def convert_file(src: str, out: str, options: ConvertOptions) -> Result:
    """Convert ``src`` to ``out`` in the direction ``src``'s bytes give; the report lines are
    the result's ``text``. Raises AnimspecError or OSError when it cannot."""
    kind = _kind_of(src)
    if not options.make_folders or os.path.isdir(os.path.dirname(out) or "."):
        # (a batch output whose folder is still to be made cannot exist yet)
        check_output(out, force=options.force, inputs=[src, *options.read_files()])
    check_output_name(out, kind)  # (after: writing over a file the run reads is the worse mistake)
    if kind == "gltf":
        if out.lower().endswith(".animclip"):
            return _naming_source(src, _gltf_to_animclip, out, options)
        if options.template:
            raise AnimspecError(f"{src}: --template is for an .animclip output; -o {out} does not end in .animclip")
        return _naming_source(src, _from_gltf, out, options)
    fmt, model = load(src)
    if fmt.name == "animbin":
        return _animbin_to_gltf(src, out, options, model)
    if fmt.name == "animclip":
        return _animclip_to_gltf(src, out, options, model)
    raise AnimspecError(f"{src}: {fmt.description} has nothing to convert")


def _naming_source(src: str, convert_gltf: Callable[[str, str, ConvertOptions], Result], out: str,
                   o: ConvertOptions) -> Result:
    """``convert_gltf(src, out, o)``, its GltfError naming ``src`` as a batch's failures do
    (the glTF layer names JSON paths and members, not the file they are in)."""
    from .gltf.document import GltfError

    try:
        return convert_gltf(src, out, o)
    except GltfError as exc:
        if src in str(exc):
            raise
        raise GltfError(f"{src}: {exc}") from None


def _write(path: str, data: bytes, o: ConvertOptions, src: str, verify: Callable[[bytes], None]) -> None:
    """animspec.common.output's policy (never over the input, an existing file only with
    ``force``), first creating the missing folders of a batch output."""
    if o.make_folders:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    write_output(path, data, force=o.force, inputs=[src, *o.read_files()], verify=verify)


def _write_gltf(path: str, glb: bytes, o: ConvertOptions, src: str) -> int:
    """Write a converted glTF in the form ``path``'s extension asks for (.gltf: JSON with the
    buffer embedded; otherwise GLB), checked to read back; returns the bytes written."""
    from .gltf.format import file_bytes, read_back

    data = file_bytes(glb, path)
    _write(path, data, o, src, verify=lambda written: read_back(written, path))
    return len(data)


def _check_skin(src: str, o: ConvertOptions) -> None:
    """--skin N names a skin the glTF has (the option's own error, before any work)."""
    if "skin" in o.given:
        from .gltf.info import summarise

        skins = len(summarise(src).skins)
        if not 0 <= o.skin < skins:
            raise AnimspecError(f"--skin {o.skin}: {src} has {skins} skin(s), numbered from 0")


def _check_moves(src: str, o: ConvertOptions) -> None:
    """--max-translation-error bounds translation and scale: refused for an animation that
    animates neither (it would change nothing)."""
    if "max_translation_error" not in o.given:
        return
    from .gltf.rig import load_gltf

    gltf = load_gltf(src)
    names = [a.name or f"animation{i}" for i, a in enumerate(gltf.animations)]
    wanted = o.animations[0] if o.animations else (names[0] if names else None)
    if wanted not in names:
        return  # (the conversion says what is missing)
    animation = gltf.animations[names.index(wanted)]
    if not any(c.target is not None and c.target.path in ("translation", "scale") for c in animation.channels or []):
        raise AnimspecError(
            f"--max-translation-error bounds translation and scale; animation {wanted!r} of {src} animates "
            "neither: leave it out (--max-error bounds rotation)"
        )


def _from_gltf(src: str, out: str, o: ConvertOptions) -> Result:
    from .animbin import read_bytes, write_bytes
    from .gltf import convert

    _check_skin(src, o)
    if "armature_space" in o.given:
        _nothing_above(src, o.skin, src)
    result = convert(
        src,
        animations=list(o.animations) if o.animations else None,
        skin=o.skin,
        joint_names=list(o.joints) if o.joints else None,
        region=o.region,
        fit=o.fit or "bake",
        layout_not_used=_explicit_fit(o),
        max_error_deg=o.max_error,
        ps1_space=o.ps1_space,
        translations=o.translations,
        markers=o.markers,
        looping=False if o.one_shot else None,
        split=o.split,
        fp12=o.fp12,
        merge=o.merge,
        armature_space=o.armature_space,
        max_keys=o.max_keys,
    )
    if "split" in o.given and len(result.files) == 1:
        raise AnimspecError(
            f"{src}: --split: its {len(result.clips)} clip(s) fit one file (the engine holds 5 per file); leave --split out"
        )
    lines = [result.report()]
    stem, ext = os.path.splitext(out)
    outputs = [out] if len(result.files) == 1 else [f"{stem}_{i}{ext or '.animbin'}" for i in range(len(result.files))]
    status = EXIT_OK
    all_findings: list[Finding] = []
    for path, model, findings in zip(outputs, result.files, result.findings):
        data = write_bytes(model)

        def same_model(written: bytes, model=model, path=path) -> None:
            if read_bytes(written, path) != model:
                raise WriteError(path, "the written file does not read back as converted")

        _write(path, data, o, src, verify=same_model)
        lines.append(f"{path}: {len(data)} bytes, {len(model.animations)} animation(s)")
        lines.append(findings_text(path, findings))
        all_findings += findings
        if has_errors(findings):
            status = EXIT_FINDINGS
    return Result(src, "gltf", all_findings, text="\n".join(lines), extra={"outputs": outputs}, status=status)


def _gltf_to_animclip(src: str, out: str, o: ConvertOptions) -> Result:
    """One glTF animation encoded as an .animclip animation (animspec.gltf.to_animclip):
    rotation within ``max_error`` degrees, translation and scale within
    ``max_translation_error``; the other sections from ``template``."""
    from .animclip.tags import FLAG_LOOPING
    from .animclip.encode import EncodeError, tolerance_for
    from .animclip.parse import read_bytes, read_file
    from .animclip.views import sample_inputs
    from .animclip.write import write_bytes
    from .gltf.to_animclip import gltf_to_animclip

    if o.animations and len(o.animations) > 1:
        raise AnimspecError(f"{src}: an .animclip holds one animation; give one --animation")
    _check_skin(src, o)
    _check_moves(src, o)
    template = read_file(o.template) if o.template else None
    looping = False
    if template is not None and template.built is not None and not o.one_shot:
        looping = bool(template.built.flags & FLAG_LOOPING)
    tolerance = tolerance_for(o.max_error, o.max_translation_error)
    try:
        result = gltf_to_animclip(
            src, animation=o.animations[0] if o.animations else None, skin=o.skin,
            joint_names=list(o.joints) if o.joints else None, fps=o.fps, max_error=tolerance,
            looping=looping, template=template, root_motion=not o.no_root_motion,
        )
    except EncodeError as exc:  # (the encoder names joints and frames, not the file they come from)
        exc.args = (f"{src}: {exc}",)
        raise
    if o.no_root_motion and result.root_motion_left_out is None:
        raise AnimspecError(
            f"{src}: --no-root-motion: the animation moves no node above the skeleton, so there is no root "
            "motion to leave out: leave --no-root-motion out"
        )
    data = write_bytes(result.model)
    # read back and refused as play would refuse it: we write no clip we would not read
    _write(out, data, o, src, verify=lambda written: sample_inputs(read_bytes(written, out), out))
    lines = [result.report(), f"{out}: {len(data)} bytes{', looping' if looping else ''}"]
    if not result.encoded.error.within(tolerance):
        lines.append(f"{out}: note: the format's precision reaches only the error above (asked: rotation "
                     f"{tolerance.rotation:.2e}, translation {tolerance.translation:.2e})")
    return Result(src, "gltf", [], text="\n".join(lines), extra={"outputs": [out]})


def skeleton_source(path: str, joints: tuple[str, ...] | None = None, armature_space: bool = False) -> Any:
    """The --skeleton file, loaded once per process for a whole batch (and again only if it
    changes on disk): a glTF rig (:class:`animspec.gltf.Rig`, joints in ``joints`` order) or
    a MESHBIN skeleton."""
    return _load_skeleton(path, os.stat(path).st_mtime_ns, joints, armature_space)


@lru_cache(maxsize=4)
def _load_skeleton(path: str, _mtime: int, joints: tuple[str, ...] | None, armature_space: bool) -> Any:
    from .rigs import load_rig_source

    return load_rig_source(path, joint_names=list(joints) if joints else None, armature_space=armature_space)


def _animbin_to_gltf(src: str, out: str, o: ConvertOptions, model: Any) -> Result:
    from .gltf import Rig, animbin_to_gltf, animbin_to_gltf_on_rig

    source = skeleton_source(o.skeleton, o.joints, o.armature_space) if o.skeleton else None
    warnings: list[str] = []
    if isinstance(source, Rig):
        glb = animbin_to_gltf_on_rig(
            model, source, o.region, o.bake_engine, ps1_space=o.ps1_space, skinned=not o.no_skin, notes=warnings
        )
        rig = f"{o.skeleton} ({len(source.nodes)} joint(s) in {'--joints' if o.joints else 'skin'} order, its nodes and meshes kept)"
        used = max((t.joint_id + 1 for a in model.animations for t in a.tracks), default=0)
        if not o.joints and used < len(source.nodes):
            warnings.append(
                f"the clip animates {used} joint(s), the rig has {len(source.nodes)} in skin order: if the clip "
                "was made with --joints FILE, give the same file here, or joint ids drive other bones"
            )
    else:
        if o.joints:
            raise AnimspecError(f"--joints names glTF nodes; {o.skeleton or 'no --skeleton'} is not a glTF rig")
        glb = animbin_to_gltf(model, source, o.region, o.bake_engine, axis_change=not o.ps1_space, skinned=not o.no_skin)
        rig = o.skeleton or "a simple chain"
    size = _write_gltf(out, glb, o, src)
    what = "engine-faithful playback" if o.bake_engine else "keys as authored"
    text = "\n".join([f"{out}: {size} bytes, {len(model.animations)} animation(s), {what}, on {rig}"]
                     + [f"warning: {w}" for w in warnings])
    return Result(src, "animbin", text=text, extra={"outputs": [out]})


def names_line(joints: Sequence[Any]) -> str:
    """What --joint-names did for an .animclip's joints (each has ``hash`` and ``name``)."""
    named = [j for j in joints if j.name]
    unnamed = [f"{j.hash:08X}" for j in joints if not j.name and j.hash is not None]
    return (f"--joint-names: {len(named)} of {len(joints)} clip joint(s) named"
            + (f"; no name for {', '.join(unnamed)}" if unnamed else ""))


def _animclip_to_gltf(src: str, out: str, o: ConvertOptions, model: Any) -> Result:
    """Every frame of the clip on the rig (root motion on a node above it unless
    ``no_root_motion``); a camera clip (flag 0x10) as an animated glTF camera, no rig needed."""
    import numpy as np

    from .animclip.pose import clip_frames
    from .animclip.samples import camera_path
    from .animclip.views import BUILT_GLB_NODE_FRAME_BYTES, camera_problems, check_built, file_size_on_disk
    from .gltf import CameraAnimation, ClipAnimation, animclip_to_gltf, camera_animation_to_gltf

    frames = clip_frames(model, src)
    clip = model.clip(list(o.joint_names) if o.joint_names else None)
    tracks = [(t.name or f"{t.hash:08X}", [float(v) for v in t.values]) for t in clip.custom_tracks]
    if frames.coding.camera:
        if frames.root_motion is None:  # (the validator's camera-no-path)
            raise AnimspecError(f"{src}: " + "; ".join(f"{p.code}: {p.message}" for p in camera_problems(model)))
        translation, rotation = camera_path(frames.root_motion)
        xfov = next((np.asarray(values, np.float64) for name, values in tracks if name == "XFOV"), None)
        camera = CameraAnimation(np.arange(len(translation)) / frames.fps, translation, rotation, xfov)
        try:
            glb, lines = camera_animation_to_gltf(camera, name=clip.name or "animclip_camera")
        except AnimspecError as exc:
            raise AnimspecError(f"{src}: {exc}") from None
        size = _write_gltf(out, glb, o, src)
        lines.append(f"{out}: {size} bytes, camera animation")
        return Result(src, "animclip", [], text="\n".join(lines), extra={"outputs": [out]})
    if not o.skeleton:
        raise AnimspecError(f"{src}: an .animclip holds no hierarchy: give the rig with --skeleton RIG.glb")
    if not frames.coding.joints:
        raise AnimspecError(f"{src}: the clip has no joints: there is nothing to put on --skeleton {o.skeleton}")
    if os.path.isfile(o.skeleton) and _kind_of(o.skeleton, ("gltf",)) != "gltf":
        raise AnimspecError(
            f"{src}: --skeleton {o.skeleton} is not a glTF rig; an .animclip's joints are matched by "
            "node name, which only a glTF rig has (a MESHBIN's bones are unnamed)"
        )
    poses = frames.frames() if frames.animated else frames.first_frame
    motion = frames.root_motion
    animation = ClipAnimation(
        frames.joint_hashes, np.arange(poses.rotation.shape[0]) / frames.fps,
        poses.rotation, poses.translation, poses.scale,
        None if motion is None else np.arange(len(motion.translation)) / frames.fps,
        None if motion is None else motion.translation, None if motion is None else motion.rotation,
    )
    names = {j.hash: j.name for j in clip.joints if j.hash is not None and j.name}
    try:
        glb, match = animclip_to_gltf(
            animation, o.skeleton, name=clip.name or "animclip", root_motion=not o.no_root_motion,
            custom_tracks=tracks, joint_names=names,
            check_keys=lambda count, nodes: check_built(
                "a GLB's animation keys", count, nodes, BUILT_GLB_NODE_FRAME_BYTES, file_size_on_disk(model), "node"),
        )
    except AnimspecError as exc:
        raise AnimspecError(f"{src}: {exc}") from None
    size = _write_gltf(out, glb, o, src)
    lines = list(match.lines) + [f"note: {n}" for n in frames.notes]
    if o.joint_names:
        lines.append(names_line(clip.joints))
    what = (f"{frames.frame_count} frame(s) at {frames.fps:g} fps" if frames.animated
            else "the base pose (the clip has no samples)")
    lines.append(f"{out}: {size} bytes, {what} on {len(match.matched)} node(s)")
    if match.findings:
        lines.append(findings_text(out, match.findings))
    return Result(src, "animclip", match.findings, text="\n".join(lines), extra={"outputs": [out]})
