"""``animspec convert``: glTF -> ANIMBIN, ANIMBIN -> glTF, .animclip base pose -> glTF.

The direction follows the input's bytes (a GLB's "glTF" magic or a .gltf JSON file, an
ANIMBIN, an .animclip). Argument handling only; the work is in animspec.gltf.
"""

from __future__ import annotations

import argparse
import os

from .atomic import write_atomic
from .cli_common import EXIT_FINDINGS, EXIT_OK, print_findings, refuse_overwrite, region
from .errors import AnimspecError, WriteError
from .findings import has_errors
from .formats import load
from .hashes import read_names_file


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
    c.add_argument("input", metavar="IN")
    c.add_argument("-o", "--output", required=True, metavar="OUT")
    c.add_argument("--region", type=region, default="ntsc", help="ntsc, pal or Hz: the vsync rate frames map to")
    g = c.add_argument_group("glTF -> ANIMBIN")
    g.add_argument("--animation", action="append", metavar="NAME", help="convert only this glTF animation (repeatable)")
    g.add_argument("--skin", type=int, default=0, metavar="N", help="which skin (default 0)")
    g.add_argument("--joints", metavar="FILE", help="joint id order: one node name per line (default: the skin's order)")
    g.add_argument("--fit", choices=("bake", "cut", "reduce"), default="bake",
                   help="bake: a key every frame, refuse past 30 frames; cut: drop frames past 30; "
                        "reduce: fewer keys within --max-error (the console will step)")
    g.add_argument("--max-error", type=float, default=1.0, metavar="DEG", help="reduce: largest angle error allowed")
    g.add_argument("--ps1-space", action="store_true", help="the rig is already in PS1 axes: no root axis change")
    g.add_argument("--translations", action="store_true", help="also write TRANSLATION keys (the engine ignores them)")
    g.add_argument("--markers", metavar="FILE.json", help='markers per animation: {"walk": [{"name": "step", "frame": 3}]}')
    g.add_argument("--one-shot", action="store_true", help="clear the looping flag (the exporter sets it on every clip)")
    g.add_argument("--split", action="store_true", help="more than 5 animations: write OUT_0.animbin, OUT_1.animbin, ...")
    a = c.add_argument_group("ANIMBIN / .animclip -> glTF")
    a.add_argument("--skeleton", metavar="FILE", help="MESHBIN or glTF rig (.animclip: a glTF rig, required)")
    a.add_argument("--bake-engine", action="store_true", help="write what the console shows (STEP keys per vsync)")
    a.add_argument("--no-skin", action="store_true", help="joints as plain nodes, no skin or bone mesh")
    a.add_argument("--joint-names", metavar="FILE", help=".animclip: joint names, one per line, to label the report")
    c.set_defaults(run=_convert)


def _convert(args: argparse.Namespace) -> int:
    refuse_overwrite(args.output, args.input)
    with open(args.input, "rb") as f:
        head = f.read(4)
    if head == b"glTF" or args.input.lower().endswith(".gltf"):
        return _from_gltf(args)
    fmt, model = load(args.input)
    if fmt.name == "animbin":
        return _animbin_to_gltf(args, model)
    if fmt.name == "animclip":
        return _animclip_to_gltf(args, model)
    raise AnimspecError(f"{args.input}: {fmt.description} has nothing to convert")


def _from_gltf(args: argparse.Namespace) -> int:
    from .animbin import read_bytes, write_bytes
    from .gltf import convert, read_markers_file

    result = convert(
        args.input,
        animations=args.animation,
        skin=args.skin,
        joint_names=read_names_file(args.joints) if args.joints else None,
        region=args.region,
        fit=args.fit,
        max_error_deg=args.max_error,
        ps1_space=args.ps1_space,
        translations=args.translations,
        markers=read_markers_file(args.markers) if args.markers else None,
        looping=not args.one_shot,
        split=args.split,
    )
    print(result.report())
    stem, ext = os.path.splitext(args.output)
    outputs = [args.output] if len(result.files) == 1 else [f"{stem}_{i}{ext or '.animbin'}" for i in range(len(result.files))]
    status = EXIT_OK
    for path, model, findings in zip(outputs, result.files, result.findings):
        data = write_bytes(model)

        def same_model(written: bytes, model=model, path=path) -> None:
            if read_bytes(written, path) != model:
                raise WriteError(path, "the written file does not read back as converted")

        write_atomic(path, data, verify=same_model)
        print(f"{path}: {len(data)} bytes, {len(model.animations)} animation(s)")
        print_findings(path, findings)
        if has_errors(findings):
            status = EXIT_FINDINGS
    return status


def _animbin_to_gltf(args: argparse.Namespace, model) -> int:
    from .gltf import to_gltf

    skeleton, space = None, "ps1"
    if args.skeleton:
        from .rigs import load_skeleton

        skeleton = load_skeleton(args.skeleton)
        with open(args.skeleton, "rb") as f:
            space = "gltf" if f.read(4) == b"glTF" or args.skeleton.lower().endswith(".gltf") else "ps1"
    glb = to_gltf(model, skeleton, args.region, args.bake_engine, skeleton_space=space, skinned=not args.no_skin)
    write_atomic(args.output, glb)
    what = "engine-faithful playback" if args.bake_engine else "keys as authored"
    rig = args.skeleton or "a simple chain"
    print(f"{args.output}: {len(glb)} bytes, {len(model.animations)} animation(s), {what}, on {rig}")
    return EXIT_OK


def _animclip_to_gltf(args: argparse.Namespace, model) -> int:
    from .gltf import animclip_to_gltf

    if not args.skeleton:
        raise AnimspecError("an .animclip holds no hierarchy: give the rig with --skeleton RIG.glb")
    names = read_names_file(args.joint_names) if args.joint_names else None
    clip = model.clip(names)
    joints = [j for j in clip.joints if j.hash is not None and j.rotation is not None]
    tracks = [(t.name or f"{t.hash:08X}", [float(v) for v in t.values]) for t in clip.custom_tracks]
    glb, match = animclip_to_gltf(joints, args.skeleton, custom_tracks=tracks, name=clip.name or "base_state")
    write_atomic(args.output, glb)
    for line in match.lines:
        print(line)
    print(f"{args.output}: {len(glb)} bytes, base pose on {len(match.matched)} node(s)")
    return EXIT_OK
