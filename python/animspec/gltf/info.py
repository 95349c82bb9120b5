"""What a glTF holds for animspec (``animspec info`` / ``dump`` on a .glb or .gltf): its skins
with their joints, its animations and the joints they move, and what a ``--joints`` file for
``convert`` would hold.

Read through :mod:`.rig`'s public readers only (the document is checked there); nothing here
converts. A joint is named as everywhere else in animspec (:func:`.rig.node_name`), so a
name printed here is one a ``--joints`` file can use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pygltflib import GLTF2

from ..animbin.model import MAX_BONES
from .document import GltfError
from .rig import GltfSource, load_gltf, node_name, node_parents
from .sampling import animation_span


@dataclass(frozen=True)
class SkinSummary:
    index: int
    name: str | None
    joints: list[tuple[int, str]]
    """(node index, name) per joint, in skin order (ANIMBIN joint id = position)."""


@dataclass(frozen=True)
class AnimationSummary:
    index: int
    name: str
    seconds: float
    """From its first key time to its last (0 for none): what a conversion samples
    (:func:`.sampling.animation_span`)."""
    channels: int
    moved: list[str]
    """The nodes its channels drive, in node order."""
    start: float = 0.0
    """Its first key time, where a conversion starts sampling."""


@dataclass(frozen=True)
class GltfSummary:
    """A glTF document as ``animspec info`` shows it."""

    skins: list[SkinSummary]
    animations: list[AnimationSummary]
    joints_file: list[str]
    """What a ``--joints`` file for skin 0 would hold (:func:`joints_proposal`)."""
    nodes: int = 0
    meshes: int = 0
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"glTF 2.0: {self.nodes} node(s), {self.meshes} mesh(es), {len(self.skins)} skin(s), "
                 f"{len(self.animations)} animation(s)"]
        for skin in self.skins:
            label = f" {skin.name!r}" if skin.name else ""
            lines.append(f"  skin {skin.index}{label}: {len(skin.joints)} joint(s), in skin order:")
            lines.extend(_wrapped([f"{i}={name}" for i, (_, name) in enumerate(skin.joints)], "      "))
        for anim in self.animations:
            starts = f" (keys from {anim.start:.3f} s)" if anim.start else ""
            lines.append(f"  animation {anim.index} {anim.name!r}: {anim.seconds:.3f} s{starts}, "
                         f"{anim.channels} channel(s), moves {len(anim.moved)} node(s): "
                         f"{', '.join(anim.moved) or 'none'}")
        if self.skins:
            # The joint limit is the PS1 engine's: it concerns an ANIMBIN output only (an
            # .animclip takes every joint, matched by its name's hash), so it is said as such.
            count = len(self.skins[0].joints)
            if count <= MAX_BONES:
                lines.append(f"  for ANIMBIN (PS1) export: --joints not needed for skin 0 ({count} joint(s), the "
                             f"engine holds {MAX_BONES});")
                lines.append("    a file naming joints one per line, parents first, gives another order or fewer")
            else:
                lines.append(f"  for ANIMBIN (PS1) export only: skin 0 has {count} joints, the PS1 engine holds "
                             f"{MAX_BONES}: give --joints FILE,")
                lines.append("    one name per line, parents first; the animated joints with their parents, leaves "
                             "left out:")
                lines.extend(_wrapped(self.joints_file, "      "))
                lines.append("  for .animclip export: nothing to do, every joint is matched by its name's hash")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "meshes": self.meshes,
            "skins": [{"index": s.index, "name": s.name,
                       "joints": [{"id": i, "node": n, "name": name} for i, (n, name) in enumerate(s.joints)]}
                      for s in self.skins],
            "animations": [{"index": a.index, "name": a.name, "seconds": round(a.seconds, 6),
                            "start": round(a.start, 6), "channels": a.channels, "moves": a.moved}
                           for a in self.animations],
            "joints_file": self.joints_file,
            "notes": self.notes,
        }


def _wrapped(items: Sequence[str], indent: str, width: int = 96) -> list[str]:
    lines, line = [], ""
    for item in items:
        piece = item if not line else f", {item}"
        if line and len(indent) + len(line) + len(piece) > width:
            lines.append(indent + line + ",")
            piece = item
            line = ""
        line += piece
    if line:
        lines.append(indent + line)
    return lines


def animation_label(gltf: GLTF2, index: int) -> str:
    """How animspec names animation ``index``: its name, ``animation<index>`` when it has none
    (what ``--animation`` takes, what ``info`` lists and what a conversion reports)."""
    return gltf.animations[index].name or f"animation{index}"


def summarise(source: GltfSource) -> GltfSummary:
    """The skins, animations and a ``--joints`` proposal of the glTF ``source``."""
    gltf = load_gltf(source)
    skins = [
        SkinSummary(s, skin.name, [(n, node_name(gltf, n)) for n in (skin.joints or [])])
        for s, skin in enumerate(gltf.skins)
    ]
    animations = []
    notes = [] if skins else ["no skin: nothing says which nodes are joints, so convert cannot read this as a rig"]
    cache: dict = {}
    for a, anim in enumerate(gltf.animations):
        targets = {c.target.node for c in anim.channels or [] if c.target is not None and c.target.node is not None}
        try:
            start, end = animation_span(gltf, a, cache)  # (what a conversion samples: one duration)
        except GltfError as exc:
            start = end = 0.0
            notes.append(f"animation {a}: its key times cannot be read ({exc})")
        animations.append(AnimationSummary(a, animation_label(gltf, a), end - start, len(anim.channels or []),
                                           [node_name(gltf, n) for n in sorted(targets)], start))
    proposal = joints_proposal(gltf, skins[0].joints if skins else [], animations)
    return GltfSummary(skins, animations, proposal, len(gltf.nodes), len(gltf.meshes), notes)


def joints_proposal(
    gltf: GLTF2, joints: Sequence[tuple[int, str]], animations: Sequence[AnimationSummary]
) -> list[str]:
    """The names a ``--joints`` file would hold for a skin of ``joints``: all of them in skin
    order when they fit MAX_BONES; else the joints some animation moves (every joint when none
    does), with every skin joint above them, parents before children, and as many leaves left
    out as it takes to fit (the last listed first, a round of leaves at a time, so that whole
    limbs stay as long as they can). Linear in the nodes, whatever the document."""
    if len(joints) <= MAX_BONES:
        return [name for _, name in joints]
    moved = {name for a in animations for name in a.moved}
    parents = node_parents(gltf)
    by_depth = sorted(range(len(parents)), key=_depths(parents).__getitem__)
    in_skin = {n for n, _ in joints}
    # Joints moved, and every skin joint above one: walk up from each, stopping where a walk
    # has already been.
    keep: set[int] = set()
    seen: set[int] = set()
    for node, name in joints:
        up = node if name in moved else -1
        while up != -1 and up not in seen:
            seen.add(up)
            if up in in_skin:
                keep.add(up)
            up = parents[up]
    if not keep:  # nothing animated: every joint, then leaves left out
        keep = set(in_skin)
    # Each kept joint's nearest kept ancestor (-1: none), parents computed before children.
    above: dict[int, int] = {}
    nearest: dict[int, int] = {}
    for node in by_depth:
        up = parents[node]
        nearest[node] = -1 if up == -1 else (up if up in keep else nearest[up])
        if node in keep:
            above[node] = nearest[node]
    order = {n: i for i, (n, _) in enumerate(joints)}
    ordered = _parents_first(sorted(keep, key=order.__getitem__), above)
    excess = len(ordered) - MAX_BONES
    if excess > 0:
        children = {n: 0 for n in ordered}
        for n in ordered:
            if above[n] != -1:
                children[above[n]] += 1
        position = {n: i for i, n in enumerate(ordered)}
        removed: set[int] = set()
        leaves = [n for n in ordered if children[n] == 0]
        while excess > 0 and leaves:
            next_round = []
            for leaf in sorted(leaves, key=position.__getitem__, reverse=True):
                if excess <= 0:
                    break
                removed.add(leaf)
                excess -= 1
                parent = above[leaf]
                if parent != -1:
                    children[parent] -= 1
                    if children[parent] == 0:
                        next_round.append(parent)
            leaves = next_round
        ordered = [n for n in ordered if n not in removed]
    names = {n: name for n, name in joints}
    return [names[n] for n in ordered]


def _depths(parents: Sequence[int]) -> list[int]:
    """Each node's depth below its scene root; GltfError when the node graph has a cycle
    (each node then has one parent, so the reader's one-parent check does not see it)."""
    depth = [-1] * len(parents)
    for start in range(len(parents)):
        path: list[int] = []
        on_path: set[int] = set()
        node = start
        while node != -1 and depth[node] == -1:
            if node in on_path:
                raise GltfError(f"node {node}: its parents form a cycle; glTF nodes must form trees")
            on_path.add(node)
            path.append(node)
            node = parents[node]
        base = -1 if node == -1 else depth[node]
        for k, n in enumerate(reversed(path)):
            depth[n] = base + 1 + k
    return depth


def _parents_first(nodes: list[int], above: dict[int, int]) -> list[int]:
    """``nodes`` in their order, each after the kept node above it (``above``: -1 for none)."""
    ordered: list[int] = []
    placed: set[int] = set()
    for node in nodes:
        chain = []
        up = node
        while up != -1 and up not in placed:
            chain.append(up)
            up = above[up]
        for n in reversed(chain):
            placed.add(n)
            ordered.append(n)
    return ordered


HINT_JOINTS = 64
"""Joints an error message lists at most (``info`` lists them all)."""


def joints_hint(source: GltfSource, skin: int = 0) -> str:
    """For the refusal of a skin with too many joints: its joints in skin order and the
    proposal a ``--joints`` file could start from."""
    summary = summarise(source)
    if not 0 <= skin < len(summary.skins):
        return ""
    joints = summary.skins[skin].joints
    listed = ", ".join(f"{i}={name}" for i, (_, name) in enumerate(joints[:HINT_JOINTS]))
    if len(joints) > HINT_JOINTS:
        listed += f", ... ({len(joints) - HINT_JOINTS} more)"
    text = f"its joints in skin order: {listed}"
    if skin == 0:
        text += f"; for example these {len(summary.joints_file)}: {', '.join(summary.joints_file)}"
    return text + " (animspec info FILE shows them with the animations that move them)"


def document_json(gltf: GLTF2) -> dict[str, Any]:
    """The document's JSON as a plain object (what a .gltf file holds; a GLB's binary chunk
    is not in it)."""
    import json

    return json.loads(gltf.gltf_to_json(separators=(",", ":"), indent=None))


def nodes_above_skin(source: GltfSource, skin: int = 0) -> list[str]:
    """The nodes above the topmost joints of ``skin`` that are not joints themselves (an
    armature object, a node standing a Z-up rig up): what ``--armature-space`` leaves out.
    Empty when there are none, or no such skin."""
    gltf = load_gltf(source)
    if not 0 <= skin < len(gltf.skins):
        return []
    joints = set(gltf.skins[skin].joints or [])
    parents = node_parents(gltf)
    _depths(parents)  # (a cycle is an error, not an endless walk)
    above: set[int] = set()
    seen: set[int] = set()
    for joint in joints:
        up = parents[joint]
        while up != -1 and up not in seen:
            seen.add(up)
            if up not in joints:
                above.add(up)
            up = parents[up]
    return [node_name(gltf, n) for n in sorted(above)]
