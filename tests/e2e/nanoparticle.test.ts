/**
 * The C2NP teaching view end to end (built app, headless Chromium on SwiftShader). Expected atom counts come
 * from an independent brute-force carve written here from C2NP's rule (Atomsk: 20³ supercell, centre
 * ½(A1+A2+A3), strict |r − c| < R), checked against the spec's published list, and from the sample manifest.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

/** Atoms of a cubic ABX3 perovskite (B at the origin, A at the body centre, X at the edge midpoints) strictly inside R. */
function bruteForcePerovskiteCount(a: number, radius: number, repeats = 20): number {
  const basis = [
    [0, 0, 0],
    [0.5, 0.5, 0.5],
    [0.5, 0, 0],
    [0, 0.5, 0],
    [0, 0, 0.5],
  ];
  const c = (repeats * a) / 2;
  let n = 0;
  for (let i = 0; i < repeats; i++)
    for (let j = 0; j < repeats; j++)
      for (let k = 0; k < repeats; k++) {
        for (const [x, y, z] of basis) if (Math.hypot((i + x) * a - c, (j + y) * a - c, (k + z) * a - c) < radius) n++;
      }
  return n;
}

const natoms = () => page.locator('[data-testid=np-natoms]').innerText();

beforeAll(async () => {
  lab = await openLab('?fresh#/nanoparticle', { width: 1280, height: 800 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=nanoparticle-page]').waitFor();
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
    timeout: 60_000,
  });
  await waitForFrame(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('nanoparticle teaching view', () => {
  it('the brute-force carve reproduces the spec’s published counts for the a = 4.0213 Å cell', () => {
    expect([6, 7, 8, 9, 10].map((r) => bruteForcePerovskiteCount(4.0213, r))).toEqual([57, 119, 143, 245, 317]);
  });

  it('carves CsCaH3 at R = 8 Å with the atom count of the spec’s rule', async () => {
    const cif = readFileSync(join(REPO_ROOT, 'datasets', 'CsCaH3.cif'), 'utf8');
    const a = Number(/_cell_length_a\s+([0-9.]+)/.exec(cif)![1]);
    const expected = bruteForcePerovskiteCount(a, 8);
    await page.locator('[data-testid=np-radius]').fill('8');
    await page.waitForFunction((n) => document.querySelector('[data-testid=np-natoms]')?.textContent === String(n), expected, {
      timeout: 30_000,
    });
    expect(await natoms()).toBe(String(expected));
  });

  it('colours by coordination with a colour bar, and shows the four plots as canvases', async () => {
    const before = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.locator('[data-testid=np-color]').selectOption('coordination');
    await waitForFrame(page, before);
    await expect.poll(() => page.locator('[data-testid=np-legend]').innerText()).toContain('surface');
    await waitIdle(page, 120_000);
    for (const id of ['np-plot-surface', 'np-plot-cn', 'np-plot-hist', 'np-plot-rdf']) {
      expect(await page.locator(`[data-testid=${id}] canvas`).count()).toBeGreaterThan(0);
    }
  });

  it('turns the particle by a C2NP rotation and renders a new frame', async () => {
    await page.locator('[data-testid=np-split]').selectOption('ID');
    const before = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.locator('[data-testid=np-rotation]').fill('3');
    await page.locator('[data-testid=np-quaternion]').waitFor({ timeout: 30_000 });
    await waitForFrame(page, before);
    expect(await page.locator('[data-testid=np-quaternion]').innerText()).toMatch(/^q = \(/);
  });

  it('loads a sample cell and matches the manifest count; refuses a bad file with a message', async () => {
    const manifest = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'sample', 'manifest.json'), 'utf8'));
    const material = 'illustrative_KMgH3_a4.0213_Aorigin';
    const expected = manifest.materials[material].counts_by_R['8'].n;
    await page.locator('[data-testid=np-file-input]').setInputFiles(join(REFERENCE, 'golden', 'c2np', 'sample', 'cifs', `${material}.cif`));
    await page.waitForFunction((n) => document.querySelector('[data-testid=np-natoms]')?.textContent === String(n), expected, {
      timeout: 30_000,
    });
    await page.locator('[data-testid=np-file-input]').setInputFiles({ name: 'empty.cif', mimeType: 'text/plain', buffer: Buffer.from('') });
    await page.locator('[data-testid=np-error]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=np-error]').innerText()).toMatch(/empty\.cif/);
    expect(pageErrors).toEqual([]);
  });
});
