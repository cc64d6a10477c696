/** Starts `vite preview` on a free port and headless Chromium (SwiftShader), for the e2e tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from '../paths.ts';

export const CHROMIUM_ARGS = [
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-gpu-sandbox',
];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface Preview {
  url: string;
  stop: () => Promise<void>;
}

export async function startPreview(): Promise<Preview> {
  const port = await freePort();
  const vite = join(REPO_ROOT, 'node_modules', '.bin', 'vite');
  const child: ChildProcess = spawn(vite, ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vite preview exited (${child.exitCode}): ${output}`);
    try {
      const res = await fetch(url);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`vite preview did not answer on ${url}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });

/** Waits until at least one more frame than `after` has been rendered. */
export async function waitForFrame(page: Page, after = 0, timeout = 30_000): Promise<number> {
  await page.waitForFunction((n) => Number(document.body.dataset.rendered ?? 0) > n, after, { timeout });
  return page.evaluate(() => Number(document.body.dataset.rendered));
}

/** Waits until the worker is idle (no progress bar). */
/** The drawn atom nearest the camera, where the viewer projects it on the page (null when none is in view). */
export function frontmostAtom(page: Page): Promise<{ i: number; x: number; y: number; depth: number } | null> {
  return page.evaluate(() => {
    const sl = window.__structlab!;
    let best: { i: number; x: number; y: number; depth: number } | null = null;
    for (let i = 0; i < sl.natoms(); i++) {
      const p = sl.projectAtom(i);
      if (p && (!best || p.depth < best.depth)) best = { i, ...p };
    }
    return best;
  });
}

export async function waitIdle(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[data-testid=progress]'), undefined, { timeout });
}

/** The built lab served by `vite preview` and opened in a fresh headless Chromium page, collecting page errors. */
export interface Lab {
  page: Page;
  /** The preview server's address (for navigating elsewhere in the lab). */
  url: string;
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * The address of `path` (e.g. "?fresh#/compare") in the lab served at `base`, with `testhooks` added: the lab
 * installs `window.__structlab` and the per-frame `body[data-rendered]` counter only when asked (src/app/App.tsx).
 * Every navigation of a test goes through this.
 */
export function labUrl(base: string, path = ''): string {
  const url = new URL(path, base);
  url.searchParams.set('testhooks', '1');
  return url.href;
}

/** Opens `path` (e.g. "?fresh#/compare") of the built lab, test hooks on; downloads are accepted. */
export async function openLab(path: string, viewport = { width: 1280, height: 800 }): Promise<Lab> {
  const preview = await startPreview();
  const browser = await launchChromium();
  // No service worker (the built lab registers one, src/main.tsx): page.route must see every request; tests/e2e/offline.test.ts
  // opens its own context that allows it.
  const page = await (await browser.newContext({ viewport, acceptDownloads: true, serviceWorkers: 'block' })).newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(labUrl(preview.url, path));
  return {
    page,
    url: preview.url,
    pageErrors,
    close: async () => {
      await browser.close();
      await preview.stop();
    },
  };
}

/** A file for `setInputFiles` made from text. */
export const textFile = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
