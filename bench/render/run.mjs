#!/usr/bin/env node
/**
 * Render benchmark: opens `?synthetic=N` (an FCC block built straight into typed arrays) in headless
 * Chromium (SwiftShader unless --gpu) against an already running `vite preview`, and prints JSON:
 * time to first rendered frame, median GPU-synchronised frame time over forced re-renders (camera
 * orbits), and peak JS heap. Builds nothing itself.
 *
 *   node bench/render/run.mjs --url http://127.0.0.1:4173/ [--sizes 10000,100000,1000000] [--frames 20] [--budget 120] [--gpu]
 */
import { chromium } from 'playwright-core';

function parseArgs(argv) {
  const out = {
    url: process.env.STRUCTLAB_URL ?? 'http://127.0.0.1:4173/',
    sizes: [10_000, 100_000, 1_000_000],
    frames: 20,
    budgetMs: 120_000,
    gpu: false,
    timeoutMs: 600_000,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') out.url = argv[++i];
    else if (a === '--sizes') out.sizes = argv[++i].split(',').map((s) => Number(s.replace(/k$/i, '000').replace(/m$/i, '000000')));
    else if (a === '--frames') out.frames = Number(argv[++i]);
    else if (a === '--gpu') out.gpu = true;
    else if (a === '--budget') out.budgetMs = Number(argv[++i]) * 1000;
    else if (a === '--timeout') out.timeoutMs = Number(argv[++i]) * 1000;
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: node bench/render/run.mjs --url URL [--sizes 10000,100000,1000000] [--frames 20] [--budget seconds-per-size ' +
          '(120)] [--gpu] [--timeout seconds]',
      );
      process.exit(0);
    } else {
      console.error(`error: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (out.sizes.some((n) => !Number.isFinite(n) || n < 1) || !(out.frames >= 1)) {
    console.error('error: --sizes must be positive integers and --frames at least 1');
    process.exit(2);
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function measure(browser, url, natoms, frames, budgetMs, timeoutMs) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  let peakHeap = 0;
  const sampleHeap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    peakHeap = Math.max(peakHeap, used);
  };
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const target = new URL(url);
  target.searchParams.set('synthetic', String(natoms));
  target.searchParams.set('syncframes', '1');
  target.searchParams.set('testhooks', '1'); // window.__structlab (installed only when asked)
  const wallStart = Date.now();
  await page.goto(target.href, { timeout: timeoutMs });
  await page.waitForFunction(() => window.__structlab?.firstFrameAt != null, undefined, { timeout: timeoutMs, polling: 50 });
  const wallFirstFrameMs = Date.now() - wallStart;
  const firstFrameMs = await page.evaluate(() => window.__structlab.firstFrameAt);
  await sampleHeap();
  const drawn = await page.evaluate(() => window.__structlab.natoms());
  const frameMs = [];
  const roundTripMs = [];
  const loopStart = Date.now();
  // Software rendering of 1M atoms takes seconds per frame: stop after the time budget (at least 3 frames).
  for (let k = 0; k < frames && (k < 3 || Date.now() - loopStart < budgetMs); k++) {
    const before = await page.evaluate(() => window.__structlab.frames);
    const t0 = Date.now();
    await page.evaluate(() => window.__structlab.orbit(7));
    await page.waitForFunction((n) => window.__structlab.frames > n, before, { timeout: timeoutMs, polling: 'raf' });
    roundTripMs.push(Date.now() - t0);
    frameMs.push(await page.evaluate(() => window.__structlab.lastFrameMs));
    if (k % 5 === 4) await sampleHeap();
  }
  await sampleHeap();
  const memoryApi = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? null);
  if (memoryApi) peakHeap = Math.max(peakHeap, memoryApi);
  await context.close();
  return {
    atoms: natoms,
    drawnAtoms: drawn,
    firstFrameMs: round(firstFrameMs),
    wallFirstFrameMs,
    medianFrameMs: round(median(frameMs)),
    p90FrameMs: round(quantile(frameMs, 0.9)),
    medianRoundTripMs: round(median(roundTripMs)),
    frames: frameMs.length,
    peakJsHeapMB: round(peakHeap / 2 ** 20, 1),
    errors,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  try {
    const res = await fetch(opts.url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
  } catch (e) {
    console.error(`error: no preview answering at ${opts.url} (${e.message}); start one with \`npx vite preview\``);
    process.exit(2);
  }
  const args = ['--no-sandbox', '--disable-background-networking', '--disable-gpu-sandbox', '--enable-precise-memory-info'];
  if (!opts.gpu) args.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args });
  const results = [];
  let renderer;
  try {
    const probe = await browser.newPage();
    renderer = await probe.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const ext = gl?.getExtension('WEBGL_debug_renderer_info');
      return ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl ? gl.getParameter(gl.RENDERER) : null;
    });
    await probe.close();
    for (const n of opts.sizes) {
      process.stderr.write(`render bench: ${n} atoms…\n`);
      try {
        results.push(await measure(browser, opts.url, n, opts.frames, opts.budgetMs, opts.timeoutMs));
      } catch (e) {
        results.push({ atoms: n, error: e.message.split('\n')[0] });
      }
    }
  } finally {
    await browser.close();
  }
  console.log(
    JSON.stringify({ benchmark: 'render', url: opts.url, browser: browser.version(), renderer, viewport: [1280, 800], results }, null, 2),
  );
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
