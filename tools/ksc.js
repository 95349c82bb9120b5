#!/usr/bin/env node
// ksc.js: a command line for the npm build of the Kaitai Struct compiler.
//
// The npm package `kaitai-struct-compiler` only exposes a JavaScript API
// (compile(lang, yamlObject, importer, debug)); see ../shared/notes/kaitai-toolchain.md,
// finding 1a. This wrapper parses YAML exactly as the Kaitai Web IDE does (js-yaml,
// CORE_SCHEMA), resolves relative imports against the folder of the spec being compiled
// (the Web IDE resolves them against the root spec's folder; keeping every spec in ksy/
// makes the two agree), and turns the compiler's first error into one line naming the
// file, the target and the YAML path, with a non-zero exit status.
//
// It also checks what the compiler does not: meta/id must equal the file's base name
// (a convention of every spec in kaitai_struct_formats).
'use strict';

const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');
const compiler = require('kaitai-struct-compiler');

const USAGE = `usage: node tools/ksc.js [-t LANG]... [-d OUTDIR] [--debug] [--list-targets] FILE.ksy...

  -t LANG         target language (repeatable; "all" = every target); default python
  -d OUTDIR       output folder; with more than one target, one sub-folder per target
  --debug         debug mode (positions of every field, no auto-read), as the Web IDE uses
  --check         compile only, write nothing
  --lint          also check the kaitai_struct_formats conventions (meta keys, doc everywhere)
  --list-targets  print the compiler's targets and exit

Exit status: 0 on success, 1 on any spec error, 2 on bad usage.`;

class SpecError extends Error {}

function parseArgs(argv) {
  const opts = { targets: [], outDir: null, debug: false, check: false, lint: false, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '-t' || a === '--target') opts.targets.push(value());
    else if (a === '-d' || a === '--outdir') opts.outDir = value();
    else if (a === '--debug') opts.debug = true;
    else if (a === '--check') opts.check = true;
    else if (a === '--lint') opts.lint = true;
    else if (a === '--list-targets') {
      console.log(compiler.languages.join('\n'));
      process.exit(0);
    } else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (a.startsWith('-')) usage(`unknown option ${a}`);
    else opts.files.push(a);
  }
  if (opts.targets.length === 0) opts.targets = ['python'];
  if (opts.targets.includes('all')) opts.targets = compiler.languages.slice();
  for (const t of opts.targets) {
    if (!compiler.languages.includes(t)) usage(`unknown target ${t} (have: ${compiler.languages.join(', ')})`);
  }
  if (opts.files.length === 0) usage('no .ksy files given');
  if (!opts.check && !opts.outDir) usage('-d OUTDIR is required unless --check');
  return opts;
}

function usage(msg) {
  console.error(`ksc: ${msg}\n${USAGE}`);
  process.exit(2);
}

function loadYaml(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new SpecError(`${file}: cannot read: ${e.message}`);
  }
  try {
    // CORE_SCHEMA: what the Web IDE uses (YAML 1.2 core; no `0x1_0` integers, no
    // YAML 1.1 booleans such as `yes`).
    return yaml.load(text, { schema: yaml.CORE_SCHEMA, filename: file });
  } catch (e) {
    const where = e.mark ? `line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
    throw new SpecError(`${file}: YAML ${where}: ${e.reason || e.message}`);
  }
}

function importerFor(specFile) {
  const baseDir = path.dirname(specFile);
  return {
    importYaml(name, mode) {
      return new Promise((resolve, reject) => {
        if (mode !== 'rel') {
          // Absolute imports resolve to the IDE's bundled formats, never to our files.
          reject(new SpecError(`${specFile}: absolute import "${name}" is not supported; use a relative import`));
          return;
        }
        const file = path.join(baseDir, `${name}.ksy`);
        try {
          resolve(loadYaml(file));
        } catch (e) {
          reject(e);
        }
      });
    },
  };
}

function checkConventions(file, spec) {
  const base = path.basename(file, '.ksy');
  const id = spec && spec.meta && spec.meta.id;
  if (id !== base) {
    throw new SpecError(`${file}: /meta/id: "${id}" must equal the file name "${base}"`);
  }
}

// House conventions of kaitai_struct_formats that the compiler does not enforce
// (shared/notes/kaitai-toolchain.md, finding 5c): meta carries id, title, license and
// file-extension; the spec, every type, every field and every instance have a doc.
function lintProblems(file, spec) {
  const problems = [];
  const meta = (spec && spec.meta) || {};
  for (const key of ['id', 'title', 'license', 'file-extension']) {
    if (meta[key] === undefined) problems.push(`/meta/${key}: missing`);
  }
  if (!spec.doc) problems.push('/doc: missing');
  if (!spec['doc-ref']) problems.push('/doc-ref: missing');
  const checkType = (type, at) => {
    if (at !== '' && !type.doc) problems.push(`${at}/doc: missing`);
    (type.seq || []).forEach((field, i) => {
      if (!field.doc) problems.push(`${at}/seq/${i} (${field.id}): doc missing`);
    });
    for (const [name, inst] of Object.entries(type.instances || {})) {
      if (!inst.doc) problems.push(`${at}/instances/${name}: doc missing`);
    }
    for (const [name, sub] of Object.entries(type.types || {})) checkType(sub, `${at}/types/${name}`);
  };
  checkType(spec, '');
  return problems.map((p) => `${file}: ${p}`);
}

function describeCompilerError(e) {
  // Scala.js exceptions carry the message as "<spec id>: /yaml/path:\n\terror: text".
  if (e instanceof SpecError) return e.message;
  const msg = e && e.getMessage__T ? e.getMessage__T() : String(e);
  return msg.replace(/\s*\n\s*/g, ' ').trim();
}

async function compileOne(file, spec, target, opts) {
  let files;
  try {
    // The compiler may annotate the object it is given; each target gets its own copy.
    files = await compiler.compile(target, structuredClone(spec), importerFor(file), opts.debug);
  } catch (e) {
    throw new SpecError(`${file} [${target}]: ${describeCompilerError(e)}`);
  }
  if (opts.check) return;
  const dir = opts.targets.length > 1 ? path.join(opts.outDir, target) : opts.outDir;
  for (const [name, contents] of Object.entries(files)) {
    const out = path.join(dir, name);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, contents);
  }
}

// Python output is imported as a package (animspec.generated), so the folder needs an
// __init__.py; it is written here so that everything in the folder comes from this tool.
function writePythonInit(opts) {
  if (opts.check || !opts.targets.includes('python')) return;
  const dir = opts.targets.length > 1 ? path.join(opts.outDir, 'python') : opts.outDir;
  const modules = fs.readdirSync(dir).filter((f) => f.endsWith('.py') && f !== '__init__.py').sort();
  const names = modules.map((m) => m.replace(/\.py$/, '')).join(', ');
  const text = '# This is a generated file! Please edit the .ksy files in ksy/ and run `make generate`.\n' +
    `"""Parsers compiled by kaitai-struct-compiler ${compiler.version} from ksy/: ${names}."""\n`;
  fs.writeFileSync(path.join(dir, '__init__.py'), text);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let failed = 0;
  for (const file of opts.files) {
    let spec;
    try {
      spec = loadYaml(file);
      checkConventions(file, spec);
      const problems = opts.lint ? lintProblems(file, spec) : [];
      if (problems.length) throw new SpecError(`${problems.length} convention problem(s):\n  ${problems.join('\n  ')}`);
    } catch (e) {
      failed++;
      console.error(`ksc: error: ${describeCompilerError(e)}`);
      continue;
    }
    for (const target of opts.targets) {
      try {
        await compileOne(file, spec, target, opts);
      } catch (e) {
        failed++;
        console.error(`ksc: error: ${describeCompilerError(e)}`);
      }
    }
  }
  if (!failed) writePythonInit(opts);
  process.exit(failed ? 1 : 0);
}

main();
