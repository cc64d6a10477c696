/**
 * Per-atom properties on the Structure page (issue 15): an extended XYZ frame with a force column; colouring by it
 * shows a colour bar whose range is the data's (the force lengths computed here), recolours the atoms with one
 * atom-buffer rebuild, and going back to element colours restores them; a picked atom lists its force.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontmostAtom, textFile, type Lab, waitForFrame } from './harness.ts';
import { openWithFile } from './open.ts';

const forces = [
  [0.1, -0.2, 0.2],
  [-3, 0, 4],
  [0.5, 0.5, 0.5],
  [0, 0, 0],
];
const EXTXYZ =
  '4\nLattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3:forces:R:3 pbc="T T T"\n' +
  ['Na 0 0 0', 'Cl 2.5 2.5 2.5', 'Na 0 2.5 2.5', 'Cl 2.5 0 0'].map((l, i) => `${l} ${forces[i].join(' ')}`).join('\n') +
  '\n';

let lab: Lab;
let page: Page;

beforeAll(async () => {
  lab = await openWithFile(textFile('forces.extxyz', EXTXYZ));
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

describe('per-atom properties', () => {
  it('colours by |forces| with a colour bar over the data’s range, one rebuild each way', async () => {
    const lengths = forces.map((f) => Math.hypot(...f));
    const builds = await page.evaluate(() => (window.__structlab!.viewer('main') as { atomBuilds: number }).atomBuilds);
    await page.locator('[data-testid=color-property]').selectOption('forces');
    await page.locator('[data-testid=property-colorbar]').waitFor();
    expect(await page.locator('[data-testid=property-min]').innerText()).toBe(Math.min(...lengths).toPrecision(4));
    expect(await page.locator('[data-testid=property-max]').innerText()).toBe(Math.max(...lengths).toPrecision(4));
    expect(await page.locator('[data-testid=property-colorbar]').innerText()).toContain('|forces|');
    await page.waitForFunction((n) => (window.__structlab!.viewer('main') as { atomBuilds: number }).atomBuilds === n + 1, builds, {
      timeout: 30_000,
    });
    await page.locator('[data-testid=color-property]').selectOption('');
    await page.waitForFunction((n) => (window.__structlab!.viewer('main') as { atomBuilds: number }).atomBuilds === n + 2, builds, {
      timeout: 30_000,
    });
    expect(await page.locator('[data-testid=property-colorbar]').count()).toBe(0);
    expect(lab.pageErrors).toEqual([]);
  });

  it('draws the forces as arrows: one per drawn atom with a non-zero force, a new frame when the scale changes', async () => {
    await page.locator('[data-testid=color-property]').selectOption('forces');
    const frames = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.locator('[data-testid=property-arrows]').check();
    await page.locator('[data-testid=property-arrow-count]').waitFor();
    // Drawn atoms include boundary images; each takes its site's force, and the zero force of site 4 draws none.
    const drawnSites = await page.evaluate(() => {
      const sl = window.__structlab!;
      return Array.from({ length: sl.natoms() }, (_, i) => i);
    });
    const count = Number((await page.locator('[data-testid=property-arrow-count]').innerText()).split(' ')[0]);
    expect(count).toBeGreaterThanOrEqual(3);
    expect(count).toBeLessThan(drawnSites.length);
    await waitForFrame(page, frames);
    const after = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.locator('[data-testid=property-arrow-scale]').fill('0.5');
    await waitForFrame(page, after);
    expect(lab.pageErrors).toEqual([]);
  });

  it('a picked atom lists its force', async () => {
    // The front-most drawn atom that is not a boundary image, clicked where the viewer projects it.
    const atom = await frontmostAtom(page);
    expect(atom).not.toBeNull();
    await page.mouse.click(atom!.x, atom!.y);
    await page.locator('[data-testid=atom-property-forces]').waitFor({ timeout: 30_000 });
    const site = Number((await page.locator('[data-testid=atom-site]').innerText()).split(' ')[0]) - 1;
    expect(await page.locator('[data-testid=atom-property-forces]').innerText()).toBe(forces[site].map((v) => v.toPrecision(4)).join(', '));
  });
});
