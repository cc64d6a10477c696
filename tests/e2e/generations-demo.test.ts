/**
 * The Generations page's demo end to end (built app, headless Chromium): the Demo button loads the 16 MP-20 truths and
 * the seeded predictions made from them in the worker, runs CSP, and shows the match rate Node computes on the same demo;
 * an opened sample's powder pattern against its truth's carries the similarity scores Node computes for the pair.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspMetrics } from '../../src/core/tasks/generations/csp.ts';
import { demoPredictions } from '../../src/core/tasks/generations/demo.ts';
import { pairCsp, setFromCsv } from '../../src/core/tasks/generations/inputs.ts';
import { XRD_COMPARE_DEFAULTS, comparePatterns } from '../../src/core/analysis/xrd-compare.ts';
import { type Lab, openLab } from './harness.ts';

const FILE = join(__dirname, '..', '..', 'datasets', 'generations', 'mp20-demo.csv');

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();

beforeAll(async () => {
  lab = await openLab('?fresh#/generations', { width: 1400, height: 900 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

describe('Generations demo', () => {
  it('runs CSP on the demo: n = 16 and the match rate Node computes', async () => {
    const truths = setFromCsv('truth', 'mp20-demo.csv', readFileSync(FILE, 'utf8'));
    const expected = cspMetrics(pairCsp(demoPredictions(truths), truths, 1), { convention: 'diffcsp', smact: 'legacy' });
    expect(expected.match_rate).toBeGreaterThan(0);
    expect(expected.match_rate).toBeLessThan(1);
    await page.locator('[data-testid=gen-demo]').click();
    await page.locator('[data-testid=gen-summary][data-convention=diffcsp]').waitFor({ timeout: 120_000 });
    expect(await text('gen-counts')).toBe('16 · 16');
    expect(await text('gen-match-rate')).toBe(`${(100 * expected.match_rate).toFixed(2)} %`);
    expect(await text('gen-set-pred-info')).toContain('16');
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('compares an opened sample’s powder pattern with its truth’s: the scores `structlab xrd-compare` gives', async () => {
    const truths = setFromCsv('truth', 'mp20-demo.csv', readFileSync(FILE, 'utf8'));
    const groups = pairCsp(demoPredictions(truths), truths, 1);
    const row = page.locator('[data-testid=gen-row]').first();
    const id = (await row.getAttribute('data-id'))!;
    await row.click();
    await page.locator('[data-testid=gen-xrd-compare]').click();
    await page.locator('[data-testid=gen-xrd]').waitFor({ timeout: 60_000 });
    const group = groups.find((g) => g.truth.id === id)!;
    const expected = comparePatterns(group.samples[0].pred.structure, group.truth.structure, XRD_COMPARE_DEFAULTS).similarity;
    expect(await text('gen-xrd-cosine')).toBe(expected.cosine.toFixed(4));
    expect(await text('gen-xrd-pearson')).toBe(expected.pearson.toFixed(4));
    expect(await text('gen-xrd-wcc')).toBe(expected.wcc.toFixed(4));
    expect(await page.locator('[data-testid=gen-xrd-plot] canvas').count()).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
