/*
 * tree.js: the "Structure" panel, a collapsible tree of a parsed Kaitai object.
 *
 * Field names, order, docs and enums come from the .ksy specs (web/build/specs.js, read
 * through KsyWalk.buildClassMap), byte ranges from the debug-mode parser's `_debug`
 * records, one-line summaries from each type's `-webide-representation` (the Kaitai Web
 * IDE's syntax). Children are built when a node is opened; `repeat` instances (possibly
 * millions of elements) are only evaluated when opened.
 */
(function (root) {
  'use strict';

  var CHUNK = 100;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function isStruct(v) { return KsyWalk.isStruct(v); }

  function hexBytes(b, max) {
    var n = Math.min(b.length, max);
    var parts = [];
    for (var i = 0; i < n; i++) parts.push((b[i] < 16 ? '0' : '') + b[i].toString(16));
    return parts.join(' ') + (b.length > n ? ' …' : '');
  }

  function printable(b) {
    if (!b.length) return null;
    for (var i = 0; i < b.length; i++) if (b[i] < 32 || b[i] > 126) return null;
    return AnimFormats.latin1(b);
  }

  function formatNumber(v, enumTable) {
    if (enumTable) {
      var name = enumTable[String(v)];
      return name ? name + ' (' + v + ')' : v + ' (not in enum)';
    }
    if (Number.isInteger(v)) return Math.abs(v) > 9 ? v + ' (0x' + (v < 0 ? '-' : '') + Math.abs(v).toString(16) + ')' : String(v);
    if (!Number.isFinite(v)) return String(v);
    return String(Number(v.toPrecision(9)));
  }

  function Tree(classMap) { this.classMap = classMap; }

  Tree.prototype.info = function (obj) { return this.classMap.get(obj.constructor); };

  /** `-webide-representation` of a struct, or its type name. */
  Tree.prototype.summary = function (obj, depth) {
    var info = this.info(obj);
    if (!info) return '';
    if (!info.repr || depth > 3) return info.name;
    var self = this;
    return info.repr.replace(/\{([^}]*)\}/g, function (_, spec) {
      var m = /^([^:]*)(?::(.*))?$/.exec(spec);
      var pathParts = m[1].split('.');
      var fmt = m[2] || '';
      var v = obj, f = null, owner = obj;
      try {
        for (var i = 0; i < pathParts.length; i++) {
          owner = v;
          var oi = self.info(v);
          f = oi ? oi.seq.concat(oi.instances).filter(function (x) { return x.id === pathParts[i]; })[0] : null;
          v = v[f ? f.js : KsyWalk.lowerCamel(pathParts[i])];
        }
      } catch (e) {
        return '?';
      }
      return self.inline(v, fmt, f, owner, depth + 1);
    });
  };

  Tree.prototype.inline = function (v, fmt, f, owner, depth) {
    if (v === undefined || v === null) return '–';
    if (typeof v === 'number') {
      if (fmt === 'dec') return String(v);
      var info = owner && this.info(owner);
      var table = f && f.enumName && info ? info.enums[f.enumName] : null;
      if (table) return table[String(v)] || String(v);
      return Number.isInteger(v) ? '0x' + (v >>> 0).toString(16) : String(Number(v.toPrecision(6)));
    }
    if (v instanceof Uint8Array) return fmt === 'str' ? AnimFormats.latin1(v) : hexBytes(v, 8);
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) {
      var sep = /^sep=(.*)$/.exec(fmt);
      var self = this;
      var items = v.slice(0, 16).map(function (e) { return self.inline(e, '', f, owner, depth); });
      return items.join(sep ? sep[1] : ', ') + (v.length > 16 ? ' …' : '');
    }
    if (isStruct(v)) return this.summary(v, depth);
    return String(v);
  };

  /** Absolute byte range of field `js` of `obj` (element `index` for arrays), or ''. */
  function range(obj, key, index) {
    var d = obj._debug && obj._debug[key];
    if (!d) return '';
    if (index !== undefined) d = d.arr && d.arr[index];
    if (!d || d.start === undefined) return '';
    var base = d.ioOffset || 0;
    var start = base + d.start;
    return d.end !== undefined ? '@' + start.toString(16) + '–' + (base + d.end).toString(16) : '@' + start.toString(16);
  }

  Tree.prototype.node = function (name, value, meta) {
    // meta: { owner, field, isInstance, range, title }
    var self = this;
    var keyEl = el('span', meta.isInstance ? 'k inst' : 'k', name);
    if (meta.title) keyEl.title = meta.title;
    var ofs = meta.range ? el('span', 'ofs', meta.range) : null;

    if (Array.isArray(value)) {
      var d = el('details');
      var s = el('summary');
      s.appendChild(keyEl);
      s.appendChild(el('span', 't', ' [' + value.length + ']'));
      if (ofs) s.appendChild(ofs);
      d.appendChild(s);
      d.addEventListener('toggle', function once() {
        if (!d.open || d.dataset.built) return;
        d.dataset.built = '1';
        self.arrayChildren(d, value, meta, 0, value.length);
      });
      return d;
    }
    if (isStruct(value)) {
      var d2 = el('details');
      var s2 = el('summary');
      s2.appendChild(keyEl);
      s2.appendChild(el('span', 't', ' ' + this.summary(value, 0)));
      if (ofs) s2.appendChild(ofs);
      d2.appendChild(s2);
      d2.addEventListener('toggle', function () {
        if (!d2.open || d2.dataset.built) return;
        d2.dataset.built = '1';
        self.structChildren(d2, value);
      });
      return d2;
    }
    var leaf = el('div', 'leaf');
    leaf.appendChild(keyEl);
    leaf.appendChild(document.createTextNode(' = '));
    leaf.appendChild(this.leafValue(value, meta));
    if (ofs) leaf.appendChild(ofs);
    return leaf;
  };

  Tree.prototype.leafValue = function (v, meta) {
    if (v instanceof Uint8Array) {
      var text = printable(v);
      var span = el('span', 'v', '[' + v.length + '] ' + hexBytes(v, 24) + (text ? '  "' + text + '"' : ''));
      return span;
    }
    if (typeof v === 'number') {
      var info = meta.owner && this.info(meta.owner);
      var table = meta.field && meta.field.enumName && info ? info.enums[meta.field.enumName] : null;
      return el('span', 'v num', formatNumber(v, table));
    }
    if (typeof v === 'string') return el('span', 'v str', JSON.stringify(v));
    if (typeof v === 'boolean') return el('span', 'v', String(v));
    return el('span', 'v', String(v));
  };

  Tree.prototype.arrayChildren = function (parent, arr, meta, from, to) {
    var self = this;
    var n = to - from;
    if (n > CHUNK) {
      var size = CHUNK;
      while (n / size > CHUNK) size *= CHUNK;
      for (var a = from; a < to; a += size) {
        (function (lo, hi) {
          var d = el('details');
          var s = el('summary');
          s.appendChild(el('span', 't', '[' + lo + ' … ' + (hi - 1) + ']'));
          d.appendChild(s);
          d.addEventListener('toggle', function () {
            if (!d.open || d.dataset.built) return;
            d.dataset.built = '1';
            self.arrayChildren(d, arr, meta, lo, hi);
          });
          parent.appendChild(d);
        })(a, Math.min(a + size, to));
      }
      return;
    }
    for (var i = from; i < to; i++) {
      var r = meta.owner && meta.field ? range(meta.owner, meta.isInstance ? '_m_' + meta.field.js : meta.field.js, i) : '';
      parent.appendChild(this.node('[' + i + ']', arr[i], { owner: meta.owner, field: meta.field, range: r }));
    }
  };

  Tree.prototype.structChildren = function (parent, obj) {
    var info = this.info(obj);
    var self = this;
    if (!info) return;
    info.seq.forEach(function (f) {
      if (!Object.prototype.hasOwnProperty.call(obj, f.js)) return;
      var v = obj[f.js];
      if (v === undefined || v === null) return;
      parent.appendChild(self.node(f.id, v, { owner: obj, field: f, range: range(obj, f.js), title: f.doc }));
    });
    info.instances.forEach(function (f) {
      if (f.repeat) {
        // Evaluated only when opened: a lazy view can be millions of elements.
        var d = el('details');
        var s = el('summary');
        var k = el('span', 'k inst', f.id);
        k.title = f.doc;
        s.appendChild(k);
        s.appendChild(el('span', 't', ' (instance, evaluated when opened)'));
        d.appendChild(s);
        d.addEventListener('toggle', function () {
          if (!d.open || d.dataset.built) return;
          d.dataset.built = '1';
          var v;
          try { v = obj[f.js]; } catch (e) { d.appendChild(el('div', 'leaf err', (e.name || 'Error') + ': ' + e.message)); return; }
          if (v === undefined || v === null) { d.appendChild(el('div', 'leaf t', 'absent')); return; }
          s.lastChild.textContent = Array.isArray(v) ? ' [' + v.length + ']' : '';
          if (Array.isArray(v)) self.arrayChildren(d, v, { owner: obj, field: f, isInstance: true }, 0, v.length);
          else d.appendChild(self.node('value', v, { owner: obj, field: f, isInstance: true }));
        });
        parent.appendChild(d);
        return;
      }
      var v;
      try {
        v = obj[f.js];
      } catch (e) {
        var bad = el('div', 'leaf');
        bad.appendChild(el('span', 'k inst', f.id));
        bad.appendChild(el('span', 'err', ' ⚠ ' + (e.name || 'Error') + ': ' + e.message));
        parent.appendChild(bad);
        return;
      }
      if (v === undefined || v === null) return;
      parent.appendChild(self.node(f.id, v, { owner: obj, field: f, isInstance: true, range: range(obj, '_m_' + f.js), title: f.doc }));
    });
  };

  /** Render `rootObj` into `container` with the top level open. */
  function render(container, rootObj, classMap, label) {
    var t = new Tree(classMap);
    var div = el('div', 'tree');
    var top = t.node(label, rootObj, { range: '' });
    if (top.tagName === 'DETAILS') top.open = true;
    div.appendChild(top);
    container.appendChild(div);
    return div;
  }

  root.AnimTree = { render: render };
})(typeof self !== 'undefined' ? self : this);
