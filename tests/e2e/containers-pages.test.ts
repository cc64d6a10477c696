/**
 * Containers on the pages that take one structure file (src/browser/read-file.ts openOneContainer): a gzipped CIF
 * opens as the CIF on the Nanoparticle and Compare pages, and an archive of several files is refused with a sentence
 * naming it.
 */
import { gzipSync, strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { readCorpusText } from '../../scripts/support/paths.ts';
import { type Lab, openLab, textFile, waitForFrame, waitIdle } from './harness.ts';

const NAME = 'cod-1011060-graphite.cif';
const CIF = readCorpusText(NAME);
const gz = () => ({ name: `${NAME}.gz`, mimeType: 'application/gzip', buffer: Buffer.from(gzipSync(strToU8(CIF))) });
const twoFiles = () => ({
  name: 'two.zip',
  mimeType: 'application/zip',
  buffer: Buffer.from(zipSync({ 'a.cif': strToU8(CIF), 'b.cif': strToU8(CIF) })),
});

const labs: Lab[] = [];
afterAll(async () => {
  for (const lab of labs) await lab.close();
});

async function open(hash: string, testId: string): Promise<{ page: Page; pageErrors: string[] }> {
  const lab = await openLab(`?fresh#/${hash}`, { width: 1280, height: 800 });
  labs.push(lab);
  await lab.page.locator(`[data-testid=${testId}]`).waitFor();
  return lab;
}

describe('containers on the Nanoparticle page', () => {
  it('carves x.cif.gz as x.cif, and refuses an archive of two files naming it', async () => {
    const { page, pageErrors } = await open('nanoparticle', 'nanoparticle-page');
    const natoms = () => page.locator('[data-testid=np-natoms]').innerText();
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await waitForFrame(page);
    const before = await natoms();
    await page.locator('[data-testid=np-file-input]').setInputFiles(gz());
    // The crystal is named as the CIF inside, and a new particle (not the default crystal's) is carved from it.
    await page.waitForFunction(
      ([name, old]) => {
        const shown = document.querySelector('[data-testid=np-crystal] option:checked')?.textContent;
        const n = document.querySelector('[data-testid=np-natoms]')?.textContent ?? '';
        return shown === name && /^\d+$/.test(n) && n !== old;
      },
      [NAME, before],
      { timeout: 60_000 },
    );
    await waitIdle(page);
    expect(await page.locator('[data-testid=np-error]').count()).toBe(0);
    expect(Number(await natoms())).toBeGreaterThan(0);

    await page.locator('[data-testid=np-file-input]').setInputFiles(twoFiles());
    await page.locator('[data-testid=np-error]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=np-error]').innerText()).toContain(
      'two.zip holds 2 files, but this input takes one structure file.',
    );
    expect(pageErrors).toEqual([]);
  });
});

describe('containers on the Compare page', () => {
  it('compares x.cif.gz (as x.cif) with the same CIF, and refuses an archive of two files naming it', async () => {
    const { page, pageErrors } = await open('compare', 'compare-page');
    await page.locator('[data-testid=cmp-metrics]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid=cmp-truth-input]').setInputFiles(gz());
    await page.locator('[data-testid=cmp-pred-input]').setInputFiles(textFile('pred.cif', CIF));
    await page.waitForFunction((name) => document.querySelector('[data-testid=cmp-truth-name]')?.textContent === name, NAME, {
      timeout: 60_000,
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=cmp-pred-name]')?.textContent === 'pred.cif', undefined, {
      timeout: 60_000,
    });
    // The demo pair's counts differ (RMSD undefined); the CIF against itself has an RMSD of zero.
    await page.waitForFunction(() => !/undefined/.test(document.querySelector('[data-testid=cmp-rmsd]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await page.waitForFunction(() => !document.querySelector('[data-testid=compare-progress]'), undefined, { timeout: 60_000 });
    expect(await page.locator('[data-testid=cmp-error]').count()).toBe(0);
    expect(Number.parseFloat(await page.locator('[data-testid=cmp-rmsd]').innerText())).toBeLessThan(1e-6);

    await page.locator('[data-testid=cmp-truth-input]').setInputFiles(twoFiles());
    await page.locator('[data-testid=cmp-error]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=cmp-error]').innerText()).toContain(
      'two.zip holds 2 files, but this input takes one structure file.',
    );
    expect(pageErrors).toEqual([]);
  });
});
