/**
 * The Generations page end to end (built app, headless Chromium): the visible CSP set loaded through the page's
 * file and folder inputs shows the golden match rate and RMSE (golden csp_visible/expected.json) in both
 * conventions, the failure filter and a sample's detail work, and the exported JSON equals the CLI's document; a zip
 * of predictions is a set, a sample downloads in any format, the de novo goldens (denovo_visible) show, and cancel
 * leaves the page idle for the next run.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { CSP_MATCHER_OPTIONS } from '../../src/core/tasks/generations/csp.ts';
import { explainMatch } from '../../src/core/tasks/generations/explain.ts';
import { setFromFolder } from '../../src/core/tasks/generations/inputs.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { clickInPageWhen, downloadOf, openLab, type Lab } from './harness.ts';
import { sameWithin, shown } from '../expect.ts';

const CSP = join(REFERENCE, 'golden', 'generations', 'csp_visible');
const DENOVO = join(REFERENCE, 'golden', 'generations', 'denovo_visible');
const denovoRuns: { name: string; output: { n: number; uniqueness: number; novelty: number } }[] = JSON.parse(
  readFileSync(join(DENOVO, 'expected.json'), 'utf8'),
).runs;
const SCRATCH = join(tmpdir(), `structlab-gen-e2e-${process.pid}`);
interface CspRun {
  name: string;
  output: {
    match_rate: number;
    rmse: number;
    n: number;
    per_sample: { id: string; nsites: number; reason: string | null; min_distance: number | null }[];
  };
}
const runs: CspRun[] = JSON.parse(readFileSync(join(CSP, 'expected.json'), 'utf8')).runs;
const golden = (name: string): CspRun['output'] => {
  const run = runs.find((r) => r.name === name);
  if (!run) throw new Error(`golden run ${name} missing from ${CSP}/expected.json`);
  return run.output;
};

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();
const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=gen-progress]'), undefined, { timeout: 120_000 });
const summaryFor = (convention: string) =>
  page.locator(`[data-testid=gen-summary][data-convention=${convention}]`).waitFor({ timeout: 120_000 });

async function expectGolden(name: string): Promise<void> {
  const g = golden(name);
  const [rate, rateHalf] = shown(await text('gen-match-rate'));
  expect(Math.abs(rate - 100 * g.match_rate)).toBeLessThanOrEqual(rateHalf + 1e-12);
  const [rmse, rmseHalf] = shown(await text('gen-rmse'));
  expect(Math.abs(rmse - g.rmse)).toBeLessThanOrEqual(rmseHalf + 1e-12);
  expect(await text('gen-counts')).toBe(`${g.n} · ${g.n}`);
}

beforeAll(async () => {
  lab = await openLab('?fresh#/generations', { width: 1400, height: 900 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await lab?.close();
  rmSync(SCRATCH, { recursive: true, force: true });
});

describe('Generations page', () => {
  it('loads the visible CSP set (prediction files, truth folder) and shows the golden match rate and RMSE (diffcsp)', async () => {
    const preds = readdirSync(join(CSP, 'pred')).map((f) => join(CSP, 'pred', f));
    const started = Date.now();
    await page.locator('[data-testid=gen-files-pred]').setInputFiles(preds);
    await page.waitForFunction(() => /203 structures/.test(document.querySelector('[data-testid=gen-set-pred-info]')?.textContent ?? ''));
    await page.locator('[data-testid=gen-folder-truth]').setInputFiles(join(CSP, 'truth'));
    await summaryFor('diffcsp');
    await idle();
    console.log(`generations e2e: 203 CSP pairs from load to summary in ${Date.now() - started} ms`);
    expect(await text('gen-set-truth-info')).toBe('truth: 203 structures');
    await expectGolden('csp_single_diffcsp');
    expect(await page.locator('[data-testid=gen-table]').getAttribute('data-rows')).toBe('203');
    expect(await page.locator('[data-testid=gen-row]').count()).toBe(100); // the first page
  });

  it('the convention switch recomputes: cdvae shows its golden', async () => {
    await page.locator('[data-testid=gen-convention]').selectOption('cdvae');
    await summaryFor('cdvae');
    await idle();
    await expectGolden('csp_single_cdvae');
  });

  it('filters by failure reason; a too-close sample opens with its pair and distance', async () => {
    const g = golden('csp_single_cdvae').per_sample;
    const close = g.filter((r) => r.reason === 'atoms_too_close');
    await page.locator('[data-testid=gen-filter-atoms_too_close]').click();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gen-table]')?.getAttribute('data-rows') === String(n),
      close.length,
    );
    const ids = await page.locator('[data-testid=gen-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids).toEqual(close.map((r) => r.id));
    await page.locator('[data-testid=gen-row]').first().click();
    await page.locator('[data-testid=gen-close-pair]').first().waitFor({ timeout: 30_000 });
    const pair = page.locator('[data-testid=gen-close-pair]').first();
    expect(Math.abs(Number(await pair.getAttribute('data-distance')) - close[0].min_distance!)).toBeLessThan(1e-9);
    expect(await pair.innerText()).toContain(`${close[0].min_distance!.toFixed(3)} Å`);
    await page.locator('[data-testid=gen-filter-all]').click();
    // The gallery groups the same samples by reason.
    await page.locator('[data-testid=gen-view-gallery]').click();
    const group = page.locator('[data-testid=gen-gallery-group][data-reason=atoms_too_close]');
    await group.waitFor({ timeout: 30_000 });
    expect(await group.locator('h3').innerText()).toContain(`(${close.length})`);
    await page.locator('[data-testid=gen-view-table]').click();
  });

  it('a pair that does not match opens with the stage of the matcher that rejected it', async () => {
    const noMatch = golden('csp_single_cdvae').per_sample.filter((r) => r.reason === 'no_match');
    expect(noMatch.length).toBeGreaterThan(0);
    await page.locator('[data-testid=gen-filter-no_match]').click();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gen-table]')?.getAttribute('data-rows') === String(n),
      noMatch.length,
    );
    await page.locator('[data-testid=gen-row]').first().click();
    const why = page.locator('[data-testid=gen-why]');
    await why.waitFor({ timeout: 30_000 });
    // The same pair explained in Node by the core (the page runs it in its worker, in Chromium).
    const read = (folder: string) => {
      const name = readdirSync(join(CSP, folder)).find((f) => f.replace(/\.[^.]+$/, '') === noMatch[0].id)!;
      return setFromFolder(folder, folder, [{ name, text: readFileSync(join(CSP, folder, name), 'utf8') }])[0].structure;
    };
    const expected = explainMatch(read('pred'), read('truth'), CSP_MATCHER_OPTIONS);
    expect(expected.stage).not.toBe('matched');
    expect(await why.getAttribute('data-stage')).toBe(expected.stage);
    expect(await why.getAttribute('data-verdict')).toBe(expected.verdict);
    expect(await page.locator('[data-testid=gen-why-stage][data-stage].far').getAttribute('data-stage')).toBe(expected.stage);
    await page.locator('[data-testid=gen-filter-all]').click();
  });

  it("exports the table: the JSON equals the CLI's document, the CSV has one line per sample", async () => {
    const download = await downloadOf(page, 'gen-export-json');
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    const cli = await structlabInProcess([
      'gen',
      'csp',
      '--pred',
      join(CSP, 'pred'),
      '--truth',
      join(CSP, 'truth'),
      '--convention',
      'cdvae',
    ]);
    expect(cli.code).toBe(0);
    const expected = JSON.parse(cli.stdout);
    // Same keys, texts and flags; numbers to 1e-9 relative: Chromium's Math.sin/acos/… differ from Node's in the last bit.
    expect(sameWithin(exported, expected, 1e-9)).toEqual([]);
    const csvDownload = await downloadOf(page, 'gen-export-csv');
    const csv = readFileSync(await csvDownload.path(), 'utf8')
      .trim()
      .split(/\r\n/);
    expect(csv[0]).toBe(Object.keys(expected.per_sample[0]).join(','));
    expect(csv).toHaveLength(1 + expected.per_sample.length);
    expect(pageErrors).toEqual([]);
  });

  it('reads a zip of prediction CIFs (with their truths as files): the summary counts its pairs', async () => {
    const ids = ['mp-1008224', 'mp-1018117', 'mp-1025162'];
    const entries = Object.fromEntries(ids.map((id) => [`pred/${id}.cif`, readFileSync(join(CSP, 'pred', `${id}.cif`))]));
    mkdirSync(SCRATCH, { recursive: true });
    const zipPath = join(SCRATCH, 'three-preds.zip');
    writeFileSync(zipPath, zipSync(entries));
    await page.locator('[data-testid=gen-files-pred]').setInputFiles(zipPath);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=gen-set-pred-info]')?.textContent === 'three-preds.zip: 3 structures',
    );
    await page.locator('[data-testid=gen-files-truth]').setInputFiles(ids.map((id) => join(CSP, 'truth', `${id}.cif`)));
    await page.waitForFunction(() => document.querySelector('[data-testid=gen-counts]')?.textContent?.includes('3 · 3'), undefined, {
      timeout: 120_000,
    });
    await idle();
    expect(await page.locator('[data-testid=gen-table]').getAttribute('data-rows')).toBe('3');
    expect(await page.locator('[data-testid=gen-error]').count()).toBe(0);
  });

  it('downloads the opened sample in any format: its prediction as CIF and its truth as POSCAR parse back whole', async () => {
    const row = page.locator('[data-testid=gen-row]').first();
    const id = (await row.getAttribute('data-id'))!;
    await row.click();
    await page.locator('[data-testid=gen-download-prediction]').waitFor({ timeout: 30_000 });
    const cif = await downloadOf(page, 'gen-download-prediction');
    expect(cif.suggestedFilename()).toBe(`${id}-prediction.cif`);
    const parsed = parseStructureFile(readFileSync(await cif.path(), 'utf8'), cif.suggestedFilename());
    if (!parsed.ok) throw new Error(parsed.error);
    const nsites = golden('csp_single_cdvae').per_sample.find((r) => r.id === id)!.nsites;
    expect(parsed.structures[0].sites).toHaveLength(nsites);

    await page.locator('[data-testid=gen-sample-format]').selectOption('poscar');
    const poscar = await downloadOf(page, 'gen-download-other');
    expect(poscar.suggestedFilename()).toBe(`${id}-truth.vasp`);
    const back = parseStructureFile(readFileSync(await poscar.path(), 'utf8'), poscar.suggestedFilename());
    if (!back.ok) throw new Error(back.error);
    const truth = setFromFolder('truth', 'truth', [{ name: `${id}.cif`, text: readFileSync(join(CSP, 'truth', `${id}.cif`), 'utf8') }]);
    expect(back.structures[0].sites).toHaveLength(truth[0].structure.sites.length);
    expect(pageErrors).toEqual([]);
  });

  it('de novo: the visible generated folder with its reference shows the golden uniqueness and novelty (eval_default)', async () => {
    const run = denovoRuns.find((r) => r.name === 'eval_default');
    if (!run) throw new Error(`golden run eval_default missing from ${DENOVO}/expected.json`);
    await page.locator('[data-testid=gen-mode-denovo]').click();
    await page.locator('[data-testid=gen-folder-pred]').setInputFiles(join(DENOVO, 'pred'));
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid=gen-set-pred-info]')?.textContent === `pred: ${n} structures`,
      run.output.n,
    );
    await page.locator('[data-testid=gen-files-reference]').setInputFiles(join(DENOVO, 'reference.jsonl'));
    await page.waitForFunction(() =>
      /^reference\.jsonl: \d+ structures$/.test(document.querySelector('[data-testid=gen-set-reference-info]')?.textContent ?? ''),
    );
    const started = Date.now();
    await page.locator('[data-testid=gen-summary][data-mode=denovo]').waitFor({ timeout: 120_000 });
    await idle();
    console.log(`generations e2e: de novo with reference in ${Date.now() - started} ms`);
    for (const [id, value] of [
      ['gen-uniqueness', run.output.uniqueness],
      ['gen-novelty', run.output.novelty],
    ] as const) {
      const [x, half] = shown(await text(id));
      expect(Math.abs(x - 100 * value), id).toBeLessThanOrEqual(half + 1e-12);
    }
    expect(await page.locator('[data-testid=gen-table]').getAttribute('data-rows')).toBe(String(run.output.n));
    expect(await page.locator('[data-testid=gen-error]').count()).toBe(0);
  });

  it('de novo with the ordered matcher and the cdvae convention shows eval_ordered_cdvae', async () => {
    const run = denovoRuns.find((r) => r.name === 'eval_ordered_cdvae');
    if (!run) throw new Error(`golden run eval_ordered_cdvae missing from ${DENOVO}/expected.json`);
    await page.locator('[data-testid=gen-matcher]').selectOption('ordered');
    await page.locator('[data-testid=gen-convention]').selectOption('cdvae');
    await summaryFor('cdvae');
    await idle();
    for (const [id, value] of [
      ['gen-uniqueness', run.output.uniqueness],
      ['gen-novelty', run.output.novelty],
    ] as const) {
      const [x, half] = shown(await text(id));
      expect(Math.abs(x - 100 * value), id).toBeLessThanOrEqual(half + 1e-12);
    }
  });

  it('cancel stops a CSP run (the page idle, no result); the next run completes with the golden', async () => {
    // Seven renamed copies of the visible pairs: a run of several seconds, which the cancel must end early.
    const COPIES = 7;
    const big = { pred: join(SCRATCH, 'cancel-pred'), truth: join(SCRATCH, 'cancel-truth') };
    for (const [role, dir] of Object.entries(big)) {
      mkdirSync(dir, { recursive: true });
      for (const name of readdirSync(join(CSP, role))) {
        const dot = name.lastIndexOf('.');
        const text = readFileSync(join(CSP, role, name), 'utf8');
        for (let k = 0; k < COPIES; k++) writeFileSync(join(dir, `${name.slice(0, dot)}-copy${k}${name.slice(dot)}`), text);
      }
    }
    const truthInfo = (n: number) =>
      page.waitForFunction(
        (t) => document.querySelector('[data-testid=gen-set-truth-info]')?.textContent?.endsWith(t),
        `: ${n} structures`,
      );
    await page.locator('[data-testid=gen-mode-csp]').click();
    await page.locator('[data-testid=gen-folder-truth]').setInputFiles(big.truth);
    await truthInfo(203 * COPIES);
    await idle();
    // The pairs are matched only once both folders are in: the run is under way while its progress bar shows, and
    // the bar's value at the click shows that Cancel came inside the run.
    const at = await clickInPageWhen(page, 'gen-cancel', { selector: '[data-testid=gen-progress-bar]' }, () =>
      page.locator('[data-testid=gen-folder-pred]').setInputFiles(big.pred),
    );
    expect(at.max).toBe(203 * COPIES);
    expect(at.value).toBeLessThan(at.max);
    await idle();
    expect(await text('gen-error')).toMatch(/cancel/i);
    expect(await page.locator('[data-testid=gen-summary]').count()).toBe(0);
    // A fresh worker takes the visible sets and runs them to the end.
    await page.locator('[data-testid=gen-convention]').selectOption('diffcsp');
    await page.locator('[data-testid=gen-folder-truth]').setInputFiles(join(CSP, 'truth'));
    await truthInfo(203);
    await idle();
    await page.locator('[data-testid=gen-folder-pred]').setInputFiles(join(CSP, 'pred'));
    await summaryFor('diffcsp');
    await idle();
    await expectGolden('csp_single_diffcsp');
    expect(await page.locator('[data-testid=gen-error]').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
