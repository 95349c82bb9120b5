'use strict';
// A figure of the browser viewer (web/index.html after `make web`), as docs/ shows it:
//   node tools/web_figure.js URL FRAME DRAG_X OUT.png FILE...
// loads FILE... into the viewer, pauses at FRAME, turns the view by dragging DRAG_X pixels
// across it, and saves the 3D view. `make figures` rebuilds every figure of docs/ this way.
const fs = require('fs');
const os = require('os');
const path = require('path');
const ROOT = process.cwd();
const { chromium } = require(path.join(ROOT, 'node_modules', 'playwright-core'));
const [url, frame, dx, out, ...files] = process.argv.slice(2);
(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'animspec-figure-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.animspecViewer && window.animspecViewer.ready, null, { timeout: 20000 });
  await page.setInputFiles('#file-input', files.map((f) => path.resolve(f)));
  await page.waitForFunction((n) => window.animspecViewer.state().files.length >= n, files.length, { timeout: 20000 });
  await page.waitForTimeout(300);
  await page.evaluate(() => window.animspecViewer.pause());
  await page.locator('[data-testid=scrub]').fill(String(frame));
  await page.waitForTimeout(200);
  const box = await page.locator('#viewport canvas').boundingBox();
  const x = box.x + box.width / 2, y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + Number(dx) * i / 10, y);
  await page.mouse.up();
  await page.mouse.wheel(0, Number(process.env.WHEEL || 0));
  await page.waitForTimeout(300);
  await page.locator('[data-testid=viewport]').screenshot({ path: out });
  const st = await page.evaluate(() => window.animspecViewer.state());
  console.log(JSON.stringify(st.clip));
  await ctx.close();
  fs.rmSync(profile, { recursive: true, force: true });
})().catch((e) => { console.error(e); process.exit(1); });
