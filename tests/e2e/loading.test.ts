/**
 * Loading paths beyond the file picker: several structures in one file, pasted text, and cancelling
 * a long parse (the worker is terminated and restarted, the previous structure stays).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CORPUS_FILES, readCorpusGolden, readCorpusText } from '../../scripts/support/paths.ts';
import { type Lab, clickInPageWhen, openLab, waitForFrame, waitIdle } from './harness.ts';

let lab: Lab;
let page: Page;
let pageErrors: string[];

const formulaIs = (f: string, timeout = 60_000) =>
  page.waitForFunction((x) => document.querySelector('[data-testid=formula]')?.textContent === x, f, { timeout });

beforeAll(async () => {
  lab = await openLab('?fresh', { width: 1280, height: 800 });
  ({ page, pageErrors } = lab);
  await waitForFrame(page);
  await waitIdle(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('loading', () => {
  it('lists the structures of a multi-block CIF and shows the one chosen', async () => {
    const name = 'cod-bs5068.cif';
    const golden = readCorpusGolden(name).pymatgen.structures;
    await page.locator('[data-testid=file-input]').setInputFiles(join(CORPUS_FILES, name));
    await formulaIs(golden[0].formula);
    const items = page.locator('[data-testid=structure-list] button');
    expect(await items.count()).toBe(golden.length);
    await items.nth(1).click();
    await formulaIs(golden[1].formula);
    expect(await page.locator('[data-testid=natoms]').innerText()).toBe(String(golden[1].n_sites));
  });

  it('loads a file dropped on the page', async () => {
    const name = 'cod-1011060-graphite.cif';
    const golden = readCorpusGolden(name).pymatgen.structures[0];
    await page.evaluate(
      ([fileName, content]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([content], fileName, { type: 'chemical/x-cif' }));
        document.querySelector('.lab')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      [name, readCorpusText(name)] as const,
    );
    await formulaIs(golden.formula);
    expect(await page.locator('[data-testid=spacegroup]').innerText()).toContain(`(${golden.symmetry['0.01'].number})`);
  });

  it('loads pasted text, guessing the format from the content', async () => {
    const name = 'ase-POSCAR_example_1';
    const golden = readCorpusGolden(name).pymatgen.structures[0];
    await page.locator('[data-testid=paste]').fill(readCorpusText(name));
    await page.getByRole('button', { name: 'Load pasted text' }).click();
    await formulaIs(golden.formula);
    expect(await page.locator('[data-testid=natoms]').innerText()).toBe(String(golden.n_sites));
    expect(await page.locator('[data-testid=spacegroup]').innerText()).toContain(`(${golden.symmetry['0.01'].number})`);
  });

  it('cancels a long parse, keeps the previous structure and restarts the worker', async () => {
    const previous = await page.locator('[data-testid=formula]').innerText();
    // An XYZ just under the policy's LIMITS.atoms (a larger one is refused at its header, too fast to cancel):
    // long enough to still be loading when Cancel is clicked
    const n = 199_000;
    const lines = [String(n), 'big argon cluster'];
    for (let i = 0; i < n; i++) lines.push(`Ar ${(i % 100) * 3.1} ${(Math.floor(i / 100) % 100) * 3.1} ${Math.floor(i / 10_000) * 3.1}`);
    await clickInPageWhen(page, 'cancel', { selector: '[data-testid=cancel]' }, () =>
      page
        .locator('[data-testid=file-input]')
        .setInputFiles({ name: 'big.xyz', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) }),
    );
    await page.locator('[data-testid=error]').waitFor();
    expect(await page.locator('[data-testid=error]').innerText()).toMatch(/cancel/i);
    expect(await page.locator('[data-testid=formula]').innerText()).toBe(previous);
    // a fresh worker serves the next load
    const graphite = readCorpusGolden('cod-1011060-graphite.cif').pymatgen.structures[0];
    await page.locator('[data-testid=file-input]').setInputFiles(join(CORPUS_FILES, 'cod-1011060-graphite.cif'));
    await formulaIs(graphite.formula);
    expect(pageErrors).toEqual([]);
  });
});
