"""Run by tests/test_blender_addon.py in the bpy interpreter; not a test module itself.

    BLENDER_USER_RESOURCES=DIR python tests/blender/install_extension.py EXT.zip OUT_DIR

installs the extension zip as Blender's Preferences > Get Extensions > Install from Disk
does (into the user resources folder the caller isolates), then imports
examples/swing.animbin with examples/pendulum.meshbin and exports it again through the
installed add-on's operators. Writes OUT_DIR/installed.json.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bpy

ROOT = Path(__file__).resolve().parent.parent.parent


def main(zip_path: str, out: Path) -> None:
    result = {"install": sorted(bpy.ops.extensions.package_install_files(
        filepath=zip_path, repo="user_default", enable_on_install=True))}
    result["modules"] = sorted(m for m in sys.modules if m.startswith("bl_ext.") and "animspec" in m)
    result["import"] = sorted(bpy.ops.animspec.import_animbin(
        filepath=str(ROOT / "examples" / "swing.animbin"), meshbin=str(ROOT / "examples" / "pendulum.meshbin")))
    bpy.context.view_layer.objects.active = bpy.data.objects["pendulum"]
    target = out / "installed.animbin"
    result["export"] = sorted(bpy.ops.animspec.export_animbin(filepath=str(target), which="all"))
    result["same_bytes"] = target.read_bytes() == (ROOT / "examples" / "swing.animbin").read_bytes()
    import animspec

    result["animspec_from"] = animspec.__file__
    (out / "installed.json").write_text(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
