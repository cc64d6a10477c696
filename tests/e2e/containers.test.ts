/**
 * Containers on the Structure page (src/browser/read-file.ts openContainers): a gzipped CIF opens as the CIF, and
 * MatterGen's generated_trajectories.zip opens as its gen_i.extxyz trajectories (never merged into one, even with
 * "open as frames"), and a CDVAE/DiffCSP .pt opens as a multi-structure file (src/state/session.ts loadFiles).
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

  it('with "open as frames", an archive of trajectories opens its first trajectory, not one merged trajectory', async () => {
    const frames = readFileSync(join(REFERENCE, 'golden', 'generations', 'csp_visible', 'multi_pred.extxyz'), 'utf8');
    const zip = zipSync({ 'gen_10.extxyz': strToU8(firstFrames(frames, 3)), 'gen_2.extxyz': strToU8(firstFrames(frames, 2)) });
    await page.locator('[data-testid=open-as-frames]').check();
    try {
      const file = { name: 'generated_trajectories.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) };
      await page.locator('[data-testid=file-input]').setInputFiles(file);
      // gen_2 before gen_10 (natural order); merged, the two would be one trajectory of five frames.
      await page.waitForFunction(() => document.querySelector('.source')?.textContent?.includes('gen_2.extxyz'), null, {
        timeout: 60_000,
      });
      await waitIdle(page);
      expect(await page.locator('[data-testid=structure-list] li').count()).toBe(2);
      expect(await page.locator('.source').innerText()).not.toContain('gen_10');
    } finally {
      await page.locator('[data-testid=open-as-frames]').uncheck();
    }
  });

  it('opens a CDVAE/DiffCSP .pt as a multi-structure file: every crystal of every eval', async () => {
    const dir = join(REFERENCE, 'golden', 'generations', 'pt');
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { files: Record<string, { evals: unknown[][] }> };
    const name = 'diffcsp_eval_diff.pt';
    const count = expected.files[name].evals.flat().length;
    expect(count).toBe(10);
    await page
      .locator('[data-testid=file-input]')
      .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: readFileSync(join(dir, name)) });
    await page.waitForFunction((x) => document.querySelector('.source')?.textContent?.includes(x), name, { timeout: 60_000 });
    await waitIdle(page);
    expect(await page.locator('[data-testid=structure-list] li').count()).toBe(count);
    // A truncated .pt is refused with one sentence naming it; the shown file stays.
    const cut = readFileSync(join(dir, name)).subarray(0, 3000);
    await page.locator('[data-testid=file-input]').setInputFiles({ name: 'cut.pt', mimeType: 'application/octet-stream', buffer: cut });
    await page.waitForFunction(() => document.body.textContent?.includes('Could not read cut.pt'), null, { timeout: 60_000 });
    expect(await page.locator('.source').innerText()).toContain(name);
  });
});
