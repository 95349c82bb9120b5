"""``animspec play``, ``compare`` and ``plot``: what the console shows, and how far that is
from what was authored. Argument handling only; the work is in animspec.animbin.poses,
.compare, .plot and animspec.animclip.pose."""

from __future__ import annotations

import argparse
from typing import Any

from ..common import jsonfmt
from ..common.status import EXIT_OK
from .common import (
    FORCE_HELP, OUTPUT_HELP, deltas, positive, region, report_stream, stdout_json, vsync_step,
)
from ..common.errors import AnimspecError
from ..formats import load
from ..common.hashes import read_names_file
from ..common.output import check_output, write_output


def add_commands(sub: argparse._SubParsersAction) -> None:
    play = sub.add_parser(
        "play",
        help="per-tick poses: what the console computes (engine) or what was authored (reference)",
        description=(
            "ANIMBIN: play an animation tick by tick. .animclip: every frame's local transforms "
            "per joint (base state plus the decoded samples), root motion and custom tracks; "
            "world positions on --skeleton."
        ),
    )
    play.add_argument("file", metavar="FILE", help="an ANIMBIN, or an .animclip (its base pose and custom tracks)")
    play.add_argument("--anim", metavar="NAME", help="ANIMBIN: animation to play (default: the first)")
    play.add_argument("--region", type=region, help="ANIMBIN: ntsc (59.94 Hz, the default), pal (50 Hz) or a rate in Hz")
    play.add_argument("--mode", choices=("engine", "reference"),
                      help="ANIMBIN: engine (the default): the console's int16 quaternions, held keys and all; "
                           "reference: the clip as authored, interpolated")
    play.add_argument("--seconds", type=positive, metavar="S",
                      help="how long to play (default: one pass)")
    pacing = play.add_mutually_exclusive_group()
    pacing.add_argument("--step", type=vsync_step, metavar="N",
                        help="ANIMBIN: vsyncs per rendered frame: 1 full rate (the default), 2 a game at half rate")
    pacing.add_argument("--deltas", type=deltas, metavar="LIST", help="ANIMBIN: explicit deltaTime per tick, e.g. 1,1,7,1")
    play.add_argument("--skeleton", metavar="FILE", help="MESHBIN or glTF rig: adds world positions")
    play.add_argument("--joint-names", metavar="FILE",
                      help="ANIMBIN with a glTF --skeleton: its joint order; .animclip: joint names, one per line")
    play.add_argument("--json", action="store_true", help="every tick as JSON instead of a summary")
    play.set_defaults(run=_play)

    cmp = sub.add_parser(
        "compare",
        help="per joint, how far the console's playback is from the authored clip, and why",
    )
    cmp.add_argument("file", metavar="FILE", help="an ANIMBIN")
    cmp.add_argument("--anim", metavar="NAME", help="animation to compare (default: all)")
    cmp.add_argument("--region", type=region, default="ntsc", help="where the console runs it: ntsc (the default), pal or Hz")
    cmp.add_argument("--authored", type=region, metavar="REGION",
                     help="the refresh rate the clip was made for (default: the same as --region)")
    cmp.add_argument("--seconds", type=positive, metavar="S", help="how long to compare (default: one pass)")
    cmp.add_argument("--json", action="store_true", help="the comparison as JSON, per animation and joint")
    cmp.set_defaults(run=_compare)

    plot = sub.add_parser("plot", help="quaternion curves per joint, console and authored overlaid (PNG)")
    plot.add_argument("file", metavar="FILE", help="an ANIMBIN")
    plot.add_argument("--anim", metavar="NAME", help="animation to plot (default: the first)")
    plot.add_argument("-o", "--output", required=True, metavar="OUT.png", help=OUTPUT_HELP)
    plot.add_argument("--force", action="store_true", help=FORCE_HELP)
    plot.add_argument("--region", type=region, default="ntsc", help="ntsc (the default), pal or a rate in Hz: the vsyncs plotted")
    plot.add_argument("--seconds", type=positive, metavar="S", help="how long to plot (default: one pass)")
    plot.set_defaults(run=_plot)


def _is_gltf(path: str | None) -> bool:
    from ..common.inputs import read_head
    from ..formats import HEAD_SIZE, sniff

    head = read_head(path, HEAD_SIZE) if path else None
    return head is not None and sniff(head, ("gltf",)) is not None


def _animbin(path: str) -> Any:
    fmt, model = load(path)
    if fmt.name != "animbin":
        raise AnimspecError(f"{path}: this command plays ANIMBIN animations; this is {fmt.description}")
    return model


def _skeleton(args: argparse.Namespace) -> Any:
    if not args.skeleton:
        return None
    from ..rigs import load_skeleton

    names = read_names_file(args.joint_names) if args.joint_names else None
    return load_skeleton(args.skeleton, joint_names=names)


def _play(args: argparse.Namespace) -> int:
    fmt, model = load(args.file)
    if fmt.name == "animclip":
        return _play_animclip(args, model)
    if fmt.name != "animbin":
        raise AnimspecError(f"{args.file}: nothing to play in {fmt.description}")
    from ..animbin.poses import poses

    if args.joint_names and not _is_gltf(args.skeleton):
        raise AnimspecError(
            "--joint-names gives a glTF --skeleton's joint order; "
            + (f"--skeleton {args.skeleton} is a MESHBIN" if args.skeleton else "there is no --skeleton")
            + ": leave --joint-names out"
        )
    animation = model.animation_or_first(args.anim)
    result = poses(
        animation, mode=args.mode or "engine", region=args.region or "ntsc", seconds=args.seconds,
        step=args.step or 1, deltas=args.deltas, skeleton=_skeleton(args),
    )
    if args.json:
        stdout_json(jsonfmt.dumps(result.to_json()))
    else:
        print(result.summary())
    return EXIT_OK


ANIMBIN_ONLY = {"anim": "--anim", "region": "--region", "mode": "--mode", "step": "--step", "deltas": "--deltas"}
"""play's options that act on ANIMBIN playback only: an .animclip is one clip whose frame
data nobody decodes, so there is no animation to choose, no region, mode or pacing."""


def _play_animclip(args: argparse.Namespace, model: Any) -> int:
    from ..animclip.pose import clip_frames, frames_report

    for dest, flag in ANIMBIN_ONLY.items():
        if getattr(args, dest) is not None:
            raise AnimspecError(
                f"{flag} acts on ANIMBIN playback; {args.file} is an .animclip (one clip; its base pose and custom "
                f"tracks are sampled at --seconds): leave {flag} out"
            )

    names = read_names_file(args.joint_names) if args.joint_names else None
    skeleton = None
    if args.skeleton:
        from ..rigs import load_skeleton

        skeleton = load_skeleton(args.skeleton)
    frames = clip_frames(model, args.file)
    if args.seconds is not None:  # how long to play: the frames up to that time
        frames.frame_sample = frames.frame_sample[: int(args.seconds * frames.fps + 1e-9) + 1]
    report = frames_report(model, frames, skeleton, names)
    if args.json:
        stdout_json(jsonfmt.dumps(report.to_json()))
    else:
        print(report.summary())
    return EXIT_OK


def _compare(args: argparse.Namespace) -> int:
    from ..animbin.compare import compare

    model = _animbin(args.file)
    animations = [model.animation_or_first(args.anim)] if args.anim else model.animations
    reports = [compare(a, region=args.region, authored=args.authored, seconds=args.seconds) for a in animations]
    if args.json:
        stdout_json(jsonfmt.dumps([r.to_json() for r in reports]))
    else:
        print("\n\n".join(r.text() for r in reports))
    return EXIT_OK


def _plot(args: argparse.Namespace) -> int:
    from ..animbin.plot import plot_png

    check_output(args.output, force=args.force, inputs=[args.file])
    model = _animbin(args.file)
    png = plot_png(model.animation_or_first(args.anim), region=args.region, seconds=args.seconds)
    write_output(args.output, png, force=args.force, inputs=[args.file])
    print(f"{args.output}: {len(png)} bytes", file=report_stream(args.output))
    return EXIT_OK
