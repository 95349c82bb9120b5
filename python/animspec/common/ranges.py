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
from dataclasses import dataclass, replace
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
"""--max-error of an ANIMBIN output: the largest angle error allowed (--fit reduce)."""
MAX_ERROR_DISTANCE = NumberRange(
    "max_error", 0.0, 1e6, "units of distance in the clip's space", above=True,
    why="a distance at virtual vertices around each joint: positive, and 0 cannot be met by a quantised format",
)
"""--max-error of an .animclip output: the largest object-space distance allowed."""
SHELL = NumberRange(
    "shell", 0.0, 1e6, "units of distance in the clip's space", above=True,
    why="the virtual vertices' distance from their joint: 0 would leave rotation unmeasured",
)
"""--shell: how far from each joint the object-space error is measured."""
MAX_ERROR = NumberRange(
    "max_error", 0.0, 1e6, "a positive number (degrees for an ANIMBIN, a distance for an .animclip)",
    above=True, why="each direction checks its own range of it",
)
"""--max-error as the command line takes it before it knows the output's direction."""
LOCAL_ROTATION_ERROR = replace(MAX_ERROR_DEG, option="local_rotation_error")
"""Expert --local-rotation-error: the largest angle each joint's own rotation may be off."""


@dataclass(frozen=True)
class ErrorDefaults:
    """The errors a conversion aims at when none is asked, per direction: the command line's
    and the Blender add-on's, both from here (animspec.convert.options names them per
    direction). ``max_error``: in the direction's measure (an ANIMBIN's: the largest angle on
    screen, degrees; an .animclip's: the largest object-space distance, in the clip's units, at
    virtual vertices ``shell`` from each joint); ``max_translation_error``: the expert
    joint-local measure's largest distance a joint is moved, in the clip's units, and the
    scale's ratio error (None: the direction has none)."""

    max_error: float
    max_translation_error: float | None = None
    shell: float | None = None


ANIMBIN_ERRORS = ErrorDefaults(1.0)
"""glTF (or Blender) -> ANIMBIN: ``--fit reduce``'s largest angle on screen, a degree (the FP12
keys alone cost up to 0.03)."""
ANIMCLIP_ERRORS = ErrorDefaults(2e-4, shell=0.03)
"""glTF (or Blender) -> .animclip: the encoder's bound on object-space error, 0.2 mm at virtual
vertices 3 cm from each joint (in metres, the games' unit and glTF's). The shell is the
Animation Compression Library's default (nfrechette/acl); its default bound, 0.1 mm, is below
what the format's 16-bit rotations reach on a human's longer chains (docs/animclip.md, "How
the encoder spends bits"), so 0.2 mm, still far below what anyone sees."""
ANIMCLIP_LOCAL_ERRORS = ErrorDefaults(0.1, 1e-3)
"""glTF -> .animclip with the expert joint-local measure (``--local-rotation-error``,
``--local-translation-error``): each joint's own rotation within 0.1 degree, its translation
within 1 mm."""
