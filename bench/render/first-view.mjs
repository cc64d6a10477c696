#!/usr/bin/env node
/**
 * First-view benchmark: opens `?fresh#/structure` (the default dataset, no saved session) in a fresh headless
 * Chromium context (SwiftShader unless --gpu) against an already running `vite preview`, `--runs` times, and
 * prints JSON medians: the time to the first frame that shows atoms (`firstFrameAt`, ms since navigation
 * start, the lab's own "rendered" signal) and the JavaScript and wasm the page and its workers had loaded by
 * then (bytes over the wire and decoded). Builds nothing itself.
 *
 * Issue 11, measured back to back on a busy 2-core machine (SwiftShader): with every page in one 1.5 MB entry
 * chunk the first view loaded 1,633,479 B of JS (decoded) + 738,160 B of wasm, 1,169,048 B over the wire; with
 * lazy pages 1,365,333 B of JS + the same wasm, 1,089,776 B over the wire. The first frame came at 2.1-2.4 s
 * either way (the 3D page needs three and react-three-fiber; the machine's load dominated the spread).
 *
 *   node bench/render/first-view.mjs --url http://127.0.0.1:4173/ [--runs 5] [--gpu]
 */
import { chromium } from 'playwright-core';

function parseArgs(argv) {
  const out = { url: process.env.STRUCTLAB_URL ?? 'http://127.0.0.1:4173/', runs: 5, gpu: false, timeoutMs: 120_000 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') out.url = argv[++i];
    else if (a === '--runs') out.runs = Number(argv[++i]);
    else if (a === '--gpu') out.gpu = true;
    else if (a === '--timeout') out.timeoutMs = Number(argv[++i]) * 1000;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node bench/render/first-view.mjs --url URL [--runs 5] [--gpu] [--timeout seconds]');
      process.exit(0);
    } else {
      console.error(`error: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (!(Number.isInteger(out.runs) && out.runs >= 1)) {
    console.error('error: --runs must be a positive integer');
    process.exit(2);
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** One cold visit: a new context (empty cache), the structure page, the bytes received until the first frame with atoms. */
async function visit(browser, url, timeoutMs) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const loaded = []; // { url, kind, wire, decoded }
  const pending = [];
  // Requests of the page and of its dedicated workers (Chromium reports both to the page).
  page.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname;
    const kind = path.endsWith('.wasm') ? 'wasm' : path.endsWith('.js') ? 'js' : null;
    if (!kind) return;
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        const body = response ? await response.body().catch(() => null) : null;
        loaded.push({ url: path, kind, wire: sizes.responseBodySize, decoded: body?.length ?? sizes.responseBodySize });
      })(),
    );
  });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const target = new URL(url);
  target.searchParams.set('fresh', '');
  target.searchParams.set('testhooks', '1'); // window.__structlab (installed only when asked)
  target.hash = '#/structure';
  await page.goto(target.href, { timeout: timeoutMs });
  await page.waitForFunction(() => window.__structlab?.firstFrameAt != null, undefined, { timeout: timeoutMs, polling: 50 });
  const firstFrameMs = await page.evaluate(() => window.__structlab.firstFrameAt);
  // Only what had finished by the first frame (a later lazy load is not part of the first view).
  const atFirstFrame = [...loaded];
  await Promise.all(pending);
  await context.close();
  const sum = (kind, key) => atFirstFrame.filter((r) => kind === null || r.kind === kind).reduce((s, r) => s + r[key], 0);
  return {
    firstFrameMs,
    jsBytes: sum('js', 'decoded'),
    wasmBytes: sum('wasm', 'decoded'),
    wireBytes: sum(null, 'wire'),
    files: atFirstFrame.map((r) => r.url).sort(),
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
  const args = ['--no-sandbox', '--disable-background-networking', '--disable-gpu-sandbox'];
  if (!opts.gpu) args.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args });
  const runs = [];
  try {
    for (let k = 0; k < opts.runs; k++) {
      process.stderr.write(`first-view bench: run ${k + 1}/${opts.runs}…\n`);
      runs.push(await visit(browser, opts.url, opts.timeoutMs));
    }
  } finally {
    await browser.close();
  }
  const last = runs[runs.length - 1];
  console.log(
    JSON.stringify(
      {
        benchmark: 'first-view',
        url: `${opts.url}?fresh#/structure`,
        browser: browser.version(),
        runs: runs.length,
        medianFirstFrameMs: round(median(runs.map((r) => r.firstFrameMs))),
        medianJsBytes: median(runs.map((r) => r.jsBytes)),
        medianWasmBytes: median(runs.map((r) => r.wasmBytes)),
        medianWireBytes: median(runs.map((r) => r.wireBytes)),
        filesLoaded: last.files,
        errors: [...new Set(runs.flatMap((r) => r.errors))],
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
