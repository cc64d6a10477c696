/**
 * The AtomWorld page end to end (built app, headless Chromium on SwiftShader). Expected verdicts are the
 * benchmark's own (the `evaluator` field of golden real_samples_icml_fullprec.jsonl); the demo's verdicts
 * follow from how its answers were made (see src/pages/atomworld/demo.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { XRD_COMPARE_DEFAULTS, comparePatterns } from '../../src/core/analysis/xrd-compare.ts';
import { evaluateAtomworldAnswer } from '../../src/core/tasks/atomworld/evaluate.ts';
import { clickInPageWhen, downloadOf, openLab, textFile, type Lab } from './harness.ts';

const GOLDEN = join(REFERENCE, 'golden', 'atomworld', 'real_samples_icml_fullprec.jsonl');
const goldenText = readFileSync(GOLDEN, 'utf8');
interface GoldenRow {
  id: string;
  action: string;
  after_cif: string;
  model_generated_cif: string;
  evaluator: { correct: boolean; wrong_type: string | null; rmsd: number | null };
}
const golden: GoldenRow[] = goldenText
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));
const verdictOf = (e: GoldenRow['evaluator']) => (e.correct ? 'correct' : e.wrong_type);
/** ASE-written targets end every atom line with the occupancy 1.0000. */
const atomCount = (cif: string) => cif.split('\n').filter((l) => /\s1\.0000\s*$/.test(l)).length;

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=aw-progress]'), undefined, { timeout: 60_000 });
const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();
type Viewers = Record<string, { frames: number; natoms: number; camera: { position: number[]; target: number[] } | null }>;
const viewers = () => page.evaluate(() => window.__structlab!.viewers()) as Promise<Viewers>;
const rowAttrs = () =>
  page.locator('[data-testid=aw-row]').evaluateAll((rows) =>
    rows.map((r) => ({
      id: r.getAttribute('data-id'),
      verdict: r.getAttribute('data-verdict'),
      official: r.getAttribute('data-official'),
    })),
  );
/** Waits until the named viewers have drawn a frame for a case whose id is shown. */
async function waitViewers(names: string[], caseId?: string): Promise<void> {
  if (caseId)
    await page.waitForFunction((id) => document.querySelector('[data-testid=aw-case-id]')?.textContent === id, caseId, { timeout: 30_000 });
  await page.waitForFunction(
    (ns) => {
      const v = window.__structlab!.viewers();
      return ns.every((n) => v[n]?.frames > 0 && v[n]?.natoms > 0);
    },
    names,
    { timeout: 30_000 },
  );
}

beforeAll(async () => {
  lab = await openLab('?fresh#/atomworld', { width: 1400, height: 900 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=atomworld-page]').waitFor();
  await page.locator('[data-testid=aw-actions]').waitFor({ timeout: 60_000 });
  await idle();
});

afterAll(async () => {
  await lab?.close();
});

describe('AtomWorld page', () => {
  it('opens on the demo: 8 cases judged as their answers were made; the first case drawn in four viewers', async () => {
    const rows = await rowAttrs();
    expect(rows).toHaveLength(8);
    const byAction = Object.fromEntries(rows.map((r) => [r.id!.replace(/^demo-\d+-/, ''), r.verdict]));
    expect(byAction).toMatchObject({
      move: 'correct',
      insert_between: 'correct',
      super_cell: 'correct',
      swap: 'OutputFormatError',
      change: 'CIFParsingError',
      remove: 'AtomCountMismatch',
      delete_below: 'AtomCountMismatch',
      rotate_around: 'StructureMismatch',
    });
    await waitViewers(['aw-before', 'aw-target', 'aw-answer', 'aw-overlay'], rows[0].id!);
    const v = await viewers();
    expect(v['aw-before'].natoms).toBe(10); // 2×1×1 SrTiO3
    expect(await page.locator('[data-testid=aw-action-key]').innerText()).toMatch(/moved atom/);
  });

  it('a non-CIF answer shows its raw text and the format error', async () => {
    await page.locator('[data-testid=aw-row][data-id$="-swap"]').click();
    await page.locator('[data-testid=aw-answer-raw]').waitFor({ timeout: 30_000 });
    expect(await text('aw-answer-raw')).toMatch(/I swapped the two atoms/);
    expect(await text('aw-answer-error')).toMatch(/OutputFormatError: the answer has no <cif>/);
  });

  it('loads the golden ICML records through the file input: all six verdicts equal the official ones', async () => {
    await page.locator('[data-testid=aw-cases-input]').setInputFiles(textFile('real_samples_icml_fullprec.jsonl', goldenText));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=aw-row]').length === 6, undefined, { timeout: 60_000 });
    await idle();
    const rows = await rowAttrs();
    expect(rows.map((r) => r.id)).toEqual(golden.map((g) => g.id));
    for (const [k, g] of golden.entries()) {
      expect(rows[k].verdict).toBe(verdictOf(g.evaluator));
      expect(rows[k].official).toBe(verdictOf(g.evaluator));
    }
    // Per action: rotate_around 2/2, insert_between 0/2 (both StructureMismatch), swap 2/2.
    const rates = await page
      .locator('[data-testid=aw-action-row]')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-action'), tr.querySelector('[data-testid=aw-success-rate]')!.textContent]),
      );
    expect(rates).toEqual([
      ['rotate_around', '100.0 %'],
      ['insert_between', '0.0 %'],
      ['swap', '100.0 %'],
    ]);
  });

  it('a clicked case shows before, target and answer with linked cameras, the overlay and the powder patterns', async () => {
    const g = golden[0];
    await page.locator(`[data-testid=aw-row][data-id="${g.id}"]`).click();
    await waitViewers(['aw-before', 'aw-target', 'aw-answer', 'aw-overlay'], g.id);
    const v = await viewers();
    expect(v['aw-target'].natoms).toBe(atomCount(g.after_cif));
    expect(v['aw-overlay'].natoms).toBe(atomCount(g.after_cif));
    expect(await text('aw-overlay-counts')).toMatch(new RegExp(`^${atomCount(g.after_cif)} pairs`));
    expect(await text('aw-case-verdict')).toBe('correct');
    expect(await text('aw-prompt')).toMatch(/^Rotate all surrounding atoms/);
    expect(await text('aw-action-key')).toMatch(/rotated neighbour/);
    await page.evaluate(() => window.__structlab!.viewer('aw-target')!.orbit(50));
    const w = await viewers();
    for (const name of ['aw-before', 'aw-answer', 'aw-overlay']) {
      for (let k = 0; k < 3; k++) expect(w[name].camera!.position[k]).toBeCloseTo(w['aw-target'].camera!.position[k], 6);
    }
    // A failed answer still gets an overlay (same-element pairs of least total distance).
    const failed = golden.find((x) => !x.evaluator.correct)!;
    await page.locator(`[data-testid=aw-row][data-id="${failed.id}"]`).click();
    await waitViewers(['aw-overlay'], failed.id);
    expect(await text('aw-case-verdict')).toBe('StructureMismatch');
    expect(await text('aw-overlay-legend')).toMatch(/pairs/);
    // Its answer's powder pattern over the target's, with the scores Node computes for the pair.
    await page.locator('[data-testid=aw-xrd-compare]').click();
    await page.locator('[data-testid=aw-xrd]').waitFor({ timeout: 60_000 });
    const { target, answer } = evaluateAtomworldAnswer(failed.after_cif, `<cif>\n${failed.model_generated_cif}\n</cif>`);
    const expected = comparePatterns(answer!, target, XRD_COMPARE_DEFAULTS).similarity;
    for (const key of ['cosine', 'pearson', 'wcc'] as const) expect(await text(`aw-xrd-${key}`), key).toBe(expected[key].toFixed(4));
  });

  it('exports the per-case CSV and the per-action JSON', async () => {
    const download = await downloadOf(page, 'aw-export-cases');
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split(/\r\n/);
    expect(csv[0]).toBe('id,action,correct,wrong_type,rmsd,max_dist,lint,official_correct,official_wrong_type');
    expect(csv).toHaveLength(7);
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      const g = golden.find((x) => x.id === cells[0])!;
      expect(cells[2]).toBe(String(g.evaluator.correct));
      if (g.evaluator.rmsd !== null) expect(Math.abs(Number(cells[4]) - g.evaluator.rmsd)).toBeLessThan(1e-6);
    }
    const jsonDownload = await downloadOf(page, 'aw-export-json');
    const json = JSON.parse(readFileSync(await jsonDownload.path(), 'utf8'));
    // Per action, recounted from the official verdicts.
    for (const action of new Set(golden.map((g) => g.action))) {
      const rows = golden.filter((g) => g.action === action);
      expect(json.by_action[action].n).toBe(rows.length);
      expect(json.by_action[action].success_rate).toBeCloseTo(rows.filter((g) => g.evaluator.correct).length / rows.length, 12);
    }
  });

  it("compares two structures with editable tolerances (AtomWorld's stol 0.5, primitive off: the official rms 0.3092)", async () => {
    const g = golden[0];
    await page.locator('[data-testid=aw-compare-a]').setInputFiles(textFile('target.cif', g.after_cif));
    await page.locator('[data-testid=aw-compare-b]').setInputFiles(textFile('answer.cif', g.model_generated_cif));
    await page.locator('[data-testid=aw-compare-verdict]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid=aw-tol-primitive]').uncheck();
    await page.locator('[data-testid=aw-tol-stol]').fill('0.5');
    await page.locator('[data-testid=aw-tol-stol]').press('Enter');
    await page.waitForFunction(
      () => /stol 0\.5 .*primitive_cell off/.test(document.querySelector('[data-testid=aw-compare-tolerances]')?.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    await idle();
    expect(await text('aw-compare-verdict')).toBe('match');
    expect(Number(await text('aw-compare-rms'))).toBeCloseTo(g.evaluator.rmsd!, 3);
    await waitViewers(['aw-a', 'aw-b', 'aw-match']);
  });

  it('a long batch can be cancelled; the judged part stays and a case still opens (fresh worker)', async () => {
    await page.locator('[data-testid=aw-mode-cases]').click();
    // Four rows of this batch (the bar shows from the moment the last batch's rows are cleared), then Cancel.
    await clickInPageWhen(page, 'aw-cancel', { selector: '[data-testid=aw-row]', count: 4, shown: '[data-testid=aw-progress-bar]' }, () =>
      page.locator('[data-testid=aw-cases-input]').setInputFiles(join(REFERENCE, 'golden', 'atomworld', 'eval_oracle.jsonl')),
    );
    await page.locator('[data-testid=aw-error]').waitFor({ timeout: 10_000 });
    const message = await text('aw-error');
    const judged = Number(/Cancelled after (\d+) of 437 cases/.exec(message)?.[1]);
    expect(judged).toBeGreaterThanOrEqual(4);
    expect(judged).toBeLessThan(437);
    expect(await page.locator('[data-testid=aw-row]').count()).toBe(judged);
    await page.locator('[data-testid=aw-error] button').click();
    const first = await page.locator('[data-testid=aw-row]').first().getAttribute('data-id');
    await page.locator('[data-testid=aw-row]').first().click();
    await waitViewers(['aw-target', 'aw-answer', 'aw-overlay'], first!);
  });

  it('a junk line is skipped with a warning naming the file and line; a file with no usable case is a clear error', async () => {
    await page.locator('[data-testid=aw-mode-cases]').click();
    await page
      .locator('[data-testid=aw-cases-input]')
      .setInputFiles(textFile('bad.jsonl', '{"id": "x", "action": "move", "after_cif": "data_x"}\nnot json\n'));
    await page.locator('[data-testid=aw-warnings]').waitFor({ timeout: 30_000 });
    expect(await text('aw-warnings')).toMatch(/bad\.jsonl line 2: not valid JSON .*the line was skipped/);
    await page.locator('[data-testid=aw-cases-input]').setInputFiles(textFile('junk.jsonl', 'not json\n'));
    await page.locator('[data-testid=aw-error]').waitFor({ timeout: 30_000 });
    expect(await text('aw-error')).toMatch(/junk\.jsonl holds no usable case \(junk\.jsonl line 1: not valid JSON/);
    await page.locator('[data-testid=aw-error] button').click();
    await page.locator('[data-testid=aw-compare-a]').setInputFiles(textFile('particle.xyz', '2\nfinite\nH 0 0 0\nH 0 0 0.74\n'));
    await page.locator('[data-testid=aw-error]').waitFor({ timeout: 30_000 });
    expect(await text('aw-error')).toMatch(/particle\.xyz has no unit cell/);
    expect(pageErrors).toEqual([]);
  });
});
