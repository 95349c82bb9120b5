"""Run the engine's own Blender OBJ+skeleton exporter on the models of meshbin_scenes.py.

Usage (bpy interpreter, headless):
    python run_engine_obj_exporter.py ENGINE_EXPORTER.py OUT_DIR

ENGINE_EXPORTER.py is psyqo-madnight-engine's tools/blender_obj_skeleton_exporter.py,
unmodified, taken from a checkout of that repository (it is not part of this repository).
It is registered as an add-on script and its operator is called with its defaults, the
mesh selected, as a user does it from File > Export. Writes OUT_DIR/<model>.obj per model.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import meshbin_scenes  # noqa: E402


def main(exporter: Path, out: Path) -> None:
    spec = importlib.util.spec_from_file_location("engine_obj_skel_exporter", exporter)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out.mkdir(parents=True, exist_ok=True)
    for model in meshbin_scenes.MODELS:
        meshbin_scenes.build(model)  # factory settings: register after, every time
        module.register()
        result = bpy.ops.export_scene.obj_skel(filepath=str(out / f"{model}.obj"))
        assert result == {"FINISHED"}, result
        module.unregister()
    print("bpy", bpy.app.version_string)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
