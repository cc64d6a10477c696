/**
 * The built lab in headless Chromium, outside vitest: `vite preview` of dist/, a Chromium (SwiftShader) and the waits
 * on the lab's page. The e2e tests (tests/e2e/harness.ts) and scripts/screenshot.ts use them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT } from './paths.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';

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
  // A run that ends without calling stop() (an error in a global setup, a killed vitest) leaves no server behind.
  const killOnExit = () => child.kill();
  process.once('exit', killOnExit);
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
        process.off('exit', killOnExit);
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A Chromium of its own: for scripts (scripts/screenshot.ts), and for a test file whose shared one is gone (newLabContext). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });

/** Waits until at least one more frame than `after` has been rendered. */
export async function waitForFrame(page: Page, after = 0, timeout = 30_000): Promise<number> {
  await page.waitForFunction((n) => Number(document.body.dataset.rendered ?? 0) > n, after, { timeout });
  return page.evaluate(() => Number(document.body.dataset.rendered));
}

/** Waits until the worker is idle (no progress bar). */
export async function waitIdle(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[data-testid=progress]'), undefined, { timeout });
}
