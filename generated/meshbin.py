# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Meshbin(KaitaiStruct):
    """MESHBIN holds one textured, vertex-coloured quad mesh for a PS1 game built on the psyqo
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
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/mesh_manager.cpp
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/mesh_manager.hh
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/skeleton/skeleton.hh
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/MESHBIN.md
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/obj-to-meshbin.py
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/blender_obj_skeleton_exporter.py
    """

    class MeshType(IntEnum):
        quads = 1
        tris = 2
    SEQ_FIELDS = ["magic", "version", "mesh_type", "num_vertices", "num_indices", "num_faces", "num_normals", "num_uvs", "has_skeleton", "num_bones_declared", "vertices", "vertex_colours", "vertex_indices", "normals", "normal_indices", "uvs", "uv_indices", "aabb_min", "aabb_max", "bsphere_centre", "bsphere_radius", "bones", "bone_for_vertex", "trailing"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Meshbin, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(7)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\x4D\x45\x53\x48\x42\x49\x4E":
            raise kaitaistruct.ValidationNotEqualError(b"\x4D\x45\x53\x48\x42\x49\x4E", self.magic, self._io, u"/seq/0")
        self._debug['version']['start'] = self._io.pos()
        self.version = self._io.read_u1()
        self._debug['version']['end'] = self._io.pos()
        self._debug['mesh_type']['start'] = self._io.pos()
        self.mesh_type = KaitaiStream.resolve_enum(Meshbin.MeshType, self._io.read_u1())
        self._debug['mesh_type']['end'] = self._io.pos()
        self._debug['num_vertices']['start'] = self._io.pos()
        self.num_vertices = self._io.read_u4le()
        self._debug['num_vertices']['end'] = self._io.pos()
        self._debug['num_indices']['start'] = self._io.pos()
        self.num_indices = self._io.read_u4le()
        self._debug['num_indices']['end'] = self._io.pos()
        self._debug['num_faces']['start'] = self._io.pos()
        self.num_faces = self._io.read_u4le()
        self._debug['num_faces']['end'] = self._io.pos()
        self._debug['num_normals']['start'] = self._io.pos()
        self.num_normals = self._io.read_u4le()
        self._debug['num_normals']['end'] = self._io.pos()
        self._debug['num_uvs']['start'] = self._io.pos()
        self.num_uvs = self._io.read_u4le()
        self._debug['num_uvs']['end'] = self._io.pos()
        if self.version > 1:
            pass
            self._debug['has_skeleton']['start'] = self._io.pos()
            self.has_skeleton = self._io.read_u1()
            self._debug['has_skeleton']['end'] = self._io.pos()

        if self.version > 1:
            pass
            self._debug['num_bones_declared']['start'] = self._io.pos()
            self.num_bones_declared = self._io.read_u1()
            self._debug['num_bones_declared']['end'] = self._io.pos()

        self._debug['vertices']['start'] = self._io.pos()
        self._debug['vertices']['arr'] = []
        self.vertices = []
        for i in range(self.num_vertices):
            self._debug['vertices']['arr'].append({'start': self._io.pos()})
            _t_vertices = Meshbin.Vec3S4(self._io, self, self._root)
            try:
                _t_vertices._read()
            finally:
                self.vertices.append(_t_vertices)
            self._debug['vertices']['arr'][i]['end'] = self._io.pos()

        self._debug['vertices']['end'] = self._io.pos()
        self._debug['vertex_colours']['start'] = self._io.pos()
        self._debug['vertex_colours']['arr'] = []
        self.vertex_colours = []
        for i in range(self.num_vertices):
            self._debug['vertex_colours']['arr'].append({'start': self._io.pos()})
            _t_vertex_colours = Meshbin.ColourRgb(self._io, self, self._root)
            try:
                _t_vertex_colours._read()
            finally:
                self.vertex_colours.append(_t_vertex_colours)
            self._debug['vertex_colours']['arr'][i]['end'] = self._io.pos()

        self._debug['vertex_colours']['end'] = self._io.pos()
        self._debug['vertex_indices']['start'] = self._io.pos()
        self._debug['vertex_indices']['arr'] = []
        self.vertex_indices = []
        for i in range(self.num_indices):
            self._debug['vertex_indices']['arr'].append({'start': self._io.pos()})
            _t_vertex_indices = Meshbin.IndexQuad(self._io, self, self._root)
            try:
                _t_vertex_indices._read()
            finally:
                self.vertex_indices.append(_t_vertex_indices)
            self._debug['vertex_indices']['arr'][i]['end'] = self._io.pos()

        self._debug['vertex_indices']['end'] = self._io.pos()
        self._debug['normals']['start'] = self._io.pos()
        self._debug['normals']['arr'] = []
        self.normals = []
        for i in range(self.num_normals):
            self._debug['normals']['arr'].append({'start': self._io.pos()})
            _t_normals = Meshbin.Vec3S2(self._io, self, self._root)
            try:
                _t_normals._read()
            finally:
                self.normals.append(_t_normals)
            self._debug['normals']['arr'][i]['end'] = self._io.pos()

        self._debug['normals']['end'] = self._io.pos()
        self._debug['normal_indices']['start'] = self._io.pos()
        self._debug['normal_indices']['arr'] = []
        self.normal_indices = []
        for i in range(self.num_indices):
            self._debug['normal_indices']['arr'].append({'start': self._io.pos()})
            _t_normal_indices = Meshbin.IndexQuad(self._io, self, self._root)
            try:
                _t_normal_indices._read()
            finally:
                self.normal_indices.append(_t_normal_indices)
            self._debug['normal_indices']['arr'][i]['end'] = self._io.pos()

        self._debug['normal_indices']['end'] = self._io.pos()
        self._debug['uvs']['start'] = self._io.pos()
        self._debug['uvs']['arr'] = []
        self.uvs = []
        for i in range(self.num_uvs):
            self._debug['uvs']['arr'].append({'start': self._io.pos()})
            _t_uvs = Meshbin.Uv(self._io, self, self._root)
            try:
                _t_uvs._read()
            finally:
                self.uvs.append(_t_uvs)
            self._debug['uvs']['arr'][i]['end'] = self._io.pos()

        self._debug['uvs']['end'] = self._io.pos()
        self._debug['uv_indices']['start'] = self._io.pos()
        self._debug['uv_indices']['arr'] = []
        self.uv_indices = []
        for i in range(self.num_indices):
            self._debug['uv_indices']['arr'].append({'start': self._io.pos()})
            _t_uv_indices = Meshbin.IndexQuad(self._io, self, self._root)
            try:
                _t_uv_indices._read()
            finally:
                self.uv_indices.append(_t_uv_indices)
            self._debug['uv_indices']['arr'][i]['end'] = self._io.pos()

        self._debug['uv_indices']['end'] = self._io.pos()
        self._debug['aabb_min']['start'] = self._io.pos()
        self.aabb_min = Meshbin.Vec3S2(self._io, self, self._root)
        self.aabb_min._read()
        self._debug['aabb_min']['end'] = self._io.pos()
        self._debug['aabb_max']['start'] = self._io.pos()
        self.aabb_max = Meshbin.Vec3S2(self._io, self, self._root)
        self.aabb_max._read()
        self._debug['aabb_max']['end'] = self._io.pos()
        if self.version >= 3:
            pass
            self._debug['bsphere_centre']['start'] = self._io.pos()
            self.bsphere_centre = Meshbin.Vec3S2(self._io, self, self._root)
            self.bsphere_centre._read()
            self._debug['bsphere_centre']['end'] = self._io.pos()

        if self.version >= 3:
            pass
            self._debug['bsphere_radius']['start'] = self._io.pos()
            self.bsphere_radius = self._io.read_s4le()
            self._debug['bsphere_radius']['end'] = self._io.pos()

        if self.has_skeleton_data:
            pass
            self._debug['bones']['start'] = self._io.pos()
            self._debug['bones']['arr'] = []
            self.bones = []
            for i in range(self.num_bones):
                self._debug['bones']['arr'].append({'start': self._io.pos()})
                _t_bones = Meshbin.Bone(self._io, self, self._root)
                try:
                    _t_bones._read()
                finally:
                    self.bones.append(_t_bones)
                self._debug['bones']['arr'][i]['end'] = self._io.pos()

            self._debug['bones']['end'] = self._io.pos()

        if self.has_skeleton_data:
            pass
            self._debug['bone_for_vertex']['start'] = self._io.pos()
            self.bone_for_vertex = self._io.read_bytes(self.num_vertices)
            self._debug['bone_for_vertex']['end'] = self._io.pos()

        self._debug['trailing']['start'] = self._io.pos()
        self.trailing = self._io.read_bytes_full()
        self._debug['trailing']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        if self.version > 1:
            pass

        if self.version > 1:
            pass

        for i in range(len(self.vertices)):
            pass
            self.vertices[i]._fetch_instances()

        for i in range(len(self.vertex_colours)):
            pass
            self.vertex_colours[i]._fetch_instances()

        for i in range(len(self.vertex_indices)):
            pass
            self.vertex_indices[i]._fetch_instances()

        for i in range(len(self.normals)):
            pass
            self.normals[i]._fetch_instances()

        for i in range(len(self.normal_indices)):
            pass
            self.normal_indices[i]._fetch_instances()

        for i in range(len(self.uvs)):
            pass
            self.uvs[i]._fetch_instances()

        for i in range(len(self.uv_indices)):
            pass
            self.uv_indices[i]._fetch_instances()

        self.aabb_min._fetch_instances()
        self.aabb_max._fetch_instances()
        if self.version >= 3:
            pass
            self.bsphere_centre._fetch_instances()

        if self.version >= 3:
            pass

        if self.has_skeleton_data:
            pass
            for i in range(len(self.bones)):
                pass
                self.bones[i]._fetch_instances()


        if self.has_skeleton_data:
            pass


    class Bone(KaitaiStruct):
        """One bone's rest pose relative to its parent: 21 bytes, no padding (MESHBIN.md's 24 is
        the in-memory struct, not the file).
        
        .. seealso::
           Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/mesh/mesh_manager.cpp
        """
        SEQ_FIELDS = ["parent", "position", "rotation"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.Bone, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['parent']['start'] = self._io.pos()
            self.parent = self._io.read_s1()
            self._debug['parent']['end'] = self._io.pos()
            self._debug['position']['start'] = self._io.pos()
            self.position = Meshbin.Vec3S4(self._io, self, self._root)
            self.position._read()
            self._debug['position']['end'] = self._io.pos()
            self._debug['rotation']['start'] = self._io.pos()
            self.rotation = Meshbin.QuaternionFp12(self._io, self, self._root)
            self.rotation._read()
            self._debug['rotation']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.position._fetch_instances()
            self.rotation._fetch_instances()


    class ColourRgb(KaitaiStruct):
        """A vertex colour. The converter writes the OBJ colour times 128, or 0xff in all three
        channels when the OBJ vertex has no colour.
        """
        SEQ_FIELDS = ["r", "g", "b"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.ColourRgb, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['r']['start'] = self._io.pos()
            self.r = self._io.read_u1()
            self._debug['r']['end'] = self._io.pos()
            self._debug['g']['start'] = self._io.pos()
            self.g = self._io.read_u1()
            self._debug['g']['end'] = self._io.pos()
            self._debug['b']['start'] = self._io.pos()
            self.b = self._io.read_u1()
            self._debug['b']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class IndexQuad(KaitaiStruct):
        """Four indices, one per quad corner, in the order the PS1 quad primitive takes them
        (the converter turns an OBJ face a, b, c, d into a, d, b, c).
        """
        SEQ_FIELDS = ["i0", "i1", "i2", "i3"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.IndexQuad, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['i0']['start'] = self._io.pos()
            self.i0 = self._io.read_s2le()
            self._debug['i0']['end'] = self._io.pos()
            self._debug['i1']['start'] = self._io.pos()
            self.i1 = self._io.read_s2le()
            self._debug['i1']['end'] = self._io.pos()
            self._debug['i2']['start'] = self._io.pos()
            self.i2 = self._io.read_s2le()
            self._debug['i2']['end'] = self._io.pos()
            self._debug['i3']['start'] = self._io.pos()
            self.i3 = self._io.read_s2le()
            self._debug['i3']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class QuaternionFp12(KaitaiStruct):
        """A quaternion stored w, x, y, z, each FP12 (raw / 4096, so 4096 = 1.0)."""
        SEQ_FIELDS = ["w", "x", "y", "z"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.QuaternionFp12, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['w']['start'] = self._io.pos()
            self.w = self._io.read_s2le()
            self._debug['w']['end'] = self._io.pos()
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_s2le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_s2le()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_s2le()
            self._debug['z']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Uv(KaitaiStruct):
        """A texture coordinate (psyqo UVCoords), in texels from the top left."""
        SEQ_FIELDS = ["u", "v"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.Uv, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['u']['start'] = self._io.pos()
            self.u = self._io.read_u1()
            self._debug['u']['end'] = self._io.pos()
            self._debug['v']['start'] = self._io.pos()
            self.v = self._io.read_u1()
            self._debug['v']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Vec3S2(KaitaiStruct):
        """Three int16 components (a normal, or a bounding-box corner)."""
        SEQ_FIELDS = ["x", "y", "z"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.Vec3S2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_s2le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_s2le()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_s2le()
            self._debug['z']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Vec3S4(KaitaiStruct):
        """A position in 20.12 fixed point (raw / 4096)."""
        SEQ_FIELDS = ["x", "y", "z"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Meshbin.Vec3S4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_s4le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_s4le()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_s4le()
            self._debug['z']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    @property
    def has_skeleton_data(self):
        """True when the loader reads bones and bone_for_vertex."""
        if hasattr(self, '_m_has_skeleton_data'):
            return self._m_has_skeleton_data

        self._m_has_skeleton_data =  ((self.version > 1) and (self.has_skeleton != 0)) 
        return getattr(self, '_m_has_skeleton_data', None)

    @property
    def is_loadable(self):
        """False when the loader refuses the file for having too many faces."""
        if hasattr(self, '_m_is_loadable'):
            return self._m_is_loadable

        self._m_is_loadable = self.num_faces < 1000
        return getattr(self, '_m_is_loadable', None)

    @property
    def num_bones(self):
        """Bone records actually read: num_bones_declared, but at most MAX_BONES = 15; 0 without
        skeleton data (num_bones_declared does not exist before version 2).
        """
        if hasattr(self, '_m_num_bones'):
            return self._m_num_bones

        self._m_num_bones = ((self.num_bones_declared if self.num_bones_declared < 15 else 15) if self.has_skeleton_data else 0)
        return getattr(self, '_m_num_bones', None)


