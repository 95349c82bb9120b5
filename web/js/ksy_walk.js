/*
 * ksy_walk.js: walk a parsed Kaitai Struct object tree (JavaScript target, 0.11) using the
 * .ksy spec itself as the field list, and turn it into plain JSON.
 *
 * Shared by tools/js_dump.js (node) and the browser viewer (web/index.html), so the tree the
 * page shows is exactly what the node dump, and so the Python-parser comparison in
 * tests/test_js_parsers.py, checked.
 *
 * Canonical form (the same as tests/test_js_parsers.py builds from the Python parsers):
 *   - a struct is an object: its seq fields in spec order, then its instances in spec order,
 *     keyed by the spec's snake_case ids; fields that are absent (`if` false, or not reached
 *     before a parse error) and instances whose value is null are left out;
 *   - `_io`, `_parent`, `_root`, `_debug`, `_raw_*`, `_m_*` and params are skipped;
 *   - byte arrays are lower-case hex strings; enums are their integer values; booleans stay
 *     booleans; NaN and infinities are the strings "NaN", "Infinity", "-Infinity";
 *   - an instance that throws when evaluated becomes {"$error": "<ErrorName>"}.
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.KsyWalk = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  /** Kaitai's Utils.upperCamelCase: `vec3_s4` -> `Vec3S4`. */
  function upperCamel(id) {
    return id.split('_').map(function (p) { return p.charAt(0).toUpperCase() + p.slice(1); }).join('');
  }

  /** Kaitai's Utils.lowerCamelCase: `unk_08` -> `unk08`, `peek_magic_0` -> `peekMagic0`. */
  function lowerCamel(id) {
    var parts = id.split('_');
    return parts[0] + parts.slice(1).map(function (p) { return p.charAt(0).toUpperCase() + p.slice(1); }).join('');
  }

  /**
   * Map every generated class (root class and nested type classes) to the spec's field
   * lists: { seq: [field], instances: [field], name, doc, repr, enums } with
   * field = {id, js, doc, enumName, repeat} and enums = {enum name: {value: id}} (spec-wide).
   */
  function buildClassMap(spec, RootClass, map) {
    map = map || new Map();
    var enums = {};
    function collectEnums(def) {
      Object.keys(def.enums || {}).forEach(function (name) {
        var table = {};
        Object.keys(def.enums[name]).forEach(function (value) {
          var v = def.enums[name][value];
          table[value] = typeof v === 'object' && v !== null ? v.id : v;
        });
        enums[name] = table;
      });
      Object.keys(def.types || {}).forEach(function (t) { collectEnums(def.types[t]); });
    }
    collectEnums(spec);
    function field(id, def) {
      return {
        id: id,
        js: lowerCamel(id),
        doc: def.doc || '',
        enumName: typeof def.enum === 'string' ? def.enum.split('::').pop() : null,
        repeat: !!def.repeat,
      };
    }
    function visit(def, cls, name) {
      if (!cls) throw new Error('no generated class for type ' + name);
      map.set(cls, {
        name: name,
        doc: def.doc || '',
        repr: def['-webide-representation'] || null,
        enums: enums,
        seq: (def.seq || []).map(function (f) { return field(f.id, f); }),
        instances: Object.keys(def.instances || {}).map(function (id) { return field(id, def.instances[id] || {}); }),
      });
      var types = def.types || {};
      Object.keys(types).forEach(function (t) { visit(types[t], cls[upperCamel(t)], t); });
    }
    visit(spec, RootClass, spec.meta && spec.meta.id);
    return map;
  }

  function isStruct(v) {
    return v !== null && typeof v === 'object' && '_io' in v && '_root' in v && '_parent' in v;
  }

  function isStream(v) {
    return v !== null && typeof v === 'object' && typeof v.readU1 === 'function' && typeof v.seek === 'function';
  }

  function hex(bytes) {
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return s;
  }

  function number(v) {
    if (Number.isNaN(v)) return 'NaN';
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    return v;
  }

  /**
   * Plain-JSON form of a parsed object. opts.instances (default true): evaluate instances.
   * opts.maxArray: cut arrays longer than this (a {"$truncated": n} element marks the cut).
   */
  function dump(obj, classMap, opts) {
    opts = opts || {};
    var withInstances = opts.instances !== false;
    var maxArray = opts.maxArray || Infinity;
    var stack = [];

    function value(v) {
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'number') return number(v);
      if (typeof v === 'boolean' || typeof v === 'string') return v;
      if (typeof v === 'bigint') return v.toString();
      if (v instanceof Uint8Array) return hex(v);
      if (Array.isArray(v)) {
        var out = [];
        var n = Math.min(v.length, maxArray);
        for (var i = 0; i < n; i++) {
          var e = value(v[i]);
          out.push(e === undefined ? null : e);
        }
        if (v.length > n) out.push({ $truncated: v.length });
        return out;
      }
      if (isStream(v)) return undefined;
      if (isStruct(v)) return struct(v);
      return String(v);
    }

    function struct(o) {
      if (stack.indexOf(o) >= 0) return { $cycle: true };
      var info = classMap.get(o.constructor);
      if (!info) throw new Error('object of unknown class ' + (o.constructor && o.constructor.name));
      stack.push(o);
      var out = {};
      info.seq.forEach(function (f) {
        if (!Object.prototype.hasOwnProperty.call(o, f.js)) return;
        var v = value(o[f.js]);
        if (v !== undefined) out[f.id] = v;
      });
      if (withInstances) {
        info.instances.forEach(function (f) {
          var v;
          try {
            v = value(o[f.js]);
          } catch (e) {
            v = { $error: (e && (e.name || (e.constructor && e.constructor.name))) || 'Error' };
          }
          if (v !== undefined) out[f.id] = v;
        });
      }
      stack.pop();
      return out;
    }

    return value(obj);
  }

  /**
   * The spec's dotted path (`animations[0].tracks[1].keys[4].frame`) for the segments of
   * AnimFormats.locateFailure(). Instances keep kaitai_read.py's `_m_` prefix unless
   * opts.bareInstances.
   */
  function fieldPath(segments, classMap, opts) {
    opts = opts || {};
    return segments.map(function (seg) {
      var info = seg.owner ? classMap.get(seg.owner.constructor) : null;
      var instance = seg.name.slice(0, 3) === '_m_';
      var js = instance ? seg.name.slice(3) : seg.name;
      var fields = info ? (instance ? info.instances : info.seq) : [];
      var field = fields.filter(function (x) { return x.js === js; })[0];
      var name = (instance && !opts.bareInstances ? '_m_' : '') + (field ? field.id : js);
      return name + (seg.index !== undefined ? '[' + seg.index + ']' : '');
    }).join('.');
  }

  return {
    fieldPath: fieldPath,
    upperCamel: upperCamel,
    lowerCamel: lowerCamel,
    buildClassMap: buildClassMap,
    dump: dump,
    isStruct: isStruct,
    hex: hex,
  };
});
