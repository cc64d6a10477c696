/**
 * A small multi-frame extended XYZ on the Structure page (issue 21): matterviz's 7-frame MACE relaxation
 * (tests/reference/corpus/files, its README names the source). Its series have readable names with units and rounded
 * readouts, the energy is plotted first, and Play at 5 frames/s steps frame after frame, each one drawn before the
 * next is asked for (the `body[data-rendered]` counter advances between two frames), with no space-group search per
 * frame (it comes back on Pause).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpusText } from '../../scripts/support/paths.ts';
import { type Lab, textFile, waitIdle } from './harness.ts';
import { openWithFile } from './open.ts';

const FILE = 'matterviz-V8Ta12W71Re8-mace-omat.xyz';
const FRAMES = 7;

let lab: Lab;
let page: Page;

beforeAll(async () => {
  lab = await openWithFile(textFile('mace.extxyz', readCorpusText(FILE)), {
    ready: '[data-testid=trajectory][data-streamed=no][data-metrics=done]',
  });
  page = lab.page;
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

describe('small trajectory: what the panel shows', () => {
  it('names every series readably with its unit (the file’s info:max_force as max_force) and plots the energy first', async () => {
    const options = await page
      .locator('[data-testid=traj-series] option')
      .evaluateAll((o) => o.map((x) => ({ value: (x as HTMLOptionElement).value, label: x.textContent })));
    expect(options.map((o) => o.label)).toEqual([
      'energy (eV)',
      'max_force (eV/Å)',
      'volume (Å³)',
      'a (Å)',
      'b (Å)',
      'c (Å)',
      'α (°)',
      'β (°)',
      'γ (°)',
      'shortest distance (Å)',
    ]);
    expect(options.some((o) => o.label?.includes('info:'))).toBe(false);
    expect(await page.locator('[data-testid=traj-series]').inputValue()).toBe('energy');
    // The file's energy=-701.3836929723975, six significant digits.
    expect(await page.locator('[data-testid=traj-value]').innerText()).toBe('energy (eV) at frame 1: -701.384');
    await page.locator('[data-testid=traj-series]').selectOption('volume (Å³)');
    // The cell of frame 1 is 966.9110… Å³.
    await page.locator('[data-testid=traj-value]', { hasText: /^volume \(Å³\) at frame 1: 966\.911$/ }).waitFor();
    await page.locator('[data-testid=traj-series]').selectOption('energy');
  });
});

describe('small trajectory: playing', () => {
  it('plays at 5 frames/s frame after frame, each drawn before the next, without a space-group search per frame', async () => {
    expect(await page.locator('[data-testid=spacegroup]').innerText()).toMatch(/\(\d+\)$/);
    // Every change of the frame counter, with the rendered-frame counter and whether the player says it is playing.
    await page.evaluate(() => {
      const log: { frame: string; rendered: number; playing: string | null; spacegroup: string }[] = [];
      (window as unknown as { __playLog: typeof log }).__playLog = log;
      const counter = document.querySelector('[data-testid=traj-frame]')!;
      new MutationObserver(() => {
        const frame = counter.textContent ?? '';
        if (log.at(-1)?.frame === frame) return;
        log.push({
          frame,
          rendered: Number(document.body.dataset.rendered),
          playing: document.querySelector('[data-testid=trajectory]')!.getAttribute('data-playing'),
          spacegroup: document.querySelector('[data-testid=spacegroup]')?.textContent ?? '',
        });
      }).observe(counter, { subtree: true, childList: true, characterData: true });
    });
    expect(await page.locator('[data-testid=traj-speed]').inputValue()).toBe('5');
    await page.locator('[data-testid=traj-play]').click();
    // Once round the loop and on: frames 2 … 7, 1, 2.
    await page.waitForFunction((n) => (window as unknown as { __playLog: unknown[] }).__playLog.length >= n, FRAMES + 1, {
      timeout: 60_000,
    });
    await page.locator('[data-testid=traj-play]').click();
    await page.locator('[data-testid=trajectory][data-playing=no]').waitFor();
    const log = await page.evaluate(() =>
      (
        window as unknown as { __playLog: { frame: string; rendered: number; playing: string | null; spacegroup: string }[] }
      ).__playLog.slice(),
    );
    const played = log.slice(0, FRAMES + 1);
    expect(played.map((e) => e.frame)).toEqual([2, 3, 4, 5, 6, 7, 1, 2].map((k) => `${k} / ${FRAMES}`));
    expect(played.every((e) => e.playing === 'yes')).toBe(true);
    // Each frame was drawn before the next one replaced it: no frame skipped unseen.
    for (let k = 1; k < played.length; k++) expect(played[k].rendered, `frame ${played[k].frame}`).toBeGreaterThan(played[k - 1].rendered);
    // Playing frames are not searched for their space group (as a streamed trajectory's are not) …
    expect(played.slice(1).every((e) => e.spacegroup === 'not searched (see notes)')).toBe(true);
    // … and the paused one is.
    await waitIdle(page);
    await page.waitForFunction(() => /\(\d+\)$/.test(document.querySelector('[data-testid=spacegroup]')?.textContent ?? ''), undefined, {
      timeout: 30_000,
    });
    expect(lab.pageErrors).toEqual([]);
  });

  it('an open Diffraction panel waits while frames play and computes the paused frame’s pattern', async () => {
    const panel = page.locator('[data-testid=xrd-panel]');
    if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await panel.locator('> summary').click();
    await page.locator('[data-testid=xrd-plot] canvas').waitFor({ timeout: 60_000 });
    // Every hint the panel shows while playing: only the wait, never a computation per frame.
    await page.evaluate(() => {
      const hints = new Set<string>();
      (window as unknown as { __xrdHints: Set<string> }).__xrdHints = hints;
      const xrd = document.querySelector('[data-testid=xrd-panel]')!;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid=trajectory]')?.getAttribute('data-playing') !== 'yes') return;
        for (const h of xrd.querySelectorAll('p.hint')) hints.add(h.textContent ?? '');
      }).observe(xrd, { subtree: true, childList: true, characterData: true });
    });
    const frame = () => page.locator('[data-testid=traj-frame]').innerText();
    const start = await frame();
    await page.locator('[data-testid=traj-play]').click();
    await page.waitForFunction((f) => document.querySelector('[data-testid=traj-frame]')?.textContent !== f, start, { timeout: 30_000 });
    await page.getByText('computed when playback pauses…').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid=traj-play]').click();
    await page.locator('[data-testid=trajectory][data-playing=no]').waitFor();
    await page.locator('[data-testid=xrd-plot] canvas').waitFor({ timeout: 60_000 });
    await waitIdle(page);
    expect(await page.locator('[data-testid=xrd-panel] p.hint', { hasText: 'computed when playback pauses' }).count()).toBe(0);
    const hints = await page.evaluate(() => [...(window as unknown as { __xrdHints: Set<string> }).__xrdHints]);
    expect(hints.filter((h) => /…$/.test(h))).toEqual(['computed when playback pauses…']);
    expect(lab.pageErrors).toEqual([]);
  });
});
