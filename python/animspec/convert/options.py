"""What a conversion takes besides IN and OUT: :class:`ConvertOptions` (one field per option,
named as the command line's argparse ``dest``), reading the side files once per run
(:func:`load_options`), and each numeric option's range (:func:`option_ranges`).

Which option acts on which direction is each direction's declaration
(animspec.convert.directions); refusing one that would do nothing is
animspec.convert.refusals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from ..common.hashes import read_names_file
from ..common.output import ReadFile
from ..common.ranges import (
    ANIMBIN_ERRORS,
    ANIMCLIP_ERRORS,
    ANIMCLIP_LOCAL_ERRORS,
    LOCAL_ROTATION_ERROR,
    MAX_ERROR,
    SHELL,
    ErrorDefaults,
    NumberRange,
)


def parameter_name(option: str) -> str:
    """This library's name of an option: its parameter (:class:`ConvertOptions` field)."""
    return option


READS_FILE = {"reads_file": True}
"""The metadata of a :class:`ConvertOptions` field whose command-line value names a file the
run reads (:data:`FILE_OPTIONS`)."""


DIRECTION_ERRORS: dict[str, ErrorDefaults] = {"gltf-animbin": ANIMBIN_ERRORS, "gltf-animclip": ANIMCLIP_ERRORS}
"""The errors each direction aims at when none is asked, by direction name: the command line
takes them from here (:meth:`ConvertOptions.errors`), the Blender add-on's export options too.
glTF -> ANIMBIN: ``--fit reduce``'s largest angle on screen; glTF -> .animclip: the encoder's
bound on object-space error and its shell distance (animspec.common.ranges holds the numbers,
where the library's own defaults read them)."""

@dataclass(frozen=True)
class ConvertOptions:
    """Everything convert takes besides IN and OUT, side files already read (once per run).
    Each field has the name of its command-line option (``--max-error`` is ``max_error``)."""

    region: Any = "ntsc"
    """"ntsc", "pal" or a refresh rate in Hz: the vsync rate frames map to."""
    animations: tuple[str, ...] | None = None
    """glTF in: only these animations (--animation, repeatable)."""
    skin: int = 0
    joints: tuple[str, ...] | None = field(default=None, metadata=READS_FILE)
    """Joint id order, glTF node names (read from --joints FILE)."""
    fit: str | None = None
    """bake, cut, reduce or best; None: bake, or the ANIMBIN layout a glTF carries in extras
    (an explicit fit wins over that layout)."""
    max_error: float | None = None
    """--fit reduce: the largest angle error on screen, degrees; an .animclip output: the largest
    object-space error, a distance in the clip's units at ``shell`` from each joint (None: the
    direction's default, :meth:`errors`)."""
    max_keys: int = 30
    template: str | None = field(default=None, metadata=READS_FILE)
    """glTF -> .animclip (an OUT ending in .animclip): the clip whose other sections, Built
    fields and looping flag the new clip keeps."""
    fps: float = 30.0
    """glTF -> .animclip: frames per second the animation is sampled at."""
    shell: float | None = None
    """glTF -> .animclip: how far from each joint its virtual vertices are, where ``max_error``
    is measured (the clip's units; None: the direction's default, :meth:`errors`)."""
    local_rotation_error: float | None = None
    """glTF -> .animclip, expert: bound each joint's own rotation error (degrees) instead of the
    object-space error (:meth:`local_errors`)."""
    local_translation_error: float | None = None
    """glTF -> .animclip, expert: bound each joint's own translation (and scale) error, in the
    clip's units, instead of the object-space error (:meth:`local_errors`)."""
    ps1_space: bool = False
    armature_space: bool = False
    fp12: str = "round"
    merge: str | None = None
    translations: bool = False
    markers: dict[str, Any] | None = field(default=None, hash=False, metadata=READS_FILE)
    """Markers per animation (read from --markers FILE.json)."""
    one_shot: bool = False
    split: bool = False
    skeleton: str | None = field(default=None, metadata=READS_FILE)
    """ANIMBIN / .animclip in: the MESHBIN or glTF rig file (a path: loaded once per process)."""
    bake_engine: bool = False
    no_skin: bool = False
    joint_names: tuple[str, ...] | None = field(default=None, metadata=READS_FILE)
    """.animclip in: joint names to label the report (read from --joint-names FILE)."""
    no_root_motion: bool = False
    """.animclip in: leave the clip's root motion out (the character stays in place). glTF ->
    .animclip: write no Motion Data from the node above the skeleton (a template's is kept)."""
    force: bool = False
    """Replace existing output files (animspec.common.output's policy, as every command)."""
    make_folders: bool = False
    """Create the output's missing folders, right before writing it (batch runs): a file
    that fails before then leaves no empty folder behind. Not a command-line option."""
    given: frozenset[str] = frozenset()
    """The options the user gave (:func:`load_options` records them): each must act on some
    input of the run (animspec.convert.refusals.check_options). Not a command-line option."""
    side_files: tuple[ReadFile, ...] = ()
    """The files named by the :data:`FILE_OPTIONS` given to :func:`load_options` (those whose
    contents it read, such as --joints, and the others, such as --template), each with its
    option's ``dest``: inputs, so never an output. Not a command-line option."""
    words: Callable[[str], str] = field(default=parameter_name, compare=False)
    """How reports and refusals name an option by its ``dest`` (a front end's words: the command
    line's ``--flags``; by default this library's parameter names). A module-level function:
    options are pickled for a batch's workers. Not a command-line option."""

    def errors(self, direction: str) -> ErrorDefaults:
        """The errors asked of ``direction`` (its name): those given, its defaults
        (:data:`DIRECTION_ERRORS`) for the others."""
        defaults = DIRECTION_ERRORS[direction]
        return ErrorDefaults(
            defaults.max_error if self.max_error is None else self.max_error,
            shell=defaults.shell if self.shell is None or defaults.shell is None else self.shell,
        )

    def local_errors(self) -> ErrorDefaults | None:
        """glTF -> .animclip's expert joint-local errors, when either was given (the other at
        :data:`ANIMCLIP_LOCAL_ERRORS`): rotation in degrees, translation and scale in the
        clip's units; None: the object-space bound (:meth:`errors`) applies."""
        if self.local_rotation_error is None and self.local_translation_error is None:
            return None
        d = ANIMCLIP_LOCAL_ERRORS
        return ErrorDefaults(
            d.max_error if self.local_rotation_error is None else self.local_rotation_error,
            d.max_translation_error if self.local_translation_error is None else self.local_translation_error,
        )

    def read_files(self) -> tuple[ReadFile, ...]:
        """Every side file a conversion with these options reads: the files of
        :data:`FILE_OPTIONS`, as :func:`load_options` recorded them, and any of those options
        still holding its path (options made without :func:`load_options`), each named by
        :attr:`words`. None of them is ever written or converted."""
        recorded = {r.option for r in self.side_files}
        kept = tuple(
            ReadFile(value, name) for name in FILE_OPTIONS
            if isinstance(value := getattr(self, name), str) and value and name not in recorded
        )
        return tuple(ReadFile(r.path, self.words(r.option or "")) for r in self.side_files + kept)


_NOT_OPTIONS = {"make_folders", "side_files", "given", "words"}
OPTION_NAMES = tuple(f.name for f in fields(ConvertOptions) if f.name not in _NOT_OPTIONS)
"""The command-line options of ``animspec convert``, by their argparse ``dest``."""

FILE_OPTIONS = tuple(f.name for f in fields(ConvertOptions) if f.metadata.get("reads_file"))
"""The options whose value names a file the run reads (the fields marked :data:`READS_FILE`),
by ``dest``: the one list the output check (:meth:`ConvertOptions.read_files`: never an
output, even with --force, by any name) and a batch's selection (never a source) take them
from."""


def option_flag(name: str) -> str:
    """The command-line spelling of an option's ``dest`` (``max_error`` -> ``--max-error``): the
    command line names options with it (animspec.cli.convert.flag)."""
    return {"animations": "--animation"}.get(name, "--" + name.replace("_", "-"))


def _read_names(path: str) -> tuple[str, ...]:
    return tuple(read_names_file(path))


def _read_markers(path: str) -> dict[str, Any]:
    from ..gltf import read_markers_file

    return read_markers_file(path)


READ_WHEN_LOADED: dict[str, Callable[[str], Any]] = {
    "joints": _read_names, "markers": _read_markers, "joint_names": _read_names,
}
"""The :data:`FILE_OPTIONS` whose file :func:`load_options` reads once per run, and how; the
others keep their path (read where they are used: the --skeleton cache, --template)."""


def load_options(**given: Any) -> ConvertOptions:
    """:class:`ConvertOptions` from the command line's values: the same names; each file of
    :data:`FILE_OPTIONS` recorded as read (``side_files``), those of :data:`READ_WHEN_LOADED`
    (``joints``, ``markers``, ``joint_names``) given as paths and read here; a list of
    ``animations`` becomes a tuple."""
    given = {name: value for name, value in given.items() if name not in FILE_OPTIONS or value}
    side = tuple(ReadFile(given[name], name) for name in FILE_OPTIONS if name in given)
    named = frozenset(given)
    check_ranges(given)
    for name, read in READ_WHEN_LOADED.items():
        if name in given:
            given[name] = read(given[name])
    animations = given.pop("animations", None)
    return ConvertOptions(
        given=named, animations=tuple(animations) if animations else None, side_files=side, **given,
    )


SKIN = NumberRange("skin", 0, 2**31 - 1, "a skin's index in the glTF", whole=True)


def option_ranges() -> dict[str, NumberRange]:
    """Each numeric option of ``convert`` (its ``dest``) and its range, declared where the limit
    is: the command line's parser and :func:`check_ranges` both use it."""
    from ..animclip.frames.encode import FPS, LOCAL_TRANSLATION_ERROR
    from ..gltf.to_animbin import MAX_KEYS_RANGE

    return {r.option: r for r in (SKIN, MAX_ERROR, MAX_KEYS_RANGE, FPS, SHELL, LOCAL_ROTATION_ERROR,
                                  LOCAL_TRANSLATION_ERROR)}


def check_ranges(values: dict[str, Any]) -> None:
    """Refuse (OptionRangeError, naming the option and its range) a numeric option outside its
    range: a NaN, an infinity, 0 where 0 means nothing."""
    for name, limits in option_ranges().items():
        if name in values:
            limits.check(values[name])
