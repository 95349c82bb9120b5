meta:
  id: animclip
  title: Insomniac Games animation clip (.animclip / .performanceclip) in a DAT1 container
  application:
    - "Marvel's Spider-Man Remastered"
    - "Marvel's Spider-Man: Miles Morales"
    - "Ratchet & Clank: Rift Apart"
    - "Marvel's Spider-Man 2"
  file-extension:
    - animclip
    - performanceclip
  license: MIT
  ks-version: '0.11'
  endian: le
doc: |
  An Insomniac Games skeletal animation clip as extracted from the game archives (for example
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
doc-ref:
  - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/autogen.py
  - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
  - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/decompression.py
  - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/__init__.py
  - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
  - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
  - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_export.py
  - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/hashes.py
seq:
  - id: header
    type: outer_header
    if: has_asset_header
    doc: |
      The 36-byte outer asset header of Spider-Man Remastered, Miles Morales and Rift Apart
      files (absent from Spider-Man 2's `STG` files and from bare DAT1 files). Status KNOWN
      (layout).
  - id: stg
    type: stg_wrapper
    if: is_stg
    doc: |
      Spider-Man 2's `STG\0` wrapper in front of the DAT1 (32 bytes as Luna Engine IO Tools
      writes it). EXTERNAL (Pcniado/luna_engine_io_tools, anim_export.py).
  - id: dat1
    type: dat1
    size-eos: true
    if: not is_lz4_compressed
    doc: |
      The (uncompressed) DAT1 container: everything after the outer header or the `STG`
      wrapper (the whole file for a bare DAT1), as ALERT hands it to its DAT1 reader. Absent
      when the body is LZ4-compressed (see the top-level doc). Status KNOWN.
  - id: lz4_body
    size-eos: true
    if: is_lz4_compressed
    doc: |
      The LZ4-compressed DAT1 body, kept raw (one LZ4 block running to the end of the file).
      Decompress it to `lz4_len_decompressed` bytes and parse the result as `dat1`.
      Status KNOWN (detection and format), present only for compressed files.
instances:
  first_word:
    pos: 0
    type: u4
    if: _io.size >= 4
    doc: The file's first u32, which tells the three containers apart.
  is_stg:
    value: _io.size >= 4 and first_word == 0x00475453
    doc: |
      True for a Spider-Man 2 `STG\0` file (bytes 53 54 47 00). EXTERNAL (Luna Engine IO
      Tools, anim_export.py, `STG_MAGIC`).
  is_bare_dat1:
    value: _io.size >= 4 and first_word == 0x44415431
    doc: |
      True for a bare DAT1 ("1TAD" at offset 0, no header in front), which Luna Engine IO
      Tools writes when its "add STG header" option is off. EXTERNAL.
  has_asset_header:
    value: not is_stg and not is_bare_dat1
    doc: True for the 36-byte outer asset header (every file ALERT reads).
  peek_magic_0:
    pos: 36
    type: u4
    if: _io.size >= 43
    doc: u32 at body offset 0 (file offset 36); "1TAD" (0x44415431) for a plain DAT1.
  peek_magic_1:
    pos: 37
    type: u4
    if: _io.size >= 43
    doc: u32 at body offset 1; the DAT1 magic here means an LZ4 block with a literal run < 15.
  peek_magic_2:
    pos: 38
    type: u4
    if: _io.size >= 43
    doc: |
      u32 at body offset 2; the DAT1 magic here means an LZ4 block with a literal run of
      15..269 bytes (the common case, checked first by ALERT).
  peek_magic_3:
    pos: 39
    type: u4
    if: _io.size >= 43
    doc: u32 at body offset 3; the DAT1 magic here means an LZ4 block with a literal run of 270..524.
  is_lz4_compressed:
    value: |
      has_asset_header and _io.size >= 43 and peek_magic_0 != 0x44415431
      and (peek_magic_2 == 0x44415431 or peek_magic_1 == 0x44415431 or peek_magic_3 == 0x44415431)
    doc: |
      True if the DAT1 body after a 36-byte outer header is one raw LZ4 block, by ALERT's rule
      (top-level doc). Status KNOWN. (No `STG` or bare DAT1 file is known to be compressed.)
  lz4_magic_pos:
    value: |
      peek_magic_2 == 0x44415431 ? 2 : (peek_magic_1 == 0x44415431 ? 1 : 3)
    if: is_lz4_compressed
    doc: Body offset (1, 2 or 3) of the DAT1 magic inside the first LZ4 literal run.
  lz4_len_decompressed:
    pos: 36 + lz4_magic_pos + 8
    type: u4
    if: is_lz4_compressed
    doc: |
      Decompressed size of the LZ4 block: the DAT1 header's `len_dat1`, read from the literal
      bytes 8 bytes after the magic (ALERT's rule). Status KNOWN.
types:
  outer_header:
    -webide-representation: '{magic} DAT1 {len_dat1:dec} bytes'
    doc: |
      The 36-byte outer asset header. ALERT's asset class reads exactly these 36 bytes and
      passes everything after them to the DAT1 reader. For RCRA the header is stored in the
      archive TOC ("Archive TOC Asset Header Data") and prepended on extraction, which gives
      the same file shape. Writers must store the final DAT1 size in `len_dat1` after laying
      out the DAT1 (ALERT writes a stale value after edits).
    doc-ref:
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/autogen.py
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/__init__.py
    seq:
      - id: magic
        type: u4
        enum: asset_type
        valid:
          in-enum: true
        doc: |
          Asset-type magic; one of the three animclip magics ALERT knows (enum `asset_type`).
          Used by ALERT for type dispatch. Status KNOWN.
      - id: len_dat1
        type: u4
        doc: |
          Byte size of the uncompressed DAT1 body. ALERT writes the DAT1 header's size here;
          its server uses it as the decompressed size for compressed bodies. Expected equal to
          `dat1.len_dat1`. Status KNOWN.
      - id: unk
        size: 28
        doc: |
          28 bytes not interpreted for animclips (for other asset types they are further u32
          words such as sizes); ALERT keeps them verbatim and writes them back unchanged.
          Status UNKNOWN.

  stg_wrapper:
    -webide-representation: 'STG v{version:dec}, {asset_header}'
    doc: |
      Spider-Man 2's wrapper in front of the DAT1 (EXTERNAL: Luna Engine IO Tools,
      anim_export.py, which writes it by default): a 16-byte `STG\0` header, the asset header
      of `len_asset_header` bytes (16 as written), then zero padding to a multiple of 16
      bytes from the file start; 32 bytes in all as Luna writes it. The fields are named by
      what Luna writes into them; ALERT does not know this wrapper.
    doc-ref: https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_export.py
    seq:
      - id: magic
        size: 4
        valid: '[0x53, 0x54, 0x47, 0x00]'
        doc: '"STG" and a NUL (u32le 0x00475453). EXTERNAL.'
      - id: version
        type: u4
        doc: Luna writes 1. EXTERNAL.
      - id: len_asset_header
        type: u4
        doc: Byte length of `asset_header` (Luna writes 16). EXTERNAL.
      - id: unk_0c
        type: u4
        doc: Luna writes 0. Status UNKNOWN.
      - id: asset_header
        type: stg_asset_header
        size: len_asset_header
        doc: The asset header. EXTERNAL.
      - id: padding
        size: (16 - (16 + len_asset_header) % 16) % 16
        doc: Zero padding to a multiple of 16 bytes from the file start (none for a 16-byte asset header).

  stg_asset_header:
    -webide-representation: '{asset_type} DAT1 {len_dat1:dec} bytes'
    doc: |
      The asset header inside the `STG` wrapper (Luna packs it as u32, u8, u8, u16, u32, u32).
      EXTERNAL: Luna Engine IO Tools, anim_export.py.
    doc-ref: https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_export.py
    seq:
      - id: asset_type
        type: u4
        enum: asset_type
        valid:
          in-enum: true
        doc: The asset type, the same value as the DAT1 header's `type_id` (0x41DFFB44 as Luna writes it).
      - id: unk_04
        type: u1
        doc: Luna writes 0. Status UNKNOWN.
      - id: unk_05
        type: u1
        doc: Luna writes 1. Status UNKNOWN.
      - id: unk_06
        type: u2
        doc: Luna writes 0. Status UNKNOWN.
      - id: len_dat1
        type: u4
        doc: Byte size of the DAT1 that follows the wrapper (Luna writes the DAT1's size).
      - id: unk_0c
        type: u4
        doc: Luna writes 0. Status UNKNOWN.
      - id: rest
        size-eos: true
        doc: Bytes past the 16 Luna writes (none as written).

  dat1:
    -webide-representation: '{type_id} {num_sections:dec} sections, {len_dat1:dec} bytes'
    doc: |
      The DAT1 container: 16-byte header, section table, "unknowns" table, strings block, and
      section payloads addressed by the table (each payload is exposed as the `body` instance
      of its table entry). All offsets inside are DAT1 offsets (from the "1TAD" magic). This
      type can be parsed on its own (e.g. from a decompressed LZ4 body).

      ALERT's writer (for reference): payloads aligned to 16 bytes in their original offset
      order, table sorted by ascending tag, `len_dat1` = end of the last payload, strings
      block and unknowns kept verbatim. ALERT has a bug writing `num_unknowns` (it stores
      8*U); a correct writer stores U.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
    seq:
      - id: magic
        size: 4
        valid: '[0x31, 0x54, 0x41, 0x44]'
        doc: |
          "1TAD" in ASCII (u32le 0x44415431). ALERT handles only this little-endian form.
          Status KNOWN.
      - id: type_id
        type: u4
        enum: asset_type
        doc: |
          Asset-type magic, a second copy of the outer magic (ALERT's type table maps
          0xC96F58F3 to "animclip"); not guaranteed to equal the outer `magic`. ALERT's name
          `unk1`. Status KNOWN as an identifier, exact semantics LABELLED.
      - id: len_dat1
        type: u4
        doc: |
          Total DAT1 byte size (= end of the last payload when ALERT writes). Ignored by ALERT
          when reading, except as the decompressed size of an LZ4 body. Status KNOWN.
      - id: num_sections
        type: u2
        doc: N, the number of section-table entries. Status KNOWN.
      - id: num_unknowns
        type: u2
        doc: |
          U, the number of 8-byte entries in the "unknowns" table. Status KNOWN (count),
          contents UNKNOWN.
      - id: sections
        type: |
          section_entry(_index,
            _index == 0 ? 0xffffffff : sections[_index - 1].ofs_min,
            _index == 0 ? -1 : sections[_index - 1].idx_built,
            _index == 0 ? -1 : sections[_index - 1].idx_custom_track_data,
            _index == 0 ? -1 : sections[_index - 1].idx_sample_elem)
        repeat: expr
        repeat-expr: num_sections
        doc: |
          The section table (DAT1 offset 0x10, 12 bytes per entry). ALERT looks sections up by
          tag; if a tag occurs twice the later entry wins. Game files are expected (not proven)
          to have the table sorted by tag. Status KNOWN.
      - id: unknowns
        type: unknown_entry
        repeat: expr
        repeat-expr: num_unknowns
        doc: |
          The "unknowns" table (DAT1 offset 0x10 + 12*N, 8 bytes per entry). ALERT stores and
          writes it raw and never interprets it. Status UNKNOWN.
      - id: strings_block
        type: strings_block
        size: len_strings_block
        doc: |
          The strings block, from S = `ofs_strings` to the smallest section offset (to the end
          of the DAT1 when there are no sections): NUL-terminated UTF-8 strings packed back to
          back, then zero padding up to the first payload. Status KNOWN.
    instances:
      ofs_strings:
        value: 16 + 12 * num_sections + 8 * num_unknowns
        doc: S, the DAT1 offset of the strings block (ALERT's `get_offset()`). Status KNOWN.
      ofs_strings_end_raw:
        value: 'num_sections == 0 ? _io.size : sections.last.ofs_min'
        doc: The smallest section offset (end of the strings block), or the DAT1 size if N = 0.
      ofs_strings_end:
        value: 'ofs_strings_end_raw < _io.size ? ofs_strings_end_raw : _io.size'
        doc: '`ofs_strings_end_raw` clamped to the DAT1 size.'
      len_strings_block:
        value: 'ofs_strings_end > ofs_strings ? ofs_strings_end - ofs_strings : 0'
        doc: |
          Length of the strings block (0 if the smallest section offset lies inside the
          tables, which breaks the DAT1 layout of ALERT's dat1lib/types/dat1.py).
      idx_built:
        value: 'num_sections == 0 ? -1 : sections.last.idx_built'
        doc: Table index of the (last) Anim Clip Built section, -1 if absent.
      idx_custom_track_data:
        value: 'num_sections == 0 ? -1 : sections.last.idx_custom_track_data'
        doc: Table index of the (last) Anim Clip Custom Track Data section, -1 if absent.
      built_section:
        value: sections[idx_built].body.as<built>
        if: idx_built >= 0
        doc: The parsed Anim Clip Built section (absent in 6 MSMR, 390 MM and 28 RCRA clips).
      custom_track_data_section:
        value: sections[idx_custom_track_data].body.as<custom_track_data>
        if: idx_custom_track_data >= 0
        doc: The parsed Anim Clip Custom Track Data section, if present.
      num_base_state_joints:
        value: 'idx_built >= 0 ? built_section.num_joints : 0'
        doc: |
          J (Built +0x20), the joint-record count used to split Base State; 0 if there is no
          Built section.
      num_base_state_things:
        value: 'idx_built >= 0 ? built_section.num_base_state_things : 0'
        doc: |
          T (Built +0x2C), the 32-byte record count used to split Base State; 0 if there is
          no Built section.
      idx_sample_elem:
        value: 'num_sections == 0 ? -1 : sections.last.idx_sample_elem'
        doc: Table index of the (last) Anim Clip Sample Elem section, -1 if absent.
      sample_elem_section:
        value: sections[idx_sample_elem].body.as<sample_elem>
        if: idx_sample_elem >= 0
        doc: The parsed Anim Clip Sample Elem section, if present (Sample Data's records need its widths).
      num_elems_declared:
        value: 'idx_built >= 0 ? built_section.num_elems : 0'
        doc: Built +0x24, the small-element count that splits Sample Elem; 0 without Built.
      num_large_elems_declared:
        value: 'idx_built >= 0 ? built_section.num_large_elems : 0'
        doc: Built +0x44, the large-element count that splits Sample Elem; 0 without Built.
      num_lookup_entries:
        value: 'idx_built >= 0 ? built_section.num_lookup_entries : 0'
        doc: Frame-lookup entries at the start of Sample Data (Built `num_lookup_entries`).
      sample_stride:
        value: 'idx_built >= 0 ? built_section.stride : 0'
        doc: Bytes per sample in Sample Data (Built `stride`); 0 without Built.
      is_msm2:
        value: type_id == asset_type::animclip_msm2
        doc: |
          True for a Spider-Man 2 ("i30") DAT1, type 0x41DFFB44: its Built section has the
          Spider-Man 2 layout from +0x48 on (`built`).

  section_entry:
    -webide-representation: '{tag} @{ofs_body} [{len_body:dec}]'
    doc: |
      One section-table entry (12 bytes) plus the section's payload, parsed lazily as the
      `body` instance in a substream of exactly `len_body` bytes, typed by `tag`. A tag this
      spec does not know leaves `body` as raw bytes. The parameters carry running values
      over the table (computed by `dat1`) so the DAT1 can find its strings block and the
      sections other sections depend on.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
    params:
      - id: idx
        type: s4
        doc: This entry's index in the section table.
      - id: prev_ofs_min
        type: u4
        doc: Smallest `ofs_body` of the entries before this one (0xFFFFFFFF for the first).
      - id: prev_idx_built
        type: s4
        doc: Index of the last Built entry before this one, -1 if none.
      - id: prev_idx_custom_track_data
        type: s4
        doc: Index of the last Custom Track Data entry before this one, -1 if none.
      - id: prev_idx_sample_elem
        type: s4
        doc: Index of the last Sample Elem entry before this one, -1 if none.
    seq:
      - id: tag
        type: u4
        enum: section_tag
        doc: |
          Section identifier: the CRC32 (ALERT's variant, init 0xEDB88320, no final XOR, not
          normalised) of the section's English name, e.g. crc32("Anim Clip Built") =
          0x9DF23F77. Status KNOWN.
      - id: ofs_body
        type: u4
        doc: DAT1 offset of the payload (a multiple of 16 when ALERT writes). Status KNOWN.
      - id: len_body
        type: u4
        doc: Payload size in bytes, padding not included. Status KNOWN.
    instances:
      ofs_min:
        value: 'ofs_body < prev_ofs_min ? ofs_body : prev_ofs_min'
        doc: Smallest payload offset among entries 0..idx.
      idx_built:
        value: 'tag == section_tag::built ? idx : prev_idx_built'
        doc: Index of the last Built entry among entries 0..idx, -1 if none.
      idx_custom_track_data:
        value: 'tag == section_tag::custom_track_data ? idx : prev_idx_custom_track_data'
        doc: Index of the last Custom Track Data entry among entries 0..idx, -1 if none.
      idx_sample_elem:
        value: 'tag == section_tag::sample_elem ? idx : prev_idx_sample_elem'
        doc: Index of the last Sample Elem entry among entries 0..idx, -1 if none.
      body:
        io: _parent._io
        pos: ofs_body
        size: len_body
        type:
          switch-on: tag
          cases:
            'section_tag::built': built(_parent.is_msm2)
            'section_tag::base_state': 'base_state(_parent.num_base_state_joints, _parent.num_base_state_things)'
            'section_tag::joint_hashes': joint_hashes
            'section_tag::path': path
            'section_tag::custom_tracks': custom_tracks
            'section_tag::custom_track_data': custom_track_data
            'section_tag::curves': curves
            'section_tag::curves_data': curves_data
            'section_tag::motion_data': motion_data
            'section_tag::sample_elem': 'sample_elem(_parent.idx_built >= 0, _parent.num_elems_declared, _parent.num_large_elems_declared)'
            'section_tag::sample_data': 'sample_data(_parent.num_lookup_entries, _parent.sample_stride)'
            'section_tag::sample_data_resident': 'sample_data(_parent.num_lookup_entries, _parent.sample_stride)'
            'section_tag::sample_data_paged': 'sample_data(_parent.num_lookup_entries, _parent.sample_stride)'
            'section_tag::markers': markers
            'section_tag::tracks_data': tracks_data
            'section_tag::trigger_data': trigger_data
            'section_tag::trigger_joint_names': trigger_joint_names
            'section_tag::geom_samples': geom_samples
            'section_tag::geom_sample_data': geom_sample_data
            'section_tag::morph_info': morph_info
            'section_tag::morph_frame_data': morph_frame_data
            'section_tag::pose_phoneme_visems_map': pose_phoneme_visems_map
            'section_tag::pose_expression_id_map': pose_expression_id_map
        -webide-parse-mode: eager
        doc: |
          The section payload, DAT1 bytes [ofs_body, ofs_body + len_body), typed by `tag`;
          raw bytes for an unknown tag. Status KNOWN (location).

  unknown_entry:
    -webide-representation: '{ofs_source} -> {ofs_target}'
    doc: |
      One 8-byte entry of the DAT1 "unknowns" table. ALERT never interprets it (status
      UNKNOWN). EXTERNAL reading (an unattributed third-party C++ reader): a pointer fixup;
      at load time the engine stores the 64-bit address of DAT1 offset `ofs_target` into the
      8 bytes at DAT1 offset `ofs_source`. Whether animclips ever have entries is not recorded.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
    seq:
      - id: ofs_source
        type: u4
        doc: First u32; EXTERNAL reading - DAT1 offset of the 8-byte slot to patch. Status UNKNOWN.
      - id: ofs_target
        type: u4
        doc: Second u32; EXTERNAL reading - DAT1 offset the patched pointer points at. Status UNKNOWN.

  strings_block:
    doc: |
      The DAT1 strings block. ALERT splits it on NUL bytes, skips empty strings and keys each
      string by its start offset relative to the block start S; here every NUL-terminated
      run is listed, so the zero padding before the first payload shows up as empty strings.
      (ALERT quirk: if the block's last byte is not NUL, it drops the last character; here an
      unterminated last string is kept whole.) Strings referenced by sections are also
      resolved lazily where they are used (e.g. `built.name`).
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/dat1.py
    seq:
      - id: data
        size-eos: true
        doc: |
          The block's bytes. (Read as bytes, and split into `strings` only on demand: a block
          of N NUL bytes is N empty strings, and a parser that listed them eagerly would make
          one object per byte of a hostile file.)
    instances:
      strings:
        pos: 0
        type: str
        encoding: UTF-8
        terminator: 0
        eos-error: false
        repeat: eos
        doc: Every NUL-terminated string in the block, in order (padding gives empty strings). Status KNOWN.

  built:
    -webide-representation: '{fps:dec} fps, {duration:dec} s, {num_joints:dec} joints, {num_frames:dec} frames'
    doc: |
      Section 0x9DF23F77 "Anim Clip Built" (ALERT class AnimClipBuiltSection): general clip
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
    doc-ref:
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/constants.py
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
    params:
      - id: is_msm2
        type: bool
        doc: True when the DAT1 is Spider-Man 2's (type 0x41DFFB44), which has the +0x48 layout.
    seq:
      - id: ofs_name
        type: u4
        doc: |
          Offset of the clip name, relative to the strings block start S (not DAT1-absolute);
          see the `name` instance. ALERT `string_offset`. Luna's exporter writes 0 with an
          empty strings block (no name). Status KNOWN.
      - id: name_hash
        type: u4
        doc: |
          CRC32 (not normalised) of the clip name; ALERT recomputes it and reports "MISMATCH"
          if it differs. Status KNOWN.
      - id: flags
        type: u4
        doc: |
          Clip flags (Luna `clip_flags`, index 2 of its Built record; ALERT: two unknown u16):
          bits of the enum `clip_flag`, e.g. looping 0x20, camera 0x10, frame-data lookup
          0x10000 (Sample Data starts with a frame lookup table), has motion 0x800000.
          EXTERNAL (Luna constants.py, flags.py).
      - id: fps
        type: f4
        doc: |
          Frames per second of the full clip (ALERT "fps?"; Luna: the paged sample rate).
          Status LABELLED (ALERT), EXTERNAL (Luna).
      - id: duration
        type: f4
        doc: |
          Clip length in seconds (ALERT "duration in seconds?"). Luna writes frames / fps for a
          looping clip and (frames - 1) / fps otherwise. Status LABELLED, EXTERNAL.
      - id: cycle_count
        type: u1
        doc: Luna `cycle_count` (writes 1). EXTERNAL; meaning UNKNOWN.
      - id: unk_15
        type: u1
        doc: Luna writes 0. Status UNKNOWN.
      - id: unk_16
        type: u1
        doc: Luna writes 0. Status UNKNOWN.
      - id: unk_17
        type: u1
        doc: Luna writes 0. Status UNKNOWN.
      - id: unk_18
        type: u4
        doc: Luna writes 0. Status UNKNOWN.
      - id: unk_1c
        type: u4
        doc: Luna writes 0. Status UNKNOWN.
      - id: num_joints
        type: u2
        doc: |
          J, the joint count: number of 16-byte joint records in Base State (ALERT "bones
          count (A3B26640)", Luna `joint_count`); joint of a Sample Elem component =
          component index / 12 < J. Status KNOWN.
      - id: num_frames
        type: u2
        doc: |
          Samples (frames) of the full clip: Luna's paged sample count, the number of frames
          its importer plays; the frame-lookup table has this many entries (+1 when looping).
          ALERT: "frames count?", the value count of (almost) every custom track. Status
          LABELLED (ALERT), EXTERNAL (Luna).
      - id: num_elems
        type: u4
        doc: |
          Small-element count of Sample Elem (ALERT "samples count? (D070D358)" as a u16 with
          an unknown u16 after it; Luna `elem_count`, a u32). Status KNOWN (count).
      - id: stride
        type: u4
        doc: |
          Bytes per sample in Sample Data, a multiple of 4 (whole u32 words): the small and
          large elements' bit widths summed, rounded up to 32 bits (Luna `stride`). EXTERNAL.
      - id: num_base_state_things
        type: u2
        doc: |
          T, "number of 32-byte things in base state? [#21]": count of 32-byte records after
          the joint records in Base State (ALERT's printer uses it so; Luna writes 0). Status
          KNOWN (as the record count), meaning UNKNOWN.
      - id: unk_2e
        type: u2
        doc: Luna writes 0. Status UNKNOWN.
      - id: num_unique_samples
        type: u2
        doc: |
          Distinct samples stored in Sample Data (Luna `unique_sample_cnt`); frame-lookup
          entries index below it. ALERT: "usually equal to frames count?". Status LABELLED
          (ALERT), EXTERNAL (Luna).
      - id: num_things_alt
        type: u2
        doc: '"sometimes equal to #21?" (+0x32, sometimes equals `num_base_state_things`). Status LABELLED.'
      - id: unk_34
        type: u2
        doc: Status UNKNOWN.
      - id: unk_36
        type: u2
        doc: Status UNKNOWN.
      - id: unk_38
        type: u2
        doc: Status UNKNOWN.
      - id: num_custom_tracks
        type: u2
        doc: |
          "tracks count (14014CB6)": n_tracks, the number of 40-byte Custom Tracks entries
          (Luna writes 0). Status LABELLED (count relation).
      - id: unk_3c
        type: u2
        doc: Status UNKNOWN.
      - id: num_resident_samples
        type: u2
        doc: |
          Samples in Spider-Man 2's "Sample Data Resident" section (Luna
          `sample_cnt_resident`; its exporter writes the frame count). EXTERNAL.
      - id: resident_fps
        type: f4
        doc: Frame rate of the resident samples (Luna `anim_fps_resident`). EXTERNAL.
      - id: num_large_elems
        type: u4
        doc: |
          Large-element count of Sample Elem (Luna `elem_large_count`, elements wider than 16
          bits). EXTERNAL; for Remastered-era files (ALERT: two unknown u16) a hypothesis.
      - id: word_48
        type: u4
        doc: |
          Remastered-era files: ALERT's "DEAD" "DEAD" u16 pair (0xDEADDEAD), read here as the
          sound-event hash (`sound_event_hash`). Spider-Man 2: the facial-name hash
          (`facial_name_hash`). Status LABELLED.
      - id: word_4c
        type: u4
        doc: |
          Remastered-era files: ALERT "zeroes" (observed 0) and an unknown u16. Spider-Man 2:
          the sound-event hash, 0xDEADDEAD when there is none (Luna's default). Status LABELLED.
      - id: word_50
        type: u4
        doc: Spider-Man 2 `particle_count_max` (Luna). Remastered-era files UNKNOWN.
      - id: unk_54
        type: u4
        doc: Luna writes 12 reserved zero bytes from here. Status UNKNOWN.
      - id: unk_58
        type: u4
        doc: Status UNKNOWN.
      - id: unk_5c
        type: u4
        doc: Status UNKNOWN.
      - id: trailing
        size-eos: true
        doc: Bytes after offset 96; empty in every recorded file (the size is always 96).
    instances:
      name:
        io: _parent._parent._io
        pos: _parent._parent.ofs_strings + ofs_name
        type: strz
        encoding: UTF-8
        -webide-parse-mode: eager
        doc: |
          The clip name: the NUL-terminated string at DAT1 offset S + `ofs_name`
          (strings-block-relative convention). Status KNOWN.
      sound_event_hash:
        value: 'is_msm2 ? word_4c : word_48'
        doc: The sound-event hash (0xDEADDEAD = none), +0x4C in Spider-Man 2, +0x48 before.
      facial_name_hash:
        value: word_48
        if: is_msm2
        doc: Spider-Man 2's facial-name hash (Luna `facial_name_hash`).
      particle_count_max:
        value: word_50
        if: is_msm2
        doc: Spider-Man 2's `particle_count_max` (Luna).
      has_dead_markers:
        value: sound_event_hash == 0xdeaddead
        doc: |
          True if the sound-event hash holds 0xDEADDEAD (ALERT's two "DEAD" u16 markers in
          Remastered-era files; invariant 11.8 of docs/animclip.md).
      is_looping:
        value: (flags & 0x20) != 0
        doc: Flag 0x20 kFlagsIsLooping (Luna constants.py).
      is_camera:
        value: (flags & 0x10) != 0
        doc: Flag 0x10 kFlagsCamera.
      has_frame_lookup:
        value: (flags & 0x10000) != 0
        doc: Flag 0x10000 kFlagsFrameDataLookup; Sample Data then starts with the frame lookup table.
      has_motion:
        value: (flags & 0x800000) != 0
        doc: Flag 0x800000 kAnimFlagsHasMotion.
      num_lookup_entries:
        value: 'has_frame_lookup ? num_frames + (is_looping ? 1 : 0) : 0'
        doc: |
          Frame-lookup entries at the start of Sample Data: one per frame and one more when
          looping (Luna anim_import.py); 0 without the lookup flag.
  base_state:
    doc: |
      Section 0x2BB5BC8F "Anim Clip Base State" (ALERT class x2BB5BC8F_Section): one record
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
    doc-ref:
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/animclip_to_gltf.py
    params:
      - id: num_joints_declared
        type: u2
        doc: J, Built +0x20 (0 if the clip has no Built section).
      - id: num_things_declared
        type: u2
        doc: T, Built +0x2C (0 if the clip has no Built section).
    seq:
      - id: joints_raw
        size: len_joints_raw
        doc: |
          The joint records as raw bytes (16 bytes each; read them in bulk, e.g. with numpy
          dtype `<i2 x7, u1, u1`). Status KNOWN.
      - id: things_raw
        size: len_things_raw
        doc: The 32-byte "things" as raw bytes. Status KNOWN position and size, contents UNKNOWN.
      - id: extra
        size-eos: true
        doc: Bytes after the things, not described by ALERT. Status UNKNOWN.
    instances:
      len_joints_raw:
        value: |
          16 * num_joints_declared <= _io.size ? 16 * num_joints_declared
          : _io.size - _io.size % 16
        doc: Byte length of the joint records (16*J, cut to what the payload holds).
      len_things_raw:
        value: |
          32 * num_things_declared <= _io.size - len_joints_raw ? 32 * num_things_declared
          : (_io.size - len_joints_raw) - (_io.size - len_joints_raw) % 32
        doc: Byte length of the things (32*T, cut to what the payload holds).
      num_joints:
        value: len_joints_raw / 16
        doc: Number of joint records actually present (J unless the payload is short).
      num_things:
        value: len_things_raw / 32
        doc: Number of 32-byte things actually present (T unless the payload is short).
      is_size_consistent:
        value: 16 * num_joints_declared + 32 * num_things_declared <= _io.size
        doc: Invariant 11.10 of docs/animclip.md, size >= 16*J + 32*T.
      joints:
        pos: 0
        type: base_state_joint
        repeat: expr
        repeat-expr: num_joints
        doc: Lazy typed view of `joints_raw`.
      things:
        pos: len_joints_raw
        size: 32
        type: base_state_thing
        repeat: expr
        repeat-expr: num_things
        doc: Lazy typed view of `things_raw` (each record in its own 32-byte substream).

  base_state_joint:
    -webide-representation: 'q=({qx:dec}, {qy:dec}, {qz:dec}, {qw:dec}) p=({x:dec}, {y:dec}, {z:dec}) e={log_scale:dec}/{log_scale2:dec}'
    doc: |
      One Base State joint record (16 bytes), ALERT's labels (qx, qy, qz, qw, x, y, z,
      log_scale, log_scale2): the base integers of the joint's 12 packed components (see
      `base_state`); the `rot_*`/`pos_*` instances dequantise the base alone, which is the
      joint's pose only when no Sample Elem element animates it. Dequantisation
      (animclip_to_gltf.py): rotation q = (qx, qy, qz, qw) / 32768, to be normalised (Luna
      encodes with 32767; normalisation hides the difference); translation p = (x, y, z) /
      2^log_scale2, parent-relative local. Scale (Luna): components 0-3 all start at
      2^log_scale, scale = component / divisor (1 for an unanimated joint).
    doc-ref:
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/animclip_to_gltf.py
    seq:
      - id: qx
        type: s2
        doc: Rotation quaternion X, quantised (/32768). Status KNOWN.
      - id: qy
        type: s2
        doc: Rotation quaternion Y, quantised. Status KNOWN.
      - id: qz
        type: s2
        doc: Rotation quaternion Z, quantised. Status KNOWN.
      - id: qw
        type: s2
        doc: Rotation quaternion W, quantised. Status KNOWN.
      - id: x
        type: s2
        doc: Translation X, quantised (/2^log_scale2). Status KNOWN.
      - id: y
        type: s2
        doc: Translation Y, quantised. Status KNOWN.
      - id: z
        type: s2
        doc: Translation Z, quantised. Status KNOWN.
      - id: log_scale
        type: u1
        doc: |
          Byte +0xE, a base-2 exponent: the base of the four scale components (x, y, z and the
          divisor) is 2^log_scale (Luna anim_import.py; its exporter writes 12). Unused by
          ALERT. Status LABELLED (ALERT), EXTERNAL (Luna).
      - id: log_scale2
        type: u1
        doc: |
          Byte +0xF, base-2 exponent of the translation: component 11, the translation's
          shift (a sample may add to it too). Status KNOWN (used).
    instances:
      rot_x:
        value: qx / 32768.0
        doc: Quaternion X dequantised (before normalisation).
      rot_y:
        value: qy / 32768.0
        doc: Quaternion Y dequantised (before normalisation).
      rot_z:
        value: qz / 32768.0
        doc: Quaternion Z dequantised (before normalisation).
      rot_w:
        value: qw / 32768.0
        doc: Quaternion W dequantised (before normalisation).
      translation_scale:
        value: 'log_scale2 < 31 ? 1.0 / (1 << log_scale2) : 0.0'
        doc: |
          2^-log_scale2, the translation's dequantisation factor. Exponents of 31 and more
          give 0: they are beyond any usable precision, and shifts are 32-bit in several
          targets (JavaScript among them), so every target agrees this way.
      pos_x:
        value: x * translation_scale
        doc: Translation X dequantised.
      pos_y:
        value: y * translation_scale
        doc: Translation Y dequantised.
      pos_z:
        value: z * translation_scale
        doc: Translation Z dequantised.

  base_state_thing:
    doc: |
      One 32-byte "thing" after the joint records of Base State. ALERT prints it as 16 u16
      values in hex and assigns no meaning; ALERT's wiki says the 16-byte halves
      seem to have the joint-record format (see `half_1`, `half_2`). Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: words
        type: u2
        repeat: expr
        repeat-expr: 16
        doc: The 16 u16 words, as ALERT prints them. Status UNKNOWN.
    instances:
      half_1:
        pos: 0
        type: base_state_joint
        doc: First 16 bytes read as a joint record (the hypothesis of ALERT's wiki). Status UNKNOWN.
      half_2:
        pos: 16
        type: base_state_joint
        doc: Last 16 bytes read as a joint record (the hypothesis of ALERT's wiki). Status UNKNOWN.

  joint_hashes:
    doc: |
      Section 0xA3B26640 "Anim Clip Joint Hashes" (ALERT class xA3B26640_Section): K = size/4
      u32 joint-name hashes (CRC32, case-sensitive, not normalised), the same values as the
      model's joint records; joints are matched to a model purely by hash. Per ALERT's wiki the
      last value is 0xFFFFFFFF; ALERT skips 0xFFFFFFFF wherever it occurs and does not
      require it. Always present together with Base State. Status KNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: hashes_raw
        size: 4 * num_hashes
        doc: The K hashes as raw bytes (u32le each). Status KNOWN.
      - id: trailing
        size-eos: true
        doc: 0-3 bytes left if the size is not a multiple of 4 (never recorded).
    instances:
      num_hashes:
        value: _io.size / 4
        doc: K, the number of hashes (terminator included).
      hashes:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_hashes
        doc: Lazy typed view of `hashes_raw`.
      last_hash:
        pos: 4 * (num_hashes - 1)
        type: u4
        if: num_hashes > 0
        doc: The last hash (expected 0xFFFFFFFF).
      has_terminator:
        value: num_hashes > 0 and last_hash == 0xffffffff
        doc: True if the last hash is the 0xFFFFFFFF terminator.

  path:
    doc: |
      Section 0x3976E44C "Anim Clip Path" (ALERT class x3976E44C_Section), exactly 128 bytes:
      two 4x4 f32 matrices. ALERT reads it as 32 u32 words and comments "two matrixes 4x4
      (like I + translation vector)"; ALERT's wiki suggests "starting and ending transforms?".
      Row/column order and where the translation sits are UNKNOWN. Status partly KNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: start_matrix
        type: matrix_4x4
        doc: First matrix (offset 0); "starting transform?" per ALERT's wiki. Status LABELLED.
      - id: end_matrix
        type: matrix_4x4
        doc: Second matrix (offset 64); "ending transform?" per ALERT's wiki. Status LABELLED.
      - id: trailing
        size-eos: true
        doc: Bytes after offset 128; empty in every recorded file.

  matrix_4x4:
    doc: |
      16 f32 values of a 4x4 matrix in file order (row- or column-major is UNKNOWN; ALERT
      describes it as identity rotation plus a translation).
    seq:
      - id: m
        type: f4
        repeat: expr
        repeat-expr: 16
        doc: The 16 elements in file order. Status LABELLED.

  custom_tracks:
    doc: |
      Section 0x14014CB6 "Anim Clip Custom Tracks" (ALERT class x14014CB6_Section): size/40
      entries of 40 bytes (10 u32 each), expected to number `built.num_custom_tracks`.
      Always present together with Custom Track Data. Status partly KNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: entries_raw
        size: 40 * num_entries
        doc: The entries as raw bytes (10 x u32le each). Status KNOWN (layout).
      - id: trailing
        size-eos: true
        doc: Bytes left if the size is not a multiple of 40 (never recorded).
    instances:
      num_entries:
        value: _io.size / 40
        doc: Number of 40-byte entries.
      entries:
        pos: 0
        type: custom_track
        repeat: expr
        repeat-expr: num_entries
        -webide-parse-mode: eager
        doc: Lazy typed view of `entries_raw`.

  custom_track:
    -webide-representation: '{name_hash}: {num_values:dec} floats @{ofs_data:dec}'
    doc: One 40-byte Custom Tracks entry.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: name_hash
        type: u4
        doc: |
          "hash", printed beside the name; presumably the CRC32 of the track name (ALERT does
          not verify it). Status LABELLED.
      - id: ofs_name
        type: u4
        doc: Offset of the track name relative to the strings block start S. Status KNOWN.
      - id: zero_08
        type: u4
        doc: Observed zero. Status LABELLED.
      - id: zero_0c
        type: u4
        doc: Observed zero. Status LABELLED.
      - id: ofs_data
        type: u4
        doc: |
          Byte offset of this track's floats inside Custom Track Data (0x116EB684); tracks
          start on 16-byte boundaries. Status KNOWN.
      - id: unk_14
        type: u4
        doc: |
          Typically 257 (0x101); ALERT: "count of bones? maybe just some flags?".
          Status UNKNOWN.
      - id: zero_18
        type: u4
        doc: Observed zero. Status LABELLED.
      - id: zero_1c
        type: u4
        doc: Observed zero. Status LABELLED.
      - id: num_values
        type: u4
        doc: |
          Number of f32 values of this track in Custom Track Data ("key frames count in
          track?"); equals `built.num_frames` for (almost) every track. Status KNOWN (count).
      - id: zero_24
        type: u4
        doc: Observed zero. Status LABELLED.
    instances:
      name:
        io: _parent._parent._parent._io
        pos: _parent._parent._parent.ofs_strings + ofs_name
        type: strz
        encoding: UTF-8
        -webide-parse-mode: eager
        doc: The track name at DAT1 offset S + `ofs_name`. Status KNOWN.
      values:
        io: _parent._parent._parent.custom_track_data_section._io
        pos: ofs_data
        type: f4
        repeat: expr
        repeat-expr: num_values
        if: _parent._parent._parent.idx_custom_track_data >= 0
        doc: |
          This track's floats, Custom Track Data bytes [ofs_data, ofs_data + 4*num_values);
          one value per frame (LABELLED). Absent if the clip has no Custom Track Data.

  custom_track_data:
    doc: |
      Section 0x116EB684 "Anim Clip Custom Track Data" (ALERT class x116EB684_Section): a pool
      of f32 arrays addressed by the Custom Tracks entries (`ofs_data`, `num_values`); each
      track's block starts on a 16-byte boundary within the section, and the section is not
      padded after the last track. Status KNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: values_raw
        size: 4 * num_values
        doc: The whole pool as raw bytes (f32le, alignment gaps included). Status KNOWN.
      - id: trailing
        size-eos: true
        doc: 0-3 bytes left if the size is not a multiple of 4 (never recorded).
    instances:
      num_values:
        value: _io.size / 4
        doc: Number of f32 slots in the pool.
      values:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: num_values
        doc: Lazy typed view of `values_raw`; per-track slices are `custom_track.values`.

  curves:
    doc: |
      Section 0x09DC30AB "Anim Clip Curves" (ALERT class x09DC30AB_Section), 240 bytes, found
      in a single asset (846B8D250F1A33D2, required/cinematics/predefined_camera_shake.animclip,
      MSMR and RCRA). ALERT views it as u32 words. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        -webide-parse-mode: eager
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  curves_data:
    doc: |
      Section 0x4FC98D7E "Anim Clip Curves Data" (ALERT class x4FC98D7E_Section), 93604
      bytes, only in the asset that has Curves. ALERT views it as u32 words. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  sample_elem:
    doc: |
      Section 0xD070D358 "Anim Clip Sample Elem": which packed component each Sample Data bit
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
    doc-ref:
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    params:
      - id: has_built
        type: bool
        doc: True when the clip has a Built section to take the two counts from.
      - id: num_elems_declared
        type: u4
        doc: n as Built +0x24 declares it (0 without Built).
      - id: num_large_elems_declared
        type: u4
        doc: m as Built +0x44 declares it (0 without Built).
    seq:
      - id: offsets_raw
        size: 4 * num_elems
        doc: The n u32 component offsets as raw bytes (ALERT's "hash" column). Status KNOWN.
      - id: codes_raw
        size: num_elems
        doc: The n u8 codes as raw bytes (ALERT's "ndx" column). Status KNOWN (EXTERNAL meaning).
      - id: padding
        size: len_padding
        doc: Zero padding to a multiple of 4 bytes. Status KNOWN.
      - id: large_offsets_raw
        size: 4 * num_large_elems
        doc: The m u32 component offsets of the large table as raw bytes. EXTERNAL.
      - id: large_codes_raw
        size: 2 * num_large_elems
        doc: The m u16 codes of the large table as raw bytes. EXTERNAL.
      - id: trailing
        size-eos: true
        doc: Bytes after the large table (none as Luna writes).
    instances:
      is_size_consistent:
        value: |
          has_built and 5 * num_elems_declared + (4 - num_elems_declared % 4) % 4
          + 6 * num_large_elems_declared <= _io.size
        doc: True when Built's two counts fit the payload (they split it then).
      num_elems:
        value: 'is_size_consistent ? num_elems_declared : _io.size / 5'
        -count-shared-by: [codes_raw]
        doc: |
          n, small elements: Built's count, or ALERT's floor(size / 5) when Built's counts do
          not fit. One count for the parallel tables (`offsets_raw`, `codes_raw`, `elems`), so
          it cannot carry the name of `codes_raw` the compiler's style check asks for.
      num_large_elems:
        value: 'is_size_consistent ? num_large_elems_declared : 0'
        doc: m, large elements (0 when Built's counts do not fit).
      len_padding:
        value: 'is_size_consistent ? (4 - num_elems % 4) % 4 : _io.size - 5 * num_elems'
        doc: |
          Padding after the small codes: (4 - n % 4) % 4 bytes, or (ALERT's split, when
          Built's counts do not fit) every byte after the small table.
      ofs_large_table:
        value: 5 * num_elems + len_padding
        doc: Section offset of the large table (4-aligned).
      elems:
        type: sample_elem_small(_index)
        repeat: expr
        repeat-expr: num_elems
        doc: Lazy typed view of the small table (offset, code and what they mean).
      large_elems:
        type: sample_elem_large(_index)
        repeat: expr
        repeat-expr: num_large_elems
        doc: Lazy typed view of the large table.

  sample_elem_small:
    -webide-representation: 'joint {joint:dec} {component} {width:dec} bits << {shift:dec}'
    doc: One small Sample Elem element (instances over the two small-table columns).
    params:
      - id: i
        type: u4
        doc: Index in the small table.
    instances:
      ofs_component:
        io: _parent._io
        pos: 4 * i
        type: u4
        doc: Byte offset of the component in the packed joint array (4 bytes per component).
      code:
        io: _parent._io
        pos: 4 * _parent.num_elems + i
        type: u1
        doc: The code byte.
      component_index:
        value: ofs_component / 4
        doc: ci, the packed component index.
      joint:
        value: component_index / 12
        -webide-parse-mode: eager
        doc: The joint (Joint Hashes / Base State index); below Built's joint count.
      component:
        value: component_index % 12
        -webide-parse-mode: eager
        enum: packed_component
        doc: Which of the joint's 12 components the field adds to.
      width:
        value: (code & 0xf) + 1
        -webide-parse-mode: eager
        doc: Bit width of the field in each sample (1..16).
      shift:
        value: code >> 4
        -webide-parse-mode: eager
        doc: Left shift applied to the field before it is added to the base (0..15).

  sample_elem_large:
    -webide-representation: 'joint {joint:dec} {component} {width:dec} bits << {shift:dec}'
    doc: One large Sample Elem element (instances over the two large-table columns).
    params:
      - id: i
        type: u4
        doc: Index in the large table.
    instances:
      ofs_component:
        io: _parent._io
        pos: _parent.ofs_large_table + 4 * i
        type: u4
        doc: Byte offset of the component in the packed joint array.
      code:
        io: _parent._io
        pos: _parent.ofs_large_table + 4 * _parent.num_large_elems + 2 * i
        type: u2
        doc: The u16 code.
      component_index:
        value: ofs_component / 4
        doc: ci, the packed component index.
      joint:
        value: component_index / 12
        -webide-parse-mode: eager
        doc: The joint; below Built's joint count.
      component:
        value: component_index % 12
        -webide-parse-mode: eager
        enum: packed_component
        doc: Which of the joint's 12 components the field adds to.
      width:
        value: (code & 0xff) + 1
        -webide-parse-mode: eager
        doc: Bit width of the field (1..256 by the code; Luna writes 17..32).
      shift:
        value: code >> 8
        -webide-parse-mode: eager
        doc: Left shift applied to the field before it is added to the base.

  sample_data:
    doc: |
      Section 0x3A7B4855 "Anim Clip Sample Data" (Remastered, Miles Morales, Rift Apart) and
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
    doc-ref:
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/binary.py
    params:
      - id: num_lookup
        type: u4
        doc: Frame-lookup entries (Built `num_lookup_entries`; 0 without the lookup flag).
      - id: stride
        type: u4
        -count-shared-by: [samples]
        doc: |
          Bytes per sample (Built `stride`): the size of EACH record of `samples`, and the
          divisor of their count, so it keeps the format's name rather than the
          `len_samples` the compiler's style check asks for.
    seq:
      - id: data_raw
        size-eos: true
        doc: |
          The whole payload: lookup table, its padding, then the samples (bulk readers take
          these bytes; the instances below are lazy views).
    instances:
      len_lookup:
        value: '2 * num_lookup <= _io.size ? 2 * num_lookup : _io.size - _io.size % 2'
        doc: 2 x num_lookup, cut to the payload.
      len_lookup_padding:
        value: |
          (len_lookup + 15) / 16 * 16 <= _io.size
          ? (len_lookup + 15) / 16 * 16 - len_lookup : _io.size - len_lookup
        doc: Padding after the lookup table up to a multiple of 16 (cut to the payload).
      ofs_samples:
        value: len_lookup + len_lookup_padding
        doc: Section offset of the first sample.
      num_samples:
        value: 'stride > 0 ? (_io.size - ofs_samples) / stride : 0'
        doc: Whole samples stored (Built's unique sample count expected).
      lookup:
        pos: 0
        type: u2
        repeat: expr
        repeat-expr: len_lookup / 2
        doc: The frame-lookup table (lazy); entry f is the sample frame f plays (< `num_samples`).
      samples:
        pos: ofs_samples
        size: stride
        type: sample_record
        repeat: expr
        repeat-expr: num_samples
        doc: |
          The samples (lazy), one record per sample, its bit fields read with the widths of
          Sample Elem (absent with no Sample Elem section).
        if: _parent._parent.idx_sample_elem >= 0
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy u32 view of the whole payload (ALERT's view). Can be millions of entries.

  sample_record:
    doc: |
      One sample: one unsigned bit field per Sample Elem element, small ones then large ones,
      LSB-first (a little-endian bit stream), then zero bits up to the stride.
    seq:
      - id: small
        type: sample_field(_parent._parent._parent.sample_elem_section.elems[_index].width)
        repeat: expr
        repeat-expr: _parent._parent._parent.sample_elem_section.num_elems
        doc: The small elements' fields, in Sample Elem order.
      - id: large
        type: sample_field(_parent._parent._parent.sample_elem_section.large_elems[_index].width)
        repeat: expr
        repeat-expr: _parent._parent._parent.sample_elem_section.num_large_elems
        doc: The large elements' fields, in Sample Elem order.
      - id: rest
        size-eos: true
        doc: The bits after the last field, up to the stride (zero as Luna writes them).

  sample_field:
    -webide-representation: '{value:dec}'
    meta:
      bit-endian: le
    doc: |
      One field of a sample: `width` bits, LSB-first. Typed here up to 32 bits (what every
      Kaitai target, JavaScript's included, reads as a bit-sized integer); a wider field (a
      large code allows up to 256 bits; Luna writes at most 32) has no `value`, and the
      fields after it are misplaced in this view (the raw bytes stay in `data_raw`).
    params:
      - id: width
        type: u2
        doc: The field's bit width (Sample Elem).
    seq:
      - id: bits
        type:
          switch-on: width
          cases:
            2: b2
            3: b3
            4: b4
            5: b5
            6: b6
            7: b7
            8: b8
            9: b9
            10: b10
            11: b11
            12: b12
            13: b13
            14: b14
            15: b15
            16: b16
            17: b17
            18: b18
            19: b19
            20: b20
            21: b21
            22: b22
            23: b23
            24: b24
            25: b25
            26: b26
            27: b27
            28: b28
            29: b29
            30: b30
            31: b31
            32: b32
        if: width > 1
        doc: A field of 2 to 32 bits.
      - id: bit
        type: b1
        if: width == 1
        doc: |
          A 1-bit field (Kaitai reads one bit as a boolean, so it cannot share `bits`'s
          switch). It comes second: a bit field after a switch continues the bit stream, while
          a switch after a bit field would make some targets align to the next byte.
    instances:
      value:
        value: 'width == 1 ? (bit ? 1 : 0) : bits'
        -webide-parse-mode: eager
        doc: The unsigned field; the component gets base + (value << shift).

  motion_data:
    doc: |
      Section 0xE08AA35F "Anim Clip Motion Data": root motion (EXTERNAL: Luna Engine IO Tools
      motion.py and constants.py; ALERT views it as u32 words). A 0x7C-byte header, then
      `num_samples` samples at header end + `ofs_samples`: 16-byte standard samples (type 0)
      or 32-byte full samples (type 1, which Luna keeps but does not decode), then a segment
      stream at header end + `ofs_segments`; Luna pads the section to a multiple of 16.
      Luna's exporter writes frames + 1 samples for a looping clip (twice that with the
      secondary stream), and a 128-byte block with no samples when there is no motion.
    doc-ref:
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/motion.py
      - https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/constants.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload (bulk readers take these bytes; `header` and `samples` are lazy views).
    instances:
      header:
        pos: 0
        type: motion_header
        if: _io.size >= 0x7c
        doc: The 0x7C-byte header (absent when the section is shorter).
      len_sample:
        value: 'header.motion_type == motion_type::full ? 32 : 16'
        if: _io.size >= 0x7c
        doc: Bytes per sample.
      is_samples_in_range:
        value: _io.size >= 0x7c and 0x7c + header.ofs_samples + len_sample * header.num_samples <= _io.size
        doc: True when the header's samples fit the section.
      samples:
        pos: 0x7c + header.ofs_samples
        type: motion_sample
        repeat: expr
        repeat-expr: header.num_samples
        if: is_samples_in_range and header.motion_type == motion_type::standard
        doc: Lazy typed view of the standard samples.
      full_samples:
        pos: 0x7c + header.ofs_samples
        size: 32
        repeat: expr
        repeat-expr: header.num_samples
        if: is_samples_in_range and header.motion_type == motion_type::full
        doc: The full samples, 32 bytes each, raw (Luna does not decode them).

  motion_header:
    doc: The 0x7C-byte header of Anim Clip Motion Data (Luna Engine IO Tools motion.py). EXTERNAL.
    doc-ref: https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/motion.py
    seq:
      - id: motion_type
        type: u1
        enum: motion_type
        doc: 0 standard (16-byte samples), 1 full (32-byte samples). EXTERNAL.
      - id: flags
        type: u1
        doc: 0x01 has phase, 0x02 has motion, 0x04 has a secondary stream. EXTERNAL.
      - id: num_samples
        type: u2
        doc: Number of motion samples. EXTERNAL.
      - id: initial_rot_0
        type: f4
        repeat: expr
        repeat-expr: 4
        doc: An initial rotation quaternion x, y, z, w (Luna writes identity). EXTERNAL.
      - id: initial_rot_1
        type: f4
        repeat: expr
        repeat-expr: 4
        doc: A second initial rotation (identity as Luna writes). EXTERNAL.
      - id: initial_trans_0
        type: f4
        repeat: expr
        repeat-expr: 3
        doc: An initial translation (zero as Luna writes). EXTERNAL.
      - id: initial_trans_1
        type: f4
        repeat: expr
        repeat-expr: 3
        doc: A second initial translation. EXTERNAL.
      - id: ofs_samples
        type: u4
        doc: Offset of the samples from the header end (0x7C). EXTERNAL.
      - id: ofs_segments
        type: u4
        doc: Offset of the segment stream from the header end. EXTERNAL.
      - id: num_phase_blend_samples
        type: u2
        doc: Luna `phase_blend_samples`. EXTERNAL; meaning UNKNOWN.
      - id: num_segments
        type: u1
        doc: Luna `segment_count`. EXTERNAL.
      - id: unk_4b
        size: 5
        doc: Padding as Luna writes it (zero).
      - id: bounds_min
        type: f4
        repeat: expr
        repeat-expr: 3
        doc: Smallest sample translation (Luna writes it). EXTERNAL.
      - id: unk_58
        size: 12
        doc: Status UNKNOWN (zero as Luna writes).
      - id: bounds_max
        type: f4
        repeat: expr
        repeat-expr: 3
        doc: Largest sample translation. EXTERNAL.
      - id: unk_70
        size: 12
        doc: Status UNKNOWN (zero as Luna writes).

  motion_sample:
    -webide-representation: 'q=({qx:dec}, {qy:dec}, {qz:dec}, {qw:dec}) p=({x:dec}, {y:dec}, {z:dec}) >>{log_scale:dec}'
    doc: |
      One standard (16-byte) root-motion sample (Luna motion.py): rotation q = (qx, qy, qz,
      qw) / 32768 normalised, translation (x, y, z) / 2^log_scale.
    seq:
      - id: qx
        type: s2
        doc: Quaternion x, quantised.
      - id: qy
        type: s2
        doc: Quaternion y.
      - id: qz
        type: s2
        doc: Quaternion z.
      - id: qw
        type: s2
        doc: Quaternion w.
      - id: x
        type: s2
        doc: Translation x, quantised.
      - id: y
        type: s2
        doc: Translation y.
      - id: z
        type: s2
        doc: Translation z.
      - id: log_scale
        type: s1
        doc: Translation exponent (Luna clamps it to 0..16).
      - id: phase
        type: s1
        doc: Phase (Luna writes 0).

  markers:
    doc: |
      Section 0xFB110305 "Anim Clip Markers" (Spider-Man 2): 16-byte marker records, as many
      as Tracks Data's `num_markers` (EXTERNAL: Luna Engine IO Tools anim_import.py).
    doc-ref: https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/anim_import.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload (the records are the lazy `markers`).
    instances:
      markers:
        pos: 0
        type: marker
        repeat: expr
        repeat-expr: _io.size / 16
        doc: The 16-byte records (lazy).

  marker:
    -webide-representation: '{name_hash} @{start_frame:dec}'
    doc: One 16-byte marker (Luna reads u8, pad, u16, u16, u16, u32, f32).
    seq:
      - id: flags
        type: u1
        doc: EXTERNAL; meaning UNKNOWN.
      - id: unk_01
        type: u1
        doc: Skipped by Luna.
      - id: start_frame
        type: u2
        doc: Start (Luna places the marker at this frame).
      - id: duration
        type: u2
        doc: Duration. EXTERNAL.
      - id: ofs_name
        type: u2
        doc: A name offset (Luna does not resolve it). EXTERNAL.
      - id: name_hash
        type: u4
        doc: The marker name's hash. EXTERNAL.
      - id: value
        type: f4
        doc: A float payload (Luna `data`). EXTERNAL.

  tracks_data:
    doc: |
      Section 0xDBF17DE9 "Anim Clip Tracks Data" (Spider-Man 2): counts for the trigger and
      marker sections, 32 bytes as Luna writes it (EXTERNAL: Luna Engine IO Tools
      constants.py `ANIM_CLIP_TRACKS_DATA_FORMAT`, motion.py).
    doc-ref: https://github.com/Pcniado/luna_engine_io_tools/blob/77ea909/motion.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload (`counts` reads its first 10 bytes).
    instances:
      counts:
        pos: 0
        type: tracks_data_counts
        if: _io.size >= 10
        doc: The counts at the start of the section.

  tracks_data_counts:
    doc: The counts Luna reads at the start of Anim Clip Tracks Data. EXTERNAL.
    seq:
      - id: num_locators
        type: u2
        doc: Trigger locator joints. EXTERNAL.
      - id: num_triggers
        type: u2
        doc: Trigger records in Trigger Data. EXTERNAL.
      - id: len_event_data
        type: u4
        doc: Bytes of trigger event data. EXTERNAL.
      - id: num_markers
        type: u2
        doc: Records in Anim Clip Markers. EXTERNAL.

  trigger_data:
    doc: |
      Section 0x6962F7DE "Anim Clip Trigger Data" (ALERT class AnimClipTriggerDataSection),
      at least 32 bytes. Layout: a 16-byte header; a region of `len_jsons` bytes starting at
      +0x10 (two u32 words `unk3`, `unk4`, then serialized objects from +0x18, "one after
      another but with somewhat like 8 or 12 bytes in between"); then 16-byte trigger records
      up to the end, m = floor((size - 0x10 - len_jsons) / 16) of them (ALERT counts them from
      the size, not from `num_things`). ALERT reads +0x10..+0x17 unconditionally, so with
      len_jsons < 8 the words `unk3`/`unk4` alias the first record. Status partly KNOWN.
    doc-ref:
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
      - https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    seq:
      - id: num_jsons
        type: u2
        doc: |
          ALERT `jsons_count`; its later note says "actually, not jsons_count and always 1?".
          Status LABELLED.
      - id: num_things
        type: u2
        doc: |
          ALERT `things_count`, presumably the number of 16-byte trigger records (not used by
          ALERT). Status LABELLED.
      - id: len_jsons
        type: u4
        doc: |
          ALERT `jsons_size`: byte length of the region from +0x10 to the first trigger
          record. Status KNOWN (used to locate the records).
      - id: unk1
        type: u4
        doc: |
          Often a joint-name hash that also appears in Trigger Joint Names (0x74FC0175).
          Status LABELLED.
      - id: unk2
        type: u4
        doc: Status UNKNOWN.
      - id: jsons_raw
        size: len_jsons_raw
        doc: |
          The `len_jsons` region as raw bytes (+0x10 on): `unk3`, `unk4`, serialized objects.
          Status partly KNOWN.
      - id: records_raw
        size: 16 * num_records
        doc: The trigger records as raw bytes (16 bytes each). Status KNOWN (layout).
      - id: trailing
        size-eos: true
        doc: Bytes after the last whole record ((size - 0x10 - len_jsons) % 16; expected 0).
    instances:
      len_jsons_raw:
        value: 'len_jsons <= _io.size - 16 ? len_jsons : _io.size - 16'
        doc: '`len_jsons` clamped to the payload (ALERT slices the same way).'
      num_records:
        value: (_io.size - 16 - len_jsons_raw) / 16
        doc: m, the number of whole 16-byte trigger records.
      unk3:
        pos: 0x10
        type: u4
        if: _io.size >= 0x14
        doc: |
          ALERT `unk3`: first 4 bytes of the `len_jsons` region, not part of any serialized
          object (aliases the first record when len_jsons < 4). Status UNKNOWN.
      unk4:
        pos: 0x14
        type: u4
        if: _io.size >= 0x18
        doc: ALERT `unk4`, the next 4 bytes (same aliasing caveat). Status UNKNOWN.
      objects:
        pos: 0x18
        size: len_jsons_raw - 8
        type: serialized_object_list
        if: len_jsons_raw > 8
        doc: |
          The serialized objects in [+0x18, +0x10 + len_jsons), parsed back to back like
          ALERT does (the parse buffer starts at +0x18). The gaps ALERT mentions between
          objects break such a parse (ALERT then silently shows nothing); the raw bytes stay
          in `jsons_raw`. Status partly KNOWN.
      records:
        pos: 16 + len_jsons_raw
        type: trigger_record
        repeat: expr
        repeat-expr: num_records
        doc: Lazy typed view of `records_raw`.

  trigger_record:
    -webide-representation: 'a={a} b={b} c={c:dec} d={d:dec} e={e}'
    doc: One 16-byte trigger record (ALERT names a..e).
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: a
        type: u4
        doc: |
          Repeats within a section; the same values appear in different assets ("ids or
          hashes of something common?"). Status UNKNOWN.
      - id: b
        type: u4
        doc: |
          Mostly 0; sometimes equals the section's `unk1` (a trigger joint-name hash),
          sometimes other values. Status LABELLED.
      - id: c
        type: u2
        doc: Only 0 or 1 observed. Status LABELLED.
      - id: d
        type: u2
        doc: Records are sorted by `d` or by `e`. Status LABELLED.
      - id: e
        type: u4
        doc: See `d`. Status UNKNOWN.

  trigger_joint_names:
    doc: |
      Section 0x74FC0175 "Anim Clip Trigger Joint Names" (ALERT class x74FC0175_Section):
      1 to 4 u32 joint-name hashes (CRC32) used by triggers (ALERT prints "joint nm").
      Status: layout KNOWN, role LABELLED.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: hashes_raw
        size: 4 * (_io.size / 4)
        doc: The hashes as little-endian bytes (bulk readers take these).
      - id: trailing
        size-eos: true
        doc: 0-3 bytes left if the size is not a multiple of 4 (never recorded).
    instances:
      hashes:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: The joint-name hashes. Status KNOWN.

  geom_samples:
    doc: |
      Section 0x1722FAEF "Anim Clip Geom Samples" (ALERT class x1722FAEF_Section), rare
      (2 / 49 / 7 assets in MSMR / MM / RCRA), sizes observed as multiples of 4; always with
      Geom Sample Data. ALERT views it as u32 words. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  geom_sample_data:
    doc: |
      Section 0x411852D5 "Anim Clip Geom Sample Data" (ALERT class x411852D5_Section): an
      opaque byte stream (sizes such as 83090 are not multiples of 4), up to 11.6 MB.
      ALERT's u32 view (and its re-serialiser) drops the last size % 4 bytes; `data_raw`
      keeps them. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        doc: Lazy u32 view of the first 4*num_words bytes (ALERT's view).

  morph_info:
    doc: |
      Section 0x277563F5 "Anim Clip Morph Info" (ALERT class x277563F5_Section), at least 28
      bytes; always with Morph Frame Data (presumably blend-shape weights). ALERT views it as
      u32 words. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  morph_frame_data:
    doc: |
      Section 0x69F64588 "Anim Clip Morph Frame Data" (ALERT class x69F64588_Section), 4 bytes
      up to about 390 KB; always with Morph Info. ALERT views it as u32 words. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  pose_phoneme_visems_map:
    doc: |
      Section 0x1D4BD9FA "Anim Clip Pose Phoneme Visems Map" (ALERT class x1D4BD9FA_Section),
      exactly 80 bytes, in about 20 assets per game (facial animation); always with Pose
      Expression Id Map. ALERT views it as u32 words. Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        -webide-parse-mode: eager
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  pose_expression_id_map:
    doc: |
      Section 0x495BA079 "Anim Clip Pose Expression Id Map" (ALERT class x495BA079_Section),
      104..272 bytes; always with Pose Phoneme Visems Map. ALERT views it as u32 words.
      Status UNKNOWN.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/animclip/autogen.py
    seq:
      - id: data_raw
        size-eos: true
        doc: The whole payload. Status UNKNOWN.
    instances:
      num_words:
        value: _io.size / 4
        doc: Number of whole u32 words.
      words:
        pos: 0
        type: u4
        repeat: expr
        repeat-expr: num_words
        -webide-parse-mode: eager
        doc: Lazy u32 view of `data_raw` (ALERT's view).
      floats:
        pos: 0
        type: f4
        repeat: expr
        repeat-expr: _io.size / 4
        doc: Lazy f32 view of `data_raw`, for exploration.

  serialized_object_list:
    doc: |
      Insomniac serialized objects (binary JSON-like encoding) parsed back to back until the
      buffer ends: the root object and ALERT's "extras". Used by Trigger Data, whose parse
      buffer starts at section offset +0x18. MSMR/MM/RCRA forms only (SO differs).
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    seq:
      - id: objects
        type: serialized_object(_io.pos)
        repeat: eos
        doc: The objects, in order. Status partly KNOWN.

  serialized_object:
    -webide-representation: '{num_children:dec} children, {len_body:dec} bytes'
    doc: |
      One serialized object: a 16-byte header, then `len_body` bytes holding the child
      descriptors, key-name offsets, values and padding. Alignment (strings, object end) is
      measured from the start of the parse buffer, hence the `ofs_start` parameter.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    params:
      - id: ofs_start
        type: u4
        doc: Offset of this object from the start of the parse buffer.
    seq:
      - id: zero
        type: u4
        doc: Always 0. Status KNOWN.
      - id: marker
        type: u4
        enum: serialized_marker
        doc: |
          0x03150044 (bytes 44 00 15 03); SO may also use 0x07201969. A payload starts with
          the bytes 00 00 00 00 44 00 15 03. Status KNOWN.
      - id: num_children
        type: u4
        doc: C, the number of children (key/value pairs). Status KNOWN.
      - id: len_body
        type: u4
        doc: L, the number of bytes after this header that belong to the object. Status KNOWN.
      - id: body
        type: serialized_object_body(num_children, ofs_start + 16)
        size: len_body
        doc: The object's content. Status KNOWN.

  serialized_object_body:
    doc: |
      Content of a serialized object: C child descriptors, C key-name offsets, the C values,
      then zero padding to a multiple of 4 (from the parse-buffer start) up to L bytes.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    params:
      - id: num_children
        type: u4
        -count-shared-by: [key_names, values]
        doc: |
          C. One count for three parallel arrays (`children`, `key_names`, `values`), so
          it cannot carry the name of each, as the compiler's style check asks;
          `-count-shared-by` lists the other two for tools/ksc.js.
      - id: ofs_io
        type: u4
        doc: Parse-buffer offset of this substream's first byte.
    seq:
      - id: children
        type: serialized_child
        repeat: expr
        repeat-expr: num_children
        doc: The child descriptors (8 bytes each). Status KNOWN.
      - id: key_names
        type: serialized_key_name
        repeat: expr
        repeat-expr: num_children
        doc: The key-name string offsets (4 bytes each). Status KNOWN.
      - id: values
        type: serialized_value(children[_index].value_type, children[_index].num_elements, ofs_io)
        repeat: expr
        repeat-expr: num_children
        doc: |
          The values, in child order, packed without alignment (except string and object
          padding). A value type this spec does not know consumes nothing, so what follows is
          misread (ALERT fails there too). Status KNOWN.
      - id: trailing
        size-eos: true
        doc: Padding to a multiple of 4 and anything else up to L. Status KNOWN.

  serialized_child:
    -webide-representation: '{key_hash} {value_type} x{num_elements:dec}'
    doc: One 8-byte child descriptor of a serialized object.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    seq:
      - id: key_hash
        type: u4
        doc: CRC32 of the key name (not normalised). Status KNOWN.
      - id: flags
        type: u2
        doc: Bits 4..15 are the element count; bits 0..3 are UNKNOWN. Status KNOWN (count).
      - id: unk
        type: u1
        doc: ALERT writes 0. Status UNKNOWN.
      - id: value_type
        type: u1
        enum: serialized_type
        doc: Type of the value's elements. Status KNOWN.
    instances:
      num_elements:
        value: flags >> 4
        -webide-parse-mode: eager
        doc: Element count; 1 means a scalar, any other value an array of that many elements.
      is_array:
        value: num_elements != 1
        doc: True for an array value.

  serialized_key_name:
    -webide-representation: '{ofs_name}'
    doc: |
      A key-name string offset. ALERT resolves it DAT1-absolute (convention A); no real file
      has confirmed that. A validator may report (not reject) a name that does not resolve or
      whose CRC32 differs from the child's `key_hash`. The name is read from the DAT1 of the
      file being parsed, `_root.dat1` (objects nest to any depth, so no fixed `_parent` chain
      reaches it, and a stream handed down as a parameter would show in the Web IDE's tree):
      parse the whole file (outer header and DAT1, an LZ4 body decompressed first) for names;
      with type `dat1` parsed on its own, `name` cannot be read.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    seq:
      - id: ofs_name
        type: u4
        doc: DAT1-absolute offset of the key name (per ALERT). Status LABELLED.
    instances:
      name:
        io: _root.dat1._io
        pos: ofs_name
        type: strz
        encoding: UTF-8
        doc: The key name, read at DAT1 offset `ofs_name`. Status LABELLED.

  serialized_value:
    doc: The value of one child, `num_elements` elements of `value_type` (1 = scalar).
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    params:
      - id: value_type
        type: u1
        enum: serialized_type
        doc: The child's value type.
      - id: num_elements
        type: u2
        doc: The child's element count.
      - id: ofs_io
        type: u4
        doc: Parse-buffer offset of the current stream's first byte.
    seq:
      - id: elements
        type: serialized_element(value_type, ofs_io)
        repeat: expr
        repeat-expr: num_elements
        doc: The elements. Status KNOWN.

  serialized_element:
    doc: |
      One element of a serialized value; exactly one of the `value_*` fields is present,
      chosen by `value_type`.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    params:
      - id: value_type
        type: u1
        enum: serialized_type
        doc: The element type.
      - id: ofs_io
        type: u4
        doc: Parse-buffer offset of the current stream's first byte.
    seq:
      - id: value_u1
        type: u1
        if: value_type == serialized_type::uint8
        doc: Type 0x00, u8. Status KNOWN.
      - id: value_u2
        type: u2
        if: value_type == serialized_type::uint16
        doc: Type 0x01, u16. Status KNOWN.
      - id: value_u4
        type: u4
        if: value_type == serialized_type::uint32 or value_type == serialized_type::so_four_bytes
        doc: Type 0x02, u32 (also SO's 4-byte type 0x0B). Status KNOWN.
      - id: value_s1
        type: s1
        if: value_type == serialized_type::int8
        doc: Type 0x04, i8. Status KNOWN.
      - id: value_s2
        type: s2
        if: value_type == serialized_type::int16
        doc: Type 0x05, i16. Status KNOWN.
      - id: value_s4
        type: s4
        if: value_type == serialized_type::int32
        doc: Type 0x06, i32. Status KNOWN.
      - id: value_f4
        type: f4
        if: value_type == serialized_type::float32
        doc: Type 0x08, f32. Status KNOWN.
      - id: value_string
        type: serialized_string(ofs_io)
        if: value_type == serialized_type::string
        doc: Type 0x0A, string. Status KNOWN.
      - id: value_object
        type: serialized_object(ofs_io + _io.pos)
        if: value_type == serialized_type::object or value_type == serialized_type::so_object
        doc: Type 0x0D (SO also 0x2D), nested object. Status KNOWN.
      - id: value_bool
        type: u1
        if: value_type == serialized_type::boolean
        doc: Type 0x0F, bool (non-zero = true). Status KNOWN.
      - id: value_instance_id
        type: u8
        if: value_type == serialized_type::instance_id
        doc: Type 0x11, instance ID (u64). Status KNOWN.
      - id: value_null
        type: u1
        if: value_type == serialized_type::null_value
        doc: Type 0x13, null (one byte, 0). Status KNOWN.

  serialized_string:
    -webide-representation: '{text}'
    doc: |
      A serialized string value (MSMR/MM/RCRA form; SO uses a 12-byte header): length, CRC32,
      CRC64, the bytes, a NUL, and padding to a multiple of 4 from the parse-buffer start.
    doc-ref: https://github.com/Tkachov/ALERT/blob/bc90ed9/dat1lib/types/sections/__init__.py
    params:
      - id: ofs_io
        type: u4
        doc: Parse-buffer offset of the current stream's first byte.
    seq:
      - id: len_text
        type: u4
        doc: Length of the text in bytes. Status KNOWN.
      - id: crc32
        type: u4
        doc: CRC32 of the string (not normalised). Status KNOWN.
      - id: crc64
        type: u8
        doc: CRC64 of the string (ALERT's CRC64). Status KNOWN.
      - id: text
        type: str
        size: len_text
        encoding: UTF-8
        doc: The text. Status KNOWN.
      - id: terminator
        type: u1
        doc: NUL. Status KNOWN.
      - id: padding
        size: (4 - (ofs_io + _io.pos) % 4) % 4
        doc: Zero padding to a multiple of 4 (parse-buffer-relative). Status KNOWN.

enums:
  asset_type:
    0xc96f58f3:
      id: animclip_msmr_mm
      doc: "AnimClip: Marvel's Spider-Man Remastered and Miles Morales (bytes F3 58 6F C9). KNOWN."
    0x0f64ffe8:
      id: animclip_rcra
      doc: 'AnimClipRcra: Ratchet & Clank Rift Apart (bytes E8 FF 64 0F). KNOWN.'
    0x39ac933c:
      id: animclip_2
      doc: |
        AnimClip2 (bytes 3C 93 AC 39): added with ALERT's "second generation" magics (commit
        660edb5); game not stated. LABELLED.
    0x41dffb44:
      id: animclip_msm2
      doc: |
        Spider-Man 2 ("i30", bytes 44 FB DF 41): the type Luna Engine IO Tools writes in the
        DAT1 header and the STG asset header (anim_export.py, `DAT1_VERSION_HASH_I30`).
        EXTERNAL.
  section_tag:
    0x9df23f77:
      id: built
      doc: '"Anim Clip Built", 96 bytes.'
    0x2bb5bc8f:
      id: base_state
      doc: '"Anim Clip Base State".'
    0xa3b26640:
      id: joint_hashes
      doc: '"Anim Clip Joint Hashes".'
    0x3976e44c:
      id: path
      doc: '"Anim Clip Path", 128 bytes.'
    0x14014cb6:
      id: custom_tracks
      doc: '"Anim Clip Custom Tracks", 40-byte entries.'
    0x116eb684:
      id: custom_track_data
      doc: '"Anim Clip Custom Track Data".'
    0x09dc30ab:
      id: curves
      doc: '"Anim Clip Curves", 240 bytes (one asset).'
    0x4fc98d7e:
      id: curves_data
      doc: '"Anim Clip Curves Data" (one asset).'
    0xe08aa35f:
      id: motion_data
      doc: '"Anim Clip Motion Data".'
    0xd070d358:
      id: sample_elem
      doc: '"Anim Clip Sample Elem".'
    0x3a7b4855:
      id: sample_data
      doc: '"Anim Clip Sample Data".'
    0x6962f7de:
      id: trigger_data
      doc: '"Anim Clip Trigger Data".'
    0x74fc0175:
      id: trigger_joint_names
      doc: '"Anim Clip Trigger Joint Names".'
    0x1722faef:
      id: geom_samples
      doc: '"Anim Clip Geom Samples".'
    0x411852d5:
      id: geom_sample_data
      doc: '"Anim Clip Geom Sample Data".'
    0x277563f5:
      id: morph_info
      doc: '"Anim Clip Morph Info".'
    0x69f64588:
      id: morph_frame_data
      doc: '"Anim Clip Morph Frame Data".'
    0x1d4bd9fa:
      id: pose_phoneme_visems_map
      doc: '"Anim Clip Pose Phoneme Visems Map", 80 bytes.'
    0x495ba079:
      id: pose_expression_id_map
      doc: '"Anim Clip Pose Expression Id Map".'
    0x8a9598e1:
      id: sample_data_resident
      doc: '"Anim Clip Sample Data Resident" (Spider-Man 2; Luna hashes.py).'
    0x02ea708a:
      id: sample_data_paged
      doc: '"Anim Clip Sample Data Paged" (Spider-Man 2; Luna hashes.py).'
    0xfb110305:
      id: markers
      doc: '"Anim Clip Markers" (Spider-Man 2; Luna hashes.py).'
    0xdbf17de9:
      id: tracks_data
      doc: '"Anim Clip Tracks Data" (Spider-Man 2; Luna hashes.py).'
    0x3111367a:
      id: geom_mesh_info
      doc: '"Anim Clip Geom Mesh Info" (Spider-Man 2; Luna hashes.py). Layout UNKNOWN.'
    0xecdb2486:
      id: geom_mesh_sample_data
      doc: '"Anim Clip Geom Mesh Sample Data" (Spider-Man 2; Luna hashes.py). Layout UNKNOWN.'
    0x2d1e474b:
      id: spline_mesh_info
      doc: '"Anim Clip Spline Mesh Info" (Spider-Man 2; Luna hashes.py). Layout UNKNOWN.'
    0xe4e10c00:
      id: spline_mesh_samples
      doc: '"Anim Clip Spline Mesh Samples" (Spider-Man 2; Luna hashes.py). Layout UNKNOWN.'
  clip_flag:
    0x1:
      id: std
      doc: 'kFlagsStd, a standard skeletal clip (Luna constants.py, flags.py).'
    0x2:
      id: curves
      doc: 'kFlagsCurves (Luna constants.py, flags.py).'
    0x4:
      id: facial_poses
      doc: 'kFlagsFacialPoses (Luna constants.py, flags.py).'
    0x8:
      id: performance
      doc: 'kFlagsPerformance (Luna constants.py, flags.py).'
    0x10:
      id: camera
      doc: 'kFlagsCamera, a camera clip (Luna constants.py, flags.py).'
    0x20:
      id: looping
      doc: 'kFlagsIsLooping: the clip loops; the frame lookup and Motion Data hold one more entry (Luna constants.py, flags.py).'
    0x40:
      id: additive
      doc: 'kFlagsIsAdditive (Luna constants.py, flags.py).'
    0x80:
      id: partial
      doc: 'kFlagsIsPartial (Luna constants.py, flags.py).'
    0x100:
      id: has_phase
      doc: 'kFlagsHasPhase (Luna constants.py, flags.py).'
    0x200:
      id: constant_phase
      doc: 'kFlagsConstantPhase (Luna constants.py, flags.py).'
    0x400:
      id: embedded
      doc: 'kFlagsIsEmbedded (Luna constants.py, flags.py).'
    0x1000:
      id: partial_motion
      doc: 'kFlagsPartialMotion (Luna constants.py, flags.py).'
    0x2000:
      id: locator
      doc: 'kFlagsLocator (Luna constants.py, flags.py).'
    0x8000:
      id: user_pose
      doc: 'kFlagsUserPose (Luna constants.py, flags.py).'
    0x10000:
      id: frame_data_lookup
      doc: 'kFlagsFrameDataLookup: Sample Data starts with the u16 frame lookup table (Luna constants.py, flags.py).'
    0x20000:
      id: stream_frame_data
      doc: 'kFlagsStreamFrameData (Luna constants.py, flags.py).'
    0x40000:
      id: cinematic
      doc: 'kFlagsCinematic (Luna constants.py, flags.py).'
    0x80000:
      id: uncompressed
      doc: 'kFlagsUncompressed (Luna constants.py, flags.py).'
    0x100000:
      id: has_anim_morph
      doc: 'kAnimFlagsHasAnimMorph (Luna constants.py, flags.py).'
    0x200000:
      id: has_anim_geom
      doc: 'kAnimFlagsHasAnimGeom (Luna constants.py, flags.py).'
    0x400000:
      id: has_events
      doc: 'kAnimFlagsHasEvents (Luna constants.py, flags.py).'
    0x800000:
      id: has_motion
      doc: 'kAnimFlagsHasMotion: root motion in Motion Data (Luna constants.py, flags.py).'
    0x1000000:
      id: has_custom_tracks
      doc: 'kAnimFlagsHasCustomTracks (Luna constants.py, flags.py).'
    0x2000000:
      id: has_facial
      doc: 'kAnimFlagsHasFacial (Luna constants.py, flags.py).'
    0x4000000:
      id: has_anim_ziva
      doc: 'kAnimFlagsHasAnimZiva (Luna constants.py, flags.py).'
    0x8000000:
      id: has_motion_samples
      doc: 'kAnimFlagsHasMotionSamples (Luna constants.py, flags.py).'
    0x40000000:
      id: has_geom_cache
      doc: 'kAnimFlagsHasGeomCache (Luna constants.py, flags.py).'
    0x80000000:
      id: motion_delta
      doc: 'kAnimFlagMotionDelta (Luna constants.py, flags.py).'
  packed_component:
    0:
      id: scale_x
      doc: 'Scale x.'
    1:
      id: scale_y
      doc: 'Scale y.'
    2:
      id: scale_z
      doc: 'Scale z.'
    3:
      id: scale_divisor
      doc: 'The scale divisor (base 2^log_scale).'
    4:
      id: rot_x
      doc: 'Rot x.'
    5:
      id: rot_y
      doc: 'Rot y.'
    6:
      id: rot_z
      doc: 'Rot z.'
    7:
      id: rot_w
      doc: 'Rot w.'
    8:
      id: pos_x
      doc: 'Pos x.'
    9:
      id: pos_y
      doc: 'Pos y.'
    10:
      id: pos_z
      doc: 'Pos z.'
    11:
      id: pos_shift
      doc: The shift of the translation (log_scale2).
  motion_type:
    0:
      id: standard
      doc: 16-byte samples (Luna motion.py).
    1:
      id: full
      doc: 32-byte samples (Luna keeps them undecoded).
  serialized_marker:
    0x03150044:
      id: standard
      doc: The marker of MSMR/MM/RCRA serialized objects.
    0x07201969:
      id: sunset_overdrive
      doc: An alternative marker seen in Sunset Overdrive.
  serialized_type:
    0x00:
      id: uint8
      doc: u8.
    0x01:
      id: uint16
      doc: u16.
    0x02:
      id: uint32
      doc: u32.
    0x04:
      id: int8
      doc: i8.
    0x05:
      id: int16
      doc: i16.
    0x06:
      id: int32
      doc: i32.
    0x08:
      id: float32
      doc: f32.
    0x0a:
      id: string
      doc: String (length, CRC32, CRC64, bytes, NUL, padding to 4).
    0x0b:
      id: so_four_bytes
      doc: 4 bytes (Sunset Overdrive only).
    0x0d:
      id: object
      doc: Nested object (full 16-byte header, recursive).
    0x0f:
      id: boolean
      doc: Bool, 1 byte, non-zero = true.
    0x11:
      id: instance_id
      doc: Instance ID, u64.
    0x13:
      id: null_value
      doc: Null, 1 byte (0).
    0x2d:
      id: so_object
      doc: Object (Sunset Overdrive only).
