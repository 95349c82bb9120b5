"""What a direction of conversion declares (:class:`Direction`); the registry of them is
animspec.convert.directions. Apart from it so that the option and output policies, which
read the declarations, sit under the registry that runs them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..batch import Result
from .options import ConvertOptions


@dataclass(frozen=True, eq=False)
class Direction:
    """One way a conversion goes (one object per direction: compared and hashed by identity)."""

    name: str
    """``gltf-animbin``, ``gltf-animclip``, ``animbin-gltf``, ``animclip-gltf``."""
    source: str
    """The format it reads (animspec.formats.CONVERT_SOURCES)."""
    title: str
    """As the command's help and its refusals name it."""
    extension: str
    """What a batch names its outputs with."""
    writes: str
    """What it writes, as a refusal of a wrong extension names it."""
    fits: str
    """The output names that fit it (the advice of that refusal), ``{stem}`` standing for the
    name given without its extension."""
    refuses: Mapping[str, str]
    """Output extensions that claim another format than the one written -> that format (a
    refusal names what the extension claims; any other extension outside ``accepts`` is
    refused too)."""
    accepts: tuple[str, ...]
    """The output extensions of what it writes, the first the usual one: any other extension
    is refused, naming these (a name without an extension, ``-`` or a device is left alone)."""
    options: frozenset[str]
    """The options (their ``dest``) it changes the result of."""
    run: Callable[[str, str, ConvertOptions], Result]
    """Convert the file at ``src`` to ``out``: the result's ``text`` is the report."""

    def acts(self, option: str) -> bool:
        """Whether ``option`` changes what this direction writes (``force``: every one)."""
        return option in self.options or option in EVERY_DIRECTION


EVERY_DIRECTION = frozenset({"force"})
"""Options every direction acts on."""
