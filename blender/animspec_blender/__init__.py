"""animspec for Blender: File > Import ANIMBIN / MESHBIN / .animclip animation / .animclip first pose,
File > Export ANIMBIN / MESHBIN / .animclip animation.

The operators are thin: the work is in plain functions that the tests call headless
(:mod:`.importer`, :mod:`.exporter`, :mod:`.rig`). Installed as a Blender extension (Blender
4.4+), the animspec library and its dependencies come from the wheels bundled in the
extension (``make blender-extension``); from a checkout, put python/ and blender/ on the path.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from animspec.common.errors import AnimspecError

from .wording import (
    ANIMBIN_ERRORS,
    APPLY_MODIFIERS_LABEL,
    CLIP_ERRORS,
    CLIP_MAX_ERROR_LABEL,
    ERROR_MEASURE_LABEL,
    ERROR_MEASURES,
    FITS,
    JOINT_NAMES_LABEL,
    JOINT_ORDER_LABEL,
    JOINT_ORDERS,
    LOCAL_CLIP_ERRORS,
    LOOPING_LABEL,
    MAX_ERROR_LABEL,
    MAX_ROTATION_ERROR_LABEL,
    MAX_TRANSLATION_ERROR_LABEL,
    OVERWRITE_LABEL,
    REGIONS,
    ROOT_MOTION_LABEL,
    ROOT_SPACE_AS_IMPORTED,
    ROOT_SPACE_ITEMS,
    ROOT_SPACE_LABEL,
    ROUNDING,
    SAVE_ORDER_LABEL,
    SHELL_LABEL,
    TEMPLATE_LABEL,
    TEXTURE_SIZE_LABEL,
    WHICH,
)

if TYPE_CHECKING:
    from .budget import PanelState


def say(operator, level: str, text: str) -> None:
    """Every message the add-on's operators show goes through here (one place to read them)."""
    operator.report({level}, text)


REFUSALS = (AnimspecError, OSError, ValueError)
"""What an operator's work raises when it refuses (a file it cannot read or write, an option or
a scene it cannot export): shown as the operator's error. Anything else is a bug and keeps its
traceback."""


def reporting_refusals(execute):
    """An operator's ``execute`` whose refusals (:data:`REFUSALS`) are reported as its error, in
    the library's words, and cancel it: the one ``try``/``except``/``say`` of every operator."""

    @functools.wraps(execute)
    def run(self, context):
        try:
            return execute(self, context)
        except REFUSALS as exc:
            say(self, "ERROR", str(exc))
            return {"CANCELLED"}

    return run


def _report_lines(operator, lines, level="INFO") -> None:
    for line in lines:
        say(operator, level, line)


class ANIMSPEC_OT_import_animbin(bpy.types.Operator, ImportHelper):
    """Import the animations of an ANIMBIN file as actions of the active armature (or of an armature built from a MESHBIN)"""  # noqa: E501  (the tooltip: one line)

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

    @reporting_refusals
    def execute(self, context):
        from animspec.animbin import read_file

        from .importer import import_animbin, import_meshbin
        from .rig import read_joint_names

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
        _report_lines(self, report.warnings, "WARNING")
        say(self, "INFO", f"{os.path.basename(self.filepath)}: {len(report.actions)} action(s): "
                          f"{', '.join(report.actions)}")
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

    @reporting_refusals
    def execute(self, context):
        from .importer import import_meshbin

        arm = import_meshbin(self.filepath, scale=self.scale, with_mesh=self.with_mesh)
        say(self, "INFO", f"{arm.name}: {len(arm.data.bones)} bone(s)")
        return {"FINISHED"}


class ANIMSPEC_OT_import_animclip_base_pose(bpy.types.Operator, ImportHelper):
    """Pose the active armature with an Insomniac .animclip's first frame (bones matched by name hash)"""

    bl_idname = "animspec.import_animclip_base_pose"
    bl_label = "Import .animclip first pose"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".animclip"
    filter_glob: StringProperty(default="*.animclip;*.performanceclip", options={"HIDDEN"})
    rig: StringProperty(
        name="glTF rig", subtype="FILE_PATH",
        description="Build the armature from this glTF rig's skin, each bone in its node's frame, turned Z-up as "
                    "Blender's glTF importer turns it, instead of using the active armature",
    )
    joint_names: StringProperty(
        name="Joint names", subtype="FILE_PATH",
        description="Names of the clip's joints, one per line (for the report)",
    )
    frame: IntProperty(name="Frame", default=0, description="Frame to key the first pose on")
    root_space: EnumProperty(name=ROOT_SPACE_LABEL, items=ROOT_SPACE_ITEMS, default="engine")

    @reporting_refusals
    def execute(self, context):
        from .animclip_pose import armature_from_gltf, import_base_pose
        from .rig import read_joint_names

        arm = armature_from_gltf(bpy.path.abspath(self.rig)) if self.rig else context.active_object
        names = read_joint_names(bpy.path.abspath(self.joint_names)) if self.joint_names else None
        report = import_base_pose(arm, self.filepath, frame=self.frame, joint_names=names, root_space=self.root_space)
        if report.clip_only:
            say(self, "WARNING", f"clip joints with no bone: {', '.join(report.clip_only)}")
        if report.bones_only:
            say(self, "INFO", f"bones the clip does not pose: {', '.join(report.bones_only)}")
        say(self, "INFO", f"{report.action}: {len(report.matched)} bone(s) posed; custom tracks kept on the "
                              f"action: {', '.join(report.tracks) or 'none'}")
        return {"FINISHED"}


class ANIMSPEC_OT_import_animclip(bpy.types.Operator, ImportHelper):
    """Key every frame of an Insomniac .animclip / .performanceclip on the active armature (bones matched by name hash), its root motion on the armature"""  # noqa: E501  (the tooltip: one line)

    bl_idname = "animspec.import_animclip"
    bl_label = "Import .animclip animation"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".animclip"
    filter_glob: StringProperty(default="*.animclip;*.performanceclip", options={"HIDDEN"})
    first_frame: IntProperty(name="First frame", default=0, description="Blender frame of the clip's frame 0")
    root_motion: BoolProperty(
        name=ROOT_MOTION_LABEL, default=True,
        description="Key the clip's root motion on the armature object (untick to keep the animation in place)",
    )
    set_scene_fps: BoolProperty(
        name="Scene at the clip's rate", default=True,
        description="Set the scene's frame rate to the clip's: one Blender frame per clip frame",
    )
    root_space: EnumProperty(name=ROOT_SPACE_LABEL, items=ROOT_SPACE_ITEMS, default="engine")

    @reporting_refusals
    def execute(self, context):
        from .animclip_anim import import_animclip

        report = import_animclip(context.active_object, self.filepath, first_frame=self.first_frame,
                                 root_motion=self.root_motion, set_scene_fps=self.set_scene_fps,
                                 root_space=self.root_space)
        for level, text in report.lines():
            say(self, level, text)
        return {"FINISHED"}


class ANIMSPEC_OT_export_animclip(bpy.types.Operator, ExportHelper):
    """Export the active armature's action as an Insomniac .animclip (bones named by hash); the other sections come from a template clip"""  # noqa: E501  (the tooltip: one line)

    bl_idname = "animspec.export_animclip"
    bl_label = "Export .animclip animation"

    filename_ext = ".animclip"
    filter_glob: StringProperty(default="*.animclip;*.performanceclip", options={"HIDDEN"})
    template: StringProperty(
        name=TEMPLATE_LABEL, subtype="FILE_PATH",
        description="A clip of the game whose other sections (custom tracks, triggers, markers, root motion...) "
        "are kept byte for byte; empty: a clip of the animation alone",
    )
    error_measure: EnumProperty(name=ERROR_MEASURE_LABEL, items=ERROR_MEASURES, default="object",
                                description="What the error bound measures")
    max_error: FloatProperty(
        name=CLIP_MAX_ERROR_LABEL, subtype="DISTANCE", default=CLIP_ERRORS.max_error, min=0.0, precision=5,
        description="Largest distance the clip may move any point a 'Shell Distance' from a bone (every parent's "
        "error included), as a reader of the file plays it",
    )
    shell: FloatProperty(
        name=SHELL_LABEL, subtype="DISTANCE", default=CLIP_ERRORS.shell, min=0.0, precision=4,
        description="How far from each bone the error is measured (the default suits a human-sized rig; larger for a "
        "large creature)",
    )
    max_rotation_error: FloatProperty(name=MAX_ROTATION_ERROR_LABEL, default=LOCAL_CLIP_ERRORS.max_error, min=0.0,
                                      max=180.0, description="Expert: largest error of each bone's own rotation")
    max_translation_error: FloatProperty(
        name=MAX_TRANSLATION_ERROR_LABEL, default=LOCAL_CLIP_ERRORS.max_translation_error, min=0.0,
        max=1.0, precision=6,
        description="Expert: largest error of each bone's own translation (and scale), in Blender units",
    )
    looping: EnumProperty(
        name=LOOPING_LABEL, default="action",
        items=[("action", "As the action notes it",
                "An imported clip's looping, else the template's, else not looping"),
               ("yes", "Looping", "The last frame leads back to the first"),
               ("no", "Not looping", "Played once")],
    )
    root_space: EnumProperty(name=ROOT_SPACE_LABEL, items=[ROOT_SPACE_AS_IMPORTED, *ROOT_SPACE_ITEMS], default="action")
    overwrite: BoolProperty(name=OVERWRITE_LABEL, description="Replace an existing file")

    def draw(self, context):
        layout = self.layout
        measure = ("max_error",) if self.error_measure == "object" else ("max_rotation_error", "max_translation_error")
        for name in ("template", "error_measure", *measure, "shell", "looping", "root_space", "overwrite"):
            layout.prop(self, name)

    @reporting_refusals
    def execute(self, context):
        from .animclip_anim import export_animclip, write_animclip

        template = bpy.path.abspath(self.template) if self.template else None
        result = export_animclip(
            context.active_object, template=template, measure=self.error_measure, max_error=self.max_error,
            shell=self.shell, max_rotation_error_deg=self.max_rotation_error,
            max_translation_error=self.max_translation_error,
            looping=None if self.looping == "action" else self.looping == "yes",
            root_space=None if self.root_space == "action" else self.root_space,
        )
        write_animclip(result, self.filepath, template=template, force=self.overwrite)
        _report_lines(self, result.lines)
        _report_lines(self, result.warnings, "WARNING")
        say(self, "INFO", f"{self.filepath}: {len(result.data):,} bytes, {result.summary}")
        return {"FINISHED"}


class ExportOptions:
    """The options the Export panel and the budget panel share (same names, same words)."""

    which: EnumProperty(name="Actions", items=WHICH, default="all")
    chosen: StringProperty(name="Names", description="Comma-separated action names (with 'Named actions')")
    region: EnumProperty(name="Region", items=REGIONS, default="ntsc")
    fit: EnumProperty(name="Fit", items=FITS, default="best")
    fp12: EnumProperty(
        name="FP12", items=ROUNDING, default="round",
        description="How rotations become FP12 (Every frame, Cut and Reduce; Best fit chooses its own values)",
    )
    max_error: FloatProperty(name=MAX_ERROR_LABEL, default=ANIMBIN_ERRORS.max_error, min=1e-4,
                             description="For the Reduce fit")
    joint_order: EnumProperty(name=JOINT_ORDER_LABEL, items=JOINT_ORDERS, default="armature",
                              description="Which bone is joint 0, 1, 2, ... in the file")
    joint_names: StringProperty(
        name=JOINT_NAMES_LABEL, subtype="FILE_PATH",
        description="With Joint order 'Names file': a text file naming the bone of each joint id, one per line, "
                    "parents first",
    )

    def joint_list(self, arm) -> list[str] | None:
        """The joint order chosen (None: the armature's saved order, else deform order)."""
        from .rig import deform_bones, read_joint_names

        if self.joint_order == "deform":
            return deform_bones(arm)
        if self.joint_order == "file":
            if not self.joint_names:
                raise AnimspecError(f"'{JOINT_ORDER_LABEL}' is 'Names file': choose the file in '{JOINT_NAMES_LABEL}'")
            return read_joint_names(bpy.path.abspath(self.joint_names))
        return None

    def export_options(self, arm) -> dict:
        return dict(
            which=self.which, chosen=[n.strip() for n in self.chosen.split(",") if n.strip()],
            region=self.region, fit=self.fit, fp12=self.fp12, max_error_deg=self.max_error,
            joint_names=self.joint_list(arm),
        )

    def draw_options(self, layout) -> None:
        layout.prop(self, "which")
        if self.which == "chosen":
            layout.prop(self, "chosen")
        layout.prop(self, "region")
        layout.prop(self, "fit")
        row = layout.row()
        row.enabled = self.fit != "best"
        row.prop(self, "fp12")
        row = layout.row()
        row.enabled = self.fit == "reduce"
        row.prop(self, "max_error")
        layout.prop(self, "joint_order")
        if self.joint_order == "file":
            layout.prop(self, "joint_names")


class ANIMSPEC_OT_export_animbin(bpy.types.Operator, ExportHelper, ExportOptions):
    """Export actions of the active armature as an ANIMBIN file, checked by animspec's validator"""

    bl_idname = "animspec.export_animbin"
    bl_label = "Export ANIMBIN"

    filename_ext = ".animbin"
    filter_glob: StringProperty(default="*.animbin", options={"HIDDEN"})
    save_joint_order: BoolProperty(
        name=SAVE_ORDER_LABEL,
        description="Keep this joint order on the armature (its animbin_joints property): the next export, "
        "an import and the budget panel use it with Joint order 'Armature's order'",
    )
    keep_file_keys: BoolProperty(
        name="Keep imported values", default=True,
        description="Keys of an imported clip that nobody moved are written with the file's own integers",
    )
    overwrite: BoolProperty(name="Overwrite", description="Replace an existing file")

    def draw(self, context):
        layout = self.layout
        self.draw_options(layout)
        layout.prop(self, "save_joint_order")
        layout.prop(self, "keep_file_keys")
        layout.prop(self, "overwrite")

    @reporting_refusals
    def execute(self, context):
        from .exporter import export_animbin, write_animbin
        from .rig import JOINTS_PROPERTY

        arm = context.active_object
        options = self.export_options(arm) if arm is not None and arm.type == "ARMATURE" else {}
        result = export_animbin(arm, keep_file_keys=self.keep_file_keys, **options)
        _report_lines(self, result.lines)
        _report_lines(self, result.warnings, "WARNING")
        for finding in result.findings:
            level = ("ERROR" if finding in result.errors
                     else "WARNING" if finding.severity.value == "warning" else "INFO")
            say(self, level, f"{finding.code}: {finding.location()}: {finding.message}")
        write_animbin(result, self.filepath, force=self.overwrite)
        if self.save_joint_order:
            from .rig import armature_joints

            arm[JOINTS_PROPERTY] = armature_joints(arm, options.get("joint_names"))
        say(self, "INFO", f"{self.filepath}: {len(result.data)} bytes, {len(result.animbin.animations)} animation(s)")
        return {"FINISHED"}


class ANIMSPEC_OT_export_meshbin(bpy.types.Operator, ExportHelper):
    """Export the active mesh and its armature as a MESHBIN file (the bytes of the engine's OBJ exporter and obj-to-meshbin.py), checked by animspec's validator"""  # noqa: E501  (the tooltip: one line)

    bl_idname = "animspec.export_meshbin"
    bl_label = "Export MESHBIN"

    filename_ext = ".meshbin"
    filter_glob: StringProperty(default="*.meshbin", options={"HIDDEN"})
    apply_modifiers: BoolProperty(
        name=APPLY_MODIFIERS_LABEL, default=True,
        description="Export the mesh as its modifiers leave it (the engine's exporter's default)",
    )
    texture_size: IntProperty(name=TEXTURE_SIZE_LABEL, default=256, min=1, max=256,
                              description="Texels per UV unit (the texture's width and height)")
    joint_order: EnumProperty(
        name=JOINT_ORDER_LABEL, items=JOINT_ORDERS, default="armature",
        description="Which bone is bone 0, 1, 2, ... in the file (the ANIMBIN export's joint ids)",
    )
    joint_names: StringProperty(
        name=JOINT_NAMES_LABEL, subtype="FILE_PATH",
        description="With Joint order 'Names file': a text file naming the bone of each joint id, one per line, "
                    "parents first",
    )
    overwrite: BoolProperty(name="Overwrite", description="Replace an existing file")

    joint_list = ExportOptions.joint_list

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "apply_modifiers")
        layout.prop(self, "texture_size")
        layout.prop(self, "joint_order")
        if self.joint_order == "file":
            layout.prop(self, "joint_names")
        layout.prop(self, "overwrite")

    @reporting_refusals
    def execute(self, context):
        from .meshbin_export import export_meshbin, write_meshbin

        obj = context.active_object
        arm = obj.find_armature() if obj is not None and obj.type == "MESH" else None
        result = export_meshbin(obj, apply_modifiers=self.apply_modifiers, texture_size=self.texture_size,
                                joint_names=self.joint_list(arm) if arm is not None else None)
        _report_lines(self, result.lines)
        _report_lines(self, result.warnings, "WARNING")
        for finding in result.findings:
            if finding not in result.errors:
                say(self, "WARNING" if finding.severity.value == "warning" else "INFO",
                    f"{finding.code}: {finding.location()}: {finding.message}")
        write_meshbin(result, self.filepath, arm, mesh=obj.name, force=self.overwrite)
        say(self, "INFO", f"{self.filepath}: {len(result.data)} bytes, {len(result.bones)} bone(s)")
        return {"FINISHED"}


class ANIMSPEC_PG_budget(bpy.types.PropertyGroup, ExportOptions):
    """The budget panel's export options (Scene.animspec_budget)."""


PANEL_STATES: dict[str, PanelState] = {}
"""Armature name -> the last budget checked (:class:`.budget.PanelState`); the panel only draws it."""


class ANIMSPEC_OT_check_budget(bpy.types.Operator):
    """Run the export with these options without writing, and show each action against the engine's limits"""

    bl_idname = "animspec.check_budget"
    bl_label = "Check ANIMBIN budget"

    @classmethod
    def poll(cls, context):
        return context.active_object is not None and context.active_object.type == "ARMATURE"

    def execute(self, context):
        from .budget import PanelState, panel_state

        arm = context.active_object
        settings = context.scene.animspec_budget
        try:
            state = panel_state(arm, **settings.export_options(arm))
        except REFUSALS as exc:  # the panel shows a refusal in place of the budget
            state = PanelState(refusal=str(exc))
        PANEL_STATES[arm.name] = state
        for text, fits in state.lines():
            say(self, "INFO" if fits else "WARNING", text)
        return {"FINISHED"}


def panel_lines(context) -> list[tuple[str, bool]]:
    """What the budget panel draws below its options (text, fits), for the active armature."""
    arm = context.active_object
    state = PANEL_STATES.get(arm.name) if arm is not None else None
    if state is None:
        return [("press Check budget", True)]
    return state.lines()


class ANIMSPEC_PT_budget(bpy.types.Panel):
    """3D Viewport > Sidebar > ANIMBIN: the export's budget against the engine's limits."""

    bl_label = "ANIMBIN budget"
    bl_idname = "ANIMSPEC_PT_budget"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "ANIMBIN"

    @classmethod
    def poll(cls, context):
        return context.active_object is not None and context.active_object.type == "ARMATURE"

    def draw(self, context):
        layout = self.layout
        context.scene.animspec_budget.draw_options(layout)
        layout.operator(ANIMSPEC_OT_check_budget.bl_idname, text="Check budget")
        column = layout.column(align=True)
        for text, fits in panel_lines(context):
            column.label(text=text, icon="CHECKMARK" if fits else "ERROR")


def _menu_import(self, context):
    self.layout.operator(ANIMSPEC_OT_import_animbin.bl_idname, text="ANIMBIN (.animbin)")
    self.layout.operator(ANIMSPEC_OT_import_meshbin.bl_idname, text="MESHBIN skeleton (.meshbin)")
    self.layout.operator(ANIMSPEC_OT_import_animclip.bl_idname, text="Insomniac .animclip animation")
    self.layout.operator(ANIMSPEC_OT_import_animclip_base_pose.bl_idname, text="Insomniac .animclip first pose")


def _menu_export(self, context):
    self.layout.operator(ANIMSPEC_OT_export_animbin.bl_idname, text="ANIMBIN (.animbin)")
    self.layout.operator(ANIMSPEC_OT_export_meshbin.bl_idname, text="MESHBIN mesh and skeleton (.meshbin)")
    self.layout.operator(ANIMSPEC_OT_export_animclip.bl_idname, text="Insomniac .animclip animation")


CLASSES = (ANIMSPEC_OT_import_animbin, ANIMSPEC_OT_import_meshbin, ANIMSPEC_OT_import_animclip_base_pose,
           ANIMSPEC_OT_import_animclip, ANIMSPEC_OT_export_animclip,
           ANIMSPEC_OT_export_animbin, ANIMSPEC_OT_export_meshbin, ANIMSPEC_PG_budget, ANIMSPEC_OT_check_budget,
           ANIMSPEC_PT_budget)


def register() -> None:
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Scene.animspec_budget = bpy.props.PointerProperty(type=ANIMSPEC_PG_budget)
    bpy.types.TOPBAR_MT_file_import.append(_menu_import)
    bpy.types.TOPBAR_MT_file_export.append(_menu_export)


def unregister() -> None:
    bpy.types.TOPBAR_MT_file_export.remove(_menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(_menu_import)
    del bpy.types.Scene.animspec_budget
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
