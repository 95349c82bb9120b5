"""glTF's declaration in the format registry (animspec.formats): detection only. animspec
converts from and to glTF (animspec.convert) and reads rigs from it (animspec.rigs), but does
not validate, dump or pack it, so it declares a Format rather than a FileFormat."""

from __future__ import annotations

from ..formats import Format
from .document import looks_like_gltf

FORMAT = Format(name="gltf", description="glTF 2.0 (GLB or .gltf JSON)", detect=looks_like_gltf)
