/*
 * validate.js: the ANIMBIN validator, ported from python/animspec/animbin/validate.py.
 * Same codes, severities, messages and `where` keys, in the same order, so the page shows
 * what `animspec validate` prints (tests/test_js_parsers.py holds the two equal). "Step N"
 * is playback step N of docs/animbin.md.
 *
 * Input: the model of web/js/formats.js animbinModel(). Browser: window.AnimValidate.
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.AnimValidate = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var FP12_ONE = 4096;
  var LOOPING_FLAG = 1;
  var MAX_ANIMATIONS = 5, MAX_TRACKS = 50, MAX_KEYS = 30, MAX_MARKERS = 5, MAX_BONES = 15;
  var UNIT_TOLERANCE = 0.01;
  var ERROR = 'error', WARNING = 'warning', INFO = 'info';

  function finding(code, severity, message, where) {
    return { code: code, severity: severity, message: message, where: Object.assign({}, where || {}) };
  }

  function hex8(n) {
    var s = (n >>> 0).toString(16);
    return '00000000'.slice(s.length) + s;
  }

  /** Every finding for the model. boneCount: the skeleton's bone count when known. */
  function validate(model, boneCount) {
    var out = [];
    var anims = model.animations;
    if (anims.length > MAX_ANIMATIONS) {
      out.push(finding('too-many-animations', ERROR,
        anims.length + ' animations; the engine has room for ' + MAX_ANIMATIONS + ' and overruns its array past that'));
    }
    var seen = new Map();
    anims.forEach(function (anim, i) {
      var where = { animation: i, animation_name: anim.name };
      if (!seen.has(anim.name)) seen.set(anim.name, i);
      var first = seen.get(anim.name);
      if (first !== i) {
        out.push(finding('duplicate-animation-name', WARNING,
          'same name as animation ' + first + '; lookup by name always finds animation ' + first, where));
      }
      animation(anim, where, boneCount === undefined ? null : boneCount, out);
    });
    if (model.trailing) {
      out.push(finding('trailing-bytes', WARNING,
        model.trailing + ' bytes after the last animation; the engine never reads them'));
    }
    return out;
  }

  function animation(anim, where, boneCount, out) {
    if (!anim.nameInfo.terminated) {
      out.push(finding('name-not-terminated', ERROR,
        'the name fills all 32 bytes with no NUL; the engine reads it as a C string and ' +
        'runs on into the flags and counts, so lookup by this name fails', where));
    }
    if (anim.flags & ~LOOPING_FLAG) {
      out.push(finding('unknown-flags', INFO,
        'flags 0x' + hex8(anim.flags) + ' set bits other than bit 0 (looping); the engine ignores them', where));
    }
    if (anim.length === 0) {
      out.push(finding('zero-length', WARNING,
        'length 0: a non-looping clip\'s frame counter is set to length - 1, which wraps ' +
        'to 65535 in the engine\'s uint16', where));
    }
    if (anim.tracks.length > MAX_TRACKS) {
      out.push(finding('too-many-tracks', ERROR,
        anim.tracks.length + ' tracks; the engine has room for ' + MAX_TRACKS + ' and overruns its array past that', where));
    }
    if (anim.markers.length > MAX_MARKERS) {
      out.push(finding('too-many-markers', ERROR,
        anim.markers.length + ' markers; the engine has room for ' + MAX_MARKERS + ' and overruns its array past that', where));
    }
    var jointLimit = boneCount === null ? MAX_BONES : Math.min(MAX_BONES, boneCount);
    var limitSource = boneCount !== null && boneCount < MAX_BONES ? 'the skeleton\'s ' + boneCount + ' bones' : 'MAX_BONES = ' + MAX_BONES;
    var writerByJoint = new Map();
    var played = playedFrames(anim);
    anim.tracks.forEach(function (track, j) {
      var at = Object.assign({}, where, { track: j, joint: track.jointId });
      if (track.jointId >= jointLimit) {
        out.push(finding('joint-out-of-range', ERROR,
          'joint ' + track.jointId + ' is past ' + limitSource + '; the engine writes outside the bone array', at));
      }
      // Only a track that writes the bone on some frame competes for it (see rotationFrames).
      var writes = rotationFrames(track, played);
      if (writes) {
        if (!writerByJoint.has(track.jointId)) writerByJoint.set(track.jointId, j);
        var first = writerByJoint.get(track.jointId);
        if (first !== j) {
          var total = played[1] - played[0];
          var when = writes === total ? 'every frame'
            : 'on ' + writes + ' of the ' + total + ' frames played (those whose next key is a ROTATION key)';
          out.push(finding('duplicate-joint', WARNING,
            'track ' + first + ' rotates the same joint; this later track overwrites it ' + when, at));
        }
      }
      trackFindings(track, anim, at, out);
    });
    anim.markers.forEach(function (marker, m) {
      if (!marker.nameInfo.terminated) {
        out.push(finding('marker-name-not-terminated', WARNING,
          'marker name fills all 32 bytes with no NUL; game code comparing it as a C string reads past it',
          Object.assign({}, where, { marker: m })));
      }
    });
  }

  /** [start, stop) of the frame counter values the engine shows (PlayAnimation step 1). */
  function playedFrames(anim) {
    if (anim.length > 0) return [0, anim.length];
    return (anim.flags & LOOPING_FLAG) ? [0, 1] : [0xFFFF, 0x10000];
  }

  /** The engine's key search (step 2): index of the next key at frame `current`. */
  function nextKey(frames, current) {
    if (current >= frames[frames.length - 1]) return frames.length - 1;
    for (var j = 0; j < frames.length - 1; j++) {
      if (frames[j] <= current && current < frames[j + 1]) return j + 1;
    }
    return 0;
  }

  /**
   * On how many played frames the engine writes the track's joint: those whose next key is
   * a ROTATION key (step 4; translation keys are never applied). Evaluated once per span
   * between key frames. An empty track writes nothing here (empty-track reports it).
   */
  function rotationFrames(track, played) {
    if (!track.keys.length) return 0;
    var frames = track.keys.map(function (k) { return k.frame & 0xFFFF; });
    var bounds = [played[0], played[1]];
    frames.forEach(function (f) {
      if (played[0] < f && f < played[1] && bounds.indexOf(f) < 0) bounds.push(f);
    });
    bounds.sort(function (a, b) { return a - b; });
    var count = 0;
    for (var i = 0; i + 1 < bounds.length; i++) {
      if (track.keys[nextKey(frames, bounds[i])].keyType === 0) count += bounds[i + 1] - bounds[i];
    }
    return count;
  }

  function trackFindings(track, anim, where, out) {
    var keys = track.keys;
    if (!keys.length) {
      out.push(finding('empty-track', ERROR,
        'track has no keys; the engine\'s key search then reads keys[-1] (undefined behaviour)', where));
      return;
    }
    if (keys.length > MAX_KEYS) {
      out.push(finding('too-many-keys', ERROR,
        keys.length + ' keys; the engine has room for ' + MAX_KEYS + ' and overruns its array past that', where));
    }
    var translations = 0;
    var widest = [1, 0];
    keys.forEach(function (key, k) {
      var at = Object.assign({}, where, { key: k });
      if (key.keyType !== 0 && key.keyType !== 1) {
        out.push(finding('unknown-key-type', ERROR,
          'key type ' + key.keyType + ' is neither ROTATION (0) nor TRANSLATION (1); the engine ' +
          'reads no payload for it, so every later field is read misaligned', at));
      } else if (key.keyType === 1) {
        translations += 1;
      } else {
        quaternion(key, at, out);
      }
      if (key.frame >= anim.length) {
        out.push(finding('key-after-end', WARNING,
          'frame ' + key.frame + ' is at or past the clip length ' + anim.length + '; it is never shown', at));
      }
      if (k > 0) {
        var gap = key.frame - keys[k - 1].frame;
        if (gap <= 0) {
          out.push(finding('keys-not-increasing', WARNING,
            'frame ' + key.frame + ' does not come after the previous key\'s frame ' +
            keys[k - 1].frame + '; the engine\'s key search assumes sorted keys', at));
        } else if (gap > widest[0]) {
          widest = [gap, k];
        }
      }
    });
    if (translations) {
      out.push(finding('translation-ignored', WARNING,
        translations + ' translation key(s); the engine parses them and never applies them', where));
    }
    if (widest[0] > 1) {
      out.push(finding('sparse-keys', WARNING,
        'up to ' + widest[0] + ' frames between keys (widest before key ' + widest[1] + '); the engine does not ' +
        'interpolate, it holds the previous key until the next key\'s frame, so the motion steps',
        Object.assign({}, where, { key: widest[1] })));
    }
  }

  function quaternion(key, where, out) {
    var length = Math.sqrt(key.w * key.w + key.x * key.x + key.y * key.y + key.z * key.z) / FP12_ONE;
    if (Math.abs(length - 1.0) > UNIT_TOLERANCE) {
      var effect = length === 0
        ? 'all zero: the engine\'s Normalize turns it into the identity'
        : 'the engine renormalises it when sampling, other tools may not';
      out.push(finding('not-unit-quaternion', WARNING,
        'quaternion length ' + length.toFixed(4) + ', not 1 (' + effect + ')', where));
    }
  }

  /** `animation 0 ("walk"), track 3, key 7`: as Finding.location() in python/animspec/findings.py. */
  function location(f) {
    var parts = [];
    Object.keys(f.where).forEach(function (key) {
      if (/_name$/.test(key)) return;
      var label = key.replace(/_/g, ' ') + ' ' + f.where[key];
      var name = f.where[key + '_name'];
      if (name !== undefined && name !== null) label += ' (' + JSON.stringify(name).replace(/^"|"$/g, "'") + ')';
      parts.push(label);
    });
    return parts.join(', ');
  }

  return { validate: validate, location: location, MAX_BONES: MAX_BONES };
});
