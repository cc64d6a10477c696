/**
 * The Generations page's matcher tolerances and space groups (issue 23): the preset selector and the three fields
 * give the CLI's numbers for the same options (`gen csp --tolerances/--stol`, whose strict preset equals pymatgen's
 * StructureMatcher on every attempted pair: tests/unit/gen-tolerances.test.ts), shown beside the match rate; a bad
 * value is refused in one sentence; with space groups the same-space-group match rate, the table's columns and the
 * de novo distribution equal the CLI's `--space-groups` document (checked against pymatgen in gen-spacegroups.test.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { downloadOf, openLab, type Lab } from './harness.ts';
import { shown } from '../expect.ts';

const CSP = join(REFERENCE, 'golden', 'generations', 'csp_visible');
const DENOVO = join(REFERENCE, 'golden', 'generations', 'denovo_visible');

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();
const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=gen-progress]'), undefined, { timeout: 120_000 });
/** Waits for the summary of a run with these tolerances (its data-tolerances, as the notes print them). */
const summaryWith = async (tolerances: string, spaceGroups = false) => {
  await page.waitForFunction(
    ([t, sg]) => {
      const el = document.querySelector('[data-testid=gen-summary]');
      return el?.getAttribute('data-tolerances') === t && el.getAttribute('data-space-groups') === String(sg);
    },
    [tolerances, spaceGroups] as const,
    { timeout: 120_000 },
  );
  await idle();
};
const cli = async (...extra: string[]) => {
  const r = await structlabInProcess(['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth'), ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

const expectPercent = async (id: string, fraction: number) => {
  const [x, half] = shown(await text(id));
  expect(Math.abs(x - 100 * fraction), id).toBeLessThanOrEqual(half + 1e-12);
};
/** The note under a metric (its tolerances). */
const noteOf = (id: string) => page.locator(`[data-testid=${id}]`).locator('xpath=following-sibling::div[1]').innerText();

beforeAll(async () => {
  lab = await openLab('?fresh#/generations', { width: 1400, height: 900 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('Generations page: matcher tolerances and space groups', () => {
  it('shows the default cdvae tolerances beside the match rate', async () => {
    await page.locator('[data-testid=gen-files-pred]').setInputFiles(readdirSync(join(CSP, 'pred')).map((f) => join(CSP, 'pred', f)));
    await page.waitForFunction(() => /203 structures/.test(document.querySelector('[data-testid=gen-set-pred-info]')?.textContent ?? ''));
    await page.locator('[data-testid=gen-folder-truth]').setInputFiles(join(CSP, 'truth'));
    await summaryWith('stol 0.5 · ltol 0.3 · angle_tol 10 (cdvae)');
    expect(await noteOf('gen-match-rate')).toContain('stol 0.5 · ltol 0.3 · angle_tol 10 (cdvae)');
    expect(await noteOf('gen-rmse')).toContain('(cdvae)');
    await expectPercent('gen-match-rate', (await cli()).match_rate);
    expect(await page.locator('[data-testid=gen-tolerances]').inputValue()).toBe('cdvae');
    expect(await page.locator('[data-testid=gen-stol]').inputValue()).toBe('0.5');
  });

  it("the strict preset gives the CLI's strict match rate, and its values in the fields", async () => {
    await page.locator('[data-testid=gen-tolerances]').selectOption('strict');
    await summaryWith('stol 0.3 · ltol 0.2 · angle_tol 5 (strict)');
    const expected = await cli('--tolerances', 'strict');
    await expectPercent('gen-match-rate', expected.match_rate);
    expect(await noteOf('gen-match-rate')).toContain('stol 0.3 · ltol 0.2 · angle_tol 5 (strict)');
    expect([
      await page.locator('[data-testid=gen-stol]').inputValue(),
      await page.locator('[data-testid=gen-angle-tol]').inputValue(),
    ]).toEqual(['0.3', '5']);
  });

  it('a typed value overrides the preset (custom); a bad one is refused in one sentence and changes nothing', async () => {
    await page.locator('[data-testid=gen-stol]').fill('0.4');
    await page.locator('[data-testid=gen-stol]').blur();
    await summaryWith('stol 0.4 · ltol 0.2 · angle_tol 5 (custom)');
    await expectPercent('gen-match-rate', (await cli('--tolerances', 'strict', '--stol', '0.4')).match_rate);
    expect(await page.locator('[data-testid=gen-tolerances]').inputValue()).toBe('custom');
    await page.locator('[data-testid=gen-angle-tol]').fill('180');
    await page.locator('[data-testid=gen-angle-tol]').blur();
    await page.locator('[data-testid=gen-error]').waitFor({ timeout: 10_000 });
    expect(await text('gen-error')).toContain('angle_tol must be below 180 degrees, got 180');
    expect(await page.locator('[data-testid=gen-angle-tol]').inputValue()).toBe('5');
    expect(await page.locator('[data-testid=gen-summary]').getAttribute('data-tolerances')).toBe(
      'stol 0.4 · ltol 0.2 · angle_tol 5 (custom)',
    );
    // Back to a preset by its name.
    await page.locator('[data-testid=gen-tolerances]').selectOption('cdvae');
    await summaryWith('stol 0.5 · ltol 0.3 · angle_tol 10 (cdvae)');
  });

  it("space groups: the same-space-group match rate, the table's columns and the export equal the CLI's --space-groups", async () => {
    await page.locator('[data-testid=gen-space-groups]').check();
    await summaryWith('stol 0.5 · ltol 0.3 · angle_tol 10 (cdvae)', true);
    const expected = await cli('--space-groups');
    await expectPercent('gen-match-rate-same', expected.space_groups.match_rate_same);
    const sg = expected.space_groups;
    expect(await noteOf('gen-match-rate-same')).toContain(
      `${sg.n_same} of 203 pairs share a space group · ${sg.n_matched_different} matches across groups`,
    );
    const first = page.locator('[data-testid=gen-row]').first();
    const row = expected.per_sample.find((r: { id: string }) => r.id === 'gate-mp-979426');
    expect(await first.getAttribute('data-id')).toBe(row.id);
    expect(await first.locator('td[data-col=truth_space_group]').innerText()).toBe(
      `${row.truth_space_group.symbol} (${row.truth_space_group.number})`,
    );
    expect(await first.locator('td[data-col=pred_space_group]').innerText()).toBe(
      `${row.pred_space_group.symbol} (${row.pred_space_group.number})`,
    );
    expect(await first.locator('td[data-col=same_space_group]').innerText()).toBe(row.same_space_group ? '✓' : '✗');
    const download = await downloadOf(page, 'gen-export-json');
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(exported.tolerances).toEqual(expected.tolerances);
    expect(exported.space_groups).toEqual(expected.space_groups);
    expect(exported.per_sample.map((r: { pred_space_group: unknown }) => r.pred_space_group)).toEqual(
      expected.per_sample.map((r: { pred_space_group: unknown }) => r.pred_space_group),
    );
  });

  it('de novo with space groups: the fraction in P1 and the crystal systems of generated and reference sets', async () => {
    await page.locator('[data-testid=gen-mode-denovo]').click();
    await page.locator('[data-testid=gen-space-groups]').check();
    await page.locator('[data-testid=gen-folder-pred]').setInputFiles(join(DENOVO, 'pred'));
    await page.waitForFunction(() => document.querySelector('[data-testid=gen-set-pred-info]')?.textContent === 'pred: 329 structures');
    await page.locator('[data-testid=gen-files-reference]').setInputFiles(join(DENOVO, 'reference.jsonl'));
    await page.waitForFunction(() =>
      /^reference\.jsonl: \d+ structures$/.test(document.querySelector('[data-testid=gen-set-reference-info]')?.textContent ?? ''),
    );
    await page.locator('[data-testid=gen-sg-distribution]').waitFor({ timeout: 120_000 });
    await idle();
    const r = await structlabInProcess([
      'gen',
      'eval',
      '--pred',
      join(DENOVO, 'pred'),
      '--reference',
      join(DENOVO, 'reference.jsonl'),
      '--space-groups',
    ]);
    const doc = JSON.parse(r.stdout);
    const expected = doc.space_groups;
    await expectPercent('gen-p1', expected.predictions.p1_fraction);
    for (const system of ['triclinic', 'monoclinic', 'orthorhombic', 'tetragonal', 'trigonal', 'hexagonal', 'cubic']) {
      const cells = await page.locator(`[data-testid=gen-sg-distribution] tr[data-system=${system}] td`).allInnerTexts();
      expect(cells, system).toEqual([
        system,
        String(expected.predictions.crystal_systems[system]),
        String(expected.reference.crystal_systems[system]),
      ]);
    }
    const g = doc.per_sample[0].space_group;
    const cell = await page.locator('[data-testid=gen-row]').first().locator('td[data-col=space_group]').innerText();
    expect(cell).toBe(g ? `${g.symbol} (${g.number})` : '—');
    expect(pageErrors).toEqual([]);
  });
});
