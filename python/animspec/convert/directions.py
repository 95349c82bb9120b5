"""The directions a conversion runs in, as a registry: glTF -> ANIMBIN, glTF -> .animclip,
ANIMBIN -> glTF and .animclip -> glTF. Each :class:`Direction` declares its source format,
the extension of what it writes (a batch's output names) and the extensions it refuses, the
options it acts on (an option given for a run none of whose directions acts on it is
refused: animspec.convert.refusals) and its run function. The conversions themselves are in
animspec.gltf; here each run reads its input, checks the options against it, converts,
writes (animspec.convert.output) and reports.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Any, cast

from ..batch import Result
from ..common.errors import AnimspecError, WriteError
from ..common.findings import Finding, findings_text, has_errors
from ..common.inputs import read_input
from ..common.status import EXIT_FINDINGS, EXIT_OK
from ..formats import FormatMismatch, by_name, format_named
from ..gltf.format import BINARY_EXTENSION, JSON_EXTENSION
from .declaration import Direction
from .options import ConvertOptions, parameter_name
from .output import write, write_gltf
from .refusals import OptionRefused, check_moves, check_nodes_above, check_skin, is_gltf

if TYPE_CHECKING:
    from ..animbin import AnimbinFile
    from ..animclip.frames.decode import ClipFrames
    from ..animclip.frames.encode import Tolerance
    from ..animclip.frames.object_space import ObjectTolerance
    from ..gltf import ClipAnimation
    from ..gltf.to_animbin import Fit, Fp12


def _read_model(src: str, fmt: str) -> Any:
    """The model of ``src``, read once, in the format its head was detected as."""
    return by_name(fmt).read(read_input(src), src)


def _explicit_fit(o: ConvertOptions) -> str | None:
    """Why a glTF's ANIMBIN layout in extras is not followed: an explicit fit or key budget."""
    asked = [f"{o.words('fit')} {o.fit}"] if o.fit else []
    asked += [o.words("max_keys")] if "max_keys" in o.given else []
    return f"{' and '.join(asked)} given" if asked else None


def _naming_source(
    convert_gltf: Callable[[str, str, ConvertOptions], Result],
) -> Callable[[str, str, ConvertOptions], Result]:
    """``convert_gltf``, its GltfError naming ``src`` as a batch's failures do (the glTF layer
    names JSON paths and members, not the file they are in); the error keeps its type."""

    @wraps(convert_gltf)
    def run(src: str, out: str, o: ConvertOptions) -> Result:
        from ..gltf.document import GltfError

        try:
            return convert_gltf(src, out, o)
        except GltfError as exc:  # (its type and facts kept: a front end may word it)
            if src not in str(exc):
                exc.args = (f"{src}: {exc}",)
            raise

    return run


@_naming_source
def _gltf_to_animbin(src: str, out: str, o: ConvertOptions) -> Result:
    from ..animbin import read_bytes, write_bytes
    from ..gltf import gltf_to_animbin

    check_skin(src, o)
    if "armature_space" in o.given:
        check_nodes_above(src, o.skin)
    result = gltf_to_animbin(
        src,
        animations=list(o.animations) if o.animations else None,
        skin=o.skin,
        joint_names=list(o.joints) if o.joints else None,
        region=o.region,
        fit=cast("Fit", o.fit or "bake"),  # (gltf_to_animbin refuses any other value)
        layout_not_used=_explicit_fit(o),
        max_error_deg=o.errors("gltf-animbin").max_error,
        ps1_space=o.ps1_space,
        translations=o.translations,
        markers=o.markers,
        looping=False if o.one_shot else None,
        split=o.split,
        fp12=cast("Fp12", o.fp12),
        merge=o.merge,
        armature_space=o.armature_space,
        max_keys=o.max_keys,
    )
    if "split" in o.given and len(result.files) == 1:
        raise OptionRefused("split", "fits-one-file", clips=len(result.clips), file=src)
    lines = [result.report()]
    stem, ext = os.path.splitext(out)
    outputs = [out] if len(result.files) == 1 else [f"{stem}_{i}{ext or '.animbin'}" for i in range(len(result.files))]
    status = EXIT_OK
    all_findings: list[Finding] = []
    for path, model, findings in zip(outputs, result.files, result.findings):
        data = write_bytes(model)

        def same_model(written: bytes, model: AnimbinFile = model, path: str = path) -> None:
            if read_bytes(written, path) != model:
                raise WriteError(path, "the written file does not read back as converted")

        write(path, data, o, src, verify=same_model)
        lines.append(f"{path}: {len(data)} bytes, {len(model.animations)} animation(s)")
        lines.append(findings_text(path, findings))
        all_findings += findings
        if has_errors(findings):
            status = EXIT_FINDINGS
    return Result(src, "gltf", all_findings, text="\n".join(lines), extra={"outputs": outputs}, status=status)


@_naming_source
def _gltf_to_animclip(src: str, out: str, o: ConvertOptions) -> Result:
    """One glTF animation encoded as an .animclip animation (animspec.gltf.to_animclip): its
    object-space error within ``max_error`` at ``shell`` (or, expert, each joint's own error
    within ``local_rotation_error`` / ``local_translation_error``); the other sections from
    ``template``."""
    from ..animclip.frames.encode import EncodeError
    from ..animclip.frames.inputs import sample_inputs
    from ..animclip.frames.object_space import ObjectTolerance
    from ..animclip.parse import read_bytes, read_file
    from ..animclip.tags import FLAG_LOOPING
    from ..gltf.to_animclip import gltf_to_animclip

    if o.animations and len(o.animations) > 1:
        raise OptionRefused("animations", "one-animation", file=src)
    check_skin(src, o)
    check_moves(src, o)
    try:
        template = read_file(o.template) if o.template else None
    except FormatMismatch as exc:
        found = format_named(exc.found).description
        raise OptionRefused("template", "template-not-animclip", template=o.template, found=found, file=src) from None
    looping = False
    if template is not None and template.built is not None and not o.one_shot:
        looping = bool(template.built.flags & FLAG_LOOPING)
    tolerance = animclip_tolerance(o)
    try:
        result = gltf_to_animclip(
            src,
            animation=o.animations[0] if o.animations else None,
            skin=o.skin,
            joint_names=list(o.joints) if o.joints else None,
            fps=o.fps,
            max_error=tolerance,
            looping=looping,
            template=template,
            root_motion=not o.no_root_motion,
        )
    except EncodeError as exc:  # (the encoder names joints and frames, not the file they come from)
        exc.args = (f"{src}: {exc}",)
        raise
    if o.no_root_motion and result.root_motion_left_out is None:
        raise OptionRefused("no_root_motion", "no-root-motion", file=src)
    data = result.data
    # read back and refused as play would refuse it: we write no clip we would not read
    write(out, data, o, src, verify=lambda written: sample_inputs(read_bytes(written, out), out))
    lines = [result.report(), f"{out}: {len(data)} bytes{', looping' if looping else ''}"]
    if not result.met:
        asked = (f"{tolerance.max_error * 1000:g} mm in object space" if isinstance(tolerance, ObjectTolerance)
                 else f"rotation {tolerance.rotation_deg:g} deg, translation {tolerance.translation:g} m")
        lines.append(f"{out}: note: the format's precision reaches only the error above (asked: {asked})")
    return Result(src, "gltf", [], text="\n".join(lines), extra={"outputs": [out]})


def animclip_tolerance(o: ConvertOptions) -> Tolerance | ObjectTolerance:
    """The bound a glTF -> .animclip run gives the encoder: the expert joint-local one when
    either of its options was given, else the object-space bound (the direction's defaults
    for what was not given). Ranges are checked here (OptionRangeError names the option)."""
    from ..animclip.frames.encode import tolerance_for
    from ..animclip.frames.object_space import ObjectTolerance

    local = o.local_errors()
    if local is not None:
        return tolerance_for(local.max_error, cast(float, local.max_translation_error))
    asked = o.errors("gltf-animclip")
    return ObjectTolerance(asked.max_error, cast(float, asked.shell))


def skeleton_source(path: str, joints: tuple[str, ...] | None = None, armature_space: bool = False) -> Any:
    """The --skeleton file, loaded once per process for a whole batch (and again only if it
    changes on disk): a glTF rig (:class:`animspec.gltf.Rig`, joints in ``joints`` order) or
    a MESHBIN skeleton."""
    return _load_skeleton(path, os.stat(path).st_mtime_ns, joints, armature_space)


@lru_cache(maxsize=4)
def _load_skeleton(path: str, _mtime: int, joints: tuple[str, ...] | None, armature_space: bool) -> Any:
    from ..rigs import load_rig_source

    return load_rig_source(path, joint_names=list(joints) if joints else None, armature_space=armature_space)


def _animbin_to_gltf(src: str, out: str, o: ConvertOptions) -> Result:
    from ..gltf import Rig, animbin_to_gltf, animbin_to_gltf_on_rig

    model = _read_model(src, "animbin")

    source = skeleton_source(o.skeleton, o.joints, o.armature_space) if o.skeleton else None
    warnings: list[str] = []
    if isinstance(source, Rig):
        glb = animbin_to_gltf_on_rig(
            model, source, o.region, o.bake_engine, ps1_space=o.ps1_space, skinned=not o.no_skin, notes=warnings
        )
        order = o.words("joints") if o.joints else "skin"
        rig = f"{o.skeleton} ({len(source.nodes)} joint(s) in {order} order, its nodes and meshes kept)"
        used = max((t.joint_id + 1 for a in model.animations for t in a.tracks), default=0)
        if not o.joints and used < len(source.nodes):
            warnings.append(
                f"the clip animates {used} joint(s), the rig has {len(source.nodes)} in skin order: if the clip "
                f"was made with {o.words('joints')} FILE, give the same file here, or joint ids drive other bones"
            )
    else:
        if o.joints:
            raise OptionRefused("joints", "joints-need-gltf-rig", skeleton=o.skeleton)
        glb = animbin_to_gltf(
            model, source, o.region, o.bake_engine, axis_change=not o.ps1_space, skinned=not o.no_skin
        )
        rig = o.skeleton or "a simple chain"
    size = write_gltf(out, glb, o, src)
    what = "engine-faithful playback" if o.bake_engine else "keys as authored"
    text = "\n".join(
        [f"{out}: {size} bytes, {len(model.animations)} animation(s), {what}, on {rig}"]
        + [f"warning: {w}" for w in warnings]
    )
    return Result(src, "animbin", text=text, extra={"outputs": [out]})


def names_line(joints: Sequence[Any], words: Callable[[str], str] = parameter_name) -> str:
    """What the joint names given did for an .animclip's joints (each has ``hash`` and
    ``name``), the option named by ``words`` (a front end's)."""
    named = [j for j in joints if j.name]
    unnamed = [f"{j.hash:08X}" for j in joints if not j.name and j.hash is not None]
    return f"{words('joint_names')}: {len(named)} of {len(joints)} clip joint(s) named" + (
        f"; no name for {', '.join(unnamed)}" if unnamed else ""
    )


def clip_animation(frames: ClipFrames) -> ClipAnimation:
    """A decoded clip as :func:`animspec.gltf.animclip_to_gltf` takes it: every frame (a clip
    without samples: its base pose held from the first frame to the last, so it lasts as
    long), root motion, and where a looping clip is frame 0 again."""
    import numpy as np

    from ..gltf import ClipAnimation

    if frames.animated:
        poses, times = frames.frames(), np.arange(frames.frame_count) / frames.fps
    else:  # the base pose, held from the first frame to the last (the clip lasts as long)
        poses = frames.first_frame.take(np.array([0, 0]) if frames.frame_count > 1 else np.array([0]))
        times = np.array([0.0, frames.frame_count - 1])[: len(poses.rotation)] / frames.fps
    motion = frames.root_motion
    return ClipAnimation(
        frames.joint_hashes,
        times,
        poses.rotation,
        poses.translation,
        poses.scale,
        None if motion is None else np.arange(len(motion.translation)) / frames.fps,
        None if motion is None else motion.translation,
        None if motion is None else motion.rotation,
        frames.frame_count / frames.fps if frames.coding.looping else None,
    )


def _animclip_to_gltf(src: str, out: str, o: ConvertOptions) -> Result:
    """Every frame of the clip on the rig (root motion on a node above it unless
    ``no_root_motion``); a camera clip (flag 0x10) as an animated glTF camera, no rig needed."""
    import numpy as np

    from ..animclip.frames.inputs import BUILT_GLB_NODE_FRAME_BYTES, camera_problems, check_built, file_size_on_disk
    from ..animclip.frames.motion import camera_path
    from ..animclip.frames.pose import clip_frames
    from ..gltf import CameraAnimation, animclip_to_gltf, camera_animation_to_gltf

    model = _read_model(src, "animclip")
    frames = clip_frames(model, src)
    clip = model.clip(list(o.joint_names) if o.joint_names else None)
    tracks = [(t.name or f"{t.hash:08X}", [float(v) for v in t.values]) for t in clip.custom_tracks]
    if frames.coding.camera:
        if frames.root_motion is None:  # (the validator's camera-no-path)
            raise AnimspecError(f"{src}: " + "; ".join(f"{p.code}: {p.message}" for p in camera_problems(model)))
        translation, rotation = camera_path(frames.root_motion)
        xfov = next((np.asarray(values, np.float64) for name, values in tracks if name == "XFOV"), None)
        camera = CameraAnimation(np.arange(len(translation)) / frames.fps, translation, rotation, xfov)
        try:
            glb, lines = camera_animation_to_gltf(camera, name=clip.name or "animclip_camera")
        except AnimspecError as exc:
            raise AnimspecError(f"{src}: {exc}") from None
        size = write_gltf(out, glb, o, src)
        lines.append(f"{out}: {size} bytes, camera animation")
        return Result(src, "animclip", [], text="\n".join(lines), extra={"outputs": [out]})
    if not o.skeleton:
        raise OptionRefused("skeleton", "rig-needed", file=src)
    if not frames.coding.joints:
        raise OptionRefused("skeleton", "no-joints", skeleton=o.skeleton, file=src)
    if os.path.isfile(o.skeleton) and not is_gltf(o.skeleton):
        raise OptionRefused("skeleton", "rig-not-gltf", skeleton=o.skeleton, file=src)
    animation = clip_animation(frames)
    names = {j.hash: j.name for j in clip.joints if j.hash is not None and j.name}
    try:
        glb, match = animclip_to_gltf(
            animation,
            o.skeleton,
            name=clip.name or "animclip",
            root_motion=not o.no_root_motion,
            custom_tracks=tracks,
            joint_names=names,
            check_keys=lambda count, nodes: check_built(
                "a GLB's animation keys", count, nodes, BUILT_GLB_NODE_FRAME_BYTES, file_size_on_disk(model), "node"
            ),
        )
    except AnimspecError as exc:
        raise AnimspecError(f"{src}: {exc}") from None
    size = write_gltf(out, glb, o, src)
    lines = list(match.lines) + [f"note: {n}" for n in frames.notes]
    if o.joint_names:
        lines.append(names_line(clip.joints, o.words))
    what = (
        f"{frames.frame_count} frame(s) at {frames.fps:g} fps"
        if frames.animated
        else "the base pose (the clip has no samples)"
    )
    lines.append(f"{out}: {size} bytes, {what} on {len(match.matched)} node(s)")
    if match.findings:
        lines.append(findings_text(out, match.findings))
    return Result(src, "animclip", match.findings, text="\n".join(lines), extra={"outputs": [out]})


GLTF_NAMES = "{stem}.glb (binary glTF) or {stem}.gltf (JSON, buffer embedded)"
NOT_GLTF = {
    ".animbin": "an ANIMBIN",
    ".animclip": "an .animclip",
    ".performanceclip": "an .animclip",
    ".meshbin": "a MESHBIN",
    ".json": "JSON",
}
GLTF_EXTENSIONS = (BINARY_EXTENSION, JSON_EXTENSION)
"""A glTF output is GLB unless its name ends in .gltf (animspec.gltf.format.file_bytes)."""
ANIMBIN_OPTIONS = frozenset({"region", "joints", "ps1_space", "armature_space", "skeleton", "bake_engine", "no_skin"})

DIRECTIONS: tuple[Direction, ...] = (
    Direction(
        "gltf-animbin",
        "gltf",
        "glTF -> ANIMBIN",
        ".animbin",
        "an ANIMBIN",
        "{stem}.animbin (or {stem}.animclip, for an .animclip animation)",
        {
            ".glb": "a glTF",
            ".gltf": "a glTF",
            ".performanceclip": "a .performanceclip",
            ".meshbin": "a MESHBIN",
            ".json": "JSON",
        },
        (".animbin",),
        frozenset(
            {
                "region",
                "animations",
                "skin",
                "joints",
                "fit",
                "max_error",
                "max_keys",
                "ps1_space",
                "armature_space",
                "fp12",
                "merge",
                "translations",
                "markers",
                "one_shot",
                "split",
            }
        ),
        _gltf_to_animbin,
    ),
    Direction(
        "gltf-animclip",
        "gltf",
        "glTF -> .animclip (-o ending in .animclip)",
        ".animclip",
        "an .animclip",
        "{stem}.animclip",
        {},
        (".animclip",),
        frozenset(
            {
                "animations",
                "skin",
                "joints",
                "max_error",
                "template",
                "fps",
                "shell",
                "local_rotation_error",
                "local_translation_error",
                "one_shot",
                "no_root_motion",
            }
        ),
        _gltf_to_animclip,
    ),
    Direction(
        "animbin-gltf",
        "animbin",
        "ANIMBIN -> glTF",
        ".glb",
        "glTF",
        GLTF_NAMES,
        NOT_GLTF,
        GLTF_EXTENSIONS,
        ANIMBIN_OPTIONS,
        _animbin_to_gltf,
    ),
    Direction(
        "animclip-gltf",
        "animclip",
        ".animclip -> glTF",
        ".glb",
        "glTF",
        GLTF_NAMES,
        NOT_GLTF,
        GLTF_EXTENSIONS,
        frozenset({"skeleton", "joint_names", "no_root_motion"}),
        _animclip_to_gltf,
    ),
)
"""Every direction, in the order the refusals list them."""


def direction_of(source: str | None, output: str, single: bool) -> Direction | None:
    """The direction a file of format ``source`` converts in: glTF to an .animclip when one
    file is written to a name ending in .animclip, else by its format (None: not a source)."""
    if source == "gltf" and single and output.lower().endswith(".animclip"):
        return DIRECTIONS[1]
    return next((d for d in DIRECTIONS if d.source == source), None)
