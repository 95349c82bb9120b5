/*
 * clip.js: every frame of an .animclip / .performanceclip, decoded in the browser from the
 * fields of the parser generated from ksy/animclip.ksy (Built, Base State, Joint Hashes,
 * Sample Elem, the Sample Data block, Motion Data).
 *
 * The same decode as python/animspec/animclip/samples.py (facts in docs/animclip.md, from
 * Pcniado/luna_engine_io_tools anim_import.py, binary.py and motion.py, restated there):
 * a joint has 12 integer components (0-2 scale, 3 its divisor, 4-7 quaternion x y z w, 8-10
 * translation, 11 its shift); Base State gives their base values; each Sample Elem element
 * names a component and a bit field of the sample (width, left shift); a sample's fields
 * sit LSB-first in little-endian u32 words, small elements first; the component gets
 * base + (field << shift). Then rotation = the quaternion normalised (zero: identity),
 * translation = components 8-10 / 2^component 11, scale = 0-2 / 3 (a zero divisor counts 1).
 *
 * Everything lands in typed arrays once, at load: per distinct sample float32 scale (3),
 * rotation (4, x y z w) and translation (3) per joint, and per frame the sample it shows.
 * Playing a frame is then an index, no allocation. The component sums are float64: every
 * i16 base plus deltas of at most 52 bits is exact there, as in the Python decoder.
 *
 * Runs in the browser (classic script: window.AnimClip) and under node (require).
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.AnimClip = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var COMPONENTS = 12;
  var FLAG_LOOPING = 0x20;
  var FLAG_CAMERA = 0x10;
  var FLAG_FRAME_LOOKUP = 0x10000;
  var MAX_FIELD_BITS = 32;
  var MAX_DELTA_BITS = 52; // width + shift beyond this is not exact in float64: refused
  var LOOKUP_ALIGN = 16;
  var MOTION_FLAG_HAS_MOTION = 0x02;
  var MOTION_FLAG_SECONDARY = 0x04;
  var MOTION_LOG_SCALE_MAX = 16;
  var MAX_RESULT_BYTES = 512 * 1024 * 1024; // a forged count must not make the tab allocate gigabytes
  var BYTES_PER_JOINT = 40; // float32 scale 3 + rotation 4 + translation 3

  function ClipDecodeError(field, message) {
    var e = new Error(message);
    e.name = 'ClipDecodeError';
    e.field = field;
    return e;
  }

  function sectionBody(dat1, tag) {
    var found = null;
    dat1.sections.forEach(function (s) { if (s.tag === tag) found = s; });
    return found ? found.body : null;
  }

  /** Built's fields the decode uses; which Sample Data block (as clip_sections in pose.py). */
  function coding(built, paged, hasResident) {
    var frames = built.numFrames;
    var fps = built.fps;
    if (!paged && hasResident && built.numResidentSamples) {
      frames = built.numResidentSamples;
      if (built.residentFps > 0) fps = built.residentFps;
    }
    return {
      flags: built.flags, fps: fps, duration: built.duration, joints: built.numJoints,
      elements: built.numElems, largeElements: built.numLargeElems, stride: built.stride, frames: frames,
      looping: !!(built.flags & FLAG_LOOPING), camera: !!(built.flags & FLAG_CAMERA),
      frameLookup: !!(built.flags & FLAG_FRAME_LOOKUP),
    };
  }

  /** Built's fps, else frames / duration (frames - 1 unless looping), else 30 (clip_fps). */
  function clipFps(c) {
    if (Number.isFinite(c.fps) && c.fps > 0) return c.fps;
    var span = c.looping ? c.frames : Math.max(1, c.frames - 1);
    if (Number.isFinite(c.duration) && c.duration > 0 && c.frames > 0) return span / c.duration;
    return 30;
  }

  function baseComponents(records, joints) {
    var base = new Float64Array(joints * COMPONENTS);
    for (var j = 0; j < joints; j++) {
      var r = records[j], o = j * COMPONENTS;
      var s = Math.pow(2, r.logScale);
      base[o] = base[o + 1] = base[o + 2] = base[o + 3] = s;
      base[o + 4] = r.qx; base[o + 5] = r.qy; base[o + 6] = r.qz; base[o + 7] = r.qw;
      base[o + 8] = r.x; base[o + 9] = r.y; base[o + 10] = r.z;
      base[o + 11] = r.logScale2;
    }
    return base;
  }

  /** Sample Elem's two tables as typed columns, small elements first. */
  function elementTable(se, joints) {
    var small = se ? se.elems : [], large = se ? se.largeElems : [];
    var n = small.length + large.length;
    var t = { count: n, target: new Int32Array(n), width: new Int32Array(n), shift: new Int32Array(n), bitOffset: new Float64Array(n), bits: 0 };
    var at = 0;
    for (var e = 0; e < n; e++) {
      var isSmall = e < small.length;
      var x = isSmall ? small[e] : large[e - small.length];
      var where = isSmall ? 'sample_elem.elems[' + e + ']' : 'sample_elem.large_elems[' + (e - small.length) + ']';
      if (x.joint >= joints) throw ClipDecodeError(where + '.ofs_component', 'component offset ' + x.ofsComponent + ' is joint ' + x.joint + '; the clip has ' + joints + ' joint(s)');
      if (x.width > MAX_FIELD_BITS || x.width + x.shift > MAX_DELTA_BITS) {
        throw ClipDecodeError(where + '.code', 'a ' + x.width + '-bit field shifted left by ' + x.shift + ': fields up to ' + MAX_FIELD_BITS + ' bits and width + shift up to ' + MAX_DELTA_BITS + ' are decoded');
      }
      t.target[e] = x.componentIndex;
      t.width[e] = x.width;
      t.shift[e] = x.shift;
      t.bitOffset[e] = at;
      at += x.width;
    }
    t.bits = at;
    return t;
  }

  /** Float32 transforms of `count` rows of joints, filled from (rows x joints x 12) float64 components. */
  function dequantiseInto(comp, row, joints, out) {
    var o = row * joints;
    for (var j = 0; j < joints; j++) {
      var c = j * COMPONENTS, k = o + j;
      var d = comp[c + 3] === 0 ? 1 : comp[c + 3];
      out.scale[3 * k] = comp[c] / d;
      out.scale[3 * k + 1] = comp[c + 1] / d;
      out.scale[3 * k + 2] = comp[c + 2] / d;
      var qx = comp[c + 4], qy = comp[c + 5], qz = comp[c + 6], qw = comp[c + 7];
      var n = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
      if (n > 0) {
        out.rotation[4 * k] = qx / n; out.rotation[4 * k + 1] = qy / n; out.rotation[4 * k + 2] = qz / n; out.rotation[4 * k + 3] = qw / n;
      } else {
        out.rotation[4 * k] = out.rotation[4 * k + 1] = out.rotation[4 * k + 2] = 0; out.rotation[4 * k + 3] = 1;
      }
      var shift = Math.max(-1100, Math.min(1100, Math.trunc(comp[c + 11])));
      var f = Math.pow(2, -shift);
      if (!Number.isFinite(f)) f = 0;
      out.translation[3 * k] = comp[c + 8] * f;
      out.translation[3 * k + 1] = comp[c + 9] * f;
      out.translation[3 * k + 2] = comp[c + 10] * f;
    }
  }

  function allocate(samples, joints) {
    if (BYTES_PER_JOINT * samples * joints > MAX_RESULT_BYTES) {
      throw ClipDecodeError('built', samples + ' sample(s) of ' + joints + ' joint(s) would take ' + Math.round(BYTES_PER_JOINT * samples * joints / 1048576) + ' MiB to decode; the viewer decodes up to ' + (MAX_RESULT_BYTES >> 20) + ' MiB');
    }
    return { scale: new Float32Array(samples * joints * 3), rotation: new Float32Array(samples * joints * 4), translation: new Float32Array(samples * joints * 3) };
  }

  /**
   * The samples of a Sample Data payload (Uint8Array) the frames show. Returns
   * { samples: {scale, rotation, translation}, count, frameSample: Int32Array }.
   */
  function decodeSamples(c, base, el, data) {
    var joints = c.joints;
    var frames = Math.max(c.frames, 1);
    var comp = new Float64Array(base.length);
    if (el.count === 0 || !data || !data.length || c.frames === 0) {
      var still = allocate(1, joints);
      dequantiseInto(base, 0, joints, still);
      return { samples: still, count: 1, frameSample: new Int32Array(frames) };
    }
    if (c.stride <= 0 || c.stride % 4) throw ClipDecodeError('built.stride', 'a stride of ' + c.stride + ' bytes: samples are whole u32 words');
    if (el.bits > 8 * c.stride) throw ClipDecodeError('built.stride', "the elements' fields take " + el.bits + ' bits per sample; a ' + c.stride + '-byte stride holds ' + 8 * c.stride);
    var view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    var start = 0;
    var lookup = new Int32Array(c.frames);
    if (c.frameLookup) {
      var entries = c.frames + (c.looping ? 1 : 0);
      if (2 * entries > data.length) throw ClipDecodeError('sample_data.lookup', entries + ' u16 entries need ' + 2 * entries + ' bytes; the block holds ' + data.length);
      for (var f = 0; f < c.frames; f++) lookup[f] = view.getUint16(2 * f, true);
      start = Math.min((2 * entries + LOOKUP_ALIGN - 1) & ~(LOOKUP_ALIGN - 1), data.length);
    } else {
      for (var g = 0; g < c.frames; g++) lookup[g] = g;
    }
    var held = Math.floor((data.length - start) / c.stride);
    for (var h = 0; h < c.frames; h++) {
      if (lookup[h] >= held) {
        throw ClipDecodeError(c.frameLookup ? 'sample_data.lookup' : 'sample_data', (c.frameLookup ? 'frame ' + h + ' shows sample ' + lookup[h] : c.frames + ' frame(s) of ' + c.stride + ' bytes') + '; the block holds ' + held + ' sample(s) of ' + c.stride + ' bytes after byte ' + start);
      }
    }
    // The distinct samples the frames show, sorted (as the Python decoder keeps them): each is decoded once.
    var used = Array.from(new Set(lookup)).sort(function (a, b) { return a - b; });
    var slot = new Int32Array(held);
    used.forEach(function (s, i) { slot[s] = i; });
    var frameSample = new Int32Array(c.frames);
    for (var k = 0; k < c.frames; k++) frameSample[k] = slot[lookup[k]];
    var out = allocate(used.length, joints);
    // Per element: its first word, bit and mask (unsigned, as a float64 below 2^32) and 2^shift.
    var first = new Int32Array(el.count), bit = new Int32Array(el.count), mask = new Float64Array(el.count), scale = new Float64Array(el.count);
    var straddles = new Uint8Array(el.count);
    for (var e = 0; e < el.count; e++) {
      first[e] = Math.floor(el.bitOffset[e] / 32);
      bit[e] = el.bitOffset[e] % 32;
      mask[e] = Math.pow(2, el.width[e]) - 1;
      scale[e] = Math.pow(2, el.shift[e]);
      straddles[e] = bit[e] + el.width[e] > 32 ? 1 : 0;
    }
    for (var i = 0; i < used.length; i++) {
      comp.set(base);
      var at = start + used[i] * c.stride;
      for (var x = 0; x < el.count; x++) {
        var w = at + 4 * first[x];
        var v = view.getUint32(w, true) >>> bit[x];
        // the high part of a straddling field: the next word's low bits, above the 32 - bit taken
        if (straddles[x]) v = (v | (view.getUint32(w + 4, true) << (32 - bit[x]))) >>> 0;
        v = (v & mask[x]) >>> 0; // a 32-bit mask is -1 as an int32: keeps every bit
        comp[el.target[x]] += v * scale[x];
      }
      dequantiseInto(comp, i, joints, out);
    }
    return { samples: out, count: used.length, frameSample: frameSample };
  }

  /** Motion Data's type-0 samples: { translation: Float64Array n*3, rotation: n*4 (x y z w) } or a note. */
  function decodeMotion(md) {
    if (!md || !md.header) return { motion: null, note: '' };
    var h = md.header;
    if (h.motionType !== 0) return { motion: null, note: 'motion samples of type ' + h.motionType + ' ("full" samples) are not publicly described' };
    if (h.flags & MOTION_FLAG_SECONDARY) return { motion: null, note: 'a secondary motion stream is not publicly described' };
    if (!(h.flags & MOTION_FLAG_HAS_MOTION) || h.numSamples === 0) return { motion: null, note: '' };
    if (!md.isSamplesInRange) throw ClipDecodeError('motion_data.header.num_samples', h.numSamples + ' motion sample(s) pass the section');
    var n = md.samples.length;
    var t = new Float64Array(n * 3), q = new Float64Array(n * 4);
    for (var i = 0; i < n; i++) {
      var s = md.samples[i];
      var qx = s.qx / 32768, qy = s.qy / 32768, qz = s.qz / 32768, qw = s.qw / 32768;
      var norm = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
      if (norm > 0) { q[4 * i] = qx / norm; q[4 * i + 1] = qy / norm; q[4 * i + 2] = qz / norm; q[4 * i + 3] = qw / norm; }
      else q[4 * i + 3] = 1;
      var f = Math.pow(2, -Math.max(0, Math.min(MOTION_LOG_SCALE_MAX, s.logScale)));
      t[3 * i] = s.x * f; t[3 * i + 1] = s.y * f; t[3 * i + 2] = s.z * f;
    }
    return { motion: { count: n, translation: t, rotation: q }, note: '' };
  }

  /**
   * Decode a parsed .animclip (the generated Animclip root). `tags`: the generated
   * Animclip.SectionTag enum. Returns null when the clip has no Built section (nothing says
   * how its samples are coded); throws a ClipDecodeError (with .field) on bad data.
   */
  function decode(root, tags) {
    var dat1 = root && root.dat1;
    if (!dat1 || dat1.idxBuilt < 0) return null;
    var built = dat1.builtSection;
    var pagedBody = sectionBody(dat1, tags.SAMPLE_DATA_PAGED);
    var residentBody = sectionBody(dat1, tags.SAMPLE_DATA_RESIDENT);
    var paged = !!(pagedBody && built.numFrames);
    var dataBody = paged ? pagedBody : residentBody || sectionBody(dat1, tags.SAMPLE_DATA);
    var c = coding(built, paged, !!residentBody && !paged);
    var bs = sectionBody(dat1, tags.BASE_STATE);
    var records = bs && bs.joints ? bs.joints : [];
    if (c.joints > records.length) throw ClipDecodeError('base_state', 'Built names ' + c.joints + ' joint(s); Base State holds ' + records.length + ' record(s)');
    var base = baseComponents(records, c.joints);
    var se = c.elements + c.largeElements && dat1.idxSampleElem >= 0 ? dat1.sampleElemSection : null;
    if (se && !se.isSizeConsistent) {
      // the spec's view then falls back to ALERT's split; decoding with it would misread every field
      throw ClipDecodeError('sample_elem', 'Built declares ' + c.elements + ' element(s) and ' + c.largeElements + ' large one(s); they do not fit the section\'s ' + se._io.size + ' bytes');
    }
    var el = elementTable(se, c.joints);
    var decoded = decodeSamples(c, base, el, dataBody && dataBody.dataRaw);
    var jh = sectionBody(dat1, tags.JOINT_HASHES);
    var hashes = new Uint32Array(c.joints).fill(0xffffffff);
    if (jh && jh.hashes) for (var j = 0; j < Math.min(c.joints, jh.hashes.length); j++) hashes[j] = jh.hashes[j];
    var m = decodeMotion(sectionBody(dat1, tags.MOTION_DATA));
    var frameCount = decoded.frameSample.length;
    return {
      fps: clipFps(c), frameCount: frameCount, joints: c.joints, looping: c.looping, camera: c.camera,
      animated: !!(el.count && dataBody && dataBody.dataRaw && dataBody.dataRaw.length && c.frames),
      sampleCount: decoded.count, samples: decoded.samples, frameSample: decoded.frameSample,
      jointHashes: hashes, rootMotion: m.motion, notes: m.note ? ['root motion not decoded: ' + m.note] : [],
    };
  }

  /** Frame f's local transforms as subarray views (no copy): {scale, rotation (x y z w), translation}. */
  function frame(clip, f) {
    var s = clip.frameSample[f], j = clip.joints;
    return {
      scale: clip.samples.scale.subarray(s * j * 3, (s + 1) * j * 3),
      rotation: clip.samples.rotation.subarray(s * j * 4, (s + 1) * j * 4),
      translation: clip.samples.translation.subarray(s * j * 3, (s + 1) * j * 3),
    };
  }

  /** The root-motion sample shown at frame f (sample i is at i / fps): clamped to the stream. */
  function rootMotionAt(clip, f) {
    var m = clip.rootMotion;
    if (!m || !m.count) return null;
    var i = Math.max(0, Math.min(m.count - 1, f));
    return { translation: m.translation.subarray(3 * i, 3 * i + 3), rotation: m.rotation.subarray(4 * i, 4 * i + 4) };
  }

  /**
   * Frame f as the 3D view takes it, written into reused arrays (no allocation per frame):
   * rotations[j] = [w, x, y, z], translations[j] = [x, y, z]. With `motion`, the root-motion
   * sample of the frame is put above the joints listed in `roots` (world = motion * local),
   * as the object that carries the root motion would move the whole skeleton.
   */
  function poseInto(clip, f, rotations, translations, roots, motion) {
    var t = frame(clip, f);
    for (var j = 0; j < clip.joints; j++) {
      var r = rotations[j], p = translations[j];
      r[0] = t.rotation[4 * j + 3]; r[1] = t.rotation[4 * j]; r[2] = t.rotation[4 * j + 1]; r[3] = t.rotation[4 * j + 2];
      p[0] = t.translation[3 * j]; p[1] = t.translation[3 * j + 1]; p[2] = t.translation[3 * j + 2];
    }
    if (motion) applyRootMotion(clip, f, rotations, translations, roots || [0]);
  }

  /**
   * Put frame f's root-motion sample above the joints `roots` of the given pose arrays
   * (rotations[k] = [w, x, y, z], translations[k] = [x, y, z]): world = motion * local.
   */
  function applyRootMotion(clip, f, rotations, translations, roots) {
    var m = rootMotionAt(clip, f);
    if (!m) return;
    var mx = m.rotation[0], my = m.rotation[1], mz = m.rotation[2], mw = m.rotation[3];
    roots.forEach(function (k) {
      if (k >= rotations.length) return;
      var r = rotations[k], p = translations[k];
      var w = r[0], x = r[1], y = r[2], z = r[3];
      // quaternion product motion * joint (w, x, y, z)
      r[0] = mw * w - mx * x - my * y - mz * z;
      r[1] = mw * x + mx * w + my * z - mz * y;
      r[2] = mw * y - mx * z + my * w + mz * x;
      r[3] = mw * z + mx * y - my * x + mz * w;
      // motion rotation applied to the joint's translation, then the motion's translation
      var px = p[0], py = p[1], pz = p[2];
      var ix = mw * px + my * pz - mz * py, iy = mw * py + mz * px - mx * pz, iz = mw * pz + mx * py - my * px, iw = -mx * px - my * py - mz * pz;
      p[0] = ix * mw + iw * -mx + iy * -mz - iz * -my + m.translation[0];
      p[1] = iy * mw + iw * -my + iz * -mx - ix * -mz + m.translation[1];
      p[2] = iz * mw + iw * -mz + ix * -my - iy * -mx + m.translation[2];
    });
  }

  /**
   * The DAT1 CRC32 of a name (Joint Hashes hold these): ALERT's variant (Tkachov/ALERT,
   * dat1lib/crc32.py; python/animspec/common/hashes.py): the reflected CRC-32 table, started
   * from 0xEDB88320 instead of 0xFFFFFFFF, no final XOR, over the UTF-8 bytes.
   */
  var CRC_TABLE = null;
  function nameHash(name) {
    if (!CRC_TABLE) {
      CRC_TABLE = new Uint32Array(256);
      for (var i = 0; i < 256; i++) {
        var c = i;
        for (var k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
        CRC_TABLE[i] = c >>> 0;
      }
    }
    var bytes = new TextEncoder().encode(name);
    var crc = 0xEDB88320;
    for (var b = 0; b < bytes.length; b++) crc = CRC_TABLE[(crc ^ bytes[b]) & 0xff] ^ (crc >>> 8);
    return crc >>> 0;
  }

  /** Arrays for poseInto: [joints][4] and [joints][3]. */
  function poseArrays(joints) {
    var r = [], t = [];
    for (var j = 0; j < joints; j++) { r.push([1, 0, 0, 0]); t.push([0, 0, 0]); }
    return { rotations: r, translations: t };
  }

  /** The frame shown at `seconds` of play: looping clips wrap, the others hold the last frame. */
  function frameAt(clip, seconds) {
    var f = Math.floor(seconds * clip.fps + 1e-9);
    if (clip.looping) return ((f % clip.frameCount) + clip.frameCount) % clip.frameCount;
    return Math.max(0, Math.min(clip.frameCount - 1, f));
  }

  return {
    decode: decode, frame: frame, frameAt: frameAt, rootMotionAt: rootMotionAt, poseInto: poseInto, poseArrays: poseArrays,
    applyRootMotion: applyRootMotion, nameHash: nameHash,
    ClipDecodeError: ClipDecodeError,
  };
});
