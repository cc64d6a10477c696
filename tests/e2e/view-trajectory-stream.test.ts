/**
 * A streamed trajectory (issue 15): with the streaming threshold lowered (`?streamBytes=`), a 300-atom × 400-frame
 * extended XYZ goes to the trajectory worker as its File, is indexed there and read frame by frame. It plays, scrubs and
 * steps; its per-frame energies (from the worker's index scan) equal the file's; the atoms shown are the frame's; the
 * worker holds only a few frames. Then several files opened as frames play in natural order of their names.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, textFile, waitIdle } from './harness.ts';
import { openWithFile } from './open.ts';

const FRAMES = 400;
const ATOMS = 300;
const energy = (k: number) => -1200 + 0.25 * k + 3 * Math.sin(k / 11);
const frame = (k: number) => {
  const lines = [`${ATOMS}`, `Lattice="20 0 0 0 20 0 0 0 ${20 + k / 100}" Properties=species:S:1:pos:R:3 energy=${energy(k)} pbc="T T T"`];
  for (let i = 0; i < ATOMS; i++)
    lines.push(`${i % 3 ? 'O' : 'Si'} ${(i % 10) * 2 + 0.001 * k} ${Math.floor(i / 10) % 10} ${Math.floor(i / 100) * 3}`);
  return lines.join('\n') + '\n';
};
const TRAJ = Array.from({ length: FRAMES }, (_, k) => frame(k)).join('');

let lab: Lab;
let page: Page;
const frameText = () => page.locator('[data-testid=traj-frame]').innerText();
const atFrame = (f: number) =>
  page.waitForFunction((n) => document.querySelector('[data-testid=traj-frame]')?.textContent?.startsWith(`${n} /`), f, {
    timeout: 30_000,
  });
/** The shown structure's c (Å), read from the Structure panel: frame k's cell has c = 20 + k / 100. */
const cellC = async () => Number((await page.locator('[data-testid=lattice]').innerText()).split(',')[2]);

beforeAll(async () => {
  lab = await openWithFile(textFile('run.extxyz', TRAJ), {
    path: '?fresh&streamBytes=100000',
    ready: '[data-testid=trajectory][data-streamed=yes]',
  });
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

describe('streamed trajectory', () => {
  it('is streamed (not a session file) and its per-frame energies are the file’s', async () => {
    expect(await frameText()).toBe(`1 / ${FRAMES}`);
    expect(await page.locator('[data-testid=traj-streamed]').innerText()).toMatch(/streamed from the file.*not kept across reloads/);
    expect(await page.locator('[data-testid=traj-value]').innerText()).toBe(`energy (eV) at frame 1: ${energy(0).toPrecision(6)}`);
    expect(await page.locator('[data-testid=traj-plot] canvas').count()).toBeGreaterThan(0);
    await page.locator('[data-testid=trajectory] details summary').click();
    const csv = await page.locator('[data-testid=traj-csv]').inputValue();
    const rows = csv.trim().split(/\r?\n/);
    expect(rows[0]).toBe('frame,energy (eV)');
    expect(rows.slice(1).map((r) => Number(r.split(',')[1]))).toEqual(Array.from({ length: FRAMES }, (_, k) => energy(k)));
    // The panel is ready once the worker has indexed the file; the structure panel follows when frame 1 arrives.
    await page.waitForFunction((n) => document.querySelector('[data-testid=natoms]')?.textContent?.includes(n), String(ATOMS), {
      timeout: 30_000,
    });
  });

  it('plays and pauses; the worker holds only a few frames', async () => {
    await page.locator('[data-testid=traj-speed]').selectOption('60');
    await page.locator('[data-testid=traj-play]').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=traj-frame]')?.textContent?.split(' ')[0]) >= 12,
      undefined,
      {
        timeout: 60_000,
      },
    );
    await page.locator('[data-testid=traj-play]').click();
    await waitIdle(page);
    await page.waitForFunction(() => document.querySelector('[data-testid=trajectory]')?.getAttribute('data-loading') === 'no');
    const paused = await frameText();
    await page.waitForTimeout(400);
    expect(await frameText()).toBe(paused);
    expect(Number(await page.locator('[data-testid=traj-cached]').innerText())).toBeLessThanOrEqual(4);
  });

  it('scrubs and steps: the readout and the atoms follow the frame', async () => {
    for (const f of [350, 37, 400]) {
      await page.locator('[data-testid=traj-scrub]').fill(String(f));
      await atFrame(f);
      await waitIdle(page);
      expect(await page.locator('[data-testid=traj-value]').innerText()).toBe(`energy (eV) at frame ${f}: ${energy(f - 1).toPrecision(6)}`);
      expect(await cellC()).toBeCloseTo(20 + (f - 1) / 100, 3);
    }
    await page.locator('[data-testid=traj-back]').click();
    await atFrame(399);
    expect(await cellC()).toBeCloseTo(23.98, 3);
    expect(Number(await page.locator('[data-testid=traj-cached]').innerText())).toBeLessThanOrEqual(4);
    expect(lab.pageErrors).toEqual([]);
  });

  it('plots the per-frame metrics pass (c follows the cell, min distance 1 Å) and the space group per frame on request', async () => {
    const seriesValues = async (name: string) => {
      await page.locator('[data-testid=traj-series]').selectOption(name);
      const csv = await page.locator('[data-testid=traj-csv]').inputValue();
      return csv
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((r) => (r.split(',')[1] === '' ? null : Number(r.split(',')[1])));
    };
    await page
      .locator('[data-testid=traj-series] option', { hasText: 'shortest distance (Å)' })
      .waitFor({ state: 'attached', timeout: 60_000 });
    const c = await seriesValues('c (Å)');
    c.forEach((v, k) => expect(v).toBeCloseTo(20 + k / 100, 9));
    // Si/O at x = 2i, y = j, z = 3l: the nearest pair is one step in y.
    for (const v of await seriesValues('min_distance (Å)')) expect(v).toBeCloseTo(1, 9);
    await page.locator('[data-testid=traj-spacegroup]').click();
    await page
      .locator('[data-testid=traj-series] option', { hasText: 'space group number' })
      .waitFor({ state: 'attached', timeout: 120_000 });
    const groups = await seriesValues('space group number (symprec 0.01)');
    expect(groups).toHaveLength(FRAMES);
    expect(groups.every((g) => g === null || (Number.isInteger(g) && g >= 1 && g <= 230))).toBe(true);
    await page.locator('[data-testid=traj-series]').selectOption('energy');
  });

  it('opens several files as frames in natural order (frame_2 before frame_10)', async () => {
    await page.locator('[data-testid=open-as-frames]').check();
    const names = [10, 2, 1, 3].map((k) => `frame_${k}.xyz`);
    await page
      .locator('[data-testid=file-input]')
      // frame_k holds k gold atoms.
      .setInputFiles(names.map((n) => textFile(n, `${/\d+/.exec(n)![0]}\nstep\n${'Au 0 0 0\n'.repeat(Number(/\d+/.exec(n)![0]))}`)));
    await page.waitForFunction(() => document.querySelector('[data-testid=traj-frame]')?.textContent === '1 / 4');
    await waitIdle(page);
    const natoms = async () => Number(await page.locator('[data-testid=natoms]').innerText());
    const counts = [await natoms()];
    for (let f = 2; f <= 4; f++) {
      await page.locator('[data-testid=traj-forward]').click();
      await atFrame(f);
      await waitIdle(page);
      counts.push(await natoms());
    }
    expect(counts).toEqual([1, 2, 3, 10]);
    expect(lab.pageErrors).toEqual([]);
  });
});
