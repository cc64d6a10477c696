/**
 * The C2NP compare view end to end (built app, headless Chromium on SwiftShader). Expected numbers come from
 * the benchmark's own numpy/scipy metrics in golden metric_cases.json; the demo's damage (3 deleted atoms,
 * 2 strays) is what the demo builds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { downloadOf, openLab, textFile, waitForFrame, type Lab } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));
const caseNamed = (name: string) => golden.cases.find((c: { name: string }) => c.name === name);
const xyz = (p: { symbols: string[]; coords: number[][] }) =>
  `${p.symbols.length}\ncase\n${p.symbols.map((s, i) => `${s} ${p.coords[i].map((v) => v.toPrecision(17)).join(' ')}`).join('\n')}\n`;

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=compare-progress]'), undefined, { timeout: 60_000 });
const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();
type Viewers = Record<string, { frames: number; natoms: number; camera: { position: number[]; target: number[] } | null }>;
const viewers = () => page.evaluate(() => window.__structlab!.viewers()) as Promise<Viewers>;

beforeAll(async () => {
  lab = await openLab('?fresh#/compare', { width: 1280, height: 800 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=compare-page]').waitFor();
  await page.locator('[data-testid=cmp-metrics]').waitFor({ timeout: 60_000 });
  await idle();
  await waitForFrame(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('compare view', () => {
  it('opens on the demo pair with its damage found: 3 missing, 2 extra atoms', async () => {
    expect(await text('cmp-missing-extra')).toBe('3 / 2');
    expect(await text('cmp-rmsd')).toMatch(/undefined/);
    const v = await viewers();
    expect(v.overlay.natoms).toBeGreaterThan(100);
    expect(v.overlay.frames).toBeGreaterThan(0);
    await expect(page.locator('[data-testid=cmp-colorbar]').isVisible()).resolves.toBe(true);
  });

  it('scores a pair loaded through the file inputs as the benchmark does (golden gauss_noise_0.1A)', async () => {
    const c = caseNamed('gauss_noise_0.1A');
    await page.locator('[data-testid=cmp-truth-input]').setInputFiles(textFile('truth.xyz', xyz(c.gt)));
    await page.locator('[data-testid=cmp-pred-input]').setInputFiles(textFile('pred.xyz', xyz(c.pred)));
    await page.waitForFunction(() => document.querySelector('[data-testid=cmp-pred-name]')?.textContent === 'pred.xyz');
    await page.waitForFunction(() => !/undefined/.test(document.querySelector('[data-testid=cmp-rmsd]')?.textContent ?? ''), undefined, {
      timeout: 30_000,
    });
    await idle();
    // Shown to 4 significant digits.
    expect(Number((await text('cmp-rmsd')).replace(' Å', ''))).toBeCloseTo(c.metrics.rmsd_c2np, 4);
    expect(Number((await text('cmp-hausdorff')).replace(' Å', ''))).toBeCloseTo(c.metrics.hausdorff, 3);
    expect(await text('cmp-missing-extra')).toBe('0 / 0');
    // The colour bar tops out at the largest index-paired displacement, rounded up.
    expect(Number(await text('cmp-colorbar-top'))).toBeGreaterThanOrEqual(c.metrics.hausdorff * 0.99);
  });

  it('side by side: two viewers whose cameras follow each other', async () => {
    await page.locator('[data-testid=cmp-layout-side-by-side]').click();
    await page.waitForFunction(
      () => {
        const v = window.__structlab!.viewers();
        return v.truth?.frames > 0 && v.pred?.frames > 0;
      },
      undefined,
      { timeout: 30_000 },
    );
    await page.evaluate(() => window.__structlab!.viewer('truth')!.orbit(40));
    const v = await viewers();
    expect(v.truth.natoms).toBe(119);
    expect(v.pred.natoms).toBe(119);
    for (let k = 0; k < 3; k++) expect(v.pred.camera!.position[k]).toBeCloseTo(v.truth.camera!.position[k], 6);
    await page.evaluate(() => window.__structlab!.viewer('pred')!.orbit(-75));
    const w = await viewers();
    for (let k = 0; k < 3; k++) expect(w.truth.camera!.position[k]).toBeCloseTo(w.pred.camera!.position[k], 6);
    expect(
      Math.abs(w.truth.camera!.position[0] - v.truth.camera!.position[0]) +
        Math.abs(w.truth.camera!.position[2] - v.truth.camera!.position[2]),
    ).toBeGreaterThan(1);
    await page.locator('[data-testid=cmp-layout-overlay]').click();
  });

  it('scores a JSONL batch, sorts by a metric and exports CSV', async () => {
    const names = ['gauss_noise_0.5A', 'translate_0.5A_x', 'remove_3_atoms', 'scale_1.02_about_centre'];
    const jsonl = names
      .map((n) =>
        JSON.stringify({
          id: n,
          pred: xyz(caseNamed(n).pred),
          truth: { symbols: caseNamed(n).gt.symbols, positions: caseNamed(n).gt.coords },
        }),
      )
      .join('\n');
    await page.locator('[data-testid=cmp-jsonl-input]').setInputFiles(textFile('batch.jsonl', jsonl));
    await page.locator('[data-testid=cmp-row]').first().waitFor({ timeout: 60_000 });
    await idle();
    expect(await page.locator('[data-testid=cmp-row]').count()).toBe(4);
    await page.locator('[data-testid=cmp-sort-hausdorff]').click();
    await page.locator('[data-testid=cmp-sort-hausdorff]').click(); // descending
    const ids = await page.locator('[data-testid=cmp-row] td:nth-child(2)').allInnerTexts();
    const expected = [...names].sort((a, b) => caseNamed(b).metrics.hausdorff - caseNamed(a).metrics.hausdorff);
    expect(ids).toEqual(expected);
    const download = await downloadOf(page, 'cmp-export-csv');
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r\n/);
    expect(csv[0].split(',').slice(0, 6)).toEqual(['index', 'id', 'n_pred', 'n_truth', 'rmsd', 'hausdorff']);
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      const m = caseNamed(cells[1]).metrics;
      if (m.rmsd_c2np === null) expect(cells[4]).toBe('');
      else expect(Number(cells[4])).toBeCloseTo(m.rmsd_c2np, 9);
      expect(Number(cells[5])).toBeCloseTo(m.hausdorff, 9);
    }
  });

  it('scores an inverse-task batch (golden task2_example: RMSE 0.1713, SG 0.8, joint 0.4)', async () => {
    const t = golden.task2_example;
    const jsonl = t.per_sample
      .map((s: { pred_lattice: number[]; pred_sg: number }, i: number) =>
        JSON.stringify({
          id: `s${i}`,
          pred_lattice: s.pred_lattice,
          pred_sg: s.pred_sg,
          true_lattice: t.true_lattice,
          true_sg: t.true_spacegroup,
        }),
      )
      .join('\n');
    await page.locator('[data-testid=cmp-jsonl-input]').setInputFiles(textFile('inverse.jsonl', jsonl));
    await page.locator('[data-testid=cmp-inverse-summary]').waitFor({ timeout: 30_000 });
    const summary = await text('cmp-inverse-summary');
    expect(summary).toContain(`lattice RMSE ${t.lattice_rmse.toPrecision(4)}`);
    expect(summary).toContain(`space-group accuracy ${t.sg_accuracy.toPrecision(3)}`);
    expect(summary).toContain(`joint accuracy ${t.joint_accuracy.toPrecision(3)}`);
  });

  it('explains bad input instead of failing silently', async () => {
    await page.locator('[data-testid=cmp-truth-input]').setInputFiles(textFile('empty.xyz', ''));
    await page.locator('[data-testid=cmp-error]').waitFor({ timeout: 30_000 });
    expect(await text('cmp-error')).toMatch(/empty\.xyz/);
    await page.locator('[data-testid=cmp-error] button').click();
    await page.locator('[data-testid=cmp-pred-input]').setInputFiles(textFile('nan.xyz', '2\nx\nK 0 0 NaN\nH 1 0 0\n'));
    await page.locator('[data-testid=cmp-error]').waitFor({ timeout: 30_000 });
    expect(await text('cmp-error')).toMatch(/nan\.xyz/);
    await page.locator('[data-testid=cmp-error] button').click();
    await page.locator('[data-testid=cmp-jsonl-input]').setInputFiles(textFile('bad.jsonl', '{"pred": 1}\n'));
    await page.locator('[data-testid=cmp-error]').waitFor({ timeout: 30_000 });
    expect(await text('cmp-error')).toMatch(/bad\.jsonl: line 1/);
    expect(pageErrors).toEqual([]);
  });
});
