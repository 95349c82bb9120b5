"""The DAT1 sections as one module each (animclip/sections/): the registry by tag, the
protocol every section type implements, and the model below the view's decoder inputs and
the placement (no import circle, function-level and TYPE_CHECKING imports included)."""

from __future__ import annotations

import ast
from dataclasses import fields

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT

from animspec.animclip import read_file
from animspec.animclip.sections import TYPED_SECTIONS, RawSection, SectionBase, derived_counts, section_type
from animspec.animclip.sections.base import Split, WriteContext
from animspec.animclip.sections.built import BUILT_DTYPE, BUILT_FIELDS, Built
from animspec.animclip.sections.trigger_data import TriggerData
from animspec.animclip.tags import DERIVED_COUNTS, SECTION_NAMES

PROTOCOL = ("read", "adapt", "payload", "payload_size", "to_json", "from_json")
ANIMCLIP = ROOT / "python" / "animspec" / "animclip"


def test_the_registry_holds_each_typed_tag_once_and_falls_back_to_raw():
    assert len(set(TYPED_SECTIONS.values())) == len(TYPED_SECTIONS)
    for tag, cls in TYPED_SECTIONS.items():
        assert cls.tag == tag and tag in SECTION_NAMES and section_type(tag) is cls
        assert cls.__module__.startswith("animspec.animclip.sections."), cls
    assert section_type(0x12345678) is RawSection
    untyped = set(SECTION_NAMES) - set(TYPED_SECTIONS)
    assert untyped and all(section_type(tag) is RawSection for tag in untyped)


@pytest.mark.parametrize("cls", [*TYPED_SECTIONS.values(), RawSection], ids=lambda c: c.__name__)
def test_every_section_type_implements_the_protocol_in_its_own_module(cls):
    for name in PROTOCOL:
        assert getattr(cls, name) is not getattr(SectionBase, name), f"{cls.__name__}.{name}"
        assert vars(cls).get(name) is not None, f"{cls.__name__}.{name} is not defined in its own class"


def test_every_section_of_the_examples_round_trips_through_its_own_type():
    """read -> payload -> read again, per section: each type reads back what it writes,
    and payload_size is the payload's length."""
    for name in ("walk.animclip", "wave.performanceclip"):
        model = read_file(EXAMPLES / name)
        derived = derived_counts(model.sections)
        built = model.built
        ctx = WriteContext(derived, built.split(derived) if built is not None else Split())
        for s in model.sections:
            payload = bytes(s.payload(ctx, "s"))
            assert len(payload) == s.payload_size()
            again = type(s).read(s.tag, payload, 0, len(payload), ctx.split)
            # Derived values read back as numbers; the model read from the file keeps them None.
            if isinstance(s, Built):
                for count in DERIVED_COUNTS:
                    setattr(again, count, getattr(s, count))
            if isinstance(s, TriggerData) and s.len_jsons is None:
                assert again.len_jsons == len(again.jsons)
                again.len_jsons = None
            assert again == s, s.name


def test_built_is_its_dtype():
    assert BUILT_DTYPE.itemsize == 96
    assert BUILT_FIELDS == BUILT_DTYPE.names
    assert tuple(f.name for f in fields(Built) if f.name not in ("offset", "trailing")) == BUILT_FIELDS
    record = np.zeros(1, BUILT_DTYPE)
    record["num_joints"], record["fps"], record["word_48"] = 7, 24.0, 0xDEADDEAD
    built = Built.read(Built.tag, record.tobytes(), 0, 96, Split())
    assert (built.num_joints, built.fps, built.word_48) == (7, 24.0, 0xDEADDEAD)
    assert built.payload(WriteContext(dict.fromkeys(DERIVED_COUNTS, 0), Split()), "b") == record.tobytes()


def _imports(path, package: str) -> set[str]:
    """Every animspec module ``path`` imports: module level, in functions, under TYPE_CHECKING."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)  # `from . import views`
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m.startswith("animspec.")}


def _module_path(name: str):
    rel = name.removeprefix("animspec.").split(".")
    path = ROOT / "python" / "animspec" / "/".join(rel)
    if path.is_dir():
        return path / "__init__.py"
    path = path.with_suffix(".py")
    return path if path.exists() else None


def reached_from(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        path = _module_path(name)
        if name in seen or path is None:
            continue
        seen.add(name)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        todo.extend(_imports(path, package))
    return seen


def test_the_model_imports_neither_views_nor_placement_nor_the_writer():
    reached = reached_from("animspec.animclip.model")
    for above in ("placement", "write", "frames.decode", "frames.inputs", "frames.encode", "jsonio", "validate"):
        assert f"animspec.animclip.{above}" not in reached, above
    assert "animspec.animclip.sections" in reached and "animspec.animclip.view" in reached


def test_the_section_modules_import_nothing_above_them():
    for path in (ANIMCLIP / "sections").glob("*.py"):
        reached = reached_from(f"animspec.animclip.sections.{path.stem}")
        above = {m for m in reached if m.startswith("animspec.animclip.") and not m.startswith("animspec.animclip.sections")}
        # frames.coding is the codec's bottom (numpy only): Sample Elem's element codes are
        # unpacked there for the decoder and the encoder alike.
        assert above <= {"animspec.animclip.tags", "animspec.animclip.frames.coding"}, (path.name, above)
        assert not any(m.startswith("animspec.generated") for m in reached), path.name
