#!/usr/bin/env node
// js_dump.js: parse files with the JavaScript parsers generated from ksy/ and print every
// seq field and instance as canonical JSON (the form described in web/js/ksy_walk.js).
//
// tests/test_js_parsers.py builds the same JSON from the Python parsers in generated/ and
// compares the two field by field; the browser viewer (web/) uses the same walker, the same
// format detection (web/js/formats.js) and the same debug-mode JavaScript parsers.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const Module = require('module');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const yaml = require(path.join(ROOT, 'node_modules', 'js-yaml'));
const KsyWalk = require(path.join(ROOT, 'web', 'js', 'ksy_walk.js'));
const AnimFormats = require(path.join(ROOT, 'web', 'js', 'formats.js'));

const USAGE = `usage: node tools/js_dump.js [options] FILE...

Parses each FILE (format from its magic: ANIMBIN, MESHBIN or .animclip) with the JavaScript
parser compiled from ksy/ and prints JSON: one object for one FILE, an array for several.
Each object: {"path", "format", "error": null or {"name", "message", "field", "offset"},
"inflated", "root"}. After a parse error "root" is the partly read tree, seq fields only,
and "field"/"offset" say where parsing stopped (as python/animspec/kaitai_read.py does).

  --parsers DIR   load debug-mode parsers from DIR (e.g. web/build/parsers) instead of
                  compiling ksy/*.ksy (compiled parsers are cached in build/js-parsers/)
  --ksy DIR       folder of the .ksy specs (default: ksy/ of this repository)
  --format F      parse every FILE as F (animbin, animclip or meshbin) instead of detecting
  --inflate       decompress an LZ4-compressed .animclip body first (as the viewer does)
  --no-instances  seq fields only
  --max-array N   cut arrays after N elements
  --compact       one line of JSON`;

function usage(msg) {
  console.error(`js_dump: ${msg}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { parsers: null, ksy: path.join(ROOT, 'ksy'), format: null, inflate: false, instances: true, maxArray: Infinity, compact: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--parsers') o.parsers = path.resolve(value());
    else if (a === '--ksy') o.ksy = path.resolve(value());
    else if (a === '--format') o.format = value();
    else if (a === '--inflate') o.inflate = true;
    else if (a === '--no-instances') o.instances = false;
    else if (a === '--max-array') o.maxArray = Number(value());
    else if (a === '--compact') o.compact = true;
    else if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
    else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else o.files.push(a);
  }
  if (!o.files.length) usage('no files given');
  if (o.format && !['animbin', 'animclip', 'meshbin'].includes(o.format)) usage(`unknown format ${o.format}`);
  return o;
}

function loadSpecs(ksyDir) {
  const specs = {};
  for (const f of fs.readdirSync(ksyDir).filter((n) => n.endsWith('.ksy')).sort()) {
    const spec = yaml.load(fs.readFileSync(path.join(ksyDir, f), 'utf8'), { schema: yaml.CORE_SCHEMA });
    specs[spec.meta.id] = { spec, file: path.join(ksyDir, f) };
  }
  return specs;
}

/** Compile ksy/*.ksy (debug mode) into a content-addressed cache folder; return it. */
function compiledParsers(specs) {
  const h = crypto.createHash('sha256');
  const compilerPkg = path.join(ROOT, 'node_modules', 'kaitai-struct-compiler', 'package.json');
  h.update(fs.readFileSync(compilerPkg));
  h.update(fs.readFileSync(path.join(ROOT, 'tools', 'ksc.js')));
  for (const id of Object.keys(specs).sort()) h.update(id).update(fs.readFileSync(specs[id].file));
  const cacheRoot = path.join(ROOT, 'build', 'js-parsers');
  const dir = path.join(cacheRoot, h.digest('hex').slice(0, 16));
  if (fs.existsSync(path.join(dir, '.complete'))) return dir;
  fs.mkdirSync(cacheRoot, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(cacheRoot, 'tmp-'));
  const files = Object.keys(specs).sort().map((id) => specs[id].file);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'tools', 'ksc.js'), '-t', 'javascript', '--debug', '-d', tmp, ...files], { encoding: 'utf8' });
  if (r.status !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    console.error(r.stderr || r.stdout);
    process.exit(1);
  }
  fs.writeFileSync(path.join(tmp, '.complete'), '');
  try {
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true }); // another process won the race
  }
  return dir;
}

/** Generated parsers require('kaitai-struct/KaitaiStream'): resolve it to this repo's copy
 * wherever the parsers live. */
function pinRuntime() {
  const runtime = require.resolve(path.join(ROOT, 'node_modules', 'kaitai-struct', 'KaitaiStream.js'));
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'kaitai-struct/KaitaiStream' || request === 'kaitai-struct') return runtime;
    return original.call(this, request, ...rest);
  };
  return require(runtime);
}

function loadParsers(dir, specs) {
  const parsers = {};
  const classMap = new Map();
  for (const id of Object.keys(specs)) {
    const name = KsyWalk.upperCamel(id);
    const file = path.join(dir, `${name}.js`);
    if (!fs.existsSync(file)) throw new Error(`${file} is missing (compile ksy/${id}.ksy with --debug)`);
    const Cls = require(file)[name];
    if (Cls.prototype._read === undefined || /this\._read\(\)/.test(Cls.toString())) {
      throw new Error(`${file} is not a debug-mode parser (compile with --debug)`);
    }
    parsers[id] = Cls;
    KsyWalk.buildClassMap(specs[id].spec, Cls, classMap);
  }
  return { parsers, classMap };
}

function errorInfo(e) {
  if (!e) return null;
  return { name: e.name || (e.constructor && e.constructor.name) || 'Error', message: String(e.message || e) };
}

/** Specs, KaitaiStream, parsers and class map: everything a node script needs to parse. */
function loadAll(parsersDir, ksyDir) {
  const specs = loadSpecs(ksyDir || path.join(ROOT, 'ksy'));
  const KaitaiStream = pinRuntime();
  const { parsers, classMap } = loadParsers(parsersDir || compiledParsers(specs), specs);
  return { specs, KaitaiStream, parsers, classMap };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { KaitaiStream, parsers, classMap } = loadAll(opts.parsers, opts.ksy);
  const results = opts.files.map((file) => {
    const data = fs.readFileSync(file);
    const r = AnimFormats.parseFile(data, path.basename(file), parsers, KaitaiStream, { format: opts.format, inflate: opts.inflate });
    const out = { path: file, format: r.format, error: errorInfo(r.error), inflated: null, root: null };
    if (r.error && r.root) {
      // where it stopped, as python/animspec/kaitai_read.py locate_failure() names it
      const loc = AnimFormats.locateFailure(r.root);
      out.error.field = KsyWalk.fieldPath(loc.segments, classMap);
      out.error.offset = loc.offset;
    }
    if (r.inflated) {
      out.inflated = r.inflated.error ? { error: r.inflated.error } : { magic_offset: r.inflated.magicOffset, compressed_size: r.inflated.compressedSize, size: r.inflated.size };
    }
    if (r.root) out.root = KsyWalk.dump(r.root, classMap, { instances: opts.instances && !r.error, maxArray: opts.maxArray });
    return out;
  });
  const doc = results.length === 1 ? results[0] : results;
  process.stdout.write(JSON.stringify(doc, null, opts.compact ? 0 : 1) + '\n');
}

module.exports = { loadAll, loadSpecs, compiledParsers, errorInfo };

if (require.main === module) main();
