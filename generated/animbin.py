# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from enum import IntEnum
import collections


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Animbin(KaitaiStruct):
    """ANIMBIN holds up to five skeletal animation clips for a PS1 game built on the psyqo
    "madnight" engine. The Blender add-on `tools/blender_animbin.py` writes it;
    `AnimationManager::LoadAnimation` reads the whole file into fixed arrays and
    `SkeletonController::PlayAnimation` plays it once per rendered frame.
    
    Units: rotations are quaternions in FP12 (psyqo `FixedPoint<12, int16_t>`: raw / 4096),
    translations are 20.12 fixed point (raw / 4096), and every frame number counts GPU vsyncs
    (about 59.94 per second on NTSC, 50 on PAL), not an authoring frame rate.
    
    This spec reads what the engine reads. The engine checks nothing but the magic: it does not
    bound any count against its arrays (5 animations, 50 tracks, 30 keys, 5 markers), and a key
    whose key_type is neither ROTATION nor TRANSLATION consumes no payload, so everything after
    it is read misaligned. The spec reproduces that so a file parses here exactly as it does on
    the console; animspec's validator reports those hazards.
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/animation/animation_manager.cpp
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/animation/animation.hh
    
    
    .. seealso::
       Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/blender_animbin.py
    """

    class KeyType(IntEnum):
        rotation = 0
        translation = 1
    SEQ_FIELDS = ["magic", "version", "num_animations", "animations", "trailing"]
    def __init__(self, _io, _parent=None, _root=None):
        super(Animbin, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._debug = collections.defaultdict(dict)

    def _read(self):
        self._debug['magic']['start'] = self._io.pos()
        self.magic = self._io.read_bytes(7)
        self._debug['magic']['end'] = self._io.pos()
        if not self.magic == b"\x41\x4E\x49\x4D\x42\x49\x4E":
            raise kaitaistruct.ValidationNotEqualError(b"\x41\x4E\x49\x4D\x42\x49\x4E", self.magic, self._io, u"/seq/0")
        self._debug['version']['start'] = self._io.pos()
        self.version = self._io.read_u1()
        self._debug['version']['end'] = self._io.pos()
        self._debug['num_animations']['start'] = self._io.pos()
        self.num_animations = self._io.read_u1()
        self._debug['num_animations']['end'] = self._io.pos()
        self._debug['animations']['start'] = self._io.pos()
        self._debug['animations']['arr'] = []
        self.animations = []
        for i in range(self.num_animations):
            self._debug['animations']['arr'].append({'start': self._io.pos()})
            _t_animations = Animbin.Animation(self._io, self, self._root)
            try:
                _t_animations._read()
            finally:
                self.animations.append(_t_animations)
            self._debug['animations']['arr'][i]['end'] = self._io.pos()

        self._debug['animations']['end'] = self._io.pos()
        self._debug['trailing']['start'] = self._io.pos()
        self.trailing = self._io.read_bytes_full()
        self._debug['trailing']['end'] = self._io.pos()


    def _fetch_instances(self):
        pass
        for i in range(len(self.animations)):
            pass
            self.animations[i]._fetch_instances()


    class Animation(KaitaiStruct):
        """One clip: a header, its tracks, then its markers (markers come after all tracks, not
        interleaved with them).
        
        .. seealso::
           Source - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/animation/animation_manager.cpp
        """
        SEQ_FIELDS = ["name", "flags", "length", "num_tracks", "num_markers", "tracks", "markers"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.Animation, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self._raw_name = self._io.read_bytes(32)
            _io__raw_name = KaitaiStream(BytesIO(self._raw_name))
            self.name = Animbin.FixedName(_io__raw_name, self, self._root)
            self.name._read()
            self._debug['name']['end'] = self._io.pos()
            self._debug['flags']['start'] = self._io.pos()
            self.flags = self._io.read_u4le()
            self._debug['flags']['end'] = self._io.pos()
            self._debug['length']['start'] = self._io.pos()
            self.length = self._io.read_u2le()
            self._debug['length']['end'] = self._io.pos()
            self._debug['num_tracks']['start'] = self._io.pos()
            self.num_tracks = self._io.read_u2le()
            self._debug['num_tracks']['end'] = self._io.pos()
            self._debug['num_markers']['start'] = self._io.pos()
            self.num_markers = self._io.read_u2le()
            self._debug['num_markers']['end'] = self._io.pos()
            self._debug['tracks']['start'] = self._io.pos()
            self._debug['tracks']['arr'] = []
            self.tracks = []
            for i in range(self.num_tracks):
                self._debug['tracks']['arr'].append({'start': self._io.pos()})
                _t_tracks = Animbin.Track(self._io, self, self._root)
                try:
                    _t_tracks._read()
                finally:
                    self.tracks.append(_t_tracks)
                self._debug['tracks']['arr'][i]['end'] = self._io.pos()

            self._debug['tracks']['end'] = self._io.pos()
            self._debug['markers']['start'] = self._io.pos()
            self._debug['markers']['arr'] = []
            self.markers = []
            for i in range(self.num_markers):
                self._debug['markers']['arr'].append({'start': self._io.pos()})
                _t_markers = Animbin.Marker(self._io, self, self._root)
                try:
                    _t_markers._read()
                finally:
                    self.markers.append(_t_markers)
                self._debug['markers']['arr'][i]['end'] = self._io.pos()

            self._debug['markers']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.name._fetch_instances()
            for i in range(len(self.tracks)):
                pass
                self.tracks[i]._fetch_instances()

            for i in range(len(self.markers)):
                pass
                self.markers[i]._fetch_instances()


        @property
        def is_looping(self):
            """The only flag the engine reads."""
            if hasattr(self, '_m_is_looping'):
                return self._m_is_looping

            self._m_is_looping = self.flags & 1 != 0
            return getattr(self, '_m_is_looping', None)


    class FixedName(KaitaiStruct):
        """A 32-byte, NUL-padded name field (the caller gives the size). `text` runs up to the
        first NUL; `padding` keeps the NUL and whatever follows it, so a writer can reproduce
        the field exactly.
        """
        SEQ_FIELDS = ["text", "padding"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.FixedName, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['text']['start'] = self._io.pos()
            self.text = self._io.read_bytes_term(0, False, False, False)
            self._debug['text']['end'] = self._io.pos()
            self._debug['padding']['start'] = self._io.pos()
            self.padding = self._io.read_bytes_full()
            self._debug['padding']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass

        @property
        def is_terminated(self):
            """False when the name fills the field with no NUL (the engine then reads past it)."""
            if hasattr(self, '_m_is_terminated'):
                return self._m_is_terminated

            self._m_is_terminated = len(self.padding) > 0
            return getattr(self, '_m_is_terminated', None)


    class Key(KaitaiStruct):
        """One keyframe. The payload's layout depends on key_type."""
        SEQ_FIELDS = ["frame", "key_type", "value"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.Key, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['frame']['start'] = self._io.pos()
            self.frame = self._io.read_u2le()
            self._debug['frame']['end'] = self._io.pos()
            self._debug['key_type']['start'] = self._io.pos()
            self.key_type = KaitaiStream.resolve_enum(Animbin.KeyType, self._io.read_u1())
            self._debug['key_type']['end'] = self._io.pos()
            self._debug['value']['start'] = self._io.pos()
            _on = self.key_type
            if _on == Animbin.KeyType.rotation:
                pass
                self.value = Animbin.QuaternionFp12(self._io, self, self._root)
                self.value._read()
            elif _on == Animbin.KeyType.translation:
                pass
                self.value = Animbin.VectorFp12(self._io, self, self._root)
                self.value._read()
            self._debug['value']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            _on = self.key_type
            if _on == Animbin.KeyType.rotation:
                pass
                self.value._fetch_instances()
            elif _on == Animbin.KeyType.translation:
                pass
                self.value._fetch_instances()


    class Marker(KaitaiStruct):
        """A named frame in a clip (an event for game code)."""
        SEQ_FIELDS = ["name", "frame"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.Marker, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['name']['start'] = self._io.pos()
            self._raw_name = self._io.read_bytes(32)
            _io__raw_name = KaitaiStream(BytesIO(self._raw_name))
            self.name = Animbin.FixedName(_io__raw_name, self, self._root)
            self.name._read()
            self._debug['name']['end'] = self._io.pos()
            self._debug['frame']['start'] = self._io.pos()
            self.frame = self._io.read_u2le()
            self._debug['frame']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            self.name._fetch_instances()


    class QuaternionFp12(KaitaiStruct):
        """A rotation as a quaternion stored w, x, y, z (not glTF's x, y, z, w), each component
        FP12 (raw / 4096, so 4096 = 1.0). The exporter truncates toward zero when encoding.
        """
        SEQ_FIELDS = ["w", "x", "y", "z"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.QuaternionFp12, self).__init__(_io)
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


    class Track(KaitaiStruct):
        """The keys of one joint."""
        SEQ_FIELDS = ["track_type", "joint_id", "num_keys", "keys"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.Track, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._debug = collections.defaultdict(dict)

        def _read(self):
            self._debug['track_type']['start'] = self._io.pos()
            self.track_type = self._io.read_u1()
            self._debug['track_type']['end'] = self._io.pos()
            self._debug['joint_id']['start'] = self._io.pos()
            self.joint_id = self._io.read_u1()
            self._debug['joint_id']['end'] = self._io.pos()
            self._debug['num_keys']['start'] = self._io.pos()
            self.num_keys = self._io.read_u2le()
            self._debug['num_keys']['end'] = self._io.pos()
            self._debug['keys']['start'] = self._io.pos()
            self._debug['keys']['arr'] = []
            self.keys = []
            for i in range(self.num_keys):
                self._debug['keys']['arr'].append({'start': self._io.pos()})
                _t_keys = Animbin.Key(self._io, self, self._root)
                try:
                    _t_keys._read()
                finally:
                    self.keys.append(_t_keys)
                self._debug['keys']['arr'][i]['end'] = self._io.pos()

            self._debug['keys']['end'] = self._io.pos()


        def _fetch_instances(self):
            pass
            for i in range(len(self.keys)):
                pass
                self.keys[i]._fetch_instances()



    class VectorFp12(KaitaiStruct):
        """A translation, copied raw into a psyqo::Vec3 of 20.12 fixed point (raw / 4096). Parsed,
        never applied by the engine's playback.
        """
        SEQ_FIELDS = ["x", "y", "z"]
        def __init__(self, _io, _parent=None, _root=None):
            super(Animbin.VectorFp12, self).__init__(_io)
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



