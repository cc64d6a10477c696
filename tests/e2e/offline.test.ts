/**
 * Installable and offline (dist/sw.js from the structlab-offline plugin in vite.config.ts, registered by
 * src/main.tsx): the lab is loaded once, its service worker caches every file of the build; then the browser goes
 * offline, reloads, and every page opens and works from the cache: the structure is read and drawn (io worker,
 * moyo wasm, embedded dataset), the nanoparticle is carved, the generations demo computes its CSP metrics in its
 * worker, and no page shows an error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

let lab: Lab;
let context: BrowserContext;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  // The one file whose context lets the lab's service worker run: it is what this file tests.
  lab = await openLab('?fresh#/structure', { width: 1280, height: 800 }, { serviceWorkers: 'allow' });
  ({ page, pageErrors } = lab);
  context = page.context();
  await page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
  // Installed (every file cached) and in control of the page.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('offline', () => {
  it('the service worker cached every file of the build', async () => {
    const listed = /const PRECACHE = (\[[^\]]*\])/.exec(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'sw.js'), 'utf8'));
    expect(listed).not.toBeNull();
    const precache = JSON.parse(listed![1]) as string[];
    expect(precache).toContain('./');
    expect(precache.some((f) => f.endsWith('.wasm'))).toBe(true);
    expect(precache.filter((f) => /worker/.test(f)).length).toBeGreaterThanOrEqual(5);
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('structlab-'))!);
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    expect(cached.length).toBe(precache.length);
  });

  it('reloads offline and opens every page from the cache', async () => {
    await context.setOffline(true);
    const failedRequests: string[] = [];
    page.on('requestfailed', (r) => failedRequests.push(r.url()));
    await page.reload();
    await page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=formula]').textContent()).not.toBe('');
    await waitForFrame(page);

    const pages: [string, string][] = [
      ['nanoparticle', 'nanoparticle-page'],
      ['compare', 'compare-page'],
      ['onng', 'onng-page'],
      ['atomworld', 'atomworld-page'],
      ['fem', 'fem-page'],
      ['generations', 'generations-page'],
    ];
    for (const [tab, root] of pages) {
      await page.locator(`[data-testid=tab-${tab}]`).click();
      await page.locator(`[data-testid=${root}]`).waitFor({ timeout: 60_000 });
      await waitIdle(page);
      expect(await page.locator('.boundary-error').count(), tab).toBe(0);
    }
    // A page that needs its worker and the embedded data: the generations demo, computed offline.
    await page.locator('[data-testid=gen-demo]').click();
    await page.locator('[data-testid=gen-summary][data-convention=diffcsp]').waitFor({ timeout: 120_000 });

    // A reload on a page other than the first one is served offline too.
    await page.reload();
    await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
    expect(failedRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
