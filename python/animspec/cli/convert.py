"""``animspec convert``: every direction of animspec.convert's registry (glTF <-> ANIMBIN, glTF <-> .animclip).

Argument parsing and printing only. The run is planned and each file converted by
animspec.convert (the direction follows the input's bytes; with several inputs, or a folder
or glob, ``-o`` is a folder), the files converted by animspec.gltf. Each option's argparse
``dest`` is the name of its animspec.convert.ConvertOptions field.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..batch import Result
from ..common.ranges import ANIMBIN_ERRORS, ANIMCLIP_ERRORS, ANIMCLIP_LOCAL_ERRORS
from . import batch as cli_batch

if TYPE_CHECKING:
    from ..convert import ConvertOptions
from .common import FORCE_HELP, OUTPUT_HELP, region, report_stream


def _in_range(option: str) -> Callable[[str], int | float]:
    """The argparse ``type=`` of a numeric option: its range as animspec.convert.option_ranges
    declares it (the library checks the same range; imported only when the option is given)."""

    def parse(text: str) -> int | float:
        from ..convert import option_ranges

        return option_ranges()[option].parse(text)

    return parse


ABOUT = {
    "gltf-animbin": "every animation of its skin becomes one ANIMBIN animation, keyed on every vsync of "
                    "--region as the engine needs.",
    "gltf-animclip": "one animation (--animation NAME) encoded within --max-error degrees and "
                     "--max-translation-error, joints by name hash, the other sections from --template.",
    "animbin-gltf": "a GLB with one animation per clip on --skeleton (MESHBIN or glTF rig; a chain without).",
    "animclip-gltf": "every frame applied by joint-name hash to --skeleton's nodes (a glTF rig), root motion on "
                     "a node above them; a camera clip becomes an animated glTF camera (no rig needed).",
}
"""What each direction of the convert registry does, in the command line's words (its help
lists every direction the registry has, in the registry's order: a test holds the keys equal)."""


def directions_line() -> str:
    """Every direction convert runs in, as the registry names them (the top-level help too)."""
    from ..convert import DIRECTIONS

    return ", ".join(d.title for d in DIRECTIONS)


def describe(parser: argparse.ArgumentParser) -> None:
    """convert's description: what each direction of the registry does (filled in when help is
    printed: cli.common.LateHelpParser)."""
    from ..convert import DIRECTIONS

    parser.description = (" ".join(f"{d.title}: {ABOUT[d.name]}" for d in DIRECTIONS)
                          + " The direction follows the input's bytes (and, for glTF, -o's extension).")


def add_commands(sub: argparse._SubParsersAction) -> None:
    c = sub.add_parser("convert", help="(the directions: animspec.convert's registry)")
    c.late_help = describe
    c.add_argument("inputs", nargs="+", metavar="IN",
                   help="files, folders (recursed: every glTF/GLB, ANIMBIN and .animclip in them) and globs")
    c.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="the output file; a folder with several inputs, a folder or a glob (" + OUTPUT_HELP + ")")
    c.add_argument("--force", action="store_true", help=FORCE_HELP + "; in a batch, each output file")
    c.add_argument("--region", type=region, help="ntsc (the default), pal or Hz: the vsync rate frames map to")
    g = c.add_argument_group("glTF -> ANIMBIN")
    g.add_argument(
        "--animation",
        dest="animations",
        action="append",
        metavar="NAME",
        help="convert only this glTF animation (repeatable)",
    )
    g.add_argument("--skin", type=_in_range("skin"), metavar="N", help="which skin (default 0)")
    g.add_argument(
        "--joints",
        metavar="FILE",
        help="joint id order: one node name per line (default: the skin's order); "
        "give the same file when converting back onto the rig",
    )
    g.add_argument(
        "--fit",
        choices=("bake", "cut", "reduce", "best"),
        help="bake (the default, unless the glTF carries an ANIMBIN layout in extras, which is then "
        "followed): a key every frame, refuse past 30 frames; cut: drop frames past 30; "
        "reduce: fewer keys within --max-error (the console will step); best: the "
        "30 keys (--max-keys) placed and valued for the smallest largest error on screen",
    )
    g.add_argument(
        "--max-error",
        type=_in_range("max_error"),
        metavar="ERR",
        help="--fit reduce: largest angle error on screen, degrees (default "
        f"{ANIMBIN_ERRORS.max_error:g}); an .animclip output: largest distance a reader sees any point "
        f"--shell from a joint moved, in object space, in the clip's units (metres; default "
        f"{ANIMCLIP_ERRORS.max_error:g} = {ANIMCLIP_ERRORS.max_error * 1000:g} mm)",
    )
    g.add_argument(
        "--max-keys", type=_in_range("max_keys"), metavar="N", help="keys per track allowed (1..30, default 30)"
    )
    g.add_argument(
        "--ps1-space",
        action="store_true",
        help="the glTF's world is already the console's model space: no root axis change (both ways)",
    )
    g.add_argument(
        "--armature-space",
        action="store_true",
        help="roots relative to the node above the skeleton (Blender's armature object), as the "
        "engine's exporter does: a moved or turned armature object is left out (both ways)",
    )
    g.add_argument(
        "--fp12",
        choices=("round", "trunc"),
        help="round to nearest (default) or truncate toward zero as the engine's exporter does",
    )
    g.add_argument(
        "--merge",
        metavar="NAME",
        help="one clip NAME from all the selected animations (they must drive different joints)",
    )
    g.add_argument("--translations", action="store_true", help="also write TRANSLATION keys (the engine ignores them)")
    g.add_argument(
        "--markers", metavar="FILE.json", help='markers per animation: {"walk": [{"name": "step", "frame": 3}]}'
    )
    g.add_argument(
        "--one-shot", action="store_true", help="clear the looping flag (the exporter sets it on every clip)"
    )
    g.add_argument(
        "--split", action="store_true", help="more than 5 animations: write OUT_0.animbin, OUT_1.animbin, ..."
    )
    t = c.add_argument_group("glTF -> .animclip (OUT ending in .animclip)")
    t.add_argument(
        "--template",
        metavar="CLIP",
        help="an .animclip whose other sections (custom tracks, triggers, motion...), Built "
        "fields and looping flag the new clip keeps, byte for byte",
    )
    t.add_argument("--fps", type=_in_range("fps"), metavar="HZ", help="frames per second to sample at (default 30)")
    t.add_argument(
        "--shell",
        type=_in_range("shell"),
        metavar="DIST",
        help="how far from each joint --max-error is measured, in the clip's units (default "
        f"{ANIMCLIP_ERRORS.shell:g}: 3 cm, as the Animation Compression Library measures)",
    )
    x = c.add_argument_group(
        "glTF -> .animclip, expert: each joint's own error instead of the object-space bound",
        "either option replaces --max-error and --shell: every joint gets the same local bound, "
        "whatever it carries (docs/animclip.md, \"How the encoder spends bits\")",
    )
    x.add_argument(
        "--local-rotation-error",
        type=_in_range("local_rotation_error"),
        metavar="DEG",
        help=f"largest angle each joint's own rotation is off (default {ANIMCLIP_LOCAL_ERRORS.max_error:g})",
    )
    x.add_argument(
        "--local-translation-error",
        type=_in_range("local_translation_error"),
        metavar="UNITS",
        help="largest distance each joint's own translation is off, in the clip's units, and the scale's "
        f"ratio error (default {ANIMCLIP_LOCAL_ERRORS.max_translation_error:g})",
    )
    a = c.add_argument_group("ANIMBIN / .animclip -> glTF")
    a.add_argument("--skeleton", metavar="FILE", help="MESHBIN or glTF rig (.animclip: a glTF rig, required)")
    a.add_argument("--bake-engine", action="store_true", help="write what the console shows (STEP keys per vsync)")
    a.add_argument("--no-skin", action="store_true", help="joints as plain nodes, no skin or bone mesh")
    a.add_argument("--joint-names", metavar="FILE", help=".animclip: joint names, one per line, to label the report")
    a.add_argument(
        "--no-root-motion",
        action="store_true",
        help=".animclip: leave the clip's root motion (Motion Data) out: the character stays in place; "
        "glTF -> .animclip: write no Motion Data from the node above the skeleton",
    )
    cli_batch.add_options(c)
    c.set_defaults(run=_convert)


def flag(option: str) -> str:
    """How the command line names a library option in a refusal: its flag (``max_error`` ->
    ``--max-error``), ``-o`` for the output (the words animspec.convert.plan is given)."""
    from ..convert import option_flag

    return "-o" if option == "output" else option_flag(option)


def options_given(args: argparse.Namespace) -> ConvertOptions:
    """The ConvertOptions of the options given on the command line, and only those: the
    library has the defaults, and records what was asked for, so that an option that would do
    nothing on the run's inputs is refused (animspec.convert.check_options)."""
    from .. import convert
    from ..common.ranges import OptionRangeError

    try:
        return convert.load_options(
            **{
                name: value
                for name in convert.OPTION_NAMES
                if (value := getattr(args, name)) is not None and value is not False
            }
        )
    except OptionRangeError as exc:  # (argparse checks the ranges first; this is the library's word)
        raise exc.reword(flag) from None


def _convert(args: argparse.Namespace) -> int:
    from .. import convert  # here, not at the top: the other commands' start-up does not pay for it

    options = options_given(args)
    work = convert.plan(args.inputs, args.output, options, words=flag)
    if work.single and not args.jsonl:  # one file: its report, its errors raised to cli.main
        result = work.task(work.jobs[0])
        print(result.text, file=report_stream(args.output))
        return result.status
    return cli_batch.run(args, work.selection, work.task, _show, items=work.jobs)


def _show(result: Result, out: cli_batch.Output) -> None:
    if result.failed:
        out.err(f"animspec: error: {result.error['message']}")  # type: ignore[index]
    else:
        out.out(result.text)
