/**
 * Trajectory playback benchmark (issue 15): a 10,000-atom × 1,000-frame extended XYZ MD run with forces (≈ 600 MB,
 * generated once into $TMPDIR/structlab-bench/) is opened through the Structure page's file input of a running
 * `vite preview`, in headless Chromium (SwiftShader unless --gpu). It is streamed: the trajectory worker indexes the
 * File in chunks and reads each frame when shown. Prints JSON:
 *   - open: time from picking the file to the first frame drawn, and to the end of the per-frame metrics pass;
 *   - playback: frames shown per second at the player's "as drawn" speed (each frame read from the file, parsed,
 *     scene built, drawn; the player's `data-shown` counter), median of --windows windows of --seconds, with the
 *     default view (bonds on: the player plays lean, without them, when frames with them are slow; `lean` says so) and
 *     with bonds switched off; rendered canvas frames per second alongside (`body[data-rendered]`);
 *   - memory after playing: the page's JS heap (CDP), the worker's JS heap (CDP on the worker target), the frames the
 *     worker holds, and the resident memory of every Chromium process (/proc), against the file's size.
 *
 *   npx tsx bench/trajectory.bench.ts --url http://127.0.0.1:4173/ [--atoms 10000] [--frames 1000] [--seconds 10]
 *     [--windows 3] [--gpu]
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { median } from './stats.ts';

interface Options {
  url: string;
  atoms: number;
  frames: number;
  seconds: number;
  windows: number;
  gpu: boolean;
}

function parseArgs(argv: string[]): Options {
  const out: Options = {
    url: process.env.STRUCTLAB_URL ?? 'http://127.0.0.1:4173/',
    atoms: 10_000,
    frames: 1000,
    seconds: 10,
    windows: 3,
    gpu: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--url') out.url = argv[++i];
    else if (a === '--atoms') out.atoms = Number(argv[++i]);
    else if (a === '--frames') out.frames = Number(argv[++i]);
    else if (a === '--seconds') out.seconds = Number(argv[++i]);
    else if (a === '--windows') out.windows = Number(argv[++i]);
    else if (a === '--gpu') out.gpu = true;
    else {
      console.error(`error: unknown argument ${a}`);
      process.exit(2);
    }
  }
  for (const k of ['atoms', 'frames', 'seconds', 'windows'] as const)
    if (!(Number.isInteger(out[k]) && out[k] >= 1)) {
      console.error(`error: --${k} must be a positive integer`);
      process.exit(2);
    }
  return out;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const MB = 2 ** 20;

/**
 * A silicon-like MD run: atoms on a 2.5 Å grid (six bonds each at the default tolerance), displaced a little per frame,
 * a cell that breathes, an energy per frame and a force per atom. Written frame by frame (never one string).
 */
async function generate(atoms: number, frames: number): Promise<string> {
  const dir = join(tmpdir(), 'structlab-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `traj-${atoms}x${frames}.extxyz`);
  const done = `${path}.done`;
  if (existsSync(path) && existsSync(done) && readFileSync(done, 'utf8') === String(statSync(path).size)) return path;
  process.stderr.write(`trajectory bench: writing ${atoms} atoms × ${frames} frames to ${path}…\n`);
  const side = Math.ceil(Math.cbrt(atoms));
  const spacing = 2.5;
  const out = createWriteStream(path);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  for (let k = 0; k < frames; k++) {
    const a = side * spacing * (1 + 0.002 * Math.sin(k / 40));
    const s = a / side;
    const lines: string[] = [
      String(atoms),
      `Lattice="${a} 0 0 0 ${a} 0 0 0 ${a}" Properties=species:S:1:pos:R:3:forces:R:3 ` +
        `energy=${(-5.4 * atoms + 3 * Math.sin(k / 13)).toFixed(6)} pbc="T T T"`,
    ];
    for (let i = 0; i < atoms; i++) {
      const x = i % side;
      const y = Math.floor(i / side) % side;
      const z = Math.floor(i / (side * side));
      const d = 0.05 * Math.sin(0.1 * k + i);
      const f = 0.3 * Math.cos(0.1 * k + i);
      const position = `${(x * s + d).toFixed(5)} ${(y * s - d).toFixed(5)} ${(z * s + d).toFixed(5)}`;
      lines.push(`Si ${position} ${f.toFixed(5)} ${(-f).toFixed(5)} ${(0.5 * f).toFixed(5)}`);
    }
    await write(lines.join('\n') + '\n');
  }
  await new Promise<void>((r) => out.end(() => r()));
  createWriteStream(done).end(String(statSync(path).size));
  return path;
}

/** Resident memory of every process under this one (the Chromium that playwright started), MiB, from /proc. */
function chromiumRssMB(): { totalMB: number; largestMB: number } | null {
  try {
    const parent = new Map<number, number>();
    const rss = new Map<number, number>();
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parent.set(pid, Number(fields[1]));
        rss.set(pid, Number(fields[21]) * 4096);
      } catch {
        /* gone */
      }
    }
    const under = (pid: number): boolean => {
      for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
      return false;
    };
    const mine = [...rss].filter(([pid]) => under(pid)).map(([, bytes]) => bytes);
    return { totalMB: round(mine.reduce((a, b) => a + b, 0) / MB), largestMB: round(Math.max(...mine) / MB) };
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The JS heap of the trajectory worker, through Chromium's DevTools endpoint: a dedicated worker is a target only
 * under its page's session (auto-attach), which playwright does not hand out, so this speaks CDP over the socket.
 */
async function jsHeaps(port: number): Promise<{ worker: number | null }> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  // Node 20 has no WebSocket global: playwright-core's bundled `ws` has the same onopen/onmessage face.
  const Socket: typeof WebSocket =
    globalThis.WebSocket ?? ((await import('playwright-core/lib/utilsBundle' as string)) as { ws: typeof WebSocket }).ws;
  const ws = new Socket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let id = 0;
  const waiting = new Map<number, (m: { result?: unknown; error?: unknown }) => void>();
  const workers: string[] = [];
  ws.onmessage = (ev) => {
    const m = JSON.parse(String(ev.data)) as {
      id?: number;
      result?: unknown;
      error?: unknown;
      method?: string;
      params?: { sessionId: string; targetInfo: { type: string; url: string } };
    };
    if (m.id !== undefined) waiting.get(m.id)?.(m);
    else if (m.method === 'Target.attachedToTarget' && m.params?.targetInfo.type === 'worker' && /trajectory/.test(m.params.targetInfo.url))
      workers.push(m.params.sessionId);
  };
  const send = <T>(method: string, params: object = {}, sessionId?: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result as T)));
      ws.send(JSON.stringify({ id: n, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  try {
    const { targetInfos } = await send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    let worker: number | null = null;
    for (const t of targetInfos.filter((x) => x.type === 'page')) {
      const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId: t.targetId, flatten: true });
      await send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);
    }
    await new Promise((r) => setTimeout(r, 500));
    for (const sessionId of workers) worker = (await send<{ usedSize: number }>('Runtime.getHeapUsage', {}, sessionId)).usedSize;
    return { worker };
  } finally {
    ws.close();
  }
}

const counter = (page: Page) =>
  page.evaluate(() => ({
    shown: Number(document.querySelector('[data-testid=trajectory]')?.getAttribute('data-shown') ?? 0),
    rendered: Number(document.body.dataset.rendered ?? 0),
    t: performance.now(),
  }));

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const path = await generate(opts.atoms, opts.frames);
  const bytes = statSync(path).size;
  const port = await freePort();
  const args = [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-gpu-sandbox',
    '--enable-precise-memory-info',
    `--remote-debugging-port=${port}`,
  ];
  if (!opts.gpu) args.push('--use-angle=swiftshader', '--enable-unsafe-swiftshader');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('crash', () => errors.push('the page crashed'));
    page.on('close', () => process.stderr.write('trajectory bench: the page closed\n'));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const target = new URL(opts.url);
    target.searchParams.set('fresh', '1');
    target.searchParams.set('testhooks', '1');
    // Streamed whatever its size (the lab streams files over 50 MB; a small --atoms/--frames run measures the same path).
    target.searchParams.set('streamBytes', '1');
    await page.goto(target.href);
    await page.locator('[data-testid=formula]').waitFor({ timeout: 120_000 });
    const t0 = Date.now();
    await page.locator('[data-testid=file-input]').setInputFiles(path);
    await page.locator('[data-testid=trajectory][data-streamed=yes]').waitFor({ timeout: 600_000 });
    const firstFrameMs = Date.now() - t0;
    await page.waitForFunction(
      () => document.querySelector('[data-testid=trajectory]')?.getAttribute('data-metrics') !== 'pending',
      undefined,
      {
        timeout: 1_800_000,
        polling: 500,
      },
    );
    const metricsDoneMs = Date.now() - t0;
    const series = await page.locator('[data-testid=traj-series] option').allInnerTexts();
    await page.locator('[data-testid=traj-speed]').selectOption('1000');
    /** Frames shown (and drawn) per second while playing, median of the windows; the canvas's own frame rate beside it. */
    const play = async () => {
      await page.locator('[data-testid=traj-play]').click();
      const fps: number[] = [];
      const canvasFps: number[] = [];
      for (let w = 0; w < opts.windows; w++) {
        const a = await counter(page);
        await page.waitForTimeout(opts.seconds * 1000);
        const b = await counter(page);
        fps.push(((b.shown - a.shown) * 1000) / (b.t - a.t));
        canvasFps.push(((b.rendered - a.rendered) * 1000) / (b.t - a.t));
      }
      await page.locator('[data-testid=traj-play]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid=trajectory]')?.getAttribute('data-loading') === 'no');
      // Lean: the player left bonds out while playing because frames with them were slow (src/state/trajectory.ts).
      const lean = (await page.locator('[data-testid=trajectory]').getAttribute('data-lean')) === 'yes';
      return {
        framesPerSecond: round(median(fps), 2),
        windows: fps.map((x) => round(x, 2)),
        canvasFramesPerSecond: round(median(canvasFps), 2),
        lean,
      };
    };
    // The default view (bonds shown: ~3 per atom here, 48 vertices each, which SwiftShader draws on the CPU; the player
    // leaves them out while playing when frames with them are slow), then with bonds switched off.
    const withBonds = await play();
    await page.locator('[data-testid=setting-showBonds]').uncheck();
    await page.waitForFunction(() => document.querySelector('[data-testid=trajectory]')?.getAttribute('data-loading') === 'no');
    const withoutBonds = await play();
    const { metrics } = await cdp.send('Performance.getMetrics');
    const pageHeap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const heaps = await jsHeaps(port);
    const held = Number(await page.locator('[data-testid=traj-cached]').innerText());
    const rss = chromiumRssMB();
    console.log(
      JSON.stringify(
        {
          benchmark: 'trajectory',
          browser: browser.version(),
          renderer: opts.gpu ? 'GPU' : 'SwiftShader',
          file: { atoms: opts.atoms, frames: opts.frames, MB: round(bytes / MB) },
          open: { firstFrameMs, metricsPassMs: metricsDoneMs, series },
          playback: { withBonds, withoutBonds },
          memory: {
            pageJsHeapMB: round(pageHeap / MB),
            workerJsHeapMB: heaps.worker === null ? null : round(heaps.worker / MB),
            framesHeldByWorker: held,
            chromiumRss: rss,
          },
          errors,
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
