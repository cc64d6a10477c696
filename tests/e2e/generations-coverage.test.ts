/**
 * CDVAE's coverage on the Generations page (issue 24 §3): a small de novo set (12 of the visible generated crystals,
 * the first 8 test structures of denovo_visible/truth.extxyz) run with coverage mp20 shows the numbers and the JSON
 * that `structlab gen eval --coverage mp20` prints for the same files; the fingerprint map draws every crystal with
 * fingerprints, on the principal plane the core fits to them, names a point under the pointer, switches kind by
 * keyboard, and opens the first prediction's sample on a click; at a narrow and a wide window the map stays inside
 * its panel. GEN_COVERAGE_SHOTS=DIR writes screenshots of the map at both sizes to DIR.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalPlane } from '../../src/core/analysis/pca.ts';
import { scaleCompositionFingerprint } from '../../src/core/tasks/generations/coverage.ts';
import type { DenovoResult } from '../../src/core/tasks/generations/denovo.ts';
import { coverageFingerprint } from '../../src/core/tasks/generations/fingerprints.ts';
import { setFromFolder, setFromSetFile } from '../../src/core/tasks/generations/inputs.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { downloadOf, openLab, type Lab } from './harness.ts';
import { sameWithin, shown } from '../expect.ts';

const DENOVO = join(REFERENCE, 'golden', 'generations', 'denovo_visible');
const SCRATCH = join(tmpdir(), `structlab-gen-coverage-e2e-${process.pid}`);
const PRED = join(SCRATCH, 'pred');
const TRUTH = join(SCRATCH, 'truth.extxyz');
const SHOTS = process.env.GEN_COVERAGE_SHOTS;

let lab: Lab;
let page: Page;
let cli: DenovoResult;

const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();
const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=gen-progress]'), undefined, { timeout: 120_000 });

/** "a · b" as shown, each within its last digit of `expected` (percent: × 100). */
async function expectPair(id: string, expected: [number, number], scale = 1): Promise<void> {
  const parts = (await text(id)).split(' · ');
  expect(parts, id).toHaveLength(2);
  parts.forEach((part, k) => {
    const [x, half] = shown(part);
    expect(Math.abs(x - scale * expected[k]), `${id} ${k}`).toBeLessThanOrEqual(half + 1e-12);
  });
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The map, its canvas and the samples pane as laid out, with the canvas's backing size and the window's. */
const mapLayout = (p: Page) =>
  p.evaluate(() => {
    const box = (el: Element | null): Box => {
      const r = el!.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=gen-map-canvas]')!;
    return {
      pane: box(document.querySelector('.gen-table-pane')),
      map: box(document.querySelector('[data-testid=gen-fingerprint-map]')),
      canvas: box(canvas),
      backing: { width: canvas.width, height: canvas.height, dpr: devicePixelRatio },
      window: { width: innerWidth, height: innerHeight },
    };
  });

const inside = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5 && inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5;

/** The canvas has been sized to its host at the current window (the ResizeObserver has run and the map has drawn). */
const mapSized = (p: Page) =>
  p.waitForFunction(
    () => {
      const c = document.querySelector<HTMLCanvasElement>('[data-testid=gen-map-canvas]');
      if (!c) return false;
      const r = c.getBoundingClientRect();
      return r.width > 0 && Math.abs(c.width - Math.round(r.width * devicePixelRatio)) <= 1;
    },
    undefined,
    { timeout: 30_000 },
  );

beforeAll(async () => {
  // 12 generated crystals of every kind in the visible set (every 27th by name) and the first 8 test structures.
  mkdirSync(PRED, { recursive: true });
  const names = readdirSync(join(DENOVO, 'pred')).sort();
  for (const name of names.filter((_, k) => k % 27 === 0).slice(0, 12)) copyFileSync(join(DENOVO, 'pred', name), join(PRED, name));
  const lines = readFileSync(join(DENOVO, 'truth.extxyz'), 'utf8').split('\n');
  const frames: string[] = [];
  for (let at = 0, k = 0; k < 8; k++) {
    const n = Number(lines[at]);
    frames.push(...lines.slice(at, at + n + 2));
    at += n + 2;
  }
  writeFileSync(TRUTH, `${frames.join('\n')}\n`);
  const r = await structlabInProcess(['gen', 'eval', '--pred', PRED, '--truth', TRUTH, '--coverage', 'mp20']);
  expect(r.code, r.stderr).toBe(0);
  cli = JSON.parse(r.stdout);
  lab = await openLab('?fresh#/generations', { width: 1400, height: 900 });
  page = lab.page;
  await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
  await page.locator('[data-testid=gen-mode-denovo]').click();
});

afterAll(async () => {
  await lab?.close();
  rmSync(SCRATCH, { recursive: true, force: true });
});

describe('Generations coverage', () => {
  it("runs with coverage mp20 and shows the CLI's numbers; the exported JSON is the CLI's document", async () => {
    expect(cli.n).toBe(12);
    expect(cli.coverage!.n_truth).toBe(8);
    // Without a test set the control is off and says why.
    expect(await page.locator('[data-testid=gen-coverage-dataset]').isDisabled()).toBe(true);
    expect(await text('gen-coverage-hint')).toMatch(/test set/);
    await page.locator('[data-testid=gen-folder-pred]').setInputFiles(PRED);
    await page.waitForFunction(() => document.querySelector('[data-testid=gen-set-pred-info]')?.textContent === 'pred: 12 structures');
    await page.locator('[data-testid=gen-files-test]').setInputFiles(TRUTH);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=gen-set-test-info]')?.textContent === 'truth.extxyz: 8 structures',
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid=gen-wasserstein] + .gen-metric-note')?.textContent?.includes('vs 8 test structures'),
      undefined,
      { timeout: 120_000 },
    );
    await idle();
    expect(await page.locator('[data-testid=gen-coverage-dataset]').isDisabled()).toBe(false);
    await page.locator('[data-testid=gen-coverage-dataset]').selectOption('mp20');
    // The preset's cutoffs, shown and editable.
    expect(await page.locator('[data-testid=gen-cov-struc]').inputValue()).toBe('0.4');
    expect(await page.locator('[data-testid=gen-cov-comp]').inputValue()).toBe('10');
    await page.locator('[data-testid=gen-coverage]').waitFor({ timeout: 120_000 });
    await idle();
    const c = cli.coverage!;
    await expectPair('gen-coverage', [c.cov_recall, c.cov_precision], 100);
    await expectPair('gen-amsd', [c.amsd_recall, c.amsd_precision]);
    await expectPair('gen-amcd', [c.amcd_recall, c.amcd_precision]);
    await expectPair('gen-diversity', [cli.comp_div!, cli.struct_div!]);
    const note = await page.locator('[data-testid=gen-coverage] + .gen-metric-note').innerText();
    expect(note).toBe('struc ≤ 0.4 · comp ≤ 10 (mp20 cutoffs) · 12 of 12 predictions fingerprinted vs 8 test structures');
    console.log(`generations coverage e2e: COV-R/P ${await text('gen-coverage')}, AMSD ${await text('gen-amsd')}`);
    // The nearest-test distances as columns of the table.
    const first = await page.locator('[data-testid=gen-row]').first().locator('td[data-col=struc_precision_dist]').innerText();
    expect(Math.abs(shown(first)[0] - cli.per_sample[0].struc_precision_dist!)).toBeLessThanOrEqual(shown(first)[1] + 1e-12);
    const download = await downloadOf(page, 'gen-export-json');
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    // Numbers within 1e-9 relative: the page's worker runs Chromium's libm.
    expect(sameWithin(exported, cli, 1e-9)).toEqual([]);
    expect(lab.pageErrors).toEqual([]);
  });

  it('the map draws every crystal on the principal plane of the core; the pointer names one; the toggle works by keyboard', async () => {
    await page.locator('[data-testid=gen-view-map]').click();
    const map = page.locator('[data-testid=gen-fingerprint-map]');
    await page.waitForFunction(() => document.querySelector('[data-testid=gen-fingerprint-map]')?.getAttribute('data-points') === '20');
    const covered = cli.per_sample.filter((r) => r.struc_precision_dist! <= 0.4 && r.comp_precision_dist! <= 10).length;
    expect(covered).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=gen-map-legend-covered]').getAttribute('data-count')).toBe(String(covered));
    expect(await page.locator('[data-testid=gen-map-legend-uncovered]').getAttribute('data-count')).toBe(String(12 - covered));
    expect(await page.locator('[data-testid=gen-map-legend-test]').getAttribute('data-count')).toBe('8');
    // The axis captions give the variance shares of the plane fitted on the test structures and predictions together.
    const read = (items: { structure: Parameters<typeof coverageFingerprint>[0] }[]) => items.map((i) => coverageFingerprint(i.structure));
    const preds = read(
      setFromFolder(
        'prediction',
        'pred',
        readdirSync(PRED).map((name) => ({ name, text: readFileSync(join(PRED, name), 'utf8') })),
      ),
    );
    const truths = read(setFromSetFile('truth', 'truth.extxyz', readFileSync(TRUTH, 'utf8'))!);
    const all = [...truths, ...preds];
    const planes = {
      structure: principalPlane(all.map((f) => f.struct!)),
      composition: principalPlane(all.map((f) => scaleCompositionFingerprint(f.comp!))),
    };
    const caption = (axis: number, share: number) => `PC${axis} (${(100 * share).toFixed(1)} % of variance)`;
    expect(await map.locator('.gen-map-xlabel').innerText()).toBe(caption(1, planes.structure.explained[0]));
    expect(await map.locator('.gen-map-ylabel').innerText()).toBe(caption(2, planes.structure.explained[1]));
    // Hovering the first prediction names it.
    const canvas = page.locator('[data-testid=gen-map-canvas]');
    const [x, y] = (await map.getAttribute('data-first-prediction'))!.split(',').map(Number);
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + x, box.y + y);
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid=gen-map-hover]')?.textContent?.includes(`prediction 1: ${id}`),
      cli.per_sample[0].id,
    );
    // The composition map, chosen by keyboard.
    await page.locator('[data-testid=gen-map-composition]').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=gen-fingerprint-map]')?.getAttribute('data-kind') === 'composition',
    );
    expect(await page.locator('[data-testid=gen-map-composition]').getAttribute('aria-pressed')).toBe('true');
    expect(await map.getAttribute('data-points')).toBe('20');
    expect(await map.locator('.gen-map-xlabel').innerText()).toBe(caption(1, planes.composition.explained[0]));
    await page.locator('[data-testid=gen-map-structure]').click();
  });

  it('a click on the first prediction opens its sample, with its distances to the nearest test structure', async () => {
    const map = page.locator('[data-testid=gen-fingerprint-map]');
    const [x, y] = (await map.getAttribute('data-first-prediction'))!.split(',').map(Number);
    await page.locator('[data-testid=gen-map-canvas]').click({ position: { x, y } });
    await page.locator('[data-testid=gen-detail][data-index="0"]').waitFor({ timeout: 60_000 });
    const row = cli.per_sample[0];
    const nearest = page.locator('[data-testid=gen-nearest-test]');
    const covered = row.struc_precision_dist! <= 0.4 && row.comp_precision_dist! <= 10;
    expect(await nearest.getAttribute('data-covered')).toBe(String(covered));
    expect(await nearest.innerText()).toContain(row.struc_precision_dist!.toPrecision(4));
    expect(lab.pageErrors).toEqual([]);
  });

  it('the map stays inside its panel at a wide and a narrow window, its canvas sharp at the device pixel ratio', async () => {
    for (const size of [
      { width: 1400, height: 900 },
      { width: 900, height: 700 },
    ]) {
      await page.setViewportSize(size);
      await mapSized(page);
      const m = await mapLayout(page);
      const at = `${size.width}×${size.height}`;
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `gen-coverage-${at}.png`) });
      }
      expect(inside(m.map, m.pane), `map in pane at ${at}: ${JSON.stringify(m)}`).toBe(true);
      expect(inside(m.canvas, m.map), `canvas in map at ${at}: ${JSON.stringify(m)}`).toBe(true);
      expect(inside(m.pane, { left: 0, top: 0, right: m.window.width, bottom: m.window.height }), at).toBe(true);
      expect(m.canvas.right - m.canvas.left, at).toBeGreaterThanOrEqual(200);
      expect(m.canvas.bottom - m.canvas.top, at).toBeGreaterThanOrEqual(120);
      expect(m.backing.width).toBe(Math.round((m.canvas.right - m.canvas.left) * m.backing.dpr));
      console.log(
        `generations coverage e2e: at ${at} the canvas is ${(m.canvas.right - m.canvas.left).toFixed(0)}×` +
          `${(m.canvas.bottom - m.canvas.top).toFixed(0)} px in a pane of ${(m.pane.right - m.pane.left).toFixed(0)}×` +
          `${(m.pane.bottom - m.pane.top).toFixed(0)}`,
      );
    }
    expect(lab.pageErrors).toEqual([]);
  });
});
