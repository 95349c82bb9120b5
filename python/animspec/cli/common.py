"""Pieces every ``animspec`` command shares: argument types, help texts, where to print.
(The exit codes are in animspec.common.status.)"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from typing import TextIO

from ..common.output import descriptor


class LateHelpParser(argparse.ArgumentParser):
    """An ArgumentParser whose help texts that need a library import (convert's directions,
    from animspec.convert's registry) are written only when help is printed: the other runs of
    the command, ``validate one.animbin`` in a PS1 build, do not pay for that import.
    ``late_help`` fills them in, once, before the first help is formatted."""

    late_help: Callable[[argparse.ArgumentParser], None] | None = None

    def format_help(self) -> str:
        fill, self.late_help = self.late_help, None
        if fill is not None:
            fill(self)
        return super().format_help()


def region(text: str) -> str | float:
    """--region: "ntsc", "pal" or a refresh rate in Hz."""
    lowered = text.lower()
    if lowered in ("ntsc", "pal"):
        return lowered
    try:
        hz = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ntsc, pal or a rate in Hz, not {text!r}") from None
    if not 1.0 <= hz <= 1000.0:
        raise argparse.ArgumentTypeError(f"{hz} Hz is not a display refresh rate")
    return hz


def deltas(text: str) -> list[int]:
    """--deltas 1,1,7,1: explicit deltaTime values."""
    try:
        values = [int(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, not {text!r}") from None
    if not values or any(not 0 <= v <= 0xFFFF for v in values):
        raise argparse.ArgumentTypeError("each deltaTime must be 0..65535, and at least one is needed")
    return values


def positive(text: str) -> float:
    """A finite number above 0 (--seconds): "nan" and "inf" are refused too."""
    value = float(text)
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text}")
    return value


def _whole(text: str, low: int, high: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{what} is {low} to {high}, not {value}")
    return value


def bone_count(text: str) -> int:
    """--bones: a skeleton's bone count, 1..256 (joint ids are bytes)."""
    return _whole(text, 1, 256, "a skeleton's bone count (joint ids are bytes)")


def vsync_step(text: str) -> int:
    """--step: vsyncs per rendered frame, 1..65535 (a deltaTime is a u16)."""
    return _whole(text, 1, 0xFFFF, "the vsyncs per rendered frame")


OUTPUT_HELP = (
    "a new file; an existing one only with --force (never the input); - for standard output; "
    "a device or FIFO is written into; a symbolic link is followed"
)
FORCE_HELP = ("replace OUT if it is an existing file (never an input); atomically, once the new file is written "
              "and checked")


def report_stream(output: str) -> TextIO:
    """Where a writing command prints its report: stderr when its data goes to stdout (-o -)."""
    return sys.stderr if descriptor(output) == 1 else sys.stdout


def stdout_json(text: str) -> None:
    sys.stdout.write(text + "\n")
