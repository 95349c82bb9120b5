#!/usr/bin/env node
// build_diagrams.js: the structure diagram of each spec in ksy/, as SVG, for docs/diagrams/.
//
// The compiler's `graphviz` target (through tools/ksc.js, so a spec with a warning fails here
// too) writes one .dot file per spec: every type as a table of its fields with offsets and
// sizes, arrows from each field to its type and from each size or count to what uses it.
// Graphviz's `dot` (Debian package graphviz) lays it out as SVG. tests/test_diagrams.py
// rebuilds them and fails when docs/diagrams/ is stale, like generated/.
//
//   node tools/build_diagrams.js [--out DIR]     (default docs/diagrams; `make docs`)
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');

// The compiler's graphviz output draws arrows to a "<name>_type" port on the rows of value
// instances and parameters, and those rows have no such port; dot then ends the arrow at the
// table instead and says so, once per arrow. The diagram is right; the notes are dropped.
const KNOWN_DOT_NOTE = /^Warning: node \w+, port \w+ unrecognized$/;

function fail(msg) {
  console.error(`build_diagrams: ${msg}`);
  process.exit(1);
}

function main() {
  const args = process.argv.slice(2);
  let out = path.join(ROOT, 'docs', 'diagrams');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && i + 1 < args.length) out = path.resolve(args[++i]);
    else fail(`unknown argument ${args[i]} (usage: node tools/build_diagrams.js [--out DIR])`);
  }
  const dot = spawnSync('dot', ['-V'], { encoding: 'utf8' });
  if (dot.error) fail('graphviz is not installed (`dot` not found): apt-get install graphviz');

  const specs = fs.readdirSync(path.join(ROOT, 'ksy')).filter((f) => f.endsWith('.ksy')).sort()
    .map((f) => path.join(ROOT, 'ksy', f));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'animspec-diagrams-'));
  try {
    const ksc = spawnSync(process.execPath, [path.join(ROOT, 'tools', 'ksc.js'), '-t', 'graphviz', '-d', work, ...specs],
      { encoding: 'utf8' });
    if (ksc.status !== 0) fail(`the compiler failed:\n${ksc.stderr}`);
    fs.mkdirSync(out, { recursive: true });
    for (const spec of specs) {
      const name = path.basename(spec, '.ksy');
      const source = path.join(work, `${name}.dot`);
      const r = spawnSync('dot', ['-Tsvg', source], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const notes = (r.stderr || '').split('\n').filter((l) => l && !KNOWN_DOT_NOTE.test(l));
      if (r.status !== 0 || notes.length) fail(`dot on ${name}.dot: ${notes.join('\n') || `exit ${r.status}`}`);
      // Atomic: a reader never sees half a diagram, and a failed run leaves the old one.
      const target = path.join(out, `${name}.svg`);
      const tmp = `${target}.tmp-${process.pid}`;
      fs.writeFileSync(tmp, r.stdout);
      fs.renameSync(tmp, target);
      console.log(path.relative(process.cwd(), target) || target);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
