"""``animspec convert``: glTF -> ANIMBIN, ANIMBIN -> glTF, .animclip base pose -> glTF.

The direction follows the input's bytes (a GLB's "glTF" magic or a .gltf JSON file, an
ANIMBIN, an .animclip). Argument handling only; the work is in animspec.gltf, and running
over folders and globs in animspec.batch: with several inputs (or a folder or glob) ``-o``
is a folder, and each output keeps its input's path below the folder or glob it was found
in, with the new extension (.glb or .animbin).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from . import batch as cli_batch
from ..batch import Result, Selection, collect
from .common import EXIT_FINDINGS, EXIT_OK, FORCE_HELP, OUTPUT_HELP, region, report_stream
from ..common.errors import AnimspecError, WriteError
from ..common.findings import Finding, has_errors
from ..formats import detect, load
from ..common.hashes import read_names_file
from ..common.inputs import read_head, read_head_or_fail
from ..common.output import check_output, write_output


def add_commands(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser(
        "convert",
        help="glTF -> ANIMBIN, ANIMBIN -> glTF (GLB), .animclip base pose -> glTF",
        description=(
            "glTF/GLB in: every animation of its skin becomes one ANIMBIN animation, keyed on "
            "every vsync of --region as the engine needs. ANIMBIN in: a GLB with one animation "
            "per clip on --skeleton (MESHBIN or glTF rig; a chain without). .animclip in: the "
            "base pose applied by joint-name hash to --skeleton's nodes (a glTF rig)."
        ),
    )
    c.add_argument("inputs", nargs="+", metavar="IN",
                   help="files, folders (recursed: every glTF/GLB, ANIMBIN and .animclip in them) and globs")
    c.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the output file; a folder with several inputs, a folder or a glob (" + OUTPUT_HELP + ")")
    c.add_argument("--force", action="store_true", help=FORCE_HELP + "; in a batch, each output file")
    c.add_argument("--region", type=region, default="ntsc", help="ntsc, pal or Hz: the vsync rate frames map to")
    g = c.add_argument_group("glTF -> ANIMBIN")
    g.add_argument("--animation", action="append", metavar="NAME", help="convert only this glTF animation (repeatable)")
    g.add_argument("--skin", type=int, default=0, metavar="N", help="which skin (default 0)")
    g.add_argument("--joints", metavar="FILE",
                   help="joint id order: one node name per line (default: the skin's order); "
                        "give the same file when converting back onto the rig")
    g.add_argument("--fit", choices=("bake", "cut", "reduce", "best"), default="bake",
                   help="bake: a key every frame, refuse past 30 frames; cut: drop frames past 30; "
                        "reduce: fewer keys within --max-error (the console will step); best: the "
                        "30 keys (--max-keys) placed and valued for the smallest largest error on screen")
    g.add_argument("--max-error", type=float, default=1.0, metavar="DEG", help="reduce: largest angle error allowed")
    g.add_argument("--max-keys", type=int, default=30, metavar="N", help="keys per track allowed (1..30, default 30)")
    g.add_argument("--ps1-space", action="store_true",
                   help="the glTF's world is already the console's model space: no root axis change "
                        "(both ways)")
    g.add_argument("--armature-space", action="store_true",
                   help="roots relative to the node above the skeleton (Blender's armature object), as the "
                        "engine's exporter does: a moved or turned armature object is left out (both ways)")
    g.add_argument("--fp12", choices=("round", "trunc"), default="round",
                   help="round to nearest (default) or truncate toward zero as the engine's exporter does")
    g.add_argument("--merge", metavar="NAME",
                   help="one clip NAME from all the selected animations (they must drive different joints)")
    g.add_argument("--translations", action="store_true", help="also write TRANSLATION keys (the engine ignores them)")
    g.add_argument("--markers", metavar="FILE.json", help='markers per animation: {"walk": [{"name": "step", "frame": 3}]}')
    g.add_argument("--one-shot", action="store_true", help="clear the looping flag (the exporter sets it on every clip)")
    g.add_argument("--split", action="store_true", help="more than 5 animations: write OUT_0.animbin, OUT_1.animbin, ...")
    a = c.add_argument_group("ANIMBIN / .animclip -> glTF")
    a.add_argument("--skeleton", metavar="FILE", help="MESHBIN or glTF rig (.animclip: a glTF rig, required)")
    a.add_argument("--bake-engine", action="store_true", help="write what the console shows (STEP keys per vsync)")
    a.add_argument("--no-skin", action="store_true", help="joints as plain nodes, no skin or bone mesh")
    a.add_argument("--joint-names", metavar="FILE", help=".animclip: joint names, one per line, to label the report")
    cli_batch.add_options(c)
    c.set_defaults(run=_convert)


GLB_MAGIC = b"glTF"


def convertible(head: bytes, path: str | None = None) -> bool:
    """What convert picks in a folder: a GLB, a .gltf file, an ANIMBIN or an .animclip."""
    return _kind(head, path) is not None


def _kind(head: bytes, path: str | None) -> str | None:
    if head[:4] == GLB_MAGIC or (path or "").lower().endswith(".gltf"):
        return "gltf"
    try:
        name = detect(head).name
    except AnimspecError:
        return None
    return name if name in ("animbin", "animclip") else None


def _kind_of(path: str) -> str | None:
    head = read_head(path, 64)
    return None if head is None else _kind(head, path)


@dataclass(frozen=True)
class ConvertOptions:
    """Everything convert takes besides IN and OUT, side files already read (once per run)."""

    region: Any = "ntsc"
    animations: tuple[str, ...] | None = None
    skin: int = 0
    joints: tuple[str, ...] | None = None
    fit: str = "bake"
    max_error: float = 1.0
    max_keys: int = 30
    ps1_space: bool = False
    translations: bool = False
    markers: dict[str, Any] | None = field(default=None, hash=False)
    one_shot: bool = False
    split: bool = False
    fp12: str = "round"
    merge: str | None = None
    armature_space: bool = False
    skeleton: str | None = None
    bake_engine: bool = False
    no_skin: bool = False
    joint_names: tuple[str, ...] | None = None
    make_folders: bool = False
    """Create the output's missing folders, right before writing it (batch runs): a file
    that fails before then leaves no empty folder behind."""
    force: bool = False
    """Replace existing output files (animspec.common.output's policy, as every command)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "ConvertOptions":
        markers = None
        if args.markers:
            from ..gltf import read_markers_file

            markers = read_markers_file(args.markers)
        return cls(
            region=args.region,
            animations=tuple(args.animation) if args.animation else None,
            skin=args.skin,
            joints=tuple(read_names_file(args.joints)) if args.joints else None,
            fit=args.fit,
            max_error=args.max_error,
            max_keys=args.max_keys,
            ps1_space=args.ps1_space,
            translations=args.translations,
            markers=markers,
            one_shot=args.one_shot,
            split=args.split,
            fp12=args.fp12,
            merge=args.merge,
            armature_space=args.armature_space,
            skeleton=args.skeleton,
            bake_engine=args.bake_engine,
            no_skin=args.no_skin,
            joint_names=tuple(read_names_file(args.joint_names)) if args.joint_names else None,
            force=args.force,
        )


@dataclass(frozen=True)
class ConvertJob:
    """One input of a batch and where its output goes; ``clash`` is set when another input
    of the batch already produces that output (this one then fails without being read)."""

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


def convert_file(src: str, out: str, options: ConvertOptions) -> Result:
    """Convert ``src`` to ``out`` in the direction ``src``'s bytes give; the report lines are
    the result's ``text``. Raises AnimspecError or OSError when it cannot."""
    if not options.make_folders or os.path.isdir(os.path.dirname(out) or "."):
        # (a batch output whose folder is still to be made cannot exist yet)
        check_output(out, force=options.force, inputs=[src])
    if _kind_of(src) == "gltf":
        return _from_gltf(src, out, options)
    fmt, model = load(src)
    if fmt.name == "animbin":
        return _animbin_to_gltf(src, out, options, model)
    if fmt.name == "animclip":
        return _animclip_to_gltf(src, out, options, model)
    raise AnimspecError(f"{src}: {fmt.description} has nothing to convert")


def _convert(args: argparse.Namespace) -> int:
    options = ConvertOptions.from_args(args)
    selection = collect(args.inputs, convertible, exclude=[args.output])
    if not selection.many and not os.path.isdir(args.output):
        if not args.jsonl:  # one file, as before: the report, errors raised to cli.main
            result = convert_file(args.inputs[0], args.output, options)
            print(result.text, file=report_stream(args.output))
            return result.status
        jobs = [ConvertJob(selection.sources[0].file, args.output)]
        return cli_batch.run(args, selection, ConvertTask(options, make_folders=False), _show, items=jobs)
    exists = os.path.exists(args.output)
    if (exists and not os.path.isdir(args.output)) or (
        not exists and os.path.splitext(args.output)[1].lower() in (".glb", ".gltf", ".animbin")
    ):
        raise AnimspecError(f"{args.output}: with several inputs, a folder or a glob, -o must be a folder")
    # The output folder (and each folder below it) is made when its first file is written,
    # so a batch whose files all fail creates nothing.
    jobs = plan(selection, args.output)
    return cli_batch.run(args, selection, ConvertTask(options), _show, items=jobs)


def plan(selection: Selection, out_dir: str) -> list[ConvertJob]:
    """Each source's output below ``out_dir``: its path below its folder or glob (its bare
    name when named explicitly) with .animbin (glTF in) or .glb (ANIMBIN, .animclip in)."""
    jobs: list[ConvertJob] = []
    first: dict[str, str] = {}
    for source in selection.sources:
        ext = ".animbin" if _kind_of(source.file) == "gltf" else ".glb"
        out = os.path.join(out_dir, source.relative.with_suffix(ext))
        key = os.path.normcase(os.path.abspath(out))
        clash = None
        if key in first:
            clash = f"{source.file}: its output {out} is already the output of {first[key]}; rename one of them"
        else:
            first[key] = source.file
        jobs.append(ConvertJob(source.file, out, clash))
    return jobs


def _show(result: Result, out: cli_batch.Output) -> None:
    if result.failed:
        out.err(f"animspec: error: {result.error['message']}")  # type: ignore[index]
    else:
        out.out(result.text)


def _from_gltf(src: str, out: str, o: ConvertOptions) -> Result:
    from ..animbin import read_bytes, write_bytes
    from ..gltf import convert

    result = convert(
        src,
        animations=list(o.animations) if o.animations else None,
        skin=o.skin,
        joint_names=list(o.joints) if o.joints else None,
        region=o.region,
        fit=o.fit,
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
        lines.append(cli_batch.finding_lines(path, findings))
        all_findings += findings
        if has_errors(findings):
            status = EXIT_FINDINGS
    return Result(src, "gltf", all_findings, text="\n".join(lines), extra={"outputs": outputs}, status=status)


def _skeleton(path: str, joints: tuple[str, ...] | None, armature_space: bool):
    """The --skeleton source, loaded once per process for a whole batch: a glTF rig
    (:class:`animspec.gltf.Rig`, joints in --joints order) or a MESHBIN skeleton."""
    return _load_skeleton(path, os.stat(path).st_mtime_ns, joints, armature_space)


@lru_cache(maxsize=4)
def _load_skeleton(path: str, _mtime: int, joints: tuple[str, ...] | None, armature_space: bool):
    if _kind_of(path) == "gltf":
        from ..gltf import read_rig

        return read_rig(path, joint_names=list(joints) if joints else None, armature_space=armature_space)
    from ..rigs import load_skeleton

    return load_skeleton(path)


def _write(path: str, data: bytes, o: ConvertOptions, src: str, verify) -> None:
    """animspec.common.output's policy (never over the input, an existing file only with --force),
    first creating the missing folders of a batch output."""
    if o.make_folders:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    write_output(path, data, force=o.force, inputs=[src], verify=verify)


def _readable_glb(out: str):
    """A write_output check: the GLB on disk must read back as a glTF document."""
    from ..gltf.document import parse_glb

    return lambda written: parse_glb(written, out)


def _animbin_to_gltf(src: str, out: str, o: ConvertOptions, model) -> Result:
    from ..gltf import Rig, to_gltf, to_gltf_on_rig

    source = _skeleton(o.skeleton, o.joints, o.armature_space) if o.skeleton else None
    warnings: list[str] = []
    if isinstance(source, Rig):
        glb = to_gltf_on_rig(
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
        glb = to_gltf(model, source, o.region, o.bake_engine, axis_change=not o.ps1_space, skinned=not o.no_skin)
        rig = o.skeleton or "a simple chain"
    _write(out, glb, o, src, verify=_readable_glb(out))
    what = "engine-faithful playback" if o.bake_engine else "keys as authored"
    text = "\n".join([f"{out}: {len(glb)} bytes, {len(model.animations)} animation(s), {what}, on {rig}"]
                     + [f"warning: {w}" for w in warnings])
    return Result(src, "animbin", text=text, extra={"outputs": [out]})


def _animclip_to_gltf(src: str, out: str, o: ConvertOptions, model) -> Result:
    from ..gltf import animclip_to_gltf

    if not o.skeleton:
        raise AnimspecError(f"{src}: an .animclip holds no hierarchy: give the rig with --skeleton RIG.glb")
    if os.path.isfile(o.skeleton) and _kind_of(o.skeleton) != "gltf":
        raise AnimspecError(
            f"{src}: --skeleton {o.skeleton} is not a glTF rig; an .animclip's joints are matched by "
            "node name, which only a glTF rig has (a MESHBIN's bones are unnamed)"
        )
    clip = model.clip(list(o.joint_names) if o.joint_names else None)
    joints = [j for j in clip.joints if j.hash is not None and j.rotation is not None]
    tracks = [(t.name or f"{t.hash:08X}", [float(v) for v in t.values]) for t in clip.custom_tracks]
    try:
        glb, match = animclip_to_gltf(joints, o.skeleton, custom_tracks=tracks, name=clip.name or "base_state")
    except AnimspecError as exc:
        raise AnimspecError(f"{src}: {exc}") from None
    _write(out, glb, o, src, verify=_readable_glb(out))
    lines = list(match.lines)
    lines.append(f"{out}: {len(glb)} bytes, base pose on {len(match.matched)} node(s)")
    if match.findings:
        lines.append(cli_batch.finding_lines(out, match.findings))
    return Result(src, "animclip", match.findings, text="\n".join(lines), extra={"outputs": [out]})
