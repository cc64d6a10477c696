/**
 * The Structure page's Diffraction panel end to end (built lab, headless Chromium): the strongest peaks of the
 * pattern equal pymatgen's XRDCalculator golden at the digits shown, for Cu Kα and after switching to Mo Kα; a second
 * structure's pattern overlaid carries the golden `xrd-compare` scores.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, XTAL_GOLDEN, corpusPath, readXtalGolden } from '../xtal-goldens.ts';
import { type Lab } from './harness.ts';
import { openWithFile } from './open.ts';

const NAME = 'matterviz-BaTiO3-tetragonal.poscar';
const golden = readXtalGolden(NAME);
const TOP = 5;

let lab: Lab;
let page: Page;

const atDigits = (shown: string, value: number) => {
  const decimals = shown.split('.')[1]?.length ?? 0;
  return Math.abs(Number(shown) - value) <= 0.5 * 10 ** -decimals + 1e-9;
};

beforeAll(async () => {
  lab = await openWithFile(corpusPath(NAME), { viewport: { width: 1400, height: 900 } });
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

async function checkTopPeaks(wavelength: string) {
  const g = golden.xrd.find((x: Json) => x.wavelength === wavelength && x.two_theta_range[0] === 0 && x.two_theta_range[1] === 90);
  expect(g, `golden ${wavelength} 0–90°`).toBeTruthy();
  const want = [...g.peaks].sort((a: Json, b: Json) => b.intensity - a.intensity || a.two_theta - b.two_theta).slice(0, TOP);
  await page.waitForFunction(
    (first) => document.querySelector('[data-testid=xrd-peaks] tbody tr td')?.textContent === first,
    want[0].two_theta.toFixed(3),
    { timeout: 60_000 },
  );
  const rows: string[][] = await page.$$eval('[data-testid=xrd-peaks] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!)),
  );
  expect(rows.length).toBeGreaterThanOrEqual(TOP);
  want.forEach((p: Json, k: number) => {
    const [tt, intensity, d, families] = rows[k];
    expect(atDigits(tt, p.two_theta), `2θ ${tt} vs ${p.two_theta}`).toBe(true);
    expect(atDigits(intensity, p.intensity), `I ${intensity} vs ${p.intensity}`).toBe(true);
    expect(atDigits(d, p.d_hkl), `d ${d} vs ${p.d_hkl}`).toBe(true);
    for (const f of p.hkls) expect(families).toContain(`(${f.hkl.join(' ')})×${f.multiplicity}`);
  });
}

describe('diffraction panel', () => {
  it('shows the golden strongest peaks for Cu Kα, drawn and labelled on hover', async () => {
    await page.locator('[data-testid=xrd-panel] > summary').click();
    await checkTopPeaks('CuKa');
    // The broadened curve is drawn (uPlot's canvas) and pointing at the strongest peak names its hkl.
    await page.locator('[data-testid=xrd-plot] canvas').waitFor();
    const top = await page.$eval('[data-testid=xrd-peaks] tbody tr td', (td) => Number(td.textContent));
    const box = (await page.locator('[data-testid=xrd-plot] .u-over').boundingBox())!;
    await page.mouse.move(box.x + (box.width * top) / 90, box.y + box.height / 2);
    await page.waitForFunction(() => document.querySelector('[data-testid=xrd-hover]')?.textContent?.startsWith('2θ'));
    expect(await page.locator('[data-testid=xrd-hover]').innerText()).toMatch(/^2θ [\d.]+° · I [\d.]+ · d [\d.]+ Å · \(.+\)×\d+/);
  });

  it('recomputes for Mo Kα', async () => {
    await page.locator('[data-testid=xrd-wavelength]').selectOption('MoKa');
    await checkTopPeaks('MoKa');
    expect(lab.pageErrors).toEqual([]);
  });

  it('overlays a second structure (the golden perturbed copy) with the golden xrd-compare scores', async () => {
    const pairs = JSON.parse(readFileSync(join(XTAL_GOLDEN, 'xrd_pairs', 'pairs.json'), 'utf8'));
    const pair = pairs.pairs.find((p: Json) => p.truth === NAME);
    expect(pair, `golden pair for ${NAME}`).toBeTruthy();
    await page.locator('[data-testid=xrd-wavelength]').selectOption('CuKa');
    await checkTopPeaks('CuKa');
    await page.locator('[data-testid=xrd-compare-file]').setInputFiles(join(XTAL_GOLDEN, 'xrd_pairs', pair.pred));
    await page.locator('[data-testid=xrd-compare]').waitFor({ timeout: 60_000 });
    // The scores are symmetric in the two patterns; the panel shows 4 decimals of the golden's (pred, truth) values.
    for (const key of ['cosine', 'pearson', 'wcc'])
      expect(await page.locator(`[data-testid=xrd-compare-${key}]`).innerText(), key).toBe(pair.similarity[key].toFixed(4));
    expect(await page.locator('[data-testid=xrd-compare-plot] canvas').count()).toBeGreaterThan(0);
    expect(lab.pageErrors).toEqual([]);
  });
});
