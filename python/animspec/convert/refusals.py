"""Option policy: an option given for a run it would do nothing on is refused, never ignored.

A refusal is an :class:`OptionRefused` carrying its facts (which option, which value, which
directions, which file), not a front end's sentence: each front end names the options in its
own words (:meth:`OptionRefused.say` takes the namer: the command line its ``--flags``, the
Blender add-on its panel labels). Its own ``str`` names them as this library's parameters
(``max_error``). Which directions an option acts on is each direction's declaration
(:data:`animspec.convert.directions.DIRECTIONS`); the ranges are
:func:`animspec.convert.options.option_ranges`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..common.errors import AnimspecError
from ..common.inputs import read_head
from ..formats import HEAD_SIZE, sniff
from .declaration import Direction
from .options import ConvertOptions, check_ranges, option_ranges, parameter_name

Namer = Callable[[str], str]
"""How a front end names an option by its ``dest`` (``max_error`` -> ``--max-error`` on the
command line, a panel label in Blender); ``"output"`` names where the result goes."""


def _nothing_on_rig(n: Namer, option: str, skeleton: str | None) -> str:
    none = f"{n('skeleton')} {skeleton} is not one" if skeleton else "there is none"
    return (f"{n(option)} acts on a glTF rig (a glTF input, or {n('skeleton')} RIG.glb); {none}: "
            f"leave {n(option)} out")


_SAY: dict[str, Callable[..., str]] = {
    "animclip-output-only": lambda n, option, output: (
        f"{n(option)} is for an .animclip output; {n('output')} {output} does not end in .animclip"),
    "other-direction": lambda n, option, acts, runs: (
        f"{n(option)} acts on {' and '.join(acts)} only; this run converts {' and '.join(runs)}: "
        f"leave {n(option)} out"),
    "tolerance-without-reduce": lambda n, option, fit: (
        f"{n(option)} is the tolerance of {n('fit')} reduce; with {n('fit')} {fit} it does nothing: "
        f"give {n('fit')} reduce, or leave {n(option)} out"),
    "nothing-to-clear": lambda n, option: (
        f"{n(option)} clears the looping flag a {n('template')} clip passes on; without {n('template')} the new "
        f".animclip does not loop anyway: leave {n(option)} out"),
    "no-gltf-rig": lambda n, option, skeleton: _nothing_on_rig(n, option, skeleton),
    "nothing-above": lambda n, option, rig, skin, as_skeleton: (
        f"{n(option)} leaves out the nodes above the skeleton; "
        f"{n('skeleton') + ' ' + rig if as_skeleton else rig} has none above skin {skin}, "
        "so it would change nothing: leave it out"),
    "no-such-skin": lambda n, option, value, skins, gltf: (
        f"{n(option)} {value}: {gltf} has {skins} skin(s), numbered from 0"),
    "no-translation": lambda n, option, animation, gltf: (
        f"{n(option)} bounds each joint's translation and scale; animation {animation!r} of {gltf} animates "
        f"neither: leave it out ({n('local_rotation_error')} bounds rotation)"),
    "local-and-object": lambda n, option, local: (
        f"{n(option)} sets the object-space bound; {n(local)} replaces it with the expert joint-local one: "
        f"give one measure or the other"),
    "fits-one-file": lambda n, option, clips: (
        f"{n(option)}: its {clips} clip(s) fit one file (the engine holds 5 per file); leave {n(option)} out"),
    "one-animation": lambda n, option: f"an .animclip holds one animation; give one {n(option)}",
    "no-root-motion": lambda n, option: (
        f"{n(option)}: the animation moves no node above the skeleton, so there is no root "
        f"motion to leave out: leave {n(option)} out"),
    "joints-need-gltf-rig": lambda n, option, skeleton: (
        f"{n(option)} names glTF nodes; {skeleton or 'no ' + n('skeleton')} is not a glTF rig"),
    "rig-needed": lambda n, option: f"an .animclip holds no hierarchy: give the rig with {n(option)} RIG.glb",
    "no-joints": lambda n, option, skeleton: (
        f"the clip has no joints: there is nothing to put on {n(option)} {skeleton}"),
    "wrong-extension": lambda n, option, output, direction, writes, claims, ext, fits: (
        f"{n(option)} {output}: {direction} writes {writes}, "
        f"{f'not {claims} as {ext} says' if claims else f'which {ext} does not name'}; write to {fits}"),
    "output-not-folder": lambda n, option, output: (
        f"{output}: with several inputs, a folder or a glob, {n(option)} must be a folder"),
    "template-not-animclip": lambda n, option, template, found: (
        f"{n(option)} {template} is a {found} file, not an .animclip: a template is the .animclip whose other "
        "sections the new clip keeps"),
    "rig-not-gltf": lambda n, option, skeleton: (
        f"{n(option)} {skeleton} is not a glTF rig; an .animclip's joints are matched by "
        "node name, which only a glTF rig has (a MESHBIN's bones are unnamed)"),
}


class OptionRefused(AnimspecError):
    """An option that would do nothing on this run, or names what is not there. ``option``:
    its ``dest``; ``reason``: one of the refusals above; ``facts``: the values the sentence
    names; ``file``: the input it concerns (the sentence then starts with it)."""

    def __init__(self, option: str, reason: str, *, file: str | None = None, **facts: Any):
        self.option, self.reason, self.file, self.facts = option, reason, file, facts
        super().__init__(self.say(parameter_name))

    def say(self, name: Namer) -> str:
        """The refusal with each option named by ``name``."""
        text = _SAY[self.reason](name, self.option, **self.facts)
        return f"{self.file}: {text}" if self.file else text

    def reword(self, name: Namer) -> OptionRefused:
        """The same refusal, its message naming the options by ``name`` (a front end's words,
        set where the refusal leaves the library: its type and facts are kept)."""
        self.args = (self.say(name),)
        return self


def check_options(options: ConvertOptions, runs: Iterable[Direction], every: Iterable[Direction],
                  output: str = "OUT") -> None:
    """Refuse (:class:`OptionRefused`) an option the user gave that does nothing on a run in the
    directions ``runs`` (``every``: all the registered ones): one of another direction,
    --max-error without --fit reduce, --armature-space or --joints with no glTF rig to act on;
    and a numeric option outside its range."""
    given = options.given
    # (None: not given, the direction's default, animspec.convert.options.DIRECTION_ERRORS)
    check_ranges({name: value for name in option_ranges() if (value := getattr(options, name)) is not None})
    runs = set(runs)
    if not runs:
        return
    every = tuple(every)
    names = {d.name for d in runs}
    for name in sorted(given):
        acts = tuple(d for d in every if d.acts(name))
        if not runs & set(acts):
            if [d.name for d in acts] == ["gltf-animclip"] and "gltf-animbin" in names:
                raise OptionRefused(name, "animclip-output-only", output=output)
            raise OptionRefused(name, "other-direction", acts=tuple(d.title for d in acts),
                                runs=tuple(sorted(d.title for d in runs)))
    if "max_error" in given and options.fit != "reduce" and "gltf-animclip" not in names:
        raise OptionRefused("max_error", "tolerance-without-reduce", fit=options.fit or "bake")
    local = sorted(given & {"local_rotation_error", "local_translation_error"})
    if local and "gltf-animclip" in names:
        for name in ("max_error", "shell"):
            if name in given:
                raise OptionRefused(name, "local-and-object", local=local[0])
    if "one_shot" in given and names == {"gltf-animclip"} and not options.template:
        raise OptionRefused("one_shot", "nothing-to-clear")
    rig_skeleton = options.skeleton is not None and is_gltf(options.skeleton)
    if not {"gltf-animbin", "gltf-animclip"} & names and not rig_skeleton:
        for name in ("armature_space", "joints"):
            if name in given:
                raise OptionRefused(name, "no-gltf-rig", skeleton=options.skeleton)
    if "armature_space" in given and "gltf-animbin" not in names and rig_skeleton:
        check_nodes_above(str(options.skeleton), 0, as_skeleton=True)


def is_gltf(path: str) -> bool:
    """Whether the file at ``path`` starts as a glTF (a GLB or .gltf JSON) does."""
    head = read_head(path, HEAD_SIZE)
    return head is not None and sniff(head, ("gltf",)) is not None


def check_nodes_above(rig: str, skin: int, *, as_skeleton: bool = False) -> None:
    """--armature-space on a rig with no node above its skin would change nothing: refused."""
    from ..gltf.info import nodes_above_skin

    if not nodes_above_skin(rig, skin):
        raise OptionRefused("armature_space", "nothing-above", rig=rig, skin=skin, as_skeleton=as_skeleton)


def check_skin(src: str, o: ConvertOptions) -> None:
    """--skin N names a skin the glTF has (the option's own error, before any work)."""
    if "skin" in o.given:
        from ..gltf.info import summarise

        skins = len(summarise(src).skins)
        if not 0 <= o.skin < skins:
            raise OptionRefused("skin", "no-such-skin", value=o.skin, skins=skins, gltf=src)


def check_moves(src: str, o: ConvertOptions) -> None:
    """--local-translation-error bounds translation and scale: refused for an animation that
    animates neither (it would change nothing)."""
    if "local_translation_error" not in o.given:
        return
    from ..gltf.info import animation_label
    from ..gltf.rig import load_gltf

    gltf = load_gltf(src)
    names = [animation_label(gltf, i) for i in range(len(gltf.animations))]
    wanted = o.animations[0] if o.animations else (names[0] if names else None)
    if wanted not in names:
        return  # (the conversion says what is missing)
    animation = gltf.animations[names.index(wanted)]
    if not any(c.target is not None and c.target.path in ("translation", "scale") for c in animation.channels or []):
        raise OptionRefused("local_translation_error", "no-translation", animation=wanted, gltf=src)
