/**
 * Distance and angle measurement on the default dataset (CsCaH3, Pm-3m, a = 4.6170 Å, published
 * cell). Every drawn atom of that cell sits on the a/2 grid (Ca corners, H edge centres, Cs body
 * centre, boundary images included), so every measured distance must be (a/2)·√k for an integer k,
 * and every angle between grid vectors has cos θ = p/√(qr) with integers p, q, r — checked here
 * without asking the app for positions.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

const HALF = 4.617 / 2;
let lab: Lab;
let page: Page;

beforeAll(async () => {
  lab = await openLab('?fresh', { width: 1100, height: 760 });
  page = lab.page;
  await waitIdle(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
    timeout: 60_000,
  });
  await waitForFrame(page);
});

afterAll(async () => {
  await lab?.close();
});

/** Screen points of the drawn atoms, front to back, at least `gap` CSS pixels apart. */
async function separatedAtoms(count: number, gap: number): Promise<{ i: number; x: number; y: number }[]> {
  return page.evaluate(
    ({ count, gap }) => {
      const sl = window.__structlab!;
      const all: { i: number; x: number; y: number; depth: number }[] = [];
      for (let i = 0; i < sl.natoms(); i++) {
        const p = sl.projectAtom(i);
        if (p) all.push({ i, ...p });
      }
      all.sort((a, b) => a.depth - b.depth);
      const chosen: typeof all = [];
      for (const a of all) {
        if (chosen.every((c) => Math.hypot(c.x - a.x, c.y - a.y) > gap)) chosen.push(a);
        if (chosen.length === count) break;
      }
      return chosen;
    },
    { count, gap },
  );
}

describe('measurement', () => {
  it('reports distances and an angle that lie on the perovskite grid', async () => {
    await page.locator('[data-testid=measure]').click();
    const atoms = await separatedAtoms(3, 60);
    expect(atoms).toHaveLength(3);
    for (const a of atoms) await page.mouse.click(a.x, a.y);
    const panel = page.locator('[data-testid=measurement]');
    await page.waitForFunction(() => /∠/.test(document.querySelector('[data-testid=measurement]')?.textContent ?? ''), undefined, {
      timeout: 10_000,
    });
    const textContent = await panel.innerText();
    const distances = [...textContent.matchAll(/=\s*([0-9.]+)\s*Å/g)].map((m) => Number(m[1]));
    const angle = Number(/=\s*([0-9.]+)\s*°/.exec(textContent)![1]);
    expect(distances).toHaveLength(2);
    for (const d of distances) {
      const k = (d / HALF) ** 2;
      expect(d).toBeGreaterThan(0);
      expect(Math.abs(k - Math.round(k)), `${d} Å is not (a/2)·√k`).toBeLessThan(2e-3 * Math.max(1, k));
    }
    // cos θ = p / √(q r) with q, r the squared lengths in (a/2)² units and p an integer dot product.
    const [q, r] = distances.map((d) => Math.round((d / HALF) ** 2));
    const p = Math.cos((angle * Math.PI) / 180) * Math.sqrt(q * r);
    expect(Math.abs(p - Math.round(p)), `angle ${angle}° is not between grid vectors`).toBeLessThan(0.02);
  });
});
