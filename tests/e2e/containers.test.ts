/**
 * Containers on the Structure page (src/browser/read-file.ts openContainers): a gzipped CIF opens as the CIF, and
 * MatterGen's generated_trajectories.zip opens as its gen_i.extxyz trajectories.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE, readCorpusGolden, readCorpusText } from '../../scripts/support/paths.ts';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

let lab: Lab;
let page: Page;

beforeAll(async () => {
  lab = await openLab('?fresh', { width: 1280, height: 800 });
  page = lab.page;
  await waitForFrame(page);
  await waitIdle(page);
});

afterAll(async () => {
  await lab?.close();
});

/** The first `n` frames of an extended XYZ text (each: a count line, a comment line, the atoms). */
function firstFrames(text: string, n: number): string {
  const lines = text.split('\n');
  let at = 0;
  for (let k = 0; k < n; k++) at += Number(lines[at]) + 2;
  return lines.slice(0, at).join('\n') + '\n';
}

describe('containers on the Structure page', () => {
  it('opens x.cif.gz as x.cif', async () => {
    const name = 'cod-1011060-graphite.cif';
    const golden = readCorpusGolden(name).pymatgen.structures[0];
    const buffer = Buffer.from(gzipSync(strToU8(readCorpusText(name))));
    await page.locator('[data-testid=file-input]').setInputFiles({ name: `${name}.gz`, mimeType: 'application/gzip', buffer });
    await page.waitForFunction((x) => document.querySelector('[data-testid=formula]')?.textContent === x, golden.formula, {
      timeout: 60_000,
    });
    expect(await page.locator('.source').innerText()).toContain(name);
  });

  it("opens MatterGen's generated_trajectories.zip as its gen_i.extxyz frames", async () => {
    const frames = readFileSync(join(REFERENCE, 'golden', 'generations', 'csp_visible', 'multi_pred.extxyz'), 'utf8');
    const zip = zipSync({ 'gen_0.extxyz': strToU8(firstFrames(frames, 2)), 'gen_1.extxyz': strToU8(firstFrames(frames, 3)) });
    const file = { name: 'generated_trajectories.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) };
    await page.locator('[data-testid=file-input]').setInputFiles(file);
    // Both are opened in turn; the last is shown, its three frames listed.
    await page.waitForFunction(() => document.querySelector('.source')?.textContent?.includes('gen_1.extxyz'), null, { timeout: 60_000 });
    await waitIdle(page);
    expect(await page.locator('[data-testid=structure-list] li').count()).toBe(3);
  });
});
