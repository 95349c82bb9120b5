#!/usr/bin/env node
// build_web.js: build the static browser viewer in web/ (`make web`).
//
// Writes web/build/ (gitignored), everything web/index.html loads besides web/js/ and
// web/viewer.css:
//   parsers/*.js     debug-mode JavaScript parsers compiled from ksy/*.ksy by tools/ksc.js
//                    (the same code tools/js_dump.js and tests/test_js_parsers.py check)
//   parsers.js       all of them in one classic script, plus window.ANIMSPEC_PARSERS
//   KaitaiStream.js  the kaitai-struct 0.11 runtime (UMD: window.KaitaiStream)
//   specs.js         the .ksy specs as JSON (window.ANIMSPEC_SPECS), for field names and docs
//   three.js         three.js (ES modules only since r160), its OrbitControls and GLTFLoader, rewritten
//                    into one classic script defining window.THREE, because Chromium does not
//                    load ES modules from file:// pages
//
// The page then works from file:// and from any static server. No network is used.
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const NM = path.join(ROOT, 'node_modules');
const yaml = require(path.join(NM, 'js-yaml'));

function usage() {
  console.log(`usage: node tools/build_web.js [--out DIR]

Builds the browser viewer's web/build/ (default) from ksy/*.ksy and node_modules.`);
  process.exit(0);
}

function die(msg) {
  console.error(`build_web: ${msg}`);
  process.exit(1);
}

function upperCamel(id) {
  return id.split('_').map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
}

function compileParsers(outDir, ksyFiles) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const r = spawnSync(process.execPath, [path.join(ROOT, 'tools', 'ksc.js'), '-t', 'javascript', '--debug', '-d', outDir, ...ksyFiles], { encoding: 'utf8' });
  if (r.status !== 0) die(`compiling the specs failed:\n${r.stderr}${r.stdout}`);
}

// --- ES module -> classic script ----------------------------------------------------------------

const IMPORT_RE = /^import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]\s*;?[ \t]*$/gm;
const EXPORT_FROM_RE = /^export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]\s*;?[ \t]*$/gm;
const EXPORT_RE = /^export\s*\{([^}]*)\}\s*;?[ \t]*$/gm;

function specifiers(list) {
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?$/.exec(s);
    if (!m) throw new Error(`cannot read import/export specifier "${s}"`);
    return { local: m[1], exported: m[2] || m[1] };
  });
}

/**
 * Rewrite one ES module that only uses `import {..} from`, `export {..} from` and
 * `export {..}` (what three's build files and addons use) into a function body that reads
 * its imports from `__modules[spec]` and stores its exports in `__modules[id]`.
 */
function moduleToFunction(source, id, resolve) {
  let body = source;
  const exportsOut = [];
  body = body.replace(EXPORT_FROM_RE, (_, list, from) => {
    const dep = resolve(from);
    for (const s of specifiers(list)) exportsOut.push(`${JSON.stringify(s.exported)}: __modules[${JSON.stringify(dep)}][${JSON.stringify(s.local)}]`);
    return '';
  });
  body = body.replace(IMPORT_RE, (_, list, from) => {
    const dep = resolve(from);
    return specifiers(list).map((s) => `const ${s.exported} = __modules[${JSON.stringify(dep)}][${JSON.stringify(s.local)}];`).join(' ');
  });
  body = body.replace(EXPORT_RE, (_, list) => {
    for (const s of specifiers(list)) exportsOut.push(`${JSON.stringify(s.exported)}: ${s.local}`);
    return '';
  });
  const leftover = /^\s*(import|export)\b[^\n]*/m.exec(body);
  if (leftover) throw new Error(`${id}: unsupported module syntax: ${leftover[0].slice(0, 80)}`);
  if (/\bimport\s*\(|\bimport\.meta\b/.test(body.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''))) {
    throw new Error(`${id}: dynamic import or import.meta is not supported`);
  }
  return `// ---- ${id}\n__modules[${JSON.stringify(id)}] = (function () {\n'use strict';\n${body}\nreturn { ${exportsOut.join(', ')} };\n})();\n`;
}

function bundleThree() {
  const threeDir = path.join(NM, 'three');
  const version = JSON.parse(fs.readFileSync(path.join(threeDir, 'package.json'), 'utf8')).version;
  const files = [
    ['three.core', path.join(threeDir, 'build', 'three.core.js')],
    ['three', path.join(threeDir, 'build', 'three.module.js')],
    ['OrbitControls', path.join(threeDir, 'examples', 'jsm', 'controls', 'OrbitControls.js')],
    // GLTFLoader reads a glTF / GLB rig for .animclip playback (joint names, parents, rest pose)
    ['BufferGeometryUtils', path.join(threeDir, 'examples', 'jsm', 'utils', 'BufferGeometryUtils.js')],
    ['SkeletonUtils', path.join(threeDir, 'examples', 'jsm', 'utils', 'SkeletonUtils.js')],
    ['GLTFLoader', path.join(threeDir, 'examples', 'jsm', 'loaders', 'GLTFLoader.js')],
  ];
  const resolve = (spec) => {
    if (spec === 'three') return 'three';
    if (spec === './three.core.js') return 'three.core';
    if (spec === '../utils/BufferGeometryUtils.js') return 'BufferGeometryUtils';
    if (spec === '../utils/SkeletonUtils.js') return 'SkeletonUtils';
    throw new Error(`unexpected import "${spec}"`);
  };
  let out = `/* three.js ${version} (MIT, Copyright 2010-2026 Three.js Authors) and its OrbitControls and GLTFLoader addons,\n`
    + ` * rewritten from ES modules into one classic script by tools/build_web.js: window.THREE. */\n`
    + `(function (global) {\nvar __modules = {};\n`;
  for (const [id, file] of files) {
    if (!fs.existsSync(file)) die(`${file} is missing: run npm ci`);
    out += moduleToFunction(fs.readFileSync(file, 'utf8'), id, resolve);
  }
  out += `var THREE = Object.assign({}, __modules['three']);\nTHREE.OrbitControls = __modules['OrbitControls'].OrbitControls;\nTHREE.GLTFLoader = __modules['GLTFLoader'].GLTFLoader;\nglobal.THREE = Object.freeze(THREE);\n})(typeof self !== 'undefined' ? self : this);\n`;
  return { source: out, version };
}

function main() {
  const args = process.argv.slice(2);
  if (args.includes('-h') || args.includes('--help')) usage();
  const outIdx = args.indexOf('--out');
  const out = outIdx >= 0 ? path.resolve(args[outIdx + 1]) : path.join(ROOT, 'web', 'build');
  for (const m of ['kaitai-struct-compiler', 'kaitai-struct', 'js-yaml', 'three']) {
    if (!fs.existsSync(path.join(NM, m))) die(`node_modules/${m} is missing: run npm ci`);
  }
  const ksyDir = path.join(ROOT, 'ksy');
  const ksyFiles = fs.readdirSync(ksyDir).filter((f) => f.endsWith('.ksy')).sort().map((f) => path.join(ksyDir, f));
  fs.mkdirSync(out, { recursive: true });

  const parsersDir = path.join(out, 'parsers');
  compileParsers(parsersDir, ksyFiles);

  const specs = {};
  let parsersJs = '/* Debug-mode parsers compiled from ksy/ by tools/ksc.js (kaitai-struct-compiler '
    + `${require(path.join(NM, 'kaitai-struct-compiler', 'package.json')).version}); built by tools/build_web.js. */\n`;
  const registry = [];
  for (const file of ksyFiles) {
    const spec = yaml.load(fs.readFileSync(file, 'utf8'), { schema: yaml.CORE_SCHEMA });
    const id = spec.meta.id;
    specs[id] = spec;
    const cls = upperCamel(id);
    parsersJs += `\n// ---- ${cls}.js (ksy/${path.basename(file)})\n` + fs.readFileSync(path.join(parsersDir, `${cls}.js`), 'utf8');
    registry.push(`  ${JSON.stringify(id)}: self.${cls}.${cls}`);
  }
  parsersJs += `\nself.ANIMSPEC_PARSERS = {\n${registry.join(',\n')}\n};\n`;
  fs.writeFileSync(path.join(out, 'parsers.js'), parsersJs);

  const build = {
    compiler: require(path.join(NM, 'kaitai-struct-compiler', 'package.json')).version,
    runtime: require(path.join(NM, 'kaitai-struct', 'package.json')).version,
    three: null,
    specs: ksyFiles.map((f) => path.basename(f)),
  };
  const three = bundleThree();
  build.three = three.version;
  fs.writeFileSync(path.join(out, 'three.js'), three.source);
  fs.copyFileSync(path.join(NM, 'kaitai-struct', 'KaitaiStream.js'), path.join(out, 'KaitaiStream.js'));
  fs.writeFileSync(path.join(out, 'specs.js'),
    `/* The specs in ksy/ as JSON, for field names and docs in the viewer (tools/build_web.js). */\n`
    + `self.ANIMSPEC_SPECS = ${JSON.stringify(specs)};\nself.ANIMSPEC_BUILD = ${JSON.stringify(build)};\n`);

  // Smoke test: the classic scripts evaluate and define what the page expects.
  const vm = require('vm');
  const ctx = { console, TextDecoder, Uint8Array, ArrayBuffer, DataView };
  ctx.self = ctx;
  vm.createContext(ctx);
  for (const f of ['KaitaiStream.js', 'parsers.js', 'specs.js', 'three.js']) {
    vm.runInContext(fs.readFileSync(path.join(out, f), 'utf8'), ctx, { filename: f });
  }
  vm.runInContext('self.KaitaiStream = KaitaiStream;', ctx);
  if (!ctx.THREE || !ctx.THREE.WebGLRenderer || !ctx.THREE.OrbitControls || !ctx.THREE.GLTFLoader || ctx.THREE.REVISION !== three.version.split('.')[1]) {
    die('the three.js bundle does not define THREE.WebGLRenderer / THREE.OrbitControls / THREE.GLTFLoader');
  }
  for (const id of Object.keys(specs)) if (typeof ctx.ANIMSPEC_PARSERS[id] !== 'function') die(`parser ${id} missing from parsers.js`);
  console.log(`web/build: ${Object.keys(specs).join(', ')} parsers; three ${three.version}; open web/index.html`);
}

main();
