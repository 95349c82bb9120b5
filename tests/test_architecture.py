"""The architecture as rules over the real import graph of python/animspec and of the Blender
add-on, blender/animspec_blender.

Every module is parsed with ``ast``, and every import statement is an edge: at module level
(run when the module is imported) or inside a function (run on that path only), resolved to
the module it names. The rules say what the layers are:

* only a format package's ``adapt.py`` imports the generated parsers (animspec.generated),
  and nothing imports an ``adapt`` module at module level, so detecting a file's format or
  reading a valid file never loads a debug-mode parser;
* the package is layered (:data:`LAYERS`, CONTRIBUTING.md's Architecture section): a module imports
  only modules of its own layer or of the layers under it, and every module has a layer;
* the command line (animspec.cli) is the top: nothing in the library (or the add-on) imports it;
* the Blender add-on (animspec_blender) is a package of its own above the library: it imports
  animspec, and animspec never imports it;
* animspec.common is the bottom: it imports nothing of animspec outside itself;
* the format packages (every package with a ``format.py``) do not import each other, except
  through the seams listed in :data:`SEAMS`, each with its reason;
* no import cycle among modules, counting every import: one inside a function or under
  ``if TYPE_CHECKING:`` still ties the two modules together (a circle hidden in a function is
  still a circle, and only the import order keeps it from failing), except the cycles listed in
  :data:`KNOWN_CYCLES`, each with its reason, and a listed cycle that is gone fails too;
* every package folder ships (pyproject.toml's package list);
* no module imports a name it does not use (package ``__init__``s and the facades in
  :data:`REEXPORTS` import to re-export).

Each rule is a function from the graph to its violations; the tests at the end plant one
violation of each rule in a small package of their own and check that the rule reports it.
"""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE_DIR = ROOT / "python" / "animspec"
BLENDER_DIR = ROOT / "blender" / "animspec_blender"
BLENDER = "animspec_blender"
GENERATED = "animspec.generated"
CLI = "animspec.cli"
COMMON = "animspec.common"
ENTRY_POINT = "animspec.__main__"
"""``python -m animspec``: the one module outside the CLI that may import it."""

SEAMS: dict[tuple[str, str], str] = {
    ("animspec.gltf", "animspec.animbin.model"):
        "glTF <-> ANIMBIN conversion builds and reads the ANIMBIN model (animations, tracks, keys, limits)",
    ("animspec.gltf", "animspec.animbin.playback"):
        "what the console shows: from_animbin bakes the engine's playback, to_animbin and keyfit key on its "
        "vsync rates and check a fit against the engine",
    ("animspec.gltf", "animspec.animbin.budget"):
        "to_animbin reports the error on screen by the budget's one measure (the engine playing the clip "
        "against the curve), the figure the Blender add-on's budget panel gives",
    ("animspec.gltf", "animspec.animbin.validate"):
        "to_animbin refuses a clip the engine would play wrong, with ANIMBIN's own rules",
    ("animspec.gltf", "animspec.animclip.frames.encode"):
        "to_animclip encodes a glTF animation's sampled frames with the .animclip codec",
    ("animspec.gltf", "animspec.animclip.frames.object_space"):
        "to_animclip bounds and reports the clip's object-space error (the encoder's measure), over the rig's joints",
    ("animspec.gltf", "animspec.animclip.frames.sections"):
        "to_animclip puts the encoded animation into a clip model (template sections kept)",
    ("animspec.gltf", "animspec.animclip.model"):
        "to_animclip takes a template clip model and returns one",
    ("animspec.gltf", "animspec.animclip.write"):
        "to_animclip writes the clip it made, to measure its error on the bytes as a reader decodes them",
}
"""(importing format package, imported module) -> why the one format needs the other's
module. Every other import between format packages is a violation, and a seam no module
uses any more fails too (the list stays true)."""


LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("building blocks", ("animspec", "animspec.common")),
    ("core", ("animspec.fixed_point", "animspec.quaternion", "animspec.skeleton", "animspec.kaitai_read",
              "animspec.formats", "animspec.generated")),
    ("formats", ("animspec.animbin", "animspec.meshbin", "animspec.animclip")),
    ("glTF", ("animspec.gltf",)),
    ("library entry points", ("animspec.rigs", "animspec.batch", "animspec.convert", "animspec.dumps")),
    ("command line", ("animspec.cli", "animspec.__main__")),
    ("Blender add-on", (BLENDER,)),
]
"""The layers, bottom up, as CONTRIBUTING.md's Architecture section names them. A name stands for
the module and everything under it, except the root package ``animspec``, which stands for
itself only (it holds ``__version__``). The Blender add-on is a package of its own on top: it may
import any of animspec (the command line aside, by the rule below), and nothing imports it."""


KNOWN_CYCLES: dict[str, str] = {}
"""Import cycles that exist today, as :func:`import_cycles` words them -> why they are allowed
for now. Every other cycle is a violation, and a listed cycle that no longer exists fails too
(the list stays true: empty it when the cycle is broken)."""


REEXPORTS: dict[str, str] = {
    "animspec.animclip.model": "the .animclip model: the file, and the section types of animclip.sections with it, "
                               "so a caller needs one import for a model it builds",
}
"""Modules (besides package ``__init__``s) whose imports are there to be imported from."""


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool
    """Inside a function (run only when it is called), not at module level."""
    type_checking: bool
    """Under ``if TYPE_CHECKING:`` (never run)."""

    def __str__(self) -> str:
        where = "in a function" if self.in_function else "at module level"
        return f"{self.importer}:{self.line} imports {self.imported} ({where})"


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package in folder ``root``, by dotted name (a package by its own)."""
    names = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_graph(root: Path, package: str, *more: tuple[Path, str]) -> list[Import]:
    """Every import, by a module of the package in ``root`` (or of the ``(root, package)``
    pairs in ``more``), of a module of any of those packages."""
    packages = [package, *(name for _, name in more)]
    modules = module_names(root, package)
    for other_root, other in more:
        modules.update(module_names(other_root, other))
    edges: list[Import] = []
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def visit(node: ast.AST, in_function: bool, type_checking: bool) -> None:
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                # `from pkg import mod` imports the module pkg.mod; `from mod import name` mod.
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]
            else:
                for child in ast.iter_child_nodes(node):
                    if isinstance(node, ast.If) and _is_type_checking(node.test) and child in node.body:
                        visit(child, in_function, True)
                    else:
                        visit(child, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                              type_checking)
                return
            for target in dict.fromkeys(targets):
                if any(target == p or target.startswith(p + ".") for p in packages):
                    edges.append(Import(name, target, node.lineno, in_function, type_checking))

        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False, False)
    return edges


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _last_part(module: str) -> str:
    return module.rpartition(".")[2]


# --- the rules: each returns its violations, as readable lines --------------------------------


def generated_imported_outside_adapters(graph: list[Import]) -> list[str]:
    return [f"{e}: only a format package's adapt.py imports the generated parsers"
            for e in graph if _within(e.imported, GENERATED) and _last_part(e.importer) != "adapt"]


def adapters_imported_at_module_level(graph: list[Import]) -> list[str]:
    return [f"{e}: import an adapter where the generated parser is needed (an error, fast=False), "
            "so detection and a valid file's read do not load it"
            for e in graph
            if _last_part(e.imported) == "adapt" and not e.in_function and not e.type_checking
            and _last_part(e.importer) != "adapt"]


def cli_imported_by_the_library(graph: list[Import]) -> list[str]:
    return [f"{e}: the command line is the top layer; move what the library needs out of it"
            for e in graph
            if _within(e.imported, CLI) and not _within(e.importer, CLI) and e.importer != ENTRY_POINT]


def common_imports_above_itself(graph: list[Import]) -> list[str]:
    return [f"{e}: animspec.common is the bottom layer and imports only itself"
            for e in graph if _within(e.importer, COMMON) and not _within(e.imported, COMMON)]


def layer_of(module: str, layers: list[tuple[str, tuple[str, ...]]]) -> int | None:
    for index, (_, members) in enumerate(layers):
        if any(module == m or (m != "animspec" and _within(module, m)) for m in members):
            return index
    return None


def imports_against_the_layers(graph: list[Import], layers: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    problems = []
    for e in graph:
        mine, theirs = layer_of(e.importer, layers), layer_of(e.imported, layers)
        if mine is None or theirs is None:
            orphan = e.importer if mine is None else e.imported
            problems.append(f"{e}: {orphan} belongs to no layer (add it to LAYERS and to CONTRIBUTING.md)")
        elif theirs > mine:
            problems.append(f"{e}: the {layers[mine][0]} layer imports the {layers[theirs][0]} layer above it")
    return problems


def format_packages(root: Path, package: str) -> list[str]:
    """The packages that declare a format (a ``format.py``)."""
    return sorted(f"{package}.{p.parent.name}" for p in root.glob("*/format.py"))


def format_packages_crossing(graph: list[Import], formats: list[str], seams: dict[tuple[str, str], str]) -> list[str]:
    problems = []
    used = set()
    for e in graph:
        mine = next((f for f in formats if _within(e.importer, f)), None)
        theirs = next((f for f in formats if _within(e.imported, f)), None)
        if mine is None or theirs is None or mine == theirs:
            continue
        if (mine, e.imported) in seams:
            used.add((mine, e.imported))
        else:
            problems.append(f"{e}: format packages do not import each other (a new seam goes in SEAMS, with why)")
    problems += [f"seam {a} -> {b} is listed but no module uses it" for a, b in seams if (a, b) not in used]
    return problems


def import_cycles(graph: list[Import]) -> list[str]:
    """The strongly connected components of the whole graph (Tarjan), as cycles: imports in
    functions and under ``if TYPE_CHECKING:`` count, since a cycle they close is still one
    (each module needs the other; only where the import sits keeps it from failing today)."""
    after: dict[str, set[str]] = {}
    for e in graph:
        after.setdefault(e.importer, set()).add(e.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[str] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(after.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in after.get(v, ()):
                cycles.append("import cycle: " + " <-> ".join(sorted(component)))

    for v in sorted(after):
        if v not in index:
            connect(v)
    return sorted(cycles)


def unknown_or_stale_cycles(cycles: list[str], known: dict[str, str]) -> list[str]:
    """The cycles not in ``known``, and the known ones that no longer exist."""
    return [f"{c} (break it: import the shared part from a module both can import)" for c in cycles if c not in known] + [
        f"{c} is listed in KNOWN_CYCLES but no longer exists (remove it from the list)" for c in known if c not in cycles
    ]


def unshipped_packages(root: Path, package: str, pyproject: Path) -> list[str]:
    listed = set(tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    folders = {name for name, path in module_names(root, package).items() if path.name == "__init__.py"}
    return [f"{name}: a package folder missing from pyproject.toml's packages (an install would leave it out)"
            for name in sorted(folders - listed)]


def unused_imports(root: Path, package: str, reexports: dict[str, str]) -> list[str]:
    """Names a module imports and never uses: not as a name, not in a string annotation
    (``"os.PathLike[str]"``), not in ``__all__``; a line marked ``noqa`` is left alone."""
    problems = []
    for name, path in module_names(root, package).items():
        if path.name == "__init__.py" or name in reexports:
            continue
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, str(path))
        lines = text.splitlines()
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:  # a string annotation
                    used |= {n.id for n in ast.walk(ast.parse(node.value, mode="eval")) if isinstance(n, ast.Name)}
                except SyntaxError:
                    pass
            elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                used |= {e.value for e in getattr(node.value, "elts", []) if isinstance(e, ast.Constant)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or getattr(node, "module", None) == "__future__":
                continue
            if any("noqa" in lines[i - 1] for i in range(node.lineno, (node.end_lineno or node.lineno) + 1)):
                continue
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if bound not in used:
                    problems.append(f"{name}:{node.lineno} imports {bound} and never uses it")
    return problems


# --- the real package --------------------------------------------------------------------------

GRAPH = import_graph(PACKAGE_DIR, "animspec", (BLENDER_DIR, BLENDER))


def test_the_graph_sees_both_kinds_of_import():
    # The rules below are only as good as the graph: it must hold module-level and
    # function-level imports, relative and absolute, and the generated parsers.
    assert Import("animspec.animbin.adapt", "animspec.generated.animbin", _line_of("animbin/adapt.py", "from ..generated"),
                  False, False) in GRAPH
    assert any(e.importer == "animspec.animbin.parse" and e.imported == "animspec.animbin.adapt" and e.in_function
               for e in GRAPH)
    assert any(e.importer == ENTRY_POINT and _within(e.imported, CLI) for e in GRAPH)
    assert len({e.importer for e in GRAPH}) > 50
    # The add-on's imports, of itself and of the library, module-level and in functions.
    assert any(e.importer == f"{BLENDER}.meshbin_export" and e.imported == f"{BLENDER}.rig" and not e.in_function
               for e in GRAPH)
    assert any(e.importer == BLENDER and e.imported == f"{BLENDER}.rig" and e.in_function for e in GRAPH)
    assert any(e.importer == f"{BLENDER}.rig" and e.imported == "animspec.common.errors" for e in GRAPH)


def _line_of(relative: str, text: str) -> int:
    lines = (PACKAGE_DIR / relative).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(text))


def test_only_adapters_import_the_generated_parsers():
    assert generated_imported_outside_adapters(GRAPH) == []
    # Each format with a generated parser has its adapter.
    assert sorted(e.importer for e in GRAPH if _within(e.imported, GENERATED)) == [
        "animspec.animbin.adapt", "animspec.animclip.adapt", "animspec.meshbin.adapt",
    ]


def test_adapters_are_imported_only_where_they_are_needed():
    assert adapters_imported_at_module_level(GRAPH) == []


def test_every_import_goes_down_the_layers():
    assert imports_against_the_layers(GRAPH, LAYERS) == []
    everything = {**module_names(PACKAGE_DIR, "animspec"), **module_names(BLENDER_DIR, BLENDER)}
    placed = {m for m in everything if layer_of(m, LAYERS) is not None}
    assert placed == set(everything)


def test_the_library_never_imports_the_blender_add_on():
    # The layer rule says it (the add-on is the top layer); this says it in so many words.
    assert [e for e in GRAPH if _within(e.imported, BLENDER) and not _within(e.importer, BLENDER)] == []
    assert layer_of(BLENDER, LAYERS) == len(LAYERS) - 1


def test_nothing_in_the_library_imports_the_command_line():
    assert cli_imported_by_the_library(GRAPH) == []


def test_common_imports_only_itself():
    assert common_imports_above_itself(GRAPH) == []


def test_format_packages_meet_only_at_documented_seams():
    formats = format_packages(PACKAGE_DIR, "animspec")
    assert formats == ["animspec.animbin", "animspec.animclip", "animspec.gltf", "animspec.meshbin"]
    assert format_packages_crossing(GRAPH, formats, SEAMS) == []


def test_no_import_cycles():
    assert unknown_or_stale_cycles(import_cycles(GRAPH), KNOWN_CYCLES) == []


def test_every_package_ships():
    assert unshipped_packages(PACKAGE_DIR, "animspec", ROOT / "pyproject.toml") == []


def test_no_unused_imports():
    assert unused_imports(PACKAGE_DIR, "animspec", REEXPORTS) == []
    assert unused_imports(BLENDER_DIR, BLENDER, {}) == []
    assert all(m in module_names(PACKAGE_DIR, "animspec") for m in REEXPORTS)


# --- each rule can fail: a package with one planted violation of each --------------------------

PLANTED = {
    "__init__.py": "",
    "__main__.py": "from .cli import main\n",
    "cli/__init__.py": "from ..fmt import parse\n",
    "common/__init__.py": "",
    "common/errors.py": "def fail():\n    from ..fmt.model import Model  # planted: common reaching up\n",
    "fmt/__init__.py": "",
    "fmt/format.py": "",
    "fmt/model.py": "from ..helpers import tool\n",
    "fmt/adapt.py": "from ..generated.fmt import Fmt\n",
    "fmt/parse.py": (
        "from typing import TYPE_CHECKING\n"
        "from . import adapt  # planted: an adapter at module level\n"
        "from ..generated.fmt import Fmt  # planted: generated outside an adapter\n"
        "if TYPE_CHECKING:\n    from ..cli import main  # planted, though never run\n"
    ),
    "other/__init__.py": "",
    "other/format.py": "",
    "other/convert.py": "def go():\n    from ..fmt.model import Model  # planted: format to format, no seam\n",
    "other/seam.py": "from ..fmt.parse import read\n",
    "helpers.py": "from .loop import x  # planted: a cycle\n",
    "unused.py": (
        "import os  # used in a string annotation only\nimport sys  # planted: never used\n"
        "from .loop import y  # noqa: F401  (kept on purpose)\nPATH = 'os.PathLike[str]'\n"
    ),
    "loop.py": "from . import helpers\n",
    "lazy.py": "def later():\n    from . import eager  # planted: a cycle hidden in a function\n",
    "eager.py": "from .lazy import later\n",
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted") / "pkg"
    for relative, text in PLANTED.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root, [_rename(e) for e in import_graph(root, "pkg")]


def _rename(e: Import) -> Import:
    # The rules name the real package; the planted one is called pkg.
    def real(m: str) -> str:
        return "animspec" + m[3:]

    return Import(real(e.importer), real(e.imported), e.line, e.in_function, e.type_checking)


def test_a_planted_generated_import_is_found(planted):
    _, graph = planted
    assert [v.split(":")[0] for v in generated_imported_outside_adapters(graph)] == ["animspec.fmt.parse"]


def test_a_planted_module_level_adapter_import_is_found(planted):
    _, graph = planted
    assert [v.split(":")[0] for v in adapters_imported_at_module_level(graph)] == ["animspec.fmt.parse"]


def test_a_planted_cli_import_is_found_even_under_type_checking(planted):
    _, graph = planted
    assert [v.split(":")[0] for v in cli_imported_by_the_library(graph)] == ["animspec.fmt.parse"]


def test_a_planted_common_import_in_a_function_is_found(planted):
    _, graph = planted
    assert [v.split(":")[0] for v in common_imports_above_itself(graph)] == ["animspec.common.errors"]


def test_a_planted_format_crossing_and_a_stale_seam_are_found(planted):
    root, graph = planted
    formats = [f.replace("pkg.", "animspec.") for f in format_packages(root, "pkg")]
    assert formats == ["animspec.fmt", "animspec.other"]
    seams = {("animspec.other", "animspec.fmt.parse"): "planted", ("animspec.other", "animspec.fmt.gone"): "stale"}
    problems = format_packages_crossing(graph, formats, seams)
    assert [p.split(":")[0] for p in problems] == [
        "animspec.other.convert", "seam animspec.other -> animspec.fmt.gone is listed but no module uses it",
    ]


def test_a_planted_cycle_is_found(planted):
    _, graph = planted
    assert import_cycles(graph) == [
        "import cycle: animspec.cli <-> animspec.fmt.parse",  # closed under TYPE_CHECKING
        "import cycle: animspec.eager <-> animspec.lazy",  # closed in a function
        "import cycle: animspec.helpers <-> animspec.loop",
    ]


def test_a_planted_cycle_in_a_function_is_found(planted):
    # lazy.py imports eager.py only when later() runs, eager.py imports lazy.py at module level:
    # the circle the function-level import hides is still reported.
    _, graph = planted
    closing = [e for e in graph if e.importer == "animspec.lazy"]
    assert [(e.imported, e.in_function) for e in closing] == [("animspec.eager", True)]
    assert "import cycle: animspec.eager <-> animspec.lazy" in import_cycles(graph)


def test_known_cycles_are_allowed_and_a_stale_one_fails(planted):
    _, graph = planted
    cycles = import_cycles(graph)
    known = {"import cycle: animspec.helpers <-> animspec.loop": "planted",
             "import cycle: animspec.gone <-> animspec.loop": "broken since"}
    assert unknown_or_stale_cycles(cycles, known) == [
        "import cycle: animspec.cli <-> animspec.fmt.parse (break it: import the shared part from a module both can import)",
        "import cycle: animspec.eager <-> animspec.lazy (break it: import the shared part from a module both can import)",
        "import cycle: animspec.gone <-> animspec.loop is listed in KNOWN_CYCLES but no longer exists "
        "(remove it from the list)",
    ]


def test_a_package_missing_from_pyproject_is_found(planted, tmp_path):
    root, _ = planted
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[tool.setuptools]\npackages = ["pkg", "pkg.cli", "pkg.common", "pkg.fmt"]\n')
    assert [p.split(":")[0] for p in unshipped_packages(root, "pkg", pyproject)] == ["pkg.other"]


def test_a_planted_unused_import_is_found(planted):
    root, _ = planted
    problems = unused_imports(root, "pkg", {})
    assert "pkg.unused:2 imports sys and never uses it" in problems
    assert not any(p.startswith("pkg.unused:1") or p.startswith("pkg.unused:3") for p in problems)
    assert "pkg.helpers:1 imports x and never uses it" in problems  # a plain unused import elsewhere
    assert unused_imports(root, "pkg", {"pkg.helpers": "re-exports", "pkg.unused": "re-exports"}) == [
        p for p in problems if not p.startswith(("pkg.helpers:", "pkg.unused:"))
    ]


def test_an_import_up_the_layers_and_a_module_without_a_layer_are_found():
    graph = [
        Import("animspec.gltf.rig", "animspec.animbin.model", 1, False, False),  # down: fine
        Import("animspec.animbin.validate", "animspec.gltf.axes", 2, True, False),  # up, in a function
        Import("animspec.common.errors", "animspec", 3, False, False),  # the root: bottom layer
        Import("animspec.common.errors", "animspec.formats", 4, False, False),  # up
        Import("animspec.newthing", "animspec.common.errors", 5, False, False),  # no layer
    ]
    problems = imports_against_the_layers(graph, LAYERS)
    assert [p.split(" imports ")[0] for p in problems] == [
        "animspec.animbin.validate:2", "animspec.common.errors:4", "animspec.newthing:5",
    ]
    assert "the formats layer imports the glTF layer above it" in problems[0]
    assert "belongs to no layer" in problems[2]
