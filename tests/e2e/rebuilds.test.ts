/**
 * Viewers rebuild only what changed (built app, headless Chromium on SwiftShader): each viewer counts the atom meshes
 * it builds (ViewerController.atomBuilds), and a page re-render that brings no new atoms (a batch-progress tick, a
 * click on a table header, the busy flag clearing) must not add one. The compare batch is made from the golden
 * metric_cases.json pairs, as in compare.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type Lab, openLab, textFile, waitForFrame } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));
const xyz = (p: { symbols: string[]; coords: number[][] }) =>
  `${p.symbols.length}\ncase\n${p.symbols.map((s, i) => `${s} ${p.coords[i].map((v) => v.toPrecision(17)).join(' ')}`).join('\n')}\n`;

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

/** Atom meshes built so far by each named viewer (absent: the viewer never mounted). */
const builds = (names: string[]) =>
  page.evaluate((ns) => Object.fromEntries(ns.map((n) => [n, window.__structlab!.viewer(n)?.atomBuilds ?? 0])), names) as Promise<
    Record<string, number>
  >;
const idle = (testId: string) => page.waitForFunction((id) => !document.querySelector(`[data-testid=${id}]`), testId, { timeout: 60_000 });

beforeAll(async () => {
  lab = await openLab('?fresh#/compare', { width: 1280, height: 800 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=cmp-metrics]').waitFor({ timeout: 60_000 });
  await idle('compare-progress');
  await waitForFrame(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('atom meshes are built once per structure shown', () => {
  it('compare: the demo pair is built once; a batch of 8 pairs scored under it adds one build (its first row, shown last)', async () => {
    expect(await builds(['overlay'])).toEqual({ overlay: 1 });
    const cases = golden.cases
      .filter((c: { pred: { symbols: string[] }; gt: { symbols: string[] } }) => c.pred.symbols.length > 0 && c.gt.symbols.length > 0)
      .slice(0, 8);
    expect(cases).toHaveLength(8);
    const jsonl = cases
      .map((c: { name: string; pred: never; gt: { symbols: string[]; coords: number[][] } }) =>
        JSON.stringify({ id: c.name, pred: xyz(c.pred), truth: { symbols: c.gt.symbols, positions: c.gt.coords } }),
      )
      .join('\n');
    await page.locator('[data-testid=cmp-jsonl-input]').setInputFiles(textFile('batch.jsonl', jsonl));
    await page.locator('[data-testid=cmp-row]').first().waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=cmp-row].active'), undefined, { timeout: 30_000 });
    await idle('compare-progress');
    expect(await page.locator('[data-testid=cmp-row]').count()).toBe(8);
    const frames = await waitForFrame(page);
    // Sorting the table re-renders the page, not the atoms.
    for (let k = 0; k < 3; k++) await page.locator('[data-testid=cmp-sort-hausdorff]').click();
    await waitForFrame(page, frames - 1);
    expect(await builds(['overlay'])).toEqual({ overlay: 2 });
  });

  it('atomworld: the demo batch builds each of the four case viewers once; sorting and the busy flag add none', async () => {
    await page.evaluate(() => {
      location.hash = '#/atomworld';
    });
    await page.locator('[data-testid=aw-actions]').waitFor({ timeout: 60_000 });
    await idle('aw-progress');
    const names = ['aw-before', 'aw-target', 'aw-answer', 'aw-overlay'];
    await page.waitForFunction(
      (ns) => {
        const v = window.__structlab!.viewers();
        return ns.every((n) => v[n]?.frames > 0 && v[n]?.natoms > 0);
      },
      names,
      { timeout: 30_000 },
    );
    expect(await builds(names)).toEqual(Object.fromEntries(names.map((n) => [n, 1])));
    for (const key of ['action', 'rmsd', 'rmsd', 'id']) await page.locator(`[data-testid=aw-sort-${key}]`).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=aw-sort-id]')?.getAttribute('aria-sort') === 'ascending');
    expect(await builds(names)).toEqual(Object.fromEntries(names.map((n) => [n, 1])));
    expect(pageErrors).toEqual([]);
  });
});
