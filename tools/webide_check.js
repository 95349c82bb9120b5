#!/usr/bin/env node
// webide_check.js: opens every spec in ksy/ with every example of its format in the real
// Kaitai Web IDE, the way a person does, and fails if anything goes wrong there.
//
// The IDE is its public static deploy (github.com/kaitai-io/ide-kaitai-io.github.io): pass a
// clone of it, or a git directory of one (`--ide`, or IDE_REPO in the environment). Nothing
// is fetched: this tool serves that copy on 127.0.0.1, hands the IDE the pinned npm compiler
// from node_modules/ (the deploy's stable build runs that same kaitai-struct-compiler 0.11.0,
// and git mirrors of the deploy may lack the 6.5 MB file), blocks every request that is not
// to that local server (the deploy loads an error reporter and fonts from the internet), and
// drives Debian's chromium with playwright-core. For each (spec, example) pair it:
//   1. uploads both files with the IDE's upload button (a fresh browser profile each time),
//   2. clicks the example, then the spec, and waits for the IDE to parse,
//   3. expands every node of the parsed-data tree, lazy instances included, round after
//      round until nothing is left closed,
//   4. reads the IDE's error panel, the tree's error marks and the browser console.
// A pair passes when there is no error panel, no console error, no page error, no node
// still loading or closed, no node marked with an error and no KaitaiStream shown as data.
// The expanded tree of each pair is written to OUT/SPEC__EXAMPLE.rows.txt, with a screenshot.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.resolve(__dirname, '..');
const USAGE = `usage: node tools/webide_check.js --ide PATH [--out DIR] [--max-rows N] [SPEC.ksy:FILE]...

  --ide PATH    a clone (or git directory) of github.com/kaitai-io/ide-kaitai-io.github.io;
                default: $IDE_REPO
  --out DIR     where the expanded trees and screenshots go (default build/webide-check)
  --max-rows N  stop expanding a tree past N rows and fail the pair (default 20000)
  --chromium P  the browser (default: $ANIMSPEC_CHROMIUM, /usr/bin/chromium, chromium on PATH)
  SPEC:FILE     check these pairs only (default: every ksy/*.ksy with every examples/ file
                whose extension is one of the spec's meta/file-extension)

Exit status: 0 when every pair passes, 1 when one fails, 2 on bad usage or setup.`;

function fail(msg, status = 2) {
  console.error(`webide_check: ${msg}`);
  process.exit(status);
}

function parseArgs(argv) {
  const o = { ide: process.env.IDE_REPO || null, out: path.join(ROOT, 'build', 'webide-check'), maxRows: 20000, chromium: null, pairs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : fail(`${a} needs a value\n${USAGE}`));
    if (a === '--ide') o.ide = value();
    else if (a === '--out') o.out = path.resolve(value());
    else if (a === '--max-rows') o.maxRows = Number(value());
    else if (a === '--chromium') o.chromium = value();
    else if (a === '-h' || a === '--help') { console.log(USAGE); process.exit(0); }
    else if (a.startsWith('-')) fail(`unknown option ${a}\n${USAGE}`);
    else {
      const [spec, file] = a.split(':');
      if (!file) fail(`${a}: expected SPEC.ksy:FILE`);
      o.pairs.push({ spec: path.resolve(spec), file: path.resolve(file) });
    }
  }
  if (!o.ide) fail(`no IDE copy: pass --ide PATH or set IDE_REPO (a clone of github.com/kaitai-io/ide-kaitai-io.github.io)\n${USAGE}`);
  return o;
}

// Every spec with every example of its format, by the spec's own file extensions.
function defaultPairs() {
  const yaml = require(path.join(ROOT, 'node_modules', 'js-yaml'));
  const examples = fs.readdirSync(path.join(ROOT, 'examples')).sort();
  const pairs = [];
  for (const name of fs.readdirSync(path.join(ROOT, 'ksy')).filter((n) => n.endsWith('.ksy')).sort()) {
    const spec = path.join(ROOT, 'ksy', name);
    const meta = yaml.load(fs.readFileSync(spec, 'utf8'), { schema: yaml.CORE_SCHEMA }).meta;
    const exts = [].concat(meta['file-extension'] || []);
    for (const ex of examples) {
      if (exts.includes(path.extname(ex).slice(1))) pairs.push({ spec, file: path.join(ROOT, 'examples', ex) });
    }
  }
  return pairs;
}

// A folder holding the IDE's files: the clone's work tree as it is, or for a git directory
// (a bare mirror, say) its HEAD written out once under build/, leaving out blobs the mirror
// does not have (its copies of the compiler, which is served from node_modules/ anyway).
function ideFolder(ide) {
  const dir = path.resolve(ide);
  if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 28 });
  const gitDir = fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir;
  let commit;
  try {
    commit = git('rev-parse', 'HEAD').toString().trim();
  } catch (e) {
    fail(`${ide}: neither the IDE's files (no index.html) nor a git directory of them`);
  }
  const out = path.join(ROOT, 'build', 'webide-ide', commit);
  if (fs.existsSync(path.join(out, 'index.html'))) return out;
  const entries = git('ls-tree', '-r', '-z', 'HEAD').toString().split('\0').filter(Boolean)
    .map((line) => { const [meta, file] = line.split('\t'); return { sha: meta.split(' ')[2], type: meta.split(' ')[1], file }; })
    .filter((e) => e.type === 'blob');
  const check = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-check'],
    { input: entries.map((e) => e.sha).join('\n') + '\n', maxBuffer: 1 << 28 }).toString().split('\n');
  const tmp = `${out}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  for (const [i, e] of entries.entries()) {
    if (/ missing$/.test(check[i])) continue;
    const target = path.join(tmp, e.file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, git('cat-file', 'blob', e.sha));
  }
  fs.rmSync(out, { recursive: true, force: true });
  fs.renameSync(tmp, out);
  return out;
}

const TYPES = { '.html': 'text/html', '.js': 'application/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.gif': 'image/gif', '.woff': 'font/woff', '.woff2': 'font/woff2',
  '.ttf': 'font/ttf', '.ksy': 'text/plain' };

// A static server over the IDE folder, with the compiler taken from node_modules/.
function serve(folder) {
  const overlay = {
    '/lib/_npm/kaitai-struct-compiler/kaitai-struct-compiler.js':
      path.join(ROOT, 'node_modules', 'kaitai-struct-compiler', 'kaitai-struct-compiler.js'),
  };
  const server = http.createServer((req, res) => {
    let url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (url.endsWith('/')) url += 'index.html';
    const file = overlay[url] || path.join(folder, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function chromiumPath(given) {
  for (const c of [given, process.env.ANIMSPEC_CHROMIUM, '/usr/bin/chromium']) if (c && fs.existsSync(c)) return c;
  for (const name of ['chromium', 'chromium-browser']) {
    try { return execFileSync('which', [name]).toString().trim(); } catch (e) { /* next */ }
  }
  return fail('no chromium: apt-get install chromium, or pass --chromium');
}

// The IDE reports an error through console.error and its error panel; Raven (its error
// reporter, not loaded here) is given a stub so the page script that configures it runs.
const RAVEN_STUB = 'window.Raven={config(){return{install(){}}},captureException(){},captureMessage(){}};';

async function checkPair(browser, base, pair, opts) {
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    const at = (m.location() && m.location().url) || '';
    if (at && !at.startsWith(base)) return; // a blocked outside request, not the IDE's doing
    if (/^Failed to load resource/.test(m.text())) return; // listed with its URL from the responses
    consoleErrors.push(`[${m.type()}] ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`[pageerror] ${e.message}`));
  const missing = [];
  page.on('response', (r) => {
    const url = r.url().slice(base.length - 1);
    // js/autorefresh.js polls /onchange, a route of the IDE's development server only.
    if (r.status() >= 400 && url !== '/onchange') missing.push(`${r.status()} ${url}`);
  });
  const blocked = new Set();
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    if (/raven/.test(url)) return route.fulfill({ status: 200, contentType: 'application/javascript', body: RAVEN_STUB });
    blocked.add(new URL(url).host);
    return route.abort();
  });
  await page.addInitScript(() => localStorage.setItem('doNotShowWelcome', 'true'));
  await page.goto(base, { waitUntil: 'load' });
  await page.waitForFunction(() => window.kaitaiIde && kaitaiIde.app && kaitaiIde.app.ui && kaitaiIde.app.ui.fileTree, null, { timeout: 60000 });
  // Count finished parses: each click on a file ends in one (successful or not).
  await page.evaluate(() => {
    const app = kaitaiIde.app;
    window.__parses = 0;
    const reparse = app.reparse.bind(app);
    app.reparse = async (...args) => { try { return await reparse(...args); } finally { window.__parses++; } };
  });
  const compiler = await page.evaluate(() => (window.KaitaiStructCompiler ? KaitaiStructCompiler.version : null)).catch(() => null);

  const chooser = page.waitForEvent('filechooser');
  await page.click('#uploadFile');
  await (await chooser).setFiles([pair.spec, pair.file]);
  await page.waitForFunction(() => {
    const t = kaitaiIde.app.ui.fileTree; const node = t.get_node('localStorage');
    return node && node.children.length >= 2;
  }, null, { timeout: 30000 });

  const clickFile = async (name) => {
    const before = await page.evaluate(() => window.__parses);
    const id = await page.evaluate((n) => {
      const t = kaitaiIde.app.ui.fileTree;
      return t.get_node('localStorage').children.find((c) => t.get_node(c).text === n);
    }, name);
    if (!id) throw new Error(`${name} is not in the IDE's local storage after the upload`);
    await page.click(`[id="${id}_anchor"]`);
    await page.waitForFunction((b) => window.__parses > b, before, { timeout: 120000 });
    // A click may start more than one parse: wait until a second passes without one.
    for (let n = await page.evaluate(() => window.__parses); ;) {
      await page.waitForTimeout(1000);
      const m = await page.evaluate(() => window.__parses);
      if (m === n) break;
      n = m;
    }
  };
  await clickFile(path.basename(pair.file));
  consoleErrors.length = 0; // the example alone, before its spec, is not what is checked
  await clickFile(path.basename(pair.spec));
  const errorPanel = async () => page.evaluate(() => {
    const e = document.querySelector('.errorWindow');
    return e ? e.innerText.trim() : null;
  });
  const panelAfterParse = await errorPanel();
  await page.screenshot({ path: path.join(opts.out, `${pairName(pair)}.top.png`) });

  // Expand every node, round after round: opening a node may reveal closed ones (lazy
  // instances are computed by the IDE's worker when opened).
  let rounds = 0;
  let tooBig = false;
  for (; rounds < 200; rounds++) {
    const r = await page.evaluate((maxRows) => {
      const t = $('#parsedDataTree').jstree(true);
      const all = t.get_json('#', { flat: true });
      if (all.length > maxRows) return { opened: 0, tooBig: true };
      let opened = 0;
      let loading = 0;
      for (const n of all) {
        if (t.is_loading(n.id)) loading++;
        else if (!t.is_leaf(n.id) && !t.is_open(n.id)) { t.open_node(n.id); opened++; }
      }
      return { opened, loading, tooBig: false };
    }, opts.maxRows);
    if (r.tooBig) { tooBig = true; break; }
    if (!r.opened && !r.loading) break;
    await page.waitForTimeout(r.opened ? 400 : 200);
  }
  await page.waitForTimeout(500);
  const rows = await page.evaluate(() => Array.from(document.querySelectorAll('#parsedDataTree .jstree-anchor')).map((a) => {
    let depth = 0;
    for (let li = a.closest('li'); li; li = li.parentElement.closest('li')) depth++;
    const li = a.closest('li');
    const mark = a.querySelector('i.glyphicon');
    return {
      depth,
      text: a.innerText.replace(/\s+/g, ' ').trim(),
      loading: li.classList.contains('jstree-loading'),
      closed: li.getAttribute('aria-expanded') === 'false',
      error: mark ? (mark.getAttribute('title') || mark.className) : null,
    };
  }));
  const panel = (await errorPanel()) || panelAfterParse;
  const lines = rows.map((r) => '  '.repeat(r.depth - 1) + r.text + (r.loading ? '  {LOADING}' : '') +
    (r.closed ? '  {CLOSED}' : '') + (r.error ? `  {ERROR: ${r.error}}` : ''));
  fs.writeFileSync(path.join(opts.out, `${pairName(pair)}.rows.txt`), lines.join('\n') + '\n');
  await page.screenshot({ path: path.join(opts.out, `${pairName(pair)}.png`) });
  await context.close();

  const problems = [];
  if (panel) problems.push(`error panel: ${panel.replace(/\s+/g, ' ').slice(0, 300)}`);
  const distinct = [...new Set(consoleErrors.map((e) => e.split('\n')[0].slice(0, 300)))];
  for (const e of distinct.slice(0, 5)) problems.push(`console ${e}`);
  if (distinct.length > 5) problems.push(`... and ${distinct.length - 5} more distinct console error(s)`);
  for (const m of [...new Set(missing)]) problems.push(`the IDE asked for a file it does not have: ${m}`);
  if (!rows.length) problems.push('the parsed-data tree is empty');
  if (tooBig) problems.push(`more than ${opts.maxRows} rows: not expanded to the end (raise --max-rows)`);
  const stuck = rows.filter((r) => r.loading);
  if (stuck.length) problems.push(`${stuck.length} node(s) still loading, e.g. "${stuck[0].text}"`);
  const closed = rows.filter((r) => r.closed && !r.loading);
  if (closed.length && !tooBig) problems.push(`${closed.length} node(s) never opened, e.g. "${closed[0].text}"`);
  const marked = rows.filter((r) => r.error);
  if (marked.length) problems.push(`${marked.length} node(s) marked with an error, e.g. "${marked[0].text}"`);
  const streams = rows.filter((r) => /KaitaiStream/.test(r.text));
  if (streams.length) problems.push(`${streams.length} row(s) show a KaitaiStream, e.g. "${streams[0].text}"`);
  return { pair: pairName(pair), rows: rows.length, rounds, compiler, blocked: [...blocked].sort(), top: lines.slice(0, 12), problems };
}

function pairName(pair) {
  return `${path.basename(pair.spec, '.ksy')}__${path.basename(pair.file)}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const pairs = opts.pairs.length ? opts.pairs : defaultPairs();
  const folder = ideFolder(opts.ide);
  fs.mkdirSync(opts.out, { recursive: true });
  const { chromium } = require(path.join(ROOT, 'node_modules', 'playwright-core'));
  const server = await serve(folder);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: chromiumPath(opts.chromium), headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const results = [];
  try {
    for (const pair of pairs) {
      const t0 = Date.now();
      let r;
      try {
        r = await checkPair(browser, base, pair, opts);
      } catch (e) {
        r = { pair: pairName(pair), rows: 0, problems: [`the check itself failed: ${String(e && e.message || e).split('\n')[0]}`] };
      }
      r.seconds = (Date.now() - t0) / 1000;
      results.push(r);
      console.log(`${r.problems.length ? 'FAIL' : 'ok  '} ${r.pair}: ${r.rows} rows` +
        `${r.problems.length ? '' : ', every node expanded, no error'} (${r.seconds.toFixed(1)} s)`);
      for (const p of r.problems) console.log(`       ${p}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  fs.writeFileSync(path.join(opts.out, 'summary.json'), JSON.stringify({ ide: folder, results }, null, 1) + '\n');
  const failed = results.filter((r) => r.problems.length).length;
  console.log(`${results.length - failed} passed, ${failed} failed (trees and screenshots in ${path.relative(process.cwd(), opts.out) || '.'})`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => fail(e && e.stack || String(e)));
