"""Build the Blender extension zip of the add-on in blender/animspec_blender.

    python tools/build_blender_extension.py [--platform NAME ...] [--out DIR] [--no-wheels]

1. wheels: the animspec library itself (``pip wheel . --no-deps``) and its dependencies
   from pyproject.toml, downloaded with pip for Blender's Python (3.11, CPython) on each
   platform (pure wheels once, binary ones such as lz4 per platform). numpy is left out:
   Blender ships its own, and a second copy would shadow it. Wheels are bundled unmodified,
   as Blender's extension rules ask.
2. a staging copy of the add-on whose blender_manifest.toml lists those wheels and platforms;
3. the zip, built and checked by Blender's own extension tool (``blender --command extension
   build``), whose script ships inside the bpy module (bl_pkg/cli/blender_ext.py) and runs
   under any Python 3.11, so no Blender binary is needed.

``--no-wheels`` skips step 1 (offline; the result then needs the library on Blender's path).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDON = ROOT / "blender" / "animspec_blender"
PYTHON_VERSION = "3.11"
"""Blender 4.2 to 5.0 embed Python 3.11."""
PIP_PLATFORMS = {
    # Blender's platform name -> pip's platform tags (a wheel for any of them will do).
    "linux-x64": ["manylinux2014_x86_64", "manylinux_2_28_x86_64"],
    "windows-x64": ["win_amd64"],
    "macos-arm64": ["macosx_11_0_arm64"],
    "macos-x64": ["macosx_10_9_x86_64"],
}
BUNDLED_BY_BLENDER = {"numpy"}


def blender_ext_script() -> Path:
    """bl_pkg/cli/blender_ext.py of the bpy module in .venv-blender (or $BLENDER_EXT)."""
    if os.environ.get("BLENDER_EXT"):
        return Path(os.environ["BLENDER_EXT"])
    found = glob.glob(str(ROOT / ".venv-blender" / "lib" / "python3*" / "site-packages" / "bpy" / "*" / "scripts"
                          / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"))
    if not found:
        sys.exit("build_blender_extension: Blender's extension tool not found: run `make .venv-blender/.installed` "
                 "(bpy from PyPI) or set BLENDER_EXT to blender_ext.py")
    return Path(found[0])


def dependencies() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [d for d in project["dependencies"] if re.split(r"[<>=!~ ;\[]", d, 1)[0].lower() not in BUNDLED_BY_BLENDER]


def pip(*args: str) -> None:
    cmd = [sys.executable, "-m", "pip", *args]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def fetch_wheels(wheels: Path, platforms: list[str]) -> None:
    wheels.mkdir(parents=True, exist_ok=True)
    pip("wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT))
    for platform in platforms:
        tags = [a for tag in PIP_PLATFORMS[platform] for a in ("--platform", tag)]
        pip("download", "--quiet", "--only-binary=:all:", "--python-version", PYTHON_VERSION, "--implementation", "cp",
            *tags, "-d", str(wheels), *dependencies())
    for whl in wheels.glob("*.whl"):
        if whl.name.split("-")[0].lower() in BUNDLED_BY_BLENDER:
            whl.unlink()


def manifest_with_wheels(text: str, wheels: list[str], platforms: list[str]) -> str:
    listing = "\n".join(f'  "./wheels/{w}",' for w in wheels)
    extra = f'\nplatforms = [{", ".join(repr(p).replace(chr(39), chr(34)) for p in platforms)}]\nwheels = [\n{listing}\n]\n'
    # Top-level keys must come before the first [table].
    head, sep, tail = text.partition("\n[")
    return head.rstrip("\n") + "\n" + extra + (sep + tail if sep else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--platform", action="append", choices=sorted(PIP_PLATFORMS),
                        help="platforms to bundle binary wheels for (repeatable; default: all four)")
    parser.add_argument("--out", default=str(ROOT / "build" / "blender"), help="output folder")
    parser.add_argument("--no-wheels", action="store_true", help="no wheels (offline build)")
    args = parser.parse_args()
    platforms = args.platform or list(PIP_PLATFORMS)
    out = Path(args.out)
    stage = out / "stage" / ADDON.name
    if stage.exists():
        shutil.rmtree(stage)
    shutil.copytree(ADDON, stage, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    manifest = (ADDON / "blender_manifest.toml").read_text()
    if not args.no_wheels:
        fetch_wheels(stage / "wheels", platforms)
        names = sorted(w.name for w in (stage / "wheels").glob("*.whl"))
        manifest = manifest_with_wheels(manifest, names, platforms)
    (stage / "blender_manifest.toml").write_text(manifest)
    meta = tomllib.loads(manifest)
    target = out / f"{meta['id']}-{meta['version']}.zip"
    tool = blender_ext_script()
    subprocess.run([sys.executable, str(tool), "build", "--source-dir", str(stage), "--output-filepath", str(target)],
                   check=True)
    subprocess.run([sys.executable, str(tool), "validate", str(target)], check=True)
    print(f"{target}: {target.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
