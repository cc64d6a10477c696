/**
 * Touch gestures on the Structure page's viewer (issue 15; built app, headless Chromium on SwiftShader, touches sent
 * through CDP Input.dispatchTouchEvent): the canvas takes touches from the page (touch-action none); a one-finger drag
 * rotates (the camera moves at the same distance from its target), a pinch zooms (the distance shrinks), a tap picks
 * the atom under the finger (the Atom panel shows it), a long press picks nothing, and a double tap refits the view.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontmostAtom, openLab, type Lab, waitForFrame } from './harness.ts';

let lab: Lab;
let page: Page;
let cdp: CDPSession;

type Point = { x: number; y: number; id: number };
const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', touchPoints: Point[]) =>
  cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fingers from `from` to `to` (same ids, same order) in `steps` moves, then lifted. */
async function gesture(from: Point[], to: Point[], steps = 8): Promise<void> {
  await touch('touchStart', from);
  for (let k = 1; k <= steps; k++) {
    const t = k / steps;
    await touch(
      'touchMove',
      from.map((p, j) => ({ id: p.id, x: p.x + (to[j].x - p.x) * t, y: p.y + (to[j].y - p.y) * t })),
    );
  }
  await touch('touchEnd', []);
}

async function tap(x: number, y: number, holdMs = 0): Promise<void> {
  await touch('touchStart', [{ x, y, id: 1 }]);
  if (holdMs) await pause(holdMs);
  await touch('touchEnd', []);
}

interface Camera {
  position: [number, number, number];
  target: [number, number, number];
}
const camera = () => page.evaluate(() => window.__structlab!.viewer('main')!.cameraState()!) as Promise<Camera>;
const distance = (c: Camera) => Math.hypot(...c.position.map((v, k) => v - c.target[k]));

/** The canvas's centre (page pixels). */
async function centre(): Promise<{ x: number; y: number }> {
  const r = (await page.locator('[data-testid=viewer] canvas').boundingBox())!;
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

beforeAll(async () => {
  lab = await openLab('?fresh');
  page = lab.page;
  await page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
  await waitForFrame(page);
  cdp = await page.context().newCDPSession(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('touch gestures', () => {
  it('the canvas keeps touches from scrolling or zooming the page', async () => {
    expect(await page.locator('[data-testid=viewer] canvas').evaluate((el) => getComputedStyle(el).touchAction)).toBe('none');
  });

  it('a one-finger drag rotates about the target; a pinch zooms in', async () => {
    const c = await centre();
    const start = await camera();
    let frames = await page.evaluate(() => Number(document.body.dataset.rendered));
    await gesture([{ ...c, id: 1 }], [{ x: c.x + 120, y: c.y + 30, id: 1 }]);
    await waitForFrame(page, frames);
    const rotated = await camera();
    expect(Math.hypot(...rotated.position.map((v, k) => v - start.position[k]))).toBeGreaterThan(0.5);
    expect(distance(rotated)).toBeCloseTo(distance(start), 4);
    expect(rotated.target).toEqual(start.target);

    frames = await page.evaluate(() => Number(document.body.dataset.rendered));
    await gesture(
      [
        { x: c.x - 40, y: c.y, id: 1 },
        { x: c.x + 40, y: c.y, id: 2 },
      ],
      [
        { x: c.x - 160, y: c.y, id: 1 },
        { x: c.x + 160, y: c.y, id: 2 },
      ],
    );
    await waitForFrame(page, frames);
    const pinched = await camera();
    expect(distance(pinched)).toBeLessThan(0.8 * distance(rotated));
    expect(await page.locator('[data-testid=atom-info]').count()).toBe(0); // no finger of the pinch picked
    expect(lab.pageErrors).toEqual([]);
  });

  it('a long press picks nothing; a tap picks the atom under the finger', async () => {
    await page.keyboard.press('r'); // back from the pinch's close-up: every atom in view
    await waitForFrame(page);
    const atom = (await frontmostAtom(page))!;
    await tap(atom.x, atom.y, 800);
    await pause(300);
    await waitForFrame(page);
    expect(await page.locator('[data-testid=atom-info]').count()).toBe(0);
    await pause(400); // not a double tap with the long press
    await tap(atom.x, atom.y);
    await page.locator('[data-testid=atom-info]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=atom-info]').getAttribute('data-atom')).toBe(String(atom.i));
    expect(lab.pageErrors).toEqual([]);
  });

  it('a double tap refits the view (the camera the r key gives)', async () => {
    await page.keyboard.press('r');
    const fitted = await camera();
    const c = await centre();
    const frames = await page.evaluate(() => Number(document.body.dataset.rendered));
    await gesture([{ x: c.x - 200, y: c.y + 150, id: 1 }], [{ x: c.x - 60, y: c.y + 100, id: 1 }]);
    await waitForFrame(page, frames);
    expect(Math.hypot(...(await camera()).position.map((v, k) => v - fitted.position[k]))).toBeGreaterThan(0.5);
    await pause(400);
    // Both taps in a corner of the view, away from the atoms.
    const r = (await page.locator('[data-testid=viewer] canvas').boundingBox())!;
    await tap(r.x + 15, r.y + r.height - 15);
    await pause(80);
    await tap(r.x + 17, r.y + r.height - 16);
    await page.waitForFunction(
      (p) => {
        const s = window.__structlab!.viewer('main')!.cameraState()!;
        return s.position.every((v, k) => Math.abs(v - p[k]) < 1e-6);
      },
      fitted.position,
      { timeout: 30_000 },
    );
    expect(lab.pageErrors).toEqual([]);
  });
});
