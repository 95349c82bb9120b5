"""The ``animspec`` command: argument parsing and printing only.

Every command calls library functions that are just as usable from Python; nothing here
knows a byte layout or a validation rule.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
from typing import Any, Sequence

from . import __version__, cli_convert, cli_playback, jsonfmt
from .atomic import write_atomic
from .cli_common import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE, print_findings, refuse_overwrite
from .errors import AnimspecError, JsonInputError, ParseError, WriteError
from .findings import has_errors
from .formats import format_of_dump, load
from .hashes import crc32, read_names_file

def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except AnimspecError as exc:
        print(f"animspec: error: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except BrokenPipeError:
        # The reader went away (`animspec dump f | head`): not an error. Point stdout at
        # devnull so the interpreter's final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:
        print(f"animspec: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="animspec",
        description=(
            "Read, check, dump, rebuild, play and convert ANIMBIN and MESHBIN files (PS1 psyqo "
            "madnight engine) and Insomniac .animclip/.performanceclip files."
        ),
    )
    p.add_argument("--version", action="version", version=f"animspec {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    info = sub.add_parser("info", help="readable summary of a file")
    info.add_argument("file")
    _joint_names_option(info)
    info.set_defaults(run=_info)

    val = sub.add_parser(
        "validate",
        help="report what the engine will do wrong (exit 0: no errors, 1: errors, 2: unreadable)",
    )
    val.add_argument("files", nargs="+", metavar="FILE")
    val.add_argument("--json", action="store_true", help="print findings as JSON")
    val.add_argument("--bones", type=int, metavar="N", help="the skeleton's bone count (joint ids must be below it)")
    _joint_names_option(val)
    val.set_defaults(run=_validate)

    dump = sub.add_parser("dump", help="everything in a file as JSON (raw integer values)")
    dump.add_argument("file")
    dump.add_argument("--json", action="store_true", help="JSON output (the default and only form)")
    dump.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of standard output")
    _joint_names_option(dump)
    dump.set_defaults(run=_dump)

    pack = sub.add_parser("pack", help="rebuild a binary file from a JSON dump")
    pack.add_argument("dump", metavar="IN.json")
    pack.add_argument("-o", "--output", required=True, metavar="OUT")
    pack.set_defaults(run=_pack)

    hsh = sub.add_parser("hash", help="DAT1 CRC32 of names (joint, clip, track and section names; case-sensitive)")
    hsh.add_argument("names", nargs="*", metavar="NAME")
    hsh.add_argument("--names-file", metavar="FILE", help="also hash every line of FILE (one name per line)")
    hsh.set_defaults(run=_hash)

    cli_playback.add_commands(sub)
    cli_convert.add_commands(sub)
    return p


def _joint_names_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--joint-names", metavar="FILE",
        help="label joints by hash with the names in FILE, one per line (.animclip; other formats ignore it)",
    )


def _options(fn: Any, args: argparse.Namespace, **extra: Any) -> dict[str, Any]:
    """The optional keyword arguments the user gave that ``fn`` (one format's function) takes:
    --joint-names means nothing to an ANIMBIN file, --bones nothing to an .animclip."""
    given = dict(extra)
    if getattr(args, "joint_names", None):
        given["joint_names"] = read_names_file(args.joint_names)
    accepted = inspect.signature(fn).parameters
    return {k: v for k, v in given.items() if v is not None and k in accepted}


def _info(args: argparse.Namespace) -> int:
    fmt, model = load(args.file)
    print(f"{args.file}:")
    print(fmt.summary(model, **_options(fmt.summary, args)))
    return EXIT_OK


def _validate(args: argparse.Namespace) -> int:
    reports: list[dict[str, Any]] = []
    status = EXIT_OK
    for path in args.files:
        try:
            fmt, model = load(path)
        except (ParseError, OSError) as exc:
            status = EXIT_UNREADABLE
            reports.append({"file": path, "findings": [], "error": _error_json(exc)})
            if not args.json:
                print(f"animspec: error: {exc}", file=sys.stderr)
            continue
        findings = fmt.validate(model, **_options(fmt.validate, args, bone_count=args.bones))
        if has_errors(findings) and status == EXIT_OK:
            status = EXIT_FINDINGS
        reports.append({"file": path, "findings": [f.to_json() for f in findings]})
        if not args.json:
            print_findings(path, findings)
    if args.json:
        print(jsonfmt.dumps(reports))
    return status


def _error_json(exc: Exception) -> dict[str, Any]:
    if isinstance(exc, ParseError):
        return {"message": str(exc), "offset": exc.offset, "field": exc.field}
    return {"message": str(exc)}


def _dump(args: argparse.Namespace) -> int:
    fmt, model = load(args.file)
    text = jsonfmt.dumps(fmt.to_json(model, **_options(fmt.to_json, args))) + "\n"
    if args.output:
        refuse_overwrite(args.output, args.file)
        write_atomic(args.output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _pack(args: argparse.Namespace) -> int:
    refuse_overwrite(args.output, args.dump)
    with open(args.dump, "rb") as f:
        raw = f.read()
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise JsonInputError(args.dump, "$", f"not valid JSON: {exc}") from None
    fmt = format_of_dump(doc, args.dump)
    model = fmt.from_json(doc, args.dump)
    data = fmt.write(model)

    def same_model(written: bytes) -> None:
        if fmt.read(written, args.output) != model:
            raise WriteError("file", "the written file does not read back as the dump describes")

    write_atomic(args.output, data, verify=same_model)
    print(f"{args.output}: {len(data)} bytes ({fmt.description})")
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
