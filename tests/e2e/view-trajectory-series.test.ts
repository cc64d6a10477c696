/**
 * A small multi-frame file (issue 15: read whole, played from the session's structures, not streamed) gets the same
 * per-frame series as a streamed one: the trajectory worker's metrics pass lists max force and min distance, their
 * plotted values equal frameMetrics of the same frames read in Node (src/core/analysis/frame-metrics.ts), and "Space
 * group per frame" gives one value per frame.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameMetrics } from '../../src/core/analysis/frame-metrics.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { packStructure } from '../../src/core/structure/packed.ts';
import { type Lab, textFile, waitIdle } from './harness.ts';
import { openWithFile } from './open.ts';

const FRAMES = 40;
const A = 5.64;
/** Rock salt (4 Na, 4 Cl) with one Cl moving along x, and forces that differ per atom and per frame. */
const frame = (k: number) => {
  const sites: [string, number, number, number][] = [
    ['Na', 0, 0, 0],
    ['Na', 0, 0.5, 0.5],
    ['Na', 0.5, 0, 0.5],
    ['Na', 0.5, 0.5, 0],
    ['Cl', 0.5 + 0.02 * Math.sin(k / 4), 0.5, 0.5],
    ['Cl', 0.5, 0, 0],
    ['Cl', 0, 0.5, 0],
    ['Cl', 0, 0, 0.5],
  ];
  const lines = [
    `${sites.length}`,
    `Lattice="${A} 0 0 0 ${A} 0 0 0 ${A}" Properties=species:S:1:pos:R:3:forces:R:3 energy=${-7012.4 + 0.001 * k} pbc="T T T"`,
  ];
  sites.forEach(([el, x, y, z], i) => {
    const f = [0.3 * Math.sin(k + i), 0.2 * Math.cos(k * 0.7 + i), 0.1 * Math.sin(k * 1.3 - i)];
    lines.push(`${el} ${x * A} ${y * A} ${z * A} ${f.join(' ')}`);
  });
  return lines.join('\n') + '\n';
};
const TRAJ = Array.from({ length: FRAMES }, (_, k) => frame(k)).join('');

/** The expected series, computed here by the core function on the file read in Node. */
function expected(name: string): number[] {
  const r = parseStructureFile(TRAJ, 'relax.extxyz');
  if (!r.ok) throw new Error(r.error);
  expect(r.structures).toHaveLength(FRAMES);
  return r.structures.map((s) => {
    const m = frameMetrics(packStructure(s)).find((x) => x.name === name);
    if (!m) throw new Error(`frameMetrics gives no ${name}`);
    return m.value;
  });
}

let lab: Lab;
let page: Page;

/** The values of series `name` (the worker's), as the player's CSV writes them under `label` (null where a frame has none). */
async function seriesValues(name: string, label = name): Promise<(number | null)[]> {
  await page.locator('[data-testid=traj-series]').selectOption(name);
  const csv = await page.locator('[data-testid=traj-csv]').inputValue();
  const rows = csv.trim().split(/\r?\n/);
  // A name with a comma is quoted (RFC 4180).
  expect(rows[0].replaceAll('"', '')).toBe(`frame,${label}`);
  return rows.slice(1).map((r) => (r.split(',')[1] === '' ? null : Number(r.split(',')[1])));
}

beforeAll(async () => {
  lab = await openWithFile(textFile('relax.extxyz', TRAJ), { ready: '[data-testid=trajectory][data-streamed=no]' });
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

describe('small trajectory series', () => {
  it('lists max force and min distance from the worker’s pass; their values are frameMetrics’', async () => {
    await page.locator('[data-testid=traj-series] option', { hasText: 'largest force' }).waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForFunction(() => document.querySelector('[data-testid=trajectory]')?.getAttribute('data-metrics') === 'done');
    const names = await page.locator('[data-testid=traj-series] option').allInnerTexts();
    expect(names).toEqual(
      expect.arrayContaining(['energy (eV)', 'largest force |F| (eV/Å)', 'shortest distance (Å)', 'volume (Å³)', 'a (Å)']),
    );
    await page.locator('[data-testid=trajectory] details summary').click();
    const force = await seriesValues('max_force (eV/Å)', 'largest force |F| (eV/Å)');
    const want = expected('max_force');
    expect(force).toHaveLength(FRAMES);
    // Not one value repeated: the comparison checks each frame.
    expect(new Set(want).size).toBeGreaterThan(FRAMES / 2);
    force.forEach((v, k) => expect(Math.abs((v ?? NaN) - want[k])).toBeLessThanOrEqual(1e-9));
    const dist = await seriesValues('min_distance (Å)', 'shortest distance (Å)');
    const wantDist = expected('min_distance');
    dist.forEach((v, k) => expect(Math.abs((v ?? NaN) - wantDist[k])).toBeLessThanOrEqual(1e-9));
  });

  it('the plot’s value axis is as wide as its longest tick label (energies near -7012 eV are not cut)', async () => {
    await page.locator('[data-testid=traj-series]').selectOption({ label: 'energy (eV)' });
    const fit = await page.evaluate(() => {
      const axes = document.querySelectorAll<HTMLElement>('[data-testid=traj-plot-chart] .u-axis');
      const ctx = document.createElement('canvas').getContext('2d')!;
      // uPlot's default axis font (leeoniya/uPlot src/opts.js).
      ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
      return { axis: axes[1]?.getBoundingClientRect().width ?? 0, label: ctx.measureText('-7012.40').width };
    });
    expect(fit.label).toBeGreaterThan(30);
    expect(fit.axis).toBeGreaterThanOrEqual(fit.label + 10);
  });

  it('computes the space group per frame on request: one value per frame', async () => {
    await page.locator('[data-testid=traj-spacegroup]').click();
    await page
      .locator('[data-testid=traj-series] option', { hasText: 'space group number' })
      .waitFor({ state: 'attached', timeout: 120_000 });
    const groups = await seriesValues('space group number (symprec 0.01)');
    expect(groups).toHaveLength(FRAMES);
    expect(groups.every((g) => g !== null && Number.isInteger(g) && g >= 1 && g <= 230)).toBe(true);
    // Frame 1 is undistorted rock salt (Fm-3m, 225); the moved Cl lowers the others' symmetry.
    expect(groups[0]).toBe(225);
    expect(groups.some((g) => g !== 225)).toBe(true);
  });

  it('matches every frame against a reference on request: frame 1 is the reference itself', async () => {
    await page.locator('[data-testid=traj-reference]').setInputFiles(textFile('ref.extxyz', frame(0)));
    await page
      .locator('[data-testid=traj-series] option', { hasText: 'RMSD to ref.extxyz' })
      .waitFor({ state: 'attached', timeout: 120_000 });
    const rms = await seriesValues('RMSD to ref.extxyz (normalised)');
    expect(rms).toHaveLength(FRAMES);
    expect(rms[0]).toBeCloseTo(0, 9);
    expect((await seriesValues('matches ref.extxyz (1 yes, 0 no)'))[0]).toBe(1);
  });

  it('still plays from the session’s structures (frames are not streamed)', async () => {
    await page.locator('[data-testid=traj-speed]').selectOption('20');
    await page.locator('[data-testid=traj-play]').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=traj-frame]')?.textContent?.split(' ')[0]) >= 4,
      undefined,
      { timeout: 60_000 },
    );
    await page.locator('[data-testid=traj-play]').click();
    await waitIdle(page);
    expect(await page.locator('[data-testid=trajectory]').getAttribute('data-streamed')).toBe('no');
    expect(lab.pageErrors).toEqual([]);
  });
});
