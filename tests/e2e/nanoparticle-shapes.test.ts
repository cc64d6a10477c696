/**
 * The Nanoparticle page's shapes, size series and side-by-side views (issue 26) end to end, on fcc Cu (a = 3.6149 Å,
 * opened as a file): an icosahedron of 3 shells around the centre atom has 147 atoms (Mackay's count,
 * (10k³ + 15k² + 11k + 3)/3, written here); a Wulff shape of two families shows the area fractions core's wulffShapeOf
 * gives for the same crystal and energies; the series over shells 1–5 marks 13, 55, 147, 309, 561 and its slider
 * re-draws member 2 with 55 atoms; the series records as a growth movie; side by side, a drag in one view moves both
 * cameras alike; at 1280×800 and 1920×1080 nothing leaves its panel. Waits are on the lab's signals, never on time.
 * NP_SHOTS=DIR writes screenshots of the page to DIR, for a person to look at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initMoyoNode } from '../../src/node/moyo.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { parseSurfaceEnergies } from '../../src/core/structure/clusters/surface-energies.ts';
import { wulffShapeOf } from '../../src/core/tasks/c2np/wulff-crystal.ts';
import { readZip } from '../../src/core/io/zip.ts';
import { type Lab, openLab, textFile, waitForFrame, waitIdle } from './harness.ts';
import { FCC_CU_CIF } from '../cif.ts';

const SHOTS = process.env.NP_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

let lab: Lab;
let page: Page;

/** Mackay icosahedron of k shells around the centre atom. */
const mackay = (k: number) => (10 * k ** 3 + 15 * k ** 2 + 11 * k + 3) / 3;

const natomsIs = (n: number) =>
  page.waitForFunction((want) => document.querySelector('[data-testid=np-natoms]')?.textContent === String(want), n, { timeout: 60_000 });

/** The drawn atoms of a viewer (the test hook), once it has drawn them. */
const drawnAtoms = (name: string, n: number) =>
  page.waitForFunction(
    ({ name, n }) => {
      const v = window.__structlab?.viewers()[name];
      return v !== undefined && v.natoms === n && v.frames > 0;
    },
    { name, n },
    { timeout: 60_000 },
  );

const shot = async (name: string) => {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`) });
};

beforeAll(async () => {
  initMoyoNode();
  lab = await openLab('?fresh#/nanoparticle', { width: 1280, height: 800 });
  page = lab.page;
  await page.locator('[data-testid=nanoparticle-page]').waitFor();
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
    timeout: 60_000,
  });
  await waitIdle(page, 120_000);
});

afterAll(async () => {
  await lab?.close();
});

describe('shapes on fcc Cu', () => {
  it('the default CsCaH3 is no fcc metal: ASE’s shapes are disabled with core’s sentence', async () => {
    for (const shape of ['icosahedron', 'decahedron', 'octahedron', 'cuboctahedron'])
      expect(await page.locator(`[data-testid=np-shape] option[value=${shape}]`).isDisabled(), shape).toBe(true);
    expect(await page.locator('[data-testid=np-ase-refusal]').innerText()).toBe(
      'Icosahedra, decahedra, octahedra: CsCaH3 has 3 elements (Pm-3m); icosahedra, decahedra and octahedra here are built from ' +
        'one-element fcc crystals.',
    );
    await page.locator('[data-testid=np-file-input]').setInputFiles(textFile('Cu.cif', FCC_CU_CIF));
    await page.waitForFunction(() => document.querySelector('[data-testid=np-crystal]')?.textContent?.includes('Cu.cif'), undefined, {
      timeout: 60_000,
    });
    await waitIdle(page, 120_000);
  });

  it('offers ASE’s shapes for Cu; an icosahedron of 3 shells has 147 atoms, drawn', async () => {
    expect(await page.locator('[data-testid=np-shape] option[value=icosahedron]').isDisabled()).toBe(false);
    expect(await page.locator('[data-testid=np-ase-refusal]').count()).toBe(0);
    await page.locator('[data-testid=np-shape]').selectOption('icosahedron');
    await page.locator('[data-testid=np-shape-size]').fill('3');
    await natomsIs(mackay(3));
    expect(mackay(3)).toBe(147);
    await drawnAtoms('main', 147);
    expect(await page.locator('[data-testid=np-shape-note]').innerText()).toMatch(/noshells = 4.*magic/);
    await waitIdle(page);
  });

  it('a Wulff shape of {100} and {111}: the legend’s area fractions are core’s wulffShapeOf', async () => {
    await page.locator('[data-testid=np-shape]').selectOption('wulff');
    await page.locator('[data-testid=np-wulff-legend]').waitFor({ timeout: 60_000 });
    const hkls = await page.locator('[data-testid=np-energy-hkl]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(hkls).toEqual(['1 0 0', '1 1 0', '1 1 1']);
    await page.locator('[data-testid=np-energy-remove]').nth(1).click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=np-wulff-family]').length === 2, undefined, {
      timeout: 60_000,
    });
    await waitIdle(page);
    const energies = await page
      .locator('[data-testid=np-energy-row]')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('input')].map((i) => i.value)));
    const spec = energies.map(([hkl, e]) => `${hkl.split(' ').join(',')}:${e}`).join(';');
    const parsed = parseStructureFile(FCC_CU_CIF, 'Cu.cif');
    if (!parsed.ok) throw new Error(parsed.error);
    const core = wulffShapeOf(parsed.structures[0], parseSurfaceEnergies(spec));
    const shown = await page
      .locator('[data-testid=np-wulff-family]')
      .evaluateAll((rows) =>
        rows.map((r) => [r.getAttribute('data-family'), r.querySelector('[data-testid=np-wulff-fraction]')!.textContent]),
      );
    expect(shown.map(([family]) => family)).toEqual(core.families.map((f) => f.label));
    shown.forEach(([, text], k) => {
      const percent = Number(/^([\d.]+) %$/.exec(text!)![1]);
      expect(Math.abs(percent - 100 * core.families[k].areaFraction)).toBeLessThanOrEqual(0.1);
    });
    // Both families are faces of the truncated octahedron γ(100)/γ(111) = 2/√3 gives.
    expect(core.families.every((f) => f.areaFraction > 0.05)).toBe(true);
    await shot('wulff-1280');
  });

  it('a bad energy is refused in one sentence naming its row; fixing it clears it', async () => {
    const value = page.locator('[data-testid=np-energy-value]').nth(1);
    const before = await value.inputValue();
    await value.fill('-1');
    await value.press('Enter');
    await page.locator('[data-testid=np-energies-error]').waitFor();
    expect(await page.locator('[data-testid=np-energies-error]').innerText()).toBe(
      'Row 2: the surface energy of (1,1,1) must be a positive number, got "-1".',
    );
    await value.fill(before);
    await value.press('Enter');
    await page.locator('[data-testid=np-energies-error]').waitFor({ state: 'detached' });
    await waitIdle(page);
  });
});

describe('size series', () => {
  it('icosahedra of shells 1–5: magic markers at 13, 55, 147, 309, 561, and the plots', async () => {
    await page.locator('[data-testid=np-shape]').selectOption('icosahedron');
    await natomsIs(147);
    expect(await page.locator('[data-testid=np-series-sizes]').inputValue()).toBe('1..5');
    await page.locator('[data-testid=np-series-run]').click();
    await page.locator('[data-testid=np-series-plots]').waitFor({ timeout: 120_000 });
    expect(await page.locator('[data-testid=np-series-plots]').getAttribute('data-markers')).toBe('13,55,147,309,561');
    expect(await page.locator('[data-testid=np-series-magic]').innerText()).toBe('Magic numbers (closed shells): 13, 55, 147, 309, 561');
    for (const id of ['surface', 'cn', 'classes', 'hist', 'facets', 'fwhm'])
      expect(await page.locator(`[data-testid=np-series-plot-${id}] canvas`).count(), id).toBeGreaterThan(0);
    // The shown particle (3 shells) is member 3 of the series.
    expect(await page.locator('[data-testid=np-series-member]').innerText()).toBe('3 of 5: size 3, N = 147 (magic)');
    await waitIdle(page, 120_000);
  });

  it('the slider to member 2 draws the 55-atom icosahedron', async () => {
    await page.locator('[data-testid=np-series-slider]').fill('1');
    await natomsIs(55);
    await drawnAtoms('main', 55);
    expect(await page.locator('[data-testid=np-series-member]').innerText()).toBe('2 of 5: size 2, N = 55 (magic)');
    await waitIdle(page);
  });

  it('records the series as a growth movie of 5 PNGs; member 2 comes back', async () => {
    await page.locator('[data-testid=record-open]').click();
    await page.locator('[data-testid=record-kind]').selectOption('growth');
    await page.locator('[data-testid=record-hold]').fill('1');
    await page.locator('[data-testid=record-size]').selectOption('custom');
    await page.locator('[data-testid=record-width]').fill('80');
    await page.locator('[data-testid=record-height]').fill('60');
    await page.locator('[data-testid=record-format]').selectOption('png');
    const [d] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.locator('[data-testid=record-start]').click(),
    ]);
    await page.locator('[data-testid=record-done]').waitFor();
    expect(readZip(new Uint8Array(readFileSync((await d.path())!)), d.suggestedFilename())).toHaveLength(5);
    await page.locator('[data-testid=record-close]').click();
    await natomsIs(55);
    await waitIdle(page);
  });
});

/** Whether every shown element inside `selector` lies within its box (1 px slack); the ones that do not, named. */
const outside = (selector: string) =>
  page.evaluate((sel) => {
    const out: string[] = [];
    for (const panel of document.querySelectorAll<HTMLElement>(sel)) {
      const box = panel.getBoundingClientRect();
      // A scrolling panel may run past its bottom; nothing may leave its sides (nor a view's top and bottom).
      const scrolls = getComputedStyle(panel).overflowY === 'auto';
      for (const el of panel.querySelectorAll<HTMLElement>('*')) {
        if (!el.checkVisibility() || el.closest('dialog') || el.closest('.uplot .u-cursor-x, .uplot .u-cursor-y')) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        const sides = r.left < box.left - 1 || r.right > box.right + 1;
        const ends = !scrolls && (r.top < box.top - 1 || r.bottom > box.bottom + 1);
        if (sides || ends) out.push(`${sel} ${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ''}`);
      }
      if (panel.scrollWidth > panel.clientWidth + 1) out.push(`${sel} scrolls sideways`);
    }
    return out;
  }, selector);

describe('side by side, linked cameras', () => {
  it('member 4 beside member 2: two canvases; a drag in one moves both cameras alike', async () => {
    await page.locator('[data-testid=np-compare]').selectOption('member');
    await page.locator('[data-testid=np-compare-member]').fill('3');
    await page.waitForFunction(() => document.querySelector('[data-testid=np-compare-natoms]')?.textContent === '309', undefined, {
      timeout: 60_000,
    });
    await drawnAtoms('np-compare', 309);
    await waitIdle(page);
    const canvases = page.locator('[data-testid=viewer] canvas, [data-testid=np-viewer-compare] canvas');
    expect(await canvases.count()).toBe(2);
    const cameras = () =>
      page.evaluate(() => {
        const v = window.__structlab!.viewers();
        return [v.main.camera!, v['np-compare'].camera!];
      });
    const [a0, b0] = await cameras();
    expect(a0.position).toEqual(b0.position);
    // Both particles in view about the same centre: their atoms' mean screen position in the middle of each canvas.
    for (const name of ['main', 'np-compare']) {
      const middle = await page.evaluate((name) => {
        const v = window.__structlab!.viewer(name)!;
        const rect = v.canvasSize()!;
        const canvas = document.querySelector(name === 'main' ? '[data-testid=viewer] canvas' : '[data-testid=np-viewer-compare] canvas');
        const box = canvas!.getBoundingClientRect();
        let x = 0;
        let y = 0;
        for (let i = 0; i < v.natoms(); i++) {
          const p = v.projectAtom(i)!;
          x += (p.x - box.left) / rect.width / v.natoms();
          y += (p.y - box.top) / rect.height / v.natoms();
        }
        return [x, y];
      }, name);
      for (const t of middle) expect(Math.abs(t - 0.5), name).toBeLessThan(0.1);
    }
    const box = (await page.locator('[data-testid=np-viewer-compare] canvas').boundingBox())!;
    const before = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 20, { steps: 5 });
    await page.mouse.up();
    await waitForFrame(page, before);
    const [a1, b1] = await cameras();
    const moved = Math.hypot(...a1.position.map((x, k) => x - a0.position[k]));
    expect(moved).toBeGreaterThan(1);
    for (let k = 0; k < 3; k++) {
      expect(a1.position[k]).toBeCloseTo(b1.position[k], 6);
      expect(a1.target[k]).toBeCloseTo(b1.target[k], 6);
    }
  });

  it('a sphere with the same N beside the icosahedron', async () => {
    await page.locator('[data-testid=np-compare]').selectOption('sphere');
    await page.waitForFunction(
      () => /sphere R = /.test(document.querySelector('[data-testid=np-compare-caption]')?.textContent ?? ''),
      undefined,
      {
        timeout: 60_000,
      },
    );
    const n = Number(await page.locator('[data-testid=np-compare-natoms]').innerText());
    // The closed fcc spheres about the box centre nearest 55 atoms (an octahedral site: 6, 14, 38, 44, 68, …).
    expect(Math.abs(n - 55)).toBeLessThanOrEqual(15);
    await waitIdle(page);
  });

  it('a Wulff particle beside the C2NP sphere of nearly the same N, polyhedron and legend shown', async () => {
    await page.locator('[data-testid=np-shape]').selectOption('wulff');
    await page.locator('[data-testid=np-wulff-legend]').waitFor({ timeout: 60_000 });
    const n = Number(await page.locator('[data-testid=np-natoms]').innerText());
    await page.waitForFunction(
      (n) => {
        const caption = document.querySelector('[data-testid=np-compare-caption]')?.textContent ?? '';
        const beside = Number(document.querySelector('[data-testid=np-compare-natoms]')?.textContent);
        return /sphere R = /.test(caption) && Math.abs(beside - n) <= 0.1 * n;
      },
      n,
      { timeout: 60_000 },
    );
    await waitIdle(page);
    await waitForFrame(page);
    await shot('wulff-beside-sphere');
  });

  it('a Wulff series has no magic member: the closed-shell numbers in its range are drawn as references', async () => {
    await page.locator('[data-testid=np-series-sizes]').fill('50,150,400');
    await page.locator('[data-testid=np-series-run]').click();
    await page.locator('[data-testid=np-series-magic]').waitFor({ timeout: 120_000 });
    expect(await page.locator('[data-testid=np-series-magic]').getAttribute('data-reference')).toBe('true');
    const text = await page.locator('[data-testid=np-series-magic]').innerText();
    expect(text).toMatch(/^Closed-shell numbers in range \(for reference\): 55, 147/);
    await waitIdle(page, 120_000);
  });

  it.each([
    [1280, 800],
    [1920, 1080],
  ])('at %i×%i nothing leaves its panel', async (width, height) => {
    await page.setViewportSize({ width, height });
    await page.waitForFunction(
      () => {
        const c = document.querySelector('[data-testid=np-viewer-compare] canvas')!.getBoundingClientRect();
        const host = document.querySelector('[data-testid=np-view-compare]')!.getBoundingClientRect();
        return Math.abs(c.width - host.width) < 2 && Math.abs(c.height - host.height) < 2;
      },
      undefined,
      { timeout: 30_000 },
    );
    await waitForFrame(page);
    for (const sel of ['.np-lab .panel.left', '.np-lab .panel.right', '[data-testid=np-view-main]', '[data-testid=np-view-compare]'])
      expect(await outside(sel), sel).toEqual([]);
    const views = await page.evaluate(() =>
      ['np-view-main', 'np-view-compare'].map((id) => document.querySelector(`[data-testid=${id}]`)!.getBoundingClientRect().width),
    );
    for (const w of views) expect(w).toBeGreaterThan(width / 4);
    await shot(`side-by-side-${width}`);
    expect(lab.pageErrors).toEqual([]);
  });
});

describe('a series of C2NP spheres', () => {
  it('R = 4, 5, 6 Å about a Cu atom: 19, 43, 79 atoms (fcc shells 1 + 12 + 6 + 24 + 12 + 24); the slider draws R = 4 Å', async () => {
    await page.locator('[data-testid=np-shape]').selectOption('sphere');
    await page.locator('[data-testid=np-series-sizes]').fill('4..6');
    await page.locator('[data-testid=np-series-run]').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=np-series-plots]')?.getAttribute('data-markers') === '55',
      undefined,
      {
        timeout: 120_000,
      },
    );
    await page.locator('[data-testid=np-series-slider]').fill('0');
    await natomsIs(19);
    await drawnAtoms('main', 19);
    expect(await page.locator('[data-testid=np-series-member]').innerText()).toBe('1 of 3: size 4 Å, N = 19');
    await page.locator('[data-testid=np-series-slider]').fill('2');
    await natomsIs(79);
    expect(lab.pageErrors).toEqual([]);
  });
});
