"""The ``animspec`` command: argument parsing and printing only.

Every command calls library functions that are just as usable from Python; nothing here
knows a byte layout or a validation rule.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..batch import InfoTask, Result, ValidateTask, collect, is_known_or_gltf
from ..common import jsonfmt
from ..common.errors import AnimspecError
from ..common.findings import findings_text
from ..common.hashes import crc32, read_names_file
from ..common.output import ReadFile
from ..common.status import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNREADABLE
from ..dumps import NotADump, dump_file, dump_text, pack_file
from ..formats import FORMATS, FormatOptions, format_named
from . import batch as cli_batch, convert as cli_convert, playback as cli_playback, streams
from .common import FORCE_HELP, OUTPUT_HELP, LateHelpParser, bone_count, report_stream


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status. Whatever happens, one line on stderr at most, never
    a traceback: errors (2), Ctrl-C ("interrupted", 130), a closed standard output (2), a
    reader that went away (animspec.cli.streams: 141, or the command's own status when its
    product is a verdict or files)."""
    saved = sys.stdout, sys.stderr
    try:
        args, unknown = _parser().parse_known_args(argv)
        if unknown:  # the command's own usage, not the top level's (`animspec info x --josn`)
            args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
        streams.guard(stop_on_broken_pipe=_prints_its_product(args))
        return args.run(args)
    except KeyboardInterrupt:
        # Ctrl-C: a write under way removed its temporary file (animspec.common.atomic);
        # the workers of a batch were stopped, none left running (animspec.batch.run_batch).
        if argv is None:  # the command itself: the process ends; another Ctrl-C is no traceback
            _ignore_sigint()
        _say("animspec: interrupted")
        return EXIT_INTERRUPTED
    except AnimspecError as exc:
        _say(f"animspec: error: {exc}")
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_BROKEN_PIPE  # silently: the reader had what it wanted (`| head`)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"animspec: error: {where}{exc.strerror or exc}")
        return EXIT_UNREADABLE
    finally:
        sys.stdout, sys.stderr = saved


def _ignore_sigint() -> None:
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        pass  # not the main thread: its handler is not ours to set


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass  # stderr gone too: the exit status says it


def _prints_its_product(args: argparse.Namespace) -> bool:
    """True when what the command prints is what it makes (info, dump to stdout, play,
    compare, hash): a reader that goes away ends it. validate's product is its verdict and
    convert's, pack's, plot's and ``dump -o``'s their files: they go on (streams)."""
    if args.command in ("validate", "convert", "pack", "plot"):
        return False
    if args.command == "dump":
        return not args.output or args.output == "-"
    return True


def _parser() -> argparse.ArgumentParser:
    p = LateHelpParser(
        prog="animspec",
        description=(
            "Read, check, dump, rebuild, play and convert ANIMBIN and MESHBIN files (PS1 psyqo "
            "madnight engine) and Insomniac .animclip/.performanceclip files."
        ),
    )
    p.late_help = _directions_in_help
    p.add_argument("--version", action="version", version=f"animspec {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    info = sub.add_parser("info", help="readable summary of files (folders and globs: every file of a known format)",
                          description="A readable summary of each file: ANIMBIN, MESHBIN, .animclip, and glTF (its "
                                      "skins and joints, its animations, what a --joints file for convert would hold).")
    info.add_argument("files", nargs="+", metavar="PATH", help=cli_batch.PATHS_HELP)
    _joint_names_option(info)
    cli_batch.add_options(info)
    info.set_defaults(run=_info)

    val = sub.add_parser(
        "validate",
        help="report what the engine will do wrong (exit 0: no errors, 1: errors, 2: unreadable)",
    )
    val.add_argument("files", nargs="+", metavar="PATH", help=cli_batch.PATHS_HELP)
    val.add_argument("--json", action="store_true", help="print findings as one JSON list at the end (see --jsonl)")
    val.add_argument("--bones", dest="bone_count", type=bone_count, metavar="N",
                     help="the skeleton's bone count (joint ids must be below it)")
    _joint_names_option(val)
    cli_batch.add_options(val)
    val.set_defaults(run=_validate)

    dump = sub.add_parser("dump", help="everything in a file as JSON (raw integer values)")
    dump.add_argument("file", metavar="FILE",
                      help="an ANIMBIN, MESHBIN, .animclip or glTF file (pack takes back all but glTF)")
    dump.add_argument("-o", "--output", metavar="OUT",
                      help="write to OUT instead of standard output (" + OUTPUT_HELP + ")")
    dump.add_argument("--force", action="store_true", help=FORCE_HELP)
    _joint_names_option(dump)
    dump.set_defaults(run=_dump)

    pack = sub.add_parser("pack", help="rebuild a binary file from a JSON dump")
    pack.add_argument("dump", metavar="IN.json", help="a JSON dump (animspec dump), edited or not")
    pack.add_argument("-o", "--output", required=True, metavar="OUT", help=OUTPUT_HELP)
    pack.add_argument("--force", "--in-place", dest="force", action="store_true",
                      help="replace OUT if it exists, e.g. the file the dump came from (atomically, once the new file "
                           "reads back as the dump)")
    pack.set_defaults(run=_pack)

    hsh = sub.add_parser("hash", help="DAT1 CRC32 of names (joint, clip, track and section names; case-sensitive)")
    hsh.add_argument("names", nargs="*", metavar="NAME", help="names to hash, as they are (case-sensitive)")
    hsh.add_argument("--names-file", metavar="FILE", help="also hash every line of FILE (one name per line)")
    hsh.set_defaults(run=_hash)

    cli_playback.add_commands(sub)
    cli_convert.add_commands(sub)
    for command in sub.choices.values():
        command.set_defaults(parser=command)  # main() reports an unknown option with its usage
    return p


def _directions_in_help(p: argparse.ArgumentParser) -> None:
    """Every direction convert runs in, from its registry, in the top-level help: the
    description's last sentence and convert's line in the list of commands."""
    line = cli_convert.directions_line()
    p.description = f"{p.description} convert runs {line}."
    commands = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    for choice in commands._choices_actions:
        if choice.dest == "convert":
            choice.help = line


def _joint_names_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--joint-names", metavar="FILE",
        help="label joints by hash with the names in FILE, one per line (.animclip; other formats ignore it)",
    )


OPTION_FLAGS = {"bone_count": "--bones", "joint_names": "--joint-names"}
"""FormatOptions member -> the option that sets it."""


def refuse_unused_options(args: argparse.Namespace, files: list[str], operation: str) -> None:
    """Refuse a FormatOptions option the user gave when no format among ``files`` uses it
    for ``operation`` (``validate --bones`` on .animclip files only): it would do nothing."""
    from ..common.inputs import read_head
    from ..formats import HEAD_SIZE, declaration, registered, sniff

    given = [name for name in OPTION_FLAGS if getattr(args, name, None) is not None]
    if not given:
        return
    every = [f.name for f in registered()]  # glTF too: it uses none of them
    formats = {f for f in (sniff(h, every) for h in (read_head(p, HEAD_SIZE) for p in files) if h is not None) if f}
    for name in given:
        users = [f for f in formats if name in getattr(getattr(declaration(f), operation, None), "uses", ())]
        if formats and not users:
            from ..formats import FORMATS

            wanted = [f.description for f in FORMATS if name in getattr(getattr(declaration(f), operation), "uses", ())]
            raise AnimspecError(
                f"{OPTION_FLAGS[name]}: {args.command} uses it on {' and '.join(wanted)} only, and none of the inputs "
                f"is one: leave {OPTION_FLAGS[name]} out"
            )


def _info(args: argparse.Namespace) -> int:
    selection = collect(args.files, is_known_or_gltf)
    refuse_unused_options(args, [s.file for s in selection.sources], "info")
    task = InfoTask(_format_options(args))

    def show(result: Result, out: cli_batch.Output) -> None:
        if result.error is not None:
            out.err(f"animspec: error: {result.error['message']}")
        else:
            out.out(f"{result.file}:\n{result.text}")

    return cli_batch.run(args, selection, task, show)


def _validate(args: argparse.Namespace) -> int:
    if args.json and args.jsonl:
        raise AnimspecError("--json (one list at the end) and --jsonl (a line per file) exclude each other")
    selection = collect(args.files)
    refuse_unused_options(args, [s.file for s in selection.sources], "validate")
    task = ValidateTask(_format_options(args))

    def show(result: Result, out: cli_batch.Output) -> None:
        if result.error is not None:
            out.err(f"animspec: error: {result.error['message']}")
        else:
            out.out(findings_text(result.file, result.findings))

    reports: list[dict[str, Any]] | None = [] if args.json else None
    status = cli_batch.run(args, selection, task, show, collect=reports, machine=args.json)
    if reports is not None:
        print(jsonfmt.dumps(reports))
    return status


def _format_options(args: argparse.Namespace) -> FormatOptions:
    """The options every format's operations take, from those of the command given
    (--joint-names read once for the whole batch); each argparse ``dest`` is the field's name."""
    names = getattr(args, "joint_names", None)
    return FormatOptions(
        bone_count=getattr(args, "bone_count", None),
        joint_names=tuple(read_names_file(names)) if names else None,
    )


def _dump(args: argparse.Namespace) -> int:
    refuse_unused_options(args, [args.file], "to_json")
    if args.output:
        side = [ReadFile(args.joint_names, "--joint-names")] if args.joint_names else []
        text = dump_file(args.file, args.output, _format_options(args), force=args.force, side_files=side)
        print(f"{args.output}: {len(text.encode('utf-8'))} bytes (JSON dump of {args.file})",
              file=report_stream(args.output))
    else:
        sys.stdout.write(dump_text(args.file, _format_options(args)))
    return EXIT_OK


def _pack(args: argparse.Namespace) -> int:
    try:
        packed = pack_file(args.dump, args.output, force=args.force)
    except NotADump as exc:
        if exc.found not in {f.name for f in FORMATS}:
            raise  # (a glTF: nothing animspec packs)
        stem = os.path.splitext(os.path.basename(args.dump))[0]
        raise AnimspecError(
            f"{args.dump} is a binary {format_named(exc.found).description} file, not a JSON dump: pack rebuilds a "
            f"file from its dump; run `animspec dump {args.dump} -o {stem}.json`, edit that, then pack it"
        ) from None
    stream = report_stream(args.output)
    print(f"{args.output}: {len(packed.data)} bytes ({packed.format.description})", file=stream)
    if packed.reencoded is not None:
        from ..gltf.to_animclip import error_text  # (only here: pack of other formats needs no glTF code)

        print(f"{args.output}: the edited joints moved every frame, encoded again; largest error: "
              f"{error_text(packed.reencoded.error, ())}", file=stream)
    return EXIT_OK


def _hash(args: argparse.Namespace) -> int:
    names = list(args.names)
    if args.names_file:
        names += read_names_file(args.names_file)
    if not names:
        raise AnimspecError("give at least one NAME or --names-file")
    for name in names:
        print(f"{crc32(name):08X}  {name}")
    return EXIT_OK
