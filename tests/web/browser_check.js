#!/usr/bin/env node
// Drives the viewer (web/index.html) in headless Chromium with playwright-core, for
// tests/test_web.py. It only collects what the page shows; the Python test asserts.
//
//   node tests/web/browser_check.js CONFIG.json > RESULT.json
//
// CONFIG: {"chromium": path, "urls": {"file": url, "http": url}, "screenshots": dir,
//          "cases": [{"name", "files": [paths], "via": "input" | "drop", "steps": n,
//                     "clicks": n, "reference_steps": n}]}
// RESULT: {"runs": [{"url", "case", ...what the page showed...}]}
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { chromium } = require(path.join(ROOT, 'node_modules', 'playwright-core'));

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function dropFiles(page, files) {
  const payload = files.map((f) => ({ name: path.basename(f), base64: fs.readFileSync(f).toString('base64') }));
  await page.evaluate((list) => {
    const dt = new DataTransfer();
    for (const x of list) {
      const bin = atob(x.base64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], x.name));
    }
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, payload);
}

async function shown(page) {
  return page.evaluate(() => {
    const all = (sel, f) => Array.from(document.querySelectorAll(sel)).map(f);
    const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent : null; };
    return {
      format: text('[data-testid=format]'),
      tabs: all('[data-testid=file-tab]', (e) => e.dataset.name),
      animations: all('[data-testid=animation-row]', (e) => e.dataset.name),
      animationOptions: all('#anim-select option', (e) => e.textContent),
      findings: all('[data-testid=finding]', (e) => ({ code: e.dataset.code, severity: e.dataset.severity })),
      noFindings: !!document.querySelector('[data-testid=findings] .ok'),
      sections: all('[data-testid=section-row]', (e) => ({ tag: e.dataset.tag, name: e.dataset.name })),
      customTracks: all('[data-testid=custom-tracks] tr', (e) => e.textContent).slice(1),
      baseState: all('[data-testid=base-state] tr', (e) => e.textContent).slice(1),
      clip: text('[data-testid=clip]'),
      clipDecodeError: text('[data-testid=clip-decode-error]'),
      bones: all('[data-testid=bones] tr', (e) => e.textContent).slice(1),
      parseError: text('[data-testid=parse-error]'),
      structure: !!document.querySelector('[data-testid=structure] .tree summary'),
      hud: text('#hud'),
      viewportNote: document.getElementById('viewport-note').hidden ? null : text('#viewport-note'),
      poseRows: all('[data-testid=pose-row]', (e) => e.dataset.q),
      events: all('[data-testid=event]', (e) => e.textContent),
      canvas: !!document.querySelector('#viewport canvas'),
    };
  });
}

async function canvasStats(page) {
  // How many distinct colours the WebGL canvas holds: a blank or failed render has ~1.
  return page.evaluate(() => {
    const c = document.querySelector('#viewport canvas');
    if (!c) return null;
    const probe = document.createElement('canvas');
    probe.width = 160; probe.height = 100;
    const g = probe.getContext('2d');
    g.drawImage(c, 0, 0, probe.width, probe.height);
    const d = g.getImageData(0, 0, probe.width, probe.height).data;
    const seen = new Set();
    for (let i = 0; i < d.length; i += 4) seen.add((d[i] >> 3) << 10 | (d[i + 1] >> 3) << 5 | (d[i + 2] >> 3));
    return { colours: seen.size };
  });
}

async function runCase(ctx, url, urlName, c, cfg) {
  const page = await ctx.newPage();
  const out = { url: urlName, case: c.name, console: [], pageErrors: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') out.console.push(m.text()); });
  page.on('pageerror', (e) => out.pageErrors.push(String(e && e.message || e)));
  page.on('request', (r) => { const u = r.url(); if (!u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:') && !/^https?:\/\/127\.0\.0\.1[:/]/.test(u)) out.requests.push(u); });
  await page.goto(url);
  await page.waitForFunction(() => window.animspecViewer && window.animspecViewer.ready, null, { timeout: 20000 });
  out.before = await page.evaluate(() => window.animspecViewer.state());
  const files = c.files.map((f) => path.resolve(f));
  if (c.via === 'drop') await dropFiles(page, files);
  else await page.setInputFiles('#file-input', files);
  await page.waitForFunction((n) => window.animspecViewer.state().files.length >= n, files.length, { timeout: 20000 });
  await page.waitForTimeout(150);
  out.loaded = await page.evaluate(() => window.animspecViewer.state());
  out.shown = await shown(page);

  if (out.loaded.animbin) {
    // engine mode, NTSC: API steps, then real clicks on the Step button
    const steps = c.steps || 0;
    if (steps) await page.evaluate((n) => window.animspecViewer.step(n), steps);
    for (let i = 0; i < (c.clicks || 0); i++) await page.click('[data-testid=step]');
    out.engine = await page.evaluate(() => window.animspecViewer.state());
    out.engineShown = await shown(page);
    // real-time playback for a moment
    await page.click('[data-testid=play]');
    await page.waitForTimeout(500);
    await page.click('[data-testid=play]');
    out.afterPlay = await page.evaluate(() => window.animspecViewer.state());
    // reference mode, PAL: reset, then step
    await page.click('label[for=refresh-pal]');
    await page.click('label[for=mode-reference]');
    await page.click('[data-testid=reset]');
    if (c.reference_steps) await page.evaluate((n) => window.animspecViewer.step(n), c.reference_steps);
    out.reference = await page.evaluate(() => window.animspecViewer.state());
    // back to engine mode, frame the shot at the engine pose of `steps + clicks` ticks
    await page.click('label[for=refresh-ntsc]');
    await page.click('label[for=mode-engine]');
    await page.click('[data-testid=reset]');
    await page.evaluate((n) => window.animspecViewer.step(n), (c.steps || 0) + (c.clicks || 0));
  }
  if (out.loaded.player === 'clip') {
    // an .animclip plays: two frames through the Frame slider, each with its screenshot and
    // joint positions, then real-time play for a moment
    const count = out.loaded.clip.frameCount;
    out.clipFrames = [];
    for (const f of [0, Math.floor(count / 2)]) {
      await page.evaluate(() => window.animspecViewer.pause());
      await page.locator('[data-testid=scrub]').fill(String(f));
      await page.waitForTimeout(150);
      const shot = { frame: f, state: await page.evaluate(() => window.animspecViewer.state()), shown: await shown(page) };
      if (cfg.screenshots) {
        fs.mkdirSync(cfg.screenshots, { recursive: true });
        shot.screenshot = path.join(cfg.screenshots, `${c.name}-${urlName}-frame${f}.png`);
        await page.locator('[data-testid=viewport]').screenshot({ path: shot.screenshot });
      }
      out.clipFrames.push(shot);
    }
    // the mid frame again without root motion: the local pose alone, for the positions check
    await page.click('[data-testid=show-root-motion]');
    out.clipWithoutMotion = await page.evaluate(() => window.animspecViewer.state());
    await page.click('[data-testid=show-root-motion]');
    await page.click('[data-testid=reset]');
    await page.click('[data-testid=play]');
    await page.waitForTimeout(500);
    out.clipPlayed = await page.evaluate(() => window.animspecViewer.state());
    await page.evaluate(() => window.animspecViewer.pause());
    await page.evaluate((f) => window.animspecViewer.seek(f), Math.floor(count / 2));
  }
  await page.waitForTimeout(200);
  out.canvas = await canvasStats(page);
  if (cfg.screenshots) {
    fs.mkdirSync(cfg.screenshots, { recursive: true });
    out.screenshot = path.join(cfg.screenshots, `${c.name}-${urlName}.png`);
    await page.screenshot({ path: out.screenshot, fullPage: true });
  }
  await page.close();
  return out;
}

async function main() {
  const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'animspec-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: cfg.chromium, headless: true, args: ARGS, viewport: { width: 1400, height: 1000 },
  });
  const runs = [];
  try {
    for (const [urlName, url] of Object.entries(cfg.urls)) {
      for (const c of cfg.cases) runs.push(await runCase(ctx, url, urlName, c, cfg));
    }
  } finally {
    await ctx.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify({ runs }));
}

main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
