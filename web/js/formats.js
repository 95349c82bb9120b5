/*
 * formats.js: which spec a file is, parsing it with the JavaScript parser generated from
 * ksy/, inflating LZ4-compressed .animclip bodies, and plain models for the viewer.
 *
 * Runs in the browser (classic script: window.AnimFormats) and under node (require).
 * The parsers are passed in as { animbin: Animbin, animclip: Animclip, meshbin: Meshbin }
 * (the generated root classes, compiled with --debug) plus the KaitaiStream runtime.
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.AnimFormats = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var MAGICS = { animbin: 'ANIMBIN', meshbin: 'MESHBIN' };
  /** Outer asset-header magics of .animclip files (enum asset_type in ksy/animclip.ksy). */
  var ANIMCLIP_MAGICS = [0xc96f58f3, 0x0f64ffe8, 0x39ac933c, 0x41dffb44];
  var STG_MAGIC = 0x00475453; // "STG\0" as u32le: Spider-Man 2's wrapper (asset type at offset 16)
  var EXTENSIONS = { animbin: 'animbin', meshbin: 'meshbin', animclip: 'animclip', performanceclip: 'animclip' };
  var DAT1_MAGIC = 0x44415431; // "1TAD" as u32le
  var OUTER_HEADER_SIZE = 36;
  var MAX_DAT1_SIZE = 1 << 30;
  /**
   * The most a DAT1 may expand from its LZ4 block: 64x the block, plus 64 bytes
   * (python/animspec/animclip/reading.py LZ4_MAX_RATIO and lz4_max_size). A larger declared
   * size is refused before anything is allocated: a 61-byte file declaring 1 GiB is a bomb.
   */
  var LZ4_MAX_RATIO = 64;

  function lz4MaxSize(compressedSize) {
    return LZ4_MAX_RATIO * compressedSize + 64;
  }

  function u32le(b, o) {
    return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
  }

  function startsWith(bytes, ascii) {
    if (bytes.length < ascii.length) return false;
    for (var i = 0; i < ascii.length; i++) if (bytes[i] !== ascii.charCodeAt(i)) return false;
    return true;
  }

  /** 'animbin' | 'meshbin' | 'animclip' | null, by magic first, then by file extension. */
  function detect(bytes, fileName) {
    if (startsWith(bytes, MAGICS.animbin)) return 'animbin';
    if (startsWith(bytes, MAGICS.meshbin)) return 'meshbin';
    if (bytes.length >= 4 && ANIMCLIP_MAGICS.indexOf(u32le(bytes, 0)) >= 0) return 'animclip';
    // Spider-Man 2: an STG wrapper or a bare DAT1, either with an animclip asset type
    if (bytes.length >= 20 && u32le(bytes, 0) === STG_MAGIC && ANIMCLIP_MAGICS.indexOf(u32le(bytes, 16)) >= 0) return 'animclip';
    if (bytes.length >= 8 && u32le(bytes, 0) === DAT1_MAGIC && ANIMCLIP_MAGICS.indexOf(u32le(bytes, 4)) >= 0) return 'animclip';
    var m = /\.([A-Za-z0-9]+)$/.exec(fileName || '');
    return (m && EXTENSIONS[m[1].toLowerCase()]) || null;
  }

  /** A standalone ArrayBuffer holding exactly these bytes (note 5e: not a pooled Buffer). */
  function toArrayBuffer(data) {
    if (data instanceof ArrayBuffer) return data;
    var view = data instanceof Uint8Array ? data : new Uint8Array(data);
    return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
  }

  /**
   * Parse with a debug-mode generated class. Returns { root, error }: on failure `root` is
   * the partly read tree (debug parsers keep what they read) and `error` the exception.
   */
  function parseWith(Cls, KaitaiStream, data) {
    var root = new Cls(new KaitaiStream(toArrayBuffer(data)));
    var error = null;
    try {
      root._read();
    } catch (e) {
      error = e;
    }
    return { root: root, error: error };
  }

  // --- LZ4 (raw block format, no frame header) ----------------------------------------------

  /**
   * Decode one LZ4 block into exactly `size` bytes (the standard LZ4 block format, as
   * Tkachov/ALERT's dat1lib/decompression.py decodes it).
   * Throws on malformed input or when the output is not exactly `size` bytes long.
   */
  function lz4DecodeBlock(src, size) {
    var out = new Uint8Array(size);
    var ip = 0, op = 0, n = src.length;
    function length(base) {
      var len = base;
      if (base === 15) {
        var b;
        do {
          if (ip >= n) throw new Error('LZ4: truncated length');
          b = src[ip++];
          len += b;
        } while (b === 255);
      }
      return len;
    }
    while (ip < n) {
      var token = src[ip++];
      var lit = length(token >> 4);
      if (ip + lit > n) throw new Error('LZ4: literals run past the input');
      if (op + lit > size) throw new Error('LZ4: output larger than ' + size + ' bytes');
      out.set(src.subarray(ip, ip + lit), op);
      ip += lit;
      op += lit;
      if (ip >= n) break;
      if (ip + 2 > n) throw new Error('LZ4: truncated match offset');
      var offset = src[ip] | (src[ip + 1] << 8);
      ip += 2;
      if (offset === 0 || offset > op) throw new Error('LZ4: bad match offset ' + offset + ' at output ' + op);
      var mlen = length(token & 15) + 4;
      if (op + mlen > size) throw new Error('LZ4: output larger than ' + size + ' bytes');
      for (var i = 0; i < mlen; i++, op++) out[op] = out[op - offset];
    }
    if (op !== size) throw new Error('LZ4: decoded ' + op + ' bytes, expected ' + size);
    return out;
  }

  /**
   * If the .animclip body (after the 36-byte outer header) is one LZ4 block (ALERT's rule,
   * as in ksy/animclip.ksy `is_lz4_compressed`), the file with the body decompressed;
   * otherwise null. Candidate sizes: the DAT1 header's own size inside the first literals,
   * then the outer header's len_dat1 (as python/animspec/animclip/compression.py).
   */
  function inflateAnimclip(bytes) {
    if (bytes.length < OUTER_HEADER_SIZE + 7) return null;
    var body = bytes.subarray(OUTER_HEADER_SIZE);
    if (u32le(body, 0) === DAT1_MAGIC) return null;
    var at = -1;
    [2, 1, 3].some(function (o) { if (u32le(body, o) === DAT1_MAGIC) { at = o; return true; } return false; });
    if (at < 0) return null;
    var candidates = [];
    if (body.length >= at + 12) candidates.push(u32le(body, at + 8));
    var outer = u32le(bytes, 4);
    if (candidates.indexOf(outer) < 0) candidates.push(outer);
    var problems = [];
    for (var i = 0; i < candidates.length; i++) {
      var size = candidates[i];
      if (size > MAX_DAT1_SIZE) { problems.push(size + ' bytes is too large'); continue; }
      if (size > lz4MaxSize(body.length)) {
        problems.push(size + ' bytes is more than ' + LZ4_MAX_RATIO + 'x the ' + body.length + '-byte block (an LZ4 bomb, not an animation)');
        continue;
      }
      try {
        var dat1 = lz4DecodeBlock(body, size);
        if (u32le(dat1, 8) !== size) { problems.push('size field differs after decoding to ' + size); continue; }
        var whole = new Uint8Array(OUTER_HEADER_SIZE + size);
        whole.set(bytes.subarray(0, OUTER_HEADER_SIZE), 0);
        whole.set(dat1, OUTER_HEADER_SIZE);
        return { bytes: whole, magicOffset: at, compressedSize: body.length, size: size };
      } catch (e) {
        problems.push(e.message);
      }
    }
    return { error: 'LZ4 body does not decode: ' + problems.join('; ') };
  }

  /**
   * Detect and parse. Returns { format, root, error, inflated } where `inflated` describes
   * an LZ4 body that was decompressed (then `root` is the parse of the decompressed file).
   */
  function parseFile(data, fileName, parsers, KaitaiStream, opts) {
    opts = opts || {};
    var bytes = new Uint8Array(toArrayBuffer(data));
    var format = opts.format || detect(bytes, fileName);
    if (!format) return { format: null, root: null, error: new Error('not an ANIMBIN, MESHBIN or .animclip file (unknown magic)') };
    var Cls = parsers[format];
    if (!Cls) return { format: format, root: null, error: new Error('no parser for ' + format) };
    var inflated = null;
    if (format === 'animclip' && opts.inflate !== false) {
      inflated = inflateAnimclip(bytes);
      if (inflated && inflated.bytes) bytes = inflated.bytes;
    }
    var r = parseWith(Cls, KaitaiStream, bytes);
    return { format: format, root: r.root, error: r.error, inflated: inflated, size: bytes.length };
  }

  // --- parse errors ---------------------------------------------------------------------------

  function isStruct(v) {
    return v !== null && typeof v === 'object' && '_io' in v && '_root' in v && '_parent' in v;
  }

  /**
   * Where a debug-mode parse stopped: the field path and absolute byte offset, found by
   * walking the partial tree along the last field started at each level (the algorithm of
   * python/animspec/kaitai_read.py locate_failure). Segments: {name (generated JS name,
   * `_m_` prefix for instances), index (arrays), owner (the object holding the field)}.
   */
  function locateFailure(root) {
    var obj = root, segments = [], offset = null;
    for (var guard = 0; guard < 1000; guard++) {
      var debug = obj && obj._debug;
      var keys = debug ? Object.keys(debug) : [];
      if (!keys.length) break;
      var name = keys[keys.length - 1];
      var entry = debug[name];
      var start = entry.start, base = entry.ioOffset || 0;
      var child = obj[name];
      var seg = { name: name, owner: obj };
      if (entry.arr) {
        if (entry.arr.length) {
          var index = entry.arr.length - 1;
          seg.index = index;
          if (entry.arr[index].start !== undefined) { start = entry.arr[index].start; base = entry.arr[index].ioOffset || 0; }
          child = Array.isArray(child) && child.length > index ? child[index] : null;
        } else child = null;
      }
      segments.push(seg);
      offset = start === undefined ? null : base + start;
      if (!isStruct(child) || !child._debug) break;
      obj = child;
    }
    return { segments: segments, offset: offset };
  }

  function showValue(v) {
    if (v instanceof Uint8Array) {
      var text = true;
      for (var i = 0; i < v.length; i++) if (v[i] < 32 || v[i] > 126) text = false;
      if (text) return JSON.stringify(latin1(v));
      return Array.prototype.map.call(v, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join(' ');
    }
    return String(v);
  }

  /** A sentence for a parse error, like python/animspec/kaitai_read.py describe(). */
  function describeError(e) {
    if (!e) return '';
    if (e.name === 'EOFError' && e.bytesReq !== undefined) {
      return 'data ends too early: the field needs ' + e.bytesReq + ' bytes, only ' + e.bytesAvail + ' remain';
    }
    if (e.name === 'ValidationNotEqualError') return 'expected ' + showValue(e.expected) + ', found ' + showValue(e.actual);
    if (/^Validation/.test(e.name || '') && e.actual !== undefined) return 'value ' + showValue(e.actual) + ' is not allowed here';
    return String(e.message || e);
  }

  // --- plain models ---------------------------------------------------------------------------

  function latin1(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return s;
  }

  function nameOf(field) {
    var text = field.text || new Uint8Array(0);
    var padding = field.padding || new Uint8Array(0);
    var tail = padding.subarray(1);
    var end = tail.length;
    while (end > 0 && tail[end - 1] === 0) end--;
    return { text: latin1(text), bytes: text, terminated: text.length < 32, tail: tail.subarray(0, end) };
  }

  /**
   * The ANIMBIN model the validator and the engine use (mirrors python/animspec/animbin/model.py):
   * keys are {frame, keyType, w, x, y, z} (ROTATION), {frame, keyType, x, y, z} (TRANSLATION)
   * or {frame, keyType} (any other type: no payload).
   */
  function animbinModel(root) {
    return {
      version: root.version,
      trailing: root.trailing ? root.trailing.length : 0,
      animations: (root.animations || []).map(function (a, i) {
        var name = nameOf(a.name);
        return {
          index: i,
          name: name.text,
          nameInfo: name,
          flags: a.flags >>> 0,
          length: a.length,
          isLooping: (a.flags & 1) !== 0,
          tracks: a.tracks.map(function (t) {
            return {
              trackType: t.trackType,
              jointId: t.jointId,
              keys: t.keys.map(function (k) {
                if (k.keyType === 0) return { frame: k.frame, keyType: 0, w: k.value.w, x: k.value.x, y: k.value.y, z: k.value.z };
                if (k.keyType === 1) return { frame: k.frame, keyType: 1, x: k.value.x, y: k.value.y, z: k.value.z };
                return { frame: k.frame, keyType: k.keyType };
              }),
            };
          }),
          markers: a.markers.map(function (m) {
            var mn = nameOf(m.name);
            return { name: mn.text, nameInfo: mn, frame: m.frame };
          }),
        };
      }),
    };
  }

  /** Mesh and skeleton of a MESHBIN parse (raw integers, the console's model space: +Z down). */
  function meshbinModel(root) {
    var hasSkeleton = !!root.hasSkeletonData;
    return {
      version: root.version,
      vertices: root.vertices.map(function (v) { return [v.x, v.y, v.z]; }),
      colours: root.vertexColours.map(function (c) { return [c.r, c.g, c.b]; }),
      quads: root.vertexIndices.map(function (q) { return [q.i0, q.i1, q.i2, q.i3]; }),
      numFaces: root.numFaces,
      declaredBones: root.numBonesDeclared === undefined ? 0 : root.numBonesDeclared,
      bones: hasSkeleton ? root.bones.map(function (b) {
        return { parent: b.parent, position: [b.position.x, b.position.y, b.position.z], rotation: [b.rotation.w, b.rotation.x, b.rotation.y, b.rotation.z] };
      }) : [],
      boneForVertex: hasSkeleton ? Array.prototype.slice.call(root.boneForVertex) : [],
    };
  }

  return {
    detect: detect,
    toArrayBuffer: toArrayBuffer,
    parseWith: parseWith,
    parseFile: parseFile,
    locateFailure: locateFailure,
    describeError: describeError,
    lz4DecodeBlock: lz4DecodeBlock,
    inflateAnimclip: inflateAnimclip,
    lz4MaxSize: lz4MaxSize,
    LZ4_MAX_RATIO: LZ4_MAX_RATIO,
    animbinModel: animbinModel,
    meshbinModel: meshbinModel,
    latin1: latin1,
    ANIMCLIP_MAGICS: ANIMCLIP_MAGICS,
  };
});
