# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Animclip(KaitaiStruct):
    """An Insomniac Games skeletal animation clip as extracted from the game archives (for example
    by ALERT's Assets Browser): a 36-byte outer asset header followed by a DAT1 container whose
    sections are identified by 32-bit tags. Spider-Man 2 clips (DAT1 type 0x41DFFB44, "i30")
    as Luna Engine IO Tools writes them have a 32-byte `STG` wrapper instead of the 36-byte
    header, or nothing (a bare DAT1); the first u32 tells the three apart (`is_stg`,
    `is_bare_dat1`, `has_asset_header`). `.performanceclip` files have the same magic and
    the same sections as `.animclip` files; nothing inside the file tells them apart (the
    distinction lives in the asset path/extension and in the assets that reference the clip).
    
    Layers: outer asset header (36 bytes) or STG wrapper (32) or nothing -> DAT1 (16-byte
    header, section table of 12-byte entries, "unknowns" table of 8-byte entries, strings
    block, section payloads) -> 27 known section kinds (enum `section_tag`: ALERT's 19 and 8
    Spider-Man 2 names; a tag without a type here stays raw bytes).
    
    Per-frame animation (EXTERNAL, Luna Engine IO Tools): Sample Elem lists the packed joint
    components each sample adds to and the bit width and shift of each field; Sample Data
    holds an optional frame lookup and the bit-packed samples; a frame's pose = the Base State
    integers + (field << shift), quaternion normalised, translation / 2^shift, scale /
    divisor. Base State is therefore the base of the deltas, not a pose, for every joint an
    element animates. All multi-byte values
    are little-endian. "DAT1 offset" means an offset from the first byte of the DAT1 header
    ("1TAD"); the section table's offsets are DAT1 offsets.
    
    LZ4-compressed DAT1 bodies. The DAT1 body (file offset 36 on) may be one raw LZ4 block
    (block format, no frame header). Detection rule (ALERT, `dat1lib/types/dat1.py`): let B be
    the body's first 7 bytes. If u32le(B[0..4]) is the DAT1 magic 0x44415431 ("1TAD") the body
    is plain. Otherwise, if that magic occurs as a u32 at B[2..6] (checked first), B[1..5] or
    B[3..7], the whole remainder of the file is one LZ4 block: the DAT1 header is the first
    literal run, and the magic sits after the token byte plus 0, 1 or 2 literal-length
    extension bytes. The decompressed size is the DAT1 header's own `len_dat1`, the u32 found
    8 bytes after the magic inside those literals (the outer header's `len_dat1` should hold
    the same value). Otherwise ALERT parses the body as a plain DAT1 anyway.
    THIS SPEC PARSES THE DECOMPRESSED DAT1: the caller (animspec's Python adapter) detects a
    compressed body, decompresses it, and parses outer header + decompressed DAT1 with this
    spec (or the DAT1 alone with type `dat1`, which leaves serialized-object key names
    unresolved: they are read from `_root.dat1`). If it is handed a compressed file anyway, the
    spec applies the same detection rule (`is_lz4_compressed`) and keeps the block as raw
    bytes in `lz4_body` instead of failing; `dat1` is then absent.
    
    Strings. The strings block starts at DAT1 offset S = 16 + 12*N + 8*U (after the tables)
    and ends at the smallest section offset. The clip name (Built +0x00) and custom-track
    names (Custom Tracks +0x04) are offsets relative to S; the key-name offsets inside
    serialized objects (Trigger Data) are DAT1-absolute per ALERT.
    
    Status labels used in every `doc`: KNOWN (ALERT parses the field and relies on it),
    LABELLED (ALERT attaches a name or a question-marked guess; nothing depends on it),
    UNKNOWN (ALERT reads it only as raw bytes or generic words), EXTERNAL (not from ALERT).
    Source: the ALERT research tools (Tkachov/ALERT, snapshot bc90ed9): dat1lib/types/dat1.py,
    dat1lib/types/autogen.py and dat1lib/types/sections/animclip/autogen.py. No code in ALERT
    branches on the game version for
    these sections; the same layouts apply to MSMR, MM and RCRA. Spider-Man 2 and the per-frame
    data: Luna Engine IO Tools (Pcniado/luna_engine_io_tools, snapshot 77ea909, GPL-3.0; facts
    only): hashes.py, constants.py, flags.py, anim_import.py, anim_export.py, binary.py,
    motion.py. The animspec repository's docs/animclip.md explains the format in prose, with
    the numbered invariants cited here.
    
    .. seealso::
       Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/autogen.py
    
    
    .. seealso::
       Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
    
    
    .. seealso::
       Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/decompression.py
    
    
    .. seealso::
       Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/__init__.py
    
    
    .. seealso::
       Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    
    
    .. seealso::
       Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
    
    
    .. seealso::
       Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_export.py
    
    
    .. seealso::
       Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/hashes.py
    """

    class AssetType(IntEnum):
        animclip_rcra = 258277352
        animclip_2 = 967611196
        animclip_msm2 = 1105197892
        animclip_msmr_mm = 3379517683

    class ClipFlag(IntEnum):
        std = 1
        curves = 2
        facial_poses = 4
        performance = 8
        camera = 16
        looping = 32
        additive = 64
        partial = 128
        has_phase = 256
        constant_phase = 512
        embedded = 1024
        partial_motion = 4096
        locator = 8192
        user_pose = 32768
        frame_data_lookup = 65536
        stream_frame_data = 131072
        cinematic = 262144
        uncompressed = 524288
        has_anim_morph = 1048576
        has_anim_geom = 2097152
        has_events = 4194304
        has_motion = 8388608
        has_custom_tracks = 16777216
        has_facial = 33554432
        has_anim_ziva = 67108864
        has_motion_samples = 134217728
        has_geom_cache = 1073741824
        motion_delta = 2147483648

    class MotionType(IntEnum):
        standard = 0
        full = 1

    class PackedComponent(IntEnum):
        scale_x = 0
        scale_y = 1
        scale_z = 2
        scale_divisor = 3
        rot_x = 4
        rot_y = 5
        rot_z = 6
        rot_w = 7
        pos_x = 8
        pos_y = 9
        pos_z = 10
        pos_shift = 11

    class SectionTag(IntEnum):
        sample_data_paged = 48918666
        curves = 165425323
        custom_track_data = 292468356
        custom_tracks = 335629494
        geom_samples = 388168431
        pose_phoneme_visems_map = 491510266
        morph_info = 662004725
        base_state = 733330575
        spline_mesh_info = 756959051
        geom_mesh_info = 823211642
        path = 964093004
        sample_data = 981157973
        geom_sample_data = 1092113109
        pose_expression_id_map = 1230741625
        curves_data = 1338609022
        trigger_data = 1768093662
        morph_frame_data = 1777747336
        trigger_joint_names = 1962672501
        sample_data_resident = 2325059809
        built = 2649898871
        joint_hashes = 2746377792
        sample_elem = 3497055064
        tracks_data = 3690036713
        motion_data = 3767182175
        spline_mesh_samples = 3839953920
        geom_mesh_sample_data = 3973784710
        markers = 4212196101

    class SerializedMarker(IntEnum):
        standard = 51707972
        sunset_overdrive = 119544169

    class SerializedType(IntEnum):
        uint8 = 0
        uint16 = 1
        uint32 = 2
        int8 = 4
        int16 = 5
        int32 = 6
        float32 = 8
        string = 10
        so_four_bytes = 11
        object = 13
        boolean = 15
        instance_id = 17
        null_value = 19
        so_object = 45
    SEQ_FIELDS = ["header", "stg", "dat1", "lz4_body"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Animclip, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        if self.has_asset_header:
            pass
            self._debug['header']['start'] = self._io.pos()
            self.header = Animclip.OuterHeader(self._io, self, self._root)
            self.header._read()
            self._debug['header']['end'] = self._io.pos()

        if self.is_stg:
            pass
            self._debug['stg']['start'] = self._io.pos()
            self.stg = Animclip.StgWrapper(self._io, self, self._root)
            self.stg._read()
            self._debug['stg']['end'] = self._io.pos()

        if (not (self.is_lz4_compressed)):
            pass
            self._debug['dat1']['start'] = self._io.pos()
            self._raw_dat1 = self._io.read_bytes_full()
            _io__raw_dat1 = KaitaiStream(BytesIO(self._raw_dat1))
            self.dat1 = Animclip.Dat1(_io__raw_dat1, self, self._root)
            self.dat1._read()
            self._debug['dat1']['end'] = self._io.pos()

        if self.is_lz4_compressed:
            pass
            self._debug['lz4_body']['start'] = self._io.pos()
            self.lz4_body = self._io.read_bytes_full()
            self._debug['lz4_body']['end'] = self._io.pos()



    def _fetch_instances(self):
        pass
        if self.has_asset_header:
            pass
            self.header._fetch_instances()

        if self.is_stg:
            pass
            self.stg._fetch_instances()

        if (not (self.is_lz4_compressed)):
            pass
            self.dat1._fetch_instances()

        if self.is_lz4_compressed:
            pass

        _ = self.first_word
        if hasattr(self, '_m_first_word'):
            pass

        _ = self.lz4_len_decompressed
        if hasattr(self, '_m_lz4_len_decompressed'):
            pass

        _ = self.peek_magic_0
        if hasattr(self, '_m_peek_magic_0'):
            pass

        _ = self.peek_magic_1
        if hasattr(self, '_m_peek_magic_1'):
            pass

        _ = self.peek_magic_2
        if hasattr(self, '_m_peek_magic_2'):
            pass

        _ = self.peek_magic_3
        if hasattr(self, '_m_peek_magic_3'):
            pass


    class BaseState(KaitaiStruct):
        """Section 0x2BB5BC8F "Anim Clip Base State" (ALERT class x2BB5BC8F_Section): one record
        of quantised integers per joint in Joint Hashes order, then T 32-byte records, then
        possibly more bytes. Status mostly KNOWN.
        
        What it is (EXTERNAL, Luna Engine IO Tools anim_import.py / anim_export.py): the BASE
        the per-sample deltas of Sample Data are added to, not a pose of its own. Each record
        gives 12 integer components (`base_state_joint`): 0-3 scale x, y, z and its divisor
        (all 2^log_scale), 4-7 quaternion x, y, z, w, 8-11 translation x, y, z and its shift
        (log_scale2). A sample adds an unsigned delta to some of them; frame f's pose is base
        + sample f (quaternion normalised, translation / 2^shift, scale / divisor). Luna's
        encoder writes the per-component minimum over the clip, so for an animated joint the
        record alone is not a rotation (its quaternion need not have unit length); only
        joints no element animates keep it as their pose. ALERT's animclip_to_gltf.py shows
        the base alone as "the" pose.
        
        Layout: [0, 16*J) joint records (`joints_raw`, typed lazily as `joints`);
        [16*J, 16*J + 32*T) 32-byte "things" (`things_raw` / `things`); the rest (`extra`),
        not described by ALERT. J and T come from the Built section (`num_joints`,
        `num_base_state_things`), passed in by the DAT1 as `num_joints_declared` and
        `num_things_declared`. If the payload is too short for them (e.g. the 4-byte payloads
        seen in MSMR/MM), each part is cut to whole records that fit (`num_joints`,
        `num_things` count what is present) and `is_size_consistent` is false. Record i
        belongs to Joint Hashes entry i; ALERT skips entries equal to 0xFFFFFFFF.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/animclip_to_gltf.py
        """
        SEQ_FIELDS = ["joints_raw", "things_raw", "extra"]
        def __init__(self, num_joints_declared, num_things_declared, _io, _parent=None, _root=None):
            super(Animclip.BaseState, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.num_joints_declared = num_joints_declared
            self.num_things_declared = num_things_declared
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['joints_raw']['start'] = self._io.pos()
            self.joints_raw = self._io.read_bytes(self.len_joints_raw)
            self._debug['joints_raw']['end'] = self._io.pos()
            self._debug['things_raw']['start'] = self._io.pos()
            self.things_raw = self._io.read_bytes(self.len_things_raw)
            self._debug['things_raw']['end'] = self._io.pos()
            self._debug['extra']['start'] = self._io.pos()
            self.extra = self._io.read_bytes_full()
            self._debug['extra']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.joints
            if hasattr(self, '_m_joints'):
                pass
                for i in range(len(self._m_joints)):
                    pass
                    self._m_joints[i]._fetch_instances()


            _ = self.things
            if hasattr(self, '_m_things'):
                pass
                for i in range(len(self._m_things)):
                    pass
                    self._m_things[i]._fetch_instances()



        @property
        def is_size_consistent(self):
            """Invariant 11.10 of docs/animclip.md, size >= 16*J + 32*T."""
            if hasattr(self, '_m_is_size_consistent'):
                return self._m_is_size_consistent

            self._m_is_size_consistent = 16 * self.num_joints_declared + 32 * self.num_things_declared <= self._io.size()
            return getattr(self, '_m_is_size_consistent', None)

        @property
        def joints(self):
            """Lazy typed view of `joints_raw`."""
            if hasattr(self, '_m_joints'):
                return self._m_joints

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_joints']['start'] = self._io.pos()
            self._debug['_m_joints']['arr'] = []
            self._m_joints = []
            for i in range(self.num_joints):
                self._debug['_m_joints']['arr'].append({'start': self._io.pos()})
                _t__m_joints = Animclip.BaseStateJoint(self._io, self, self._root)
                try:
                    _t__m_joints._read()
                finally:
                    self._m_joints.append(_t__m_joints)
                self._debug['_m_joints']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_joints']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_joints', None)

        @property
        def len_joints_raw(self):
            """Byte length of the joint records (16*J, cut to what the payload holds)."""
            if hasattr(self, '_m_len_joints_raw'):
                return self._m_len_joints_raw

            self._m_len_joints_raw = (16 * self.num_joints_declared if 16 * self.num_joints_declared <= self._io.size() else self._io.size() - self._io.size() % 16)
            return getattr(self, '_m_len_joints_raw', None)

        @property
        def len_things_raw(self):
            """Byte length of the things (32*T, cut to what the payload holds)."""
            if hasattr(self, '_m_len_things_raw'):
                return self._m_len_things_raw

            self._m_len_things_raw = (32 * self.num_things_declared if 32 * self.num_things_declared <= self._io.size() - self.len_joints_raw else (self._io.size() - self.len_joints_raw) - (self._io.size() - self.len_joints_raw) % 32)
            return getattr(self, '_m_len_things_raw', None)

        @property
        def num_joints(self):
            """Number of joint records actually present (J unless the payload is short)."""
            if hasattr(self, '_m_num_joints'):
                return self._m_num_joints

            self._m_num_joints = self.len_joints_raw // 16
            return getattr(self, '_m_num_joints', None)

        @property
        def num_things(self):
            """Number of 32-byte things actually present (T unless the payload is short)."""
            if hasattr(self, '_m_num_things'):
                return self._m_num_things

            self._m_num_things = self.len_things_raw // 32
            return getattr(self, '_m_num_things', None)

        @property
        def things(self):
            """Lazy typed view of `things_raw` (each record in its own 32-byte substream)."""
            if hasattr(self, '_m_things'):
                return self._m_things

            _pos = self._io.pos()
            self._io.seek(self.len_joints_raw)
            self._debug['_m_things']['start'] = self._io.pos()
            self._debug['_m_things']['arr'] = []
            self._raw__m_things = []
            self._m_things = []
            for i in range(self.num_things):
                self._debug['_m_things']['arr'].append({'start': self._io.pos()})
                self._raw__m_things.append(self._io.read_bytes(32))
                _io__raw__m_things = KaitaiStream(BytesIO(self._raw__m_things[i]))
                _t__m_things = Animclip.BaseStateThing(_io__raw__m_things, self, self._root)
                try:
                    _t__m_things._read()
                finally:
                    self._m_things.append(_t__m_things)
                self._debug['_m_things']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_things']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_things', None)


    class BaseStateJoint(KaitaiStruct):
        """One Base State joint record (16 bytes), ALERT's labels (qx, qy, qz, qw, x, y, z,
        log_scale, log_scale2): the base integers of the joint's 12 packed components (see
        `base_state`); the `rot_*`/`pos_*` instances dequantise the base alone, which is the
        joint's pose only when no Sample Elem element animates it. Dequantisation
        (animclip_to_gltf.py): rotation q = (qx, qy, qz, qw) / 32768, to be normalised (Luna
        encodes with 32767; normalisation hides the difference); translation p = (x, y, z) /
        2^log_scale2, parent-relative local. Scale (Luna): components 0-3 all start at
        2^log_scale, scale = component / divisor (1 for an unanimated joint).
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/animclip_to_gltf.py
        """
        SEQ_FIELDS = ["qx", "qy", "qz", "qw", "x", "y", "z", "log_scale", "log_scale2"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.BaseStateJoint, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['qx']['start'] = self._io.pos()
            self.qx = self._io.read_s2le()
            self._debug['qx']['end'] = self._io.pos()
            self._debug['qy']['start'] = self._io.pos()
            self.qy = self._io.read_s2le()
            self._debug['qy']['end'] = self._io.pos()
            self._debug['qz']['start'] = self._io.pos()
            self.qz = self._io.read_s2le()
            self._debug['qz']['end'] = self._io.pos()
            self._debug['qw']['start'] = self._io.pos()
            self.qw = self._io.read_s2le()
            self._debug['qw']['end'] = self._io.pos()
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_s2le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_s2le()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_s2le()
            self._debug['z']['end'] = self._io.pos()
            self._debug['log_scale']['start'] = self._io.pos()
            self.log_scale = self._io.read_u1()
            self._debug['log_scale']['end'] = self._io.pos()
            self._debug['log_scale2']['start'] = self._io.pos()
            self.log_scale2 = self._io.read_u1()
            self._debug['log_scale2']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def pos_x(self):
            """Translation X dequantised."""
            if hasattr(self, '_m_pos_x'):
                return self._m_pos_x

            self._m_pos_x = self.x * self.translation_scale
            return getattr(self, '_m_pos_x', None)

        @property
        def pos_y(self):
            """Translation Y dequantised."""
            if hasattr(self, '_m_pos_y'):
                return self._m_pos_y

            self._m_pos_y = self.y * self.translation_scale
            return getattr(self, '_m_pos_y', None)

        @property
        def pos_z(self):
            """Translation Z dequantised."""
            if hasattr(self, '_m_pos_z'):
                return self._m_pos_z

            self._m_pos_z = self.z * self.translation_scale
            return getattr(self, '_m_pos_z', None)

        @property
        def rot_w(self):
            """Quaternion W dequantised (before normalisation)."""
            if hasattr(self, '_m_rot_w'):
                return self._m_rot_w

            self._m_rot_w = self.qw / 32768.0
            return getattr(self, '_m_rot_w', None)

        @property
        def rot_x(self):
            """Quaternion X dequantised (before normalisation)."""
            if hasattr(self, '_m_rot_x'):
                return self._m_rot_x

            self._m_rot_x = self.qx / 32768.0
            return getattr(self, '_m_rot_x', None)

        @property
        def rot_y(self):
            """Quaternion Y dequantised (before normalisation)."""
            if hasattr(self, '_m_rot_y'):
                return self._m_rot_y

            self._m_rot_y = self.qy / 32768.0
            return getattr(self, '_m_rot_y', None)

        @property
        def rot_z(self):
            """Quaternion Z dequantised (before normalisation)."""
            if hasattr(self, '_m_rot_z'):
                return self._m_rot_z

            self._m_rot_z = self.qz / 32768.0
            return getattr(self, '_m_rot_z', None)

        @property
        def translation_scale(self):
            """2^-log_scale2, the translation's dequantisation factor. Exponents of 31 and more
            give 0: they are beyond any usable precision, and shifts are 32-bit in several
            targets (JavaScript among them), so every target agrees this way.
            """
            if hasattr(self, '_m_translation_scale'):
                return self._m_translation_scale

            self._m_translation_scale = (1.0 / (1 << self.log_scale2) if self.log_scale2 < 31 else 0.0)
            return getattr(self, '_m_translation_scale', None)


    class BaseStateThing(KaitaiStruct):
        """One 32-byte "thing" after the joint records of Base State. ALERT prints it as 16 u16
        values in hex and assigns no meaning; ALERT's wiki says the 16-byte halves
        seem to have the joint-record format (see `half_1`, `half_2`). Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["words"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.BaseStateThing, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['words']['start'] = self._io.pos()
            self._debug['words']['arr'] = []
            self.words = []
            for i in range(16):
                self._debug['words']['arr'].append({'start': self._io.pos()})
                self.words.append(self._io.read_u2le())
                self._debug['words']['arr'][i]['end'] = self._io.pos()

            self._debug['words']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.words)):
                pass

            _ = self.half_1
            if hasattr(self, '_m_half_1'):
                pass
                self._m_half_1._fetch_instances()

            _ = self.half_2
            if hasattr(self, '_m_half_2'):
                pass
                self._m_half_2._fetch_instances()


        @property
        def half_1(self):
            """First 16 bytes read as a joint record (the hypothesis of ALERT's wiki). Status UNKNOWN."""
            if hasattr(self, '_m_half_1'):
                return self._m_half_1

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_half_1']['start'] = self._io.pos()
            self._m_half_1 = Animclip.BaseStateJoint(self._io, self, self._root)
            self._m_half_1._read()
            self._debug['_m_half_1']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_half_1', None)

        @property
        def half_2(self):
            """Last 16 bytes read as a joint record (the hypothesis of ALERT's wiki). Status UNKNOWN."""
            if hasattr(self, '_m_half_2'):
                return self._m_half_2

            _pos = self._io.pos()
            self._io.seek(16)
            self._debug['_m_half_2']['start'] = self._io.pos()
            self._m_half_2 = Animclip.BaseStateJoint(self._io, self, self._root)
            self._m_half_2._read()
            self._debug['_m_half_2']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_half_2', None)


    class Built(KaitaiStruct):
        """Section 0x9DF23F77 "Anim Clip Built" (ALERT class AnimClipBuiltSection): general clip
        information, exactly 96 bytes. ALERT reads the name offset and hash and labels a few of
        the 42 u16 words that follow. Luna Engine IO Tools (constants.py
        `ANIM_CLIP_BUILT_FORMAT`, anim_import.py, anim_export.py) reads and writes the same 96
        bytes as one record of named fields (flags, frame rates, sample counts, element counts,
        stride); the names below are Luna's where it has one, ALERT's labels otherwise.
        Luna targets Spider-Man 2; where its reading of a field agrees with ALERT's labels
        for Remastered-era files (joint count +0x20, frames +0x22, element count +0x24,
        unique samples +0x30 "usually equal to frames count") this spec applies it to every
        game, and says so. From +0x48 the two layouts differ (`is_msm2`): Remastered, Miles
        Morales and Rift Apart hold ALERT's "DEAD" "DEAD" u16 pair at +0x48, which reads as
        Luna's default sound-event hash 0xDEADDEAD; Spider-Man 2 adds a facial-name hash at
        +0x48 and has the sound-event hash at +0x4C (ALERT: the DEAD words "moved 4 bytes lower
        in i30"). The 16 bit-flags of `flags` are the enum `clip_flag` (Luna's constants.py).
        Absent from 6 MSMR, 390 MM and 28 RCRA animclips.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/constants.py
        
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
        """
        SEQ_FIELDS = ["ofs_name", "name_hash", "flags", "fps", "duration", "cycle_count", "unk_15", "unk_16", "unk_17", "unk_18", "unk_1c", "num_joints", "num_frames", "num_elems", "stride", "num_base_state_things", "unk_2e", "num_unique_samples", "num_things_alt", "unk_34", "unk_36", "unk_38", "num_custom_tracks", "unk_3c", "num_resident_samples", "resident_fps", "num_large_elems", "word_48", "word_4c", "word_50", "unk_54", "unk_58", "unk_5c", "trailing"]
        def __init__(self, is_msm2, _io, _parent=None, _root=None):
            super(Animclip.Built, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.is_msm2 = is_msm2
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['ofs_name']['start'] = self._io.pos()
            self.ofs_name = self._io.read_u4le()
            self._debug['ofs_name']['end'] = self._io.pos()
            self._debug['name_hash']['start'] = self._io.pos()
            self.name_hash = self._io.read_u4le()
            self._debug['name_hash']['end'] = self._io.pos()
            self._debug['flags']['start'] = self._io.pos()
            self.flags = self._io.read_u4le()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['fps']['start'] = self._io.pos()
            self.fps = self._io.read_f4le()
            self._debug['fps']['end'] = self._io.pos()
            self._debug['duration']['start'] = self._io.pos()
            self.duration = self._io.read_f4le()
            self._debug['duration']['end'] = self._io.pos()
            self._debug['cycle_count']['start'] = self._io.pos()
            self.cycle_count = self._io.read_u1()
            self._debug['cycle_count']['end'] = self._io.pos()
            self._debug['unk_15']['start'] = self._io.pos()
            self.unk_15 = self._io.read_u1()
            self._debug['unk_15']['end'] = self._io.pos()
            self._debug['unk_16']['start'] = self._io.pos()
            self.unk_16 = self._io.read_u1()
            self._debug['unk_16']['end'] = self._io.pos()
            self._debug['unk_17']['start'] = self._io.pos()
            self.unk_17 = self._io.read_u1()
            self._debug['unk_17']['end'] = self._io.pos()
            self._debug['unk_18']['start'] = self._io.pos()
            self.unk_18 = self._io.read_u4le()
            self._debug['unk_18']['end'] = self._io.pos()
            self._debug['unk_1c']['start'] = self._io.pos()
            self.unk_1c = self._io.read_u4le()
            self._debug['unk_1c']['end'] = self._io.pos()
            self._debug['num_joints']['start'] = self._io.pos()
            self.num_joints = self._io.read_u2le()
            self._debug['num_joints']['end'] = self._io.pos()
            self._debug['num_frames']['start'] = self._io.pos()
            self.num_frames = self._io.read_u2le()
            self._debug['num_frames']['end'] = self._io.pos()
            self._debug['num_elems']['start'] = self._io.pos()
            self.num_elems = self._io.read_u4le()
            self._debug['num_elems']['end'] = self._io.pos()
            self._debug['stride']['start'] = self._io.pos()
            self.stride = self._io.read_u4le()
            self._debug['stride']['end'] = self._io.pos()
            self._debug['num_base_state_things']['start'] = self._io.pos()
            self.num_base_state_things = self._io.read_u2le()
            self._debug['num_base_state_things']['end'] = self._io.pos()
            self._debug['unk_2e']['start'] = self._io.pos()
            self.unk_2e = self._io.read_u2le()
            self._debug['unk_2e']['end'] = self._io.pos()
            self._debug['num_unique_samples']['start'] = self._io.pos()
            self.num_unique_samples = self._io.read_u2le()
            self._debug['num_unique_samples']['end'] = self._io.pos()
            self._debug['num_things_alt']['start'] = self._io.pos()
            self.num_things_alt = self._io.read_u2le()
            self._debug['num_things_alt']['end'] = self._io.pos()
            self._debug['unk_34']['start'] = self._io.pos()
            self.unk_34 = self._io.read_u2le()
            self._debug['unk_34']['end'] = self._io.pos()
            self._debug['unk_36']['start'] = self._io.pos()
            self.unk_36 = self._io.read_u2le()
            self._debug['unk_36']['end'] = self._io.pos()
            self._debug['unk_38']['start'] = self._io.pos()
            self.unk_38 = self._io.read_u2le()
            self._debug['unk_38']['end'] = self._io.pos()
            self._debug['num_custom_tracks']['start'] = self._io.pos()
            self.num_custom_tracks = self._io.read_u2le()
            self._debug['num_custom_tracks']['end'] = self._io.pos()
            self._debug['unk_3c']['start'] = self._io.pos()
            self.unk_3c = self._io.read_u2le()
            self._debug['unk_3c']['end'] = self._io.pos()
            self._debug['num_resident_samples']['start'] = self._io.pos()
            self.num_resident_samples = self._io.read_u2le()
            self._debug['num_resident_samples']['end'] = self._io.pos()
            self._debug['resident_fps']['start'] = self._io.pos()
            self.resident_fps = self._io.read_f4le()
            self._debug['resident_fps']['end'] = self._io.pos()
            self._debug['num_large_elems']['start'] = self._io.pos()
            self.num_large_elems = self._io.read_u4le()
            self._debug['num_large_elems']['end'] = self._io.pos()
            self._debug['word_48']['start'] = self._io.pos()
            self.word_48 = self._io.read_u4le()
            self._debug['word_48']['end'] = self._io.pos()
            self._debug['word_4c']['start'] = self._io.pos()
            self.word_4c = self._io.read_u4le()
            self._debug['word_4c']['end'] = self._io.pos()
            self._debug['word_50']['start'] = self._io.pos()
            self.word_50 = self._io.read_u4le()
            self._debug['word_50']['end'] = self._io.pos()
            self._debug['unk_54']['start'] = self._io.pos()
            self.unk_54 = self._io.read_u4le()
            self._debug['unk_54']['end'] = self._io.pos()
            self._debug['unk_58']['start'] = self._io.pos()
            self.unk_58 = self._io.read_u4le()
            self._debug['unk_58']['end'] = self._io.pos()
            self._debug['unk_5c']['start'] = self._io.pos()
            self.unk_5c = self._io.read_u4le()
            self._debug['unk_5c']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.name
            if hasattr(self, '_m_name'):
                pass


        @property
        def facial_name_hash(self):
            """Spider-Man 2's facial-name hash (Luna `facial_name_hash`)."""
            if hasattr(self, '_m_facial_name_hash'):
                return self._m_facial_name_hash

            if self.is_msm2:
                pass
                self._m_facial_name_hash = self.word_48

            return getattr(self, '_m_facial_name_hash', None)

        @property
        def has_dead_markers(self):
            """True if the sound-event hash holds 0xDEADDEAD (ALERT's two "DEAD" u16 markers in
            Remastered-era files; invariant 11.8 of docs/animclip.md).
            """
            if hasattr(self, '_m_has_dead_markers'):
                return self._m_has_dead_markers

            self._m_has_dead_markers = self.sound_event_hash == 3735936685
            return getattr(self, '_m_has_dead_markers', None)

        @property
        def has_frame_lookup(self):
            """Flag 0x10000 kFlagsFrameDataLookup; Sample Data then starts with the frame lookup table."""
            if hasattr(self, '_m_has_frame_lookup'):
                return self._m_has_frame_lookup

            self._m_has_frame_lookup = self.flags & 65536 != 0
            return getattr(self, '_m_has_frame_lookup', None)

        @property
        def has_motion(self):
            """Flag 0x800000 kAnimFlagsHasMotion."""
            if hasattr(self, '_m_has_motion'):
                return self._m_has_motion

            self._m_has_motion = self.flags & 8388608 != 0
            return getattr(self, '_m_has_motion', None)

        @property
        def is_camera(self):
            """Flag 0x10 kFlagsCamera."""
            if hasattr(self, '_m_is_camera'):
                return self._m_is_camera

            self._m_is_camera = self.flags & 16 != 0
            return getattr(self, '_m_is_camera', None)

        @property
        def is_looping(self):
            """Flag 0x20 kFlagsIsLooping (Luna constants.py)."""
            if hasattr(self, '_m_is_looping'):
                return self._m_is_looping

            self._m_is_looping = self.flags & 32 != 0
            return getattr(self, '_m_is_looping', None)

        @property
        def name(self):
            """The clip name: the NUL-terminated string at DAT1 offset S + `ofs_name`
            (strings-block-relative convention). Status KNOWN.
            """
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._parent._parent._io
            _pos = io.pos()
            io.seek(self._parent._parent.ofs_strings + self.ofs_name)
            self._debug['_m_name']['start'] = io.pos()
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            self._debug['_m_name']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_name', None)

        @property
        def num_lookup_entries(self):
            """Frame-lookup entries at the start of Sample Data: one per frame and one more when
            looping (Luna anim_import.py); 0 without the lookup flag.
            """
            if hasattr(self, '_m_num_lookup_entries'):
                return self._m_num_lookup_entries

            self._m_num_lookup_entries = (self.num_frames + (1 if self.is_looping else 0) if self.has_frame_lookup else 0)
            return getattr(self, '_m_num_lookup_entries', None)

        @property
        def particle_count_max(self):
            """Spider-Man 2's `particle_count_max` (Luna)."""
            if hasattr(self, '_m_particle_count_max'):
                return self._m_particle_count_max

            if self.is_msm2:
                pass
                self._m_particle_count_max = self.word_50

            return getattr(self, '_m_particle_count_max', None)

        @property
        def sound_event_hash(self):
            """The sound-event hash (0xDEADDEAD = none), +0x4C in Spider-Man 2, +0x48 before."""
            if hasattr(self, '_m_sound_event_hash'):
                return self._m_sound_event_hash

            self._m_sound_event_hash = (self.word_4c if self.is_msm2 else self.word_48)
            return getattr(self, '_m_sound_event_hash', None)


    class Curves(KaitaiStruct):
        """Section 0x09DC30AB "Anim Clip Curves" (ALERT class x09DC30AB_Section), 240 bytes, found
        in a single asset (846B8D250F1A33D2, required/cinematics/predefined_camera_shake.animclip,
        MSMR and RCRA). ALERT views it as u32 words. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.Curves, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class CurvesData(KaitaiStruct):
        """Section 0x4FC98D7E "Anim Clip Curves Data" (ALERT class x4FC98D7E_Section), 93604
        bytes, only in the asset that has Curves. ALERT views it as u32 words. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.CurvesData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class CustomTrack(KaitaiStruct):
        """One 40-byte Custom Tracks entry.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["name_hash", "ofs_name", "zero_08", "zero_0c", "ofs_data", "unk_14", "zero_18", "zero_1c", "num_values", "zero_24"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.CustomTrack, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name_hash']['start'] = self._io.pos()
            self.name_hash = self._io.read_u4le()
            self._debug['name_hash']['end'] = self._io.pos()
            self._debug['ofs_name']['start'] = self._io.pos()
            self.ofs_name = self._io.read_u4le()
            self._debug['ofs_name']['end'] = self._io.pos()
            self._debug['zero_08']['start'] = self._io.pos()
            self.zero_08 = self._io.read_u4le()
            self._debug['zero_08']['end'] = self._io.pos()
            self._debug['zero_0c']['start'] = self._io.pos()
            self.zero_0c = self._io.read_u4le()
            self._debug['zero_0c']['end'] = self._io.pos()
            self._debug['ofs_data']['start'] = self._io.pos()
            self.ofs_data = self._io.read_u4le()
            self._debug['ofs_data']['end'] = self._io.pos()
            self._debug['unk_14']['start'] = self._io.pos()
            self.unk_14 = self._io.read_u4le()
            self._debug['unk_14']['end'] = self._io.pos()
            self._debug['zero_18']['start'] = self._io.pos()
            self.zero_18 = self._io.read_u4le()
            self._debug['zero_18']['end'] = self._io.pos()
            self._debug['zero_1c']['start'] = self._io.pos()
            self.zero_1c = self._io.read_u4le()
            self._debug['zero_1c']['end'] = self._io.pos()
            self._debug['num_values']['start'] = self._io.pos()
            self.num_values = self._io.read_u4le()
            self._debug['num_values']['end'] = self._io.pos()
            self._debug['zero_24']['start'] = self._io.pos()
            self.zero_24 = self._io.read_u4le()
            self._debug['zero_24']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.name
            if hasattr(self, '_m_name'):
                pass

            _ = self.values
            if hasattr(self, '_m_values'):
                pass
                for i in range(len(self._m_values)):
                    pass



        @property
        def name(self):
            """The track name at DAT1 offset S + `ofs_name`. Status KNOWN."""
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._parent._parent._parent._io
            _pos = io.pos()
            io.seek(self._parent._parent._parent.ofs_strings + self.ofs_name)
            self._debug['_m_name']['start'] = io.pos()
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            self._debug['_m_name']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_name', None)

        @property
        def values(self):
            """This track's floats, Custom Track Data bytes [ofs_data, ofs_data + 4*num_values);
            one value per frame (LABELLED). Absent if the clip has no Custom Track Data.
            """
            if hasattr(self, '_m_values'):
                return self._m_values

            if self._parent._parent._parent.idx_custom_track_data >= 0:
                pass
                io = self._parent._parent._parent.custom_track_data_section._io
                _pos = io.pos()
                io.seek(self.ofs_data)
                self._debug['_m_values']['start'] = io.pos()
                self._debug['_m_values']['arr'] = []
                self._m_values = []
                for i in range(self.num_values):
                    self._debug['_m_values']['arr'].append({'start': io.pos()})
                    self._m_values.append(io.read_f4le())
                    self._debug['_m_values']['arr'][i]['end'] = io.pos()

                self._debug['_m_values']['end'] = io.pos()
                io.seek(_pos)

            return getattr(self, '_m_values', None)


    class CustomTrackData(KaitaiStruct):
        """Section 0x116EB684 "Anim Clip Custom Track Data" (ALERT class x116EB684_Section): a pool
        of f32 arrays addressed by the Custom Tracks entries (`ofs_data`, `num_values`); each
        track's block starts on a 16-byte boundary within the section, and the section is not
        padded after the last track. Status KNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["values_raw", "trailing"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.CustomTrackData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['values_raw']['start'] = self._io.pos()
            self.values_raw = self._io.read_bytes(4 * self.num_values)
            self._debug['values_raw']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.values
            if hasattr(self, '_m_values'):
                pass
                for i in range(len(self._m_values)):
                    pass



        @property
        def num_values(self):
            """Number of f32 slots in the pool."""
            if hasattr(self, '_m_num_values'):
                return self._m_num_values

            self._m_num_values = self._io.size() // 4
            return getattr(self, '_m_num_values', None)

        @property
        def values(self):
            """Lazy typed view of `values_raw`; per-track slices are `custom_track.values`."""
            if hasattr(self, '_m_values'):
                return self._m_values

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_values']['start'] = self._io.pos()
            self._debug['_m_values']['arr'] = []
            self._m_values = []
            for i in range(self.num_values):
                self._debug['_m_values']['arr'].append({'start': self._io.pos()})
                self._m_values.append(self._io.read_f4le())
                self._debug['_m_values']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_values']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_values', None)


    class CustomTracks(KaitaiStruct):
        """Section 0x14014CB6 "Anim Clip Custom Tracks" (ALERT class x14014CB6_Section): size/40
        entries of 40 bytes (10 u32 each), expected to number `built.num_custom_tracks`.
        Always present together with Custom Track Data. Status partly KNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["entries_raw", "trailing"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.CustomTracks, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['entries_raw']['start'] = self._io.pos()
            self.entries_raw = self._io.read_bytes(40 * self.num_entries)
            self._debug['entries_raw']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.entries
            if hasattr(self, '_m_entries'):
                pass
                for i in range(len(self._m_entries)):
                    pass
                    self._m_entries[i]._fetch_instances()



        @property
        def entries(self):
            """Lazy typed view of `entries_raw`."""
            if hasattr(self, '_m_entries'):
                return self._m_entries

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_entries']['start'] = self._io.pos()
            self._debug['_m_entries']['arr'] = []
            self._m_entries = []
            for i in range(self.num_entries):
                self._debug['_m_entries']['arr'].append({'start': self._io.pos()})
                _t__m_entries = Animclip.CustomTrack(self._io, self, self._root)
                try:
                    _t__m_entries._read()
                finally:
                    self._m_entries.append(_t__m_entries)
                self._debug['_m_entries']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_entries']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_entries', None)

        @property
        def num_entries(self):
            """Number of 40-byte entries."""
            if hasattr(self, '_m_num_entries'):
                return self._m_num_entries

            self._m_num_entries = self._io.size() // 40
            return getattr(self, '_m_num_entries', None)


    class Dat1(KaitaiStruct):
        """The DAT1 container: 16-byte header, section table, "unknowns" table, strings block, and
        section payloads addressed by the table (each payload is exposed as the `body` instance
        of its table entry). All offsets inside are DAT1 offsets (from the "1TAD" magic). This
        type can be parsed on its own (e.g. from a decompressed LZ4 body).
        
        ALERT's writer (for reference): payloads aligned to 16 bytes in their original offset
        order, table sorted by ascending tag, `len_dat1` = end of the last payload, strings
        block and unknowns kept verbatim. ALERT has a bug writing `num_unknowns` (it stores
        8*U); a correct writer stores U.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
        """
        SEQ_FIELDS = ["magic", "type_id", "len_dat1", "num_sections", "num_unknowns", "sections", "unknowns", "strings_block"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.Dat1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_bytes(4)
            self._debug['magic']['end'] = self._io.pos()
            if not self.magic == b"\x31\x54\x41\x44":
                raise kaitaistruct.ValidationNotEqualError(b"\x31\x54\x41\x44", self.magic, self._io, u"/types/dat1/seq/0")
            self._debug['type_id']['start'] = self._io.pos()
            self.type_id = KaitaiStream.resolve_enum(Animclip.AssetType, self._io.read_u4le())
            self._debug['type_id']['end'] = self._io.pos()
            self._debug['len_dat1']['start'] = self._io.pos()
            self.len_dat1 = self._io.read_u4le()
            self._debug['len_dat1']['end'] = self._io.pos()
            self._debug['num_sections']['start'] = self._io.pos()
            self.num_sections = self._io.read_u2le()
            self._debug['num_sections']['end'] = self._io.pos()
            self._debug['num_unknowns']['start'] = self._io.pos()
            self.num_unknowns = self._io.read_u2le()
            self._debug['num_unknowns']['end'] = self._io.pos()
            self._debug['sections']['start'] = self._io.pos()
            self._debug['sections']['arr'] = []
            self.sections = []
            for i in range(self.num_sections):
                self._debug['sections']['arr'].append({'start': self._io.pos()})
                _t_sections = Animclip.SectionEntry(i, (4294967295 if i == 0 else self.sections[i - 1].ofs_min), (-1 if i == 0 else self.sections[i - 1].idx_built), (-1 if i == 0 else self.sections[i - 1].idx_custom_track_data), (-1 if i == 0 else self.sections[i - 1].idx_sample_elem), self._io, self, self._root)
                try:
                    _t_sections._read()
                finally:
                    self.sections.append(_t_sections)
                self._debug['sections']['arr'][i]['end'] = self._io.pos()

            self._debug['sections']['end'] = self._io.pos()
            self._debug['unknowns']['start'] = self._io.pos()
            self._debug['unknowns']['arr'] = []
            self.unknowns = []
            for i in range(self.num_unknowns):
                self._debug['unknowns']['arr'].append({'start': self._io.pos()})
                _t_unknowns = Animclip.UnknownEntry(self._io, self, self._root)
                try:
                    _t_unknowns._read()
                finally:
                    self.unknowns.append(_t_unknowns)
                self._debug['unknowns']['arr'][i]['end'] = self._io.pos()

            self._debug['unknowns']['end'] = self._io.pos()
            self._debug['strings_block']['start'] = self._io.pos()
            self._raw_strings_block = self._io.read_bytes(self.len_strings_block)
            _io__raw_strings_block = KaitaiStream(BytesIO(self._raw_strings_block))
            self.strings_block = Animclip.StringsBlock(_io__raw_strings_block, self, self._root)
            self.strings_block._read()
            self._debug['strings_block']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.sections)):
                pass
                self.sections[i]._fetch_instances()

            for i in range(len(self.unknowns)):
                pass
                self.unknowns[i]._fetch_instances()

            self.strings_block._fetch_instances()

        @property
        def built_section(self):
            """The parsed Anim Clip Built section (absent in 6 MSMR, 390 MM and 28 RCRA clips)."""
            if hasattr(self, '_m_built_section'):
                return self._m_built_section

            if self.idx_built >= 0:
                pass
                self._m_built_section = self.sections[self.idx_built].body

            return getattr(self, '_m_built_section', None)

        @property
        def custom_track_data_section(self):
            """The parsed Anim Clip Custom Track Data section, if present."""
            if hasattr(self, '_m_custom_track_data_section'):
                return self._m_custom_track_data_section

            if self.idx_custom_track_data >= 0:
                pass
                self._m_custom_track_data_section = self.sections[self.idx_custom_track_data].body

            return getattr(self, '_m_custom_track_data_section', None)

        @property
        def idx_built(self):
            """Table index of the (last) Anim Clip Built section, -1 if absent."""
            if hasattr(self, '_m_idx_built'):
                return self._m_idx_built

            self._m_idx_built = (-1 if self.num_sections == 0 else self.sections[-1].idx_built)
            return getattr(self, '_m_idx_built', None)

        @property
        def idx_custom_track_data(self):
            """Table index of the (last) Anim Clip Custom Track Data section, -1 if absent."""
            if hasattr(self, '_m_idx_custom_track_data'):
                return self._m_idx_custom_track_data

            self._m_idx_custom_track_data = (-1 if self.num_sections == 0 else self.sections[-1].idx_custom_track_data)
            return getattr(self, '_m_idx_custom_track_data', None)

        @property
        def idx_sample_elem(self):
            """Table index of the (last) Anim Clip Sample Elem section, -1 if absent."""
            if hasattr(self, '_m_idx_sample_elem'):
                return self._m_idx_sample_elem

            self._m_idx_sample_elem = (-1 if self.num_sections == 0 else self.sections[-1].idx_sample_elem)
            return getattr(self, '_m_idx_sample_elem', None)

        @property
        def is_msm2(self):
            """True for a Spider-Man 2 ("i30") DAT1, type 0x41DFFB44: its Built section has the
            Spider-Man 2 layout from +0x48 on (`built`).
            """
            if hasattr(self, '_m_is_msm2'):
                return self._m_is_msm2

            self._m_is_msm2 = self.type_id == Animclip.AssetType.animclip_msm2
            return getattr(self, '_m_is_msm2', None)

        @property
        def len_strings_block(self):
            """Length of the strings block (0 if the smallest section offset lies inside the
            tables, which breaks the DAT1 layout of ALERT's dat1lib/types/dat1.py).
            """
            if hasattr(self, '_m_len_strings_block'):
                return self._m_len_strings_block

            self._m_len_strings_block = (self.ofs_strings_end - self.ofs_strings if self.ofs_strings_end > self.ofs_strings else 0)
            return getattr(self, '_m_len_strings_block', None)

        @property
        def num_base_state_joints(self):
            """J (Built +0x20), the joint-record count used to split Base State; 0 if there is no
            Built section.
            """
            if hasattr(self, '_m_num_base_state_joints'):
                return self._m_num_base_state_joints

            self._m_num_base_state_joints = (self.built_section.num_joints if self.idx_built >= 0 else 0)
            return getattr(self, '_m_num_base_state_joints', None)

        @property
        def num_base_state_things(self):
            """T (Built +0x2C), the 32-byte record count used to split Base State; 0 if there is
            no Built section.
            """
            if hasattr(self, '_m_num_base_state_things'):
                return self._m_num_base_state_things

            self._m_num_base_state_things = (self.built_section.num_base_state_things if self.idx_built >= 0 else 0)
            return getattr(self, '_m_num_base_state_things', None)

        @property
        def num_elems_declared(self):
            """Built +0x24, the small-element count that splits Sample Elem; 0 without Built."""
            if hasattr(self, '_m_num_elems_declared'):
                return self._m_num_elems_declared

            self._m_num_elems_declared = (self.built_section.num_elems if self.idx_built >= 0 else 0)
            return getattr(self, '_m_num_elems_declared', None)

        @property
        def num_large_elems_declared(self):
            """Built +0x44, the large-element count that splits Sample Elem; 0 without Built."""
            if hasattr(self, '_m_num_large_elems_declared'):
                return self._m_num_large_elems_declared

            self._m_num_large_elems_declared = (self.built_section.num_large_elems if self.idx_built >= 0 else 0)
            return getattr(self, '_m_num_large_elems_declared', None)

        @property
        def num_lookup_entries(self):
            """Frame-lookup entries at the start of Sample Data (Built `num_lookup_entries`)."""
            if hasattr(self, '_m_num_lookup_entries'):
                return self._m_num_lookup_entries

            self._m_num_lookup_entries = (self.built_section.num_lookup_entries if self.idx_built >= 0 else 0)
            return getattr(self, '_m_num_lookup_entries', None)

        @property
        def ofs_strings(self):
            """S, the DAT1 offset of the strings block (ALERT's `get_offset()`). Status KNOWN."""
            if hasattr(self, '_m_ofs_strings'):
                return self._m_ofs_strings

            self._m_ofs_strings = (16 + 12 * self.num_sections) + 8 * self.num_unknowns
            return getattr(self, '_m_ofs_strings', None)

        @property
        def ofs_strings_end(self):
            """`ofs_strings_end_raw` clamped to the DAT1 size."""
            if hasattr(self, '_m_ofs_strings_end'):
                return self._m_ofs_strings_end

            self._m_ofs_strings_end = (self.ofs_strings_end_raw if self.ofs_strings_end_raw < self._io.size() else self._io.size())
            return getattr(self, '_m_ofs_strings_end', None)

        @property
        def ofs_strings_end_raw(self):
            """The smallest section offset (end of the strings block), or the DAT1 size if N = 0."""
            if hasattr(self, '_m_ofs_strings_end_raw'):
                return self._m_ofs_strings_end_raw

            self._m_ofs_strings_end_raw = (self._io.size() if self.num_sections == 0 else self.sections[-1].ofs_min)
            return getattr(self, '_m_ofs_strings_end_raw', None)

        @property
        def sample_elem_section(self):
            """The parsed Anim Clip Sample Elem section, if present (Sample Data's records need its widths)."""
            if hasattr(self, '_m_sample_elem_section'):
                return self._m_sample_elem_section

            if self.idx_sample_elem >= 0:
                pass
                self._m_sample_elem_section = self.sections[self.idx_sample_elem].body

            return getattr(self, '_m_sample_elem_section', None)

        @property
        def sample_stride(self):
            """Bytes per sample in Sample Data (Built `stride`); 0 without Built."""
            if hasattr(self, '_m_sample_stride'):
                return self._m_sample_stride

            self._m_sample_stride = (self.built_section.stride if self.idx_built >= 0 else 0)
            return getattr(self, '_m_sample_stride', None)


    class GeomSampleData(KaitaiStruct):
        """Section 0x411852D5 "Anim Clip Geom Sample Data" (ALERT class x411852D5_Section): an
        opaque byte stream (sizes such as 83090 are not multiples of 4), up to 11.6 MB.
        ALERT's u32 view (and its re-serialiser) drops the last size % 4 bytes; `data_raw`
        keeps them. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.GeomSampleData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of the first 4*num_words bytes (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class GeomSamples(KaitaiStruct):
        """Section 0x1722FAEF "Anim Clip Geom Samples" (ALERT class x1722FAEF_Section), rare
        (2 / 49 / 7 assets in MSMR / MM / RCRA), sizes observed as multiples of 4; always with
        Geom Sample Data. ALERT views it as u32 words. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.GeomSamples, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class JointHashes(KaitaiStruct):
        """Section 0xA3B26640 "Anim Clip Joint Hashes" (ALERT class xA3B26640_Section): K = size/4
        u32 joint-name hashes (CRC32, case-sensitive, not normalised), the same values as the
        model's joint records; joints are matched to a model purely by hash. Per ALERT's wiki the
        last value is 0xFFFFFFFF; ALERT skips 0xFFFFFFFF wherever it occurs and does not
        require it. Always present together with Base State. Status KNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["hashes_raw", "trailing"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.JointHashes, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['hashes_raw']['start'] = self._io.pos()
            self.hashes_raw = self._io.read_bytes(4 * self.num_hashes)
            self._debug['hashes_raw']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.hashes
            if hasattr(self, '_m_hashes'):
                pass
                for i in range(len(self._m_hashes)):
                    pass


            _ = self.last_hash
            if hasattr(self, '_m_last_hash'):
                pass


        @property
        def has_terminator(self):
            """True if the last hash is the 0xFFFFFFFF terminator."""
            if hasattr(self, '_m_has_terminator'):
                return self._m_has_terminator

            self._m_has_terminator =  ((self.num_hashes > 0) and (self.last_hash == 4294967295)) 
            return getattr(self, '_m_has_terminator', None)

        @property
        def hashes(self):
            """Lazy typed view of `hashes_raw`."""
            if hasattr(self, '_m_hashes'):
                return self._m_hashes

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_hashes']['start'] = self._io.pos()
            self._debug['_m_hashes']['arr'] = []
            self._m_hashes = []
            for i in range(self.num_hashes):
                self._debug['_m_hashes']['arr'].append({'start': self._io.pos()})
                self._m_hashes.append(self._io.read_u4le())
                self._debug['_m_hashes']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_hashes']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_hashes', None)

        @property
        def last_hash(self):
            """The last hash (expected 0xFFFFFFFF)."""
            if hasattr(self, '_m_last_hash'):
                return self._m_last_hash

            if self.num_hashes > 0:
                pass
                _pos = self._io.pos()
                self._io.seek(4 * (self.num_hashes - 1))
                self._debug['_m_last_hash']['start'] = self._io.pos()
                self._m_last_hash = self._io.read_u4le()
                self._debug['_m_last_hash']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_last_hash', None)

        @property
        def num_hashes(self):
            """K, the number of hashes (terminator included)."""
            if hasattr(self, '_m_num_hashes'):
                return self._m_num_hashes

            self._m_num_hashes = self._io.size() // 4
            return getattr(self, '_m_num_hashes', None)


    class Marker(KaitaiStruct):
        """One 16-byte marker (Luna reads u8, pad, u16, u16, u16, u32, f32)."""
        SEQ_FIELDS = ["flags", "unk_01", "start_frame", "duration", "ofs_name", "name_hash", "value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.Marker, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['flags']['start'] = self._io.pos()
            self.flags = self._io.read_u1()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['unk_01']['start'] = self._io.pos()
            self.unk_01 = self._io.read_u1()
            self._debug['unk_01']['end'] = self._io.pos()
            self._debug['start_frame']['start'] = self._io.pos()
            self.start_frame = self._io.read_u2le()
            self._debug['start_frame']['end'] = self._io.pos()
            self._debug['duration']['start'] = self._io.pos()
            self.duration = self._io.read_u2le()
            self._debug['duration']['end'] = self._io.pos()
            self._debug['ofs_name']['start'] = self._io.pos()
            self.ofs_name = self._io.read_u2le()
            self._debug['ofs_name']['end'] = self._io.pos()
            self._debug['name_hash']['start'] = self._io.pos()
            self.name_hash = self._io.read_u4le()
            self._debug['name_hash']['end'] = self._io.pos()
            self._debug['value']['start'] = self._io.pos()
            self.value = self._io.read_f4le()
            self._debug['value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Markers(KaitaiStruct):
        """Section 0xFB110305 "Anim Clip Markers" (Spider-Man 2): 16-byte marker records, as many
        as Tracks Data's `num_markers` (EXTERNAL: Luna Engine IO Tools anim_import.py).
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.Markers, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.markers
            if hasattr(self, '_m_markers'):
                pass
                for i in range(len(self._m_markers)):
                    pass
                    self._m_markers[i]._fetch_instances()



        @property
        def markers(self):
            """The 16-byte records (lazy)."""
            if hasattr(self, '_m_markers'):
                return self._m_markers

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_markers']['start'] = self._io.pos()
            self._debug['_m_markers']['arr'] = []
            self._m_markers = []
            for i in range(self._io.size() // 16):
                self._debug['_m_markers']['arr'].append({'start': self._io.pos()})
                _t__m_markers = Animclip.Marker(self._io, self, self._root)
                try:
                    _t__m_markers._read()
                finally:
                    self._m_markers.append(_t__m_markers)
                self._debug['_m_markers']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_markers']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_markers', None)


    class Matrix4x4(KaitaiStruct):
        """16 f32 values of a 4x4 matrix in file order (row- or column-major is UNKNOWN; ALERT
        describes it as identity rotation plus a translation).
        """
        SEQ_FIELDS = ["m"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.Matrix4x4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['m']['start'] = self._io.pos()
            self._debug['m']['arr'] = []
            self.m = []
            for i in range(16):
                self._debug['m']['arr'].append({'start': self._io.pos()})
                self.m.append(self._io.read_f4le())
                self._debug['m']['arr'][i]['end'] = self._io.pos()

            self._debug['m']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.m)):
                pass



    class MorphFrameData(KaitaiStruct):
        """Section 0x69F64588 "Anim Clip Morph Frame Data" (ALERT class x69F64588_Section), 4 bytes
        up to about 390 KB; always with Morph Info. ALERT views it as u32 words. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.MorphFrameData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class MorphInfo(KaitaiStruct):
        """Section 0x277563F5 "Anim Clip Morph Info" (ALERT class x277563F5_Section), at least 28
        bytes; always with Morph Frame Data (presumably blend-shape weights). ALERT views it as
        u32 words. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.MorphInfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class MotionData(KaitaiStruct):
        """Section 0xE08AA35F "Anim Clip Motion Data": root motion (EXTERNAL: Luna Engine IO Tools
        motion.py and constants.py; ALERT views it as u32 words). A 0x7C-byte header, then
        `num_samples` samples at header end + `ofs_samples`: 16-byte standard samples (type 0)
        or 32-byte full samples (type 1, which Luna keeps but does not decode), then a segment
        stream at header end + `ofs_segments`; Luna pads the section to a multiple of 16.
        Luna's exporter writes frames + 1 samples for a looping clip (twice that with the
        secondary stream), and a 128-byte block with no samples when there is no motion.
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/motion.py
        
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/constants.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.MotionData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.full_samples
            if hasattr(self, '_m_full_samples'):
                pass
                for i in range(len(self._m_full_samples)):
                    pass


            _ = self.header
            if hasattr(self, '_m_header'):
                pass
                self._m_header._fetch_instances()

            _ = self.samples
            if hasattr(self, '_m_samples'):
                pass
                for i in range(len(self._m_samples)):
                    pass
                    self._m_samples[i]._fetch_instances()



        @property
        def full_samples(self):
            """The full samples, 32 bytes each, raw (Luna does not decode them)."""
            if hasattr(self, '_m_full_samples'):
                return self._m_full_samples

            if  ((self.is_samples_in_range) and (self.header.motion_type == Animclip.MotionType.full)) :
                pass
                _pos = self._io.pos()
                self._io.seek(124 + self.header.ofs_samples)
                self._debug['_m_full_samples']['start'] = self._io.pos()
                self._debug['_m_full_samples']['arr'] = []
                self._m_full_samples = []
                for i in range(self.header.num_samples):
                    self._debug['_m_full_samples']['arr'].append({'start': self._io.pos()})
                    self._m_full_samples.append(self._io.read_bytes(32))
                    self._debug['_m_full_samples']['arr'][i]['end'] = self._io.pos()

                self._debug['_m_full_samples']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_full_samples', None)

        @property
        def header(self):
            """The 0x7C-byte header (absent when the section is shorter)."""
            if hasattr(self, '_m_header'):
                return self._m_header

            if self._io.size() >= 124:
                pass
                _pos = self._io.pos()
                self._io.seek(0)
                self._debug['_m_header']['start'] = self._io.pos()
                self._m_header = Animclip.MotionHeader(self._io, self, self._root)
                self._m_header._read()
                self._debug['_m_header']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_header', None)

        @property
        def is_samples_in_range(self):
            """True when the header's samples fit the section."""
            if hasattr(self, '_m_is_samples_in_range'):
                return self._m_is_samples_in_range

            self._m_is_samples_in_range =  ((self._io.size() >= 124) and ((124 + self.header.ofs_samples) + self.len_sample * self.header.num_samples <= self._io.size())) 
            return getattr(self, '_m_is_samples_in_range', None)

        @property
        def len_sample(self):
            """Bytes per sample."""
            if hasattr(self, '_m_len_sample'):
                return self._m_len_sample

            if self._io.size() >= 124:
                pass
                self._m_len_sample = (32 if self.header.motion_type == Animclip.MotionType.full else 16)

            return getattr(self, '_m_len_sample', None)

        @property
        def samples(self):
            """Lazy typed view of the standard samples."""
            if hasattr(self, '_m_samples'):
                return self._m_samples

            if  ((self.is_samples_in_range) and (self.header.motion_type == Animclip.MotionType.standard)) :
                pass
                _pos = self._io.pos()
                self._io.seek(124 + self.header.ofs_samples)
                self._debug['_m_samples']['start'] = self._io.pos()
                self._debug['_m_samples']['arr'] = []
                self._m_samples = []
                for i in range(self.header.num_samples):
                    self._debug['_m_samples']['arr'].append({'start': self._io.pos()})
                    _t__m_samples = Animclip.MotionSample(self._io, self, self._root)
                    try:
                        _t__m_samples._read()
                    finally:
                        self._m_samples.append(_t__m_samples)
                    self._debug['_m_samples']['arr'][i]['end'] = self._io.pos()

                self._debug['_m_samples']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_samples', None)


    class MotionHeader(KaitaiStruct):
        """The 0x7C-byte header of Anim Clip Motion Data (Luna Engine IO Tools motion.py). EXTERNAL.
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/motion.py
        """
        SEQ_FIELDS = ["motion_type", "flags", "num_samples", "initial_rot_0", "initial_rot_1", "initial_trans_0", "initial_trans_1", "ofs_samples", "ofs_segments", "num_phase_blend_samples", "num_segments", "unk_4b", "bounds_min", "unk_58", "bounds_max", "unk_70"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.MotionHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['motion_type']['start'] = self._io.pos()
            self.motion_type = KaitaiStream.resolve_enum(Animclip.MotionType, self._io.read_u1())
            self._debug['motion_type']['end'] = self._io.pos()
            self._debug['flags']['start'] = self._io.pos()
            self.flags = self._io.read_u1()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['num_samples']['start'] = self._io.pos()
            self.num_samples = self._io.read_u2le()
            self._debug['num_samples']['end'] = self._io.pos()
            self._debug['initial_rot_0']['start'] = self._io.pos()
            self._debug['initial_rot_0']['arr'] = []
            self.initial_rot_0 = []
            for i in range(4):
                self._debug['initial_rot_0']['arr'].append({'start': self._io.pos()})
                self.initial_rot_0.append(self._io.read_f4le())
                self._debug['initial_rot_0']['arr'][i]['end'] = self._io.pos()

            self._debug['initial_rot_0']['end'] = self._io.pos()
            self._debug['initial_rot_1']['start'] = self._io.pos()
            self._debug['initial_rot_1']['arr'] = []
            self.initial_rot_1 = []
            for i in range(4):
                self._debug['initial_rot_1']['arr'].append({'start': self._io.pos()})
                self.initial_rot_1.append(self._io.read_f4le())
                self._debug['initial_rot_1']['arr'][i]['end'] = self._io.pos()

            self._debug['initial_rot_1']['end'] = self._io.pos()
            self._debug['initial_trans_0']['start'] = self._io.pos()
            self._debug['initial_trans_0']['arr'] = []
            self.initial_trans_0 = []
            for i in range(3):
                self._debug['initial_trans_0']['arr'].append({'start': self._io.pos()})
                self.initial_trans_0.append(self._io.read_f4le())
                self._debug['initial_trans_0']['arr'][i]['end'] = self._io.pos()

            self._debug['initial_trans_0']['end'] = self._io.pos()
            self._debug['initial_trans_1']['start'] = self._io.pos()
            self._debug['initial_trans_1']['arr'] = []
            self.initial_trans_1 = []
            for i in range(3):
                self._debug['initial_trans_1']['arr'].append({'start': self._io.pos()})
                self.initial_trans_1.append(self._io.read_f4le())
                self._debug['initial_trans_1']['arr'][i]['end'] = self._io.pos()

            self._debug['initial_trans_1']['end'] = self._io.pos()
            self._debug['ofs_samples']['start'] = self._io.pos()
            self.ofs_samples = self._io.read_u4le()
            self._debug['ofs_samples']['end'] = self._io.pos()
            self._debug['ofs_segments']['start'] = self._io.pos()
            self.ofs_segments = self._io.read_u4le()
            self._debug['ofs_segments']['end'] = self._io.pos()
            self._debug['num_phase_blend_samples']['start'] = self._io.pos()
            self.num_phase_blend_samples = self._io.read_u2le()
            self._debug['num_phase_blend_samples']['end'] = self._io.pos()
            self._debug['num_segments']['start'] = self._io.pos()
            self.num_segments = self._io.read_u1()
            self._debug['num_segments']['end'] = self._io.pos()
            self._debug['unk_4b']['start'] = self._io.pos()
            self.unk_4b = self._io.read_bytes(5)
            self._debug['unk_4b']['end'] = self._io.pos()
            self._debug['bounds_min']['start'] = self._io.pos()
            self._debug['bounds_min']['arr'] = []
            self.bounds_min = []
            for i in range(3):
                self._debug['bounds_min']['arr'].append({'start': self._io.pos()})
                self.bounds_min.append(self._io.read_f4le())
                self._debug['bounds_min']['arr'][i]['end'] = self._io.pos()

            self._debug['bounds_min']['end'] = self._io.pos()
            self._debug['unk_58']['start'] = self._io.pos()
            self.unk_58 = self._io.read_bytes(12)
            self._debug['unk_58']['end'] = self._io.pos()
            self._debug['bounds_max']['start'] = self._io.pos()
            self._debug['bounds_max']['arr'] = []
            self.bounds_max = []
            for i in range(3):
                self._debug['bounds_max']['arr'].append({'start': self._io.pos()})
                self.bounds_max.append(self._io.read_f4le())
                self._debug['bounds_max']['arr'][i]['end'] = self._io.pos()

            self._debug['bounds_max']['end'] = self._io.pos()
            self._debug['unk_70']['start'] = self._io.pos()
            self.unk_70 = self._io.read_bytes(12)
            self._debug['unk_70']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.initial_rot_0)):
                pass

            for i in range(len(self.initial_rot_1)):
                pass

            for i in range(len(self.initial_trans_0)):
                pass

            for i in range(len(self.initial_trans_1)):
                pass

            for i in range(len(self.bounds_min)):
                pass

            for i in range(len(self.bounds_max)):
                pass



    class MotionSample(KaitaiStruct):
        """One standard (16-byte) root-motion sample (Luna motion.py): rotation q = (qx, qy, qz,
        qw) / 32768 normalised, translation (x, y, z) / 2^log_scale.
        """
        SEQ_FIELDS = ["qx", "qy", "qz", "qw", "x", "y", "z", "log_scale", "phase"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.MotionSample, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['qx']['start'] = self._io.pos()
            self.qx = self._io.read_s2le()
            self._debug['qx']['end'] = self._io.pos()
            self._debug['qy']['start'] = self._io.pos()
            self.qy = self._io.read_s2le()
            self._debug['qy']['end'] = self._io.pos()
            self._debug['qz']['start'] = self._io.pos()
            self.qz = self._io.read_s2le()
            self._debug['qz']['end'] = self._io.pos()
            self._debug['qw']['start'] = self._io.pos()
            self.qw = self._io.read_s2le()
            self._debug['qw']['end'] = self._io.pos()
            self._debug['x']['start'] = self._io.pos()
            self.x = self._io.read_s2le()
            self._debug['x']['end'] = self._io.pos()
            self._debug['y']['start'] = self._io.pos()
            self.y = self._io.read_s2le()
            self._debug['y']['end'] = self._io.pos()
            self._debug['z']['start'] = self._io.pos()
            self.z = self._io.read_s2le()
            self._debug['z']['end'] = self._io.pos()
            self._debug['log_scale']['start'] = self._io.pos()
            self.log_scale = self._io.read_s1()
            self._debug['log_scale']['end'] = self._io.pos()
            self._debug['phase']['start'] = self._io.pos()
            self.phase = self._io.read_s1()
            self._debug['phase']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class OuterHeader(KaitaiStruct):
        """The 36-byte outer asset header. ALERT's asset class reads exactly these 36 bytes and
        passes everything after them to the DAT1 reader. For RCRA the header is stored in the
        archive TOC ("Archive TOC Asset Header Data") and prepended on extraction, which gives
        the same file shape. Writers must store the final DAT1 size in `len_dat1` after laying
        out the DAT1 (ALERT writes a stale value after edits).
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/autogen.py
        
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/__init__.py
        """
        SEQ_FIELDS = ["magic", "len_dat1", "unk"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.OuterHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic']['start'] = self._io.pos()
            self.magic = KaitaiStream.resolve_enum(Animclip.AssetType, self._io.read_u4le())
            self._debug['magic']['end'] = self._io.pos()
            if not isinstance(self.magic, Animclip.AssetType):
                raise kaitaistruct.ValidationNotInEnumError(self.magic, self._io, u"/types/outer_header/seq/0")
            self._debug['len_dat1']['start'] = self._io.pos()
            self.len_dat1 = self._io.read_u4le()
            self._debug['len_dat1']['end'] = self._io.pos()
            self._debug['unk']['start'] = self._io.pos()
            self.unk = self._io.read_bytes(28)
            self._debug['unk']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class Path(KaitaiStruct):
        """Section 0x3976E44C "Anim Clip Path" (ALERT class x3976E44C_Section), exactly 128 bytes:
        two 4x4 f32 matrices. ALERT reads it as 32 u32 words and comments "two matrixes 4x4
        (like I + translation vector)"; ALERT's wiki suggests "starting and ending transforms?".
        Row/column order and where the translation sits are UNKNOWN. Status partly KNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["start_matrix", "end_matrix", "trailing"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.Path, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['start_matrix']['start'] = self._io.pos()
            self.start_matrix = Animclip.Matrix4x4(self._io, self, self._root)
            self.start_matrix._read()
            self._debug['start_matrix']['end'] = self._io.pos()
            self._debug['end_matrix']['start'] = self._io.pos()
            self.end_matrix = Animclip.Matrix4x4(self._io, self, self._root)
            self.end_matrix._read()
            self._debug['end_matrix']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.start_matrix._fetch_instances()
            self.end_matrix._fetch_instances()


    class PoseExpressionIdMap(KaitaiStruct):
        """Section 0x495BA079 "Anim Clip Pose Expression Id Map" (ALERT class x495BA079_Section),
        104..272 bytes; always with Pose Phoneme Visems Map. ALERT views it as u32 words.
        Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.PoseExpressionIdMap, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class PosePhonemeVisemsMap(KaitaiStruct):
        """Section 0x1D4BD9FA "Anim Clip Pose Phoneme Visems Map" (ALERT class x1D4BD9FA_Section),
        exactly 80 bytes, in about 20 assets per game (facial animation); always with Pose
        Expression Id Map. ALERT views it as u32 words. Status UNKNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.PosePhonemeVisemsMap, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.floats
            if hasattr(self, '_m_floats'):
                pass
                for i in range(len(self._m_floats)):
                    pass


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def floats(self):
            """Lazy f32 view of `data_raw`, for exploration."""
            if hasattr(self, '_m_floats'):
                return self._m_floats

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_floats']['start'] = self._io.pos()
            self._debug['_m_floats']['arr'] = []
            self._m_floats = []
            for i in range(self._io.size() // 4):
                self._debug['_m_floats']['arr'].append({'start': self._io.pos()})
                self._m_floats.append(self._io.read_f4le())
                self._debug['_m_floats']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_floats']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_floats', None)

        @property
        def num_words(self):
            """Number of whole u32 words."""
            if hasattr(self, '_m_num_words'):
                return self._m_num_words

            self._m_num_words = self._io.size() // 4
            return getattr(self, '_m_num_words', None)

        @property
        def words(self):
            """Lazy u32 view of `data_raw` (ALERT's view)."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self.num_words):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class SampleData(KaitaiStruct):
        """Section 0x3A7B4855 "Anim Clip Sample Data" (Remastered, Miles Morales, Rift Apart) and
        Spider-Man 2's 0x8A9598E1 "Anim Clip Sample Data Resident" and 0x02EA708A "Anim Clip
        Sample Data Paged": the per-frame animation (EXTERNAL: Luna Engine IO Tools
        anim_import.py, binary.py; Luna reads the Spider-Man 2 sections, and the single
        section of the earlier games is reported to use the same layout; ALERT has no decoder).
        
        Layout: with Built's frame-lookup flag (0x10000), `num_lookup` u16 entries (Built's
        frame count, +1 when looping) map each frame to a stored sample, padded to a multiple
        of 16 bytes; then the samples, `stride` bytes each (whole u32 words). A sample's bits
        are read LSB-first from consecutive little-endian u32 words (the same order as a
        little-endian bit stream over the bytes): the small elements' fields in Sample Elem
        order, then the large ones'. Field k is an unsigned integer of width_k bits; the
        component gets base + (field << shift_k) where base is the Base State integer of that
        component; the frame's pose follows (see `base_state`). Components no element names
        keep their base. Unused bits up to the stride are zero as Luna writes them.
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
        
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/binary.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, num_lookup, stride, _io, _parent=None, _root=None):
            super(Animclip.SampleData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.num_lookup = num_lookup
            self.stride = stride
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.lookup
            if hasattr(self, '_m_lookup'):
                pass
                for i in range(len(self._m_lookup)):
                    pass


            _ = self.samples
            if hasattr(self, '_m_samples'):
                pass
                for i in range(len(self._m_samples)):
                    pass
                    self._m_samples[i]._fetch_instances()


            _ = self.words
            if hasattr(self, '_m_words'):
                pass
                for i in range(len(self._m_words)):
                    pass



        @property
        def len_lookup(self):
            """2 x num_lookup, cut to the payload."""
            if hasattr(self, '_m_len_lookup'):
                return self._m_len_lookup

            self._m_len_lookup = (2 * self.num_lookup if 2 * self.num_lookup <= self._io.size() else self._io.size() - self._io.size() % 2)
            return getattr(self, '_m_len_lookup', None)

        @property
        def len_lookup_padding(self):
            """Padding after the lookup table up to a multiple of 16 (cut to the payload)."""
            if hasattr(self, '_m_len_lookup_padding'):
                return self._m_len_lookup_padding

            self._m_len_lookup_padding = (((self.len_lookup + 15) // 16) * 16 - self.len_lookup if ((self.len_lookup + 15) // 16) * 16 <= self._io.size() else self._io.size() - self.len_lookup)
            return getattr(self, '_m_len_lookup_padding', None)

        @property
        def lookup(self):
            """The frame-lookup table (lazy); entry f is the sample frame f plays (< `num_samples`)."""
            if hasattr(self, '_m_lookup'):
                return self._m_lookup

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_lookup']['start'] = self._io.pos()
            self._debug['_m_lookup']['arr'] = []
            self._m_lookup = []
            for i in range(self.len_lookup // 2):
                self._debug['_m_lookup']['arr'].append({'start': self._io.pos()})
                self._m_lookup.append(self._io.read_u2le())
                self._debug['_m_lookup']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_lookup']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_lookup', None)

        @property
        def num_samples(self):
            """Whole samples stored (Built's unique sample count expected)."""
            if hasattr(self, '_m_num_samples'):
                return self._m_num_samples

            self._m_num_samples = ((self._io.size() - self.ofs_samples) // self.stride if self.stride > 0 else 0)
            return getattr(self, '_m_num_samples', None)

        @property
        def ofs_samples(self):
            """Section offset of the first sample."""
            if hasattr(self, '_m_ofs_samples'):
                return self._m_ofs_samples

            self._m_ofs_samples = self.len_lookup + self.len_lookup_padding
            return getattr(self, '_m_ofs_samples', None)

        @property
        def samples(self):
            """The samples (lazy), one record per sample, its bit fields read with the widths of
            Sample Elem (absent with no Sample Elem section).
            """
            if hasattr(self, '_m_samples'):
                return self._m_samples

            if self._parent._parent.idx_sample_elem >= 0:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs_samples)
                self._debug['_m_samples']['start'] = self._io.pos()
                self._debug['_m_samples']['arr'] = []
                self._raw__m_samples = []
                self._m_samples = []
                for i in range(self.num_samples):
                    self._debug['_m_samples']['arr'].append({'start': self._io.pos()})
                    self._raw__m_samples.append(self._io.read_bytes(self.stride))
                    _io__raw__m_samples = KaitaiStream(BytesIO(self._raw__m_samples[i]))
                    _t__m_samples = Animclip.SampleRecord(_io__raw__m_samples, self, self._root)
                    try:
                        _t__m_samples._read()
                    finally:
                        self._m_samples.append(_t__m_samples)
                    self._debug['_m_samples']['arr'][i]['end'] = self._io.pos()

                self._debug['_m_samples']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_samples', None)

        @property
        def words(self):
            """Lazy u32 view of the whole payload (ALERT's view). Can be millions of entries."""
            if hasattr(self, '_m_words'):
                return self._m_words

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_words']['start'] = self._io.pos()
            self._debug['_m_words']['arr'] = []
            self._m_words = []
            for i in range(self._io.size() // 4):
                self._debug['_m_words']['arr'].append({'start': self._io.pos()})
                self._m_words.append(self._io.read_u4le())
                self._debug['_m_words']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_words']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_words', None)


    class SampleElem(KaitaiStruct):
        """Section 0xD070D358 "Anim Clip Sample Elem": which packed component each Sample Data bit
        field adds to, and how wide it is (EXTERNAL: Luna Engine IO Tools anim_import.py and
        anim_export.py; ALERT reads the first two columns only). Layout:
        a small table of n = `num_elems_declared` (Built +0x24) u32 offsets then n u8 codes;
        zero padding to a multiple of 4 bytes; a large table of m = `num_large_elems_declared`
        (Built +0x44) u32 offsets then m u16 codes; anything left is `trailing`.
        Offset / 4 = packed component index ci: joint ci / 12, component ci % 12 (0-3 scale
        x, y, z and divisor, 4-7 quaternion x, y, z, w, 8-11 translation x, y, z and shift, the
        components of `base_state_joint`). Small code: width = low nibble + 1 bits, shift =
        high nibble; large code: width = low byte + 1, shift = high byte. Each sample holds the
        small elements' fields, then the large ones', in table order.
        When Built's counts do not fit the payload, or there is no Built, the split falls back
        to ALERT's: n = floor(size / 5), no large table (`is_size_consistent` false then). With
        no large table, n = floor(size / 5) is exactly what Built says, so ALERT's reading is
        this one without large elements.
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
        
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["offsets_raw", "codes_raw", "padding", "large_offsets_raw", "large_codes_raw", "trailing"]
        def __init__(self, has_built, num_elems_declared, num_large_elems_declared, _io, _parent=None, _root=None):
            super(Animclip.SampleElem, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.has_built = has_built
            self.num_elems_declared = num_elems_declared
            self.num_large_elems_declared = num_large_elems_declared
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['offsets_raw']['start'] = self._io.pos()
            self.offsets_raw = self._io.read_bytes(4 * self.num_elems)
            self._debug['offsets_raw']['end'] = self._io.pos()
            self._debug['codes_raw']['start'] = self._io.pos()
            self.codes_raw = self._io.read_bytes(self.num_elems)
            self._debug['codes_raw']['end'] = self._io.pos()
            self._debug['padding']['start'] = self._io.pos()
            self.padding = self._io.read_bytes(self.len_padding)
            self._debug['padding']['end'] = self._io.pos()
            self._debug['large_offsets_raw']['start'] = self._io.pos()
            self.large_offsets_raw = self._io.read_bytes(4 * self.num_large_elems)
            self._debug['large_offsets_raw']['end'] = self._io.pos()
            self._debug['large_codes_raw']['start'] = self._io.pos()
            self.large_codes_raw = self._io.read_bytes(2 * self.num_large_elems)
            self._debug['large_codes_raw']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.elems
            if hasattr(self, '_m_elems'):
                pass
                for i in range(len(self._m_elems)):
                    pass
                    self._m_elems[i]._fetch_instances()


            _ = self.large_elems
            if hasattr(self, '_m_large_elems'):
                pass
                for i in range(len(self._m_large_elems)):
                    pass
                    self._m_large_elems[i]._fetch_instances()



        @property
        def elems(self):
            """Lazy typed view of the small table (offset, code and what they mean)."""
            if hasattr(self, '_m_elems'):
                return self._m_elems

            self._debug['_m_elems']['start'] = self._io.pos()
            self._debug['_m_elems']['arr'] = []
            self._m_elems = []
            for i in range(self.num_elems):
                self._debug['_m_elems']['arr'].append({'start': self._io.pos()})
                _t__m_elems = Animclip.SampleElemSmall(i, self._io, self, self._root)
                try:
                    _t__m_elems._read()
                finally:
                    self._m_elems.append(_t__m_elems)
                self._debug['_m_elems']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_elems']['end'] = self._io.pos()
            return getattr(self, '_m_elems', None)

        @property
        def is_size_consistent(self):
            """True when Built's two counts fit the payload (they split it then)."""
            if hasattr(self, '_m_is_size_consistent'):
                return self._m_is_size_consistent

            self._m_is_size_consistent =  ((self.has_built) and ((5 * self.num_elems_declared + (4 - self.num_elems_declared % 4) % 4) + 6 * self.num_large_elems_declared <= self._io.size())) 
            return getattr(self, '_m_is_size_consistent', None)

        @property
        def large_elems(self):
            """Lazy typed view of the large table."""
            if hasattr(self, '_m_large_elems'):
                return self._m_large_elems

            self._debug['_m_large_elems']['start'] = self._io.pos()
            self._debug['_m_large_elems']['arr'] = []
            self._m_large_elems = []
            for i in range(self.num_large_elems):
                self._debug['_m_large_elems']['arr'].append({'start': self._io.pos()})
                _t__m_large_elems = Animclip.SampleElemLarge(i, self._io, self, self._root)
                try:
                    _t__m_large_elems._read()
                finally:
                    self._m_large_elems.append(_t__m_large_elems)
                self._debug['_m_large_elems']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_large_elems']['end'] = self._io.pos()
            return getattr(self, '_m_large_elems', None)

        @property
        def len_padding(self):
            """Padding after the small codes: (4 - n % 4) % 4 bytes, or (ALERT's split, when
            Built's counts do not fit) every byte after the small table.
            """
            if hasattr(self, '_m_len_padding'):
                return self._m_len_padding

            self._m_len_padding = ((4 - self.num_elems % 4) % 4 if self.is_size_consistent else self._io.size() - 5 * self.num_elems)
            return getattr(self, '_m_len_padding', None)

        @property
        def num_elems(self):
            """n, small elements: Built's count, or ALERT's floor(size / 5) when Built's counts do
            not fit. One count for the parallel tables (`offsets_raw`, `codes_raw`, `elems`), so
            it cannot carry the name of `codes_raw` the compiler's style check asks for.
            """
            if hasattr(self, '_m_num_elems'):
                return self._m_num_elems

            self._m_num_elems = (self.num_elems_declared if self.is_size_consistent else self._io.size() // 5)
            return getattr(self, '_m_num_elems', None)

        @property
        def num_large_elems(self):
            """m, large elements (0 when Built's counts do not fit)."""
            if hasattr(self, '_m_num_large_elems'):
                return self._m_num_large_elems

            self._m_num_large_elems = (self.num_large_elems_declared if self.is_size_consistent else 0)
            return getattr(self, '_m_num_large_elems', None)

        @property
        def ofs_large_table(self):
            """Section offset of the large table (4-aligned)."""
            if hasattr(self, '_m_ofs_large_table'):
                return self._m_ofs_large_table

            self._m_ofs_large_table = 5 * self.num_elems + self.len_padding
            return getattr(self, '_m_ofs_large_table', None)


    class SampleElemLarge(KaitaiStruct):
        """One large Sample Elem element (instances over the two large-table columns)."""
        SEQ_FIELDS = []
        def __init__(self, i, _io, _parent=None, _root=None):
            super(Animclip.SampleElemLarge, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.i = i
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.code
            if hasattr(self, '_m_code'):
                pass

            _ = self.ofs_component
            if hasattr(self, '_m_ofs_component'):
                pass


        @property
        def code(self):
            """The u16 code."""
            if hasattr(self, '_m_code'):
                return self._m_code

            io = self._parent._io
            _pos = io.pos()
            io.seek((self._parent.ofs_large_table + 4 * self._parent.num_large_elems) + 2 * self.i)
            self._debug['_m_code']['start'] = io.pos()
            self._m_code = io.read_u2le()
            self._debug['_m_code']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_code', None)

        @property
        def component(self):
            """Which of the joint's 12 components the field adds to."""
            if hasattr(self, '_m_component'):
                return self._m_component

            self._m_component = KaitaiStream.resolve_enum(Animclip.PackedComponent, self.component_index % 12)
            return getattr(self, '_m_component', None)

        @property
        def component_index(self):
            """ci, the packed component index."""
            if hasattr(self, '_m_component_index'):
                return self._m_component_index

            self._m_component_index = self.ofs_component // 4
            return getattr(self, '_m_component_index', None)

        @property
        def joint(self):
            """The joint; below Built's joint count."""
            if hasattr(self, '_m_joint'):
                return self._m_joint

            self._m_joint = self.component_index // 12
            return getattr(self, '_m_joint', None)

        @property
        def ofs_component(self):
            """Byte offset of the component in the packed joint array."""
            if hasattr(self, '_m_ofs_component'):
                return self._m_ofs_component

            io = self._parent._io
            _pos = io.pos()
            io.seek(self._parent.ofs_large_table + 4 * self.i)
            self._debug['_m_ofs_component']['start'] = io.pos()
            self._m_ofs_component = io.read_u4le()
            self._debug['_m_ofs_component']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_ofs_component', None)

        @property
        def shift(self):
            """Left shift applied to the field before it is added to the base."""
            if hasattr(self, '_m_shift'):
                return self._m_shift

            self._m_shift = self.code >> 8
            return getattr(self, '_m_shift', None)

        @property
        def width(self):
            """Bit width of the field (1..256 by the code; Luna writes 17..32)."""
            if hasattr(self, '_m_width'):
                return self._m_width

            self._m_width = (self.code & 255) + 1
            return getattr(self, '_m_width', None)


    class SampleElemSmall(KaitaiStruct):
        """One small Sample Elem element (instances over the two small-table columns)."""
        SEQ_FIELDS = []
        def __init__(self, i, _io, _parent=None, _root=None):
            super(Animclip.SampleElemSmall, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.i = i
            self._debug = collections.defaultdict(dict)

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.code
            if hasattr(self, '_m_code'):
                pass

            _ = self.ofs_component
            if hasattr(self, '_m_ofs_component'):
                pass


        @property
        def code(self):
            """The code byte."""
            if hasattr(self, '_m_code'):
                return self._m_code

            io = self._parent._io
            _pos = io.pos()
            io.seek(4 * self._parent.num_elems + self.i)
            self._debug['_m_code']['start'] = io.pos()
            self._m_code = io.read_u1()
            self._debug['_m_code']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_code', None)

        @property
        def component(self):
            """Which of the joint's 12 components the field adds to."""
            if hasattr(self, '_m_component'):
                return self._m_component

            self._m_component = KaitaiStream.resolve_enum(Animclip.PackedComponent, self.component_index % 12)
            return getattr(self, '_m_component', None)

        @property
        def component_index(self):
            """ci, the packed component index."""
            if hasattr(self, '_m_component_index'):
                return self._m_component_index

            self._m_component_index = self.ofs_component // 4
            return getattr(self, '_m_component_index', None)

        @property
        def joint(self):
            """The joint (Joint Hashes / Base State index); below Built's joint count."""
            if hasattr(self, '_m_joint'):
                return self._m_joint

            self._m_joint = self.component_index // 12
            return getattr(self, '_m_joint', None)

        @property
        def ofs_component(self):
            """Byte offset of the component in the packed joint array (4 bytes per component)."""
            if hasattr(self, '_m_ofs_component'):
                return self._m_ofs_component

            io = self._parent._io
            _pos = io.pos()
            io.seek(4 * self.i)
            self._debug['_m_ofs_component']['start'] = io.pos()
            self._m_ofs_component = io.read_u4le()
            self._debug['_m_ofs_component']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_ofs_component', None)

        @property
        def shift(self):
            """Left shift applied to the field before it is added to the base (0..15)."""
            if hasattr(self, '_m_shift'):
                return self._m_shift

            self._m_shift = self.code >> 4
            return getattr(self, '_m_shift', None)

        @property
        def width(self):
            """Bit width of the field in each sample (1..16)."""
            if hasattr(self, '_m_width'):
                return self._m_width

            self._m_width = (self.code & 15) + 1
            return getattr(self, '_m_width', None)


    class SampleField(KaitaiStruct):
        """One field of a sample: `width` bits, LSB-first. Typed here up to 32 bits (what every
        Kaitai target, JavaScript's included, reads as a bit-sized integer); a wider field (a
        large code allows up to 256 bits; Luna writes at most 32) has no `value`, and the
        fields after it are misplaced in this view (the raw bytes stay in `data_raw`).
        """
        SEQ_FIELDS = ["bits", "bit"]
        def __init__(self, width, _io, _parent=None, _root=None):
            super(Animclip.SampleField, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.width = width
            self._debug = collections.defaultdict(dict)

        def _read(self):
            if self.width > 1:
                pass
                self._debug['bits']['start'] = self._io.pos()
                _on = self.width
                if _on == 10:
                    pass
                    self.bits = self._io.read_bits_int_le(10)
                elif _on == 11:
                    pass
                    self.bits = self._io.read_bits_int_le(11)
                elif _on == 12:
                    pass
                    self.bits = self._io.read_bits_int_le(12)
                elif _on == 13:
                    pass
                    self.bits = self._io.read_bits_int_le(13)
                elif _on == 14:
                    pass
                    self.bits = self._io.read_bits_int_le(14)
                elif _on == 15:
                    pass
                    self.bits = self._io.read_bits_int_le(15)
                elif _on == 16:
                    pass
                    self.bits = self._io.read_bits_int_le(16)
                elif _on == 17:
                    pass
                    self.bits = self._io.read_bits_int_le(17)
                elif _on == 18:
                    pass
                    self.bits = self._io.read_bits_int_le(18)
                elif _on == 19:
                    pass
                    self.bits = self._io.read_bits_int_le(19)
                elif _on == 2:
                    pass
                    self.bits = self._io.read_bits_int_le(2)
                elif _on == 20:
                    pass
                    self.bits = self._io.read_bits_int_le(20)
                elif _on == 21:
                    pass
                    self.bits = self._io.read_bits_int_le(21)
                elif _on == 22:
                    pass
                    self.bits = self._io.read_bits_int_le(22)
                elif _on == 23:
                    pass
                    self.bits = self._io.read_bits_int_le(23)
                elif _on == 24:
                    pass
                    self.bits = self._io.read_bits_int_le(24)
                elif _on == 25:
                    pass
                    self.bits = self._io.read_bits_int_le(25)
                elif _on == 26:
                    pass
                    self.bits = self._io.read_bits_int_le(26)
                elif _on == 27:
                    pass
                    self.bits = self._io.read_bits_int_le(27)
                elif _on == 28:
                    pass
                    self.bits = self._io.read_bits_int_le(28)
                elif _on == 29:
                    pass
                    self.bits = self._io.read_bits_int_le(29)
                elif _on == 3:
                    pass
                    self.bits = self._io.read_bits_int_le(3)
                elif _on == 30:
                    pass
                    self.bits = self._io.read_bits_int_le(30)
                elif _on == 31:
                    pass
                    self.bits = self._io.read_bits_int_le(31)
                elif _on == 32:
                    pass
                    self.bits = self._io.read_bits_int_le(32)
                elif _on == 4:
                    pass
                    self.bits = self._io.read_bits_int_le(4)
                elif _on == 5:
                    pass
                    self.bits = self._io.read_bits_int_le(5)
                elif _on == 6:
                    pass
                    self.bits = self._io.read_bits_int_le(6)
                elif _on == 7:
                    pass
                    self.bits = self._io.read_bits_int_le(7)
                elif _on == 8:
                    pass
                    self.bits = self._io.read_bits_int_le(8)
                elif _on == 9:
                    pass
                    self.bits = self._io.read_bits_int_le(9)
                self._debug['bits']['end'] = self._io.pos()

            if self.width == 1:
                pass
                self._debug['bit']['start'] = self._io.pos()
                self.bit = self._io.read_bits_int_le(1) != 0
                self._debug['bit']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if self.width > 1:
                pass
                _on = self.width
                if _on == 10:
                    pass
                elif _on == 11:
                    pass
                elif _on == 12:
                    pass
                elif _on == 13:
                    pass
                elif _on == 14:
                    pass
                elif _on == 15:
                    pass
                elif _on == 16:
                    pass
                elif _on == 17:
                    pass
                elif _on == 18:
                    pass
                elif _on == 19:
                    pass
                elif _on == 2:
                    pass
                elif _on == 20:
                    pass
                elif _on == 21:
                    pass
                elif _on == 22:
                    pass
                elif _on == 23:
                    pass
                elif _on == 24:
                    pass
                elif _on == 25:
                    pass
                elif _on == 26:
                    pass
                elif _on == 27:
                    pass
                elif _on == 28:
                    pass
                elif _on == 29:
                    pass
                elif _on == 3:
                    pass
                elif _on == 30:
                    pass
                elif _on == 31:
                    pass
                elif _on == 32:
                    pass
                elif _on == 4:
                    pass
                elif _on == 5:
                    pass
                elif _on == 6:
                    pass
                elif _on == 7:
                    pass
                elif _on == 8:
                    pass
                elif _on == 9:
                    pass

            if self.width == 1:
                pass


        @property
        def value(self):
            """The unsigned field; the component gets base + (value << shift)."""
            if hasattr(self, '_m_value'):
                return self._m_value

            self._m_value = ((1 if self.bit else 0) if self.width == 1 else self.bits)
            return getattr(self, '_m_value', None)


    class SampleRecord(KaitaiStruct):
        """One sample: one unsigned bit field per Sample Elem element, small ones then large ones,
        LSB-first (a little-endian bit stream), then zero bits up to the stride.
        """
        SEQ_FIELDS = ["small", "large", "rest"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.SampleRecord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['small']['start'] = self._io.pos()
            self._debug['small']['arr'] = []
            self.small = []
            for i in range(self._parent._parent._parent.sample_elem_section.num_elems):
                self._debug['small']['arr'].append({'start': self._io.pos()})
                _t_small = Animclip.SampleField(self._parent._parent._parent.sample_elem_section.elems[i].width, self._io, self, self._root)
                try:
                    _t_small._read()
                finally:
                    self.small.append(_t_small)
                self._debug['small']['arr'][i]['end'] = self._io.pos()

            self._debug['small']['end'] = self._io.pos()
            self._debug['large']['start'] = self._io.pos()
            self._debug['large']['arr'] = []
            self.large = []
            for i in range(self._parent._parent._parent.sample_elem_section.num_large_elems):
                self._debug['large']['arr'].append({'start': self._io.pos()})
                _t_large = Animclip.SampleField(self._parent._parent._parent.sample_elem_section.large_elems[i].width, self._io, self, self._root)
                try:
                    _t_large._read()
                finally:
                    self.large.append(_t_large)
                self._debug['large']['arr'][i]['end'] = self._io.pos()

            self._debug['large']['end'] = self._io.pos()
            self._debug['rest']['start'] = self._io.pos()
            self.rest = self._io.read_bytes_full()
            self._debug['rest']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.small)):
                pass
                self.small[i]._fetch_instances()

            for i in range(len(self.large)):
                pass
                self.large[i]._fetch_instances()



    class SectionEntry(KaitaiStruct):
        """One section-table entry (12 bytes) plus the section's payload, parsed lazily as the
        `body` instance in a substream of exactly `len_body` bytes, typed by `tag`. A tag this
        spec does not know leaves `body` as raw bytes. The parameters carry running values
        over the table (computed by `dat1`) so the DAT1 can find its strings block and the
        sections other sections depend on.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
        """
        SEQ_FIELDS = ["tag", "ofs_body", "len_body"]
        def __init__(self, idx, prev_ofs_min, prev_idx_built, prev_idx_custom_track_data, prev_idx_sample_elem, _io, _parent=None, _root=None):
            super(Animclip.SectionEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.idx = idx
            self.prev_ofs_min = prev_ofs_min
            self.prev_idx_built = prev_idx_built
            self.prev_idx_custom_track_data = prev_idx_custom_track_data
            self.prev_idx_sample_elem = prev_idx_sample_elem
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['tag']['start'] = self._io.pos()
            self.tag = KaitaiStream.resolve_enum(Animclip.SectionTag, self._io.read_u4le())
            self._debug['tag']['end'] = self._io.pos()
            self._debug['ofs_body']['start'] = self._io.pos()
            self.ofs_body = self._io.read_u4le()
            self._debug['ofs_body']['end'] = self._io.pos()
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = self._io.read_u4le()
            self._debug['len_body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.body
            if hasattr(self, '_m_body'):
                pass
                _on = self.tag
                if _on == Animclip.SectionTag.base_state:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.built:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.curves:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.curves_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.custom_track_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.custom_tracks:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.geom_sample_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.geom_samples:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.joint_hashes:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.markers:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.morph_frame_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.morph_info:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.motion_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.path:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.pose_expression_id_map:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.pose_phoneme_visems_map:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.sample_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.sample_data_paged:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.sample_data_resident:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.sample_elem:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.tracks_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.trigger_data:
                    pass
                    self._m_body._fetch_instances()
                elif _on == Animclip.SectionTag.trigger_joint_names:
                    pass
                    self._m_body._fetch_instances()
                else:
                    pass


        @property
        def body(self):
            """The section payload, DAT1 bytes [ofs_body, ofs_body + len_body), typed by `tag`;
            raw bytes for an unknown tag. Status KNOWN (location).
            """
            if hasattr(self, '_m_body'):
                return self._m_body

            io = self._parent._io
            _pos = io.pos()
            io.seek(self.ofs_body)
            self._debug['_m_body']['start'] = io.pos()
            _on = self.tag
            if _on == Animclip.SectionTag.base_state:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.BaseState(self._parent.num_base_state_joints, self._parent.num_base_state_things, _io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.built:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.Built(self._parent.is_msm2, _io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.curves:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.Curves(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.curves_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.CurvesData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.custom_track_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.CustomTrackData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.custom_tracks:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.CustomTracks(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.geom_sample_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.GeomSampleData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.geom_samples:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.GeomSamples(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.joint_hashes:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.JointHashes(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.markers:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.Markers(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.morph_frame_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.MorphFrameData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.morph_info:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.MorphInfo(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.motion_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.MotionData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.path:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.Path(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.pose_expression_id_map:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.PoseExpressionIdMap(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.pose_phoneme_visems_map:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.PosePhonemeVisemsMap(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.sample_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.SampleData(self._parent.num_lookup_entries, self._parent.sample_stride, _io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.sample_data_paged:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.SampleData(self._parent.num_lookup_entries, self._parent.sample_stride, _io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.sample_data_resident:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.SampleData(self._parent.num_lookup_entries, self._parent.sample_stride, _io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.sample_elem:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.SampleElem(self._parent.idx_built >= 0, self._parent.num_elems_declared, self._parent.num_large_elems_declared, _io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.tracks_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.TracksData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.trigger_data:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.TriggerData(_io__raw__m_body, self, self._root)
                self._m_body._read()
            elif _on == Animclip.SectionTag.trigger_joint_names:
                pass
                self._raw__m_body = io.read_bytes(self.len_body)
                _io__raw__m_body = KaitaiStream(BytesIO(self._raw__m_body))
                self._m_body = Animclip.TriggerJointNames(_io__raw__m_body, self, self._root)
                self._m_body._read()
            else:
                pass
                self._m_body = io.read_bytes(self.len_body)
            self._debug['_m_body']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_body', None)

        @property
        def idx_built(self):
            """Index of the last Built entry among entries 0..idx, -1 if none."""
            if hasattr(self, '_m_idx_built'):
                return self._m_idx_built

            self._m_idx_built = (self.idx if self.tag == Animclip.SectionTag.built else self.prev_idx_built)
            return getattr(self, '_m_idx_built', None)

        @property
        def idx_custom_track_data(self):
            """Index of the last Custom Track Data entry among entries 0..idx, -1 if none."""
            if hasattr(self, '_m_idx_custom_track_data'):
                return self._m_idx_custom_track_data

            self._m_idx_custom_track_data = (self.idx if self.tag == Animclip.SectionTag.custom_track_data else self.prev_idx_custom_track_data)
            return getattr(self, '_m_idx_custom_track_data', None)

        @property
        def idx_sample_elem(self):
            """Index of the last Sample Elem entry among entries 0..idx, -1 if none."""
            if hasattr(self, '_m_idx_sample_elem'):
                return self._m_idx_sample_elem

            self._m_idx_sample_elem = (self.idx if self.tag == Animclip.SectionTag.sample_elem else self.prev_idx_sample_elem)
            return getattr(self, '_m_idx_sample_elem', None)

        @property
        def ofs_min(self):
            """Smallest payload offset among entries 0..idx."""
            if hasattr(self, '_m_ofs_min'):
                return self._m_ofs_min

            self._m_ofs_min = (self.ofs_body if self.ofs_body < self.prev_ofs_min else self.prev_ofs_min)
            return getattr(self, '_m_ofs_min', None)


    class SerializedChild(KaitaiStruct):
        """One 8-byte child descriptor of a serialized object.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["key_hash", "flags", "unk", "value_type"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.SerializedChild, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['key_hash']['start'] = self._io.pos()
            self.key_hash = self._io.read_u4le()
            self._debug['key_hash']['end'] = self._io.pos()
            self._debug['flags']['start'] = self._io.pos()
            self.flags = self._io.read_u2le()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['unk']['start'] = self._io.pos()
            self.unk = self._io.read_u1()
            self._debug['unk']['end'] = self._io.pos()
            self._debug['value_type']['start'] = self._io.pos()
            self.value_type = KaitaiStream.resolve_enum(Animclip.SerializedType, self._io.read_u1())
            self._debug['value_type']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def is_array(self):
            """True for an array value."""
            if hasattr(self, '_m_is_array'):
                return self._m_is_array

            self._m_is_array = self.num_elements != 1
            return getattr(self, '_m_is_array', None)

        @property
        def num_elements(self):
            """Element count; 1 means a scalar, any other value an array of that many elements."""
            if hasattr(self, '_m_num_elements'):
                return self._m_num_elements

            self._m_num_elements = self.flags >> 4
            return getattr(self, '_m_num_elements', None)


    class SerializedElement(KaitaiStruct):
        """One element of a serialized value; exactly one of the `value_*` fields is present,
        chosen by `value_type`.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["value_u1", "value_u2", "value_u4", "value_s1", "value_s2", "value_s4", "value_f4", "value_string", "value_object", "value_bool", "value_instance_id", "value_null"]
        def __init__(self, value_type, ofs_io, _io, _parent=None, _root=None):
            super(Animclip.SerializedElement, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.value_type = value_type
            self.ofs_io = ofs_io
            self._debug = collections.defaultdict(dict)

        def _read(self):
            if self.value_type == Animclip.SerializedType.uint8:
                pass
                self._debug['value_u1']['start'] = self._io.pos()
                self.value_u1 = self._io.read_u1()
                self._debug['value_u1']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.uint16:
                pass
                self._debug['value_u2']['start'] = self._io.pos()
                self.value_u2 = self._io.read_u2le()
                self._debug['value_u2']['end'] = self._io.pos()

            if  ((self.value_type == Animclip.SerializedType.uint32) or (self.value_type == Animclip.SerializedType.so_four_bytes)) :
                pass
                self._debug['value_u4']['start'] = self._io.pos()
                self.value_u4 = self._io.read_u4le()
                self._debug['value_u4']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.int8:
                pass
                self._debug['value_s1']['start'] = self._io.pos()
                self.value_s1 = self._io.read_s1()
                self._debug['value_s1']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.int16:
                pass
                self._debug['value_s2']['start'] = self._io.pos()
                self.value_s2 = self._io.read_s2le()
                self._debug['value_s2']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.int32:
                pass
                self._debug['value_s4']['start'] = self._io.pos()
                self.value_s4 = self._io.read_s4le()
                self._debug['value_s4']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.float32:
                pass
                self._debug['value_f4']['start'] = self._io.pos()
                self.value_f4 = self._io.read_f4le()
                self._debug['value_f4']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.string:
                pass
                self._debug['value_string']['start'] = self._io.pos()
                self.value_string = Animclip.SerializedString(self.ofs_io, self._io, self, self._root)
                self.value_string._read()
                self._debug['value_string']['end'] = self._io.pos()

            if  ((self.value_type == Animclip.SerializedType.object) or (self.value_type == Animclip.SerializedType.so_object)) :
                pass
                self._debug['value_object']['start'] = self._io.pos()
                self.value_object = Animclip.SerializedObject(self.ofs_io + self._io.pos(), self._io, self, self._root)
                self.value_object._read()
                self._debug['value_object']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.boolean:
                pass
                self._debug['value_bool']['start'] = self._io.pos()
                self.value_bool = self._io.read_u1()
                self._debug['value_bool']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.instance_id:
                pass
                self._debug['value_instance_id']['start'] = self._io.pos()
                self.value_instance_id = self._io.read_u8le()
                self._debug['value_instance_id']['end'] = self._io.pos()

            if self.value_type == Animclip.SerializedType.null_value:
                pass
                self._debug['value_null']['start'] = self._io.pos()
                self.value_null = self._io.read_u1()
                self._debug['value_null']['end'] = self._io.pos()



        def _fetch_instances(self):
            pass
            if self.value_type == Animclip.SerializedType.uint8:
                pass

            if self.value_type == Animclip.SerializedType.uint16:
                pass

            if  ((self.value_type == Animclip.SerializedType.uint32) or (self.value_type == Animclip.SerializedType.so_four_bytes)) :
                pass

            if self.value_type == Animclip.SerializedType.int8:
                pass

            if self.value_type == Animclip.SerializedType.int16:
                pass

            if self.value_type == Animclip.SerializedType.int32:
                pass

            if self.value_type == Animclip.SerializedType.float32:
                pass

            if self.value_type == Animclip.SerializedType.string:
                pass
                self.value_string._fetch_instances()

            if  ((self.value_type == Animclip.SerializedType.object) or (self.value_type == Animclip.SerializedType.so_object)) :
                pass
                self.value_object._fetch_instances()

            if self.value_type == Animclip.SerializedType.boolean:
                pass

            if self.value_type == Animclip.SerializedType.instance_id:
                pass

            if self.value_type == Animclip.SerializedType.null_value:
                pass



    class SerializedKeyName(KaitaiStruct):
        """A key-name string offset. ALERT resolves it DAT1-absolute (convention A); no real file
        has confirmed that. A validator may report (not reject) a name that does not resolve or
        whose CRC32 differs from the child's `key_hash`. The name is read from the DAT1 of the
        file being parsed, `_root.dat1` (objects nest to any depth, so no fixed `_parent` chain
        reaches it, and a stream handed down as a parameter would show in the Web IDE's tree):
        parse the whole file (outer header and DAT1, an LZ4 body decompressed first) for names;
        with type `dat1` parsed on its own, `name` cannot be read.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["ofs_name"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.SerializedKeyName, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['ofs_name']['start'] = self._io.pos()
            self.ofs_name = self._io.read_u4le()
            self._debug['ofs_name']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.name
            if hasattr(self, '_m_name'):
                pass


        @property
        def name(self):
            """The key name, read at DAT1 offset `ofs_name`. Status LABELLED."""
            if hasattr(self, '_m_name'):
                return self._m_name

            io = self._root.dat1._io
            _pos = io.pos()
            io.seek(self.ofs_name)
            self._debug['_m_name']['start'] = io.pos()
            self._m_name = (io.read_bytes_term(0, False, True, True)).decode(u"UTF-8")
            self._debug['_m_name']['end'] = io.pos()
            io.seek(_pos)
            return getattr(self, '_m_name', None)


    class SerializedObject(KaitaiStruct):
        """One serialized object: a 16-byte header, then `len_body` bytes holding the child
        descriptors, key-name offsets, values and padding. Alignment (strings, object end) is
        measured from the start of the parse buffer, hence the `ofs_start` parameter.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["zero", "marker", "num_children", "len_body", "body"]
        def __init__(self, ofs_start, _io, _parent=None, _root=None):
            super(Animclip.SerializedObject, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.ofs_start = ofs_start
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['zero']['start'] = self._io.pos()
            self.zero = self._io.read_u4le()
            self._debug['zero']['end'] = self._io.pos()
            self._debug['marker']['start'] = self._io.pos()
            self.marker = KaitaiStream.resolve_enum(Animclip.SerializedMarker, self._io.read_u4le())
            self._debug['marker']['end'] = self._io.pos()
            self._debug['num_children']['start'] = self._io.pos()
            self.num_children = self._io.read_u4le()
            self._debug['num_children']['end'] = self._io.pos()
            self._debug['len_body']['start'] = self._io.pos()
            self.len_body = self._io.read_u4le()
            self._debug['len_body']['end'] = self._io.pos()
            self._debug['body']['start'] = self._io.pos()
            self._raw_body = self._io.read_bytes(self.len_body)
            _io__raw_body = KaitaiStream(BytesIO(self._raw_body))
            self.body = Animclip.SerializedObjectBody(self.num_children, self.ofs_start + 16, _io__raw_body, self, self._root)
            self.body._read()
            self._debug['body']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.body._fetch_instances()


    class SerializedObjectBody(KaitaiStruct):
        """Content of a serialized object: C child descriptors, C key-name offsets, the C values,
        then zero padding to a multiple of 4 (from the parse-buffer start) up to L bytes.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["children", "key_names", "values", "trailing"]
        def __init__(self, num_children, ofs_io, _io, _parent=None, _root=None):
            super(Animclip.SerializedObjectBody, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.num_children = num_children
            self.ofs_io = ofs_io
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['children']['start'] = self._io.pos()
            self._debug['children']['arr'] = []
            self.children = []
            for i in range(self.num_children):
                self._debug['children']['arr'].append({'start': self._io.pos()})
                _t_children = Animclip.SerializedChild(self._io, self, self._root)
                try:
                    _t_children._read()
                finally:
                    self.children.append(_t_children)
                self._debug['children']['arr'][i]['end'] = self._io.pos()

            self._debug['children']['end'] = self._io.pos()
            self._debug['key_names']['start'] = self._io.pos()
            self._debug['key_names']['arr'] = []
            self.key_names = []
            for i in range(self.num_children):
                self._debug['key_names']['arr'].append({'start': self._io.pos()})
                _t_key_names = Animclip.SerializedKeyName(self._io, self, self._root)
                try:
                    _t_key_names._read()
                finally:
                    self.key_names.append(_t_key_names)
                self._debug['key_names']['arr'][i]['end'] = self._io.pos()

            self._debug['key_names']['end'] = self._io.pos()
            self._debug['values']['start'] = self._io.pos()
            self._debug['values']['arr'] = []
            self.values = []
            for i in range(self.num_children):
                self._debug['values']['arr'].append({'start': self._io.pos()})
                _t_values = Animclip.SerializedValue(self.children[i].value_type, self.children[i].num_elements, self.ofs_io, self._io, self, self._root)
                try:
                    _t_values._read()
                finally:
                    self.values.append(_t_values)
                self._debug['values']['arr'][i]['end'] = self._io.pos()

            self._debug['values']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass
                self.children[i]._fetch_instances()

            for i in range(len(self.key_names)):
                pass
                self.key_names[i]._fetch_instances()

            for i in range(len(self.values)):
                pass
                self.values[i]._fetch_instances()



    class SerializedObjectList(KaitaiStruct):
        """Insomniac serialized objects (binary JSON-like encoding) parsed back to back until the
        buffer ends: the root object and ALERT's "extras". Used by Trigger Data, whose parse
        buffer starts at section offset +0x18. MSMR/MM/RCRA forms only (SO differs).
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["objects"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.SerializedObjectList, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['objects']['start'] = self._io.pos()
            self._debug['objects']['arr'] = []
            self.objects = []
            i = 0
            while not self._io.is_eof():
                self._debug['objects']['arr'].append({'start': self._io.pos()})
                _t_objects = Animclip.SerializedObject(self._io.pos(), self._io, self, self._root)
                try:
                    _t_objects._read()
                finally:
                    self.objects.append(_t_objects)
                self._debug['objects']['arr'][len(self.objects) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['objects']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.objects)):
                pass
                self.objects[i]._fetch_instances()



    class SerializedString(KaitaiStruct):
        """A serialized string value (MSMR/MM/RCRA form; SO uses a 12-byte header): length, CRC32,
        CRC64, the bytes, a NUL, and padding to a multiple of 4 from the parse-buffer start.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["len_text", "crc32", "crc64", "text", "terminator", "padding"]
        def __init__(self, ofs_io, _io, _parent=None, _root=None):
            super(Animclip.SerializedString, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.ofs_io = ofs_io
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['len_text']['start'] = self._io.pos()
            self.len_text = self._io.read_u4le()
            self._debug['len_text']['end'] = self._io.pos()
            self._debug['crc32']['start'] = self._io.pos()
            self.crc32 = self._io.read_u4le()
            self._debug['crc32']['end'] = self._io.pos()
            self._debug['crc64']['start'] = self._io.pos()
            self.crc64 = self._io.read_u8le()
            self._debug['crc64']['end'] = self._io.pos()
            self._debug['text']['start'] = self._io.pos()
            self.text = (self._io.read_bytes(self.len_text)).decode(u"UTF-8")
            self._debug['text']['end'] = self._io.pos()
            self._debug['terminator']['start'] = self._io.pos()
            self.terminator = self._io.read_u1()
            self._debug['terminator']['end'] = self._io.pos()
            self._debug['padding']['start'] = self._io.pos()
            self.padding = self._io.read_bytes((4 - (self.ofs_io + self._io.pos()) % 4) % 4)
            self._debug['padding']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class SerializedValue(KaitaiStruct):
        """The value of one child, `num_elements` elements of `value_type` (1 = scalar).
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["elements"]
        def __init__(self, value_type, num_elements, ofs_io, _io, _parent=None, _root=None):
            super(Animclip.SerializedValue, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.value_type = value_type
            self.num_elements = num_elements
            self.ofs_io = ofs_io
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['elements']['start'] = self._io.pos()
            self._debug['elements']['arr'] = []
            self.elements = []
            for i in range(self.num_elements):
                self._debug['elements']['arr'].append({'start': self._io.pos()})
                _t_elements = Animclip.SerializedElement(self.value_type, self.ofs_io, self._io, self, self._root)
                try:
                    _t_elements._read()
                finally:
                    self.elements.append(_t_elements)
                self._debug['elements']['arr'][i]['end'] = self._io.pos()

            self._debug['elements']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.elements)):
                pass
                self.elements[i]._fetch_instances()



    class StgAssetHeader(KaitaiStruct):
        """The asset header inside the `STG` wrapper (Luna packs it as u32, u8, u8, u16, u32, u32).
        EXTERNAL: Luna Engine IO Tools, anim_export.py.
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_export.py
        """
        SEQ_FIELDS = ["asset_type", "unk_04", "unk_05", "unk_06", "len_dat1", "unk_0c", "rest"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.StgAssetHeader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['asset_type']['start'] = self._io.pos()
            self.asset_type = KaitaiStream.resolve_enum(Animclip.AssetType, self._io.read_u4le())
            self._debug['asset_type']['end'] = self._io.pos()
            if not isinstance(self.asset_type, Animclip.AssetType):
                raise kaitaistruct.ValidationNotInEnumError(self.asset_type, self._io, u"/types/stg_asset_header/seq/0")
            self._debug['unk_04']['start'] = self._io.pos()
            self.unk_04 = self._io.read_u1()
            self._debug['unk_04']['end'] = self._io.pos()
            self._debug['unk_05']['start'] = self._io.pos()
            self.unk_05 = self._io.read_u1()
            self._debug['unk_05']['end'] = self._io.pos()
            self._debug['unk_06']['start'] = self._io.pos()
            self.unk_06 = self._io.read_u2le()
            self._debug['unk_06']['end'] = self._io.pos()
            self._debug['len_dat1']['start'] = self._io.pos()
            self.len_dat1 = self._io.read_u4le()
            self._debug['len_dat1']['end'] = self._io.pos()
            self._debug['unk_0c']['start'] = self._io.pos()
            self.unk_0c = self._io.read_u4le()
            self._debug['unk_0c']['end'] = self._io.pos()
            self._debug['rest']['start'] = self._io.pos()
            self.rest = self._io.read_bytes_full()
            self._debug['rest']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class StgWrapper(KaitaiStruct):
        """Spider-Man 2's wrapper in front of the DAT1 (EXTERNAL: Luna Engine IO Tools,
        anim_export.py, which writes it by default): a 16-byte `STG\0` header, the asset header
        of `len_asset_header` bytes (16 as written), then zero padding to a multiple of 16
        bytes from the file start; 32 bytes in all as Luna writes it. The fields are named by
        what Luna writes into them; ALERT does not know this wrapper.
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_export.py
        """
        SEQ_FIELDS = ["magic", "version", "len_asset_header", "unk_0c", "asset_header", "padding"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.StgWrapper, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['magic']['start'] = self._io.pos()
            self.magic = self._io.read_bytes(4)
            self._debug['magic']['end'] = self._io.pos()
            if not self.magic == b"\x53\x54\x47\x00":
                raise kaitaistruct.ValidationNotEqualError(b"\x53\x54\x47\x00", self.magic, self._io, u"/types/stg_wrapper/seq/0")
            self._debug['version']['start'] = self._io.pos()
            self.version = self._io.read_u4le()
            self._debug['version']['end'] = self._io.pos()
            self._debug['len_asset_header']['start'] = self._io.pos()
            self.len_asset_header = self._io.read_u4le()
            self._debug['len_asset_header']['end'] = self._io.pos()
            self._debug['unk_0c']['start'] = self._io.pos()
            self.unk_0c = self._io.read_u4le()
            self._debug['unk_0c']['end'] = self._io.pos()
            self._debug['asset_header']['start'] = self._io.pos()
            self._raw_asset_header = self._io.read_bytes(self.len_asset_header)
            _io__raw_asset_header = KaitaiStream(BytesIO(self._raw_asset_header))
            self.asset_header = Animclip.StgAssetHeader(_io__raw_asset_header, self, self._root)
            self.asset_header._read()
            self._debug['asset_header']['end'] = self._io.pos()
            self._debug['padding']['start'] = self._io.pos()
            self.padding = self._io.read_bytes((16 - (16 + self.len_asset_header) % 16) % 16)
            self._debug['padding']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.asset_header._fetch_instances()


    class StringsBlock(KaitaiStruct):
        """The DAT1 strings block. ALERT splits it on NUL bytes, skips empty strings and keys each
        string by its start offset relative to the block start S; here every NUL-terminated
        run is listed, so the zero padding before the first payload shows up as empty strings.
        (ALERT quirk: if the block's last byte is not NUL, it drops the last character; here an
        unterminated last string is kept whole.) Strings referenced by sections are also
        resolved lazily where they are used (e.g. `built.name`).
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
        """
        SEQ_FIELDS = ["data"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.StringsBlock, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data']['start'] = self._io.pos()
            self.data = self._io.read_bytes_full()
            self._debug['data']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.strings
            if hasattr(self, '_m_strings'):
                pass
                for i in range(len(self._m_strings)):
                    pass



        @property
        def strings(self):
            """Every NUL-terminated string in the block, in order (padding gives empty strings). Status KNOWN."""
            if hasattr(self, '_m_strings'):
                return self._m_strings

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_strings']['start'] = self._io.pos()
            self._debug['_m_strings']['arr'] = []
            self._m_strings = []
            i = 0
            while not self._io.is_eof():
                self._debug['_m_strings']['arr'].append({'start': self._io.pos()})
                self._m_strings.append((self._io.read_bytes_term(0, False, True, False)).decode(u"UTF-8"))
                self._debug['_m_strings']['arr'][len(self._m_strings) - 1]['end'] = self._io.pos()
                i += 1

            self._debug['_m_strings']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_strings', None)


    class TracksData(KaitaiStruct):
        """Section 0xDBF17DE9 "Anim Clip Tracks Data" (Spider-Man 2): counts for the trigger and
        marker sections, 32 bytes as Luna writes it (EXTERNAL: Luna Engine IO Tools
        constants.py `ANIM_CLIP_TRACKS_DATA_FORMAT`, motion.py).
        
        .. seealso::
           Source - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/motion.py
        """
        SEQ_FIELDS = ["data_raw"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.TracksData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['data_raw']['start'] = self._io.pos()
            self.data_raw = self._io.read_bytes_full()
            self._debug['data_raw']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.counts
            if hasattr(self, '_m_counts'):
                pass
                self._m_counts._fetch_instances()


        @property
        def counts(self):
            """The counts at the start of the section."""
            if hasattr(self, '_m_counts'):
                return self._m_counts

            if self._io.size() >= 10:
                pass
                _pos = self._io.pos()
                self._io.seek(0)
                self._debug['_m_counts']['start'] = self._io.pos()
                self._m_counts = Animclip.TracksDataCounts(self._io, self, self._root)
                self._m_counts._read()
                self._debug['_m_counts']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_counts', None)


    class TracksDataCounts(KaitaiStruct):
        """The counts Luna reads at the start of Anim Clip Tracks Data. EXTERNAL."""
        SEQ_FIELDS = ["num_locators", "num_triggers", "len_event_data", "num_markers"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.TracksDataCounts, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_locators']['start'] = self._io.pos()
            self.num_locators = self._io.read_u2le()
            self._debug['num_locators']['end'] = self._io.pos()
            self._debug['num_triggers']['start'] = self._io.pos()
            self.num_triggers = self._io.read_u2le()
            self._debug['num_triggers']['end'] = self._io.pos()
            self._debug['len_event_data']['start'] = self._io.pos()
            self.len_event_data = self._io.read_u4le()
            self._debug['len_event_data']['end'] = self._io.pos()
            self._debug['num_markers']['start'] = self._io.pos()
            self.num_markers = self._io.read_u2le()
            self._debug['num_markers']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class TriggerData(KaitaiStruct):
        """Section 0x6962F7DE "Anim Clip Trigger Data" (ALERT class AnimClipTriggerDataSection),
        at least 32 bytes. Layout: a 16-byte header; a region of `len_jsons` bytes starting at
        +0x10 (two u32 words `unk3`, `unk4`, then serialized objects from +0x18, "one after
        another but with somewhat like 8 or 12 bytes in between"); then 16-byte trigger records
        up to the end, m = floor((size - 0x10 - len_jsons) / 16) of them (ALERT counts them from
        the size, not from `num_things`). ALERT reads +0x10..+0x17 unconditionally, so with
        len_jsons < 8 the words `unk3`/`unk4` alias the first record. Status partly KNOWN.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
        """
        SEQ_FIELDS = ["num_jsons", "num_things", "len_jsons", "unk1", "unk2", "jsons_raw", "records_raw", "trailing"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.TriggerData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['num_jsons']['start'] = self._io.pos()
            self.num_jsons = self._io.read_u2le()
            self._debug['num_jsons']['end'] = self._io.pos()
            self._debug['num_things']['start'] = self._io.pos()
            self.num_things = self._io.read_u2le()
            self._debug['num_things']['end'] = self._io.pos()
            self._debug['len_jsons']['start'] = self._io.pos()
            self.len_jsons = self._io.read_u4le()
            self._debug['len_jsons']['end'] = self._io.pos()
            self._debug['unk1']['start'] = self._io.pos()
            self.unk1 = self._io.read_u4le()
            self._debug['unk1']['end'] = self._io.pos()
            self._debug['unk2']['start'] = self._io.pos()
            self.unk2 = self._io.read_u4le()
            self._debug['unk2']['end'] = self._io.pos()
            self._debug['jsons_raw']['start'] = self._io.pos()
            self.jsons_raw = self._io.read_bytes(self.len_jsons_raw)
            self._debug['jsons_raw']['end'] = self._io.pos()
            self._debug['records_raw']['start'] = self._io.pos()
            self.records_raw = self._io.read_bytes(16 * self.num_records)
            self._debug['records_raw']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.objects
            if hasattr(self, '_m_objects'):
                pass
                self._m_objects._fetch_instances()

            _ = self.records
            if hasattr(self, '_m_records'):
                pass
                for i in range(len(self._m_records)):
                    pass
                    self._m_records[i]._fetch_instances()


            _ = self.unk3
            if hasattr(self, '_m_unk3'):
                pass

            _ = self.unk4
            if hasattr(self, '_m_unk4'):
                pass


        @property
        def len_jsons_raw(self):
            """`len_jsons` clamped to the payload (ALERT slices the same way)."""
            if hasattr(self, '_m_len_jsons_raw'):
                return self._m_len_jsons_raw

            self._m_len_jsons_raw = (self.len_jsons if self.len_jsons <= self._io.size() - 16 else self._io.size() - 16)
            return getattr(self, '_m_len_jsons_raw', None)

        @property
        def num_records(self):
            """m, the number of whole 16-byte trigger records."""
            if hasattr(self, '_m_num_records'):
                return self._m_num_records

            self._m_num_records = ((self._io.size() - 16) - self.len_jsons_raw) // 16
            return getattr(self, '_m_num_records', None)

        @property
        def objects(self):
            """The serialized objects in [+0x18, +0x10 + len_jsons), parsed back to back like
            ALERT does (the parse buffer starts at +0x18). The gaps ALERT mentions between
            objects break such a parse (ALERT then silently shows nothing); the raw bytes stay
            in `jsons_raw`. Status partly KNOWN.
            """
            if hasattr(self, '_m_objects'):
                return self._m_objects

            if self.len_jsons_raw > 8:
                pass
                _pos = self._io.pos()
                self._io.seek(24)
                self._debug['_m_objects']['start'] = self._io.pos()
                self._raw__m_objects = self._io.read_bytes(self.len_jsons_raw - 8)
                _io__raw__m_objects = KaitaiStream(BytesIO(self._raw__m_objects))
                self._m_objects = Animclip.SerializedObjectList(_io__raw__m_objects, self, self._root)
                self._m_objects._read()
                self._debug['_m_objects']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_objects', None)

        @property
        def records(self):
            """Lazy typed view of `records_raw`."""
            if hasattr(self, '_m_records'):
                return self._m_records

            _pos = self._io.pos()
            self._io.seek(16 + self.len_jsons_raw)
            self._debug['_m_records']['start'] = self._io.pos()
            self._debug['_m_records']['arr'] = []
            self._m_records = []
            for i in range(self.num_records):
                self._debug['_m_records']['arr'].append({'start': self._io.pos()})
                _t__m_records = Animclip.TriggerRecord(self._io, self, self._root)
                try:
                    _t__m_records._read()
                finally:
                    self._m_records.append(_t__m_records)
                self._debug['_m_records']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_records']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_records', None)

        @property
        def unk3(self):
            """ALERT `unk3`: first 4 bytes of the `len_jsons` region, not part of any serialized
            object (aliases the first record when len_jsons < 4). Status UNKNOWN.
            """
            if hasattr(self, '_m_unk3'):
                return self._m_unk3

            if self._io.size() >= 20:
                pass
                _pos = self._io.pos()
                self._io.seek(16)
                self._debug['_m_unk3']['start'] = self._io.pos()
                self._m_unk3 = self._io.read_u4le()
                self._debug['_m_unk3']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_unk3', None)

        @property
        def unk4(self):
            """ALERT `unk4`, the next 4 bytes (same aliasing caveat). Status UNKNOWN."""
            if hasattr(self, '_m_unk4'):
                return self._m_unk4

            if self._io.size() >= 24:
                pass
                _pos = self._io.pos()
                self._io.seek(20)
                self._debug['_m_unk4']['start'] = self._io.pos()
                self._m_unk4 = self._io.read_u4le()
                self._debug['_m_unk4']['end'] = self._io.pos()
                self._io.seek(_pos)

            return getattr(self, '_m_unk4', None)


    class TriggerJointNames(KaitaiStruct):
        """Section 0x74FC0175 "Anim Clip Trigger Joint Names" (ALERT class x74FC0175_Section):
        1 to 4 u32 joint-name hashes (CRC32) used by triggers (ALERT prints "joint nm").
        Status: layout KNOWN, role LABELLED.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["hashes_raw", "trailing"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.TriggerJointNames, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['hashes_raw']['start'] = self._io.pos()
            self.hashes_raw = self._io.read_bytes(4 * (self._io.size() // 4))
            self._debug['hashes_raw']['end'] = self._io.pos()
            self._debug['trailing']['start'] = self._io.pos()
            self.trailing = self._io.read_bytes_full()
            self._debug['trailing']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _ = self.hashes
            if hasattr(self, '_m_hashes'):
                pass
                for i in range(len(self._m_hashes)):
                    pass



        @property
        def hashes(self):
            """The joint-name hashes. Status KNOWN."""
            if hasattr(self, '_m_hashes'):
                return self._m_hashes

            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_hashes']['start'] = self._io.pos()
            self._debug['_m_hashes']['arr'] = []
            self._m_hashes = []
            for i in range(self._io.size() // 4):
                self._debug['_m_hashes']['arr'].append({'start': self._io.pos()})
                self._m_hashes.append(self._io.read_u4le())
                self._debug['_m_hashes']['arr'][i]['end'] = self._io.pos()

            self._debug['_m_hashes']['end'] = self._io.pos()
            self._io.seek(_pos)
            return getattr(self, '_m_hashes', None)


    class TriggerRecord(KaitaiStruct):
        """One 16-byte trigger record (ALERT names a..e).
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
        """
        SEQ_FIELDS = ["a", "b", "c", "d", "e"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.TriggerRecord, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['a']['start'] = self._io.pos()
            self.a = self._io.read_u4le()
            self._debug['a']['end'] = self._io.pos()
            self._debug['b']['start'] = self._io.pos()
            self.b = self._io.read_u4le()
            self._debug['b']['end'] = self._io.pos()
            self._debug['c']['start'] = self._io.pos()
            self.c = self._io.read_u2le()
            self._debug['c']['end'] = self._io.pos()
            self._debug['d']['start'] = self._io.pos()
            self.d = self._io.read_u2le()
            self._debug['d']['end'] = self._io.pos()
            self._debug['e']['start'] = self._io.pos()
            self.e = self._io.read_u4le()
            self._debug['e']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    class UnknownEntry(KaitaiStruct):
        """One 8-byte entry of the DAT1 "unknowns" table. ALERT never interprets it (status
        UNKNOWN). EXTERNAL reading (an unattributed third-party C++ reader): a pointer fixup;
        at load time the engine stores the 64-bit address of DAT1 offset `ofs_target` into the
        8 bytes at DAT1 offset `ofs_source`. Whether animclips ever have entries is not recorded.
        
        .. seealso::
           Source - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
        """
        SEQ_FIELDS = ["ofs_source", "ofs_target"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animclip.UnknownEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['ofs_source']['start'] = self._io.pos()
            self.ofs_source = self._io.read_u4le()
            self._debug['ofs_source']['end'] = self._io.pos()
            self._debug['ofs_target']['start'] = self._io.pos()
            self.ofs_target = self._io.read_u4le()
            self._debug['ofs_target']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass


    @property
    def first_word(self):
        """The file's first u32, which tells the three containers apart."""
        if hasattr(self, '_m_first_word'):
            return self._m_first_word

        if self._io.size() >= 4:
            pass
            _pos = self._io.pos()
            self._io.seek(0)
            self._debug['_m_first_word']['start'] = self._io.pos()
            self._m_first_word = self._io.read_u4le()
            self._debug['_m_first_word']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_first_word', None)

    @property
    def has_asset_header(self):
        """True for the 36-byte outer asset header (every file ALERT reads)."""
        if hasattr(self, '_m_has_asset_header'):
            return self._m_has_asset_header

        self._m_has_asset_header =  (((not (self.is_stg))) and ((not (self.is_bare_dat1)))) 
        return getattr(self, '_m_has_asset_header', None)

    @property
    def is_bare_dat1(self):
        """True for a bare DAT1 ("1TAD" at offset 0, no header in front), which Luna Engine IO
        Tools writes when its "add STG header" option is off. EXTERNAL.
        """
        if hasattr(self, '_m_is_bare_dat1'):
            return self._m_is_bare_dat1

        self._m_is_bare_dat1 =  ((self._io.size() >= 4) and (self.first_word == 1145132081)) 
        return getattr(self, '_m_is_bare_dat1', None)

    @property
    def is_lz4_compressed(self):
        """True if the DAT1 body after a 36-byte outer header is one raw LZ4 block, by ALERT's rule
        (top-level doc). Status KNOWN. (No `STG` or bare DAT1 file is known to be compressed.)
        """
        if hasattr(self, '_m_is_lz4_compressed'):
            return self._m_is_lz4_compressed

        self._m_is_lz4_compressed =  ((self.has_asset_header) and (self._io.size() >= 43) and (self.peek_magic_0 != 1145132081) and ( ((self.peek_magic_2 == 1145132081) or (self.peek_magic_1 == 1145132081) or (self.peek_magic_3 == 1145132081)) )) 
        return getattr(self, '_m_is_lz4_compressed', None)

    @property
    def is_stg(self):
        """True for a Spider-Man 2 `STG\0` file (bytes 53 54 47 00). EXTERNAL (Luna Engine IO
        Tools, anim_export.py, `STG_MAGIC`).
        """
        if hasattr(self, '_m_is_stg'):
            return self._m_is_stg

        self._m_is_stg =  ((self._io.size() >= 4) and (self.first_word == 4674643)) 
        return getattr(self, '_m_is_stg', None)

    @property
    def lz4_len_decompressed(self):
        """Decompressed size of the LZ4 block: the DAT1 header's `len_dat1`, read from the literal
        bytes 8 bytes after the magic (ALERT's rule). Status KNOWN.
        """
        if hasattr(self, '_m_lz4_len_decompressed'):
            return self._m_lz4_len_decompressed

        if self.is_lz4_compressed:
            pass
            _pos = self._io.pos()
            self._io.seek((36 + self.lz4_magic_pos) + 8)
            self._debug['_m_lz4_len_decompressed']['start'] = self._io.pos()
            self._m_lz4_len_decompressed = self._io.read_u4le()
            self._debug['_m_lz4_len_decompressed']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_lz4_len_decompressed', None)

    @property
    def lz4_magic_pos(self):
        """Body offset (1, 2 or 3) of the DAT1 magic inside the first LZ4 literal run."""
        if hasattr(self, '_m_lz4_magic_pos'):
            return self._m_lz4_magic_pos

        if self.is_lz4_compressed:
            pass
            self._m_lz4_magic_pos = (2 if self.peek_magic_2 == 1145132081 else (1 if self.peek_magic_1 == 1145132081 else 3))

        return getattr(self, '_m_lz4_magic_pos', None)

    @property
    def peek_magic_0(self):
        """u32 at body offset 0 (file offset 36); "1TAD" (0x44415431) for a plain DAT1."""
        if hasattr(self, '_m_peek_magic_0'):
            return self._m_peek_magic_0

        if self._io.size() >= 43:
            pass
            _pos = self._io.pos()
            self._io.seek(36)
            self._debug['_m_peek_magic_0']['start'] = self._io.pos()
            self._m_peek_magic_0 = self._io.read_u4le()
            self._debug['_m_peek_magic_0']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_peek_magic_0', None)

    @property
    def peek_magic_1(self):
        """u32 at body offset 1; the DAT1 magic here means an LZ4 block with a literal run < 15."""
        if hasattr(self, '_m_peek_magic_1'):
            return self._m_peek_magic_1

        if self._io.size() >= 43:
            pass
            _pos = self._io.pos()
            self._io.seek(37)
            self._debug['_m_peek_magic_1']['start'] = self._io.pos()
            self._m_peek_magic_1 = self._io.read_u4le()
            self._debug['_m_peek_magic_1']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_peek_magic_1', None)

    @property
    def peek_magic_2(self):
        """u32 at body offset 2; the DAT1 magic here means an LZ4 block with a literal run of
        15..269 bytes (the common case, checked first by ALERT).
        """
        if hasattr(self, '_m_peek_magic_2'):
            return self._m_peek_magic_2

        if self._io.size() >= 43:
            pass
            _pos = self._io.pos()
            self._io.seek(38)
            self._debug['_m_peek_magic_2']['start'] = self._io.pos()
            self._m_peek_magic_2 = self._io.read_u4le()
            self._debug['_m_peek_magic_2']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_peek_magic_2', None)

    @property
    def peek_magic_3(self):
        """u32 at body offset 3; the DAT1 magic here means an LZ4 block with a literal run of 270..524."""
        if hasattr(self, '_m_peek_magic_3'):
            return self._m_peek_magic_3

        if self._io.size() >= 43:
            pass
            _pos = self._io.pos()
            self._io.seek(39)
            self._debug['_m_peek_magic_3']['start'] = self._io.pos()
            self._m_peek_magic_3 = self._io.read_u4le()
            self._debug['_m_peek_magic_3']['end'] = self._io.pos()
            self._io.seek(_pos)

        return getattr(self, '_m_peek_magic_3', None)


