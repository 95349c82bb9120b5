"""``animspec play``, ``compare`` and ``plot``: what the console shows, and how far that is
from what was authored. Argument handling only; the work is in animspec.animbin.poses,
.compare, .plot and animspec.animclip.frames.pose."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from ..common import jsonfmt
from ..common.errors import AnimspecError
from ..common.hashes import read_names_file
from ..common.output import check_output, write_output
from ..common.status import EXIT_OK
from ..formats import load
from .common import (
    FORCE_HELP,
    OUTPUT_HELP,
    deltas,
    positive,
    region,
    report_stream,
    stdout_json,
    vsync_step,
)


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
    play.add_argument(
        "file", metavar="FILE",
        help="an ANIMBIN, or an .animclip / .performanceclip (every frame, root motion and custom tracks)",
    )
    play.add_argument("--anim", metavar="NAME", help="ANIMBIN: animation to play (default: the first)")
    play.add_argument("--region", type=region,
                      help="ANIMBIN: ntsc (59.94 Hz, the default), pal (50 Hz) or a rate in Hz")
    play.add_argument("--mode", choices=("engine", "reference"),
                      help="ANIMBIN: engine (the default): the console's int16 quaternions, held keys and all; "
                           "reference: the clip as authored, interpolated")
    play.add_argument("--seconds", type=positive, metavar="S",
                      help="how long to play (default: one pass)")
    pacing = play.add_mutually_exclusive_group()
    pacing.add_argument("--step", type=vsync_step, metavar="N",
                        help="ANIMBIN: vsyncs per rendered frame: 1 full rate (the default), 2 a game at half rate")
    pacing.add_argument("--deltas", type=deltas, metavar="LIST",
                        help="ANIMBIN: explicit deltaTime per tick, e.g. 1,1,7,1")
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
    cmp.add_argument("--region", type=region, default="ntsc",
                     help="where the console runs it: ntsc (the default), pal or Hz")
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
    plot.add_argument("--region", type=region, default="ntsc",
                      help="ntsc (the default), pal or a rate in Hz: the vsyncs plotted")
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
    from ..animbin.poses import pose_stream

    if args.joint_names and not _is_gltf(args.skeleton):
        raise AnimspecError(
            "--joint-names gives a glTF --skeleton's joint order; "
            + (f"--skeleton {args.skeleton} is a MESHBIN" if args.skeleton else "there is no --skeleton")
            + ": leave --joint-names out"
        )
    animation = model.animation_or_first(args.anim)
    # (ANIMBIN: the defaults of the options left out; given or not, they all act here)
    args.mode, args.region, args.step = args.mode or "engine", args.region or "ntsc", args.step or 1
    if args.deltas is None:
        _check_seconds(args)
    stream = pose_stream(
        animation, mode=args.mode, region=args.region, seconds=args.seconds,
        step=args.step, deltas=args.deltas, skeleton=_skeleton(args),
    )
    if args.json:
        _check_json_size(args, stream)
        # Tick by tick as they are computed: a long run never sits whole in memory.
        stream.write_json(sys.stdout)
        sys.stdout.write("\n")
    else:
        print(stream.summary())
    return EXIT_OK


ANIMBIN_ONLY = {"anim": "--anim", "region": "--region", "mode": "--mode", "step": "--step", "deltas": "--deltas"}
"""play's options that act on ANIMBIN playback only: an .animclip is one clip played at its
own frame rate, so there is no animation to choose, no region, engine mode or vsync pacing."""


def _check_json_size(args: argparse.Namespace, stream: Any) -> None:
    """Refuse --json output of more than MAX_JSON_POSES poses, naming what fits."""
    from ..animbin.poses import MAX_JSON_POSES

    joints = max(stream.num_joints, 1)
    if stream.num_ticks * joints <= MAX_JSON_POSES:
        return
    fits = MAX_JSON_POSES // joints
    step = 1 if args.deltas is not None else args.step
    raise AnimspecError(
        f"{args.file}: --json would print {stream.num_ticks:,} ticks x {joints} joints, more than the "
        f"{MAX_JSON_POSES:,} poses it prints at most; pass --seconds S with S at most "
        f"{fits * step / stream.region_hz:.3f} ({fits:,} ticks), or leave out --json for the summary"
    )


def _check_seconds(args: argparse.Namespace) -> None:
    """Refuse a --seconds longer than the console's frame counter can tell apart, naming the
    largest value (what would be played past it is a repeat of what was)."""
    from ..animbin.playback import MAX_VSYNCS, max_seconds, refresh_hz

    if args.seconds is None:
        return
    hz = refresh_hz(args.region)
    ticks = args.seconds * hz  # inf when it overflows (--seconds 1e308): refused below
    if math.isfinite(ticks) and round(ticks) <= MAX_VSYNCS:
        return
    raise AnimspecError(
        f"--seconds {args.seconds:g} is longer than the console can play apart: the largest is "
        f"{max_seconds(hz):.3f} at {hz:.2f} Hz ({MAX_VSYNCS:,} vsyncs; the engine's frame counter is "
        "16-bit, so a longer run repeats what was shown)"
    )


def _play_animclip(args: argparse.Namespace, model: Any) -> int:
    from ..animclip.frames.inputs import BuildTooLarge
    from ..animclip.frames.pose import clip_frames, frames_report

    for dest, flag in ANIMBIN_ONLY.items():
        if getattr(args, dest) is not None:
            raise AnimspecError(
                f"{flag} acts on ANIMBIN playback; {args.file} is an .animclip (one clip, played at its own "
                f"frame rate for --seconds): leave {flag} out"
            )

    names = read_names_file(args.joint_names) if args.joint_names else None
    skeleton = None
    if args.skeleton:
        from ..rigs import load_skeleton

        skeleton = load_skeleton(args.skeleton)
    frames = clip_frames(model, args.file)
    if args.seconds is not None:  # how long to play: the frames up to that time
        frames.frame_sample = frames.frame_sample[:_animclip_frames(args, frames.frame_count, frames.fps)]
    try:
        report = frames_report(model, frames, skeleton, names)
    except BuildTooLarge as exc:
        fits = exc.frames_that_fit()
        shorter = (f"pass --seconds S with S below {fits / frames.fps:.6g} ({fits:,} frames) or " if fits else "")
        raise AnimspecError(f"{args.file}: --skeleton {args.skeleton}: {exc}; {shorter}leave out --skeleton") from None
    if args.json:
        # A chunk of frames at a time, as they are computed: a long clip never sits whole
        # in memory as text or JSON values.
        report.write_json(sys.stdout)
        sys.stdout.write("\n")
    else:
        print(report.summary())
    sys.stdout.flush()  # a reader gone away (`| head`) ends play here: 141, as ANIMBIN's
    return EXIT_OK


def _animclip_frames(args: argparse.Namespace, frame_count: int, fps: float) -> int:
    """The frames ``--seconds`` plays of an .animclip (frame f is at f / fps), or a refusal
    naming the largest value when it passes the clip's last frame (or overflows)."""
    position = args.seconds * fps  # inf when it overflows: refused below
    if position + 1e-9 < frame_count:
        return int(position + 1e-9) + 1
    raise AnimspecError(
        f"--seconds {args.seconds:g} is past the end of {args.file}: its {frame_count:,} frame(s) at {fps:g} fps "
        f"last {(frame_count - 1) / fps:.6g} s, the largest --seconds; leave --seconds out to play them all"
    )


def _compare(args: argparse.Namespace) -> int:
    from ..animbin.compare import compare

    _check_seconds(args)
    model = _animbin(args.file)
    animations = [model.animation_or_first(args.anim)] if args.anim else model.animations
    reports = [compare(a, region=args.region, authored=args.authored, seconds=args.seconds) for a in animations]
    if args.json:
        stdout_json(jsonfmt.dumps([r.to_json() for r in reports]))
    else:
        print("\n\n".join(r.text() for r in reports))
    return EXIT_OK


def _plot(args: argparse.Namespace) -> int:
    from ..animbin.plot import PlotTooLong, plot_png

    _check_seconds(args)
    check_output(args.output, force=args.force, inputs=[args.file])
    model = _animbin(args.file)
    try:
        png = plot_png(model.animation_or_first(args.anim), region=args.region, seconds=args.seconds)
    except PlotTooLong as exc:
        raise AnimspecError(f"{args.file}: {exc}; plot the start of it with --seconds S, "
                            "S at most that") from None
    write_output(args.output, png, force=args.force, inputs=[args.file])
    print(f"{args.output}: {len(png)} bytes", file=report_stream(args.output))
    return EXIT_OK
