"""The documentation is self-contained: no file of the repository points outside it, every
relative link in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/ (sub-folders included)
reaches a file (and heading) that exists, the README links every manual and format note, and
every "spec N.N" a comment or message cites is a numbered section of docs/animclip.md."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from animspec.common.hashes import crc32
from animspec.generated.animclip import Animclip

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# A folder beside the repository that some machines have: not part of the repository, so
# nothing in it may be cited. Spelled in pieces so this file does not match itself.
_SHARED = "shared"
OUTSIDE = re.compile(
    r"\.\./" + _SHARED + r"\b"
    + r"|\b" + _SHARED + r"/(?:spec|notes|seeds|tools|hooks)\b"
    + r"|/work/" + _SHARED
)

SKIP_DIRS = {".git", "node_modules", "build", "__pycache__", ".pytest_cache", ".hypothesis"}


def repo_text_files() -> list[Path]:
    """The repository's files (tracked, or new and not ignored), read as UTF-8 text."""
    names: list[str] | None = None
    if (ROOT / ".git").exists() and shutil.which("git"):
        run = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True,
        )
        if run.returncode == 0:
            names = [n for n in run.stdout.decode().split("\0") if n]
    if names is None:  # no git here: walk the tree, leaving out what is never committed
        names = [
            str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
            if p.is_file() and not any(part in SKIP_DIRS or part.startswith(".venv") for part in p.parts)
        ]
    out = []
    for name in names:
        path = ROOT / name
        if path.is_file() and path.stat().st_size < 4_000_000:
            out.append(path)
    return out


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None  # binary (images, GLB, examples)


def test_nothing_points_outside_the_repository():
    bad = []
    files = repo_text_files()
    assert len(files) > 100, "the file listing found almost nothing; the check would pass vacuously"
    for path in files:
        text = read_text(path)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert not bad, "files that cite a folder outside the repository (cite docs/ instead):\n" + "\n".join(bad)


def test_outside_pattern_matches_what_it_should():
    for line in ("see ../" + _SHARED + "/spec/animclip.md", _SHARED + "/notes/kaitai-toolchain.md, 2a",
                 "(/work/" + _SHARED + "/seeds/000.txt)"):
        assert OUTSIDE.search(line), line
    for line in ("one shared section per payload", "-count-shared-by: [weights]", "a shared two-core machine"):
        assert not OUTSIDE.search(line), line


# ------------------------------------------------------------------------------ links

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def without_code(text: str) -> list[str]:
    """The lines of a Markdown text outside fenced code blocks, inline code removed."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    kept = []
    for ch in text:
        if ch in " -_" or unicodedata.category(ch)[0] in "LN":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]


def test_slug_follows_github():
    assert slug("11. Invariants a validator can check") == "11-invariants-a-validator-can-check"
    assert slug("Numbers: FP12") == "numbers-fp12"
    assert slug("`.animclip` / `.performanceclip`") == "animclip--performanceclip"
    assert slug("7.1 Anim Clip Built (`9DF23F77`, type `built`)") == "71-anim-clip-built-9df23f77-type-built"


@pytest.mark.parametrize("doc", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc):
    broken = []
    for line in without_code(doc.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
                continue
            file_part, _, anchor = target.partition("#")
            dest = (doc.parent / file_part).resolve() if file_part else doc
            if not dest.exists():
                broken.append(f"{target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{target}: no heading with that anchor in {dest.name}")
            elif ROOT not in dest.parents and dest != ROOT:
                broken.append(f"{target}: outside the repository")
    assert not broken, f"{doc.relative_to(ROOT)}:\n" + "\n".join(broken)


def readme_links(name: str = "README.md") -> set[str]:
    return {t for line in without_code((ROOT / name).read_text()) for t in LINK.findall(line)}


def test_readme_lists_the_format_notes():
    links = readme_links()
    for name in ("animbin.md", "meshbin.md", "animclip.md"):
        assert f"docs/{name}" in links, f"README.md does not link docs/{name}"


def test_readme_is_a_front_door_to_every_page():
    """The README stays short and points at the rest: the manuals, format notes and reports of
    docs/ and CONTRIBUTING.md are linked from it; a page for contributors may be linked from
    CONTRIBUTING.md instead."""
    links = {target.partition("#")[0] for target in readme_links()}
    assert "CONTRIBUTING.md" in links, "README.md does not link CONTRIBUTING.md"
    links |= {target.partition("#")[0] for target in readme_links("CONTRIBUTING.md")}  # both at the root
    pages = [f"docs/{p.name}" for p in sorted(DOCS.glob("*.md"))]
    assert {"docs/cli.md", "docs/blender.md", "docs/python.md", "docs/web.md"} <= set(pages)
    manuals = {"docs/cli.md", "docs/blender.md", "docs/python.md", "docs/web.md", "docs/findings.md"}
    assert manuals <= {target.partition("#")[0] for target in readme_links()}, "README.md does not link every manual"
    missing = [page for page in pages if page not in links]
    assert not missing, f"neither README.md nor CONTRIBUTING.md links {missing}"


def test_license_is_the_one_pyproject_declares():
    declared = re.search(r'^license\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert declared and declared.group(1) == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the animspec authors" in text
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text


def test_changelog_has_an_unreleased_section():
    headings = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert headings and headings[0] == "[Unreleased]", headings


# ------------------------------------------------- "spec N.N" means docs/animclip.md

SPEC_REF = re.compile(
    r"\b[Ss]pec (invariant )?(\d+(?:\.\d+)?(?:(?:, ?|-| and )\d+(?:\.\d+)?)*)"
)


def numbered_sections(doc: Path) -> set[str]:
    """'4', '4.6', '11.7' ...: numbered headings and the bold **N.N** labels of section 11."""
    found = set()
    for line in without_code(doc.read_text(encoding="utf-8")):
        m = re.match(r"^#{2,3}\s+(\d+(?:\.\d+)?)\.?\s", line)
        if m:
            found.add(m.group(1))
    found.update(re.findall(r"\*\*(\d+\.\d+)\*\*", doc.read_text(encoding="utf-8")))
    return found


def spec_references() -> list[tuple[str, str]]:
    """(where, number) for each "spec N.N" outside the glTF code (which cites the glTF spec)."""
    refs = []
    for path in repo_text_files():
        rel = str(path.relative_to(ROOT))
        if "gltf" in rel.lower() or path.suffix in {".md", ".svg"}:
            continue
        text = read_text(path)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            for invariant, numbers in SPEC_REF.findall(line):
                for number in re.split(r", ?|-| and ", numbers):
                    refs.append((f"{rel}:{n}", f"11.{number}" if invariant else number))
    return refs


def test_spec_references_name_sections_of_animclip_md():
    sections = numbered_sections(DOCS / "animclip.md")
    assert {"2.2", "4.6", "7.2", "8.1", "11.1", "11.16"} <= sections
    refs = spec_references()
    assert len(refs) > 30, "the code's spec references were not found; the check would pass vacuously"
    missing = [f"{where}: spec {number}" for where, number in refs if number not in sections]
    assert not missing, "references to sections docs/animclip.md does not have:\n" + "\n".join(missing)


def test_animclip_md_says_what_spec_means():
    text = (DOCS / "animclip.md").read_text(encoding="utf-8")
    assert '"spec N.N"' in text


# ---------------------------------------------------- facts the notes must get right

def test_animclip_catalogue_matches_the_spec_and_the_hash():
    """Every row of section 6: the tag is the CRC32 of the name, and the rows are exactly
    the spec's section_tag enum."""
    text = (DOCS / "animclip.md").read_text(encoding="utf-8")
    catalogue = text.split("## 6. Section catalogue", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([0-9A-F]{8})` \| (Anim Clip [^|]+?) \|", catalogue, re.M)
    assert len(rows) == 27  # ALERT's 19 and Spider-Man 2's 8 (Luna Engine IO Tools, hashes.py)
    for tag, name in rows:
        assert crc32(name) == int(tag, 16), f"{name}: CRC32 is {crc32(name):08X}, the table says {tag}"
    assert {int(tag, 16) for tag, _ in rows} == {t.value for t in Animclip.SectionTag}


def test_animclip_hash_vectors_match_the_implementation():
    text = (DOCS / "animclip.md").read_text(encoding="utf-8")
    table = text.split("### 5.1 CRC32", 1)[1].split("###", 1)[0]
    rows = re.findall(r'^\| `"([^"`]*)"` \| `([0-9A-F]{8})` \|', table, re.M)
    assert len(rows) == 9
    for name, value in rows:
        assert crc32(name) == int(value, 16), name


def test_animbin_playback_steps_cited_in_code_exist():
    """'step N' in the ANIMBIN code and its JavaScript port is a numbered playback step of
    docs/animbin.md."""
    text = (DOCS / "animbin.md").read_text(encoding="utf-8")
    playback = text.split("## What playback does", 1)[1].split("\n## ", 1)[0]
    steps = set(re.findall(r"^(\d+)\. \*\*", playback, re.M))
    assert steps == {str(i) for i in range(1, 8)}
    cited = []
    for path in [*(ROOT / "python/animspec/animbin").glob("*.py"), ROOT / "web/js/validate.js",
                 ROOT / "web/js/engine.js", *(ROOT / "tests").glob("test_animbin*.py")]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            cited += [(f"{path.relative_to(ROOT)}:{n}", s) for s in re.findall(r"\bstep (\d+)\b", line)]
    assert cited, "no step references found; the check would pass vacuously"
    assert all(s in steps for _, s in cited), [c for c in cited if c[1] not in steps]
