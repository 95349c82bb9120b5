"""Conversion between the formats, as a library: glTF -> ANIMBIN, glTF -> .animclip,
ANIMBIN -> glTF (GLB), .animclip animation -> glTF. What ``animspec convert`` does, usable
from Python with the same results:

    from animspec.convert import load_options, plan

    work = plan(["clips/"], "out/", load_options(region="pal", skeleton="rig.glb"))
    for result in work.run(jobs=2):
        print(result.text if not result.failed else result.error["message"])

The package, bottom up:

* :mod:`.options`: :class:`ConvertOptions` (one field per command-line option, named as its
  argparse ``dest``), :func:`load_options` (side files read once per run), the ranges.
* :mod:`.refusals`: the option policy; an option that would do nothing on the run is refused
  (:class:`OptionRefused`, its facts typed so that each front end words it).
* :mod:`.output`: the output policy (names, extensions, where a batch writes, overwrite).
* :mod:`.directions`: the registry of :data:`DIRECTIONS`, each with its source, what it
  writes, the options it acts on and its run function.
* :mod:`.planning`: which inputs a run takes, the direction of each (told once), each output's
  name (:func:`plan`), and converting one file (:func:`convert_file`).

The conversions themselves are in animspec.gltf; running over many files in animspec.batch.
The command line (animspec.cli.convert) only parses and prints.
"""

from __future__ import annotations

from .declaration import Direction
from .directions import DIRECTIONS, direction_of, names_line, skeleton_source
from .options import (
    FILE_OPTIONS,
    OPTION_NAMES,
    READ_WHEN_LOADED,
    READS_FILE,
    ConvertOptions,
    check_ranges,
    load_options,
    option_flag,
    option_ranges,
)
from .output import check_output_name
from .planning import ConvertJob, ConvertPlan, ConvertTask, convert_file, convertible, plan, source_kind
from .refusals import OptionRefused, check_options

__all__ = [
    "DIRECTIONS", "FILE_OPTIONS", "OPTION_NAMES", "READS_FILE", "READ_WHEN_LOADED", "ConvertJob", "ConvertOptions",
    "ConvertPlan", "ConvertTask", "Direction", "OptionRefused", "check_options", "check_output_name",
    "check_ranges", "convert_file", "convertible", "direction_of", "load_options", "names_line", "option_flag",
    "option_ranges", "plan", "skeleton_source", "source_kind",
]
