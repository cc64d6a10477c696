/**
 * The O-NNG page end to end (built app, headless Chromium), on the fixtures written for this project
 * (tests/reference/onng/README.md). Expected F and p are scipy's f_oneway values stored in the fixture's
 * summary_by_model_lambda.json, compared at the digits the table shows; the exact-set check compares the
 * hovered names with the stored name_mapping.json of set 3.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONNG_FIXTURES, upstreamTreeFromCsv } from '../onng-fixtures.ts';
import { type Lab, openLab } from './harness.ts';

const ONNG = ONNG_FIXTURES;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const summary: any = JSON.parse(readFileSync(join(ONNG, 'derived', 'summary_by_model_lambda.json'), 'utf8'));

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];
const text = (id: string) => page.locator(`[data-testid="${id}"]`).innerText();
const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=onng-progress]'), undefined, { timeout: 60_000 });

beforeAll(async () => {
  lab = await openLab('?fresh#/onng', { width: 1280, height: 900 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=onng-page]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('O-NNG page', () => {
  it('at λ = 0.6 shows a problem renamed, and its original name on hover', async () => {
    await page.locator('[data-testid=onng-lambda]').selectOption('3');
    await page.locator('[data-testid=onng-problem-3]').click();
    expect(await text('onng-original')).toBe('add_comm (a b : ℕ) : a + b = b + a');
    const name = page.locator('[data-testid=onng-obfuscated] [data-testid=onng-obf-name][data-original=add_comm]');
    const renamed = await name.innerText();
    expect(renamed).not.toBe('add_comm');
    expect(await text('onng-obfuscated')).toContain(renamed);
    expect(await name.getAttribute('title')).toBe('original: add_comm');
    await name.hover();
    await expect.poll(() => text('onng-hover-original')).toContain('add_comm');
    expect(await text('onng-hover-original')).toContain(renamed);
    // λ = 0 shows the original names.
    await page.locator('[data-testid=onng-lambda]').selectOption('0');
    expect(await text('onng-obfuscated')).toBe(await text('onng-original'));
    await page.locator('[data-testid=onng-lambda]').selectOption('3');
  });

  it('loads an outcomes CSV: accuracy chart and an ANOVA table equal to scipy at the digits shown', async () => {
    await page.locator('[data-testid=onng-results-input]').setInputFiles(join(ONNG, 'derived', 'per_problem_outcomes.csv'));
    await page.locator('[data-testid=onng-anova]').waitFor({ timeout: 60_000 });
    await idle();
    expect(await page.locator('[data-testid=onng-chart-accuracy] canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=onng-chart-time] canvas').count()).toBeGreaterThan(0);
    expect(await text('onng-results-summary')).toContain('648 rows');
    const models = Object.keys(summary);
    expect(models).toHaveLength(3);
    for (const model of models) {
      const t = summary[model]._tests;
      expect(await text(`anova-acc-F-${model}`)).toBe(t.anova_acc_scipy.F.toPrecision(5));
      expect(await text(`anova-acc-p-${model}`)).toBe(t.anova_acc_scipy.p.toPrecision(3));
      expect(await text(`anova-time-F-${model}`)).toBe(t.anova_time_scipy.F.toPrecision(5));
      expect(await text(`anova-time-p-${model}`)).toBe(t.anova_time_scipy.p.toPrecision(3));
    }
    expect(await page.locator('[data-testid=onng-heatmap] tbody tr').count()).toBe(12);
    expect(await text('onng-drafts')).toContain('atlas-7b');
  });

  it('re-analyses without problem 1 on request, and back', async () => {
    await page.locator('[data-testid=onng-exclude-first]').check();
    await expect.poll(() => text('onng-results-summary'), { timeout: 30_000 }).toContain('594 rows (problem 1 left out)');
    expect(await page.locator('[data-testid=onng-heatmap] tbody tr').count()).toBe(11);
    await page.locator('[data-testid=onng-exclude-first]').uncheck();
    await expect.poll(() => text('onng-results-summary'), { timeout: 30_000 }).toContain('648 rows,');
    const t = summary['atlas-7b']._tests;
    expect(await text('anova-acc-F-atlas-7b')).toBe(t.anova_acc_scipy.F.toPrecision(5));
  });

  it('refuses a bad file with a sentence naming it, keeping the last analysis', async () => {
    await page
      .locator('[data-testid=onng-results-input]')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('hello,world\n1,2\n') });
    await page.locator('[data-testid=onng-error]').waitFor({ timeout: 30_000 });
    expect(await text('onng-error')).toMatch(/bad\.csv.*line 1/);
    expect(await page.locator('[data-testid=onng-anova]').count()).toBe(1);
  });

  it('opens a results folder in the upstream layout, then a verdict file fills the model it lacked', async () => {
    const root = mkdtempSync(join(tmpdir(), 'structlab-onng-e2e-'));
    const verdictPath = writeUpstreamTree(root, 'birch-chat');
    await page.locator('[data-testid=onng-results-folder]').setInputFiles(join(root, 'results'));
    await expect.poll(() => text('onng-results-summary'), { timeout: 60_000 }).toMatch(/^results: 648 rows/);
    await idle();
    expect(await page.locator('[data-testid=onng-raw-prechecks] tbody tr').count()).toBe(18);
    expect(await text('onng-raw-prechecks')).toContain('cedar-prover');
    expect(await text('anova-acc-F-birch-chat')).toBe('—'); // its verdicts are not in the folder: every run unverified
    const t = summary['atlas-7b']._tests;
    expect(await text('anova-acc-F-atlas-7b')).toBe(t.anova_acc_scipy.F.toPrecision(5));
    await page.locator('[data-testid=onng-verdict-input]').setInputFiles(verdictPath);
    await expect
      .poll(() => text('anova-acc-F-birch-chat'), { timeout: 60_000 })
      .toBe(summary['birch-chat']._tests.anova_acc_scipy.F.toPrecision(5));
    await idle();
    expect(await text('anova-time-p-birch-chat')).toBe(summary['birch-chat']._tests.anova_time_scipy.p.toPrecision(3));
    expect(await text('onng-verdict-files')).toContain('birch-chat-verdicts.json');
    expect(await page.locator('[data-testid=onng-heatmap] tbody tr').count()).toBe(12);
  });

  it('opens an O-NNG dataset folder and shows the exact set-3 names', async () => {
    await page.locator('[data-testid=onng-folder-input]').setInputFiles(join(ONNG, 'dataset'));
    await expect.poll(() => text('onng-mode'), { timeout: 60_000 }).toMatch(/Exact O-NNG sets/);
    await idle();
    const golden = JSON.parse(readFileSync(join(ONNG, 'dataset', 'obfuscated_3', 'name_mapping.json'), 'utf8')) as Record<string, string>;
    await page.locator('[data-testid=onng-problem-3]').click();
    expect(await text('onng-original')).toBe('theorem join_swap (x y : Tally) : join x y = join y x := by');
    const name = page.locator('[data-testid=onng-obfuscated] [data-testid=onng-obf-name][data-original=join_swap]');
    expect(await name.innerText()).toBe(golden.join_swap);
    await page.locator('[data-testid=onng-prompt] summary').click();
    expect(await text('onng-prompt')).toContain(golden.join_swap);
    expect(pageErrors).toEqual([]);
  });
});

/**
 * Writes the upstream tree generated from the fixture outcomes CSV into `root` (a temporary folder); `apart`'s
 * statistics go to a separate verdict file, whose path is returned.
 */
function writeUpstreamTree(root: string, apart: string): string {
  let verdictPath = '';
  for (const f of upstreamTreeFromCsv(readFileSync(join(ONNG, 'derived', 'per_problem_outcomes.csv'), 'utf8'))) {
    const model = /^results\/([^/]+)\/statistics\.json$/.exec(f.path)?.[1];
    if (model === apart) {
      verdictPath = join(root, `${model}-verdicts.json`);
      writeFileSync(verdictPath, JSON.stringify({ model, ...JSON.parse(f.text) }));
      continue;
    }
    mkdirSync(dirname(join(root, f.path)), { recursive: true });
    writeFileSync(join(root, f.path), f.text);
  }
  return verdictPath;
}
