#!/usr/bin/env node
// ksc.js: a command line for the npm build of the Kaitai Struct compiler.
//
// The npm package `kaitai-struct-compiler` only exposes a JavaScript API
// (compile(lang, yamlObject, importer, debug)). This wrapper parses YAML exactly as the
// Kaitai Web IDE does (js-yaml, CORE_SCHEMA), resolves relative imports against the folder
// of the spec being compiled (the Web IDE resolves them against the root spec's folder;
// keeping every spec in ksy/ makes the two agree), and turns compiler errors into lines
// naming the file, the target and the YAML path, with a non-zero exit status.
//
// Warnings. The JS API keeps only the first error and drops every warning (style warnings
// such as "use `num_floats` instead of `num_words`", an unknown `encoding`...), and so does
// the Web IDE, which uses that API. This wrapper loads the compiler with a one-line hook
// (see loadCompiler) that records every problem the compiler reports, and fails on any
// warning, unless the spec justifies it (see `-count-shared-by` below).
//
// It also checks what the compiler does not: meta/id must equal the file's base name
// (a convention of every spec in kaitai_struct_formats), and with --lint the gallery
// conventions and the `-webide-representation` labels the Web IDE can render.
'use strict';

const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');
const Module = require('module');

// The line of the compiler (npm 0.11.0) where the JS API holds every problem of a compile,
// just before it throws the first error and forgets the rest. The hook hands each problem
// to `module.kscProblemSink` (the module object this file creates to load the compiler).
const HOOK_POINT = 'var problems = $as_sc_Iterable(problems$2);';
const HOOK = ' if (module.kscProblemSink) $n(problems).foreach__F1__V(new $c_sjsr_AnonFunction1((p) => {' +
  ' module.kscProblemSink({' +
  ' severity: $n($n(p).severity__Lio_kaitai_struct_problems_ProblemSeverity()).message__T(),' +
  ' where: $n($n(p).coords__Lio_kaitai_struct_problems_ProblemCoords()).message__T(),' +
  ' text: $n(p).text__T() }); }));';

function loadCompiler() {
  const main = require.resolve('kaitai-struct-compiler');
  const src = fs.readFileSync(main, 'utf8');
  const at = src.indexOf(HOOK_POINT);
  if (at < 0 || src.indexOf(HOOK_POINT, at + 1) >= 0) {
    const version = JSON.parse(fs.readFileSync(path.join(path.dirname(main), 'package.json'), 'utf8')).version;
    console.error(`ksc: kaitai-struct-compiler ${version}: cannot find the one place where it collects ` +
      'its problems (tools/ksc.js knows the 0.11.0 build); without it warnings would go unseen');
    process.exit(3);
  }
  const m = new Module(main, module);
  m.filename = main;
  m.paths = Module._nodeModulePaths(path.dirname(main));
  m._compile(src.slice(0, at + HOOK_POINT.length) + HOOK + src.slice(at + HOOK_POINT.length), main);
  return m;
}

const compilerModule = loadCompiler();
const compiler = compilerModule.exports;

const USAGE = `usage: node tools/ksc.js [-t LANG]... [-d OUTDIR] [--debug] [--list-targets] FILE.ksy...

  -t LANG         target language (repeatable; "all" = every target); default python
  -d OUTDIR       output folder; with more than one target, one sub-folder per target
  --debug         debug mode (positions of every field, no auto-read), as the Web IDE uses
  --check         compile only, write nothing
  --lint          also check the kaitai_struct_formats conventions (meta keys, doc everywhere)
                  and what the Web IDE can show (-webide-representation labels, parameters)
  --list-targets  print the compiler's targets and exit

Every problem the compiler reports is printed, warnings included, and any warning fails
the build. The one exception: a style warning about a count or length that several arrays
share (the compiler wants it named after one of them), when the member lists those arrays
in \`-count-shared-by\` and says why in its doc. A listed array that draws no warning is
an error too, so the list cannot go stale.

Exit status: 0 on success, 1 on any spec error or warning, 2 on bad usage,
3 when the installed compiler is not the build this wrapper can hook.`;

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
// (counted over kaitai-io/kaitai_struct_formats' specs): meta carries id, title, license and
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
  problems.push(...representationProblems(spec), ...parameterProblems(spec));
  return problems.map((p) => `${file}: ${p}`);
}

// The Web IDE lists a type's parameters among its parsed fields. A stream (`io`) shows as
// an expandable KaitaiStream whose members fail when clicked; an object (`struct`, `any`, a
// user type) repeats a whole subtree at every level. Numbers, booleans, strings and bytes
// show as plain values.
function parameterProblems(spec) {
  const problems = [];
  const typeNames = new Set();
  const collect = (type) => {
    for (const [name, sub] of Object.entries(type.types || {})) {
      typeNames.add(name);
      collect(sub);
    }
  };
  collect(spec);
  const visit = (type, at) => {
    (type.params || []).forEach((p, i) => {
      const t = String(p.type || '').replace(/\[\]$/, '');
      if (t === 'io' || t === 'struct' || t === 'any' || typeNames.has(t.split('::').pop())) {
        problems.push(`${at}/params/${i} (${p.id}): type ${p.type} shows in the Web IDE's tree as a node of ` +
          'its own (a stream, or a copy of a subtree); hand down numbers, or reach the data through _root or _parent');
      }
    });
    for (const [name, sub] of Object.entries(type.types || {})) visit(sub, `${at}/types/${name}`);
  };
  visit(spec, '');
  return problems;
}

// What the Web IDE (stable deploy, v1 parsedToTree.reprObject) can render in a
// `-webide-representation` label. `{a.b:opts}` walks fields by name; an array is rendered
// by labelling each item as an object, so an array of numbers throws in the IDE
// ("Cannot read properties of undefined (reading 'ksyType')") and its node never expands.
// Options are split on ",", so a separator cannot contain a comma. A lazy instance is not
// among the fields the label sees (it shows as nothing) unless it is parsed eagerly.
const REPR_OPTIONS = /^(dec|hex|str|flags|uuid(=ms)?|sep=[^,]*)$/;
const PRIMITIVE = /^([us][1248]|f[48]|b\d+)(be|le)?$|^(str|strz)$/;

function representationProblems(spec) {
  const problems = [];
  const types = {};
  const collect = (type) => {
    for (const [name, sub] of Object.entries(type.types || {})) {
      types[name] = sub;
      collect(sub);
    }
  };
  collect(spec);
  const memberOf = (type, name) => {
    const field = (type.seq || []).find((m) => m.id === name) || (type.params || []).find((m) => m.id === name);
    if (field) return { member: field, visible: true };
    const inst = (type.instances || {})[name];
    if (inst) return { member: inst, visible: inst['-webide-parse-mode'] === 'eager' };
    return null;
  };
  const check = (type, at) => {
    const repr = type['-webide-representation'];
    if (typeof repr === 'string') {
      for (const [, ref] of repr.matchAll(/\{(.*?)\}/g)) {
        const [refPath, ...rest] = ref.split(':');
        const where = `${at}/-webide-representation: {${ref}}`;
        for (const opt of rest.join(':').split(',').filter((o) => rest.length)) {
          if (!REPR_OPTIONS.test(opt)) problems.push(`${where}: the IDE reads "${opt}" as an option it does not know (options are split on ",")`);
        }
        let current = type;
        for (const name of refPath.split('.')) {
          if (name === '_parent' || name === 'this') break;
          const found = current && memberOf(current, name);
          if (!found) {
            problems.push(`${where}: no field \`${name}\` to show`);
            break;
          }
          if (!found.visible) problems.push(`${where}: \`${name}\` is a lazy instance: the IDE shows nothing for it (make it -webide-parse-mode: eager)`);
          const t = found.member.type;
          const userType = typeof t === 'string' ? types[t.replace(/\(.*$/s, '')] : null;
          if (found.member.repeat && !userType && !(t && typeof t === 'object')) {
            problems.push(`${where}: \`${name}\` is an array of numbers or bytes: the IDE's label code throws on it and the node never expands`);
          }
          current = userType;
        }
      }
    }
    for (const [name, sub] of Object.entries(type.types || {})) check(sub, `${at}/types/${name}`);
  };
  check(spec, '');
  return problems;
}

function describeCompilerError(e) {
  // Scala.js exceptions carry the message as "<spec id>: /yaml/path:\n\terror: text".
  if (e instanceof SpecError) return e.message;
  const msg = e && e.getMessage__T ? e.getMessage__T() : String(e);
  return msg.replace(/\s*\n\s*/g, ' ').trim();
}

// One problem as the compiler reported it, as one line: "FILE [TARGET]: /yaml/path: text".
// The compiler names the spec by its meta/id (or "(main)"); the wrapper names the file.
function describeProblem(file, target, p) {
  const yamlPath = p.where.replace(/^[^:]*:\s*/, '');
  return `${file} [${target}]: ${yamlPath ? yamlPath + ': ' : ''}${p.text}`;
}

// The member a problem's YAML path points at ("/types/x/instances/num_y/id" -> that
// instance's mapping and "/types/x/instances/num_y"), or null.
function memberAt(spec, where) {
  const m = /(\/\S*)\/id$/.exec(where.replace(/^[^:]*:\s*/, ''));
  if (!m) return null;
  let node = spec;
  for (const key of m[1].split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return null;
    node = node[/^\d+$/.test(key) && Array.isArray(node) ? Number(key) : key];
  }
  return node && typeof node === 'object' ? { member: node, at: m[1] } : null;
}

// The compiler's two style warnings name the array a count or length sizes:
// "... only used as repeat count of `foos`" / "... as a byte size of `foo`".
const STYLE_WARNING = /^use `\w+` instead of `(\w+)`, given that it's only used as (?:repeat count|a byte size) of `(\w+)`/;

// Splits the compiler's warnings into those the spec justifies and those it does not
// (returned as lines), and reports listed arrays that drew no warning.
function unjustifiedWarnings(file, target, spec, warnings) {
  const bad = [];
  const used = new Set();
  for (const w of warnings) {
    const style = STYLE_WARNING.exec(w.text);
    const found = style && memberAt(spec, w.where);
    const shared = found && found.member['-count-shared-by'];
    if (Array.isArray(shared) && shared.includes(style[2])) used.add(`${found.at}\u0000${style[2]}`);
    else bad.push(`warning: ${describeProblem(file, target, w)}`);
  }
  for (const { member, at } of sharedCountMembers(spec)) {
    const list = member['-count-shared-by'];
    if (!Array.isArray(list)) {
      bad.push(`error: ${file}: ${at}/-count-shared-by: must be a list of the arrays that share this count`);
      continue;
    }
    for (const name of list) {
      if (!used.has(`${at}\u0000${name}`)) {
        bad.push(`error: ${file}: ${at}/-count-shared-by: \`${name}\` does not take its count or size ` +
          `from \`${member.id || at.split('/').pop()}\` by name (no compiler warning to excuse): remove it`);
      }
    }
  }
  return bad;
}

// Every seq field, param and instance that carries `-count-shared-by`, with its YAML path.
function sharedCountMembers(spec) {
  const out = [];
  const visit = (type, at) => {
    const check = (member, where) => {
      if (member && member['-count-shared-by'] !== undefined) out.push({ member, at: where });
    };
    (type.seq || []).forEach((m, i) => check(m, `${at}/seq/${i}`));
    (type.params || []).forEach((m, i) => check(m, `${at}/params/${i}`));
    for (const [name, inst] of Object.entries(type.instances || {})) check(inst, `${at}/instances/${name}`);
    for (const [name, sub] of Object.entries(type.types || {})) visit(sub, `${at}/types/${name}`);
  };
  visit(spec, '');
  return out;
}

// Compiles one spec for one target; returns the lines to print for problems (errors and
// unjustified warnings), empty when the compile is clean.
async function compileOne(file, spec, target, opts) {
  const problems = [];
  compilerModule.kscProblemSink = (p) => problems.push(p);
  let files;
  try {
    // The compiler may annotate the object it is given; each target gets its own copy.
    files = await compiler.compile(target, structuredClone(spec), importerFor(file), opts.debug);
  } catch (e) {
    const errors = problems.filter((p) => p.severity !== 'warning');
    const lines = errors.length ? errors.map((p) => `error: ${describeProblem(file, target, p)}`)
      : [`error: ${file} [${target}]: ${describeCompilerError(e)}`];
    return lines.concat(problems.filter((p) => p.severity === 'warning').map((p) => `warning: ${describeProblem(file, target, p)}`));
  } finally {
    compilerModule.kscProblemSink = null;
  }
  const seen = new Set();
  const warnings = problems.filter((p) => {
    const key = p.where + '\n' + p.text;
    return !seen.has(key) && seen.add(key);
  });
  const bad = unjustifiedWarnings(file, target, spec, warnings);
  if (bad.length || opts.check) return bad;
  const dir = opts.targets.length > 1 ? path.join(opts.outDir, target) : opts.outDir;
  for (const [name, contents] of Object.entries(files)) {
    const out = path.join(dir, name);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, contents);
  }
  return [];
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
    // Warnings come from checks before code generation, so every target repeats them:
    // each distinct line is printed once.
    const printed = new Set();
    for (const target of opts.targets) {
      const lines = await compileOne(file, spec, target, opts);
      if (lines.length) failed++;
      for (const line of lines) {
        const key = line.replace(/ \[[a-z_]+\]:/, ':');
        if (printed.has(key)) continue;
        printed.add(key);
        console.error(`ksc: ${line}`);
      }
    }
  }
  if (!failed) writePythonInit(opts);
  process.exit(failed ? 1 : 0);
}

main();
