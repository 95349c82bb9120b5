"""The range of a numeric option, declared once and checked wherever the option comes in: the
command line's parser (:meth:`NumberRange.parse`, an argparse ``type=``) and the library
entry points (:meth:`NumberRange.check`, for Python and Blender callers), so the two cannot
drift apart. A value outside the range (a NaN or an infinity included) is refused with the
range named; none is ever clamped or taken as "not given".
"""

from __future__ import annotations

import argparse
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, cast

from .errors import AnimspecError

N = TypeVar("N")


class OptionRangeError(AnimspecError):
    """An option's value is outside its range. ``option`` is the option's name as a library
    argument (``max_translation_error``), so each front end can name it in its own words."""

    def __init__(self, option: str, value: object, allowed: str):
        self.option, self.value, self.allowed = option, value, allowed
        super().__init__(self.say(str))

    def say(self, name: Callable[[str], str]) -> str:
        """The refusal with the option named by ``name`` (a front end's words for its ``dest``;
        this library's own: the parameter's name)."""
        return f"{name(self.option)} {self.value}: {self.allowed}"

    def reword(self, name: Callable[[str], str]) -> OptionRangeError:
        """The same error, its message in a front end's words (type and facts kept)."""
        self.args = (self.say(name),)
        return self


@dataclass(frozen=True)
class NumberRange:
    """``low`` .. ``high`` inclusive (``low`` excluded when ``above``); a whole number when
    ``whole``. ``what`` names the quantity and its unit for the messages; ``why`` says where
    a bound comes from."""

    option: str
    low: float
    high: float
    what: str
    above: bool = False
    whole: bool = False
    why: str = ""

    def allowed(self) -> str:
        def number(v: float) -> str:
            return f"{int(v):,}" if self.whole else f"{v:g}"

        span = (f"above {number(self.low)} and at most {number(self.high)}" if self.above
                else f"from {number(self.low)} to {number(self.high)}")
        kind = "a whole number" if self.whole else "a number"
        return f"expected {kind} {span} ({self.what}{'; ' + self.why if self.why else ''})"

    def contains(self, value: object) -> bool:
        kind = numbers.Integral if self.whole else numbers.Real
        if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value):
            return False
        real = cast(float, value)  # a numbers.Real: typeshed gives Real no comparisons, every Real has them
        return (self.low < real if self.above else self.low <= real) and real <= self.high

    def check(self, value: N) -> N:
        """``value`` if it is in the range, else :class:`OptionRangeError`."""
        if not self.contains(value):
            raise OptionRangeError(self.option, value, self.allowed())
        return value

    def parse(self, text: str) -> int | float:
        """The argparse ``type=`` of the option: the number ``text`` says, in the range."""
        try:
            value = int(text) if self.whole else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {'a whole number' if self.whole else 'a number'}, not {text!r}") from None
        if not self.contains(value):
            raise argparse.ArgumentTypeError(f"{text}: {self.allowed()}")
        return value


MAX_ERROR_DEG = NumberRange(
    "max_error", 0.0, 180.0, "degrees of rotation", above=True,
    why="no rotation is further than 180 degrees from another; 0 cannot be met by a quantised format",
)
"""--max-error: the largest angle error allowed (ANIMBIN --fit reduce, and glTF -> .animclip)."""

@dataclass(frozen=True)
class ErrorDefaults:
    """The errors a conversion aims at when none is asked, per direction: the command line's
    and the Blender add-on's, both from here (animspec.convert.options names them per
    direction). ``max_error``: the largest rotation a reader sees, as an angle in degrees;
    ``max_translation_error``: the largest distance a joint is moved, in the clip's units, and
    the scale's ratio error (None: the direction has none)."""

    max_error: float
    max_translation_error: float | None = None


ANIMBIN_ERRORS = ErrorDefaults(1.0)
"""glTF (or Blender) -> ANIMBIN: ``--fit reduce``'s largest angle on screen, a degree (the FP12
keys alone cost up to 0.03)."""
ANIMCLIP_ERRORS = ErrorDefaults(0.1, 1e-3)
"""glTF (or Blender) -> .animclip: the encoder's tolerance, chosen by measurement (docs/cli.md,
"How exact an .animclip is")."""
