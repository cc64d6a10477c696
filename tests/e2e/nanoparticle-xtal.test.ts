/**
 * The carved particle's convex-hull facets labelled by their Miller indices (issue 14): CsCaH3 (cubic perovskite)
 * at R = 15 Å shows the low-index families a cubic crystal's sphere is cut into — the six {1 0 0} faces the largest,
 * the eight {1 1 1} corners cut — in the facet table (the labels of the largest facets are drawn in the scene); a
 * C2NP rotation turns the particle but not its indices (they are read in the crystal's own cell). The geometry is
 * checked independently in tests/unit/facets.test.ts. The particle's Debye powder pattern beside the crystal's
 * narrows as R grows (the equation itself is checked pair by pair in tests/unit/debye.test.ts).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

let lab: Lab;
let page: Page;

const families = () => page.locator('[data-testid=np-facet-row] td:first-child').allInnerTexts();

beforeAll(async () => {
  lab = await openLab('?fresh#/nanoparticle');
  page = lab.page;
  await page.locator('[data-testid=nanoparticle-page]').waitFor();
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
    timeout: 60_000,
  });
  await waitForFrame(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('hull facets with Miller indices', () => {
  it('CsCaH3 R = 15 Å: the six {1 0 0} faces largest, the eight {1 1 1} present', async () => {
    await page.locator('[data-testid=np-radius]').fill('15');
    await waitIdle(page);
    const before = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.locator('[data-testid=np-hull]').check();
    await page.locator('[data-testid=np-facets]').waitFor({ timeout: 30_000 });
    await waitForFrame(page, before);
    const rows = await families();
    const counts = await page.locator('[data-testid=np-facet-row] td:nth-child(3)').allInnerTexts();
    // The largest faces are the six of {1 0 0}; the eight {1 1 1} corners are cut too.
    expect(rows[0]).toBe('{1 0 0}');
    expect(counts[0]).toBe('6');
    expect(counts[rows.indexOf('{1 1 1}')]).toBe('8');
    const shares = await page.locator('[data-testid=np-facet-row] td:nth-child(2)').allInnerTexts();
    const total = shares.reduce((s, t) => s + Number.parseFloat(t), 0);
    expect(total).toBeGreaterThan(99.5);
    expect(total).toBeLessThan(100.5);
  });

  it('a C2NP rotation turns the particle, not its indices', async () => {
    const unrotated = await families();
    await page.locator('[data-testid=np-split]').selectOption('ID');
    await page.locator('[data-testid=np-rotation]').fill('3');
    await page.locator('[data-testid=np-quaternion]').waitFor({ timeout: 30_000 });
    await waitIdle(page);
    // Families of (nearly) equal area may swap places; the set and the largest stay.
    await expect.poll(async () => [...(await families())].sort(), { timeout: 30_000 }).toEqual([...unrotated].sort());
    expect((await families())[0]).toBe('{1 0 0}');
  });
});

describe('the particle’s powder pattern against the crystal’s', () => {
  const fwhmAt = async (radius: number): Promise<number> => {
    await page.locator('[data-testid=np-radius]').fill(String(radius));
    await page.waitForFunction(
      (r) => document.querySelector('[data-testid=np-xrd-width]')?.getAttribute('data-radius') === String(r),
      radius,
      {
        timeout: 60_000,
      },
    );
    return Number(await page.locator('[data-testid=np-xrd-fwhm]').innerText());
  };

  it('the bulk’s strongest peak narrows in the particle as it grows (Scherrer: R = 8 → 16 Å, about half)', async () => {
    const small = await fwhmAt(8);
    const large = await fwhmAt(16);
    expect(small / large).toBeGreaterThan(1.5);
    expect(small / large).toBeLessThan(2.6);
    expect(await page.locator('[data-testid=np-plot-xrd] canvas').count()).toBeGreaterThan(0);
    expect(lab.pageErrors).toEqual([]);
  });
});
