/*
 * engine.js: ANIMBIN playback, the two modes of python/animspec/animbin/playback.py.
 *
 * Engine-faithful: SkeletonController::PlayAnimation of the psyqo madnight engine in
 * integer FP12, tick by tick (a line-for-line port of playback.EngineSkeleton and of the
 * fixed-point helpers in python/animspec/fixed_point.py; see docs/animbin.md and
 * Forceh91/psyqo-madnight-engine, src/mesh/skeleton/skeleton.cpp).
 * Reference: the clip as authored (float slerp at fractional frames, translation keys lerped,
 * modulo looping), a port of playback.sample_reference_frames.
 *
 * All engine values are raw integers (4096 = 1.0). JavaScript numbers hold every
 * intermediate exactly: int16 x int16 products fit in 31 bits and the square-root
 * numerators (s << 12, s < 2**15) in 27.
 *
 * Browser: window.AnimEngine. Node: module.exports.
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.AnimEngine = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var FP12_SHIFT = 12;
  var FP12_ONE = 4096;
  var MAX_BONES = 15;
  var IDENTITY16 = [FP12_ONE, 0, 0, 0];
  var NTSC_VSYNC_HZ = 60000 / 1001;
  var PAL_VSYNC_HZ = 50;

  // --- fixed point (python/animspec/fixed_point.py) -----------------------------------------

  function wrap16(v) { return (v << 16) >> 16; }
  function wrap32(v) { return v | 0; }

  /** C signed division: truncates toward zero. Throws ConsoleDivisionByZero on 0. */
  function truncDiv(a, b) {
    if (b === 0) throw new ConsoleDivisionByZero('integer division by zero');
    var q = Math.floor(Math.abs(a) / Math.abs(b));
    return (a < 0) === (b < 0) ? q : -q;
  }

  function ConsoleDivisionByZero(message) {
    this.name = 'ConsoleDivisionByZero';
    this.message = message;
  }
  ConsoleDivisionByZero.prototype = Object.create(Error.prototype);

  /** GTE::Short * GTE::Short: floor(a*b / 4096) (the division is unsigned), wrapped to int16. */
  function mulShort(a, b) { return wrap16((a * b) >> FP12_SHIFT); }
  function addShort(a, b) { return wrap16(a + b); }
  function shortFromLong(v) { return wrap16(v); }

  /** FixedPointInternals::iDiv: (rem << 12) / base on unsigned 64-bit, result cut to uint32. */
  function idiv(rem, base) {
    base = base >>> 0;
    if (base === 0) throw new ConsoleDivisionByZero('psyqo iDiv with a zero divisor');
    // For 0 <= rem < 2**31 the numerator is below 2**43, so the double quotient floors
    // exactly (its rounding error is far below 1 / base). A negative rem (INT32_MIN after
    // dDiv's negation) is sign-extended to uint64 first, which needs BigInt.
    if (rem >= 0) return Math.floor((rem * FP12_ONE) / base) >>> 0;
    var num = (BigInt.asUintN(64, BigInt(rem)) << 12n) & 0xFFFFFFFFFFFFFFFFn;
    return Number((num / BigInt(base)) & 0xFFFFFFFFn);
  }

  /** FixedPointInternals::dDiv: sign and magnitude over iDiv, truncating. Returns int32. */
  function ddiv(a, b) {
    a = wrap32(a); b = wrap32(b);
    var sign = 1;
    if (a < 0) { a = wrap32(-a); sign = -sign; }
    if (b < 0) { b = wrap32(-b); sign = -sign; }
    return wrap32(idiv(a, b) * sign);
  }

  function divLong(a, b) { return ddiv(a, b); }
  function intDivLong(a, b) { return ddiv(wrap32(a * FP12_ONE), b); }
  function divLongByInt(a, n) { return wrap32(truncDiv(a, n)); }

  /** SoftMath::squareRoot(x) with the x / 2 hint: Babylonian steps until |x1 - x0| <= 1 raw. */
  function squareRoot(x) {
    if (x <= 1) return 0;
    var x0 = divLongByInt(x, 2);
    var x1 = divLong(x, x0);
    for (var i = 0; i < 200; i++) {
      if (Math.abs(wrap32(x1 - x0)) <= 1) return x0;
      x0 = divLongByInt(wrap32(x0 + x1), 2);
      x1 = divLong(x, x0);
    }
    throw new Error('squareRoot(' + x + ') did not converge');
  }

  /** The DotProduct of a quaternion with itself, summed in int16. */
  function normSquared(q) {
    var t = 0;
    for (var i = 0; i < 4; i++) t = addShort(t, mulShort(q[i], q[i]));
    return t;
  }

  var scaleCache = new Map();
  /** Short(1 / squareRoot(s)); throws ConsoleDivisionByZero for s == 1 raw or s < 0. */
  function normalizeScale(s) {
    var r = scaleCache.get(s);
    if (r === undefined) {
      r = shortFromLong(intDivLong(1, squareRoot(s)));
      scaleCache.set(s, r);
    }
    return r;
  }

  /** Quaternion::Normalize: identity for s == 0, else each component times 1/sqrt(s). */
  function normalizeQuat(q) {
    var s = normSquared(q);
    if (s === 0) return IDENTITY16.slice();
    var r = normalizeScale(s);
    return [mulShort(q[0], r), mulShort(q[1], r), mulShort(q[2], r), mulShort(q[3], r)];
  }

  /** madnight's Slerp: nlerp with the shortest-path flip computed and ignored. */
  function engineSlerp(prev, nxt, factor) {
    var f1 = shortFromLong(wrap32(FP12_ONE - factor));
    var f2 = shortFromLong(factor);
    var blended = [0, 1, 2, 3].map(function (i) { return addShort(mulShort(f1, prev[i]), mulShort(nxt[i], f2)); });
    return normalizeQuat(blended);
  }

  /** The quaternion the engine reads from key.rotation whatever the key's type
   * (playback.key_rotation_view): a TRANSLATION key's int32 x, y halves; zeros otherwise. */
  function keyRotationView(key) {
    if (key.keyType === 0) return [wrap16(key.w), wrap16(key.x), wrap16(key.y), wrap16(key.z)];
    if (key.keyType === 1) {
      var x = key.x >>> 0, y = key.y >>> 0;
      return [wrap16(x & 0xFFFF), wrap16(x >>> 16), wrap16(y & 0xFFFF), wrap16(y >>> 16)];
    }
    return [0, 0, 0, 0];
  }

  // --- engine mode ----------------------------------------------------------------------------

  var EVENT = {
    EMPTY_TRACK: 'empty_track',
    DIVISION_BY_ZERO: 'division_by_zero',
    JOINT_OUT_OF_RANGE: 'joint_out_of_range',
    JOINT_BEYOND_MAX_BONES: 'joint_beyond_max_bones',
  };

  /** Events aggregated by (kind, track), first occurrence kept (playback._EventLog). */
  function EventLog() { this.map = new Map(); }
  EventLog.prototype.add = function (kind, track, joint, tick, frame, count) {
    count = count === undefined ? 1 : count;
    if (count <= 0) return;
    var key = kind + '/' + track;
    var e = this.map.get(key);
    if (!e) this.map.set(key, { kind: kind, track: track, joint_id: joint, first_tick: tick, first_frame: frame, count: count });
    else {
      e.count += count;
      if (tick < e.first_tick) { e.first_tick = tick; e.first_frame = frame; }
    }
  };
  EventLog.prototype.events = function () {
    return Array.from(this.map.values()).sort(function (a, b) {
      return a.first_tick - b.first_tick || a.track - b.track || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
    });
  };

  function jointCount(animation) {
    var n = 0;
    if (animation) animation.tracks.forEach(function (t) { n = Math.max(n, t.jointId + 1); });
    return n;
  }

  function restArray(restRotations, numJoints, defaultJoints) {
    if (restRotations) {
      if (numJoints !== null && numJoints !== undefined && numJoints !== restRotations.length) throw new Error('numJoints disagrees with restRotations');
      return restRotations.map(function (q) { return q.map(wrap16); });
    }
    var n = numJoints === null || numJoints === undefined ? defaultJoints : numJoints;
    var out = [];
    for (var i = 0; i < n; i++) out.push(IDENTITY16.slice());
    return out;
  }

  /**
   * A skeleton stepped like SkeletonController (playback.EngineSkeleton).
   * opts: { numJoints, restRotations ([joints][w,x,y,z] raw), emptyTrack: 'unchanged'|'identity', animation }
   */
  function EngineSkeleton(opts) {
    opts = opts || {};
    this.emptyTrack = opts.emptyTrack || 'unchanged';
    if (this.emptyTrack !== 'unchanged' && this.emptyTrack !== 'identity') throw new Error('unknown emptyTrack policy ' + this.emptyTrack);
    this.localRotations = restArray(opts.restRotations, opts.numJoints, jointCount(opts.animation));
    this.animation = null;
    this.currentFrame = 0;
    this.ticks = 0;
    this.log = new EventLog();
    if (opts.animation) this.setAnimation(opts.animation);
  }

  /** SetAnimation: an instant cut, counter back to 0, bones untouched. */
  EngineSkeleton.prototype.setAnimation = function (animation) {
    if (!animation) return;
    this.animation = animation;
    this.currentFrame = 0;
  };

  Object.defineProperty(EngineSkeleton.prototype, 'events', { get: function () { return this.log.events(); } });

  /** PlayAnimation(skeleton, deltaTime); returns the frame sampled (null without a clip). */
  EngineSkeleton.prototype.play = function (deltaTime) {
    var anim = this.animation;
    if (!anim) return null;
    var tick = this.ticks++;
    var length = anim.length & 0xFFFF;
    if (this.currentFrame >= length) this.currentFrame = anim.isLooping ? 0 : (length - 1) & 0xFFFF;
    var current = this.currentFrame;
    for (var t = 0; t < anim.tracks.length; t++) {
      var track = anim.tracks[t];
      var keys = track.keys;
      if (keys.length === 0) {
        this.log.add(EVENT.EMPTY_TRACK, t, track.jointId, tick, current);
        if (this.emptyTrack === 'identity') this._write(t, track.jointId, IDENTITY16.slice(), tick, current);
        continue;
      }
      var prev = keys[0], nxt = keys[0];
      for (var j = 0; j < keys.length - 1; j++) {
        if (keys[j].frame <= current && current < keys[j + 1].frame) {
          prev = keys[j]; nxt = keys[j + 1];
          break;
        }
      }
      if (current >= keys[keys.length - 1].frame) prev = nxt = keys[keys.length - 1];
      var frameDiff = nxt.frame - prev.frame;
      var factor = frameDiff > 0 ? wrap32(truncDiv(current - prev.frame, frameDiff) * FP12_ONE) : 0;
      if (nxt.keyType === 0) {
        var rotation;
        try {
          rotation = engineSlerp(keyRotationView(prev), keyRotationView(nxt), factor);
        } catch (e) {
          if (!(e instanceof ConsoleDivisionByZero)) throw e;
          this.log.add(EVENT.DIVISION_BY_ZERO, t, track.jointId, tick, current);
          continue;
        }
        this._write(t, track.jointId, rotation, tick, current);
      }
    }
    this.currentFrame = (current + (deltaTime >>> 0)) & 0xFFFF;
    return current;
  };

  EngineSkeleton.prototype._write = function (t, joint, rotation, tick, frame) {
    if (joint >= this.localRotations.length) {
      this.log.add(EVENT.JOINT_OUT_OF_RANGE, t, joint, tick, frame);
      return;
    }
    if (joint >= MAX_BONES) this.log.add(EVENT.JOINT_BEYOND_MAX_BONES, t, joint, tick, frame);
    this.localRotations[joint] = rotation;
  };

  /** playback.play_engine: one tick per entry of deltas. rotations[tick][joint] = [w,x,y,z]. */
  function playEngine(animation, deltas, opts) {
    opts = Object.assign({}, opts || {}, { animation: animation });
    var sk = new EngineSkeleton(opts);
    if (opts.startFrame) sk.currentFrame = opts.startFrame & 0xFFFF;
    var frames = [], rotations = [];
    deltas.forEach(function (d) {
      frames.push(sk.play(d));
      rotations.push(sk.localRotations.map(function (q) { return q.slice(); }));
    });
    return { frames: frames, rotations: rotations, endFrame: sk.currentFrame, events: sk.events };
  }

  // --- reference mode -------------------------------------------------------------------------

  function normalise(q) {
    var n = Math.hypot(q[0], q[1], q[2], q[3]);
    return n > 0 ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [1, 0, 0, 0];
  }

  /** Shortest-arc slerp of unit quaternions, nlerp when nearly parallel (playback.slerp). */
  function slerp(q0, q1, t) {
    var dot = q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3];
    if (dot < 0) q1 = [-q1[0], -q1[1], -q1[2], -q1[3]];
    dot = Math.min(Math.max(Math.abs(dot), 0), 1);
    var theta = Math.acos(dot);
    var sinTheta = Math.sin(theta);
    var w0, w1;
    if (sinTheta < 1e-9) { w0 = 1 - t; w1 = t; }
    else { w0 = Math.sin((1 - t) * theta) / sinTheta; w1 = Math.sin(t * theta) / sinTheta; }
    return normalise([w0 * q0[0] + w1 * q1[0], w0 * q0[1] + w1 * q1[1], w0 * q0[2] + w1 * q1[2], w0 * q0[3] + w1 * q1[3]]);
  }

  /** Keys around frame f (keys sorted) and the fraction between them (playback._bracket). */
  function bracket(kf, f) {
    var n = kf.length;
    var idx = -1;
    while (idx + 1 < n && kf[idx + 1] <= f) idx++;
    var i0 = Math.min(Math.max(idx, 0), n - 1);
    var i1 = idx < 0 ? 0 : Math.min(idx + 1, n - 1);
    var span = kf[i1] - kf[i0];
    var t = span > 0 ? (f - kf[i0]) / span : 0;
    return [i0, i1, Math.min(Math.max(t, 0), 1)];
  }

  /** Python's modulo (floored) for the looping wrap. */
  function pyMod(a, n) {
    var r = a % n;
    return r !== 0 && (r < 0) !== (n < 0) ? r + n : r;
  }

  function wrapFrame(animation, f) {
    var length = animation.length & 0xFFFF;
    if (length <= 0) return 0;
    if (animation.isLooping) return pyMod(f, length);
    return Math.min(Math.max(f, 0), length - 1);
  }

  /**
   * playback.sample_reference_frames for one or more (fractional) vsync frame numbers.
   * opts: { numJoints, restRotations (raw [w,x,y,z]), restTranslations (raw [x,y,z]) }.
   * Returns { frames, rotations[s][j] (unit w,x,y,z), translations[s][j] (units, raw/4096),
   *           hasRotation[j], hasTranslation[j] }.
   */
  function sampleReferenceFrames(animation, frames, opts) {
    opts = opts || {};
    var restQ;
    if (opts.restRotations) restQ = opts.restRotations.map(function (q) { return q.map(function (c) { return c / FP12_ONE; }); });
    else {
      var n0 = opts.numJoints !== undefined && opts.numJoints !== null ? opts.numJoints
        : (opts.restTranslations ? opts.restTranslations.length : jointCount(animation));
      restQ = [];
      for (var i = 0; i < n0; i++) restQ.push([1, 0, 0, 0]);
    }
    var nJoints = restQ.length;
    var restT = opts.restTranslations ? opts.restTranslations.map(function (v) { return v.map(function (c) { return c / FP12_ONE; }); })
      : restQ.map(function () { return [0, 0, 0]; });
    var wrapped = frames.map(function (f) { return wrapFrame(animation, f); });
    var rotations = wrapped.map(function () { return restQ.map(normalise); });
    var translations = wrapped.map(function () { return restT.map(function (v) { return v.slice(); }); });
    var hasRot = restQ.map(function () { return false; });
    var hasTrans = restQ.map(function () { return false; });
    function byFrame(a, b) { return a.frame - b.frame; }
    animation.tracks.forEach(function (track) {
      var j = track.jointId;
      if (j >= nJoints) return;
      var rkeys = track.keys.filter(function (k) { return k.keyType === 0; }).slice().sort(byFrame);
      if (rkeys.length) {
        var kf = rkeys.map(function (k) { return k.frame; });
        var kq = rkeys.map(function (k) { return normalise([k.w, k.x, k.y, k.z]); });
        wrapped.forEach(function (f, s) {
          var b = bracket(kf, f);
          rotations[s][j] = slerp(kq[b[0]], kq[b[1]], b[2]);
        });
        hasRot[j] = true;
      }
      var tkeys = track.keys.filter(function (k) { return k.keyType === 1; }).slice().sort(byFrame);
      if (tkeys.length) {
        var tf = tkeys.map(function (k) { return k.frame; });
        var kv = tkeys.map(function (k) { return [k.x / FP12_ONE, k.y / FP12_ONE, k.z / FP12_ONE]; });
        wrapped.forEach(function (f, s) {
          var b = bracket(tf, f);
          var a = kv[b[0]], c = kv[b[1]];
          translations[s][j] = [a[0] + (c[0] - a[0]) * b[2], a[1] + (c[1] - a[1]) * b[2], a[2] + (c[2] - a[2]) * b[2]];
        });
        hasTrans[j] = true;
      }
    });
    return { frames: wrapped, rotations: rotations, translations: translations, hasRotation: hasRot, hasTranslation: hasTrans };
  }

  function refreshHz(refresh) {
    if (refresh === 'ntsc') return NTSC_VSYNC_HZ;
    if (refresh === 'pal') return PAL_VSYNC_HZ;
    var hz = Number(refresh);
    if (!(hz > 0)) throw new Error('unknown refresh ' + refresh);
    return hz;
  }

  return {
    FP12_ONE: FP12_ONE,
    MAX_BONES: MAX_BONES,
    NTSC_VSYNC_HZ: NTSC_VSYNC_HZ,
    PAL_VSYNC_HZ: PAL_VSYNC_HZ,
    EVENT: EVENT,
    ConsoleDivisionByZero: ConsoleDivisionByZero,
    wrap16: wrap16,
    wrap32: wrap32,
    truncDiv: truncDiv,
    mulShort: mulShort,
    squareRoot: squareRoot,
    normalizeScale: normalizeScale,
    normalizeQuat: normalizeQuat,
    engineSlerp: engineSlerp,
    keyRotationView: keyRotationView,
    EngineSkeleton: EngineSkeleton,
    playEngine: playEngine,
    slerp: slerp,
    sampleReferenceFrames: sampleReferenceFrames,
    refreshHz: refreshHz,
    jointCount: jointCount,
  };
});
