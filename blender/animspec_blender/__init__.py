"""animspec for Blender: File > Import ANIMBIN / MESHBIN / .animclip base pose, File > Export ANIMBIN.

The operators are thin: the work is in plain functions that the tests call headless
(:mod:`.importer`, :mod:`.exporter`, :mod:`.rig`). Installed as a Blender extension (Blender
4.4+), the animspec library and its dependencies come from the wheels bundled in the
extension (``make blender-extension``); from a checkout, put python/ and blender/ on the path.
"""

from __future__ import annotations

import os

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from animspec.common.errors import AnimspecError

REGIONS = [
    ("ntsc", "NTSC (59.94 Hz)", "One console frame per NTSC vsync"),
    ("pal", "PAL (50 Hz)", "One console frame per PAL vsync"),
]
FITS = [
    ("best", "Best fit", "At most 30 keys per track, frames and values chosen for the smallest largest error on screen"),
    ("bake", "Every frame", "A key on every frame; a clip longer than 30 frames is refused"),
    ("cut", "Cut", "A key on every frame; frames past 30 are dropped"),
    ("reduce", "Reduce", "Keys only where the shown pose would drift more than the tolerance"),
]
ROUNDING = [
    ("round", "Round", "FP12 rounded to nearest (half the error of truncation)"),
    ("trunc", "Truncate", "FP12 truncated toward zero, as the engine's own exporter does"),
]
WHICH = [
    ("all", "All actions", "Every action of the armature (at most 5), imported ones in file order"),
    ("active", "Active action", "Only the action assigned to the armature"),
    ("chosen", "Named actions", "The actions named below, in that order"),
]


def _report_lines(operator, lines, level="INFO") -> None:
    for line in lines:
        operator.report({level}, line)


class ANIMSPEC_OT_import_animbin(bpy.types.Operator, ImportHelper):
    """Import the animations of an ANIMBIN file as actions of the active armature (or of an armature built from a MESHBIN)"""

    bl_idname = "animspec.import_animbin"
    bl_label = "Import ANIMBIN"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".animbin"
    filter_glob: StringProperty(default="*.animbin", options={"HIDDEN"})
    meshbin: StringProperty(
        name="MESHBIN", subtype="FILE_PATH",
        description="Build the armature (and its mesh) from this .meshbin instead of using the active armature",
    )
    joint_names: StringProperty(
        name="Joint names", subtype="FILE_PATH",
        description="A text file naming the bone of each joint id, one per line (default: deform-bone order)",
    )
    region: EnumProperty(name="Region", items=REGIONS, default="ntsc")
    first_frame: IntProperty(name="First frame", default=0, description="Blender frame of the clip's frame 0")
    console: BoolProperty(
        name="As the console shows it",
        description="Bake the engine's own playback on every vsync with constant interpolation "
        "(stepping and FP12 error visible) instead of the keys as authored",
    )
    set_scene_fps: BoolProperty(
        name="Scene at the region's rate", default=True,
        description="Set the scene's frame rate to the region's vsync rate: one Blender frame per console frame",
    )
    scale: FloatProperty(name="MESHBIN scale", default=1.0, min=1e-6, description="Multiplies MESHBIN positions")

    def execute(self, context):
        from animspec.animbin import read_file

        from .importer import import_animbin, import_meshbin
        from .rig import read_joint_names

        try:
            animbin = read_file(self.filepath)
            if self.meshbin:
                arm = import_meshbin(bpy.path.abspath(self.meshbin), scale=self.scale)
            else:
                arm = context.active_object
            names = read_joint_names(bpy.path.abspath(self.joint_names)) if self.joint_names else None
            report = import_animbin(
                arm, animbin, region=self.region, first_frame=self.first_frame, console=self.console,
                joint_names=names, set_scene_fps=self.set_scene_fps,
            )
        except (AnimspecError, OSError, ValueError) as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        _report_lines(self, report.warnings, "WARNING")
        self.report({"INFO"}, f"{os.path.basename(self.filepath)}: {len(report.actions)} action(s): {', '.join(report.actions)}")
        return {"FINISHED"}


class ANIMSPEC_OT_import_meshbin(bpy.types.Operator, ImportHelper):
    """Build an armature (and a skinned mesh) from a MESHBIN file's skeleton"""

    bl_idname = "animspec.import_meshbin"
    bl_label = "Import MESHBIN"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".meshbin"
    filter_glob: StringProperty(default="*.meshbin", options={"HIDDEN"})
    scale: FloatProperty(name="Scale", default=1.0, min=1e-6, description="Multiplies MESHBIN positions")
    with_mesh: BoolProperty(name="Mesh", default=True, description="Also import the quads as a skinned mesh")

    def execute(self, context):
        from .importer import import_meshbin

        try:
            arm = import_meshbin(self.filepath, scale=self.scale, with_mesh=self.with_mesh)
        except (AnimspecError, OSError, ValueError) as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        self.report({"INFO"}, f"{arm.name}: {len(arm.data.bones)} bone(s)")
        return {"FINISHED"}


class ANIMSPEC_OT_import_animclip_base_pose(bpy.types.Operator, ImportHelper):
    """Pose the active armature with an Insomniac .animclip's base state (bones matched by name hash)"""

    bl_idname = "animspec.import_animclip_base_pose"
    bl_label = "Import .animclip base pose"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".animclip"
    filter_glob: StringProperty(default="*.animclip;*.performanceclip", options={"HIDDEN"})
    rig: StringProperty(
        name="glTF rig", subtype="FILE_PATH",
        description="Build the armature from this glTF rig's skin, each bone in its node's frame, instead of using the active armature",
    )
    joint_names: StringProperty(
        name="Joint names", subtype="FILE_PATH", description="Names of the clip's joints, one per line (for the report)",
    )
    frame: IntProperty(name="Frame", default=0, description="Frame to key the base pose on")

    def execute(self, context):
        from .animclip_pose import armature_from_gltf, import_base_pose
        from .rig import read_joint_names

        try:
            arm = armature_from_gltf(bpy.path.abspath(self.rig)) if self.rig else context.active_object
            names = read_joint_names(bpy.path.abspath(self.joint_names)) if self.joint_names else None
            report = import_base_pose(arm, self.filepath, frame=self.frame, joint_names=names)
        except (AnimspecError, OSError, ValueError) as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        if report.clip_only:
            self.report({"WARNING"}, f"clip joints with no bone: {', '.join(report.clip_only)}")
        if report.bones_only:
            self.report({"INFO"}, f"bones the clip does not pose: {', '.join(report.bones_only)}")
        self.report({"INFO"}, f"{report.action}: {len(report.matched)} bone(s) posed; custom tracks kept on the "
                              f"action: {', '.join(report.tracks) or 'none'}")
        return {"FINISHED"}


class ANIMSPEC_OT_export_animbin(bpy.types.Operator, ExportHelper):
    """Export actions of the active armature as an ANIMBIN file, checked by animspec's validator"""

    bl_idname = "animspec.export_animbin"
    bl_label = "Export ANIMBIN"

    filename_ext = ".animbin"
    filter_glob: StringProperty(default="*.animbin", options={"HIDDEN"})
    which: EnumProperty(name="Actions", items=WHICH, default="all")
    chosen: StringProperty(name="Names", description="Comma-separated action names (with 'Named actions')")
    region: EnumProperty(name="Region", items=REGIONS, default="ntsc")
    fit: EnumProperty(name="Fit", items=FITS, default="best")
    fp12: EnumProperty(name="FP12", items=ROUNDING, default="round")
    max_error: FloatProperty(name="Tolerance (degrees)", default=1.0, min=1e-4, description="For the Reduce fit")
    keep_file_keys: BoolProperty(
        name="Keep imported values", default=True,
        description="Keys of an imported clip that nobody moved are written with the file's own integers",
    )
    overwrite: BoolProperty(name="Overwrite", description="Replace an existing file")

    def execute(self, context):
        from .exporter import export_animbin, write_animbin

        try:
            result = export_animbin(
                context.active_object, which=self.which,
                chosen=[n.strip() for n in self.chosen.split(",") if n.strip()],
                region=self.region, fit=self.fit, fp12=self.fp12, max_error_deg=self.max_error,
                keep_file_keys=self.keep_file_keys,
            )
        except (AnimspecError, OSError, ValueError) as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        _report_lines(self, result.lines)
        _report_lines(self, result.warnings, "WARNING")
        for finding in result.findings:
            level = "ERROR" if finding in result.errors else "WARNING" if finding.severity.value == "warning" else "INFO"
            self.report({level}, f"{finding.code}: {finding.location()}: {finding.message}")
        try:
            write_animbin(result, self.filepath, force=self.overwrite)
        except (AnimspecError, OSError) as exc:
            self.report({"ERROR"}, str(exc))
            return {"CANCELLED"}
        self.report({"INFO"}, f"{self.filepath}: {len(result.data)} bytes, {len(result.animbin.animations)} animation(s)")
        return {"FINISHED"}


def _menu_import(self, context):
    self.layout.operator(ANIMSPEC_OT_import_animbin.bl_idname, text="ANIMBIN (.animbin)")
    self.layout.operator(ANIMSPEC_OT_import_meshbin.bl_idname, text="MESHBIN skeleton (.meshbin)")
    self.layout.operator(ANIMSPEC_OT_import_animclip_base_pose.bl_idname, text="Insomniac .animclip base pose")


def _menu_export(self, context):
    self.layout.operator(ANIMSPEC_OT_export_animbin.bl_idname, text="ANIMBIN (.animbin)")


CLASSES = (ANIMSPEC_OT_import_animbin, ANIMSPEC_OT_import_meshbin, ANIMSPEC_OT_import_animclip_base_pose,
           ANIMSPEC_OT_export_animbin)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister() -> None:
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
