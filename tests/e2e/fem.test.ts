/**
 * The FEM-Bench page end to end (built app, headless Chromium on SwiftShader). Expected numbers come from the
 * FEM-Bench golden outputs (linear_elastic reactions, elastic_critical_load λ_cr), the Q8 node-count formula
 * (2nx+1)(2ny+1) − nx·ny, and the benchmark's own verdicts in fembench_models.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type Lab, openLab } from './harness.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (p: string): any => JSON.parse(readFileSync(p, 'utf8'));
const golden = (task: string) => readJson(join(REFERENCE, 'golden', 'fembench', `${task}.json`));
const MODELS = join(REFERENCE, 'golden', 'fembench_models');

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];

const text = (id: string) => page.locator(`[data-testid=${id}]`).innerText();
const idle = () => page.waitForFunction(() => !document.querySelector('[data-testid=fem-progress]'), undefined, { timeout: 60_000 });
const femFrames = () => page.evaluate(() => window.__structlab!.viewers()['fem-frame']?.frames ?? 0);

beforeAll(async () => {
  lab = await openLab('?fresh#/fem', { width: 1280, height: 860 });
  ({ page, pageErrors } = lab);
  await page.locator('[data-testid=fem-page]').waitFor();
  await page.waitForFunction(() => (window.__structlab?.viewers()['fem-frame']?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('FEM-Bench page', () => {
  it('opens on an embedded frame (the braced portal of linear_elastic case 2) and renders it', async () => {
    expect(await page.locator('[data-testid=fem-example]').inputValue()).toBe('portal-braced');
    expect(await femFrames()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid=fem-tables] tbody tr').count()).toBe(6 + 10);
  });

  it('linear solve: deformed shape with a colour bar and the golden reactions (to the 6 digits shown)', async () => {
    const before = await femFrames();
    await page.locator('[data-testid=fem-run-linear]').click();
    await page.locator('[data-testid=fem-linear-results]').waitFor({ timeout: 30_000 });
    await idle();
    const [u, r] = golden('MSA_3D_linear_elastic_CC0_H6_T1').cases[2].output as number[][];
    expect(Number(await text('fem-reaction-3-FZ'))).toBe(Number(r[6 * 3 + 2].toPrecision(6)));
    expect(Number(await text('fem-reaction-0-FX'))).toBe(Number(r[0].toPrecision(6)));
    await expect(page.locator('[data-testid=fem-colorbar]').isVisible()).resolves.toBe(true);
    let maxU = 0;
    for (let i = 0; i < 6; i++) maxU = Math.max(maxU, Math.hypot(u[6 * i], u[6 * i + 1], u[6 * i + 2]));
    expect(Number(await text('fem-colorbar-top'))).toBe(Number(maxU.toPrecision(3)));
    await page.waitForFunction((n) => (window.__structlab!.viewers()['fem-frame']?.frames ?? 0) > n, before);
  });

  it('buckling: the Euler column λ_cr equals the golden elastic_critical_load value (8 digits shown); the mode animates', async () => {
    await page.locator('[data-testid=fem-example]').selectOption('cantilever-euler');
    await page.locator('[data-testid=fem-run-buckling]').click();
    await page.locator('[data-testid=fem-lambda-cr]').waitFor({ timeout: 30_000 });
    await idle();
    const lambda = golden('MSA_3D_elastic_critical_load_CC1_H10_T1').cases[5].output[0] as number;
    expect(Number(await text('fem-lambda-cr'))).toBe(Number(lambda.toPrecision(8)));
    // Playing: the view keeps rendering on its own.
    const f0 = await femFrames();
    await page.waitForFunction((n) => (window.__structlab!.viewers()['fem-frame']?.frames ?? 0) > n + 10, f0, { timeout: 30_000 });
    await page.locator('[data-testid=fem-play]').click(); // pause
    expect(await page.locator('[data-testid=fem-play]').innerText()).toBe('play');
  });

  it("an unsupported frame gives the solver's ill-conditioning message", async () => {
    await page.locator('[data-testid=fem-example]').selectOption('cantilever-beam');
    await page.locator('[aria-label="node 0 fix UX"]').uncheck();
    await page.locator('[aria-label="node 0 fix UY"]').uncheck();
    await page.locator('[aria-label="node 0 fix UZ"]').uncheck();
    await page.locator('[data-testid=fem-run-linear]').click();
    await page.locator('[data-testid=fem-error]').waitFor({ timeout: 30_000 });
    expect(await text('fem-error')).toMatch(/ill-conditioned/);
  });

  it('2D: a Q8 mesh of 3×2 cells has (2·3+1)(2·2+1) − 3·2 = 29 nodes; moving a corner inverts an element', async () => {
    await page.locator('[data-testid=fem-tab-2d]').click();
    await page.locator('[data-testid=fem-2d-svg]').waitFor();
    expect(await text('fem-2d-nodes')).toBe('29');
    expect(await text('fem-2d-elements')).toBe('6');
    await page.locator('[data-testid=fem-2d-nx]').fill('4');
    await page.waitForFunction(() => document.querySelector('[data-testid=fem-2d-nodes]')?.textContent === String(9 * 5 - 8));
    expect(await text('fem-2d-inverted')).toBe('No inverted element.');
    await page.locator('[data-testid=fem-2d-node-0]').dispatchEvent('pointerdown');
    await page.locator('[data-testid=fem-2d-node-x]').fill('2.5');
    await page.locator('[data-testid=fem-2d-node-y]').fill('1.8');
    await page.waitForFunction(() => /Inverted/.test(document.querySelector('[data-testid=fem-2d-inverted]')?.textContent ?? ''));
    expect(await text('fem-2d-inverted')).toMatch(/element[s]? 0/);
  });

  it("benchmark vs physics: the inverted Q8 element brings the signed-det-J note, the Euler column's repeated λ_cr its note", async () => {
    // still on the 2D tab with element 0 inverted by the previous step
    await page.locator('[data-testid=fem-quirk-2d-signed-detj]').waitFor();
    expect(await text('fem-quirks')).toMatch(/Benchmark vs physics/);
    await page.getByRole('button', { name: 'reset nodes' }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid=fem-2d-inverted]')?.textContent === 'No inverted element.');
    expect(await page.locator('[data-testid=fem-quirk-2d-signed-detj]').count()).toBe(0);
    // the circular column under axial load: golden case notes say selected_eigenvalue_multiplicity = 2
    await page.locator('[data-testid=fem-tab-frame]').click();
    await page.locator('[data-testid=fem-example]').selectOption('cantilever-euler');
    expect(await page.locator('[data-testid=fem-quirk-3d-repeated-eigenvalue]').count()).toBe(0);
    await page.locator('[data-testid=fem-run-buckling]').click();
    await page.locator('[data-testid=fem-lambda-cr]').waitFor({ timeout: 30_000 });
    await idle();
    await page.locator('[data-testid=fem-quirk-3d-repeated-eigenvalue]').waitFor();
    await page.locator('[data-testid=fem-quirk-3d-i-rho]').waitFor();
  });

  it('1D: the bar solution matches the closed form at the nodes', async () => {
    await page.locator('[data-testid=fem-tab-1d]').click();
    await page.locator('[data-testid=fem-1d-u]').waitFor();
    expect(Number(await text('fem-1d-error'))).toBeLessThan(1e-15);
    expect(Number(await text('fem-1d-reaction'))).toBe(-3000);
  });

  for (const task of ['MSA_3D_linear_elastic_CC0_H6_T1', 'MSA_3D_transformation_matrix_CC0_H0_T0']) {
    it(`model outputs: gemini-2.5-pro on ${task} gets the file's benchmark_verdict`, async () => {
      await page.locator('[data-testid=fem-tab-outputs]').click();
      const outputs = join(MODELS, 'gemini-2.5-pro', `${task}.json`);
      await page.locator('[data-testid=fem-cases-input]').setInputFiles(join(MODELS, 'verification', `${task}.json`));
      await page.locator('[data-testid=fem-outputs-input]').setInputFiles(outputs);
      await page.waitForFunction((t) => document.querySelector('[data-testid=fem-outputs] strong')?.textContent === t, task, {
        timeout: 30_000,
      });
      await idle();
      const expected = readJson(outputs).benchmark_verdict ? 'pass' : 'fail';
      expect(await text('fem-verdict')).toBe(expected);
      expect(await text('fem-file-verdict')).toBe(expected);
      if (expected === 'fail') expect(await page.locator('[data-testid=fem-heatmap]').count()).toBeGreaterThan(0);
    });
  }

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
