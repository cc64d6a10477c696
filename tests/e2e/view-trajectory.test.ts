/**
 * A 200-frame extended XYZ as a trajectory on the Structure page (issue 15): it plays (the frame advances by itself),
 * pauses, scrubs to a frame, steps, and its per-frame energy readout and plot follow the energies written in the file.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, textFile, waitIdle } from './harness.ts';
import { openWithFile } from './open.ts';

const FRAMES = 200;
const energy = (k: number) => -10 + 0.01 * k + 0.5 * Math.sin(k / 7);
const TRAJ = Array.from({ length: FRAMES }, (_, k) => {
  const x = 0.1 * Math.sin(k / 5);
  return `2\nLattice="4 0 0 0 4 0 0 0 4" Properties=species:S:1:pos:R:3 energy=${energy(k)} pbc="T T T"\nNa 0 0 0\nCl ${2 + x} 2 2\n`;
}).join('');

let lab: Lab;
let page: Page;
const frameText = () => page.locator('[data-testid=traj-frame]').innerText();

beforeAll(async () => {
  lab = await openWithFile(textFile('md.extxyz', TRAJ), { ready: '[data-testid=trajectory]' });
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

describe('trajectory player', () => {
  it('lists 200 frames and reads the first frame’s energy from the file', async () => {
    expect(await frameText()).toBe(`1 / ${FRAMES}`);
    expect(await page.locator('[data-testid=traj-value]').innerText()).toBe(`energy (eV) at frame 1: ${energy(0).toPrecision(6)}`);
    expect(await page.locator('[data-testid=traj-plot] canvas').count()).toBeGreaterThan(0);
  });

  it('plays (the frame advances by itself) and pauses', async () => {
    await page.locator('[data-testid=traj-speed]').selectOption('20');
    await page.locator('[data-testid=traj-play]').click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid=traj-frame]')?.textContent?.split(' ')[0]) >= 4,
      undefined,
      {
        timeout: 60_000,
      },
    );
    await page.locator('[data-testid=traj-play]').click();
    await waitIdle(page);
    const paused = await frameText();
    await page.waitForTimeout(500);
    expect(await frameText()).toBe(paused);
  });

  it('scrubs and steps; the readout follows the file’s energies', async () => {
    for (const frame of [150, 37, 200]) {
      await page.locator('[data-testid=traj-scrub]').fill(String(frame));
      await page.waitForFunction((f) => document.querySelector('[data-testid=traj-frame]')?.textContent?.startsWith(`${f} /`), frame, {
        timeout: 30_000,
      });
      await waitIdle(page);
      expect(await page.locator('[data-testid=traj-value]').innerText()).toBe(
        `energy (eV) at frame ${frame}: ${energy(frame - 1).toPrecision(6)}`,
      );
    }
    await page.locator('[data-testid=traj-back]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=traj-frame]')?.textContent?.startsWith('199 /'), undefined, {
      timeout: 30_000,
    });
    expect(lab.pageErrors).toEqual([]);
  });
});
