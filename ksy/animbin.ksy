meta:
  id: animbin
  title: psyqo madnight engine skeletal animation clips (ANIMBIN)
  application: psyqo-madnight-engine (PlayStation 1 homebrew on the psyqo SDK)
  file-extension: animbin
  license: MIT
  ks-version: '0.11'
  endian: le
doc: |
  ANIMBIN holds up to five skeletal animation clips for a PS1 game built on the psyqo
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
doc-ref:
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/animation/animation_manager.cpp
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/animation/animation.hh
  - https://github.com/Forceh91/psyqo-madnight-engine/blob/main/tools/blender_animbin.py
seq:
  - id: magic
    size: 7
    valid: '[0x41, 0x4e, 0x49, 0x4d, 0x42, 0x49, 0x4e]'
    doc: |
      "ANIMBIN" in ASCII with no terminator. The only field the loader checks: a mismatch
      aborts the load.
  - id: version
    type: u1
    doc: Format version. The exporter writes 1; the loader reads it and never looks at it.
  - id: num_animations
    type: u1
    doc: |
      Number of animation records that follow. The engine has room for 5 (MAX_ANIMATIONS)
      and does not check: more overrun its array.
  - id: animations
    type: animation
    repeat: expr
    repeat-expr: num_animations
    doc: The animation clips, one after another.
  - id: trailing
    size-eos: true
    doc: |
      Bytes after the last animation. The engine never reads them; kept so a file can be
      written back byte for byte.
types:
  animation:
    -webide-representation: '{name.text:str}: {length:dec} frames, {num_tracks:dec} tracks'
    doc: |
      One clip: a header, its tracks, then its markers (markers come after all tracks, not
      interleaved with them).
    doc-ref: https://github.com/Forceh91/psyqo-madnight-engine/blob/main/src/animation/animation_manager.cpp
    seq:
      - id: name
        type: fixed_name
        size: 32
        doc: |
          Clip name, looked up by exact match when the game selects an animation. The
          loader reads it as a C string starting here: a name that fills all 32 bytes with
          no NUL runs on into the following fields.
      - id: flags
        type: u4
        doc: Bit 0 set means the clip loops; no other bit is read. The exporter writes 1.
      - id: length
        type: u2
        doc: |
          Clip length in vsync frames. The frame counter resets to 0 (looping) or holds at
          length - 1 (not looping) once it reaches this value.
      - id: num_tracks
        type: u2
        doc: Number of track records. The engine has room for 50 (MAX_TRACKS) and does not check.
      - id: num_markers
        type: u2
        doc: Number of marker records after the tracks. The engine has room for 5 (MAX_MARKERS).
      - id: tracks
        type: track
        repeat: expr
        repeat-expr: num_tracks
        doc: One track per animated joint.
      - id: markers
        type: marker
        repeat: expr
        repeat-expr: num_markers
        doc: Named frames (events). Parsed by the engine, never written by the exporter.
    instances:
      is_looping:
        value: (flags & 1) != 0
        doc: The only flag the engine reads.
  fixed_name:
    -webide-representation: '{text:str}'
    doc: |
      A 32-byte, NUL-padded name field (the caller gives the size). `text` runs up to the
      first NUL; `padding` keeps the NUL and whatever follows it, so a writer can reproduce
      the field exactly.
    seq:
      - id: text
        terminator: 0
        include: false
        consume: false
        eos-error: false
        doc: |
          The name's bytes up to (not including) the first NUL, or all 32 bytes when there is
          none. The exporter writes ASCII.
      - id: padding
        size-eos: true
        doc: The terminating NUL and the rest of the field, normally all zero.
    instances:
      is_terminated:
        value: padding.size > 0
        doc: False when the name fills the field with no NUL (the engine then reads past it).
  track:
    -webide-representation: 'joint {joint_id:dec}: {num_keys:dec} keys'
    doc: The keys of one joint.
    seq:
      - id: track_type
        type: u1
        doc: |
          Parsed and stored, never read: playback goes by each key's key_type instead. The
          exporter writes 0.
      - id: joint_id
        type: u1
        doc: |
          Index into the skeleton's bone array (bone order of the MESHBIN skeleton; the
          exporter uses the armature's deform-bone order). Not range-checked by the engine;
          skeletons hold at most 15 bones (MAX_BONES).
      - id: num_keys
        type: u2
        doc: Number of keys. The engine has room for 30 (MAX_KEYS); 0 makes playback read keys[-1].
      - id: keys
        type: key
        repeat: expr
        repeat-expr: num_keys
        doc: Keys, assumed sorted by frame (the engine's key search relies on it).
  key:
    -webide-representation: 'frame {frame:dec}: {key_type} {value}'
    doc: One keyframe. The payload's layout depends on key_type.
    seq:
      - id: frame
        type: u2
        doc: Vsync frame this key applies at.
      - id: key_type
        type: u1
        enum: key_type
        doc: |
          Selects the payload. Any other value is followed by no payload at all: the next
          field is read from the very next byte, as the engine does.
      - id: value
        type:
          switch-on: key_type
          cases:
            'key_type::rotation': quaternion_fp12
            'key_type::translation': vector_fp12
        doc: The key's payload; absent for an unknown key_type.
  quaternion_fp12:
    -webide-representation: 'w={w:dec} x={x:dec} y={y:dec} z={z:dec}'
    doc: |
      A rotation as a quaternion stored w, x, y, z (not glTF's x, y, z, w), each component
      FP12 (raw / 4096, so 4096 = 1.0). The exporter truncates toward zero when encoding.
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
  vector_fp12:
    -webide-representation: '({x:dec}, {y:dec}, {z:dec})'
    doc: |
      A translation, copied raw into a psyqo::Vec3 of 20.12 fixed point (raw / 4096). Parsed,
      never applied by the engine's playback.
    seq:
      - id: x
        type: s4
        doc: X, 20.12 fixed point.
      - id: y
        type: s4
        doc: Y, 20.12 fixed point.
      - id: z
        type: s4
        doc: Z, 20.12 fixed point.
  marker:
    -webide-representation: '{name.text:str} @ {frame:dec}'
    doc: A named frame in a clip (an event for game code).
    seq:
      - id: name
        type: fixed_name
        size: 32
        doc: Marker name; the loader copies exactly 32 bytes.
      - id: frame
        type: u2
        doc: Vsync frame of the marker.
enums:
  key_type:
    0:
      id: rotation
      doc: Payload is a quaternion_fp12 (8 bytes). The only kind playback applies.
    1:
      id: translation
      doc: 'Payload is a vector_fp12 (12 bytes). Parsed, never applied (the engine has a TODO there).'
