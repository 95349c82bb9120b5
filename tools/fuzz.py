"""Fuzz animspec's readers, pack and convert (issue 7). Targets: tests/fuzz/targets.py.

    python tools/fuzz.py seed                      rebuild tests/fuzz/corpus/ from examples/ and fixtures
    python tools/fuzz.py run [TARGET...] --seconds N [-- LIBFUZZER_FLAGS]
                                                   fuzz each target N seconds (all by default)
    python tools/fuzz.py replay TARGET FILE...     run a target on inputs and show any traceback
    python tools/fuzz.py list                      the targets

``run`` uses atheris (coverage-guided libFuzzer) when it is installed, each target in its own
process with a structure-aware custom mutator; otherwise (or with ``--engine random``) a
seeded random mutation loop. The working corpus grows in build/fuzz/<target>/ (not
committed). Every crash, timeout or out-of-memory input is copied to
tests/fuzz/regressions/<target>/, which tests/test_fuzz.py replays: fix the code, keep the file.
Exit status: 0 when no target crashed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import warnings
import hashlib
import random
import shutil
import subprocess
import sys
import time
import traceback
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# This script's folder comes first on sys.path and its name would shadow tests/fuzz/.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT / "tests"))

from fuzz import targets as T  # noqa: E402

WORK = ROOT / "build" / "fuzz"
RSS_LIMIT_MB = 2048
"""libFuzzer's out-of-memory limit. Inputs are at most 1 MB (targets.MAX_INPUT), so more
than this means a count or offset was believed."""
TIMEOUT_S = 10
"""libFuzzer's per-input time limit: a 1 MB input must be done long before."""


# --------------------------------------------------------------------------- seeds


def _seed_inputs() -> dict[str, list[tuple[str, bytes]]]:
    """Seed inputs per target, built from examples/ and the tests' fixture builders."""
    import conftest as fx
    import test_animclip_support as acs
    import test_gltf_support as gs

    from animspec.common import jsonfmt
    from animspec.formats import by_name
    from animspec.meshbin import read_bytes as read_meshbin
    from animspec.meshbin import write_bytes as write_meshbin

    ex = T.EXAMPLES
    animbin = [(p.name, p.read_bytes()) for p in sorted(ex.glob("*.animbin"))]
    animbin += [
        ("mixed_keys.animbin", fx.one_clip([fx.rot_key(0, 4096, 0, 0, 0), fx.trans_key(3, 1, -2, 3), fx.raw_key(5, 7),
                                           fx.rot_key(9, 0, 4096, 0, 0)])),
        ("markers_tail.animbin", fx.header(2) + fx.anim_header(b"a", 0, 12, 1, 2, tail=b"xyz")
         + fx.track_header(0, 1, 1) + fx.rot_key(0, 4096, 0, 0, 0) + fx.marker(b"m1", 3) + fx.marker(b"m" * 32, 4)
         + fx.anim_header(b"b" * 32, 1, 0, 0, 0) + b"trailing"),
        ("empty.animbin", fx.header(0)),
    ]
    meshbin = [(p.name, p.read_bytes()) for p in sorted(ex.glob("*.meshbin"))]
    mesh = read_meshbin(meshbin[0][1])
    for version in (0, 1):
        m = read_meshbin(meshbin[0][1])
        m.version, m.has_skeleton, m.bones, m.vertex_bones, m.declared_bones = version, 0, [], [], None
        meshbin.append((f"v{version}.meshbin", write_meshbin(m)))
    mesh.has_skeleton, mesh.bones, mesh.vertex_bones = 0, [], []
    meshbin.append(("no_skeleton.meshbin", write_meshbin(mesh)))
    animclip = [(p.name, p.read_bytes()) for p in sorted(ex.glob("*clip"))]
    animclip.append(("appendix_a.animclip", acs.appendix_a()))
    # Spider-Man 2 clips as Luna Engine IO Tools writes them: STG wrapper, per-frame sections
    luna = ROOT / "tests" / "fixtures" / "luna"
    animclip += [(f"luna_{n}.animclip", (luna / f"{n}.animclip").read_bytes()) for n in ("loop_walk", "static_pose")]
    animclip.append(("triggers.animclip", acs.assemble([
        (0x6962F7DE, acs.trigger_data(bytes(8) + struct_object(), [(1, 2, 3, 4, 5)])),
        (0x74FC0175, (0x1234).to_bytes(4, "little")),
    ])))

    def dumps(fmt: str, items: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
        f = by_name(fmt)
        return [(Path(n).stem + ".json", jsonfmt.dumps(f.to_json(f.read(b, n))).encode()) for n, b in items]

    from test_gltf_to_animbin import glb_with, swing_channels

    glbs = [(p.name, p.read_bytes()) for p in sorted(ex.glob("*.glb"))]
    glbs += [
        ("swing_linear.glb", glb_with(0.4)),
        ("swing_step.glb", gs.build_glb(gs.chain(2), [gs.AnimSpec("s", [
            gs.ChannelSpec(c.node, c.path, c.times, c.values, "STEP") for c in swing_channels(2, 0.3)
        ], extras={"markers": [{"name": "hit", "frame": 2}]})])),
        ("cubic.glb", gs.build_glb(gs.chain(2), [gs.AnimSpec("c", [gs.ChannelSpec(
            1, "rotation", [0.0, 0.25], [(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 0), (0, 0, 0, 0), gs.quat_xyzw((1, 0, 0), 30), (0, 0, 0, 0)],
            "CUBICSPLINE")])])),
        ("translation.glb", gs.build_glb(gs.chain(3), [gs.AnimSpec("t", [
            gs.ChannelSpec(0, "translation", [0.0, 0.2], [(0, 0, 0), (0, 1, 0)]),
            gs.ChannelSpec(2, "scale", [0.0, 0.2], [(1, 1, 1), (2, 2, 2)]),
        ])])),
    ]
    return {
        "read_animbin": animbin,
        "convert_animbin": animbin,
        "read_meshbin": meshbin,
        "convert_meshbin_rig": meshbin,
        "read_animclip": animclip,
        "convert_animclip": animclip,
        "pack_animbin": dumps("animbin", animbin),
        "pack_meshbin": dumps("meshbin", meshbin),
        "pack_animclip": dumps("animclip", animclip),
        "convert_gltf": glbs,
        "gltf_rig_folder": _rig_folder_seeds(),
        "encode_animclip": glbs + _encoder_seeds(),
        "blender_import_bounds": animclip + _lookup_seeds(),
    }


def _encoder_seeds() -> list[tuple[str, bytes]]:
    """GLBs at the encoder's edges (issue 27): a rig in
    centimetres (translations past 32,767 units), root motion above the skeleton, joint names
    with one CRC32 (options drawn from the CRC32 of each)."""
    import test_gltf_support as gs
    from pygltflib import Node

    turn = [gs.ChannelSpec(1, "rotation", [0.0, 0.5], [gs.quat_xyzw((1, 0, 0), 0), gs.quat_xyzw((1, 0, 0), 40)])]
    cm = [gs.JointSpec("root", -1, (0.0, 0.0, 0.0)), gs.JointSpec("spine", 0, (0.0, 40000.0, 0.0))]
    moved = [gs.ChannelSpec(0, "translation", [0.0, 0.5], [(0.0, 0.0, -100.0), (0.0, 0.0, 50000.0)])]
    named = [gs.JointSpec("bone29685295", -1, (0.0, 0.0, 0.0)), gs.JointSpec("bone32060020", 0)]
    return [
        ("centimetres.glb", gs.build_glb(cm, [gs.AnimSpec("walk", turn + moved)])),
        ("root_motion.glb", gs.build_glb(gs.chain(2), [gs.AnimSpec("run", turn + [
            gs.ChannelSpec(2, "translation", [0.0, 0.5], [(0.0, 0.0, 0.0), (0.0, 0.0, 3.0)])])],
            extra_nodes=[Node(name="armature", children=[0])])),
        ("crc_names.glb", gs.build_glb(named, [gs.AnimSpec("walk", turn)])),
    ]


def _lookup_seeds() -> list[tuple[str, bytes]]:
    """Clips whose frame lookup shows one sample on every frame (issue 27: 65,535 of them on 102
    joints asked Blender for gigabytes); small here, the mutator raises the counts."""
    import test_blender_import_bounds as bib

    return [("lookup_2000x4.animclip", bib.one_sample_clip(2000, joints=4)),
            ("lookup_tiny_fps.animclip", bib.one_sample_clip(30, joints=4, fps=1.4e-45))]


def _rig_folder_seeds() -> list[tuple[str, bytes]]:
    """glTF JSON rigs (a chain of 4 joints, one rotation animation) whose buffer and image
    are files in the folder gltf_rig_folder plants, or data: URIs."""
    import base64
    import json

    def rig(buffer_uri: str, image_uri: str | None = None) -> bytes:
        nodes = [{"name": f"j{i}", "translation": [0.0, 1.0, 0.0], "children": [i + 1]} for i in range(4)]
        nodes[-1].pop("children")
        doc = {
            "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
            "skins": [{"joints": [0, 1, 2, 3]}],
            "buffers": [{"uri": buffer_uri, "byteLength": len(T.RIG_DATA)}],
            "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 64},
                            {"buffer": 0, "byteOffset": 64, "byteLength": 32}],
            "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR"},
                          {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}],
            "animations": [{"name": "turn", "samplers": [{"input": 0, "output": 1}],
                            "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}],
                            "extras": {"markers": [{"name": "m", "frame": 1}]}}],
        }
        if image_uri is not None:
            doc["images"] = [{"uri": image_uri}]
        return json.dumps(doc, indent=1).encode()

    inline = "data:application/octet-stream;base64," + base64.b64encode(T.RIG_DATA).decode()
    return [
        ("file.gltf", rig("data.bin")),
        ("subfolder.gltf", rig("sub/data.bin")),
        ("escaped.gltf", rig("sub%2Fdata.bin")),
        ("inline.gltf", rig(inline)),
        ("image.gltf", rig("data.bin", "sub/data.bin")),
    ]


def struct_object() -> bytes:
    """One empty Insomniac serialized object (16-byte header, no children)."""
    return (0).to_bytes(4, "little") + (0x03150044).to_bytes(4, "little") + bytes(8)


def seed() -> None:
    for name, items in _seed_inputs().items():
        folder = T.CORPUS / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for file_name, data in items:
            (folder / file_name).write_bytes(data)
        print(f"{folder.relative_to(ROOT)}: {len(items)} seed(s)")


# --------------------------------------------------------------------------- running


def _save_crash(target: T.Target, data: bytes, kind: str = "crash") -> Path:
    folder = T.REGRESSIONS / target.name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}-{hashlib.sha1(data).hexdigest()[:16]}"
    path.write_bytes(data)
    return path


def _signature(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = tb[-1] if tb else None
    return f"{type(exc).__name__} at {where.filename}:{where.lineno}" if where else type(exc).__name__


def run_random(target: T.Target, seconds: float, seed_value: int, memory: bool = False) -> int:
    """Seeded random mutation (no coverage feedback): the fallback without atheris.
    ``memory``: trace each input's peak memory (tracemalloc, slow) and report the largest
    peak, and the largest beyond the 1 MB of fixed costs as a multiple of the input's size
    (the form of the bounds in docs/hardening.md; a target does more than read and validate:
    it also dumps, packs or converts)."""
    rng = random.Random(seed_value)
    pool = target.seeds() or [b""]
    seen: dict[str, Path] = {}
    runs = 0
    worst_ratio, worst_peak, slowest = 0.0, 0, 0.0
    if memory:  # imports and first-use caches are not the input's cost
        for data in pool:
            try:
                target.run(data)
            except Exception:  # noqa: BLE001 - seeds are judged below like any input
                pass
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data = rng.choice(pool)
        for _ in range(rng.randint(1, 3)):
            data = T.mutate(target, data, rng)
        runs += 1
        if memory:
            tracemalloc.start()
        started = time.perf_counter()
        try:
            target.run(data)
        except Exception as exc:  # noqa: BLE001 - every escape is a finding
            sig = _signature(exc)
            if sig not in seen:
                seen[sig] = _save_crash(target, data)
                print(f"{target.name}: {sig}: {exc!s:.200}\n  saved {seen[sig].relative_to(ROOT)}", flush=True)
        else:
            if len(pool) < 2000 and rng.random() < 0.02:
                pool.append(data)  # keep some survivors to mutate further
        finally:
            slowest = max(slowest, time.perf_counter() - started)
            if memory:
                _, peak = tracemalloc.get_traced_memory()
                tracemalloc.stop()
                worst_peak = max(worst_peak, peak)
                worst_ratio = max(worst_ratio, (peak - (1 << 20)) / max(len(data), 1))
    extra = (f", peak memory {worst_peak / (1 << 20):.1f} MB, at most 1 MB + {max(worst_ratio, 0):.1f} x the input"
             if memory else "")
    print(f"{target.name}: {runs} inputs in {seconds:.0f} s (random), {len(seen)} distinct crash(es), "
          f"slowest input {slowest:.2f} s{extra}")
    return 1 if seen else 0


def run_atheris(target: T.Target, seconds: float, seed_value: int, extra: list[str]) -> int:
    corpus = WORK / target.name
    corpus.mkdir(parents=True, exist_ok=True)
    for data in target.seeds():
        (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)
    artifacts = WORK / "artifacts" / target.name
    shutil.rmtree(artifacts, ignore_errors=True)
    artifacts.mkdir(parents=True)
    cmd = [
        sys.executable, __file__, "_atheris", target.name, str(corpus),
        f"-max_total_time={int(seconds)}", f"-seed={seed_value}", f"-rss_limit_mb={RSS_LIMIT_MB}",
        f"-timeout={TIMEOUT_S}", f"-max_len={T.MAX_INPUT}", f"-artifact_prefix={artifacts}/",
        "-print_final_stats=1", *extra,
    ]
    log = WORK / f"{target.name}.log"
    with open(log, "w") as f:
        proc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=ROOT)
    stats = [line for line in log.read_text(errors="replace").splitlines() if line.startswith(("stat::number_of_executed_units", "Done"))]
    found = sorted(artifacts.iterdir())
    for art in found:
        saved = _save_crash(target, art.read_bytes(), art.name.split("-")[0])
        print(f"{target.name}: {art.name.split('-')[0]} saved {saved.relative_to(ROOT)} (log {log.relative_to(ROOT)})")
    print(f"{target.name}: atheris exit {proc.returncode}; {'; '.join(stats) or 'see ' + str(log)}")
    return 1 if found or proc.returncode not in (0,) else 0


def _atheris_child(name: str, corpus: str, libfuzzer_args: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["animspec", "kaitaistruct", "pygltflib"]):
        import animspec.animbin  # noqa: F401
        import animspec.animclip  # noqa: F401
        import animspec.formats  # noqa: F401
        import animspec.gltf  # noqa: F401
        import animspec.common.jsonpath  # noqa: F401
        import animspec.meshbin  # noqa: F401
        import animspec.generated.animbin  # noqa: F401
        import animspec.generated.animclip  # noqa: F401
        import animspec.generated.meshbin  # noqa: F401,F811
    target = T.TARGETS[name]

    def mutator(data: bytes, max_size: int, seed_value: int) -> bytes:
        rng = random.Random(seed_value)
        if rng.random() < 0.5:
            return atheris.Mutate(data, max_size)
        return T.mutate(target, data, rng, max_size)

    atheris.Setup([sys.argv[0], corpus, *libfuzzer_args], target.run, custom_mutator=mutator)
    atheris.Fuzz()


def replay(name: str, files: list[str]) -> int:
    target = T.TARGETS[name]
    status = 0
    for f in files:
        try:
            target.run(Path(f).read_bytes())
        except Exception:  # noqa: BLE001
            status = 1
            print(f"{f}: FAILS")
            traceback.print_exc()
        else:
            print(f"{f}: ok")
    return status


def have_atheris() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_atheris"]:
        _atheris_child(argv[1], argv[2], argv[3:])
        return 0
    p = argparse.ArgumentParser(prog="tools/fuzz.py", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("seed")
    sub.add_parser("list")
    r = sub.add_parser("run")
    r.add_argument("targets", nargs="*", metavar="TARGET")
    r.add_argument("--seconds", type=float, default=60, help="per target (default 60)")
    r.add_argument("--engine", choices=("auto", "atheris", "random"), default="auto")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--memory", action="store_true", help="random engine: trace each input's peak memory (slow)")
    rp = sub.add_parser("replay")
    rp.add_argument("target")
    rp.add_argument("files", nargs="+")
    extra: list[str] = []
    if "--" in argv:  # everything after -- goes to libFuzzer (e.g. -- -jobs=4 -workers=4)
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1 :]
    args = p.parse_args(argv)
    if args.command == "seed":
        seed()
        return 0
    if args.command == "list":
        for t in T.TARGETS.values():
            print(f"{t.name}: {len(t.seeds())} seed(s), {len(t.regressions())} regression input(s)")
        return 0
    if args.command == "replay":
        return replay(args.target, args.files)
    names = args.targets or list(T.TARGETS)
    unknown = [n for n in names if n not in T.TARGETS]
    if unknown:
        p.error(f"unknown target(s) {unknown}; known: {', '.join(T.TARGETS)}")
    engine = args.engine
    if engine == "auto":
        engine = "atheris" if have_atheris() else "random"
    status = 0
    for name in names:
        target = T.TARGETS[name]
        if engine == "atheris":
            status |= run_atheris(target, args.seconds, args.seed, extra)
        else:
            status |= run_random(target, args.seconds, args.seed, args.memory)
    return status


if __name__ == "__main__":
    # numpy's RuntimeWarnings and pygltflib's UserWarnings on hostile input are not findings.
    warnings.simplefilter("ignore")
    sys.exit(main())
