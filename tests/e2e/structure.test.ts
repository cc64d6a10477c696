/**
 * The structure lab end to end: the built app in `vite preview`, headless Chromium on SwiftShader.
 * Expected values come from the corpus golden files (pymatgen + spglib), not from the app.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_FILES, readCorpusGolden } from '../../scripts/support/paths.ts';
import { downloadOf, frontmostAtom, labUrl, openLab, waitForFrame, waitIdle, type Lab } from './harness.ts';
import { decodePng } from './png.ts';

const GRAPHITE = 'cod-1011060-graphite.cif';
const MALFORMED = 'cod-unclosed-quote.cif';

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const text = (testId: string) => page.locator(`[data-testid=${testId}]`).innerText();

beforeAll(async () => {
  lab = await openLab('?fresh', { width: 1280, height: 800 });
  ({ page, pageErrors } = lab);
  await waitForFrame(page);
  await waitIdle(page);
  await page.locator('[data-testid=formula]').waitFor();
});

afterAll(async () => {
  await lab?.close();
});

describe('structure lab', () => {
  const golden = readCorpusGolden(GRAPHITE).pymatgen.structures[0];

  it('loads a CIF through the file input and shows formula, atom count and space group', async () => {
    await page.locator('[data-testid=file-input]').setInputFiles(join(CORPUS_FILES, GRAPHITE));
    await page.waitForFunction((f) => document.querySelector('[data-testid=formula]')?.textContent === f, golden.formula, {
      timeout: 60_000,
    });
    await waitIdle(page);
    expect(await text('formula')).toBe(golden.formula);
    expect(await text('natoms')).toBe(String(golden.n_sites));
    expect(await text('spacegroup')).toContain(`(${golden.symmetry['0.01'].number})`);
    expect(await text('spacegroup')).toContain(golden.symmetry['0.01'].international);
    const frames = await page.evaluate(() => window.__structlab!.frames);
    expect(frames).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it('picks the frontmost atom by clicking where it is drawn and shows its info', async () => {
    await waitForFrame(page);
    const target = await frontmostAtom(page);
    expect(target).not.toBeNull();
    await page.mouse.click(target!.x, target!.y);
    const info = page.locator('[data-testid=atom-info]');
    await info.waitFor({ timeout: 10_000 });
    const content = await info.innerText();
    expect(content).toContain('C (Carbon)');
    expect(await info.getAttribute('data-atom')).toBe(String(target!.i));
    // graphite: every site is Wyckoff a or b (golden spglib), with its multiplicity as the Wyckoff table writes it
    expect(content).toMatch(/Wyckoff\s+\d+[ab]\b/);
  });

  it('exports a 2× PNG with a transparent background', async () => {
    const css = await page.evaluate(() => {
      const r = document.querySelector('[data-testid=viewer] canvas, canvas')!.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height) };
    });
    const download = await downloadOf(page, 'export-png');
    const png = decodePng(readFileSync(await download.path()));
    expect(png.width).toBe(2 * css.width);
    expect(png.height).toBe(2 * css.height);
    expect(png.colorType).toBe(6);
    const rgba = png.rgba!;
    let transparent = 0;
    let opaque = 0;
    for (let k = 3; k < rgba.length; k += 4) {
      if (rgba[k] === 0) transparent++;
      else if (rgba[k] === 255) opaque++;
    }
    const total = png.width * png.height;
    expect(transparent / total).toBeGreaterThan(0.2); // background
    expect(opaque / total).toBeGreaterThan(0.005); // atoms and bonds were drawn
  });

  it('shows a clear error for a malformed file and keeps the previous structure', async () => {
    await page.locator('[data-testid=file-input]').setInputFiles(join(CORPUS_FILES, MALFORMED));
    const error = page.locator('[data-testid=error]');
    await error.waitFor({ timeout: 30_000 });
    const message = await error.innerText();
    expect(message).toContain(MALFORMED);
    expect(message).toMatch(/line \d+/);
    expect(await text('formula')).toBe(golden.formula);
    expect(await text('natoms')).toBe(String(golden.n_sites));
    // the canvas still renders
    const before = await page.evaluate(() => window.__structlab!.frames);
    await page.keyboard.press('a');
    await waitForFrame(page, before);
  });

  it('restores the session (file and settings) after a reload, and Reset session clears it', async () => {
    await page.locator('[data-testid=setting-supercellA]').fill('2');
    await page.waitForFunction(() => (window.__structlab?.natoms() ?? 0) > 20, undefined, { timeout: 30_000 });
    await page.waitForTimeout(400); // the session is saved 200 ms after the last change
    await page.goto(labUrl(lab.url));
    await page.waitForFunction((f) => document.querySelector('[data-testid=formula]')?.textContent === f, golden.formula, {
      timeout: 60_000,
    });
    expect(await page.locator('[data-testid=setting-supercellA]').inputValue()).toBe('2');
    await page.locator('[data-testid=reset-session]').click();
    await page.waitForFunction(
      (f) => {
        const t = document.querySelector('[data-testid=formula]')?.textContent;
        return !!t && t !== f;
      },
      golden.formula,
      { timeout: 60_000 },
    );
    expect(await page.locator('[data-testid=setting-supercellA]').inputValue()).toBe('1');
  });
});
