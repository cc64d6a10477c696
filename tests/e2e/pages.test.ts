/**
 * The lab shell (src/app/App.tsx): each page is its own chunk, fetched when first shown; a page that fails
 * (here: its chunk never arrives) shows its error under its own tab only, and "Try again" fetches it anew;
 * a plain visit (no `testhooks` query) gets no test hooks.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

let lab: Lab;
let page: Page;
/** Asset files the browser asked for (names without hash), in order. */
const requested: string[] = [];

const boundaryError = () => page.locator('.boundary-error');

beforeAll(async () => {
  lab = await openLab('?fresh#/structure');
  page = lab.page;
  page.on('request', (r) => {
    const m = /\/assets\/([^/]+?)-[\w-]+\.(js|css)$/.exec(new URL(r.url()).pathname);
    if (m) requested.push(m[1]);
  });
  await page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
  await waitForFrame(page);
  await waitIdle(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('lazy pages', () => {
  it('the structure page did not fetch the other pages', async () => {
    const chunks = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
    expect(chunks.some((p) => /\/StructurePage-[\w-]+\.js$/.test(p))).toBe(true);
    for (const other of ['NanoparticlePage', 'ComparePage', 'OnngPage', 'AtomworldPage', 'FemPage']) {
      expect(
        chunks.filter((p) => p.includes(`/${other}-`)),
        other,
      ).toEqual([]);
    }
  });

  it('an error in one page stays under its tab; the other tabs show their own page; Try again reloads it', async () => {
    // The Compare page's chunk never arrives: its lazy import fails, and the page's error boundary shows it.
    await page.route('**/assets/ComparePage-*.js', (route) => route.abort('failed'));
    await page.locator('[data-testid=tab-compare]').click();
    await expect.poll(() => boundaryError().textContent(), { timeout: 30_000 }).toMatch(/^The compare hit an error/);
    expect(await page.locator('[data-testid=compare-page]').count()).toBe(0);

    // Another tab: its own page, not the Compare error under the Structure name.
    await page.locator('[data-testid=tab-structure]').click();
    await page.locator('[data-testid=formula]').waitFor({ timeout: 30_000 });
    expect(await boundaryError().count()).toBe(0);
    expect(await page.locator('[data-testid=formula]').textContent()).toBe('Cs1 Ca1 H3');

    // Back on Compare the failure is still its own; once the network answers, Try again shows the page.
    await page.locator('[data-testid=tab-compare]').click();
    await expect.poll(() => boundaryError().textContent(), { timeout: 30_000 }).toMatch(/^The compare hit an error/);
    await page.unroute('**/assets/ComparePage-*.js');
    await boundaryError().locator('button', { hasText: 'Try again' }).click();
    await page.locator('[data-testid=compare-page]').waitFor({ timeout: 30_000 });
    expect(await boundaryError().count()).toBe(0);
    expect(requested.filter((n) => n === 'ComparePage').length).toBeGreaterThanOrEqual(2);
  });

  it('a plain visit (no testhooks) installs no test hooks', async () => {
    await page.goto(`${lab.url}?fresh#/structure`);
    await page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
      timeout: 60_000,
    });
    await page.locator('canvas').first().waitFor();
    // A few more animation frames, so a per-frame hook would have run.
    await page.evaluate(
      () =>
        new Promise<void>((done) => {
          let n = 0;
          const tick = () => (++n < 5 ? requestAnimationFrame(tick) : done());
          requestAnimationFrame(tick);
        }),
    );
    expect(await page.evaluate(() => ({ hooks: typeof window.__structlab, rendered: document.body.dataset.rendered ?? null }))).toEqual({
      hooks: 'undefined',
      rendered: null,
    });
  });
});
