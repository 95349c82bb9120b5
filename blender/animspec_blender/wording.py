"""The Export panel's options, and what the add-on says in their words.

The library's refusals carry their facts (:mod:`animspec.gltf.to_animbin`: which animation,
which limit, which rate; :class:`animspec.common.ranges.OptionRangeError` and
:class:`animspec.convert.refusals.OptionRefused`: which option, which value, which range).
Inside Blender the same refusal names the panel's options by their labels and the region's
real vsync rate, never a command-line option. No ``bpy`` here: the labels are plain data that
the operators' properties are built from, so the wording and the panel cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable

from animspec.animbin.playback import Refresh, refresh_hz
from animspec.animclip.frames.encode import ClipError, KindError
from animspec.animclip.frames.object_space import ObjectError
from animspec.common.errors import AnimspecError
from animspec.common.ranges import ANIMCLIP_LOCAL_ERRORS, OptionRangeError
from animspec.convert.options import DIRECTION_ERRORS
from animspec.convert.refusals import OptionRefused
from animspec.gltf.to_animbin import (
    ClipTooLongError,
    NoSuchAnimationError,
    ReduceOverBudgetError,
    TooManyJointsError,
    TooManySamplesError,
)

REGIONS = [
    ("ntsc", "NTSC (59.94 Hz)", "One console frame per NTSC vsync"),
    ("pal", "PAL (50 Hz)", "One console frame per PAL vsync"),
]
FITS = [
    (
        "best",
        "Best fit",
        "At most 30 keys per track, frames and values chosen for the smallest largest error on screen",
    ),
    ("bake", "Every frame", "A key on every frame; a clip longer than 30 frames is refused"),
    ("cut", "Cut", "A key on every frame; frames past 30 are dropped"),
    ("reduce", "Reduce", "Keys only where the shown pose would drift more than Max error"),
]
ROUNDING = [
    ("round", "Round", "FP12 rounded to nearest (half the error of truncation)"),
    (
        "trunc",
        "Truncate",
        "FP12 truncated toward zero from Blender's own pose matrices, exactly as the engine's exporter does",
    ),
]
WHICH = [
    ("all", "All actions", "Every action of the armature (at most 5), imported ones in file order"),
    ("active", "Active action", "Only the action assigned to the armature"),
    ("chosen", "Named actions", "The actions named below, in that order"),
]
JOINT_ORDERS = [
    (
        "armature",
        "Armature's order",
        "The order saved on the armature (its animbin_joints property, set by Import MESHBIN or by "
        "'Save order on armature'); deform-bone order when it has none",
    ),
    ("deform", "Deform bones", "The deform bones in Blender's bone order, as the engine's exporter numbers them"),
    ("file", "Names file", "A text file naming the bone of each joint id, one per line, parents first"),
]

MAX_ERROR_LABEL = "Max error (degrees)"
JOINT_ORDER_LABEL = "Joint order"
JOINT_NAMES_LABEL = "Names file"
SAVE_ORDER_LABEL = "Save order on armature"


def label(items: list[tuple[str, str, str]], key: str) -> str:
    return next(name for k, name, _ in items if k == key)


def fit_label(key: str) -> str:
    return label(FITS, key)


def region_text(region: Refresh) -> str:
    """The region's real vsync rate, as a person says it: "59.94 Hz (NTSC)", "50 Hz (PAL)"."""
    hz = refresh_hz(region)
    rate = f"{hz:.2f}".rstrip("0").rstrip(".")
    return f"{rate} Hz" + (f" ({region.upper()})" if isinstance(region, str) else "")


def in_blender_words(exc: AnimspecError, *, region: Refresh, armature: str = "", order: str = "") -> str:
    """The refusal ``exc`` as the add-on says it: the Export panel's options by their labels,
    the region's real rate. ``order``: how the joints were chosen (for the joints refusal)."""
    if isinstance(exc, ClipTooLongError):
        return (
            f"action {exc.animation!r}: {exc.frames} frames at {region_text(region)}; the engine holds "
            f"{exc.max_keys} keys per track and shows one pose per frame without interpolating, so "
            f"Fit '{fit_label('bake')}' cannot keep it: choose Fit '{fit_label('best')}' (the {exc.max_keys} "
            f"keys that show it best), '{fit_label('cut')}' (its first {exc.max_keys} frames) or "
            f"'{fit_label('reduce')}' (a key only where the pose drifts past '{MAX_ERROR_LABEL}'; the console "
            "then steps), or shorten the action"
        )
    if isinstance(exc, TooManyJointsError):
        whose = f"armature {armature!r}" if armature else "the armature"
        how = f" ({order})" if order else ""
        return (
            f"{whose} has {exc.joints} joints{how}; the engine's skeleton holds {exc.limit}: set "
            f"'{JOINT_ORDER_LABEL}' to '{label(JOINT_ORDERS, 'file')}' on the Export panel and name at most "
            f"{exc.limit} bones in that file (parents first, one per line), or untick Deform on the bones "
            "the game does not need"
        )
    if isinstance(exc, ReduceOverBudgetError):
        advice = exc.advice
        return (
            f"action {exc.animation!r}: bone {exc.joint_name!r} needs more than {exc.max_keys} keys to stay within "
            f"{exc.max_error_deg:g} degrees with Fit '{fit_label('reduce')}': raise '{MAX_ERROR_LABEL}' to "
            f"{advice.fits_from_deg:.3f} or more, or choose Fit '{fit_label('best')}' (every bone within "
            f"{advice.best_deg:.3f} degrees with {advice.max_keys} keys)"
        )
    if isinstance(exc, TooManySamplesError):
        return (
            f"action {exc.animation!r}: {exc.frames} frames on {exc.nodes} bones is more than {exc.limit} samples "
            f"to compute; shorten the action or export fewer bones ('{JOINT_ORDER_LABEL}': "
            f"'{label(JOINT_ORDERS, 'file')}')"
        )
    if isinstance(exc, NoSuchAnimationError):
        whose = f"armature {armature!r}" if armature else "the armature"
        return (
            f"actions {exc.missing} have no keys on the bones of {whose}, so Blender's glTF exporter leaves "
            "them out: key its bones in them, or choose other actions"
        )
    return option_in_blender_words(exc)


def option_in_blender_words(exc: AnimspecError) -> str:
    """A refused option value (its range) or an option that would do nothing, the options
    named by their panel labels; any other refusal as the library says it."""
    if isinstance(exc, OptionRangeError):
        return f"{option_label(exc.option)} is {exc.value}: {exc.allowed}"
    if isinstance(exc, OptionRefused):
        return exc.say(option_label)
    return str(exc)


# --- .animclip import and export ---------------------------------------------------------------

CLIP_MAX_ERROR_LABEL = "Max Error"
SHELL_LABEL = "Shell Distance"
ERROR_MEASURE_LABEL = "Error Measure"
ERROR_MEASURES = [
    (
        "object",
        "Object space",
        "How far the clip moves points a 'Shell Distance' from each bone, every parent's error included (the "
        "measure of the Animation Compression Library): 'Max Error' bounds it",
    ),
    (
        "local",
        "Each joint's own",
        "Expert: bound each bone's own rotation and translation error relative to its parent instead; a hip's error "
        "then moves the whole leg by more",
    ),
]
MAX_ROTATION_ERROR_LABEL = "Max rotation error (degrees)"
MAX_TRANSLATION_ERROR_LABEL = "Max translation error"
CLIP_ERRORS = DIRECTION_ERRORS["gltf-animclip"]
"""The .animclip export's default 'Max Error' and 'Shell Distance': the command line's glTF ->
.animclip defaults (a distance in the clip's units: Blender units)."""
LOCAL_CLIP_ERRORS = ANIMCLIP_LOCAL_ERRORS
"""The expert 'Each joint's own' measure's defaults: the command line's --local-rotation-error and
--local-translation-error defaults."""
ANIMBIN_ERRORS = DIRECTION_ERRORS["gltf-animbin"]
"""The ANIMBIN export's default Max error (Reduce fit): the command line's glTF -> ANIMBIN one."""


CLIP_OPTION_LABELS = {
    "max_error": CLIP_MAX_ERROR_LABEL,
    "shell": SHELL_LABEL,
    "local_rotation_error": MAX_ROTATION_ERROR_LABEL,
    "local_translation_error": MAX_TRANSLATION_ERROR_LABEL,
}
"""The encoder's bounds (the library's option names, as its range errors name them) as the
.animclip Export panel labels them."""


def clip_error_text(error: ClipError, bones: list[str], first_frame: int) -> str:
    """The Export report's words for each joint's own error a reader of the written clip sees
    (:class:`animspec.animclip.frames.encode.ClipError`), bones by name, frames as Blender
    numbers them (the action's first frame is clip frame 0)."""

    def where(kind: KindError) -> str:
        return f"bone {bones[kind.joint]!r} at frame {first_frame + kind.frame}"

    return (f"each bone's own error read back: rotation {error.rotation.worst:.3g} degrees ({where(error.rotation)}), "
            f"translation {error.translation.worst:.3g} Blender units ({where(error.translation)}), "
            f"scale {error.scale.worst:.3g} relative ({where(error.scale)})")


def worst_bone_text(error: ObjectError, bones: list[str], first_frame: int, length: Callable[[float], str]) -> str:
    """The object-space error's largest value, its bone and its frame as Blender numbers it."""
    bone = bones[error.joint] if error.joint < len(bones) else f"joint {error.joint}"
    return f"max {length(error.max)} (bone {bone!r} at frame {first_frame + error.frame})"


def object_error_text(error: ObjectError, bones: list[str], first_frame: int, size: int,
                      length: Callable[[float], str]) -> str:
    """The Export report's first words: the object-space error a reader of the written clip sees
    (:class:`animspec.animclip.frames.object_space.ObjectError`, in Blender units) as ``length``
    writes a length (the scene's unit), its worst bone by name and frame as Blender numbers it,
    the 99th percentile, the shell it was measured at, and the clip's size."""
    return (f"error read back, object space: {worst_bone_text(error, bones, first_frame, length)}, 99th percentile "
            f"{length(error.p99)}, at '{SHELL_LABEL}' {length(error.shell)}; {size:,} bytes")


TEMPLATE_LABEL = "Template clip"
LOOPING_LABEL = "Looping"
OVERWRITE_LABEL = "Overwrite"
ROOT_MOTION_LABEL = "Root motion"
ROOT_SPACE_LABEL = "Root bones"
ROOT_SPACE_ITEMS = [
    (
        "engine",
        "Engine's Y-up space",
        "For game clips: a bone without parent is in the game's Y-up space, turned into Blender's Z-up as "
        "Blender's glTF importer turns a Y-up rig (as the game and Luna Engine IO Tools have it). Right on an "
        "armature from File > Import > glTF, from the 'glTF rig' option, from a Luna model import, or built in "
        "Blender",
    ),
    (
        "armature",
        "Armature's own axes",
        "Only for a clip whose root bones were authored in Blender's Z-up axes (by a tool that does not turn "
        "them): a bone without parent is in the armature's own axes; a game clip lies on its back with this",
    ),
]
ROOT_SPACE_AS_IMPORTED = ("action", "As imported", "The root space the action was imported with (else the engine's)")

EXPORT_OPTION_LABELS = {
    "region": "Region",
    "fit": "Fit",
    "fp12": "FP12",
    "max_error": MAX_ERROR_LABEL,
    "joints": JOINT_ORDER_LABEL,
    "max_translation_error": MAX_TRANSLATION_ERROR_LABEL,
    "template": TEMPLATE_LABEL,
}
"""The library's options (their parameter names) as the Export panels label them."""


def option_label(option: str) -> str:
    """A library option as the panels name it: its label, quoted ('Max error (degrees)'); the
    output is the file chosen; an option no panel shows keeps the library's name."""
    if option == "output":
        return "the file"
    label_ = EXPORT_OPTION_LABELS.get(option)
    return option if label_ is None else f"'{label_}'"


# --- MESHBIN export ---------------------------------------------------------------------------

APPLY_MODIFIERS_LABEL = "Apply Modifiers"
TEXTURE_SIZE_LABEL = "Texture size"


def too_many_bones_refusal(armature: str, bones: int, limit: int) -> str:
    """More bones than the engine's skeleton holds, for the MESHBIN export."""
    return (
        f"armature {armature!r} has {bones} bones to export; the engine's skeleton holds {limit}: set "
        f"'{JOINT_ORDER_LABEL}' to '{label(JOINT_ORDERS, 'file')}' on the Export panel and name at most {limit} "
        "bones in that file (parents first, one per line), or untick Deform on the bones the game does not need"
    )


def _few(items) -> str:
    shown = ", ".join(str(i) for i in list(items)[:8])
    return shown + (f" and {len(items) - 8} more" if len(items) > 8 else "")


def meshbin_refusal(exc, mesh: str, bones: list[str], texture_size: int) -> str:
    """A :class:`animspec.meshbin.build.MeshbinBuildError` as the add-on says it."""
    kind = exc.kind
    if kind == "ngon":
        return (
            f"mesh {mesh!r}: faces {_few(exc.items)} have more than 4 corners; the engine draws quads and triangles "
            f"only: add a Triangulate modifier (Minimum Vertices 5) with '{APPLY_MODIFIERS_LABEL}' ticked, or "
            "triangulate those faces (Face > Triangulate Faces in Edit Mode)"
        )
    if kind == "unweighted":
        names = ", ".join(bones) if bones else "none"
        return (
            f"mesh {mesh!r}: vertices {_few(exc.items)} are in no vertex group of an exported bone ({names}); the "
            "engine moves each vertex with exactly one bone: assign them to a bone's group (Object Data > Vertex "
            "Groups, or Weight Paint)"
        )
    if kind == "uv-range":
        return (
            f"mesh {mesh!r}: the UVs of loops {_few(exc.items)} land past texel {int(exc.limit)} with "
            f"'{TEXTURE_SIZE_LABEL}' {texture_size} (the engine stores one byte per UV axis): keep the active UV map "
            f"inside 0..1 of the image, or lower '{TEXTURE_SIZE_LABEL}'"
        )
    if kind == "colour-range":
        return (
            f"mesh {mesh!r}: vertices {_few(exc.items)} have a colour channel of 2.0 or more in the active colour "
            "attribute; the engine stores channel x 128 in one byte: keep colours under 2.0"
        )
    if kind == "non-finite":
        return f"mesh {mesh!r}: vertices {_few(exc.items)} have a NaN or infinite coordinate"
    if kind == "no-vertices":
        return f"mesh {mesh!r} has no vertices"
    return f"mesh {mesh!r}: {exc}"


def meshbin_finding_in_blender_words(finding, mesh: str) -> str:
    """A MESHBIN validator error about a mesh made in Blender, in Blender's terms."""
    code = finding.code
    if code == "too-many-faces":
        return (
            f"mesh {mesh!r}: {finding.message}; the engine loads at most 999 faces per mesh: add a Decimate "
            f"modifier with '{APPLY_MODIFIERS_LABEL}' ticked, or split the mesh into several objects"
        )
    if code == "vertex-out-of-range":
        return (
            f"mesh {mesh!r}: {finding.message}. The engine stores 128 units per Blender unit, so every vertex "
            "must lie within 255.99 Blender units of the armature's origin (of the mesh's, without an armature) in "
            "world space: scale the model down or move it nearer"
        )
    if code == "too-many-vertices":
        return f"mesh {mesh!r}: {finding.message}: split the mesh into several objects"
    if code in ("too-many-bones", "bone-count-mismatch"):
        return (
            f"mesh {mesh!r}: {finding.message}: set '{JOINT_ORDER_LABEL}' to '{label(JOINT_ORDERS, 'file')}' and "
            "name at most 15 bones"
        )
    if code == "bone-parent-after-child":
        return (
            f"mesh {mesh!r}: {finding.message}: list parents before their children in the '{JOINT_NAMES_LABEL}' "
            f"file, or set '{JOINT_ORDER_LABEL}' to '{label(JOINT_ORDERS, 'deform')}'"
        )
    where = finding.location() if hasattr(finding, "location") else ""
    return f"mesh {mesh!r}: {code}: {where}: {finding.message}"


# --- .animclip import refusals -------------------------------------------------------------------


def size_text(n: int) -> str:
    """A size as a person says it: "133 KB", "268 MB", "10.0 GB" (decimal units)."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if n >= scale:
            value = n / scale
            return f"{value:.1f} {unit}" if value < 100 and unit == "GB" else f"{value:.0f} {unit}"
    return f"{n} bytes"


def animclip_import_refusal(exc: AnimspecError) -> str:
    """A refusal of :mod:`animspec.animclip.frames.blender_import` as the Import panel says it."""
    from animspec.animclip.frames.blender_import import (
        BLENDER_FPS_BASE_RANGE,
        BLENDER_SCENE_FPS_MAX,
        HIGHEST_FPS,
        LOWEST_FPS,
        BlenderFpsError,
        BlenderImportTooLargeError,
    )

    if isinstance(exc, BlenderImportTooLargeError):
        motion = f" and {exc.motion_samples:,} root-motion samples" if exc.motion_samples else ""
        return (
            f"{exc.path}: this clip has {exc.frames:,} frames for {exc.bones:,} bones{motion}: {exc.keys:,} bone keys "
            f"would take about {size_text(exc.need)} in Blender; the limit for a {size_text(exc.file_size)} file is "
            f"{size_text(exc.limit)} (about {exc.max_keys:,} bone keys), so it is not imported: the clip asks far more "
            "than its size (nothing was keyed)"
        )
    if isinstance(exc, BlenderFpsError):
        low, high = BLENDER_FPS_BASE_RANGE
        return (
            f"{exc.path}: this clip runs at {exc.fps:.3g} frames per second; a Blender scene holds {LOWEST_FPS:g} to "
            f"{HIGHEST_FPS:.3g} (Frame Rate 1 to {BLENDER_SCENE_FPS_MAX} over Base {low:g} to {high:g}), so it is not "
            "imported (the scene is unchanged)"
        )
    return str(exc)
