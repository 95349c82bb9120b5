meta:
  id: meshbin
  title: psyqo madnight engine meshes with optional skeleton (MESHBIN)
  application: psyqo-madnight-engine (PlayStation 1 homebrew on the psyqo SDK)
  file-extension: meshbin
  license: MIT
  ks-version: '0.11'
  endian: le
doc: |
  MESHBIN holds one textured, vertex-coloured quad mesh for a PS1 game built on the psyqo
  "madnight" engine and, from version 2 on, an optional skeleton: a bone hierarchy with rest
  poses and one bone per vertex (rigid skinning). `tools/obj-to-meshbin.py` writes it from an
  OBJ file (extended with `skel`, `bone` and `vw` lines by
  `tools/blender_obj_skeleton_exporter.py`); `MeshManager` (`src/mesh/mesh_manager.cpp`) reads
  it. ANIMBIN tracks animate this skeleton: an ANIMBIN joint id is an index into `bones`.

  This spec reads what the engine's loader reads, where the loader and `tools/MESHBIN.md`
  disagree:
    * A bone record is 21 bytes (int8 parent, 3 x int32 position, 4 x int16 rotation), as
      both the loader and the converter (`struct` format `<b3i4h`) lay it out. MESHBIN.md
      says 24 bytes, the size of the in-memory struct with alignment padding; no file has
      that padding.
    * The loader reads the has_skeleton and num_bones_declared bytes only when version > 1, and then
      reads bones only when has_skeleton is not 0. Any version byte is accepted; versions 0
      and 1 end after the bounding box.
    * Vertex colours are read as unsigned bytes (MESHBIN.md: int8). The converter writes -1
      (0xff) for "no colour"; the byte is the same either way.
    * Every index array holds num_indices records of four int16 corners; num_faces sizes
      nothing. The loader refuses a file whose num_faces is 1000 (MAX_FACES_PER_MESH) or
      more, and the renderer draws num_faces records, so it must not exceed num_indices.
      The converter writes one record per quad or triangle (a triangle a, b, c as a, -1, b,
      c: the renderer draws a triangle when the second corner is -1); it skips faces of
      five or more corners but still counts them in num_faces.
    * At most MAX_BONES = 15 bone records are read: with num_bones_declared > 15 the loader stops
      after 15 records and takes the next bytes as the per-vertex bone indices, so the rest
      of the file is misread. The spec reproduces that (`num_bones`, the records
      read). Older loaders (MAX_BONES = 50) read all num_bones_declared records, overrunning their array past 50.

  Units: vertex and bone positions are raw 20.12 fixed point (psyqo `FixedPoint<12>`,
  raw / 4096); the converter scales Blender metres by 128 and truncates, so coordinates are
  small integers in practice (the int16 bounding box must hold them). Rotations are FP12
  quaternions stored w, x, y, z. Axes are those of the engine's Blender exporter: Blender's
  Z-up space turned by diag(1, -1, -1), a half turn about X, so "up" is -Z and a hanging
  chain points along +Z.

  The loader checks only the magic and num_faces; it bounds nothing else and does not
  check the file's size (a truncated file is read past its end on the console).
doc-ref:
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/mesh_manager.cpp
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/mesh_manager.hh
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/skeleton/skeleton.hh
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/MESHBIN.md
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/obj-to-meshbin.py
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/blender_obj_skeleton_exporter.py
seq:
  - id: magic
    size: 7
    valid: '[0x4d, 0x45, 0x53, 0x48, 0x42, 0x49, 0x4e]'
    doc: |
      "MESHBIN" in ASCII with no terminator. A mismatch makes the loader abort.
  - id: version
    type: u1
    doc: |
      Format version. The converter writes 3. Versions above 1 carry has_skeleton and
      num_bones_declared, versions 3 and above the bounding sphere; the loader accepts any
      value.
  - id: mesh_type
    type: u1
    enum: mesh_type
    doc: Primitive kind. Stored by the loader, never used. The converter writes 1 (quads).
  - id: num_vertices
    type: u4
    -count-shared-by: [vertex_colours, bone_for_vertex]
    doc: |
      Number of vertices; sizes vertices, vertex_colours and (with a skeleton)
      bone_for_vertex. One count for three parallel arrays, so it cannot carry the name of
      each, as the compiler's style check asks (`num_vertex_colours`,
      `len_bone_for_vertex`); `-count-shared-by` lists the other two for tools/ksc.js.
  - id: num_indices
    type: u4
    -count-shared-by: [vertex_indices, normal_indices, uv_indices]
    doc: |
      Number of index records ("indicesCount"); sizes vertex_indices, normal_indices and
      uv_indices alike. One record per quad. One count for three parallel arrays, named as
      the loader names it rather than after one of them; `-count-shared-by` lists them for
      tools/ksc.js.
  - id: num_faces
    type: u4
    doc: |
      Number of faces ("facesCount"). Sizes nothing in the file. The loader aborts when it
      is 1000 (MAX_FACES_PER_MESH) or more. The converter writes the quad count, equal to
      num_indices.
  - id: num_normals
    type: u4
    doc: Number of normals.
  - id: num_uvs
    type: u4
    doc: Number of texture coordinates.
  - id: has_skeleton
    type: u1
    if: version > 1
    doc: |
      Non-zero when bones and bone_for_vertex follow the bounding box (the converter writes
      1 or 0). Present from version 2 on.
  - id: num_bones_declared
    type: u1
    if: version > 1
    doc: |
      Number of bones the skeleton declares; `num_bones` is how many bone records
      follow. Present from version 2 on. The engine has room
      for 15 (MAX_BONES) and reads at most that many records. The converter writes the
      number of `bone` lines the Blender exporter wrote: the deform bones (older exporters
      counted every bone of the armature).
  - id: vertices
    type: vec3_s4
    repeat: expr
    repeat-expr: num_vertices
    doc: Vertex positions in model space, copied raw into 20.12 fixed-point components.
  - id: vertex_colours
    type: colour_rgb
    repeat: expr
    repeat-expr: num_vertices
    doc: One colour per vertex, in vertex order.
  - id: vertex_indices
    type: index_quad
    repeat: expr
    repeat-expr: num_indices
    doc: The corners of each quad, as indices into vertices.
  - id: normals
    type: vec3_s2
    repeat: expr
    repeat-expr: num_normals
    doc: |
      Normal vectors, int16 each. The loader copies each into the low 16 bits of a 20.12
      component and does not set the upper bits (no sign extension).
  - id: normal_indices
    type: index_quad
    repeat: expr
    repeat-expr: num_indices
    doc: The normal of each quad corner, as indices into normals (-1 from the converter when the OBJ face has none).
  - id: uvs
    type: uv
    repeat: expr
    repeat-expr: num_uvs
    doc: Texture coordinates in texels.
  - id: uv_indices
    type: index_quad
    repeat: expr
    repeat-expr: num_indices
    doc: The texture coordinate of each quad corner, as indices into uvs (-1 from the converter when the OBJ face has none).
  - id: aabb_min
    type: vec3_s2
    doc: |
      Minimum corner of the mesh's axis-aligned bounding box (the collision box), in vertex
      units. The converter computes it from the vertices. The loader copies each int16 into
      the low half of a zeroed 20.12 component, so a negative value is read as 65536 + value.
  - id: aabb_max
    type: vec3_s2
    doc: Maximum corner of the bounding box; read like aabb_min.
  - id: bsphere_centre
    type: vec3_s2
    if: version >= 3
    doc: |
      Centre of the mesh's bounding sphere (version 3 on), in vertex units, read like
      aabb_min. The converter writes the mean of the vertices. The renderer culls a whole
      object when this sphere is off screen.
  - id: bsphere_radius
    type: s4
    if: version >= 3
    doc: |
      Radius of the bounding sphere (version 3 on), in vertex units: the converter writes
      the largest distance from bsphere_centre to a vertex. The loader adds 6 * 128 of
      leeway; when the file has none (version < 3) or it is 0, the loader makes a sphere
      from the bounding box instead.
  - id: bones
    type: bone
    repeat: expr
    repeat-expr: num_bones
    if: has_skeleton_data
    doc: |
      The skeleton's bones in index order (an ANIMBIN joint id indexes this array). The
      engine computes world matrices in this order in one pass, so a parent must come
      before its children.
  - id: bone_for_vertex
    size: num_vertices
    if: has_skeleton_data
    doc: |
      One bone index (uint8) per vertex, in vertex order: each vertex follows exactly one
      bone.
  - id: trailing
    size-eos: true
    doc: |
      Bytes after the last field the loader reads. The engine never looks at them; kept so a
      file can be written back byte for byte.
instances:
  has_skeleton_data:
    value: version > 1 and has_skeleton != 0
    doc: True when the loader reads bones and bone_for_vertex.
  num_bones:
    value: 'has_skeleton_data ? (num_bones_declared < 15 ? num_bones_declared : 15) : 0'
    doc: |
      Bone records actually read: num_bones_declared, but at most MAX_BONES = 15; 0 without
      skeleton data (num_bones_declared does not exist before version 2).
  is_loadable:
    value: num_faces < 1000
    doc: False when the loader refuses the file for having too many faces.
types:
  vec3_s4:
    -webide-representation: '({x:dec}, {y:dec}, {z:dec})'
    doc: A position in 20.12 fixed point (raw / 4096).
    seq:
      - id: x
        type: s4
        doc: X, raw 20.12.
      - id: y
        type: s4
        doc: Y, raw 20.12 (PS1 Y points down).
      - id: z
        type: s4
        doc: Z, raw 20.12.
  vec3_s2:
    -webide-representation: '({x:dec}, {y:dec}, {z:dec})'
    doc: Three int16 components (a normal, or a bounding-box corner).
    seq:
      - id: x
        type: s2
        doc: X component.
      - id: y
        type: s2
        doc: Y component.
      - id: z
        type: s2
        doc: Z component.
  colour_rgb:
    -webide-representation: 'rgb({r:dec}, {g:dec}, {b:dec})'
    doc: |
      A vertex colour. The converter writes the OBJ colour times 128, or 0xff in all three
      channels when the OBJ vertex has no colour.
    seq:
      - id: r
        type: u1
        doc: Red.
      - id: g
        type: u1
        doc: Green.
      - id: b
        type: u1
        doc: Blue.
  uv:
    -webide-representation: '({u:dec}, {v:dec})'
    doc: A texture coordinate (psyqo UVCoords), in texels from the top left.
    seq:
      - id: u
        type: u1
        doc: Horizontal texel.
      - id: v
        type: u1
        doc: Vertical texel.
  index_quad:
    -webide-representation: '[{i0:dec}, {i1:dec}, {i2:dec}, {i3:dec}]'
    doc: |
      Four indices, one per quad corner, in the order the PS1 quad primitive takes them
      (the converter turns an OBJ face a, b, c, d into a, d, b, c).
    seq:
      - id: i0
        type: s2
        doc: First corner.
      - id: i1
        type: s2
        doc: Second corner.
      - id: i2
        type: s2
        doc: Third corner.
      - id: i3
        type: s2
        doc: Fourth corner.
  bone:
    -webide-representation: 'parent {parent:dec} at {position} rot {rotation}'
    doc: |
      One bone's rest pose relative to its parent: 21 bytes, no padding (MESHBIN.md's 24 is
      the in-memory struct, not the file).
    doc-ref: https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/mesh_manager.cpp
    seq:
      - id: parent
        type: s1
        doc: Index of the parent bone, -1 for a root. Not range-checked by the engine.
      - id: position
        type: vec3_s4
        doc: |
          Rest translation relative to the parent, raw 20.12 (the engine's localPos). The
          converter scales the OBJ `bone` line's head position by 128.
      - id: rotation
        type: quaternion_fp12
        doc: |
          Rest rotation relative to the parent (the engine's localRotation), normalised by
          the engine before use.
  quaternion_fp12:
    -webide-representation: 'w={w:dec} x={x:dec} y={y:dec} z={z:dec}'
    doc: A quaternion stored w, x, y, z, each FP12 (raw / 4096, so 4096 = 1.0).
    seq:
      - id: w
        type: s2
        doc: Scalar part, FP12.
      - id: x
        type: s2
        doc: X of the vector part, FP12.
      - id: y
        type: s2
        doc: Y of the vector part, FP12.
      - id: z
        type: s2
        doc: Z of the vector part, FP12.
enums:
  mesh_type:
    1:
      id: quads
      doc: Quads (what the converter writes; the only primitive the index records describe).
    2:
      id: tris
      doc: Triangles. Declared by MESHBIN.md, written by no tool, ignored by the loader.
