/**
 * The Generations page's energies above hull and hull plot (issue 23), and its .pt result files: crystals whose
 * compositions and total energies are pymatgen 2022.11 golden queries (tests/reference/golden/generations/hull, the
 * Li–Fe–O set) against its reference entries give the golden e_above_hull in the E_hull column as the page rounds it
 * (4 significant digits: within half a unit of the last shown digit); the selected sample's binary or ternary hull plot
 * is drawn with a nonzero size; a CDVAE .pt that carries its truths opens without a truth set and CSP gives the match
 * rate compute_metrics.py gives (tests/reference/golden/generations/pt/expected.json).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type Lab, openLab } from './harness.ts';

const HULL = join(REFERENCE, 'golden', 'generations', 'hull', 'hull_goldens.json');
const PT = join(REFERENCE, 'golden', 'generations', 'pt');
const SCRATCH = join(tmpdir(), `structlab-gen-hull-e2e-${process.pid}`);

interface Query {
  composition: Record<string, number>;
  energy: number;
  e_above_hull: number;
}
interface GoldenSet {
  name: string;
  reference: { composition: Record<string, number>; energy: number }[];
  queries: Query[];
}

const set = (JSON.parse(readFileSync(HULL, 'utf8')) as { sets: GoldenSet[] }).sets.find((s) => s.name.startsWith('ternary Li-Fe-O'))!;
/** Golden queries with whole atom counts (they become crystals): the first ternary and the first binaries, at most 12 atoms. */
const queries = set.queries
  .filter((q) => Object.values(q.composition).every((n) => Number.isInteger(n)))
  .filter((q) => Object.values(q.composition).reduce((a, b) => a + b, 0) <= 12)
  .slice(0, 6);

/** One extended XYZ frame per query: its atoms 2.5 Å apart in a 10 Å cube, id qK, the golden total energy. */
function extxyz(): string {
  return queries
    .map((q, k) => {
      const species = Object.entries(q.composition).flatMap(([el, n]) => Array.from({ length: n }, () => el));
      const lines = species.map((el, i) => `${el} ${2.5 * (i % 4)} ${2.5 * (Math.floor(i / 4) % 4)} ${2.5 * Math.floor(i / 16)}`);
      const header = `Lattice="10 0 0 0 10 0 0 0 10" Properties=species:S:1:pos:R:3 id=q${k} energy=${q.energy} pbc="T T T"`;
      return `${species.length}\n${header}\n${lines.join('\n')}\n`;
    })
    .join('');
}

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=gen-progress]'), undefined, { timeout: 120_000 });

/** The shown number and the half unit of its last significant digit: "0.6072" → [0.6072, 0.00005]; "-1.234e-5" too. */
function shown(value: string): [number, number] {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([-+]?\d+))?$/.exec(value.trim());
  if (!m) throw new Error(`not a number: ${value}`);
  const exp = Number(m[4] ?? 0);
  return [Number(value.trim()), 0.5 * 10 ** (exp - (m[3]?.length ?? 0))];
}

beforeAll(async () => {
  mkdirSync(SCRATCH, { recursive: true });
  writeFileSync(join(SCRATCH, 'generated.extxyz'), extxyz());
  writeFileSync(join(SCRATCH, 'energies.extxyz'), extxyz());
  writeFileSync(join(SCRATCH, 'reference.jsonl'), set.reference.map((e) => JSON.stringify(e)).join('\n') + '\n');
  lab = await openLab('?fresh#/generations', { width: 1400, height: 900 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await lab?.close();
  rmSync(SCRATCH, { recursive: true, force: true });
});

describe('Generations page: energies above hull, hull plot, .pt files', () => {
  it('gives the golden energies above hull from total energies and a hull reference', async () => {
    expect(queries.length).toBe(6);
    await page.locator('[data-testid=gen-mode-denovo]').click();
    await page.locator('[data-testid=gen-files-pred]').setInputFiles(join(SCRATCH, 'generated.extxyz'));
    await page.waitForFunction(() => /6 structures/.test(document.querySelector('[data-testid=gen-set-pred-info]')?.textContent ?? ''));
    await page.locator('[data-testid=gen-hull-energies]').setInputFiles(join(SCRATCH, 'energies.extxyz'));
    await page.waitForFunction(() => /6 energies/.test(document.querySelector('[data-testid=gen-hull-energies-info]')?.textContent ?? ''));
    expect(await page.locator('[data-testid=gen-hull-needs]').count()).toBe(1);
    await page.locator('[data-testid=gen-hull-reference]').setInputFiles(join(SCRATCH, 'reference.jsonl'));
    await page.locator('[data-testid=gen-hull-needs]').waitFor({ state: 'detached' });
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid=gen-row] td[data-col=e_above_hull]')].some((td) => td.textContent !== '—'),
      undefined,
      { timeout: 120_000 },
    );
    await idle();
    const cells = await page
      .locator('[data-testid=gen-row]')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-id'), r.querySelector('td[data-col=e_above_hull]')?.textContent ?? '']));
    expect(cells.map((c) => c[0])).toEqual(queries.map((_, k) => `q${k}`));
    cells.forEach(([id, text], k) => {
      const [x, half] = shown(text!);
      expect(Math.abs(x - queries[k].e_above_hull), `${id}: ${text}`).toBeLessThanOrEqual(half + 1e-12);
    });
    expect(pageErrors).toEqual([]);
  });

  it('shows the decomposition and the ternary and binary hull plots of the selected sample', async () => {
    const nElements = (q: Query) => Object.keys(q.composition).length;
    const ternary = queries.findIndex((q) => nElements(q) === 3);
    const binary = queries.findIndex((q) => nElements(q) === 2);
    expect(ternary).toBeGreaterThanOrEqual(0);
    expect(binary).toBeGreaterThanOrEqual(0);
    for (const [k, kind] of [
      [ternary, 'ternary'],
      [binary, 'binary'],
    ] as const) {
      await page.locator(`[data-testid=gen-row][data-index="${k}"]`).click();
      await page.waitForFunction(
        ([i, want]) =>
          document.querySelector('[data-testid=gen-detail]')?.getAttribute('data-index') === String(i) &&
          document.querySelector('[data-testid=gen-hull-plot]')?.getAttribute('data-kind') === want,
        [k, kind] as const,
        { timeout: 60_000 },
      );
      const plot = page.locator('[data-testid=gen-hull-plot]');
      const box = await plot.boundingBox();
      expect(box && box.width > 50 && box.height > 50, `${kind} plot size ${JSON.stringify(box)}`).toBe(true);
      expect(Number(await plot.getAttribute('data-samples'))).toBeGreaterThanOrEqual(1);
      expect(await page.locator('[data-testid=gen-hull-decomposition]').innerText()).toMatch(/decomposes into \S+ × /);
      expect(await page.locator('[data-testid=gen-hull-colorbar]').count(), kind).toBe(kind === 'ternary' ? 1 : 0);
    }
    expect(pageErrors).toEqual([]);
  });

  it('opens a CDVAE .pt with its own truths and gives compute_metrics.py match rate', async () => {
    const expected = JSON.parse(readFileSync(join(PT, 'expected.json'), 'utf8'));
    const want = expected.files['cdvae_eval_recon.pt'].metrics.cdvae.match_rate as number;
    await page.locator('[data-testid=gen-mode-csp]').click();
    await page.locator('[data-testid=gen-convention]').selectOption('cdvae');
    await page.locator('[data-testid=gen-files-pred]').setInputFiles(join(PT, 'cdvae_eval_recon.pt'));
    await page.waitForFunction(() =>
      /truths in cdvae_eval_recon\.pt/.test(document.querySelector('[data-testid=gen-set-truth-info]')?.textContent ?? ''),
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=gen-summary]')?.getAttribute('data-convention') === 'cdvae',
      undefined,
      {
        timeout: 120_000,
      },
    );
    await idle();
    const [x, half] = shown((await page.locator('[data-testid=gen-match-rate]').innerText()).replace(/\s*%$/, ''));
    expect(Math.abs(x - 100 * want)).toBeLessThanOrEqual(half + 1e-12);
    expect(pageErrors).toEqual([]);
  });

  it('pairs a DiffCSP .pt with the split CSV in row order and gives compute_metrics.py match rate and RMSE', async () => {
    const expected = JSON.parse(readFileSync(join(PT, 'expected.json'), 'utf8'));
    const want = expected.files['diffcsp_eval_diff.pt'].metrics.diffcsp_one as { match_rate: number; rms_dist: number };
    await page.locator('[data-testid=gen-convention]').selectOption('diffcsp');
    await page.locator('[data-testid=gen-files-truth]').setInputFiles(join(PT, 'truth.csv'));
    await page.waitForFunction(() =>
      /truth\.csv: 5 structures/.test(document.querySelector('[data-testid=gen-set-truth-info]')?.textContent ?? ''),
    );
    await page.locator('[data-testid=gen-files-pred]').setInputFiles(join(PT, 'diffcsp_eval_diff.pt'));
    await page.waitForFunction(
      () =>
        /diffcsp_eval_diff\.pt: 10 structures/.test(document.querySelector('[data-testid=gen-set-pred-info]')?.textContent ?? '') &&
        document.querySelector('[data-testid=gen-summary]')?.getAttribute('data-convention') === 'diffcsp' &&
        document.querySelector('[data-testid=gen-table]')?.getAttribute('data-rows') === '5',
      undefined,
      { timeout: 120_000 },
    );
    await idle();
    const [rate, rateHalf] = shown((await page.locator('[data-testid=gen-match-rate]').innerText()).replace(/\s*%$/, ''));
    expect(Math.abs(rate - 100 * want.match_rate)).toBeLessThanOrEqual(rateHalf + 1e-12);
    const [rmse, rmseHalf] = shown(await page.locator('[data-testid=gen-rmse]').innerText());
    expect(Math.abs(rmse - want.rms_dist)).toBeLessThanOrEqual(rmseHalf + 1e-12);
    const ids = await page.locator('[data-testid=gen-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect([...ids].sort()).toEqual([...expected.truth_ids].sort());
    expect(pageErrors).toEqual([]);
  });
});
