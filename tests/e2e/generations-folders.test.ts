/**
 * The Generations page's set pickers under the inputs people have (issue 21): a folder whose subfolders hold files
 * of one name (MatterGen's mattergen/… and random_structure_search/… both hold HfZnN2.cif) is a set whose ids are
 * the paths below the folder; a refused pick, or a set that leaves the run incomplete, leaves the page idle and
 * ready for the next pick; and a set picked while another is still being read is kept, as is the other.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type Lab, openLab } from './harness.ts';

const GEN = join(REFERENCE, 'golden', 'generations');
const MATTERGEN = join(GEN, 'sources', 'mattergen_cifs');
const SCRATCH = join(tmpdir(), `structlab-gen-folders-e2e-${process.pid}`);

let lab: Lab;
let page: Page;

const info = (role: string) => page.locator(`[data-testid=gen-set-${role}-info]`);
const waitInfo = (role: string, text: string) =>
  page.waitForFunction(([r, t]) => document.querySelector(`[data-testid=gen-set-${r}-info]`)?.textContent === t, [role, text] as const, {
    timeout: 60_000,
  });
/** No progress shown: nothing is being read or run. */
const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=gen-progress]'), undefined, { timeout: 60_000 });

beforeAll(async () => {
  mkdirSync(SCRATCH, { recursive: true });
  lab = await openLab('?fresh#/generations', { width: 1400, height: 900 });
  page = lab.page;
  await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=gen-mode-denovo]').click();
});

afterAll(async () => {
  await lab?.close();
  rmSync(SCRATCH, { recursive: true, force: true });
});

describe('Generations set pickers', () => {
  it('a refused folder shows its sentence and leaves the page ready: a reference set picked next loads and the page is idle', async () => {
    const bad = join(SCRATCH, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, 'x.cif'), 'data_x\n_cell_length_a 4\n');
    await page.locator('[data-testid=gen-folder-pred]').setInputFiles(bad);
    await page.locator('[data-testid=gen-error]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=gen-error]').innerText()).toMatch(/bad\/x\.cif cannot be read/);
    await idle();
    // Without predictions the de novo run cannot start: the reference set is read, and nothing is left "reading".
    await page.locator('[data-testid=gen-files-reference]').setInputFiles(join(GEN, 'denovo_visible', 'reference.jsonl'));
    await waitInfo('reference', 'reference.jsonl: 320 structures');
    await idle();
    expect(await page.locator('[data-testid=gen-summary]').count()).toBe(0);
  });

  it('a folder whose subfolders hold files of one name is a set: ids are the paths below the folder', async () => {
    // Two of MatterGen's CIFs (CDLA-Permissive-2.0, its LICENSE.md beside them) where the released folder has them.
    const root = join(SCRATCH, 'mattergen_cifs');
    for (const sub of ['mattergen', 'random_structure_search'])
      cpSync(join(MATTERGEN, sub, 'chemical_system', 'HfZnN2.cif'), join(root, sub, 'chemical_system', 'HfZnN2.cif'), { recursive: true });
    cpSync(join(MATTERGEN, 'LICENSE.md'), join(root, 'LICENSE.md'));
    await page.locator('[data-testid=gen-folder-pred]').setInputFiles(root);
    await waitInfo('pred', 'mattergen_cifs: 2 structures');
    await page.locator('[data-testid=gen-summary][data-mode=denovo]').waitFor({ timeout: 60_000 });
    await idle();
    const ids = await page.locator('[data-testid=gen-row]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id));
    expect(ids).toEqual(['mattergen/chemical_system/HfZnN2', 'random_structure_search/chemical_system/HfZnN2']);
    // Shown in the column with their first folder and name, which tell them apart; the whole id in the row's title.
    const cells = await page.locator('[data-testid=gen-row] td:nth-child(2)').allInnerTexts();
    expect(cells).toEqual(['mattergen/…/HfZnN2', 'random_structure_search/…/HfZnN2']);
    expect(await page.locator('[data-testid=gen-row]').first().getAttribute('title')).toBe(ids[0]);
    expect(await page.locator('[data-testid=gen-error]').count()).toBe(0);
  });

  it('a CSP set picked while the reference set is still being read is kept, and so is the reference set', async () => {
    // A reference set that takes a while to read: the visible one ten times over, each copy with its own ids.
    const lines = readFileSync(join(GEN, 'denovo_visible', 'reference.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const big = join(SCRATCH, 'big-reference.jsonl');
    const copies = Array.from({ length: 10 }, (_, k) =>
      lines.map((line) => {
        const d = JSON.parse(line) as { id: string };
        return JSON.stringify({ ...d, id: `${d.id}-copy${k}` });
      }),
    );
    writeFileSync(big, `${copies.flat().join('\n')}\n`);
    await page.locator('[data-testid=gen-files-reference]').setInputFiles(big);
    await page.locator('[data-testid=gen-mode-csp]').click();
    await page.locator('[data-testid=gen-folder-truth]').setInputFiles(join(GEN, 'csp_visible', 'truth'));
    await waitInfo('truth', 'truth: 203 structures');
    await idle();
    await page.locator('[data-testid=gen-mode-denovo]').click();
    await waitInfo('reference', `big-reference.jsonl: ${10 * lines.length} structures`);
    expect(await info('pred').innerText()).toBe('mattergen_cifs: 2 structures');
    await page.locator('[data-testid=gen-summary][data-mode=denovo]').waitFor({ timeout: 60_000 });
    await idle();
    expect(await page.locator('[data-testid=gen-error]').count()).toBe(0);
    expect(lab.pageErrors).toEqual([]);
  });
});
